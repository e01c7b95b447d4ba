"""`camel-jax train` end to end on CPU (tiny budgets), and its one-line errors."""

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TINY = ["--total-steps", "600", "--learning-starts", "300", "--log-every", "300", "--eval-every", "600",
        "--batch-size", "64", "--hidden", "32,32", "--quiet"]


def camel(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "camel_jax.cli", *args], cwd=cwd, capture_output=True, text=True, check=False,
                          timeout=900)


def _rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def gym_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "hopper_prior"
    r = camel("train", "--env", "hopper", "--backend", "gymnasium", "--prior", "priors/tuned/hopper.py", "--seeds",
              "0,1", "--eval-episodes", "1", "--out", str(out), *TINY)
    assert r.returncode == 0, r.stderr[-2000:]
    return out


def test_gymnasium_run_with_a_prior_file_writes_a_complete_run_dir(gym_run):
    config = json.loads((gym_run / "config.json").read_text())
    assert config["prior"] == "priors/tuned/hopper.py" and config["seeds"] == [0, 1] and config["delta"] == 0.3
    assert (ROOT / "priors/tuned/hopper.py").read_text() in (gym_run / "prior.txt").read_text()
    metrics = _rows(gym_run / "metrics.csv")
    assert [(r["step"], r["seed"]) for r in metrics] == [("300", "0"), ("300", "1"), ("600", "0"), ("600", "1")]
    assert all(float(r["steps_per_s"]) > 0 for r in metrics)
    assert float(metrics[0]["epsilon"]) == pytest.approx(1 - 300 / (0.5 * 600))
    evals = _rows(gym_run / "eval.csv")
    assert len(evals) == 2 and all(r["return_unmasked"] and r["return_masked"] for r in evals)
    assert (gym_run / "actor.msgpack").stat().st_size > 1000


def test_expert_masking_from_a_finished_run(gym_run, tmp_path):
    out = tmp_path / "expert"
    r = camel("train", "--env", "hopper", "--backend", "gymnasium", "--prior", f"expert:{gym_run}", "--seeds", "3",
              "--eval-episodes", "0", "--out", str(out), *TINY)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "expert: actor of run" in (out / "prior.txt").read_text()
    assert len(_rows(out / "metrics.csv")) == 2


def test_expert_prior_is_the_best_evaluated_member(gym_run):
    import jax
    import jax.numpy as jnp

    from camel_jax.algos.td3.actor import load_actor
    from camel_jax.algos.td3.networks import Actor
    from camel_jax.priors import baselines

    evals = _rows(gym_run / "eval.csv")
    last = [r for r in evals if r["step"] == evals[-1]["step"]]
    best = max(range(len(last)), key=lambda k: float(last[k]["return_unmasked"]))
    fn, member, why = baselines.expert_prior(gym_run, "hopper")
    assert member == best and "best unmasked eval return" in why
    config, params = load_actor(gym_run)
    obs, ones = jnp.linspace(-1.0, 1.0, 11), jnp.ones(3)
    outs = [Actor(3, config.hidden, config.actor_sees_box).apply(jax.tree.map(lambda x, k=k: x[k], params), obs, -ones, ones)
            for k in range(2)]
    assert not jnp.allclose(outs[0], outs[1])  # the members differ, so the choice is visible
    assert jnp.allclose(fn(obs), outs[best])


def test_best_member_reads_the_last_evaluation_only(tmp_path):
    from camel_jax.priors import baselines

    (tmp_path / "eval.csv").write_text("step,seed,return_unmasked\n10,0,900\n10,1,5\n10,2,7\n20,0,100\n20,1,300\n20,2,250\n")
    assert baselines.best_member(tmp_path)[0] == 1
    assert baselines.best_member(tmp_path / "missing")[0] == 0


def test_mjx_run_with_random_masking_and_vmapped_seeds(golden_run):
    out = golden_run("td3_mjx")  # `camel-jax train --backend mjx --prior random --seeds 0,1` (tests/test_golden.py)
    metrics = _rows(out / "metrics.csv")
    assert [(m["step"], m["seed"]) for m in metrics] == [(str(s), str(seed)) for s in range(200, 1201, 200)
                                                         for seed in (0, 1)]
    assert all(int(m["episodes"]) > 0 for m in metrics)  # random hopper episodes are short
    assert metrics[0]["episode_return"] != metrics[1]["episode_return"]  # the two seeds differ
    assert float(metrics[0]["masked_frac"]) > 0 and float(metrics[-1]["epsilon"]) == 0  # random masking, then off
    # `eval --step` reads the actor from an MJX checkpoint (a TrainState: learner, then the envs): the last one holds
    # the final actor bit for bit, the one before it another
    import jax
    import numpy as np

    from camel_jax.algos.td3.actor import checkpoint_actor, load_actor
    from camel_jax.core import checkpoint

    assert checkpoint.kept_steps(out) == [800, 1200]
    config, final = load_actor(out)
    for a, b in zip(jax.tree.leaves(final), jax.tree.leaves(checkpoint_actor(out, config, 1200)), strict=True):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    earlier = jax.tree.leaves(checkpoint_actor(out, config, 800))
    assert any(not np.array_equal(a, b) for a, b in zip(jax.tree.leaves(final), earlier))


@pytest.mark.parametrize("args,needle", [
    (["--env", "cheetah"], "unknown task 'cheetah'"),
    (["--backend", "brax"], "unknown backend 'brax'"),
    (["--total-steps", "0"], "--total-steps must be positive"),
    (["--learning-starts", "5000", "--total-steps", "1000"], "--learning-starts (5000) must be in"),
    (["--prior", "tests/priors/corpus/bad/import_os.py"], "import"),
    (["--prior", "no/such/prior.py"], "no/such/prior.py"),
    (["--prior", "tests/priors/corpus/bad/wrong_shape.py"], "shape"),
    (["--num-envs", "-2"], "--num-envs must be positive"),
    (["--grid", "hidden=64"], "cannot vary inside one program"),
    (["--grid", "delta=wide"], "values must be numbers"),
])
def test_bad_input_is_one_line_exit_2_and_leaves_nothing(tmp_path, args, needle):
    out = tmp_path / "run"
    r = camel("train", "--out", str(out), *args)
    assert r.returncode == 2, (r.returncode, r.stderr[-1000:])
    lines = [ln for ln in r.stderr.strip().splitlines() if ln.strip()]
    assert len(lines) == 1 and needle in lines[0] and "Traceback" not in r.stderr, r.stderr
    assert not out.exists()


def test_existing_run_dir_is_refused_without_overwrite(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    (out / "keep.txt").write_text("x")
    r = camel("train", "--out", str(out))
    assert r.returncode == 2 and "--overwrite" in r.stderr
    assert (out / "keep.txt").read_text() == "x"


def test_llm_command_without_api_key_is_one_line_exit_2_and_leaves_nothing(tmp_path):
    import os

    env = {k: v for k, v in os.environ.items() if k != "ANTHROPIC_API_KEY"}
    r = subprocess.run([sys.executable, "-m", "camel_jax.cli", "priors", "generate", "--env", "hopper", "--out",
                        str(tmp_path / "cands")], cwd=ROOT, capture_output=True, text=True, check=False, timeout=300, env=env)
    lines = [ln for ln in r.stderr.strip().splitlines() if ln.strip()]
    assert r.returncode == 2 and len(lines) == 1 and "ANTHROPIC_API_KEY is not set" in lines[0], r.stderr
    assert not (tmp_path / "cands").exists() or not any((tmp_path / "cands").iterdir())
