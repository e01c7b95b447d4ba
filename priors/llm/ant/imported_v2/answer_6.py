# camel-jax prior
# task: ant
# model: claude (Anthropic; helper session, version not exposed)
# prompt: priors/prompts/paper_numpy_v2.md sha256:56c6fbe180f1d91027b4e26168204628aa1731c14386b0e6c04378e30ae7b970
# date: 2026-11-25T15:29:27Z
# validation: valid: (27,) -> (8,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations
# prompt_text: sha256:029a028937ece00229e448dedfa55ff9b08146b02431ac992d04ca640741977f (the text of `camel-jax priors prompt --env ant --style paper`)
# answer: answer_6.md sha256:b676fd52e0de15f754b7641ed61976d7e6d3bbde65d5b032ee19dd9ee9c96d53
# method: NumPy answer translated to jnp mechanically (camel_jax/priors/convert.py), equal to the answer within 4.8e-15 in float64 on 10000 rollout observations and 3000 of the answer's own episodes; command: camel-jax priors import priors/llm/ant/answer_6.md priors/llm/ant/answer_7.md priors/llm/ant/answer_8.md priors/llm/ant/answer_9.md priors/llm/ant/answer_10.md --env ant --out priors/llm/ant/imported_v2 --model 'claude (Anthropic; helper session, version not exposed)'

import jax.numpy as jnp


def policy(obs):
    obs = jnp.asarray(obs, dtype=jnp.float64)
    qw, qx, qy, qz = (obs[1], obs[2], obs[3], obs[4])
    hip = obs[jnp.array([5, 7, 9, 11])]
    ank = obs[jnp.array([6, 8, 10, 12])]
    hip_v = obs[jnp.array([19, 21, 23, 25])]
    ank_v = obs[jnp.array([20, 22, 24, 26])]
    wz = obs[18]
    b = jnp.array([1.0, 1.0, -1.0, -1.0])
    s = jnp.array([1.0, -1.0, -1.0, 1.0])
    off = jnp.array([0.0, jnp.pi, 0.0, jnp.pi])
    cx = jnp.array([1.0, -1.0, -1.0, 1.0]) / jnp.sqrt(2.0)
    cy = jnp.array([1.0, 1.0, -1.0, -1.0]) / jnp.sqrt(2.0)
    AH = 0.3
    AD = 0.22
    DC = 0.87
    LEAD = 1.7
    KP = 0.8
    KD = 0.05
    K_TILT = 0.8
    K_YAW, K_WZ, U_MAX = (0.6, 0.05, 0.15)
    up = 1.0 - 2.0 * (qx * qx + qy * qy)
    cond1 = up < 0.0
    yaw_else1 = jnp.arctan2(2.0 * (qw * qz + qx * qy), 1.0 - 2.0 * (qy * qy + qz * qz))
    r20_else1 = 2.0 * (qx * qz - qw * qy)
    r21_else1 = 2.0 * (qy * qz + qw * qx)
    tilt_else1 = r20_else1 * cx + r21_else1 * cy
    p_else1 = b * hip
    d_else1 = s * ank
    xn_else1 = p_else1 / AH
    yn_else1 = (d_else1 - DC) / AD
    phi_else1 = jnp.arctan2(xn_else1, yn_else1)
    wgt_else1 = jnp.minimum(jnp.sqrt(xn_else1 * xn_else1 + yn_else1 * yn_else1), 2.0)
    z_else1 = jnp.sum(wgt_else1 * jnp.exp(1j * (phi_else1 - off))) + 0.2
    Phi_else1 = jnp.angle(z_else1)
    psi_else1 = Phi_else1 + off + LEAD
    u_else1 = jnp.clip(K_YAW * yaw_else1 + K_WZ * wz, -U_MAX, U_MAX)
    sp_else1, cp_else1 = (jnp.sin(psi_else1), jnp.cos(psi_else1))
    hip_t_else1 = b * AH * sp_else1 + u_else1 * sp_else1
    d_t_else1 = DC + AD * cp_else1 - K_TILT * tilt_else1
    hip_t_else2 = jnp.clip(hip_t_else1, -0.5, 0.5)
    d_t_else2 = jnp.clip(d_t_else1, 0.55, 1.2)
    a_hip_else1 = KP * (hip_t_else2 - hip) - KD * hip_v
    a_d_else1 = KP * (d_t_else2 - d_else1) - KD * (s * ank_v)
    a_ank_else1 = s * a_d_else1
    act_else1 = jnp.array([a_hip_else1[3], a_ank_else1[3], a_hip_else1[0], a_ank_else1[0], a_hip_else1[1], a_ank_else1[1], a_hip_else1[2], a_ank_else1[2]])
    return jnp.where(cond1, jnp.zeros(8), jnp.clip(act_else1, -1.0, 1.0))
