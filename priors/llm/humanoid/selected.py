# camel-jax prior
# task: humanoid
# model: claude (Anthropic; helper session, version not exposed)
# prompt: priors/prompts/paper_numpy_v2.md sha256:56c6fbe180f1d91027b4e26168204628aa1731c14386b0e6c04378e30ae7b970
# date: 2026-11-27T19:06:44Z
# validation: valid: (376,) -> (17,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations
# return: 489.1 +- 89.0 over 10 episodes on Humanoid-v4 (gymnasium, seeds 0-9); forward 0.42 m; falls 10/10 (mean length 96 steps); from priors/llm/humanoid/imported/humanoid_selection.md
# prompt_text: sha256:2c94e5f0e36f01229ab3bff7ee495c7d4a4f4bf11481bbd6b92b8c2275592e5d (the text of `camel-jax priors prompt --env humanoid --style paper`)
# answer: answer_3.md sha256:b2cfd7cbcdd5f086f214e5cec9bc5f38e5df9720a09812c6b2ee4fe606ec3056
# method: NumPy answer translated to jnp mechanically (camel_jax/priors/convert.py), equal to the answer within 1.5e-14 in float64 on 10000 rollout observations and 274 of the answer's own episodes; command: camel-jax priors import priors/llm/humanoid/answer_2.md priors/llm/humanoid/answer_3.md priors/llm/humanoid/answer_4.md priors/llm/humanoid/answer_5.md priors/llm/humanoid/answer_6.md --env humanoid --out priors/llm/humanoid/imported --model 'claude (Anthropic; helper session, version not exposed)' --timeout 600
# kind: llm
# selected: by camel-jax priors select (score: speed, its default) among 4 valid answers (answers 2, 3, 4, 5) of the 5 answers to the paper's prompt (4 valid; answer 6 refused: priors/llm/humanoid/imported/import_report.md); report: priors/llm/humanoid/imported/humanoid_selection.md
# source: priors/llm/humanoid/imported/answer_3.py (this file is a copy of it, the code unchanged; tests/priors/test_shipped.py checks both)
# search: no search: the LLM wrote the code in one reply without a simulator; the selection ran 10 episodes of each of the 4 candidates, about 3,170 env steps (10 x the mean lengths in the report); every episode of every candidate fell
# search_env_steps: 3170

import jax.numpy as jnp
L_THIGH, L_SHIN = (0.383, 0.37)
M_TORSO, M_ARMS, M_LWAIST, M_PELVIS = (8.908, 5.78, 2.262, 6.616)
M_THIGH, M_SHIN, M_FOOT = (4.752, 2.756, 1.767)
M_TOT = M_TORSO + M_ARMS + M_LWAIST + M_PELVIS + 2.0 * (M_THIGH + M_SHIN + M_FOOT)
V_DES = 0.5
K_X, K_V = (0.2, 0.15)
HALF_W, K_Y = (0.065, 0.3)
LIFT = 0.1
CONTACT_Z = 0.09
PITCH_DES = 0.03


def _rx(a):
    c, s = (jnp.cos(a), jnp.sin(a))
    return jnp.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def _ry(a):
    c, s = (jnp.cos(a), jnp.sin(a))
    return jnp.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def _rz(a):
    c, s = (jnp.cos(a), jnp.sin(a))
    return jnp.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
_RY_BODY = _ry(-0.004)


def _quat_to_mat(qt):
    w, x, y, z = qt / (jnp.linalg.norm(qt) + 1e-09)
    return jnp.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def _leg_fk(Rp, hip, hx, hz, hy, kn, left):
    """Foot-sphere centre, thigh CoM, shin CoM (world axes, same origin as `hip`)."""
    sg = jnp.where(left, -1.0, 1.0)
    Rth = Rp @ _rx(sg * hx) @ _rz(sg * hz) @ _ry(hy)
    knee = hip + Rth @ jnp.array([0.0, 0.01 * sg, -0.383])
    Rsh = Rth @ _ry(-kn)
    foot = knee + Rsh @ jnp.array([0.0, 0.0, -0.37])
    thigh_c = hip + Rth @ jnp.array([0.0, 0.005 * sg, -0.17])
    shin_c = knee + Rsh @ jnp.array([0.0, 0.0, -0.17])
    return (foot, thigh_c, shin_c)


