#!/usr/bin/env python
"""Whole-process time of a CleanRL-equivalent TD3 run: camel-jax against CleanRL's own script, alternating.

What a user times: the whole command, start-up, imports and compilation included. Each pair runs, in an order that
rotates from pair to pair (so a drifting load hits every variant alike):
  - "cleanrl": CleanRL's `td3_continuous_action_jax.py`, unchanged, from a checkout (--cleanrl) in its own venv
    (--cleanrl-python; CleanRL's pinned set, bench/reference/venvs/cleanrl.txt: jax 0.4.30, gymnasium 0.29.1, see
    bench/README.md): `--env-id Hopper-v4 --total-timesteps 11000 --learning-starts 1000 --seed 1`;
  - "cleanrl_current" (with --cleanrl-python-current): the same script, unchanged, in a second venv, CleanRL's set
    with the JAX stack (jax, jaxlib, flax, optax, numpy) at ours (bench/reference/venvs/cleanrl_jaxnow.txt);
  - "cold": `camel-jax train --env hopper --backend gymnasium --prior none --seeds 0 --num-envs 1 --total-steps 11000
    --learning-starts 1000 --eval-episodes 0`, with an empty compilation cache (a first run on a machine);
  - "warm": the same command with the cache filled by an earlier run of it (every later run, the default).
Each CleanRL variant records its interpreter's versions and is labelled from them: "the same JAX as ours" (its jax
and jaxlib are this interpreter's), "CleanRL's pinned set" (jax, jaxlib, flax, optax, numpy, gymnasium and mujoco
as in bench/reference/venvs/cleanrl.txt), or neither. It prints the median wall time of each variant, for each of
cold and warm the speed ratio against each CleanRL variant (its median wall divided by ours), and the steady rates
after learning starts: CleanRL's from its SPS lines, ours from metrics.csv's wall_s column. With `--ceiling` it also
times, in this process, the update-only ceiling: the trainer's `learn` (store, sample, one TD3 update) scanned inside
one compiled program, no env (bench/throughput.py item (c)).

    python bench/whole_run.py --cleanrl ~/cleanrl --cleanrl-python ~/venvs/cleanrl/bin/python \\
        --cleanrl-python-current ~/venvs/cleanrl_jaxnow/bin/python --pairs 4 \\
        --out bench/results/whole_run_cpu.json          # writes the .json and a .md beside it
    python bench/whole_run.py --pairs 1 --total-steps 1200 --learning-starts 200 --out /tmp/w.json  # smoke, no CleanRL
"""

from __future__ import annotations

import argparse
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
sys.path.insert(0, str(HERE))
from cleanrl_reference import run_seed, versions

PINNED = HERE / "reference" / "venvs" / "cleanrl.txt"  # CleanRL's pinned set (its venv's pip freeze)
SAME_JAX, PINNED_SET = "the same JAX as ours", "CleanRL's pinned set"
PINNED_KEYS = ("jax", "jaxlib", "flax", "optax", "numpy", "gymnasium", "mujoco")  # what "CleanRL's pinned set" pins
CLEANRL_VARIANTS = {"cleanrl": "cleanrl_python", "cleanrl_current": "cleanrl_python_current"}  # variant: option
OURS = ("cold", "warm")


def ours_command(args, out: Path) -> list[str]:
    return [sys.executable, "-m", "camel_jax.cli", "train", "--env", args.env, "--backend", "gymnasium",
            "--prior", "none", "--seeds", "0", "--num-envs", "1", "--total-steps", str(args.total_steps),
            "--learning-starts", str(args.learning_starts), "--eval-episodes", "0", "--out", str(out),
            "--overwrite", "--quiet", *args.ours_args]


def run_ours(args, work: Path, cache: Path) -> dict:
    out = work / "run"
    cmd = ours_command(args, out)
    env = {**os.environ, "JAX_COMPILATION_CACHE_DIR": str(cache), "JAX_PLATFORMS": "cpu"}
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, cwd=work, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    if proc.returncode:
        raise SystemExit(f"camel-jax exited with {proc.returncode}: {proc.stderr.strip().splitlines()[-1:]}")
    with open(out / "metrics.csv") as f:
        rows = [(int(r["step"]), float(r["wall_s"])) for r in csv.DictReader(f)]
    learn = [(s, w) for s, w in rows if s > args.learning_starts + 1000]  # one log row past the first updates
    steady = (learn[-1][0] - learn[0][0]) / (learn[-1][1] - learn[0][1]) if len(learn) > 1 else float("nan")
    first = rows[0]  # start-up, compilation and the first log window (random actions)
    return {"wall_s": round(wall, 2), "steady_steps_per_s": round(steady, 1), "first_row": first,
            "command": "camel-jax " + " ".join(cmd[3:])}


