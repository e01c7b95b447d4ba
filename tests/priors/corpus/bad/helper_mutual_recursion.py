# expect: recursion is not allowed (_even -> _odd -> _even)
import jax.numpy as jnp


def _even(x):
    return _odd(x * 0.5)


def _odd(x):
    return _even(x * 0.5)


def policy(obs):
    return jnp.clip(_even(obs[2:5]), -1.0, 1.0)
