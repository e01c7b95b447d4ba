"""Any gymnasium Box task on the gymnasium backend (`--env gym:ID`, issue #26), on Pendulum-v1 (and LunarLander's
continuous version, where gymnasium[box2d] is installed: spec, prompt and stepping): the prompt from the env's own
documentation and spaces, the import of a NumPy answer, selection, and TD3, CAMEL and PPO training a few hundred
steps."""

import contextlib
import csv
import io
import shutil
from pathlib import Path

import numpy as np
import pytest

from camel_jax import specs
from camel_jax.cli import main
from camel_jax.priors import load_prior, parse_header, prompt

ROOT = Path(__file__).resolve().parents[1]
PENDULUM = "gym:Pendulum-v1"
ANSWER = Path(__file__).resolve().parent / "gym_tasks" / "pendulum_answer.md"  # a NumPy answer to the paper prompt
TINY = ["--total-steps", "300", "--learning-starts", "150", "--log-every", "150", "--eval-every", "300",
        "--eval-episodes", "1", "--batch-size", "16", "--hidden", "8,8", "--quiet"]


def _run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def _rows(path: Path) -> list[dict]:
    with path.open() as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("pendulum")
    code, stdout, stderr = _run("priors", "import", str(ANSWER), "--env", PENDULUM, "--out", str(out), "--samples",
                                "300")
    assert code == 0 and stdout.startswith(f"VALID {out / 'pendulum_answer.py'}"), (stdout, stderr)
    return out / "pendulum_answer.py"


def test_prompt_comes_from_the_envs_documentation_and_spaces():
    code, text, err = _run("priors", "prompt", "--env", PENDULUM, "--style", "paper")
    assert code == 0 and "prompt text sha256:" in err and "priors/prompts/gym_numpy_v1.md" in err
    assert text.startswith("Develop a hard-coded policy for the `Pendulum-v1` environment")
    assert "The inverted pendulum swingup problem" in text and "*r = -(theta<sup>2</sup>" in text  # its docstring
    assert "| 0 | action_0 | -1 ... 1 is applied as -2 ... 2 (the env's bounds) |" in text
    assert "rescaled onto the environment's own bounds" in text and "<mujoco_xml>" not in text
    assert "$" not in text.replace("$ ", "") and text.rstrip().endswith("Let's think step by step.")
    code, text, err = _run("priors", "prompt", "--env", PENDULUM, "--style", "jnp")
    assert code == 0 and "priors/prompts/gym_jnp_v1.md" in err and "The only import is `import jax.numpy as jnp`" in text


def test_import_translates_the_numpy_answer_into_a_prior_for_the_task(imported):
    header = parse_header(imported.read_text())
    assert header["task"] == PENDULUM and header["prompt"].startswith("priors/prompts/gym_numpy_v1.md sha256:")
    text, _, _ = prompt.build_prompt(specs.load(PENDULUM), prompt.STYLES["paper"])
    assert header["prompt_text"].startswith(f"sha256:{prompt.text_sha256(text)}")
    assert "translated to jnp mechanically" in header["method"]
    policy = load_prior(imported, PENDULUM)
    upright_tilted = np.array([np.cos(0.2), np.sin(0.2), 0.0], np.float32)  # 0.2 rad past upright, at rest
    hanging_still = np.array([-1.0, 0.0, 0.0], np.float32)
    assert float(policy(upright_tilted)[0]) < -0.5  # pushes back toward upright (the balance law)
    assert policy(hanging_still).shape == (1,) and abs(float(policy(hanging_still)[0])) == 1.0  # pumps at full torque


def test_select_ranks_candidates_by_return(imported, tmp_path):
    shutil.copy(imported, tmp_path / "answer.py")
    (tmp_path / "idle.py").write_text(f"# camel-jax prior\n# task: {PENDULUM}\n\nimport jax.numpy as jnp\n\n\n"
                                      "def policy(obs):\n    return jnp.zeros(1)\n")
    code, out, err = _run("priors", "select", str(tmp_path), "--env", PENDULUM, "--episodes", "2")
    assert code == 0, err
    assert out.splitlines()[-1] == f"chosen: {tmp_path / 'answer.py'}"
    report = (tmp_path / "gym_Pendulum-v1_selection.md").read_text()
    assert "(rank 1 by return)" in report and "Score: mean episode return" in report
    assert "Pendulum-v1, gymnasium)" in report
    # a gym:ID task's episodes end by its own rules (a success, too): "ended", not a MuJoCo robot's "falls"
    assert "| length (mean) | ended |" in report and "- Ended: " in report and "Falls:" not in report


