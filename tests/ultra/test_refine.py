"""The refinement modes' guides (A overrides, R rewards, RA both; all report the match) and the trainer's count of
matched steps, which must see ULTRA-R's matches although nothing is overridden."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from toy_env import PointGoal

from camel_jax.envs.autoreset import AutoResetVecEnv
from camel_jax.ppo_config import PPOConfig
from camel_jax.ppo_trainer import make_train
from camel_jax.ultra import refine, table
from camel_jax.ultra.results import Suggestion

KEY = Suggestion(0, (0.0, 0.0, 0.0, 0.0), (0.5, -0.5), -0.25, "why", "test", "test")


def _state(tau: float):
    built = table.build([KEY], np.zeros(4), np.ones(4), act_dim=2, capacity=2)
    return built.table, jnp.float32(tau)


@pytest.mark.parametrize("mode, override, bonus", [("A", True, 0.0), ("R", False, -0.25), ("RA", True, -0.25)])
def test_each_mode_uses_what_its_name_says(mode, override, bonus):
    guide = jax.jit(refine.guide_for(mode))
    o, action, b, hit = guide(_state(0.5), jnp.array([0.1, 0.1, 0.1, 0.1]))  # distance 0.2
    assert (bool(o), float(b), bool(hit)) == (override, bonus, True) and action.tolist() == [0.5, -0.5]
    o, action, b, hit = guide(_state(0.5), jnp.array([1.0, 0.0, 0.0, 0.0]))
    assert (bool(o), float(b), bool(hit)) == (False, 0.0, False)
    with pytest.raises(ValueError, match="has no guide"):
        refine.guide_for("none")


@pytest.mark.parametrize("tau, matched", [(100.0, 16), (0.0, 0)])
def test_the_trainer_counts_ultra_r_matches_without_overrides(tau, matched):
    config = PPOConfig(num_envs=16, num_steps=4, num_minibatches=4, total_steps=64, normalize_reward=False, alpha=0.5)
    env = AutoResetVecEnv(PointGoal(), config.num_envs)
    tr = make_train(config, env, refine.guide_for("R"))
    learner = tr.init_learner(jax.random.PRNGKey(0), config.hyper(), guide_state=_state(tau))
    env_state = env.reset(jax.random.PRNGKey(1))
    learner, obs = tr.see(learner, env_state.obs)
    learner, step, _ = tr.act(learner, obs)
    *_, metrics = tr.observe(learner, step, env.step(env_state, step.action))
    assert int(metrics["matched"]) == matched and float(metrics["override_frac"]) == 0.0
    assert float(metrics["bonus_mean"]) == pytest.approx(-0.25 if matched else 0.0)
