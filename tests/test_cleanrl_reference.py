"""bench/cleanrl_reference.py resumes per seed: a stand-in "python" prints CleanRL-like lines, no CleanRL needed."""

import csv
import io
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Stands in for CleanRL's interpreter: answers the version probe (`-c CODE`), and otherwise plays
# td3_continuous_action_jax.py: two episodes and SPS lines, each call logged to $FAKE_LOG; it fails halfway through
# the seed named by $FAKE_FAIL_SEED.
FAKE = '''#!{python}
import json, os, sys
if sys.argv[1] == "-c":
    print(json.dumps({{"gymnasium": "0.29.1", "mujoco": os.environ.get("FAKE_MUJOCO", "3.1.6"), "jax": "0.4.30"}}))
    raise SystemExit(0)
args = sys.argv[2:]
seed, total = int(args[args.index("--seed") + 1]), int(args[args.index("--total-timesteps") + 1])
with open(os.environ["FAKE_LOG"], "a") as f:
    f.write(f"{{seed}}\\n")
if os.environ.get("FAKE_HANG"):
    print(f"global_step=10, episodic_return=[{{seed}}.5]", flush=True)
    open(os.environ["FAKE_HANG"], "w").write(str(os.getpid()))
    import time; time.sleep(120)
for step in range(0, total, 100):
    print(f"SPS: {{100 + step}}")
print(f"global_step=10, episodic_return=[{{seed}}.5]")
if seed == int(os.environ.get("FAKE_FAIL_SEED", "0")):
    print("Traceback: killed halfway")
    raise SystemExit(1)
print(f"global_step=30, episodic_return=[{{seed * 10}}.25]")
'''


def _cmd(tmp_path, *args, **env):
    cmd = [sys.executable, "bench/cleanrl_reference.py", "--cleanrl", str(tmp_path / "cleanrl"), "--python",
           str(tmp_path / "python"), "--out", str(tmp_path / "ref.csv"), "--total-timesteps", "300",
           "--learning-starts", "100", *args]
    env = {"PATH": "/usr/bin:/bin", "FAKE_LOG": str(tmp_path / "calls.log"), "TMPDIR": str(tmp_path),
           "CLEANRL_COMMIT": "abc123", **env}
    return cmd, env


def _run(tmp_path, *args, **env):
    cmd, env = _cmd(tmp_path, *args, **env)
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env, timeout=120, check=False)


def _calls(tmp_path) -> list[int]:
    log = tmp_path / "calls.log"
    seeds = [int(x) for x in log.read_text().split()] if log.is_file() else []
    log.unlink(missing_ok=True)
    return seeds


def _rows(tmp_path) -> list[tuple[int, int, float]]:
    with open(tmp_path / "ref.csv", newline="") as f:
        return [(int(r["seed"]), int(r["step"]), float(r["episodic_return"])) for r in csv.DictReader(f)]


def _setup(tmp_path):
    (tmp_path / "cleanrl" / "cleanrl").mkdir(parents=True)
    (tmp_path / "cleanrl" / "cleanrl" / "td3_continuous_action_jax.py").write_text("# stand-in\n")
    fake = tmp_path / "python"
    fake.write_text(FAKE.format(python=sys.executable))
    fake.chmod(0o755)


def test_resume_skips_finished_seeds_and_reruns_the_interrupted_one(tmp_path):
    _setup(tmp_path)

    r = _run(tmp_path, "--seeds", "1", "2", "3", FAKE_FAIL_SEED="2")  # seed 2 dies: seed 1 is kept, 2's row is not
    assert r.returncode != 0 and "killed halfway" in r.stderr and "for seed 2" in r.stderr
    assert _calls(tmp_path) == [1, 2]
    assert _rows(tmp_path) == [(1, 10, 1.5), (1, 30, 10.25)]
    meta = json.loads((tmp_path / "ref.json").read_text())
    assert [t["seed"] for t in meta["runs"]] == [1] and meta["cleanrl_commit"] == "abc123"
    assert meta["versions"]["mujoco"] == "3.1.6" and meta["total_timesteps"] == 300

    r = _run(tmp_path, "--seeds", "1", "2", "3")  # the same command again: seed 1 skipped, 2 from its start, then 3
    assert r.returncode == 0, r.stderr
    assert "seeds [1] finished; running [2, 3]" in r.stdout
    assert _calls(tmp_path) == [2, 3]
    assert _rows(tmp_path) == [(1, 10, 1.5), (1, 30, 10.25), (2, 10, 2.5), (2, 30, 20.25), (3, 10, 3.5),
                               (3, 30, 30.25)]
    runs = json.loads((tmp_path / "ref.json").read_text())["runs"]
    assert [t["seed"] for t in runs] == [1, 2, 3]
    assert all(t["started_utc"] <= t["finished_utc"] and "--seed" in t["command"] for t in runs)

    before = (tmp_path / "ref.csv").read_text()
    assert _run(tmp_path, "--seeds", "1", "2", "3").returncode == 0 and _calls(tmp_path) == []  # nothing left
    assert (tmp_path / "ref.csv").read_text() == before

    r = _run(tmp_path, "--seeds", "4")  # more seeds into the same files: the finished ones stay
    assert r.returncode == 0 and _calls(tmp_path) == [4]
    assert [s for s, _, _ in _rows(tmp_path)] == [1, 1, 2, 2, 3, 3, 4, 4]

    r = _run(tmp_path, "--seeds", "5", FAKE_MUJOCO="4.0.0")  # other versions: refused, files untouched
    assert r.returncode == 2 and "mujoco" in r.stderr and "--fresh" in r.stderr and _calls(tmp_path) == []
    r = _run(tmp_path, "--seeds", "5", "--total-timesteps", "400")
    assert r.returncode == 2 and "total_timesteps" in r.stderr and _calls(tmp_path) == []
    assert [s for s, _, _ in _rows(tmp_path)] == [1, 1, 2, 2, 3, 3, 4, 4]

    r = _run(tmp_path, "--seeds", "5", "--fresh", FAKE_MUJOCO="4.0.0")  # --fresh starts the files over
    assert r.returncode == 0 and _calls(tmp_path) == [5]
    assert [s for s, _, _ in _rows(tmp_path)] == [5, 5]
    assert json.loads((tmp_path / "ref.json").read_text())["versions"]["mujoco"] == "4.0.0"


