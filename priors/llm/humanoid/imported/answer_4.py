# camel-jax prior
# task: humanoid
# model: claude (Anthropic; helper session, version not exposed)
# prompt: priors/prompts/paper_numpy_v2.md sha256:56c6fbe180f1d91027b4e26168204628aa1731c14386b0e6c04378e30ae7b970
# date: 2026-11-27T19:07:38Z
# validation: valid: (376,) -> (17,) float, compiles under jax.jit, vmaps (batched and single calls agree within 1.1e-05 in float32, at most twice its float32 rounding error 1.7e-05, and within 2.0e-14 in float64), finite and within [-1, 1] on 2000 rollout observations
# prompt_text: sha256:2c94e5f0e36f01229ab3bff7ee495c7d4a4f4bf11481bbd6b92b8c2275592e5d (the text of `camel-jax priors prompt --env humanoid --style paper`)
# answer: answer_4.md sha256:bcbfabbdeea19a68653733cafac84e0285149e6da3eb979011441aa5f38beb38
# method: NumPy answer translated to jnp mechanically (camel_jax/priors/convert.py), equal to the answer within 2.2e-14 in float64 on 10000 rollout observations and 274 of the answer's own episodes; command: camel-jax priors import priors/llm/humanoid/answer_2.md priors/llm/humanoid/answer_3.md priors/llm/humanoid/answer_4.md priors/llm/humanoid/answer_5.md priors/llm/humanoid/answer_6.md --env humanoid --out priors/llm/humanoid/imported --model 'claude (Anthropic; helper session, version not exposed)' --timeout 600

import jax.numpy as jnp
GEAR = jnp.array([100, 100, 100, 100, 100, 300, 200, 100, 100, 300, 200, 25, 25, 25, 25, 25, 25], dtype=float)
TAU_MAX = 0.4 * GEAR
L1, L2 = (0.383, 0.37)
FOOT_R = 0.075
V_DES = 0.6
K_CP = 0.25
K_V = 0.12
K_Y = 0.3
STEP_W = 0.08
CLEAR = 0.15
PITCH_DES = 0.03
M_TORSO, M_ARMS, M_LWAIST, M_PELVIS = (8.9, 5.8, 2.26, 6.6)
M_THIGH, M_SHIN, M_FOOT = (4.75, 2.76, 1.77)
M_TOT = M_TORSO + M_ARMS + M_LWAIST + M_PELVIS + 2 * (M_THIGH + M_SHIN + M_FOOT)


def _v(x, y, z):
    return jnp.array([x, y, z], dtype=float)


def _rx(a):
    c, s = (jnp.cos(a), jnp.sin(a))
    return jnp.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def _ry(a):
    c, s = (jnp.cos(a), jnp.sin(a))
    return jnp.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def _rz(a):
    c, s = (jnp.cos(a), jnp.sin(a))
    return jnp.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def _quat_to_mat(quat):
    w, x, y, z = quat / (jnp.linalg.norm(quat) + 1e-12)
    return jnp.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def _exp_rot(v):
    """Rotation matrix of the rotation vector v (Rodrigues)."""
    th = jnp.linalg.norm(v)
    cond1 = th < 1e-09
    k_else1 = v / th
    K_else1 = jnp.array([[0.0, -k_else1[2], k_else1[1]], [k_else1[2], 0.0, -k_else1[0]], [-k_else1[1], k_else1[0], 0.0]])
    return jnp.where(cond1, jnp.eye(3), jnp.eye(3) + jnp.sin(th) * K_else1 + (1.0 - jnp.cos(th)) * (K_else1 @ K_else1))


