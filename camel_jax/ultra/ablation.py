"""The random-selection ablation: as many states as the method chose, drawn uniformly (without replacement) from all
the trajectory's steps, so that what differs is only how the states were chosen."""

from __future__ import annotations

import numpy as np

from camel_jax.ultra.results import Critical
from camel_jax.ultra.trajectory import Trajectory


def random_critical(traj: Trajectory, count: int, seed: int) -> list[Critical]:
    """`count` distinct steps of `traj`, uniformly at random (numpy's generator seeded with `seed`), in step order."""
    if not 0 <= count <= traj.length:
        raise ValueError(f"cannot choose {count} states from a trajectory of {traj.length} steps")
    steps = np.sort(np.random.default_rng(seed).choice(traj.length, size=count, replace=False))
    return [Critical(int(t), "chosen at random (ablation)", f"random seed {seed}") for t in steps]
