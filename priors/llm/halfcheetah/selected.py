# camel-jax prior
# task: halfcheetah
# model: claude (Anthropic; helper session, version not exposed)
# prompt: priors/prompts/paper_numpy_v2.md sha256:56c6fbe180f1d91027b4e26168204628aa1731c14386b0e6c04378e30ae7b970
# date: 2026-11-27T04:06:09Z
# validation: valid: (17,) -> (6,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations
# prompt_text: sha256:bb4d77b2b69df921f8e7ca474ca4f36ea7a412a5573788014e104e9bad3b0c68 (the text of `camel-jax priors prompt --env halfcheetah --style paper`)
# answer: answer_3.md sha256:5f90b9a52cafefce38a7ac424fbe4ce9beffd6def7ea1c03dbd40e4030904089
# method: NumPy answer translated to jnp mechanically (camel_jax/priors/convert.py), equal to the answer within 0.0e+00 in float64 on 10000 rollout observations and 3000 of the answer's own episodes; command: camel-jax priors import priors/llm/halfcheetah/answer_1.md priors/llm/halfcheetah/answer_2.md priors/llm/halfcheetah/answer_3.md priors/llm/halfcheetah/answer_4.md priors/llm/halfcheetah/answer_5.md --env halfcheetah --out priors/llm/halfcheetah/imported --model 'claude (Anthropic; helper session, version not exposed)'
# return: -72.6 +- 137.7 over 10 episodes on HalfCheetah-v4 (gymnasium, seeds 0-9); forward 14.14 m; falls 0/10 (mean length 1000 steps); from priors/llm/halfcheetah/imported/halfcheetah_selection.md
# kind: llm
# selected: by camel-jax priors select (score: speed, its default) among 5 valid answers (answers 1, 2, 3, 4, 5) of the 5 answers to the paper's prompt (all 5 valid); report: priors/llm/halfcheetah/imported/halfcheetah_selection.md
# source: priors/llm/halfcheetah/imported/answer_3.py (this file is a copy of it, the code unchanged; tests/priors/test_shipped.py checks both)
# search: no search: the LLM wrote the code in one reply without a simulator; the selection ran 10 episodes of each of the 5 candidates, about 50,000 env steps (10 x the mean lengths in the report)
# search_env_steps: 50000

import jax.numpy as jnp


def policy(obs):
    """Hard-coded bounding gait for HalfCheetah-v4.

    Pure function of obs: the gait phase comes from the back-thigh
    angle/velocity, with no stored state.
    """
    obs = jnp.asarray(obs, dtype=jnp.float64).reshape(-1)
    pitch = obs[1]
    pitch_rate = obs[10]
    q = obs[2:8]
    dq = obs[11:17]
    LO, HI = (-0.3, 0.5)
    W_EST = 15.0
    G = 3.0
    LEAD_SHIN = 0.5
    LAG_FOOT = -0.3
    AMP_BFOOT, AMP_FFOOT = (0.8, 0.6)
    KP_PITCH, KD_PITCH = (0.8, 0.08)
    K_SHIN_PITCH = 0.6
    PITCH_SOFT = 0.5
    K_FLIP_THIGH, K_FLIP_SHIN = (2.5, 1.5)
    qb, dqb = (q[0], dq[0])
    cond2 = qb > HI
    s_master_then2 = -1.0
    cond1_else1 = qb < LO
    s_master_then1_else1 = 1.0
    s_master_else1_else1 = jnp.where(dqb >= 0.0, 1.0, -1.0)
    s_master_else2 = jnp.where(cond1_else1, s_master_then1_else1, s_master_else1_else1)
    s_master = jnp.where(cond2, s_master_then2, s_master_else2)
    c = 0.5 * (LO + HI)
    A = 0.5 * (HI - LO)
    phi = jnp.arctan2(-dqb / (W_EST * A), (qb - c) / A)

    def back_stance(lead):
        return jnp.tanh(G * -jnp.sin(phi + lead))

    def front_stance(lead):
        return jnp.tanh(G * jnp.sin(phi + lead))
    act = jnp.array([s_master, -back_stance(LEAD_SHIN), AMP_BFOOT * back_stance(LAG_FOOT), front_stance(0.0), front_stance(LEAD_SHIN), AMP_FFOOT * front_stance(LAG_FOOT)])
    excess = pitch - jnp.clip(pitch, -PITCH_SOFT, PITCH_SOFT)
    thigh_bias = KP_PITCH * pitch + KD_PITCH * pitch_rate + K_FLIP_THIGH * excess
    shin_bias = K_SHIN_PITCH * pitch + K_FLIP_SHIN * excess
    act = act.at[0].add(thigh_bias)
    act = act.at[3].add(thigh_bias)
    act = act.at[1].add(shin_bias)
    act = act.at[4].add(shin_bias)
    return jnp.clip(act, -1.0, 1.0).astype(jnp.float32)
