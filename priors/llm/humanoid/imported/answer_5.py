# camel-jax prior
# task: humanoid
# model: claude (Anthropic; helper session, version not exposed)
# prompt: priors/prompts/paper_numpy_v2.md sha256:56c6fbe180f1d91027b4e26168204628aa1731c14386b0e6c04378e30ae7b970
# date: 2026-11-27T19:08:53Z
# validation: valid: (376,) -> (17,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations
# prompt_text: sha256:2c94e5f0e36f01229ab3bff7ee495c7d4a4f4bf11481bbd6b92b8c2275592e5d (the text of `camel-jax priors prompt --env humanoid --style paper`)
# answer: answer_5.md sha256:cc115d6f01f5f5026335d0d9cb35c6b86a617b16706accc2389cd980bd5231a3
# method: NumPy answer translated to jnp mechanically (camel_jax/priors/convert.py), equal to the answer within 6.0e-08 in float64 on 10000 rollout observations and 207 of the answer's own episodes; command: camel-jax priors import priors/llm/humanoid/answer_2.md priors/llm/humanoid/answer_3.md priors/llm/humanoid/answer_4.md priors/llm/humanoid/answer_5.md priors/llm/humanoid/answer_6.md --env humanoid --out priors/llm/humanoid/imported --model 'claude (Anthropic; helper session, version not exposed)' --timeout 600

import jax.numpy as jnp
GEAR = jnp.array([100, 100, 100, 100, 100, 300, 200, 100, 100, 300, 200, 25, 25, 25, 25, 25, 25], dtype=jnp.float64)
TMAX = 0.4 * GEAR
RIGHT = dict(hx=3, hz=4, hy=5, k=6, foot=5, side=-1.0, sx=+1.0, sroll=+1.0, syaw=-1.0)
LEFT = dict(hx=7, hz=8, hy=9, k=10, foot=8, side=+1.0, sx=-1.0, sroll=-1.0, syaw=+1.0)
V_TARGET = 0.5
PITCH_REF = 0.05
G = 9.81


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


def _sat(x, lim):
    return jnp.asarray(jnp.clip(x, -lim, lim), dtype=float)


