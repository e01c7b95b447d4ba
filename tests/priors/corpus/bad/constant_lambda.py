# expect: a lambda (define a function with `def` instead)
import jax.numpy as jnp

SQUASH = lambda x: jnp.tanh(x)  # noqa: E731


def policy(obs):
    return jnp.clip(SQUASH(obs[2:5]), -1.0, 1.0)
