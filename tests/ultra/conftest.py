"""A tiny finished PPO run on gymnasium's Hopper (test_ppo.py's TINY: 2 seeds, 384 steps), shared by the ULTRA tests
that need a base policy, and a work directory collected from it (3 episodes per seed, windows of 8 steps)."""

import pytest
from test_ppo import TINY

from camel_jax.algos.ppo.config import PPOConfig


@pytest.fixture(scope="session")
def ppo_base(tmp_path_factory):
    from camel_jax.algos.ppo.loop import train

    config = PPOConfig(**TINY, backend="gymnasium", eval_episodes=1, eval_every=384,
                       out=str(tmp_path_factory.mktemp("ultra_base") / "base"))
    return train(config)


@pytest.fixture(scope="session")
def work(ppo_base, tmp_path_factory):
    from camel_jax.cli import main

    path = tmp_path_factory.mktemp("ultra_work") / "work"
    assert main(["ultra", "collect", str(ppo_base), "--out", str(path), "--episodes", "3", "--window-steps", "8"]) == 0
    return path
