#!/usr/bin/env python
"""GPU throughput of camel-jax in one process: the MJX envs (jax and warp), and the fused trainer with the preset.

  (1) env steps/s of the auto-resetting MJX env alone (a compiled scan of `AutoResetVecEnv.step` with random
      actions, donated state) for each task x implementation x num_envs; warp is skipped, with the reason, where
      MuJoCo Warp cannot run (envs.check_mjx_impl).
  (2) the fused trainer (`run_chunk`, jitted with the state donated as loop.py does) with presets/fast.json on one
      task, at each vmapped seed count: env steps/s over all seeds, per seed, and gradient updates/s. A seed count
      whose replay buffers alone (camel_jax.algos.td3.memory.buffer_bytes_per_member x seeds) exceed the device's memory limit
      is skipped with that reason.
Every item records its compile time (first call minus one steady call) and the device's peak memory so far (jax's
`memory_stats()`, where the backend reports it: the peak is over the whole process, items run from small to large).
JAX_DEFAULT_MATMUL_PRECISION is recorded: unset, float32 matmuls on Ampere and newer GPUs run in TF32.

    python bench/gpu_throughput.py                        # on a GPU: bench/results/gpu_throughput.{json,md}
    python bench/gpu_throughput.py --num-envs 4 --seeds 1,2 --trainer-num-envs 4 --batch-size 64 --chunk 2 \\
        --env-steps 4 --reps 1 --rep-seconds 0.1 --out /tmp/g.json   # a smoke run at tiny sizes (CPU)
A run on a CPU never writes under bench/results/ (its figures are not GPU figures): pass --out elsewhere.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import jax
import jax.numpy as jnp

sys.path.insert(0, str(Path(__file__).parent))
from throughput import Item, first_call, fmt, interleaved, log, machine_info, rate_cell

from camel_jax import envs
from camel_jax.algos.td3.config import Config
from camel_jax.algos.td3.memory import buffer_bytes_per_member
from camel_jax.algos.td3.trainer import make_train
from camel_jax.priors.baselines import resolve

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"


def _ints(s: str) -> list[int]:
    return [int(x) for x in s.split(",") if x]


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--envs", default="hopper,walker2d,ant", help="tasks of item (1)")
    p.add_argument("--impls", default="jax,warp", help="MJX implementations of item (1)")
    p.add_argument("--num-envs", default="1024,4096,16384", help="env counts of item (1)")
    p.add_argument("--env-steps", type=int, default=64, help="vectorized env steps per compiled call in item (1)")
    p.add_argument("--preset", default=str(ROOT / "presets" / "fast.json"), help="the trainer's Config JSON (2)")
    p.add_argument("--trainer-env", default="hopper")
    p.add_argument("--trainer-impl", default="jax")
    p.add_argument("--trainer-num-envs", type=int, default=None, help="envs per seed in (2) (default: the preset's)")
    p.add_argument("--seeds", default="1,8,32,128", help="vmapped seed counts of item (2)")
    p.add_argument("--batch-size", type=int, default=None, help="override the preset's batch size")
    p.add_argument("--buffer-size", type=int, default=None, help="override the preset's replay capacity")
    p.add_argument("--chunk", type=int, default=16, help="training iterations per compiled chunk in (2)")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--rep-seconds", type=float, default=2.0)
    p.add_argument("--out", default=str(RESULTS / "gpu_throughput.json"), help="JSON path; the .md goes beside it")
    args = p.parse_args(argv)
    args.envs, args.impls = [x for x in args.envs.split(",") if x], [x for x in args.impls.split(",") if x]
    args.num_envs, args.seeds = _ints(args.num_envs), _ints(args.seeds)
    return args


# ------------------------------------------------------------------------------------------------------ the device
def device_info() -> dict:
    d = jax.local_devices()[0]
    info = {"platform": d.platform, "device_kind": d.device_kind, "device": str(d),
            "matmul_precision_env": os.environ.get("JAX_DEFAULT_MATMUL_PRECISION"),
            "matmul_precision_config": jax.config.jax_default_matmul_precision,
            "tf32_note": "unset precision: float32 matmuls and convolutions run in TF32 on Ampere and newer NVIDIA "
                         "GPUs (JAX's default); JAX_DEFAULT_MATMUL_PRECISION=highest turns that off",
            "xla_preallocate": os.environ.get("XLA_PYTHON_CLIENT_PREALLOCATE"),
            "xla_mem_fraction": os.environ.get("XLA_PYTHON_CLIENT_MEM_FRACTION"),
            "memory_limit_bytes": _memory().get("bytes_limit")}
    if shutil.which("nvidia-smi"):
        q = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"],
                           capture_output=True, text=True, check=False)
        info["nvidia_smi"] = q.stdout.strip()
    return info


def _memory() -> dict:
    """jax's memory statistics of the first device ({} where the backend keeps none, as XLA:CPU)."""
    return jax.local_devices()[0].memory_stats() or {}


