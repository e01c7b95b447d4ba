"""Checkpoints and `camel-jax resume` (MJX, CPU): a training process killed with SIGKILL after its first checkpoint
and then resumed ends exactly (bit for bit, tolerance 0) where an uninterrupted run of the same config ends: final
actor, the complete final training state (critics, targets, optimizer states, RNG keys, replay buffer, MJX env
states) and metrics.csv (all columns but the wall-clock ones). A damaged checkpoint is a one-line error, exit 2.

The uninterrupted run is tests/test_golden.py's td3_mjx arm (conftest.py's golden_run, trained once per session and
shared with test_golden and test_cli_train): the killed run and its resume use the programs it compiled and cached."""

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from test_golden import ARMS

from camel_jax.algos.td3.actor import load_actor
from camel_jax.core import checkpoint, provenance

ROOT = Path(__file__).resolve().parents[1]
CMD = [sys.executable, "-m", "camel_jax.cli"]
TINY = [*ARMS["td3_mjx"], "--quiet"]  # 2 seeds x 2 envs, 1200 steps, checkpoints every 400, evaluated at 1200
WALL_CLOCK = ("steps_per_s", "wall_s")


def _start(*args, log: Path):
    with open(log, "w") as f:  # a file, not a pipe: nobody reads the killed process's output
        return subprocess.Popen([*CMD, *args], cwd=ROOT, stdout=f, stderr=subprocess.STDOUT)


def _finish(proc, log: Path, timeout=600):
    assert proc.wait(timeout=timeout) == 0, log.read_text()[-3000:]


def _camel(*args, timeout=600):
    return subprocess.run([*CMD, *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False)


def _rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def pair(tmp_path_factory, golden_run):
    whole = golden_run("td3_mjx")  # read only (the damage tests below copy what they change)
    base = tmp_path_factory.mktemp("resume")
    killed = base / "killed"
    proc = _start("train", *TINY, "--out", str(killed), log=base / "killed.log")
    deadline = time.time() + 600
    while not (killed / "checkpoints" / "400").is_dir():
        assert proc.poll() is None, (base / "killed.log").read_text()[-3000:]
        assert time.time() < deadline, "no checkpoint after 600 s"
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)  # at once: mid-chunk or mid-save of the next checkpoint
    assert proc.wait() == -signal.SIGKILL
    assert not (killed / "actor.msgpack").exists()
    killed_at = max(int(r["step"]) for r in _rows(killed / "metrics.csv"))
    resumed = _start("resume", str(killed), "--quiet", "--truncate", log=base / "resume.log")  # rows after 400
    _finish(resumed, base / "resume.log")
    return killed, whole, killed_at


def test_killed_and_resumed_run_has_the_uninterrupted_parameters(pair):
    resumed, whole, killed_at = pair
    assert killed_at < 1200
    _, a = load_actor(resumed)
    _, b = load_actor(whole)
    paths_a, leaves_a = zip(*jax.tree_util.tree_flatten_with_path(a)[0])
    paths_b, leaves_b = zip(*jax.tree_util.tree_flatten_with_path(b)[0])
    assert paths_a == paths_b
    for path, x, y in zip(paths_a, leaves_a, leaves_b):
        np.testing.assert_array_equal(np.asarray(x), np.asarray(y), err_msg=jax.tree_util.keystr(path))  # exact
    assert (resumed / "actor.msgpack").read_bytes() == (whole / "actor.msgpack").read_bytes()


def test_killed_and_resumed_run_has_the_uninterrupted_training_state(pair):
    """The final checkpoints: critics, targets, both optimizer states, keys, buffer, env states, every leaf."""
    resumed, whole, _ = pair
    assert sorted(os.listdir(resumed / "checkpoints")) == sorted(os.listdir(whole / "checkpoints")) == ["1200", "800"]
    a, meta_a = checkpoint.load(resumed)
    b, meta_b = checkpoint.load(whole)
    assert meta_a["iteration"] == meta_b["iteration"] == 600 and meta_a["checksum"] == meta_b["checksum"]
    assert sorted(a) == sorted(b) and len(a) > 100
    for k in a:
        np.testing.assert_array_equal(a[k], b[k], err_msg=str(k))


