# expect: attribute '.f_globals' is not allowed
import jax.numpy as jnp


def policy(obs):
    g = (x for x in [1, 2])
    caller_globals = g.gi_frame.f_back.f_globals
    return jnp.zeros(3)