def _peak() -> int | None:
    return _memory().get("peak_bytes_in_use")


# ---------------------------------------------------------------------------------------------------------- items
def bench_env(task: str, impl: str, num_envs: int, args) -> dict:
    """(1) the auto-resetting env alone: a scan of `env_steps` steps with uniform random actions, state donated."""
    row = {"env": task, "impl": impl, "num_envs": num_envs}
    try:
        envs.check_mjx_impl(impl)
    except ValueError as e:
        return {**row, "skipped": str(e)}
    env = envs.make(task, "mjx", num_envs, impl=impl)
    length = args.env_steps

    def rollout(state, key):
        def body(carry, _):
            s, k = carry
            k, k_act = jax.random.split(k)
            s = env.step(s, jax.random.uniform(k_act, (num_envs, env.act_dim), minval=-1.0, maxval=1.0))
            return (s, k), None

        return jax.lax.scan(body, (state, key), None, length)[0]

    roll = jax.jit(rollout, donate_argnums=0)
    st = {"s": jax.jit(env.reset)(jax.random.PRNGKey(0)), "k": jax.random.PRNGKey(1)}

    def call():
        st["s"], st["k"] = roll(st["s"], st["k"])
        return length * num_envs

    log(f"(1) {task} {impl} num_envs={num_envs}: compile ...")
    first, _ = first_call(call)
    r = interleaved([Item("env", call, lambda: jax.block_until_ready(st["s"]), args.rep_seconds)], args.reps)["env"]
    r["compile_s"] = max(first - length * num_envs / r["median"], 0.0)
    return {**row, "steps_per_call": length, "env_steps_per_s": r, "peak_bytes_so_far": _peak()}


def trainer_config(args) -> Config:
    raw = json.loads(Path(args.preset).read_text())
    over = {"env": args.trainer_env, "mjx_impl": args.trainer_impl, "learning_starts": 0, "eval_episodes": 0,
            "quiet": True, "prior": "none"}
    for name in ("batch_size", "buffer_size"):
        if getattr(args, name) is not None:
            over[name] = getattr(args, name)
    if args.trainer_num_envs is not None:
        over["num_envs"] = args.trainer_num_envs
    config = Config(**{**dataclasses.asdict(Config()), **raw, **over})
    config.check()
    return config


def bench_trainer(config: Config, seeds: int, args) -> dict:
    """(2) `run_chunk` over `seeds` members as loop.py compiles it (jit, donated state), learning from iteration 1."""
    n = config.num_envs
    config = Config(**{**config.__dict__, "seeds": tuple(range(seeds))})
    per_member = buffer_bytes_per_member(config)
    row = {"seeds": seeds, "num_envs": n, "buffer_bytes_per_member": per_member}
    limit = _memory().get("bytes_limit")
    if limit and seeds * per_member > limit:
        return {**row, "skipped": f"{seeds} replay buffers need {seeds * per_member / 2**30:.1f} GiB, more than the "
                                  f"{limit / 2**30:.1f} GiB the device gives JAX (lower --buffer-size)"}
    env = envs.make(config.env, "mjx", n, impl=config.mjx_impl, worlds=seeds * n)
    tr = make_train(config, env, resolve(config.prior, config.env).fn)
    keys = jnp.stack([jax.random.PRNGKey(s) for s in config.seeds])
    log(f"(2) trainer, {seeds} seed(s) x {n} envs: compile init and run_chunk (chunk {args.chunk}) ...")
    init_s, s0 = first_call(lambda: jax.jit(jax.vmap(tr.init))(keys, config.member_hypers()))
    chunk = jax.jit(tr.run_chunk, static_argnums=2, donate_argnums=0)
    st = {"s": s0, "i": 1}

    def call():
        st["s"], _ = chunk(st["s"], st["i"], args.chunk)
        st["i"] += args.chunk
        return args.chunk * n * seeds

    first, _ = first_call(call)
    r = interleaved([Item("train", call, lambda: jax.block_until_ready(st["s"]), args.rep_seconds)], args.reps)
    r = r["train"]
    r["compile_s"] = max(first - args.chunk * n * seeds / r["median"], 0.0)
    r["init_compile_s"] = init_s
    return {**row, "chunk_length": args.chunk, "env_steps_per_s": r, "env_steps_per_s_per_seed": r["median"] / seeds,
            "updates_per_s": r["median"] / n * config.updates_per_step, "peak_bytes_so_far": _peak()}


