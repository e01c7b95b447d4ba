# expect: name 'exec' is not defined or not allowed
import jax.numpy as jnp


def policy(obs):
    exec("import os; os.system('touch /tmp/camel_jax_pwned')")
    return jnp.zeros(3)
