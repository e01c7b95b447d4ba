# expect: attribute '.tofile' is not allowed
import jax.numpy as jnp
import numpy as np

GAINS = np.ones(3)


def policy(obs):
    GAINS.tofile("/tmp/camel_jax_pwned")
    return jnp.zeros(3)
