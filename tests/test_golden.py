"""Later commits reproduce the first log rows of an earlier version bit for bit (issue #24, item 3).

tests/golden/ holds the metrics.csv and eval.csv of six tiny runs (ARMS: TD3 without a prior and CAMEL with a
committed LLM prior on gymnasium Hopper, TD3 (random masking) on MJX Hopper, PPO on gymnasium and on MJX Hopper, and
an ULTRA-guided PPO refinement of the gymnasium PPO run, issue #25),
each made by the commit that tests/golden/golden.json names for it, with the versions and the machine. Each test reruns one arm through the command line (in this process) and compares
every column of every row as printed, except the wall-clock columns (TIMING) and columns appended after the
fixture's: a change in the numbers, the CSV
layout or the order of the random draws fails here. A deliberate change of the numbers rewrites the fixtures with

    PYTHONPATH=. python tests/test_golden.py --write        # then commit tests/golden/ with the change

and golden.json then names the new commit (the fixtures' commit is the parent of the commit that adds them).
Every run directory records the commit it was made by (versions.json, "git"), so a result names its version.
"""

from __future__ import annotations

import csv
import io
import json
import platform
import subprocess
import sys
from pathlib import Path

import pytest

from camel_jax.core import provenance

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden"
TIMING = ("steps_per_s", "wall_s")  # wall-clock columns: the only ones allowed to differ
CSVS = ("metrics.csv", "eval.csv")
GYM_TD3 = ["--env", "hopper", "--backend", "gymnasium", "--seeds", "0,1", "--total-steps", "2000",
           "--learning-starts", "1000", "--eval-every", "2000", "--eval-episodes", "2"]
# Each arm is trained once per test session (conftest.py's golden_run): tests/test_interrupts.py and
# tests/test_resume.py compare their stopped and resumed runs with the same uninterrupted runs.
MJX_TD3 = ["--env", "hopper", "--backend", "mjx", "--prior", "random", "--seeds", "0,1", "--num-envs", "2",
           "--total-steps", "1200", "--learning-starts", "200", "--log-every", "200", "--checkpoint-every", "400",
           "--keep-checkpoints", "2", "--batch-size", "32", "--hidden", "32,32"]
PPO = ["--algo", "ppo", "--env", "hopper", "--seeds", "0,1", "--num-envs", "2", "--num-steps", "64",
       "--num-minibatches", "4", "--update-epochs", "2", "--total-steps", "384", "--log-every", "128",
       "--checkpoint-every", "256", "--keep-checkpoints", "3", "--eval-every", "384", "--eval-episodes", "2"]
ARMS = {  # camel-jax train arguments of each arm (run from the repository root)
    "td3_gymnasium": [*GYM_TD3, "--prior", "none"],
    "camel_gymnasium": [*GYM_TD3, "--prior", "priors/llm/hopper/imported/answer_3.py"],
    "td3_mjx": [*MJX_TD3, "--eval-every", "1200", "--eval-episodes", "2"],
    "ppo_gymnasium": [*PPO, "--backend", "gymnasium"],
    "ppo_mjx": [*PPO, "--backend", "mjx"],
}
# ULTRA arms: `camel-jax ultra` on the ppo_gymnasium arm's run, without an LLM (the value-drop identifier, the policy
# suggester with the committed LLM prior), then a short RA refinement (ULTRA's guide acting and rewarding). Each
# entry: the refine arguments (after WORK); ULTRA_STAGES: the collect/identify/improve/table stages' (after WORK).
# (An MJX refinement, "--backend", "mjx", is another arm of the same shape: its compile is too slow for CI's budget.)
ULTRA_STAGES = [["collect", "--episodes", "2", "--window-steps", "8"],
                ["identify", "--provider", "value-drop"],
                ["improve", "--provider", "policy", "--policy", "priors/llm/hopper/imported/answer_3.py"],
                ["table", "--match-fraction", "0.5"]]
ULTRA = {"ultra_gymnasium": ["--mode", "RA", "--steps", "128", "--backend", "gymnasium"]}
ARMS.update({arm: ["ultra", *(a for stage in ULTRA_STAGES for a in stage), "refine", *args]
             for arm, args in ULTRA.items()})
