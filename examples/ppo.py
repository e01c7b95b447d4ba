"""PPO (CleanRL's `ppo_continuous_action.py` defaults) on Hopper from Python, through the same entry point as the
command line (`camel-jax train --algo ppo ...`), then its curves read back as arrays and drawn.

    python examples/ppo.py [OUT_DIR] [TOTAL_STEPS] [NUM_STEPS] [--small]      (CI: 384 steps of 64-step rollouts, --small)

`--small` (anywhere on the line): 16 x 16 networks and small minibatches, a smoke test of every stage in seconds
(CI runs it so, at a tiny number of steps); the results mean nothing at that size.

TOTAL_STEPS is rounded down to whole rollouts of NUM_STEPS x num_envs env steps (CleanRL's default: 2,048).
"""

import sys
from pathlib import Path

import numpy as np

from camel_jax import cli, plots

args = [a for a in sys.argv[1:] if a != "--small"]
small = ["--hidden", "16", "16", "--num-minibatches", "4", "--update-epochs", "2"] if "--small" in sys.argv else []
out = Path(args[0] if args else "runs/ppo_example")
steps = args[1] if len(args) > 1 else "200000"
rollout = args[2] if len(args) > 2 else "2048"
code = cli.main(["train", "--algo", "ppo", "--env", "hopper", "--backend", "gymnasium", "--seeds", "0,1",
                 "--total-steps", steps, "--num-steps", rollout, "--eval-every", steps, "--eval-episodes", "2",
                 "--out", str(out / "run"), "--overwrite", "--quiet", *small])
if code != 0:
    sys.exit(code)

run = plots.load_run(out / "run")
returns = run.metrics["episode_return"]
print(f"PPO: {len(np.unique(run.metrics['step']))} log rows per seed; last training return per seed: "
      f"{[round(float(r), 1) for r in returns[run.metrics['step'] == run.metrics['step'].max()]]}")
print(f"unmasked eval at the end: {run.evals['return_unmasked'][-2:].round(1).tolist()}")
plots.plot([out / "run"], out=out / "curves.png")
print(f"curves: {out / 'curves.png'}")
