# camel-jax prior
# task: ant
# model: claude (Anthropic; helper session, version not exposed)
# prompt: priors/prompts/paper_numpy_v2.md sha256:56c6fbe180f1d91027b4e26168204628aa1731c14386b0e6c04378e30ae7b970
# date: 2026-11-25T15:31:22Z
# validation: valid: (27,) -> (8,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations
# prompt_text: sha256:029a028937ece00229e448dedfa55ff9b08146b02431ac992d04ca640741977f (the text of `camel-jax priors prompt --env ant --style paper`)
# answer: answer_8.md sha256:fc015a3ce93678ff163b52d38eea8a716b0829078b30e880e2b6d2c9c48ec73a
# method: NumPy answer translated to jnp mechanically (camel_jax/priors/convert.py), equal to the answer within 4.6e-16 in float64 on 10000 rollout observations and 3000 of the answer's own episodes; command: camel-jax priors import priors/llm/ant/answer_6.md priors/llm/ant/answer_7.md priors/llm/ant/answer_8.md priors/llm/ant/answer_9.md priors/llm/ant/answer_10.md --env ant --out priors/llm/ant/imported_v2 --model 'claude (Anthropic; helper session, version not exposed)'
# return: 2093.5 +- 23.1 over 10 episodes on Ant-v4 (gymnasium, seeds 0-9); forward 61.42 m; falls 0/10 (mean length 1000 steps); from priors/llm/ant/imported_v2/ant_selection.md
# kind: llm
# selected: by camel-jax priors select (score: speed, its default) among 5 valid answers (answers 6, 7, 8, 9, 10) of the 5 answers to the prompt with the no-state rule (all 5 valid since the #23 re-import; the 5 answers to the paper's wording all keep a clock between calls); report: priors/llm/ant/imported_v2/ant_selection.md
# source: priors/llm/ant/imported_v2/answer_8.py (this file is a copy of it, the code unchanged; tests/priors/test_shipped.py checks both)
# search: no search: the LLM wrote the code in one reply without a simulator; the selection ran 10 episodes of each of the 5 candidates, about 42,970 env steps (10 x the mean lengths in the report)
# search_env_steps: 42970

import jax.numpy as jnp


def policy(obs):
    obs = jnp.asarray(obs, dtype=jnp.float64)
    z = obs[0]
    qw, qx, qy, qz = (obs[1], obs[2], obs[3], obs[4])
    hip = obs[jnp.array([5, 7, 9, 11])]
    ank = obs[jnp.array([6, 8, 10, 12])]
    hipv = obs[jnp.array([19, 21, 23, 25])]
    ankv = obs[jnp.array([20, 22, 24, 26])]
    sig = jnp.array([1.0, 1.0, -1.0, -1.0])
    pair = jnp.array([1.0, -1.0, 1.0, -1.0])
    down = jnp.array([1.0, -1.0, -1.0, 1.0])
    front = jnp.array([1.0, -1.0, -1.0, 1.0])
    left = jnp.array([1.0, 1.0, -1.0, -1.0])
    W = 9.0
    A = 0.45
    DELTA = 1.3
    KP_H, KD_H = (0.8, 0.08)
    KP_A, KD_A = (0.7, 0.1)
    M, H = (0.85, 0.35)
    EPS = 0.5
    K_TILT = 1.0
    K_YAW = 0.4
    up_x = 2.0 * (qx * qz - qw * qy)
    up_y = 2.0 * (qy * qz + qw * qx)
    front_down = -up_x
    left_up = up_y
    yaw = jnp.arctan2(2.0 * (qw * qz + qx * qy), 1.0 - 2.0 * (qy * qy + qz * qz))
    x = jnp.mean(pair * sig * hip)
    v = jnp.mean(pair * sig * hipv)
    th = jnp.arctan2(-v / W, x)
    c_lead = jnp.cos(th + DELTA)
    c_yaw = jnp.clip(K_YAW * yaw, -0.2, 0.2)
    hip_ref = pair * c_lead * (sig * A + c_yaw)
    hip_ref = jnp.clip(hip_ref, -0.5, 0.5)
    u_hip = KP_H * (hip_ref - hip) - KD_H * hipv
    lift = pair * jnp.tanh(2.5 * jnp.sin(th + EPS))
    mag_ref = M - H * lift + K_TILT * (front_down * front - left_up * left) - 0.6 * jnp.maximum(0.0, z - 0.8)
    mag_ref = jnp.clip(mag_ref, 0.5, 1.25)
    mag = down * ank
    magv = down * ankv
    u_ank = down * (KP_A * (mag_ref - mag) - KD_A * magv)
    act = jnp.array([u_hip[3], u_ank[3], u_hip[0], u_ank[0], u_hip[1], u_ank[1], u_hip[2], u_ank[2]])
    return jnp.clip(act, -1.0, 1.0)
