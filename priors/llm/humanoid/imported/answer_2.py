# camel-jax prior
# task: humanoid
# model: claude (Anthropic; helper session, version not exposed)
# prompt: priors/prompts/paper_numpy_v2.md sha256:56c6fbe180f1d91027b4e26168204628aa1731c14386b0e6c04378e30ae7b970
# date: 2026-11-27T19:05:48Z
# validation: valid: (376,) -> (17,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations
# prompt_text: sha256:2c94e5f0e36f01229ab3bff7ee495c7d4a4f4bf11481bbd6b92b8c2275592e5d (the text of `camel-jax priors prompt --env humanoid --style paper`)
# answer: answer_2.md sha256:e253111a94988845f1779e50c26e71691f34a8dbf9cf778f09b0192e34abbe2b
# method: NumPy answer translated to jnp mechanically (camel_jax/priors/convert.py), equal to the answer within 3.2e-15 in float64 on 10000 rollout observations and 244 of the answer's own episodes; command: camel-jax priors import priors/llm/humanoid/answer_2.md priors/llm/humanoid/answer_3.md priors/llm/humanoid/answer_4.md priors/llm/humanoid/answer_5.md priors/llm/humanoid/answer_6.md --env humanoid --out priors/llm/humanoid/imported --model 'claude (Anthropic; helper session, version not exposed)' --timeout 600

import jax.numpy as jnp
_GEAR = jnp.array([100, 100, 100, 100, 100, 300, 200, 100, 100, 300, 200, 25, 25, 25, 25, 25, 25], dtype=float)
_TMAX = 0.4 * _GEAR
_M_TORSO, _M_ARMS, _M_LWAIST, _M_PELVIS = (8.9, 5.8, 2.26, 6.6)
_M_THIGH, _M_SHIN, _M_FOOT = (4.75, 2.76, 1.77)
_M_TOTAL = _M_TORSO + _M_ARMS + _M_LWAIST + _M_PELVIS + 2.0 * (_M_THIGH + _M_SHIN + _M_FOOT)
_FOOT_R = 0.075
_LEG_L = 0.75
_G = 9.81
_V_DES = 0.6
_B_X = 0.05
_K_VX = 0.15
_B_Y = 0.05
_K_VY = 0.1
_MIN_WIDTH = 0.15
_PITCH_D = 0.03
_CONTACT_DZ = 0.03


def _where_tree1(c, a, b):
    """jnp.where(c, a, b) leaf by leaf over tuples, lists and dicts of one structure, nested at most 1 deep."""
    if not isinstance(a, (tuple, list, dict, jnp.ndarray, int, float, complex)):
        a = dict(a)
    if not isinstance(b, (tuple, list, dict, jnp.ndarray, int, float, complex)):
        b = dict(b)
    if isinstance(a, dict) and isinstance(b, dict) and (list(a) == list(b)):
        return dict(zip(a, map(lambda k: jnp.where(c, a[k], b[k]), a)))
    if isinstance(a, tuple) and isinstance(b, tuple) and (len(a) == len(b)):
        return tuple(map(lambda x, y: jnp.where(c, x, y), a, b))
    if isinstance(a, list) and isinstance(b, list) and (len(a) == len(b)):
        return list(map(lambda x, y: jnp.where(c, x, y), a, b))
    if isinstance(a, (tuple, list, dict)) and isinstance(b, (tuple, list, dict)):
        return jnp.where(c, a, b)
    return jnp.where(c, jnp.asarray(a), jnp.asarray(b))


def _where_tree2(c, a, b):
    """jnp.where(c, a, b) leaf by leaf over tuples, lists and dicts of one structure, nested at most 2 deep."""
    if not isinstance(a, (tuple, list, dict, jnp.ndarray, int, float, complex)):
        a = dict(a)
    if not isinstance(b, (tuple, list, dict, jnp.ndarray, int, float, complex)):
        b = dict(b)
    if isinstance(a, dict) and isinstance(b, dict) and (list(a) == list(b)):
        return dict(zip(a, map(lambda k: _where_tree1(c, a[k], b[k]), a)))
    if isinstance(a, tuple) and isinstance(b, tuple) and (len(a) == len(b)):
        return tuple(map(lambda x, y: _where_tree1(c, x, y), a, b))
    if isinstance(a, list) and isinstance(b, list) and (len(a) == len(b)):
        return list(map(lambda x, y: _where_tree1(c, x, y), a, b))
    if isinstance(a, (tuple, list, dict)) and isinstance(b, (tuple, list, dict)):
        return jnp.where(c, a, b)
    return jnp.where(c, jnp.asarray(a), jnp.asarray(b))


