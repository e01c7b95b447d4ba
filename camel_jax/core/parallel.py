"""Independent runs side by side: one process each, at most `procs` at once (`camel-jax sweep --procs`).

On a CPU with the gymnasium backend, one process cannot keep two cores busy: its C MuJoCo steps and Python run
between the compiled update's calls. Two processes, each with half of the seeds, overlap one's env steps with the
other's update. `bench/sweep_modes.py` measured ten Hopper seeds three ways on the 2-core CI machine
(`bench/results/sweep_modes_cpu.md`): two processes ran 1.09-1.22x faster than one process with the seeds vmapped,
and 1.07x faster than a mesh of two host devices. So `--procs auto` is one process per core there, and one process
elsewhere (MJX on a CPU already spreads one program over every core; a GPU runs one program).

Each job is an ordinary `camel-jax train` (or `resume`) of one run directory, started as
`python -m camel_jax.core.parallel JOB_JSON` with its output in `RUN_DIR.log` beside the run directory. The children
have their own process group: a Ctrl-C or SIGTERM to the parent is passed on once, each child writes its checkpoint
and stops (exit 75), and `camel-jax resume SWEEP_DIR` continues them.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

EXIT_INTERRUPTED = 75  # signals.EXIT_INTERRUPTED, without importing JAX here
PROGRESS_EVERY_S = 60.0


@dataclass(frozen=True)
class Job:
    """One run: `train` a config (`algo`, `config`: its fields as config.json holds them) or `resume` a run_dir."""
    name: str
    run_dir: str
    kind: str  # "train" | "resume"
    algo: str = ""
    config: dict | None = None
    truncate: bool = False

    @property
    def log(self) -> Path:
        return Path(self.run_dir).with_name(Path(self.run_dir).name + ".log")


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def auto_procs(backend: str, members: int) -> int:
    """`--procs auto`: one process per core (at most one per seed) on a CPU with the gymnasium backend, else 1."""
    import jax

    if backend != "gymnasium" or jax.default_backend() != "cpu":
        return 1
    return max(1, min(cores(), members))


def parse_procs(text: str) -> int | str:
    if text == "auto":
        return text
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"--procs '{text}': give a number of processes (1, 2, ...) or auto")
    return int(text)


def run(jobs: list[Job], procs: int, say=print) -> dict[str, int]:
    """Run `jobs`, at most `procs` at once, in order; wait for every one. Returns {job name: exit code}. A signal to
    this process is passed on to the running children (each checkpoints and stops) and no further job starts."""
    pending, running, codes = list(jobs), {}, {}
    stop = []

    def forward(signum, _frame):
        stop.append(signum)
        for p, _ in running.values():
            with _quiet():
                p.send_signal(signal.SIGTERM)

    old = {s: signal.signal(s, forward) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        last = time.monotonic()
        while pending or running:
            while pending and len(running) < procs and not stop:
                job = pending.pop(0)
                running[job.name] = (_start(job), job)
                say(f"{job.kind} {job.name}: started in process {len(running)}/{procs}, log {job.log}")
            for name, (p, job) in list(running.items()):
                if p.poll() is not None:
                    codes[name] = p.returncode
                    del running[name]
                    say(f"{job.kind} {name}: {_ended(p.returncode, job)}")
            if stop and not running:
                codes.update({job.name: EXIT_INTERRUPTED for job in pending})
                break
            if running and time.monotonic() - last > PROGRESS_EVERY_S:
                last = time.monotonic()
                say("; ".join(f"{name} {_progress(job)}" for name, (_, job) in running.items()))
            time.sleep(0.2)
    finally:
        for s, h in old.items():
            signal.signal(s, h)
    return codes


def _start(job: Job) -> subprocess.Popen:
    Path(job.run_dir).parent.mkdir(parents=True, exist_ok=True)
    payload = json.dumps({"kind": job.kind, "run_dir": job.run_dir, "algo": job.algo, "config": job.config,
                          "truncate": job.truncate})
    with open(job.log, "a") as log:  # the child holds its own descriptor
        return subprocess.Popen([sys.executable, "-m", "camel_jax.core.parallel", payload], stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)


def _ended(code: int, job: Job) -> str:
    if code == 0:
        return "finished"
    if code == EXIT_INTERRUPTED:
        return "stopped, checkpoint written"
    tail = job.log.read_text().strip().splitlines()[-1:] if job.log.is_file() else []
    return f"failed (exit {code}): {tail[0] if tail else 'no output'} (see {job.log})"


def _progress(job: Job) -> str:
    """The run's last logged env step, from the tail of its metrics.csv."""
    path = Path(job.run_dir) / "metrics.csv"
    try:
        with open(path, "rb") as f:
            f.seek(max(0, path.stat().st_size - 4096))
            line = f.read().decode(errors="replace").strip().splitlines()[-1]
        step = int(line.split(",")[0])
        return f"step {step:,}"
    except (OSError, IndexError, ValueError):
        return "compiling"


class _quiet:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return exc[0] is ProcessLookupError


def _child(payload: str) -> int:
    """A job in this process: `camel-jax train` of the config, or `camel-jax resume` of the run directory, with the
    command line's exit codes (2: a user error, 75: stopped by a signal with its checkpoint written)."""
    from camel_jax import algos, console
    from camel_jax.core import signals
    from camel_jax.core.commandline import user_errors

    console.quiet_libraries()  # the sweep's process logs: no library noise before the run's first line, as on the console
    job = json.loads(payload)
    command = job["kind"]
    try:
        if command == "resume":
            algos.of_run(job["run_dir"]).resume(job["run_dir"], quiet=None, truncate=job["truncate"])
        else:
            plugin = algos.get(job["algo"])
            plugin.train(plugin.Config.from_dict(job["config"]))
    except user_errors() as e:
        print(f"camel-jax {command}: {e}", file=sys.stderr)
        return 2
    except signals.Interrupted as e:
        print(f"camel-jax {command}: {e}", file=sys.stderr)
        return signals.EXIT_INTERRUPTED
    return 0


if __name__ == "__main__":
    raise SystemExit(_child(sys.argv[1]))
