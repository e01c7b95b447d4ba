"""Prompts: versioned template files under `priors/prompts/`, filled from a task's spec and its MuJoCo XML.

Three styles of policy prompt (`STYLES`):
- `paper` (`paper_numpy_v2.md`): `paper-verbatim` plus one paragraph that states the sandbox's contract: `policy` is
  called once per step with the observation alone and must keep no state between calls. Added because all five Ant
  answers to the verbatim prompt kept a gait clock between calls (globals or function attributes), which the
  validator rightly refuses (priors/llm/ant/imported/import_report.md); the paper's priors were plain Python, where
  such a clock works.
- `paper-verbatim` (`paper_numpy_v1.md`): the paper's own wording (its Figure 2): a NumPy-only `policy(obs)`, the five
  suggested steps verbatim (including the Hopper figure's "applying positive torque to thigh joints" example),
  `<env_infos>` with the task's MuJoCo XML and its description, observation/action tables, reward and episode end
  (the paper took these from gymnasium's documentation; here they come from `tasks/<task>.toml`), "Let's think step
  by step.". Answers are NumPy; `camel-jax priors import` translates them to jnp.
- `jnp` (`locomotion_v1.md`): the same structure asking for `jax.numpy` directly, with the rules a jittable prior
  must follow; what `camel-jax priors generate` sends by default.
`translate_numpy_v1.md` asks for a jnp rewrite of a NumPy policy.
A `gym:ID` task has no MuJoCo XML and no spec of its own: its prompts (`gym_numpy_v1.md` for both NumPy styles,
`gym_jnp_v1.md`) carry the env's own documentation (its class docstring) and a table of its spaces, and say how the
[-1, 1] actions are rescaled onto its bounds. The jnp prompt of a MuJoCo task of another gymnasium version than v4
is `locomotion_v2.md` (v1 names v4).

A rendered prompt is deterministic (the template, the spec and the XML of the installed gymnasium), so the sha256 of
its text identifies it. A new prompt version is a new file; the provenance header records the file and the sha256 of
its bytes (`# prompt:`), and imported candidates also the sha256 of the rendered text (`# prompt_text:`).
"""

from __future__ import annotations

import hashlib
import string
from pathlib import Path

from camel_jax import specs

POLICY_PROMPT = "locomotion_v1.md"
PAPER_PROMPT = "paper_numpy_v2.md"
PAPER_VERBATIM_PROMPT = "paper_numpy_v1.md"
TRANSLATE_PROMPT = "translate_numpy_v1.md"
STYLES = {"paper": PAPER_PROMPT, "paper-verbatim": PAPER_VERBATIM_PROMPT, "jnp": POLICY_PROMPT}  # --style of `priors prompt`, `import` and `generate`
# Templates used in place of the styles' own: for gym:ID tasks (their documentation and spaces instead of a MuJoCo XML;
# both NumPy styles share one), and for MuJoCo tasks of another gymnasium version than v4 (the jnp prompt names it).
GYM_TEMPLATES = {PAPER_PROMPT: "gym_numpy_v1.md", PAPER_VERBATIM_PROMPT: "gym_numpy_v1.md", POLICY_PROMPT: "gym_jnp_v1.md"}
VERSION_TEMPLATES = {POLICY_PROMPT: "locomotion_v2.md"}


def prompt_file(name: str) -> Path:
    return specs.data_dir("priors") / "prompts" / name


def display_path(path: Path) -> str:
    """The prompt's path as written in headers: relative to the repository root (`priors/prompts/...`)."""
    return f"priors/prompts/{path.name}"


def provenance(path: Path, sha: str) -> str:
    """The `# prompt:` header value: `priors/prompts/<file> sha256:<hex of the template file>`."""
    return f"{display_path(path)} sha256:{sha}"


def text_sha256(text: str) -> str:
    """The sha256 of a rendered prompt's UTF-8 bytes (what `camel-jax priors prompt` prints)."""
    return hashlib.sha256(text.encode()).hexdigest()


def render(name: str, **fields: object) -> tuple[str, Path, str]:
    """Fill template `name` (`$field` placeholders); returns (text, template path, sha256 of the template file)."""
    path = prompt_file(name)
    raw = path.read_bytes()
    text = string.Template(raw.decode()).substitute({k: str(v) for k, v in fields.items()})
    return text, path, hashlib.sha256(raw).hexdigest()


def build_prompt(spec: specs.TaskSpec, name: str = POLICY_PROMPT) -> tuple[str, Path, str]:
    """The policy-writing prompt for task `spec` from template `name` (`STYLES[style]`; `GYM_TEMPLATES` and
    `VERSION_TEMPLATES` stand in for it where they name one): (text, template path, sha256 of the template file)."""
    import gymnasium

    if spec.is_gym:
        name = GYM_TEMPLATES.get(name, name)
    elif spec.version != "v4":
        name = VERSION_TEMPLATES.get(name, name)
    return render(
        name,
        gym_id=spec.gym_id,
        version=spec.version,
        gymnasium_version=gymnasium.__version__,
        obs_dim=spec.obs_dim,
        act_dim=spec.act_dim,
        description=spec.description,
        reward_text=spec.reward_text,
        health_text=spec.health_text,
        tables=spec.markdown_tables(),
        xml="" if spec.is_gym else spec.xml_path.read_text().strip(),
    )


def build_translation_prompt(spec: specs.TaskSpec, numpy_source: str) -> tuple[str, Path, str]:
    """The NumPy-to-jnp rewriting prompt for `numpy_source` on task `spec`."""
    return render(TRANSLATE_PROMPT, gym_id=spec.gym_id, obs_dim=spec.obs_dim, act_dim=spec.act_dim,
                  numpy_code=numpy_source.strip())
