"""Environments: the spec'd locomotion tasks on MJX (jittable, vectorized) and on gymnasium's C MuJoCo.

`make(name, backend="mjx" | "gymnasium", num_envs=1)` is the single entry point. Both backends return an object with
`reset(key) -> State` and `step(state, action) -> State` over `num_envs` auto-resetting instances and the same State
fields (see `camel_jax.envs.autoreset`). The single-instance brax-style MJX env is `make_single(name)`.
"""

from __future__ import annotations

from camel_jax import specs

BACKENDS = ("mjx", "gymnasium")


def make_single(name: str):
    """One unbatched MJX instance of task `name`, a brax `Env` (reset(key) -> State, step(state, action) -> State)."""
    from camel_jax.envs.mjx_env import LocomotionEnv

    return LocomotionEnv(specs.load(name))


def make(name: str, backend: str = "mjx", num_envs: int = 1):
    """`num_envs` auto-resetting instances of task `name` ("hopper", "walker2d", "ant") on `backend`."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend '{backend}'; choose one of: {', '.join(BACKENDS)}")
    spec = specs.load(name)
    if backend == "gymnasium":
        from camel_jax.envs.gym_driver import GymVecEnv

        return GymVecEnv(spec, num_envs)
    from camel_jax.envs.autoreset import AutoResetVecEnv

    return AutoResetVecEnv(make_single(name), num_envs)
