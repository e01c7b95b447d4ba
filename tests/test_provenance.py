"""versions.json in every run directory, and the warning when plot/compare mix runs made with different versions."""

import json
import sys
from pathlib import Path

from camel_jax.algos.td3.config import Config
from camel_jax.cli import main
from camel_jax.core import provenance, runs


def test_every_new_run_directory_records_what_made_it(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["camel-jax", "train", "--env", "hopper", "--seeds", "0,1"])
    run_dir = runs.create(Config(out=str(tmp_path / "run")), "prior source", "0" * 64)
    v = json.loads((run_dir / "versions.json").read_text())
    assert v["command"] == ["camel-jax", "train", "--env", "hopper", "--seeds", "0,1"]
    import jax
    import mujoco

    assert v["packages"]["jax"] == jax.__version__ and v["packages"]["mujoco"] == mujoco.__version__
    assert v["packages"]["camel-jax"] and v["python"].count(".") == 2 and v["devices"]["backend"] == "cpu"
    if (Path(__file__).resolve().parents[1] / ".git").exists():
        assert len(v["git"]["commit"]) == 40 and isinstance(v["git"]["dirty"], bool)
    else:
        assert v["git"]["commit"] == "unknown"


def test_outside_a_git_checkout_the_commit_is_unknown(tmp_path, monkeypatch):
    monkeypatch.setattr(provenance, "__file__", str(tmp_path / "camel_jax" / "core" / "provenance.py"))  # no .git above it
    assert provenance.git_commit() == {"commit": "unknown", "dirty": None}


def test_plot_warns_when_runs_mix_versions(tmp_path, capsys):
    dirs = []
    for name, jax_version in (("a", "0.10.2"), ("b", "0.9.0")):
        d = tmp_path / name
        runs.create(Config(out=str(d)), "src", "0" * 64)
        v = json.loads((d / "versions.json").read_text())
        v["packages"]["jax"] = jax_version
        (d / "versions.json").write_text(json.dumps(v))
        dirs.append(d)
    assert provenance.mixed(dirs[:1] * 2) == []
    assert main(["plot", *map(str, dirs), "--out", str(tmp_path / "p.png")]) in (0, 2)  # the CSVs hold no rows
    err = capsys.readouterr().err
    assert f"warning: runs made with different versions: jax differs: 0.10.2 ({dirs[0]}), 0.9.0 ({dirs[1]})" in err
