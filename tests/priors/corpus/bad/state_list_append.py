# expect: `CALLS.append(1)` mutates the module-level `CALLS`
import jax.numpy as jnp

CALLS = [0]


def policy(obs):
    CALLS.append(1)  # one more per trace: the fourth trace flips the sign
    gain = 0.5 if len(CALLS) < 4 else -0.5
    return jnp.clip(gain * obs[2:5], -1.0, 1.0)
