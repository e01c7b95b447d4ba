# expect: unbounded recursion
import jax.numpy as jnp


def policy(obs):
    f = lambda g, x: g(g, x * 0.5)  # noqa: E731 -- recursion through a lambda's argument: caught when it runs
    return jnp.clip(f(f, obs[2:5]), -1.0, 1.0)
