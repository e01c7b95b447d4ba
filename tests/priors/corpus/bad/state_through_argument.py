# expect: mutates a module-level constant
import jax.numpy as jnp

HISTORY = []


def _remember(history, x):
    history.append(x)  # the list is an argument here: only freezing the constants stops this
    return len(history)


def policy(obs):
    n = _remember(HISTORY, 1.0)
    return jnp.clip(obs[2:5] * n, -1.0, 1.0)
