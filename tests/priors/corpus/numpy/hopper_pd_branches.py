import numpy as np

def policy(obs):
    """A paper-style NumPy PD hopper controller."""
    z, pitch = obs[0], obs[1]
    thigh, leg, foot = obs[2], obs[3], obs[4]
    vx = obs[5]
    act = np.zeros(3)
    if z > 1.2 and vx < 1.0:
        target_thigh = 0.4
    elif pitch > 0.05:
        target_thigh = -0.2
    else:
        target_thigh = 0.1
    act[0] = 2.0 * (target_thigh - thigh) - 0.1 * obs[8]
    act[1] = 1.5 * (-0.3 - leg) - 0.1 * obs[9]
    act[2] = 1.0 * (0.0 - foot) - 0.05 * obs[10]
    act[0] += -0.5 * pitch
    if abs(pitch) > 0.15:
        return np.clip(-act, -1, 1)
    gain = max(0.5, min(1.0, 1.0 - abs(vx)))
    act = act * gain if vx > 0 else act
    return np.clip(act, -1.0, 1.0)
