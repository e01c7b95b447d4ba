# camel-jax prior
# task: walker2d
# model: claude (Anthropic; helper session, version not exposed)
# prompt: priors/prompts/paper_numpy_v1.md sha256:490f13e87a168499fe4b940a9fc5c519a0af4a61213be90f98797ffdde8bf539
# date: 2026-11-25T15:27:48Z
# validation: valid: (17,) -> (6,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations
# prompt_text: sha256:e0b4eca8ceae197a7d01dc444ba5bad0c933cf2a7d5c701474468ef46630787c (the text of `camel-jax priors prompt --env walker2d --style paper-verbatim`)
# answer: answer_4.md sha256:44753b3cd2b0ea67957bba4793eea87eee4f4970703fc821a2cca7f81632993c
# method: NumPy answer translated to jnp mechanically (camel_jax/priors/convert.py), equal to the answer within 6.0e-08 in float64 on 10000 rollout observations and 473 of the answer's own episodes; command: camel-jax priors import priors/llm/walker2d/answer_1.md priors/llm/walker2d/answer_2.md priors/llm/walker2d/answer_3.md priors/llm/walker2d/answer_4.md priors/llm/walker2d/answer_5.md --env walker2d --out priors/llm/walker2d/imported --model 'claude (Anthropic; helper session, version not exposed)' --style paper-verbatim

import jax.numpy as jnp
L_THIGH, L_SHIN, L_FOOT, R_FOOT = (0.45, 0.5, 0.2, 0.06)
L_TORSO_C = 0.2
LEG_LEN = L_THIGH + L_SHIN
M_TORSO, M_THIGH, M_SHIN, M_FOOT = (3.665, 4.058, 2.781, 3.167)
M_TOTAL = M_TORSO + 2.0 * (M_THIGH + M_SHIN + M_FOOT)
PITCH_SIGN = 1.0
PITCH_DES = -0.3
V_DES = 0.8
C_CAP = 0.25
C_V = 0.1
MARGIN = 0.05
DS_EPS = 0.025
KNEE_SW = 1.05
KP_T, KD_T = (1.2, 0.12)
KP_SH, KD_SH = (2.0, 0.2)
KP_K, KD_K = (2.0, 0.15)
KP_AS, KD_AS = (0.8, 0.03)
KP_AT, KD_AT = (0.4, 0.03)


def _where_tree1(c, a, b):
    """jnp.where(c, a, b) leaf by leaf over tuples, lists and dicts of one structure, nested at most 1 deep."""
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
    if isinstance(a, dict) and isinstance(b, dict) and (list(a) == list(b)):
        return dict(zip(a, map(lambda k: _where_tree3(c, a[k], b[k]), a)))
    if isinstance(a, tuple) and isinstance(b, tuple) and (len(a) == len(b)):
        return tuple(map(lambda x, y: _where_tree3(c, x, y), a, b))
    if isinstance(a, list) and isinstance(b, list) and (len(a) == len(b)):
        return list(map(lambda x, y: _where_tree3(c, x, y), a, b))
    if isinstance(a, (tuple, list, dict)) and isinstance(b, (tuple, list, dict)):
        return jnp.where(c, a, b)
    return jnp.where(c, jnp.asarray(a), jnp.asarray(b))


