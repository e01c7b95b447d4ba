"""Shared test settings: CPU only, and a persistent XLA compilation cache so that processes started by the tests
(CLI runs, resumes) reuse compiled programs instead of paying 10-30 s per MJX compile again."""

import os
import tempfile

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("JAX_COMPILATION_CACHE_DIR", os.path.join(tempfile.gettempdir(), "camel-jax-test-xla-cache"))
os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "1")
