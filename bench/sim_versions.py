"""Does a gymnasium v4 task step the same in two environments (gymnasium and MuJoCo versions)? Issue #24.

`record` runs in the interpreter under test: it resets `gym.make(ENV_ID)` with a seed and steps it with fixed
pseudo-random actions (uniform in [-1, 1], numpy's PCG64 from --action-seed), resetting without a seed after each
episode end as gymnasium's vector envs do, and saves the observations, rewards, terminations and truncations, with
the versions, to an .npz. It imports only numpy and gymnasium, so it runs in CleanRL's venv as well as in ours.
`compare` reads two or more such files and prints, against the first, the first step where the observations differ,
the largest difference, and where the episode ends diverge.

    V=/work/venvs; for py in cleanrl ours_mj316 cleanrl_mj400; do $V/$py/bin/python bench/sim_versions.py record \\
        --out /tmp/sim_$py.npz; done; /work/main/.venv/bin/python bench/sim_versions.py record --out /tmp/sim_main.npz
    python bench/sim_versions.py compare /tmp/sim_cleanrl.npz /tmp/sim_ours_mj316.npz /tmp/sim_cleanrl_mj400.npz \\
        /tmp/sim_main.npz
"""

from __future__ import annotations

import argparse
import json
import sys
from importlib import metadata

import numpy as np


def record(args) -> None:
    import gymnasium as gym

    env = gym.make(args.env_id, disable_env_checker=True)
    act_dim = env.action_space.shape[0]
    actions = np.random.Generator(np.random.PCG64(args.action_seed)).uniform(-1, 1, (args.steps, act_dim))
    if args.zero_actions:
        actions[:] = 0.0
    obs0, _ = env.reset(seed=args.seed)
    obs = np.empty((args.steps, obs0.shape[0]))
    reward, terminated, truncated = np.empty(args.steps), np.zeros(args.steps, bool), np.zeros(args.steps, bool)
    for t in range(args.steps):
        obs[t], reward[t], terminated[t], truncated[t], _ = env.step(actions[t])
        if terminated[t] or truncated[t]:
            env.reset()
    versions = {m: metadata.version(m) for m in ("gymnasium", "mujoco", "numpy")}
    np.savez(args.out, obs0=obs0, obs=obs, reward=reward, terminated=terminated, truncated=truncated,
             actions=actions, meta=json.dumps({**versions, "env_id": args.env_id, "seed": args.seed,
                                               "action_seed": args.action_seed, "python": sys.executable}))
    print(f"{args.out}: {args.env_id} seed {args.seed}, {args.steps} steps, {int(terminated.sum())} terminations, "
          f"{versions}")


def compare(args) -> None:
    runs = [(path, np.load(path)) for path in args.files]
    base = runs[0][1]
    for path, run in runs:
        meta = json.loads(str(run["meta"]))
        label = f"{path} (gymnasium {meta['gymnasium']}, mujoco {meta['mujoco']}, numpy {meta['numpy']})"
        if run is base:
            print(f"base: {label}: {int(base['terminated'].sum())} terminations")
            continue
        diff = np.abs(run["obs"] - base["obs"]).max(axis=1)
        ends = (run["terminated"] | run["truncated"]) != (base["terminated"] | base["truncated"])
        first = int(np.argmax(diff > 0)) if (diff > 0).any() else None
        print(f"{label}: reset obs {'identical' if np.array_equal(run['obs0'], base['obs0']) else 'differ'}; "
              f"obs identical to base for {first if first is not None else len(diff)} of {len(diff)} steps"
              + (f", then {diff[first]:.3g} at step {first}, max {diff.max():.3g}, above 1e-3 from step "
                 f"{int(np.argmax(diff > 1e-3)) if (diff > 1e-3).any() else 'never'}" if first is not None else "")
              + f"; rewards {'identical' if np.array_equal(run['reward'], base['reward']) else 'differ'}"
              + f"; episode ends differ from step {int(np.argmax(ends)) if ends.any() else 'never'}; "
              f"{int(run['terminated'].sum())} terminations; reward sum {run['reward'].sum():.6f} against "
              f"{base['reward'].sum():.6f}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record", help="step the task in this interpreter and save the trajectory")
    r.add_argument("--env-id", default="Hopper-v4")
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--action-seed", type=int, default=0)
    r.add_argument("--zero-actions", action="store_true", help="all-zero actions instead of random ones")
    r.add_argument("--steps", type=int, default=2000)
    r.add_argument("--out", required=True)
    c = sub.add_parser("compare", help="compare saved trajectories with the first")
    c.add_argument("files", nargs="+")
    args = p.parse_args(argv)
    (record if args.cmd == "record" else compare)(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
