# expect: annotations may only name types
import jax.numpy as jnp
import numpy as np


def _pd(angle: np.ones((40000, 40000)), velocity):  # annotations are evaluated at import
    return 2.0 * angle - 0.1 * velocity


def policy(obs):
    return jnp.clip(_pd(obs[2:5], obs[8:11]), -1.0, 1.0)
