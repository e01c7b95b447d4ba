"""Learning curves of run directories: `load_run(run_dir) -> RunData`, `plot_runs(runs, out) -> Figure`.

One curve per run, or per grid point of a run (the members that share the swept values), summarizing its seeds at
each step with one of three bands (`band`; no band where only one seed has a value):
  iqm     the interquartile mean (`iqm`) and its 95% percentile-bootstrap CI over seeds (the default; rliable's
          choice for few runs). With 3 seeds the interval is the seeds' min-max range (see `iqm_ci`).
  t       the mean and its 95% Student-t CI (wide with 3 seeds: t = 4.30; it can leave the range of the seeds)
  minmax  the mean and the seeds' min-max range
Bands of bounded quantities (FEASIBLE: epsilon and the masked fraction lie in [0, 1]) are clipped to their range.
Returns have no such range, so their bands are not clipped; the iqm and minmax bands lie within the seeds' values
by construction. Rows whose value is NaN (no episode ended in that log window, no update yet) are skipped per seed.
Panels:
  (a) training episode return (optionally a moving average over `smooth` log rows per seed),
  (b) evaluation return, unmasked (solid) and, for runs with masking, masked (dashed) in the same colour,
  (c) epsilon (solid) and the fraction of masked episodes (dotted), for runs with masking (TD3 with a prior), and
      ULTRA's overridden fraction for refined PPO runs; without such runs the figure has panels (a) and (b) only.
Plain TD3 and PPO runs (config.json) have no masked evaluation, epsilon or masked fraction: none is drawn for them.
An ULTRA-refined run (config.json's init_from) is drawn after its base run's total_steps, where it starts from.
`plot` refuses runs of different tasks unless told (`mixed_tasks`).
Each legend entry names the run's prior (its kind and search cost, camel_jax.priors.kinds), task and backend; the
figure's title says where the runs ran, and says MIXED BACKENDS when they ran on different simulators.
Matplotlib's Agg canvas draws the figure (no display needed, no pyplot state).
"""

from __future__ import annotations

import csv
import dataclasses
from pathlib import Path

import numpy as np

from camel_jax import algos
from camel_jax.core import provenance

X_AXES = {"step": "env steps per seed", "wall_s": "wall-clock time (s)"}
BANDS = {"iqm": "IQM and 95% bootstrap CI over seeds", "t": "mean and 95% CI over seeds (Student t)",
         "minmax": "mean and min-max over seeds"}
# a band of these columns is clipped to the range
FEASIBLE = {"epsilon": (0.0, 1.0), "masked_frac": (0.0, 1.0), "override_frac": (0.0, 1.0)}
BOOTSTRAP_RESAMPLES = 10_000


@dataclasses.dataclass(frozen=True)
class RunData:
    """The CSVs of one run directory as float columns (empty cells are NaN)."""

    name: str  # the run directory's name: the default legend label
    swept: tuple[str, ...]  # the grid's hyperparameter columns (empty without --grid)
    metrics: dict[str, np.ndarray]  # metrics.csv
    evals: dict[str, np.ndarray]  # eval.csv (no rows with --eval-episodes 0)
    prior: str = ""  # what the prior was and cost (camel_jax.priors.kinds), e.g. "tuned prior, 0.35M search steps"
    task: str = ""  # the task as results name it, e.g. "hopper", "ant (MJX contacts)"
    backend: str = ""  # "gymnasium", "mjx" or "mjx (warp)" ("" when the directory has no config.json)
    env: str = ""  # the task (config.json's env; "" without config.json)
    masking: bool = True  # whether masking applies (False: plain TD3, PPO); True without config.json
    offset: int = 0  # env steps before this run's step 0: an ULTRA-refined run continues its base run's steps
    base: str = ""  # the base run of a refined run ('' for others)
    overrides: bool = True  # whether a guide overrides actions (a refined PPO run); True without config.json

    def describe(self, label: str) -> str:
        """The legend entry: `label`, then in brackets the prior (unless `label` already says it), task and backend,
        so that no legend can present a run's prior as another kind of prior or hide where it ran."""
        if not self.backend:
            return label
        parts = [p for p in (self.prior,) if p and p.lower() not in label.lower()] + [f"{self.task}, {self.backend}"]
        return f"{label} [{'; '.join(parts)}]"


