"""The persistent compilation cache is on by default: a second run of the same command loads its programs from the
cache instead of compiling them; `--no-compile-cache` turns it off. A run of another length loads at least its
initial weights (their own program, camel_jax/core/driver.py's Program.parts)."""

import os
import subprocess
import sys

CMD = [sys.executable, "-m", "camel_jax.cli", "train", "--env", "hopper", "--backend", "gymnasium", "--prior", "none",
       "--seeds", "0", "--total-steps", "300", "--learning-starts", "100", "--eval-episodes", "0", "--hidden", "16,16",
       "--batch-size", "8", "--overwrite", "--quiet"]
HIT = "Persistent compilation cache hit for 'jit_learn_act'"


def _run(tmp_path, cache, *extra):
    env = {**os.environ, "JAX_COMPILATION_CACHE_DIR": str(cache), "JAX_LOG_COMPILES": "1",
           "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": "0"}  # these tiny networks' initial weights compile in < 1 s
    out = subprocess.run([*CMD, "--out", str(tmp_path / "run"), *extra], env=env, capture_output=True, text=True,
                         check=True)
    return out.stderr


def test_second_run_loads_compiled_programs_from_the_cache(tmp_path):
    cache = tmp_path / "cache"
    first = _run(tmp_path, cache)
    assert HIT not in first and "Finished XLA compilation of jit(learn_act)" in first
    assert any(cache.iterdir())  # written on the first run
    assert HIT in _run(tmp_path, cache)  # the second run: no compilation of the training step
    assert HIT not in _run(tmp_path, cache, "--no-compile-cache")
    longer = _run(tmp_path, cache, "--total-steps", "400")  # another replay capacity: another training step
    assert "Persistent compilation cache hit for 'jit_initial_agents'" in longer
    assert HIT not in longer
