# expect: imports are only allowed at the top
import jax.numpy as jnp


def policy(obs):
    import subprocess

    subprocess.run(["touch", "/tmp/camel_jax_pwned"])
    return jnp.zeros(3)