# ------------------------------------------------------------------------------------------------------- report
def markdown(res: dict) -> str:
    d, m, c = res["device"], res["machine"], res["trainer_config"]
    gib = lambda b: "n/a" if b is None else f"{b / 2**30:.2f}"
    lines = [f"# camel-jax GPU throughput ({d['device_kind']}, {d['platform']})", ""]
    if d["platform"] != "gpu":
        lines += [f"**Measured on {d['platform']}, not on a GPU: these are not GPU figures.**", ""]
    lines += [f"Command: `{res['command']}`  ",
              (f"jax {m['versions']['jax']}, mujoco {m['versions']['mujoco']}, mujoco-mjx {m['versions']['mujoco-mjx']}; "
              f"{d.get('nvidia_smi') or d['device']}; device memory limit {gib(d['memory_limit_bytes'])} GiB; "
              f"JAX_DEFAULT_MATMUL_PRECISION={d['matmul_precision_env'] or 'unset'} ({d['tf32_note']}); total wall "
              f"{res['total_wall_s']:.0f} s."), "",
              "Rates: median over repetitions (min-max). Peak memory: the process's peak so far (items run in order).",
              "", "## (1) MJX env alone (auto-reset, random actions)", "",
              "| task | impl | num_envs | env steps/s | compile s | peak GiB so far |", "|---|---|---|---|---|---|"]
    for r in res["envs"]:
        if "skipped" in r:
            lines.append(f"| {r['env']} | {r['impl']} | {r['num_envs']} | skipped: {r['skipped']} | | |")
        else:
            e = r["env_steps_per_s"]
            lines.append(f"| {r['env']} | {r['impl']} | {r['num_envs']:,} | {rate_cell(e)} | {e['compile_s']:.1f} | "
                         f"{gib(r['peak_bytes_so_far'])} |")
    lines += ["", (f"## (2) fused trainer, {Path(res['preset']).name}: {c['env']}, {c['mjx_impl']}, {c['num_envs']:,} "
              f"envs per seed, batch {c['batch_size']:,}, {c['updates_per_step']} updates/step, buffer "
              f"{c['buffer_size']:,}"), "",
              ("| seeds | env steps/s (all seeds) | per seed | updates/s per seed | compile s (+ init) | buffer GiB per "
              "seed | peak GiB so far |"), "|---|---|---|---|---|---|---|"]
    for r in res["trainer"]:
        if "skipped" in r:
            lines.append(f"| {r['seeds']} | skipped: {r['skipped']} | | | | {gib(r['buffer_bytes_per_member'])} | |")
        else:
            t = r["env_steps_per_s"]
            lines.append(f"| {r['seeds']} | {rate_cell(t)} | {fmt(r['env_steps_per_s_per_seed'])} | "
                         f"{fmt(r['updates_per_s'])} | {t['compile_s']:.1f} (+ {t['init_compile_s']:.1f}) | "
                         f"{gib(r['buffer_bytes_per_member'])} | {gib(r['peak_bytes_so_far'])} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    args = parse_args(argv)
    out = Path(args.out).resolve()
    if jax.default_backend() != "gpu" and out.is_relative_to(RESULTS):
        print(f"gpu_throughput: no GPU here ({jax.default_backend()}), and a CPU run is not a GPU figure: pass --out "
              f"outside bench/results/", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    res = {"command": " ".join(["python bench/gpu_throughput.py", *(sys.argv[1:] if argv is None else argv)]),
           "machine": machine_info(), "device": device_info(), "preset": args.preset}
    config = trainer_config(args)
    res["trainer_config"] = {k: getattr(config, k) for k in ("env", "mjx_impl", "num_envs", "batch_size",
                                                             "updates_per_step", "buffer_size", "hidden")}
    res["envs"] = [bench_env(task, impl, n, args) for task in args.envs for impl in args.impls for n in args.num_envs]
    res["trainer"] = [bench_trainer(config, s, args) for s in args.seeds]
    res["total_wall_s"] = time.perf_counter() - t0
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=2, default=float) + "\n")
    md = markdown(res)
    out.with_suffix(".md").write_text(md)
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
