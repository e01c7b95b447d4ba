# camel-jax prior
# task: walker2d
# model: claude (Anthropic; helper session, version not exposed)
# prompt: priors/prompts/paper_numpy_v1.md sha256:490f13e87a168499fe4b940a9fc5c519a0af4a61213be90f98797ffdde8bf539
# date: 2026-11-25T15:26:40Z
# validation: valid: (17,) -> (6,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations
# prompt_text: sha256:e0b4eca8ceae197a7d01dc444ba5bad0c933cf2a7d5c701474468ef46630787c (the text of `camel-jax priors prompt --env walker2d --style paper-verbatim`)
# answer: answer_2.md sha256:e227ac39b3079e3342a0803e79267be60087d6d9828e8117029e5a971cc81acb
# method: NumPy answer translated to jnp mechanically (camel_jax/priors/convert.py), equal to the answer within 6.0e-08 in float64 on 10000 rollout observations and 518 of the answer's own episodes; command: camel-jax priors import priors/llm/walker2d/answer_1.md priors/llm/walker2d/answer_2.md priors/llm/walker2d/answer_3.md priors/llm/walker2d/answer_4.md priors/llm/walker2d/answer_5.md --env walker2d --out priors/llm/walker2d/imported --model 'claude (Anthropic; helper session, version not exposed)' --style paper-verbatim
# return: 305.7 +- 19.3 over 10 episodes on Walker2d-v4 (gymnasium, seeds 0-9); forward 1.09 m; falls 10/10 (mean length 169 steps); from priors/llm/walker2d/imported/walker2d_selection.md
# kind: llm
# selected: by camel-jax priors select (score: speed, its default) among 2 valid answers (answers 2, 4) of the 5 answers to the paper's prompt (answers 1, 3, 5 keep state between calls); report: priors/llm/walker2d/imported/walker2d_selection.md
# source: priors/llm/walker2d/imported/answer_2.py (this file is a copy of it, the code unchanged; tests/priors/test_shipped.py checks both)
# search: no search: the LLM wrote the code in one reply without a simulator; the selection ran 10 episodes of each of the 2 candidates, about 3,410 env steps (10 x the mean lengths in the report)
# search_env_steps: 3410

import jax.numpy as jnp
HIP_OFFSET, L_THIGH, L_SHANK, L_FOOT, R_FOOT = (0.2, 0.45, 0.5, 0.2, 0.06)
MODE = 'walk'
V_TARGET = 0.6
TORSO_LEAN = -0.35
CONTACT_Z = 0.025


def _leg_state(z, p, qt, qk, qf):
    """World thigh angle, ankle x relative to hip, and the foot's lowest point height."""
    th_thigh = qt - p
    th_shank = qt + qk - p
    phi_foot = p - qt - qk - qf
    hip_z = z - HIP_OFFSET * jnp.cos(p)
    ank_x = L_THIGH * jnp.sin(th_thigh) + L_SHANK * jnp.sin(th_shank)
    ank_z = hip_z - L_THIGH * jnp.cos(th_thigh) - L_SHANK * jnp.cos(th_shank)
    toe_z = ank_z - L_FOOT * jnp.sin(phi_foot)
    return (th_thigh, ank_x, jnp.minimum(ank_z, toe_z) - R_FOOT)


