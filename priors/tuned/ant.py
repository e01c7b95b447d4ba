# camel-jax prior
# task: ant
# model: none: no LLM service is reachable from the build machines; hand-written from priors/prompts/locomotion_v1.md (a hand-designed trot gait) with its 8 gains tuned by random search in simulation, see method
# prompt: priors/prompts/locomotion_v1.md sha256:4e975d313f67e947be72b055b3a948e97822d2cff1064563d40b2e2a7d9b28b0
# date: 2026-11-22
# validation: priors/tuned/ant.py: valid: (27,) -> (8,) float, compiles under jax.jit, vmaps, finite and within [-1, 1] on 2000 rollout observations; command: camel-jax priors validate priors/tuned/ant.py --env ant
# return: 1627.4 +- 30.9 over 10 episodes on Ant-v4 (gymnasium, seeds 0-9); forward 35.92 m; falls 0/10; command: camel-jax priors evaluate priors/tuned/ant.py --env ant --backend gymnasium --episodes 10 --report priors/tuned/ant_evaluation_gymnasium.md --write-return
# method: hand-designed gait (a trot driven by a joint-angle relaxation oscillator); its 8 gains tuned by a (1+1) random search in gymnasium Ant-v4 (about 400 evaluations of 2 episodes x 300 steps)
# kind: tuned
# search: a hand-designed gait, then a (1+1) random search over its 8 gains in gymnasium Ant-v4: about 400 evaluations of 2 episodes x 300 steps, at most 0.24M env steps (400 x 2 x 300; episodes that fell were shorter)
# search_env_steps: 240000

import jax.numpy as jnp

# Gait: a diagonal trot (pair A = legs 1 and 3, pair B = legs 2 and 4) made by a relaxation oscillator whose
# state is the robot's own joint angles, since the observation carries no clock.
#   hip "forwardness" p_i = HIP_FWD_i * hip_i (positive: foot i swung toward +x; hip_1, hip_2 swing the foot
#   backward when positive, hip_3, hip_4 forward, from the XML geometry);
#   ankle "lift" l_i = (1.22 - ANKLE_DOWN_i * ankle_i) / 0.7 (0: foot pressed down at the 70 deg limit, 1: raised
#   at the 30 deg limit).
# L = lift(A) - lift(B) says which pair is in the air, g = forwardness(A) - forwardness(B) how far the swing went.
# The raised pair is driven forward and the planted pair backward (it pushes the body toward +x); once the swing
# has gone far enough (K_SWITCH * g > K_HOLD * L) the ankles swap which pair is raised and the hips reverse.
H_DRIVE = 0.49      # hip torque of the swing/stance drive
U_ANKLE = 0.077     # ankle torque that raises one pair and lowers the other (small: control cost 0.5 * |a|^2)
K_HOLD = 1.99       # hysteresis: keep the current pair raised
K_SWITCH = 3.39     # switch once the swing amplitude |g| (rad, / 0.52) is large enough
K_DRIVE = 3.01      # tanh gain from L to the hip drive direction
K_CENTER = 0.567    # pull the mean hip forwardness of all legs back to 0
K_DAMP = 0.203      # hip velocity damping
K_YAW = -0.033      # small heading feedback on all hips


def policy(obs):
    hip1, ank1, hip2, ank2, hip3, ank3, hip4, ank4 = (obs[5], obs[6], obs[7], obs[8], obs[9], obs[10],
                                                      obs[11], obs[12])
    dhip1, dhip2, dhip3, dhip4 = obs[19], obs[21], obs[23], obs[25]
    # forwardness of each foot (+x), and how raised each foot is
    p1, p2, p3, p4 = -hip1, -hip2, hip3, hip4
    l1 = (1.22 - ank1) / 0.7
    l2 = (1.22 + ank2) / 0.7
    l3 = (1.22 + ank3) / 0.7
    l4 = (1.22 - ank4) / 0.7
    lift_diff = 0.5 * (l1 + l3) - 0.5 * (l2 + l4)
    swing_diff = 0.5 * (p1 + p3) - 0.5 * (p2 + p4)
    # +1: raise pair A and lower pair B; -1: the opposite
    u = jnp.tanh(K_HOLD * lift_diff - K_SWITCH * swing_diff / 0.52)
    # ankle torques (positive ankle_1/ankle_4 and negative ankle_2/ankle_3 press the foot down)
    a_ank1 = -U_ANKLE * u
    a_ank3 = U_ANKLE * u
    a_ank2 = -U_ANKLE * u
    a_ank4 = U_ANKLE * u
    # hips: raised pair forward, planted pair backward, common mode centred, damped
    drive = H_DRIVE * jnp.tanh(K_DRIVE * lift_diff)
    common = 0.25 * (p1 + p2 + p3 + p4)
    qw, qx, qy, qz = obs[1], obs[2], obs[3], obs[4]
    yaw = jnp.arctan2(2.0 * (qw * qz + qx * qy), 1.0 - 2.0 * (qy * qy + qz * qz))
    a_hip1 = -(drive - K_CENTER * common) - K_DAMP * dhip1 - K_YAW * yaw
    a_hip3 = (drive - K_CENTER * common) - K_DAMP * dhip3 - K_YAW * yaw
    a_hip2 = -(-drive - K_CENTER * common) - K_DAMP * dhip2 - K_YAW * yaw
    a_hip4 = (-drive - K_CENTER * common) - K_DAMP * dhip4 - K_YAW * yaw
    # action order (XML actuators): hip_4, ankle_4, hip_1, ankle_1, hip_2, ankle_2, hip_3, ankle_3
    act = jnp.array([a_hip4, a_ank4, a_hip1, a_ank1, a_hip2, a_ank2, a_hip3, a_ank3])
    return jnp.clip(act, -1.0, 1.0)
