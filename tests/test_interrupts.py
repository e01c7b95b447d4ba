"""Interrupt-safe runs (issue #25, item 4): SIGTERM, SIGUSR1 and Ctrl-C stop a run after its chunk with a
checkpoint, one line and exit status 75, and `camel-jax resume` continues exactly (MJX: the resumed run's rows equal
the uninterrupted run's bit for bit); a run stopped before its first training step leaves nothing that
blocks its --out; `resume --total-steps N` extends a finished run. Both algorithms, both backends (PPO on MJX: its
stop before the first step here, its exact resume in tests/test_ppo.py); the runs are
tests/test_golden.py's tiny arms, the uninterrupted ones trained once for the suite (conftest.py's golden_run)."""

from __future__ import annotations

import json
import os
import shutil
import signal
from pathlib import Path

import pytest
from test_golden import ARMS, differences

from camel_jax import cli
from camel_jax.core import checkpoint, runs, signals
from camel_jax.core.progress import Progress

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*args) -> int:
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        return cli.main([*map(str, args)])
    finally:
        os.chdir(cwd)


def signal_after_first_log(monkeypatch, signum):
    """Send `signum` to this process right after the run's first log row (the chunk's checkpoint still to come)."""
    log, sent = Progress.log, []

    def log_then_signal(self, run_dir, step, row):
        log(self, run_dir, step, row)
        if not sent:
            sent.append(step)
            os.kill(os.getpid(), signum)

    monkeypatch.setattr(Progress, "log", log_then_signal)
    return sent


def test_a_signal_only_sets_the_request_and_the_handlers_are_put_back():
    before = signal.getsignal(signal.SIGTERM)
    with signals.stop_requests() as stop:
        os.kill(os.getpid(), signal.SIGUSR1)
        os.kill(os.getpid(), signal.SIGTERM)
        assert stop.requested == "SIGUSR1"  # the first one names the stop
        with pytest.raises(KeyboardInterrupt):  # a second Ctrl-C stops at once
            os.kill(os.getpid(), signal.SIGINT)
    assert signal.getsignal(signal.SIGTERM) is before


@pytest.mark.heavy  # MJX resumes exactly after a kill in test_resume.py; the stop's path on gymnasium below
@pytest.mark.parametrize("arm, signum", [("td3_mjx", signal.SIGTERM)])  # PPO's MJX resume is exact: test_ppo.py
def test_mjx_run_stopped_after_a_chunk_resumes_bit_for_bit(arm, signum, tmp_path, monkeypatch, capsys, golden_run):
    whole = golden_run(arm)  # the same run uninterrupted, made on this machine (the golden rows are a machine's)
    out = tmp_path / arm
    sent = signal_after_first_log(monkeypatch, signum)
    rc = run_cli("train", *ARMS[arm], "--quiet", "--out", out)
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == signals.EXIT_INTERRUPTED
    name = signal.Signals(signum).name
    assert err[-1] == (f"camel-jax train: stopped by {name} at env step {sent[0]:,}, checkpoint written; continue "
                       f"with camel-jax resume {out}")
    assert runs.has_checkpoint(out) and runs.last_logged_step(out) == sent[0] and not (out / "actor.msgpack").exists()
    monkeypatch.undo()
    assert run_cli("resume", out, "--quiet") == 0
    for csv in ("metrics.csv", "eval.csv"):
        assert not differences((whole / csv).read_text(), (out / csv).read_text()), csv


@pytest.mark.parametrize("arm, signum", [("td3_gymnasium", signal.SIGINT), ("ppo_gymnasium", signal.SIGUSR1)])
def test_gymnasium_run_stopped_after_a_chunk_resumes_to_the_end(arm, signum, tmp_path, monkeypatch, capsys):
    out = tmp_path / arm
    sent = signal_after_first_log(monkeypatch, signum)
    assert run_cli("train", *ARMS[arm], "--quiet", "--out", out) == signals.EXIT_INTERRUPTED
    assert f"stopped by {signal.Signals(signum).name} at env step" in capsys.readouterr().err
    assert runs.has_checkpoint(out) and runs.last_logged_step(out) == sent[0]
    monkeypatch.undo()
    # the stopped run is evaluated at its checkpoint as it is, unresumed (its policy there, not a final actor)
    assert run_cli("eval", out, "--step", sent[0], "--episodes", 1) == 0
    assert json.loads((out / f"eval_step_{sent[0]}.json").read_text())["step"] == sent[0]
    assert not (out / "actor.msgpack").exists() and not (out / "eval_final.json").exists()
    assert run_cli("resume", out, "--quiet") == 0
    total = json.loads((out / "config.json").read_text())["total_steps"]
    assert runs.last_logged_step(out) == total and (out / "actor.msgpack").is_file()


