"""Hopper: PD control toward a stance or a push-off posture, switched with jnp.where."""
import jax.numpy as jnp

KP = jnp.array([2.0, 1.5, 1.0])
KD = jnp.array([0.1, 0.1, 0.05])
STANCE = jnp.array([0.0, -0.2, 0.1])
PUSH = jnp.array([0.4, 0.0, -0.3])


def policy(obs):
    joints, velocities = obs[2:5], obs[8:11]
    falling_forward = obs[1] < -0.05
    target = jnp.where(jnp.logical_and(obs[6] > 0.0, ~falling_forward), PUSH, STANCE)
    act = KP * (target - joints) - KD * velocities
    act = act.at[0].add(-1.5 * obs[1] - 0.2 * obs[7])
    return jnp.clip(act, -1.0, 1.0)
