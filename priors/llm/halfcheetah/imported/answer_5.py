# camel-jax prior
# task: halfcheetah
# model: claude (Anthropic; helper session, version not exposed)
# prompt: priors/prompts/paper_numpy_v2.md sha256:56c6fbe180f1d91027b4e26168204628aa1731c14386b0e6c04378e30ae7b970
# date: 2026-11-27T04:07:03Z
# validation: valid: (17,) -> (6,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations
# prompt_text: sha256:bb4d77b2b69df921f8e7ca474ca4f36ea7a412a5573788014e104e9bad3b0c68 (the text of `camel-jax priors prompt --env halfcheetah --style paper`)
# answer: answer_5.md sha256:7812cb7a5c033b22f437060ce65bbf879c5c2b25fabc965d9c354bc77a618ebe
# method: NumPy answer translated to jnp mechanically (camel_jax/priors/convert.py), equal to the answer within 9.0e-16 in float64 on 10000 rollout observations and 3000 of the answer's own episodes; command: camel-jax priors import priors/llm/halfcheetah/answer_1.md priors/llm/halfcheetah/answer_2.md priors/llm/halfcheetah/answer_3.md priors/llm/halfcheetah/answer_4.md priors/llm/halfcheetah/answer_5.md --env halfcheetah --out priors/llm/halfcheetah/imported --model 'claude (Anthropic; helper session, version not exposed)'

import jax.numpy as jnp


def policy(obs):
    obs = jnp.asarray(obs, dtype=jnp.float64)
    pitch = obs[1]
    q_bthigh = obs[2]
    pitch_rate = obs[10]
    v_bthigh = obs[11]
    C_B = 0.05
    A_B = 0.4
    W0 = 20.0
    LEAD = 1.0
    DPHI = jnp.pi
    AMP_BTHIGH, AMP_BSHIN, AMP_BFOOT = (1.0, 0.7, 0.5)
    AMP_FTHIGH, AMP_FSHIN, AMP_FFOOT = (1.0, 0.6, 0.4)
    BIAS_BSHIN, BIAS_FSHIN = (0.0, 0.0)
    PITCH_TARGET = 0.0
    KP_PITCH, KD_PITCH = (0.6, 0.06)
    MAX_BAL = 0.5
    x = (q_bthigh - C_B) / A_B
    y = -v_bthigh / (A_B * W0)
    cond1 = x * x + y * y < 1e-08
    phi_then1 = 0.0
    phi_else1 = jnp.arctan2(y, x)
    phi = jnp.where(cond1, phi_then1, phi_else1)
    psi = phi + LEAD
    psi_f = psi + DPHI
    act = jnp.zeros(6)
    act = act.at[0].set(AMP_BTHIGH * jnp.cos(psi))
    act = act.at[1].set(AMP_BSHIN * jnp.sin(psi) + BIAS_BSHIN)
    act = act.at[2].set(-AMP_BFOOT * jnp.sin(psi))
    act = act.at[3].set(AMP_FTHIGH * jnp.cos(psi_f))
    act = act.at[4].set(-AMP_FSHIN * jnp.sin(psi_f) + BIAS_FSHIN)
    act = act.at[5].set(-AMP_FFOOT * jnp.sin(psi_f))
    bal = KP_PITCH * (pitch - PITCH_TARGET) + KD_PITCH * pitch_rate
    bal = jnp.clip(bal, -MAX_BAL, MAX_BAL)
    cond2 = abs(pitch) < 1.2
    act_then1 = act.at[0].add(bal)
    act_then2 = act_then1.at[3].add(bal)
    act = jnp.where(cond2, act_then2, act)
    return jnp.clip(act, -1.0, 1.0)
