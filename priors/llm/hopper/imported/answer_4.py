# camel-jax prior
# task: hopper
# model: claude (Anthropic; helper session, version not exposed)
# prompt: priors/prompts/paper_numpy_v1.md sha256:490f13e87a168499fe4b940a9fc5c519a0af4a61213be90f98797ffdde8bf539
# date: 2026-11-25T15:24:40Z
# validation: valid: (11,) -> (3,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations
# prompt_text: sha256:6f81080fcd46690efbde9568358bc3db48ffabfcd4c217074eeebc9ca7149ea1 (the text of `camel-jax priors prompt --env hopper --style paper-verbatim`)
# answer: answer_4.md sha256:41a31d13705feb8587f67fd0bfdbf45f9cbb7746ed7ff6339bfe2c882a99fade
# method: NumPy answer translated to jnp mechanically (camel_jax/priors/convert.py), equal to the answer within 8.8e-15 in float64 on 10000 rollout observations and 3000 of the answer's own episodes; command: camel-jax priors import priors/llm/hopper/answer_1.md priors/llm/hopper/answer_2.md priors/llm/hopper/answer_3.md priors/llm/hopper/answer_4.md priors/llm/hopper/answer_5.md --env hopper --out priors/llm/hopper/imported --model 'claude (Anthropic; helper session, version not exposed)' --style paper-verbatim

import jax.numpy as jnp
L_HIP, L_THIGH, L_SHANK = (0.2, 0.45, 0.5)
HEEL, TOE, FOOT_R = (-0.13, 0.26, 0.06)
PITCH_REF = 0.0
LEAN_REF = 0.06
KP_PITCH, KD_PITCH = (1.5, 0.2)
KP_KNEE, KD_KNEE = (2.0, 0.1)
KNEE_PRELOAD = 0.08
KP_LEAN, KD_LEAN = (1.2, 0.3)
KP_FOOT, KD_FOOT = (0.5, 0.05)


def policy(obs):
    o = jnp.asarray(obs, dtype=jnp.float64)
    z, pitch, q_hip, q_knee, q_ank = o[0:5]
    w, dq_hip, dq_knee, dq_ank = o[7:11]
    th_thigh = pitch - q_hip
    th_shank = th_thigh - q_knee
    th_foot = th_shank - q_ank
    w_shank = w - dq_hip - dq_knee
    w_foot = w_shank - dq_ank
    ankle_z = z - L_HIP * jnp.cos(pitch) - L_THIGH * jnp.cos(th_thigh) - L_SHANK * jnp.cos(th_shank)
    s = jnp.sin(th_foot)
    foot_h = ankle_z - jnp.maximum(TOE * s, HEEL * s) - FOOT_R
    stance = jnp.asarray(jnp.clip((0.05 - foot_h) / 0.03, 0.0, 1.0), dtype=float)
    a_hip = -KP_PITCH * (pitch - PITCH_REF) - KD_PITCH * w
    a_knee = KNEE_PRELOAD - KP_KNEE * q_knee - KD_KNEE * dq_knee
    a_stance = -KP_LEAN * (th_shank - LEAN_REF) - KD_LEAN * w_shank
    a_flight = KP_FOOT * th_foot + KD_FOOT * w_foot
    a_ank = stance * a_stance + (1.0 - stance) * a_flight
    act = jnp.array([a_hip, a_knee, a_ank])
    return jnp.clip(act, -1.0, 1.0)
