# expect: Python branching on a traced array value
import jax.numpy as jnp


def policy(obs):
    upright = obs[0] > 1.0 and obs[1] < 0.1
    return jnp.where(upright, 0.5, -0.5) * jnp.ones(3)
