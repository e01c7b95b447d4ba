# camel-jax prior
# task: gym:LunarLanderContinuous-v3
# model: claude (Anthropic; helper session, version not exposed)
# prompt: priors/prompts/gym_numpy_v1.md sha256:e375dcd713a04d65fed5c4b3ea1b552147d1f080110388ba83e521bea9f27333
# date: 2026-11-27T14:53:03Z
# validation: valid: (8,) -> (2,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations
# prompt_text: sha256:afe9d692e29e1e9afe0cc78ce3dfa93c46820bfbdd591f0c41763989e3252935 (the text of `camel-jax priors prompt --env gym:LunarLanderContinuous-v3 --style paper`)
# answer: answer_2.md sha256:2d7e18965f921a9e3a05cd275e4491959777483ab515d86e2b86064dc058d588
# method: NumPy answer translated to jnp mechanically (camel_jax/priors/convert.py), equal to the answer within 6.0e-08 in float64 on 10000 rollout observations and 673 of the answer's own episodes; command: camel-jax priors import --env gym:LunarLanderContinuous-v3 --model 'claude (Anthropic; helper session, version not exposed)' --timeout 600 --out priors/llm/gym_LunarLanderContinuous-v3/imported priors/llm/gym_LunarLanderContinuous-v3/answer_1.md priors/llm/gym_LunarLanderContinuous-v3/answer_2.md priors/llm/gym_LunarLanderContinuous-v3/answer_3.md priors/llm/gym_LunarLanderContinuous-v3/answer_4.md priors/llm/gym_LunarLanderContinuous-v3/answer_5.md

import jax.numpy as jnp


def policy(obs):
    """
    Stateless hand-crafted controller for LunarLanderContinuous-v3.

    obs: [x, y, vx, vy, angle, ang_vel, left_leg, right_leg]
    returns act: [main_engine, lateral_engine], each in [-1, 1]
    """
    obs = jnp.asarray(obs, dtype=jnp.float64)
    x, y, vx, vy, angle, ang_vel = obs[:6]
    left_contact = obs[6] > 0.5
    right_contact = obs[7] > 0.5
    angle_target = 0.5 * x + 1.0 * vx
    angle_target = jnp.clip(angle_target, -0.4, 0.4)
    hover_target = 0.55 * abs(x)
    angle_todo = 0.5 * (angle_target - angle) - 1.0 * ang_vel
    hover_todo = 0.5 * (hover_target - y) - 0.5 * vy
    cond1 = jnp.logical_or(left_contact, right_contact)
    angle_todo_then1 = 0.0
    hover_todo_then1 = -0.5 * vy
    angle_todo = jnp.where(cond1, angle_todo_then1, angle_todo)
    hover_todo = jnp.where(cond1, hover_todo_then1, hover_todo)
    main = hover_todo * 20.0 - 1.0
    lateral = -angle_todo * 20.0
    cond2 = jnp.logical_and(jnp.logical_and(jnp.logical_and(left_contact, right_contact), abs(vy) < 0.05), abs(vx) < 0.05)
    main_then1, lateral_then1 = (-1.0, 0.0)
    main = jnp.where(cond2, main_then1, main)
    lateral = jnp.where(cond2, lateral_then1, lateral)
    act = jnp.clip(jnp.array([main, lateral], dtype=jnp.float64), -1.0, 1.0)
    return act.astype(jnp.float32)