def test_sigterm_ends_the_cleanrl_process_and_keeps_finished_seeds(tmp_path):
    _setup(tmp_path)
    assert _run(tmp_path, "--seeds", "1").returncode == 0
    pid_file = tmp_path / "child.pid"
    cmd, env = _cmd(tmp_path, "--seeds", "1", "2", FAKE_HANG=str(pid_file))
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while not pid_file.is_file() or not pid_file.read_text():  # seed 2's stand-in is running
        assert time.time() < deadline and proc.poll() is None
        time.sleep(0.1)
    child = int(pid_file.read_text())
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and "during seed 2" in err and "run the same command again" in err
    assert not Path(f"/proc/{child}").exists()  # killed and reaped before the wrapper exited
    assert [s for s, _, _ in _rows(tmp_path)] == [1, 1]
    assert [t["seed"] for t in json.loads((tmp_path / "ref.json").read_text())["runs"]] == [1]


def _reference(path: Path, seeds: list[int], command: str, **settings) -> Path:
    """A reference CSV + JSON as cleanrl_reference.py writes them: two rows per seed."""
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["step", "episodic_return", "seed", "wall_s"])
        for s in seeds:
            w.writerows([[100, 10.0 * s, s, 1.0], [200, 20.0 * s, s, 2.0]])
    meta = {"algo": "td3", "script": "td3.py", "env_id": "Hopper-v4", "total_timesteps": 200, "learning_starts": 100,
            "cleanrl_commit": "abc", "versions": {"jax": "0.4.30"}, "command": command,
            "runs": [{"seed": s, "wall_s": 2.0} for s in seeds], **settings}
    path.with_suffix(".json").write_text(json.dumps(meta))
    return path


def test_merge_reference_adds_finished_seeds_of_the_same_setting_only(tmp_path):
    """bench/merge_reference.py: another run's finished seeds join the file (rows, runs, merged_from naming both
    commands); another setting, a seed held twice or one not finished is one line, exit 1, the files unchanged."""
    into = _reference(tmp_path / "a.csv", [1, 2], "run A")
    source = _reference(tmp_path / "b.csv", [3, 4], "run B")
    other = _reference(tmp_path / "c.csv", [5], "run C", versions={"jax": "0.10.2"})

    def merge(*args):
        return subprocess.run([sys.executable, str(ROOT / "bench" / "merge_reference.py"), *map(str, args)],
                              check=False, capture_output=True, text=True)

    before = into.read_text(), into.with_suffix(".json").read_text()
    for args, needle in [((into, other), "another versions"), ((into, source, "--seeds", 5), "no finished seed [5]"),
                         ((into, into), "already holds seed [1, 2]")]:
        proc = merge(*args)
        assert proc.returncode == 1 and len(proc.stderr.strip().splitlines()) == 1 and needle in proc.stderr
        assert (into.read_text(), into.with_suffix(".json").read_text()) == before
    proc = merge(into, source, "--seeds", 4)
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(io.StringIO(into.read_text())))
    assert sorted({int(r["seed"]) for r in rows}) == [1, 2, 4] and len(rows) == 6
    meta = json.loads(into.with_suffix(".json").read_text())
    assert [r["seed"] for r in meta["runs"]] == [1, 2, 4]
    assert meta["merged_from"] == {"seeds [1, 2]": "run A", "seeds [4]": "run B"}
    assert merge(into, source, "--seeds", 3).returncode == 0  # a later merge keeps the earlier groups
    assert json.loads(into.with_suffix(".json").read_text())["merged_from"]["seeds [3]"] == "run B"
