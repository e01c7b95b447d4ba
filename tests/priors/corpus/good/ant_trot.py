"""Ant: a trot; diagonal leg pairs swing in antiphase, driven by the hip angles themselves."""
import jax.numpy as jnp

# Action order (XML actuators): hip_4, ankle_4, hip_1, ankle_1, hip_2, ankle_2, hip_3, ankle_3.
OBS_OF_ACTION = jnp.array([11, 12, 5, 6, 7, 8, 9, 10])
PAIR_SIGN = jnp.array([1.0, 1.0, -1.0, -1.0, 1.0, 1.0, -1.0, -1.0])


def policy(obs):
    angles = obs[OBS_OF_ACTION]
    phase = jnp.tanh(4.0 * (obs[5] - obs[7]))
    hips = 0.6 * phase * PAIR_SIGN
    ankles = 0.5 - 1.0 * angles
    act = jnp.where(jnp.arange(8) % 2 == 0, hips, ankles)
    return jnp.clip(act, -1.0, 1.0)
