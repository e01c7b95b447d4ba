"""The notebook API: camel_jax.train/evaluate_run/make_env/load_prior/load_actor, and the example script run end to
end; `camel-jax eval` of runs whose prior cannot be reloaded from the run directory."""

import json
import shutil
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
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "notebook_api.py"), str(tmp_path), "400", "--small"],
                         capture_output=True, text=True, timeout=900, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads((tmp_path / "camel" / "config.json").read_text())["hidden"] == [16, 16]  # --small took effect
    assert "CAMEL (LLM prior: claude, answer 3): unmasked eval return" in out.stdout
    assert "TD3: unmasked eval return" in out.stdout
    assert (tmp_path / "curves.png").stat().st_size > 10_000


# --- `camel-jax eval` of a run trained with a Python callable prior (issue #23) ---------------------------------
def lean_forward(obs):  # a user's own jittable prior, at module level so that the tests can pass it again
    return jnp.tanh(jnp.array([0.2, -0.1, 0.1]) + 0.0 * obs[:3])


@pytest.fixture(scope="module")
def callable_run(tmp_path_factory):
    config = cj.Config(**{**TINY, "seeds": (0,), "total_steps": 200, "learning_starts": 100, "eval_episodes": 0},
                       out=str(tmp_path_factory.mktemp("api") / "callable"))
    return cj.train(config, prior=lean_forward).run_dir


def _eval_cli(run_dir, capsys, *args):
    from camel_jax import cli

    capsys.readouterr()
    code = cli.main(["eval", str(run_dir), "--episodes", "2", *args])
    out, err = capsys.readouterr()
    return code, out, [ln for ln in err.splitlines() if ln.startswith("camel-jax")]


def test_eval_cli_scores_a_callable_prior_run_unmasked_and_says_in_one_line_why_not_masked(callable_run, capsys):
    code, out, err = _eval_cli(callable_run, capsys)
    assert code == 0, err
    assert len(err) == 1 and "masked scores skipped" in err[0] and "Python callable prior (callable:lean_forward)" in err[0]
    assert "camel_jax.evaluate_run(RUN_DIR, prior=fn)" in err[0]
    result = json.loads((callable_run / "eval_final.json").read_text())
    assert result["prior"] == "callable:lean_forward" and result["masked_skipped"] in err[0]
    [member] = result["members"]
    assert np.isfinite(member["return_unmasked"]) and member["return_unmasked"] != 0.0 and "return_masked" not in member
    assert out.splitlines()[0].split() == ["member", "unmasked", "±", "std"]


def test_evaluate_run_given_the_callable_adds_the_masked_scores(callable_run):
    without = cj.evaluate_run(callable_run, episodes=2)
    assert "return_masked" not in without["members"][0] and "masked_skipped" in without
    result = cj.evaluate_run(callable_run, episodes=2, prior=lean_forward)
    assert json.loads((callable_run / "eval_final.json").read_text()) == result and "masked_skipped" not in result
    [member] = result["members"]
    # the unmasked score does not depend on the prior (the box is [-1, 1] either way): the same to the last bit
    assert member["return_unmasked"] == without["members"][0]["return_unmasked"]
    assert np.isfinite(member["return_masked"]) and member["return_masked"] != member["return_unmasked"]
    with pytest.raises(ValueError, match=r"returns shape \(2,\) for one hopper observation"):
        cj.evaluate_run(callable_run, episodes=1, prior=lambda obs: obs[:2])


def test_eval_cli_scores_a_run_whose_expert_prior_is_gone_unmasked(callable_run, tmp_path, capsys):
    expert = tmp_path / "expert"
    shutil.copytree(callable_run, expert)
    config = cj.Config(**{**TINY, "seeds": (0,), "total_steps": 100, "learning_starts": 50, "eval_episodes": 0,
                          "log_every": 50}, out=str(tmp_path / "run"))
    run_dir = cj.train(config, prior=f"expert:{expert}").run_dir
    (expert / "actor.msgpack").unlink()
    code, _, err = _eval_cli(run_dir, capsys)
    assert code == 0, err
    assert len(err) == 1 and f"expert:{expert}" in err[0] and "actor.msgpack is not there" in err[0]
    [member] = json.loads((run_dir / "eval_final.json").read_text())["members"]
    assert np.isfinite(member["return_unmasked"]) and "return_masked" not in member


def test_resume_of_a_callable_prior_run_is_one_line_naming_the_callable(callable_run, tmp_path, capsys):
    from camel_jax import cli

    run = tmp_path / "run"
    shutil.copytree(callable_run, run)
    (run / "actor.msgpack").unlink()  # as if killed after its last checkpoint, before writing its actor
    before = (run / "metrics.csv").read_text()
    assert cli.main(["resume", str(run), "--quiet", "--truncate"]) == 2
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.startswith("camel-jax")]
    assert len(err) == 1 and "Python callable prior (callable:lean_forward)" in err[0] and "prior file" in err[0]
    assert (run / "metrics.csv").read_text() == before and not (run / "actor.msgpack").exists()
