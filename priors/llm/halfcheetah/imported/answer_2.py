# camel-jax prior
# task: halfcheetah
# model: claude (Anthropic; helper session, version not exposed)
# prompt: priors/prompts/paper_numpy_v2.md sha256:56c6fbe180f1d91027b4e26168204628aa1731c14386b0e6c04378e30ae7b970
# date: 2026-11-27T04:05:46Z
# validation: valid: (17,) -> (6,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations
# prompt_text: sha256:bb4d77b2b69df921f8e7ca474ca4f36ea7a412a5573788014e104e9bad3b0c68 (the text of `camel-jax priors prompt --env halfcheetah --style paper`)
# answer: answer_2.md sha256:ec9bf263cc02b3d25f9cd3059ea6f1f1853b9fcc01e84de6c0518403d6362d9e
# method: NumPy answer translated to jnp mechanically (camel_jax/priors/convert.py), equal to the answer within 1.1e-16 in float64 on 10000 rollout observations and 3000 of the answer's own episodes; command: camel-jax priors import priors/llm/halfcheetah/answer_1.md priors/llm/halfcheetah/answer_2.md priors/llm/halfcheetah/answer_3.md priors/llm/halfcheetah/answer_4.md priors/llm/halfcheetah/answer_5.md --env halfcheetah --out priors/llm/halfcheetah/imported --model 'claude (Anthropic; helper session, version not exposed)'

import jax.numpy as jnp


def policy(obs):
    """Hand-coded bounding gait for HalfCheetah-v4.

    Pure function of obs: the gait phase is inferred from the back-thigh
    angle (obs[2]) and its velocity (obs[11]) with a hysteresis relay.
    """
    obs = jnp.asarray(obs, dtype=jnp.float64)
    pitch = obs[1]
    pitch_rate = obs[10]
    bth = obs[2]
    bth_vel = obs[11]
    HI, LO, MID = (0.35, -0.25, 0.05)
    V_EPS = 1.0
    A_THIGH = 0.85
    A_BSHIN = 0.6
    A_BFOOT = 0.5
    A_FSHIN = 0.6
    A_FFOOT = 0.4
    cond2 = bth_vel > V_EPS
    s_then2 = jnp.where(bth < HI, 1.0, -1.0)
    cond1_else1 = bth_vel < -V_EPS
    s_then1_else1 = jnp.where(bth > LO, -1.0, 1.0)
    s_else1_else1 = jnp.where(bth < MID, 1.0, -1.0)
    s_else2 = jnp.where(cond1_else1, s_then1_else1, s_else1_else1)
    s = jnp.where(cond2, s_then2, s_else2)
    cond3 = abs(pitch) < 1.6
    b_then1 = 0.5 * pitch + 0.05 * pitch_rate
    b_then2 = b_then1 + 1.5 * jnp.sign(pitch) * jnp.maximum(abs(pitch) - 0.6, 0.0)
    b_then3 = jnp.asarray(jnp.clip(b_then2, -0.7, 0.7), dtype=float)
    b_else1 = 0.0
    b = jnp.where(cond3, b_then3, b_else1)
    act = jnp.array([A_THIGH * s + b, -A_BSHIN * s, A_BFOOT * s, -A_THIGH * s + b, -A_FSHIN * s, -A_FFOOT * s])
    return jnp.clip(act, -1.0, 1.0)