def pinned_versions(path: Path = PINNED) -> dict:
    """The `name==version` lines of a pip freeze, by lower-case name with `_` as `-`."""
    pins = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if "==" in line:
            name, version = line.split("==", 1)
            pins[name.strip().lower().replace("_", "-")] = version.strip()
    return pins


def jax_label(theirs: dict, ours: dict, pinned: dict) -> str:
    """Which set a CleanRL interpreter is, from its versions: ours' jax and jaxlib, CleanRL's pinned set, or neither."""
    if theirs.get("jax") == ours.get("jax") and theirs.get("jaxlib") == ours.get("jaxlib"):
        return SAME_JAX
    if all(theirs.get(k) == pinned.get(k) for k in PINNED_KEYS):
        return PINNED_SET
    return (f"neither the same JAX as ours (jax {ours.get('jax')}) nor CleanRL's pinned set (jax {pinned.get('jax')}, "
            "bench/reference/venvs/cleanrl.txt)")


def cleanrl_variants(args, ours: dict) -> dict[str, dict]:
    """For each CleanRL variant asked for: its interpreter, that interpreter's versions and its label."""
    if not args.cleanrl:
        if args.cleanrl_python_current:
            raise SystemExit("--cleanrl-python-current needs --cleanrl (the CleanRL checkout whose script it runs)")
        return {}
    pinned = pinned_versions()
    info = {}
    for variant, option in CLEANRL_VARIANTS.items():
        python = getattr(args, option)
        if not python:
            continue
        if not (Path(python).is_file() or shutil.which(python)):
            raise SystemExit(f"--{option.replace('_', '-')} {python}: no such interpreter; pass the python of a venv "
                             "that holds CleanRL's requirements (bench/README.md)")
        v = versions(python)
        info[variant] = {"python": python, "versions": v, "set": jax_label(v, ours, pinned)}
    return info


def run_cleanrl(args, work: Path, python: str) -> dict:
    script = Path(args.cleanrl) / "cleanrl" / "td3_continuous_action_jax.py"
    env_id = {"hopper": "Hopper-v4", "walker2d": "Walker2d-v4", "ant": "Ant-v4"}[args.env]
    _, timing = run_seed(python, script, Path(args.cleanrl), env_id, 1, args.total_steps,
                         args.learning_starts, work)
    return {"wall_s": timing["wall_s"], "steady_steps_per_s": timing.get("steady_steps_per_s", float("nan")),
            "command": timing["command"]}


