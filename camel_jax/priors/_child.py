"""The child process that runs an untrusted prior (started by `camel_jax.priors.sandbox`; never imported elsewhere).

Protocol. stdin: one JSON line {source, mode, act_dim, memory_bytes, cpu_seconds}, then the observations as .npy.
Result (on the original stdout; everything else printed goes to stderr): one JSON line {reason, summary}, where
reason is null when the checks passed, followed in "numpy" mode by the actions as .npy.

The limits are set after jax is imported and warmed up, so they bound what the prior itself adds: address space
(memory), CPU seconds, and a zero file-size limit (any write to a file kills the process with SIGXFSZ).
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

from camel_jax.priors import allowlist

# How mutating a constant frozen by `purity.freeze` fails: read-only NumPy arrays, tuples, read-only mappings.
_FROZEN = re.compile(r"read-only|'_FrozenList' object|'mappingproxy' object|'frozenset' object has no attribute")


class Reject(Exception):
    """A check failed; the message is the reason."""


def main() -> None:
    result = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    request = json.loads(sys.stdin.buffer.readline())
    obs = np.load(io.BytesIO(sys.stdin.buffer.read()), allow_pickle=False)
    jax.jit(lambda x: x + 1)(jnp.zeros(2)).block_until_ready()  # start XLA's threads before the limits
    _limit(request["memory_bytes"], request["cpu_seconds"])
    actions = None
    try:
        if request["mode"] == "numpy":
            actions = run_numpy(request["source"], obs, request["act_dim"])
            reason, summary = None, f"ran on {len(obs)} observations"
        else:
            reason, summary = None, check_jax(request["source"], obs, request["act_dim"])
    except Reject as e:
        reason, summary = str(e), ""
    except BaseException as e:  # noqa: BLE001 -- anything the prior raises is a reason, not a crash
        reason, summary = _describe(e), ""
    result.write(json.dumps({"reason": reason, "summary": summary}).encode() + b"\n")
    if actions is not None and reason is None:
        buffer = io.BytesIO()  # np.save needs a seekable file; the pipe is not
        np.save(buffer, actions, allow_pickle=False)
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
    if not diff <= 1e-5:
        raise Reject(f"jax.vmap(policy) disagrees with single calls (max |diff| = {diff:.2e}); keep it pure")
    return (f"valid: ({obs_dim},) -> ({act_dim},) float, compiles under jax.jit, vmaps, finite and within [-1, 1] "
            f"on {n} rollout observations")


def run_numpy(source: str, obs: np.ndarray, act_dim: int) -> np.ndarray:
    """Call a NumPy policy on each observation; returns (n, act_dim) float64 or raises Reject."""
    policy = _stage("running the module", allowlist.exec_policy, source)
    actions = np.empty((len(obs), act_dim), np.float64)
    for i, o in enumerate(obs):
        a = _stage(f"calling policy on observation #{i}", lambda x: np.asarray(policy(x), np.float64), o.copy())
        if a.shape != (act_dim,):
            raise Reject(f"policy returns shape {a.shape}; it must return ({act_dim},)")
        actions[i] = a
    _check_finite(actions)
    return actions


def _check_finite(actions: np.ndarray) -> None:
    bad = ~np.isfinite(actions).all(axis=1)
    if bad.any():
        raise Reject(f"non-finite actions (NaN or inf) on {bad.sum()} of {len(actions)} rollout observations "
                     f"(first: #{int(np.argmax(bad))})")


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