def _leg_ik(d, left):
    """(hip_x, hip_y, knee) that put the foot centre at d (pelvis frame, from the hip)."""
    dx, dy, dz = d
    dz = jnp.minimum(dz, -0.25)
    a = jnp.arctan2(dy, -dz)
    hx = jnp.where(left, -a, a)
    zz = -jnp.hypot(dy, dz)
    D = jnp.clip(jnp.hypot(dx, zz), 0.4, 0.745)
    ck = (D * D - L_THIGH ** 2 - L_SHIN ** 2) / (2.0 * L_THIGH * L_SHIN)
    kn = -jnp.arccos(jnp.clip(ck, -1.0, 1.0))
    b0 = jnp.arctan2(L_SHIN * jnp.sin(kn), L_THIGH + L_SHIN * jnp.cos(kn))
    hy = b0 - jnp.arctan2(dx, -zz)
    return (jnp.clip(hx, -0.43, 0.08), jnp.clip(hy, -1.6, 0.3), jnp.clip(kn, -2.2, -0.05))


def _track(q, qd, i, tgt):
    """Joint PD (action units) for one leg; i = 3 right / 7 left.
    Returns [hip_x, hip_z, hip_y, knee] (same order as obs and action)."""
    hx, hy, kn = tgt
    a = jnp.array([4.0 * (hx - q[i]) - 0.4 * qd[i], 1.0 * (0.0 - q[i + 1]) - 0.02 * qd[i + 1], 3.0 * (hy - q[i + 2]) - 0.3 * qd[i + 2], 2.0 * (kn - q[i + 3]) - 0.12 * qd[i + 3]])
    return jnp.clip(a, -1.0, 1.0)


