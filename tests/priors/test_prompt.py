"""The prompt builder: the paper's structure, the jnp rules, the task's tables and XML, a verifiable hash."""

from __future__ import annotations

import hashlib

import pytest

from camel_jax import specs
from camel_jax.priors import prompt


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
