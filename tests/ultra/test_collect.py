"""ULTRA's collection from a finished PPO run: the steps and the critic's values, against the run's own policy and
value net recomputed from the recorded observations; sampled and mean actions; repeatable."""

import jax
import numpy as np

from camel_jax.algos.ppo import eval as ppo_eval
from camel_jax.algos.ppo import normalize
from camel_jax.ultra.collect import collect


def _recomputed(run_dir, k, obs):
    """(mean action clipped, V) of seed k's final policy at raw observations `obs`."""
    config, tr, learner = ppo_eval.load_run(run_dir)
    one = jax.tree.map(lambda x: x[k], learner)
    norm = normalize.scale(one.obs_stats, obs, config.obs_clip)
    mean, _, value = tr.net.apply(one.params, norm)
    return np.clip(np.asarray(mean), -1, 1), np.asarray(value), np.asarray(tr.greedy(one, obs))


def test_mean_actions_and_values_are_the_runs_own(ppo_base):
    config, rollouts = collect(ppo_base, episodes=2, sampled=False)
    assert config.seeds == (0, 1) and len(rollouts) == 2
    for k, r in enumerate(rollouts):
        traj = r.traj
        episodes = traj.episodes()
        assert len(episodes) == 2 and len(r.returns) == 2
        ends = np.array([last for _, last in episodes])
        assert np.all(traj.terminated[ends] | traj.truncated[ends])  # whole episodes, each ended by the env
        assert (traj.terminated | traj.truncated).sum() == 2
        for (first, last), ret in zip(episodes, r.returns):
            np.testing.assert_allclose(traj.rewards[first:last + 1].sum(), ret, rtol=1e-5)
        mean, value, greedy = _recomputed(ppo_base, k, traj.obs)
        np.testing.assert_allclose(traj.actions, mean, atol=1e-5)
        np.testing.assert_allclose(traj.actions, greedy, atol=1e-6)  # camel-jax eval's action
        np.testing.assert_allclose(r.values, value, rtol=1e-4, atol=1e-5)
        inside = np.setdiff1d(np.arange(traj.length), ends)
        np.testing.assert_allclose(r.next_values[inside], r.values[inside + 1], rtol=1e-4, atol=1e-5)
        running = []
        for first, last in episodes:
            ret = 0.0
            for x in traj.rewards[first:last + 1]:
                ret = config.gamma * ret + float(x)
                running.append(ret)
        np.testing.assert_allclose(r.reward_scale, np.sqrt(np.var(running) + 1e-8), rtol=1e-5)
    # the same initial state (env seed 0) for both seeds' first episode
    np.testing.assert_array_equal(rollouts[0].traj.obs[0], rollouts[1].traj.obs[0])


def test_sampled_actions_are_drawn_around_the_mean_and_repeatable(ppo_base):
    _, rollouts = collect(ppo_base, episodes=2, sampled=True, key_seed=3)
    _, again = collect(ppo_base, episodes=2, sampled=True, key_seed=3)
    for k, r in enumerate(rollouts):
        mean, _, _ = _recomputed(ppo_base, k, r.traj.obs)
        assert np.all(np.abs(r.traj.actions) <= 1.0)
        assert np.mean(np.abs(r.traj.actions - mean) > 1e-3) > 0.9  # noise with std about 1 (log-std near 0)
        np.testing.assert_array_equal(r.traj.actions, again[k].traj.actions)
        np.testing.assert_array_equal(r.traj.obs, again[k].traj.obs)
