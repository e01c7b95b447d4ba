# camel-jax prior
# task: ant
# model: claude (Anthropic; helper session, version not exposed)
# prompt: priors/prompts/paper_numpy_v2.md sha256:56c6fbe180f1d91027b4e26168204628aa1731c14386b0e6c04378e30ae7b970
# date: 2026-11-25T15:32:06Z
# validation: valid: (27,) -> (8,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations
# prompt_text: sha256:029a028937ece00229e448dedfa55ff9b08146b02431ac992d04ca640741977f (the text of `camel-jax priors prompt --env ant --style paper`)
# answer: answer_9.md sha256:7a4e7b6784ce7771d8468370062edd920864881dc85d4f618942334ea88711a6
# method: NumPy answer translated to jnp mechanically (camel_jax/priors/convert.py), equal to the answer within 4.4e-16 in float64 on 10000 rollout observations and 3000 of the answer's own episodes; command: camel-jax priors import priors/llm/ant/answer_6.md priors/llm/ant/answer_7.md priors/llm/ant/answer_8.md priors/llm/ant/answer_9.md priors/llm/ant/answer_10.md --env ant --out priors/llm/ant/imported_v2 --model 'claude (Anthropic; helper session, version not exposed)'

import jax.numpy as jnp


def policy(obs):
    obs = jnp.asarray(obs, dtype=jnp.float64)
    z = obs[0]
    qw, qx, qy, qz = (obs[1], obs[2], obs[3], obs[4])
    hip = obs[jnp.array([5, 7, 9, 11])]
    ank = obs[jnp.array([6, 8, 10, 12])]
    vz = obs[15]
    hipv = obs[jnp.array([19, 21, 23, 25])]
    ankv = obs[jnp.array([20, 22, 24, 26])]
    sweep = jnp.array([1.0, 1.0, -1.0, -1.0])
    down = jnp.array([1.0, -1.0, -1.0, 1.0])
    side = jnp.array([1.0, 1.0, -1.0, -1.0])
    front = jnp.array([1.0, -1.0, -1.0, 1.0])
    pair = jnp.array([1.0, -1.0, 1.0, -1.0])
    P = 0.4
    THR = 0.25
    KP_H, KD_H = (0.8, 0.12)
    M_ST = 1.0
    LIFT = 0.4
    KP_A, KD_A = (1.0, 0.12)
    K_YAW, K_ROLL, K_PITCH = (0.6, 0.5, 0.5)
    yaw = jnp.arctan2(2.0 * (qw * qz + qx * qy), 1.0 - 2.0 * (qy * qy + qz * qz))
    roll = jnp.arctan2(2.0 * (qw * qx + qy * qz), 1.0 - 2.0 * (qx * qx + qy * qy))
    pitch = jnp.arcsin(jnp.clip(2.0 * (qw * qy - qz * qx), -1.0, 1.0))
    b = sweep * hip
    bv = sweep * hipv
    p = jnp.mean(pair * b)
    pv = jnp.mean(pair * bv)
    cond2 = p > THR
    d_then2 = -1.0
    cond1_else1 = p < -THR
    d_then1_else1 = 1.0
    d_else1_else1 = jnp.where(pv >= 0.0, 1.0, -1.0)
    d_else2 = jnp.where(cond1_else1, d_then1_else1, d_else1_else1)
    d = jnp.where(cond2, d_then2, d_else2)
    leg_dir = d * pair
    stance = leg_dir > 0
    amp = P * (1.0 + K_YAW * jnp.clip(yaw, -0.5, 0.5) * side)
    amp = jnp.clip(amp, 0.15, 0.5)
    tgt = leg_dir * amp
    hip_cmd = KP_H * (tgt - b) - KD_H * bv
    hip_act = sweep * hip_cmd
    m = down * ank
    mv = down * ankv
    m_eff = jnp.maximum(m, 0.5)
    remaining = jnp.clip(jnp.abs(tgt - b) / (2.0 * P) * 1.5, 0.0, 1.0)
    m_tgt = jnp.where(stance, M_ST, M_ST - LIFT * remaining)
    bal = -K_ROLL * jnp.clip(roll, -0.5, 0.5) * side + K_PITCH * jnp.clip(pitch, -0.5, 0.5) * front
    m_tgt = m_tgt + jnp.clip(bal, -0.2, 0.2)
    cond3 = z > 0.8
    m_tgt_then1 = m_tgt - 1.5 * (z - 0.8)
    m_tgt = jnp.where(cond3, m_tgt_then1, m_tgt)
    cond4 = vz > 0.5
    m_tgt_then2 = m_tgt - 0.3 * (vz - 0.5)
    m_tgt = jnp.where(cond4, m_tgt_then2, m_tgt)
    m_tgt = jnp.clip(m_tgt, 0.5, 1.2)
    ank_cmd = KP_A * (m_tgt - m_eff) - KD_A * mv
    ank_act = down * ank_cmd
    hip_act = jnp.clip(hip_act, -0.7, 0.7)
    ank_act = jnp.clip(ank_act, -0.7, 0.7)
    act = jnp.array([hip_act[3], ank_act[3], hip_act[0], ank_act[0], hip_act[1], ank_act[1], hip_act[2], ank_act[2]])
    return jnp.clip(act, -1.0, 1.0)
