"""Run CleanRL's own TD3 or PPO script (from a checkout outside this repository) and store its learning curves as CSV.

CleanRL is not vendored: point --cleanrl (or $CLEANRL_DIR) at a checkout of github.com/vwxyzjn/cleanrl and --python
at an interpreter whose venv has CleanRL's requirements (gymnasium[mujoco]==0.29.1, mujoco<3.2, jax, flax, optax,
torch, tyro, tensorboard; see bench/README.md). Each seed runs as its own process, one after the other, and its
stdout lines `global_step=N, episodic_return=[R]` become rows (step, episodic_return, seed, wall_s) of the CSV,
wall_s being seconds since that process started. A JSON beside the CSV records the command, versions and timings.

    python bench/cleanrl_reference.py --cleanrl ~/cleanrl --python ~/venvs/cleanrl/bin/python \\
        --env-id Hopper-v4 --seeds 1 2 3 --total-timesteps 150000 --out bench/reference/cleanrl_td3_jax_hopper.csv

`--algo ppo` runs `cleanrl/ppo_continuous_action.py` (PyTorch, CleanRL's defaults; it has no --learning-starts, and
prints SPS once per 2048-step rollout, so the JSON records its last SPS line as the steady rate):

    python bench/cleanrl_reference.py --algo ppo --cleanrl ~/cleanrl --python ~/venvs/cleanrl/bin/python \\
        --env-id Hopper-v4 --seeds 1 2 3 --total-timesteps 1000000 --out bench/reference/cleanrl_ppo_hopper.csv
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

RETURN = re.compile(r"global_step=(\d+), episodic_return=\[?([-+0-9.eE]+)")
SPS = re.compile(r"^SPS: (\d+)")
SCRIPTS = {"td3": "cleanrl/td3_continuous_action_jax.py", "ppo": "cleanrl/ppo_continuous_action.py"}


def run_seed(python: str, script: Path, cleanrl: Path, env_id: str, seed: int, total: int,
             learning_starts: int | None, workdir: Path, threads: int = 0) -> tuple[list[dict], dict]:
    """One CleanRL process; returns its episode rows and timing (wall s, steady steps/s from its SPS lines).
    `learning_starts`: None for scripts without that flag (PPO)."""
    cmd = [python, str(script), "--env-id", env_id, "--seed", str(seed), "--total-timesteps", str(total)]
    if learning_starts is not None:
        cmd += ["--learning-starts", str(learning_starts)]
    env = {**os.environ, "PYTHONPATH": str(cleanrl), "PYTHONUNBUFFERED": "1", "JAX_PLATFORMS": "cpu"}
    if threads:  # PyTorch's (and numpy's) thread pools; the script itself is unchanged
        env |= {"OMP_NUM_THREADS": str(threads), "MKL_NUM_THREADS": str(threads)}
    rows, sps, t0 = [], [], time.time()
    with subprocess.Popen(cmd, cwd=workdir, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True) as proc:
        last_step = 0
        for line in proc.stdout:
            if m := RETURN.search(line):
                last_step = int(m.group(1))
                rows.append({"step": last_step, "episodic_return": float(m.group(2)), "seed": seed,
                             "wall_s": round(time.time() - t0, 2)})
            elif m := SPS.match(line):
                sps.append((time.time() - t0, int(m.group(1))))
    if proc.returncode:
        raise SystemExit(f"CleanRL exited with {proc.returncode} for seed {seed}: {' '.join(cmd)}")
    wall = time.time() - t0
    # CleanRL prints SPS = global_step / elapsed every 100 steps; the steady rate after learning starts is the
    # slope of the printed steps over our clock between the first SPS line past learning_starts and the last.
    timing = {"seed": seed, "wall_s": round(wall, 1), "command": " ".join(cmd)}
    if learning_starts is None:  # PPO: one SPS line (global_step / elapsed) per rollout
        if sps:
            timing["steady_steps_per_s"] = sps[-1][1]
        return rows, timing
    learning = [(t, k) for k, (t, _) in enumerate(sps) if (k + 1) * 100 > learning_starts + 1000]
    if len(learning) > 1:
        (t1, k1), (t2, k2) = learning[0], learning[-1]
        timing["steady_steps_per_s"] = round((k2 - k1) * 100 / (t2 - t1), 1)
    return rows, timing


def _commit(cleanrl: Path) -> str:
    """The checkout's commit (git), or $CLEANRL_COMMIT for an exported tree."""
    r = subprocess.run(["git", "-C", str(cleanrl), "rev-parse", "HEAD"], capture_output=True, text=True, check=False)
    return r.stdout.strip() if r.returncode == 0 else os.environ.get("CLEANRL_COMMIT", "unknown")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--cleanrl", default=os.environ.get("CLEANRL_DIR", ""), help="CleanRL checkout ($CLEANRL_DIR)")
    p.add_argument("--python", default=sys.executable, help="interpreter with CleanRL's requirements")
    p.add_argument("--algo", choices=tuple(SCRIPTS), default="td3", help="which CleanRL script (and its flags)")
    p.add_argument("--script", default="", help="script inside the checkout (default: the --algo's, "
                   + ", ".join(f"{k}: {v}" for k, v in SCRIPTS.items()) + ")")
    p.add_argument("--env-id", default="Hopper-v4")
    p.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    p.add_argument("--total-timesteps", type=int, default=150_000)
    p.add_argument("--learning-starts", type=int, default=25_000, help="TD3 only (not passed to PPO)")
    p.add_argument("--threads", type=int, default=0,
                   help="OMP_NUM_THREADS and MKL_NUM_THREADS for the CleanRL process (0: left as they are)")
    p.add_argument("--out", required=True, help="CSV to write (a .json with the same stem records the runs)")
    args = p.parse_args(argv)
    cleanrl = Path(args.cleanrl).expanduser()
    script = cleanrl / (args.script or SCRIPTS[args.algo])
    learning_starts = args.learning_starts if args.algo == "td3" else None
    if not args.cleanrl or not script.is_file():
        print(f"cleanrl_reference: no CleanRL script at '{script}'; pass --cleanrl DIR or set CLEANRL_DIR to a "
              "checkout of github.com/vwxyzjn/cleanrl", file=sys.stderr)
        return 2
    out = Path(args.out)
    workdir = Path(os.environ.get("TMPDIR", "/tmp")) / f"cleanrl_runs_{os.getpid()}"
    workdir.mkdir(parents=True, exist_ok=True)  # CleanRL writes runs/ (tensorboard) into its cwd
    all_rows, timings = [], []
    for seed in args.seeds:
        rows, timing = run_seed(args.python, script, cleanrl, args.env_id, seed, args.total_timesteps,
                                learning_starts, workdir, args.threads)
        all_rows += rows
        timings.append(timing)
        print(json.dumps(timing), flush=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".csv.tmp")
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, ["step", "episodic_return", "seed", "wall_s"])
        w.writeheader()
        w.writerows(all_rows)
    tmp.replace(out)
    modules = ["gymnasium", "mujoco", "jax", "flax"] + (["torch"] if args.algo == "ppo" else [])  # PPO: PyTorch
    code = f"import {', '.join(modules)}; print({', '.join(m + '.__version__' for m in modules)})"
    versions = subprocess.run([args.python, "-c", code], capture_output=True, text=True, check=False).stdout.split()
    meta = {"env_id": args.env_id, "total_timesteps": args.total_timesteps, "learning_starts": learning_starts,
            "script": args.script or SCRIPTS[args.algo], "cleanrl_commit": _commit(cleanrl), "runs": timings, "cpu": platform.processor() or platform.machine(),
            "cores": os.cpu_count(), "threads": args.threads or None, "versions": dict(zip(modules, versions)),
            "command": "python bench/cleanrl_reference.py " + " ".join(argv if argv is not None else sys.argv[1:])}
    out.with_suffix(".json").write_text(json.dumps(meta, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
