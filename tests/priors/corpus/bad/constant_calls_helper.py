# expect: module-level values must be constants
import jax.numpy as jnp


def _table(n):
    return (float(n), 2.0 * n, 3.0 * n)


TABLE = _table(3)  # runs code at import


def policy(obs):
    return jnp.clip(obs[2:5] * TABLE[1], -1.0, 1.0)
