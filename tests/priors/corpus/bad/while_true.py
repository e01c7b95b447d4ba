# expect: `while` loops are not allowed
import jax.numpy as jnp


def policy(obs):
    act = jnp.zeros(3)
    while True:
        act = act + 1.0
    return act
