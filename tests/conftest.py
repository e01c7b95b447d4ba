"""Shared test settings: CPU only, and a persistent XLA compilation cache so that processes started by the tests
(CLI runs, resumes) reuse compiled programs instead of paying 10-30 s per MJX compile again."""

import os
import tempfile

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("JAX_COMPILATION_CACHE_DIR", os.path.join(tempfile.gettempdir(), "camel-jax-test-xla-cache"))
os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "1")
# XLA's multi-threaded Eigen pool on the CPU has been seen to wedge while a vmapped program's result is fetched, on
# 2-core CI machines (PyAutoLabs/PyAutoFit#1528: 14 hangs in 16 runs with it, none without). The last CI run here
# stopped for good inside the vmapped PPO MJX test. Tests (and the processes they start, which inherit XLA_FLAGS) run
# XLA's CPU kernels single-threaded: bench/README.md found no speed difference beyond the noise on this machine.
EIGEN_OFF = "--xla_cpu_multi_thread_eigen=false"
if EIGEN_OFF not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} {EIGEN_OFF}".strip()
