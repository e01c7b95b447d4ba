"""Generation: ask the LLM for candidate priors, validate each, save each with its provenance header.

One request per candidate (independent samples of the same prompt). A valid candidate is saved as
`<task>_<n>.py`, an invalid one as `<task>_<n>.py.rejected` (kept for inspection, never matched by `<task>_*.py`),
numbered after the candidates already in the folder; a reply without a code block saves nothing.
"""

from __future__ import annotations

import dataclasses
import datetime
import re
from collections.abc import Callable
from pathlib import Path

from camel_jax import specs
from camel_jax.priors import llm, loader, prompt, sandbox


@dataclasses.dataclass(frozen=True)
class Candidate:
    number: int
    ok: bool
    reason: str  # why it was rejected; "" when valid
    path: Path | None  # the saved file; None when the reply had no code


def generate(
    spec: specs.TaskSpec,
    candidates: int,
    model: str = llm.DEFAULT_MODEL,
    client=None,
    out_dir: str | Path | None = None,
    max_tokens: int = llm.MAX_TOKENS,
    limits: sandbox.Limits = sandbox.DEFAULT_LIMITS,
    on_candidate: Callable[[Candidate], None] | None = None,
) -> list[Candidate]:
    """Generate `candidates` priors for `spec` with `model`; `client` defaults to `llm.make_client()` (needs
    ANTHROPIC_API_KEY). Saves under `out_dir` (default: the shipped `priors/` folder). API errors raise SetupError;
    files of earlier candidates stay (each file is written atomically)."""
    client = client or llm.make_client()
    out_dir = Path(out_dir) if out_dir is not None else specs.data_dir("priors")
    text, prompt_path, sha = prompt.build_prompt(spec)
    first = next_number(out_dir, spec.name)
    results = []
    for number in range(first, first + candidates):
        reply, answered_by = llm.ask(client, model, text, max_tokens)
        candidate = _save(spec, number, reply, answered_by, f"{prompt.display_path(prompt_path)} sha256:{sha}",
                          out_dir, limits)
        results.append(candidate)
        if on_candidate is not None:
            on_candidate(candidate)
    return results


def next_number(out_dir: Path, task: str) -> int:
    """1 + the highest n of `<task>_<n>.py[.rejected]` already in `out_dir`."""
    pattern = re.compile(rf"{re.escape(task)}_(\d+)\.py(\.rejected)?$")
    numbers = [int(m.group(1)) for p in out_dir.glob(f"{task}_*") if (m := pattern.match(p.name))]
    return max(numbers, default=0) + 1


def _save(spec, number, reply, model, prompt_field, out_dir, limits) -> Candidate:
    code = llm.extract_code(reply)
    if code is None:
        return Candidate(number, False, "the reply has no ```python code block defining policy(obs)", None)
    result = sandbox.validate_source(code, spec.name, limits=limits)
    header = {
        "task": spec.name,
        "model": model,
        "prompt": prompt_field,
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "validation": result.summary,
    }
    name = f"{spec.name}_{number}.py" + ("" if result.ok else ".rejected")
    return Candidate(number, result.ok, result.reason, loader.write_prior(out_dir / name, code, header))
