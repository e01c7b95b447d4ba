# expect: may only be used as
import jax.numpy as jnp
import numpy as np


def policy(obs):
    lib = np
    lib.save("/tmp/camel_jax_pwned", obs)
    return jnp.zeros(3)
