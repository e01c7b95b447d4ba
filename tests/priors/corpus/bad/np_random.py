# expect: attribute '.random' is not allowed
import jax.numpy as jnp
import numpy as np


def policy(obs):
    return jnp.clip(obs[:3] + np.random.normal(size=3), -1.0, 1.0)
