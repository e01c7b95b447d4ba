# expect: recursion is not allowed (_apply -> _apply)
import jax.numpy as jnp


def _apply(f, x):
    return f(f, x)  # _apply(_apply, x) recurses forever without naming itself


def policy(obs):
    return jnp.clip(_apply(_apply, obs[2:5]), -1.0, 1.0)
