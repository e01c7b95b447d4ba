# camel-jax prior
# task: walker2d
# model: none: no LLM service is reachable from the build machines; not written by an LLM and not hand-derived either: the prompt's policy form (jnp only, one policy(obs), clipped) with gains found by random search (ARS) in simulation, see method
# prompt: priors/prompts/locomotion_v1.md sha256:4e975d313f67e947be72b055b3a948e97822d2cff1064563d40b2e2a7d9b28b0
# date: 2026-11-22
# validation: priors/tuned/walker2d.py: valid: (17,) -> (6,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations; command: camel-jax priors validate priors/tuned/walker2d.py --env walker2d
# return: 2647.0 +- 197.2 over 10 episodes on Walker2d-v4 (gymnasium, seeds 0-9); forward 13.43 m; falls 1/10 (seed 3 at step 696); command: camel-jax priors evaluate priors/tuned/walker2d.py --env walker2d --backend gymnasium --episodes 10 --report priors/tuned/walker2d_evaluation_gymnasium.md --write-return
# method: not hand-derived: linear state feedback whose 108 gains were found by ARS random search in gymnasium Walker2d-v4 (about 2,800 episodes); the prompt's rules (jnp only, one policy(obs), clip) are followed
# kind: tuned
# search: Augmented Random Search (ARS) over the 108 gains in gymnasium Walker2d-v4: about 2,800 episodes, about 0.9M env steps (the figure recorded when the gains were found)
# search_env_steps: 900000

import jax.numpy as jnp

# Linear state feedback: act = clip(GAIN @ obs + BIAS), one row per actuator.
# obs order: z, pitch, right thigh/leg/foot, left thigh/leg/foot, vx, vz, pitch_rate, right joint velocities,
# left joint velocities.
# What it does (seen in rollouts, not designed in advance): not an alternating walk but a bounding hop, both feet
# pushing off together. The torso height z is the main phase signal: the knee rows have +1.8 and +1.6 per m of z
# against biases of -2.4 and -2.2, so the knee torques change sign between the high (flight) and low (stance)
# parts of a bound. The torso pitch swings between about +0.2 and -0.7 rad over a bound (healthy limit +-1); the
# right thigh brakes it (-0.52 per rad of pitch). Mean speed about 1.7 m/s.
# The gains were not derived by hand: they were found by random search (ARS, about 2,800 episodes, 0.9 M env
# steps) in gymnasium Walker2d-v4, because no LLM service was reachable and hand-written walking controllers
# (a SIMBICON-like state machine, a two-legged copy of the hopper prior) stalled at standing or fell.
GAIN_RIGHT_THIGH = (-0.6716, -0.51739, -1.5892, 0.13649, -0.0043499, 0.26799, -1.3594, 0.43106, 0.19757, 0.17856, -0.021126, -0.090419, -0.056187, -0.011812, -0.080262, -0.017704, -0.023724)
GAIN_RIGHT_LEG = (1.8404, -0.6596, 0.24998, -0.23628, 0.099505, -0.089634, 0.11332, 0.17913, 0.021326, -0.10986, 0.01843, 0.024428, -0.073727, -0.0017498, 0.027983, 0.023721, 0.009322)
GAIN_RIGHT_FOOT = (1.8296, -1.0178, -0.97306, 0.408, 0.06638, 2.1904, 0.72423, 0.067583, -0.064613, -0.00040581, 0.069127, -0.0050968, 0.02807, -0.0024577, -0.016887, -0.071687, 0.025295)
GAIN_LEFT_THIGH = (1.5588, 0.10387, 0.20851, -0.078382, 0.2631, -0.51266, -0.098158, -0.12333, -0.083486, 0.1119, -0.016903, 0.070974, -0.043773, 0.03073, -0.09429, 0.011812, 0.016924)
GAIN_LEFT_LEG = (1.6021, -0.39581, 0.34595, -0.085644, 0.16164, -0.32728, -0.59463, 0.11056, 0.020678, 0.086536, 0.017851, -0.037472, -0.03333, 0.015639, 0.023643, -0.086681, 0.019059)
GAIN_LEFT_FOOT = (0.86808, -0.81589, -0.24185, -0.25638, 0.34518, 0.46311, 0.54081, 0.16662, -0.16013, 0.10041, -0.018338, 0.086504, 0.02795, 0.05178, 0.040213, 0.030722, -0.004944)
BIAS = (0.049278, -2.397, -2.0039, -1.8972, -2.1534, -1.0015)


def policy(obs):
    gain = jnp.array([GAIN_RIGHT_THIGH, GAIN_RIGHT_LEG, GAIN_RIGHT_FOOT, GAIN_LEFT_THIGH, GAIN_LEFT_LEG, GAIN_LEFT_FOOT], dtype=jnp.float32)
    act = gain @ obs + jnp.array(BIAS, dtype=jnp.float32)
    return jnp.clip(act, -1.0, 1.0)
