# expect: `global` is not allowed
import jax.numpy as jnp

STEPS = 0


def _tick():
    global STEPS
    STEPS = STEPS + 1
    return STEPS


def policy(obs):
    return jnp.clip(obs[2:5] * _tick(), -1.0, 1.0)
