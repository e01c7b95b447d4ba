"""Compare camel-jax runs (TD3, CAMEL, ...) with CleanRL's TD3 learning curves on the same axes.

Every curve is the training episodic return, as CleanRL logs it: for each seed, the mean return of the episodes that
ended in the window (s - W, s] of env steps, on a grid of window ends s. A camel-jax log row holds the episodes that
ended since the previous row, so the grid is the steps where every run wrote a log row and W steps before which it
wrote one too (`window_ends`): every window of every run and reference covers the same steps. From those per-seed
curves the table gives, as mean +- 95% CI over seeds (Student t) with a ratio of means to the first reference, and
beside it as the interquartile mean over seeds with its 95% percentile bootstrap CI (camel_jax.plots.iqm_ci) with a
ratio of IQMs:
  - return at fixed step counts (--at),
  - area under the curve: the mean of the windowed return over the whole budget (a return; higher is better),
  - steps to reach --threshold (first window end at or above it; seeds that never reach it are counted apart),
  - wall-clock: our runs train their seeds together in one process (the time of that process, for all seeds);
    CleanRL runs one process per seed (their sum). Both ran on the machine described in the JSON.
A second table and plot panel give the paper's own measure for our runs: the deterministic actor evaluated with no
box (eval.csv, `return_unmasked`) at the same step counts (the last evaluation at or before each) and its mean over
all evaluations, with ratios to the first --run. Training returns of a masked method include its masked episodes;
the unmasked evaluation is the agent alone. The plot's bands are --band (camel_jax.plots.BANDS; default iqm).
Every row and legend entry names the run's prior (its kind and search cost: camel_jax.priors.kinds) and its task and
backend; a comparison of runs on different backends says MIXED BACKENDS in its title.

    python bench/compare.py --run "TD3 (camel-jax)=runs/hopper/td3" --run "CAMEL=runs/hopper/camel" \\
        --reference "CleanRL TD3 (jax)=bench/reference/cleanrl_td3_jax_hopper.csv" --out bench/results/compare_hopper

With --budget STEPS (and --env, --seeds, --runs-dir) the script first trains the methods named by --methods that have
no finished run in --runs-dir, with the settings of bench/paper.sh, then compares them.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
from pathlib import Path

import numpy as np

from camel_jax import provenance, specs
from camel_jax.plots import BANDS, BOOTSTRAP_RESAMPLES, band_over_seeds, describe_run, iqm_ci, mean_ci, setting_title
from camel_jax.priors import kinds

ROOT = Path(__file__).resolve().parents[1]


def t_ci(values) -> tuple[float, float]:
    """(mean, 95% Student-t half-width) over seeds, NaN ignored: camel_jax.plots.mean_ci on one column."""
    mean, half, _ = mean_ci(np.asarray(values, float).reshape(-1, 1))
    return float(mean[0]), float(half[0])


def iqm_stat(values) -> tuple[float, float, float]:
    """(IQM, 95% bootstrap CI low, high) over seeds, NaN ignored: camel_jax.plots.iqm_ci on one column."""
    centre, low, high, _ = iqm_ci(np.asarray(values, float).reshape(-1, 1))
    return float(centre[0]), float(low[0]), float(high[0])


def load_ours(run_dir: Path) -> dict:
    """Per-seed arrays (step, episodes, mean return of the row) from a camel-jax metrics.csv, and the run's wall."""
    with open(run_dir / "metrics.csv") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        raise SystemExit(f"compare: {run_dir}/metrics.csv has no rows yet; let the run log before comparing")
    seeds = {}
    for r in rows:
        n = int(r["episodes"])
        seeds.setdefault(int(r["seed"]), []).append((int(r["step"]), n, float(r["episode_return"]) if n else 0.0))
    wall = max(float(r["wall_s"]) for r in rows)
    config = json.loads((run_dir / "config.json").read_text())
    evals = {}  # step -> per-seed unmasked evaluation returns of the deterministic actor
    if (run_dir / "eval.csv").is_file():
        with open(run_dir / "eval.csv") as f:
            for r in csv.DictReader(f):
                evals.setdefault(int(r["step"]), []).append(float(r["return_unmasked"]))
    _, task, backend = describe_run(run_dir)
    about = {**kinds.of_run(run_dir).record(), "task": task, "backend": backend}
    return {"seeds": {s: np.array(v) for s, v in seeds.items()}, "wall_all": wall, "config": config,
            "last_step": max(int(r["step"]) for r in rows), "evals": evals,  # = total_steps once finished
            "about": about}


