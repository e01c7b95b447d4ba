# expect: dunder access
import jax.numpy as jnp


def policy(obs):
    classes = ().__class__.__bases__[0].__subclasses__()
    return jnp.zeros(3) + len(classes)
