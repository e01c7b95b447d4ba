"""`camel-jax completion SHELL`: the script is generated from the whole command tree (`cli.command_tree`), and bash,
running it, completes subcommands, nested subcommands, options and their choices."""

import shutil
import subprocess

import pytest

from camel_jax.cli import main


def _bash_complete(script: str, *words: str) -> list[str]:
    """What bash offers for the last of `words` (camel-jax first), through the script's completion function."""
    line = " ".join(f"'{w}'" for w in words)
    probe = f'{script}\nCOMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; _tyro_camel_jax; printf "%s\\n" "${{COMPREPLY[@]}}"'
    out = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, check=True).stdout
    return sorted(out.split())


@pytest.fixture(scope="module")
def bash_script():
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert main(["completion", "bash"]) == 0
    return out.getvalue()


def test_bash_completes_commands_nested_commands_and_choices(bash_script):
    assert "complete -F _tyro_camel_jax camel-jax" in bash_script
    assert {"train", "resume", "sweep", "eval", "plot", "priors", "ultra", "completion"} <= set(
        _bash_complete(bash_script, "camel-jax", ""))
    assert _bash_complete(bash_script, "camel-jax", "priors", "gen") == ["generate"]
    assert {"ant", "hopper", "walker2d", "halfcheetah", "humanoid", "hopper-v5"} <= set(
        _bash_complete(bash_script, "camel-jax", "priors", "validate", "--env", ""))  # gym:ID parses, is not listed
    assert "ant-v5" in _bash_complete(bash_script, "camel-jax", "train", "--env", "")
    assert _bash_complete(bash_script, "camel-jax", "ultra", "identify", "--provider", "") == sorted(
        ["llm", "recorded", "value-drop", "td-error", "random"])
    assert _bash_complete(bash_script, "camel-jax", "train", "--algo", "") == ["ppo", "td3"]
    assert _bash_complete(bash_script, "camel-jax", "train", "--num-mini") == ["--num-minibatches"]  # PPO's own
    assert _bash_complete(bash_script, "camel-jax", "train", "--del") == ["--delta"]  # TD3's own


def test_other_shells_and_a_bad_shell(capsys):
    assert main(["completion", "zsh"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("#compdef camel-jax") and "generate" in out and "walker2d" in out
    assert main(["completion", "ksh"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown shell 'ksh'; use one of: bash, zsh, tcsh, fish" in err
