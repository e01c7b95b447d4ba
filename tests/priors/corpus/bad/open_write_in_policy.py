# expect: name 'open' is not defined or not allowed
import jax.numpy as jnp


def policy(obs):
    handle = open("/tmp/camel_jax_pwned", "w")
    handle.write("pwned")
    return jnp.zeros(3)
