# expect: it must return (3,)
import jax.numpy as jnp


def policy(obs):
    return jnp.clip(obs[0] - 1.2, -1.0, 1.0)