def load_reference(path: Path) -> dict:
    """Per-seed arrays (step, 1, return) of single episodes from a CSV written by bench/cleanrl_reference.py."""
    with open(path) as f:
        rows = list(csv.DictReader(f))
    seeds, walls = {}, {}
    for r in rows:
        s = int(r["seed"])
        seeds.setdefault(s, []).append((int(r["step"]), 1, float(r["episodic_return"])))
        walls[s] = max(walls.get(s, 0.0), float(r["wall_s"]))
    meta_path = path.with_suffix(".json")
    meta = json.loads(meta_path.read_text()) if meta_path.is_file() else {}
    wall_runs = {run["seed"]: run["wall_s"] for run in meta.get("runs", [])} or walls
    env_id = meta.get("env_id", "")  # CleanRL steps gymnasium's C MuJoCo: our task of the same gym id
    task = next((name for name in specs.available() if specs.load(name).gym_id == env_id), env_id)
    about = {"prior_kind": "none", "prior_label": "no prior (CleanRL's script)", "prior_search_env_steps": None,
             "task": task, "backend": "gymnasium"}
    return {"seeds": {s: np.array(v) for s, v in seeds.items()}, "wall_all": float(sum(wall_runs.values())),
            # the JSON is written when every seed has finished: its total is the budget (the last episode ends
            # before it); without the JSON, the last logged episode
            "meta": meta, "last_step": int(meta.get("total_timesteps", max(int(r["step"]) for r in rows))),
            "about": about}


