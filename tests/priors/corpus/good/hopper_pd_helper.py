# The prior of issue #16: a top-level helper `_pd` called from policy ("define exactly one top-level function" before).
import jax.numpy as jnp


def _pd(angle, velocity, target):
    return 2.0 * (target - angle) - 0.1 * velocity


def policy(obs):
    act = jnp.stack([_pd(obs[2], obs[8], 0.3), _pd(obs[3], obs[9], -0.2), _pd(obs[4], obs[10], 0.0)])
    return jnp.clip(act, -1.0, 1.0)
