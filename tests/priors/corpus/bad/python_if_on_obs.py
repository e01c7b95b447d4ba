# expect: Python branching on a traced array value
import jax.numpy as jnp


def policy(obs):
    if obs[1] > 0.0:
        return jnp.array([0.5, -0.5, 0.0])
    return jnp.array([-0.5, 0.5, 0.0])
