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

Resumable: the CSV and the JSON are rewritten (atomically, CSV first) each time a seed finishes, so they always hold
the finished seeds and only those. Run the same command again after an interruption and it skips the seeds the JSON
lists as finished (keeping their rows), drops any row of a seed it does not list, and runs the rest, the interrupted
seed from its start (a CleanRL process cannot resume). A finished seed that is not in --seeds is kept. It refuses
(exit 2) to add seeds to files made with other settings (algo, script, env, steps, learning starts, CleanRL commit or
package versions); `--fresh` starts the files over.
"""

from __future__ import annotations

import argparse
import collections
import csv
import json
import os
import platform
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

RETURN = re.compile(r"global_step=(\d+), episodic_return=\[?([-+0-9.eE]+)")
SPS = re.compile(r"^SPS: (\d+)")
SCRIPTS = {"td3": "cleanrl/td3_continuous_action_jax.py", "ppo": "cleanrl/ppo_continuous_action.py"}
FIELDS = ["step", "episodic_return", "seed", "wall_s"]
MODULES = ("gymnasium", "mujoco", "numpy", "jax", "jaxlib", "flax", "optax", "torch")
# the settings a resumed run must share with the files it adds to
SAME = ("algo", "script", "env_id", "total_timesteps", "learning_starts", "cleanrl_commit", "versions")


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
    rows, sps, tail, t0 = [], [], collections.deque(maxlen=20), time.time()
    with subprocess.Popen(cmd, cwd=workdir, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True) as proc:
        try:
            for line in proc.stdout:
                if m := RETURN.search(line):
                    rows.append({"step": int(m.group(1)), "episodic_return": float(m.group(2)), "seed": seed,
                                 "wall_s": round(time.time() - t0, 2)})
                elif m := SPS.match(line):
                    sps.append((time.time() - t0, int(m.group(1))))
                else:
                    tail.append(line)
        except BaseException:  # interrupted (Ctrl-C, SIGTERM): take the CleanRL process down with us
            proc.kill()
            raise
    if proc.returncode:
        raise SystemExit(f"{''.join(tail)}CleanRL exited with {proc.returncode} for seed {seed}: {' '.join(cmd)}")
    wall = time.time() - t0
    # CleanRL prints SPS = global_step / elapsed every 100 steps; the steady rate after learning starts is the
    # slope of the printed steps over our clock between the first SPS line past learning_starts and the last.
    timing = {"seed": seed, "wall_s": round(wall, 1), "command": " ".join(cmd)}
    if learning_starts is None:  # PPO: one SPS line (global_step / elapsed) per rollout
        if sps:
            timing["steady_steps_per_s"] = sps[-1][1]
        return rows, timing
    learning = [(t, k) for k, (t, _) in enumerate(sps) if (k + 1) * 100 > learning_starts + 1000]
    if len(learning) > 1 and learning[-1][0] > learning[0][0]:
        (t1, k1), (t2, k2) = learning[0], learning[-1]
        timing["steady_steps_per_s"] = round((k2 - k1) * 100 / (t2 - t1), 1)
    return rows, timing


def _commit(cleanrl: Path) -> str:
    """The checkout's commit (git), or $CLEANRL_COMMIT for an exported tree."""
    r = subprocess.run(["git", "-C", str(cleanrl), "rev-parse", "HEAD"], capture_output=True, text=True, check=False)
    return r.stdout.strip() if r.returncode == 0 else os.environ.get("CLEANRL_COMMIT", "unknown")


