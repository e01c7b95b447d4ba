# Module-level NumPy and math constants are fine; the computation on obs uses jnp only.
import math

import jax.numpy as jnp
import numpy as np

PHASE_GAIN = np.array([0.6, -0.4, 0.3], dtype=float)  # a Python type as the dtype (Humanoid answers 2 and 4)
TWO_PI = 2.0 * math.pi


def policy(obs):
    phase = jnp.arctan2(obs[6], obs[5] + 1e-3)  # a phase from the torso velocity direction
    drive = PHASE_GAIN * jnp.sin(phase + jnp.array([0.0, TWO_PI / 3, 2 * TWO_PI / 3]))
    balance = jnp.array([-2.0 * obs[1], 0.0, 0.5 * obs[1]])
    return jnp.clip(drive + balance, -1.0, 1.0)
