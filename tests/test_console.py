"""A quiet console (camel_jax/console.py): the libraries' start-up noise hidden unless asked for, help cut short by a
pipe without a traceback, PPO's evaluation line without a masked column; defaults that agree across commands;
reports not overwritten silently."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from camel_jax import algos
from camel_jax.cli import main
from camel_jax.core import progress, runs

ROOT = Path(__file__).resolve().parents[1]
NOISY = """
from camel_jax import console
console.quiet_libraries()
console.import_mjx()
import gymnasium as gym
import jax.numpy as jnp
import numpy as np
gym.make("Hopper-v4").close()
jnp.asarray(np.zeros(2), dtype=np.float64)
import warnings
warnings.warn("a real warning of someone else's", UserWarning)
print("ours")
"""


def _python(code: str, **env) -> subprocess.CompletedProcess:
    import os

    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False,
                          timeout=300, env={**os.environ, "JAX_PLATFORMS": "cpu", **env})


def test_library_noise_is_hidden_unless_verbose_and_other_warnings_stay():
    quiet = _python(NOISY, CAMEL_JAX_VERBOSE="")
    assert quiet.returncode == 0, quiet.stderr
    assert quiet.stdout == "ours\n"  # no "Failed to import warp" before our line
    for noise in ("out of date", "\x1b[", "float64", "Failed to import"):
        assert noise not in quiet.stderr, noise
    assert "a real warning of someone else's" in quiet.stderr  # only the known noise is hidden
    loud = _python(NOISY, CAMEL_JAX_VERBOSE="1")
    assert "Hopper-v4 is out of date" in loud.stderr and "float64" in loud.stderr
    plain = _python("import mujoco.mjx")  # whatever mujoco.mjx prints on this machine, verbose passes it on
    assert plain.stdout in loud.stdout


def test_verbose_flag_sets_the_variable_and_usage_documents_it(capsys, monkeypatch):
    monkeypatch.delenv("CAMEL_JAX_VERBOSE", raising=False)
    assert main(["--verbose", "--help"]) == 0
    import os

    assert os.environ["CAMEL_JAX_VERBOSE"] == "1"
    assert "--verbose (or CAMEL_JAX_VERBOSE=1)" in capsys.readouterr().out


def test_help_into_a_closed_pipe_ends_without_a_traceback():
    """`camel-jax train --help | head`: the reader is gone before the help is written (its end of the pipe closed
    here before the child has imported anything): no BrokenPipeError traceback, exit 0."""
    p = subprocess.Popen([sys.executable, "-m", "camel_jax.cli", "train", "--help"], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdout.close()
    err = p.stderr.read().decode()
    assert p.wait(timeout=300) == 0 and "Traceback" not in err and "BrokenPipe" not in err, err


def test_ppo_eval_line_has_no_masked_column(tmp_path, capsys):
    from camel_jax.algos.ppo.config import PPOConfig

    config = PPOConfig(env="hopper", seeds=(0, 1), quiet=False)
    prog = progress.Progress(config, 0.0, stream=io.StringIO(), metric_fields=algos.get("ppo").METRIC_FIELDS,
                             eval_fields=runs.EVAL_FIELDS)
    prog.log_eval(tmp_path, 2048, {"return_unmasked": [10.0, 20.0], "std_unmasked": [1.0, 1.0]})
    line = capsys.readouterr().out.strip()
    assert line.split() == ["eval", "2,048", "unmasked", "15.0"] and "nan" not in line
    from camel_jax.algos.td3.config import Config

    out = {"return_unmasked": [1.0, 3.0], "return_masked": [5.0, 7.0]}
    for prior, shown in (("random", True), ("none", False)):  # CAMEL's masked evaluation; plain TD3 masks nothing
        td3 = progress.Progress(Config(env="hopper", seeds=(0, 1), prior=prior, quiet=False), 0.0,
                                stream=io.StringIO())
        (tmp_path / prior).mkdir()
        td3.log_eval(tmp_path / prior, 4096, out)
        td3.log(tmp_path / prior, 4096, {"episodes": [1, 1], "episode_return": [1.0, 1.0], "epsilon": [0.5, 0.5]})
        lines = capsys.readouterr().out
        tokens = lines.split()
        assert ("masked" in tokens and "6.0" in tokens) == shown and ("eps" in tokens) == shown, lines

    class Tty(io.StringIO):
        def isatty(self):
            return True

    tty = Tty()  # on a terminal: the bar's status names no masked evaluation either
    bar = progress.Progress(config, 0.0, stream=tty, metric_fields=algos.get("ppo").METRIC_FIELDS,
                            eval_fields=runs.EVAL_FIELDS)
    bar.log_eval(tmp_path, 2048, {"return_unmasked": [10.0, 20.0], "std_unmasked": [1.0, 1.0]})
    bar.close()
    shown = tty.getvalue()
    assert "eval 15.0 unmasked" in shown and "masked" not in shown.replace("unmasked", ""), shown
    assert "eps" not in shown, shown


def test_priors_evaluate_and_select_default_to_the_same_backend(capsys):
    from camel_jax.priors import cli as priors_cli

    assert priors_cli.Evaluate.__dataclass_fields__["backend"].default == "gymnasium"
    assert priors_cli.Select.__dataclass_fields__["backend"].default == "gymnasium"
    for command in ("evaluate", "select"):
        assert priors_cli.main([command, "--help"]) == 0
        text = " ".join(capsys.readouterr().out.split())
        assert "gymnasium (the default, as for" in text and "(default: gymnasium)" in text, command


def test_eval_refuses_to_replace_eval_final_json_without_overwrite(tmp_path, capsys):
    run = tmp_path / "run"
    run.mkdir()
    (run / "eval_final.json").write_text('{"earlier": true}\n')
    assert main(["eval", str(run)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [(f"camel-jax eval: {run / 'eval_final.json'} exists (an earlier evaluation); pass --overwrite "
                    "to replace it, or copy it away first")]
    assert json.loads((run / "eval_final.json").read_text()) == {"earlier": True}
    assert main(["eval", str(run), "--overwrite"]) == 2  # past that check: this folder is no run (no config.json)
    assert "no config.json" in capsys.readouterr().err


def test_priors_import_refuses_to_replace_its_report_without_overwrite(tmp_path, capsys):
    from camel_jax.priors.cli import main as priors_main

    answer = ROOT / "tests/priors/answers/hopper_no_code.md"
    (tmp_path / "import_report.md").write_text("earlier\n")
    assert priors_main(["import", str(answer), "--env", "hopper", "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "has an import_report.md from an earlier import" in err[0] and "--overwrite" in err[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["import_report.md"]
    assert (tmp_path / "import_report.md").read_text() == "earlier\n"
    assert priors_main(["import", str(answer), "--env", "hopper", "--out", str(tmp_path), "--overwrite"]) == 1
    assert (tmp_path / "import_report.md").read_text().startswith("# Imported LLM answers: hopper")


@pytest.mark.parametrize("command", [["eval", "--help"], ["priors", "import", "--help"]])
def test_overwrite_is_in_the_help(command, capsys):
    with pytest.raises(SystemExit):
        code = main(command)
        raise SystemExit(code)
    assert "--overwrite" in capsys.readouterr().out
