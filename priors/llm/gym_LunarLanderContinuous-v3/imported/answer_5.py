# camel-jax prior
# task: gym:LunarLanderContinuous-v3
# model: claude (Anthropic; helper session, version not exposed)
# prompt: priors/prompts/gym_numpy_v1.md sha256:e375dcd713a04d65fed5c4b3ea1b552147d1f080110388ba83e521bea9f27333
# date: 2026-11-27T14:55:25Z
# validation: valid: (8,) -> (2,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations
# prompt_text: sha256:afe9d692e29e1e9afe0cc78ce3dfa93c46820bfbdd591f0c41763989e3252935 (the text of `camel-jax priors prompt --env gym:LunarLanderContinuous-v3 --style paper`)
# answer: answer_5.md sha256:599c434d027a5d233619fac93d31f84bfad0bbc9233392751605197190594d7c
# method: NumPy answer translated to jnp mechanically (camel_jax/priors/convert.py), equal to the answer within 6.0e-08 in float64 on 10000 rollout observations and 677 of the answer's own episodes; command: camel-jax priors import --env gym:LunarLanderContinuous-v3 --model 'claude (Anthropic; helper session, version not exposed)' --timeout 600 --out priors/llm/gym_LunarLanderContinuous-v3/imported priors/llm/gym_LunarLanderContinuous-v3/answer_1.md priors/llm/gym_LunarLanderContinuous-v3/answer_2.md priors/llm/gym_LunarLanderContinuous-v3/answer_3.md priors/llm/gym_LunarLanderContinuous-v3/answer_4.md priors/llm/gym_LunarLanderContinuous-v3/answer_5.md

import jax.numpy as jnp


def policy(obs):
    """
    Hard-coded controller for LunarLanderContinuous-v3.
    Pure function of the current observation (keeps no state between calls).

    obs: [x, y, vx, vy, angle, angular_vel, left_leg, right_leg]
    returns act: [main_throttle, lateral_throttle], each in [-1, 1]
    """
    obs = jnp.asarray(obs, dtype=jnp.float64)
    x, y, vx, vy, ang, ang_vel = obs[:6]
    left_contact = obs[6] > 0.5
    right_contact = obs[7] > 0.5
    angle_targ = 0.5 * x + 1.0 * vx
    angle_targ = jnp.clip(angle_targ, -0.4, 0.4)
    hover_targ = 0.55 * jnp.abs(x)
    angle_todo = (angle_targ - ang) * 0.5 - ang_vel * 1.0
    hover_todo = (hover_targ - y) * 0.5 - vy * 0.5
    cond1 = jnp.logical_or(left_contact, right_contact)
    angle_todo_then1 = 0.0
    hover_todo_then1 = -vy * 0.5
    angle_todo = jnp.where(cond1, angle_todo_then1, angle_todo)
    hover_todo = jnp.where(cond1, hover_todo_then1, hover_todo)
    cond2 = jnp.logical_and(jnp.logical_and(jnp.logical_and(left_contact, right_contact), abs(vy) < 0.2), abs(vx) < 0.3)
    main_else1 = hover_todo * 20.0 - 1.0
    lateral_else1 = -angle_todo * 20.0
    act_else1 = jnp.array([main_else1, lateral_else1], dtype=jnp.float64)
    act_else2 = jnp.clip(act_else1, -1.0, 1.0)
    return jnp.where(cond2, jnp.array([-1.0, 0.0], dtype=jnp.float32), act_else2.astype(jnp.float32))
