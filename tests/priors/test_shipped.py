"""Every prior file shipped in priors/ has a complete provenance header that matches the file and passes validation:
the default, LLM-written priors (priors/llm/TASK/selected.py, each the answer its committed selection report chose)
and the controllers searched for or written by hand in simulation (priors/tuned/), each stating its search cost."""

from __future__ import annotations

import hashlib
import re

import pytest

from camel_jax import specs
from camel_jax.errors import SetupError
from camel_jax.priors import kinds, loader, parse_header, prompt, validate_file

PRIORS = specs.data_dir("priors")
SELECTED = sorted(PRIORS.glob("llm/*/selected.py"))
# gym:ID tasks with a shipped LLM prior (folder gym_ID, `specs.file_stem`): issue #26's generic task
GYM_SELECTED = {"gym:LunarLanderContinuous-v3"}
TUNED = sorted((PRIORS / "tuned").glob("*.py"))
SHIPPED = SELECTED + TUNED


# Tasks without an LLM prior: the v5 tasks whose observations differ from their v4 task's (no v4 prior serves them);
# `--prior TASK` says so and how to make one. (Humanoid-v4 has one since issue #26's import fixes: 4 of its 5 answers
# import, priors/llm/humanoid/imported/import_report.md.)
NO_PRIOR_YET = {"humanoid-v5", "ant-v5"}
V4 = [t for t in specs.available() if specs.load(t).version == "v4"]


def test_every_v4_task_has_an_llm_default():
    assert {p.parent.name for p in SELECTED} == set(V4) - NO_PRIOR_YET | {specs.file_stem(t) for t in GYM_SELECTED}
    assert {p.stem for p in TUNED} >= {"hopper", "walker2d", "ant"}  # the tuned controllers of the paper's tasks
    assert not list(PRIORS.glob("*.py"))  # nothing at priors/<task>.py: that name meant the tuned one before
    for task in sorted(set(V4) - NO_PRIOR_YET):
        assert loader.prior_path(task) == loader.shipped_prior(task) == PRIORS / "llm" / task / "selected.py"
    for task in ("hopper", "walker2d", "ant"):
        assert loader.prior_path(f"tuned:{task}") == PRIORS / "tuned" / f"{task}.py"


def test_every_task_without_its_own_has_its_v4_prior_or_says_how_to_make_one():
    for task in sorted(set(specs.available()) - {p.parent.name for p in SELECTED}):
        if task in NO_PRIOR_YET:
            with pytest.raises(SetupError, match=rf"no LLM prior is selected yet for task '{task}' .*camel-jax priors "
                                                 rf"prompt --env {task} --style paper.*priors import.*priors select"):
                loader.shipped_prior(task)
        else:  # its v4 task's, which observes and acts alike
            path = loader.shipped_prior(task)
            assert path in SELECTED and specs.compatible(path.parent.name, task), (task, path)
    assert loader.shipped_prior("hopper-v5") == PRIORS / "llm" / "hopper" / "selected.py"  # v5 changes the reward only
    assert loader.shipped_prior("halfcheetah-v5") == PRIORS / "llm" / "halfcheetah" / "selected.py"  # nothing changes
    assert not specs.compatible("ant", "ant-v5")  # v5 observes contact forces too: the v4 prior does not fit
    for task in GYM_SELECTED:  # a gym:ID task's default: priors/llm/gym_ID/selected.py
        assert loader.shipped_prior(task) == PRIORS / "llm" / specs.file_stem(task) / "selected.py"


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_header_matches_the_file(path):
    header = parse_header(path.read_text())
    assert header["task"] in specs.available() or header["task"] in GYM_SELECTED
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
