"""What made a run: `RUN_DIR/versions.json`, written when the run directory is made (runs.create).

It holds the exact command line, the installed packages (every distribution, name -> version), Python, the platform,
the JAX devices, and the git commit of the checkout camel-jax was imported from (with a dirty flag; "unknown"
outside a git checkout, e.g. a wheel install). Each `camel-jax resume` appends its own commit, command and key
package versions to its `resumes` list. `plot` and `bench/compare.py` call `mixed(run_dirs)` and warn when runs were made with different versions of the
packages that decide the numbers (KEY_PACKAGES) or on different device kinds.
"""

from __future__ import annotations

import json
import platform
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

FILE = "versions.json"
# The packages whose versions change what a run computes (physics, numerics, the tasks' XMLs, the trainer).
KEY_PACKAGES = ("camel-jax", "jax", "jaxlib", "mujoco", "mujoco-mjx", "gymnasium", "brax", "flax", "optax", "numpy")


# The vector instruction sets XLA's CPU compiler picks its code by: float results are bit for bit only between CPUs
# with the same ones (an AVX-512 machine and an AVX2 one part at the first reduction), and two CPUs of one model name
# can differ in them (this project's "AMD EPYC" machines ran its benchmarks 2x apart: docs/benchmarks/speed.md).
SIMD = ("avx", "avx2", "fma", "f16c", "avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512_bf16", "avx512_vnni",
        "amx_tile")


def cpu() -> dict:
    """This machine's CPU from /proc/cpuinfo: its model name ("" where it is not said) and which of SIMD it has."""
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:
        lines = []
    model = next((line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")), "")
    flags = next((line.split(":", 1)[1].split() for line in lines if line.startswith("flags")), [])
    return {"model": model, "simd": [f for f in SIMD if f in flags]}


def collect() -> dict:
    """The provenance of this process, as written to versions.json."""
    import jax

    packages = {}
    for dist in metadata.distributions():
        name = (dist.metadata["Name"] or "").lower().replace("_", "-")
        if name:
            packages[name] = dist.version
    devices = jax.devices()
    return {
        "command": [Path(sys.argv[0]).name, *sys.argv[1:]],
        "cwd": str(Path.cwd()),
        "time_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "machine": platform.machine(),
        "devices": {"backend": jax.default_backend(), "count": len(devices),
                    "kinds": sorted({d.device_kind for d in devices})},
        "git": git_commit(),
        "packages": dict(sorted(packages.items())),
    }


UNKNOWN = {"commit": "unknown", "dirty": None}


def git_commit() -> dict:
    """{"commit", "dirty"} of the checkout camel_jax is imported from; UNKNOWN for a wheel install or without git."""
    root = Path(__file__).resolve().parents[2]  # the folder holding camel_jax/
    if not (root / ".git").exists():
        return UNKNOWN
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                                timeout=10, check=True).stdout.strip()
        status = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
                                capture_output=True, text=True, timeout=10, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return UNKNOWN
    return {"commit": commit, "dirty": bool(status.strip())}


def record(run_dir: Path) -> None:
    (Path(run_dir) / FILE).write_text(json.dumps(collect(), indent=1) + "\n")


def record_resume(run_dir: Path, step: int) -> None:
    """Append this process to versions.json's `resumes` (a resume may run another commit or package set than the
    run's start): the env step it continues from, its command, time, git commit and KEY_PACKAGES' versions. The file
    is replaced atomically; a run made before versions.json gets none."""
    path = Path(run_dir) / FILE
    if not path.is_file():
        return
    made, now = json.loads(path.read_text()), collect()
    now["packages"] = {k: v for k, v in now["packages"].items() if k in KEY_PACKAGES}
    resume = {"from_step": step, **{k: now[k] for k in ("command", "time_utc", "git", "devices", "packages")}}
    made["resumes"] = [*made.get("resumes", []), resume]
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(made, indent=1) + "\n")
    tmp.replace(path)


def read(run_dir: Path) -> dict | None:
    path = Path(run_dir) / FILE
    return json.loads(path.read_text()) if path.is_file() else None


def mixed(run_dirs: list[str | Path]) -> list[str]:
    """One line per key package (or device kind) whose value differs between the runs; runs without versions.json
    (made before it existed) are named once."""
    found = {str(d): read(Path(d)) for d in run_dirs}
    lines = []
    missing = [d for d, v in found.items() if v is None]
    if missing and len(missing) < len(found):
        lines.append(f"no {FILE} (made by an older camel-jax) in: {', '.join(missing)}")
    known = {d: v for d, v in found.items() if v is not None}
    for name in KEY_PACKAGES:
        values = {d: v["packages"].get(name, "absent") for d, v in known.items()}
        if len(set(values.values())) > 1:
            lines.append(f"{name} differs: " + ", ".join(f"{v} ({d})" for d, v in values.items()))
    kinds = {d: "/".join(v["devices"]["kinds"]) for d, v in known.items()}
    if len(set(kinds.values())) > 1:
        lines.append("devices differ: " + ", ".join(f"{v} ({d})" for d, v in kinds.items()))
    return lines


def warn_mixed(run_dirs: list[str | Path], command: str) -> None:
    """Print `mixed(run_dirs)` to stderr as warnings of `command`."""
    for line in mixed(run_dirs):
        print(f"{command}: warning: runs made with different versions: {line}", file=sys.stderr)
