"""The JSON inside an LLM's answer, and the checks an identification or improvement answer must pass.

Extraction (`extract_json`): the last complete fenced block tagged `json` (or untagged) when the answer has one;
else the whole answer; else the last top-level `{...}` object in the text. Only that candidate is parsed: when it
is not JSON, the answer is malformed (an earlier block is never tried in its place).

Checks (an explicit checker: the two shapes are small, and `jsonschema` is not a dependency). An answer passes
whole or not at all (`Malformed` with the first problem); extra keys are ignored.
- identification: `{"critical_steps": [{"step": int, "rationale": non-empty str}, ...]}`, at most `max_critical`
  items, each step one of the window's, no step twice; an empty list is an answer (nothing critical).
- improvement: `{"case_analysis": str, "suggestions": [{"step": int, "action": [act_dim numbers], "reward":
  number, "rationale": str}, ...]}` with exactly one suggestion per critical step asked about.
  Actions outside [-1, 1] are clipped, and marked `clipped` (the environment clips any action the same way, so the
  suggestion keeps its meaning: full torque). Rewards outside [-1, 1] are rejected: the scale was given in the
  prompt, and there is no faithful way to map a reward of 3 onto it. Numbers must be finite (no NaN, Infinity) and
  fit a float (a 400-digit integer does not); JSON nested too deep to parse is malformed too. Problems quote at most
  a few dozen characters of the offending value.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

import numpy as np

from camel_jax.priors.answers import code_blocks

JSON_FENCES = frozenset({"json", ""})


class Malformed(ValueError):
    """An answer that cannot be used; the message names the first problem."""


def extract_json(text: str) -> object:
    """The JSON value of an answer (module docstring); Malformed when there is none."""
    blocks = code_blocks(text, JSON_FENCES)
    candidate = blocks[-1] if blocks else text.strip()
    try:
        return json.loads(candidate)
    except RecursionError:
        raise Malformed("the JSON is nested too deep to read") from None
    except ValueError as e:
        if blocks:
            raise Malformed(f"the last ```json block is not valid JSON ({_short(e, 100)})") from None
    found, decoder, i = None, json.JSONDecoder(), text.find("{")
    while i >= 0:
        try:
            found, end = decoder.raw_decode(text, i)
        except RecursionError:
            raise Malformed("the JSON is nested too deep to read") from None
        except ValueError:
            end = i + 1
        i = text.find("{", end)
    if found is None:
        raise Malformed("no JSON object in the answer")
    return found


def check_identification(value: object, steps: Sequence[int], max_critical: int) -> list[tuple[int, str]]:
    """[(step, rationale)] of a checked identification answer."""
    items = _list(_field(value, "critical_steps", "the answer"), "critical_steps")
    if len(items) > max_critical:
        raise Malformed(f"critical_steps has {len(items)} items, at most {max_critical} were asked for")
    found = []
    for k, item in enumerate(items):
        where = f"critical_steps[{k}]"
        step = _step(item, where, steps, [s for s, _ in found])
        found.append((step, _text(_field(item, "rationale", where), f"{where}.rationale")))
    return found


def check_suggestions(value: object, critical: Sequence[int], act_dim: int,
                      ) -> tuple[str, list[tuple[int, np.ndarray, float, str, bool]]]:
    """(case analysis, [(step, action clipped to [-1, 1], reward, rationale, clipped)]) of a checked improvement
    answer, in the order of `critical`."""
    case = _field(value, "case_analysis", "the answer")
    if not isinstance(case, str):
        raise Malformed(f"case_analysis must be a string, got {type(case).__name__}")
    items = _list(_field(value, "suggestions", "the answer"), "suggestions")
    by_step = {}
    for k, item in enumerate(items):
        where = f"suggestions[{k}]"
        step = _step(item, where, critical, list(by_step))
        action = _list(_field(item, "action", where), f"{where}.action")
        if len(action) != act_dim:
            raise Malformed(f"{where}.action has {len(action)} numbers, the task has {act_dim} actuators")
        action = np.array([_number(a, f"{where}.action[{i}]") for i, a in enumerate(action)], np.float32)
        reward = _number(_field(item, "reward", where), f"{where}.reward")
        if not -1.0 <= reward <= 1.0:
            raise Malformed(f"{where}.reward is {reward:g}, outside [-1, 1]")
        rationale = _text(_field(item, "rationale", where), f"{where}.rationale")
        clipped = np.clip(action, -1.0, 1.0)
        by_step[step] = (step, clipped, reward, rationale, bool(np.any(clipped != action)))
    missing = [s for s in critical if s not in by_step]
    if missing:
        raise Malformed(f"no suggestion for critical step(s) {', '.join(map(str, missing))}")
    return case, [by_step[s] for s in critical]


def _field(value: object, key: str, where: str) -> object:
    if not isinstance(value, dict):
        raise Malformed(f"{where} must be a JSON object, got {type(value).__name__}")
    if key not in value:
        raise Malformed(f"{where} has no \"{key}\"")
    return value[key]


def _list(value: object, where: str) -> list:
    if not isinstance(value, list):
        raise Malformed(f"{where} must be a list, got {type(value).__name__}")
    return value


def _step(item: object, where: str, allowed: Sequence[int], seen: list[int]) -> int:
    step = _field(item, "step", where)
    if isinstance(step, bool) or not isinstance(step, int):
        raise Malformed(f"{where}.step must be an integer step number, got {_short(step)}")
    if step not in allowed:
        asked = list(allowed) if len(allowed) <= 10 else f"{allowed[0]}..{allowed[-1]}"
        raise Malformed(f"{where}.step {_short(step)} is not one of the steps asked about ({asked})")
    if step in seen:
        raise Malformed(f"{where}.step {step} appears twice")
    return step


def _text(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise Malformed(f"{where} must be a non-empty string")
    return value.strip()


def _number(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Malformed(f"{where} must be a finite number, got {_short(value)}")
    try:
        number = float(value)  # OverflowError: an integer too large for a float
    except OverflowError:
        number = math.inf
    if not math.isfinite(number):
        raise Malformed(f"{where} must be a finite number, got {_short(value)}")
    return number


def _short(value: object, limit: int = 40) -> str:
    """repr(value) cut to `limit` characters: a problem line stays one short line whatever the answer holds."""
    try:
        text = repr(value) if not isinstance(value, Exception) else str(value)
    except ValueError:  # an integer with more digits than Python prints
        text = f"<{type(value).__name__} too large to print>"
    return text if len(text) <= limit else text[:limit - 3] + "..."
