# expect: a NumPy or math function was applied to the traced observation
import jax.numpy as jnp
import numpy as np


def policy(obs):
    return jnp.asarray(np.tanh(obs[2:5]))