def _body_state(o, q, pitch, roll, uz, to_h):
    """Feet / pelvis positions relative to the whole-body COM (heading frame),
    foot heights above the floor, COM velocity (heading frame), COM height."""
    cin = o[45:185].reshape(14, 10)[1:]
    cvl = o[185:269].reshape(14, 6)[1:]
    m = cin[:, 9]
    M = m.sum()
    cond3 = jnp.logical_and(jnp.logical_and(jnp.all(jnp.isfinite(cin)), jnp.all(m > 0.001)), jnp.logical_and(20.0 < M, M < 80.0))
    p_then2 = cin[:, 6:9] / m[:, None]
    cond1_then1 = p_then2[5, 2] + p_then2[8, 2] > 0.0
    p_then1_then1 = -p_then2
    p_then3 = jnp.where(cond1_then1, p_then1_then1, p_then2)
    vb_then1 = cvl[:, 3:6] + jnp.cross(cvl[:, 0:3], p_then3)
    vcom_then1 = (m[:, None] * vb_then1).sum(axis=0) / M
    zc_then1 = o[0] + 0.035 * uz - p_then3[0, 2]
    cond2_then1 = jnp.logical_and(jnp.isfinite(zc_then1), jnp.logical_and(0.3 < zc_then1, zc_then1 < 2.5))
    rf_then1_then1, rl_then1_then1 = to_h(p_then3[5])
    lf_then1_then1, ll_then1_then1 = to_h(p_then3[8])
    pf_then1_then1, pl_then1_then1 = to_h(p_then3[2])
    vf_then1_then1, vl_then1_then1 = to_h(vcom_then1)
    hr_then1_then1 = zc_then1 + p_then3[5, 2] - 0.075
    hl_then1_then1 = zc_then1 + p_then3[8, 2] - 0.075
    pel_pitch_else1_then1 = pitch + q[1]
    pel_roll_else1_then1 = roll - q[2]
    z_hip_else1_then1 = o[0] - 0.465 * jnp.cos(pitch) * jnp.cos(roll)
    com_f_else1_then1, com_l_else1_then1 = (0.12 * jnp.sin(pitch), 0.12 * jnp.sin(roll))
    feet_else1_then1 = []
    leg_else1_then1 = RIGHT
    th_else1_then1 = pel_pitch_else1_then1 + q[leg_else1_then1['hy']]
    sh_else1_then1 = th_else1_then1 - q[leg_else1_then1['k']]
    f_else1_then1 = -0.403 * jnp.sin(th_else1_then1) - 0.35 * jnp.sin(sh_else1_then1)
    d_else1_then1 = 0.403 * jnp.cos(th_else1_then1) + 0.35 * jnp.cos(sh_else1_then1)
    g_else1_then1 = -pel_roll_else1_then1 + leg_else1_then1['sx'] * q[leg_else1_then1['hx']]
    lat_else1_then1 = leg_else1_then1['side'] * 0.1 + d_else1_then1 * jnp.sin(g_else1_then1)
    h_else1_then1 = z_hip_else1_then1 - d_else1_then1 * jnp.cos(g_else1_then1) - 0.075
    feet_else2_then1 = feet_else1_then1 + [(f_else1_then1 - com_f_else1_then1, lat_else1_then1 - com_l_else1_then1, h_else1_then1)]
    leg_else2_then1 = LEFT
    th_else2_then1 = pel_pitch_else1_then1 + q[leg_else2_then1['hy']]
    sh_else2_then1 = th_else2_then1 - q[leg_else2_then1['k']]
    f_else2_then1 = -0.403 * jnp.sin(th_else2_then1) - 0.35 * jnp.sin(sh_else2_then1)
    d_else2_then1 = 0.403 * jnp.cos(th_else2_then1) + 0.35 * jnp.cos(sh_else2_then1)
    g_else2_then1 = -pel_roll_else1_then1 + leg_else2_then1['sx'] * q[leg_else2_then1['hx']]
    lat_else2_then1 = leg_else2_then1['side'] * 0.1 + d_else2_then1 * jnp.sin(g_else2_then1)
    h_else2_then1 = z_hip_else1_then1 - d_else2_then1 * jnp.cos(g_else2_then1) - 0.075
    feet_else3_then1 = feet_else2_then1 + [(f_else2_then1 - com_f_else1_then1, lat_else2_then1 - com_l_else1_then1, h_else2_then1)]
    (rf_else1_then1, rl_else1_then1, hr_else1_then1), (lf_else1_then1, ll_else1_then1, hl_else1_then1) = feet_else3_then1
    vf_else1_then1, vl_else1_then1 = to_h(o[22:25])
    pel_pitch_else2 = pitch + q[1]
    pel_roll_else2 = roll - q[2]
    z_hip_else2 = o[0] - 0.465 * jnp.cos(pitch) * jnp.cos(roll)
    com_f_else2, com_l_else2 = (0.12 * jnp.sin(pitch), 0.12 * jnp.sin(roll))
    feet_else4 = []
    leg_else3 = RIGHT
    th_else3 = pel_pitch_else2 + q[leg_else3['hy']]
    sh_else3 = th_else3 - q[leg_else3['k']]
    f_else3 = -0.403 * jnp.sin(th_else3) - 0.35 * jnp.sin(sh_else3)
    d_else3 = 0.403 * jnp.cos(th_else3) + 0.35 * jnp.cos(sh_else3)
    g_else3 = -pel_roll_else2 + leg_else3['sx'] * q[leg_else3['hx']]
    lat_else3 = leg_else3['side'] * 0.1 + d_else3 * jnp.sin(g_else3)
    h_else3 = z_hip_else2 - d_else3 * jnp.cos(g_else3) - 0.075
    feet_else5 = feet_else4 + [(f_else3 - com_f_else2, lat_else3 - com_l_else2, h_else3)]
    leg_else4 = LEFT
    th_else4 = pel_pitch_else2 + q[leg_else4['hy']]
    sh_else4 = th_else4 - q[leg_else4['k']]
    f_else4 = -0.403 * jnp.sin(th_else4) - 0.35 * jnp.sin(sh_else4)
    d_else4 = 0.403 * jnp.cos(th_else4) + 0.35 * jnp.cos(sh_else4)
    g_else4 = -pel_roll_else2 + leg_else4['sx'] * q[leg_else4['hx']]
    lat_else4 = leg_else4['side'] * 0.1 + d_else4 * jnp.sin(g_else4)
    h_else4 = z_hip_else2 - d_else4 * jnp.cos(g_else4) - 0.075
    feet_else6 = feet_else5 + [(f_else4 - com_f_else2, lat_else4 - com_l_else2, h_else4)]
    (rf_else2, rl_else2, hr_else2), (lf_else2, ll_else2, hl_else2) = feet_else6
    vf_else2, vl_else2 = to_h(o[22:25])
    return _where_tree(cond3, _where_tree(cond2_then1, (rf_then1_then1, rl_then1_then1, hr_then1_then1, lf_then1_then1, ll_then1_then1, hl_then1_then1, pf_then1_then1, pl_then1_then1, vf_then1_then1, vl_then1_then1, zc_then1), (rf_else1_then1, rl_else1_then1, hr_else1_then1, lf_else1_then1, ll_else1_then1, hl_else1_then1, -com_f_else1_then1 - 0.02, -com_l_else1_then1, vf_else1_then1, vl_else1_then1, z_hip_else1_then1 + 0.12)), (rf_else2, rl_else2, hr_else2, lf_else2, ll_else2, hl_else2, -com_f_else2 - 0.02, -com_l_else2, vf_else2, vl_else2, z_hip_else2 + 0.12))


