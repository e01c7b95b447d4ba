"""A recorded trajectory: flat per-step arrays of one or more episodes, in recording order.

Step t holds the observation the agent saw (`obs[t]`), the action it applied there (`actions[t]`), and what that
action led to: `rewards[t]`, `terminated[t]` (the task's termination: a fall) and `truncated[t]` (the time limit, or
the recording stopping mid-episode). An episode ends at a step with `terminated | truncated`; the last step always
ends one (`from_batched` and `concatenate` mark cut-off episodes as truncated, so episodes never merge).
Steps are named by their index t in these arrays everywhere in ULTRA (prompts, answers, tables).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import numpy as np

FIELDS = ("obs", "actions", "rewards", "terminated", "truncated")


@dataclasses.dataclass(frozen=True)
class Trajectory:
    obs: np.ndarray  # (T, obs_dim) float32
    actions: np.ndarray  # (T, act_dim) float32
    rewards: np.ndarray  # (T,) float32
    terminated: np.ndarray  # (T,) bool
    truncated: np.ndarray  # (T,) bool

    def __post_init__(self):
        n = len(self.obs)
        if self.obs.ndim != 2 or self.actions.ndim != 2 or n == 0:
            raise ValueError(f"trajectory: obs and actions must be non-empty 2-d arrays (steps, dim), got "
                             f"{self.obs.shape} and {self.actions.shape}")
        for name in FIELDS[1:]:
            if len(getattr(self, name)) != n:
                raise ValueError(f"trajectory: {name} has {len(getattr(self, name))} steps, obs has {n}; "
                                 "record every field at every step")

    @property
    def length(self) -> int:
        return len(self.obs)

    def episodes(self) -> list[tuple[int, int]]:
        """(first step, last step) of each episode, in order; the last step of the arrays ends the last episode."""
        ends = np.flatnonzero(self.terminated | self.truncated).tolist()
        if not ends or ends[-1] != self.length - 1:
            ends.append(self.length - 1)
        starts = [0] + [e + 1 for e in ends[:-1]]
        return list(zip(starts, ends, strict=True))


def make(obs, actions, rewards, terminated, truncated) -> Trajectory:
    """A Trajectory from array-likes (numpy or jax), with the dtypes above."""
    return Trajectory(np.asarray(obs, np.float32), np.asarray(actions, np.float32), np.asarray(rewards, np.float32),
                      np.asarray(terminated, bool), np.asarray(truncated, bool))


def concatenate(parts: Sequence[Trajectory]) -> Trajectory:
    """One trajectory of `parts` in order; each part's last step is marked truncated (a cut, not a fall) unless it
    already ends an episode."""
    cut = []
    for p in parts:
        truncated = p.truncated.copy()
        truncated[-1] |= not p.terminated[-1]
        cut.append(dataclasses.replace(p, truncated=truncated))
    return Trajectory(*(np.concatenate([getattr(p, f) for p in cut]) for f in FIELDS))


def from_batched(obs, actions, rewards, terminated, truncated) -> Trajectory:
    """A vectorized rollout, arrays (T, n_envs, ...), as one trajectory: env 0's steps, then env 1's, ..."""
    arrays = [np.asarray(a) for a in (obs, actions, rewards, terminated, truncated)]
    return concatenate([make(*(a[:, i] for a in arrays)) for i in range(arrays[0].shape[1])])


def save(path: str | Path, trajectory: Trajectory) -> None:
    np.savez(path, **{f: getattr(trajectory, f) for f in FIELDS})


def load(path: str | Path) -> Trajectory:
    """The trajectory saved at `path` (ValueError naming a missing field)."""
    with np.load(path, allow_pickle=False) as data:
        missing = [f for f in FIELDS if f not in data]
        if missing:
            raise ValueError(f"{path}: not a trajectory file (missing {', '.join(missing)}); save it with "
                             "camel_jax.ultra.trajectory.save")
        return make(*(data[f] for f in FIELDS))
