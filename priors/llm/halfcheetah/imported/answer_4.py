# camel-jax prior
# task: halfcheetah
# model: claude (Anthropic; helper session, version not exposed)
# prompt: priors/prompts/paper_numpy_v2.md sha256:56c6fbe180f1d91027b4e26168204628aa1731c14386b0e6c04378e30ae7b970
# date: 2026-11-27T04:06:35Z
# validation: valid: (17,) -> (6,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations
# prompt_text: sha256:bb4d77b2b69df921f8e7ca474ca4f36ea7a412a5573788014e104e9bad3b0c68 (the text of `camel-jax priors prompt --env halfcheetah --style paper`)
# answer: answer_4.md sha256:6810909247182e4d8ac484890853f02e3159d16ffeeac06944f726de777004ca
# method: NumPy answer translated to jnp mechanically (camel_jax/priors/convert.py), equal to the answer within 6.7e-16 in float64 on 10000 rollout observations and 3000 of the answer's own episodes; command: camel-jax priors import priors/llm/halfcheetah/answer_1.md priors/llm/halfcheetah/answer_2.md priors/llm/halfcheetah/answer_3.md priors/llm/halfcheetah/answer_4.md priors/llm/halfcheetah/answer_5.md --env halfcheetah --out priors/llm/halfcheetah/imported --model 'claude (Anthropic; helper session, version not exposed)'

import jax.numpy as jnp


def policy(obs):
    """Stateless hand-designed bounding gait for HalfCheetah-v4.

    The gait phase is reconstructed every step from the back-thigh
    angle/velocity pair (a self-excited oscillator), so nothing is stored
    between calls.
    """
    obs = jnp.asarray(obs, dtype=jnp.float64)
    pitch = obs[1]
    pitch_rate = obs[10]
    q_bt = obs[2]
    qd_bt = obs[11]
    W = 12.0
    C = 0.15
    x = q_bt - C
    y = -qd_bt / W
    theta = jnp.arctan2(y, x)
    s = jnp.sin(theta)
    s_lead = jnp.sin(theta + 0.4)
    gait_gain = jnp.clip(1.6 - abs(pitch), 0.3, 1.0)
    bthigh = -1.5 * s
    bshin = 0.8 * s_lead
    bfoot = 0.5 * s_lead
    fthigh = 1.2 * s
    fshin = 0.8 * s_lead
    ffoot = 0.4 * s_lead
    act = gait_gain * jnp.array([bthigh, bshin, bfoot, fthigh, fshin, ffoot])
    pitch_corr = 0.8 * pitch + 0.15 * pitch_rate
    act = act.at[0].add(pitch_corr)
    act = act.at[3].add(pitch_corr)
    return jnp.clip(act, -1.0, 1.0)
