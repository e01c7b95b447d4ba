"""Defaults that never destroy results: resume and eval leave a finished or checkpoint-less run's CSVs alone, reports
go to new files, validate reads the task from the header, shipped priors resolve by name."""

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from camel_jax.cli import main
from camel_jax.priors import loader
from camel_jax.priors.baselines import resolve
from camel_jax.priors.cli import main as priors_main

ROOT = Path(__file__).resolve().parents[1]
QUICKSTART = ROOT / "bench" / "results" / "quickstart" / "camel"


def _digests(run_dir: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(run_dir.iterdir()) if p.is_file()}


@pytest.fixture
def quickstart(tmp_path) -> Path:
    run = tmp_path / "quickstart"
    shutil.copytree(QUICKSTART, run)
    assert not (run / "actor.msgpack").exists() and not (run / "checkpoints").exists()  # as committed
    return run


def test_resume_and_eval_leave_the_committed_quickstart_untouched(quickstart, capsys):
    before = _digests(quickstart)
    assert main(["resume", str(quickstart)]) == 2
    assert "has finished (60000 of 60000 env steps logged); there is nothing to resume" in capsys.readouterr().err
    assert main(["eval", str(quickstart)]) == 2
    err = capsys.readouterr().err
    assert "finished (60000 of 60000 env steps logged) but has no actor.msgpack" in err and "camel-jax resume" not in err
    assert len(err.strip().splitlines()) == 1
    assert _digests(quickstart) == before and sorted(p.name for p in quickstart.iterdir()) == sorted(before)


def test_resume_refuses_to_cut_rows_logged_after_the_last_checkpoint(quickstart, capsys):
    config = json.loads((quickstart / "config.json").read_text())
    (quickstart / "config.json").write_text(json.dumps({**config, "total_steps": 120_000}))  # unfinished, no checkpoint
    before = _digests(quickstart)
    assert main(["resume", str(quickstart), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "has logged rows up to step 60000 but no checkpoint" in err and "--truncate" in err
    [line] = [ln for ln in err.splitlines() if ln.startswith("camel-jax")]  # the error: one line, after the announce
    assert "--overwrite" in line and "no checkpoint" in line
    assert _digests(quickstart) == before


def test_truncate_names_the_checkpoint_it_would_continue_from_and_cuts_only_when_told(quickstart):
    """runs.truncate, the resume's guard: rows after the last checkpoint are an error naming that checkpoint (or
    saying there is none), and with --truncate they go, the rows up to the checkpoint kept."""
    from camel_jax.core import runs

    (quickstart / "checkpoints" / "20000").mkdir(parents=True)
    with pytest.raises(ValueError, match="up to step 60000 but its last checkpoint is at step 20000; resuming would "
                                         "drop the rows after step 20000"):
        runs.truncate(quickstart, 20_000)
    runs.truncate(quickstart, 20_000, allow=True)
    assert runs.last_logged_step(quickstart) == 20_000
    shutil.rmtree(quickstart / "checkpoints")
    with pytest.raises(ValueError, match="up to step 20000 but no checkpoint"):
        runs.truncate(quickstart, 0)


def test_default_reports_never_replace_an_existing_one(tmp_path, capsys):
    prior = tmp_path / "hopper.py"
    shutil.copy(loader.shipped_prior("hopper"), prior)
    shipped = tmp_path / "hopper_evaluation_gymnasium.md"
    shipped.write_text("the shipped report\n")
    args = ["evaluate", str(prior), "--env", "hopper", "--episodes", "1", "--max-steps", "20", "--backend", "gymnasium"]
    assert priors_main(args) == 0 and priors_main(args) == 0
    assert shipped.read_text() == "the shipped report\n"
    assert "Hopper" in (tmp_path / "hopper_evaluation_gymnasium_2.md").read_text()
    assert (tmp_path / "hopper_evaluation_gymnasium_3.md").is_file()


def test_validate_takes_the_task_from_the_header_and_refuses_a_contradiction(capsys):
    hopper = str(loader.shipped_prior("hopper"))
    assert priors_main(["validate", hopper, "--env", "walker2d"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "is a prior for hopper" in err and "pass --env hopper" in err
    assert "dot_general" not in err
    assert priors_main(["validate", hopper, "--samples", "64"]) == 0
    assert capsys.readouterr().out.startswith(f"{hopper}: valid")


def test_shipped_priors_by_task_name():
    prior = resolve("hopper", "hopper")
    assert prior.source == loader.shipped_prior("hopper").read_text() and prior.fn is not None
    with pytest.raises(ValueError, match="--prior walker2d is the LLM-written prior of walker2d, not of hopper"):
        resolve("walker2d", "hopper")
