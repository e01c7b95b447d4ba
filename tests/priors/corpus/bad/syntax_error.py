# expect: syntax error
import jax.numpy as jnp


def policy(obs)
    return jnp.zeros(3)