def _fk(R0, q):
    """Forward kinematics (MuJoCo conventions, joint anchors included).
    Positions are relative to the torso origin, expressed in world axes.
    q = obs[5:22] (joint order of the observation)."""
    R1 = R0 @ _rz(q[0]) @ _ry(q[1])
    p1 = R0 @ _v(-0.01, 0.0, -0.195) - R1 @ _v(0.0, 0.0, 0.065)
    R2 = R1 @ _rx(q[2])
    p2 = p1 + R1 @ _v(0.0, 0.0, -0.065) - R2 @ _v(0.0, 0.0, 0.1)
    hR = p2 + R2 @ _v(0.0, -0.1, -0.04)
    RtR = R2 @ _rx(q[3]) @ _rz(q[4]) @ _ry(q[5])
    kR = hR + RtR @ _v(0.0, 0.01, -0.383)
    RsR = RtR @ _ry(-q[6])
    fR = kR + RsR @ _v(0.0, 0.0, -0.37)
    hL = p2 + R2 @ _v(0.0, 0.1, -0.04)
    RtL = R2 @ _rx(-q[7]) @ _rz(-q[8]) @ _ry(q[9])
    kL = hL + RtL @ _v(0.0, -0.01, -0.383)
    RsL = RtL @ _ry(-q[10])
    fL = kL + RsL @ _v(0.0, 0.0, -0.37)
    com = (M_TORSO * (R0 @ _v(0.0, 0.0, 0.035)) + M_ARMS * (R0 @ _v(0.16, 0.0, -0.03)) + M_LWAIST * p1 + M_PELVIS * (p2 + R2 @ _v(-0.02, 0.0, 0.0)) + M_THIGH * 0.5 * (hR + kR + hL + kL) + M_SHIN * (kR + RsR @ _v(0.0, 0.0, -0.17) + kL + RsL @ _v(0.0, 0.0, -0.17)) + M_FOOT * (fR + fL)) / M_TOT
    return {'R2': R2, 'hR': hR, 'hL': hL, 'fR': fR, 'fL': fL, 'com': com}


def _leg_ik(p, right):
    """Foot-centre target p (pelvis frame, relative to the hip) -> (hip_x, hip_y, knee)."""
    px, py, pz = p
    pz = jnp.minimum(pz, -0.2)
    hx = jnp.where(right, jnp.arctan2(py, -pz), jnp.arctan2(-py, -pz))
    rho = jnp.hypot(py, pz)
    r = jnp.clip(jnp.hypot(px, rho), 0.3, 0.745)
    c = jnp.clip((r * r - L1 * L1 - L2 * L2) / (2 * L1 * L2), -1.0, 1.0)
    kappa = jnp.arccos(c)
    alpha = jnp.arctan2(px, rho)
    beta = jnp.arctan2(L2 * jnp.sin(kappa), L1 + L2 * jnp.cos(kappa))
    hy = -(alpha + beta)
    return (jnp.clip(hx, -0.43, 0.08), jnp.clip(hy, -1.9, 0.34), jnp.clip(-kappa, -2.6, -0.04))