def ceiling(args, seconds: float = 2.0, reps: int = 5) -> dict:
    """Updates/s of `learn` scanned over a fixed transition (insert, sample, one TD3 update), no env, no host."""
    import jax
    import jax.numpy as jnp

    from camel_jax import envs
    from camel_jax.algos.td3.config import Config
    from camel_jax.algos.td3.trainer import make_train

    config = Config(env=args.env, backend="gymnasium", prior="none", total_steps=args.total_steps,
                    learning_starts=0, eval_episodes=0)
    venv = envs.make(args.env, "gymnasium", 1)
    tr = make_train(config, venv, None)
    learner = jax.jit(tr.init_learner)(jax.random.PRNGKey(0), config.hyper())
    state = jax.tree.map(lambda x: jnp.asarray(x), venv.reset(0))
    venv.close()
    action = jnp.zeros((1, venv.act_dim))

    from throughput import scanned_learn  # the same program as bench/throughput.py's ceiling

    learn_scan = scanned_learn(tr)
    scanned = jax.jit(lambda learner, start: learn_scan(learner, state.obs, action, state, start, 100),
                      donate_argnums=0)
    learner, _ = scanned(learner, 1)
    jax.block_until_ready(learner)
    rates, i = [], 101
    for _ in range(reps):
        n, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            learner, loss = scanned(learner, i)
            i, n = i + 100, n + 100
        jax.block_until_ready(loss)
        rates.append(n / (time.perf_counter() - t0))
    return {"updates_per_s": round(statistics.median(rates), 1), "min": round(min(rates), 1),
            "max": round(max(rates), 1)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cleanrl", default=os.environ.get("CLEANRL_DIR", ""), help="CleanRL checkout (omit: ours only)")
    p.add_argument("--cleanrl-python", default=sys.executable,
                   help="python of CleanRL's venv (CleanRL's pinned set): the variant \"cleanrl\"")
    p.add_argument("--cleanrl-python-current", default="",
                   help="python of a second CleanRL venv, CleanRL's set on our JAX (bench/README.md, cleanrl_jaxnow): "
                        "adds the variant \"cleanrl_current\"")
    p.add_argument("--pairs", type=int, default=3)
    p.add_argument("--env", default="hopper", choices=("hopper", "walker2d", "ant"))
    p.add_argument("--total-steps", type=int, default=11_000)
    p.add_argument("--learning-starts", type=int, default=1_000)
    p.add_argument("--ceiling", action="store_true", help="also time the update-only ceiling in this process")
    p.add_argument("--ours-args", nargs="*", action="extend", default=[],
                   help="extra flags for our command (a lever's switch); repeatable, so that a flag can be given as "
                        "--ours-args=--hidden=32,32")
    p.add_argument("--out", default="bench/results/whole_run_cpu.json")
    args = p.parse_args()
    if args.cleanrl and not (Path(args.cleanrl) / "cleanrl" / "td3_continuous_action_jax.py").is_file():
        raise SystemExit(f"--cleanrl {args.cleanrl} is not a CleanRL checkout (no cleanrl/td3_continuous_action_jax.py)")

    sys.path.insert(0, str(HERE.parent))
    from throughput import machine_info  # the same machine record as bench/throughput.py

    machine = machine_info()
    cleanrl = cleanrl_variants(args, machine["versions"])  # before any run: a wrong interpreter stops us here
    for v, c in cleanrl.items():
        print(f"{v}: {c['python']}: jax {c['versions'].get('jax')} ({c['set']})", file=sys.stderr)
    root = Path(tempfile.mkdtemp(prefix="whole_run_"))
    warm_cache = root / "warm_cache"
    print(f"warming the compilation cache: {' '.join(ours_command(args, root / 'warmup'))}", file=sys.stderr)
    run_ours(args, root, warm_cache)  # the "warm" variant's cache, filled once; this run is not counted
    variants = [*cleanrl, *OURS]
    results: dict[str, list[dict]] = {v: [] for v in variants}
    for k in range(args.pairs):
        order = variants[k % len(variants):] + variants[:k % len(variants)]
        for v in order:
            work = root / f"{v}_{k}"
            work.mkdir()
            if v in cleanrl:
                r = run_cleanrl(args, work, cleanrl[v]["python"])
            else:
                cache = warm_cache if v == "warm" else work / "empty_cache"
                r = run_ours(args, work, cache)
            results[v].append(r)
            print(f"pair {k + 1}/{args.pairs} {v:15s} {r['wall_s']:7.1f} s  steady {r['steady_steps_per_s']} steps/s",
                  file=sys.stderr, flush=True)
    summary = summarize(results, cleanrl)
    result = {"benchmark": "whole_run", "argv": sys.argv, "settings": vars(args), "machine": machine,
              "cleanrl_variants": cleanrl, "runs": results, "summary": summary}
    if args.ceiling:
        result["ceiling"] = ceiling(args)
        for v in OURS:
            result["summary"][v]["steady_over_ceiling"] = round(
                summary[v]["median_steady_steps_per_s"] / result["ceiling"]["updates_per_s"], 3)
    shutil.rmtree(root, ignore_errors=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(result, indent=2) + "\n")
    out.with_suffix(".md").write_text(render(result))
    print(render(result))


def summarize(results: dict[str, list[dict]], cleanrl: dict[str, dict]) -> dict:
    """Per variant its median wall and steady rate; per CleanRL variant its interpreter, versions and set; for cold
    and warm, `speed_vs_<variant>` (that CleanRL variant's median wall / ours) and `per_pair_speed_vs_<variant>`
    (the same, pair by pair) for each CleanRL variant: `speed_vs_cleanrl` is against CleanRL's pinned venv."""
    summary = {v: {"median_wall_s": statistics.median(r["wall_s"] for r in rs),
                   "walls": [r["wall_s"] for r in rs],
                   "median_steady_steps_per_s": statistics.median(r["steady_steps_per_s"] for r in rs),
                   "command": rs[0]["command"]} for v, rs in results.items()}
    for c, info in cleanrl.items():
        summary[c] |= {"python": info["python"], "jax": info["versions"].get("jax"), "set": info["set"],
                       "versions": info["versions"]}
        for v in OURS:
            summary[v][f"speed_vs_{c}"] = round(summary[c]["median_wall_s"] / summary[v]["median_wall_s"], 3)
            summary[v][f"per_pair_speed_vs_{c}"] = [round(a["wall_s"] / o["wall_s"], 3)
                                                    for a, o in zip(results[c], results[v])]
    return summary


def render(result: dict) -> str:
    s, m = result["summary"], result["machine"]
    simd = f" ({' '.join(m['cpu_simd'])})" if m.get("cpu_simd") else ""  # absent from results before 2026-11-29
    lines = [(f"# Whole-process time, {result['settings']['env']}, {result['settings']['total_steps']} steps "
             f"(learning from {result['settings']['learning_starts']})"), "",
             f"Command: `python {' '.join(result['argv'])}`", "",
             (f"Machine: {m['cpu_model']}{simd}, {m['cpu_count']} cores, load average at start "
              f"{m['loadavg_start'][0]:.2f}; "
             f"ours: jax {m['versions'].get('jax')}, jaxlib {m['versions'].get('jaxlib')}, "
             f"flax {m['versions'].get('flax')}, numpy {m['versions'].get('numpy')}, "
             f"mujoco {m['versions'].get('mujoco')}, gymnasium {m['versions'].get('gymnasium')}."), "",
             "| variant | median wall s | walls (per pair) | steady steps/s |", "|---|---|---|---|"]
    for v, row in s.items():
        lines.append(f"| {v} | {row['median_wall_s']:.1f} | {', '.join(f'{w:.1f}' for w in row['walls'])} | "
                     f"{row['median_steady_steps_per_s']} |")
    cleanrl = [v for v in s if v not in OURS]
    if cleanrl:
        names = PINNED_KEYS  # the versions that tell the sets apart
        lines += ["", "CleanRL's unchanged script, in each of its venvs:", "",
                  f"| CleanRL variant | set | {' | '.join(names)} |", "|---|---|" + "---|" * len(names)]
        for c in cleanrl:
            vs = s[c].get("versions", {})
            lines.append(f"| {c} | {s[c].get('set', 'not recorded')} | "
                         + " | ".join(str(vs.get(n, "")) for n in names) + " |")
        lines += ["", "Speed of ours: CleanRL's median wall / ours (above 1: ours is faster):", "",
                  "| ours | against CleanRL variant | its JAX | median | per pair |", "|---|---|---|---|---|"]
        for v in OURS:
            for c in cleanrl:
                lines.append(f"| {v} | {c} | jax {s[c].get('jax')} ({s[c].get('set', 'not recorded')}) | "
                             f"{s[v][f'speed_vs_{c}']} | {', '.join(map(str, s[v][f'per_pair_speed_vs_{c}']))} |")
        lines.append("")
        lines += [f"Against `{c}` ({s[c].get('set', 'not recorded')}, jax {s[c].get('jax')}): cold "
                  f"{s['cold'][f'speed_vs_{c}']}x, warm {s['warm'][f'speed_vs_{c}']}x." for c in cleanrl]
    if "ceiling" in result:
        c = result["ceiling"]
        lines += ["", (f"Update-only ceiling (`learn` scanned, no env): {c['updates_per_s']} updates/s "
                      f"({c['min']}-{c['max']}); steady/ceiling: cold {s['cold'].get('steady_over_ceiling')}, "
                      f"warm {s['warm'].get('steady_over_ceiling')}.")]
    lines += ["", ("cold: an empty compilation cache (a first run); warm: the cache filled by an earlier run of the "
                  "same command (every later run). Commands:"), ""]
    lines += [f"- {v}: `{row['command']}`" for v, row in s.items()]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
