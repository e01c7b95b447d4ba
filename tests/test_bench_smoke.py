"""`bench/throughput.py --quick` runs end to end and writes every section with positive rates.

MJX compiles dominate the run: about 2 minutes cold on a shared 2-core CPU. The persistent XLA cache that conftest.py
sets, which the subprocess inherits, brings a repeated run to about 40 s.
"""

import importlib.util
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


@pytest.mark.heavy
def test_step_parts_times_every_part_of_the_block():
    """bench/step_parts.py at one round of one block: every part of the gymnasium block compiles, runs and is timed
    (the figures themselves are docs/benchmarks/speed.md's, from its full command)."""
    cmd = [sys.executable, "bench/step_parts.py", "--rounds", "1", "--blocks", "1"]
    out = subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True, timeout=600).stdout
    table = out.split("ms per env step")[1].splitlines()[1:]
    parts = {line.split()[0]: float(line.split()[1]) for line in table if line.startswith("  ") and "[" in line}
    assert set(parts) == {"ceiling", "vmap", "learn_act", "callback", "unordered", "scalar", "bare", "block"}, out
    assert all(ms > 0 for ms in parts.values()), out
    assert "C MuJoCo's GymVecEnv.step alone:" in out


def _whole_run():
    spec = importlib.util.spec_from_file_location("bench_whole_run", ROOT / "bench" / "whole_run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_whole_run_labels_each_cleanrl_venv_from_its_versions():
    """A CleanRL interpreter is "the same JAX as ours" when its jax and jaxlib are ours, "CleanRL's pinned set" when
    it matches bench/reference/venvs/cleanrl.txt, and neither otherwise (here: jax 0.7.1)."""
    w = _whole_run()
    pinned = w.pinned_versions()
    assert pinned["jax"] == "0.4.30" and pinned["gymnasium"] == "0.29.1" and pinned["mujoco"] == "3.1.6"
    ours = {"jax": "0.10.2", "jaxlib": "0.10.2", "flax": "0.12.8", "numpy": "2.4.6"}
    clean = {k: pinned[k] for k in w.PINNED_KEYS}
    assert w.jax_label(clean, ours, pinned) == "CleanRL's pinned set"
    assert w.jax_label({**clean, "jax": "0.10.2", "jaxlib": "0.10.2"}, ours, pinned) == "the same JAX as ours"
    assert w.jax_label({**clean, "mujoco": "4.0.0"}, ours, pinned).startswith("neither")  # not the pinned set
    other = w.jax_label({**clean, "jax": "0.7.1", "jaxlib": "0.7.1"}, ours, pinned)
    assert other.startswith("neither") and "0.10.2" in other and "0.4.30" in other
    frozen = ROOT / "bench" / "reference" / "venvs" / "cleanrl_jaxnow.txt"  # the committed venv is ours' JAX
    assert w.jax_label(w.pinned_versions(frozen), ours, pinned) == "the same JAX as ours"


def test_whole_run_summary_and_markdown_give_each_cleanrl_variant_its_jax_and_ratios():
    """Two CleanRL variants from a synthetic run: the ratios (CleanRL's median wall / ours) against each, per pair
    and of the medians, and each variant's JAX version and set in the markdown."""
    w = _whole_run()
    walls = {"cleanrl": [80.0, 70.0, 75.0], "cleanrl_current": [60.0, 66.0, 63.0], "cold": [50.0, 52.0, 48.0],
             "warm": [40.0, 44.0, 42.0]}
    runs = {v: [{"wall_s": x, "steady_steps_per_s": 100.0, "command": f"{v} cmd"} for x in ws]
            for v, ws in walls.items()}
    pinned = {"jax": "0.4.30", "jaxlib": "0.4.30", "flax": "0.8.5", "numpy": "1.26.4", "gymnasium": "0.29.1",
              "mujoco": "3.1.6"}
    now = {**pinned, "jax": "0.10.2", "jaxlib": "0.10.2", "flax": "0.12.8", "numpy": "2.4.6"}
    cleanrl = {"cleanrl": {"python": "/a/python", "versions": pinned, "set": "CleanRL's pinned set"},
               "cleanrl_current": {"python": "/b/python", "versions": now, "set": "the same JAX as ours"}}
    s = w.summarize(runs, cleanrl)
    assert s["cold"]["speed_vs_cleanrl"] == 1.5 and s["warm"]["speed_vs_cleanrl"] == round(75 / 42, 3)  # 75 / 50
    assert s["cold"]["speed_vs_cleanrl_current"] == 1.26 and s["warm"]["speed_vs_cleanrl_current"] == 1.5  # 63 / 42
    assert s["cold"]["per_pair_speed_vs_cleanrl"] == [1.6, round(70 / 52, 3), round(75 / 48, 3)]
    assert s["warm"]["per_pair_speed_vs_cleanrl_current"] == [1.5, 1.5, 1.5]
    assert s["cleanrl"]["jax"] == "0.4.30" and s["cleanrl_current"]["jax"] == "0.10.2"
    assert s["cleanrl_current"]["set"] == "the same JAX as ours"
    machine = {"cpu_model": "cpu", "cpu_count": 2, "loadavg_start": [1.0, 1.0, 1.0], "versions": now}
    md = w.render({"summary": s, "machine": machine, "argv": ["bench/whole_run.py"],
                   "settings": {"env": "hopper", "total_steps": 11000, "learning_starts": 1000}})
    assert "| cleanrl | CleanRL's pinned set | 0.4.30 | 0.4.30 | 0.8.5 |" in md
    assert "| cleanrl_current | the same JAX as ours | 0.10.2 | 0.10.2 | 0.12.8 |" in md
    assert "| cold | cleanrl | jax 0.4.30 (CleanRL's pinned set) | 1.5 | 1.6, 1.346, 1.562 |" in md
    assert "| warm | cleanrl_current | jax 0.10.2 (the same JAX as ours) | 1.5 | 1.5, 1.5, 1.5 |" in md
    assert "Against `cleanrl` (CleanRL's pinned set, jax 0.4.30): cold 1.5x, warm 1.786x." in md
    assert "Against `cleanrl_current` (the same JAX as ours, jax 0.10.2): cold 1.26x, warm 1.5x." in md
    assert "Machine: cpu, 2 cores," in md  # a result from before the CPU's vector sets were recorded
    md = w.render({"summary": s, "machine": {**machine, "cpu_simd": ["avx", "avx2", "avx512f"]},
                   "argv": ["bench/whole_run.py"], "settings": {"env": "hopper", "total_steps": 11000,
                                                               "learning_starts": 1000}})
    assert "Machine: cpu (avx avx2 avx512f), 2 cores," in md  # two "AMD EPYC" machines ran 2x apart


def test_env_steps_benchmark_tables_each_backend_and_env_count(tmp_path):
    """bench/env_steps.py (issue #26's env steps/s) at a tiny size on the gymnasium backend (its MJX cases compile for
    minutes): one row per env count, a rate per repetition, the median among them, the versions and the command."""
    out = tmp_path / "env_steps.json"
    cmd = [sys.executable, "bench/env_steps.py", "--env", "hopper", "--backends", "gymnasium", "--num-envs", "1,3",
           "--steps", "20", "--reps", "2", "--out", str(out)]
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300, env=os.environ.copy(), check=False)
    assert r.returncode == 0, r.stderr[-3000:]
    res = json.loads(out.read_text())
    assert [(x["backend"], x["num_envs"]) for x in res["results"]] == [("gymnasium", 1), ("gymnasium", 3)]
    for x in res["results"]:
        assert len(x["rates"]) == 2 and all(_positive(v) for v in x["rates"])
        assert min(x["rates"]) <= x["median"] <= max(x["rates"])
    assert res["versions"]["mujoco"] and res["versions"]["gymnasium"] and "--env hopper" in res["command"]
    assert res["reps_done"] == 2 and res["steps"]["gymnasium"] == 20
    table = out.with_suffix(".md").read_text()
    assert table.count("\n| gymnasium | ") == 2
