# expect: decorators are not allowed
import jax.numpy as jnp
import numpy as np


@np.vectorize
def _squash(x):
    return x


def policy(obs):
    return jnp.clip(_squash(obs[2:5]), -1.0, 1.0)
