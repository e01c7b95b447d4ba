"""CAMEL from Python with your own prior: a jittable `policy(obs) -> action` written here (no file, no sandbox: it is
your code), trained on Hopper beside plain TD3 on the same seeds, then both scored by the agent alone (unmasked) and
CAMEL's agent also inside its prior's box (masked).

    python examples/camel_callable_prior.py [OUT_DIR] [TOTAL_STEPS] [--small]      (CI: 256 steps, --small)

`--small` (anywhere on the line): 16 x 16 networks and small minibatches, a smoke test of every stage in seconds
(CI runs it so, at a tiny number of steps); the results mean nothing at that size.
"""

import sys
from pathlib import Path

import jax.numpy as jnp

import camel_jax as cj


def lean_and_push(obs):
    """Hopper's prior: push the thigh back and the leg straight, a little more as the torso leans forward
    (obs[1]: torso angle). Any jnp function of one observation returning one action in [-1, 1] will do."""
    lean = jnp.clip(obs[1], -0.5, 0.5)
    return jnp.tanh(jnp.array([-0.2, 0.3, 0.1]) + lean * jnp.array([-1.0, 0.5, 0.5]))


args = [a for a in sys.argv[1:] if a != "--small"]
small = {"hidden": (16, 16), "batch_size": 32} if "--small" in sys.argv else {}
out = Path(args[0] if args else "runs/callable_prior")
steps = int(args[1]) if len(args) > 1 else 30_000
config = cj.Config(env="hopper", backend="gymnasium", seeds=(0, 1), total_steps=steps, learning_starts=steps // 3,
                   eval_every=steps, eval_episodes=2, log_every=max(steps // 10, 1), quiet=True, overwrite=True,
                   **small)
camel = cj.train(config, prior=lean_and_push, out=str(out / "camel"))
td3 = cj.train(config, prior="none", out=str(out / "td3"))

for name, result, prior in (("CAMEL", camel, lean_and_push), ("TD3", td3, None)):
    scores = cj.evaluate_run(result.run_dir, episodes=2, prior=prior)  # a callable prior is given back to score masked
    for member in scores["members"]:
        masked = member.get("return_masked", float("nan"))
        print(f"{name} seed {member['seed']}: unmasked {member['return_unmasked']:.1f}, masked {masked:.1f}")
print(f"prior recorded as {camel.config.prior!r}; its source is in {camel.run_dir / 'prior.txt'}")
