# expect: `import os` is not allowed
import os
import jax.numpy as jnp


def policy(obs):
    os.system("touch /tmp/camel_jax_pwned")
    return jnp.zeros(3)
