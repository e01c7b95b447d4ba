# expect: default values must be literal constants
import jax.numpy as jnp


def _count(seen=[]):
    seen.append(1)
    return len(seen)


def policy(obs):
    gain = 1.0 if _count() < 3 else -1.0  # acts differently after its first traces
    return jnp.clip(gain * obs[2:5], -1.0, 1.0)
