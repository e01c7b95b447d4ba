# expect: attribute '.format' is not allowed
import jax.numpy as jnp


def policy(obs):
    leak = "{0.__class__.__init__.__globals__}".format(policy)
    return jnp.zeros(3)
