"""The notebook API: camel_jax.train/make_env/load_prior/load_actor, and the example script run end to end."""

import subprocess
import sys
from pathlib import Path

import jax.numpy as jnp
import numpy as np
import pytest

import camel_jax as cj

ROOT = Path(__file__).resolve().parents[1]
TINY = {"env": "hopper", "backend": "gymnasium", "seeds": (0, 1), "total_steps": 400, "learning_starts": 200,
        "eval_every": 200, "eval_episodes": 1, "log_every": 100, "batch_size": 32, "hidden": (16, 16), "quiet": True}


def test_train_returns_the_curves_and_a_callable_prior_works(tmp_path):
    calls = []

    def lean_forward(obs):  # a user's own jittable prior
        return jnp.tanh(jnp.array([0.2, -0.1, 0.1]) + 0.0 * obs[:3])

    result = cj.train(cj.Config(**TINY, out=str(tmp_path / "run")), prior=lean_forward,
                      callback=lambda step, row: calls.append((step, len(row["episode_return"]))))
    assert result.run_dir == tmp_path / "run" and result.config.prior == "callable:lean_forward"
    assert calls == [(100, 2), (200, 2), (300, 2), (400, 2)]  # every log row, one value per member
    assert list(np.unique(result.metrics["step"])) == [100, 200, 300, 400] and len(result.metrics["seed"]) == 8
    assert list(np.unique(result.evals["step"])) == [200, 400] and np.isfinite(result.evals["return_unmasked"]).all()
    assert "def lean_forward" in (result.run_dir / "prior.txt").read_text()
    act = cj.load_actor(result.run_dir, member=1)
    obs = cj.make_env("hopper", "gymnasium").reset([0]).obs[0]
    a = np.asarray(act(obs))
    assert a.shape == (3,) and np.all(np.abs(a) <= 1)
    with pytest.raises(ValueError, match="member 2 is not in"):
        cj.load_actor(result.run_dir, member=2)


def test_bad_callable_prior_is_one_clear_error(tmp_path):
    with pytest.raises(ValueError, match=r"returns shape \(2,\) for one hopper observation; it must return \(3,\)"):
        cj.train(cj.Config(**TINY, out=str(tmp_path / "bad")), prior=lambda obs: obs[:2])
    assert not (tmp_path / "bad").exists()


def test_load_prior_by_name_or_path():
    by_name = cj.load_prior("hopper")
    by_path = cj.load_prior(ROOT / "priors" / "llm" / "hopper" / "selected.py")  # task from the header
    obs = jnp.zeros(11)
    np.testing.assert_array_equal(np.asarray(by_name(obs)), np.asarray(by_path(obs)))


def test_the_example_script_runs(tmp_path):
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "notebook_api.py"), str(tmp_path), "400"],
                         capture_output=True, text=True, timeout=900, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "CAMEL (LLM prior: claude, answer 3): unmasked eval return" in out.stdout
    assert "TD3: unmasked eval return" in out.stdout
    assert (tmp_path / "curves.png").stat().st_size > 10_000
