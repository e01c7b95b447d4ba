"""The child process that runs an untrusted prior (started by `camel_jax.priors.sandbox`; never imported elsewhere).

Protocol. stdin: one JSON line {source, mode, act_dim, memory_bytes, cpu_seconds, episodes_of}, then observation
arrays as .npy, one after the other. Result (on the original stdout; everything else printed goes to stderr): one
JSON line {reason, summary}, where reason is null when the run passed, followed by arrays as .npy:
- "jax": the jnp checks (`check_jax`, float32, as in training) on the observations; no arrays.
- "numpy": a NumPy policy's actions (float64) on the observations, as given (float64 for certification), then, when
  `episodes_of` names a task, on the observations of the policy's own episodes there (`policy_observations`),
  which are returned too: actions (n + m, act_dim), then the m own observations.
- "certify": the jnp checks on the first array, then the policy's actions on the second under
  `jax.jit(jax.vmap(...))` with 64-bit floats enabled (module and trace in float64), then its actions there in
  float32, as it runs in training.

The limits are set after jax (and, for "episodes_of", the task's gymnasium env) is loaded and warmed up, so they
bound what the prior itself adds: address space (memory), CPU seconds, and a zero file-size limit (any write to a
file kills the process with SIGXFSZ).
"""

from __future__ import annotations

import io
import json
import os
import re
import resource
import sys

import jax
import jax.numpy as jnp
import numpy as np

from camel_jax.priors import allowlist, observations

# How mutating a constant frozen by `purity.freeze` fails: read-only NumPy arrays, tuples, read-only mappings.
# jax.vmap(policy) against single calls: the largest difference accepted without a float64 check, and the float32
# error above which an observation counts as a switch flipped by float32 rounding (`translate.FLOAT32_TOLERANCE`).
VMAP_TOLERANCE = 1e-5
FLOAT32_SWITCH = 1e-3
_FROZEN = re.compile(r"read-only|'_FrozenList' object|'mappingproxy' object|'frozenset' object has no attribute")


class Reject(Exception):
    """A check failed; the message is the reason."""


def main() -> None:
    result = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    request = json.loads(sys.stdin.buffer.readline())
    data = sys.stdin.buffer.read()
    stream, inputs = io.BytesIO(data), []
    while stream.tell() < len(data):
        inputs.append(np.load(stream, allow_pickle=False))
    obs = inputs[0]
    jax.jit(lambda x: x + 1)(jnp.zeros(2)).block_until_ready()  # start XLA's threads before the limits
    episodes_of = request.get("episodes_of")
    if episodes_of:
        observations.gym_env(episodes_of).close()  # gymnasium and MuJoCo loaded before the limits
    _limit(request["memory_bytes"], request["cpu_seconds"])
    arrays: list[np.ndarray] = []
    try:
        if request["mode"] == "numpy":
            arrays = run_numpy(request["source"], obs, request["act_dim"], episodes_of)
            reason, summary = None, f"ran on {len(arrays[0])} observations"
        elif request["mode"] == "certify":
            summary = check_jax(request["source"], obs, request["act_dim"])
            arrays, reason = run_certify(request["source"], inputs[1]), None
        else:
            reason, summary = None, check_jax(request["source"], obs, request["act_dim"])
    except Reject as e:
        reason, summary = str(e), ""
    except BaseException as e:  # noqa: BLE001 -- anything the prior raises is a reason, not a crash
        reason, summary = _describe(e), ""
    result.write(json.dumps({"reason": reason, "summary": summary}).encode() + b"\n")
    for array in arrays if reason is None else []:
        buffer = io.BytesIO()  # np.save needs a seekable file; the pipe is not
        np.save(buffer, array, allow_pickle=False)
        result.write(buffer.getvalue())
    result.flush()


