# expect: mutates the module-level `STATE`
import jax.numpy as jnp

STATE = {"calls": 0}


def _remember():
    STATE["calls"] = STATE["calls"] + 1
    return STATE["calls"]


def policy(obs):
    return jnp.clip(obs[2:5] / _remember(), -1.0, 1.0)