def versions(python: str) -> dict:
    """The versions of MODULES in `python`'s environment (None for a module it lacks)."""
    code = ("import importlib.metadata as m, json\n"
            "def v(name):\n"
            "    try:\n        return m.version(name)\n"
            "    except m.PackageNotFoundError:\n        return None\n"
            f"print(json.dumps({{k: v(k) for k in {list(MODULES)!r}}}))")
    r = subprocess.run([python, "-c", code], capture_output=True, text=True, check=False)
    if r.returncode:
        raise SystemExit(f"cleanrl_reference: {python} could not report its versions:\n{r.stderr}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def _utc() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def load_finished(out: Path, meta: dict) -> tuple[list[dict], list[dict]]:
    """The rows and timings of the seeds that earlier runs into `out` finished, after checking that they were made
    with `meta`'s settings (SystemExit(2) otherwise). Rows of a seed the JSON does not list are dropped."""
    meta_path = out.with_suffix(".json")
    if not meta_path.is_file():
        return [], []
    old = json.loads(meta_path.read_text())
    old.setdefault("algo", "td3" if old.get("learning_starts") is not None else "ppo")  # files from before resuming
    if "versions" in old:  # files from before resuming recorded four modules
        old["versions"] = {**meta["versions"], **old["versions"]}
    differ = [k for k in SAME if k in old and old[k] != meta[k]]
    if differ:
        print(f"cleanrl_reference: {meta_path} was made with other settings ("
              + "; ".join(f"{k}: {old[k]} there, {meta[k]} now" for k in differ)
              + "); pass another --out, or --fresh to start it over", file=sys.stderr)
        raise SystemExit(2)
    timings = old.get("runs", [])
    done = {t["seed"] for t in timings}
    rows = []
    if out.is_file():
        with open(out, newline="") as f:
            for r in csv.DictReader(f):
                if int(r["seed"]) in done:
                    rows.append({"step": int(r["step"]), "episodic_return": float(r["episodic_return"]),
                                 "seed": int(r["seed"]), "wall_s": float(r["wall_s"])})
    return rows, timings


def write(out: Path, rows: list[dict], meta: dict) -> None:
    """The CSV, then the JSON, each written to a temporary file and renamed over the old one."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_suffix(".csv.tmp")
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        w.writeheader()
        w.writerows(rows)
    tmp.replace(out)
    tmp = out.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(meta, indent=2) + "\n")
    tmp.replace(out.with_suffix(".json"))


def _terminate(signum, frame):  # SIGTERM unwinds like Ctrl-C, so run_seed kills its CleanRL process
    raise KeyboardInterrupt(f"signal {signum}")


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
    p.add_argument("--fresh", action="store_true", help="start --out over instead of skipping its finished seeds")
    args = p.parse_args(argv)
    cleanrl = Path(args.cleanrl).expanduser()
    script = cleanrl / (args.script or SCRIPTS[args.algo])
    learning_starts = args.learning_starts if args.algo == "td3" else None
    if not args.cleanrl or not script.is_file():
        print(f"cleanrl_reference: no CleanRL script at '{script}'; pass --cleanrl DIR or set CLEANRL_DIR to a "
              "checkout of github.com/vwxyzjn/cleanrl", file=sys.stderr)
        return 2
    out = Path(args.out)
    meta = {"algo": args.algo, "env_id": args.env_id, "total_timesteps": args.total_timesteps,
            "learning_starts": learning_starts, "script": args.script or SCRIPTS[args.algo],
            "cleanrl_commit": _commit(cleanrl), "python": args.python, "versions": versions(args.python),
            "cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(),
            "threads": args.threads or None, "xla_flags": os.environ.get("XLA_FLAGS"),
            "command": "python bench/cleanrl_reference.py " + " ".join(argv if argv is not None else sys.argv[1:])}
    rows, timings = ([], []) if args.fresh else load_finished(out, meta)
    done = [t["seed"] for t in timings]
    todo = [s for s in dict.fromkeys(args.seeds) if s not in done]
    if done:
        print(f"cleanrl_reference: {out} has seeds {done} finished; running {todo or 'none'}", flush=True)
    workdir = Path(os.environ.get("TMPDIR", "/tmp")) / f"cleanrl_runs_{os.getpid()}"
    workdir.mkdir(parents=True, exist_ok=True)  # CleanRL writes runs/ (tensorboard) into its cwd
    signal.signal(signal.SIGTERM, _terminate)
    if not done:
        write(out, rows, {**meta, "runs": timings})  # so that an existing file of other settings is not mixed in
    for seed in todo:
        started, load = _utc(), os.getloadavg()[0]
        try:
            seed_rows, timing = run_seed(args.python, script, cleanrl, args.env_id, seed, args.total_timesteps,
                                         learning_starts, workdir, args.threads)
        except KeyboardInterrupt as e:
            print(f"cleanrl_reference: interrupted ({e or 'Ctrl-C'}) during seed {seed}; {out} keeps the finished "
                  "seeds: run the same command again to go on", file=sys.stderr)
            return 130
        timing |= {"started_utc": started, "finished_utc": _utc(), "loadavg_1min": [round(load, 2),
                                                                                    round(os.getloadavg()[0], 2)]}
        rows += seed_rows
        timings.append(timing)
        write(out, rows, {**meta, "runs": timings})
        print(json.dumps(timing), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
