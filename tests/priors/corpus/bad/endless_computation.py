# expect: timed out
import jax.numpy as jnp

GAIN = 9**9**9  # a number with 370 million digits: computing it never ends in practice


def policy(obs):
    return jnp.zeros(3)
