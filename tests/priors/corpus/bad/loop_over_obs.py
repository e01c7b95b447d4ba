# expect: loops must run over
import jax.numpy as jnp


def policy(obs):
    total = 0.0
    for value in obs:
        total = total + value
    return jnp.clip(jnp.full(3, total), -1.0, 1.0)
