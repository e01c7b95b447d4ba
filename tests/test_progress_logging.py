"""Progress reporting (camel_jax/core/progress.py, camel_jax/core/logs.py): plain lines when stderr is not a terminal, a tqdm bar
when it is, nothing with --quiet; TensorBoard event files per member (tags, steps, the purge on resume); Weights &
Biases through a fake `wandb` module (no network), and the one-line error when the package is missing."""

import io
import json
import math
import os
import struct
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
from tensorboardX.proto import event_pb2

from camel_jax.algos.td3.config import Config
from camel_jax.core import runs
from camel_jax.core.progress import Progress

ROOT = Path(__file__).resolve().parents[1]
NAN = float("nan")
TRAIN_TAGS = {f"train/{k}" for k in ("episode_return", "episode_length", "epsilon", "masked_frac", "critic_loss",
                                      "actor_loss", "q1", "steps_per_s")}


def tb_points(logdir: Path) -> dict[str, list[tuple[int, float]]]:
    """{tag: [(step, value)]} as TensorBoard shows them: event files in name order, and a SessionLog START at step P
    (tensorboardX's purge_step) hides the earlier points at steps >= P. A minimal TFRecord reader: each record is
    a uint64 length, a uint32 CRC, the payload, a uint32 CRC."""
    points: dict[str, list[tuple[int, float]]] = {}
    for path in sorted(logdir.glob("events.out.tfevents.*")):
        data, i = path.read_bytes(), 0
        while i < len(data):
            (n,) = struct.unpack("<Q", data[i:i + 8])
            event = event_pb2.Event.FromString(data[i + 12:i + 12 + n])
            i += 12 + n + 4
            if event.HasField("session_log") and event.session_log.status == event_pb2.SessionLog.START:
                points = {tag: [p for p in pts if p[0] < event.step] for tag, pts in points.items()}
            for v in event.summary.value:
                points.setdefault(v.tag, []).append((event.step, v.simple_value))
    return points


def tiny_config(tmp_path, **kw) -> Config:
    return Config(env="hopper", backend="gymnasium", seeds=(0, 1), total_steps=600, learning_starts=300,
                  log_every=300, eval_every=600, out=str(tmp_path / "run"), **kw)


def row(ret0=10.0, ret1=NAN):
    """A chunk's metrics as loop.train passes them: leaves with a leading member axis."""
    return {"episodes": np.array([0 if math.isnan(ret0) else 2, 0 if math.isnan(ret1) else 1]),
            "episode_return": np.array([ret0, ret1]),
            "episode_length": np.array([40.0, NAN]), "epsilon": np.array([0.5, 0.5], np.float32),
            "masked_frac": np.array([0.25, 0.75]), "critic_loss": np.array([1.5, 2.5]),
            "actor_loss": np.array([-1.0, -2.0]), "q1": np.array([3.0, 4.0]), "nonfinite": np.array([0, 0])}


def evals(u=(100.0, 200.0), m=(150.0, 250.0)):
    return {"return_unmasked": np.array(u), "std_unmasked": np.array([1.0, 2.0]), "return_masked": np.array(m),
            "std_masked": np.array([3.0, 4.0])}


def run_progress(config, run_dir, start=0, stream=None, ret=10.0):
    p = Progress(config, time.time(), start, stream=stream)
    for step in (300, 600):
        if step > start:
            p.log(run_dir, step, row(ret0=ret))
    p.log_eval(run_dir, 600, evals())
    p.done(run_dir)


def test_plain_lines_when_stderr_is_not_a_terminal_and_csv_rows_per_member(tmp_path, capsys):
    config = tiny_config(tmp_path, prior="random")  # CAMEL's epsilon (plain TD3 shows none)
    run_dir = runs.create(config, "src", "sha")
    run_progress(config, run_dir)
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert len(lines) == 4 and err == "", (out, err)
    assert lines[0].startswith("step       300/600  return      10.0  eps 0.500") and "steps/s" in lines[0]
    assert lines[1].startswith("step       600/600")
    assert lines[2] == "eval       600  unmasked     150.0  masked     200.0"
    assert lines[3].startswith("done in") and str(run_dir) in lines[3]
    metrics = (run_dir / "metrics.csv").read_text().splitlines()
    assert metrics[0].startswith("step,seed,episodes,episode_return") and len(metrics) == 5
    assert metrics[1].startswith("300,0,2,10,40,0.5,0.25,1.5,-1,3,0,") and metrics[2].startswith("300,1,0,nan,nan")
    evals_csv = [line.split(",") for line in (run_dir / "eval.csv").read_text().splitlines()]
    assert [r[:6] for r in evals_csv[1:]] == [["600", "0", "100", "1", "150", "3"],
                                              ["600", "1", "200", "2", "250", "4"]]


