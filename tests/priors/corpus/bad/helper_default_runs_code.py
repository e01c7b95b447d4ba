# expect: default values must be literal constants
import jax.numpy as jnp
import numpy as np


def _pd(angle, velocity, table=np.ones((40000, 40000))):  # runs once, at import, before any call
    return 2.0 * angle - 0.1 * velocity


def policy(obs):
    return jnp.clip(_pd(obs[2:5], obs[8:11]), -1.0, 1.0)
