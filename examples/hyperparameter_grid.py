"""A hyperparameter grid in one compiled program: CAMEL on Hopper with its LLM-written prior, the box's half-width
`delta` x the masking schedule `mask_fraction` x 2 seeds = 8 members trained together (vmapped), then the final
unmasked evaluation of each grid point, averaged over its seeds.

    python examples/hyperparameter_grid.py [OUT_DIR] [TOTAL_STEPS] [--small]      (CI: 256 steps, --small)

`--small` (anywhere on the line): 16 x 16 networks and small minibatches, a smoke test of every stage in seconds
(CI runs it so, at a tiny number of steps); the results mean nothing at that size.

Settings that change the program itself (network sizes, batch size, the prior) need `camel-jax sweep`, which runs
one program per combination (docs: guides/sweeps.md).
"""

import sys
from pathlib import Path

import numpy as np

import camel_jax as cj

args = [a for a in sys.argv[1:] if a != "--small"]
small = {"hidden": (16, 16), "batch_size": 32} if "--small" in sys.argv else {}
out = Path(args[0] if args else "runs/grid_example")
steps = int(args[1]) if len(args) > 1 else 30_000
config = cj.Config(env="hopper", backend="gymnasium", prior="hopper", seeds=(0, 1),
                   grid=("delta=0.1,0.3", "mask_fraction=0.25,0.5"), total_steps=steps, learning_starts=steps // 3,
                   eval_every=steps, eval_episodes=2, log_every=max(steps // 10, 1), quiet=True, overwrite=True,
                   **small)
print(f"{len(config.members())} members: {config.members()}")
result = cj.train(config, out=str(out))

evals, last = result.evals, result.evals["step"].max()
print("delta  mask_fraction  unmasked eval (mean of seeds)")
for delta in (0.1, 0.3):
    for fraction in (0.25, 0.5):
        rows = ((evals["step"] == last) & np.isclose(evals["delta"], delta)
                & np.isclose(evals["mask_fraction"], fraction))
        print(f"{delta:5}  {fraction:13}  {evals['return_unmasked'][rows].mean():.1f}  ({rows.sum()} seeds)")
