"""Observations from real rollouts of a task, used to test priors on the states they will actually see.

Rollouts run on gymnasium's C MuJoCo (the paper's exact tasks, fast on CPU) with a fixed seed: half the steps with
uniform random actions, half with zero actions, resetting at termination and every `RESET_EVERY` steps so that many
initial states are covered. Results are cached in memory per (task, count, seed).
"""

from __future__ import annotations

import warnings
from functools import lru_cache

import numpy as np

RESET_EVERY = 250


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