def test_quiet_prints_nothing_but_still_writes_the_csvs_and_tensorboard(tmp_path, capsys):
    config = tiny_config(tmp_path, quiet=True)
    run_dir = runs.create(config, "src", "sha")
    tty = _Tty()
    run_progress(config, run_dir, stream=tty)
    assert capsys.readouterr() == ("", "") and tty.getvalue() == ""
    assert len((run_dir / "metrics.csv").read_text().splitlines()) == 5
    assert tb_points(run_dir / "tb" / "seed0")["train/q1"] == [(300, 3.0), (600, 3.0)]


class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_a_bar_with_rate_epsilon_and_returns_when_stderr_is_a_terminal(tmp_path, capsys):
    config = tiny_config(tmp_path, prior="random")  # CAMEL's epsilon (plain TD3 shows none)
    run_dir = runs.create(config, "src", "sha")
    tty = _Tty()
    p = Progress(config, time.time(), 0, stream=tty)
    p.log(run_dir, 300, row())
    shown = tty.getvalue().split("\r")[-1]
    assert "300/600" in shown and "step/s" in shown and "eps 0.500" in shown and "return 10.0" in shown, shown
    assert "eval - unmasked / - masked" in shown and "<" in shown  # "<" precedes tqdm's ETA
    p.log(run_dir, 600, row(ret0=NAN))  # no episode ended: the latest known return stays on the bar
    p.log_eval(run_dir, 600, evals())
    shown = tty.getvalue().split("\r")[-1]
    assert "600/600" in shown and "return 10.0" in shown and "eval 150.0 unmasked / 200.0 masked" in shown, shown
    p.done(run_dir)
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "eval       600  unmasked     150.0  masked     200.0" and out[1].startswith("done in")
    assert not any(line.startswith("step ") for line in out)  # the bar replaces the per-step lines


def test_tensorboard_scalars_per_member_with_their_steps(tmp_path):
    config = tiny_config(tmp_path)
    run_dir = runs.create(config, "src", "sha")
    run_progress(config, run_dir)
    assert sorted(os.listdir(run_dir / "tb")) == ["seed0", "seed1"]
    s0, s1 = tb_points(run_dir / "tb" / "seed0"), tb_points(run_dir / "tb" / "seed1")
    assert set(s0) == TRAIN_TAGS | {"eval/return_unmasked", "eval/return_masked"}
    assert s0["train/episode_return"] == [(300, 10.0), (600, 10.0)] and s0["train/masked_frac"][0] == (300, 0.25)
    assert s1["train/critic_loss"] == [(300, 2.5), (600, 2.5)] and s1["train/epsilon"] == [(300, 0.5), (600, 0.5)]
    assert "train/episode_return" not in s1 and "train/episode_length" not in s1  # NaN: no episode ended
    assert s0["eval/return_unmasked"] == [(600, 100.0)] and s1["eval/return_masked"] == [(600, 250.0)]
    assert s0["train/steps_per_s"][0][1] > 0


def test_grid_members_get_their_own_tensorboard_directories(tmp_path):
    config = tiny_config(tmp_path, grid=("delta=0.1,0.3",))
    config = Config(**{**config.__dict__, "seeds": (7,)})
    run_dir = runs.create(config, "src", "sha")
    run_progress(config, run_dir)
    assert sorted(os.listdir(run_dir / "tb")) == ["delta0.1_seed7", "delta0.3_seed7"]
    assert tb_points(run_dir / "tb" / "delta0.3_seed7")["train/q1"] == [(300, 4.0), (600, 4.0)]


def test_a_resume_purges_the_points_after_its_checkpoint(tmp_path):
    config = tiny_config(tmp_path)
    run_dir = runs.create(config, "src", "sha")
    run_progress(config, run_dir, ret=10.0)  # the first process logged 300 and 600, then "was killed" at 600
    run_progress(config, run_dir, start=300, ret=99.0)  # resumed from the checkpoint at 300
    assert len(list((run_dir / "tb" / "seed0").glob("events.out.tfevents.*"))) == 2
    s0 = tb_points(run_dir / "tb" / "seed0")
    assert s0["train/episode_return"] == [(300, 10.0), (600, 99.0)]
    assert s0["eval/return_unmasked"] == [(600, 100.0)]


