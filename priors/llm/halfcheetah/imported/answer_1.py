# camel-jax prior
# task: halfcheetah
# model: claude (Anthropic; helper session, version not exposed)
# prompt: priors/prompts/paper_numpy_v2.md sha256:56c6fbe180f1d91027b4e26168204628aa1731c14386b0e6c04378e30ae7b970
# date: 2026-11-27T04:05:10Z
# validation: valid: (17,) -> (6,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations
# prompt_text: sha256:bb4d77b2b69df921f8e7ca474ca4f36ea7a412a5573788014e104e9bad3b0c68 (the text of `camel-jax priors prompt --env halfcheetah --style paper`)
# answer: answer_1.md sha256:fcde55e207813f5ebb5abcaad4efb7274991b24697d0a2435deab7c18c81a188
# method: NumPy answer translated to jnp mechanically (camel_jax/priors/convert.py), equal to the answer within 1.3e-15 in float64 on 10000 rollout observations and 3000 of the answer's own episodes; command: camel-jax priors import priors/llm/halfcheetah/answer_1.md priors/llm/halfcheetah/answer_2.md priors/llm/halfcheetah/answer_3.md priors/llm/halfcheetah/answer_4.md priors/llm/halfcheetah/answer_5.md --env halfcheetah --out priors/llm/halfcheetah/imported --model 'claude (Anthropic; helper session, version not exposed)'

import jax.numpy as jnp
W_REF = 15.0
BT_CENTER = 0.2
LEAD = 0.5
GAIN = 3.0
AMP = jnp.array([1.0, 0.8, 0.6, 0.9, 0.7, 0.5])
SIGN = jnp.array([+1.0, -1.0, +1.0, -1.0, -1.0, -1.0])
BIAS = jnp.array([0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
PITCH_REF = 0.05
K_PITCH = 1.0
K_PRATE = 0.15
BAL_MAX = 0.6


def policy(obs):
    """Stateless bounding gait for HalfCheetah-v4.  Pure function of obs."""
    obs = jnp.asarray(obs, dtype=jnp.float64)
    pitch = obs[1]
    pitch_rate = obs[10]
    bt_angle = obs[2]
    bt_vel = obs[11]
    phi = jnp.arctan2(-bt_vel / W_REF, bt_angle - BT_CENTER)
    s = jnp.tanh(GAIN * -jnp.sin(phi + LEAD))
    act = BIAS + AMP * SIGN * s
    bal = K_PITCH * (pitch - PITCH_REF) + K_PRATE * pitch_rate
    bal = jnp.clip(bal, -BAL_MAX, BAL_MAX)
    act = act.at[0].add(bal)
    act = act.at[3].add(bal)
    cond2 = pitch < -0.7
    act_then3 = act.at[0].set(-1.0)
    act_then4 = act_then3.at[3].set(-1.0)
    cond1_else1 = pitch > 0.7
    act_then1_else1 = act.at[0].set(1.0)
    act_then2_else1 = act_then1_else1.at[3].set(1.0)
    act_else1 = jnp.where(cond1_else1, act_then2_else1, act)
    act = jnp.where(cond2, act_then4, act_else1)
    return jnp.clip(act, -1.0, 1.0)
