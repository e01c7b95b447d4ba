# expect: `global` is not allowed
import jax.numpy as jnp

STEP = 0


def policy(obs):
    global STEP
    STEP = STEP + 1
    return jnp.zeros(3)
