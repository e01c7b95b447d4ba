"""The gymnasium (C MuJoCo) backend: the paper's exact tasks behind the same small interface as the MJX path.

gymnasium >= 1.0 vector envs default to NEXT_STEP autoreset, where the step after an episode end is a reset step
whose action is ignored. We use SAME_STEP autoreset instead: the step that ends an episode returns the reset
observation as `obs` and the true final observation in `info["final_obs"]`, exactly like `AutoResetVecEnv`.

`reset` and `step` return a brax `State` with numpy leaves (`pipeline_state` is None); stepping mutates the C
MuJoCo envs, so this object is host-side and never inside `jax.jit`.
"""

from __future__ import annotations

import gymnasium as gym
import jax
import numpy as np
from brax.envs.base import State

from camel_jax.specs import TaskSpec


class GymVecEnv:
    backend = "gymnasium"

    def __init__(self, spec: TaskSpec, num_envs: int = 1):
        if num_envs < 1:
            raise ValueError(f"num_envs must be >= 1, got {num_envs}")
        self.spec = spec
        self.num_envs = num_envs
        self.obs_dim = spec.obs_dim
        self.act_dim = spec.act_dim
        self.vec = gym.vector.SyncVectorEnv(
            [lambda: gym.make(spec.gym_id) for _ in range(num_envs)],
            autoreset_mode=gym.vector.AutoresetMode.SAME_STEP,
        )
        self._running = np.zeros(num_envs, np.float32)
        self._nonfinite = np.zeros(num_envs, np.int32)
        self._steps = np.zeros(num_envs, np.int32)

    def reset(self, key: jax.Array | int) -> State:
        """Reset all instances; seeds come from `key` (a JAX key or an int) so runs are reproducible."""
        seed = int(jax.random.randint(key, (), 0, 2**31 - 1)) if not isinstance(key, int) else key
        obs, _ = self.vec.reset(seed=seed)
        obs = obs.astype(np.float32)
        n = self.num_envs
        self._running[:] = 0.0
        self._steps[:] = 0
        zeros = np.zeros(n, np.float32)
        info = {"terminated": zeros, "truncation": zeros, "final_obs": obs}
        metrics = {"episode_return": zeros, "episode_length": np.zeros(n, np.int32), "nonfinite": self._nonfinite}
        return State(pipeline_state=None, obs=obs, reward=zeros, done=zeros, metrics=metrics, info=info)

    def step(self, state: State, action) -> State:
        del state  # the C MuJoCo state lives inside the gymnasium envs
        obs, reward, terminated, truncated, infos = self.vec.step(np.asarray(action, np.float64))
        obs = obs.astype(np.float32)
        reward = reward.astype(np.float32)
        terminated = terminated.astype(np.float32)
        truncation = (truncated & (terminated == 0)).astype(np.float32)
        done = np.maximum(terminated, truncation)
        final_obs = obs.copy()
        if "_final_obs" in infos:
            for i in np.flatnonzero(infos["_final_obs"]):
                final_obs[i] = infos["final_obs"][i]
        bad = ~(np.isfinite(final_obs).all(axis=1) & np.isfinite(reward))
        if bad.any():  # same rule as the MJX wrapper: non-finite counts as a terminated, zeroed transition
            reward[bad], final_obs[bad], terminated[bad], truncation[bad], done[bad] = 0.0, 0.0, 1.0, 0.0, 1.0
            self._nonfinite = self._nonfinite + bad.astype(np.int32)
        self._running += reward
        ended = done > 0
        episode_return = np.where(ended, self._running, 0.0).astype(np.float32)
        self._running[ended] = 0.0
        info = {"terminated": terminated, "truncation": truncation, "final_obs": final_obs}
        metrics = {"episode_return": episode_return, "episode_length": self._lengths(ended),
                   "nonfinite": self._nonfinite}
        return State(pipeline_state=None, obs=obs, reward=reward, done=done, metrics=metrics, info=info)

    def _lengths(self, ended: np.ndarray) -> np.ndarray:
        self._steps += 1
        out = np.where(ended, self._steps, 0).astype(np.int32)
        self._steps[ended] = 0
        return out

    def close(self) -> None:
        self.vec.close()