# arms in the opt-in tier (CAMEL_JAX_HEAVY_TESTS=1): none. (ppo_mjx there made the suite slower: tests/test_ppo.py's
# MJX run compiles the same training chunk, which it then compiled alone.)
HEAVY: tuple[str, ...] = ()


def train(arm: str, out: Path, extra: tuple[str, ...] = ()) -> Path:
    """Run one arm through `camel-jax train` (an ULTRA arm: `camel-jax ultra`'s stages on the ppo_gymnasium arm's
    run, then `ultra refine`) from the repository root; returns its run dir. An MJX arm trains in a process of its
    own, as a user's run does: a fresh process lowers the same modules every time, so the tests' later processes
    (test_resume's, test_ppo's resumes) load its compiled programs from the cache, where a run inside a pytest worker
    lowers modules that depend on what the worker ran before (docs/contributing.md, Tests). The others (their
    programs compile in seconds) train in this process."""
    import os

    from camel_jax import cli

    if "mjx" in ARMS.get(arm, ()):
        r = subprocess.run([sys.executable, "-m", "camel_jax.cli", "train", *ARMS[arm], *extra, "--quiet", "--out",
                            str(out), "--overwrite"], cwd=ROOT, capture_output=True, text=True, timeout=3600,
                           check=False)
        assert r.returncode == 0, r.stderr[-3000:]
        return out

    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        if arm in ULTRA:
            base, work = out.parent / f"{arm}_base", out.parent / f"{arm}_work"
            train("ppo_gymnasium", base)
            for stage in ULTRA_STAGES:
                args = [stage[0], str(base), "--out", str(work)] if stage[0] == "collect" else [stage[0], str(work)]
                assert cli.main(["ultra", *args, *stage[1:]]) == 0, stage
            rc = cli.main(["ultra", "refine", str(work), *ULTRA[arm], "--quiet", "--out", str(out), "--overwrite"])
        else:
            rc = cli.main(["train", *ARMS[arm], *extra, "--quiet", "--out", str(out), "--overwrite"])
    finally:
        os.chdir(cwd)
    assert rc == 0
    return out


def rows(text: str) -> list[dict]:
    """The CSV's rows without the wall-clock columns, every value as printed."""
    return [{k: v for k, v in r.items() if k not in TIMING} for r in csv.DictReader(io.StringIO(text))]


def header(text: str) -> list[str]:
    return next(csv.reader(io.StringIO(text)))


def differences(expected: str, got: str) -> list[str]:
    """One line per differing header, row count or cell; [] when equal (wall-clock columns ignored). Columns a later
    version appends after the fixture's (eval.csv's `backend`, issue #23) are allowed; the fixture's own columns must
    come first, in order, with the same values."""
    if header(got)[:len(header(expected))] != header(expected):
        return [f"columns {header(got)} do not start with {header(expected)}"]
    a, b = rows(expected), rows(got)
    if len(a) != len(b):
        return [f"{len(b)} rows, expected {len(a)}"]
    return [f"row {i} (step {x.get('step')}, seed {x.get('seed')}) {k}: {y[k]} != {x[k]}"
            for i, (x, y) in enumerate(zip(a, b)) for k in x if x[k] != y[k]]


def manifest() -> dict:
    return json.loads((GOLDEN / "golden.json").read_text())


def simd() -> list[str]:
    """The vector instruction sets of this CPU that XLA's CPU compiler picks its code by (provenance.SIMD): float rows
    are bit for bit only on CPUs with the same ones."""
    return provenance.cpu()["simd"]


def git_head() -> str:
    return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()


