# expect: attribute '.open_memmap' is not allowed
import jax.numpy as jnp
import numpy as np

MAP = np.lib.format.open_memmap("/tmp/camel_jax_pwned", mode="w+", shape=(3,))


def policy(obs):
    return jnp.zeros(3)
