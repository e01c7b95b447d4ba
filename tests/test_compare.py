"""bench/compare.py on synthetic curves whose statistics are known by hand."""

import contextlib
import csv
import importlib.util
import io
import json
import subprocess
import sys
import types
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]


def _ours(run_dir: Path, slopes, every=1000, last=40_000, lag=0, env="hopper", evals=True):
    """A fake camel-jax run of task `env`: each seed's log rows at every `every` steps, 2 episodes each, mean return
    of the row slope * (step - lag); without `evals`, an eval.csv of its header alone (a run with --eval-episodes 0)."""
    run_dir.mkdir()
    (run_dir / "config.json").write_text(json.dumps({"env": env, "seeds": list(range(len(slopes)))}))
    with open(run_dir / "metrics.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["step", "seed", "episodes", "episode_return", "wall_s"])
        for step in range(every, last + 1, every):
            for seed, slope in enumerate(slopes):
                w.writerow([step, seed, 2, slope * (step - lag), step / 100])
    with open(run_dir / "eval.csv", "w", newline="") as f:  # unmasked eval every 10k: 10 * slope * step
        w = csv.writer(f)
        w.writerow(["step", "seed", "return_unmasked"])
        for step in range(10_000, 40_001, 10_000) if evals else ():
            for seed, slope in enumerate(slopes):
                w.writerow([step, seed, 10 * slope * step])


def _reference(path: Path, slopes, every=500, last=40_000):
    """A fake CleanRL CSV: one episode every `every` steps per seed, return = slope * step."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["step", "episodic_return", "seed", "wall_s"])
        for seed, slope in enumerate(slopes):
            for step in range(every, last + 1, every):
                w.writerow([step, slope * step, seed, step / 50])


def _compare(*args, reps=20):
    """bench/compare.py's main in this process (its imports paid once per session, not per call), its output
    captured: (returncode, stdout, stderr) as from a subprocess. `reps`: bootstrap resamples of rliable's CIs (few:
    fast; the rliable tests give their own)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = _module().main([*map(str, args), "--reps", str(reps)])
    return types.SimpleNamespace(returncode=code, stdout=out.getvalue(), stderr=err.getvalue())


def _row(md: str, label: str, table: int) -> str:
    """The row of `label` in the markdown's `table`-th table that lists it (0: the runs' provenance under the
    heading, 1: training returns, 2: unmasked evaluations, 3: rliable's statistics, 4: per-seed values)."""
    return [line for line in md.splitlines() if line.startswith(f"| {label} |")][table]


