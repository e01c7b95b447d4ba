"""Every prior file shipped in priors/ has a complete provenance header that matches the file and passes validation:
the default, LLM-written priors (priors/llm/TASK/selected.py, each the answer its committed selection report chose)
and the controllers searched for or written by hand in simulation (priors/tuned/), each stating its search cost."""

from __future__ import annotations

import hashlib
import re

import pytest

from camel_jax import specs
from camel_jax.priors import kinds, loader, parse_header, prompt, validate_file

PRIORS = specs.data_dir("priors")
SELECTED = sorted(PRIORS.glob("llm/*/selected.py"))
TUNED = sorted((PRIORS / "tuned").glob("*.py"))
SHIPPED = SELECTED + TUNED


def test_every_task_has_an_llm_default_and_a_tuned_controller():
    assert {p.parent.name for p in SELECTED} == set(specs.available())
    assert {p.stem for p in TUNED} >= set(specs.available())
    assert not list(PRIORS.glob("*.py"))  # nothing at priors/<task>.py: that name meant the tuned one before
    for task in specs.available():
        assert loader.prior_path(task) == loader.shipped_prior(task) == PRIORS / "llm" / task / "selected.py"
        assert loader.prior_path(f"tuned:{task}") == PRIORS / "tuned" / f"{task}.py"


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_header_matches_the_file(path):
    header = parse_header(path.read_text())
    assert header["task"] in specs.available()
    for key in ("model", "date", "validation", "return", "method", "kind", "search"):
        assert header.get(key), f"{path.name}: empty or missing '# {key}:' line"
    assert re.match(r"-?\d+(\.\d+)? \+- \d+(\.\d+)? over \d+ episodes", header["return"]), header["return"]
    shown, _, digest = header["prompt"].partition(" sha256:")
    template = prompt.prompt_file(shown.rpartition("/")[2])
    assert prompt.display_path(template) == shown
    assert hashlib.sha256(template.read_bytes()).hexdigest() == digest


@pytest.mark.parametrize("path", TUNED, ids=lambda p: p.name)
def test_tuned_controllers_state_their_kind_and_search_cost(path):
    header = parse_header(path.read_text())
    assert path.stem.split("_")[0] == header["task"]  # walker2d_stand.py is a walker2d prior
    assert f"priors/tuned/{path.name}: valid:" in header["validation"]
    assert header["model"].startswith("none:")  # not an LLM's
    if path.stem == "walker2d_stand":
        assert header["kind"] == "hand" and "search_env_steps" not in header  # its tries were not counted
    else:
        assert header["kind"] == "tuned" and int(header["search_env_steps"]) >= 200_000
        assert f"{kinds.steps_text(int(header['search_env_steps']))} env steps" in header["search"]


@pytest.mark.parametrize("path", SELECTED, ids=lambda p: p.parent.name)
def test_the_default_is_the_answer_its_selection_report_chose(path):
    """selected.py is a copy of the answer named by its header's `source:` (the code unchanged), and the committed
    selection report's "Chosen:" line names that answer."""
    header = parse_header(path.read_text())
    assert header["kind"] == "llm" and not header["model"].startswith("none")
    source = header["source"].split(" ")[0]
    report = header["selected"].rpartition("report: ")[2]
    chosen = re.search(r"\*\*Chosen: `([^`]+)` \(rank 1 by (\w+)\)\*\*", (PRIORS.parent / report).read_text())
    assert chosen.group(1) == source and f"score: {chosen.group(2)}" in header["selected"]
    answer = (PRIORS.parent / source).read_text()
    assert loader.strip_header(path.read_text()) == loader.strip_header(answer)
    for key, value in parse_header(answer).items():  # the answer's provenance (model, date, prompt, sha256s) kept
        assert header[key] == value, key
    candidates = len(re.findall(r"^\| \d+ \| `", (PRIORS.parent / report).read_text(), re.MULTILINE))
    assert f"among {candidates} valid answers" in header["selected"]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_validates_for_its_task(path):
    result = validate_file(path, parse_header(path.read_text())["task"])
    assert result.ok, result.reason