def check_jax(source: str, obs: np.ndarray, act_dim: int) -> str:
    """The jnp checks; returns the one-line summary or raises Reject with the first failure."""
    n, obs_dim = obs.shape
    policy = _stage("running the module", allowlist.exec_policy, source)
    x = jax.ShapeDtypeStruct((obs_dim,), jnp.float32)
    out = _stage("tracing policy(obs) with jax.eval_shape", jax.eval_shape, policy, x)
    if not isinstance(out, jax.ShapeDtypeStruct) or out.shape != (act_dim,):
        shape = getattr(out, "shape", type(out).__name__)
        raise Reject(f"policy returns shape {shape} for obs of shape ({obs_dim},); it must return ({act_dim},)")
    if not jnp.issubdtype(out.dtype, jnp.floating):
        raise Reject(f"policy returns dtype {out.dtype}; return floats, e.g. jnp.clip(act, -1.0, 1.0)")
    compiled = _stage("compiling with jax.jit", lambda: jax.jit(policy).lower(x).compile())
    single = _stage("running the compiled policy", lambda: np.stack([np.asarray(compiled(o)) for o in obs]))
    batched = _stage("running jax.vmap(policy)", lambda: np.asarray(jax.jit(jax.vmap(policy))(obs)))
    _check_finite(single)
    too_big = np.abs(single).max(axis=1) > 1.0
    if too_big.any():
        raise Reject(f"actions outside [-1, 1] (max |a| = {np.abs(single).max():.3g}) on {too_big.sum()} of {n} "
                     "rollout observations; end with jnp.clip(act, -1.0, 1.0)")
    diff = float(np.abs(batched - single).max())
    vmaps = "vmaps" if diff <= VMAP_TOLERANCE else _vmap_rounding(source, obs, single, diff)
    return (f"valid: ({obs_dim},) -> ({act_dim},) float, compiles under jax.jit, {vmaps}, finite and within [-1, 1] "
            f"on {n} rollout observations")


def _vmap_rounding(source: str, obs: np.ndarray, single: np.ndarray, diff: float) -> str:
    """When jax.vmap(policy) and single calls differ by more than VMAP_TOLERANCE in float32: whether that is float32
    rounding (the batched and the single XLA programs order and fuse their operations differently) rather than a
    different computation. Both programs run again in float64 (module and trace with 64-bit floats), where they must
    agree within VMAP_TOLERANCE: there rounding is about 1e-9 times smaller, so any disagreement is the computation.
    In float32 they may then differ by at most twice the policy's own float32 rounding error, measured as its
    largest |float32 - float64| over the single calls (each of the two float32 programs is about that far from the
    float64 value); observations where float32 flips a switch of the policy (|float32 - float64| > FLOAT32_SWITCH)
    do not count towards that error. Returns the summary's phrase, or raises Reject."""
    with jax.enable_x64(True):
        policy = _stage("running the module", allowlist.exec_policy, source)
        x64 = obs.astype(np.float64)
        compiled = _stage("compiling with jax.jit in float64",
                          lambda: jax.jit(policy).lower(jax.ShapeDtypeStruct(x64.shape[1:], jnp.float64)).compile())
        single64 = _stage("running the compiled policy in float64",
                          lambda: np.stack([np.asarray(compiled(o), np.float64) for o in x64]))
        batched64 = _stage("running jax.vmap(policy) in float64",
                           lambda: np.asarray(jax.jit(jax.vmap(policy))(x64), np.float64))
    diff64 = float(np.abs(batched64 - single64).max())
    if not diff64 <= VMAP_TOLERANCE:
        raise Reject(f"jax.vmap(policy) disagrees with single calls (max |diff| = {diff:.2e} in float32, {diff64:.2e} "
                     "in float64, where rounding cannot explain it); keep it pure")
    errors = np.abs(single - single64).max(axis=1)
    rounding = float(errors[errors <= FLOAT32_SWITCH].max(initial=0.0))
    if not diff <= 2 * rounding:
        raise Reject(f"jax.vmap(policy) disagrees with single calls (max |diff| = {diff:.2e} in float32, more than "
                     f"twice its float32 rounding error {rounding:.2e}, measured against float64); keep it pure")
    return (f"vmaps (batched and single calls agree within {diff:.1e} in float32, at most twice its float32 rounding "
            f"error {rounding:.1e}, and within {diff64:.1e} in float64)")


