"""CAMEL's action masking: a box of allowed actions around the prior's action, the map of the actor's tanh output
into that box, and the epsilon schedule that decides per episode whether the box applies.

Unmasked means the full box [-1, 1], where `map_to_box` is exactly the plain TD3 tanh actor.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp


def prior_bounds(a_prior: jax.Array, delta: float, min_width: float) -> tuple[jax.Array, jax.Array]:
    """`low, high = clip(a_prior -/+ delta, -1, 1)`, widened to at least `min_width` so the box never collapses.

    A non-finite prior action (a broken prior) gives the full box for that dimension: training never sees NaN.
    """
    a = jnp.clip(a_prior, -1.0, 1.0)
    low = jnp.clip(a - delta, -1.0, 1.0)
    high = jnp.clip(a + delta, -1.0, 1.0)
    short = jnp.maximum(min_width - (high - low), 0.0)
    low = jnp.clip(low - short / 2, -1.0, 1.0 - min_width)
    high = jnp.maximum(jnp.clip(high + short / 2, -1.0 + min_width, 1.0), low + min_width)
    finite = jnp.isfinite(a_prior)
    return jnp.where(finite, low, -1.0), jnp.where(finite, high, 1.0)


def apply_mask(low: jax.Array, high: jax.Array, masked: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Keep the prior's box where `masked` (per row), else the full box [-1, 1]."""
    m = masked.reshape(masked.shape + (1,) * (low.ndim - masked.ndim)) > 0
    return jnp.where(m, low, -1.0), jnp.where(m, high, 1.0)


def map_to_box(u: jax.Array, low: jax.Array, high: jax.Array) -> jax.Array:
    """Map the actor's tanh output `u` in [-1, 1] into `[low, high]`: `a = low + (u + 1) / 2 * (high - low)`.

    Computed as `centre + u * half_width`, the same map, so that on the full box [-1, 1] it returns `u` bit for bit
    (`low + (u + 1) ...` would round `u` to the spacing of floats near 1: a relative error of 1e-3 at |u| = 1e-4).
    """
    return (low + high) * 0.5 + u * ((high - low) * 0.5)


def epsilon(t: jax.Array, total_steps: int, eps0: float, mask_fraction: float) -> jax.Array:
    """`eps(t) = eps0 * max(0, 1 - t / (f * T))`: masking probability after `t` env steps (0 when f * T == 0)."""
    horizon = mask_fraction * total_steps
    frac = jnp.where(horizon > 0, 1.0 - t / jnp.maximum(horizon, 1e-9), 0.0)
    return eps0 * jnp.clip(frac, 0.0, 1.0)


def draw_masked(key: jax.Array, eps: jax.Array, shape: tuple[int, ...]) -> jax.Array:
    """Per-episode 'masked?' flags (float 0/1), each 1 with probability `eps`; drawn at every reset."""
    return (jax.random.uniform(key, shape) < eps).astype(jnp.float32)
