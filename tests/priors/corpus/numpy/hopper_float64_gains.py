import numpy as np

# A fast oscillator drives stiff joint servos: float32 rounding of its phase (about 50 rad) becomes action
# differences of a few 1e-5 wherever a servo is not saturated (issue #23: "float32 against float64").
KP = np.array([35.0, 28.0, 21.0])
KD = np.array([0.2, 0.2, 0.1])


def policy(obs):
    o = np.asarray(obs, dtype=np.float64)
    phase = 40.0 * o[0] + 25.0 * o[1]
    target = np.array([0.4 * np.sin(phase), -0.6 + 0.3 * np.cos(phase), 0.2 * np.sin(2.0 * phase)])
    u = KP * (target - o[2:5]) - KD * o[8:11]
    return np.clip(u / (1.0 + np.abs(u)), -1.0, 1.0)
