"""The providers that answer ULTRA's prompts in text: `llm` (the Anthropic API, through the priors' client) and
`recorded` (answer files: a replay of an `llm` run, or answers pasted from any chat window). Both are one
`Answering` (an Identifier and a Suggester) around an answerer; the stand-ins without an LLM are in `standins`.

Answer files are named after the query and the attempt: `<folder>/<query name>.<k>.md` (or `.txt`, or `.json` for
an Anthropic Messages API response), e.g. `identify_ep0_t912-951.1.md`, then `.2.md` for the answer asked again
after a malformed first one. `llm_provider(..., save_to=folder)` writes its replies in that layout, so a run can be
replayed with `recorded_provider(folder)`. The prompts to paste are the queries' texts (`queries`), which need no
key.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Sequence
from pathlib import Path

from camel_jax import llm, specs
from camel_jax.errors import SetupError
from camel_jax.priors import answers
from camel_jax.ultra import queries, schema
from camel_jax.ultra.interpret import Window
from camel_jax.ultra.results import Critical, Suggestion, write_atomic
from camel_jax.ultra.stages import RETRIES, Answerer, Tally, ask
from camel_jax.ultra.trajectory import Trajectory

ANSWER_SUFFIXES = (".md", ".txt", ".json")


@dataclasses.dataclass(frozen=True)
class Answering:
    """Identifier and Suggester whose answers come from `answerer` (text, checked by `schema`)."""

    spec: specs.TaskSpec
    answerer: Answerer
    retries: int = RETRIES
    max_critical: int = queries.MAX_CRITICAL
    improve_version: str = queries.IMPROVE_VERSION  # the improvement prompt asked (queries.IMPROVE_PROMPTS)

    def identify(self, traj: Trajectory, window: Window, tally: Tally) -> list[Critical]:
        query = queries.identify_query(self.spec, window, self.max_critical)
        got = ask(query, self.answerer, self.retries, tally,
                  lambda v: schema.check_identification(v, window.steps, self.max_critical))
        return [] if got is None else [Critical(step, why, got[1]) for step, why in got[0]]

    def suggest(self, traj: Trajectory, window: Window, critical: Sequence[Critical],
                tally: Tally) -> list[Suggestion]:
        query = queries.improve_query(self.spec, window, critical, self.improve_version)
        steps = [c.step for c in query.critical]
        got = ask(query, self.answerer, self.retries, tally,
                  lambda v: schema.check_suggestions(v, steps, self.spec.act_dim))
        if got is None:
            return []
        (case, items), source = got
        return [Suggestion(step, tuple(traj.obs[step].tolist()), tuple(action.tolist()), reward, why, source,
                           c.source, clipped, case)
                for c, (step, action, reward, why, clipped) in zip(query.critical, items, strict=True)]


def llm_provider(spec: specs.TaskSpec, client=None, model: str = llm.DEFAULT_MODEL, retries: int = RETRIES,
                 max_critical: int = queries.MAX_CRITICAL, max_tokens: int = llm.MAX_TOKENS,
                 save_to: str | Path | None = None, improve_version: str = queries.IMPROVE_VERSION) -> Answering:
    """Answers from the Anthropic API (`client` defaults to `llm.make_client()`, which needs ANTHROPIC_API_KEY);
    each reply is saved under `save_to` (when given) for replay. Sources: `llm <model> reply sha256:<12 hex>`."""
    client = client or llm.make_client()

    def answer(query: queries.Query, k: int) -> tuple[str, str]:
        text, answered_by = llm.ask(client, model, query.text, max_tokens)
        if save_to is not None:
            write_atomic(Path(save_to) / f"{query.name}.{k}.md", text)
        return text, f"llm {answered_by} reply sha256:{hashlib.sha256(text.encode()).hexdigest()[:12]}"

    return Answering(spec, answer, retries, max_critical, improve_version)


def recorded_provider(spec: specs.TaskSpec, folder: str | Path, retries: int = RETRIES,
                      max_critical: int = queries.MAX_CRITICAL,
                      improve_version: str = queries.IMPROVE_VERSION) -> Answering:
    """Answers read from `folder` (module docstring); a query without an answer file is skipped and counted.
    Sources: `recorded <folder>/<file> sha256:<12 hex>[ model <model>]`."""
    folder = Path(folder)
    if not folder.is_dir():
        raise SetupError(f"answers folder not found: {folder}; check the path")

    def answer(query: queries.Query, k: int) -> tuple[str, str] | None:
        found = [p for p in (folder / f"{query.name}.{k}{s}" for s in ANSWER_SUFFIXES) if p.is_file()]
        if not found:
            return None
        if len(found) > 1:
            raise SetupError(f"{folder}: several answers for {query.name} attempt {k} "
                             f"({', '.join(p.name for p in found)}); keep one")
        try:
            read = answers.read(found[0])
        except RecursionError:  # a .json answer nested too deep for the JSON parser
            raise schema.Malformed(f"{found[0].name}: JSON nested too deep to read") from None
        source = f"recorded {folder.name}/{found[0].name} sha256:{read.sha256[:12]}" + \
            (f" model {read.model}" if read.model else "")
        if read.error:
            raise schema.Malformed(f"{found[0].name}: {read.error}")
        return read.text, source

    return Answering(spec, answer, retries, max_critical, improve_version)
