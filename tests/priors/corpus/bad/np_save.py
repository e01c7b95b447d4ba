# expect: attribute '.save' is not allowed
import jax.numpy as jnp
import numpy as np


def policy(obs):
    np.save("/tmp/camel_jax_pwned.npy", obs)
    return jnp.zeros(3)
