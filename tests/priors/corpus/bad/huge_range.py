# expect: loops must run over
import jax.numpy as jnp


def policy(obs):
    act = jnp.zeros(3)
    for i in range(10**8):
        act = act + 1e-9
    return act
