"""Two processes joined by jax.distributed over loopback (each with 2 CPU devices, gloo for the cross-process
collectives) train a tiny MJX config on a ("seeds", "envs") = (2, 2) mesh that spans both: process 0 writes one run
directory, orbax writes both processes' shards of each checkpoint. Everything in it equals, bit for bit (tolerance 0),
a single process with 4 CPU devices on the same mesh: metrics.csv (but the wall-clock columns), actor.msgpack, the
final checkpoint's every leaf and its checksum. The two processes then resume from the sharded checkpoint at step 200
(each restoring its own shards) and end exactly where the uninterrupted run ends.

Against the unsharded single-device run the MJX results are not bit-equal (README, Several devices): hopper physics
computed on a batch cut differently rounds differently and the trajectories drift apart; equality with the unsharded
run to a tolerance is tests/test_sharding.py's job.
"""

import csv
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from camel_jax.core import checkpoint, distributed

ROOT = Path(__file__).resolve().parents[1]
CMD = [sys.executable, "-m", "camel_jax.cli"]
TINY = ["--env", "hopper", "--backend", "mjx", "--prior", "random", "--seeds", "0,1", "--num-envs", "2",
        "--total-steps", "400", "--learning-starts", "200", "--log-every", "100", "--checkpoint-every", "200",
        "--keep-checkpoints", "2", "--batch-size", "32", "--hidden", "32,32", "--eval-episodes", "0",
        "--mesh", "seeds=2,envs=2", "--quiet"]
WALL_CLOCK = ("steps_per_s", "wall_s")
DISTRIBUTED_VARS = ("JAX_COORDINATOR_ADDRESS", "JAX_NUM_PROCESSES", "JAX_PROCESS_ID")


def _env(devices: int, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in DISTRIBUTED_VARS}
    return {**env, "JAX_PLATFORMS": "cpu", "XLA_FLAGS": f"{os.environ.get('XLA_FLAGS', '')} --xla_force_host_platform_device_count={devices}", **extra}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _run(args, logs: Path, processes: int, devices: int, timeout=900):
    """`camel-jax ARGS` in `processes` local processes (one: no jax.distributed); all must exit 0."""
    port = _free_port()  # process 0 serves the coordinator there
    extra = [{}] if processes == 1 else [
        {"JAX_COORDINATOR_ADDRESS": f"127.0.0.1:{port}", "JAX_NUM_PROCESSES": str(processes),
         "JAX_PROCESS_ID": str(k)} for k in range(processes)]
    procs = []
    for k, e in enumerate(extra):
        with open(logs.with_suffix(f".{k}.log"), "w") as f:  # a file, not a pipe: nobody reads it while it runs
            procs.append(subprocess.Popen([*CMD, *map(str, args)], cwd=ROOT, env=_env(devices, **e), stdout=f,
                                          stderr=subprocess.STDOUT))
    try:
        codes = [p.wait(timeout=timeout) for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    tails = "\n".join(logs.with_suffix(f".{k}.log").read_text()[-2000:] for k in range(len(procs)))
    assert codes == [0] * len(procs), tails


def _rows(path: Path) -> list[dict]:
    with open(path) as f:
        return [{k: v for k, v in r.items() if k not in WALL_CLOCK} for r in csv.DictReader(f)]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("distributed")
    two, one = base / "two_processes", base / "one_process"
    _run(["train", *TINY, "--out", two], base / "two", processes=2, devices=2)
    _run(["train", *TINY, "--out", one], base / "one", processes=1, devices=4)
    return two, one


@pytest.mark.heavy  # two processes compile every program each (only process 0 reads the compilation cache)
def test_two_processes_write_one_run_equal_to_one_process_on_the_same_mesh(runs):
    two, one = runs
    assert sorted(os.listdir(two / "checkpoints")) == ["200", "400"]
    rows = _rows(two / "metrics.csv")
    assert [(r["step"], r["seed"]) for r in rows] == [(str(s), str(seed)) for s in (100, 200, 300, 400)
                                                      for seed in (0, 1)]
    assert rows == _rows(one / "metrics.csv")
    assert (two / "actor.msgpack").read_bytes() == (one / "actor.msgpack").read_bytes()
    a, meta_a = checkpoint.load(two)
    b, meta_b = checkpoint.load(one)
    assert meta_a["iteration"] == meta_b["iteration"] == 200 and meta_a["checksum"] == meta_b["checksum"]
    assert sorted(a) == sorted(b) and len(a) > 100
    for k in a:
        assert (a[k] == b[k]).all(), k


@pytest.mark.heavy
def test_two_processes_resume_their_sharded_checkpoint_and_end_where_the_whole_run_ends(runs, tmp_path):
    two, one = runs
    run = tmp_path / "run"
    shutil.copytree(two, run)
    shutil.rmtree(run / "checkpoints" / "400")
    (run / "actor.msgpack").unlink()
    _run(["resume", run, "--quiet", "--truncate"], tmp_path / "resume", processes=2, devices=2)
    assert (run / "actor.msgpack").read_bytes() == (one / "actor.msgpack").read_bytes()
    assert _rows(run / "metrics.csv") == _rows(one / "metrics.csv")
    assert checkpoint.load(run)[1]["checksum"] == checkpoint.load(one)[1]["checksum"]


def test_initialize_reads_the_environment(monkeypatch):
    for name in DISTRIBUTED_VARS:
        monkeypatch.delenv(name, raising=False)
    distributed.initialize()  # nothing set: one process, nothing happens
    assert not __import__("jax").distributed.is_initialized()
    monkeypatch.setenv("JAX_NUM_PROCESSES", "two")
    with pytest.raises(ValueError, match="JAX_NUM_PROCESSES='two' is not a number"):
        distributed.initialize()
