"""The tested dependency set: the task XMLs are pinned by sha256 (tasks/*.toml), and constraints.txt is what CI
installs."""

import dataclasses
import hashlib
from pathlib import Path

import pytest

from camel_jax import envs, specs
from camel_jax.errors import SetupError

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("task", specs.available())
def test_installed_xml_matches_the_pinned_sha256(task):
    spec = specs.load(task)
    assert hashlib.sha256(spec.xml_path.read_bytes()).hexdigest() == spec.xml_sha256


def test_a_changed_xml_stops_every_backend_with_the_fix(tmp_path):
    changed = dataclasses.replace(specs.load("hopper"), xml_sha256="0" * 64)  # as if gymnasium had edited the file
    for make in (lambda: changed.xml_path, changed.gym_make):
        with pytest.raises(SetupError, match=r"hopper.xml .* is not the XML this task was validated with .*"
                                             r"pip install -c constraints.txt"):
            make()
    edited = tmp_path / "hopper.xml"
    edited.write_text(specs.load("hopper").xml_path.read_text() + "<!-- edited -->\n")
    with pytest.raises(SetupError, match=r"is not the XML.*update xml_sha256 in tasks/hopper\.toml"):
        specs.check_xml(edited, specs.load("hopper").xml_sha256, "hopper")


def test_gymnasium_backend_checks_the_pin(monkeypatch):
    load = specs.load
    monkeypatch.setattr(specs, "load", lambda name: dataclasses.replace(load(name), xml_sha256="1" * 64))
    with pytest.raises(SetupError, match="is not the XML"):
        envs.make("hopper", "gymnasium", 1)


def test_constraints_pin_every_direct_dependency():
    import tomllib

    pins = {line.split("==")[0].lower().replace("_", "-")
            for line in (ROOT / "constraints.txt").read_text().splitlines() if line and not line.startswith("#")}
    assert all("==" in line for line in (ROOT / "constraints.txt").read_text().splitlines()
               if line and not line.startswith("#"))
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = project["dependencies"] + project["optional-dependencies"]["dev"]
    names = {w.split("[")[0].split(">")[0].split("=")[0].split("<")[0].strip().lower() for w in wanted}
    assert names <= pins, f"not pinned in constraints.txt: {sorted(names - pins)} (run bash .ci/refresh)"
    assert "-c constraints.txt" in (ROOT / ".ci" / "run").read_text()
