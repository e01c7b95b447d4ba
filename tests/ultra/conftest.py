"""A tiny finished PPO run on gymnasium's Hopper (test_ppo.py's TINY: 2 seeds, 384 steps), shared by the ULTRA tests
that need a base policy."""

import pytest
from test_ppo import TINY

from camel_jax.ppo_config import PPOConfig


@pytest.fixture(scope="session")
def ppo_base(tmp_path_factory):
    from camel_jax.ppo_loop import train

    config = PPOConfig(**TINY, backend="gymnasium", eval_episodes=1, eval_every=384,
                       out=str(tmp_path_factory.mktemp("ultra_base") / "base"))
    return train(config)
