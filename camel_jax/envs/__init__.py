"""Environments: the spec'd locomotion tasks on MJX (jittable, vectorized) and on gymnasium's C MuJoCo; any gymnasium
Box task (`gym:ID`) on gymnasium.

`make(name, backend="mjx" | "gymnasium", num_envs=1)` is the single entry point. Both backends return an object with
`reset(key) -> State` and `step(state, action) -> State` over `num_envs` auto-resetting instances and the same State
fields (see `camel_jax.envs.autoreset`). The single-instance brax-style MJX env is `make_single(name)`.
MJX runs on MJX-JAX (`impl="jax"`) or MuJoCo Warp (`impl="warp"`); `check_mjx_impl` says whether one can run here.
"""

from __future__ import annotations

import importlib.util

from camel_jax import specs

BACKENDS = ("mjx", "gymnasium")
MJX_IMPLS = ("jax", "warp")
WARP_FIX = "pip install 'camel-jax[cuda]' (it brings mujoco-mjx[warp]) on a machine with an NVIDIA GPU"


def check_mjx_impl(impl: str, backend: str = "mjx") -> None:
    """ValueError with one line naming the problem and the fix when MJX implementation `impl` cannot run here."""
    if impl not in MJX_IMPLS:
        raise ValueError(f"unknown --mjx-impl '{impl}'; use jax or warp")
    if impl == "jax":
        return
    if backend != "mjx":
        raise ValueError("--mjx-impl warp needs --backend mjx (the gymnasium backend steps C MuJoCo)")
    if importlib.util.find_spec("warp") is None:
        raise ValueError(f"--mjx-impl warp needs MuJoCo Warp (the warp-lang package), which is not installed: "
                         f"{WARP_FIX}; or use --mjx-impl jax")
    import jax

    device = jax.local_devices()[0]
    if device.platform != "cpu" and "cuda" not in device.client.platform_version.lower():  # as mjx's own check
        raise ValueError(f"--mjx-impl warp runs on NVIDIA GPUs (and slowly on CPU), not on this device ({device}); "
                         "use --mjx-impl jax")


def available_mjx_impls() -> tuple[str, ...]:
    """The MJX implementations that can run in this process (jax always; warp when warp-lang is installed)."""
    ok = []
    for impl in MJX_IMPLS:
        try:
            check_mjx_impl(impl)
            ok.append(impl)
        except ValueError:
            pass
    return tuple(ok)


def check_backend(name: str, backend: str) -> None:
    """ValueError (one line, with the fix) when task `name` cannot run on `backend`: gym:ID tasks have no MJX port."""
    if backend == "mjx" and specs.load(name).is_gym:
        raise ValueError(f"--env {name} runs on the gymnasium backend only (MJX ports exist for the spec'd tasks in "
                         "envs/); use --backend gymnasium")


def make_single(name: str, impl: str = "jax", worlds: int = 1):
    """One unbatched MJX instance of task `name`, a brax `Env` (reset(key) -> State, step(state, action) -> State).
    `worlds`: how many instances one call steps (members x envs), which sizes MuJoCo Warp's contact buffer."""
    from camel_jax.envs.mjx_env import LocomotionEnv

    check_mjx_impl(impl)
    check_backend(name, "mjx")
    return LocomotionEnv(specs.load(name), impl, worlds)


def make(name: str, backend: str = "mjx", num_envs: int = 1, impl: str = "jax", worlds: int | None = None):
    """`num_envs` auto-resetting instances of task `name` ("hopper", "hopper-v5", ..., or "gym:ID") on `backend`; on MJX with
    implementation `impl`, sized for `worlds` instances per call (default `num_envs`; members x num_envs when the
    trainer steps every member's envs in one call)."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend '{backend}'; choose one of: {', '.join(BACKENDS)}")
    spec = specs.load(name)
    if backend == "gymnasium":
        from camel_jax.envs.gym_driver import GymVecEnv

        return GymVecEnv(spec, num_envs)
    from camel_jax.envs.autoreset import AutoResetVecEnv

    return AutoResetVecEnv(make_single(name, impl, worlds or num_envs), num_envs)
