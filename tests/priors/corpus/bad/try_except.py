# expect: `try` is not allowed
import jax.numpy as jnp


def policy(obs):
    try:
        act = jnp.clip(obs[:3], -1.0, 1.0)
    except Exception:
        act = jnp.zeros(3)
    return act
