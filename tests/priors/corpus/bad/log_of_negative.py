# expect: non-finite actions
import jax.numpy as jnp


def policy(obs):
    return jnp.clip(jnp.log(obs[2:5] - 10.0), -1.0, 1.0)