def test_killed_and_resumed_run_has_the_uninterrupted_metrics(pair):
    resumed, whole, _ = pair
    strip = lambda rows: [{k: v for k, v in r.items() if k not in WALL_CLOCK} for r in rows]
    a, b = _rows(resumed / "metrics.csv"), _rows(whole / "metrics.csv")
    assert [(r["step"], r["seed"]) for r in a] == [(str(s), str(seed)) for s in range(200, 1201, 200) for seed in (0, 1)]
    assert strip(a) == strip(b)
    assert [(r["step"], r["seed"]) for r in _rows(whole / "eval.csv")] == [("1200", "0"), ("1200", "1")]
    assert strip(_rows(resumed / "eval.csv")) == strip(_rows(whole / "eval.csv"))  # evaluated after the resume


def test_the_resume_records_its_own_commit_and_versions(pair):
    """versions.json keeps what made the run and appends each resume (a resume may run on another commit)."""
    resumed, _, _ = pair
    made = json.loads((resumed / "versions.json").read_text())
    assert made["command"][1] == "train"
    [resume] = made["resumes"]
    assert resume["from_step"] == 400 and resume["command"][1:3] == ["resume", str(resumed)]
    assert resume["git"] == provenance.git_commit() and resume["packages"]["jax"] == jax.__version__
    assert set(resume["packages"]) <= set(provenance.KEY_PACKAGES)


