# camel-jax prior
# task: hopper
# model: claude (Anthropic; helper session, version not exposed)
# prompt: priors/prompts/paper_numpy_v1.md sha256:490f13e87a168499fe4b940a9fc5c519a0af4a61213be90f98797ffdde8bf539
# date: 2026-11-25T15:25:30Z
# validation: valid: (11,) -> (3,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations
# prompt_text: sha256:6f81080fcd46690efbde9568358bc3db48ffabfcd4c217074eeebc9ca7149ea1 (the text of `camel-jax priors prompt --env hopper --style paper-verbatim`)
# answer: answer_5.md sha256:f1f353b1e8c2d387473caed1168e4a4734ba6772161983fd79bc043b0ed9c949
# method: NumPy answer translated to jnp mechanically (camel_jax/priors/convert.py), equal to the answer within 1.1e-16 in float64 on 10000 rollout observations and 3000 of the answer's own episodes; command: camel-jax priors import priors/llm/hopper/answer_1.md priors/llm/hopper/answer_2.md priors/llm/hopper/answer_3.md priors/llm/hopper/answer_4.md priors/llm/hopper/answer_5.md --env hopper --out priors/llm/hopper/imported --model 'claude (Anthropic; helper session, version not exposed)' --style paper-verbatim

import jax.numpy as jnp
V_TARGET = 0.4
P_DES = -0.02
KP_PITCH, KD_PITCH = (2.0, 0.25)
KP_KNEE, KD_KNEE, KNEE_BIAS = (1.5, 0.1, 0.15)
KP_FOOT, KD_FOOT = (0.6, 0.1)
K_XI = 1.5
K_V = 0.5
XI_CENTER = 0.07
XI_FLICK = 0.2
FLICK = 0.45
OMEGA0 = jnp.sqrt(9.81 / 0.7)


def policy(obs):
    obs = jnp.asarray(obs, dtype=float)
    z, p, qt, ql, qf = obs[0:5]
    vx, vz, w, dqt, dql, dqf = obs[5:11]
    th = p - qt
    sh = th - ql
    ft = sh - qf
    dth = w - dqt
    dsh = dth - dql
    ankle_z = z - 0.2 * jnp.cos(p) - 0.45 * jnp.cos(th) - 0.5 * jnp.cos(sh)
    s = jnp.sin(ft)
    foot_low = ankle_z - 0.06 - jnp.maximum(0.26 * s, -0.13 * s)
    stance = foot_low < 0.02
    x_com = 0.288 * jnp.sin(sh) + 0.162 * jnp.sin(th) + 0.046 * jnp.sin(p) + 0.022
    v_com = 0.288 * jnp.cos(sh) * dsh + 0.162 * jnp.cos(th) * dth + 0.046 * jnp.cos(p) * w
    xi = x_com + v_com / OMEGA0
    act = jnp.zeros(3)
    p_des = P_DES
    cond1 = jnp.logical_not(stance)
    p_des_then1 = jnp.minimum(p_des, th - 0.05)
    p_des = jnp.where(cond1, p_des_then1, p_des)
    p_des = jnp.maximum(p_des, -0.12)
    act = act.at[0].set(KP_PITCH * (p_des - p) - KD_PITCH * w)
    act = act.at[1].set(KNEE_BIAS + KP_KNEE * (0.0 - ql) - KD_KNEE * dql)
    cond3 = stance
    xi_des_then1 = jnp.clip(XI_CENTER + K_V * (V_TARGET - vx), 0.0, 0.3)
    cop_des_then1 = xi + K_XI * (xi - xi_des_then1)
    a2_then2 = jnp.clip(-0.775 * cop_des_then1, -0.25, 0.2)
    cond2_then1 = jnp.logical_and(xi > XI_FLICK, vx > -0.1)
    a2_then1_then1 = -FLICK
    a2_then3 = jnp.where(cond2_then1, a2_then1_then1, a2_then2)
    act_then1 = act.at[2].set(a2_then3)
    act_else1 = act.at[2].set(KP_FOOT * ft - KD_FOOT * dqf)
    act = jnp.where(cond3, act_then1, act_else1)
    return jnp.clip(act, -1.0, 1.0)
