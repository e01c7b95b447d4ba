"""The two prompts of ULTRA, rendered from ULTRA's own versioned templates (`camel_jax/ultra/prompts/*.md`, `$field`
placeholders filled as the priors' prompts are), so each carries the sha256 of its template file:
- identification (`ultra_identify_v1.md`): the task's description, observation and action tables, reward and episode
  end (from `tasks/<task>.toml`), one trajectory window as text, step-by-step identification instructions, and the
  JSON to answer with (critical steps with rationales);
- improvement (`ultra_improve_v2.md`): the same task text and window, the critical steps with their rationales, a
  case analysis, then per critical step a suggested action and an implicit reward in [-1, 1] rating that suggested
  action, as JSON. `ultra_improve_v1.md` (version "v1") asked for a rating of the action the agent took instead; it
  is kept so that the answers given to it (bench/results/ultra_hopper/llm_answers/) stay reproducible, and a table
  never uses its rewards (`REWARD_RATES`).
A query's `name` (`identify_<window>` / `improve_<window>`) names its answer files for the `recorded` provider.

The templates live inside the package, beside this module: the method owns its prompts (CAMEL's are under `priors/`),
a wheel ships them with the code, and no folder at the repository root shares the name of a code package. A new
prompt version is a new file; a template's bytes never change once answers to it are recorded.
"""

from __future__ import annotations

import dataclasses
import hashlib
import string
from collections.abc import Sequence
from pathlib import Path

from camel_jax import specs
from camel_jax.ultra.interpret import Window
from camel_jax.ultra.results import Critical

PROMPTS = Path(__file__).resolve().parent / "prompts"  # ULTRA's templates (shipped inside the package)
IDENTIFY_PROMPT = "ultra_identify_v1.md"
IMPROVE_PROMPTS = {"v2": "ultra_improve_v2.md", "v1": "ultra_improve_v1.md"}
IMPROVE_VERSION = "v2"
REWARD_RATES = {"v2": "suggested", "v1": "taken"}  # what each improvement prompt's reward rates
MAX_CRITICAL = 3  # critical steps per window: a few decisive moments before a fall, not a relabelling of it

ENDINGS = {
    "terminated": "The episode terminates after the last of these steps: the robot became unhealthy.",
    "truncated": "The episode is cut off after the last of these steps (time limit or end of the recording); it "
                 "did not fall.",
    "continues": "The episode continues after these steps.",
}


@dataclasses.dataclass(frozen=True)
class Query:
    kind: str  # "identify" or "improve"
    name: str
    text: str
    template: str  # "camel_jax/ultra/prompts/<file> sha256:<hex of the template file>"
    window: Window
    critical: tuple[Critical, ...] = ()  # improve: the steps asked about
    max_critical: int = MAX_CRITICAL  # identify: the most steps the answer may name


def prompt_file(name: str) -> Path:
    return PROMPTS / name


def display_path(name: str) -> str:
    """Template `name`'s path as recorded (queries, suggestions files): relative to the repository root."""
    return f"camel_jax/ultra/prompts/{name}"


def render(name: str, **fields: object) -> tuple[str, str]:
    """Fill template `name`; returns (text, provenance: "<display path> sha256:<hex of the template file>")."""
    raw = prompt_file(name).read_bytes()
    text = string.Template(raw.decode()).substitute({k: str(v) for k, v in fields.items()})
    return text, f"{display_path(name)} sha256:{hashlib.sha256(raw).hexdigest()}"


def identify_query(spec: specs.TaskSpec, window: Window, max_critical: int = MAX_CRITICAL) -> Query:
    text, template = render(IDENTIFY_PROMPT, **_fields(spec, window), max_critical=max_critical)
    return Query("identify", f"identify_{window.name}", text, template, window,
                 max_critical=max_critical)


def improve_query(spec: specs.TaskSpec, window: Window, critical: Sequence[Critical],
                  version: str = IMPROVE_VERSION) -> Query:
    critical = tuple(sorted(critical, key=lambda c: c.step))
    if not critical:
        raise ValueError(f"window {window.name}: no critical steps to ask about")
    if version not in IMPROVE_PROMPTS:
        raise ValueError(f"unknown improvement prompt version '{version}'; use one of {', '.join(IMPROVE_PROMPTS)}")
    text, template = render(
        IMPROVE_PROMPTS[version], **_fields(spec, window),
        critical_text="\n".join(f"- step {c.step}: {c.rationale}" for c in critical),
        critical_list=", ".join(str(c.step) for c in critical),
        action_order=", ".join(spec.act_names))
    return Query("improve", f"improve_{window.name}", text, template, window, critical)


def _fields(spec: specs.TaskSpec, window: Window) -> dict[str, object]:
    return {"gym_id": spec.gym_id, "description": spec.description, "obs_dim": spec.obs_dim,
            "act_dim": spec.act_dim, "tables": spec.markdown_tables(), "reward_text": spec.reward_text,
            "health_text": spec.health_text, "first_step": window.steps[0], "last_step": window.steps[-1],
            "episode": window.episode, "ending": ENDINGS[window.ending], "window_text": window.text}
