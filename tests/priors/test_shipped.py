"""Every prior file shipped in priors/ has a complete provenance header that matches the file and passes validation."""

from __future__ import annotations

import hashlib
import re

import pytest

from camel_jax import specs
from camel_jax.priors import parse_header, prompt, validate_file

PRIORS = specs.data_dir("priors")
SHIPPED = sorted(PRIORS.glob("*.py"))


def test_every_task_has_a_shipped_prior():
    assert {p.stem for p in SHIPPED} >= set(specs.available())


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_header_matches_the_file(path):
    header = parse_header(path.read_text())
    assert header["task"] in specs.available()
    assert path.stem.split("_")[0] == header["task"]  # walker2d_stand.py is a walker2d prior
    for key in ("model", "date", "validation", "return", "method"):
        assert header.get(key), f"{path.name}: empty or missing '# {key}:' line"
    assert f"priors/{path.name}: valid:" in header["validation"]
    assert re.match(r"-?\d+(\.\d+)? \+- \d+(\.\d+)? over \d+ episodes", header["return"]), header["return"]
    shown, _, digest = header["prompt"].partition(" sha256:")
    template = prompt.prompt_file(shown.rpartition("/")[2])
    assert prompt.display_path(template) == shown
    assert hashlib.sha256(template.read_bytes()).hexdigest() == digest


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_validates_for_its_task(path):
    result = validate_file(path, parse_header(path.read_text())["task"])
    assert result.ok, result.reason
