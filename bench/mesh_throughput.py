#!/usr/bin/env python
"""MJX `run_chunk` with S seeds on one device against the same S seeds sharded over a D-device mesh (--mesh seeds=D).

XLA's CPU device count is fixed when jax starts, so this runs in its own process with
XLA_FLAGS=--xla_force_host_platform_device_count=D (set here before jax is imported); bench/throughput.py calls it
as item (f). Both programs are compiled as loop.py compiles them (jit of `run_chunk` over all members, donated state; the
mesh one through camel_jax.core.sharding) and timed round-robin like the other items. On CPU the D "devices" are
thread pools on the same cores, so this measures the cost of the mesh machinery, not a speed-up.

    python bench/mesh_throughput.py --devices 4 --seeds 4 --num-envs 16 --out /tmp/mesh.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--devices", type=int, default=4)
    p.add_argument("--seeds", type=int, default=4)
    p.add_argument("--num-envs", type=int, default=16)
    p.add_argument("--chunk", type=int, default=16, help="vectorized steps per compiled chunk")
    p.add_argument("--env", default="hopper")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--rep-seconds", type=float, default=2.0)
    p.add_argument("--out", required=True, help="JSON result path")
    return p.parse_args(argv)


def main(argv=None) -> dict:
    args = parse_args(argv)
    os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") +
                               f" --xla_force_host_platform_device_count={args.devices}").strip()
    import jax
    import jax.numpy as jnp

    sys.path.insert(0, str(Path(__file__).parent))
    from throughput import Item, base_config, first_call, interleaved, log

    from camel_jax import envs
    from camel_jax.algos.td3.config import Config
    from camel_jax.algos.td3.trainer import make_train
    from camel_jax.core.sharding import jit_sharded, make_mesh, seed_sharding, shard_seeds, state_shardings
    from camel_jax.priors.baselines import resolve

    defaults = argparse.Namespace(env=args.env, learning_starts=0)
    config = base_config(defaults, backend="mjx", seeds=tuple(range(args.seeds)), num_envs=args.num_envs)
    env, prior = envs.make(config.env, "mjx", config.num_envs), resolve(config.prior, config.env).fn
    tr = make_train(config, env, prior)
    tr_mesh = make_train(config, env, prior, flat_envs=False)  # as loop.py: one env batch per member on a mesh
    keys = jnp.stack([jax.random.PRNGKey(s) for s in config.seeds])
    hyper = config.member_hypers()
    init = jax.vmap(tr.init)
    mesh = make_mesh(Config(**{**config.__dict__, "mesh": f"seeds={args.devices}"}), args.seeds)
    shardings = state_shardings(jax.eval_shape(init, keys, hyper), mesh)
    setups = {"one_device": (tr.run_chunk, None, None, keys, hyper),
              "mesh": (tr_mesh.run_chunk, mesh, shardings, *shard_seeds((keys, hyper), mesh))}
    items, firsts = [], {}
    for name, (run, m, sh, k, h) in setups.items():
        chunk = jit_sharded(run, m, (sh, seed_sharding(m)), static_argnums=2, donate_argnums=0)
        log(f"(f) {name}: compile init and run_chunk ({args.seeds} seeds x {args.num_envs} envs, chunk {args.chunk})")
        state = {"s": jit_sharded(init, m, sh)(k, h), "i": 1}  # learning_starts=0: updates from iteration 1 on

        def call(state=state, chunk=chunk):
            state["s"], _ = chunk(state["s"], state["i"], args.chunk)
            state["i"] += args.chunk
            return args.chunk * args.num_envs * args.seeds

        firsts[name], _ = first_call(call)
        items.append(Item(name, call, lambda state=state: jax.block_until_ready(state["s"]), args.rep_seconds))
    t = interleaved(items, args.reps)
    for name, r in t.items():
        r["compile_s"] = max(firsts[name] - args.chunk * args.num_envs * args.seeds / r["median"], 0.0)
    res = {"devices": [str(d) for d in jax.devices()], "mesh": dict(mesh.shape), "seeds": args.seeds,
           "num_envs": args.num_envs, "chunk_length": args.chunk, "env": args.env, "cpus_usable":
           len(os.sched_getaffinity(0)), "env_steps_per_s": t,
           "ratio_mesh_to_one_device": t["mesh"]["median"] / t["one_device"]["median"]}
    Path(args.out).write_text(json.dumps(res, indent=2) + "\n")
    return res


if __name__ == "__main__":
    print(json.dumps(main(), indent=2))
