"""`camel-jax plot` and camel_jax/plots.py on hand-written run directories: the bands over seeds (IQM with its
bootstrap CI, mean with the Student-t CI, min-max) checked against hand computations and independent formulas, bands
of fractions kept in [0, 1], NaN rows skipped per seed, overlays, grid points as separate curves, one-line errors."""

import csv
import itertools
import json
import math
import struct

import numpy as np
import pytest
from scipy import stats as scipy_stats

from camel_jax import plots
from camel_jax.algos.td3.loop import METRIC_FIELDS
from camel_jax.cli import main
from camel_jax.core import runs

T3 = 4.303  # Student t, 97.5% quantile, 2 degrees of freedom (3 seeds), from a printed table
T2 = 12.706  # 1 degree of freedom (2 seeds)
STEPS = (100, 200, 300, 400)


def write_run(path, returns, grid=None, evals=True, wall=None, masked=None):
    """A run directory with metrics.csv / eval.csv as camel_jax.core.runs writes them. `returns[member][k]` is the
    episode return of that member at STEPS[k]; members are {"seed": s, **grid values}; `masked[i]` is member i's
    masked fraction (default 0.5)."""
    path.mkdir(parents=True)
    members = list(returns)
    swept = [k for k in (grid or ())]
    header_m = ("step", "seed", *swept, *[f for f in METRIC_FIELDS if f not in ("step", "seed")])
    header_e = ("step", "seed", *swept, *[f for f in runs.EVAL_FIELDS if f not in ("step", "seed")])
    with open(path / "metrics.csv", "w", newline="") as f:
        w = csv.DictWriter(f, header_m)
        w.writeheader()
        for k, step in enumerate(STEPS):
            for i, member in enumerate(members):
                ret = returns[member][k]
                w.writerow({"step": step, **dict(member), "episodes": 0 if math.isnan(ret) else 3,
                            "episode_return": "nan" if math.isnan(ret) else ret, "episode_length": 50,
                            "epsilon": 1 - step / 400,
                            "masked_frac": 0.5 if masked is None else masked[i], "critic_loss": "nan", "actor_loss": "nan",
                            "q1": "nan", "nonfinite": 0, "steps_per_s": 100.0,
                            "wall_s": (wall or {}).get(step, step / 10)})
    with open(path / "eval.csv", "w", newline="") as f:
        w = csv.DictWriter(f, header_e)
        w.writeheader()
        if evals:
            for step in (200, 400):
                for i, member in enumerate(members):
                    w.writerow({"step": step, **dict(member), "return_unmasked": 10.0 * i + step,
                                "std_unmasked": 1.0, "return_masked": 5.0 * i + step, "std_masked": 1.0,
                                "wall_s": step / 10})
    return path


def seeds3(path, **kw):
    nan = float("nan")
    return write_run(path, {(("seed", 0),): [1.0, 10.0, 5, 7], (("seed", 1),): [2.0, 20.0, nan, 8],
                            (("seed", 2),): [6.0, nan, nan, 9]}, **kw)


def png_size(path):
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_t_quantile_matches_the_table():
    assert plots.t_quantile(3) == pytest.approx(T3, abs=1e-3)
    assert plots.t_quantile(2) == pytest.approx(T2, abs=1e-3)


def test_mean_and_ci_over_seeds_by_hand_with_nan_rows_skipped_per_seed(tmp_path):
    run = plots.load_run(seeds3(tmp_path / "run"))
    xs, mean, low, high = plots.curve(run.metrics, "episode_return", {}, kind="t")
    half = high - mean
    np.testing.assert_allclose(mean - low, half)
    np.testing.assert_array_equal(xs, STEPS)
    # step 100: three seeds 1, 2, 6 -> mean 3, sample sd sqrt(7), half-width t(2) * sqrt(7 / 3)
    assert mean[0] == pytest.approx(3.0) and half[0] == pytest.approx(T3 * math.sqrt(7 / 3), rel=1e-3)
    # step 200: seed 2 has no episode (NaN) -> seeds 0, 1 only: 10, 20 -> sd sqrt(50), half t(1) * sqrt(50 / 2)
    assert mean[1] == pytest.approx(15.0) and half[1] == pytest.approx(T2 * 5.0, rel=1e-3)
    # step 300: one seed -> its value, no band
    assert mean[2] == pytest.approx(5.0) and np.isnan(half[2])
    assert mean[3] == pytest.approx(8.0) and half[3] == pytest.approx(T3 * 1 / math.sqrt(3), rel=1e-3)


