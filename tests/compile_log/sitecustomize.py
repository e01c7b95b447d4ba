"""Where the suite's compile time goes (issue #27), by program: with CAMEL_JAX_TEST_COMPILES=FILE, every process of
the test run (pytest's workers, and the CLI runs they start: tests/conftest.py puts this folder on PYTHONPATH) writes
one JSON line per JAX tracing, lowering and XLA compilation (or load from the compilation cache) to FILE: the test
(PYTEST_CURRENT_TEST, inherited by subprocesses), the process, the function's name, the stage and its seconds.
Importing JAX at start-up costs every Python process of such a run about a second: a diagnostic, not for timing."""

import json
import os

if os.environ.get("CAMEL_JAX_TEST_COMPILES"):
    import jax.monitoring

    _FIRST = not getattr(jax.monitoring, "_camel_jax_compile_log", False)  # once per process (conftest runs it too)
    jax.monitoring._camel_jax_compile_log = True

    STAGES = {"/jax/core/compile/jaxpr_trace_duration": "trace",
              "/jax/core/compile/jaxpr_to_mlir_module_duration": "lower",
              "/jax/core/compile/backend_compile_duration": "compile"}

    def _listen(event: str, secs: float, **kw) -> None:
        if event in STAGES:
            with open(os.environ["CAMEL_JAX_TEST_COMPILES"], "a") as f:
                f.write(json.dumps({"test": os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" ", 1)[0],
                                    "pid": os.getpid(), "fun": kw.get("fun_name", ""), "stage": STAGES[event],
                                    "s": round(secs, 3)}) + "\n")

    if _FIRST:
        jax.monitoring.register_event_duration_secs_listener(_listen)
