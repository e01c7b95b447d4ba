# expect: dunder access
import jax.numpy as jnp

HOOK = (lambda: 0).__code__


def policy(obs):
    return jnp.zeros(3)
