# expect: name 'globals' is not defined or not allowed
import jax.numpy as jnp


def policy(obs):
    g = globals()
    return jnp.zeros(3)