def _where_tree3(c, a, b):
    """jnp.where(c, a, b) leaf by leaf over tuples, lists and dicts of one structure, nested at most 3 deep."""
    if not isinstance(a, (tuple, list, dict, jnp.ndarray, int, float, complex)):
        a = dict(a)
    if not isinstance(b, (tuple, list, dict, jnp.ndarray, int, float, complex)):
        b = dict(b)
    if isinstance(a, dict) and isinstance(b, dict) and (list(a) == list(b)):
        return dict(zip(a, map(lambda k: _where_tree2(c, a[k], b[k]), a)))
    if isinstance(a, tuple) and isinstance(b, tuple) and (len(a) == len(b)):
        return tuple(map(lambda x, y: _where_tree2(c, x, y), a, b))
    if isinstance(a, list) and isinstance(b, list) and (len(a) == len(b)):
        return list(map(lambda x, y: _where_tree2(c, x, y), a, b))
    if isinstance(a, (tuple, list, dict)) and isinstance(b, (tuple, list, dict)):
        return jnp.where(c, a, b)
    return jnp.where(c, jnp.asarray(a), jnp.asarray(b))


def _where_tree(c, a, b):
    """jnp.where(c, a, b) leaf by leaf over tuples, lists and dicts of one structure, nested at most 4 deep."""
    if not isinstance(a, (tuple, list, dict, jnp.ndarray, int, float, complex)):
        a = dict(a)
    if not isinstance(b, (tuple, list, dict, jnp.ndarray, int, float, complex)):
        b = dict(b)
    if isinstance(a, dict) and isinstance(b, dict) and (list(a) == list(b)):
        return dict(zip(a, map(lambda k: _where_tree3(c, a[k], b[k]), a)))
    if isinstance(a, tuple) and isinstance(b, tuple) and (len(a) == len(b)):
        return tuple(map(lambda x, y: _where_tree3(c, x, y), a, b))
    if isinstance(a, list) and isinstance(b, list) and (len(a) == len(b)):
        return list(map(lambda x, y: _where_tree3(c, x, y), a, b))
    if isinstance(a, (tuple, list, dict)) and isinstance(b, (tuple, list, dict)):
        return jnp.where(c, a, b)
    return jnp.where(c, jnp.asarray(a), jnp.asarray(b))


def _rx(a):
    c, s = (jnp.cos(a), jnp.sin(a))
    return jnp.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def _ry(a):
    c, s = (jnp.cos(a), jnp.sin(a))
    return jnp.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def _rz(a):
    c, s = (jnp.cos(a), jnp.sin(a))
    return jnp.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def _quat2mat(q):
    q = q / (jnp.linalg.norm(q) + 1e-12)
    w, x, y, z = q
    return jnp.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])


def _leg_fk(o_pv, R_pv, hx, hz, hy, kn, side):
    """Forward kinematics of one leg (side = -1 right, +1 left).
    Points are world-oriented and relative to the torso origin."""
    cond1 = side < 0
    R_hip_then1 = _rx(hx) @ _rz(hz) @ _ry(hy)
    R_hip_else1 = _rx(-hx) @ _rz(-hz) @ _ry(hy)
    R_hip = jnp.where(cond1, R_hip_then1, R_hip_else1)
    hip = o_pv + R_pv @ jnp.array([0.0, 0.1 * side, -0.04])
    R_th = R_pv @ R_hip
    knee = hip + R_th @ jnp.array([0.0, -0.01 * side, -0.383])
    R_sh = R_th @ _ry(-kn)
    foot = knee + R_sh @ jnp.array([0.0, 0.0, -0.37])
    shin_c = knee + R_sh @ jnp.array([0.0, 0.0, -0.17])
    thigh_c = 0.5 * (hip + knee)
    return (hip, knee, foot, thigh_c, shin_c)


