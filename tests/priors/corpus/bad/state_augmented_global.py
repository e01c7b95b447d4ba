# expect: inside a function changes the module-level `PHASE`
import numpy as np

PHASE = 0.0


def policy(obs):
    PHASE += 0.1  # a clock kept between calls
    return np.clip(np.sin(PHASE) * np.ones(3), -1.0, 1.0)