def test_single_run_plot_draws_the_mean_and_the_band_and_writes_a_png(tmp_path, capsys):
    run_dir = seeds3(tmp_path / "run")
    assert main(["plot", str(run_dir)]) == 0
    out = run_dir / "plots" / "curves.png"
    assert str(out) in capsys.readouterr().out
    assert png_size(out) == (1600, 450) and out.stat().st_size > 30_000

    fig = plots.plot_runs([plots.load_run(run_dir)], band="t")
    ax_train, ax_eval, ax_mask = fig.axes[:3]
    (line,) = ax_train.lines
    np.testing.assert_allclose(line.get_ydata(), [3.0, 15.0, 5.0, 8.0])
    (band,) = ax_train.collections
    ys = np.concatenate([p.vertices[:, 1] for p in band.get_paths()])
    assert ys.min() == pytest.approx(15.0 - T2 * 5.0, rel=1e-3) and ys.max() == pytest.approx(15 + T2 * 5, rel=1e-3)
    styles = [ln.get_linestyle() for ln in ax_eval.lines]
    assert styles == ["-", "--"] and ax_eval.lines[0].get_color() == ax_eval.lines[1].get_color()
    np.testing.assert_allclose(ax_eval.lines[0].get_ydata(), [210.0, 410.0])  # mean of 200, 210, 220 at step 200
    assert [ln.get_linestyle() for ln in ax_mask.lines] == ["-", ":"]


def test_one_seed_has_no_band_and_smoothing_and_wall_clock_axis(tmp_path):
    run_dir = write_run(tmp_path / "one", {(("seed", 4),): [1.0, 3.0, 5.0, 7.0]}, wall={100: 5, 200: 9, 300: 20,
                                                                                      400: 30})
    fig = plots.plot_runs([plots.load_run(run_dir)], x="wall_s", smooth=2)
    ax_train = fig.axes[0]
    assert not ax_train.collections
    np.testing.assert_allclose(ax_train.lines[0].get_xdata(), [5, 9, 20, 30])
    np.testing.assert_allclose(ax_train.lines[0].get_ydata(), [1.0, 2.0, 4.0, 6.0])  # trailing mean over 2 rows


def test_two_runs_overlaid_with_their_own_colours_and_labels(tmp_path, capsys):
    a = seeds3(tmp_path / "a")
    b = write_run(tmp_path / "b", {(("seed", 0),): [100.0] * 4, (("seed", 1),): [200.0] * 4}, evals=False)
    out = tmp_path / "cmp" / "both.png"
    assert main(["plot", str(a), str(b), "--out", str(out), "--labels", "prior,plain"]) == 0
    assert png_size(out) == (1600, 450)

    fig = plots.plot_runs([plots.load_run(a), plots.load_run(b)], labels=["prior", "plain"])
    ax_train, ax_eval = fig.axes[:2]
    assert [t.get_text() for t in ax_train.get_legend().get_texts()] == ["prior", "plain"]
    assert ax_train.lines[0].get_color() != ax_train.lines[1].get_color()
    np.testing.assert_allclose(ax_train.lines[1].get_ydata(), [150.0] * 4)
    assert len(ax_eval.lines) == 2  # run b has no evaluations
    default = plots.plot_runs([plots.load_run(a), plots.load_run(b)])
    assert [t.get_text() for t in default.axes[0].get_legend().get_texts()] == ["a", "b"]


