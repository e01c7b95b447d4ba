# expect: nested loops run more than
import jax.numpy as jnp


def policy(obs):
    act = jnp.zeros(3)
    for i in range(64):
        for j in range(64):
            for k in range(64):
                act = act + 1e-9 * obs[:3]
    return jnp.clip(act, -1.0, 1.0)