def window_ends(runs: list[dict], window: int, budget: int) -> np.ndarray:
    """The window ends s <= budget at which every seed of every camel-jax run (`load_ours`) wrote a log row and, W steps
    before, wrote one too (or s - W = 0): there the run's rows tile (s - W, s] exactly. A window that began or ended
    inside a log interval would take a whole row from a window shifted by up to one interval (with rows every 2,000
    steps and ends every 5,000, half the ends lagged the references by 1,000). Reference CSVs have a row per episode
    and fit any window; with references only, windows end every W // 2 steps."""
    logged = [set(arr[:, 0].astype(int).tolist()) | {0} for d in runs for arr in d["seeds"].values()]
    if not logged:
        return np.arange(window, budget + 1, max(window // 2, 1))
    common = set.intersection(*logged)
    return np.array(sorted(e for e in common if window <= e <= budget and e - window in common), dtype=int)


def windowed(arr: np.ndarray, ends: np.ndarray, window: int) -> np.ndarray:
    """Mean return of the episodes ending in (e - window, e] for each end e (NaN where none ended)."""
    step, n, ret = arr[:, 0], arr[:, 1], arr[:, 2]
    out = np.full(len(ends), np.nan)
    for k, e in enumerate(ends):
        sel = (step > e - window) & (step <= e)
        if n[sel].sum() > 0:
            out[k] = (ret[sel] * n[sel]).sum() / n[sel].sum()
    return out


def eval_stats(evals: dict[int, list[float]], at: list[int]) -> dict:
    """Per-seed unmasked eval returns at each step count (the last evaluation at or before it) and their mean over
    all evaluations; `evals`: step -> one return per seed, in seed order."""
    steps = sorted(evals)
    out = {"at": {}, "auc": list(np.mean([evals[k] for k in steps], axis=0)) if steps else []}
    for a in at:
        before = [k for k in steps if k <= a]
        out["at"][a] = (before[-1], evals[before[-1]]) if before else (None, [])
    return out


def summarize(curves: dict[int, np.ndarray], ends: np.ndarray, at: list[int], threshold: float) -> dict:
    """Per-seed statistics of windowed curves (seed -> values on `ends`)."""
    per_seed = {"at": {a: [] for a in at}, "auc": [], "reach": []}
    for c in curves.values():
        for a in at:
            per_seed["at"][a].append(c[np.searchsorted(ends, a)] if a <= ends[-1] else math.nan)
        per_seed["auc"].append(np.nanmean(c))
        hit = np.nonzero(c >= threshold)[0]
        per_seed["reach"].append(float(ends[hit[0]]) if len(hit) else math.nan)
    return per_seed


def fmt(mean: float, half: float, digits: int = 0) -> str:
    if not math.isfinite(mean):
        return "n/a"
    return f"{mean:,.{digits}f}" + (f" ± {half:,.{digits}f}" if math.isfinite(half) else "")


def fmt_iqm(centre: float, low: float, high: float) -> str:
    if not math.isfinite(centre):
        return "n/a"
    return f"{centre:,.0f}" + (f" [{low:,.0f}, {high:,.0f}]" if math.isfinite(low) else "")


def cell_pair(values, base, note: str = "") -> tuple[list[str], list[float], list[float]]:
    """The cells 'mean ± t-CI' and 'IQM [CI]' of per-seed `values`, each with its ratio to the same statistic of the
    per-seed values `base` unless base is None; and [mean, half-width], [IQM, low, high] for the JSON."""
    (m, h), (c, lo, hi) = t_ci(values), iqm_stat(values)
    mean_ratio = f" ({ratio(m, t_ci(base)[0])})" if base is not None else ""
    iqm_ratio = f" ({ratio(c, iqm_stat(base)[0])})" if base is not None else ""
    return [fmt(m, h) + note + mean_ratio, fmt_iqm(c, lo, hi) + iqm_ratio], [m, h], [c, lo, hi]


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}x" if math.isfinite(a) and math.isfinite(b) and b != 0 else "n/a"


def launch(args) -> list[tuple[str, Path]]:
    """Train the --methods missing from --runs-dir (bench/paper.sh's settings at --budget steps)."""
    import dataclasses

    from camel_jax.config import Config
    from camel_jax.loop import resume, train

    priors = {"td3": "none", "camel": args.prior or args.env, "random": "random",
              "control": args.prior or args.env, "expert": f"expert:{args.runs_dir}/td3"}
    base = Config(env=args.env, backend="gymnasium", seeds=tuple(args.seeds), total_steps=args.budget,
                  learning_starts=min(25_000, args.budget // 6), eval_every=max(args.budget // 15, 1),
                  eval_episodes=5, log_every=2_000, checkpoint_every=50_000, quiet=True)
    out = []
    for m in args.methods:
        if m not in priors:
            raise SystemExit(f"compare: unknown method '{m}'; use some of {', '.join(priors)}")
        run_dir = Path(args.runs_dir) / m
        if not (run_dir / "actor.msgpack").is_file():
            if (run_dir / "config.json").is_file():
                resume(run_dir, quiet=True)
            else:
                train(dataclasses.replace(base, prior=priors[m], masking_aware=m != "control", out=str(run_dir)))
        out.append((m, run_dir))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--run", action="append", default=[], metavar="LABEL=RUN_DIR", help="a camel-jax run directory")
    p.add_argument("--reference", action="append", default=[], metavar="LABEL=CSV",
                   help="CleanRL curves from bench/cleanrl_reference.py (the first is the ratio's denominator)")
    p.add_argument("--at", default="50000,100000,150000", 
                   help="step counts for the return columns (default: %(default)s)")
    p.add_argument("--window", type=int, default=10_000, help="episodes ending in (s - W, s] (default: %(default)s)")
    p.add_argument("--threshold", type=float, default=1000.0, 
                   help="return for steps-to-threshold (default: %(default)s)")
    p.add_argument("--title", default="Hopper-v4", help="plot title (default: %(default)s)")
    p.add_argument("--band", choices=list(BANDS), default="iqm",
                   help="the plot's bands: " + "; ".join(f"{k}: {v}" for k, v in BANDS.items()).replace("%", "%%")
                   + " (default: %(default)s)")
    p.add_argument("--out", required=True, help="output prefix: writes PREFIX.png, PREFIX.md and PREFIX.json")
    p.add_argument("--budget", type=int, default=0, help="launch missing runs with this many env steps per seed")
    p.add_argument("--env", default="hopper", help="task for --budget (default: %(default)s)")
    p.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2], help="seeds for --budget (default: 0 1 2)")
    p.add_argument("--methods", nargs="+", default=["td3", "camel"],
                   help="methods for --budget: td3 camel random control expert (default: td3 camel)")
    p.add_argument("--runs-dir", default="runs/compare", help="where --budget puts its runs (default: %(default)s)")
    p.add_argument("--prior", default="", help="the prior of camel and control for --budget (default: --env, the "
                   "task's LLM-written prior; tuned:TASK for the controller searched for in simulation)")
    args = p.parse_args(argv)

    named = [tuple(x.split("=", 1)) for x in args.run + args.reference]
    if any(len(x) != 2 for x in named):
        print("compare: --run and --reference take LABEL=PATH, e.g. --run CAMEL=runs/hopper/camel", file=sys.stderr)
        return 2
    runs = [(label, Path(path)) for label, path in (tuple(x.split("=", 1)) for x in args.run)]
    if args.budget:
        runs += [(m, d) for m, d in launch(args)]
    refs = [(label, Path(path)) for label, path in (tuple(x.split("=", 1)) for x in args.reference)]
    for label, path in runs + refs:
        if not path.exists():
            print(f"compare: {label}: {path} does not exist; give a run directory or a reference CSV", file=sys.stderr)
            return 2
    if not runs and not refs:
        print("compare: nothing to compare; pass --run LABEL=RUN_DIR and/or --reference LABEL=CSV", file=sys.stderr)
        return 2
    provenance.warn_mixed([path for _, path in runs], "compare")
    data = [(label, load_ours(path), "ours") for label, path in runs]
    data += [(label, load_reference(path), "reference") for label, path in refs]
    budget = min(d["last_step"] for _, d, _ in data)
    ends = window_ends([d for _, d, kind in data if kind == "ours"], args.window, budget)
    if not len(ends):
        print(f"compare: no window of --window {args.window:,} steps starts and ends on log rows of every run before "
              f"{budget:,} steps; use a multiple of the runs' log interval (their config.json's log_every)",
              file=sys.stderr)
        return 2
    at = [a for a in (int(x) for x in args.at.split(",")) if a <= budget] or [int(ends[-1])]
    if off := [a for a in at if a not in set(ends.tolist())]:
        near = ends[np.argsort(np.abs(ends - off[0]))[:2]]
        print(f"compare: --at {off[0]:,} is not the end of a window aligned with every run's log rows; use a step "
              f"such as {', '.join(f'{e:,}' for e in sorted(near))} (windows end at {ends[0]:,}..{ends[-1]:,})",
              file=sys.stderr)
        return 2

    results = []
    for label, d, kind in data:
        curves = {s: windowed(arr, ends, args.window) for s, arr in sorted(d["seeds"].items())}
        evals = d.get("evals", {})
        last_eval = max((k for k in evals if k <= budget), default=None)
        results.append({"label": label, "kind": kind, "curves": curves, "wall_all": d["wall_all"], "about": d["about"],
                        "eval": (last_eval, evals[last_eval]) if last_eval else None,
                        "evals": {k: v for k, v in sorted(evals.items()) if k <= budget},
                        "stats": summarize(curves, ends, at, args.threshold)})
    write_outputs(args, results, ends, at, budget)
    return 0


