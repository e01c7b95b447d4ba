"""Shared test settings: CPU only, and a persistent XLA compilation cache so that processes started by the tests
(CLI runs, resumes) reuse compiled programs instead of paying 10-30 s per MJX compile again."""

import fcntl
import os
import shutil
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("JAX_COMPILATION_CACHE_DIR", os.path.join(tempfile.gettempdir(), "camel-jax-test-xla-cache"))
os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "1")


@pytest.fixture(scope="session")
def golden_run(tmp_path_factory):
    """`golden_run(arm)`: the run directory of tests/test_golden.py's arm, trained once per test session and shared
    by every file and every xdist worker (a lock file in the session's common temporary directory): the golden
    comparison, and the uninterrupted runs that tests/test_interrupts.py and tests/test_resume.py compare stopped
    and resumed runs with. Read it; copy it before changing anything in it."""
    base = tmp_path_factory.getbasetemp()
    root = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "golden_runs"
    root.mkdir(exist_ok=True)

    def get(arm: str) -> Path:
        from test_golden import train

        out, done = root / arm, root / f"{arm}.done"
        with open(root / f"{arm}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # another worker training it: wait for its run
            if not done.exists():
                shutil.rmtree(out, ignore_errors=True)
                train(arm, out)
                done.touch()
        return out

    return get


# The test files that take longest from a cold compilation cache, longest first (CPU seconds per file measured with
# CAMEL_JAX_TEST_CPU, 2026-11-27): run first, so that the two xdist workers (.ci/run: --dist loadfile
# --no-loadscope-reorder) end together, the short files filling in at the end, instead of one worker starting a
# minutes-long file when the other has nothing left (xdist's own order is by the number of tests in a file).
LONGEST_FIRST = ("tests/test_resume.py", "tests/test_docs_blocks.py", "tests/test_ppo.py", "tests/test_cli_train.py",
                 "tests/test_task_training.py", "tests/test_env_parity.py", "tests/ultra/test_coherent.py",
                 "tests/test_api.py", "tests/test_golden.py", "tests/test_trainer.py", "tests/test_autoreset.py",
                 "tests/test_interrupts.py", "tests/test_cleanrl_exact.py", "tests/test_sharding.py",
                 "tests/test_preset.py", "tests/priors/test_translate.py", "tests/priors/test_select.py",
                 "tests/priors/test_convert_llm_answers.py", "tests/test_sweep.py", "tests/test_gym_tasks.py")


def pytest_collection_modifyitems(config, items):
    """The longest files first (LONGEST_FIRST; the others after them in collection order, each file's tests in
    theirs). The heavy tier (tests marked heavy: minutes each on 2 CPU cores, each checking what no quicker test does
    end to end) runs with CAMEL_JAX_HEAVY_TESTS=1; without it, each is reported as skipped with how to run it."""
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::")[0], len(rank)))  # stable
    if os.environ.get("CAMEL_JAX_HEAVY_TESTS") == "1":
        return
    skip = pytest.mark.skip(reason="heavy tier: run with CAMEL_JAX_HEAVY_TESTS=1 (docs/contributing.md, Tests)")
    for item in items:
        if "heavy" in item.keywords:
            item.add_marker(skip)


# Which programs the suite compiles, and for how long (issue #27): with CAMEL_JAX_TEST_COMPILES=FILE, this process
# and every Python process it starts log each tracing, lowering and compilation to FILE (tests/compile_log).
if os.environ.get("CAMEL_JAX_TEST_COMPILES"):
    _LOG = str(Path(__file__).parent / "compile_log")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (_LOG, os.environ.get("PYTHONPATH")) if p)
    import importlib.util

    _spec = importlib.util.spec_from_file_location("_compile_log", Path(_LOG) / "sitecustomize.py")
    _spec.loader.exec_module(importlib.util.module_from_spec(_spec))


# Where the suite's time goes (issue #27): with CAMEL_JAX_TEST_CPU=FILE, each test's CPU seconds (this process and
# the subprocesses it waited for, so machine load does not inflate it as it does wall time) go to FILE as JSON lines.
if os.environ.get("CAMEL_JAX_TEST_CPU"):
    import json
    import resource
    import time

    import pytest

    def _cpu() -> float:
        own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item, nextitem):
        cpu, wall, start = _cpu(), time.perf_counter(), time.time()
        yield
        with open(os.environ["CAMEL_JAX_TEST_CPU"], "a") as f:  # start and worker: the run's timeline, per worker
            f.write(json.dumps({"test": item.nodeid, "cpu_s": round(_cpu() - cpu, 2),
                                "wall_s": round(time.perf_counter() - wall, 2), "start": round(start, 2),
                                "worker": os.environ.get("PYTEST_XDIST_WORKER", "main")}) + "\n")

    def pytest_runtest_logreport(report):
        """A failure or skip goes to FILE at once, so a run stopped early still says what failed (written by the
        process that ran the test: xdist's controller, which hears of it again with report.node set, skips it)."""
        if hasattr(report, "node"):
            return
        if report.failed or (report.skipped and report.when == "setup"):
            with open(os.environ["CAMEL_JAX_TEST_CPU"], "a") as f:
                f.write(json.dumps({"test": report.nodeid, "when": report.when, "outcome": report.outcome}) + "\n")
