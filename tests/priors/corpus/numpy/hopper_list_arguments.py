import numpy as np

# NumPy takes lists and tuples wherever it takes an array; jax.numpy refuses them (issue #23).
TARGET = np.deg2rad([10.0, -25.0, 5.0])  # a list literal at module level
KP = [1.5, 1.2, 0.8]  # a list constant passed to a NumPy function


def policy(obs):
    z, pitch = obs[0], obs[1]
    joints = obs[2:5]
    lean = np.linalg.norm([pitch, 0.1 * obs[5]])  # a list of observation values
    act = np.multiply(KP, TARGET - joints) - 0.1 * obs[8:11]
    act = act - 0.3 * lean * np.sign([pitch, pitch, 0.0])
    act = np.clip(act, [-1.0, -1.0, -0.5], (1.0, 1.0, 0.5))  # bounds as a list and a tuple
    limit = np.deg2rad((40.0, 40.0, 30.0))  # a tuple
    return np.clip(np.minimum(act, limit) * np.mean([1.0, z / 1.25]), -1.0, 1.0)