def policy(obs):
    o = jnp.asarray(obs, dtype=jnp.float64).ravel()
    q, qd = (o[5:22], o[28:45])
    z_torso = o[0]
    Rt = _quat_to_mat(o[1:5])
    Rl0 = Rt @ _RY_BODY
    Rlz = Rl0 @ _rz(q[0])
    Rl = Rlz @ _ry(q[1])
    lw = Rt @ jnp.array([-0.01, 0.0, -0.26]) + (Rl0 - Rl) @ jnp.array([0.0, 0.0, 0.065])
    Rp0 = Rl @ _RY_BODY
    Rp = Rp0 @ _rx(q[2])
    pel = lw + Rl @ jnp.array([0.0, 0.0, -0.165]) + (Rp0 - Rp) @ jnp.array([0.0, 0.0, 0.1])
    hipR = pel + Rp @ jnp.array([0.0, -0.1, -0.04])
    hipL = pel + Rp @ jnp.array([0.0, 0.1, -0.04])
    footR, thR, shR = _leg_fk(Rp, hipR, q[3], q[4], q[5], q[6], False)
    footL, thL, shL = _leg_fk(Rp, hipL, q[7], q[8], q[9], q[10], True)
    com = (M_TORSO * (Rt @ jnp.array([-0.0025, 0.0, 0.0347])) + M_ARMS * (Rt @ jnp.array([0.169, 0.0, -0.016])) + M_LWAIST * lw + M_PELVIS * (pel + Rp @ jnp.array([-0.02, 0.0, 0.0])) + M_THIGH * (thR + thL) + M_SHIN * (shR + shL) + M_FOOT * (footR + footL)) / M_TOT
    psi = jnp.arctan2(Rp[1, 0], Rp[0, 0])
    Rh = _rz(-psi)
    zp = Rh @ Rp[:, 2]
    pitch = jnp.arctan2(zp[0], zp[2])
    roll = jnp.arctan2(-zp[1], zp[2])
    w_t = Rt @ o[25:28]
    w_p = w_t + Rl0[:, 2] * qd[0] + Rlz[:, 1] * qd[1] + Rp0[:, 0] * qd[2]
    wh = Rh @ w_p
    cin = o[45:185].reshape(14, 10)
    cvl = o[185:269].reshape(14, 6)
    m = cin[:, 9]
    cond1 = jnp.logical_and(abs(m[1] - M_TORSO) < 1.5, abs(m.sum() - M_TOT) < 4.0)
    v_com_then1 = (m[:, None] * cvl[:, 3:] + jnp.cross(cvl[:, :3], cin[:, 6:9])).sum(0) / m.sum()
    v_com_else1 = o[22:25] + jnp.cross(w_t, com)
    v_com = jnp.where(cond1, v_com_then1, v_com_else1)
    vh = Rh @ v_com
    fR, fL = (Rh @ (footR - com), Rh @ (footL - com))
    hR, hL = (Rh @ (hipR - com), Rh @ (hipL - com))
    zR, zL = (z_torso + footR[2], z_torso + footL[2])
    lowR, lowL = (zR < CONTACT_Z, zL < CONTACT_Z)
    x_t = jnp.clip(K_X * vh[0] + K_V * (vh[0] - V_DES), -0.25, 0.4)
    yR_t = jnp.clip(-HALF_W + K_Y * vh[1], -0.45, 0.0)
    yL_t = jnp.clip(HALF_W + K_Y * vh[1], 0.0, 0.45)
    eR = jnp.hypot(x_t - fR[0], yR_t - fR[1])
    eL = jnp.hypot(x_t - fL[0], yL_t - fL[1])
    cond4 = lowR != lowL
    stance_then3 = jnp.where(lowR, 0, 1)
    cond3_else1 = jnp.logical_and(lowR, lowL)
    stance_then2_else1 = jnp.where(eR <= eL, 0, 1)
    cond2_else1_else1 = z_torso > 1.31
    stance_then1_else1_else1 = -1
    stance_else1_else1_else1 = jnp.where(zR <= zL, 0, 1)
    stance_else2_else1 = jnp.where(cond2_else1_else1, stance_then1_else1_else1, stance_else1_else1_else1)
    stance_else3 = jnp.where(cond3_else1, stance_then2_else1, stance_else2_else1)
    stance = jnp.where(cond4, stance_then3, stance_else3)
    single = jnp.asarray(lowR != lowL, dtype=bool)
    act = jnp.zeros(17)
    lean = 0.0
    cond5 = single
    lean_then1 = jnp.where(stance == 0, -0.08, 0.08)
    lean = jnp.where(cond5, lean_then1, lean)
    act = act.at[0].set(4.0 * (0.0 - q[1]) - 0.35 * qd[1])
    act = act.at[1].set(2.0 * (0.0 - q[0]) - 0.2 * qd[0])
    act = act.at[2].set(4.0 * (lean - q[2]) - 0.35 * qd[2])
    act = act.at[11:17].set(1.0 * (0.0 - q[11:17]) - 0.05 * qd[11:17])
    cond11 = stance < 0
    i_then1, hh_then1, hip_then1, left_then1, yy_then1 = (3, hR, hipR, False, -0.1)
    d_then2 = Rp.T @ (Rh.T @ jnp.array([-hh_then1[0], yy_then1 - hh_then1[1], 0.06 - (z_torso + hip_then1[2])]))
    act_then6 = act.at[i_then1:i_then1 + 4].set(_track(q, qd, i_then1, _leg_ik(d_then2, left_then1)))
    i_then2, hh_then2, hip_then2, left_then2, yy_then2 = (7, hL, hipL, True, 0.1)
    d_then3 = Rp.T @ (Rh.T @ jnp.array([-hh_then2[0], yy_then2 - hh_then2[1], 0.06 - (z_torso + hip_then2[2])]))
    act_then7 = act_then6.at[i_then2:i_then2 + 4].set(_track(q, qd, i_then2, _leg_ik(d_then3, left_then2)))
    cond10_else1 = stance == 0
    i_sw_then1_else1, i_st_then1_else1, f_sw_then1_else1, h_sw_then1_else1, hip_sw_then1_else1, f_st_then1_else1, left_sw_then1_else1 = (7, 3, fL, hL, hipL, fR, True)
    y_sw_then1_else1 = jnp.maximum(yL_t, fR[1] + 0.17)
    e_then1_else1 = jnp.hypot(x_t - f_sw_then1_else1[0], y_sw_then1_else1 - f_sw_then1_else1[1])
    s_then1_else1 = jnp.clip(e_then1_else1 / 0.1, 0.0, 1.0)
    s_then2_else1 = jnp.minimum(s_then1_else1, jnp.clip((0.34 - jnp.hypot(f_st_then1_else1[0], 0.6 * f_st_then1_else1[1])) / 0.08, 0.0, 1.0))
    s_then3_else1 = jnp.minimum(s_then2_else1, jnp.clip((vh[2] + 0.6) / 0.3, 0.0, 1.0))
    z_sw_then1_else1 = 0.05 + LIFT * s_then3_else1
    d_then1_else1 = Rp.T @ (Rh.T @ jnp.array([x_t - h_sw_then1_else1[0], y_sw_then1_else1 - h_sw_then1_else1[1], z_sw_then1_else1 - (z_torso + hip_sw_then1_else1[2])]))
    a_sw_then1_else1 = _track(q, qd, i_sw_then1_else1, _leg_ik(d_then1_else1, left_sw_then1_else1))
    act_then1_else1 = act.at[i_sw_then1_else1:i_sw_then1_else1 + 4].set(a_sw_then1_else1)
    tau_sw_x_then1_else1, tau_sw_y_then1_else1 = (40.0 * a_sw_then1_else1[0], 120.0 * a_sw_then1_else1[2])
    T_pitch_then1_else1 = -300.0 * (pitch - PITCH_DES) - 40.0 * wh[1]
    T_roll_then3_else1 = -200.0 * roll - 25.0 * wh[0]
    cond6_then1_else1 = single
    T_roll_then1_then1_else1 = T_roll_then3_else1 + jnp.where(stance == 0, 20.0, -20.0)
    T_roll_then4_else1 = jnp.where(cond6_then1_else1, T_roll_then1_then1_else1, T_roll_then3_else1)
    tau_y_then1_else1 = -T_pitch_then1_else1 - tau_sw_y_then1_else1
    cond7_then1_else1 = stance == 0
    tau_x_then1_then1_else1 = tau_sw_x_then1_else1 - T_roll_then4_else1
    tau_x_else1_then1_else1 = T_roll_then4_else1 + tau_sw_x_then1_else1
    tau_x_then3_else1 = jnp.where(cond7_then1_else1, tau_x_then1_then1_else1, tau_x_else1_then1_else1)
    act_then2_else1 = act_then1_else1.at[i_st_then1_else1].set(tau_x_then3_else1 / 40.0)
    act_then3_else1 = act_then2_else1.at[i_st_then1_else1 + 1].set(1.0 * (0.0 - q[i_st_then1_else1 + 1]) - 0.02 * qd[i_st_then1_else1 + 1])
    act_then4_else1 = act_then3_else1.at[i_st_then1_else1 + 2].set(tau_y_then1_else1 / 120.0)
    act_then5_else1 = act_then4_else1.at[i_st_then1_else1 + 3].set(3.0 * (-0.15 - q[i_st_then1_else1 + 3]) - 0.15 * qd[i_st_then1_else1 + 3])
    i_sw_else1_else1, i_st_else1_else1, f_sw_else1_else1, h_sw_else1_else1, hip_sw_else1_else1, f_st_else1_else1, left_sw_else1_else1 = (3, 7, fR, hR, hipR, fL, False)
    y_sw_else1_else1 = jnp.minimum(yR_t, fL[1] - 0.17)
    e_else1_else1 = jnp.hypot(x_t - f_sw_else1_else1[0], y_sw_else1_else1 - f_sw_else1_else1[1])
    s_else1_else1 = jnp.clip(e_else1_else1 / 0.1, 0.0, 1.0)
    s_else2_else1 = jnp.minimum(s_else1_else1, jnp.clip((0.34 - jnp.hypot(f_st_else1_else1[0], 0.6 * f_st_else1_else1[1])) / 0.08, 0.0, 1.0))
    s_else3_else1 = jnp.minimum(s_else2_else1, jnp.clip((vh[2] + 0.6) / 0.3, 0.0, 1.0))
    z_sw_else1_else1 = 0.05 + LIFT * s_else3_else1
    d_else1_else1 = Rp.T @ (Rh.T @ jnp.array([x_t - h_sw_else1_else1[0], y_sw_else1_else1 - h_sw_else1_else1[1], z_sw_else1_else1 - (z_torso + hip_sw_else1_else1[2])]))
    a_sw_else1_else1 = _track(q, qd, i_sw_else1_else1, _leg_ik(d_else1_else1, left_sw_else1_else1))
    act_else1_else1 = act.at[i_sw_else1_else1:i_sw_else1_else1 + 4].set(a_sw_else1_else1)
    tau_sw_x_else1_else1, tau_sw_y_else1_else1 = (40.0 * a_sw_else1_else1[0], 120.0 * a_sw_else1_else1[2])
    T_pitch_else1_else1 = -300.0 * (pitch - PITCH_DES) - 40.0 * wh[1]
    T_roll_else1_else1 = -200.0 * roll - 25.0 * wh[0]
    cond8_else1_else1 = single
    T_roll_then2_else1_else1 = T_roll_else1_else1 + jnp.where(stance == 0, 20.0, -20.0)
    T_roll_else2_else1 = jnp.where(cond8_else1_else1, T_roll_then2_else1_else1, T_roll_else1_else1)
    tau_y_else1_else1 = -T_pitch_else1_else1 - tau_sw_y_else1_else1
    cond9_else1_else1 = stance == 0
    tau_x_then2_else1_else1 = tau_sw_x_else1_else1 - T_roll_else2_else1
    tau_x_else2_else1_else1 = T_roll_else2_else1 + tau_sw_x_else1_else1
    tau_x_else3_else1 = jnp.where(cond9_else1_else1, tau_x_then2_else1_else1, tau_x_else2_else1_else1)
    act_else2_else1 = act_else1_else1.at[i_st_else1_else1].set(tau_x_else3_else1 / 40.0)
    act_else3_else1 = act_else2_else1.at[i_st_else1_else1 + 1].set(1.0 * (0.0 - q[i_st_else1_else1 + 1]) - 0.02 * qd[i_st_else1_else1 + 1])
    act_else4_else1 = act_else3_else1.at[i_st_else1_else1 + 2].set(tau_y_else1_else1 / 120.0)
    act_else5_else1 = act_else4_else1.at[i_st_else1_else1 + 3].set(3.0 * (-0.15 - q[i_st_else1_else1 + 3]) - 0.15 * qd[i_st_else1_else1 + 3])
    return jnp.where(cond11, jnp.clip(act_then7, -1.0, 1.0), jnp.where(cond10_else1, jnp.clip(act_then5_else1, -1.0, 1.0), jnp.clip(act_else5_else1, -1.0, 1.0)))
