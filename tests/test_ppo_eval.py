"""`camel-jax eval RUN_DIR` on a PPO run: the deterministic mean action on observations normalised with the run's
statistics, scored on gymnasium's Hopper-v4 and checked against an episode loop written here; no masked columns."""

import json

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
