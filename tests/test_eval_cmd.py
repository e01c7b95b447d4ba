"""`camel-jax eval RUN_DIR` on a tiny finished gymnasium run (two seeds x two grid points, a prior file): a table,
RUN_DIR/eval_final.json with one entry per member, run from another working directory; one-line errors.
The CLI runs in this process (`camel_jax.cli.main`, its output captured): a subprocess would only add its imports
(issue #27)."""

import contextlib
import dataclasses
import io
import json
import math
import os
import shutil
from pathlib import Path

import pytest

from camel_jax.cli import main

ROOT = Path(__file__).resolve().parents[1]
# test_cli_train's tiny settings: in one suite run the programs come from the compilation cache
TINY = ["--total-steps", "600", "--learning-starts", "300", "--log-every", "300", "--eval-every", "600",
        "--batch-size", "64", "--hidden", "32,32"]


@dataclasses.dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str


def camel(*args, cwd=ROOT):
    out, err, here = io.StringIO(), io.StringIO(), os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main([str(a) for a in args])
    finally:
        os.chdir(here)
    return Result(code, out.getvalue(), err.getvalue())


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("eval") / "hopper_grid"
    r = camel("train", "--env", "hopper", "--backend", "gymnasium", "--prior", "priors/tuned/hopper.py", "--seeds",
              "0,1", "--grid", "delta=0.1,0.3", "--eval-episodes", "0", "--out", str(out), "--quiet", *TINY)
    assert r.returncode == 0, r.stderr[-2000:]
    # --quiet: no progress output (mujoco's MJX import may print "Failed to import warp", not ours)
    assert not [ln for ln in r.stdout.splitlines() + r.stderr.splitlines() if ln.startswith(("step", "eval", "done"))]
    return out


def test_eval_writes_per_member_results_and_prints_a_table(run, tmp_path):
    # from another directory: the prior comes from the run's saved copy (prior.txt), not from priors/tuned/hopper.py
    r = camel("eval", str(run), "--episodes", "2", cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-2000:]
    result = json.loads((run / "eval_final.json").read_text())
    assert not (run / "eval_final.json.tmp").exists()
    assert (result["backend"], result["episodes"], result["seed"], result["env"]) == ("gymnasium", 2, 0, "hopper")
    members = result["members"]
    assert [(m["seed"], m["delta"]) for m in members] == [(0, 0.1), (1, 0.1), (0, 0.3), (1, 0.3)]
    for m in members:
        for key in ("return_unmasked", "std_unmasked", "return_masked", "std_masked"):
            assert math.isfinite(m[key]), (key, m)
        assert m["std_unmasked"] >= 0 and m["std_masked"] >= 0
    # the box changes the actions: masked and unmasked returns differ, and the two deltas differ when masked
    assert any(m["return_masked"] != m["return_unmasked"] for m in members)
    assert members[0]["return_masked"] != members[2]["return_masked"]
    lines = [ln for ln in r.stdout.splitlines() if not ln.startswith("Failed to import")]  # mujoco's MJX import
    assert lines[0].split() == ["member", "unmasked", "±", "std", "masked", "±", "std"]
    assert lines[1].startswith("delta=0.1 seed=0") and f"{members[0]['return_unmasked']:.1f}" in lines[1]
    assert any(ln.startswith("mean delta=0.3 (2 seeds)") for ln in lines)
    assert lines[-1] == f"wrote {run / 'eval_final.json'}"


def test_eval_of_an_unfinished_run_says_to_resume_it(run, tmp_path):
    unfinished = tmp_path / "unfinished"
    shutil.copytree(run, unfinished, ignore=shutil.ignore_patterns("actor.msgpack", "eval_final.json"))
    r = camel("eval", str(unfinished))
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1, r.stderr
    assert "has not finished" in lines[0] and f"camel-jax resume {unfinished}" in lines[0]
    assert not (unfinished / "eval_final.json").exists()


@pytest.mark.parametrize("target,needle", [("missing", "does not exist"), ("empty", "has no config.json"),
                                           ("file", "is not a directory")])
def test_eval_of_a_non_run_is_one_line_exit_2(tmp_path, target, needle):
    (tmp_path / "empty").mkdir()
    (tmp_path / "file").write_text("x")
    r = camel("eval", str(tmp_path / target), "--episodes", "1")
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and needle in lines[0], r.stderr
    assert lines[0].startswith("camel-jax eval: ") and "Traceback" not in r.stderr
