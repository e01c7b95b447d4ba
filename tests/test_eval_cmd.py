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

import jax
import numpy as np
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
              "0,1", "--grid", "delta=0.1,0.3", "--eval-episodes", "0", "--checkpoint-every", "300", "--out", str(out),
              "--quiet", *TINY)  # checkpoints at 300 and 600 (the end): `eval --step` below
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
    assert "or evaluate a kept checkpoint with --step S (S: 300, 600)" in lines[0]
    assert not (unfinished / "eval_final.json").exists()


def _members(path: Path) -> list[dict]:
    return json.loads(path.read_text())["members"]


def test_eval_step_scores_a_kept_checkpoint_into_its_own_file(run, tmp_path):
    d = tmp_path / "run"
    shutil.copytree(run, d, ignore=shutil.ignore_patterns("eval_*.json"))
    assert camel("eval", d, "--episodes", "1").returncode == 0
    final = (d / "eval_final.json").read_bytes()
    # the last checkpoint holds the final actor: the same returns, unmasked and masked, in eval_step_600.json
    r = camel("eval", d, "--step", "600", "--episodes", "1")
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.splitlines()[-1] == f"wrote {d / 'eval_step_600.json'}"
    assert "(the checkpoint at env step 600, 1 episodes per member" in r.stdout
    at_end = json.loads((d / "eval_step_600.json").read_text())
    assert at_end["step"] == 600 and at_end["members"] == _members(d / "eval_final.json")
    assert (d / "eval_final.json").read_bytes() == final  # the final evaluation's file is left alone
    from camel_jax.algos.td3.actor import checkpoint_actor, load_actor

    config, actor = load_actor(d)
    for a, b in zip(jax.tree.leaves(actor), jax.tree.leaves(checkpoint_actor(d, config, 600)), strict=True):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    # an earlier checkpoint: 300 env steps of updates before the end, so another actor and other returns
    assert camel("eval", d, "--step", "300", "--episodes", "1").returncode == 0
    early = json.loads((d / "eval_step_300.json").read_text())
    assert early["step"] == 300 and len(early["members"]) == 4
    assert [m["return_unmasked"] for m in early["members"]] != [m["return_unmasked"] for m in at_end["members"]]
    r = camel("eval", d, "--step", "300", "--episodes", "1")  # an earlier result of that step: only with --overwrite
    assert r.returncode == 2 and "eval_step_300.json exists" in r.stderr and "--overwrite" in r.stderr
    assert (d / "eval_final.json").read_bytes() == final


def test_eval_step_of_a_run_stopped_mid_way_and_of_a_step_not_kept(run, tmp_path):
    """A run killed after its checkpoint at 300 (no actor.msgpack, no later checkpoint) is evaluated there as the
    whole run's checkpoint is; a step that is not kept is one line listing the kept ones, exit 2, nothing written."""
    whole = tmp_path / "whole"
    shutil.copytree(run, whole, ignore=shutil.ignore_patterns("eval_*.json"))
    killed = tmp_path / "killed"
    shutil.copytree(run, killed, ignore=shutil.ignore_patterns("actor.msgpack", "eval_*.json"))
    shutil.rmtree(killed / "checkpoints" / "600")
    assert camel("eval", whole, "--step", "300", "--episodes", "1").returncode == 0
    r = camel("eval", killed, "--step", "300", "--episodes", "1")
    assert r.returncode == 0, r.stderr[-2000:]
    assert _members(killed / "eval_step_300.json") == _members(whole / "eval_step_300.json")
    assert not (killed / "eval_final.json").exists()
    for d, step, kept in ((whole, 450, "300, 600"), (killed, 600, "300")):
        r = camel("eval", d, "--step", step)
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1, r.stderr
        assert lines[0] == (f"camel-jax eval: {d} has no checkpoint at env step {step}; pass --step with one of its "
                            f"kept checkpoints: {kept}")
        assert not (d / f"eval_step_{step}.json").exists()
    for source, fix in ((killed, "nothing to evaluate before it trains again (camel-jax resume {})"),
                        (whole, "leave out --step to evaluate its final actor")):
        bare = tmp_path / f"bare_{source.name}"
        shutil.copytree(source, bare, ignore=shutil.ignore_patterns("checkpoints", "eval_*.json"))
        r = camel("eval", bare, "--step", "300")
        assert r.returncode == 2
        assert r.stderr.strip() == f"camel-jax eval: {bare} has no checkpoints; {fix.format(bare)}"


@pytest.mark.parametrize("target,needle", [("missing", "does not exist"), ("empty", "has no config.json"),
                                           ("file", "is not a directory")])
def test_eval_of_a_non_run_is_one_line_exit_2(tmp_path, target, needle):
    (tmp_path / "empty").mkdir()
    (tmp_path / "file").write_text("x")
    r = camel("eval", str(tmp_path / target), "--episodes", "1")
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and needle in lines[0], r.stderr
    assert lines[0].startswith("camel-jax eval: ") and "Traceback" not in r.stderr


def test_eval_defaults_to_the_backend_the_run_trained_on(tmp_path):
    """`--backend auto` (eval's default) is the run's own backend, as config.json records it: a run is scored on the
    task it learnt (Ant on MJX is not Ant-v4); an explicit backend wins; no readable config: gymnasium, and the
    plug-in then names the missing file."""
    from camel_jax import final_eval

    for recorded in ("mjx", "gymnasium"):
        (tmp_path / recorded).mkdir()
        (tmp_path / recorded / "config.json").write_text(json.dumps({"algo": "td3", "backend": recorded}))
        assert final_eval.run_backend(tmp_path / recorded, "auto") == recorded
        assert final_eval.run_backend(tmp_path / recorded, "gymnasium") == "gymnasium"
    assert final_eval.run_backend(tmp_path / "none", "auto") == "gymnasium"
    from camel_jax.cli import EvalArgs

    assert EvalArgs.__dataclass_fields__["backend"].default == "auto"
