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

A third table gives, per seed, the AUC and the final return (the training episodes ending in the last --final-frac of
the compared steps, default 20%), and over seeds rliable's IQM with its 95% stratified percentile bootstrap CI and
rliable's probability of improvement over --baseline (default: the first reference, else the first run) with its CI
(--reps resamples, numpy seed 0). The heading and a table under it give each arm's seeds, steps, backend and the
git commit its run recorded (versions.json; CleanRL's commit from the reference JSON; "unknown" where none was).

--aggregate PREFIX compares arms across tasks instead (PREFIX.png, .md, .json): each --arm LABEL TASK=PATH... names
one run directory or CleanRL CSV per task, scored per seed (--score final, auc or eval: the unmasked evaluations in the
final span) and normalised per task (--normalize): `cleanrl` maps a random policy's return (--random-returns, made by
--measure-random) to 0 and CleanRL's published 1M-step TD3 (jax) return (--published) to 1; `minmax` maps the lowest
and highest run of the task to 0 and 1; `none` keeps returns. rliable then gives the IQM, median, mean and optimality
gap (to 1.0) with 95% stratified bootstrap CIs over runs within tasks, the probability of improvement of every arm
over --baseline (default: the first --arm) and performance profiles:

    python bench/compare.py --aggregate bench/results/aggregate \\
        --arm TD3 hopper=runs/hopper/td3 walker2d=runs/walker2d/td3 \\
        --arm "CAMEL, LLM prior" hopper=runs/hopper/camel_llm walker2d=runs/walker2d/camel_llm

--measure-random GYM_ID... --out CSV measures a uniformly random policy's episode return (--episodes per task).
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
from pathlib import Path

import numpy as np

from camel_jax import specs
from camel_jax.core import provenance
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
    evals, evals_by_seed = {}, {}  # step -> per-seed unmasked evaluation returns; seed -> (step, return) rows
    if (run_dir / "eval.csv").is_file():
        with open(run_dir / "eval.csv") as f:
            for r in csv.DictReader(f):
                evals.setdefault(int(r["step"]), []).append(float(r["return_unmasked"]))
                evals_by_seed.setdefault(int(r["seed"]), []).append((int(r["step"]), float(r["return_unmasked"])))
    _, task, backend = describe_run(run_dir)
    about = {**kinds.of_run(run_dir).record(), "task": task, "backend": backend}
    return {"seeds": {s: np.array(v) for s, v in seeds.items()}, "wall_all": wall, "config": config,
            "last_step": max(int(r["step"]) for r in rows), "evals": evals,  # last_step = total_steps once finished
            "evals_by_seed": {s: np.array(v) for s, v in evals_by_seed.items()}, "path": run_dir, "about": about}


def _path_or_pool(text: str):
    """A PATH argument: one path, or a tuple of run directories for `DIR1+DIR2` (one arm's seeds, `load_arm`)."""
    return Path(text) if "+" not in text else tuple(Path(p) for p in text.split("+"))


def _parts(path) -> tuple[Path, ...]:
    return path if isinstance(path, tuple) else (path,)


def load_arm(path) -> dict:
    """`load_ours` of one run directory, or of several (a tuple: `--run LABEL=DIR1+DIR2`) whose seeds together are
    one arm: runs of the same settings on disjoint seeds (e.g. seeds 1-6 in one process, 7-10 in another). Their
    wall-clock is the sum; each run's commit is kept (`describe` lists them)."""
    if isinstance(path, Path):
        return load_ours(path)
    parts = [load_ours(p) for p in path]
    from camel_jax import algos
    from camel_jax.core.config import RECORDED

    # the settings, apart from what does not change what a seed learns (and what config.json records beside them);
    # a config.json from before runs stated their algorithm is its legacy one's
    skip = ("seeds", "out", "mesh", "overwrite", "quiet", "compile_cache", "wandb", "wandb_project", "wandb_entity",
            *RECORDED)
    same = lambda c: {k: v for k, v in {"algo": algos.LEGACY, **c}.items() if k not in skip}
    seeds, evals, by_seed = {}, {}, {}
    for p, d in zip(path, parts):
        if same(d["config"]) != same(parts[0]["config"]):
            differ = sorted(k for k in same(d["config"]) | same(parts[0]["config"])
                            if d["config"].get(k) != parts[0]["config"].get(k))
            raise SystemExit(f"compare: {p} and {path[0]} differ in {', '.join(differ)}; the runs of one arm need the "
                             "same settings apart from their seeds")
        if both := set(seeds) & set(d["seeds"]):
            raise SystemExit(f"compare: seed {min(both)} is in two runs of one arm ({p}); give runs of other seeds")
        seeds.update(d["seeds"])
        by_seed.update(d["evals_by_seed"])
        for step, values in d["evals"].items():
            evals.setdefault(step, []).extend(values)
    return {**parts[0], "seeds": dict(sorted(seeds.items())), "wall_all": sum(d["wall_all"] for d in parts),
            "last_step": min(d["last_step"] for d in parts), "evals": evals, "evals_by_seed": by_seed, "parts": parts}


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
            "path": path, "about": about}


