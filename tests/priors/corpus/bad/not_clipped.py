# expect: actions outside [-1, 1]
import jax.numpy as jnp


def policy(obs):
    return 20.0 * obs[8:11]