FAKE_WANDB = textwrap.dedent('''
    """A stand-in for the wandb package: records every call as a JSON line in $FAKE_WANDB_LOG (no network)."""
    import json
    import os


    def _record(**kw):
        with open(os.environ["FAKE_WANDB_LOG"], "a") as f:
            f.write(json.dumps(kw) + "\\n")


    class Run:
        def log(self, data, step=None):
            _record(call="log", data=data, step=step)

        def finish(self):
            _record(call="finish")


    def init(**kw):
        _record(call="init", **kw)
        return Run()
''')


def test_a_training_run_reports_lines_tensorboard_and_wandb(tmp_path):
    """End to end: `camel-jax train --wandb` with output to pipes (not a terminal) and a fake wandb module."""
    (tmp_path / "fake").mkdir()
    (tmp_path / "fake" / "wandb.py").write_text(FAKE_WANDB)
    log, out = tmp_path / "wandb_calls.jsonl", tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "fake"), os.environ.get("PYTHONPATH", "")]),
           "FAKE_WANDB_LOG": str(log)}
    r = subprocess.run([sys.executable, "-m", "camel_jax.cli", "train", "--env", "hopper", "--backend", "gymnasium",
                        "--prior", "priors/tuned/hopper.py", "--seeds", "0,1", "--total-steps", "600",
                        "--learning-starts", "300", "--log-every", "300", "--eval-every", "600", "--eval-episodes", "1",
                        "--batch-size", "64", "--hidden", "32,32", "--wandb", "--wandb-project", "test-proj", "--out",
                        str(out)],  # test_cli_train's gym_run, but not quiet: its compiled programs
                       cwd=ROOT, capture_output=True, text=True, timeout=900, env=env, check=False)
    assert r.returncode == 0, r.stderr[-3000:]
    lines = r.stdout.splitlines()
    assert [ln.split()[1] for ln in lines if ln.startswith("step ")] == ["300/600", "600/600"], r.stdout
    assert sum(ln.startswith("eval ") for ln in lines) == 1 and lines[-1].startswith("done in"), r.stdout
    assert "600/600 [" not in r.stderr  # no bar when stderr is not a terminal

    for member in ("seed0", "seed1"):
        points = tb_points(out / "tb" / member)
        assert {"train/epsilon", "train/masked_frac", "train/steps_per_s", "train/critic_loss",
                "eval/return_unmasked", "eval/return_masked"} <= set(points), sorted(points)
        assert [s for s, _ in points["train/epsilon"]] == [300, 600]
        assert points["eval/return_masked"][0][0] == 600

    calls = [json.loads(ln) for ln in log.read_text().splitlines()]
    inits = [c for c in calls if c["call"] == "init"]
    ids = json.loads((out / "wandb_ids.json").read_text())
    assert [(c["name"], c["id"], c["group"]) for c in inits] == [("run/seed0", ids["seed0"], "run"),
                                                                   ("run/seed1", ids["seed1"], "run")]
    config = json.loads((out / "config.json").read_text())
    for c, seed in zip(inits, (0, 1)):
        assert c["project"] == "test-proj" and c["resume"] == "allow" and c["dir"] == str(out)
        assert c["config"] == {**config, "member": {"seed": seed}} and c["entity"] is None
        assert c["tags"] == ["hopper", "gymnasium", "prior:tuned", "algo:td3"]  # config.json's prior_kind
    assert [c["call"] for c in calls[-2:]] == ["finish", "finish"]
    logs = [c for c in calls if c["call"] == "log"]
    assert [c["step"] for c in logs] == [300, 300, 600, 600, 600, 600]  # each member's run, train then eval
    assert {"train/epsilon", "train/steps_per_s"} <= set(logs[0]["data"])
    assert logs[0]["data"]["train/epsilon"] == pytest.approx(0.0)  # 1 - 300 / (0.5 * 600)
    assert set(logs[4]["data"]) == {"eval/return_unmasked", "eval/return_masked"}
    csv_eval = (out / "eval.csv").read_text().splitlines()[1].split(",")
    assert logs[4]["data"]["eval/return_unmasked"] == pytest.approx(float(csv_eval[2]), rel=1e-5)


def test_wandb_without_the_package_is_a_one_line_error_naming_the_fix(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "wandb", None)  # import wandb -> ImportError, whether or not it is installed
    with pytest.raises(ValueError, match="pip install wandb"):
        Config(wandb=True).check()
    out = tmp_path / "run"
    code = ("import sys; sys.modules['wandb'] = None; from camel_jax.cli import main; "
            f"sys.exit(main(['train', '--backend', 'gymnasium', '--wandb', '--out', {str(out)!r}]))")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)
    assert r.returncode == 2, r.stderr[-2000:]
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install wandb" in lines[0] and lines[0].startswith("camel-jax train: "), r.stderr
    assert not out.exists()
