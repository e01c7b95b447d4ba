# expect: memory
import jax.numpy as jnp
import numpy as np

TABLE = np.ones((40000, 40000))  # 12.8 GB, far over the sandbox memory limit


def policy(obs):
    return jnp.zeros(3)
