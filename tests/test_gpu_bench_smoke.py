"""bench/gpu_throughput.py runs end to end at tiny sizes on CPU (so it cannot rot before a GPU is lent), writes JSON
and markdown, skips warp with its reason where MuJoCo Warp cannot run, and refuses to write CPU figures under
bench/results/."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from camel_jax import envs

ROOT = Path(__file__).resolve().parents[1]
TINY = ["--envs", "hopper", "--impls", "jax,warp", "--num-envs", "4", "--env-steps", "4", "--seeds", "1,2",
        "--trainer-num-envs", "4", "--batch-size", "64", "--chunk", "2", "--reps", "1", "--rep-seconds", "0.1"]


def _bench(*args):
    return subprocess.run([sys.executable, "bench/gpu_throughput.py", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=1200, check=False)


def test_cpu_run_never_writes_under_bench_results():
    committed = ROOT / "bench/results/gpu_throughput.json"
    before = committed.read_bytes() if committed.exists() else None
    r = _bench(*TINY)  # default --out: bench/results/gpu_throughput.json
    assert r.returncode == 2 and "not a GPU figure" in r.stderr
    assert (committed.read_bytes() if committed.exists() else None) == before


@pytest.mark.heavy  # the GPU preset's programs, compiled on a CPU; bench/gpu_throughput.py runs on a lent GPU
def test_tiny_run_writes_every_item(tmp_path):
    out = tmp_path / "gpu.json"
    r = _bench(*TINY, "--out", str(out))
    assert r.returncode == 0, r.stderr[-3000:]
    res = json.loads(out.read_text())
    assert res["device"]["platform"] == "cpu" and "TF32" in res["device"]["tf32_note"]
    assert "matmul_precision_env" in res["device"]
    rows = {r["impl"]: r for r in res["envs"]}
    assert rows["jax"]["env_steps_per_s"]["median"] > 0 and rows["jax"]["env_steps_per_s"]["compile_s"] >= 0
    if "warp" in envs.available_mjx_impls():
        assert rows["warp"]["env_steps_per_s"]["median"] > 0
    else:
        assert "pip install 'camel-jax[cuda]'" in rows["warp"]["skipped"]
    assert [t["seeds"] for t in res["trainer"]] == [1, 2]
    for t in res["trainer"]:
        assert t["env_steps_per_s"]["median"] > 0 and t["updates_per_s"] > 0 and t["buffer_bytes_per_member"] > 0
    assert res["trainer_config"]["batch_size"] == 64 and res["trainer_config"]["updates_per_step"] == 2
    md = out.with_suffix(".md").read_text()
    assert "not on a GPU: these are not GPU figures" in md and "| hopper | jax | 4 |" in md
