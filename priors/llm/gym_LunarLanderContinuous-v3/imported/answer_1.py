# camel-jax prior
# task: gym:LunarLanderContinuous-v3
# model: claude (Anthropic; helper session, version not exposed)
# prompt: priors/prompts/gym_numpy_v1.md sha256:e375dcd713a04d65fed5c4b3ea1b552147d1f080110388ba83e521bea9f27333
# date: 2026-11-27T14:51:25Z
# validation: valid: (8,) -> (2,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations
# prompt_text: sha256:afe9d692e29e1e9afe0cc78ce3dfa93c46820bfbdd591f0c41763989e3252935 (the text of `camel-jax priors prompt --env gym:LunarLanderContinuous-v3 --style paper`)
# answer: answer_1.md sha256:9b98a1a5d7248efc1d63b8ee01d7100bbb9afbcc2c75844b90328928ed61fed0
# method: NumPy answer translated to jnp mechanically (camel_jax/priors/convert.py), equal to the answer within 6.0e-08 in float64 on 10000 rollout observations and 715 of the answer's own episodes; command: camel-jax priors import --env gym:LunarLanderContinuous-v3 --model 'claude (Anthropic; helper session, version not exposed)' --timeout 600 --out priors/llm/gym_LunarLanderContinuous-v3/imported priors/llm/gym_LunarLanderContinuous-v3/answer_1.md priors/llm/gym_LunarLanderContinuous-v3/answer_2.md priors/llm/gym_LunarLanderContinuous-v3/answer_3.md priors/llm/gym_LunarLanderContinuous-v3/answer_4.md priors/llm/gym_LunarLanderContinuous-v3/answer_5.md

import jax.numpy as jnp


def policy(obs):
    """
    Stateless heuristic controller for LunarLanderContinuous-v3.
    obs: array-like of shape (8,)
    returns: np.ndarray of shape (2,), values in [-1, 1]
        act[0] -> main engine   (<0 off, 0..1 = 50%..100% throttle)
        act[1] -> side engines  (|a|<0.5 off, >0.5 right booster, <-0.5 left booster)
    """
    s = jnp.asarray(obs, dtype=jnp.float64)
    x, y, vx, vy, ang, angv = (s[0], s[1], s[2], s[3], s[4], s[5])
    left_contact = s[6] > 0.5
    right_contact = s[7] > 0.5
    angle_targ = 0.5 * x + 1.0 * vx
    angle_targ = jnp.clip(angle_targ, -0.4, 0.4)
    cond1 = y < 0.25
    fade_then1 = jnp.clip(y / 0.25, 0.0, 1.0)
    angle_targ_then1 = angle_targ * fade_then1
    angle_targ = jnp.where(cond1, angle_targ_then1, angle_targ)
    hover_targ = 0.55 * abs(x)
    angle_todo = (angle_targ - ang) * 0.5 - angv * 1.0
    hover_todo = (hover_targ - y) * 0.5 - vy * 0.5
    cond2 = jnp.logical_and(y < 0.3, vy < -0.3)
    hover_todo_then1 = hover_todo + 0.5 * (-0.3 - vy)
    hover_todo = jnp.where(cond2, hover_todo_then1, hover_todo)
    cond3 = jnp.logical_or(left_contact, right_contact)
    angle_todo_then1 = 0.0
    hover_todo_then2 = -vy * 0.5
    angle_todo = jnp.where(cond3, angle_todo_then1, angle_todo)
    hover_todo = jnp.where(cond3, hover_todo_then2, hover_todo)
    cond4 = jnp.logical_and(left_contact, right_contact)
    main_else1 = hover_todo * 20.0 - 1.0
    lateral_else1 = -angle_todo * 20.0
    act_else1 = jnp.array([main_else1, lateral_else1], dtype=jnp.float64)
    act_else2 = jnp.clip(act_else1, -1.0, 1.0)
    return jnp.where(cond4, jnp.array([-1.0, 0.0], dtype=jnp.float32), act_else2.astype(jnp.float32))
