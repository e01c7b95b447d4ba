# expect: `np.copyto` writes into its first argument
import numpy as np

LAST = np.zeros(3)


def policy(obs):
    act = np.clip(LAST - obs[2:5], -1.0, 1.0)
    np.copyto(LAST, obs[2:5])
    return act
