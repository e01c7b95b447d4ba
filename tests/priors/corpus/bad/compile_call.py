# expect: name 'compile' is not defined or not allowed
import jax.numpy as jnp

CODE = compile("1 + 1", "<x>", "eval")


def policy(obs):
    return jnp.zeros(3)
