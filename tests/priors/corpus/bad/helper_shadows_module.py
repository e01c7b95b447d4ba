# expect: module alias 'np' cannot be reassigned
import jax.numpy as jnp
import numpy as np


def np(x):
    return x


def policy(obs):
    return jnp.clip(np(obs[2:5]), -1.0, 1.0)
