"""Observations from real rollouts of a task, used to test priors on the states they will actually see.

Rollouts run on gymnasium's C MuJoCo (the paper's exact tasks, fast on CPU) with a fixed seed.
- `rollout_observations`: half the steps with uniform random actions, half with zero actions, resetting at
  termination and every `RESET_EVERY` steps so that many initial states are covered. Results are cached in memory
  per (task, count, seed).
- `policy_observations`: the states a policy itself leads to, in whole episodes where it acts (its gait, which random
  and zero actions never produce); certification of a translation adds them (`translate`).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from functools import lru_cache

import numpy as np

RESET_EVERY = 250
OWN_EPISODES = 3  # episodes of `policy_observations` (each at most the task's 1000-step TimeLimit)
OWN_SEED = 10_000


@lru_cache(maxsize=16)
def rollout_observations(env_name: str, n: int, seed: int = 0) -> np.ndarray:
    """`n` observations (n, obs_dim) float32 of task `env_name`, read-only, deterministic for a given seed."""
    import gymnasium  # noqa: F401 -- imported first: its import installs a warning filter of its own

    from camel_jax.envs import make

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # gymnasium's "v4 is out of date" notice
        env = make(env_name, backend="gymnasium", num_envs=1)
    rng = np.random.default_rng(seed)
    out = np.empty((n, env.obs_dim), np.float32)
    try:
        for i in range(n):
            if i % RESET_EVERY == 0:
                state = env.reset(seed + i)
            out[i] = state.obs[0]
            random_half = i < n // 2
            action = rng.uniform(-1.0, 1.0, (1, env.act_dim)) if random_half else np.zeros((1, env.act_dim))
            state = env.step(state, action)
    finally:
        env.close()
    out.flags.writeable = False
    return out


def policy_observations(act: Callable[[np.ndarray], np.ndarray], env_name: str, episodes: int = OWN_EPISODES,
                        seed: int = OWN_SEED) -> np.ndarray:
    """The observations (n, obs_dim) float64, as gymnasium gives them, of `episodes` episodes of task `env_name` in
    which `act` (obs -> action) acts, from reset seeds `seed`, `seed + 1`, ...: each observation the policy was
    called on. Its actions are clipped to [-1, 1]; an episode ends at termination, at the TimeLimit, or at an
    action that is not finite or not of shape (act_dim,) (the caller's checks report those)."""
    env = gym_env(env_name)
    out = []
    try:
        for e in range(episodes):
            obs, _ = env.reset(seed=seed + e)
            while True:
                out.append(obs)
                action = np.asarray(act(obs.copy()), np.float64)
                if action.shape != env.action_space.shape or not np.isfinite(action).all():
                    break
                obs, _, terminated, truncated, _ = env.step(np.clip(action, -1.0, 1.0))
                if terminated or truncated:
                    break
    finally:
        env.close()
    return np.array(out, np.float64).reshape(len(out), -1)


def gym_env(env_name: str):
    """gymnasium's C MuJoCo v4 task `env_name` (one env, its TimeLimit included)."""
    import gymnasium  # noqa: F401 -- imported first: its import installs a warning filter of its own

    from camel_jax import specs

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # gymnasium's "v4 is out of date" notice
        return specs.load(env_name).gym_make()
