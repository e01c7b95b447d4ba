"""The command line a new user meets: --version, choices in --help, --seeds=0,1,2, --config to repeat a run."""

import contextlib
import dataclasses
import io
import json
from importlib.metadata import version

import pytest

from camel_jax import algos, specs
from camel_jax.algos.td3.config import Config
from camel_jax.cli import main
from camel_jax.core import runs


def _run(*argv) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            code = main(list(argv))
        except SystemExit as e:  # tyro's --help
            code = e.code
    return code, out.getvalue()


def test_version_and_choices():
    assert _run("--version") == (0, f"camel-jax {version('camel-jax')}\n")
    code, text = _run("train", "--help")
    flat = " ".join(text.replace("│", " ").split())  # the help box wraps the task list
    tasks = "{" + ",".join(specs.available()) + "}|gym:ID"
    assert specs.available()[:3] == ("ant", "ant-v5", "halfcheetah")  # every spec file, v5 ones included
    assert code == 0 and tasks in flat.replace(", ", ",") and "{auto,mjx,gymnasium}" in text
    out_help = text[text.index("--out"):text.index("--overwrite")]
    assert out_help.count("default") == 1  # one default, not the docstring's and tyro's


@pytest.fixture
def captured(monkeypatch, tmp_path):
    """train writes its run directory and config.json, and trains nothing."""
    seen = []

    def fake_train(config):
        seen.append(runs.create(config.resolved(), "src", "0" * 64))
        return seen[-1]

    monkeypatch.setattr(algos.get("td3"), "train", fake_train)  # the plug-in the command line calls
    return seen


@pytest.mark.parametrize("seeds", [["--seeds=0,1,2"], ["--seeds", "0,1,2"], ["--seeds", "0", "1", "2"],
                                   ["--seeds", "0-2"], ["--seeds=0,1-2"]])
def test_every_way_of_writing_seeds(captured, tmp_path, seeds):
    assert _run("train", *seeds, "--out", str(tmp_path / "r"))[0] == 0
    assert Config.from_json(captured[0] / "config.json").seeds == (0, 1, 2)


def test_a_downward_seed_range_is_one_line(captured, tmp_path):
    code, _ = _run("train", "--seeds", "9-0", "--out", str(tmp_path / "r"))  # SystemExit(message): exit 1
    assert "--seeds 9-0: a range runs upwards" in str(code)
    assert not captured and not (tmp_path / "r").exists()


def test_config_repeats_a_run_with_overrides(captured, tmp_path):
    first = tmp_path / "first"
    assert _run("train", "--env", "walker2d", "--delta", "0.2", "--seeds", "0,1", "--out", str(first))[0] == 0
    second = tmp_path / "second"
    assert _run("train", "--config", str(first / "config.json"), "--seeds", "5", "--out", str(second))[0] == 0
    a, b = (json.loads((d / "config.json").read_text()) for d in (first, second))
    assert {k for k in a if a[k] != b[k]} == {"seeds", "out"} and b["seeds"] == [5] and b["delta"] == 0.2
    assert Config.from_json(first / "config.json").backend == "gymnasium"  # auto, resolved on this CPU


def test_config_never_inherits_out_or_overwrite(captured, tmp_path, capsys):
    original = tmp_path / "original"
    assert _run("train", "--out", str(original), "--overwrite")[0] == 0
    assert _run("train", "--config", str(original / "config.json"))[0] == 0  # a new default directory
    assert captured[-1] != original and Config.from_json(captured[-1] / "config.json").overwrite is False
    assert _run("train", "--config", str(tmp_path / "missing.json"))[0] == 2
    assert "--config" in capsys.readouterr().err


def test_auto_backend_resolves_by_device():
    assert Config().backend == "auto" and Config().resolved().backend == "gymnasium"  # CI: a CPU
    assert dataclasses.replace(Config(), backend="mjx").resolved().backend == "mjx"
    for mjx_only in ({"mesh": "seeds=1"}, {"mjx_impl": "warp"}):  # settings that exist only on MJX pick it
        assert dataclasses.replace(Config(), **mjx_only).resolved().backend == "mjx"
