# expect: name 'getattr' is not defined or not allowed
import jax.numpy as jnp


def policy(obs):
    cls = getattr(obs, "__cl" + "ass__")
    return jnp.zeros(3)
