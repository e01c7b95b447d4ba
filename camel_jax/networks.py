"""Networks (flax linen), CleanRL's sizes: 256-256 ReLU MLPs.

`Actor(obs, low, high)` is masking-aware: it sees the box and its tanh output is mapped into it. With
`masking_aware=False` (the paper's "w/o MA" control) the actor sees only `obs`; its output is still mapped into the
box, so it cannot know where the box is. `TwinCritic(obs, act) -> (q1, q2)`.
"""

from __future__ import annotations

from collections.abc import Sequence

import flax.linen as nn
import jax
import jax.numpy as jnp

from camel_jax.masking import map_to_box


class MLP(nn.Module):
    hidden: Sequence[int]
    out: int

    @nn.compact
    def __call__(self, x: jax.Array) -> jax.Array:
        for h in self.hidden:
            x = nn.relu(nn.Dense(h)(x))
        return nn.Dense(self.out)(x)


class Actor(nn.Module):
    act_dim: int
    hidden: Sequence[int] = (256, 256)
    masking_aware: bool = True

    @nn.compact
    def __call__(self, obs: jax.Array, low: jax.Array, high: jax.Array) -> jax.Array:
        x = jnp.concatenate([obs, low, high], axis=-1) if self.masking_aware else obs
        u = jnp.tanh(MLP(self.hidden, self.act_dim)(x))
        return map_to_box(u, low, high)


class TwinCritic(nn.Module):
    hidden: Sequence[int] = (256, 256)

    @nn.compact
    def __call__(self, obs: jax.Array, act: jax.Array) -> tuple[jax.Array, jax.Array]:
        x = jnp.concatenate([obs, act], axis=-1)
        q1 = MLP(self.hidden, 1, name="q1")(x)[..., 0]
        q2 = MLP(self.hidden, 1, name="q2")(x)[..., 0]
        return q1, q2
