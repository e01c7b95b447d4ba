"""The JSON of an answer: where it is taken from, and what identification and improvement answers must satisfy."""

from __future__ import annotations

import json

import numpy as np
import pytest

from camel_jax.ultra.schema import Malformed, check_identification, check_suggestions, extract_json

STEPS = tuple(range(100, 140))


def test_json_is_taken_from_the_last_fenced_block_else_the_text():
    fenced = 'Reasoning...\n```json\n{"a": 1}\n```\nthen the final:\n```json\n{"a": 2}\n```\n'
    assert extract_json(fenced) == {"a": 2}
    assert extract_json('```\n{"a": 3}\n```') == {"a": 3}  # an untagged fence
    assert extract_json('{"a": 4}') == {"a": 4}
    assert extract_json('I pick these: {"a": {"b": 5}} and that is all.') == {"a": {"b": 5}}
    assert extract_json('```python\nx = {"a": 0}\n```\n{"a": 6}') == {"a": 6}  # code in other languages is not JSON


def test_a_broken_last_block_is_malformed_even_when_an_earlier_one_parses():
    with pytest.raises(Malformed, match="the last ```json block is not valid JSON"):
        extract_json('```json\n{"a": 1}\n```\n```json\n{"a": 2,}\n```')
    with pytest.raises(Malformed, match="no JSON object"):
        extract_json("The critical steps are 104 and 120.")


def _identification(*items) -> dict:
    return {"critical_steps": list(items)}


def test_identification_accepts_steps_of_the_window_with_rationales():
    answer = _identification({"step": 120, "rationale": " torso pitch grows "}, {"step": 104, "rationale": "x"})
    assert check_identification(answer, STEPS, 3) == [(120, "torso pitch grows"), (104, "x")]
    assert check_identification(_identification(), STEPS, 3) == []


@pytest.mark.parametrize("answer, reason", [
    ([], "the answer must be a JSON object"),
    ({"critical": []}, 'the answer has no "critical_steps"'),
    ({"critical_steps": {"step": 1}}, "critical_steps must be a list"),
    (_identification({"rationale": "r"}), 'critical_steps\\[0\\] has no "step"'),
    (_identification({"step": 120}), 'critical_steps\\[0\\] has no "rationale"'),
    (_identification({"step": 120, "rationale": ""}), "rationale must be a non-empty string"),
    (_identification({"step": "120", "rationale": "r"}), "must be an integer step number"),
    (_identification({"step": True, "rationale": "r"}), "must be an integer step number"),
    (_identification({"step": 120.5, "rationale": "r"}), "must be an integer step number"),
    (_identification({"step": 99, "rationale": "r"}), "step 99 is not one of the steps asked about \\(100..139\\)"),
    (_identification({"step": 120, "rationale": "r"}, {"step": 120, "rationale": "s"}), "step 120 appears twice"),
    (_identification(*({"step": s, "rationale": "r"} for s in (101, 102, 103, 104))), "4 items, at most 3"),
])
def test_identification_rejects(answer, reason):
    with pytest.raises(Malformed, match=reason):
        check_identification(answer, STEPS, 3)


def _suggestions(*items, case: object = "the agent leaned too far") -> dict:
    return {"case_analysis": case, "suggestions": list(items)}


def _item(step=120, action=(0.1, -0.2, 0.3), reward=-0.5, rationale="brake the lean") -> dict:
    return {"step": step, "action": list(action) if isinstance(action, tuple) else action, "reward": reward, "rationale": rationale}


def test_suggestions_are_checked_and_returned_in_the_order_of_the_critical_steps():
    case, items = check_suggestions(_suggestions(_item(step=130, reward=1), _item()), [120, 130], 3)
    assert case == "the agent leaned too far" and [i[0] for i in items] == [120, 130]
    _step, action, reward, rationale, clipped = items[0]
    assert action.dtype == np.float32 and np.allclose(action, [0.1, -0.2, 0.3]) and reward == -0.5
    assert rationale == "brake the lean" and not clipped and items[1][2] == 1.0


def test_actions_outside_the_unit_box_are_clipped_and_marked():
    _, [(_, action, _, _, clipped)] = check_suggestions(_suggestions(_item(action=(1.7, -3, 0.2))), [120], 3)
    assert clipped and action.tolist() == pytest.approx([1.0, -1.0, 0.2])


