"""A replay buffer that lives on the device: fixed capacity, ring insert, O(batch) uniform sampling.

Each row is one transition: obs, action, reward, next_obs (the true final observation when the episode ended,
truncation included), terminated, and the episode's masked flag. Bounds are not stored: the prior is a cheap jitted
function, so the update recomputes the boxes of s and s' from it (less memory, and always the same prior).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from flax import struct


@struct.dataclass
class Transition:
    obs: jax.Array
    action: jax.Array
    reward: jax.Array
    next_obs: jax.Array
    terminated: jax.Array
    masked: jax.Array


@struct.dataclass
class Buffer:
    data: Transition  # each field has leading axis `capacity`
    ptr: jax.Array  # next row to write
    size: jax.Array  # rows written so far, at most capacity

    @property
    def capacity(self) -> int:
        return self.data.reward.shape[0]


def init(capacity: int, obs_dim: int, act_dim: int) -> Buffer:
    z = lambda *s: jnp.zeros((capacity, *s), jnp.float32)
    data = Transition(z(obs_dim), z(act_dim), z(), z(obs_dim), z(), z())
    return Buffer(data=data, ptr=jnp.zeros((), jnp.int32), size=jnp.zeros((), jnp.int32))


def insert(buf: Buffer, batch: Transition) -> Buffer:
    """Write a batch of rows (leading axis n <= capacity) at the ring pointer, wrapping around."""
    n = batch.reward.shape[0]
    rows = (buf.ptr + jnp.arange(n)) % buf.capacity
    data = jax.tree.map(lambda store, new: store.at[rows].set(new), buf.data, batch)
    return Buffer(data=data, ptr=(buf.ptr + n) % buf.capacity, size=jnp.minimum(buf.size + n, buf.capacity))


def sample(buf: Buffer, key: jax.Array, batch_size: int) -> Transition:
    """`batch_size` rows uniformly (with replacement) from the rows written so far."""
    idx = jax.random.randint(key, (batch_size,), 0, jnp.maximum(buf.size, 1))
    return jax.tree.map(lambda x: x[idx], buf.data)