def _leg(p, dp, q, dq):
    """Planar kinematics of one leg relative to the hip (x forward, z up)."""
    qh, qk, qa = (jnp.asarray(q[0], dtype=float), jnp.asarray(q[1], dtype=float), jnp.asarray(q[2], dtype=float))
    dqh, dqk, dqa = (jnp.asarray(dq[0], dtype=float), jnp.asarray(dq[1], dtype=float), jnp.asarray(dq[2], dtype=float))
    th_t, w_t = (p - qh, dp - dqh)
    th_s, w_s = (th_t - qk, w_t - dqk)
    th_f, w_f = (th_s - qa, w_s - dqa)
    knee_x, knee_z = (-L_THIGH * jnp.sin(th_t), -L_THIGH * jnp.cos(th_t))
    ank_x = knee_x - L_SHIN * jnp.sin(th_s)
    ank_z = knee_z - L_SHIN * jnp.cos(th_s)
    toe_z = ank_z - L_FOOT * jnp.sin(th_f)
    knee_vx = -L_THIGH * jnp.cos(th_t) * w_t
    ank_vx = knee_vx - L_SHIN * jnp.cos(th_s) * w_s
    foot_cx = ank_x + 0.5 * L_FOOT * jnp.cos(th_f)
    foot_cvx = ank_vx - 0.5 * L_FOOT * jnp.sin(th_f) * w_f
    mx = M_THIGH * 0.5 * knee_x + M_SHIN * 0.5 * (knee_x + ank_x) + M_FOOT * foot_cx
    mvx = M_THIGH * 0.5 * knee_vx + M_SHIN * 0.5 * (knee_vx + ank_vx) + M_FOOT * foot_cvx
    return {'q': (qh, qk, qa), 'dq': (dqh, dqk, dqa), 'phi': -th_t, 'dphi': -w_t, 'th_s': th_s, 'ank_x': ank_x, 'low': jnp.minimum(ank_z, toe_z) - R_FOOT, 'mx': mx, 'mvx': mvx}


def policy(obs):
    o = jnp.asarray(obs, dtype=jnp.float64).ravel()
    p, dp = (PITCH_SIGN * o[1], PITCH_SIGN * o[10])
    right = _leg(p, dp, o[2:5], o[11:14])
    left = _leg(p, dp, o[5:8], o[14:17])
    tor_x = L_TORSO_C * jnp.sin(p)
    tor_vx = L_TORSO_C * jnp.cos(p) * dp
    com_x = (M_TORSO * tor_x + right['mx'] + left['mx']) / M_TOTAL
    hip_vx = o[8] - L_TORSO_C * jnp.cos(p) * dp
    com_vx = hip_vx + (M_TORSO * tor_vx + right['mvx'] + left['mvx']) / M_TOTAL
    cond1 = abs(right['low'] - left['low']) < DS_EPS
    right_stance_then1 = right['ank_x'] >= left['ank_x']
    right_stance_else1 = right['low'] < left['low']
    right_stance = jnp.where(cond1, right_stance_then1, right_stance_else1)
    st, sw = _where_tree(right_stance, (right, left), (left, right))
    v = jnp.asarray(jnp.clip(com_vx, -2.0, 3.0), dtype=float)
    delta = C_CAP * v + C_V * (v - V_DES) - MARGIN
    phi_d = jnp.asarray(jnp.arcsin(jnp.clip((com_x + delta) / LEG_LEN, -0.8, 0.8)), dtype=float)
    phi_d = jnp.minimum(jnp.maximum(phi_d, -0.6), -p - 0.03)
    tau_torso = KP_T * (PITCH_DES - p) - KD_T * dp
    a_sw_hip = jnp.asarray(jnp.clip(KP_SH * (phi_d - sw['phi']) - KD_SH * sw['dphi'], -0.9, 0.9), dtype=float)
    a_st_hip = tau_torso - a_sw_hip
    s = jnp.asarray(jnp.clip((phi_d - sw['phi'] - 0.04) / 0.25, 0.0, 1.0), dtype=float)
    knee_sw_d = -0.05 - KNEE_SW * s
    a_sw_knee = KP_K * (knee_sw_d - sw['q'][1]) - KD_K * sw['dq'][1]
    a_st_knee = KP_K * (-0.05 - st['q'][1]) - KD_K * st['dq'][1]
    qa_sw_d = jnp.asarray(jnp.clip(sw['th_s'] + 0.1, -0.75, 0.75), dtype=float)
    a_sw_ank = KP_AS * (qa_sw_d - sw['q'][2]) - KD_AS * sw['dq'][2]
    qa_st_d = jnp.asarray(jnp.clip(st['th_s'], -0.75, 0.75), dtype=float)
    a_st_ank = KP_AT * (qa_st_d - st['q'][2]) - KD_AT * st['dq'][2]
    st_a = [a_st_hip, a_st_knee, a_st_ank]
    sw_a = [a_sw_hip, a_sw_knee, a_sw_ank]
    act = jnp.array(_where_tree(right_stance, st_a + sw_a, sw_a + st_a), dtype=jnp.float64)
    return jnp.clip(act, -1.0, 1.0).astype(jnp.float32)
