# expect: name 'eval' is not defined or not allowed
import jax.numpy as jnp


def policy(obs):
    return jnp.clip(eval("obs[:3]"), -1.0, 1.0)
