# expect: memory
import jax.numpy as jnp

TABLE = [0.0] * 10**9  # 8 GB of references


def policy(obs):
    return jnp.zeros(3) + TABLE[0]
