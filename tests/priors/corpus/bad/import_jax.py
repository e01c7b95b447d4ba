# expect: `import jax` is not allowed
import jax
import jax.numpy as jnp


def policy(obs):
    jax.debug.callback(lambda: None)
    return jnp.zeros(3)
