"""bench/compare.py on synthetic curves whose statistics are known by hand."""

import csv
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _ours(run_dir: Path, slopes):
    """A fake camel-jax run: each seed's log rows at every 1,000 steps, 2 episodes each, return = slope * step."""
    run_dir.mkdir()
    (run_dir / "config.json").write_text(json.dumps({"env": "hopper", "seeds": list(range(len(slopes)))}))
    with open(run_dir / "metrics.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["step", "seed", "episodes", "episode_return", "wall_s"])
        for step in range(1000, 40_001, 1000):
            for seed, slope in enumerate(slopes):
                w.writerow([step, seed, 2, slope * step, step / 100])
    with open(run_dir / "eval.csv", "w", newline="") as f:  # unmasked eval every 10k: 10 * slope * step
        w = csv.writer(f)
        w.writerow(["step", "seed", "return_unmasked"])
        for step in range(10_000, 40_001, 10_000):
            for seed, slope in enumerate(slopes):
                w.writerow([step, seed, 10 * slope * step])


def _reference(path: Path, slopes):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["step", "episodic_return", "seed", "wall_s"])
        for seed, slope in enumerate(slopes):
            for step in range(500, 40_001, 500):
                w.writerow([step, slope * step, seed, step / 50])


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
    # threshold 2000: window ends every 2k, a window's mean step is its end - 1.5k, so slopes 0.10/0.11/0.12 first
    # reach 2000 in the windows ending at 22k, 20k and 20k; the reference never does
    assert camel["seeds_reaching"] == 3 and abs(camel["steps_to_threshold"][0] - 62_000 / 3) < 1e-6
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
