"""`camel-jax eval RUN_DIR` on a PPO run: the deterministic mean action on observations normalised with the run's
statistics, scored on gymnasium's Hopper-v4 and checked against an episode loop written here; no masked columns."""

import json
import shutil

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from test_ppo import TINY

from camel_jax import specs
from camel_jax.algos.ppo import eval as ppo_eval
from camel_jax.algos.ppo.config import PPOConfig
from camel_jax.cli import main


@pytest.fixture(scope="module")
def ppo_run(tmp_path_factory):
    from camel_jax.algos.ppo.loop import train

    return train(PPOConfig(**TINY, backend="gymnasium", eval_episodes=0, out=str(tmp_path_factory.mktemp("e") / "r")))


def test_eval_scores_each_seed_with_its_mean_action(ppo_run, capsys):
    assert main(["eval", str(ppo_run), "--episodes", "2", "--seed", "5"]) == 0
    result = json.loads((ppo_run / "eval_final.json").read_text())
    assert (result["algo"], result["episodes"], result["seed"]) == ("ppo", 2, 5)
    assert [sorted(m) for m in result["members"]] == [["return_unmasked", "seed", "std_unmasked"]] * 2
    _, tr, learner = ppo_eval.load_run(ppo_run)
    env = specs.load("hopper").gym_make()
    for k, member in enumerate(result["members"]):
        one = jax.tree.map(lambda x: x[k], learner)  # noqa: B023
        act = jax.jit(lambda obs: tr.greedy(one, obs[None])[0])  # noqa: B023
        returns = []
        for e in range(2):
            obs, _ = env.reset(seed=5 + e)
            total, done = 0.0, False
            while not done:
                obs, r, terminated, truncated, _ = env.step(np.asarray(act(jnp.asarray(obs, jnp.float32))))
                total, done = total + r, terminated or truncated
            returns.append(total)
        assert member["seed"] == k
        np.testing.assert_allclose(member["return_unmasked"], np.mean(returns), rtol=1e-4)
        np.testing.assert_allclose(member["std_unmasked"], np.std(returns), rtol=1e-3, atol=1e-3)
    assert result["members"][0]["return_unmasked"] != result["members"][1]["return_unmasked"]
    lines = capsys.readouterr().out.splitlines()
    header = next(ln for ln in lines if ln.startswith("member"))
    assert header.split() == ["member", "unmasked", "±", "std"]


def test_eval_step_reads_a_checkpoint_and_the_last_one_is_the_final_policy(ppo_run, tmp_path, capsys):
    d = tmp_path / "run"  # checkpoints at 256 and 384 (the end)
    shutil.copytree(ppo_run, d, ignore=shutil.ignore_patterns("eval_*.json"))
    _, _, final = ppo_eval.load_run(d)
    _, _, last = ppo_eval.load_run(d, step=384)
    _, _, early = ppo_eval.load_run(d, step=256)
    for part in ("params", "obs_stats"):  # the policy and the statistics its observations are normalised with
        for a, b in zip(jax.tree.leaves(getattr(final, part)), jax.tree.leaves(getattr(last, part)), strict=True):
            np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    assert any(not np.array_equal(a, b) for a, b in zip(jax.tree.leaves(final.params), jax.tree.leaves(early.params)))
    assert main(["eval", str(d), "--episodes", "1"]) == 0
    assert main(["eval", str(d), "--step", "384", "--episodes", "1"]) == 0
    assert json.loads((d / "eval_step_384.json").read_text())["members"] == \
        json.loads((d / "eval_final.json").read_text())["members"]
    assert main(["eval", str(d), "--step", "256", "--episodes", "1"]) == 0
    assert json.loads((d / "eval_step_256.json").read_text())["step"] == 256
    capsys.readouterr()
    assert main(["eval", str(d), "--step", "128"]) == 2
    assert capsys.readouterr().err.strip() == (f"camel-jax eval: {d} has no checkpoint at env step 128; pass --step "
                                               "with one of its kept checkpoints: 256, 384")
