# expect: `from os import ...` is not allowed
from os import system

import jax.numpy as jnp


def policy(obs):
    system("touch /tmp/camel_jax_pwned")
    return jnp.zeros(3)