def policy(obs):
    o = jnp.nan_to_num(jnp.asarray(obs, dtype=float).ravel())
    z_torso = o[0]
    R0 = _quat2mat(o[1:5])
    qaz, qay, qax = (o[5], o[6], o[7])
    rhx, rhz, rhy, rkn = (o[8], o[9], o[10], o[11])
    lhx, lhz, lhy, lkn = (o[12], o[13], o[14], o[15])
    q_arm = o[16:22]
    v_torso = o[22:25]
    w_world = R0 @ o[25:28]
    dqaz, dqay, dqax = (o[28], o[29], o[30])
    drhx, drhz, drhy, drkn = (o[31], o[32], o[33], o[34])
    dlhx, dlhz, dlhy, dlkn = (o[35], o[36], o[37], o[38])
    dq_arm = o[39:45]
    R_lw = R0 @ _rz(qaz) @ _ry(qay)
    o_lw = R0 @ jnp.array([-0.01, 0.0, -0.195]) - R_lw @ jnp.array([0.0, 0.0, 0.065])
    R_pv = R_lw @ _rx(qax)
    o_pv = o_lw + R_lw @ jnp.array([0.0, 0.0, -0.065]) - R_pv @ jnp.array([0.0, 0.0, 0.1])
    hip_r, knee_r, foot_r, thc_r, shc_r = _leg_fk(o_pv, R_pv, rhx, rhz, rhy, rkn, -1.0)
    hip_l, knee_l, foot_l, thc_l, shc_l = _leg_fk(o_pv, R_pv, lhx, lhz, lhy, lkn, +1.0)
    com = (_M_TORSO * (R0 @ jnp.array([-0.0025, 0.0, 0.035])) + _M_ARMS * (R0 @ jnp.array([0.16, 0.0, -0.02])) + _M_LWAIST * o_lw + _M_PELVIS * (o_pv + R_pv @ jnp.array([-0.02, 0.0, 0.0])) + _M_THIGH * (thc_r + thc_l) + _M_SHIN * (shc_r + shc_l) + _M_FOOT * (foot_r + foot_l)) / _M_TOTAL
    fwd = R_pv[:, 0]
    n = jnp.hypot(fwd[0], fwd[1]) + 1e-09
    h = jnp.array([fwd[0] / n, fwd[1] / n, 0.0])
    l = jnp.array([-h[1], h[0], 0.0])
    up_p, up_t = (R_pv[:, 2], R0[:, 2])
    phi_p = jnp.arctan2(up_p @ h, up_p[2])
    psi_p = jnp.arctan2(up_p @ l, up_p[2])
    phi_t = jnp.arctan2(up_t @ h, up_t[2])
    psi_t = jnp.arctan2(up_t @ l, up_t[2])
    dphi_t = w_world @ l
    dpsi_t = -(w_world @ h)
    dphi_p = dphi_t + dqay
    dpsi_p = dpsi_t - dqax
    v_com = v_torso + jnp.cross(w_world, com)
    vf, vl = (v_com @ h, v_com @ l)
    zc = jnp.maximum(z_torso + com[2], 0.4)
    Tc = jnp.sqrt(zc / _G)

    def hor(p):
        d = p - com
        return (d @ h, d @ l)
    fxr, fyr = hor(foot_r)
    fxl, fyl = hor(foot_l)
    hxr, hyr = hor(hip_r)
    hxl, hyl = hor(hip_l)

    def thigh_angles(hip, knee):
        d = knee - hip
        return (jnp.arctan2(d @ h, -d[2]), jnp.arctan2(d @ l, -d[2]))
    thr, alr = thigh_angles(hip_r, knee_r)
    thl, alL = thigh_angles(hip_l, knee_l)
    dthr, dthl = (-dphi_p - drhy, -dphi_p - dlhy)
    dalr, dalL = (-dpsi_p + drhx, -dpsi_p - dlhx)
    zr = z_torso + foot_r[2] - _FOOT_R
    zl = z_torso + foot_l[2] - _FOOT_R
    cond3 = zr - zl > _CONTACT_DZ
    right_swing_then2 = True
    cond2_else1 = zl - zr > _CONTACT_DZ
    right_swing_then1_else1 = False
    xi_f_else1_else1, xi_l_else1_else1 = (Tc * vf, Tc * vl)
    dr_else1_else1 = (fxr - xi_f_else1_else1) ** 2 + (fyr - xi_l_else1_else1) ** 2
    dl_else1_else1 = (fxl - xi_f_else1_else1) ** 2 + (fyl - xi_l_else1_else1) ** 2
    right_swing_else1_else1 = dr_else1_else1 > dl_else1_else1
    right_swing_else2 = jnp.where(cond2_else1, right_swing_then1_else1, right_swing_else1_else1)
    right_swing = jnp.where(cond3, right_swing_then2, right_swing_else2)
    RL = dict(fx=fxr, fy=fyr, hx=hxr, hy=hyr, th=thr, al=alr, dth=dthr, dal=dalr, kn=rkn, dkn=drkn, s=+1.0, lat=-1.0)
    LL = dict(fx=fxl, fy=fyl, hx=hxl, hy=hyl, th=thl, al=alL, dth=dthl, dal=dalL, kn=lkn, dkn=dlkn, s=-1.0, lat=+1.0)
    sw, st = _where_tree(right_swing, (RL, LL), (LL, RL))
    x_t = Tc * vf - _B_X + _K_VX * (vf - _V_DES)
    x_t = jnp.asarray(jnp.clip(x_t, -0.25, 0.45), dtype=float)
    vl_des = jnp.asarray(jnp.clip(-_V_DES * h[1], -0.2, 0.2), dtype=float)
    y_t = Tc * vl + sw['lat'] * _B_Y + _K_VY * (vl - vl_des)
    cond4 = sw['lat'] < 0
    y_t_then1 = jnp.minimum(y_t, st['fy'] - _MIN_WIDTH)
    y_t_else1 = jnp.maximum(y_t, st['fy'] + _MIN_WIDTH)
    y_t = jnp.where(cond4, y_t_then1, y_t_else1)
    y_t = jnp.asarray(jnp.clip(y_t, -0.45, 0.45), dtype=float)
    th_d = jnp.asarray(jnp.clip(jnp.arcsin(jnp.clip((x_t - sw['hx']) / _LEG_L, -0.6, 0.7)), -0.3, 0.75), dtype=float)
    al_d = jnp.asarray(jnp.arcsin(jnp.clip((y_t - sw['hy']) / _LEG_L, -0.45, 0.45)), dtype=float)
    tau_sw_f = jnp.asarray(jnp.clip(200.0 * (th_d - sw['th']) - 20.0 * sw['dth'], -120.0, 120.0), dtype=float)
    tau_sw_a = jnp.asarray(jnp.clip(150.0 * (al_d - sw['al']) - 15.0 * sw['dal'], -40.0, 40.0), dtype=float)
    e = th_d - sw['th']
    kn_sw_d = -0.1 - 0.9 * jnp.asarray(jnp.clip((e - 0.1) / 0.3, 0.0, 1.0), dtype=float)
    cond5 = jnp.logical_and(x_t > st['fx'] + 0.05, sw['fx'] < st['fx'] + 0.02)
    kn_sw_d_then1 = jnp.minimum(kn_sw_d, -0.7)
    kn_sw_d = jnp.where(cond5, kn_sw_d_then1, kn_sw_d)
    u_kn_sw = 150.0 * (kn_sw_d - sw['kn']) - 10.0 * sw['dkn']
    tau_pitch = 500.0 * (_PITCH_D - phi_p) - 60.0 * dphi_p
    tau_st_f = jnp.asarray(jnp.clip(tau_pitch - tau_sw_f, -120.0, 120.0), dtype=float)
    tau_roll = 300.0 * (0.0 - psi_p) - 30.0 * dpsi_p
    tau_st_a = jnp.asarray(jnp.clip(tau_roll - tau_sw_a, -40.0, 40.0), dtype=float)
    u_kn_st = 300.0 * (-0.1 - st['kn']) - 15.0 * st['dkn']
    u_hy_sw, u_hy_st = (-tau_sw_f, -tau_st_f)
    u_hx_sw, u_hx_st = (sw['s'] * tau_sw_a, st['s'] * tau_st_a)
    cond6 = right_swing
    u_r_then1 = (u_hx_sw, u_hy_sw, u_kn_sw)
    u_l_then1 = (u_hx_st, u_hy_st, u_kn_st)
    u_r_else1 = (u_hx_st, u_hy_st, u_kn_st)
    u_l_else1 = (u_hx_sw, u_hy_sw, u_kn_sw)
    u_r = _where_tree(cond6, u_r_then1, u_r_else1)
    u_l = _where_tree(cond6, u_l_then1, u_l_else1)
    u = jnp.zeros(17)
    u = u.at[0].set(120.0 * (phi_t - _PITCH_D) + 12.0 * dphi_t)
    u = u.at[1].set(-60.0 * qaz - 6.0 * dqaz)
    u = u.at[2].set(-80.0 * psi_t - 8.0 * dpsi_t)
    _item1, _item2, _item3 = u_r
    u = u.at[3].set(_item1)
    u = u.at[5].set(_item2)
    u = u.at[6].set(_item3)
    u = u.at[4].set(-40.0 * rhz - 4.0 * drhz)
    _item4, _item5, _item6 = u_l
    u = u.at[7].set(_item4)
    u = u.at[9].set(_item5)
    u = u.at[10].set(_item6)
    u = u.at[8].set(-40.0 * lhz - 4.0 * dlhz)
    u = u.at[11:17].set(-20.0 * q_arm - 2.0 * dq_arm)
    act = jnp.clip(u / _TMAX, -1.0, 1.0)
    return act