def test_td3_and_camel_train_on_it(imported, tmp_path):
    code, _, err = _run("train", "--env", PENDULUM, "--prior", "none", "--out", str(tmp_path / "td3"), *TINY,
                        "--eval-episodes", "0")  # (no evaluation: one compilation less)
    assert code == 0, err
    code, _, err = _run("train", "--env", PENDULUM, "--prior", str(imported), "--out", str(tmp_path / "camel"), *TINY)
    assert code == 0, err
    for run in ("td3", "camel"):
        assert '"backend": "gymnasium"' in (tmp_path / run / "config.json").read_text()  # auto: gym:ID -> gymnasium
        metrics = _rows(tmp_path / run / "metrics.csv")
        assert len(metrics) == 2 and all(int(m["episode_length"]) == 200 for m in metrics if int(m["episodes"]))
        assert np.isfinite(float(metrics[-1]["critic_loss"]))  # it learned after learning_starts
    camel = _rows(tmp_path / "camel" / "eval.csv")[0]
    # masked, the untrained actor acts inside the box around the prior's swing-up: far better than unmasked
    assert float(camel["return_masked"]) > float(camel["return_unmasked"]) + 200, camel


def test_ppo_trains_on_it(tmp_path):
    code, _, err = _run("train", "--algo", "ppo", "--env", PENDULUM, "--backend", "gymnasium", "--total-steps", "256",
                        "--num-steps", "64", "--num-minibatches", "2", "--update-epochs", "1", "--eval-episodes", "1",
                        "--out", str(tmp_path / "ppo"), "--quiet")
    assert code == 0, err
    metrics = _rows(tmp_path / "ppo" / "metrics.csv")
    assert metrics and np.isfinite(float(metrics[-1]["v_loss"]))


@pytest.mark.parametrize("argv,needle", [
    (["train", "--env", "gym:CartPole-v1"], "has Discrete actions"),
    (["train", "--env", PENDULUM, "--backend", "mjx"], "runs on the gymnasium backend only"),
    (["train", "--algo", "ppo", "--env", PENDULUM, "--backend", "mjx"], "runs on the gymnasium backend only"),
    (["priors", "prompt", "--env", "gym:NoSuchTask-v0"], "Environment `NoSuchTask` doesn't exist"),
    (["priors", "evaluate", str(ANSWER), "--env", PENDULUM, "--backend", "mjx"], "use --backend gymnasium"),
])
def test_unsuitable_tasks_and_backends_are_one_line_exit_2(tmp_path, argv, needle):
    code, _, err = _run(*argv, *(["--out", str(tmp_path / "run")] if argv[0] == "train" else []))
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and len(lines) == 1 and needle in lines[0], err
    assert not (tmp_path / "run").exists()


def test_a_box2d_task_runs_where_gymnasium_box2d_is_installed():
    pytest.importorskip("Box2D", reason="LunarLanderContinuous needs pip install 'gymnasium[box2d]'")
    from camel_jax import envs

    spec = specs.load("gym:LunarLanderContinuous-v3")
    assert (spec.obs_dim, spec.act_dim, spec.episode_length) == (8, 2, 1000) and spec.unit_actions
    assert "lander" in spec.description.lower()
    code, text, _ = _run("priors", "prompt", "--env", "gym:LunarLanderContinuous-v3")
    assert code == 0 and "| 7 | obs_7 |" in text and "| 1 | action_1 |" in text
    # the five committed LLM answers (priors/llm/gym_LunarLanderContinuous-v3/) replied to exactly this text
    assert text == (ROOT / "priors" / "llm" / "gym_LunarLanderContinuous-v3" / "prompt.md").read_text()
    venv = envs.make("gym:LunarLanderContinuous-v3", "gymnasium", 2)  # what training steps: random actions until
    state, ended = venv.reset(0), 0                                     # the landers crash (terminated)
    rng = np.random.default_rng(0)
    for _ in range(400):
        state = venv.step(state, rng.uniform(-1, 1, (2, 2)))
        ended += int(state.info["terminated"].sum())
        assert np.isfinite(state.obs).all() and state.obs.dtype == np.float32
    venv.close()
    assert ended >= 2 and (state.metrics["nonfinite"] == 0).all()
