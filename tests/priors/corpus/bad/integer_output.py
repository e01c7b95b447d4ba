# expect: return floats
import jax.numpy as jnp


def policy(obs):
    return jnp.sign(obs[2:5]).astype(jnp.int32)