def policy(obs):
    o = jnp.asarray(obs, dtype=jnp.float64).ravel()
    q = o[5:22]
    dq = o[28:45]
    T = jnp.zeros(17)
    qw, qx, qy, qz = o[1:5] / (jnp.linalg.norm(o[1:5]) + 1e-09)
    fx = 1 - 2 * (qy * qy + qz * qz)
    fy = 2 * (qx * qy + qw * qz)
    ux = 2 * (qx * qz + qw * qy)
    uy = 2 * (qy * qz - qw * qx)
    uz = 1 - 2 * (qx * qx + qy * qy)
    yaw = jnp.arctan2(fy, fx)
    cy, sy = (jnp.cos(yaw), jnp.sin(yaw))
    pitch = jnp.arcsin(jnp.clip(ux * cy + uy * sy, -1.0, 1.0))
    roll = jnp.arcsin(jnp.clip(-ux * sy + uy * cy, -1.0, 1.0))
    pitch_rate, roll_rate, yaw_rate = (o[26], -o[25], o[27])

    def to_h(v):
        return (v[0] * cy + v[1] * sy, -v[0] * sy + v[1] * cy)
    rf, rl, hr, lf, ll, hl, pf, pl, vf, vl, zc = _body_state(o, q, pitch, roll, uz, to_h)
    w0 = jnp.sqrt(G / jnp.clip(zc, 0.5, 1.5))
    xi_f, xi_l = (vf / w0, vl / w0)
    score_r = abs(rf - xi_f) + 15.0 * jnp.maximum(hr, 0.0)
    score_l = abs(lf - xi_f) + 15.0 * jnp.maximum(hl, 0.0)
    cond4 = score_r >= score_l
    sw_then1, st_then1, st_lat_then1 = (RIGHT, LEFT, ll)
    sw_else1, st_else1, st_lat_else1 = (LEFT, RIGHT, rl)
    sw = _where_tree(cond4, sw_then1, sw_else1)
    st = _where_tree(cond4, st_then1, st_else1)
    st_lat = jnp.where(cond4, st_lat_then1, st_lat_else1)
    aby, abx = (q[1], q[2])
    x_d = jnp.clip(xi_f - 0.05 + 0.15 * (vf - V_TARGET), -0.3, 0.4)
    beta = jnp.arcsin(jnp.clip((x_d - (pf + 0.02)) / 0.78, -0.6, 0.6))
    th_d = -beta
    th = pitch + aby + q[sw['hy']]
    hy_d = jnp.clip(th_d - pitch - aby, -1.4, 0.3)
    T_sw_y = _sat(250.0 * (hy_d - q[sw['hy']]) - 18.0 * dq[sw['hy']], TMAX[5])
    err = abs(th - th_d)
    k_d = -0.15 - 1.0 * jnp.clip((err - 0.08) / 0.25, 0.0, 1.0)
    T_sw_k = _sat(150.0 * (k_d - q[sw['k']]) - 6.0 * dq[sw['k']], TMAX[6])
    side = sw['side']
    y_d = xi_l + side * 0.08
    cond5 = side < 0
    y_d_then1 = jnp.minimum(jnp.maximum(y_d, -0.45), jnp.minimum(-0.03, st_lat - 0.17))
    y_d_else1 = jnp.maximum(jnp.minimum(y_d, 0.45), jnp.maximum(0.03, st_lat + 0.17))
    y_d = jnp.where(cond5, y_d_then1, y_d_else1)
    gam = jnp.arcsin(jnp.clip((y_d - (pl + side * 0.1)) / 0.78, -0.45, 0.45))
    hx_d = jnp.clip(sw['sx'] * (gam + roll - abx), -0.42, 0.08)
    T_sw_x = _sat(150.0 * (hx_d - q[sw['hx']]) - 8.0 * dq[sw['hx']], TMAX[3])
    T_sw_z = _sat(40.0 * (0.0 - q[sw['hz']]) - 3.0 * dq[sw['hz']], TMAX[4])
    tp = pitch + 0.5 * aby
    tpr = pitch_rate + 0.5 * dq[1]
    tr = roll - 0.5 * abx
    trr = roll_rate - 0.5 * dq[2]
    tau_p = -(400.0 * (tp - PITCH_REF) + 50.0 * tpr)
    tau_r = -(300.0 * tr + 30.0 * trr)
    tau_y = -(30.0 * yaw + 5.0 * yaw_rate)
    T_st_y = _sat(-tau_p - T_sw_y, TMAX[5])
    T_st_x = _sat((tau_r - sw['sroll'] * T_sw_x) / st['sroll'], TMAX[3])
    T_st_z = _sat((tau_y - sw['syaw'] * T_sw_z) / st['syaw'], 25.0)
    T_st_k = _sat(400.0 * (-0.05 - q[st['k']]) - 10.0 * dq[st['k']], TMAX[6])
    _item1, _item2, _item3, _item4 = (T_sw_x, T_sw_z, T_sw_y, T_sw_k)
    T = T.at[sw['hx']].set(_item1)
    T = T.at[sw['hz']].set(_item2)
    T = T.at[sw['hy']].set(_item3)
    T = T.at[sw['k']].set(_item4)
    _item5, _item6, _item7, _item8 = (T_st_x, T_st_z, T_st_y, T_st_k)
    T = T.at[st['hx']].set(_item5)
    T = T.at[st['hz']].set(_item6)
    T = T.at[st['hy']].set(_item7)
    T = T.at[st['k']].set(_item8)
    T = T.at[0].set(200.0 * (0.0 - q[1]) - 15.0 * dq[1])
    T = T.at[1].set(100.0 * (0.0 - q[0]) - 10.0 * dq[0])
    T = T.at[2].set(200.0 * (0.0 - q[2]) - 15.0 * dq[2])
    T = T.at[11:17].set(20.0 * (0.0 - q[11:17]) - 1.0 * dq[11:17])
    act = jnp.clip(T / TMAX, -1.0, 1.0)
    return act.astype(jnp.float32)