@pytest.mark.parametrize("arm", ["td3_gymnasium", "ppo_mjx"])
def test_a_run_stopped_before_its_first_step_leaves_nothing_behind(arm, tmp_path, monkeypatch, capsys):
    """The signal comes once the run is set up, before its first chunk (and so before its compilation): no
    directory is left, and the same --out then trains without --overwrite."""
    init = Progress.__init__

    def init_then_signal(self, *args, **kwargs):
        init(self, *args, **kwargs)
        os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(Progress, "__init__", init_then_signal)
    out = tmp_path / "run"
    assert run_cli("train", *ARMS[arm], "--quiet", "--out", out) == signals.EXIT_INTERRUPTED
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        "camel-jax train: stopped by SIGTERM before the first training step; nothing was kept (train again)")
    assert not out.exists()
    # a directory left by a run killed outright (SIGKILL) before its first step does not block --out either
    out.mkdir()
    (out / "config.json").write_text("{}")
    (out / "metrics.csv").write_text("step,seed\n")
    assert runs.never_trained(out)
    from camel_jax.algos.td3.config import Config

    assert runs.create(Config(out=str(out)), "none", "0") == out and json.loads((out / "config.json").read_text())


def test_resume_total_steps_extends_a_finished_run(tmp_path, golden_run):
    run_dir = tmp_path / "run"
    shutil.copytree(golden_run("td3_gymnasium"), run_dir)  # 2,000 steps: its replay buffer holds all 2,000 rows
    assert run_cli("resume", run_dir, "--quiet") == 2  # finished: nothing to do
    assert run_cli("resume", run_dir, "--quiet", "--total-steps", "1500") == 2  # below what it logged
    assert run_cli("resume", run_dir, "--quiet", "--total-steps", "3000") == 0  # the buffer grows to 3,000 rows
    assert runs.last_logged_step(run_dir) == 3000 and (run_dir / "actor.msgpack").is_file()
    assert json.loads((run_dir / "config.json").read_text())["total_steps"] == 3000
    _, meta = checkpoint.load(run_dir)
    assert meta["step"] == 3000 and meta["replay_capacity"] == 3000


@pytest.mark.parametrize("arm", ["td3_mjx", "ppo_gymnasium"])
def test_a_signal_during_the_compilation_stops_at_once(arm, tmp_path):
    """Both backends, both algorithms: the first chunk compiles in a helper thread (signals.unless_stopped), so SIGTERM
    sent while it compiles (no compile cache: a real compilation) stops the `camel-jax` process within seconds
    instead of after the compilation, with the one line, status 75, and no run directory left behind."""
    import subprocess
    import sys
    import time

    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "camel_jax.cli", "train", *ARMS[arm], "--no-compile-cache", "--out", str(out)]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "JAX_PLATFORMS": "cpu"})
    for line in proc.stdout:  # the console's note, printed right before the first chunk
        if line.startswith("compiling"):
            break
    time.sleep(1.0 if "mjx" in arm else 0.3)  # inside the first chunk: tracing or compiling
    sent = time.time()
    proc.send_signal(signal.SIGTERM)
    rest, err = proc.communicate(timeout=600)
    waited = time.time() - sent
    assert proc.returncode == signals.EXIT_INTERRUPTED, err[-2000:]
    assert err.strip().splitlines()[-1] == (
        "camel-jax train: stopped by SIGTERM before the first training step; nothing was kept (train again)")
    assert "step " not in rest and not out.exists()  # no log row: the chunk was abandoned, not finished
    assert waited < 15, f"it waited {waited:.0f}s for the compilation"
