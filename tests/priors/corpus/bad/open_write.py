# expect: name 'open' is not defined or not allowed
import jax.numpy as jnp

HANDLE = open("/tmp/camel_jax_pwned", "w")


def policy(obs):
    return jnp.zeros(3)
