"""`bench/throughput.py --quick` runs end to end and writes every section with positive rates.

MJX compiles dominate the run: about 2 minutes cold on a shared 2-core CPU. The persistent XLA cache that conftest.py
sets, which the subprocess inherits, brings a repeated run to about 40 s.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _positive(x) -> bool:
    return isinstance(x, (int, float)) and x > 0


@pytest.mark.heavy  # the benchmark's fixed sizes (CleanRL's networks and batch) on MJX and gymnasium
def test_quick_benchmark_writes_all_sections(tmp_path):
    out = tmp_path / "throughput.json"
    cmd = [sys.executable, "bench/throughput.py", "--quick", "--out", str(out), "--rep-seconds", "0.2"]
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=900, env=os.environ.copy(), check=False)
    assert r.returncode == 0, r.stderr[-3000:]
    res = json.loads(out.read_text())
    assert out.with_suffix(".md").read_text().count("\n| (") >= 8

    m = res["machine"]
    assert m["cpu_count"] >= 1 and m["versions"]["jax"] and m["versions"]["mujoco"] and m["devices"]

    a = res["a_gymnasium"]
    assert a["settings"]["batch_size"] == 256 and tuple(a["settings"]["hidden"]) == (256, 256)
    assert a["settings"]["num_envs"] == 1 and a["settings"]["updates_per_step"] == 1
    assert a["settings"]["policy_frequency"] == 2
    assert _positive(a["env_steps_per_s"]["median"]) and _positive(a["gym_env_only_steps_per_s"]["median"])
    assert all(_positive(v) for v in a["compile_s"].values())
    assert all(_positive(v) for v in a["breakdown_ms_per_step"].values())

    b = res["b_update_only"]
    for k in ("learn_scanned", "update_scanned"):
        assert _positive(b[k]["median"]) and len(b[k]["reps"]) >= 2
    assert _positive(b["ratio_a_over_learn_scanned"]) and _positive(b["ratio_a_over_update_scanned"])

    assert [c["num_envs"] for c in res["c_mjx"]] == [1]
    for c in res["c_mjx"]:
        assert _positive(c["train_env_steps_per_s"]["median"]) and _positive(c["env_only_steps_per_s"]["median"])
        assert _positive(c["train_updates_per_s"])

    d = res["d_seeds"]
    assert [x["seeds"] for x in d] == [1, 2]
    assert all(_positive(x["transitions_per_s"]["median"]) and _positive(x["ratio_to_1_seed"]) for x in d)
    assert d[0]["ratio_to_1_seed"] == pytest.approx(1.0)


@pytest.mark.heavy
def test_whole_run_benchmark_runs_end_to_end(tmp_path):
    """bench/whole_run.py at a tiny size, ours only (no CleanRL checkout here): cold and warm, JSON and markdown.
    Small networks and batches (through --ours-args) and log rows every 100 steps: two rows past learning_starts +
    1000 give the steady rate."""
    out = tmp_path / "whole.json"
    cmd = [sys.executable, "bench/whole_run.py", "--pairs", "1", "--total-steps", "1300", "--learning-starts", "100",
           "--ours-args=--hidden=32,32", "--ours-args=--batch-size=32", "--ours-args=--log-every=100", "--out", str(out)]
    subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True, timeout=600)
    result = json.loads(out.read_text())
    for variant in ("cold", "warm"):
        row = result["summary"][variant]
        assert row["median_wall_s"] > 0 and row["median_steady_steps_per_s"] > 0
        assert row["command"].startswith("camel-jax train --env hopper --backend gymnasium --prior none")
        assert row["command"].endswith("--hidden=32,32 --batch-size=32 --log-every=100")
    assert "| warm |" in out.with_suffix(".md").read_text()
