# expect: dunder name '__import__'
import jax.numpy as jnp


def policy(obs):
    os_module = __import__("os")
    return jnp.zeros(3)