def window_ends(runs: list[dict], window: int, budget: int) -> np.ndarray:
    """The window ends s <= budget at which every seed of every camel-jax run (`load_ours`) wrote a log row and, W steps
    before, wrote one too (or s - W = 0): there the run's rows tile (s - W, s] exactly. A window that began or ended
    inside a log interval would take a whole row from a window shifted by up to one interval (with rows every 2,000
    steps and ends every 5,000, half the ends lagged the references by 1,000). Reference CSVs have a row per episode
    and fit any window; with references only, windows end every W // 2 steps."""
    common = common_log_steps(runs)
    if common is None:
        return np.arange(window, budget + 1, max(window // 2, 1))
    return np.array(sorted(e for e in common if window <= e <= budget and e - window in common), dtype=int)


def common_log_steps(runs: list[dict]) -> set[int] | None:
    """The steps (and 0) at which every seed of every camel-jax run wrote a log row; None without such runs."""
    logged = [set(arr[:, 0].astype(int).tolist()) | {0} for d in runs for arr in d["seeds"].values()]
    return set.intersection(*logged) if logged else None


def final_span(runs: list[dict], end: int, frac: float) -> tuple[int, int]:
    """(start, end): the last `frac` of the compared steps, episodes ending in (start, end]. `start` is the latest
    step at or before (1 - frac) x end where every camel-jax run wrote a log row (`common_log_steps`), so the span
    holds whole log rows and at least frac x end steps; with references only (a row per episode), (1 - frac) x end."""
    target = math.floor(end * (1 - frac) + 1e-6)  # 150,000 x 0.8 is 120,000, not 119,999
    common = common_log_steps(runs)
    return (target if common is None else max(s for s in common if s <= target)), int(end)


def final_returns(d: dict, span: tuple[int, int]) -> list[float]:
    """Per seed (in seed order): the mean return of the training episodes ending in the span (NaN where none did)."""
    start, end = span
    return [float(windowed(arr, np.array([end]), end - start)[0]) for _, arr in sorted(d["seeds"].items())]


def final_evals(d: dict, span: tuple[int, int]) -> list[float]:
    """Per seed (in seed order): the mean unmasked evaluation return over the evaluations in the span (NaN where
    there were none; references log no evaluation)."""
    start, end = span
    out = []
    for s in sorted(d["seeds"]):
        rows = d.get("evals_by_seed", {}).get(s, np.empty((0, 2)))
        sel = (rows[:, 0] > start) & (rows[:, 0] <= end) if len(rows) else np.zeros(0, bool)
        out.append(float(rows[sel, 1].mean()) if sel.any() else math.nan)
    return out


def describe(kind: str, d: dict) -> dict:
    """What an arm's run recorded: seeds, steps, backend and git commit (full, and `short` for tables). camel-jax
    runs: config.json and versions.json (its `git`; "unknown" without it, as in runs made before versions.json);
    CleanRL references: the JSON beside the CSV (its `cleanrl_commit`, `total_timesteps`, `script`, `versions`)."""
    if kind == "ours" and "parts" in d:  # one arm of several runs (load_arm): their commits, in order
        each = [describe(kind, part) for part in d["parts"]]
        commits = list(dict.fromkeys(e["commit"] for e in each))
        shorts = list(dict.fromkeys(e["short"] for e in each))
        return {**each[0], "seeds": sorted(d["seeds"]), "commit": " + ".join(commits),
                "dirty": any(e["dirty"] for e in each), "short": " + ".join(shorts),
                "steps": each[0]["steps"] if len({e["steps"] for e in each}) == 1 else
                " / ".join(e["steps"] for e in each)}
    if kind == "ours":
        config, versions = d["config"], provenance.read(d["path"]) or {}
        git = versions.get("git") or {}
        kinds = (versions.get("devices") or {}).get("kinds")
        backend = f"{config.get('backend', 'unknown')}" + (f" ({'/'.join(kinds)})" if kinds else "")
        algo = config.get("algo", "td3")
        commit, dirty = git.get("commit"), bool(git.get("dirty"))
        resumed = [r.get("git") or {} for r in versions.get("resumes", [])]  # camel-jax resume: its own commit
        later = list(dict.fromkeys(g["commit"] for g in resumed if g.get("commit") not in (None, commit)))
        dirty = dirty or any(g.get("dirty") for g in resumed)
        total = config.get("total_steps")
    else:
        later = []
        meta = d["meta"]
        versions = meta.get("versions", {})
        lib = ", ".join(f"{k} {versions[k]}" for k in ("gymnasium", "mujoco", "jax") if k in versions)
        script = Path(meta.get("script", "CleanRL")).name
        backend = f"CleanRL {script}" + (f" ({lib})" if lib else "")
        algo = "cleanrl"
        commit, dirty = meta.get("cleanrl_commit"), False
        total = meta.get("total_timesteps")
    steps = f"{d['last_step']:,}" if total in (None, d["last_step"]) else f"{d['last_step']:,} of {total:,}"
    short = (commit[:12] + (" (dirty)" if dirty else "")) if commit else "unknown"
    if later:  # resumed on other commits: all of them, the start's first
        short += " resumed on " + ", ".join(c[:12] for c in later)
        commit = f"{commit or 'unknown'} resumed on {', '.join(later)}"
    return {"seeds": sorted(d["seeds"]), "steps": steps, "backend": backend, "algo": algo,
            "commit": commit or "unknown", "dirty": dirty, "short": short,
            "brief": backend if kind == "ours" else "CleanRL"}  # the legend's backend


def seeds_text(counts: list[int]) -> str:
    """'10 seeds per arm', or the counts in arm order where they differ."""
    if len(set(counts)) == 1:
        return f"{counts[0]} seed{'s' * (counts[0] != 1)} per arm"
    return "seeds per arm " + "/".join(map(str, counts))


def rly_interval(scores, func, reps: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(point, low, high) arrays of `func` on `scores` (runs x tasks) or on a list of such arrays (probability of
    improvement): rliable.library.get_interval_estimates, the 95% percentile stratified bootstrap with `reps`
    resamples. rliable resamples with numpy's global generator: it is seeded with 0 for this call (so an estimate
    depends on its own scores only and a table is the same every time) and restored after."""
    from rliable import library as rly

    state = np.random.get_state()
    np.random.seed(0)
    try:
        point, interval = rly.get_interval_estimates({"x": scores}, func, reps=reps)
    finally:
        np.random.set_state(state)
    interval = np.asarray(interval["x"], float).reshape(2, -1)
    return np.ravel(np.asarray(point["x"], float)), interval[0], interval[1]


def fast_iqm(scores) -> float:
    """rliable.metrics.aggregate_iqm (scipy.stats.trim_mean(scores, 0.25, axis=None)), the same partition and mean
    without scipy's per-call argument handling, which dominated a 2,000-resample bootstrap's time."""
    a = np.ravel(np.asarray(scores))
    low = int(0.25 * len(a))
    high = len(a) - low
    return np.mean(np.partition(a, (low, high - 1))[low:high])


def fast_poi(scores_x, scores_y) -> float:
    """rliable.metrics.probability_of_improvement of runs x tasks arrays: per task, the Mann-Whitney U statistic of
    X over Y divided by the pairs (the pairs with x > y plus half those with x == y: scipy's U from ranks, which
    is that count exactly; 0.5 where the two columns are equal), averaged over tasks. The same values, counted
    with numpy instead of one scipy.stats.mannwhitneyu call per task and resample (tests/test_compare.py checks
    them against rliable's)."""
    x, y = np.asarray(scores_x)[:, None, :], np.asarray(scores_y)[None, :, :]
    count = (x > y).sum(axis=(0, 1)) + 0.5 * (x == y).sum(axis=(0, 1))
    return np.mean(count / (x.shape[0] * y.shape[1]))


def rly_iqm(values, reps: int) -> list[float]:
    """[IQM, CI low, CI high] of per-seed `values` (one task) by rliable; NaN if any value is NaN."""
    x = np.asarray(values, float)
    if not len(x) or not np.isfinite(x).all():
        return [math.nan] * 3
    point, low, high = rly_interval(x[:, None], lambda s: np.array([fast_iqm(s)]), reps)
    return [float(point[0]), float(low[0]), float(high[0])]


def rly_poi(x, y, reps: int) -> list[float]:
    """[P(X > Y), CI low, CI high] of per-seed values x against y (one task) by rliable; NaN if any is NaN."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    if not len(x) or not len(y) or not (np.isfinite(x).all() and np.isfinite(y).all()):
        return [math.nan] * 3
    point, low, high = rly_interval([x[:, None], y[:, None]], fast_poi, reps)
    return [float(point[0]), float(low[0]), float(high[0])]


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


def kilo(step: int) -> str:
    """A step count in a column name: '50k' for whole thousands (as 50,000), else the number ('600', '1,500')."""
    return f"{step // 1000}k" if step and step % 1000 == 0 else f"{step:,}"


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}x" if math.isfinite(a) and math.isfinite(b) and b != 0 else "n/a"


def launch(args) -> list[tuple[str, Path]]:
    """Train the --methods missing from --runs-dir (bench/paper.sh's settings at --budget steps)."""
    import dataclasses

    from camel_jax.algos.td3.config import Config
    from camel_jax.algos.td3.loop import resume, train

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
    p.add_argument("--run", action="append", default=[], metavar="LABEL=RUN_DIR",
                   help="a camel-jax run directory; LABEL=DIR1+DIR2 pools the seeds of runs of the same settings")
    p.add_argument("--reference", action="append", default=[], metavar="LABEL=CSV",
                   help="CleanRL curves from bench/cleanrl_reference.py (the first is the ratio's denominator)")
    p.add_argument("--at", default="50000,100000,150000", 
                   help="step counts for the return columns (default: %(default)s)")
    p.add_argument("--window", type=int, default=10_000, help="episodes ending in (s - W, s] (default: %(default)s)")
    p.add_argument("--threshold", type=float, default=1000.0, 
                   help="return for steps-to-threshold (default: %(default)s)")
    p.add_argument("--title", default=None,
                   help="plot and table title (default: the runs' task, e.g. Walker2d-v4; MIXED TASKS if they differ)")
    p.add_argument("--band", choices=list(BANDS), default="iqm",
                   help="the plot's bands: " + "; ".join(f"{k}: {v}" for k, v in BANDS.items()).replace("%", "%%")
                   + " (default: %(default)s)")
    p.add_argument("--out", help="output prefix: writes PREFIX.png, PREFIX.md and PREFIX.json (with "
                   "--measure-random: the CSV)")
    p.add_argument("--final-frac", type=float, default=0.2,
                   help="final return: episodes ending in the last FRAC of the compared steps (default: %(default)s)")
    p.add_argument("--baseline", default="", metavar="LABEL",
                   help="the arm the probability of improvement is over (default: the first --reference, else the "
                        "first --run; with --aggregate the first --arm)")
    p.add_argument("--reps", type=int, default=2000,
                   help="bootstrap resamples of rliable's CIs (default: %(default)s)")
    p.add_argument("--aggregate", metavar="PREFIX",
                   help="compare the --arm arms across tasks: writes PREFIX.png, PREFIX.md and PREFIX.json")
    p.add_argument("--arm", nargs="+", action="append", default=[], metavar=("LABEL", "TASK=PATH"),
                   help="with --aggregate: an arm's label and, per task, its run directory or CleanRL CSV "
                        "(TASK=DIR1+DIR2 pools the seeds of runs of the same settings)")
    p.add_argument("--score", choices=SCORES, default="final",
                   help="with --aggregate, each run's score: " + "; ".join(f"{k}: {v}" for k, v in SCORES.items())
                   .replace("%", "%%") + " (default: %(default)s)")
    p.add_argument("--normalize", choices=NORMALIZE, default="cleanrl",
                   help="with --aggregate: " + "; ".join(f"{k}: {v}" for k, v in NORMALIZE.items()).replace("%", "%%")
                   + " (default: %(default)s)")
    p.add_argument("--published", default=str(ROOT / "bench/reference/cleanrl_published.csv"),
                   help="CleanRL's published scores for --normalize cleanrl (default: bench/reference/...)")
    p.add_argument("--random-returns", default=str(ROOT / "bench/reference/random_policy.csv"),
                   help="a random policy's returns for --normalize cleanrl (default: bench/reference/...)")
    p.add_argument("--measure-random", nargs="+", default=[], metavar="GYM_ID",
                   help="measure a uniformly random policy's episode return on these tasks into the CSV --out")
    p.add_argument("--episodes", type=int, default=100, help="episodes per task for --measure-random "
                   "(default: %(default)s)")
    p.add_argument("--budget", type=int, default=0, help="launch missing runs with this many env steps per seed")
    p.add_argument("--env", default="hopper", help="task for --budget (default: %(default)s)")
    p.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2], help="seeds for --budget (default: 0 1 2)")
    p.add_argument("--methods", nargs="+", default=["td3", "camel"],
                   help="methods for --budget: td3 camel random control expert (default: td3 camel)")
    p.add_argument("--runs-dir", default="runs/compare", help="where --budget puts its runs (default: %(default)s)")
    p.add_argument("--prior", default="", help="the prior of camel and control for --budget (default: --env, the "
                   "task's LLM-written prior; tuned:TASK for the controller searched for in simulation)")
    args = p.parse_args(argv)
    args.command = "python bench/compare.py " + " ".join(f"'{a}'" if " " in a else a
                                                         for a in (sys.argv[1:] if argv is None else argv))
    if args.measure_random:
        return measure_random(args)
    if not 0 < args.final_frac <= 1 or args.reps < 1:
        print(f"compare: --final-frac ({args.final_frac}) must be in (0, 1] and --reps ({args.reps}) at least 1",
              file=sys.stderr)
        return 2
    if args.aggregate:
        return aggregate(args)
    if not args.out:
        print("compare: name the output with --out PREFIX (or use --aggregate PREFIX)", file=sys.stderr)
        return 2

    named = [tuple(x.split("=", 1)) for x in args.run + args.reference]
    if any(len(x) != 2 for x in named):
        print("compare: --run and --reference take LABEL=PATH, e.g. --run CAMEL=runs/hopper/camel", file=sys.stderr)
        return 2
    runs = [(label, _path_or_pool(path)) for label, path in (tuple(x.split("=", 1)) for x in args.run)]
    if args.budget:
        runs += [(m, d) for m, d in launch(args)]
    refs = [(label, Path(path)) for label, path in (tuple(x.split("=", 1)) for x in args.reference)]
    return compare_runs(args, runs, refs)


def compare_runs(args, runs: list[tuple[str, Path]], refs: list[tuple[str, Path]]) -> int:
    """Compare camel-jax run directories `runs` and CleanRL CSVs `refs` (each (label, path)) and write args.out's
    PNG, MD and JSON; `args` holds the options of `main` (at, window, threshold, title, band, out, final_frac,
    baseline, reps, command). `args.at` "auto": the window ends nearest half the budget and the last one.
    Returns 0, or 2 with one line on stderr."""
    for label, path in runs + refs:
        if missing := [p for p in _parts(path) if not p.exists()]:
            print(f"compare: {label}: {missing[0]} does not exist; give a run directory or a reference CSV",
                  file=sys.stderr)
            return 2
    if not runs and not refs:
        print("compare: nothing to compare; pass --run LABEL=RUN_DIR and/or --reference LABEL=CSV", file=sys.stderr)
        return 2
    provenance.warn_mixed([p for _, path in runs for p in _parts(path)], "compare")
    data = [(label, load_arm(path), "ours") for label, path in runs]
    data += [(label, load_reference(path), "reference") for label, path in refs]
    budget = min(d["last_step"] for _, d, _ in data)
    ends = window_ends([d for _, d, kind in data if kind == "ours"], args.window, budget)
    if not len(ends):
        print(f"compare: no window of --window {args.window:,} steps starts and ends on log rows of every run before "
              f"{budget:,} steps; use a multiple of the runs' log interval (their config.json's log_every)",
              file=sys.stderr)
        return 2
    if args.at == "auto":
        at = sorted({int(ends[np.argmin(np.abs(ends - budget / 2))]), int(ends[-1])})
    else:
        at = [a for a in (int(x) for x in args.at.split(",")) if a <= budget] or [int(ends[-1])]
    if off := [a for a in at if a not in set(ends.tolist())]:
        near = ends[np.argsort(np.abs(ends - off[0]))[:2]]
        print(f"compare: --at {off[0]:,} is not the end of a window aligned with every run's log rows; use a step "
              f"such as {', '.join(f'{e:,}' for e in sorted(near))} (windows end at {ends[0]:,}..{ends[-1]:,})",
              file=sys.stderr)
        return 2
    labels = [label for label, _, _ in data]
    if args.baseline and args.baseline not in labels:
        print(f"compare: --baseline '{args.baseline}' is none of the labels: {', '.join(labels)}", file=sys.stderr)
        return 2
    span = final_span([d for _, d, kind in data if kind == "ours"], int(ends[-1]), args.final_frac)

    results = []
    for label, d, kind in data:
        curves = {s: windowed(arr, ends, args.window) for s, arr in sorted(d["seeds"].items())}
        evals = d.get("evals", {})
        last_eval = max((k for k in evals if k <= budget), default=None)
        results.append({"label": label, "kind": kind, "curves": curves, "wall_all": d["wall_all"], "about": d["about"],
                        "eval": (last_eval, evals[last_eval]) if last_eval else None,
                        "evals": {k: v for k, v in sorted(evals.items()) if k <= budget},
                        "stats": summarize(curves, ends, at, args.threshold), "final": final_returns(d, span),
                        "provenance": describe(kind, d)})
    write_outputs(args, results, ends, at, budget, span)
    return 0


def task_title(results: list[dict]) -> str:
    """The title a comparison gets without --title: the gym id of the runs' one task ("Walker2d-v4"), or "MIXED
    TASKS" (never another task's name: the default used to be "Hopper-v4" whatever the runs were)."""
    tasks = list(dict.fromkeys(r["about"]["task"].split(" ")[0] for r in results if r["about"].get("task")))
    if len(tasks) != 1:
        return "MIXED TASKS" if tasks else "camel-jax runs"
    try:
        return specs.load(tasks[0]).gym_id
    except (KeyError, ValueError, OSError):
        return tasks[0]


def write_outputs(args, results: list[dict], ends: np.ndarray, at: list[int], budget: int,
                  span: tuple[int, int]) -> None:
    if args.title is None:
        args.title = task_title(results)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    draw(args, results, ends, out.with_suffix(".png"), budget)
    ref = next((r for r in results if r["kind"] == "reference"), None)
    where = setting_title([(r["about"]["task"], r["about"]["backend"]) for r in results])
    header = ["method", "prior (kind, search cost)", "task, backend", "seeds"]
    for a in at:
        header += [f"return at {kilo(a)}", f"IQM at {kilo(a)} [95% CI]"]
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
            cells.append(f"{fmt(m, h)} at {kilo(r['eval'][0])}")
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
            head += [f"unmasked eval at {kilo(a)}", f"IQM at {kilo(a)} [95% CI]"]
        head += ["mean over all evaluations", "all evaluations, IQM [95% CI]"]
        eval_lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        for r, row in zip(results, summary):
            if not r["evals"]:
                continue
            st = eval_stats(r["evals"], at)
            cells = [r["label"], r["about"]["prior_label"], ran_on(r["about"])]
            for a in at:
                step, vals = st["at"][a]
                note = f" at {kilo(step)}" if step is not None and step != a else ""
                pair, mean_h, iqm_ci3 = cell_pair(vals, base_st["at"][a][1] if r is not base else None, note)
                cells += pair
                row[f"eval_at_{a}"], row[f"eval_at_{a}_iqm"] = [step, *mean_h], [step, *iqm_ci3]
            pair, row["eval_auc"], row["eval_auc_iqm"] = cell_pair(st["auc"], base_st["auc"] if r is not base else None)
            cells += pair
            eval_lines.append("| " + " | ".join(cells) + " |")
    command = args.command
    if ref:  # what the text says about the reference, in one place
        title, versus, walls, no_eval = (" against CleanRL's TD3",
                                         f"ratios are to the mean (or IQM) of '{ref['label']}'",
                                         "; CleanRL runs one process per seed (summed).", " CleanRL logs no evaluation.")
    else:
        title, versus, walls, no_eval = (" methods compared", "no --reference was given, so this table has no ratios",
                                         ".", "")
    gaps = sorted(set(np.diff(ends).tolist()))
    grid = f"every {gaps[0]:,} steps" if len(gaps) == 1 else f"at {len(ends)} steps"
    rly_lines, rly_text = per_seed_section(args, results, summary, span)
    mixed = f" ({where})" if where.startswith("MIXED") else ""
    md = [f"# {args.title}: camel-jax{title}{mixed}, {seeds_text([len(r['curves']) for r in results])}, {budget:,} steps",
          "", *provenance_lines(results), "", f"Command: `{command}`", "",
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
          rly_text, "", *rly_lines, "",
          f"![curves]({out.with_suffix('.png').name})", ""]
    out.with_suffix(".md").write_text("\n".join(md))
    out.with_suffix(".json").write_text(json.dumps({
        "command": command, "budget": budget, "window": args.window, "threshold": args.threshold,
        "window_ends": {"first": int(ends[0]), "last": int(ends[-1]), "count": len(ends)},
        "runs": where, "final_span": list(span), "iqm": IQM_TEXT, "rliable": rly_text, "methods": summary},
        indent=2) + "\n")
    print("\n".join(lines + [""] + eval_lines + [""] + rly_lines))


def provenance_lines(results: list[dict]) -> list[str]:
    """The markdown table of what each arm's run recorded (`describe`)."""
    lines = ["| arm | seeds | steps | backend | commit |", "|---|---|---|---|---|"]
    for r in results:
        pv = r["provenance"]
        seeds = ", ".join(map(str, pv["seeds"]))
        lines.append(f"| {r['label']} | {len(pv['seeds'])} ({seeds}) | {pv['steps']} | {pv['backend']} | "
                     f"{pv['short']} |")
    return lines


def per_seed_section(args, results: list[dict], summary: list[dict], span: tuple[int, int]) -> tuple[list, str]:
    """The rliable table (IQM [CI] of AUC and final return, P(X > baseline) [CI]) and the per-seed values, its
    explaining paragraph; the numbers are added to each method's JSON row in `summary`."""
    base = next((r for r in results if r["label"] == args.baseline), None) if args.baseline else None
    base = base or next((r for r in results if r["kind"] == "reference"), results[0])
    head = ["method", "seeds", "AUC, IQM [95% CI]", "final return, IQM [95% CI]",
            f"P(> {base['label']}), AUC [95% CI]", f"P(> {base['label']}), final [95% CI]"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r, row in zip(results, summary):
        auc, final = [float(x) for x in r["stats"]["auc"]], r["final"]
        row["per_seed"] = {"seed": r["provenance"]["seeds"], "auc": auc, "final": final}
        row["provenance"] = r["provenance"]
        row["auc_iqm_rliable"], row["final_iqm_rliable"] = rly_iqm(auc, args.reps), rly_iqm(final, args.reps)
        cells = [r["label"], str(len(auc)), fmt_iqm(*row["auc_iqm_rliable"]), fmt_iqm(*row["final_iqm_rliable"])]
        if r is base:
            cells += ["(baseline)", "(baseline)"]
        else:
            row["poi_auc"] = rly_poi(auc, [float(x) for x in base["stats"]["auc"]], args.reps)
            row["poi_final"] = rly_poi(final, base["final"], args.reps)
            cells += [fmt_prob(*row["poi_auc"]), fmt_prob(*row["poi_final"])]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "| method | per seed: seed AUC / final return |", "|---|---|"]
    for r, row in zip(results, summary):
        per = row["per_seed"]
        lines.append(f"| {r['label']} | " + ", ".join(
            f"{s}: {a:,.0f} / {f:,.0f}" for s, a, f in zip(per["seed"], per["auc"], per["final"])) + " |")
    text = (f"Per seed: AUC as above; final return: the mean return of the training episodes ending in "
            f"({span[0]:,}, {span[1]:,}], the last {args.final_frac:.0%} of the compared steps (CleanRL publishes "
            f"the mean of its last 100 training episodes). Over seeds, by rliable: IQM [95% CI], "
            f"rliable.metrics.aggregate_iqm (scipy's 25% trimmed mean: for 10 seeds the mean of the middle 6; the IQM "
            f"columns above weigh the seeds at the quartiles in part, and agree where the seed count is a multiple "
            f"of 4) with its 95% percentile stratified bootstrap CI over seeds; P(X > {base['label']}) [95% CI], "
            f"rliable.metrics.probability_of_improvement (the Mann-Whitney U statistic over n_X x n_Y: the chance "
            f"that a seed of X beats a seed of the baseline, ties counting half) with the 95% percentile CI of the "
            f"independent stratified bootstrap of both arms' seeds; {args.reps:,} resamples "
            f"(rliable.library.get_interval_estimates, numpy seed 0).")
    return lines, text


def fmt_prob(p: float, low: float, high: float) -> str:
    return "n/a" if not math.isfinite(p) else f"{p:.2f} [{low:.2f}, {high:.2f}]"


SCORES = {"final": "the mean training return over the last --final-frac of the steps (CleanRL's curves have it too)",
          "auc": "the mean of the windowed training return over the budget",
          "eval": "the mean unmasked evaluation return over the last --final-frac of the steps (camel-jax runs only)"}
NORMALIZE = {"cleanrl": "(score - random policy's return) / (CleanRL's published 1M-step TD3 (jax) return - random "
                        "policy's return)",
             "minmax": "(score - lowest run) / (highest run - lowest run) over all arms' runs of the task",
             "none": "returns as they are"}
PUBLISHED_SCRIPT, PUBLISHED_STEPS = "td3_continuous_action_jax.py", 1_000_000
AGGREGATES = ("IQM", "median", "mean", "optimality gap")


def gym_id(kind: str, d: dict) -> str:
    """The gymnasium task of a run (its config's env through camel_jax.specs) or reference (its JSON's env_id)."""
    if kind == "reference":
        return d["meta"].get("env_id", "unknown")
    from camel_jax import specs

    try:
        return specs.load(d["config"]["env"]).gym_id
    except ValueError:  # a task without a spec: its name as given
        return str(d["config"].get("env", "unknown"))


def read_task_table(path: str, value: str, where: dict) -> dict[str, float]:
    """task -> float(row[value]) over the rows of the CSV at `path` matching `where` (column -> text)."""
    with open(path) as f:
        return {r["task"]: float(r[value]) for r in csv.DictReader(f) if all(r[k] == v for k, v in where.items())}


def normalizer(args, tasks: list[str], ids: dict[str, str], raw: dict[str, list[np.ndarray]]) -> dict | str:
    """task -> (score mapped to 0, score mapped to 1) under --normalize, or an error message."""
    if args.normalize == "none":
        return {t: (0.0, 1.0) for t in tasks}
    if args.normalize == "minmax":
        out = {}
        for t in tasks:
            every = np.concatenate(raw[t])
            lo, hi = float(np.min(every)), float(np.max(every))
            if hi == lo:
                return f"every run of {t} scores {lo:g}: --normalize minmax has no range; use --normalize none"
            out[t] = (lo, hi)
        return out
    published = read_task_table(args.published, "mean", {"implementation": PUBLISHED_SCRIPT,
                                                          "total_steps": str(PUBLISHED_STEPS)})
    random_returns = read_task_table(args.random_returns, "mean", {}) if Path(args.random_returns).is_file() else {}
    out = {}
    for t in tasks:
        if ids[t] not in published:
            return (f"no CleanRL-published {PUBLISHED_SCRIPT} score at {PUBLISHED_STEPS:,} steps for {ids[t]} in "
                    f"{args.published}; use --normalize minmax (or none)")
        if ids[t] not in random_returns:
            return (f"no random-policy return for {ids[t]} in {args.random_returns}; measure it with "
                    f"python bench/compare.py --measure-random {ids[t]} --out {args.random_returns} (it rewrites the "
                    f"file: name every task), or use --normalize minmax")
        out[t] = (random_returns[ids[t]], published[ids[t]])
    return out


def aggregate(args) -> int:
    """--aggregate: the arms' per-seed scores on every task, normalised, through rliable's aggregate metrics,
    probability of improvement and performance profiles; PREFIX.png, .md and .json."""
    from rliable import library as rly
    from rliable import metrics

    def fail(message: str) -> int:
        print(f"compare: {message}", file=sys.stderr)
        return 2

    if len(args.arm) < 1:
        return fail("--aggregate needs --arm LABEL TASK=PATH [TASK=PATH ...], once per arm")
    arms: dict[str, dict[str, Path]] = {}
    for label, *specs_ in args.arm:
        if not specs_ or any("=" not in x for x in specs_):
            return fail(f"--arm {label}: give TASK=PATH after the label, e.g. --arm TD3 hopper=runs/hopper/td3")
        if label in arms:
            return fail(f"--arm {label} is given twice")
        arms[label] = {task: _path_or_pool(path) for task, path in (x.split("=", 1) for x in specs_)}
    labels, tasks = list(arms), list(next(iter(arms.values())))
    for label, runs in arms.items():
        if set(runs) != set(tasks):
            return fail(f"--arm {label} has tasks {', '.join(runs)}; every arm needs the same tasks: "
                        f"{', '.join(tasks)}")
        for task, path in runs.items():
            if missing := [p for p in _parts(path) if not p.exists()]:
                return fail(f"{label}: {task}: {missing[0]} does not exist; give a run directory or a CleanRL CSV")
    baseline = args.baseline or labels[0]
    if baseline not in arms:
        return fail(f"--baseline '{baseline}' is none of the arms: {', '.join(labels)}")
    provenance.warn_mixed([p for runs in arms.values() for x in runs.values() for p in _parts(x) if p.is_dir()],
                          "compare")

    raw = {t: {} for t in tasks}  # task -> label -> per-seed scores
    info = {t: {} for t in tasks}  # task -> label -> describe()
    ids, spans = {}, {}
    for t in tasks:
        data = {}
        for label in labels:
            path = arms[label][t]
            kind = "reference" if isinstance(path, Path) and path.is_file() else "ours"
            data[label] = (kind, load_reference(path) if kind == "reference" else load_arm(path))
        found = {label: gym_id(kind, d) for label, (kind, d) in data.items()}
        if len(set(found.values())) > 1:
            return fail(f"task {t} mixes environments: " + ", ".join(f"{k}: {v}" for k, v in found.items()))
        ids[t] = next(iter(found.values()))
        ours = [d for kind, d in data.values() if kind == "ours"]
        budget = min(d["last_step"] for _, d in data.values())
        ends = window_ends(ours, args.window, budget)
        if not len(ends):
            return fail(f"{t}: no window of --window {args.window:,} steps starts and ends on log rows of every run "
                        f"before {budget:,} steps; use a multiple of the runs' log interval")
        spans[t] = final_span(ours, int(ends[-1]), args.final_frac)
        for label, (kind, d) in data.items():
            info[t][label] = describe(kind, d)
            if args.score == "final":
                scores = final_returns(d, spans[t])
            elif args.score == "auc":
                scores = [np.nanmean(windowed(arr, ends, args.window)) for _, arr in sorted(d["seeds"].items())]
            elif kind == "reference":
                return fail(f"--score eval: {label} on {t} is a CleanRL reference, which logs no evaluation")
            else:
                scores = final_evals(d, spans[t])
            raw[t][label] = np.asarray(scores, float)
            if not np.isfinite(raw[t][label]).all():
                return fail(f"{label} on {t}: a seed has no {args.score} score in ({spans[t][0]:,}, "
                            f"{spans[t][1]:,}]; use a larger --final-frac")
    for label in labels:
        counts = {t: len(raw[t][label]) for t in tasks}
        if len(set(counts.values())) > 1:
            each = ", ".join(f"{t}: {n}" for t, n in counts.items())
            return fail(f"{label} has different seed counts per task ({each}); rliable's stratified bootstrap needs "
                        f"the same number of runs on every task")
    norm = normalizer(args, tasks, ids, {t: list(raw[t].values()) for t in tasks})
    if isinstance(norm, str):
        return fail(norm)
    scores = {label: np.stack([(raw[t][label] - norm[t][0]) / (norm[t][1] - norm[t][0]) for t in tasks], axis=1)
              for label in labels}  # runs x tasks

    gamma = 1.0
    funcs = lambda x: np.array([fast_iqm(x), metrics.aggregate_median(x), metrics.aggregate_mean(x),
                                metrics.aggregate_optimality_gap(x, gamma)])
    agg = {label: rly_interval(scores[label], funcs, args.reps) for label in labels}
    poi = {label: [float(v[0]) for v in rly_interval([scores[label], scores[baseline]],
                                                     fast_poi, args.reps)]
           for label in labels if label != baseline}
    poi_task = {label: [float(metrics.probability_of_improvement(scores[label][:, [k]], scores[baseline][:, [k]]))
                        for k in range(len(tasks))] for label in poi}
    every = np.concatenate([v.ravel() for v in scores.values()])
    taus = np.linspace(min(0.0, float(every.min())), max(1.0, float(every.max())) * 1.05, 101)
    state = np.random.get_state()
    np.random.seed(0)
    try:
        profiles, profile_cis = rly.create_performance_profile(scores, taus, reps=args.reps)
    finally:
        np.random.set_state(state)

    out = Path(args.aggregate)
    out = out.with_suffix("") if out.suffix in (".png", ".md", ".json") else out
    out.parent.mkdir(parents=True, exist_ok=True)
    counts = [scores[label].shape[0] for label in labels]
    steps = ", ".join(f"{t}: ({spans[t][0]:,}, {spans[t][1]:,}]" for t in tasks)
    score_text = {"final": f"the mean return of the training episodes ending in the last {args.final_frac:.0%} of "
                           f"each task's compared steps ({steps})",
                  "auc": f"the mean of the training return over windows of {args.window:,} steps ending on every "
                         f"common log row up to each task's budget (AUC)",
                  "eval": f"the mean unmasked evaluation return (deterministic actor, no box) over the evaluations "
                          f"in the last {args.final_frac:.0%} of each task's compared steps ({steps})"}[args.score]
    norm_text = {"cleanrl": ("normalised per task so that a uniformly random policy's mean episode return "
                             f"({Path(args.random_returns).name}) is 0 and CleanRL's published "
                             f"{PUBLISHED_SCRIPT} return at {PUBLISHED_STEPS:,} steps (mean of its last 100 training "
                             f"episodes over 3 seeds; {Path(args.published).name}) is 1; the optimality gap is the "
                             "mean shortfall below 1"),
                 "minmax": ("normalised per task so that the lowest run of any arm on the task is 0 and the highest "
                            "is 1 (so the numbers depend on the arms compared); the optimality gap is the mean "
                            "shortfall below the best run"),
                 "none": "not normalised (returns; the optimality gap is the mean shortfall below a return of 1, "
                         "meaningless for returns)"}[args.normalize]
    stats_text = (f"rliable over {len(tasks)} task{'s' * (len(tasks) != 1)}: IQM (metrics.aggregate_iqm, the 25% "
                  f"trimmed mean of all runs x tasks), median and mean of the per-task means, optimality gap "
                  f"(metrics.aggregate_optimality_gap, gamma {gamma:g}), each with its 95% percentile stratified "
                  f"bootstrap CI (runs resampled within each task; rliable.library.get_interval_estimates, "
                  f"{args.reps:,} resamples, numpy seed 0). P(X > {baseline}): metrics.probability_of_improvement, "
                  f"the chance that a run of X beats a run of {baseline} on the same task (Mann-Whitney U / "
                  f"(n_X n_Y), ties half), averaged over tasks, with the 95% CI of the independent stratified "
                  f"bootstrap. Performance profiles (PNG, JSON): the fraction of runs x tasks scoring above tau, with "
                  f"95% stratified bootstrap bands (rliable.library.create_performance_profile). A bootstrap CI "
                  f"cannot leave what the runs show: where every run of X beats every run of {baseline} on every "
                  f"task, P = 1 [1, 1] however few the runs.")
    command = args.command
    head = ["arm", "runs x tasks", *(f"{m} [95% CI]" for m in AGGREGATES), f"P(> {baseline}) [95% CI]"]
    table = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    summary = []
    for label in labels:
        point, low, high = agg[label]
        cells = [label, f"{scores[label].shape[0]} x {len(tasks)}",
                 *(f"{point[k]:.3f} [{low[k]:.3f}, {high[k]:.3f}]" for k in range(len(AGGREGATES))),
                 fmt_prob(*poi[label]) if label in poi else "(baseline)"]
        table.append("| " + " | ".join(cells) + " |")
        summary.append({"label": label, "runs": scores[label].shape[0],
                        **{m.replace(" ", "_"): [float(point[k]), float(low[k]), float(high[k])]
                           for k, m in enumerate(AGGREGATES)},
                        **({"poi": poi[label], "poi_per_task": dict(zip(tasks, poi_task[label]))} if label in poi
                           else {}),
                        "per_task": {t: {"gym_id": ids[t], "raw": raw[t][label].tolist(),
                                         "normalized": scores[label][:, k].tolist(), "provenance": info[t][label]}
                                     for k, t in enumerate(tasks)},
                        "profile": profiles[label].tolist(), "profile_ci": np.asarray(profile_cis[label]).tolist()})
    task_head = ["arm", *(f"{t} ({ids[t]}): mean raw [normalised]" for t in tasks)]
    per_task = ["| " + " | ".join(task_head) + " |", "|" + "---|" * len(task_head)]
    for label in labels:
        per_task.append("| " + " | ".join([label, *(f"{raw[t][label].mean():,.0f} [{scores[label][:, k].mean():.3f}]"
                                                      + (f", P(> {baseline}) {poi_task[label][k]:.2f}"
                                                         if label in poi else "")
                                                      for k, t in enumerate(tasks))]) + " |")
    ref_lines = ["| task | 0 | 1 |", "|---|---|---|"] + [f"| {t} ({ids[t]}) | {norm[t][0]:,.1f} | {norm[t][1]:,.1f} |"
                                                         for t in tasks]
    prov = ["| arm | task | path | seeds | steps | backend | commit |", "|---|---|---|---|---|---|---|"]
    for label in labels:
        for t in tasks:
            pv, runs = info[t][label], " + ".join(map(str, _parts(arms[label][t])))  # as given: DIR1+DIR2
            prov.append(f"| {label} | {t} | {runs} | {len(pv['seeds'])} ({', '.join(map(str, pv['seeds']))})"
                        f" | {pv['steps']} | {pv['backend']} | {pv['short']} |")
    title = (f"Across {len(tasks)} task{'s' * (len(tasks) != 1)} ({', '.join(ids[t] for t in tasks)}): "
             f"{' vs '.join(labels)}, {seeds_text(counts)} and task")
    md = [f"# {title}", "", *prov, "", f"Command: `{command}`", "",
          f"Score per run: {score_text}, {norm_text}.", "", *ref_lines, "", stats_text, "", *table, "",
          "Per task:", "", *per_task, "", f"![aggregate]({out.with_suffix('.png').name})", ""]
    out.with_suffix(".md").write_text("\n".join(md))
    out.with_suffix(".json").write_text(json.dumps({
        "command": command, "tasks": {t: {"gym_id": ids[t], "span": list(spans[t]), "zero": norm[t][0],
                                          "one": norm[t][1]} for t in tasks},
        "score": args.score, "score_text": score_text, "normalize": args.normalize, "normalize_text": norm_text,
        "statistics": stats_text, "reps": args.reps, "baseline": baseline, "metrics": list(AGGREGATES),
        "taus": taus.tolist(), "arms": summary}, indent=2) + "\n")
    draw_aggregate(out.with_suffix(".png"), title, labels, baseline, agg, poi, taus, profiles, profile_cis,
                   f"{args.score} score, {args.normalize}-normalised; 95% stratified bootstrap CIs, "
                   f"{args.reps:,} resamples")
    print("\n".join(table + [""] + per_task))
    return 0


def draw_aggregate(png: Path, title: str, labels: list[str], baseline: str, agg: dict, poi: dict, taus, profiles,
                   profile_cis, subtitle: str) -> None:
    """IQM and optimality gap with their CIs (bars as rliable draws them), the probability of improvement over the
    baseline (rliable.plot_utils) and the performance profiles (rliable.plot_utils)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from rliable import plot_utils

    colours = dict(zip(labels, plt.get_cmap("tab10").colors))
    bars = 0.8 + 0.4 * len(labels)  # inches per bar panel
    fig = plt.figure(figsize=(15, max(3 * bars + 2.2, 6)))
    grid = fig.add_gridspec(3, 2, width_ratios=[1, 1.1])
    axes = [fig.add_subplot(grid[k, 0]) for k in range(3)] + [fig.add_subplot(grid[:, 1])]
    for ax, k in ((axes[0], AGGREGATES.index("IQM")), (axes[1], AGGREGATES.index("optimality gap"))):
        for i, label in enumerate(labels):
            point, low, high = (v[k] for v in agg[label])
            ax.barh(i, high - low, left=low, height=0.6, color=colours[label], alpha=0.75)
            ax.vlines(point, i - 0.3, i + 0.3, color="k")
        ax.set_yticks(range(len(labels)), labels)
        ax.set_title(f"{AGGREGATES[k]} (normalised score)")
        ax.grid(alpha=0.3, axis="x")
    if poi:
        pairs = {f"{label}\t{baseline}": poi[label][0] for label in poi}
        cis = {f"{label}\t{baseline}": np.array(poi[label][1:]) for label in poi}
        plot_utils.plot_probability_of_improvement(pairs, cis, pair_separator="\t", ax=axes[2],
                                                   colors=[colours[label] for label in poi],
                                                   xticks=[0, 0.25, 0.5, 0.75, 1], ticklabelsize="medium",
                                                   labelsize="medium")
        axes[2].set_xlim(-0.02, 1.02)
        axes[2].set_title(f"probability of improvement over {baseline}")
        axes[2].axvline(0.5, color="0.5", ls=":")
    else:
        axes[2].set_axis_off()
    plot_utils.plot_performance_profiles(profiles, taus, profile_cis, ax=axes[3], colors=colours,
                                         xlabel="normalised score (tau)", ylabel="fraction of runs > tau",
                                         labelsize="medium", ticklabelsize="medium", legend=True, legendsize="small")
    axes[3].set_title("performance profiles: fraction of runs x tasks scoring above tau")
    fig.suptitle(f"{title}\n{subtitle}")
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    plt.close(fig)


def measure_random(args) -> int:
    """--measure-random: a uniformly random policy's mean episode return per task (episodes reset with seeds
    0..N-1, actions from the action space seeded with 0), into the CSV --out (the zero of --normalize cleanrl)."""
    import gymnasium as gym
    import mujoco

    if not args.out:
        print("compare: --measure-random writes the CSV named by --out", file=sys.stderr)
        return 2
    rows = []
    for task in args.measure_random:
        env = gym.make(task)
        env.action_space.seed(0)
        returns = []
        for episode in range(args.episodes):
            env.reset(seed=episode)
            total, done = 0.0, False
            while not done:
                _, reward, terminated, truncated, _ = env.step(env.action_space.sample())
                total, done = total + float(reward), terminated or truncated
            returns.append(total)
        env.close()
        rows.append({"task": task, "episodes": args.episodes, "mean": f"{np.mean(returns):.2f}",
                     "std": f"{np.std(returns):.2f}", "gymnasium": gym.__version__, "mujoco": mujoco.__version__})
        print(f"{task}: random policy, {args.episodes} episodes: {np.mean(returns):.2f} ± {np.std(returns):.2f} (std)")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", newline="") as f:
        w = csv.DictWriter(f, list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    return 0


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


def draw(args, results: list[dict], ends: np.ndarray, png: Path, budget: int) -> None:
    """The PNG: training-return curves of every method and reference, and unmasked evaluations of our runs, each
    with the band --band over seeds."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    where = setting_title([(r["about"]["task"], r["about"]["backend"]) for r in results])
    mixed = not where or where.startswith("MIXED")
    evaluated = any(r["evals"] for r in results)  # the agent-alone panel only when some run evaluated
    fig, axes = plt.subplots(1, 2 if evaluated else 1, figsize=(14 if evaluated else 8, 7), squeeze=False)
    ax = axes[0][0]
    for r in results:
        stack = np.stack(list(r["curves"].values()))
        centre, low, high, _ = band_over_seeds(stack, args.band)
        style = "--" if r["kind"] == "reference" else "-"
        pv = r["provenance"]
        (line,) = ax.plot(ends, centre, style, label=f"{r['label']} ({stack.shape[0]} seeds; {pv['short']}) "
                                                      f"[{legend(r, mixed)}]")
        ax.fill_between(ends, low, high, color=line.get_color(), alpha=0.2)
    ax.set_xlabel("env steps")
    ax.set_ylabel(f"training episodic return (episodes ending in the last {args.window:,} steps)")
    ax.set_title(f"{args.title}: {BANDS[args.band]}")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.12))  # below: the labels are long
    if evaluated:
        ax_eval = axes[0][1]
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
        ax_eval.legend(fontsize="small", loc="upper center", bbox_to_anchor=(0.5, -0.12))
    fig.suptitle(f"{args.title}: {seeds_text([len(r['curves']) for r in results])}, {budget:,} env steps compared "
                 f"(legend: seeds; commit; prior)" + (f"\n{where}" if where else ""),
                 color="C3" if where.startswith("MIXED") else "black")
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    raise SystemExit(main())
