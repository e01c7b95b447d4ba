"""The PPO network init vmapped over seeds, compiled and run again and again: flax's orthogonal initializer as is
(batched QR) against `camel_jax.algos.ppo.loss.orthogonal` (one QR per member), each in a fresh process under a time limit.

With jaxlib 0.10.2 on a 2-core CPU the batched init hangs within seconds (both intra-op pool threads blocked in
`ParallelBatchMap` under `lapack_sgeqrf_ffi`; see `camel_jax/algos/ppo/loss.py`, `orthogonal`), which is what stopped two CI
runs of the test suite; the per-member one finishes. A hung process is killed at `--timeout` and reported as such.

    python bench/stress_ppo_init.py [--iterations 3000] [--timeout 90] [--out bench/results/stress_ppo_init.json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

CHILD = """
import sys, time
import flax.linen as nn, jax, jax.numpy as jnp
from camel_jax.algos.ppo import loss as ppo
variant, iterations = sys.argv[1], int(sys.argv[2])
if variant == "flax":  # the network of camel_jax.algos.ppo.loss with flax's initializer in place of ppo.orthogonal
    ppo.orthogonal = nn.initializers.orthogonal
net = ppo.ActorCritic(3)  # hopper: 11 observations, 3 actions; six orthogonally initialised layers
f = jax.jit(jax.vmap(lambda k: net.init(k, jnp.zeros((1, 11)))))
t = time.time()
for i in range(iterations):
    jax.block_until_ready(f(jax.random.split(jax.random.PRNGKey(i), 2)))
print(time.time() - t)
"""


def run(variant: str, iterations: int, timeout: float) -> dict:
    t = time.time()
    try:
        out = subprocess.run([sys.executable, "-c", CHILD, variant, str(iterations)], capture_output=True, text=True,
                             check=False, timeout=timeout, env={**os.environ, "JAX_PLATFORMS": "cpu"})
    except subprocess.TimeoutExpired:
        return {"variant": variant, "finished": False, "wall_s": round(time.time() - t, 1)}
    if out.returncode != 0:
        raise SystemExit(f"{variant}: the child failed: {out.stderr.strip().splitlines()[-1]}")
    return {"variant": variant, "finished": True, "wall_s": round(time.time() - t, 1),
            "loop_s": round(float(out.stdout.split()[-1]), 2)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--iterations", type=int, default=3000)
    p.add_argument("--timeout", type=float, default=90.0)
    p.add_argument("--repeats", type=int, default=2, help="alternating flax / camel_jax processes per variant")
    p.add_argument("--out", type=Path)
    a = p.parse_args()
    rows = []
    for _ in range(a.repeats):
        for variant in ("flax", "camel_jax"):
            rows.append(run(variant, a.iterations, a.timeout))
            print(json.dumps(rows[-1]), flush=True)
    result = {"command": " ".join(["python", "bench/stress_ppo_init.py", *sys.argv[1:]]), "cpus": os.cpu_count(),
              "iterations": a.iterations, "timeout_s": a.timeout, "runs": rows}
    if a.out:
        a.out.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
