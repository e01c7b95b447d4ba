# expect: `out=` writes into it
import numpy as np

MEMORY = np.zeros(3)


def policy(obs):
    np.add(MEMORY, obs[2:5], out=MEMORY)  # integrates the observations over calls
    return np.clip(MEMORY, -1.0, 1.0)
