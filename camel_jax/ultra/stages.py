"""ULTRA's two asking stages over a trajectory's windows, behind one small interface, with the tally of what failed.

An `Identifier` names critical steps of a window; a `Suggester` gives, for a window's critical steps, a suggested
action and an implicit reward. Providers (`providers.llm_provider`, `providers.recorded_provider`, the stand-ins in
`standins`) implement one or both. Answers in text go through `ask`: an answer that is not JSON or fails the checks
(`schema`) is malformed; the query is asked again, up to `1 + retries` attempts, then skipped and counted. Nothing
is ever made up for a skipped query: its window contributes no critical steps or suggestions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Protocol

from camel_jax import specs
from camel_jax.ultra import interpret, schema
from camel_jax.ultra.interpret import Window
from camel_jax.ultra.queries import Query
from camel_jax.ultra.results import Critical, Suggestion
from camel_jax.ultra.trajectory import Trajectory

RETRIES = 2  # a malformed answer is asked again twice (three attempts in all) before the query is skipped


@dataclasses.dataclass
class Tally:
    queries: int = 0
    answered: int = 0  # queries that got an answer passing the checks
    attempts: int = 0  # answers received (or read)
    malformed: int = 0  # answers that failed extraction or the checks
    skipped: int = 0  # queries given up: every attempt malformed, or no (more) answers
    problems: list[str] = dataclasses.field(default_factory=list)  # "<query> attempt <k> (<source>): <reason>"

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


class Identifier(Protocol):
    def identify(self, traj: Trajectory, window: Window, tally: Tally) -> list[Critical]: ...


class Suggester(Protocol):
    def suggest(self, traj: Trajectory, window: Window, critical: Sequence[Critical],
                tally: Tally) -> list[Suggestion]: ...


# An answerer returns attempt k's (text, source) for a query, None when it has no (more) answers, or raises
# schema.Malformed for an answer it cannot read.
Answerer = Callable[[Query, int], tuple[str, str] | None]


def ask(query: Query, answerer: Answerer, retries: int, tally: Tally, check: Callable[[object], object],
        ) -> tuple[object, str] | None:
    """(checked value, source) of the first well-formed answer to `query` within `1 + retries` attempts; None
    (counted as skipped) when there is none."""
    tally.queries += 1
    for k in range(1, retries + 2):
        source = "?"
        try:
            reply = answerer(query, k)
            if reply is None:
                tally.problems.append(f"{query.name}: no answer for attempt {k}")
                break
            tally.attempts += 1
            text, source = reply
            value = check(schema.extract_json(text))
        except schema.Malformed as e:
            tally.malformed += 1
            tally.problems.append(f"{query.name} attempt {k} ({source}): {e}")
            continue
        tally.answered += 1
        return value, source
    tally.skipped += 1
    return None


def identify_all(identifier: Identifier, traj: Trajectory, windows: Sequence[Window],
                 ) -> tuple[list[Critical], Tally]:
    """The critical steps of all `windows` (in window order) and the tally."""
    tally = Tally()
    return [c for w in windows for c in identifier.identify(traj, w, tally)], tally


def suggest_all(suggester: Suggester, spec: specs.TaskSpec, traj: Trajectory, windows: Sequence[Window],
                critical: Sequence[Critical], max_steps: int = interpret.MAX_STEPS,
                max_chars: int = interpret.MAX_CHARS) -> tuple[list[Suggestion], Tally]:
    """Suggestions for the `critical` steps, one query per window holding some of them; a step that lies in none of
    `windows` (random selection) gets a window of its own (`interpret.window_around`)."""
    groups: dict[Window, list[Critical]] = {}
    for c in sorted(critical, key=lambda c: c.step):
        window = next((w for w in windows if c.step in w.steps), None) or \
            interpret.window_around(spec, traj, c.step, max_steps, max_chars)
        groups.setdefault(window, []).append(c)
    tally = Tally()
    return [s for w, cs in groups.items() for s in suggester.suggest(traj, w, cs, tally)], tally
