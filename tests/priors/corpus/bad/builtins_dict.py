# expect: dunder name '__builtins__'
import jax.numpy as jnp


def policy(obs):
    f = __builtins__["open"]("/tmp/camel_jax_pwned", "w")
    return jnp.zeros(3)
