"""The prompt builder: the paper's structure, the jnp rules, the task's tables and XML, a verifiable hash."""

from __future__ import annotations

import contextlib
import hashlib
import io
import socket

import pytest

from camel_jax import llm, specs
from camel_jax.priors import parse_header, prompt
from camel_jax.priors.cli import main
from camel_jax.priors.loader import tuned_prior


@pytest.mark.parametrize("task", ["hopper", "walker2d", "ant"])
def test_policy_prompt_has_the_paper_structure(task):
    spec = specs.load(task)
    text, path, sha = prompt.build_prompt(spec)
    assert path.name == prompt.POLICY_PROMPT and path.parent.name == "prompts"
    assert sha == hashlib.sha256(path.read_bytes()).hexdigest()
    assert f"`{spec.gym_id}`" in text
    assert f"{spec.obs_dim}-dimensional" in text and f"{spec.act_dim}-dimensional" in text
    assert spec.description in text and spec.reward_text in text and spec.health_text in text
    assert all(name in text for name in spec.obs_names + spec.act_names)
    assert spec.xml_path.read_text().strip() in text and "<mujoco" in text
    for rule in ("def policy(obs):", "import jax.numpy as jnp", "jnp.where", "while", "jnp.clip(act, -1.0, 1.0)",
                 "Suggested steps", "```python", "Let's think step by step."):
        assert rule in text
    assert "$" not in text.replace("$$", "")  # every placeholder filled


def test_translation_prompt_embeds_the_code():
    spec = specs.load("hopper")
    code = "import numpy as np\n\ndef policy(obs):\n    return np.clip(-obs[2:5], -1, 1)\n"
    text, path, sha = prompt.build_translation_prompt(spec, code)
    assert code.strip() in text and "1e-5" in text and "jnp.where" in text and "Hopper-v4" in text
    assert path.name == prompt.TRANSLATE_PROMPT and prompt.display_path(path) == f"priors/prompts/{path.name}"
    assert sha == hashlib.sha256(path.read_bytes()).hexdigest()


FIGURE_2 = [  # the paper's prompt (its Figure 2), word for word, with the task's values filled in
    ("Develop a hard-coded policy for the `{gym_id}` environment using only NumPy within a Python function named "
    "`policy(obs)`. The function should map the {obs_dim}-dimensional observation array `obs` to a "
    "{act_dim}-dimensional action array `act`."),
    "**Suggested Steps:**",
    "1. **Analyze the Observation Space:** Understand the meaning of each element in the `obs` array.",
    ("2. **Define Base Behavior:** Implement logic to encourage forward movement (e.g., applying positive torque to "
    "thigh joints)."),
    ("3. **Implement Balance Control:** Create rules to adjust actions based on the torso angle and other relevant "
    "observations to maintain balance."),
    "4. **Refine and Tune:** Experiment with different rules and thresholds to improve the policy's performance.",
    "5. **Ensure Valid Actions:** Use `np.clip` to keep the `act` values within the [-1, 1] range.",
    "<env_infos>\n<mujoco_xml>\n",
    "</env_infos>\n\nLet's think step by step.\n",
]


@pytest.mark.parametrize("task", ["hopper", "walker2d", "ant"])
def test_paper_prompt_is_figure_2_with_the_task(task):
    spec = specs.load(task)
    text, path, sha = prompt.build_prompt(spec, prompt.STYLES["paper"])
    assert path.name == "paper_numpy_v2.md" and sha == hashlib.sha256(path.read_bytes()).hexdigest()
    for part in FIGURE_2:
        assert part.format(gym_id=spec.gym_id, obs_dim=spec.obs_dim, act_dim=spec.act_dim) in text
    assert text.endswith("Let's think step by step.\n") and "jnp" not in text
    assert spec.xml_path.read_text().strip() in text and spec.description in text and spec.markdown_tables() in text
    assert spec.reward_text in text and spec.health_text in text
    assert text.index("<env_infos>") < text.index("<mujoco") < text.index(spec.description) < text.index("</env_infos>")
    assert "$" not in text


@pytest.mark.parametrize("task", ["hopper", "walker2d", "ant"])
def test_paper_style_is_the_verbatim_prompt_plus_the_no_state_rule(task):
    spec = specs.load(task)
    v2, _, _ = prompt.build_prompt(spec, prompt.STYLES["paper"])
    v1, path, _ = prompt.build_prompt(spec, prompt.STYLES["paper-verbatim"])
    first, rest = v1.split("\n\n", 1)
    added = v2.removeprefix(first + "\n\n").removesuffix(rest)
    assert v2 == first + "\n\n" + added + rest and added.count("\n\n") == 1  # exactly one paragraph added
    assert "pure function" in added and "between calls" in added and "gait phase" in added
    # the committed answers replied to the verbatim prompt: its rendered text is still the one their report records
    report = (specs.data_dir("priors") / "llm" / task / "imported" / "import_report.md").read_text()
    assert path.name == "paper_numpy_v1.md" and f"its text sha256:{prompt.text_sha256(v1)}" in report


def _prompt_cli(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["prompt", *argv])
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("style, template", [("paper", prompt.PAPER_PROMPT), ("jnp", prompt.POLICY_PROMPT),
                                             ("paper-verbatim", prompt.PAPER_VERBATIM_PROMPT)])
def test_prompt_command_prints_the_exact_prompt_offline(monkeypatch, style, template):
    monkeypatch.delenv(llm.API_KEY_ENV, raising=False)
    monkeypatch.setattr(socket.socket, "connect", lambda *a: pytest.fail("`priors prompt` touched the network"))
    code, out, err = _prompt_cli("--env", "hopper", "--style", style)
    again = _prompt_cli("--env", "hopper", "--style", style)
    text, path, sha = prompt.build_prompt(specs.load("hopper"), template)
    assert code == 0 and out == text and again[1] == out  # the same bytes every time
    assert err == f"prompt text sha256:{hashlib.sha256(out.encode()).hexdigest()} (template priors/prompts/" \
                  f"{path.name} sha256:{sha})\n"


def test_paper_is_the_default_style_and_jnp_is_todays_prompt():
    assert _prompt_cli("--env", "walker2d")[1] == prompt.build_prompt(specs.load("walker2d"), prompt.PAPER_PROMPT)[0]
    jnp_text, path, sha = prompt.build_prompt(specs.load("hopper"))  # what `generate` sent before --style existed
    assert path.name == "locomotion_v1.md" and _prompt_cli("--env", "hopper", "--style", "jnp")[1] == jnp_text
    tuned = parse_header(tuned_prior("hopper").read_text())["prompt"]
    assert tuned == f"priors/prompts/locomotion_v1.md sha256:{sha}"  # the jnp template is unchanged
