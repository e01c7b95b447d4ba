# camel-jax prior
# task: hopper
# model: none: no LLM service is reachable from the build machines; not written by an LLM and not hand-derived either: the prompt's policy form (jnp only, one policy(obs), clipped) with gains found by random search (ARS) in simulation, see method
# prompt: priors/prompts/locomotion_v1.md sha256:4e975d313f67e947be72b055b3a948e97822d2cff1064563d40b2e2a7d9b28b0
# date: 2026-11-22
# validation: priors/tuned/hopper.py: valid: (11,) -> (3,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations; command: camel-jax priors validate priors/tuned/hopper.py --env hopper
# return: 2401.4 +- 126.1 over 10 episodes on Hopper-v4 (gymnasium, seeds 0-9); forward 11.39 m; falls 1/10 (seed 0 at step 778); command: camel-jax priors evaluate priors/tuned/hopper.py --env hopper --backend gymnasium --episodes 10 --report priors/tuned/hopper_evaluation_gymnasium.md --write-return
# method: not hand-derived: linear state feedback whose 36 gains were found by ARS random search in gymnasium Hopper-v4 (about 1,150 episodes); the prompt's rules (jnp only, one policy(obs), clip) are followed
# kind: tuned
# search: Augmented Random Search (ARS) over the 36 gains in gymnasium Hopper-v4: about 1,150 episodes, about 0.35M env steps (the figure recorded when the gains were found)
# search_env_steps: 350000

import jax.numpy as jnp

# Linear state feedback around the hopping posture: act = clip(GAIN @ obs + BIAS).
# obs order: z, pitch, thigh, leg, foot, vx, vz, pitch_rate, thigh_vel, leg_vel, foot_vel.
# How it hops (read off the gains and rollouts): the torso height z acts as the phase variable. When the torso is
# high (flight) the foot torque is positive (toe raised, +1.01 per m of z); when it is low (stance) it turns
# negative and the foot pushes off (bias -1.05), which throws the body up and forward; knee and thigh follow the
# same height signal, so the hopper cycles without a clock. The thigh torque is mostly a torso-pitch servo (-4.2 per rad of pitch, -0.16 per rad/s of
# pitch rate) that keeps |pitch| well inside the 0.2 rad limit, with a slight backward lean (pitch about -0.03).
# The gains were not derived by hand: they were found by random search (ARS, about 1,150 episodes, 0.35 M env steps) in
# gymnasium Hopper-v4, because no LLM service was reachable and hand-tuned hopping controllers stalled at
# standing or fell within a few hops.
GAIN_THIGH = (0.8387, -4.1966, -0.14945, 0.22498, 0.13699, -0.045663, 0.071901, -0.15638, -0.022391, 0.029646, 0.0079719)
GAIN_LEG = (0.64826, -0.60653, -0.166, -0.47072, 0.31929, 0.072775, 0.0076535, -0.30022, -0.0085398, -0.048592, -0.016002)
GAIN_FOOT = (1.0114, -1.2, 0.28578, -0.43138, -0.12341, -0.17493, -0.065387, -0.15347, 0.076323, -0.066361, 0.018533)
BIAS = (-1.046, -1.2433, -1.0493)


def policy(obs):
    gain = jnp.array([GAIN_THIGH, GAIN_LEG, GAIN_FOOT], dtype=jnp.float32)
    act = gain @ obs + jnp.array(BIAS, dtype=jnp.float32)
    return jnp.clip(act, -1.0, 1.0)