def _flip_a_byte(step_dir: Path):
    data = max((p for p in (step_dir / "state").rglob("*") if p.is_file()), key=lambda p: p.stat().st_size)
    raw = bytearray(data.read_bytes())
    raw[len(raw) // 2] ^= 0x10
    data.write_bytes(bytes(raw))


@pytest.mark.parametrize("damage", [
    _flip_a_byte,  # orbax reads it without complaint: caught by the checksum
    lambda step_dir: [p.write_bytes(p.read_bytes()[:10]) for p in (step_dir / "state").rglob("*") if p.is_file()],
], ids=["flipped-byte", "truncated-files"])
def test_a_corrupt_checkpoint_is_one_line_exit_2_and_changes_nothing(pair, tmp_path, damage):
    run = tmp_path / "run"
    shutil.copytree(pair[1], run)
    (run / "actor.msgpack").unlink()
    damage(run / "checkpoints" / "1200")
    before = {name: (run / name).read_bytes() for name in ("metrics.csv", "eval.csv")}
    r = _camel("resume", str(run))
    assert r.returncode == 2, (r.returncode, r.stderr[-2000:])
    lines = [ln for ln in r.stderr.strip().splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    assert "checkpoints/1200 is corrupt or incomplete" in lines[0] and "delete" in lines[0], lines[0]
    assert {name: (run / name).read_bytes() for name in before} == before
    assert not (run / "actor.msgpack").exists()


def test_resume_after_the_last_checkpoint_only_writes_the_actor(pair, tmp_path):
    """Killed after the final checkpoint but before actor.msgpack (or during a save: a leftover tmp directory)."""
    run = tmp_path / "run"
    shutil.copytree(pair[1], run)
    (run / "actor.msgpack").unlink()
    (run / "checkpoints" / "1600.orbax-checkpoint-tmp-1234567").mkdir()
    r = _camel("resume", str(run), "--quiet")
    assert r.returncode == 0, r.stderr[-2000:]
    assert (run / "actor.msgpack").read_bytes() == (pair[1] / "actor.msgpack").read_bytes()
    assert sorted(os.listdir(run / "checkpoints")) == ["1200", "800"]
    assert (run / "metrics.csv").read_text() == (pair[1] / "metrics.csv").read_text()


def test_resume_of_a_directory_without_a_run_is_one_line_exit_2(tmp_path):
    r = _camel("resume", str(tmp_path / "nothing"), timeout=120)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "config.json" in r.stderr, r.stderr


def test_a_restored_state_lowers_to_the_fresh_state_s_program(tmp_path):
    """Without a mesh, restored arrays are uncommitted, as a fresh run's state is: a committed one lowers to another
    program (sharding annotations), so a resumed run would compile its training chunk again (an MJX chunk: minutes
    on CPU) instead of loading the fresh run's from the compilation cache."""
    state = {"w": jnp.arange(6.0).reshape(2, 3), "n": jnp.zeros((2,), jnp.int32), "key": jax.random.PRNGKey(0)}
    ckpt = checkpoint.Checkpoints(tmp_path / "run", keep=1)
    ckpt.save(1, 10, state, 0.0)
    ckpt.close()
    template = jax.eval_shape(lambda: state)
    restored, meta = checkpoint.Checkpoints(tmp_path / "run", keep=1).restore(template)
    assert meta["step"] == 10
    for k, x in state.items():
        np.testing.assert_array_equal(restored[k], x)
        assert not restored[k].committed, k
    step = jax.jit(lambda s: jax.tree.map(lambda x: x + 1, s), donate_argnums=0)
    assert step.lower(restored).as_text() == step.lower(state).as_text()
    leading = {k: template[k] for k in ("key", "n")}  # the state's first leaves (a dict flattens by sorted key)
    part, _ = checkpoint.load_leading(tmp_path / "run", 10, leading)  # `eval --step`'s reader
    for k in leading:
        np.testing.assert_array_equal(part[k], state[k])
        assert not part[k].committed, k
    assert step.lower(part).as_text() == step.lower({k: state[k] for k in leading}).as_text()


# --- gymnasium: the episodes in flight at the checkpoint are not continued, so neither are their masked flags ----
def test_gymnasium_resume_draws_fresh_masked_flags_for_the_restarted_episodes(tmp_path):
    """eps0 1 falling to 0 at the checkpoint (step 200): episodes in flight there were mostly drawn masked, and an
    uninterrupted run keeps their flags until they end. A resume resets every env, and episodes started at step
    200 are drawn with eps(200) = 0: none is masked. Carrying the killed episodes' flags would mask them."""
    from camel_jax.algos.td3 import loop
    from camel_jax.algos.td3.config import Config

    run = tmp_path / "run"
    config = Config(env="hopper", backend="gymnasium", prior="random", seeds=(0,), num_envs=8, total_steps=400,
                    learning_starts=300, log_every=8, checkpoint_every=200, keep_checkpoints=2, eval_episodes=0,
                    hidden=(16, 16), batch_size=8, eps0=1.0, mask_fraction=0.5, quiet=True, out=str(run))
    loop.train(config)
    whole = {int(r["step"]): r for r in _rows(run / "metrics.csv")}
    assert float(whole[208]["masked_frac"]) > 0  # the uninterrupted run: in-flight episodes keep their flags
    shutil.rmtree(run / "checkpoints" / "400")
    (run / "actor.msgpack").unlink()  # as if killed after logging step 400, before its checkpoint
    loop.resume(run, truncate=True)  # from the checkpoint at 200: the rows after it are logged again
    resumed = {int(r["step"]): r for r in _rows(run / "metrics.csv")}
    assert sorted(resumed) == sorted(whole) == list(range(8, 401, 8))
    assert all(resumed[s] == whole[s] for s in range(8, 201, 8))
    assert [float(resumed[s]["masked_frac"]) for s in range(208, 401, 8)] == [0.0] * 25
    assert all(resumed[s]["epsilon"] == whole[s]["epsilon"] == "0" for s in range(208, 401, 8))


def _set_column(path: Path, step: int, column: str, values: list[str]):
    """Rewrite `column` of the rows at `step` (in member order) of a CSV."""
    rows = _rows(path)
    mine = iter(values)
    rows = [{**r, column: next(mine)} if int(r["step"]) == step else r for r in rows]
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def test_gymnasium_resume_counts_nonfinite_steps_on_from_the_checkpoint(tmp_path):
    """The `nonfinite` column is a run's cumulative count (MJX restores it with its envs). A resumed gymnasium run
    recreates its envs and must count on from the count logged at its checkpoint, per member, not from 0. The count
    at the checkpoint is set by hand (a short run on Hopper has no non-finite step to count)."""
    from camel_jax.algos.td3 import loop
    from camel_jax.algos.td3.config import Config

    run = tmp_path / "run"
    config = Config(env="hopper", backend="gymnasium", prior="none", seeds=(0, 1), num_envs=2, total_steps=200,
                    learning_starts=150, log_every=50, checkpoint_every=100, eval_episodes=0, hidden=(16, 16),
                    batch_size=8, quiet=True, out=str(run))
    loop.train(config)
    assert {r["nonfinite"] for r in _rows(run / "metrics.csv")} == {"0"}
    _set_column(run / "metrics.csv", 100, "nonfinite", ["3", "5"])  # seed 0, seed 1
    shutil.rmtree(run / "checkpoints" / "200")
    (run / "actor.msgpack").unlink()
    loop.resume(run, truncate=True)
    after = [(int(r["step"]), int(r["seed"]), r["nonfinite"]) for r in _rows(run / "metrics.csv")]
    assert after == [(50, 0, "0"), (50, 1, "0"), (100, 0, "3"), (100, 1, "5"), (150, 0, "3"), (150, 1, "5"),
                     (200, 0, "3"), (200, 1, "5")]
