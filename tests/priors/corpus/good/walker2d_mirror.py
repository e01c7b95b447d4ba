"""Walker2d: mirrored hip oscillation from the hip angle difference, knees and feet held by PD terms."""
import jax.numpy as jnp


def policy(obs):
    right, left = obs[2:5], obs[5:8]
    right_vel, left_vel = obs[11:14], obs[14:17]
    swing = jnp.tanh(3.0 * (left[0] - right[0]))
    hips = jnp.array([0.5 * swing, -0.5 * swing]) - 1.0 * obs[1]
    knees = -1.0 * jnp.array([right[1], left[1]]) - 0.1 * jnp.array([right_vel[1], left_vel[1]])
    feet = -0.5 * jnp.array([right[2], left[2]])
    act = jnp.array([hips[0], knees[0], feet[0], hips[1], knees[1], feet[1]])
    return jnp.clip(act, -1.0, 1.0)
