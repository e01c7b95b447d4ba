"""`camel-jax train` on the tasks of issue #26, end to end at a tiny budget: HalfCheetah and Humanoid on both
backends and Hopper-v5 (gymnasium v5), each CAMEL-masked by `--prior TASK` (the selected LLM prior; Hopper-v5 uses
Hopper-v4's, which observes and acts alike). `gym:Pendulum-v1` is in tests/test_gym_tasks.py.

What would fail if the code were wrong: the run dir names the task, backend and prior it ran; every logged row has
the task's episode bookkeeping (HalfCheetah never terminates: its random episodes last the 1000-step limit; Humanoid
falls within a few dozen steps); the critic learned something finite after learning_starts; the prior's source is
the selected file's. MJX runs evaluate nothing (one compilation less). Humanoid on MJX runs only with
CAMEL_JAX_HEAVY_TESTS=1: its MJX step (Newton solver, 17 actuated joints, many capsule contacts) compiles for minutes on
2 CPU cores, as in tests/test_env_parity.py. So does Hopper-v5 on MJX: Hopper's physics and training program, which
tests/test_golden.py's MJX arm trains, with v5's task terms, which tests/test_tasks.py checks on gymnasium's states;
its own compile (about 170 CPU seconds cold) bought no check the default tier lacks. And HalfCheetah on MJX (heavy
tier since 2026-11-28, issue #27's 20 minutes: 135 CPU seconds cold, nearly all the compile of its training chunk):
its physics is tests/test_env_parity.py's (default tier), its training program the golden MJX arm's with another model,
its prior runs in the gymnasium case above."""

import contextlib
import csv
import io
import json
import os

import numpy as np
import pytest

from camel_jax import specs
from camel_jax.cli import main
from camel_jax.priors import loader

HEAVY = os.environ.get("CAMEL_JAX_HEAVY_TESTS") == "1"  # also the tests that take minutes on 2 CPU cores
TINY = ["--total-steps", "200", "--learning-starts", "100", "--log-every", "100", "--eval-every", "200",
        "--batch-size", "16", "--hidden", "8,8", "--buffer-size", "1000", "--quiet"]


def _run(*argv) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, err.getvalue()


def _rows(path) -> list[dict]:
    with path.open() as f:
        return list(csv.DictReader(f))


@pytest.mark.parametrize("env,backend", [
    ("halfcheetah", "gymnasium"), pytest.param("halfcheetah", "mjx", marks=[pytest.mark.slow, pytest.mark.heavy]),
    ("humanoid", "gymnasium"), pytest.param("humanoid", "mjx", marks=[pytest.mark.slow, pytest.mark.timeout(5400),
                                                                      pytest.mark.skipif(not HEAVY, reason=(
        "Humanoid's MJX step compiles for minutes on 2 CPU cores; run with CAMEL_JAX_HEAVY_TESTS=1"))]),
    ("hopper-v5", "gymnasium"), pytest.param("hopper-v5", "mjx", marks=[pytest.mark.slow, pytest.mark.skipif(
        not HEAVY, reason=("Hopper's MJX training program again, with v5's task terms (tests/test_tasks.py checks "
                           "them); run with CAMEL_JAX_HEAVY_TESTS=1"))]),
])
def test_train_runs_on_the_task_with_its_llm_prior(env, backend, tmp_path):
    out = tmp_path / "run"
    evals = ["--eval-episodes", "1"] if backend == "gymnasium" else ["--eval-episodes", "0"]
    code, err = _run("train", "--env", env, "--backend", backend, "--prior", env, "--out", str(out), *TINY, *evals)
    assert code == 0, err
    config = json.loads((out / "config.json").read_text())
    assert (config["env"], config["backend"], config["prior"], config["prior_kind"]) == (env, backend, env, "llm")
    variant = {"halfcheetah": " (MJX contacts)", "humanoid": " (MJX Newton, contacts)"}.get(env, "")
    assert config["task_label"] == env + (variant if backend == "mjx" else "")  # MJX's own physics named as such
    assert loader.shipped_prior(env).read_text() in (out / "prior.txt").read_text()
    metrics = _rows(out / "metrics.csv")
    assert [int(m["step"]) for m in metrics] == [100, 200]
    assert np.isfinite(float(metrics[-1]["critic_loss"]))  # it updated after learning_starts
    spec = specs.load(env)
    done = [m for m in metrics if int(m["episodes"])]
    if spec.z_index is None:  # HalfCheetah never terminates: no episode ends within 200 steps
        assert not done
    else:  # random, masked Humanoid and Hopper fall within 200 steps
        assert done and all(0 < float(m["episode_length"]) < 200 for m in done)
    if backend == "gymnasium":
        last = _rows(out / "eval.csv")[-1]
        assert np.isfinite(float(last["return_masked"])) and np.isfinite(float(last["return_unmasked"]))
