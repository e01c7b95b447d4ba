# expect: integer literal
import jax.numpy as jnp

BIG = 1000000000000


def policy(obs):
    return jnp.zeros(3)
