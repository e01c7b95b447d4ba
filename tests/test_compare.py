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


def _reference(path: Path, slopes):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["step", "episodic_return", "seed", "wall_s"])
        for seed, slope in enumerate(slopes):
            for step in range(500, 40_001, 500):
                w.writerow([step, slope * step, seed, step / 50])


def test_compare_table_against_hand_computed_values(tmp_path):
    _ours(tmp_path / "camel", [0.10, 0.11, 0.12])
    _reference(tmp_path / "ref.csv", [0.05, 0.05, 0.05])
    r = subprocess.run([sys.executable, "bench/compare.py", "--run", f"CAMEL={tmp_path / 'camel'}", "--reference",
                        f"REF={tmp_path / 'ref.csv'}", "--at", "20000,40000", "--window", "4000", "--threshold",
                        "2000", "--out", str(tmp_path / "cmp")], cwd=ROOT, capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    out = json.loads((tmp_path / "cmp.json").read_text())
    camel, ref = out["methods"]
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
    assert (tmp_path / "cmp.png").stat().st_size > 10_000


def test_compare_help_and_bad_input():
    r = subprocess.run([sys.executable, "bench/compare.py", "--help"], cwd=ROOT, capture_output=True, text=True, check=False)
    assert r.returncode == 0 and "--reference" in r.stdout and "--budget" in r.stdout
    r = subprocess.run([sys.executable, "bench/compare.py", "--run", "X=/no/such/run", "--out", "/tmp/x"], cwd=ROOT,
                       capture_output=True, text=True, check=False)
    assert r.returncode == 2 and "does not exist" in r.stderr and "Traceback" not in r.stderr
