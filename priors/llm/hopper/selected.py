# camel-jax prior
# task: hopper
# model: claude (Anthropic; helper session, version not exposed)
# prompt: priors/prompts/paper_numpy_v1.md sha256:490f13e87a168499fe4b940a9fc5c519a0af4a61213be90f98797ffdde8bf539
# date: 2026-11-25T15:23:41Z
# validation: valid: (11,) -> (3,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations
# prompt_text: sha256:6f81080fcd46690efbde9568358bc3db48ffabfcd4c217074eeebc9ca7149ea1 (the text of `camel-jax priors prompt --env hopper --style paper-verbatim`)
# answer: answer_3.md sha256:020e468470b061b0e57c0f4dbff99692e260fe2259c03fee6edb58879a7c97de
# method: NumPy answer translated to jnp mechanically (camel_jax/priors/convert.py), equal to the answer within 3.0e-08 in float64 on 10000 rollout observations and 398 of the answer's own episodes; command: camel-jax priors import priors/llm/hopper/answer_1.md priors/llm/hopper/answer_2.md priors/llm/hopper/answer_3.md priors/llm/hopper/answer_4.md priors/llm/hopper/answer_5.md --env hopper --out priors/llm/hopper/imported --model 'claude (Anthropic; helper session, version not exposed)' --style paper-verbatim
# return: 238.9 +- 3.3 over 10 episodes on Hopper-v4 (gymnasium, seeds 0-9); forward 0.84 m; falls 10/10 (mean length 134 steps); from priors/llm/hopper/imported/hopper_selection.md
# kind: llm
# selected: by camel-jax priors select (score: speed, its default) among 4 valid answers (answers 1, 3, 4, 5) of the 5 answers to the paper's prompt (answer 2 has no code); report: priors/llm/hopper/imported/hopper_selection.md
# source: priors/llm/hopper/imported/answer_3.py (this file is a copy of it, the code unchanged; tests/priors/test_shipped.py checks both)
# search: no search: the LLM wrote the code in one reply without a simulator; the selection ran 10 episodes of each of the 4 candidates, about 31,340 env steps (10 x the mean lengths in the report)
# search_env_steps: 31340

import jax.numpy as jnp
L_HIP, L_THIGH, L_SHANK = (0.2, 0.45, 0.5)
FOOT_R = 0.06
TOE, HEEL, FOOT_C = (0.26, 0.13, 0.065)
M_TORSO, M_THIGH, M_SHANK, M_FOOT = (3.67, 4.06, 2.78, 5.32)
M_TOTAL = M_TORSO + M_THIGH + M_SHANK + M_FOOT
V_DES = 0.8
CROUCH_KNEE = -0.4
THRUST = 0.7
CONTACT_TOL = 0.02


def policy(obs):
    o = jnp.asarray(obs, dtype=jnp.float64).ravel()
    z, pitch, q_hip, q_knee, q_ank = o[0:5]
    vx, vz, d_pitch, dq_hip, dq_knee, dq_ank = o[5:11]
    a_th = pitch - q_hip
    a_sh = a_th - q_knee
    a_ft = a_sh - q_ank
    da_th = d_pitch - dq_hip
    da_sh = da_th - dq_knee
    da_ft = da_sh - dq_ank
    s_p, c_p = (jnp.sin(pitch), jnp.cos(pitch))
    s_th, c_th = (jnp.sin(a_th), jnp.cos(a_th))
    s_sh, c_sh = (jnp.sin(a_sh), jnp.cos(a_sh))
    s_ft, c_ft = (jnp.sin(a_ft), jnp.cos(a_ft))
    knee_x, knee_z = (-L_THIGH * s_th, -L_THIGH * c_th)
    ank_x, ank_z = (knee_x - L_SHANK * s_sh, knee_z - L_SHANK * c_sh)
    ankle_h = z - L_HIP * c_p + ank_z
    clearance = jnp.minimum(ankle_h - TOE * s_ft, ankle_h + HEEL * s_ft) - FOOT_R
    stance = clearance < CONTACT_TOL
    com_x = (M_TORSO * L_HIP * s_p + M_THIGH * 0.5 * knee_x + M_SHANK * (knee_x - 0.5 * L_SHANK * s_sh) + M_FOOT * (ank_x + FOOT_C * c_ft)) / M_TOTAL
    dknee_x = -L_THIGH * c_th * da_th
    dank_x = dknee_x - L_SHANK * c_sh * da_sh
    dcom_x = (M_TORSO * L_HIP * c_p * d_pitch + M_THIGH * 0.5 * dknee_x + M_SHANK * (dknee_x - 0.5 * L_SHANK * c_sh * da_sh) + M_FOOT * (dank_x - FOOT_C * s_ft * da_ft)) / M_TOTAL
    v_com = vx - L_HIP * c_p * d_pitch + dcom_x
    com_over_ankle = com_x - ank_x
    cond2 = stance
    pitch_des_then1 = jnp.clip(-0.02 - 0.08 * (v_com - V_DES), -0.12, 0.06)
    u_hip_then1 = 3.0 * (pitch_des_then1 - pitch) - 0.3 * d_pitch
    cond1_then1 = vz < 0.0
    u_knee_then1_then1 = 1.0 * (CROUCH_KNEE - q_knee) - 0.1 * dq_knee
    u_knee_else1_then1 = THRUST - 1.0 * q_knee
    u_knee_then2 = jnp.where(cond1_then1, u_knee_then1_then1, u_knee_else1_then1)
    u_ank_then1 = -1.2 * (com_over_ankle - 0.08) - 0.4 * (v_com - 0.4 * V_DES)
    u_ank_then2 = jnp.clip(u_ank_then1, -0.3, 0.15)
    a_land_else1 = jnp.clip(-0.05 * v_com - 0.08 * (v_com - V_DES), -0.2, 0.15)
    q_hip_des_else1 = jnp.clip(pitch - a_land_else1, -0.8, 0.0)
    u_hip_else1 = 2.0 * (q_hip_des_else1 - q_hip) - 0.3 * dq_hip
    u_knee_else2 = 1.5 * (-0.1 - q_knee) - 0.15 * dq_knee
    u_ank_else1 = 2.0 * (jnp.clip(a_sh, -0.75, 0.75) - q_ank) - 0.15 * dq_ank
    u_hip = jnp.where(cond2, u_hip_then1, u_hip_else1)
    u_knee = jnp.where(cond2, u_knee_then2, u_knee_else2)
    u_ank = jnp.where(cond2, u_ank_then2, u_ank_else1)
    excess = pitch - jnp.clip(pitch, -0.1, 0.1)
    u_hip = u_hip + (-4.0 * excess - 0.2 * d_pitch * (abs(pitch) > 0.1))
    cond3 = z < 0.85
    u_knee_then3 = jnp.maximum(u_knee, 0.8)
    u_knee = jnp.where(cond3, u_knee_then3, u_knee)
    act = jnp.array([u_hip, u_knee, u_ank])
    return jnp.clip(act, -1.0, 1.0).astype(jnp.float32)
