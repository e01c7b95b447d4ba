"""The gymnasium (C MuJoCo) backend: the paper's exact tasks behind the same small interface as the MJX path.

Each instance is `gym.make(task_id)` (the v4 task with its TimeLimit; the passive env checker, which only inspects
the first calls, is left out). This class steps the instances itself, in a loop into preallocated arrays, with the
same-step auto-reset of `AutoResetVecEnv`: the step that ends an episode returns the reset observation as `obs` and
the true final observation in `info["final_obs"]`. (gymnasium's own SyncVectorEnv did the same with more layers; its
default NEXT_STEP mode would make the step after an episode end a reset step whose action is ignored.)

A non-finite observation or reward follows the MJX wrapper's rule: the step counts as terminated with zero reward
and a zeroed final observation, the instance is reset, and `metrics["nonfinite"]` counts it, so no NaN reaches the
replay buffer even on tasks whose health check ignores velocities (Ant's looks at the torso height only).

`reset` and `step` return a `GymState` with numpy leaves and the fields of the MJX path's brax `State` that the
trainer reads (obs, reward, done, metrics, info; brax itself, and MJX with it, is not imported on this path: it
takes about a second to import). Stepping mutates the C MuJoCo envs, so this object is host-side and never inside
`jax.jit`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from camel_jax.specs import TaskSpec


class GymState(NamedTuple):
    """A step's results for every instance (leading axis: num_envs), named as in brax's `State`."""

    obs: np.ndarray
    reward: np.ndarray
    done: np.ndarray  # terminated or truncated
    metrics: dict  # episode_return, episode_length (of episodes ending now, else 0), nonfinite (count per env)
    info: dict  # terminated, truncation, final_obs (the true last obs of an episode that just ended)


class GymVecEnv:
    backend = "gymnasium"

    def __init__(self, spec: TaskSpec, num_envs: int = 1):
        if num_envs < 1:
            raise ValueError(f"num_envs must be >= 1, got {num_envs}")
        self.spec = spec
        self.num_envs = num_envs
        self.obs_dim = spec.obs_dim
        self.act_dim = spec.act_dim
        self.envs = [spec.gym_make(disable_env_checker=True) for _ in range(num_envs)]
        self._obs = np.zeros((num_envs, spec.obs_dim), np.float32)
        self._running = np.zeros(num_envs, np.float64)
        self._nonfinite = np.zeros(num_envs, np.int32)
        self._steps = np.zeros(num_envs, np.int32)

    def reset(self, seed: int | Sequence[int]) -> GymState:
        """Reset every instance. `seed`: one int per instance, or an int `s` meaning `s, s + 1, ...` (gymnasium's
        convention); later auto-resets continue each instance's own random stream, as gymnasium's vector envs do."""
        seeds = [int(seed) + j for j in range(self.num_envs)] if np.ndim(seed) == 0 else [int(s) for s in seed]
        if len(seeds) != self.num_envs:
            raise ValueError(f"reset got {len(seeds)} seeds for {self.num_envs} envs")
        for j, (env, s) in enumerate(zip(self.envs, seeds)):
            self._obs[j] = env.reset(seed=s)[0]
        n = self.num_envs
        self._running[:] = 0.0
        self._steps[:] = 0
        zeros = np.zeros(n, np.float32)
        obs = self._obs.copy()
        info = {"terminated": zeros, "truncation": zeros, "final_obs": obs}
        metrics = {"episode_return": zeros, "episode_length": np.zeros(n, np.int32),
                   "nonfinite": self._nonfinite.copy()}
        return GymState(obs=obs, reward=zeros, done=zeros, metrics=metrics, info=info)

    def count_nonfinite_from(self, counts: Sequence[int]) -> None:
        """Start the per-instance non-finite counts at `counts` (a resumed run counts on from its checkpoint, as the
        MJX envs' restored counts do)."""
        if len(counts) != self.num_envs:
            raise ValueError(f"count_nonfinite_from got {len(counts)} counts for {self.num_envs} envs")
        self._nonfinite[:] = counts

    def step(self, state: GymState, action) -> GymState:
        del state  # the C MuJoCo state lives inside the gymnasium envs
        action = np.asarray(action, np.float64).reshape(self.num_envs, self.act_dim)
        n = self.num_envs
        final_obs = np.empty((n, self.obs_dim), np.float32)
        reward = np.empty(n, np.float32)
        terminated = np.zeros(n, np.float32)
        truncation = np.zeros(n, np.float32)
        for j, env in enumerate(self.envs):
            obs_j, r, term, trunc, _ = env.step(action[j])
            final_obs[j] = obs_j
            reward[j] = r
            if not (np.isfinite(final_obs[j]).all() and np.isfinite(reward[j])):
                # the MJX wrapper's rule: a terminated, zeroed transition, counted, and a fresh episode
                final_obs[j], reward[j], term, trunc = 0.0, 0.0, True, False
                self._nonfinite[j] += 1
            terminated[j], truncation[j] = float(term), float(trunc and not term)
            if term or trunc:
                self._obs[j] = env.reset()[0]
            else:
                self._obs[j] = final_obs[j]
        done = np.maximum(terminated, truncation)
        ended = done > 0
        self._running += reward
        self._steps += 1
        episode_return = np.where(ended, self._running, 0.0).astype(np.float32)
        episode_length = np.where(ended, self._steps, 0).astype(np.int32)
        self._running[ended] = 0.0
        self._steps[ended] = 0
        info = {"terminated": terminated, "truncation": truncation, "final_obs": final_obs}
        metrics = {"episode_return": episode_return, "episode_length": episode_length,
                   "nonfinite": self._nonfinite.copy()}
        return GymState(obs=self._obs.copy(), reward=reward, done=done, metrics=metrics, info=info)

    def close(self) -> None:
        for env in self.envs:
            env.close()