@pytest.mark.parametrize("arm", [pytest.param(arm, marks=pytest.mark.heavy) if arm in HEAVY else arm for arm in ARMS])
def test_first_rows_reproduce_the_golden_version_bit_for_bit(arm, golden_run):
    info = manifest()["arms"][arm]
    assert info["args"] == ARMS[arm], "the arm's settings changed: rewrite its fixtures (module docstring)"
    recorded = info["machine"].get("simd")  # fixtures made before it was recorded compare everywhere
    if recorded is not None and recorded != simd():
        pytest.skip(f"{arm}'s fixtures were made on a CPU with {' '.join(recorded)}; this one has {' '.join(simd())}, "
                    "for which XLA compiles other float code: rows compare bit for bit on the recording CPU type only")
    run_dir = golden_run(arm)  # trained once for the suite (conftest.py), shared with test_interrupts and test_resume
    for name in CSVS:
        expected = (GOLDEN / f"{arm}.{name}").read_text()
        got = (run_dir / name).read_text()
        assert len(rows(expected)) >= 2, f"{arm}.{name}: a fixture without rows checks nothing"
        diff = differences(expected, got)
        assert not diff, (f"{arm} {name} differs from the rows of commit {info['commit']}:\n" + "\n".join(diff[:20]))
    versions = json.loads((run_dir / "versions.json").read_text())
    if (ROOT / ".git").exists():  # every run names the commit that made it (versions.json)
        assert versions["git"]["commit"] == git_head()
    else:
        assert versions["git"]["commit"] == "unknown"


def test_the_comparison_ignores_only_the_wall_clock_columns():
    text = "step,seed,steps_per_s,wall_s,q1\n1000,0,10.5,3.2,0.123457\n"
    assert differences(text, text.replace("10.5,3.2", "99,1")) == []
    assert differences(text, text.replace("0.123457", "0.123458")) == [
        "row 0 (step 1000, seed 0) q1: 0.123458 != 0.123457"]
    assert differences(text, text.replace("q1", "q2")) != []
    appended = "step,seed,steps_per_s,wall_s,q1,backend\n1000,0,10.5,3.2,0.123457,gymnasium\n"
    assert differences(text, appended) == []  # a column appended later is allowed, the fixture's are compared
    assert differences(appended, text) != []  # a column dropped is not
    assert differences(text, text + "2000,0,1,1,0.5\n") == ["2 rows, expected 1"]


def write(arms: list[str]) -> None:
    """Rewrite the fixtures of `arms` (all when empty) from this checkout and record, per arm, the commit that made
    them (the checkout should be clean: golden.json notes a dirty camel_jax/), the versions and the machine."""
    import tempfile
    import time
    from importlib.metadata import version

    import jax

    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no", "camel_jax"],
                           capture_output=True, text=True, check=True).stdout.strip()
    cpu = provenance.cpu()["model"] or platform.processor()
    GOLDEN.mkdir(exist_ok=True)
    path = GOLDEN / "golden.json"
    info = json.loads(path.read_text()) if path.is_file() else {
        "about": "fixtures of tests/test_golden.py: the CSVs of each arm and the commit that made them",
        "command": "PYTHONPATH=. python tests/test_golden.py --write [ARM ...]", "arms": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for arm in arms or list(ARMS):
            run_dir = train(arm, Path(tmp) / arm)
            for name in CSVS:
                (GOLDEN / f"{arm}.{name}").write_text((run_dir / name).read_text())
            info["arms"][arm] = {
                "args": ARMS[arm], "commit": git_head(), "camel_jax_dirty": bool(dirty),
                "made_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                "versions": {p: version(p) for p in ("jax", "jaxlib", "mujoco", "mujoco-mjx", "gymnasium", "flax",
                                                     "optax", "numpy")},
                "machine": {"cpu": cpu, "platform": platform.platform(), "devices": len(jax.devices()),
                            "simd": simd()}}
            path.write_text(json.dumps(info, indent=1) + "\n")
            print(f"wrote {arm}", file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1:2] != ["--write"] or not set(sys.argv[2:]) <= set(ARMS):
        raise SystemExit(f"usage: PYTHONPATH=. python tests/test_golden.py --write [ARM ...] (ARM: {', '.join(ARMS)})")
    sys.path.insert(0, str(ROOT / "tests"))
    import conftest  # noqa: F401  (CPU only, the test suite's compilation cache)

    write(sys.argv[2:])