def run_numpy(source: str, obs: np.ndarray, act_dim: int, episodes_of: str | None = None) -> list[np.ndarray]:
    """Call a NumPy policy on each observation, then, when `episodes_of` names a task, on those of its own episodes
    there; returns [actions (n + m, act_dim) float64] (+ [own observations (m, obs_dim)]) or raises Reject."""
    policy = _stage("running the module", allowlist.exec_policy, source)
    act = lambda x: np.asarray(policy(x), np.float64)
    actions = _actions(act, obs, act_dim)
    if not episodes_of:
        return [actions]
    own = _stage(f"acting in its own {episodes_of} episodes", observations.policy_observations, act, episodes_of)
    return [np.concatenate([actions, _actions(act, own, act_dim, first=len(obs))]), own]


def _actions(act, obs: np.ndarray, act_dim: int, first: int = 0) -> np.ndarray:
    """(n, act_dim) float64 actions of `act` on `obs` (numbered from `first` in messages), finite, or Reject."""
    actions = np.empty((len(obs), act_dim), np.float64)
    for i, o in enumerate(obs):
        a = _stage(f"calling policy on observation #{first + i}", act, o.copy())
        if a.shape != (act_dim,):
            raise Reject(f"policy returns shape {a.shape}; it must return ({act_dim},)")
        actions[i] = a
    _check_finite(actions, first)
    return actions


def run_certify(source: str, obs: np.ndarray) -> list[np.ndarray]:
    """[actions in float64, actions in float32] of a jnp policy on `obs`, each from its own run of the module (a
    constant computed in float32 would carry float32 rounding into the float64 run)."""
    out = []
    for x64 in (True, False):
        with jax.enable_x64(x64):
            policy = _stage("running the module", allowlist.exec_policy, source)
            dtype = np.float64 if x64 else np.float32
            out.append(_stage(f"running jax.vmap(policy) in {dtype.__name__}", _vmapped, policy, obs.astype(dtype)))
    return out


def _vmapped(policy, obs: np.ndarray) -> np.ndarray:
    return np.asarray(jax.jit(jax.vmap(policy))(obs), np.float64)


def _check_finite(actions: np.ndarray, first: int = 0) -> None:
    bad = ~np.isfinite(actions).all(axis=1)
    if bad.any():
        raise Reject(f"non-finite actions (NaN or inf) on {bad.sum()} of {len(actions)} rollout observations "
                     f"(first: #{first + int(np.argmax(bad))})")


def _stage(what: str, fn, *args):
    try:
        return fn(*args)
    except Reject:
        raise
    except Exception as e:  # noqa: BLE001
        raise Reject(f"{what} failed: {_describe(e)}") from None


def _describe(e: BaseException) -> str:
    if isinstance(e, (jax.errors.ConcretizationTypeError, jax.errors.TracerIntegerConversionError)):
        return ("Python branching on a traced array value (`if`, `and`/`or`, max()/min(), int()/float() on obs "
                "values); use jnp.where, jnp.maximum, jnp.minimum, jnp.logical_and")
    if isinstance(e, jax.errors.TracerArrayConversionError):
        return "a NumPy or math function was applied to the traced observation; use jax.numpy (jnp) functions"
    if isinstance(e, MemoryError) or "RESOURCE_EXHAUSTED" in str(e):
        return "exceeded the sandbox memory limit"
    if isinstance(e, RecursionError):
        return "unbounded recursion"
    if _FROZEN.search(str(e)):
        return (f"the prior mutates a module-level constant ({type(e).__name__}: {str(e)[:100]}): a prior must be a "
                "pure function of obs, with no state kept between calls; work on a local copy instead")
    lines = str(e).strip().splitlines()
    return f"{type(e).__name__}: {lines[0][:300] if lines else ''}".rstrip(": ")


def _limit(memory_bytes: int, cpu_seconds: int) -> None:
    used_cpu = int(sum(os.times()[:2]))
    resource.setrlimit(resource.RLIMIT_CPU, (used_cpu + cpu_seconds, used_cpu + cpu_seconds + 2))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    vm = _vm_size_bytes()
    if vm is not None:
        resource.setrlimit(resource.RLIMIT_AS, (vm + memory_bytes, vm + memory_bytes))


def _vm_size_bytes() -> int | None:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


if __name__ == "__main__":
    main()
