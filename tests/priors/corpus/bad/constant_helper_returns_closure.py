# expect: holds a function
import jax.numpy as jnp


def _counter():
    calls = []
    return lambda: calls.append(1) or len(calls)  # a closure over a list that freezing cannot reach: a gait clock


TICK = _counter()  # a module-level value computed by the module's own function must be plain data


def policy(obs):
    phase = TICK() % 2
    return jnp.clip(obs[2:5] * phase, -1.0, 1.0)
