# camel-jax prior
# task: walker2d
# model: none: hand-written, deliberately poor: a stand-in for the paper's Walker2d LLM prior, which "stood or tilted"; used for the paper's poor-prior experiment (bench/paper.sh walker2d with PRIOR=priors/tuned/walker2d_stand.py), not as the task's default prior
# prompt: priors/prompts/locomotion_v1.md sha256:4e975d313f67e947be72b055b3a948e97822d2cff1064563d40b2e2a7d9b28b0
# date: 2026-11-22
# validation: priors/tuned/walker2d_stand.py: valid: (17,) -> (6,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations; command: camel-jax priors validate priors/tuned/walker2d_stand.py --env walker2d
# return: 155.1 +- 125.2 over 10 episodes on Walker2d-v4 (gymnasium, seeds 0-9); forward -0.46 m; falls 10/10 (mean length 214 steps); command: camel-jax priors evaluate priors/tuned/walker2d_stand.py --env walker2d --backend gymnasium --episodes 10 --report priors/tuned/walker2d_stand_evaluation_gymnasium.md --write-return
# method: hand-written joint-space PD controller holding every joint at 0 rad (upright, legs straight); gains 2.0 and 0.2 picked from five tries as the one that stands longest before tilting over; not tuned for forward progress
# kind: hand
# search: none beyond picking the gains from five hand-written tries in gymnasium Walker2d-v4 (the one that stood longest); the env steps of those tries were not recorded

import jax.numpy as jnp

# Stand still: push each hinge back to 0 rad (legs straight under the torso) and damp its velocity.
# obs[2:8] are the six joint angles (right thigh/leg/foot, left thigh/leg/foot), obs[11:17] their velocities,
# in the same order as the six actuators. Nothing here balances the torso or moves forward, so the walker
# stands for a few hundred steps, tilts and falls: the kind of prior the CAMEL paper got from its LLM for Walker2d.
KP = 2.0
KD = 0.2


def policy(obs):
    angles = obs[2:8]
    velocities = obs[11:17]
    return jnp.clip(-KP * angles - KD * velocities, -1.0, 1.0)