def policy(obs):
    obs = jnp.asarray(obs, dtype=jnp.float64)
    z = obs[0]
    R0 = _quat_to_mat(obs[1:5])
    q = obs[5:22]
    qd = obs[28:45]
    v_torso = obs[22:25]
    w_loc = obs[25:28]
    K = _fk(R0, q)
    dt = 0.02
    K2 = _fk(R0 @ _exp_rot(w_loc * dt), q + qd * dt)
    com = K['com']
    vcom = v_torso + (K2['com'] - com) / dt
    vx, vy = (vcom[0], vcom[1])
    R2 = K['R2']
    W = (K2['R2'] - R2) @ R2.T / dt
    w_pel = 0.5 * jnp.array([W[2, 1] - W[1, 2], W[0, 2] - W[2, 0], W[1, 0] - W[0, 1]])
    up = R2[:, 2]
    pitch = jnp.arctan2(up[0], up[2])
    roll = jnp.arctan2(-up[1], up[2])
    yaw = jnp.arctan2(R2[1, 0], R2[0, 0])
    fR, fL = (K['fR'], K['fL'])
    hR = z + fR[2] - FOOT_R
    hL = z + fL[2] - FOOT_R
    sgn = jnp.where(vx > -0.15, 1.0, -1.0)
    cond2 = jnp.logical_or(abs(hR - hL) < 0.02, jnp.maximum(hR, hL) < 0.03)
    right_stance_then1 = sgn * fR[0] >= sgn * fL[0]
    right_stance_else1 = hR < hL
    right_stance = jnp.where(cond2, right_stance_then1, right_stance_else1)
    cond5 = right_stance
    st_then1, sw_then1, f_sw_then1, hip_sw_then1, side_then1 = (3, 7, fL, K['hL'], 1.0)
    sw_right_then1 = jnp.logical_not(right_stance)
    xf_then1 = jnp.clip(K_CP * vx + K_V * (vx - V_DES), -0.25, 0.45)
    yf_then1 = side_then1 * STEP_W + jnp.clip(K_Y * vy, -0.2, 0.2)
    tx_then1, ty_then1 = (com[0] + xf_then1, com[1] + yf_then1)
    remaining_then1 = sgn * (tx_then1 - f_sw_then1[0])
    h_des_then1 = -0.03 + (CLEAR + 0.03) * jnp.clip(remaining_then1 / 0.12, 0.0, 1.0)
    tz_then1 = FOOT_R + h_des_then1 - z
    p_loc_then1 = R2.T @ (jnp.array([tx_then1, ty_then1, tz_then1]) - hip_sw_then1)
    hx_t_then1, hy_t_then1, kn_t_then1 = _leg_ik(p_loc_then1, sw_right_then1)
    hz_t_then1 = jnp.clip(jnp.where(sw_right_then1, -yaw, yaw), -0.35, 0.35)
    tau_then3 = jnp.zeros(17)
    pd_hx_then1 = 100.0 * (hx_t_then1 - q[sw_then1]) - 8.0 * qd[sw_then1]
    pd_hz_then1 = 20.0 * (hz_t_then1 - q[sw_then1 + 1]) - 1.0 * qd[sw_then1 + 1]
    pd_hy_then1 = 250.0 * (hy_t_then1 - q[sw_then1 + 2]) - 25.0 * qd[sw_then1 + 2]
    pd_kn_then1 = 150.0 * (kn_t_then1 - q[sw_then1 + 3]) - 8.0 * qd[sw_then1 + 3]
    tau_then4 = tau_then3.at[sw_then1].set(pd_hx_then1 + 10.0 * q[sw_then1])
    tau_then5 = tau_then4.at[sw_then1 + 1].set(pd_hz_then1 + 10.0 * q[sw_then1 + 1])
    tau_then6 = tau_then5.at[sw_then1 + 2].set(pd_hy_then1 + 20.0 * q[sw_then1 + 2])
    tau_then7 = tau_then6.at[sw_then1 + 3].set(pd_kn_then1)
    T_y_then1 = -300.0 * (pitch - PITCH_DES) - 30.0 * w_pel[1]
    T_x_then1 = -200.0 * roll - 20.0 * w_pel[0] + jnp.where(right_stance, 15.0, -15.0)
    tau_then8 = tau_then7.at[st_then1 + 2].set(-T_y_then1 - pd_hy_then1 + 20.0 * q[st_then1 + 2])
    cond3_then1 = right_stance
    tau_then1_then1 = tau_then8.at[st_then1].set(pd_hx_then1 - T_x_then1 + 10.0 * q[st_then1])
    tau_else1_then1 = tau_then8.at[st_then1].set(T_x_then1 + pd_hx_then1 + 10.0 * q[st_then1])
    tau_then9 = jnp.where(cond3_then1, tau_then1_then1, tau_else1_then1)
    tau_then10 = tau_then9.at[st_then1 + 1].set(20.0 * (0.0 - q[st_then1 + 1]) - 1.0 * qd[st_then1 + 1] + 10.0 * q[st_then1 + 1])
    tau_then11 = tau_then10.at[st_then1 + 3].set(300.0 * (-0.1 - q[st_then1 + 3]) - 10.0 * qd[st_then1 + 3])
    tau_then12 = tau_then11.at[0].set(150.0 * (0.0 - q[1]) - 10.0 * qd[1])
    tau_then13 = tau_then12.at[1].set(100.0 * (0.0 - q[0]) - 8.0 * qd[0])
    tau_then14 = tau_then13.at[2].set(150.0 * (0.0 - q[2]) - 10.0 * qd[2])
    tau_then15 = tau_then14.at[11:17].set(20.0 * (0.0 - q[11:17]) - 1.0 * qd[11:17])
    act_then1 = tau_then15 / TAU_MAX
    st_else1, sw_else1, f_sw_else1, hip_sw_else1, side_else1 = (7, 3, fR, K['hR'], -1.0)
    sw_right_else1 = jnp.logical_not(right_stance)
    xf_else1 = jnp.clip(K_CP * vx + K_V * (vx - V_DES), -0.25, 0.45)
    yf_else1 = side_else1 * STEP_W + jnp.clip(K_Y * vy, -0.2, 0.2)
    tx_else1, ty_else1 = (com[0] + xf_else1, com[1] + yf_else1)
    remaining_else1 = sgn * (tx_else1 - f_sw_else1[0])
    h_des_else1 = -0.03 + (CLEAR + 0.03) * jnp.clip(remaining_else1 / 0.12, 0.0, 1.0)
    tz_else1 = FOOT_R + h_des_else1 - z
    p_loc_else1 = R2.T @ (jnp.array([tx_else1, ty_else1, tz_else1]) - hip_sw_else1)
    hx_t_else1, hy_t_else1, kn_t_else1 = _leg_ik(p_loc_else1, sw_right_else1)
    hz_t_else1 = jnp.clip(jnp.where(sw_right_else1, -yaw, yaw), -0.35, 0.35)
    tau_else3 = jnp.zeros(17)
    pd_hx_else1 = 100.0 * (hx_t_else1 - q[sw_else1]) - 8.0 * qd[sw_else1]
    pd_hz_else1 = 20.0 * (hz_t_else1 - q[sw_else1 + 1]) - 1.0 * qd[sw_else1 + 1]
    pd_hy_else1 = 250.0 * (hy_t_else1 - q[sw_else1 + 2]) - 25.0 * qd[sw_else1 + 2]
    pd_kn_else1 = 150.0 * (kn_t_else1 - q[sw_else1 + 3]) - 8.0 * qd[sw_else1 + 3]
    tau_else4 = tau_else3.at[sw_else1].set(pd_hx_else1 + 10.0 * q[sw_else1])
    tau_else5 = tau_else4.at[sw_else1 + 1].set(pd_hz_else1 + 10.0 * q[sw_else1 + 1])
    tau_else6 = tau_else5.at[sw_else1 + 2].set(pd_hy_else1 + 20.0 * q[sw_else1 + 2])
    tau_else7 = tau_else6.at[sw_else1 + 3].set(pd_kn_else1)
    T_y_else1 = -300.0 * (pitch - PITCH_DES) - 30.0 * w_pel[1]
    T_x_else1 = -200.0 * roll - 20.0 * w_pel[0] + jnp.where(right_stance, 15.0, -15.0)
    tau_else8 = tau_else7.at[st_else1 + 2].set(-T_y_else1 - pd_hy_else1 + 20.0 * q[st_else1 + 2])
    cond4_else1 = right_stance
    tau_then2_else1 = tau_else8.at[st_else1].set(pd_hx_else1 - T_x_else1 + 10.0 * q[st_else1])
    tau_else2_else1 = tau_else8.at[st_else1].set(T_x_else1 + pd_hx_else1 + 10.0 * q[st_else1])
    tau_else9 = jnp.where(cond4_else1, tau_then2_else1, tau_else2_else1)
    tau_else10 = tau_else9.at[st_else1 + 1].set(20.0 * (0.0 - q[st_else1 + 1]) - 1.0 * qd[st_else1 + 1] + 10.0 * q[st_else1 + 1])
    tau_else11 = tau_else10.at[st_else1 + 3].set(300.0 * (-0.1 - q[st_else1 + 3]) - 10.0 * qd[st_else1 + 3])
    tau_else12 = tau_else11.at[0].set(150.0 * (0.0 - q[1]) - 10.0 * qd[1])
    tau_else13 = tau_else12.at[1].set(100.0 * (0.0 - q[0]) - 8.0 * qd[0])
    tau_else14 = tau_else13.at[2].set(150.0 * (0.0 - q[2]) - 10.0 * qd[2])
    tau_else15 = tau_else14.at[11:17].set(20.0 * (0.0 - q[11:17]) - 1.0 * qd[11:17])
    act_else1 = tau_else15 / TAU_MAX
    return jnp.where(cond5, jnp.clip(act_then1, -1.0, 1.0), jnp.clip(act_else1, -1.0, 1.0))
