import numpy as np

# A gait switch decided by rounding: the foot's absolute angle summed from the hip and from the foot is the same
# number in exact arithmetic (and in float64, where the float32 observations add exactly), not always in float32.
# The switch only matters while the hopper moves forward fast, so float32 flips it on a few observations
# (issue #23: "a threshold flipped by float32 rounding").


def policy(obs):
    o = np.asarray(obs, dtype=np.float64)
    thigh, leg, foot = o[2], o[3], o[4]
    from_hip = (thigh + leg) + foot
    from_foot = thigh + (leg + foot)
    act = np.array([0.5 * (0.2 - thigh), 0.5 * (-0.4 - leg), -0.5 * foot]) - 0.05 * o[8:11]
    if o[5] > 1.0 and from_hip > from_foot:
        act = act + np.array([0.6, -0.6, 0.3])
    return np.clip(act, -1.0, 1.0)
