"""ULTRA end to end with recorded answers: a base PPO run, its trajectories collected, the prompts written, answers
to them read back from files (`--provider recorded`), the lookup table built and the run refined (mode RA).

An LLM's answers are files: paste each reply of any chat into `WORK/recorded/answers/seed_K/<prompt name>.1.md`.
So that the example runs without one, this script writes answers in the format the prompts ask for (the last step
of each window is critical; the suggestion straightens the leg, rated 0.5): they stand in for a real model's, which
you would save in their place.

    python examples/ultra_recorded.py [OUT_DIR] [BASE_STEPS] [REFINE_STEPS] [NUM_STEPS] [--small]
    (CI: 384 base steps, 128 refinement steps, 64-step rollouts, --small)

`--small` (anywhere on the line): the base PPO's networks 16 x 16 and 2 epochs, a smoke test of every stage in seconds
(CI runs it so, at a tiny number of steps); the results mean nothing at that size.
"""

import json
import sys
from pathlib import Path

from camel_jax import cli
from camel_jax.ultra.work import open_work

args = [a for a in sys.argv[1:] if a != "--small"]
small = ["--hidden", "16", "16", "--update-epochs", "2"] if "--small" in sys.argv else []  # the refinement: the same
out = Path(args[0] if args else "runs/ultra_example")
base_steps, refine_steps, rollout = (args[1:4] + ["100000", "50000", "2048"][len(args[1:4]):])[:3]
work, base = out / "work", out / "base"


def run(*args) -> None:
    if cli.main([str(a) for a in args]) != 0:
        sys.exit(f"camel-jax {' '.join(map(str, args))} failed")


def answer(path: Path, value: dict) -> None:
    """One reply as a chat gives it: prose, then the JSON in a fenced block."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("Here is my analysis.\n\n```json\n" + json.dumps(value, indent=1) + "\n```\n")


# 1. the policy to refine: PPO on Hopper (2 seeds), and ten of its episodes per seed collected
run("train", "--algo", "ppo", "--env", "hopper", "--backend", "gymnasium", "--seeds", "0,1", "--num-envs", 2,
    "--num-steps", rollout, "--num-minibatches", 4, "--total-steps", base_steps, "--eval-episodes", 0,
    "--out", base, "--overwrite", "--quiet", *small)
run("ultra", "collect", base, "--out", work, "--episodes", 3, "--window-steps", 8, "--overwrite")

# 2. identification: print the prompts (WORK/recorded/prompts/seed_K/), answer each, read the answers back
run("ultra", "prompts", work)
w = open_work(work)
answers = work / "recorded" / "answers"
for k in range(2):
    for window in w.windows(k):
        answer(answers / f"seed_{k}" / f"identify_{window.name}.1.md", {"critical_steps": [
            {"step": window.steps[-1], "rationale": "the last step before the fall"}]})
run("ultra", "identify", work, "--provider", "recorded")

# 3. improvement: the prompts of the critical steps, answered with an action and its rating
run("ultra", "prompts", work)
for k in range(2):
    for window in w.windows(k):
        answer(answers / f"seed_{k}" / f"improve_{window.name}.1.md", {
            "case_analysis": "the torso sinks while the knee stays bent", "suggestions": [
                {"step": window.steps[-1], "action": [0.5, -0.5, 0.0], "reward": 0.5,
                 "rationale": "extend the knee to catch the torso"}]})
run("ultra", "improve", work, "--provider", "recorded")

# 4. the lookup table, and PPO refined from the base run with its guidance
run("ultra", "table", work, "--match-fraction", 0.5)
run("ultra", "refine", work, "--mode", "RA", "--steps", refine_steps, "--out", out / "refined_RA", "--overwrite",
    "--quiet")
about = json.loads((out / "refined_RA" / "ultra.json").read_text())
print(f"ULTRA-{about['mode']}: identified by {about['identified_by']}, suggested by {about['suggested_by']}, "
      f"table entries per seed {about['entries']}, matched steps per seed {about.get('matched')}")
