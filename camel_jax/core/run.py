"""What both drivers of every algorithm's loop share: the start-up lines, the compilation cache, and the env seeds
and non-finite counts of the gymnasium backend."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import jax

from camel_jax import specs
from camel_jax.core import runs


def announce(config, why: str) -> None:
    """The start-up lines that say what is being trained, on stderr: the backend and why it was chosen (naming the
    task variant where MJX computes a different task, Ant), then the update-to-data ratio (`config.ratio_lines`,
    with its warning). Printed with --quiet too: they are few, and they change what a result means."""
    spec = specs.load(config.env)
    label = specs.task_label(config.env, config.backend)
    note = (f"; on MJX this task is '{label}', not {spec.gym_id} (contact forces differ from C MuJoCo's after the "
            "first foot contact), and its results are named so") if label != config.env else ""
    v4 = [(f"task: {spec.gym_id}, the paper's version (Zhao et al. 2025 ran v4; gymnasium's deprecation notice "
           "suggests v5, which revises the tasks, so v4 keeps results comparable with the paper's)")] if (
        config.backend == "gymnasium" and spec.gym_id.endswith("-v4")) else []
    for line in [f"backend: {config.backend} ({why}){note}", *v4, *config.ratio_lines()]:
        print(line, file=sys.stderr, flush=True)


def use_compile_cache(on: bool) -> None:
    """JAX's persistent compilation cache, on by default: in $JAX_COMPILATION_CACHE_DIR when set, else in
    $XDG_CACHE_HOME/camel-jax/xla (~/.cache/camel-jax/xla). Every program is cached, however fast it compiled."""
    if not on:
        jax.config.update("jax_enable_compilation_cache", False)
        return
    if not jax.config.jax_compilation_cache_dir:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        jax.config.update("jax_compilation_cache_dir", str(base / "camel-jax" / "xla"))
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)


def gym_env_seeds(config, iteration: int = 0) -> list[int]:
    """Env seeds of the gymnasium backend, member-major: env k of the member with seed s gets `s * num_envs + k`, so
    a member's envs do not depend on the other members (one env per member: seed s, as CleanRL's `--seed s`). A run
    resumed at iteration i > 0 restarts its episodes from seeds shifted by `7919 * i`."""
    n = config.num_envs
    return [(m["seed"] * n + k + 7919 * iteration) % 2**31 for m in config.members() for k in range(n)]


def gym_nonfinite(run_dir: Path, step: int, members: int, num_envs: int) -> list[int]:
    """Per gymnasium env (member-major), where a run resumed at env step `step` starts counting non-finite steps:
    each member's count logged at that step, on its first env (the logged count is the sum over a member's envs)."""
    counts = runs.nonfinite_at(run_dir, step, members)
    return [counts[m] if k == 0 else 0 for m in range(members) for k in range(num_envs)]
