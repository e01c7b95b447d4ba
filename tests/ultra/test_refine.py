"""The refinement modes' guides (A overrides, R rewards, RA both; all report the match), the implicit reward paid by
the closeness of the action taken to the suggestion, lookups under the table's own normalisation, and the trainer's
count of matched steps, which must see ULTRA-R's matches although nothing is overridden."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from toy_env import PointGoal

from camel_jax.algos.ppo import normalize
from camel_jax.algos.ppo.config import PPOConfig
from camel_jax.algos.ppo.trainer import make_train
from camel_jax.envs.autoreset import AutoResetVecEnv
from camel_jax.ultra import refine, table
from camel_jax.ultra.results import Suggestion

KEY = Suggestion(0, (0.0, 0.0, 0.0, 0.0), (0.5, -0.5), -0.25, "why", "test", "test")
WIDTH = 0.5


def _state(tau: float, key: Suggestion = KEY, mean=None, var=None):
    mean, var = np.zeros(4) if mean is None else mean, np.ones(4) if var is None else var
    built = table.build([key], mean, var, act_dim=2, capacity=2)
    return built.table, jnp.float32(tau)


@pytest.mark.parametrize("mode, override, rated", [("A", True, False), ("R", False, True), ("RA", True, True)])
def test_each_mode_uses_what_its_name_says(mode, override, rated):
    guide = refine.guide_for(mode, WIDTH)
    act, reward = jax.jit(guide.act), jax.jit(guide.reward)
    near = jnp.array([0.1, 0.1, 0.1, 0.1])  # distance 0.2 from the key
    o, action, hit = act(_state(0.5), near)
    assert (bool(o), bool(hit)) == (override, True) and action.tolist() == [0.5, -0.5]
    at_suggestion = float(reward(_state(0.5), near, jnp.array([0.5, -0.5])))
    assert at_suggestion == pytest.approx(-0.25 if rated else 0.0)  # the full rating where the suggestion is taken
    o, action, hit = act(_state(0.5), jnp.array([1.0, 0.0, 0.0, 0.0]))
    assert (bool(o), bool(hit)) == (False, False)
    assert float(reward(_state(0.5), jnp.array([1.0, 0.0, 0.0, 0.0]), jnp.array([0.5, -0.5]))) == 0.0  # a miss
    with pytest.raises(ValueError, match="has no guide"):
        refine.guide_for("none")


def test_the_bonus_pays_the_rating_by_the_closeness_of_the_action_taken():
    """ULTRA-R at a matched state: the suggestion itself gets the rating, an action `width` away on every actuator
    exp(-1/2) of it, the opposite corner of the action box about nothing: never one constant for any action."""
    reward = jax.jit(refine.guide_for("R", WIDTH).reward)
    obs = jnp.zeros(4)
    bonus = lambda taken: float(reward(_state(0.5), obs, jnp.asarray(taken, jnp.float32)))
    assert bonus([0.5, -0.5]) == pytest.approx(-0.25)
    assert bonus([0.0, 0.0]) == pytest.approx(-0.25 * np.exp(-0.5))
    assert abs(bonus([-1.0, 1.0])) < 0.012 * 0.25  # the farthest action (1.5 per actuator): about 1% of it
    assert bonus([0.5, 0.5]) == pytest.approx(-0.25 * np.exp(-0.5 * 0.5 / WIDTH ** 2))  # one actuator 1 away


def test_lookups_use_the_tables_own_statistics_not_the_runs():
    """A table keyed under mean 5, var 4 matches the raw observation it was built from; a lookup in any other
    normalisation (the refining run's moving statistics) would not."""
    key = Suggestion(0, (7.0, 7.0, 7.0, 7.0), (0.5, -0.5), 0.5, "why", "test", "test")
    state = _state(0.1, key, mean=np.full(4, 5.0), var=np.full(4, 4.0))
    hit = refine.guide_for("RA").act(state, jnp.full(4, 7.0))[2]
    assert bool(hit)
    assert not bool(refine.guide_for("RA").act(state, jnp.full(4, 7.5))[2])  # (7.5 - 5) / 2 is 0.25 from the key


def _one_step(mode: str, tau: float, config: PPOConfig, state, obs_stats=None):
    env = AutoResetVecEnv(PointGoal(), config.num_envs)
    tr = make_train(config, env, refine.guide_for(mode, WIDTH))
    learner = tr.init_learner(jax.random.PRNGKey(0), config.hyper(), guide_state=state)
    if obs_stats is not None:
        learner = learner.replace(obs_stats=obs_stats)
    env_state = env.reset(jax.random.PRNGKey(1))
    learner, obs = tr.see(learner, env_state.obs)
    learner, step, env_action = tr.act(learner, obs, env_state.obs)
    after = env.step(env_state, env_action)
    return env_state, step, env_action, after, tr.observe(learner, step, after)


@pytest.mark.parametrize("tau, matched", [(100.0, 16), (0.0, 0)])
def test_the_trainer_counts_ultra_r_matches_without_overrides(tau, matched):
    config = PPOConfig(num_envs=16, num_steps=4, num_minibatches=4, total_steps=64, normalize_reward=False, alpha=0.5)
    *_, (_, _, _, metrics) = _one_step("R", tau, config, _state(tau))
    assert int(metrics["matched"]) == matched and float(metrics["override_frac"]) == 0.0
    if not matched:
        assert float(metrics["bonus_mean"]) == 0.0


def test_the_trainer_pays_each_env_the_bonus_of_its_own_action():
    """ULTRA-R in the trainer: every env matches (tau 100); each env's reward is r_env + alpha * rating *
    closeness(its sampled action, clipped, to the suggestion), so envs whose actions differ get different bonuses."""
    config = PPOConfig(num_envs=16, num_steps=4, num_minibatches=4, total_steps=64, normalize_reward=False, alpha=0.5)
    _, step, env_action, after, (_, transition, _, _) = _one_step("R", 100.0, config, _state(100.0))
    expected = -0.25 * np.exp(-0.5 * np.mean((np.asarray(env_action) - [0.5, -0.5]) ** 2, axis=1) / WIDTH ** 2)
    np.testing.assert_allclose(step.reward, expected, rtol=1e-5)
    np.testing.assert_allclose(transition.reward, after.reward + 0.5 * expected, rtol=1e-5, atol=1e-7)
    assert np.ptp(expected) > 0.01  # not one constant for every action


def test_the_trainer_matches_raw_observations_whatever_its_running_statistics():
    """The refining run's observation statistics are far from the table's (mean 100): the guide still matches
    every env, because it reads the raw observation and normalises it with the table's own statistics."""
    config = PPOConfig(num_envs=16, num_steps=4, num_minibatches=4, total_steps=64, normalize_reward=False)
    far = normalize.RunningStats(jnp.full(4, 100.0), jnp.ones(4), jnp.float32(1e6))
    env = AutoResetVecEnv(PointGoal(), 16)
    raw = np.asarray(env.reset(jax.random.PRNGKey(1)).obs)
    tau = float(np.max(np.linalg.norm(raw, axis=1))) + 0.01  # every raw observation lies within tau of the key 0
    *_, (_, _, _, metrics) = _one_step("RA", tau, config, _state(tau), obs_stats=far)
    assert int(metrics["matched"]) == 16 and float(metrics["override_frac"]) == 1.0
