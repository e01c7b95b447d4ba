# expect: attribute '.load' is not allowed
import jax.numpy as jnp

WEIGHTS = jnp.load("/etc/passwd")


def policy(obs):
    return jnp.zeros(3)
