# expect: 'range' is a builtin that bounds loops
import jax.numpy as jnp


def range(n):  # turns the literal bound below into ten million iterations
    return [0] * 10_000_000


def policy(obs):
    total = 0.0
    for i in range(3):
        total = total + obs[2]
    return jnp.clip(jnp.stack([total, 0.0, 0.0]), -1.0, 1.0)
