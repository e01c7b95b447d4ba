"""Generation: ask the LLM for candidate priors, then import each reply like an answer file (`importer`).

One request per candidate (independent samples of the same prompt, `--style jnp` by default, `paper` for the
paper's NumPy prompt, whose answers are translated: mechanically, else by the same model). A valid candidate is
saved as `<task>_<n>.py`, an invalid one as `<task>_<n>.py.rejected` (kept for inspection, never matched by
`<task>_*.py`), numbered after the candidates already in the folder; a reply without a code block saves nothing.
The default folder is the checkout's `priors/`; a wheel install writes to the working directory instead, never into
the installed package.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import re
from collections.abc import Callable
from pathlib import Path

from camel_jax import llm, specs
from camel_jax.priors import importer, prompt, sandbox, translate


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
    style: str = "jnp",
    command: str | None = None,
) -> list[Candidate]:
    """Generate `candidates` priors for `spec` with `model`; `client` defaults to `llm.make_client()` (needs
    ANTHROPIC_API_KEY). Saves under `out_dir` (default: `default_out_dir()`). API errors raise SetupError; files of
    earlier candidates stay (each file is written atomically)."""
    client = client or llm.make_client()
    out_dir = Path(out_dir) if out_dir is not None else default_out_dir()
    text, _, _ = prompt.build_prompt(spec, prompt.STYLES[style])
    translator = functools.partial(translate.translate, client=client, model=model, limits=limits)
    stem = specs.file_stem(spec.name)  # gym:Pendulum-v1 -> gym_Pendulum-v1
    first = next_number(out_dir, stem)
    results = []
    for number in range(first, first + candidates):
        reply, answered_by = llm.ask(client, model, text, max_tokens)
        answer = f"Messages API reply sha256:{hashlib.sha256(reply.encode()).hexdigest()}"
        header = importer.provenance(spec, style, answered_by, answer)
        outcome = importer.save_candidate(reply, spec, out_dir / f"{stem}_{number}.py", header, translator,
                                          limits, command)
        candidate = Candidate(number, outcome.ok, outcome.reason, outcome.path)
        results.append(candidate)
        if on_candidate is not None:
            on_candidate(candidate)
    return results


def default_out_dir() -> Path:
    """The checkout's `priors/` folder; the working directory when the package is installed from a wheel."""
    folder = specs.data_dir("priors")
    return Path.cwd() if folder.resolve().is_relative_to(Path(specs.__file__).resolve().parent) else folder


def next_number(out_dir: Path, task: str) -> int:
    """1 + the highest n of `<task>_<n>.py[.rejected]` already in `out_dir`."""
    pattern = re.compile(rf"{re.escape(task)}_(\d+)\.py(\.rejected)?$")
    numbers = [int(m.group(1)) for p in out_dir.glob(f"{task}_*") if (m := pattern.match(p.name))]
    return max(numbers, default=0) + 1