def write_outputs(args, results: list[dict], ends: np.ndarray, at: list[int], budget: int) -> None:
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    draw(args, results, ends, out.with_suffix(".png"))
    ref = next((r for r in results if r["kind"] == "reference"), None)
    where = setting_title([(r["about"]["task"], r["about"]["backend"]) for r in results])
    header = ["method", "prior (kind, search cost)", "task, backend", "seeds"]
    for a in at:
        header += [f"return at {a // 1000}k", f"IQM at {a // 1000}k [95% CI]"]
    header += ["AUC (mean return)", "AUC, IQM [95% CI]", f"steps to {args.threshold:g} (seeds reaching)",
               "wall-clock, all seeds", "wall / seed", "unmasked eval (deterministic actor), last"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    summary = []
    for r in results:
        st, n = r["stats"], len(r["curves"])
        about = r["about"]
        cells = [r["label"], about["prior_label"], ran_on(about), str(n)]
        row = {"label": r["label"], **about, "seeds": n}
        vs_ref = ref is not None and r is not ref
        for a in at:
            pair, row[f"return_at_{a}"], row[f"return_at_{a}_iqm"] = cell_pair(
                st["at"][a], ref["stats"]["at"][a] if vs_ref else None)
            cells += pair
        pair, row["auc"], row["auc_iqm"] = cell_pair(st["auc"], ref["stats"]["auc"] if vs_ref else None)
        cells += pair
        reached = [x for x in st["reach"] if math.isfinite(x)]
        m, h = t_ci(reached) if reached else (math.nan, math.nan)
        cells.append(f"{fmt(m / 1000, h / 1000, 1)}k ({len(reached)}/{n})" if reached else f"not reached (0/{n})")
        row["steps_to_threshold"], row["seeds_reaching"] = [m, h], len(reached)
        wall_ratio = f" ({ratio(r['wall_all'], ref['wall_all'])})" if vs_ref else ""
        cells += [f"{r['wall_all'] / 60:.1f} min{wall_ratio}", f"{r['wall_all'] / n / 60:.1f} min"]
        row["wall_all_s"] = r["wall_all"]
        if r["eval"]:
            m, h = t_ci(r["eval"][1])
            cells.append(f"{fmt(m, h)} at {r['eval'][0] // 1000}k")
            row["eval_unmasked_last"] = [r["eval"][0], m, h]
        else:
            cells.append("n/a (training returns only)")
        lines.append("| " + " | ".join(cells) + " |")
        summary.append(row)
    base = next((r for r in results if r["evals"]), None)
    eval_lines = []
    if base:
        base_st = eval_stats(base["evals"], at)
        head = ["method", "prior (kind, search cost)", "task, backend"]
        for a in at:
            head += [f"unmasked eval at {a // 1000}k", f"IQM at {a // 1000}k [95% CI]"]
        head += ["mean over all evaluations", "all evaluations, IQM [95% CI]"]
        eval_lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for r, row in zip(results, summary):
            if not r["evals"]:
                continue
            st = eval_stats(r["evals"], at)
            cells = [r["label"], r["about"]["prior_label"], ran_on(r["about"])]
            for a in at:
                step, vals = st["at"][a]
                note = f" at {step // 1000}k" if step is not None and step != a else ""
                pair, mean_h, iqm_ci3 = cell_pair(vals, base_st["at"][a][1] if r is not base else None, note)
                cells += pair
                row[f"eval_at_{a}"], row[f"eval_at_{a}_iqm"] = [step, *mean_h], [step, *iqm_ci3]
            pair, row["eval_auc"], row["eval_auc_iqm"] = cell_pair(st["auc"], base_st["auc"] if r is not base else None)
            cells += pair
            eval_lines.append("| " + " | ".join(cells) + " |")
    command = "python bench/compare.py " + " ".join(f"'{a}'" if " " in a else a for a in sys.argv[1:])
    if ref:  # what the text says about the reference, in one place
        title, versus, walls, no_eval = (" against CleanRL's TD3",
                                         f"ratios are to the mean (or IQM) of '{ref['label']}'",
                                         "; CleanRL runs one process per seed (summed).", " CleanRL logs no evaluation.")
    else:
        title, versus, walls, no_eval = (" methods compared", "no --reference was given, so this table has no ratios",
                                         ".", "")
    gaps = sorted(set(np.diff(ends).tolist()))
    grid = f"every {gaps[0]:,} steps" if len(gaps) == 1 else f"at {len(ends)} steps"
    mixed = f" ({where})" if where.startswith("MIXED") else ""
    md = [f"# {args.title}: camel-jax{title}{mixed}", "", f"Command: `{command}`", "",
          (f"Budget compared: {budget:,} env steps per seed. Returns: training episodes ending in the last "
           f"{args.window:,} steps before the step count, mean ± 95% CI over seeds (Student t) and {IQM_TEXT}; "
           f"{versus}. The windows end {grid} from {ends[0]:,} to {ends[-1]:,}, where every run wrote a log row and "
           f"wrote one {args.window:,} steps before, so all curves average the same span of steps (AUC: the mean "
           f"over these window ends). Wall-clock: camel-jax trains a method's seeds together in one process{walls}"),
          "", (f"Runs: {where}. Each method's prior is named by what it is and what finding it cost in "
               "simulation (camel_jax/priors/kinds.py: from the run's config.json, or for runs made before it "
               "recorded them, from its prior.txt or prior path)."), "", *lines, "",
          *([(f"Unmasked evaluation of our runs (the deterministic actor with no box, the paper's measure), mean ± "
              f"95% CI over seeds and IQM [95% bootstrap CI]; ratios are to the mean (or IQM) of '{base['label']}'."
              f"{no_eval}"), "", *eval_lines, ""] if eval_lines else []),
          f"![curves]({out.with_suffix('.png').name})", ""]
    out.with_suffix(".md").write_text("\n".join(md))
    out.with_suffix(".json").write_text(json.dumps({
        "command": command, "budget": budget, "window": args.window, "threshold": args.threshold,
        "window_ends": {"first": int(ends[0]), "last": int(ends[-1]), "count": len(ends)}, "runs": where,
        "iqm": IQM_TEXT, "methods": summary}, indent=2) + "\n")
    print("\n".join(lines + [""] + eval_lines))


IQM_TEXT = (f"IQM [95% CI]: the interquartile mean over seeds (the mean of their middle half, the seeds at the "
            f"quartiles counted in part: (lowest + 4 x middle + highest) / 6 for 3 seeds) and its 95% percentile "
            f"bootstrap CI over seeds ({BOOTSTRAP_RESAMPLES:,} resamples); with 3 seeds that interval is the seeds' "
            f"min-max range, a 75% interval for the median seed, not a 95% one")


def legend(r: dict, mixed: bool) -> str:
    """What a legend entry adds to a method's label: its prior (kind and search cost), and where it ran when the runs
    did not all run on the same task and backend (otherwise the figure's title says it once)."""
    return f"{r['about']['prior_label']}; {ran_on(r['about'])}" if mixed else r["about"]["prior_label"]


def ran_on(about: dict) -> str:
    return f"{about['task'] or 'task not recorded'}, {about['backend'] or 'backend not recorded'}"


def draw(args, results: list[dict], ends: np.ndarray, png: Path) -> None:
    """The PNG: training-return curves of every method and reference, and unmasked evaluations of our runs, each
    with the band --band over seeds."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    where = setting_title([(r["about"]["task"], r["about"]["backend"]) for r in results])
    mixed = not where or where.startswith("MIXED")
    fig, (ax, ax_eval) = plt.subplots(1, 2, figsize=(14, 7))
    for r in results:
        stack = np.stack(list(r["curves"].values()))
        centre, low, high, _ = band_over_seeds(stack, args.band)
        style = "--" if r["kind"] == "reference" else "-"
        (line,) = ax.plot(ends, centre, style, label=f"{r['label']} ({stack.shape[0]} seeds) [{legend(r, mixed)}]")
        ax.fill_between(ends, low, high, color=line.get_color(), alpha=0.2)
    ax.set_xlabel("env steps")
    ax.set_ylabel(f"training episodic return (episodes ending in the last {args.window:,} steps)")
    ax.set_title(f"{args.title}: {BANDS[args.band]}")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.12))  # below: the labels are long
    for r in results:
        if r["evals"]:
            steps = np.array(list(r["evals"]))
            centre, low, high, _ = band_over_seeds(np.array(list(r["evals"].values())).T, args.band)
            (line,) = ax_eval.plot(steps, centre, "o-", ms=3, label=f"{r['label']} [{legend(r, mixed)}]")
            ax_eval.fill_between(steps, low, high, color=line.get_color(), alpha=0.2)
    ax_eval.set_xlabel("env steps")
    ax_eval.set_ylabel("unmasked evaluation return (deterministic actor, no box)")
    ax_eval.set_title(f"the agent alone: {BANDS[args.band]}")
    ax_eval.grid(alpha=0.3)
    if any(r["evals"] for r in results):
        ax_eval.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.12))
    if where:
        fig.suptitle(where, color="C3" if where.startswith("MIXED") else "black")
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    raise SystemExit(main())
