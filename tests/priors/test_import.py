"""`camel-jax priors import`: LLM answers (markdown, text, Anthropic JSON) become validated jnp candidates, offline."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import io
import re
import shutil
import socket
from pathlib import Path

import numpy as np
import pytest
from priors_testlib import HERE, Replay

import camel_jax
from camel_jax import llm, specs
from camel_jax.priors import importer, load_prior, parse_header, prompt, translate
from camel_jax.priors.cli import main

ANSWERS = HERE / "answers"
HOPPER = specs.load("hopper")
EXPECTED = {  # answer -> (valid, part of the line printed for it)
    "hopper_claude_messages.json": (True, "hopper_claude_messages.py"),
    "hopper_gemini_numpy.md": (True, "hopper_gemini_numpy.py"),
    "hopper_gpt_list_actions.md": (True, "hopper_gpt_list_actions.py"),
    "hopper_jnp_helper.md": (True, "hopper_jnp_helper.py"),
    "hopper_loop_return.txt": (False, "cannot convert mechanically: a `return` inside a `for` loop; the LLM path"),
    "hopper_no_code.md": (False, "no ```python code block defining policy(obs)"),
    "hopper_split_blocks.md": (True, "hopper_split_blocks.py"),
    "hopper_unsafe_helper.md": (False, "`STEP.append(1)` mutates the module-level `STEP`"),
}


def _run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    """One import of the whole answer corpus, with no API key and no network."""
    out = tmp_path_factory.mktemp("imported")
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv(llm.API_KEY_ENV, raising=False)
        mp.setattr(socket.socket, "connect", lambda *a: pytest.fail("import touched the network"))
        paths = sorted(str(p) for p in ANSWERS.iterdir())
        code, stdout, _ = _run("import", *paths, "--env", "hopper", "--out", str(out))
    return out, code, stdout.splitlines()


def test_one_line_per_answer_and_exit_0(imported):
    out, code, lines = imported
    assert code == 0 and len(lines) == len(EXPECTED) + 1
    for line, (name, (valid, part)) in zip(lines, sorted(EXPECTED.items())):
        if valid:
            assert line == f"VALID {out / part}"
        else:
            assert line.startswith(f"INVALID {ANSWERS / name}: ") and part in line
    assert lines[-1] == f"5 of 8 answers valid; report written to {out / importer.REPORT_NAME}"


def test_files_written(imported):
    out, _, _ = imported
    assert sorted(p.name for p in out.iterdir()) == [
        "hopper_claude_messages.py", "hopper_gemini_numpy.py", "hopper_gpt_list_actions.py", "hopper_jnp_helper.py",
        "hopper_loop_return.py.rejected", "hopper_split_blocks.py", "hopper_unsafe_helper.py.rejected",
        importer.REPORT_NAME]  # the answer without code writes nothing


def test_candidates_are_jnp_priors_with_their_provenance(imported):
    out, _, _ = imported
    _, stdout, _ = _run("prompt", "--env", "hopper", "--style", "paper")
    _, template, template_sha = prompt.build_prompt(HOPPER, prompt.PAPER_PROMPT)
    for name, model in [("hopper_claude_messages", "claude-opus-4-1-20250805"), ("hopper_gemini_numpy", "unknown"),
                        ("hopper_gpt_list_actions", "unknown"), ("hopper_jnp_helper", "unknown"),
                        ("hopper_split_blocks", "unknown")]:
        answer = next(ANSWERS.glob(f"{name}.*"))
        text = (out / f"{name}.py").read_text()
        header = parse_header(text)
        assert header["task"] == "hopper" and header["model"].startswith(model)
        assert header["prompt"] == f"priors/prompts/{template.name} sha256:{template_sha}"
        assert header["prompt_text"].startswith(f"sha256:{hashlib.sha256(stdout.encode()).hexdigest()} ")
        assert header["answer"] == f"{answer.name} sha256:{hashlib.sha256(answer.read_bytes()).hexdigest()}"
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", header["date"])
        assert header["validation"].startswith("valid:") and "command: camel-jax priors import " in header["method"]
        assert "import numpy" not in text and "gymnasium" not in text and "np." not in text.replace("jnp.", "")
        policy = load_prior(out / f"{name}.py", "hopper")  # validated again, then jittable
        assert np.asarray(policy(np.zeros(11, np.float32))).shape == (3,)
    assert parse_header((out / "hopper_jnp_helper.py").read_text())["method"].startswith("jnp as written")
    numpy_method = parse_header((out / "hopper_gemini_numpy.py").read_text())["method"]
    assert numpy_method.startswith("NumPy answer translated to jnp mechanically") and "on 10000 rollout" in numpy_method


def test_rejected_code_is_kept_with_the_reason(imported):
    out, _, _ = imported
    text = (out / "hopper_unsafe_helper.py.rejected").read_text()
    assert parse_header(text)["validation"].startswith("invalid: line 6: `STEP.append(1)` mutates")
    assert "STEP = [0]" in text


def test_report(imported):
    out, _, _ = imported
    report = (out / importer.REPORT_NAME).read_text()
    assert report.startswith("# Imported LLM answers: hopper (Hopper-v4)\n")
    assert "Command: `camel-jax priors import " in report and "Prompt (`--style paper`): `priors/prompts/" in report
    rows = [line for line in report.splitlines() if line.startswith("| `")]
    assert len(rows) == len(EXPECTED)
    for row, (name, (valid, _)) in zip(rows, sorted(EXPECTED.items())):
        assert f"`{ANSWERS / name}` | {'valid' if valid else 'invalid'} |" in row
    assert "**5 of 8 answers valid**, 3 invalid." in report


def test_model_option_exit_1_and_stale_files_replaced(tmp_path):
    (tmp_path / "hopper_unsafe_helper.py").write_text("# a stale candidate of an earlier import\n")
    (tmp_path / "hopper_no_code.py.rejected").write_text("# stale\n")
    code, stdout, _ = _run("import", str(ANSWERS / "hopper_unsafe_helper.md"), str(ANSWERS / "hopper_no_code.md"),
                           "--env", "hopper", "--out", str(tmp_path), "--model", "gemini-exp-1206")
    assert code == 1 and stdout.splitlines()[-1].startswith("0 of 2 answers valid")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hopper_unsafe_helper.py.rejected", importer.REPORT_NAME]
    assert parse_header((tmp_path / "hopper_unsafe_helper.py.rejected").read_text())["model"] == "gemini-exp-1206"


@pytest.mark.parametrize("argv, message", [
    (["import", "missing.md", "--env", "hopper", "--out", "{tmp}/out"], "answer file not found: missing.md"),
    (["import", str(ANSWERS / "hopper_no_code.md"), "--env", "hopper"], "import needs --out"),
    (["import", str(ANSWERS / "hopper_no_code.md"), "{tmp}/hopper_no_code.md", "--env", "hopper", "--out", "{tmp}/out"],
     "several answers would become"),
    (["import", str(ANSWERS / "hopper_no_code.md"), "--env", "hopper", "--out", "{package}"],
     "is inside the installed camel_jax package"),
    (["import", str(ANSWERS / "hopper_no_code.md"), "--env", "hopper", "--out", "{tmp}/out", "--llm"],
     f"{llm.API_KEY_ENV} is not set"),
    (["import", str(ANSWERS / "hopper_no_code.md"), "--env", "hopper", "--out", "{tmp}/out", "--style", "numpy"],
     "unknown style 'numpy'; use --style with one of"),
    (["import", str(ANSWERS / "hopper_no_code.md"), "--env", "hopper", "--out", "{tmp}/hopper_no_code.md"],
     "is a file, not a folder"),
    (["prompt", "--env", "cheetah"], "unknown task 'cheetah'"),
])
def test_usage_errors_are_one_line_exit_2_and_write_nothing(tmp_path, monkeypatch, argv, message):
    monkeypatch.delenv(llm.API_KEY_ENV, raising=False)
    shutil.copy(ANSWERS / "hopper_no_code.md", tmp_path / "hopper_no_code.md")
    package = Path(camel_jax.__file__).parent / "_imported"
    code, stdout, err = _run(*[a.format(tmp=tmp_path, package=package) for a in argv])
    assert code == 2 and stdout == "" and message in err
    assert err.count("\n") == 1 and err.startswith("camel-jax priors: error: ")
    assert not (tmp_path / "out").exists() and not package.exists()


def test_llm_translation_over_the_mock_transport(api_key, tmp_path):
    """A NumPy answer the mechanical rewrite cannot convert, translated by the LLM (`--llm`) and certified."""
    replay = Replay("message_translation")
    translator = functools.partial(translate.translate, client=replay.client(), samples=2000)
    rows, _ = importer.import_answers([ANSWERS / "hopper_loop_return.txt"], HOPPER, tmp_path, "paper", None,
                                      translator)
    ((answer, outcome),) = rows
    assert answer == ANSWERS / "hopper_loop_return.txt" and outcome.ok and outcome.path == tmp_path / "hopper_loop_return.py"
    assert outcome.method.startswith("NumPy answer translated to jnp by claude-sonnet-4-6 (priors/prompts/"
                                     "translate_numpy_v1.md sha256:")
    assert (ANSWERS / "hopper_loop_return.txt").read_text().strip() in replay.bodies()[0]["messages"][0]["content"]
