"""`camel-jax sweep`: Hyper fields and seeds share one program; other settings become runs of their own. The commands
run in this process (`camel_jax.cli.main`, output captured): a subprocess would only add its imports (issue #27)."""

import contextlib
import csv
import io
import json
import types

import numpy as np
import pytest

from camel_jax.algos.td3.actor import load_actor
from camel_jax.algos.td3.config import Config
from camel_jax.cli import main
from camel_jax.core.sweep import plan, split_seeds

# the plain run's --hidden 32,32 is the sweep's second program (its --grid overrides it)
TINY = ["--total-steps", "200", "--learning-starts", "100", "--log-every", "100", "--eval-every", "200",
        "--batch-size", "16", "--hidden", "32,32", "--quiet"]


def camel(*args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return types.SimpleNamespace(returncode=code, stdout=out.getvalue(), stderr=err.getvalue())


GYM = ["--env", "hopper", "--backend", "gymnasium", "--prior", "priors/tuned/hopper.py", "--eval-episodes", "0"]


def test_plan_splits_hyper_fields_from_program_settings():
    _root, configs = plan(Config(grid=("delta=0.1,0.3", "hidden=16-16,32-32", "learning_rate=1e-4"), seeds=(0, 1),
                                out="/tmp/sw"))
    assert [c.out for c in configs] == ["/tmp/sw/hidden=16-16_learning_rate=0.0001",
                                        "/tmp/sw/hidden=32-32_learning_rate=0.0001"]
    assert [c.hidden for c in configs] == [(16, 16), (32, 32)] and configs[0].learning_rate == 1e-4
    assert all(c.grid == ("delta=0.1,0.3",) for c in configs)
    assert [m["delta"] for m in configs[0].members()] == [0.1, 0.1, 0.3, 0.3]
    np.testing.assert_allclose(configs[0].member_hypers().delta, [0.1, 0.1, 0.3, 0.3])


@pytest.mark.parametrize("grid,needle", [("seeds=1,2", "list seeds with --seeds"), ("widthh=1", "unknown setting"),
                                         ("hidden=big", "not a valid"), ("delta=", "lists no values")])
def test_bad_grid_is_a_value_error(grid, needle):
    with pytest.raises(ValueError, match=needle):
        Config(grid=(grid,)).check() if grid.startswith("delta") else plan(Config(grid=(grid,)))


def test_sweep_runs_one_program_per_setting_and_members_match_a_plain_run(tmp_path):
    out = tmp_path / "sweep"
    r = camel("sweep", *GYM, "--seeds", "0,1", "--grid", "delta=0.3,0.1", "hidden=16-16,32-32", "--out", str(out),
              "--procs", "1", *TINY)
    assert r.returncode == 0, r.stderr[-2000:]
    assert json.loads((out / "sweep.json").read_text())["runs"] == ["hidden=16-16", "hidden=32-32"]
    with open(out / "hidden=32-32" / "metrics.csv") as f:
        rows = list(csv.DictReader(f))
    assert [(r["seed"], r["delta"]) for r in rows[:4]] == [("0", "0.3"), ("1", "0.3"), ("0", "0.1"), ("1", "0.1")]
    # member 0 of the 32-32 program (seed 0, delta 0.3) trains exactly what a plain run with those settings trains
    plain = tmp_path / "plain"
    r = camel("train", *GYM, "--seeds", "0", "--delta", "0.3", "--out", str(plain), *TINY)
    assert r.returncode == 0, r.stderr[-2000:]
    _, swept = load_actor(out / "hidden=32-32")
    _, alone = load_actor(plain)
    for a, b in zip(jax_leaves(swept), jax_leaves(alone)):
        np.testing.assert_allclose(a[0], b[0], rtol=1e-4, atol=1e-5)
    assert not np.allclose(jax_leaves(swept)[0][0], jax_leaves(swept)[0][2])  # delta 0.3 and 0.1 differ


def test_existing_sweep_dir_is_refused(tmp_path):
    (tmp_path / "sweep").mkdir()
    r = camel("sweep", *GYM, "--grid", "delta=0.1", "--out", str(tmp_path / "sweep"), *TINY)
    assert r.returncode == 2 and "--overwrite" in r.stderr and "Traceback" not in r.stderr


def test_split_seeds_makes_one_run_per_group_only_when_runs_are_fewer_than_processes():
    one = Config(seeds=tuple(range(10)), out="/tmp/sw/all")
    assert [(c.out, c.seeds) for c in split_seeds([one], 2)] == [("/tmp/sw/seeds=0-4", (0, 1, 2, 3, 4)),
                                                                  ("/tmp/sw/seeds=5-9", (5, 6, 7, 8, 9))]
    odd = Config(seeds=(3, 5, 6), out="/tmp/sw/hidden=32-32")
    assert [(c.out, c.seeds) for c in split_seeds([odd], 2)] == [("/tmp/sw/hidden=32-32_seeds=3", (3,)),
                                                                  ("/tmp/sw/hidden=32-32_seeds=5-6", (5, 6))]
    two = [one, odd]
    assert split_seeds(two, 2) == two and split_seeds([one], 1) == [one]
    assert [c.seeds for c in split_seeds([Config(seeds=(0,), out="/tmp/a")], 2)] == [(0,)]


def test_sweep_in_two_processes_trains_what_one_program_trains_and_resumes(tmp_path):
    """--procs 2 with one setting: two runs of one seed each, trained side by side in child processes; each seed's
    final actor is the plain two-seed run's member of that seed. A run removed from the sweep (never begun) is
    trained by camel-jax resume SWEEP; a finished sweep is then nothing to resume."""
    plain = tmp_path / "plain"
    r = camel("train", *GYM, "--seeds", "0,1", "--out", str(plain), *TINY)
    assert r.returncode == 0, r.stderr[-2000:]
    out = tmp_path / "sweep"
    r = camel("sweep", *GYM, "--seeds", "0,1", "--procs", "2", "--out", str(out), *TINY[:-1])
    assert r.returncode == 0, r.stderr[-2000:] + r.stdout[-2000:]
    record = json.loads((out / "sweep.json").read_text())
    assert record["runs"] == ["seeds=0", "seeds=1"] and record["procs"] == 2
    assert "2 runs, 2 processes side by side" in r.stdout and "train seeds=1: finished" in r.stdout
    log = (out / "seeds=0.log").read_text()  # the child's console: quiet like the parent's (no v4 notice, no ANSI)
    assert "out of date" not in log and "\x1b[" not in log and "task: Hopper-v4" in log, log[:2000]
    _, whole = load_actor(plain)
    for k in (0, 1):
        with open(out / f"seeds={k}" / "metrics.csv") as f:
            assert {row["seed"] for row in csv.DictReader(f)} == {str(k)}
        _, part = load_actor(out / f"seeds={k}")
        for a, b in zip(jax_leaves(part), jax_leaves(whole)):
            np.testing.assert_allclose(a[0], b[k], rtol=1e-4, atol=1e-5)
    kept = jax_leaves(load_actor(out / "seeds=1")[1])
    import shutil

    shutil.rmtree(out / "seeds=1")
    r = camel("resume", str(out))
    assert r.returncode == 0, r.stderr[-2000:] + r.stdout[-2000:]
    assert "train seeds=1: started" in r.stdout and "seeds=0" not in r.stdout  # the finished run is kept
    for a, b in zip(jax_leaves(load_actor(out / "seeds=1")[1]), kept):
        np.testing.assert_array_equal(a, b)
    r = camel("resume", str(out))
    assert r.returncode == 2 and "nothing to resume" in r.stderr and "Traceback" not in r.stderr


def test_bad_procs_is_one_line(tmp_path):
    r = camel("sweep", *GYM, "--procs", "0", "--out", str(tmp_path / "s"), *TINY)
    assert r.returncode == 2 and "--procs '0'" in r.stderr and not (tmp_path / "s").exists()


def jax_leaves(tree):
    import jax

    return [np.asarray(x) for x in jax.tree.leaves(tree)]


PPO = ["--algo", "ppo", "--env", "hopper", "--backend", "gymnasium", "--num-envs", "2", "--num-steps", "32",
       "--num-minibatches", "4", "--update-epochs", "2", "--total-steps", "128", "--log-every", "64",
       "--eval-every", "128", "--eval-episodes", "0", "--hidden", "16,16", "--quiet"]


def ppo_policy(run_dir):
    from flax import serialization

    return serialization.msgpack_restore((run_dir / "actor.msgpack").read_bytes())["params"]


def test_ppo_grid_members_share_one_program_and_match_plain_runs(tmp_path):
    """PPO gets the shell's --grid (issue #25): ppo.Hyper's fields vary inside one program, member by member, and a
    member trains what a plain run with its settings trains; `camel-jax sweep --algo ppo` splits other settings."""
    out = tmp_path / "grid"
    r = camel("train", *PPO, "--seeds", "0,1", "--grid", "clip_coef=0.3,0.05", "ent_coef=0,0.5", "--out", str(out))
    assert r.returncode == 0, r.stderr[-2000:]
    with open(out / "metrics.csv") as f:
        rows = list(csv.DictReader(f))
    members = [(int(r["seed"]), float(r["clip_coef"]), float(r["ent_coef"])) for r in rows[:8]]
    assert members == [(s, c, e) for c in (0.3, 0.05) for e in (0.0, 0.5) for s in (0, 1)]
    plain = tmp_path / "plain"
    r = camel("train", *PPO, "--seeds", "1", "--clip-coef", "0.05", "--ent-coef", "0.5", "--out", str(plain))
    assert r.returncode == 0, r.stderr[-2000:]
    swept, alone = jax_leaves(ppo_policy(out)), jax_leaves(ppo_policy(plain))
    for a, b in zip(swept, alone):  # member 7: seed 1, clip 0.05, entropy 0.5
        np.testing.assert_allclose(a[7], b[0], rtol=1e-4, atol=1e-5)
    assert not np.allclose(swept[0][1], swept[0][7])  # the same seed under other settings learns otherwise


def test_ppo_sweep_splits_program_settings(tmp_path):
    out = tmp_path / "sweep"
    r = camel("sweep", *PPO, "--seeds", "0", "--grid", "gae_lambda=0.9,0.95", "num_steps=32,64", "--out", str(out))
    assert r.returncode == 0, r.stderr[-2000:]
    assert json.loads((out / "sweep.json").read_text())["runs"] == ["num_steps=32", "num_steps=64"]
    for name in ("num_steps=32", "num_steps=64"):
        with open(out / name / "metrics.csv") as f:
            assert {float(r["gae_lambda"]) for r in csv.DictReader(f)} == {0.9, 0.95}
    bad = camel("train", *PPO, "--grid", "num_steps=32,64", "--out", str(tmp_path / "bad"))
    assert bad.returncode == 2 and "cannot vary inside one program of ppo" in bad.stderr
    assert "Traceback" not in bad.stderr and not (tmp_path / "bad").exists()
