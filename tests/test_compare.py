"""bench/compare.py on synthetic curves whose statistics are known by hand."""

import csv
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]


def _ours(run_dir: Path, slopes, every=1000, last=40_000, lag=0):
    """A fake camel-jax run: each seed's log rows at every `every` steps, 2 episodes each, mean return of the row
    slope * (step - lag)."""
    run_dir.mkdir()
    (run_dir / "config.json").write_text(json.dumps({"env": "hopper", "seeds": list(range(len(slopes)))}))
    with open(run_dir / "metrics.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["step", "seed", "episodes", "episode_return", "wall_s"])
        for step in range(every, last + 1, every):
            for seed, slope in enumerate(slopes):
                w.writerow([step, seed, 2, slope * (step - lag), step / 100])
    with open(run_dir / "eval.csv", "w", newline="") as f:  # unmasked eval every 10k: 10 * slope * step
        w = csv.writer(f)
        w.writerow(["step", "seed", "return_unmasked"])
        for step in range(10_000, 40_001, 10_000):
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


def _compare(*args):
    return subprocess.run([sys.executable, "bench/compare.py", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, check=False)


def _module():
    spec = importlib.util.spec_from_file_location("bench_compare", ROOT / "bench" / "compare.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_compare_table_against_hand_computed_values(tmp_path):
    _ours(tmp_path / "td3", [0.05, 0.05, 0.05])
    _ours(tmp_path / "camel", [0.10, 0.11, 0.12])
    _reference(tmp_path / "ref.csv", [0.05, 0.05, 0.05])
    r = subprocess.run([sys.executable, "bench/compare.py", "--run", f"TD3={tmp_path / 'td3'}", "--run",
                        f"CAMEL={tmp_path / 'camel'}", "--reference", f"REF={tmp_path / 'ref.csv'}", "--at",
                        "20000,35000,40000", "--window", "4000", "--threshold", "2000", "--out", str(tmp_path / "cmp")],
                       cwd=ROOT, capture_output=True, text=True, check=False)
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
    assert "4,235 ± 956 (2.21x)" in md.split("| CAMEL")[1].split("\n")[0]  # 0.11 * 38.5k / (0.05 * 38.25k)
    eval_row = md.split("| CAMEL")[2].split("\n")[0]  # the unmasked-eval table; ratios to the first --run (TD3)
    # half-widths: 4.303 * 0.01 * 300k / sqrt(3) and 4.303 * 0.01 * 250k / sqrt(3)
    assert "33,000 ± 7,452 at 30k (2.20x)" in eval_row and "27,500 ± 6,210 (2.20x)" in eval_row
    assert (tmp_path / "cmp.png").stat().st_size > 10_000


def test_compare_help_and_bad_input():
    r = subprocess.run([sys.executable, "bench/compare.py", "--help"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert r.returncode == 0 and "--reference" in r.stdout and "--budget" in r.stdout
    r = subprocess.run([sys.executable, "bench/compare.py", "--run", "X=/no/such/run", "--out", "/tmp/x"], cwd=ROOT,
                       capture_output=True, text=True, check=False)
    assert r.returncode == 2 and "does not exist" in r.stderr and "Traceback" not in r.stderr


def test_compare_without_reference_says_so(tmp_path):
    """Our runs alone (as for Ant and Walker2d): the markdown names no reference and claims no CleanRL ratios."""
    _ours(tmp_path / "td3", [0.05, 0.05, 0.05])
    _ours(tmp_path / "camel", [0.10, 0.11, 0.12])
    r = subprocess.run([sys.executable, "bench/compare.py", "--run", f"TD3={tmp_path / 'td3'}", "--run",
                        f"CAMEL={tmp_path / 'camel'}", "--at", "20000,40000", "--window", "4000", "--title", "Ant-v4",
                        "--out", str(tmp_path / "cmp")], cwd=ROOT, capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    md = (tmp_path / "cmp.md").read_text()
    assert md.startswith("# Ant-v4: camel-jax methods compared\n")
    assert "no --reference was given, so this table has no ratios" in md and "'n/a'" not in md
    assert "CleanRL runs one process" not in md and "CleanRL logs no evaluation" not in md
    training_row = md.split("| CAMEL")[1].split("\n")[0]
    assert "x)" not in training_row  # no ratio in the training table
    assert "(2.20x)" in md.split("| CAMEL")[2].split("\n")[0]  # the unmasked-eval table still has its ratios to TD3


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
    row = md.split("| CAMEL")[1].split("\n")[0]
    # IQM 26,950 / 6 = 4,492 over REF's 1,912.5: 2.35x; the mean cell beside it: 4,748 / 1,912.5 = 2.48x, with
    # half-width 4.303 * sd(3,850, 4,235, 6,160) / sqrt(3) = 3,074
    assert "| 4,748 ± 3,074 (2.48x) | 4,492 [3,850, 6,160] (2.35x) |" in row
    eval_row = md.split("| CAMEL")[2].split("\n")[0]  # IQM ratios to TD3's: 46,667 / 20,000
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
