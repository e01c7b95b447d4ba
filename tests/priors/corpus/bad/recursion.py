# expect: recursion is not allowed (policy -> policy)
import jax.numpy as jnp


def policy(obs):
    return jnp.clip(policy(obs * 0.5), -1.0, 1.0)
