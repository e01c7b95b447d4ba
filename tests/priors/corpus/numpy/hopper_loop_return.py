"""A NumPy policy with an early return inside a loop: beyond the mechanical rewrite, so it needs the LLM."""
import numpy as np


def policy(obs):
    act = np.zeros(3)
    for i in range(3):
        if obs[2 + i] > 0.5:
            return np.clip(-np.ones(3), -1, 1)
        act[i] = -obs[2 + i]
    return np.clip(act, -1, 1)
