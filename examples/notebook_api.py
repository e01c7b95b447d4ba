"""The notebook API in one short script (run in CI by tests/test_api.py): train CAMEL with Hopper's LLM-written prior
(`prior="hopper"`; `prior="tuned:hopper"` is the controller searched for in simulation) and plain TD3 on the same
seeds, read the curves back as arrays, plot them, and run the final actor.

    python examples/notebook_api.py [OUT_DIR] [TOTAL_STEPS] [--small]

`--small` (anywhere on the line): 16 x 16 networks and small minibatches, a smoke test of every stage in seconds
(CI runs it so, at a tiny number of steps); the results mean nothing at that size.
"""

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

import camel_jax as cj

args = [a for a in sys.argv[1:] if a != "--small"]
small = {"hidden": (16, 16), "batch_size": 32} if "--small" in sys.argv else {}
out = Path(args[0] if args else "runs/notebook")
steps = int(args[1]) if len(args) > 1 else 20_000
base = cj.Config(env="hopper", backend="gymnasium", seeds=(0, 1), total_steps=steps, learning_starts=steps // 4,
                 eval_every=steps // 4, eval_episodes=2, log_every=max(steps // 20, 1), quiet=True, overwrite=True,
                 **small)
rows = []
camel = cj.train(base, prior="hopper", out=str(out / "camel"), callback=lambda step, row: rows.append(step))
td3 = cj.train(base, prior="none", out=str(out / "td3"))

fig, ax = plt.subplots()
for label, result in ((f"CAMEL ({camel.record['prior_label']})", camel), ("TD3", td3)):
    steps_at = np.unique(result.evals["step"])
    mean = [result.evals["return_unmasked"][result.evals["step"] == s].mean() for s in steps_at]
    ax.plot(steps_at, mean, label=label)
    print(f"{label}: unmasked eval return {mean[-1]:.1f} at step {int(steps_at[-1])} ({result.run_dir})")
ax.set(xlabel="env steps per seed", ylabel="unmasked eval return (mean of seeds)")
ax.legend()
fig.savefig(out / "curves.png")

act = cj.load_actor(camel.run_dir)
env = cj.make_env("hopper", "gymnasium")
state = env.reset([0])
action = np.asarray(act(state.obs[0]))
print(f"callback saw {len(rows)} log rows; first action of the trained actor: {np.round(action, 3)}")
