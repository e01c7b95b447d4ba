"""Networks (flax linen), CleanRL's sizes: 256-256 ReLU MLPs.

`Actor(obs, low, high)`: its tanh output is mapped into the box `[low, high]`. With `sees_box=True` (CAMEL's
masking-aware actor) its input is `concat(obs, low, high)`. With `sees_box=False` its input is `obs` alone: plain TD3
(no prior: the box is always [-1, 1], where the map is the identity, so this is exactly CleanRL's
`obs -> 256 -> 256 -> tanh` actor) and the paper's "w/o MA" control (the output is still mapped into the box, but
the actor cannot know where the box is). `Config.actor_sees_box` decides. `TwinCritic(obs, act) -> (q1, q2)`.
"""

from __future__ import annotations

from collections.abc import Sequence

import flax.linen as nn
import jax
import jax.numpy as jnp

from camel_jax.algos.td3.masking import map_to_box


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
    sees_box: bool = True

    @nn.compact
    def __call__(self, obs: jax.Array, low: jax.Array, high: jax.Array) -> jax.Array:
        x = jnp.concatenate([obs, low, high], axis=-1) if self.sees_box else obs
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
