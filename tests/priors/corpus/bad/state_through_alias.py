# expect: mutates a module-level constant
import numpy as np

TARGET = np.zeros(3)


def policy(obs):
    target = TARGET  # an alias, not a copy
    target[0] = target[0] + 0.01  # drifts on every call
    return np.clip(target - obs[2:5], -1.0, 1.0)