def _walk(obs):
    z, p, v, pdot = (obs[0], obs[1], obs[8], obs[10])
    q, dq = (obs[2:8], obs[11:17])
    thR, axR, lowR = _leg_state(z, p, q[0], q[1], q[2])
    thL, axL, lowL = _leg_state(z, p, q[3], q[4], q[5])
    th = (thR, thL)
    cR, cL = (lowR < CONTACT_Z, lowL < CONTACT_Z)
    cond5 = jnp.logical_and(cR, cL)
    cond1_then1 = axR >= axL - 0.02
    st_then1_then1 = 0
    sw_then1_then1 = 1 - st_then1_then1
    s_then1_then1, w_then1_then1 = (3 * st_then1_then1, 3 * sw_then1_then1)
    p_des_then1_then1 = jnp.maximum(TORSO_LEAN - 0.25 * jnp.maximum(0.0, v - V_TARGET), -0.65)
    x_place_then1_then1 = 0.17 * v + 0.12 * (v - V_TARGET)
    th_des_then1_then1 = jnp.arcsin(jnp.clip(x_place_then1_then1 / 0.95, -0.5, 0.5))
    th_des_then2_then1 = jnp.minimum(jnp.maximum(th_des_then1_then1, -0.45), -p - 0.05)
    th_sw_then1_then1, dth_sw_then1_then1 = (th[sw_then1_then1], dq[w_then1_then1] - pdot)
    tau_sw_hip_then1_then1 = jnp.clip(2.0 * (th_des_then2_then1 - th_sw_then1_then1) - 0.35 * dth_sw_then1_then1, -0.8, 0.8)
    qk_des_then1_then1 = jnp.where(th_sw_then1_then1 < th_des_then2_then1 - 0.03, -1.0, -0.05)
    tau_sw_knee_then1_then1 = 1.5 * (qk_des_then1_then1 - q[w_then1_then1 + 1]) - 0.12 * dq[w_then1_then1 + 1]
    qf_des_then1_then1 = jnp.clip(p - q[w_then1_then1] - q[w_then1_then1 + 1] + 0.05, -0.7, 0.7)
    tau_sw_ank_then1_then1 = 0.3 * (qf_des_then1_then1 - q[w_then1_then1 + 2]) - 0.03 * dq[w_then1_then1 + 2]
    torso_torque_then1_then1 = -1.5 * (p - p_des_then1_then1) - 0.12 * pdot
    tau_st_hip_then1_then1 = torso_torque_then1_then1 - tau_sw_hip_then1_then1
    tau_st_knee_then1_then1 = 3.0 * (-0.02 - q[s_then1_then1 + 1]) - 0.2 * dq[s_then1_then1 + 1]
    tau_st_ank_then1_then1 = jnp.clip(-0.25 * (v - V_TARGET), -0.3, 0.08)
    act_then1_then1 = jnp.zeros(6)
    act_then2_then1 = act_then1_then1.at[w_then1_then1:w_then1_then1 + 3].set((tau_sw_hip_then1_then1, tau_sw_knee_then1_then1, tau_sw_ank_then1_then1))
    act_then3_then1 = act_then2_then1.at[s_then1_then1:s_then1_then1 + 3].set((tau_st_hip_then1_then1, tau_st_knee_then1_then1, tau_st_ank_then1_then1))
    st_else1_then1 = 1
    sw_else1_then1 = 1 - st_else1_then1
    s_else1_then1, w_else1_then1 = (3 * st_else1_then1, 3 * sw_else1_then1)
    p_des_else1_then1 = jnp.maximum(TORSO_LEAN - 0.25 * jnp.maximum(0.0, v - V_TARGET), -0.65)
    x_place_else1_then1 = 0.17 * v + 0.12 * (v - V_TARGET)
    th_des_else1_then1 = jnp.arcsin(jnp.clip(x_place_else1_then1 / 0.95, -0.5, 0.5))
    th_des_else2_then1 = jnp.minimum(jnp.maximum(th_des_else1_then1, -0.45), -p - 0.05)
    th_sw_else1_then1, dth_sw_else1_then1 = (th[sw_else1_then1], dq[w_else1_then1] - pdot)
    tau_sw_hip_else1_then1 = jnp.clip(2.0 * (th_des_else2_then1 - th_sw_else1_then1) - 0.35 * dth_sw_else1_then1, -0.8, 0.8)
    qk_des_else1_then1 = jnp.where(th_sw_else1_then1 < th_des_else2_then1 - 0.03, -1.0, -0.05)
    tau_sw_knee_else1_then1 = 1.5 * (qk_des_else1_then1 - q[w_else1_then1 + 1]) - 0.12 * dq[w_else1_then1 + 1]
    qf_des_else1_then1 = jnp.clip(p - q[w_else1_then1] - q[w_else1_then1 + 1] + 0.05, -0.7, 0.7)
    tau_sw_ank_else1_then1 = 0.3 * (qf_des_else1_then1 - q[w_else1_then1 + 2]) - 0.03 * dq[w_else1_then1 + 2]
    torso_torque_else1_then1 = -1.5 * (p - p_des_else1_then1) - 0.12 * pdot
    tau_st_hip_else1_then1 = torso_torque_else1_then1 - tau_sw_hip_else1_then1
    tau_st_knee_else1_then1 = 3.0 * (-0.02 - q[s_else1_then1 + 1]) - 0.2 * dq[s_else1_then1 + 1]
    tau_st_ank_else1_then1 = jnp.clip(-0.25 * (v - V_TARGET), -0.3, 0.08)
    act_else1_then1 = jnp.zeros(6)
    act_else2_then1 = act_else1_then1.at[w_else1_then1:w_else1_then1 + 3].set((tau_sw_hip_else1_then1, tau_sw_knee_else1_then1, tau_sw_ank_else1_then1))
    act_else3_then1 = act_else2_then1.at[s_else1_then1:s_else1_then1 + 3].set((tau_st_hip_else1_then1, tau_st_knee_else1_then1, tau_st_ank_else1_then1))
    cond4_else1 = cR != cL
    cond2_then1_else1 = cR
    st_then2_then1_else1 = 0
    sw_then2_then1_else1 = 1 - st_then2_then1_else1
    s_then2_then1_else1, w_then2_then1_else1 = (3 * st_then2_then1_else1, 3 * sw_then2_then1_else1)
    p_des_then2_then1_else1 = jnp.maximum(TORSO_LEAN - 0.25 * jnp.maximum(0.0, v - V_TARGET), -0.65)
    x_place_then2_then1_else1 = 0.17 * v + 0.12 * (v - V_TARGET)
    th_des_then3_then1_else1 = jnp.arcsin(jnp.clip(x_place_then2_then1_else1 / 0.95, -0.5, 0.5))
    th_des_then4_then1_else1 = jnp.minimum(jnp.maximum(th_des_then3_then1_else1, -0.45), -p - 0.05)
    th_sw_then2_then1_else1, dth_sw_then2_then1_else1 = (th[sw_then2_then1_else1], dq[w_then2_then1_else1] - pdot)
    tau_sw_hip_then2_then1_else1 = jnp.clip(2.0 * (th_des_then4_then1_else1 - th_sw_then2_then1_else1) - 0.35 * dth_sw_then2_then1_else1, -0.8, 0.8)
    qk_des_then2_then1_else1 = jnp.where(th_sw_then2_then1_else1 < th_des_then4_then1_else1 - 0.03, -1.0, -0.05)
    tau_sw_knee_then2_then1_else1 = 1.5 * (qk_des_then2_then1_else1 - q[w_then2_then1_else1 + 1]) - 0.12 * dq[w_then2_then1_else1 + 1]
    qf_des_then2_then1_else1 = jnp.clip(p - q[w_then2_then1_else1] - q[w_then2_then1_else1 + 1] + 0.05, -0.7, 0.7)
    tau_sw_ank_then2_then1_else1 = 0.3 * (qf_des_then2_then1_else1 - q[w_then2_then1_else1 + 2]) - 0.03 * dq[w_then2_then1_else1 + 2]
    torso_torque_then2_then1_else1 = -1.5 * (p - p_des_then2_then1_else1) - 0.12 * pdot
    tau_st_hip_then2_then1_else1 = torso_torque_then2_then1_else1 - tau_sw_hip_then2_then1_else1
    tau_st_knee_then2_then1_else1 = 3.0 * (-0.02 - q[s_then2_then1_else1 + 1]) - 0.2 * dq[s_then2_then1_else1 + 1]
    tau_st_ank_then2_then1_else1 = jnp.clip(-0.25 * (v - V_TARGET), -0.3, 0.08)
    act_then4_then1_else1 = jnp.zeros(6)
    act_then5_then1_else1 = act_then4_then1_else1.at[w_then2_then1_else1:w_then2_then1_else1 + 3].set((tau_sw_hip_then2_then1_else1, tau_sw_knee_then2_then1_else1, tau_sw_ank_then2_then1_else1))
    act_then6_then1_else1 = act_then5_then1_else1.at[s_then2_then1_else1:s_then2_then1_else1 + 3].set((tau_st_hip_then2_then1_else1, tau_st_knee_then2_then1_else1, tau_st_ank_then2_then1_else1))
    st_else2_then1_else1 = 1
    sw_else2_then1_else1 = 1 - st_else2_then1_else1
    s_else2_then1_else1, w_else2_then1_else1 = (3 * st_else2_then1_else1, 3 * sw_else2_then1_else1)
    p_des_else2_then1_else1 = jnp.maximum(TORSO_LEAN - 0.25 * jnp.maximum(0.0, v - V_TARGET), -0.65)
    x_place_else2_then1_else1 = 0.17 * v + 0.12 * (v - V_TARGET)
    th_des_else3_then1_else1 = jnp.arcsin(jnp.clip(x_place_else2_then1_else1 / 0.95, -0.5, 0.5))
    th_des_else4_then1_else1 = jnp.minimum(jnp.maximum(th_des_else3_then1_else1, -0.45), -p - 0.05)
    th_sw_else2_then1_else1, dth_sw_else2_then1_else1 = (th[sw_else2_then1_else1], dq[w_else2_then1_else1] - pdot)
    tau_sw_hip_else2_then1_else1 = jnp.clip(2.0 * (th_des_else4_then1_else1 - th_sw_else2_then1_else1) - 0.35 * dth_sw_else2_then1_else1, -0.8, 0.8)
    qk_des_else2_then1_else1 = jnp.where(th_sw_else2_then1_else1 < th_des_else4_then1_else1 - 0.03, -1.0, -0.05)
    tau_sw_knee_else2_then1_else1 = 1.5 * (qk_des_else2_then1_else1 - q[w_else2_then1_else1 + 1]) - 0.12 * dq[w_else2_then1_else1 + 1]
    qf_des_else2_then1_else1 = jnp.clip(p - q[w_else2_then1_else1] - q[w_else2_then1_else1 + 1] + 0.05, -0.7, 0.7)
    tau_sw_ank_else2_then1_else1 = 0.3 * (qf_des_else2_then1_else1 - q[w_else2_then1_else1 + 2]) - 0.03 * dq[w_else2_then1_else1 + 2]
    torso_torque_else2_then1_else1 = -1.5 * (p - p_des_else2_then1_else1) - 0.12 * pdot
    tau_st_hip_else2_then1_else1 = torso_torque_else2_then1_else1 - tau_sw_hip_else2_then1_else1
    tau_st_knee_else2_then1_else1 = 3.0 * (-0.02 - q[s_else2_then1_else1 + 1]) - 0.2 * dq[s_else2_then1_else1 + 1]
    tau_st_ank_else2_then1_else1 = jnp.clip(-0.25 * (v - V_TARGET), -0.3, 0.08)
    act_else4_then1_else1 = jnp.zeros(6)
    act_else5_then1_else1 = act_else4_then1_else1.at[w_else2_then1_else1:w_else2_then1_else1 + 3].set((tau_sw_hip_else2_then1_else1, tau_sw_knee_else2_then1_else1, tau_sw_ank_else2_then1_else1))
    act_else6_then1_else1 = act_else5_then1_else1.at[s_else2_then1_else1:s_else2_then1_else1 + 3].set((tau_st_hip_else2_then1_else1, tau_st_knee_else2_then1_else1, tau_st_ank_else2_then1_else1))
    cond3_else1_else1 = lowR <= lowL + 0.01
    st_then3_else1_else1 = 0
    sw_then3_else1_else1 = 1 - st_then3_else1_else1
    s_then3_else1_else1, w_then3_else1_else1 = (3 * st_then3_else1_else1, 3 * sw_then3_else1_else1)
    p_des_then3_else1_else1 = jnp.maximum(TORSO_LEAN - 0.25 * jnp.maximum(0.0, v - V_TARGET), -0.65)
    x_place_then3_else1_else1 = 0.17 * v + 0.12 * (v - V_TARGET)
    th_des_then5_else1_else1 = jnp.arcsin(jnp.clip(x_place_then3_else1_else1 / 0.95, -0.5, 0.5))
    th_des_then6_else1_else1 = jnp.minimum(jnp.maximum(th_des_then5_else1_else1, -0.45), -p - 0.05)
    th_sw_then3_else1_else1, dth_sw_then3_else1_else1 = (th[sw_then3_else1_else1], dq[w_then3_else1_else1] - pdot)
    tau_sw_hip_then3_else1_else1 = jnp.clip(2.0 * (th_des_then6_else1_else1 - th_sw_then3_else1_else1) - 0.35 * dth_sw_then3_else1_else1, -0.8, 0.8)
    qk_des_then3_else1_else1 = jnp.where(th_sw_then3_else1_else1 < th_des_then6_else1_else1 - 0.03, -1.0, -0.05)
    tau_sw_knee_then3_else1_else1 = 1.5 * (qk_des_then3_else1_else1 - q[w_then3_else1_else1 + 1]) - 0.12 * dq[w_then3_else1_else1 + 1]
    qf_des_then3_else1_else1 = jnp.clip(p - q[w_then3_else1_else1] - q[w_then3_else1_else1 + 1] + 0.05, -0.7, 0.7)
    tau_sw_ank_then3_else1_else1 = 0.3 * (qf_des_then3_else1_else1 - q[w_then3_else1_else1 + 2]) - 0.03 * dq[w_then3_else1_else1 + 2]
    torso_torque_then3_else1_else1 = -1.5 * (p - p_des_then3_else1_else1) - 0.12 * pdot
    tau_st_hip_then3_else1_else1 = torso_torque_then3_else1_else1 - tau_sw_hip_then3_else1_else1
    tau_st_knee_then3_else1_else1 = 3.0 * (-0.02 - q[s_then3_else1_else1 + 1]) - 0.2 * dq[s_then3_else1_else1 + 1]
    tau_st_ank_then3_else1_else1 = jnp.clip(-0.25 * (v - V_TARGET), -0.3, 0.08)
    act_then7_else1_else1 = jnp.zeros(6)
    act_then8_else1_else1 = act_then7_else1_else1.at[w_then3_else1_else1:w_then3_else1_else1 + 3].set((tau_sw_hip_then3_else1_else1, tau_sw_knee_then3_else1_else1, tau_sw_ank_then3_else1_else1))
    act_then9_else1_else1 = act_then8_else1_else1.at[s_then3_else1_else1:s_then3_else1_else1 + 3].set((tau_st_hip_then3_else1_else1, tau_st_knee_then3_else1_else1, tau_st_ank_then3_else1_else1))
    st_else3_else1_else1 = 1
    sw_else3_else1_else1 = 1 - st_else3_else1_else1
    s_else3_else1_else1, w_else3_else1_else1 = (3 * st_else3_else1_else1, 3 * sw_else3_else1_else1)
    p_des_else3_else1_else1 = jnp.maximum(TORSO_LEAN - 0.25 * jnp.maximum(0.0, v - V_TARGET), -0.65)
    x_place_else3_else1_else1 = 0.17 * v + 0.12 * (v - V_TARGET)
    th_des_else5_else1_else1 = jnp.arcsin(jnp.clip(x_place_else3_else1_else1 / 0.95, -0.5, 0.5))
    th_des_else6_else1_else1 = jnp.minimum(jnp.maximum(th_des_else5_else1_else1, -0.45), -p - 0.05)
    th_sw_else3_else1_else1, dth_sw_else3_else1_else1 = (th[sw_else3_else1_else1], dq[w_else3_else1_else1] - pdot)
    tau_sw_hip_else3_else1_else1 = jnp.clip(2.0 * (th_des_else6_else1_else1 - th_sw_else3_else1_else1) - 0.35 * dth_sw_else3_else1_else1, -0.8, 0.8)
    qk_des_else3_else1_else1 = jnp.where(th_sw_else3_else1_else1 < th_des_else6_else1_else1 - 0.03, -1.0, -0.05)
    tau_sw_knee_else3_else1_else1 = 1.5 * (qk_des_else3_else1_else1 - q[w_else3_else1_else1 + 1]) - 0.12 * dq[w_else3_else1_else1 + 1]
    qf_des_else3_else1_else1 = jnp.clip(p - q[w_else3_else1_else1] - q[w_else3_else1_else1 + 1] + 0.05, -0.7, 0.7)
    tau_sw_ank_else3_else1_else1 = 0.3 * (qf_des_else3_else1_else1 - q[w_else3_else1_else1 + 2]) - 0.03 * dq[w_else3_else1_else1 + 2]
    torso_torque_else3_else1_else1 = -1.5 * (p - p_des_else3_else1_else1) - 0.12 * pdot
    tau_st_hip_else3_else1_else1 = torso_torque_else3_else1_else1 - tau_sw_hip_else3_else1_else1
    tau_st_knee_else3_else1_else1 = 3.0 * (-0.02 - q[s_else3_else1_else1 + 1]) - 0.2 * dq[s_else3_else1_else1 + 1]
    tau_st_ank_else3_else1_else1 = jnp.clip(-0.25 * (v - V_TARGET), -0.3, 0.08)
    act_else7_else1_else1 = jnp.zeros(6)
    act_else8_else1_else1 = act_else7_else1_else1.at[w_else3_else1_else1:w_else3_else1_else1 + 3].set((tau_sw_hip_else3_else1_else1, tau_sw_knee_else3_else1_else1, tau_sw_ank_else3_else1_else1))
    act_else9_else1_else1 = act_else8_else1_else1.at[s_else3_else1_else1:s_else3_else1_else1 + 3].set((tau_st_hip_else3_else1_else1, tau_st_knee_else3_else1_else1, tau_st_ank_else3_else1_else1))
    return jnp.where(cond5, jnp.where(cond1_then1, act_then3_then1, act_else3_then1), jnp.where(cond4_else1, jnp.where(cond2_then1_else1, act_then6_then1_else1, act_else6_then1_else1), jnp.where(cond3_else1_else1, act_then9_else1_else1, act_else9_else1_else1)))


def _stand(obs):
    """Conservative fallback: lock hips and knees against their 0 limits and balance on the ankles."""
    p, pdot = (obs[1], obs[10])
    q, dq = (obs[2:8], obs[11:17])
    act = jnp.zeros(6)
    for i in (0, 3):
        act = act.at[i].set(2.0 * (0.0 - q[i]) - 0.2 * dq[i] + 0.1)
        act = act.at[i + 1].set(2.0 * (0.0 - q[i + 1]) - 0.2 * dq[i + 1] + 0.1)
        act = act.at[i + 2].set(-1.5 * (p - 0.05) - 0.4 * pdot)
    return act


def policy(obs):
    obs = jnp.asarray(obs, dtype=jnp.float64).ravel()
    act = jnp.where(MODE == 'stand', _stand(obs), _walk(obs))
    return jnp.clip(jnp.nan_to_num(act), -1.0, 1.0).astype(jnp.float32)
