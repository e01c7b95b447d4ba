# expect: dunder name '__getattr__' is not allowed
import jax.numpy as jnp


def __getattr__(name):  # module-level __getattr__: a hook on attribute lookups of the module
    return jnp.zeros(3)


def policy(obs):
    return jnp.zeros(3)
