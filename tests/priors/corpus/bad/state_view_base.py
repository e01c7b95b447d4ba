# expect: attribute '.base' is not allowed: `.base` is the array a view was taken from
import numpy as np

CLOCK = np.zeros(4)[:2]  # a view: freezing the constants makes it read-only, not the array behind it


def policy(obs):
    memory = CLOCK.base
    memory[0] = memory[0] + 1.0  # a gait clock kept between calls, in the view's base
    phase = np.sin(0.1 * memory[0])
    return np.clip(np.array([phase, -phase, 0.0]) + 0.1 * obs[2:5], -1.0, 1.0)