def test_grid_points_are_separate_curves_over_their_seeds(tmp_path):
    returns = {(("seed", s), ("delta", d)): [base + s] * 4 for d, base in ((0.1, 10.0), (0.3, 50.0)) for s in (0, 1)}
    run_dir = write_run(tmp_path / "sweep", returns, grid=("delta",))
    run = plots.load_run(run_dir)
    assert run.swept == ("delta",)
    assert plots.groups(run) == [("delta=0.1", {"delta": 0.1}), ("delta=0.3", {"delta": 0.3})]
    fig = plots.plot_runs([run], band="t")
    ax_train = fig.axes[0]
    assert [t.get_text() for t in ax_train.get_legend().get_texts()] == ["sweep delta=0.1", "sweep delta=0.3"]
    np.testing.assert_allclose(ax_train.lines[0].get_ydata(), [10.5] * 4)
    np.testing.assert_allclose(ax_train.lines[1].get_ydata(), [50.5] * 4)
    (band,) = ax_train.collections[:1]
    ys = np.concatenate([p.vertices[:, 1] for p in band.get_paths()])
    assert ys.max() == pytest.approx(10.5 + T2 * math.sqrt(0.5) / math.sqrt(2), rel=1e-3)


@pytest.mark.parametrize("args,needle", [
    (["{a}", "{b}"], "--out"),
    (["{missing}"], "does not exist"),
    (["{empty}"], "no metrics.csv"),
    (["{a}", "--labels", "x,y", "--out", "{png}"], "--labels names 2 runs but 1"),
    (["{a}", "--smooth", "0"], "--smooth"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, capsys, args, needle):
    paths = {"a": seeds3(tmp_path / "a"), "b": seeds3(tmp_path / "b"), "missing": tmp_path / "nope",
             "empty": tmp_path / "empty", "png": tmp_path / "x.png"}
    paths["empty"].mkdir()
    assert main(["plot", *[a.format(**paths) for a in args]]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and needle in err[0] and err[0].startswith("camel-jax plot: "), err
    assert not list(tmp_path.rglob("*.png"))


def quantile_integral_iqm(x):
    """An independent IQM: 2 x the integral over [0.25, 0.75] of the sample's step quantile function (numpy's
    inverted_cdf), by the midpoint rule on a fine grid."""
    p = (np.arange(200_000) + 0.5) / 200_000 * 0.5 + 0.25
    return float(np.quantile(x, p, method="inverted_cdf").mean())


def test_iqm_by_hand_and_against_the_quantile_integral():
    assert plots.iqm([10.0, 1.0, 2.0]) == pytest.approx((1 + 4 * 2 + 10) / 6)  # 3 seeds: 1/6, 2/3, 1/6
    assert plots.iqm([1.0, 2.0, 3.0, 4.0, 100.0]) == pytest.approx(0.3 * 2 + 0.4 * 3 + 0.3 * 4)  # 1.25 cut per side
    assert plots.iqm([7.0]) == 7.0 and plots.iqm([1.0, 3.0]) == pytest.approx(2.0)
    rng = np.random.default_rng(0)
    for n in (4, 8, 12):  # whole quarters: scipy's trim_mean (rliable's IQM)
        x = rng.standard_cauchy(n)
        assert plots.iqm(x) == pytest.approx(scipy_stats.trim_mean(x, 0.25))
    for n in range(1, 12):
        x = rng.normal(size=n) * 100
        assert plots.iqm(x) == pytest.approx(quantile_integral_iqm(x), abs=1e-2)
    table = rng.normal(size=(3, 5))  # along an axis: one IQM per column
    np.testing.assert_allclose(plots.iqm(table, axis=0), [plots.iqm(c) for c in table.T])


def test_bootstrap_ci_of_the_iqm():
    rng = np.random.default_rng(1)
    # 3 seeds: the 95% percentile interval is exactly [lowest, highest] (three copies of one seed: 1/27 > 2.5%)
    three = rng.normal(size=(3, 40)) * 1000
    centre, low, high, n = plots.iqm_ci(three)
    np.testing.assert_allclose(low, three.min(axis=0), atol=1e-9)
    np.testing.assert_allclose(high, three.max(axis=0), atol=1e-9)
    np.testing.assert_allclose(centre, plots.iqm(three, axis=0))
    np.testing.assert_array_equal(n, 3)
    # 5 seeds: against the exact bootstrap distribution, all 5^5 equally likely resamples
    five = rng.normal(size=5)
    exact = np.array([plots.iqm(five[list(i)]) for i in itertools.product(range(5), repeat=5)])
    _, low, high, _ = plots.iqm_ci(five.reshape(5, 1))
    lo_range = np.quantile(exact, [0.015, 0.035], method="inverted_cdf")
    hi_range = np.quantile(exact, [0.965, 0.985], method="inverted_cdf")
    tol = 1e-9  # the interval is an atom of the distribution, computed in another order
    assert lo_range[0] - tol <= low[0] <= lo_range[1] + tol and hi_range[0] - tol <= high[0] <= hi_range[1] + tol
    assert five.min() < low[0] and high[0] < five.max()  # narrower than the range with 5 seeds
    # NaN seeds are left out per column; one seed left: its value and no interval; none: NaN
    nan = float("nan")
    centre, low, high, n = plots.iqm_ci(np.array([[1.0, 4.0, nan], [2.0, nan, nan], [9.0, nan, nan]]))
    np.testing.assert_array_equal(n, [3, 1, 0])
    assert centre[0] == pytest.approx((1 + 8 + 9) / 6) and (low[0], high[0]) == pytest.approx((1.0, 9.0))
    assert centre[1] == 4.0 and np.isnan([low[1], high[1], centre[2], low[2]]).all()
    # the same numbers every time (a fixed bootstrap seed)
    np.testing.assert_array_equal(plots.iqm_ci(five.reshape(5, 1))[1], plots.iqm_ci(five.reshape(5, 1))[1])


def test_return_bands_iqm_and_minmax_stay_within_the_seeds_the_t_band_does_not():
    """Returns have no feasible range to clip to; the iqm and minmax bands lie within the seeds' values by
    construction, while the Student-t band of 3 skewed seeds reaches far below the lowest."""
    values = np.array([[100.0, 50.0], [120.0, 60.0], [3000.0, 2000.0]])  # (seeds, points): one seed far above
    for kind in ("iqm", "minmax"):
        centre, low, high, _ = plots.band_over_seeds(values, kind)
        assert (low >= values.min(axis=0) - 1e-9).all() and (high <= values.max(axis=0) + 1e-9).all(), kind
        assert (low <= centre).all() and (centre <= high).all()
    centre, low, high, _ = plots.band_over_seeds(values, "minmax")
    np.testing.assert_allclose(centre, values.mean(axis=0))
    np.testing.assert_allclose([low, high], [values.min(axis=0), values.max(axis=0)])
    _, low, _, _ = plots.band_over_seeds(values, "t")
    assert (low < -1000).all()  # below every seed: the band the issue complains of
    with pytest.raises(ValueError, match="--band sd: use one of iqm, t, minmax"):
        plots.band_over_seeds(values, "sd")


def test_masked_fraction_band_stays_in_zero_one(tmp_path):
    run_dir = write_run(tmp_path / "run", {(("seed", s),): [1.0] * 4 for s in range(3)}, masked=[0.7, 1.0, 1.0])
    t_half = plots.mean_ci(np.array([[0.7], [1.0], [1.0]]))[1][0]
    assert 0.9 + t_half > 1.3  # unclipped, the t band would reach past 1
    for kind in plots.BANDS:
        _, _, low, high = plots.curve(plots.load_run(run_dir).metrics, "masked_frac", {}, kind=kind)
        assert (low >= 0).all() and (high <= 1).all() and (high == 1.0).all(), kind
        ax_mask = plots.plot_runs([plots.load_run(run_dir)], band=kind).axes[2]
        band = ax_mask.collections[-1]  # the masked fraction's band (drawn after epsilon's)
        ys = np.concatenate([p.vertices[:, 1] for p in band.get_paths()])
        assert 0 <= ys.min() and ys.max() <= 1, kind


def test_default_band_is_the_iqm_with_its_bootstrap_ci(tmp_path, capsys):
    run_dir = seeds3(tmp_path / "run")
    fig = plots.plot_runs([plots.load_run(run_dir)])
    ax_train = fig.axes[0]
    # step 100: seeds 1, 2, 6 -> (1 + 8 + 6) / 6; step 200: 10, 20 (seed 2 NaN) -> 15; step 300: one seed; 400: 7, 8, 9
    np.testing.assert_allclose(ax_train.lines[0].get_ydata(), [2.5, 15.0, 5.0, 8.0])
    assert ax_train.get_legend().get_title().get_text() == plots.BANDS["iqm"]
    (band,) = ax_train.collections
    ys = np.concatenate([p.vertices[:, 1] for p in band.get_paths()])
    assert ys.min() == pytest.approx(1.0) and ys.max() == pytest.approx(20.0)  # within the seeds' values
    for kind in ("t", "minmax"):
        out = tmp_path / f"{kind}.png"
        assert main(["plot", str(run_dir), "--band", kind, "--out", str(out)]) == 0
        assert png_size(out) == (1600, 450)
    with pytest.raises(ValueError, match="--band sd"):
        plots.plot([run_dir], tmp_path / "x.png", band="sd")
    assert not (tmp_path / "x.png").exists()


def _config(run_dir, **fields):
    """Give a hand-written run directory the config.json fields the plot reads (task, backend, prior, algo)."""
    (run_dir / "config.json").write_text(json.dumps({"env": "hopper", "backend": "gymnasium", "prior": "hopper",
                                                     **fields}))
    return run_dir


def test_plain_td3_and_ppo_runs_get_no_masking_panel_and_no_masked_evaluation(tmp_path):
    td3 = _config(seeds3(tmp_path / "td3"), prior="none")
    ppo = _config(seeds3(tmp_path / "ppo"), algo="ppo", prior="none")
    fig = plots.plot_runs([plots.load_run(td3), plots.load_run(ppo)])
    assert len(fig.axes) == 2  # (a) and (b): no epsilon or masked fraction applies
    _, ax_eval = fig.axes
    assert [ln.get_linestyle() for ln in ax_eval.lines] == ["-", "-"]  # unmasked only
    assert ax_eval.get_legend() is None and "no box" in ax_eval.get_title()
    assert fig.get_suptitle() == "hopper on gymnasium"  # task and backend named


def test_camel_beside_td3_draws_masking_for_camel_only(tmp_path):
    camel = _config(seeds3(tmp_path / "camel"))
    td3 = _config(seeds3(tmp_path / "td3"), prior="none")
    fig = plots.plot_runs([plots.load_run(camel), plots.load_run(td3)])
    ax_train, ax_eval, ax_mask = fig.axes[:3]
    assert [ln.get_linestyle() for ln in ax_mask.lines] == ["-", ":"]  # CAMEL's epsilon and masked fraction
    assert ax_mask.lines[0].get_color() == ax_train.lines[0].get_color()
    assert [ln.get_linestyle() for ln in ax_eval.lines] == ["-", "--", "-"]  # TD3: unmasked only
    assert [t.get_text() for t in ax_eval.get_legend().get_texts()] == ["unmasked", "masked"]


def test_different_tasks_are_refused_unless_mixed_tasks(tmp_path, capsys):
    hop = _config(seeds3(tmp_path / "hop"))
    walk = _config(seeds3(tmp_path / "walk"), env="walker2d", prior="walker2d")
    out = tmp_path / "both.png"
    assert main(["plot", str(hop), str(walk), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "different tasks (hopper: hop; walker2d: walk)" in err[0] and "--mixed-tasks" in err[0]
    assert not out.exists()
    assert main(["plot", str(hop), str(walk), "--out", str(out), "--mixed-tasks"]) == 0 and out.is_file()
    fig = plots.plot_runs([plots.load_run(hop), plots.load_run(walk)])
    assert fig.get_suptitle().startswith("MIXED TASKS: hopper on gymnasium, walker2d on gymnasium")


def test_a_refined_run_is_drawn_after_its_base_runs_steps(tmp_path):
    base = _config(seeds3(tmp_path / "base"), algo="ppo", prior="none", total_steps=1000)
    refined = _config(seeds3(tmp_path / "refined"), algo="ppo", prior="none", init_from=str(base))
    run = plots.load_run(refined)
    assert run.offset == 1000 and not run.masking
    fig = plots.plot_runs([plots.load_run(base), run])
    ax_train, ax_eval = fig.axes[:2]
    np.testing.assert_allclose(ax_train.lines[0].get_xdata(), STEPS)
    np.testing.assert_allclose(ax_train.lines[1].get_xdata(), [1100, 1200, 1300, 1400])
    np.testing.assert_allclose(ax_eval.lines[1].get_xdata(), [1200, 1400])
    assert "refined from base: from step 1,000" in ax_train.get_legend().get_texts()[1].get_text()
    (base / "config.json").unlink()
    with pytest.raises(FileNotFoundError, match="was refined from .*, which has no config.json"):
        plots.load_run(refined)
