# camel-jax prior
# task: hopper
# model: claude (Anthropic; helper session, version not exposed)
# prompt: priors/prompts/paper_numpy_v1.md sha256:490f13e87a168499fe4b940a9fc5c519a0af4a61213be90f98797ffdde8bf539
# date: 2026-11-25T15:22:13Z
# validation: valid: (11,) -> (3,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations
# prompt_text: sha256:6f81080fcd46690efbde9568358bc3db48ffabfcd4c217074eeebc9ca7149ea1 (the text of `camel-jax priors prompt --env hopper --style paper-verbatim`)
# answer: answer_1.md sha256:4586df14d7302eb8c3978ff3c470bb4547cb2d4c7d1d53c165a4eb00f6bae07f
# method: NumPy answer translated to jnp mechanically (camel_jax/priors/convert.py), equal to the answer within 2.2e-16 in float64 on 10000 rollout observations and 3000 of the answer's own episodes; command: camel-jax priors import priors/llm/hopper/answer_1.md priors/llm/hopper/answer_2.md priors/llm/hopper/answer_3.md priors/llm/hopper/answer_4.md priors/llm/hopper/answer_5.md --env hopper --out priors/llm/hopper/imported --model 'claude (Anthropic; helper session, version not exposed)' --style paper-verbatim

import jax.numpy as jnp
M_SHIN, M_THIGH, M_TORSO = (2.71, 3.93, 3.53)
M_UP = M_SHIN + M_THIGH + M_TORSO
L_SHIN, L_THIGH, L_HIP = (0.5, 0.45, 0.2)
FOOT_TOE, FOOT_HEEL, FOOT_R = (0.26, 0.13, 0.06)
G, GEAR = (9.81, 200.0)
PHI_DES = 0.0
Q2_STANCE = -0.05
X_REF0 = 0.065
V_DES = 0.4
K_V = 0.08
HOP_PUSH = 0.2
HOP_KNEE = 0.3


def policy(obs):
    o = jnp.asarray(obs, dtype=jnp.float64)
    z, phi, q1, q2, q3 = o[0:5]
    vx, vz, dphi, dq1, dq2, dq3 = o[5:11]
    th, dth = (phi - q1, dphi - dq1)
    sh, dsh = (th - q2, dth - dq2)
    ft, dft = (sh - q3, dsh - dq3)
    sp, cp = (jnp.sin(phi), jnp.cos(phi))
    st, ct = (jnp.sin(th), jnp.cos(th))
    ss, cs = (jnp.sin(sh), jnp.cos(sh))
    foot_low = jnp.maximum(FOOT_TOE * jnp.sin(ft), -FOOT_HEEL * jnp.sin(ft))
    foot_z = z - L_HIP * cp - L_THIGH * ct - L_SHIN * cs - FOOT_R - foot_low
    stance = foot_z < 0.03
    x_knee = L_SHIN * ss
    x_hip = x_knee + L_THIGH * st
    x_com = (M_SHIN * 0.5 * L_SHIN * ss + M_THIGH * (x_knee + 0.5 * L_THIGH * st) + M_TORSO * (x_hip + L_HIP * sp)) / M_UP
    v_knee = L_SHIN * cs * dsh
    v_hip = v_knee + L_THIGH * ct * dth
    v_com = (M_SHIN * 0.5 * L_SHIN * cs * dsh + M_THIGH * (v_knee + 0.5 * L_THIGH * ct * dth) + M_TORSO * (v_hip + L_HIP * cp * dphi)) / M_UP
    a0 = -3.0 * (phi - PHI_DES) - 0.3 * dphi
    cond2 = stance
    x_ref_then1 = jnp.clip(X_REF0 + K_V * (V_DES - vx), 0.02, 0.14)
    a1_then2 = 2.0 * (Q2_STANCE - q2) - 0.15 * dq2
    a2_then2 = -(M_UP * G / GEAR) * x_ref_then1 - 2.0 * (x_com - x_ref_then1) - 0.4 * v_com
    cond1_then1 = jnp.logical_and(jnp.logical_and(vz > 0.05, abs(phi) < 0.1), jnp.logical_and(-0.02 < x_com, x_com < 0.2))
    a2_then1_then1 = a2_then2 - HOP_PUSH
    a1_then1_then1 = a1_then2 + HOP_KNEE
    a2_then3 = jnp.where(cond1_then1, a2_then1_then1, a2_then2)
    a1_then3 = jnp.where(cond1_then1, a1_then1_then1, a1_then2)
    a2_then4 = jnp.clip(a2_then3, -0.6, 0.4)
    q2_ref_else1 = jnp.clip(-0.15 + 0.3 * (vx - V_DES), -0.5, 0.0)
    a1_else1 = 2.0 * (q2_ref_else1 - q2) - 0.15 * dq2
    a2_else1 = 1.0 * (ft - 0.0) + 0.1 * dft
    a1 = jnp.where(cond2, a1_then3, a1_else1)
    a2 = jnp.where(cond2, a2_then4, a2_else1)
    act = jnp.array([a0, a1, a2])
    return jnp.clip(act, -1.0, 1.0)
