# camel-jax prior
# task: gym:LunarLanderContinuous-v3
# model: claude (Anthropic; helper session, version not exposed)
# prompt: priors/prompts/gym_numpy_v1.md sha256:e375dcd713a04d65fed5c4b3ea1b552147d1f080110388ba83e521bea9f27333
# date: 2026-11-27T14:54:25Z
# validation: valid: (8,) -> (2,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations
# prompt_text: sha256:afe9d692e29e1e9afe0cc78ce3dfa93c46820bfbdd591f0c41763989e3252935 (the text of `camel-jax priors prompt --env gym:LunarLanderContinuous-v3 --style paper`)
# answer: answer_4.md sha256:ead2f0bb164bbd29c948678277b7c5156bd9583f38743cf116c08b0ad2c3b7c9
# method: NumPy answer translated to jnp mechanically (camel_jax/priors/convert.py), equal to the answer within 6.0e-08 in float64 on 10000 rollout observations and 686 of the answer's own episodes; command: camel-jax priors import --env gym:LunarLanderContinuous-v3 --model 'claude (Anthropic; helper session, version not exposed)' --timeout 600 --out priors/llm/gym_LunarLanderContinuous-v3/imported priors/llm/gym_LunarLanderContinuous-v3/answer_1.md priors/llm/gym_LunarLanderContinuous-v3/answer_2.md priors/llm/gym_LunarLanderContinuous-v3/answer_3.md priors/llm/gym_LunarLanderContinuous-v3/answer_4.md priors/llm/gym_LunarLanderContinuous-v3/answer_5.md

import jax.numpy as jnp


def policy(obs):
    """
    Stateless hand-crafted controller for LunarLanderContinuous-v3.

    obs = [x, y, vx, vy, angle, ang_vel, left_contact, right_contact]
    returns act = [main_engine, lateral_engine], each in [-1, 1]
    """
    obs = jnp.asarray(obs, dtype=jnp.float64)
    x, y, vx, vy, angle, ang_vel = obs[:6]
    left_contact = obs[6] > 0.5
    right_contact = obs[7] > 0.5
    cond3 = jnp.logical_and(left_contact, right_contact)
    angle_target_else1 = 0.5 * x + 1.0 * vx
    angle_target_else2 = jnp.clip(angle_target_else1, -0.4, 0.4)
    hover_target_else1 = 0.55 * abs(x)
    angle_todo_else1 = 0.5 * (angle_target_else2 - angle) - 1.0 * ang_vel
    hover_todo_else1 = 0.5 * (hover_target_else1 - y) - 0.5 * vy
    max_sink_else1 = 0.15 + 0.6 * jnp.maximum(y, 0.0)
    cond1_else1 = vy < -max_sink_else1
    hover_todo_then1_else1 = jnp.maximum(hover_todo_else1, 0.5 * (-max_sink_else1 - vy) + 0.05)
    hover_todo_else2 = jnp.where(cond1_else1, hover_todo_then1_else1, hover_todo_else1)
    cond2_else1 = jnp.logical_or(left_contact, right_contact)
    angle_todo_then1_else1 = 0.0
    hover_todo_then2_else1 = -0.5 * vy
    angle_todo_else2 = jnp.where(cond2_else1, angle_todo_then1_else1, angle_todo_else1)
    hover_todo_else3 = jnp.where(cond2_else1, hover_todo_then2_else1, hover_todo_else2)
    main_else1 = hover_todo_else3 * 20.0 - 1.0
    lateral_else1 = -angle_todo_else2 * 20.0
    act_else1 = jnp.array([main_else1, lateral_else1], dtype=jnp.float64)
    act_else2 = jnp.clip(act_else1, -1.0, 1.0)
    return jnp.where(cond3, jnp.array([-1.0, 0.0], dtype=jnp.float32), act_else2.astype(jnp.float32))
