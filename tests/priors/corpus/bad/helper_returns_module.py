# expect: module 'np' may only be used as
import jax.numpy as jnp
import numpy as np


def _lib():
    return np


def policy(obs):
    _lib().save("/tmp/camel_jax_pwned_helper", obs)
    return jnp.zeros(3)
