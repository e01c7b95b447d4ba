# A policy built with a bounded loop, a nested helper, a lambda and the `from jax import numpy` form.
from jax import numpy as jnp

GAINS = (1.2, 0.8, 0.6)


def policy(obs: jnp.ndarray) -> jnp.ndarray:
    def pd(angle, velocity, kp, target=0.0):
        return kp * (target - angle) - 0.1 * velocity

    squash = lambda x: jnp.tanh(2.0 * x)  # noqa: E731
    torques = []
    for i in range(3):
        torques.append(pd(obs[2 + i], obs[8 + i], GAINS[i]))
    act = squash(jnp.stack(torques))
    return jnp.clip(act, -1.0, 1.0)
