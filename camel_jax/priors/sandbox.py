"""Validation of untrusted prior code: the static allow-list first, then checks that run it only in a child process.

The child is a fresh `python -I` in an empty temporary folder with a minimal environment (no API keys), restricted
builtins (see `allowlist`), a wall-clock timeout, and memory, CPU-time and zero file-size limits (see `_child`). It
checks on real rollout observations that `policy` traces to shape (act_dim,), compiles under `jax.jit`, returns
finite actions within [-1, 1], and that `jax.vmap(policy)` agrees with single calls (in float32, as in training,
within 1e-5, or else within float32 rounding while agreeing in float64: `_child._vmap_rounding`).
For certifying a translation it also runs a NumPy answer (`run_numpy_policy`, in float64, optionally in its own
episodes) and a jnp prior in float64 and float32 (`run_jnp_certify`).
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from camel_jax import specs
from camel_jax.errors import PriorError, SetupError
from camel_jax.priors import allowlist
from camel_jax.priors.observations import rollout_observations

SAMPLES = 2000
TIMEOUT_S = 60.0
MEMORY_MB = 2048  # on top of what the child uses after importing jax
_SIGNAL_HINTS = {
    signal.SIGXFSZ: "it tried to write a file",
    signal.SIGXCPU: "CPU time limit",
    signal.SIGKILL: "killed, likely by the memory or CPU limit",
    signal.SIGSEGV: "crashed, likely by the memory limit",
    signal.SIGABRT: "aborted, likely by the memory limit",
}


@dataclasses.dataclass(frozen=True)
class ValidationResult:
    ok: bool
    reason: str  # the first reason it was rejected; "" when ok
    summary: str  # one line: what was checked and the verdict


@dataclasses.dataclass(frozen=True)
class Limits:
    """Resources of one sandboxed run."""

    timeout_s: float = TIMEOUT_S
    memory_mb: int = MEMORY_MB


DEFAULT_LIMITS = Limits()


def validate_file(path: str | Path, env_name: str, samples: int = SAMPLES,
                  limits: Limits = DEFAULT_LIMITS) -> ValidationResult:
    """Validate the prior in file `path` for task `env_name` (see `validate_source`)."""
    return validate_source(read_source(path), env_name, samples, limits)


def validate_source(source: str, env_name: str, samples: int = SAMPLES,
                    limits: Limits = DEFAULT_LIMITS) -> ValidationResult:
    """Validate prior `source` for task `env_name` on `samples` rollout observations. Never runs it in-process."""
    spec = load_spec(env_name)
    try:
        allowlist.check(source)
        summary, _ = run_child(source, [rollout_observations(env_name, samples)], spec.act_dim, "jax", limits)
    except PriorError as e:
        return ValidationResult(False, str(e), f"invalid: {e}")
    return ValidationResult(True, "", summary)


def run_numpy_policy(source: str, obs: np.ndarray, act_dim: int, limits: Limits = DEFAULT_LIMITS,
                     episodes_of: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(actions, own observations) of a NumPy-style prior, computed in the sandbox in float64: actions (n + m,
    act_dim) on `obs` and then on the m observations of its own episodes on task `episodes_of`
    (`observations.policy_observations`; m = 0 when None), returned second. Raises PriorError."""
    allowlist.check(source)
    arrays = run_child(source, [np.asarray(obs, np.float64)], act_dim, "numpy", limits, episodes_of)[1]
    return arrays[0], arrays[1] if episodes_of else np.empty((0, np.shape(obs)[1]), np.float64)


def run_jnp_certify(source: str, env_name: str, obs: np.ndarray, samples: int = SAMPLES,
                    limits: Limits = DEFAULT_LIMITS) -> tuple[str, np.ndarray, np.ndarray]:
    """(validation summary, actions in float64, actions in float32) of jnp prior `source` for task `env_name`, in
    one sandboxed run: the checks of `validate_source` (float32, on `samples` rollout observations), then its
    actions on `obs` (as float64 arrays) under `jax.jit(jax.vmap(policy))`, the module and its trace once with
    64-bit floats enabled, once as in training. Raises PriorError with the first failure."""
    spec = load_spec(env_name)
    allowlist.check(source)
    inputs = [rollout_observations(env_name, samples), np.asarray(obs, np.float64)]
    summary, (a64, a32) = run_child(source, inputs, spec.act_dim, "certify", limits)
    return summary, a64, a32


def run_child(source: str, inputs: list[np.ndarray], act_dim: int, mode: str, limits: Limits,
              episodes_of: str | None = None) -> tuple[str, list[np.ndarray]]:
    """Run `_child` on `source` in `mode` with the observation arrays `inputs` (see `_child`); returns (summary, the
    arrays it sent back) or raises PriorError."""
    request = {"source": source, "mode": mode, "act_dim": act_dim, "memory_bytes": limits.memory_mb * 2**20,
               "cpu_seconds": int(limits.timeout_s) + 1, "episodes_of": episodes_of}
    payload = io.BytesIO()
    payload.write(json.dumps(request).encode() + b"\n")
    for array in inputs:
        np.save(payload, array, allow_pickle=False)
    root = str(Path(__file__).resolve().parents[2])  # the folder holding camel_jax/
    bootstrap = f"import sys; sys.path.insert(0, {root!r}); from camel_jax.priors._child import main; main()"
    with tempfile.TemporaryDirectory(prefix="camel-jax-sandbox-") as cwd:
        try:
            proc = subprocess.run([sys.executable, "-I", "-c", bootstrap], input=payload.getvalue(), check=False,
                                  capture_output=True, timeout=limits.timeout_s, cwd=cwd, env=_child_env(cwd))
        except subprocess.TimeoutExpired:
            raise PriorError(f"timed out after {limits.timeout_s:g} s (an endless or very long computation)") from None
    head, _, rest = proc.stdout.partition(b"\n")
    try:
        result = json.loads(head) if proc.returncode == 0 else None
    except ValueError:
        result = None
    if result is None:
        raise PriorError(_crash_reason(proc))
    if result["reason"] is not None:
        raise PriorError(result["reason"])
    arrays, stream = [], io.BytesIO(rest)
    while stream.tell() < len(rest):
        arrays.append(np.load(stream, allow_pickle=False))
    return result["summary"], arrays


def read_source(path: str | Path) -> str:
    path = Path(path)
    if not path.is_file():
        raise SetupError(f"prior file not found: {path}; check the path")
    return path.read_text()


def load_spec(env_name: str) -> specs.TaskSpec:
    try:
        return specs.load(env_name)
    except ValueError as e:
        raise SetupError(str(e)) from None


def _child_env(cwd: str) -> dict[str, str]:
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": cwd,
        "TMPDIR": cwd,
        "JAX_PLATFORMS": "cpu",
        "XLA_FLAGS": "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1",
        "OMP_NUM_THREADS": "1",
        "MALLOC_ARENA_MAX": "2",
    }


def _crash_reason(proc: subprocess.CompletedProcess) -> str:
    last = (proc.stderr.decode(errors="replace").strip().splitlines() or [""])[-1][:200]
    if proc.returncode < 0:
        sig = signal.Signals(-proc.returncode)
        hint = _SIGNAL_HINTS.get(sig, "killed by a signal")
        return f"the sandboxed run died with {sig.name} ({hint})"
    return f"the sandboxed run failed (exit {proc.returncode}): {last}"