@pytest.mark.parametrize("answer, reason", [
    (_suggestions(_item(), case=None), "case_analysis must be a string"),
    ({"case_analysis": ""}, 'has no "suggestions"'),
    (_suggestions(_item(action=(0.1, 0.2))), "action has 2 numbers, the task has 3 actuators"),
    (_suggestions(_item(action=0.1)), "action must be a list"),
    (_suggestions(_item(action=(0.1, "0.2", 0.3))), "action\\[1\\] must be a finite number"),
    (_suggestions(_item(action=(0.1, float("nan"), 0.3))), "action\\[1\\] must be a finite number"),
    (_suggestions(_item(reward=1.5)), "reward is 1.5, outside \\[-1, 1\\]"),
    (_suggestions(_item(reward=float("inf"))), "reward must be a finite number"),
    (_suggestions({k: v for k, v in _item().items() if k != "reward"}), 'has no "reward"'),
    (_suggestions(_item(step=121)), "step 121 is not one of the steps asked about \\(\\[120\\]\\)"),
    (_suggestions(), "no suggestion for critical step\\(s\\) 120"),
])
def test_suggestions_reject(answer, reason):
    with pytest.raises(Malformed, match=reason):
        check_suggestions(answer, [120], 3)


def test_nan_in_answer_text_is_rejected_after_parsing():
    text = '```json\n' + json.dumps(_suggestions(_item(reward=float("nan")))) + '\n```'
    with pytest.raises(Malformed, match="reward must be a finite number"):
        check_suggestions(extract_json(text), [120], 3)


HUGE = 10 ** 400  # a 400-digit integer: valid JSON, no float holds it
DEEP = "[" * 100_000 + "]" * 100_000  # valid JSON nested deeper than the parser's recursion limit


@pytest.mark.parametrize("text, reason", [
    ("```json\n" + json.dumps(_suggestions(_item(reward=HUGE))) + "\n```", "reward must be a finite number"),
    ("```json\n" + json.dumps(_suggestions(_item(action=(0.1, HUGE, 0.3)))) + "\n```", "action\\[1\\] must be a finite"),
    ("```json\n" + json.dumps(_suggestions(_item(step=HUGE))) + "\n```", "is not one of the steps asked about"),
    ("```json\n" + json.dumps(_suggestions(_item(reward=-HUGE))) + "\n```", "reward must be a finite number"),
    ('```json\n{"case_analysis": "x", "suggestions": ' + DEEP + "}\n```", "nested too deep"),
    ("```json\n" + DEEP + "\n```", "nested too deep"),
    ("Here: {" + '"a": ' + DEEP + "}", "nested too deep"),  # no fence: the last object in the text
    ("```json\n" + "9" * 5000 + "\n```", "not valid JSON"),  # more digits than Python parses
    (('```json\n{"case_analysis": "x", "suggestions": [{"step": 120, "action": [0.1, 0.2, 0.3], "reward": NaN, '
     '"rationale": "r"}]}\n```'), "reward must be a finite number"),
    (('```json\n{"case_analysis": "x", "suggestions": [{"step": 120, "action": [Infinity, 0.2, 0.3], "reward": 0, '
     '"rationale": "r"}]}\n```'), "action\\[0\\] must be a finite number"),
    ("```json\n" + json.dumps(_suggestions(_item(action=[[0.1], 0.2, 0.3]))) + "\n```", "action\\[0\\] must be a"),
    ("```json\n" + json.dumps(_suggestions(_item(action=list(range(1000))))) + "\n```", "has 1000 numbers"),
    ("```json\n" + json.dumps(_suggestions(_item(rationale={"why": 1}))) + "\n```", "must be a non-empty string"),
    ("```json\n" + json.dumps(_suggestions(_item(), case=["x" * 10_000]))[:200] + "\n```", "not valid JSON"),
])
def test_any_malformed_answer_is_malformed_with_a_short_reason(text, reason):
    """Huge numbers, deep nesting, NaN/inf, wrong types and lengths: Malformed (never another exception), and the
    reason stays one short line whatever the answer holds."""
    with pytest.raises(Malformed, match=reason) as e:
        check_suggestions(extract_json(text), [120], 3)
    assert len(str(e.value)) < 200 and "\n" not in str(e.value)
