# expect: memory
import jax.numpy as jnp

TABLE = jnp.ones((40000, 40000))  # 6.4 GB on the XLA heap, far over the sandbox memory limit


def policy(obs):
    return jnp.zeros(3) + TABLE[0, 0]