def _module():
    spec = importlib.util.spec_from_file_location("bench_compare", ROOT / "bench" / "compare.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_compare_table_against_hand_computed_values(tmp_path):
    _ours(tmp_path / "td3", [0.05, 0.05, 0.05])
    _ours(tmp_path / "camel", [0.10, 0.11, 0.12])
    _reference(tmp_path / "ref.csv", [0.05, 0.05, 0.05])
    r = _compare("--run", f"TD3={tmp_path / 'td3'}", "--run", f"CAMEL={tmp_path / 'camel'}", "--reference",
                 f"REF={tmp_path / 'ref.csv'}", "--at", "20000,35000,40000", "--window", "4000", "--threshold", "2000",
                 "--out", tmp_path / "cmp")
    assert r.returncode == 0, r.stderr
    out = json.loads((tmp_path / "cmp.json").read_text())
    td3, camel, ref = out["methods"]
    # unmasked eval: 10 * slope * step; at 35k the last evaluation before it (30k) counts; the mean over the
    # evaluations at 10k..40k is 10 * slope * 25k
    assert camel["eval_at_20000"][:2] == [20_000, 10 * 0.11 * 20_000]
    assert camel["eval_at_35000"][:2] == [30_000, 10 * 0.11 * 30_000]
    assert abs(camel["eval_auc"][0] - 10 * 0.11 * 25_000) < 1e-6 and td3["eval_auc"][1] == 0.0
    assert "eval_auc" not in ref
    # window (36k, 40k]: ours logs 37k..40k (mean 38.5k), the reference 36.5k..40k (mean 38.25k)
    assert abs(camel["return_at_40000"][0] - 0.11 * 38_500) < 1e-6
    assert abs(ref["return_at_40000"][0] - 0.05 * 38_250) < 1e-6
    # t(0.975, 2) = 4.303: half-width = 4.303 * std([0.10, 0.11, 0.12] * 38.5k) / sqrt(3)
    assert abs(camel["return_at_40000"][1] - 4.3027 * 0.01 * 38_500 / 3**0.5) < 0.5
    assert ref["return_at_40000"][1] == 0.0
    # threshold 2000: windows end at every log row (every 1k), a window's mean step is its end - 1.5k, so slopes
    # 0.10/0.11/0.12 first reach 2000 in the windows ending at 22k, 20k and 19k; the reference never does
    assert camel["seeds_reaching"] == 3 and abs(camel["steps_to_threshold"][0] - 61_000 / 3) < 1e-6
    assert ref["seeds_reaching"] == 0
    assert camel["wall_all_s"] == 400 and ref["wall_all_s"] == 3 * 800
    md = (tmp_path / "cmp.md").read_text()
    assert "4,235 ± 956 (2.21x)" in _row(md, "CAMEL", 1)  # 0.11 * 38.5k / (0.05 * 38.25k)
    eval_row = _row(md, "CAMEL", 2)  # the unmasked-eval table; ratios to the first --run (TD3)
    # half-widths: 4.303 * 0.01 * 300k / sqrt(3) and 4.303 * 0.01 * 250k / sqrt(3)
    assert "33,000 ± 7,452 at 30k (2.20x)" in eval_row and "27,500 ± 6,210 (2.20x)" in eval_row
    assert (tmp_path / "cmp.png").stat().st_size > 10_000


def test_compare_help_and_bad_input():
    r = subprocess.run([sys.executable, "bench/compare.py", "--help"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert r.returncode == 0 and "--reference" in r.stdout and "--budget" in r.stdout and "--aggregate" in r.stdout
    r = _compare("--run", "X=/no/such/run", "--out", "/tmp/x")
    assert r.returncode == 2 and "does not exist" in r.stderr and "Traceback" not in r.stderr


def test_compare_without_reference_says_so(tmp_path):
    """Our runs alone (as for Ant and Walker2d): the markdown names no reference and claims no CleanRL ratios."""
    _ours(tmp_path / "td3", [0.05, 0.05, 0.05])
    _ours(tmp_path / "camel", [0.10, 0.11, 0.12])
    r = _compare("--run", f"TD3={tmp_path / 'td3'}", "--run", f"CAMEL={tmp_path / 'camel'}", "--at", "20000,40000",
                 "--window", "4000", "--title", "Ant-v4", "--out", tmp_path / "cmp")
    assert r.returncode == 0, r.stderr
    md = (tmp_path / "cmp.md").read_text()
    assert md.startswith("# Ant-v4: camel-jax methods compared, 3 seeds per arm, 40,000 steps\n")
    assert "no --reference was given, so this table has no ratios" in md and "'n/a'" not in md
    assert "CleanRL runs one process" not in md and "CleanRL logs no evaluation" not in md
    training_row = _row(md, "CAMEL", 1)
    assert "x)" not in training_row  # no ratio in the training table
    assert "(2.20x)" in _row(md, "CAMEL", 2)  # the unmasked-eval table still has its ratios to TD3


def test_the_title_defaults_to_the_runs_task_never_another(tmp_path):
    """Without --title the table and plot are titled by the runs' own task (the default used to be "Hopper-v4"
    whatever the runs were); runs of two tasks are titled MIXED TASKS."""
    _ours(tmp_path / "td3", [0.05, 0.05], env="walker2d")
    _ours(tmp_path / "camel", [0.10, 0.11], env="walker2d")
    _ours(tmp_path / "hop", [0.10, 0.11])
    args = ["--at", "20000,40000", "--window", "4000"]
    r = _compare("--run", f"TD3={tmp_path / 'td3'}", "--run", f"CAMEL={tmp_path / 'camel'}", *args,
                 "--out", tmp_path / "walker")
    assert r.returncode == 0, r.stderr
    md = (tmp_path / "walker.md").read_text()
    assert md.startswith("# Walker2d-v4: camel-jax methods compared") and "Hopper" not in md.split("\n")[0]
    r = _compare("--run", f"TD3={tmp_path / 'td3'}", "--run", f"hopper={tmp_path / 'hop'}", *args,
                 "--out", tmp_path / "mixed")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "mixed.md").read_text().startswith("# MIXED TASKS: camel-jax")


def test_iqm_columns_beside_the_mean_with_bootstrap_cis(tmp_path):
    """Skewed seeds: the IQM over 3 seeds is (lowest + 4 x middle + highest) / 6 and its 95% percentile bootstrap CI
    is the seeds' range (a resample of three copies of one seed has probability 1/27 > 2.5%)."""
    _ours(tmp_path / "td3", [0.05, 0.05, 0.05])
    _ours(tmp_path / "camel", [0.10, 0.11, 0.16])
    _reference(tmp_path / "ref.csv", [0.05, 0.05, 0.05])
    r = _compare("--run", f"TD3={tmp_path / 'td3'}", "--run", f"CAMEL={tmp_path / 'camel'}", "--reference",
                 f"REF={tmp_path / 'ref.csv'}", "--at", "20000,40000", "--window", "4000", "--out", tmp_path / "cmp")
    assert r.returncode == 0, r.stderr
    out = json.loads((tmp_path / "cmp.json").read_text())
    td3, camel, ref = out["methods"]
    seeds = np.array([0.10, 0.11, 0.16]) * 38_500  # window (36k, 40k]: our rows 37k..40k, mean step 38.5k
    assert camel["return_at_40000"][0] == pytest.approx(seeds.mean())  # the old key, unchanged
    assert camel["return_at_40000_iqm"] == pytest.approx([(seeds[0] + 4 * seeds[1] + seeds[2]) / 6, *seeds[[0, 2]]])
    assert ref["return_at_40000_iqm"] == pytest.approx([0.05 * 38_250] * 3)  # identical seeds: a point
    assert camel["auc_iqm"][1] <= camel["auc_iqm"][0] <= camel["auc_iqm"][2]
    evals = np.array([0.10, 0.11, 0.16]) * 10 * 40_000
    assert camel["eval_at_40000_iqm"] == pytest.approx([40_000, (evals[0] + 4 * evals[1] + evals[2]) / 6,
                                                        evals[0], evals[2]])
    assert camel["eval_at_40000"][:2] == pytest.approx([40_000, evals.mean()])
    assert td3["eval_at_40000_iqm"] == pytest.approx([40_000] + [0.05 * 10 * 40_000] * 3)
    md = (tmp_path / "cmp.md").read_text()
    header = md.split("\n| method")[1].split("\n")[0]
    assert "| return at 40k | IQM at 40k [95% CI] |" in header and "| AUC (mean return) | AUC, IQM [95% CI] |" in header
    row = _row(md, "CAMEL", 1)
    # IQM 26,950 / 6 = 4,492 over REF's 1,912.5: 2.35x; the mean cell beside it: 4,748 / 1,912.5 = 2.48x, with
    # half-width 4.303 * sd(3,850, 4,235, 6,160) / sqrt(3) = 3,074
    assert "| 4,748 ± 3,074 (2.48x) | 4,492 [3,850, 6,160] (2.35x) |" in row
    eval_row = _row(md, "CAMEL", 2)  # IQM ratios to TD3's: 46,667 / 20,000
    assert "| 46,667 [40,000, 64,000] (2.33x) |" in eval_row
    assert "min-max range" in md and out["iqm"] in md


def test_windows_end_on_the_log_rows_of_every_run(tmp_path):
    """Runs logging every 2,000 steps against a reference with an episode every 1,000 steps, the same episodes: a
    row at step s holds the episodes at s - 1k and s (mean slope * (s - 500)). With every window aligned to the rows
    the run's curve is the reference's at every point. The old grid (ends every window / 2 = 5k) fed the run the
    rows up to 14k for the window (5k, 15k]: half its points lagged by 1k."""
    slopes = [0.10, 0.12, 0.14]
    _ours(tmp_path / "run", slopes, every=2000, last=60_000, lag=500)
    _reference(tmp_path / "ref.csv", slopes, every=1000, last=60_000)
    r = _compare("--run", f"RUN={tmp_path / 'run'}", "--reference", f"REF={tmp_path / 'ref.csv'}", "--at",
                 "30000,60000", "--window", "10000", "--threshold", "1000", "--out", tmp_path / "cmp")
    assert r.returncode == 0, r.stderr
    out = json.loads((tmp_path / "cmp.json").read_text())
    run, ref = out["methods"]
    for key in ("return_at_30000", "return_at_60000", "auc", "steps_to_threshold"):
        assert run[key][0] == pytest.approx(ref[key][0], abs=1e-9), key
    assert out["window_ends"] == {"first": 10_000, "last": 60_000, "count": 26}
    # window (e - 10k, e] holds episodes e - 9k..e: mean return slope * (e - 4.5k); 1,000 first reached by the
    # slope-0.10 seed at e = 14.5k -> the 16k end, slope 0.12 at 12.83k -> 14k, slope 0.14 at 11.64k -> 12k
    assert ref["steps_to_threshold"][0] == pytest.approx(14_000)
    ends = np.arange(10_000, 60_001, 2_000)
    assert ref["auc"][0] == pytest.approx(np.mean(slopes) * np.mean(ends - 4_500))


def test_window_ends_are_common_log_rows():
    compare = _module()

    def run(*steps_per_seed):
        return {"seeds": {s: np.array([[t, 1, 0.0] for t in steps]) for s, steps in enumerate(steps_per_seed)}}

    every2k = run(range(2000, 30_001, 2000), range(2000, 30_001, 2000))
    np.testing.assert_array_equal(compare.window_ends([every2k], 10_000, 30_000), np.arange(10_000, 30_001, 2000))
    every3k = run(range(3000, 30_001, 3000))
    # both runs log at multiples of 6k: a 12k window fits there, a 10k window nowhere
    np.testing.assert_array_equal(compare.window_ends([every2k, every3k], 12_000, 30_000), [12_000, 18_000, 24_000,
                                                                                            30_000])
    assert len(compare.window_ends([every2k, every3k], 10_000, 30_000)) == 0
    # references alone (a row per episode) fit any window: ends every window / 2
    np.testing.assert_array_equal(compare.window_ends([], 10_000, 30_000), [10_000, 15_000, 20_000, 25_000, 30_000])


@pytest.mark.parametrize("args,needle", [
    (["--window", "5000"], "no window of --window 5,000 steps starts and ends on log rows"),
    (["--at", "35000"], "--at 35,000 is not the end of a window aligned"),
])
def test_misaligned_window_or_step_is_a_usage_error(tmp_path, args, needle):
    _ours(tmp_path / "run", [0.1, 0.1, 0.1], every=2000)
    r = _compare("--run", f"RUN={tmp_path / 'run'}", *args, "--out", tmp_path / "cmp")
    assert r.returncode == 2 and needle in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert not list(tmp_path.glob("cmp*"))


def _rliable(scores, func, reps):
    """rliable called directly, as compare.py calls it: numpy's global generator seeded with 0."""
    from rliable import library as rly

    np.random.seed(0)
    point, interval = rly.get_interval_estimates({"x": scores}, func, reps=reps)
    return np.ravel(point["x"]), np.asarray(interval["x"]).reshape(2, -1)


def _cleanrl_json(csv_path: Path, env_id: str, total: int = 40_000):
    csv_path.with_suffix(".json").write_text(json.dumps({
        "env_id": env_id, "total_timesteps": total, "script": "cleanrl/td3_continuous_action_jax.py",
        "cleanrl_commit": "fe8d8a03c41a7ef5b523e2e354bd01c363e786bb",
        "versions": {"gymnasium": "0.29.1", "mujoco": "3.1.6", "jax": "0.4.30"}}))


def test_the_vectorized_iqm_and_probability_of_improvement_are_rliables():
    """compare counts P(X > Y) and the IQM with numpy (rliable's calls scipy once per task and resample): the same
    values as rliable's metrics, ties, equal columns and several tasks included."""
    from rliable import metrics

    from camel_jax.compare import fast_iqm, fast_poi

    rng = np.random.default_rng(0)
    for n, m, tasks in ((3, 3, 1), (10, 7, 1), (5, 4, 3), (1, 2, 2)):
        x, y = rng.integers(0, 4, (n, tasks)).astype(float), rng.integers(0, 4, (m, tasks)).astype(float)
        assert fast_poi(x, y) == pytest.approx(metrics.probability_of_improvement(x, y), abs=1e-15)
        assert fast_poi(x, x) == 0.5
        z = rng.normal(size=(n, tasks))
        assert fast_iqm(z) == metrics.aggregate_iqm(z)


def test_per_seed_final_return_iqm_and_probability_of_improvement_by_rliable(tmp_path, capsys):
    """10 seeds per arm. A's and B's slopes interleave (B's seed j beats A's seed i iff j >= i: 55 of 100 pairs), so
    P(B > A) = 0.55 on both AUC and final return; the reference is below every seed of A: P = 0. The final span is
    (32k, 40k]: our rows 33k..40k (mean step 36.5k), the reference's episodes 32.5k..40k (36.25k)."""
    from rliable import metrics

    a, b, low = 0.10 + 0.01 * np.arange(10), 0.105 + 0.01 * np.arange(10), 0.01 + 0.001 * np.arange(10)
    _ours(tmp_path / "a", a)
    _ours(tmp_path / "b", b)
    _reference(tmp_path / "ref.csv", low)
    reps = 100
    assert _module().main(["--run", f"A={tmp_path / 'a'}", "--run", f"B={tmp_path / 'b'}", "--reference",
                           f"REF={tmp_path / 'ref.csv'}", "--at", "40000", "--window", "4000", "--baseline", "A",
                           "--reps", str(reps), "--out", str(tmp_path / "cmp")]) == 0
    out = json.loads((tmp_path / "cmp.json").read_text())
    ra, rb, ref = out["methods"]
    assert out["final_span"] == [32_000, 40_000]
    assert ra["per_seed"]["final"] == pytest.approx(a * 36_500)
    assert ref["per_seed"]["final"] == pytest.approx(low * 36_250)
    assert ra["per_seed"]["seed"] == list(range(10)) and ra["per_seed"]["auc"] == pytest.approx(ra["auc"][0] * a
                                                                                               / a.mean())
    # rliable's IQM of 10 seeds: the mean of the middle 6 (slopes 0.12..0.17), its CI as rliable gives it
    assert ra["final_iqm_rliable"][0] == pytest.approx(0.145 * 36_500)
    point, ci = _rliable(np.array(ra["per_seed"]["final"])[:, None],
                         lambda x: np.array([metrics.aggregate_iqm(x)]), reps)
    assert ra["final_iqm_rliable"] == pytest.approx([point[0], *ci[:, 0]])
    assert ci[0, 0] < point[0] < ci[1, 0]
    assert rb["poi_final"][0] == pytest.approx(0.55) and rb["poi_auc"][0] == pytest.approx(0.55)
    point, ci = _rliable([np.array(rb["per_seed"]["final"])[:, None], np.array(ra["per_seed"]["final"])[:, None]],
                         metrics.probability_of_improvement, reps)
    assert rb["poi_final"] == pytest.approx([0.55, *ci[:, 0]]) and ci[0, 0] < 0.55 < ci[1, 0]
    assert ref["poi_final"] == [0.0, 0.0, 0.0] and ref["poi_auc"] == [0.0, 0.0, 0.0]
    assert "poi_final" not in ra
    md = (tmp_path / "cmp.md").read_text()
    assert md.startswith("# Hopper-v4: camel-jax against CleanRL's TD3, 10 seeds per arm, 40,000 steps\n")
    assert f"| 0.55 [{ci[0, 0]:.2f}, {ci[1, 0]:.2f}] |" in _row(md, "B", 3) and "(baseline)" in _row(md, "A", 3)
    assert "(32,000, 40,000]" in md and f"{reps:,} resamples" in md and "numpy seed 0" in md
    assert f"Command: `python bench/compare.py --run A={tmp_path / 'a'} " in md and "--baseline A --reps 100" in md
    per_seed_row = _row(md, "A", 4)
    assert per_seed_row.startswith("| A | 0: ") and f"9: {ra['per_seed']['auc'][9]:,.0f} / 6,935 |" in per_seed_row
    assert "| B | 10 |" in capsys.readouterr().out


def test_heading_names_each_arms_seeds_steps_backend_and_commit(tmp_path):
    """The runs' provenance under the heading: versions.json's commit (dirty flagged) and device, config.json's
    backend and steps (an unfinished run shows its logged steps of the total); "unknown" without versions.json;
    CleanRL's commit and versions from the reference's JSON."""
    _ours(tmp_path / "mjx", [0.1, 0.1, 0.1])
    config = json.loads((tmp_path / "mjx" / "config.json").read_text())
    (tmp_path / "mjx" / "config.json").write_text(json.dumps({**config, "backend": "mjx", "total_steps": 50_000}))
    (tmp_path / "mjx" / "versions.json").write_text(json.dumps({
        "git": {"commit": "0123456789abcdef0123456789abcdef01234567", "dirty": True},
        "devices": {"backend": "gpu", "count": 1, "kinds": ["NVIDIA H100 80GB HBM3"]}, "packages": {}}))
    _ours(tmp_path / "old", [0.1, 0.1])
    _ours(tmp_path / "resumed", [0.1, 0.1])  # started on one commit, resumed on the same one, then on another
    (tmp_path / "resumed" / "versions.json").write_text(json.dumps({
        "git": {"commit": "a" * 40, "dirty": False}, "devices": {"backend": "cpu", "count": 1, "kinds": ["cpu"]},
        "packages": {}, "resumes": [{"from_step": 10_000, "git": {"commit": "a" * 40, "dirty": False}},
                                    {"from_step": 20_000, "git": {"commit": "b" * 40, "dirty": False}}]}))
    _reference(tmp_path / "ref.csv", [0.05, 0.05, 0.05])
    _cleanrl_json(tmp_path / "ref.csv", "Hopper-v4")
    assert _module().main(["--run", f"MJX={tmp_path / 'mjx'}", "--run", f"OLD={tmp_path / 'old'}",
                           "--run", f"RES={tmp_path / 'resumed'}", "--reference",
                           f"REF={tmp_path / 'ref.csv'}", "--at", "40000", "--window", "4000", "--reps", "50",
                           "--out", str(tmp_path / "cmp")]) == 0
    md = (tmp_path / "cmp.md").read_text()
    title, rest = md.split("\n", 1)
    assert title.startswith("# Hopper-v4: camel-jax against CleanRL's TD3 (MIXED BACKENDS: ")  # mjx beside gymnasium
    assert title.endswith(", seeds per arm 3/2/2/3, 40,000 steps")
    assert rest.startswith("\n| arm | seeds | steps | backend | commit |\n")
    assert _row(md, "MJX", 0) == ("| MJX | 3 (0, 1, 2) | 40,000 of 50,000 | mjx (NVIDIA H100 80GB HBM3) | "
                                  "0123456789ab (dirty) |")
    assert _row(md, "OLD", 0) == "| OLD | 2 (0, 1) | 40,000 | unknown | unknown |"
    assert _row(md, "RES", 0) == "| RES | 2 (0, 1) | 40,000 | unknown (cpu) | aaaaaaaaaaaa resumed on bbbbbbbbbbbb |"
    assert _row(md, "REF", 0) == ("| REF | 3 (0, 1, 2) | 40,000 | CleanRL td3_continuous_action_jax.py (gymnasium "
                                  "0.29.1, mujoco 3.1.6, jax 0.4.30) | fe8d8a03c41a |")
    mjx = json.loads((tmp_path / "cmp.json").read_text())["methods"][0]
    assert mjx["provenance"]["commit"] == "0123456789abcdef0123456789abcdef01234567" and mjx["provenance"]["dirty"]


def _task(tmp_path: Path, task: str, arms: dict[str, list[float]], env_id: str | None = None) -> dict[str, Path]:
    """One task's run set: a camel-jax run per arm (config env `task`), and a CleanRL CSV for an arm named CleanRL."""
    paths = {}
    for arm, slopes in arms.items():
        if arm == "CleanRL":
            paths[arm] = tmp_path / f"{task}_cleanrl.csv"
            _reference(paths[arm], slopes)
            _cleanrl_json(paths[arm], env_id)
        else:
            paths[arm] = tmp_path / f"{task}_{arm}"
            _ours(paths[arm], slopes)
            config = json.loads((paths[arm] / "config.json").read_text())
            (paths[arm] / "config.json").write_text(json.dumps({**config, "env": task, "backend": "gymnasium"}))
    return paths


def test_aggregate_across_tasks_normalised_to_cleanrl_against_rliable(tmp_path, capsys):
    """Two tasks, 4 seeds per arm. Final return of a slope-s run: s x 36.5k (ours), s x 36.25k (CleanRL's CSV);
    normalised with a random policy's return as 0 and CleanRL's published 1M-step jax TD3 as 1 (Hopper-v4 2,940.10,
    Walker2d-v4 3,686.19). CAMEL beats every TD3 run on both tasks: P(CAMEL > TD3) = 1 with CI [1, 1]."""
    from rliable import metrics

    td3, camel, cleanrl = [0.02, 0.03, 0.04, 0.05], [0.06, 0.07, 0.08, 0.09], [0.025, 0.035, 0.045, 0.055]
    arms = {"TD3": td3, "CAMEL": camel, "CleanRL": cleanrl}
    hopper, walker = _task(tmp_path, "hopper", arms, "Hopper-v4"), _task(tmp_path, "walker2d", arms, "Walker2d-v4")
    (tmp_path / "random.csv").write_text("task,episodes,mean,std\nHopper-v4,100,40.0,1.0\nWalker2d-v4,100,0.0,1.0\n")
    reps = 100
    argv = ["--aggregate", str(tmp_path / "agg.png"), "--window", "4000", "--reps", str(reps),
            "--random-returns", str(tmp_path / "random.csv")]
    for arm in arms:
        argv += ["--arm", arm, f"hopper={hopper[arm]}", f"walker2d={walker[arm]}"]
    assert _module().main(argv) == 0
    out = json.loads((tmp_path / "agg.json").read_text())
    assert out["tasks"]["hopper"] == {"gym_id": "Hopper-v4", "span": [32_000, 40_000], "zero": 40.0, "one": 2940.10}
    assert out["tasks"]["walker2d"]["zero"] == 0.0 and out["tasks"]["walker2d"]["one"] == 3686.19
    by = {a["label"]: a for a in out["arms"]}
    expected = {"TD3": np.array(td3) * 36_500, "CAMEL": np.array(camel) * 36_500, "CleanRL": np.array(cleanrl) * 36_250}
    scores = {}
    for arm, raw in expected.items():
        scores[arm] = np.stack([(raw - 40.0) / 2900.10, raw / 3686.19], axis=1)
        assert by[arm]["per_task"]["hopper"]["raw"] == pytest.approx(raw)
        assert np.array([by[arm]["per_task"][t]["normalized"] for t in ("hopper", "walker2d")]).T == pytest.approx(
            scores[arm])
        funcs = lambda x: np.array([metrics.aggregate_iqm(x), metrics.aggregate_median(x), metrics.aggregate_mean(x),
                                    metrics.aggregate_optimality_gap(x)])
        point, ci = _rliable(scores[arm], funcs, reps)
        for k, name in enumerate(("IQM", "median", "mean", "optimality_gap")):
            assert by[arm][name] == pytest.approx([point[k], *ci[:, k]]), (arm, name)
    # 8 values, the IQM is the mean of the middle 4: TD3 has 2 seeds x 2 tasks in the middle
    assert by["TD3"]["IQM"][0] == pytest.approx(np.sort(scores["TD3"].ravel())[2:6].mean())
    assert by["CAMEL"]["poi"] == [1.0, 1.0, 1.0] and by["CAMEL"]["poi_per_task"] == {"hopper": 1.0, "walker2d": 1.0}
    point, ci = _rliable([scores["CleanRL"], scores["TD3"]], metrics.probability_of_improvement, reps)
    assert by["CleanRL"]["poi"] == pytest.approx([point[0], *ci[:, 0]])
    assert point[0] == pytest.approx(10 / 16)  # per task, 0.025..0.055 x 36.25k against 0.02..0.05 x 36.5k
    assert "poi" not in by["TD3"] and out["baseline"] == "TD3"
    taus = np.array(out["taus"])
    profile = np.array(by["TD3"]["profile"])
    assert profile[taus < scores["TD3"].min()] == pytest.approx(1.0) and profile[-1] == 0.0
    assert by["CleanRL"]["per_task"]["hopper"]["provenance"]["short"] == "fe8d8a03c41a"
    md = (tmp_path / "agg.md").read_text()
    assert md.startswith("# Across 2 tasks (Hopper-v4, Walker2d-v4): TD3 vs CAMEL vs CleanRL, 4 seeds per arm and task")
    assert "CleanRL's published td3_continuous_action_jax.py return at 1,000,000 steps" in md
    assert "| hopper (Hopper-v4) | 40.0 | 2,940.1 |" in md
    assert "| CAMEL | 4 x 2 |" in md and "| 1.00 [1.00, 1.00] |" in _row(md, "CAMEL", 2)
    assert f"{reps:,} resamples" in md and "stratified bootstrap" in md
    assert (tmp_path / "agg.png").stat().st_size > 20_000 and "| TD3 | 4 x 2 |" in capsys.readouterr().out


def test_aggregate_minmax_eval_score_and_usage_errors(tmp_path, capsys):
    """minmax maps each task's lowest and highest run to 0 and 1; --score eval takes the unmasked evaluations in the
    final span (the one at 40k: 10 x slope x 40k). A task without a published CleanRL score, an arm missing a task, a
    CleanRL CSV under --score eval: one-line usage errors naming the fix."""
    compare = _module()
    arms = {"TD3": [0.02, 0.03, 0.04], "CAMEL": [0.05, 0.07, 0.09]}
    ant, hopper = _task(tmp_path, "ant", arms), _task(tmp_path, "hopper", arms)
    base = ["--window", "4000", "--reps", "50", "--aggregate", str(tmp_path / "agg")]
    both = [x for arm in arms for x in ("--arm", arm, f"ant={ant[arm]}", f"hopper={hopper[arm]}")]
    assert compare.main(base + both + ["--normalize", "minmax", "--score", "eval"]) == 0
    out = json.loads((tmp_path / "agg.json").read_text())
    by = {a["label"]: a for a in out["arms"]}
    assert by["TD3"]["per_task"]["ant"]["raw"] == pytest.approx(np.array(arms["TD3"]) * 400_000)
    assert by["TD3"]["per_task"]["ant"]["normalized"] == pytest.approx([0.0, 1 / 7, 2 / 7])
    assert by["CAMEL"]["per_task"]["hopper"]["normalized"] == pytest.approx([3 / 7, 5 / 7, 1.0])
    assert out["tasks"]["ant"]["gym_id"] == "Ant-v4" and "lowest run" in (tmp_path / "agg.md").read_text()
    capsys.readouterr()
    for extra, needle in (
        ([], "no CleanRL-published td3_continuous_action_jax.py score at 1,000,000 steps for Ant-v4"),
        (["--arm", "X", f"hopper={hopper['TD3']}"], "--arm X has tasks hopper; every arm needs the same tasks"),
        (["--normalize", "minmax", "--baseline", "nope"], "--baseline 'nope' is none of the arms"),
    ):
        assert compare.main(base + both + extra) == 2, extra
        err = capsys.readouterr().err
        assert needle in err and len(err.strip().splitlines()) == 1, err
    ref = _task(tmp_path, "walker2d", {"CleanRL": [0.1, 0.1, 0.1]}, "Walker2d-v4")["CleanRL"]
    assert compare.main(base + ["--score", "eval", "--arm", "CleanRL", f"walker2d={ref}"]) == 2
    assert "is a CleanRL reference, which logs no evaluation" in capsys.readouterr().err


def _shift_seeds(run_dir: Path, by: int, commit: str) -> None:
    """Renumber a fake run's seeds (s -> s + by) and give it a versions.json with `commit`."""
    for name in ("metrics.csv", "eval.csv"):
        with open(run_dir / name) as f:
            rows = list(csv.DictReader(f))
        with open(run_dir / name, "w", newline="") as f:
            w = csv.DictWriter(f, list(rows[0]))
            w.writeheader()
            w.writerows({**r, "seed": int(r["seed"]) + by} for r in rows)
    config = json.loads((run_dir / "config.json").read_text())
    (run_dir / "config.json").write_text(json.dumps({**config, "seeds": [s + by for s in config["seeds"]]}))
    (run_dir / "versions.json").write_text(json.dumps({"git": {"commit": commit * 40, "dirty": False},
                                                       "devices": {"backend": "cpu", "count": 1, "kinds": ["cpu"]},
                                                       "packages": {}}))


def test_an_arm_of_several_runs_pools_their_seeds(tmp_path):
    """`--run LABEL=DIR1+DIR2`: seeds 0-1 in one run and 2-3 in another are the arm a run of seeds 0-3 is (the same
    tables), with both commits named; runs that share a seed or differ in settings are refused."""
    _ours(tmp_path / "all", [0.1, 0.2, 0.3, 0.4])
    _ours(tmp_path / "a", [0.1, 0.2])
    _ours(tmp_path / "b", [0.3, 0.4])
    _shift_seeds(tmp_path / "a", 0, "a")
    _shift_seeds(tmp_path / "b", 2, "b")
    common = ["--at", "40000", "--window", "4000", "--reps", "50"]
    assert _module().main(["--run", f"X={tmp_path / 'all'}", *common, "--out", str(tmp_path / "one")]) == 0
    assert _module().main(["--run", f"X={tmp_path / 'a'}+{tmp_path / 'b'}", *common, "--out", str(tmp_path / "two")]) == 0
    one, two = (tmp_path / "one.md").read_text(), (tmp_path / "two.md").read_text()
    cells = lambda row: [c for c in row.split("|") if " min" not in c]  # all but the wall-clock
    for table in (1, 2, 3, 4):  # training returns, evaluations, rliable's statistics, per-seed values
        assert cells(_row(one, "X", table)) == cells(_row(two, "X", table))
    assert "| 6.7 min |" in _row(one, "X", 1) and "| 13.3 min |" in _row(two, "X", 1)  # two processes: their sum
    assert _row(two, "X", 0) == "| X | 4 (0, 1, 2, 3) | 40,000 | unknown (cpu) | aaaaaaaaaaaa + bbbbbbbbbbbb |"
    with pytest.raises(SystemExit, match="seed 0 is in two runs of one arm"):
        _module().main(["--run", f"X={tmp_path / 'a'}+{tmp_path / 'all'}", *common, "--out", str(tmp_path / "bad")])
    config = json.loads((tmp_path / "b" / "config.json").read_text())
    (tmp_path / "b" / "config.json").write_text(json.dumps({**config, "env": "walker2d"}))
    with pytest.raises(SystemExit, match="differ in env"):
        _module().main(["--run", f"X={tmp_path / 'a'}+{tmp_path / 'b'}", *common, "--out", str(tmp_path / "bad")])


def test_an_aggregate_arm_pools_runs_like_a_single_run(tmp_path):
    """`--arm LABEL TASK=DIR1+DIR2` (a 10-seed arm trained as two sweeps): the same per-task scores and aggregate
    statistics as the arm of one run with all the seeds."""
    arms = {"TD3": [0.02, 0.03, 0.04, 0.05], "CAMEL": [0.06, 0.07, 0.08, 0.09]}
    tasks = {"hopper": _task(tmp_path, "hopper", arms), "ant": _task(tmp_path, "ant", arms)}
    split = {}
    for task in tasks:
        for half, (slopes, shift) in {"a": (arms["CAMEL"][:2], 0), "b": (arms["CAMEL"][2:], 2)}.items():
            run = tmp_path / f"{task}_camel_{half}"
            _ours(run, slopes)
            config = json.loads((run / "config.json").read_text())
            (run / "config.json").write_text(json.dumps({**config, "env": task, "backend": "gymnasium"}))
            _shift_seeds(run, shift, half)
        split[task] = f"{tmp_path / f'{task}_camel_a'}+{tmp_path / f'{task}_camel_b'}"
    base = ["--window", "4000", "--reps", "50", "--normalize", "minmax",
            "--arm", "TD3", *(f"{t}={p['TD3']}" for t, p in tasks.items())]
    assert _module().main([*base, "--arm", "CAMEL", *(f"{t}={p['CAMEL']}" for t, p in tasks.items()),
                           "--aggregate", str(tmp_path / "one")]) == 0
    assert _module().main([*base, "--arm", "CAMEL", *(f"{t}={p}" for t, p in split.items()),
                           "--aggregate", str(tmp_path / "two")]) == 0
    one, two = (json.loads((tmp_path / f"{x}.json").read_text())["arms"] for x in ("one", "two"))
    for a, b in zip(one, two, strict=True):
        for t in tasks:
            assert a["per_task"][t]["raw"] == pytest.approx(b["per_task"][t]["raw"])
        for name in ("IQM", "median", "mean", "optimality_gap"):
            assert a[name] == pytest.approx(b[name]), (a["label"], name)
    assert two[1]["per_task"]["hopper"]["raw"] == pytest.approx(np.array(arms["CAMEL"]) * 36_500)
    md = (tmp_path / "two.md").read_text()  # the provenance table names the pooled runs as they were given
    assert f"| CAMEL | hopper | {tmp_path / 'hopper_camel_a'} + {tmp_path / 'hopper_camel_b'} | 4 (0, 1, 2, 3) |" in md
    assert "PosixPath" not in md


def _png_width(path: Path) -> int:
    return int.from_bytes(path.read_bytes()[16:20], "big")  # the IHDR chunk's width


def test_the_agent_alone_panel_only_when_a_run_evaluated(tmp_path):
    """A comparison of runs that evaluated nothing (--eval-episodes 0) draws the training curves alone, not an empty
    second panel; with an evaluated run the figure has both panels."""
    _ours(tmp_path / "quiet", [0.05, 0.06], evals=False)
    _ours(tmp_path / "evaluated", [0.05, 0.06])
    widths = {}
    for name in ("quiet", "evaluated"):
        r = _compare("--run", f"TD3={tmp_path / name}", "--at", "20000,40000", "--window", "4000", "--out",
                     tmp_path / name / "cmp")
        assert r.returncode == 0, r.stderr
        widths[name] = _png_width(tmp_path / name / "cmp.png")
    assert widths == {"quiet": 8 * 110, "evaluated": 14 * 110}
