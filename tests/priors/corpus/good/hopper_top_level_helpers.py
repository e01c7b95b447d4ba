# Top-level helpers called from policy, and module-level constants computed from literals (issue #16).
import math

import jax.numpy as jnp
import numpy as np

TARGETS = np.array([0.3, -0.2, 0.0])  # a NumPy array constant: frozen read-only when the prior is loaded
GAINS = {"kp": 2.0, "kd": 0.1}  # a dict constant: a read-only mapping once loaded
LIMITS = [-1.0, 1.0]  # a list constant: a tuple once loaded
PITCH_LIMIT = math.radians(5.0) * 2.0  # math on constants


def _pd(angle, velocity, target):
    return GAINS["kp"] * (target - angle) - GAINS["kd"] * velocity


def _lean(pitch, gain=0.5):
    return jnp.clip(-gain * pitch / PITCH_LIMIT, -0.5, 0.5)


def policy(obs):
    act = jnp.stack([_pd(obs[2 + i], obs[8 + i], TARGETS[i]) for i in range(3)])
    act = act.at[0].add(_lean(obs[1]))
    return jnp.clip(act, LIMITS[0], LIMITS[1])
