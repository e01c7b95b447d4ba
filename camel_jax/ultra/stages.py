"""ULTRA's two asking stages over a trajectory's windows, behind one small interface, with the tally of what failed.

An `Identifier` names critical steps of a window; a `Suggester` gives, for a window's critical steps, a suggested
action and an implicit reward. Providers (`providers.llm_provider`, `providers.recorded_provider`, the stand-ins in
`standins`) implement one or both. Answers in text go through `ask`: an answer that is not JSON or fails the checks
(`schema`), whatever is wrong with it (huge numbers, deep nesting, wrong types, NaN, wrong lengths), is malformed;
the query is asked again, up to `1 + retries` attempts, then skipped and counted. Nothing is ever made up for a
skipped query: its window contributes no critical steps or suggestions.

`identify_all` and `suggest_all` go through the windows one query at a time; `Done` is what they have so far (items,
tally, the windows asked), which they can start from (a stage stopped midway continues) and hand to `after` once per
query (the stage's file is written as it goes).
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


# What reading an untrusted answer may raise besides schema.Malformed, whatever the checks missed: each makes the
# answer malformed, never an error of the stage.
UNTRUSTED_ERRORS = (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError, RecursionError)


def ask(query: Query, answerer: Answerer, retries: int, tally: Tally, check: Callable[[object], object],
        ) -> tuple[object, str] | None:
    """(checked value, source) of the first well-formed answer to `query` within `1 + retries` attempts; None
    (counted as skipped) when there is none."""
    tally.queries += 1
    for k in range(1, retries + 2):
        source = "?"
        try:
            reply = answerer(query, k)  # its own errors (no key, no network, ...) stop the stage
        except schema.Malformed as e:  # an answer file that cannot be read as text
            problem = str(e)
        else:
            if reply is None:
                tally.problems.append(f"{query.name}: no answer for attempt {k}")
                break
            tally.attempts += 1
            text, source = reply
            try:
                value = check(schema.extract_json(text))
            except schema.Malformed as e:
                problem = str(e)
            except UNTRUSTED_ERRORS as e:
                problem = f"unreadable ({type(e).__name__}: {str(e)[:120]})"
            else:
                tally.answered += 1
                return value, source
        tally.malformed += 1
        tally.problems.append(f"{query.name} attempt {k} ({source}): {problem}")
    tally.skipped += 1
    return None


@dataclasses.dataclass
class Done:
    """What a stage has done for one seed: its items so far, its tally, and the windows it has asked about."""

    items: list = dataclasses.field(default_factory=list)
    tally: Tally = dataclasses.field(default_factory=Tally)
    asked: list[str] = dataclasses.field(default_factory=list)


def identify_all(identifier: Identifier, traj: Trajectory, windows: Sequence[Window], done: Done | None = None,
                 after: Callable[[Done], None] | None = None) -> tuple[list[Critical], Tally]:
    """The critical steps of all `windows` (in window order) and the tally; from `done` on (windows it asked are
    not asked again), calling `after(done)` after each query."""
    done = Done() if done is None else done
    for w in windows:
        if w.name not in done.asked:
            done.items.extend(identifier.identify(traj, w, done.tally))
            done.asked.append(w.name)
            if after is not None:
                after(done)
    return done.items, done.tally


def suggest_all(suggester: Suggester, spec: specs.TaskSpec, traj: Trajectory, windows: Sequence[Window],
                critical: Sequence[Critical], max_steps: int = interpret.MAX_STEPS,
                max_chars: int = interpret.MAX_CHARS, done: Done | None = None,
                after: Callable[[Done], None] | None = None) -> tuple[list[Suggestion], Tally]:
    """Suggestions for the `critical` steps, one query per window holding some of them; a step that lies in none of
    `windows` (random selection) gets a window of its own (`interpret.window_around`). `done`, `after`: as for
    `identify_all`."""
    groups: dict[Window, list[Critical]] = {}
    for c in sorted(critical, key=lambda c: c.step):
        window = next((w for w in windows if c.step in w.steps), None) or \
            interpret.window_around(spec, traj, c.step, max_steps, max_chars)
        groups.setdefault(window, []).append(c)
    done = Done() if done is None else done
    for w, cs in groups.items():
        if w.name not in done.asked:
            done.items.extend(suggester.suggest(traj, w, cs, done.tally))
            done.asked.append(w.name)
            if after is not None:
                after(done)
    return done.items, done.tally
