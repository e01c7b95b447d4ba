# camel-jax prior
# task: ant
# model: claude (Anthropic; helper session, version not exposed)
# prompt: priors/prompts/paper_numpy_v2.md sha256:56c6fbe180f1d91027b4e26168204628aa1731c14386b0e6c04378e30ae7b970
# date: 2026-11-25T15:30:39Z
# validation: valid: (27,) -> (8,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations
# prompt_text: sha256:029a028937ece00229e448dedfa55ff9b08146b02431ac992d04ca640741977f (the text of `camel-jax priors prompt --env ant --style paper`)
# answer: answer_7.md sha256:b4bfd5320d0f6aa4bc32af0842d85eed65b84894fdb061696460dea351741964
# method: NumPy answer translated to jnp mechanically (camel_jax/priors/convert.py), equal to the answer within 5.3e-16 in float64 on 10000 rollout observations and 1124 of the answer's own episodes; command: camel-jax priors import priors/llm/ant/answer_6.md priors/llm/ant/answer_7.md priors/llm/ant/answer_8.md priors/llm/ant/answer_9.md priors/llm/ant/answer_10.md --env ant --out priors/llm/ant/imported_v2 --model 'claude (Anthropic; helper session, version not exposed)'

import jax.numpy as jnp
_F = jnp.array([-1.0, -1.0, 1.0, 1.0])
_D = jnp.array([1.0, -1.0, -1.0, 1.0])
_DX = jnp.array([1.0, -1.0, -1.0, 1.0])
_DY = jnp.array([1.0, 1.0, -1.0, -1.0])
_A = 0.38
_P_DOWN = 0.95
_P_UP = 0.58
_KP_H, _KD_H = (1.0, 0.08)
_KP_A, _KD_A = (1.2, 0.1)
_K_TILT, _K_TILT_RATE = (0.7, 0.05)
_K_YAW = 0.8


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


def policy(obs):
    o = jnp.asarray(obs, dtype=jnp.float64).ravel()
    cond2 = jnp.logical_or(o.shape[0] < 27, jnp.logical_not(jnp.all(jnp.isfinite(o))))
    quat_else1 = o[1:5]
    n_else1 = jnp.linalg.norm(quat_else1)
    w_else1, x_else1, y_else1, z_else1 = _where_tree(n_else1 > 1e-08, quat_else1 / n_else1, (1.0, 0.0, 0.0, 0.0))
    up_z_else1 = 1.0 - 2.0 * (x_else1 * x_else1 + y_else1 * y_else1)
    cond1_else1 = up_z_else1 < -0.2
    zx_else1_else1 = 2.0 * (x_else1 * z_else1 + w_else1 * y_else1)
    zy_else1_else1 = 2.0 * (y_else1 * z_else1 - w_else1 * x_else1)
    yaw_else1_else1 = jnp.arctan2(2.0 * (w_else1 * z_else1 + x_else1 * y_else1), 1.0 - 2.0 * (y_else1 * y_else1 + z_else1 * z_else1))
    wx_else1_else1, wy_else1_else1, wz_else1_else1 = (o[16], o[17], o[18])
    hip_q_else1_else1, ank_q_else1_else1 = (o[5:13:2], o[6:13:2])
    hip_v_else1_else1, ank_v_else1_else1 = (o[19:27:2], o[20:27:2])
    h_else1_else1 = _F * hip_q_else1_else1
    p_else1_else1 = _D * ank_q_else1_else1
    pA_else1_else1, pB_else1_else1 = (0.5 * (p_else1_else1[0] + p_else1_else1[2]), 0.5 * (p_else1_else1[1] + p_else1_else1[3]))
    hA_else1_else1, hB_else1_else1 = (0.5 * (h_else1_else1[0] + h_else1_else1[2]), 0.5 * (h_else1_else1[1] + h_else1_else1[3]))
    a_stance_else1_else1 = pA_else1_else1 >= pB_else1_else1
    hS_else1_else1, hW_else1_else1 = _where_tree(a_stance_else1_else1, (hA_else1_else1, hB_else1_else1), (hB_else1_else1, hA_else1_else1))
    transition_else1_else1 = hW_else1_else1 - hS_else1_else1 > 1.4 * _A
    stance_else1_else1 = jnp.array([a_stance_else1_else1, jnp.logical_not(a_stance_else1_else1), a_stance_else1_else1, jnp.logical_not(a_stance_else1_else1)])
    press_else1_else1 = jnp.logical_xor(stance_else1_else1, transition_else1_else1)
    p_des_else1_else1 = jnp.where(press_else1_else1, _P_DOWN, _P_UP)
    tilt_else1_else1 = zx_else1_else1 * _DX + zy_else1_else1 * _DY
    tilt_rate_else1_else1 = wy_else1_else1 * _DX - wx_else1_else1 * _DY
    p_des_else2_else1 = p_des_else1_else1 + _K_TILT * tilt_else1_else1 + _K_TILT_RATE * tilt_rate_else1_else1
    p_des_else3_else1 = jnp.clip(p_des_else2_else1, 0.56, 1.18)
    e_else1_else1 = jnp.clip(yaw_else1_else1 + 0.15 * wz_else1_else1, -0.6, 0.6)
    amp_else1_else1 = jnp.clip(_A * (1.0 + _K_YAW * e_else1_else1 * _DY), 0.12, 0.48)
    h_des_else1_else1 = jnp.where(stance_else1_else1, -amp_else1_else1, amp_else1_else1)
    q_hip_des_else1_else1 = _F * h_des_else1_else1
    q_ank_des_else1_else1 = _D * p_des_else3_else1
    u_hip_else1_else1 = _KP_H * (q_hip_des_else1_else1 - hip_q_else1_else1) - _KD_H * hip_v_else1_else1
    u_ank_else1_else1 = _KP_A * (q_ank_des_else1_else1 - ank_q_else1_else1) - _KD_A * ank_v_else1_else1
    act_else1_else1 = jnp.array([u_hip_else1_else1[3], u_ank_else1_else1[3], u_hip_else1_else1[0], u_ank_else1_else1[0], u_hip_else1_else1[1], u_ank_else1_else1[1], u_hip_else1_else1[2], u_ank_else1_else1[2]])
    return jnp.where(cond2, jnp.zeros(8), jnp.where(cond1_else1, jnp.zeros(8), jnp.clip(act_else1_else1, -1.0, 1.0)))
