"""The vectorized auto-resetting wrapper (MJX path) and the gymnasium driver's shared interface."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from camel_jax import envs

N = 4


@pytest.fixture(scope="module")
def hopper():
    """The vectorized env and its jitted reset and step (`jitted`: strongly typed states); the step compiles once
    for every test here (states from reset or step, float32 actions), and ULTRA's MJX collection test
    (tests/ultra/test_coherent.py, also 4 envs) shares them through the compilation cache, whichever runs first."""
    venv = envs.make("hopper", "mjx", num_envs=N)
    return venv, *venv.jitted()


def _run_until_done(venv, reset, step, key, actions=1.0):
    """Full torque until the first instance ends; returns (state before, state after, step index)."""
    state = reset(key)
    act = jnp.full((N, venv.act_dim), actions, jnp.float32)  # not weakly typed: the jnp.ones of the tests below
    for t in range(200):
        prev, state = state, step(state, act)
        if bool(state.done.any()):
            return prev, state, t
    raise AssertionError("no episode ended within 200 steps of full-torque actions")


def test_final_obs_is_pre_reset_and_resets_are_fresh(hopper):
    venv, reset, step = hopper
    prev, state, _ = _run_until_done(venv, reset, step, jax.random.PRNGKey(0))
    done = np.asarray(state.done) > 0
    final = np.asarray(state.info["final_obs"])
    # The final obs of a terminated episode is the unhealthy pose (hopper: z <= 0.7 or |pitch| >= 0.2) ...
    assert np.all((final[done, 0] <= 0.7) | (np.abs(final[done, 1]) >= 0.2))
    # ... continuing from the previous pose, while the instance itself now shows a fresh reset observation.
    assert np.all(np.abs(final[done] - np.asarray(prev.obs)[done]).max(axis=1) < 2.0)
    assert not np.allclose(state.obs[done], final[done])
    np.testing.assert_array_equal(state.obs[~done], final[~done])  # unfinished: final obs == next obs
    # Reset observations are near the initial pose (z ~ 1.25) and the episode counters restarted.
    assert np.all(np.abs(np.asarray(state.obs[done, 0]) - 1.25) < 0.01)
    assert np.all(np.asarray(state.info["steps"])[done] == 0)
    assert np.all(np.asarray(state.metrics["episode_length"])[done] > 0)
    # Fresh random resets: two resets of the same instance differ, and differ from the first initial state.
    first = np.asarray(reset(jax.random.PRNGKey(0)).obs)
    i = int(np.flatnonzero(done)[0])
    _, again, _ = _run_until_done(venv, reset, step, jax.random.PRNGKey(0))  # same key: same first reset
    np.testing.assert_allclose(again.obs, state.obs)
    later = state
    for _ in range(300):  # the same instance ends again later and must get a new random start
        later = step(later, jnp.ones((N, venv.act_dim)))
        if bool(later.done[i]):
            break
    assert bool(later.done[i]), "instance did not end a second time"
    assert not np.allclose(later.obs[i], state.obs[i])
    assert not np.allclose(state.obs[i], first[i])


def test_truncation_at_time_limit_is_not_termination(hopper):
    venv, reset, step = hopper
    state = reset(jax.random.PRNGKey(1))
    assert venv.spec.episode_length == 1000
    # Put every instance one step before the limit while healthy; one more step truncates.
    state = state.replace(info={**state.info, "steps": jnp.full((N,), 999, jnp.int32)})
    out = step(state, jnp.zeros((N, venv.act_dim)))
    np.testing.assert_array_equal(out.info["truncation"], 1.0)
    np.testing.assert_array_equal(out.info["terminated"], 0.0)
    np.testing.assert_array_equal(out.done, 1.0)
    np.testing.assert_array_equal(out.metrics["episode_length"], 1000)
    np.testing.assert_array_equal(out.info["steps"], 0)
    # One step earlier nothing ends.
    state = state.replace(info={**state.info, "steps": jnp.full((N,), 998, jnp.int32)})
    out = step(state, jnp.zeros((N, venv.act_dim)))
    np.testing.assert_array_equal(out.done, 0.0)


def test_nonfinite_physics_is_terminated_reset_and_counted(hopper):
    venv, reset, step = hopper
    state = reset(jax.random.PRNGKey(2))
    data = state.pipeline_state
    state = state.replace(pipeline_state=data.replace(qvel=data.qvel.at[1, 3].set(jnp.nan)))
    out = step(state, jnp.zeros((N, venv.act_dim)))
    assert float(out.info["terminated"][1]) == 1.0 and float(out.info["truncation"][1]) == 0.0
    assert float(out.reward[1]) == 0.0
    assert np.all(np.isfinite(out.info["final_obs"])) and np.all(np.isfinite(out.obs))
    assert np.all(np.isfinite(out.pipeline_state.qvel))
    np.testing.assert_array_equal(out.metrics["nonfinite"], [0, 1, 0, 0])
    out = step(out, jnp.zeros((N, venv.act_dim)))
    np.testing.assert_array_equal(out.metrics["nonfinite"], [0, 1, 0, 0])  # cumulative, not re-counted


def test_gymnasium_driver_same_step_autoreset():
    venv = envs.make("hopper", "gymnasium", num_envs=2)
    state = venv.reset(0)
    ended = False
    for _ in range(300):
        state = venv.step(state, np.ones((2, venv.act_dim), np.float32))
        done = state.done > 0
        if done.any():
            ended = True
            # SAME_STEP autoreset: obs is the reset obs, final_obs the fallen pose.
            assert np.all(np.abs(state.obs[done, 0] - 1.25) < 0.01)
            assert not np.allclose(state.obs[done], state.info["final_obs"][done])
            assert np.all(state.metrics["episode_return"][done] != 0)
            np.testing.assert_array_equal(state.info["terminated"][done], 1.0)
            break
    assert ended
    venv.close()
