"""Device memory of a run, before it starts: the replay buffer's capacity and bytes per member.

The replay buffer is the largest array of a run (FastTD3's README says the same of its GPU buffer): every member
(seed x grid point) holds one, so a run needs about `members x buffer_bytes_per_member(config)` of device memory
besides networks, optimiser states and the envs. On a GPU, JAX preallocates 75% of the device's memory for its pool
at the first operation; XLA_PYTHON_CLIENT_MEM_FRACTION (e.g. 0.9) changes the fraction, XLA_PYTHON_CLIENT_PREALLOCATE=
false allocates on demand (slower, but leaves room for MuJoCo Warp's own allocations outside XLA's pool).
"""

from __future__ import annotations

import jax

from camel_jax import specs
from camel_jax.algos.td3 import buffer as replay
from camel_jax.algos.td3.config import Config


def replay_capacity(config: Config) -> int:
    """Rows of each member's buffer: `buffer_size`, or fewer when the whole run stores fewer transitions."""
    return min(config.buffer_size, config.iterations * config.num_envs)


def buffer_bytes_per_member(config: Config) -> int:
    """Bytes of one member's replay buffer for this config's task, from the shapes `buffer.init` allocates."""
    spec = specs.load(config.env)
    shapes = jax.eval_shape(lambda: replay.init(replay_capacity(config), spec.obs_dim, spec.act_dim))
    return sum(x.size * x.dtype.itemsize for x in jax.tree.leaves(shapes))
