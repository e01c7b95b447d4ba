#!/usr/bin/env python
"""Env steps per second of one task on both backends at several env counts: the simulator alone, no agent (issue #26).

For each (backend, num_envs): `camel_jax.envs.make(TASK, backend, num_envs)`, random actions in [-1, 1], the
auto-resetting `step` of the product. MJX: `--chunk` steps scanned in one jitted call (as the trainer runs them),
compile time reported apart; gymnasium: the product's C MuJoCo pool stepped from Python. The backends alternate,
`--reps` timed repetitions each after one untimed warm-up, and the table gives the median and the range of env
steps/s (num_envs x steps / wall second) with the compile (MJX) or first-call time.

    python bench/env_steps.py --env humanoid --num-envs 1,128 --steps 300 --mjx-steps 30 --out bench/results/humanoid/env_steps_cpu.json
    python bench/env_steps.py --env hopper --num-envs 1,2 --steps 20 --reps 1 --out /tmp/e.json      # smoke
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's camel_jax, installed or not

import jax

from camel_jax import envs

sys.path.insert(0, str(Path(__file__).resolve().parent))
from throughput import machine_info  # bench/throughput.py: CPU model, versions, devices


def mjx_runner(task: str, num_envs: int, chunk: int):
    env = envs.make(task, backend="mjx", num_envs=num_envs)
    size = env.act_dim

    def run(state, key):
        def body(carry, k):
            s = carry
            a = jax.random.uniform(k, (num_envs, size), minval=-1.0, maxval=1.0)
            return env.step(s, a), ()

        state, _ = jax.lax.scan(body, state, jax.random.split(key, chunk))
        return state

    run = jax.jit(run)
    state = env.reset(jax.random.PRNGKey(0))
    t = time.perf_counter()
    state = jax.block_until_ready(run(state, jax.random.PRNGKey(1)))
    first = time.perf_counter() - t

    def timed(steps: int, key):
        nonlocal state
        calls = max(1, steps // chunk)
        t = time.perf_counter()
        for k in jax.random.split(key, calls):
            state = run(state, k)
        jax.block_until_ready(state)
        return calls * chunk * num_envs / (time.perf_counter() - t)

    return first, timed


def gym_runner(task: str, num_envs: int, chunk: int):
    import numpy as np

    env = envs.make(task, backend="gymnasium", num_envs=num_envs)
    size = env.act_dim
    rng = np.random.default_rng(0)
    t = time.perf_counter()
    state = env.reset(0)
    state = env.step(state, rng.uniform(-1, 1, (num_envs, size)))
    first = time.perf_counter() - t

    def timed(steps: int, key):
        nonlocal state
        actions = rng.uniform(-1, 1, (steps, num_envs, size)).astype(np.float32)
        t = time.perf_counter()
        for a in actions:
            state = env.step(state, a)
        return steps * num_envs / (time.perf_counter() - t)

    return first, timed


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--env", default="humanoid")
    p.add_argument("--num-envs", default="1,128", help="comma list")
    p.add_argument("--backends", default="gymnasium,mjx")
    p.add_argument("--steps", type=int, default=1000, help="steps per env per timed repetition")
    p.add_argument("--mjx-steps", type=int, default=0,
                   help="MJX's steps per env per repetition, if not --steps (MJX on a CPU is tens of times slower)")
    p.add_argument("--chunk", type=int, default=100, help="MJX steps per jitted call")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--out", required=True)
    args = p.parse_args(argv)
    counts = [int(n) for n in args.num_envs.split(",")]
    backends = args.backends.split(",")
    make = {"mjx": mjx_runner, "gymnasium": gym_runner}
    steps = {"gymnasium": args.steps, "mjx": args.mjx_steps if args.mjx_steps > 0 else args.steps}
    machine = machine_info()
    runners, results = {}, []
    for n in counts:
        for b in backends:
            print(f"{b} num_envs={n}: building and compiling", flush=True)
            first, timed = make[b](args.env, n, min(args.chunk, steps[b]))
            print(f"{b} num_envs={n}: first call {first:.1f} s", flush=True)
            timed(min(steps[b], args.chunk), jax.random.PRNGKey(2))  # untimed warm-up
            runners[(b, n)] = timed
            results.append({"backend": b, "num_envs": n, "first_call_s": round(first, 2), "rates": []})
    for rep in range(args.reps):  # the cases alternate within each repetition
        for r in results:
            rate = runners[(r["backend"], r["num_envs"])](steps[r["backend"]], jax.random.PRNGKey(10 + rep))
            r["rates"].append(round(rate, 1))
            print(f"rep {rep + 1}/{args.reps} {r['backend']:9s} num_envs={r['num_envs']:4d} {rate:10.1f} env steps/s",
                  flush=True)
        # after every repetition: a stopped run keeps what it measured
        write(args, argv, results, steps, machine, reps_done=rep + 1)
    print(Path(args.out).with_suffix(".md").read_text())
    return 0


def write(args, argv, results, steps: dict, machine: dict, reps_done: int) -> None:
    """The JSON record and the markdown table of the repetitions done so far."""
    for r in results:
        r["median"] = statistics.median(r["rates"])
    record = {"command": "python bench/env_steps.py " + " ".join(argv if argv is not None else sys.argv[1:]),
              "env": args.env, "steps": steps, "chunk": args.chunk, "reps": args.reps, "reps_done": reps_done,
              "machine": {"cpu": machine["cpu_model"], "device": machine["devices"][0], "cores": machine["cpu_count"]},
              "versions": {m: machine["versions"][m] for m in ("jax", "mujoco", "gymnasium")},
              "results": results}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=2) + "\n")
    lines = [f"# Env steps/s of {args.env} (no agent; random actions)", "",
             f"Command: `{record['command']}`", "",
             f"Device: {record['machine']['device']} ({record['machine']['cpu']}), {record['machine']['cores']} cores; "
             + ", ".join(f"{k} {v}" for k, v in record["versions"].items())
             + f"; {reps_done} of {args.reps} repetitions done", "",
             ("| backend | num_envs | steps per env per repetition | env steps/s (median) | per repetition "
             "| first call s (MJX: compile) |"),
             "|---|---|---|---|---|---|"]
    lines += [f"| {r['backend']} | {r['num_envs']} | {steps[r['backend']]} | {r['median']:,.0f} "
              f"| {', '.join(f'{x:,.0f}' for x in r['rates'])} | {r['first_call_s']} |" for r in results]
    out.with_suffix(".md").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    raise SystemExit(main())
