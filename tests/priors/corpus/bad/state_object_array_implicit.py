# expect: the module-level `MEMORY` is an object array: object arrays (dtype=object) hold mutable Python objects
import numpy as np

MEMORY = np.array([{"t": 0.0}])  # NumPy makes an object array holding a dict; no dtype is written


def policy(obs):
    clock = MEMORY[0]
    clock["t"] = clock["t"] + 1.0  # the dict inside the frozen array: a gait clock kept between calls
    phase = np.sin(0.1 * clock["t"])
    return np.clip(np.array([phase, -phase, 0.0]) + 0.1 * obs[2:5], -1.0, 1.0)