def read_columns(path: Path) -> tuple[tuple[str, ...], dict[str, np.ndarray]]:
    """(header, {column: float array, or str array for a text column}) of a CSV written by camel_jax.core.runs."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        raise ValueError(f"{path} is empty (not even a header); was it written by camel-jax train?")
    header, body = tuple(rows[0]), [r for r in rows[1:] if r]
    cols = {}
    for j, name in enumerate(header):
        cells = [r[j] if j < len(r) else "" for r in body]
        try:
            cols[name] = np.array([float(v) if v != "" else np.nan for v in cells], dtype=float)
        except ValueError:  # a text column (eval.csv's backend)
            cols[name] = np.array(cells)
    return header, cols


def load_run(run_dir: str | Path) -> RunData:
    """Read RUN_DIR/metrics.csv and RUN_DIR/eval.csv; FileNotFoundError naming the fix if it is not a run dir."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        what = "is not a directory" if run_dir.exists() else "does not exist"
        raise FileNotFoundError(f"{run_dir} {what}; point plot at a run directory made by camel-jax train")
    if not (run_dir / "metrics.csv").is_file():
        raise FileNotFoundError(f"{run_dir} has no metrics.csv; point plot at a run directory made by camel-jax train")
    header, metrics = read_columns(run_dir / "metrics.csv")
    evals = read_columns(run_dir / "eval.csv")[1] if (run_dir / "eval.csv").is_file() else {}
    # every algorithm's metric columns are not swept values (a run's own, and columns a test or an older version wrote)
    metric_fields = {c for name in algos.names() for c in algos.get(name).METRIC_FIELDS}
    swept = tuple(c for c in header if c not in metric_fields)
    env, masking, offset, base, overrides = _run_kind(run_dir)
    if offset:  # a refined run's steps continue its base run's (the x axis of both is env steps from scratch)
        for table in (metrics, evals):
            if "step" in table:
                table["step"] = table["step"] + offset
    return RunData(run_dir.resolve().name, swept, metrics, evals, *describe_run(run_dir), env=env, masking=masking,
                   offset=offset, base=base, overrides=overrides and "override_frac" in metrics)


def _run_kind(run_dir: Path) -> tuple[str, bool, int, str, bool]:
    """(task, whether masking applies, step offset, base run, whether a guide overrides actions) from config.json:
    masking applies to TD3 with a prior (not to plain TD3, nor to PPO, whose evaluation has no masked half); a guide
    to PPO refined by ULTRA (its prior_kind "guide", or its ultra.json); a run refined from another
    (PPOConfig.init_from, ULTRA's refinement) starts after its base run's total_steps. Without config.json:
    ("", True, 0, "", True): whatever the CSVs hold is drawn."""
    import json

    path = run_dir / "config.json"
    if not path.is_file():
        return "", True, 0, "", True
    config = json.loads(path.read_text())
    maskable = "masked" in algos.of_run(run_dir).EVAL_MODES  # TD3 / CAMEL; PPO's evaluation has no masked half
    guided = not maskable and (config.get("prior_kind") == "guide" or (run_dir / "ultra.json").is_file())
    masking = maskable and config.get("prior", "none") != "none"
    base, offset = str(config.get("init_from") or ""), 0
    if base:
        base_config = Path(base) / "config.json"
        if not base_config.is_file():
            raise FileNotFoundError(f"{run_dir} was refined from {base}, which has no config.json: its steps cannot "
                                    "be placed after the base run's; restore the base run (plot needs only its "
                                    "config.json)")
        offset = int(json.loads(base_config.read_text()).get("total_steps", 0))
    return str(config.get("env", "")), masking, offset, base, guided


def describe_run(run_dir: str | Path) -> tuple[str, str, str]:
    """(prior label, task label, backend) of a run directory from its config.json (and, for runs made before
    config.json recorded them, its prior.txt or prior path: camel_jax.priors.kinds.of_run); ("", "", "") without
    config.json."""
    import json

    from camel_jax import specs
    from camel_jax.priors import kinds

    path = Path(run_dir) / "config.json"
    if not path.is_file():
        return "", "", ""
    config = json.loads(path.read_text())
    backend = str(config.get("backend", ""))
    task = config.get("task_label") or specs.task_label(config.get("env", "hopper"), backend)
    impl = " (warp)" if backend == "mjx" and config.get("mjx_impl") == "warp" else ""
    return kinds.of_run(run_dir).label, task, backend + impl


def setting_title(described: list[tuple[str, str]]) -> str:
    """What a figure or table says about where its runs ran, from their (task, backend) pairs: "hopper on
    gymnasium", or for a comparison across backends or task variants "MIXED BACKENDS: ..." naming each."""
    pairs = list(dict.fromkeys((task, backend) for task, backend in described if task and backend))
    if not pairs:
        return ""
    text = ", ".join(f"{task} on {backend}" for task, backend in pairs)
    if len({b.split(" ")[0] for _, b in pairs}) > 1:
        return f"MIXED BACKENDS: {text} (different simulators, so not the same task)"
    if len({task for task, _ in pairs}) > 1:
        return f"MIXED TASKS: {text}"
    return text


