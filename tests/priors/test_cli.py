"""`camel-jax priors ...`: exit codes 0/1/2, one-line results and errors, nothing half-written."""

from __future__ import annotations

import shutil

import pytest
from priors_testlib import CORPUS

from camel_jax import llm
from camel_jax.priors import parse_header
from camel_jax.priors.cli import main

GOOD = CORPUS / "good" / "hopper_pd_where.py"
TIPS = CORPUS / "good" / "hopper_numpy_constants.py"
BAD = CORPUS / "bad" / "import_os.py"


def _run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _one_line_error(err: str) -> bool:
    return err.count("\n") == 1 and err.startswith("camel-jax priors: error: ") and "Traceback" not in err


def test_validate_valid_and_invalid(capsys):
    code, out, _ = _run(capsys, "validate", str(GOOD), "--env", "hopper")
    assert code == 0 and out.count("\n") == 1 and out.startswith(f"{GOOD}: valid: ")
    code, out, _ = _run(capsys, "validate", str(BAD), "--env", "hopper")
    assert code == 1 and out == f"{BAD}: invalid: line 2: `import os` is not allowed; the only imports allowed are " \
                               "`import jax.numpy as jnp`, `import numpy as np` and `import math`\n"


@pytest.mark.parametrize("argv, message", [
    (["validate", "missing.py", "--env", "hopper"], "prior file not found: missing.py"),
    (["validate", str(GOOD), "--env", "cheetah"], "unknown task 'cheetah'; use --env with one of"),
    (["validate", str(GOOD)], "has no `# task:` header; name its task with --env"),
    (["evaluate", "missing.py", "--env", "hopper"], "prior file not found"),
    (["translate", "missing.py", "--env", "hopper", "--no-llm"], "prior file not found"),
    (["validate", str(GOOD), "--env", "hopper", "--timeout", "0"], "--timeout 0.0: use a positive number"),
    (["frobnicate"], "unknown command 'frobnicate'"),
])
def test_usage_and_setup_errors_are_one_line_exit_2(capsys, argv, message):
    code, out, err = _run(capsys, *argv)
    assert code == 2 and _one_line_error(err) and message in err and out == ""


def test_generate_without_key_writes_nothing(capsys, monkeypatch, tmp_path):
    monkeypatch.delenv(llm.API_KEY_ENV, raising=False)
    code, _, err = _run(capsys, "generate", "--env", "hopper", "--out", str(tmp_path))
    assert code == 2 and _one_line_error(err) and f"{llm.API_KEY_ENV} is not set" in err
    assert list(tmp_path.iterdir()) == []


def test_help_exits_0(capsys):
    code, out, _ = _run(capsys, "evaluate", "--help")
    assert code == 0 and "--episodes" in out and "(default: 10)" in out


def test_translate_mechanical_writes_a_certified_prior(capsys, monkeypatch, tmp_path):
    monkeypatch.delenv(llm.API_KEY_ENV, raising=False)
    source = tmp_path / "hopper_numpy.py"
    shutil.copy(CORPUS / "numpy" / "hopper_pd_branches.py", source)
    code, out, _ = _run(capsys, "translate", str(source), "--env", "hopper", "--no-llm", "--samples", "2000")
    assert code == 0 and "mechanical translation, equivalent within" in out
    header = parse_header((tmp_path / "hopper_numpy_jnp.py").read_text())
    assert header["task"] == "hopper" and header["model"] == "mechanical translation of hopper_numpy.py"
    assert "equal to hopper_numpy.py within" in header["validation"]
    code, out, _ = _run(capsys, "translate", str(CORPUS / "numpy" / "hopper_loop_return.py"), "--env", "hopper",
                        "--no-llm", "--samples", "2000", "--out", str(tmp_path / "x.py"))
    assert code == 1 and "not translated: mechanical conversion failed" in out and not (tmp_path / "x.py").exists()


def test_evaluate_writes_report_and_returns(capsys, tmp_path):
    for p in (GOOD, TIPS, BAD):
        shutil.copy(p, tmp_path / p.name)
    files = [str(tmp_path / p.name) for p in (TIPS, GOOD, BAD)]
    report = tmp_path / "report.md"
    code, out, _ = _run(capsys, "evaluate", *files, "--env", "hopper", "--backend", "gymnasium", "--episodes", "2",
                        "--max-steps", "30", "--report", str(report), "--write-return")
    assert code == 0 and report.read_text() in out and f"report written to {report}" in out
    assert "Command: `camel-jax priors evaluate " in report.read_text()
    assert float(parse_header((tmp_path / GOOD.name).read_text())["return"].split()[0]) > 25
    assert "# camel-jax prior" not in (tmp_path / BAD.name).read_text()  # rejected files are left alone
