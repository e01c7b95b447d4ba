# camel-jax prior
# task: gym:LunarLanderContinuous-v3
# model: claude (Anthropic; helper session, version not exposed)
# prompt: priors/prompts/gym_numpy_v1.md sha256:e375dcd713a04d65fed5c4b3ea1b552147d1f080110388ba83e521bea9f27333
# date: 2026-11-27T14:53:45Z
# validation: valid: (8,) -> (2,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations
# prompt_text: sha256:afe9d692e29e1e9afe0cc78ce3dfa93c46820bfbdd591f0c41763989e3252935 (the text of `camel-jax priors prompt --env gym:LunarLanderContinuous-v3 --style paper`)
# answer: answer_3.md sha256:ef041b72af77aabe78c33314f93c1f4b0490e27719d917dfe1a1a361badad0bd
# method: NumPy answer translated to jnp mechanically (camel_jax/priors/convert.py), equal to the answer within 6.0e-08 in float64 on 10000 rollout observations and 677 of the answer's own episodes; command: camel-jax priors import --env gym:LunarLanderContinuous-v3 --model 'claude (Anthropic; helper session, version not exposed)' --timeout 600 --out priors/llm/gym_LunarLanderContinuous-v3/imported priors/llm/gym_LunarLanderContinuous-v3/answer_1.md priors/llm/gym_LunarLanderContinuous-v3/answer_2.md priors/llm/gym_LunarLanderContinuous-v3/answer_3.md priors/llm/gym_LunarLanderContinuous-v3/answer_4.md priors/llm/gym_LunarLanderContinuous-v3/answer_5.md

import jax.numpy as jnp


def policy(obs):
    """Hard-coded controller for LunarLanderContinuous-v3.

    obs: array-like of shape (8,)
        [x, y, vx, vy, angle, angular_vel, leg_left, leg_right]
    returns: np.ndarray of shape (2,) with values in [-1, 1]
        [main_engine, lateral_engine]
    """
    s = jnp.asarray(obs, dtype=jnp.float64)
    x, y, vx, vy, ang, angv = (s[0], s[1], s[2], s[3], s[4], s[5])
    left_contact = s[6] > 0.5
    right_contact = s[7] > 0.5
    cond2 = jnp.logical_and(jnp.logical_and(jnp.logical_and(left_contact, right_contact), abs(vx) < 0.3), abs(vy) < 0.3)
    angle_targ_else1 = 0.5 * x + 1.0 * vx
    angle_targ_else2 = jnp.clip(angle_targ_else1, -0.4, 0.4)
    hover_targ_else1 = 0.55 * abs(x)
    angle_todo_else1 = (angle_targ_else2 - ang) * 0.5 - angv * 1.0
    hover_todo_else1 = (hover_targ_else1 - y) * 0.5 - vy * 0.5
    cond1_else1 = jnp.logical_or(left_contact, right_contact)
    angle_todo_then1_else1 = 0.0
    hover_todo_then1_else1 = -vy * 0.5
    angle_todo_else2 = jnp.where(cond1_else1, angle_todo_then1_else1, angle_todo_else1)
    hover_todo_else2 = jnp.where(cond1_else1, hover_todo_then1_else1, hover_todo_else1)
    main_else1 = hover_todo_else2 * 20.0 - 1.0
    lateral_else1 = -angle_todo_else2 * 20.0
    act_else1 = jnp.array([main_else1, lateral_else1], dtype=jnp.float64)
    act_else2 = jnp.clip(act_else1, -1.0, 1.0)
    return jnp.where(cond2, jnp.array([-1.0, 0.0], dtype=jnp.float32), act_else2.astype(jnp.float32))
