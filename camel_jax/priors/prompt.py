"""Prompts: versioned template files under `priors/prompts/`, filled from a task's spec and its MuJoCo XML.

`locomotion_v1.md` follows the paper's prompt (task, observation and action tables, reward and termination,
step-by-step design instructions, the XML, "Let's think step by step") but asks for `jax.numpy` instead of NumPy,
with the rules a jittable prior must follow. `translate_numpy_v1.md` asks for a jnp rewrite of a NumPy policy.
A new prompt version is a new file; the provenance header records the file and the sha256 of its bytes.
"""

from __future__ import annotations

import hashlib
import string
from pathlib import Path

from camel_jax import specs

POLICY_PROMPT = "locomotion_v1.md"
TRANSLATE_PROMPT = "translate_numpy_v1.md"


def prompt_file(name: str) -> Path:
    return specs.data_dir("priors") / "prompts" / name


def display_path(path: Path) -> str:
    """The prompt's path as written in headers: relative to the repository root (`priors/prompts/...`)."""
    return f"priors/prompts/{path.name}"


def render(name: str, **fields: object) -> tuple[str, Path, str]:
    """Fill template `name` (`$field` placeholders); returns (text, template path, sha256 of the template file)."""
    path = prompt_file(name)
    raw = path.read_bytes()
    text = string.Template(raw.decode()).substitute({k: str(v) for k, v in fields.items()})
    return text, path, hashlib.sha256(raw).hexdigest()


def build_prompt(spec: specs.TaskSpec, name: str = POLICY_PROMPT) -> tuple[str, Path, str]:
    """The policy-writing prompt for task `spec`: (text, template path, sha256 of the template file)."""
    return render(
        name,
        gym_id=spec.gym_id,
        obs_dim=spec.obs_dim,
        act_dim=spec.act_dim,
        description=spec.description,
        reward_text=spec.reward_text,
        health_text=spec.health_text,
        tables=spec.markdown_tables(),
        xml=spec.xml_path.read_text().strip(),
    )


def build_translation_prompt(spec: specs.TaskSpec, numpy_source: str) -> tuple[str, Path, str]:
    """The NumPy-to-jnp rewriting prompt for `numpy_source` on task `spec`."""
    return render(TRANSLATE_PROMPT, gym_id=spec.gym_id, obs_dim=spec.obs_dim, act_dim=spec.act_dim,
                  numpy_code=numpy_source.strip())
