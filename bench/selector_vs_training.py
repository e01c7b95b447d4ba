"""Check `camel-jax priors select` against training: does the selection score rank LLM candidates the way CAMEL's
training with them does? (issue #16, item 7)

For every valid candidate prior in --candidates (the `.py` files `priors import` wrote), this script
  1. scores it the way `priors select` does (camel_jax.priors.select.evaluate, gymnasium backend, --episodes episodes,
     seeds 0..episodes-1, every score of select.RANK_BY), and
  2. reads the CAMEL run trained with it (--runs/<candidate stem>; `--train` launches the missing ones with the
     settings below), and takes its unmasked-evaluation AUC: the mean over all evaluations and seeds of eval.csv's
     `return_unmasked` (the deterministic actor with no box, the paper's measure), with a 95% t-CI over seeds.
It writes PREFIX.md and PREFIX.json: the table, Spearman's rank correlation (scipy.stats.spearmanr) between each
selection score and the AUC, and whether the selector's pick (the `progress` rank 1) is among the two best for
training. With 4-5 candidates a rank correlation moves in steps of 0.1-0.2 and its p-value means little: the table is
the evidence, the coefficient a summary of it.

    python bench/selector_vs_training.py --env hopper --candidates priors/llm/hopper/imported \\
        --runs runs/selector --train --out bench/results/selector_hopper

Training settings (`--train`): bench/paper.sh's (gymnasium backend, seeds 0,1,2 vmapped, learning starts 25k, eval 5
episodes) at --steps env steps per seed (default 60k) and an evaluation every 5k steps.
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
from scipy import stats

from camel_jax.core import runs as run_dirs
from camel_jax.priors import select

PICK = "speed"  # the score `priors select` ranks by (it was "progress" until this check; both are in the table)


def train_command(env: str, prior: Path, out: Path, steps: int) -> list[str]:
    return ["camel-jax", "train", "--env", env, "--backend", "gymnasium", "--seeds", "0,1,2",
            "--total-steps", str(steps), "--learning-starts", "25000", "--eval-every", "5000", "--eval-episodes", "5",
            "--log-every", "2000", "--checkpoint-every", "20000", "--quiet", "--prior", str(prior), "--out", str(out)]


def unmasked_auc(run: Path) -> tuple[float, float, list[float], int]:
    """(mean, 95% t half-width) over seeds of each seed's mean unmasked eval return, the per-seed values, last step."""
    per_seed: dict[int, list[float]] = {}
    last = 0
    with open(run / "eval.csv") as f:
        for r in csv.DictReader(f):
            per_seed.setdefault(int(r["seed"]), []).append(float(r["return_unmasked"]))
            last = max(last, int(r["step"]))
    values = [float(np.mean(v)) for _, v in sorted(per_seed.items())]
    half = float(stats.t.ppf(0.975, len(values) - 1) * np.std(values, ddof=1) / np.sqrt(len(values)))
    return float(np.mean(values)), half, values, last


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--env", default="hopper")
    p.add_argument("--candidates", type=Path, required=True, help="folder of imported candidates (*.py)")
    p.add_argument("--runs", type=Path, required=True, help="folder of the CAMEL runs, one per candidate stem")
    p.add_argument("--episodes", type=int, default=10, help="selection episodes per candidate (as `priors select`)")
    p.add_argument("--steps", type=int, default=60_000, help="env steps per seed for --train")
    p.add_argument("--train", action="store_true", help="train the candidates that have no finished run first")
    p.add_argument("--out", type=Path, required=True, help="output prefix: PREFIX.md and PREFIX.json")
    args = p.parse_args(argv)

    paths = sorted(args.candidates.glob("*.py"))
    if not paths:
        raise SystemExit(f"selector_vs_training: no candidates (*.py) in {args.candidates}; run `priors import` first")
    evaluations = {e.path: e for e in select.evaluate(paths, args.env, args.episodes, backend="gymnasium",
                                                       rank_by=PICK)}
    valid = [path for path in paths if evaluations[path].ok]
    for path in valid:
        run = args.runs / path.stem
        finished = (run / "config.json").is_file() and \
            run_dirs.last_logged_step(run) >= json.loads((run / "config.json").read_text())["total_steps"]
        if not finished:
            if not args.train:
                raise SystemExit(f"selector_vs_training: {run} has not finished; pass --train or finish it first")
            cmd = ["camel-jax", "resume", str(run), "--quiet"] if (run / "config.json").is_file() else \
                train_command(args.env, path, run, args.steps)
            print("+", " ".join(cmd), flush=True)
            subprocess.run(cmd, check=True)

    rows = []
    for path in valid:
        e = evaluations[path]
        auc, half, per_seed, last = unmasked_auc(args.runs / path.stem)
        rows.append({"candidate": str(path), "scores": {k: e.value(k) for k in select.RANK_BY},
                     "falls": int(e.fell.sum()), "length": float(e.lengths.mean()),
                     "auc_unmasked": auc, "auc_half": half, "auc_per_seed": per_seed, "steps": last,
                     "run": str(args.runs / path.stem)})
    rows.sort(key=lambda r: -r["auc_unmasked"])
    for rank, r in enumerate(rows, 1):
        r["training_rank"] = rank
    by_pick = sorted(rows, key=lambda r: evaluations[Path(r["candidate"])].score(PICK))
    for rank, r in enumerate(by_pick, 1):
        r["selection_rank"] = rank
    auc = [r["auc_unmasked"] for r in rows]
    spearman = {k: float(stats.spearmanr([r["scores"][k] for r in rows], auc).statistic) for k in select.RANK_BY}
    pick = by_pick[0]
    summary = {"env": args.env, "episodes": args.episodes, "pick": pick["candidate"],
               "pick_training_rank": pick["training_rank"], "pick_in_top_2": pick["training_rank"] <= 2,
               "spearman": spearman, "invalid": [str(p) for p in paths if not evaluations[p].ok],
               "command": "python " + " ".join([Path(sys.argv[0]).as_posix(), *(argv or sys.argv[1:])]),
               "rows": rows}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".json").write_text(json.dumps(summary, indent=1) + "\n")

    setup = (f"Selection: `priors select`'s scores over {args.episodes} gymnasium episodes (seeds 0.."
             f"{args.episodes - 1}). Training: CAMEL with each candidate as the prior, 3 vmapped seeds x "
             f"{rows[0]['steps'] // 1000}k env steps; AUC = mean unmasked evaluation return (deterministic actor, no "
             "box) over all evaluations, mean +- 95% t-CI over seeds.")
    header = (f"| training rank | candidate | selection rank ({PICK}) | speed m/s | progress m | return | forward m | "
              "falls | unmasked-eval AUC | per seed |")
    lines = [f"# Selector versus training: {args.env}", "", f"Command: `{summary['command']}`", "", setup, "",
             header, "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        s = r["scores"]
        lines.append(f"| {r['training_rank']} | `{Path(r['candidate']).name}` | {r['selection_rank']} | "
                     f"{s['speed']:.3f} | {s['progress']:.2f} | {s['return']:.0f} | {s['forward']:.2f} | {r['falls']}/{args.episodes} | "
                     f"{r['auc_unmasked']:.0f} ± {r['auc_half']:.0f} | "
                     f"{', '.join(f'{v:.0f}' for v in r['auc_per_seed'])} |")
    correlations = ", ".join(f"{k} {v:+.2f}" for k, v in spearman.items())
    lines += ["", f"Spearman rank correlation with the unmasked-eval AUC (n = {len(rows)} candidates): {correlations}.",
              "",
              (f"The selector's pick, `{Path(pick['candidate']).name}`, is number {pick['training_rank']} of "
               f"{len(rows)} for training ({'among' if summary['pick_in_top_2'] else 'not among'} the two best).")]
    rejected = sorted(p.name for p in args.candidates.glob("*.rejected")) + [Path(p).name for p in summary["invalid"]]
    names = ", ".join(f"`{n}`" for n in rejected) or "none written"
    lines += ["", (f"Not trained: the answers that gave no valid candidate ({names}; see the import report beside "
                   "the candidates for every answer).")]
    args.out.with_suffix(".md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
