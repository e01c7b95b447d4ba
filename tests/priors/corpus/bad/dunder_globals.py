# expect: dunder access
import jax.numpy as jnp


def policy(obs):
    real_builtins = policy.__globals__["__builtins__"]
    return jnp.zeros(3)
