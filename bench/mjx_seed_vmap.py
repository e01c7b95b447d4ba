#!/usr/bin/env python
"""The cost of the seed axis on MJX: the raw Hopper step vmapped over N envs, plain and inside a size-1 outer vmap.

loop.py used to run `jax.vmap(tr.run_chunk)` over seeds, even for one seed, so the env inside the fused training
step was a vmap of a vmap. On XLA-CPU that alone made the MJX step about 2.6x slower at N=128 (and made no difference
at N=1); see bench/README.md. This measurement is why `run_chunk` now vmaps `act` and `learn` over members but steps
all members' envs as one flat batch. No autoreset here: only `jax.vmap(env.step)` in a scan, with small random actions.

    python bench/mjx_seed_vmap.py --num-envs 128      # about 2 minutes on a 2-core CPU, nearly all compile
"""

from __future__ import annotations

import argparse
import statistics
import time

import jax

from camel_jax import envs


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--env", default="hopper")
    p.add_argument("--num-envs", type=int, default=128)
    p.add_argument("--length", type=int, default=8, help="steps per compiled scan")
    p.add_argument("--reps", type=int, default=4)
    args = p.parse_args()
    n, length = args.num_envs, args.length
    single = envs.make_single(args.env)

    def rollout(s, k):
        def body(c, _):
            s, k = c
            k, k_act = jax.random.split(k)
            a = 0.1 * jax.random.uniform(k_act, (n, single.action_size), minval=-1.0, maxval=1.0)
            s = jax.vmap(single.step)(s, a)
            return (s, k), s.reward.sum()

        (s, k), _ = jax.lax.scan(body, (s, k), None, length)
        return s, k

    keys = jax.random.split(jax.random.PRNGKey(0), n)
    setups = {
        "plain": (jax.jit(rollout), jax.jit(jax.vmap(single.reset))(keys), jax.random.PRNGKey(1)),
        "seed-vmapped (1 seed)": (jax.jit(jax.vmap(rollout)), jax.jit(jax.vmap(jax.vmap(single.reset)))(keys[None]),
                                  jax.random.PRNGKey(1)[None]),
    }
    for name, (f, s, k) in setups.items():
        t0 = time.perf_counter()
        out = jax.block_until_ready(f(s, k))
        compile_s = time.perf_counter() - t0
        rates = []
        for _ in range(args.reps):
            t0 = time.perf_counter()
            for _ in range(3):
                out = jax.block_until_ready(f(*out))
            rates.append(3 * length * n / (time.perf_counter() - t0))
        print(f"{name:>22}: {statistics.median(rates):7.0f} env steps/s (median of {args.reps}; "
              f"{min(rates):.0f}-{max(rates):.0f}), first call {compile_s:.0f} s", flush=True)


if __name__ == "__main__":
    main()