def groups(run: RunData) -> list[tuple[str, dict[str, float]]]:
    """(label suffix, swept values) of each grid point in order of appearance: [("", {})] without a grid."""
    if not run.swept:
        return [("", {})]
    points = dict.fromkeys(zip(*(run.metrics[k] for k in run.swept)))
    return [(" ".join(f"{k}={v:g}" for k, v in zip(run.swept, p)), dict(zip(run.swept, p))) for p in points]


def t_quantile(n: int) -> float:
    """The 97.5% quantile of Student's t with n - 1 degrees of freedom (n samples; 4.303 for n = 3)."""
    from scipy.stats import t

    return float(t.ppf(0.975, n - 1))


def mean_ci(values: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per column of `values` (seeds, points), ignoring NaN: (mean, 95% CI half-width, count); the half-width is
    NaN where fewer than two seeds have a value."""
    finite = np.isfinite(values)
    n = finite.sum(axis=0)
    safe = np.where(finite, values, 0.0)
    mean = np.where(n > 0, safe.sum(axis=0) / np.maximum(n, 1), np.nan)
    var = np.where(finite, (values - mean) ** 2, 0.0).sum(axis=0) / np.maximum(n - 1, 1)
    t = np.array([t_quantile(int(k)) if k >= 2 else np.nan for k in n])
    return mean, t * np.sqrt(var / np.maximum(n, 1)), n


def iqm(x, axis: int = -1) -> np.ndarray:
    """Interquartile mean along `axis`: the mean of the middle half of the sample's empirical distribution, i.e.
    2 x the integral of its quantile function over [0.25, 0.75]. The i-th smallest of n values owns the probability
    interval [(i-1)/n, i/n] and weighs twice the length of that interval inside [0.25, 0.75], so values straddling a
    quartile count in part. n divisible by 4: the mean of the middle n/2 values (= scipy.stats.trim_mean(x, 0.25),
    which is what rliable computes); n = 3: (lowest + 4 x middle + highest) / 6 (scipy's trim_mean would cut
    int(0.75) = 0 values and give the plain mean); n = 2: the mean; n = 1: the value."""
    x = np.sort(np.moveaxis(np.asarray(x, float), axis, -1), axis=-1)
    edges = np.arange(x.shape[-1] + 1) / x.shape[-1]
    return x @ (2 * np.clip(np.minimum(edges[1:], 0.75) - np.maximum(edges[:-1], 0.25), 0.0, None))


def iqm_ci(values: np.ndarray, resamples: int = BOOTSTRAP_RESAMPLES) -> tuple[np.ndarray, ...]:
    """Per column of `values` (seeds, points), ignoring NaN: (IQM, CI low, CI high, count), the CI the 95%
    percentile bootstrap over seeds (scipy.stats.bootstrap, `resamples` resamples from a fixed seed, so a plot or
    table is the same every time); NaN bounds where fewer than two seeds have a value. This is rliable's stratified
    bootstrap with one task: the seeds are the only stratum, resampled with replacement. Every resample's IQM lies
    between the lowest and highest seed, and so does the interval. With 3 seeds it is exactly [lowest, highest]: a
    resample of three copies of the lowest seed has probability 1/27 > 2.5%. That range is a 75% (not 95%)
    distribution-free interval for the median seed: 1 - 2 x (1/2)^3."""
    from scipy.stats import bootstrap

    finite = np.isfinite(values)
    n = finite.sum(axis=0)
    centre, low, high = (np.full(values.shape[1], np.nan) for _ in range(3))
    for seeds in np.unique(finite.T, axis=0):  # the columns where the same seeds have values: one vectorized call
        cols = (finite.T == seeds).all(axis=1)
        sample = values[seeds][:, cols]
        if len(sample):
            centre[cols] = iqm(sample, axis=0)
        if len(sample) >= 2:
            ci = bootstrap((sample,), iqm, n_resamples=resamples, batch=1_000, vectorized=True, axis=0,
                           method="percentile", rng=np.random.default_rng(0)).confidence_interval
            low[cols], high[cols] = ci.low, ci.high
    return centre, low, high, n


def band_over_seeds(values: np.ndarray, kind: str = "iqm",
                    bounds: tuple[float, float] | None = None) -> tuple[np.ndarray, ...]:
    """Per column of `values` (seeds, points), ignoring NaN: (centre, low, high, count) of the band `kind` (BANDS),
    low and high clipped to `bounds` if given, NaN where fewer than two seeds have a value."""
    if kind == "iqm":
        centre, low, high, n = iqm_ci(values)
    elif kind in ("t", "minmax"):
        centre, half, n = mean_ci(values)
        if kind == "t":
            low, high = centre - half, centre + half
        else:
            two = n >= 2
            low = np.where(two, np.min(np.where(np.isfinite(values), values, np.inf), axis=0), np.nan)
            high = np.where(two, np.max(np.where(np.isfinite(values), values, -np.inf), axis=0), np.nan)
    else:
        raise ValueError(f"--band {kind}: use one of {', '.join(BANDS)}")
    if bounds is not None:
        low, high = np.clip(low, *bounds), np.clip(high, *bounds)
    return centre, low, high, n


def moving_average(y: np.ndarray, k: int) -> np.ndarray:
    """Trailing mean over the last k values (fewer at the start); k = 1 returns y."""
    if k <= 1 or len(y) == 0:
        return y
    c = np.cumsum(np.concatenate([[0.0], y]))
    i = np.arange(1, len(y) + 1)
    lo = np.maximum(i - k, 0)
    return (c[i] - c[lo]) / (i - lo)


def curve(table: dict[str, np.ndarray], key: str, where: dict[str, float], x: str = "step",
          smooth: int = 1, kind: str = "iqm") -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(x, centre, low, high) of band `kind` over the seeds of the rows matching `where` (swept values), at each
    step where at least one seed has a finite `key`, clipped to FEASIBLE[key] if any; NaN rows are dropped per seed
    before the optional moving average."""
    if not table or key not in table or len(table["step"]) == 0:
        return np.empty(0), np.empty(0), np.empty(0), np.empty(0)
    rows = np.ones(len(table["step"]), bool)
    for k, v in where.items():
        rows &= table[k] == v
    steps = np.unique(table["step"][rows])
    seeds = np.unique(table["seed"][rows])
    values = np.full((len(seeds), len(steps)), np.nan)
    for s, seed in enumerate(seeds):
        mine = rows & (table["seed"] == seed) & np.isfinite(table[key])
        order = np.argsort(table["step"][mine])
        values[s, np.searchsorted(steps, table["step"][mine][order])] = moving_average(table[key][mine][order], smooth)
    centre, low, high, n = band_over_seeds(values, kind, FEASIBLE.get(key))
    if x == "step":
        xs = steps
    else:  # the members of a run log together: their wall_s at a step agree
        xs = np.array([np.nanmean(table[x][rows & (table["step"] == s)]) for s in steps])
    keep = n > 0
    return xs[keep], centre[keep], low[keep], high[keep]


def plot_runs(run_data: list[RunData], out: str | Path | None = None, x: str = "step",
              labels: list[str] | None = None, smooth: int = 1, band: str = "iqm"):
    """Draw the three panels for `run_data` (overlaid, one colour per run or grid point) with band `band` (BANDS);
    save a PNG to `out` if given. Returns the matplotlib Figure."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    if x not in X_AXES:
        raise ValueError(f"--x {x}: use one of {', '.join(X_AXES)}")
    if band not in BANDS:
        raise ValueError(f"--band {band}: use one of {', '.join(BANDS)}")
    if smooth < 1:
        raise ValueError(f"--smooth must be at least 1 (1 = no smoothing), got {smooth}")
    if labels is not None and len(labels) != len(run_data):
        raise ValueError(f"--labels names {len(labels)} runs but {len(run_data)} run directories were given; "
                         f"give one label per run directory")
    any_masking = any(run.masking for run in run_data)  # panel (c) and masked evaluations only where they apply
    any_ppo = any(run.overrides for run in run_data)  # ULTRA's overridden fraction (a guided PPO run)
    fig = Figure(figsize=(16, 4.5) if any_masking or any_ppo else (11, 4.5), layout="constrained")
    FigureCanvasAgg(fig)
    ax_train, ax_eval, *rest = fig.subplots(1, 3 if any_masking or any_ppo else 2)
    ax_mask = rest[0] if rest else None
    colours = iter(_palette())
    any_eval = any_masked = False
    for i, run in enumerate(run_data):
        for suffix, where in groups(run):
            colour = next(colours)
            label = run.describe(" ".join(p for p in ((labels[i] if labels else run.name), suffix) if p))
            if run.offset:
                label += f" (refined from {Path(run.base).name}: from step {run.offset:,})"
            _line(ax_train, curve(run.metrics, "episode_return", where, x, smooth, band), colour, "-", label)
            any_eval |= _line(ax_eval, curve(run.evals, "return_unmasked", where, x, kind=band), colour, "-", None)
            if run.masking:
                any_masked |= _line(ax_eval, curve(run.evals, "return_masked", where, x, kind=band), colour, "--",
                                    None)
                _line(ax_mask, curve(run.metrics, "epsilon", where, x, kind=band), colour, "-", None)
                _line(ax_mask, curve(run.metrics, "masked_frac", where, x, kind=band), colour, ":", None)
            if run.overrides:
                _line(ax_mask, curve(run.metrics, "override_frac", where, x, kind=band), colour, "-.", None)
    smoothing = f", moving average over {smooth} log rows" if smooth > 1 else ""
    ax_train.set(title=f"(a) training episode return{smoothing}", ylabel="return")
    ax_eval.set(title="(b) evaluation return (deterministic actor" + (")" if any_masked else ", no box)"),
                ylabel="return")
    if ax_mask is not None:
        what = [w for w, on in (("masking", any_masking), ("ULTRA's overrides (PPO)", any_ppo)) if on]
        ax_mask.set(title="(c) " + " / ".join(what), ylabel="probability / fraction", ylim=(-0.05, 1.05))
    for ax in (ax_train, ax_eval, *rest):
        ax.set_xlabel(X_AXES[x])
        ax.grid(alpha=0.3)
    ax_train.legend(fontsize="small", title=BANDS[band], title_fontsize="small")
    if where := setting_title([(run.task, run.backend) for run in run_data]):
        fig.suptitle(where, color="C3" if where.startswith("MIXED") else "black")
    else:
        fig.suptitle("task and backend not recorded (run directories without config.json)", color="0.4")
    style = lambda ls, text: Line2D([], [], color="0.3", ls=ls, label=text)
    if any_masked:
        ax_eval.legend(handles=[style("-", "unmasked"), style("--", "masked")], fontsize="small")
    elif not any_eval:
        ax_eval.text(0.5, 0.5, "no evaluations\n(--eval-episodes 0)", ha="center", va="center",
                     transform=ax_eval.transAxes, color="0.4")
    if ax_mask is not None:
        ax_mask.legend(handles=([style("-", "epsilon"), style(":", "masked fraction")] if any_masking else [])
                       + ([style("-.", "overridden fraction")] if any_ppo else []), fontsize="small")
    if out is not None:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(out, dpi=100)
    return fig


def plot(run_dirs: list[str | Path], out: str | Path | None = None, x: str = "step", labels: list[str] | None = None,
         smooth: int = 1, band: str = "iqm", mixed_tasks: bool = False) -> Path:
    """`camel-jax plot`: load the runs and write the PNG (default RUN_DIR/plots/curves.png for a single run). Runs
    of different tasks are refused unless `mixed_tasks` (their returns are not on one scale)."""
    if not run_dirs:
        raise ValueError("name at least one run directory, e.g. camel-jax plot runs/my_run")
    if not out:
        if len(run_dirs) > 1:
            raise ValueError(f"{len(run_dirs)} run directories: name the picture with --out, e.g. --out compare.png")
        out = Path(run_dirs[0]) / "plots" / "curves.png"
    if band not in BANDS:  # before reading anything
        raise ValueError(f"--band {band}: use one of {', '.join(BANDS)}")
    loaded = [load_run(d) for d in run_dirs]
    tasks = {}
    for d, run in zip(run_dirs, loaded):
        tasks.setdefault(run.env or "not recorded", []).append(Path(d).name)
    if len(tasks) > 1 and not mixed_tasks:
        each = "; ".join(f"{task}: {', '.join(names)}" for task, names in tasks.items())
        raise ValueError(f"the runs are of different tasks ({each}), whose returns are not comparable; plot each "
                         "task apart, or pass --mixed-tasks to overlay them anyway")
    provenance.warn_mixed(run_dirs, "camel-jax plot")
    plot_runs(loaded, out, x, labels, smooth, band)
    return Path(out)


def _line(ax, xy_band, colour, style: str, label: str | None) -> bool:
    xs, centre, low, high = xy_band
    if len(xs) == 0:
        return False
    ax.plot(xs, centre, color=colour, ls=style, label=label)
    if np.isfinite(low).any():
        ax.fill_between(xs, low, high, color=colour, alpha=0.15, lw=0)
    return True


def _palette():
    from matplotlib import colormaps

    while True:
        yield from colormaps["tab10"].colors
