#!/usr/bin/env python
"""Ten seeds of one setting on a CPU: which way of running them is fastest (issue #24, item 1)?

Each way is a whole `camel-jax train` command (TD3 --prior none, gymnasium, Hopper, `--seeds 0-9` by default), run in
fresh processes, the ways alternating round by round in an order that rotates (a drifting load hits each alike):
  one    one process, one XLA device, the seeds vmapped in each jitted call (the default of `--seeds 0-9`);
  mesh   one process, the seeds sharded over two host devices, one per core (`--mesh seeds=2` under
         XLA_FLAGS=--xla_force_host_platform_device_count=2);
  two    two processes at once, half of the seeds each, started together.
With `--baseline DIR` the same ways also run from another checkout (PYTHONPATH=DIR).

For each run: the whole-process wall time (for `two`: from the start of both to the end of the last) and the steady
rate, seeds x env steps per second after learning starts, from metrics.csv's `wall_s` between the first log row
one window past `--learning-starts` and the last row (for `two`: the two processes' rates added; they overlap).
Writes a JSON and a markdown table (median, min-max over rounds, ratios to `one` of the same rounds).

    python bench/sweep_modes.py --rounds 3 --out bench/results/sweep_modes_cpu.json
    python bench/sweep_modes.py --rounds 1 --seeds 0-1 --total-steps 600 --learning-starts 200 --log-every 200 \\
        --out /tmp/s.json     # smoke
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


def seeds_of(text: str) -> list[int]:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def command(args, seeds: list[int], out: Path, mesh: str) -> list[str]:
    cmd = [sys.executable, "-m", "camel_jax.cli", "train", "--env", args.env, "--backend", "gymnasium", "--prior",
           "none", "--seeds", ",".join(map(str, seeds)), "--total-steps", str(args.total_steps), "--learning-starts",
           str(args.learning_starts), "--log-every", str(args.log_every), "--eval-episodes", "0",
           "--checkpoint-every", str(args.total_steps), "--out", str(out), "--overwrite"]
    return cmd + (["--mesh", mesh] if mesh else [])


def steady(args, run_dir: Path) -> float:
    """Seed-steps/s after learning starts, from metrics.csv: from the row one log window past learning starts (the
    first window of updates only) to the last row."""
    with open(run_dir / "metrics.csv") as f:
        rows = list(csv.DictReader(f))
    wall = {int(r["step"]): float(r["wall_s"]) for r in rows}
    seeds = len({r["seed"] for r in rows})
    steps = sorted(s for s in wall if s >= args.learning_starts + args.log_every)
    return (steps[-1] - steps[0]) * seeds / (wall[steps[-1]] - wall[steps[0]])


def run_way(args, way: str, root: Path, work: Path) -> dict:
    """One run of `way` ('one', 'mesh', 'two') from the checkout `root`."""
    seeds = seeds_of(args.seeds)
    env = {**os.environ, "PYTHONPATH": str(root), "JAX_PLATFORMS": "cpu", "JAX_COMPILATION_CACHE_DIR": str(args.cache)}
    if way == "one":
        jobs = [(seeds, "")]
    elif way == "mesh":
        jobs = [(seeds, "seeds=2")]
        env["XLA_FLAGS"] = env.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=2"
    else:
        half = len(seeds) // 2
        jobs = [(seeds[:half], ""), (seeds[half:], "")]
    with contextlib.ExitStack() as stack:
        logs = [stack.enter_context(open(work / f"log{k}.txt", "w")) for k in range(len(jobs))]
        t0 = time.perf_counter()
        procs = [subprocess.Popen(command(args, s, work / f"run{k}", mesh), env=env, cwd=root, stdout=log,
                                  stderr=subprocess.STDOUT) for k, ((s, mesh), log) in enumerate(zip(jobs, logs))]
        for proc in procs:
            proc.wait()
        wall = time.perf_counter() - t0
    for k, proc in enumerate(procs):
        if proc.returncode:
            raise SystemExit(f"{way} exited with {proc.returncode}:\n{(work / f'log{k}.txt').read_text()[-2000:]}")
    rates = [steady(args, work / f"run{k}") for k in range(len(jobs))]
    prefix = "XLA_FLAGS=--xla_force_host_platform_device_count=2 " if way == "mesh" else ""
    return {"wall_s": round(wall, 2), "seed_steps_per_s": round(sum(rates), 1),
            "commands": [prefix + "camel-jax " + " ".join(command(args, s, Path("RUN"), m)[3:]) for s, m in jobs]}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--seeds", default="0-9", help="FIRST-LAST")
    p.add_argument("--env", default="hopper")
    p.add_argument("--total-steps", type=int, default=4000)
    p.add_argument("--learning-starts", type=int, default=1000)
    p.add_argument("--log-every", type=int, default=500)
    p.add_argument("--ways", default="one,mesh,two")
    p.add_argument("--baseline", default="", help="another checkout to run the same ways from (PYTHONPATH)")
    p.add_argument("--out", default="bench/results/sweep_modes_cpu.json")
    args = p.parse_args()
    sys.path.insert(0, str(HERE))
    from throughput import machine_info

    work = Path(tempfile.mkdtemp(prefix="sweep_modes_"))
    args.cache = work / "cache"  # filled by the warm-up runs: every counted run compiles from the cache
    variants = [(w, ROOT) for w in args.ways.split(",")]
    if args.baseline:
        variants += [(w, Path(args.baseline).resolve()) for w in args.ways.split(",")]
    name = lambda w, r: w if r == ROOT else f"{w}@baseline"
    for w, r in variants:  # warm-up (uncounted): compile each program once into the cache
        (work / f"warm_{name(w, r)}").mkdir()
        print(f"warm-up {name(w, r)}", file=sys.stderr, flush=True)
        run_way(args, w, r, work / f"warm_{name(w, r)}")
    machine = machine_info()
    results: dict[str, list[dict]] = {name(w, r): [] for w, r in variants}
    for k in range(args.rounds):
        order = variants[k % len(variants):] + variants[:k % len(variants)]
        for w, r in order:
            d = work / f"{name(w, r)}_{k}"
            d.mkdir()
            res = run_way(args, w, r, d)
            results[name(w, r)].append(res)
            print(f"round {k + 1}/{args.rounds} {name(w, r):14s} wall {res['wall_s']:7.1f} s  "
                  f"{res['seed_steps_per_s']:6.1f} seed-steps/s", file=sys.stderr, flush=True)
    summary = {}
    for v, rs in results.items():
        base = results.get("one@baseline" if v.endswith("@baseline") else "one", rs)
        summary[v] = {
            "median_wall_s": statistics.median(r["wall_s"] for r in rs),
            "walls": [r["wall_s"] for r in rs],
            "median_seed_steps_per_s": statistics.median(r["seed_steps_per_s"] for r in rs),
            "rates": [r["seed_steps_per_s"] for r in rs],
            "rate_vs_one": [round(r["seed_steps_per_s"] / b["seed_steps_per_s"], 3) for r, b in zip(rs, base)],
            "wall_vs_one": [round(b["wall_s"] / r["wall_s"], 3) for r, b in zip(rs, base)],
            "commands": rs[0]["commands"]}
    machine["loadavg_end"] = list(os.getloadavg())
    result = {"benchmark": "sweep_modes", "argv": sys.argv, "settings": {k: str(v) for k, v in vars(args).items()},
              "machine": machine, "runs": results, "summary": summary}
    shutil.rmtree(work, ignore_errors=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    out.with_suffix(".md").write_text(render(result))
    print(render(result))


def render(result: dict) -> str:
    s, m, a = result["summary"], result["machine"], result["settings"]
    lines = [f"# {len(seeds_of(a['seeds']))} seeds at once on a CPU: one process, a host-device mesh, two processes", "",
             f"Command: `python {' '.join(result['argv'])}`", "",
             (f"Machine: {m['cpu_model']}, {m['cpu_count']} cores, load average {m['loadavg_start'][0]:.2f} at the "
              f"start and {m['loadavg_end'][0]:.2f} at the end; jax {m['versions'].get('jax')}, mujoco "
              f"{m['versions'].get('mujoco')}, gymnasium {m['versions'].get('gymnasium')}."), "",
             (f"Setting: TD3 --prior none, {a['env']}, gymnasium, seeds {a['seeds']}, {a['total_steps']} steps, "
              f"learning from {a['learning_starts']}; {a['rounds']} rounds, the ways alternating; each counted run "
              "compiled from a cache that an uncounted warm-up filled."), "",
             ("| way | seed-steps/s after learning starts (median; per round) | x one (per round) | whole-process wall "
              "s (median; per round) | one's wall / this wall (per round) |"),
             "|---|---|---|---|---|"]
    for v, row in s.items():
        lines.append(f"| {v} | {row['median_seed_steps_per_s']:.1f}; {', '.join(map(str, row['rates']))} | "
                     f"{', '.join(map(str, row['rate_vs_one']))} | {row['median_wall_s']:.1f}; "
                     f"{', '.join(map(str, row['walls']))} | {', '.join(map(str, row['wall_vs_one']))} |")
    lines += ["", "Commands:", ""]
    for v, row in s.items():
        lines += [f"- {v}: " + " & ".join(f"`{c}`" for c in row["commands"])]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
