"""Learning curves of run directories: `load_run(run_dir) -> RunData`, `plot_runs(runs, out) -> Figure`.

One curve per run, or per grid point of a run (the members that share the swept values): the mean over its seeds
with a 95% confidence band (Student t over seeds; no band where only one seed has a value). Rows whose value is NaN
(no episode ended in that log window, no update yet) are skipped per seed. Panels:
  (a) training episode return (optionally a moving average over `smooth` log rows per seed),
  (b) evaluation return, unmasked (solid) and masked (dashed) in the same colour,
  (c) epsilon (solid) and the fraction of masked episodes (dotted).
Matplotlib's Agg canvas draws the figure (no display needed, no pyplot state).
"""

from __future__ import annotations

import csv
import dataclasses
from pathlib import Path

import numpy as np

from camel_jax import runs

X_AXES = {"step": "env steps per seed", "wall_s": "wall-clock time (s)"}


@dataclasses.dataclass(frozen=True)
class RunData:
    """The CSVs of one run directory as float columns (empty cells are NaN)."""

    name: str  # the run directory's name: the default legend label
    swept: tuple[str, ...]  # the grid's hyperparameter columns (empty without --grid)
    metrics: dict[str, np.ndarray]  # metrics.csv
    evals: dict[str, np.ndarray]  # eval.csv (no rows with --eval-episodes 0)


def read_columns(path: Path) -> tuple[tuple[str, ...], dict[str, np.ndarray]]:
    """(header, {column: float array}) of a CSV written by camel_jax.runs."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        raise ValueError(f"{path} is empty (not even a header); was it written by camel-jax train?")
    header, body = tuple(rows[0]), [r for r in rows[1:] if r]
    cols = {name: np.array([float(r[j]) if j < len(r) and r[j] != "" else np.nan for r in body], dtype=float)
            for j, name in enumerate(header)}
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
    swept = tuple(c for c in header if c not in runs.METRIC_FIELDS)
    return RunData(run_dir.resolve().name, swept, metrics, evals)


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


def moving_average(y: np.ndarray, k: int) -> np.ndarray:
    """Trailing mean over the last k values (fewer at the start); k = 1 returns y."""
    if k <= 1 or len(y) == 0:
        return y
    c = np.cumsum(np.concatenate([[0.0], y]))
    i = np.arange(1, len(y) + 1)
    lo = np.maximum(i - k, 0)
    return (c[i] - c[lo]) / (i - lo)


def curve(table: dict[str, np.ndarray], key: str, where: dict[str, float], x: str = "step",
          smooth: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(x, mean, half-width) over the seeds of the rows matching `where` (swept values), at each step where at
    least one seed has a finite `key`; NaN rows are dropped per seed before the optional moving average."""
    if not table or key not in table or len(table["step"]) == 0:
        return np.empty(0), np.empty(0), np.empty(0)
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
    mean, half, n = mean_ci(values)
    if x == "step":
        xs = steps
    else:  # the members of a run log together: their wall_s at a step agree
        xs = np.array([np.nanmean(table[x][rows & (table["step"] == s)]) for s in steps])
    keep = n > 0
    return xs[keep], mean[keep], half[keep]


def plot_runs(run_data: list[RunData], out: str | Path | None = None, x: str = "step",
              labels: list[str] | None = None, smooth: int = 1):
    """Draw the three panels for `run_data` (overlaid, one colour per run or grid point); save a PNG to `out` if
    given. Returns the matplotlib Figure."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D

    if x not in X_AXES:
        raise ValueError(f"--x {x}: use one of {', '.join(X_AXES)}")
    if smooth < 1:
        raise ValueError(f"--smooth must be at least 1 (1 = no smoothing), got {smooth}")
    if labels is not None and len(labels) != len(run_data):
        raise ValueError(f"--labels names {len(labels)} runs but {len(run_data)} run directories were given; "
                         f"give one label per run directory")
    fig = Figure(figsize=(16, 4.5), layout="constrained")
    FigureCanvasAgg(fig)
    ax_train, ax_eval, ax_mask = fig.subplots(1, 3)
    colours = iter(_palette())
    any_eval = False
    for i, run in enumerate(run_data):
        for suffix, where in groups(run):
            colour = next(colours)
            label = " ".join(p for p in ((labels[i] if labels else run.name), suffix) if p)
            _line(ax_train, curve(run.metrics, "episode_return", where, x, smooth), colour, "-", label)
            for key, style in (("return_unmasked", "-"), ("return_masked", "--")):
                any_eval |= _line(ax_eval, curve(run.evals, key, where, x), colour, style, None)
            _line(ax_mask, curve(run.metrics, "epsilon", where, x), colour, "-", None)
            _line(ax_mask, curve(run.metrics, "masked_frac", where, x), colour, ":", None)
    smoothing = f", moving average over {smooth} log rows" if smooth > 1 else ""
    ax_train.set(title=f"(a) training episode return{smoothing}", ylabel="return")
    ax_eval.set(title="(b) evaluation return (deterministic actor)", ylabel="return")
    ax_mask.set(title="(c) masking", ylabel="probability / fraction", ylim=(-0.05, 1.05))
    for ax in (ax_train, ax_eval, ax_mask):
        ax.set_xlabel(X_AXES[x])
        ax.grid(alpha=0.3)
    ax_train.legend(fontsize="small", title="mean and 95% CI over seeds", title_fontsize="small")
    style = lambda ls, text: Line2D([], [], color="0.3", ls=ls, label=text)
    if any_eval:
        ax_eval.legend(handles=[style("-", "unmasked"), style("--", "masked")], fontsize="small")
    else:
        ax_eval.text(0.5, 0.5, "no evaluations\n(--eval-episodes 0)", ha="center", va="center",
                     transform=ax_eval.transAxes, color="0.4")
    ax_mask.legend(handles=[style("-", "epsilon"), style(":", "masked fraction")], fontsize="small")
    if out is not None:
        Path(out).parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(out, dpi=100)
    return fig


def plot(run_dirs: list[str | Path], out: str | Path | None = None, x: str = "step", labels: list[str] | None = None,
         smooth: int = 1) -> Path:
    """`camel-jax plot`: load the runs and write the PNG (default RUN_DIR/plots/curves.png for a single run)."""
    if not run_dirs:
        raise ValueError("name at least one run directory, e.g. camel-jax plot runs/my_run")
    if not out:
        if len(run_dirs) > 1:
            raise ValueError(f"{len(run_dirs)} run directories: name the picture with --out, e.g. --out compare.png")
        out = Path(run_dirs[0]) / "plots" / "curves.png"
    plot_runs([load_run(d) for d in run_dirs], out, x, labels, smooth)
    return Path(out)


def _line(ax, xy_half, colour, style: str, label: str | None) -> bool:
    xs, mean, half = xy_half
    if len(xs) == 0:
        return False
    ax.plot(xs, mean, color=colour, ls=style, label=label)
    if np.isfinite(half).any():
        ax.fill_between(xs, mean - half, mean + half, color=colour, alpha=0.15, lw=0)
    return True


def _palette():
    from matplotlib import colormaps

    while True:
        yield from colormaps["tab10"].colors
