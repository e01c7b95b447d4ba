# camel-jax prior
# task: ant
# model: claude (Anthropic; helper session, version not exposed)
# prompt: priors/prompts/paper_numpy_v2.md sha256:56c6fbe180f1d91027b4e26168204628aa1731c14386b0e6c04378e30ae7b970
# date: 2026-11-25T15:32:57Z
# validation: valid: (27,) -> (8,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations
# prompt_text: sha256:029a028937ece00229e448dedfa55ff9b08146b02431ac992d04ca640741977f (the text of `camel-jax priors prompt --env ant --style paper`)
# answer: answer_10.md sha256:92a6aa6ca84a5cd438af9cabe94221806aea33c4f5611c1650d47662ccf9845e
# method: NumPy answer translated to jnp mechanically (camel_jax/priors/convert.py), equal to the answer within 1.0e-15 in float64 on 10000 rollout observations and 3000 of the answer's own episodes; command: camel-jax priors import priors/llm/ant/answer_6.md priors/llm/ant/answer_7.md priors/llm/ant/answer_8.md priors/llm/ant/answer_9.md priors/llm/ant/answer_10.md --env ant --out priors/llm/ant/imported_v2 --model 'claude (Anthropic; helper session, version not exposed)'

import jax.numpy as jnp


def policy(obs):
    obs = jnp.asarray(obs, dtype=jnp.float64)
    z = obs[0]
    qw, qx, qy, qz = (obs[1], obs[2], obs[3], obs[4])
    wz = obs[18]
    hq = jnp.array([obs[5], obs[7], obs[9], obs[11]])
    aq = jnp.array([obs[6], obs[8], obs[10], obs[12]])
    hv = jnp.array([obs[19], obs[21], obs[23], obs[25]])
    av = jnp.array([obs[20], obs[22], obs[24], obs[26]])
    rho = jnp.array([-1.0, -1.0, 1.0, 1.0])
    sig = jnp.array([1.0, -1.0, 1.0, -1.0])
    asg = jnp.array([1.0, -1.0, -1.0, 1.0])
    fx = jnp.array([1.0, -1.0, -1.0, 1.0])
    fy = jnp.array([1.0, 1.0, -1.0, -1.0])
    roll = jnp.arctan2(2.0 * (qw * qx + qy * qz), 1.0 - 2.0 * (qx * qx + qy * qy))
    pitch = jnp.arcsin(jnp.clip(2.0 * (qw * qy - qz * qx), -1.0, 1.0))
    yaw = jnp.arctan2(2.0 * (qw * qz + qx * qy), 1.0 - 2.0 * (qy * qy + qz * qz))
    s = rho * hq
    sd = rho * hv
    x = jnp.mean(sig * s)
    v = jnp.mean(sig * sd)
    W = 10.5
    A = 0.4
    r = jnp.sqrt(x * x + (v / W) ** 2)
    theta = jnp.arctan2(-v / W, x)
    mu = 6.0
    c0 = 0.5 * W * W * 0.05 - 1.0
    damp = jnp.clip(mu * (1.0 - r * r / (A * A)), -15.0, mu) - c0
    f = -W * W * x + damp * v
    cond1 = r < 0.03
    f_then1 = f + 20.0
    f = jnp.where(cond1, f_then1, f)
    turn = jnp.clip(1.0 * yaw + 0.15 * wz, -0.25, 0.25)
    g = 1.0 + turn * fy
    K, C = (100.0, 10.0)
    tgt_s = sig * g * x
    tgt_v = sig * g * v
    u_s = (sig * g * f + K * (tgt_s - s) + C * (tgt_v - sd)) / 150.0
    hip_act = rho * u_s
    lead = 0.7
    cA = jnp.clip(2.5 * jnp.sin(theta + lead), -1.0, 1.0)
    cA = cA * jnp.clip(r / (0.5 * A), 0.0, 1.0)
    c = sig * cA
    bal = jnp.clip(0.6 * (pitch * fx - roll * fy), -0.2, 0.2)
    D = 0.92 + 0.22 * c + bal - 1.5 * jnp.maximum(0.0, z - 0.85)
    D = jnp.clip(D, 0.55, 1.2)
    ank_tgt = asg * D
    ank_act = 1.5 * (ank_tgt - aq) - 0.15 * av
    act = jnp.array([hip_act[3], ank_act[3], hip_act[0], ank_act[0], hip_act[1], ank_act[1], hip_act[2], ank_act[2]])
    return jnp.clip(act, -1.0, 1.0)
