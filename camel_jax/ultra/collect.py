"""ULTRA's first stage: trajectories of a finished PPO run's policy, with its critic's values, on the backend the run
trained on: gymnasium's C MuJoCo task (the paper's v4 tasks) or MJX (the states the policy met in training, whose
physics differ slightly from C MuJoCo's).

For every seed of the run (its final policy, value net and observation statistics: `ppo_eval.load_run`), `episodes`
whole episodes, with the same initial states for every seed: on gymnasium, episode e starts from env seed
`env_seed + e`; on MJX, from the e-th initial state of the auto-resetting env's reset with PRNGKey(env_seed). Each
step records the raw observation, the action the env got (in [-1, 1]), the reward, terminated and
truncated (a `Trajectory`), and the critic's value of the observation and of the next one (the true next
observation, also at an episode's end), on observations normalised with the run's frozen statistics.

The action is, by default, sampled from the policy's Gaussian as in training (`sampled=True`): ULTRA explains why
the trained policy behaves sub-optimally, and that policy acts stochastically; its mistakes are partly its noise.
`sampled=False` takes the deterministic mean action (the policy as `camel-jax eval` scores it).

The critic learnt the normalised reward (reward / sqrt(var of the discounted return), `normalize.reward`), so its
values are in those units. `reward_scale` is that square root measured on the collected episodes (the variance of
their running discounted returns, the statistic the normaliser tracks), so values * reward_scale are in reward
units, as the TD-error stand-in needs them next to the raw rewards.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import scipy.signal

from camel_jax import envs, specs
from camel_jax.algos.ppo import eval as ppo_eval
from camel_jax.algos.ppo import loss as ppo
from camel_jax.algos.ppo import normalize
from camel_jax.algos.ppo.config import PPOConfig
from camel_jax.algos.ppo.trainer import frozen_input
from camel_jax.ultra import trajectory
from camel_jax.ultra.trajectory import Trajectory


@dataclasses.dataclass(frozen=True)
class Rollouts:
    """One seed's collected episodes."""

    traj: Trajectory
    values: np.ndarray  # (T,) V(obs[t]) in the critic's (normalised reward) units
    next_values: np.ndarray  # (T,) V of the observation after step t
    reward_scale: float  # sqrt(var of the running discounted return + eps): values * reward_scale are in reward units
    returns: np.ndarray  # (episodes,) each episode's return
    obs_mean: np.ndarray  # (obs_dim,) the policy's observation statistics (what it normalises with)
    obs_var: np.ndarray


def collect(run_dir: str | Path, episodes: int, sampled: bool = True, env_seed: int = 0,
            key_seed: int = 0) -> tuple[PPOConfig, list[Rollouts]]:
    """(the run's config, the rollouts of each of its seeds, in seed order); `key_seed` seeds the action noise."""
    if episodes < 1:
        raise ValueError(f"--episodes must be at least 1, got {episodes}")
    config, tr, learner = ppo_eval.load_run(run_dir, "ultra collect")
    if config.grid:  # ULTRA's arms, tables and refinements are per seed
        raise ValueError(f"{run_dir} is a PPO run with --grid {' '.join(config.grid)}; ULTRA refines a run of seeds "
                         "only: train the base run without --grid (camel-jax sweep gives one run per setting)")
    seeds = len(config.seeds)

    def act(learner, raw_obs, key):
        mean, log_std, value = tr.net.apply(learner.params, frozen_input(config, learner, raw_obs))
        action = ppo.sample(key, mean, log_std) if sampled else mean
        return jnp.clip(action, -1.0, 1.0), value

    def value(learner, raw_obs):
        return tr.net.apply(learner.params, frozen_input(config, learner, raw_obs))[2]

    act, value = jax.jit(jax.vmap(act)), jax.jit(jax.vmap(value))
    per_seed = lambda x: jnp.asarray(x).reshape(seeds, episodes, -1)
    n = seeds * episodes
    reset, step, close = _envs(config.env, config.backend, seeds, episodes, env_seed)
    fields = {k: [] for k in ("obs", "actions", "rewards", "terminated", "truncated", "values", "next_values", "live")}
    live = np.ones(n, bool)  # the env's first episode is still running (later ones are not kept)
    key = jax.random.PRNGKey(key_seed)
    try:
        state = reset()
        for _ in range(specs.load(config.env).episode_length):
            key, k = jax.random.split(key)
            obs = np.asarray(state.obs)
            action, v = jax.device_get(act(learner, per_seed(obs), jax.random.split(k, seeds)))
            state = step(state, action.reshape(n, -1))
            next_v = jax.device_get(value(learner, per_seed(state.info["final_obs"])))
            for name, x in (("obs", obs), ("actions", action.reshape(n, -1)), ("rewards", state.reward),
                            ("terminated", state.info["terminated"] > 0), ("truncated", state.info["truncation"] > 0),
                            ("values", v.reshape(n)), ("next_values", next_v.reshape(n)), ("live", live.copy())):
                fields[name].append(np.asarray(x))
            live &= np.asarray(state.done) == 0
            if not live.any():
                break
    finally:
        close()
    stats = jax.device_get(learner.obs_stats)
    return config, [_seed_rollouts(fields, k, episodes, config.gamma, stats) for k in range(seeds)]


def _envs(env: str, backend: str, seeds: int, episodes: int, env_seed: int):
    """(reset() -> state, step(state, action) -> state, close()) of `seeds * episodes` envs of task `env` on
    `backend`, seed-major (env k * episodes + e is seed k's episode e), episode e starting alike for every seed."""
    if backend == "gymnasium":
        venv = envs.make(env, "gymnasium", seeds * episodes)
        return (lambda: venv.reset([env_seed + e for _ in range(seeds) for e in range(episodes)]), venv.step,
                venv.close)
    venv = envs.make(env, backend, seeds * episodes)
    reset_all, step = venv.jitted()  # the programs tests/test_autoreset.py compiles too (4 envs)

    def reset():
        states = reset_all(jax.random.PRNGKey(env_seed))
        return jax.tree.map(lambda x: jnp.concatenate([x[:episodes]] * seeds), states)  # the first `episodes`, shared

    return reset, step, lambda: None


def _seed_rollouts(fields: dict, k: int, episodes: int, gamma: float, stats) -> Rollouts:
    """Seed k's episodes (envs k * episodes ... (k + 1) * episodes - 1), each from its first step to its end."""
    stacked = {name: np.stack(x, axis=1) for name, x in fields.items()}  # (envs, steps, ...)
    parts, values, next_values, returns = [], [], [], []
    for j in range(k * episodes, (k + 1) * episodes):
        n = int(stacked["live"][j].sum())
        parts.append(trajectory.make(*(stacked[f][j, :n] for f in trajectory.FIELDS)))
        values.append(stacked["values"][j, :n])
        next_values.append(stacked["next_values"][j, :n])
        returns.append(float(np.sum(stacked["rewards"][j, :n])))
    traj = trajectory.concatenate(parts)
    running = np.concatenate([discounted_running(p.rewards, gamma) for p in parts])
    scale = float(np.sqrt(np.var(running) + normalize.EPSILON))
    return Rollouts(traj, np.concatenate(values), np.concatenate(next_values), scale, np.array(returns),
                    np.asarray(stats.mean[k]), np.asarray(stats.var[k]))


def discounted_running(rewards: np.ndarray, gamma: float) -> np.ndarray:
    """ret_t = gamma * ret_t-1 + r_t within one episode (the return NormalizeReward keeps)."""
    return scipy.signal.lfilter([1.0], [1.0, -gamma], np.asarray(rewards, np.float64))
