"""The `llm` provider (real anthropic SDK over a mock HTTP transport) and the `recorded` provider (answer files), with
retries of malformed answers, skips, sources, and a whole run from answers to a table."""

from __future__ import annotations

import hashlib
import json
import socket
from types import SimpleNamespace

import numpy as np
import pytest
from priors.priors_testlib import FAKE_KEY, Replay

from camel_jax import llm, specs
from camel_jax.errors import SetupError
from camel_jax.ultra import interpret, providers, queries, results, stages, table, trajectory

HOPPER = specs.load("hopper")


@pytest.fixture
def api_key(monkeypatch):
    monkeypatch.setenv(llm.API_KEY_ENV, FAKE_KEY)


def _traj() -> trajectory.Trajectory:
    """Two episodes of 30 steps: a fall (steps 0-29), then one cut off by the recording (30-59)."""
    obs = np.zeros((60, 11), np.float32)
    obs[:, 0], obs[:, 1] = 1.2, np.tile(np.linspace(0.0, 0.25, 30), 2)
    steps = np.arange(60)
    return trajectory.make(obs, np.full((60, 3), 0.2), np.ones(60), steps == 29, steps == 59)


TRAJ = _traj()
WINDOWS = interpret.windows(HOPPER, TRAJ, max_steps=10, time_limits=True)  # ep0_t20-29 (a fall), ep1_t50-59 (cut)


def _fenced(value) -> str:
    return f"Let me think step by step.\n\n```json\n{json.dumps(value)}\n```\n"


IDENTIFIED = _fenced({"critical_steps": [{"step": 25, "rationale": "the pitch passes 0.2"},
                                         {"step": 22, "rationale": "the lean starts"}]})
IMPROVED = _fenced({"case_analysis": "the hopper leaned forward without braking", "suggestions": [
    {"step": 22, "action": [-0.5, 0.3, 0.1], "reward": -0.4, "rationale": "extend the thigh"},
    {"step": 25, "action": [-1.5, 0.0, 0.0], "reward": -0.9, "rationale": "brake hard"}]})


def _message(text: str) -> dict:
    return {"status": 200, "headers": {"content-type": "application/json"},
            "body": {"id": "msg_ultra", "type": "message", "role": "assistant", "model": "claude-sonnet-4-6",
                     "content": [{"type": "text", "text": text}], "stop_reason": "end_turn", "stop_sequence": None,
                     "usage": {"input_tokens": 10, "output_tokens": 10}}}


def _replay(*texts: str) -> Replay:
    replay = Replay()
    replay.responses = [_message(t) for t in texts]
    return replay


def test_prompts_render_from_versioned_templates_offline(monkeypatch):
    monkeypatch.delenv(llm.API_KEY_ENV, raising=False)
    monkeypatch.setattr(socket.socket, "connect", lambda *a: pytest.fail("a prompt touched the network"))
    query = queries.identify_query(HOPPER, WINDOWS[0], max_critical=2)
    sha = hashlib.sha256(queries.prompt_file(queries.IDENTIFY_PROMPT).read_bytes()).hexdigest()
    assert query.name == "identify_ep0_t20-29" and query.template == \
        f"camel_jax/ultra/prompts/ultra_identify_v1.md sha256:{sha}"
    assert queries.identify_query(HOPPER, WINDOWS[0], max_critical=2).text == query.text  # deterministic
    for part in (HOPPER.description, HOPPER.health_text, HOPPER.reward_text, WINDOWS[0].text, "at most 2 critical",
                 "Steps 20 to 29 of episode 0. The episode terminates after the last", '{"critical_steps": [{"step"'):
        assert part in query.text
    improve = queries.improve_query(HOPPER, WINDOWS[0], [results.Critical(25, "b", "s"), results.Critical(22, "a", "s")])
    assert "- step 22: a\n- step 25: b" in improve.text and "in this order: thigh_torque, leg_torque, foot_torque" \
        in improve.text and "one suggestion for each critical step (22, 25)" in improve.text
    assert improve.template.startswith("camel_jax/ultra/prompts/ultra_improve_v2.md sha256:")
    assert "$" not in query.text and "$" not in improve.text  # every placeholder filled
    # v2 asks for a rating of the suggested action (what the refinement pays for); v1, kept, rated the action taken
    assert "rating the action you suggest (not the action the agent took)" in improve.text
    old = queries.improve_query(HOPPER, WINDOWS[0], improve.critical, "v1")
    assert old.template.startswith("camel_jax/ultra/prompts/ultra_improve_v1.md sha256:")
    assert "rating the action the agent took at that step" in old.text and old.text != improve.text
    assert queries.REWARD_RATES == {"v2": "suggested", "v1": "taken"}


# The sha256 of each template file's bytes since it was written (when it was priors/prompts/<file>): the answers under
# bench/results/ultra_hopper/ were given to prompts rendered from these bytes, so a template never changes once used.
TEMPLATE_SHA256 = {"ultra_identify_v1.md": "eb0d8fb7d44987729879e9058249572be3b9efd69ee615e154a9058cd5663efc",
                   "ultra_improve_v1.md": "304ea50a5dbbf1b99c377c3e2bb4efe126e49c044ff39264eba3af689b8bf671",
                   "ultra_improve_v2.md": "32d3b876210970e4ea7c9d13530ec2e6712ded175e933c7950d3675889394b76"}


def test_the_templates_keep_their_bytes_and_record_them():
    assert {queries.IDENTIFY_PROMPT, *queries.IMPROVE_PROMPTS.values()} == set(TEMPLATE_SHA256)
    for name, sha in TEMPLATE_SHA256.items():
        assert hashlib.sha256(queries.prompt_file(name).read_bytes()).hexdigest() == sha, name
    critical = [results.Critical(25, "b", "s")]
    made = [queries.identify_query(HOPPER, WINDOWS[0]), queries.improve_query(HOPPER, WINDOWS[0], critical, "v1"),
            queries.improve_query(HOPPER, WINDOWS[0], critical, "v2")]
    assert [q.template for q in made] == [f"camel_jax/ultra/prompts/{name} sha256:{sha}"
                                          for name, sha in TEMPLATE_SHA256.items()]


def test_an_improvement_begun_before_the_prompts_moved_continues_with_the_same_prompt(tmp_path):
    """A suggestions file written before ULTRA's prompts left priors/prompts/ records that folder: the same template
    (by file name) continues it; another --improve-prompt is still refused."""
    from camel_jax.ultra import work as work_module

    def arm_file(arm, k, name):
        return tmp_path / arm / f"seed_{k}" / name

    w = SimpleNamespace(seeds=(0, 1), arm_dir=lambda arm: tmp_path / arm, arm_file=arm_file)
    for k in (0, 1):
        results.save(arm_file("llm", k, "suggestions.json"), "suggestions", [], provider="recorded", complete=False,
                     reward_rates="suggested", prompt="priors/prompts/ultra_improve_v2.md")
    work_module._start(w, "llm", "suggestions.json", "recorded", False, "improvement",
                       queries.display_path(queries.IMPROVE_PROMPTS["v2"]))
    with pytest.raises(SetupError, match="was started with the prompt priors/prompts/ultra_improve_v2.md; continue it "
                                         "with the same --improve-prompt"):
        work_module._start(w, "llm", "suggestions.json", "recorded", False, "improvement",
                           queries.display_path(queries.IMPROVE_PROMPTS["v1"]))


def test_llm_identifies_and_suggests_retrying_malformed_answers(api_key, tmp_path):
    replay = _replay("I think step 25 matters most.", IDENTIFIED,  # window 1: not JSON, then an answer
                     "no", "still no", "```json\n{\"critical\": []}\n```",  # window 2: three malformed: skipped
                     IMPROVED)
    provider = providers.llm_provider(HOPPER, client=replay.client(), retries=2, max_critical=2, save_to=tmp_path)
    critical, tally = stages.identify_all(provider, TRAJ, WINDOWS)
    assert [(c.step, c.rationale) for c in critical] == [(25, "the pitch passes 0.2"), (22, "the lean starts")]
    sha = hashlib.sha256(IDENTIFIED.encode()).hexdigest()[:12]
    assert critical[0].source == f"llm claude-sonnet-4-6 reply sha256:{sha}"
    assert (tally.queries, tally.answered, tally.attempts, tally.malformed, tally.skipped) == (2, 1, 5, 4, 1)
    assert tally.problems[0].startswith("identify_ep0_t20-29 attempt 1 (llm claude-sonnet-4-6 reply sha256:")
    assert tally.problems[-1].endswith('the answer has no "critical_steps"')
    sent = [b["messages"][0]["content"] for b in replay.bodies()]
    assert sent[:2] == [queries.identify_query(HOPPER, WINDOWS[0], 2).text] * 2  # a retry re-sends the same prompt
    assert sent[2] == queries.identify_query(HOPPER, WINDOWS[1], 2).text

    found, tally = stages.suggest_all(provider, HOPPER, TRAJ, WINDOWS, critical)
    assert [(s.step, s.action, s.reward, s.clipped) for s in found] == [
        (22, pytest.approx((-0.5, 0.3, 0.1)), -0.4, False), (25, (-1.0, 0.0, 0.0), -0.9, True)]
    assert found[0].identified_by == critical[0].source and found[0].source.startswith("llm claude-sonnet-4-6")
    assert found[0].case_analysis == "the hopper leaned forward without braking"
    assert found[1].obs == tuple(TRAJ.obs[25].tolist()) and tally.answered == 1
    assert replay.bodies()[-1]["messages"][0]["content"] == queries.improve_query(HOPPER, WINDOWS[0], critical).text
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "identify_ep0_t20-29.1.md", "identify_ep0_t20-29.2.md", "identify_ep1_t50-59.1.md",
        "identify_ep1_t50-59.2.md", "identify_ep1_t50-59.3.md", "improve_ep0_t20-29.1.md"]
    assert all(FAKE_KEY not in p.read_text() for p in tmp_path.iterdir())

    # the saved replies replay through `recorded` to the same choices
    replayed = providers.recorded_provider(HOPPER, tmp_path, retries=2, max_critical=2)
    again, tally = stages.identify_all(replayed, TRAJ, WINDOWS)
    assert [(c.step, c.rationale) for c in again] == [(c.step, c.rationale) for c in critical]
    assert again[0].source.startswith(f"recorded {tmp_path.name}/identify_ep0_t20-29.2.md sha256:{sha}")
    assert (tally.malformed, tally.skipped) == (4, 1)


def test_a_missing_key_is_a_setup_error(monkeypatch):
    monkeypatch.delenv(llm.API_KEY_ENV, raising=False)
    with pytest.raises(SetupError, match=f"{llm.API_KEY_ENV} is not set"):
        providers.llm_provider(HOPPER)


def test_recorded_run_with_malformed_answers_completes_to_a_table(tmp_path):
    answers = tmp_path / "answers"
    answers.mkdir()
    (answers / "identify_ep0_t20-29.1.md").write_text("Step 25, I would say.")  # not JSON
    (answers / "identify_ep0_t20-29.2.json").write_text(json.dumps(_message(IDENTIFIED)["body"]))  # API response
    # no answer at all for ep1's identification: skipped
    (answers / "improve_ep0_t20-29.1.txt").write_text(IMPROVED.replace('"reward": -0.4', '"reward": -4'))
    (answers / "improve_ep0_t20-29.2.md").write_text(IMPROVED)
    provider = providers.recorded_provider(HOPPER, answers, retries=1, max_critical=2)
    critical, id_tally = stages.identify_all(provider, TRAJ, WINDOWS)
    assert [c.step for c in critical] == [25, 22] and critical[0].source.endswith("model claude-sonnet-4-6")
    assert (id_tally.answered, id_tally.malformed, id_tally.skipped) == (1, 1, 1)
    assert "identify_ep1_t50-59: no answer for attempt 1" in id_tally.problems
    found, tally = stages.suggest_all(provider, HOPPER, TRAJ, WINDOWS, critical)
    assert [s.step for s in found] == [22, 25] and (tally.malformed, tally.skipped) == (1, 0)
    assert "reward is -4, outside [-1, 1]" in tally.problems[0]

    results.save(tmp_path / "critical.json", "critical", critical, id_tally.as_dict())
    results.save(tmp_path / "suggestions.json", "suggestions", found, tally.as_dict())
    loaded, saved_tally = results.load(tmp_path / "suggestions.json", "suggestions")
    assert loaded == found and saved_tally["malformed"] == 1
    assert results.load(tmp_path / "critical.json", "critical")[0] == critical
    with pytest.raises(SetupError, match="holds 'critical', not 'suggestions'"):
        results.load(tmp_path / "critical.json", "suggestions")

    built = table.build(loaded, np.zeros(11), np.ones(11), HOPPER.act_dim, capacity=8)
    table.save(tmp_path / "table.npz", built)
    again = table.load(tmp_path / "table.npz")
    assert again.sources == tuple(s.source for s in found) and again.steps.tolist() == [22, 25]
    hit, action, bonus = table.guide(again.table, 1e-3)(TRAJ.obs[25])
    assert bool(hit) and action.tolist() == [-1.0, 0.0, 0.0] and float(bonus) == pytest.approx(-0.9)


def test_recorded_folder_problems_are_setup_errors(tmp_path):
    with pytest.raises(SetupError, match="answers folder not found"):
        providers.recorded_provider(HOPPER, tmp_path / "missing")
    (tmp_path / "identify_ep0_t20-29.1.md").write_text(IDENTIFIED)
    (tmp_path / "identify_ep0_t20-29.1.txt").write_text(IDENTIFIED)
    with pytest.raises(SetupError, match="several answers for identify_ep0_t20-29 attempt 1"):
        stages.identify_all(providers.recorded_provider(HOPPER, tmp_path), TRAJ, WINDOWS[:1])
    (tmp_path / "identify_ep0_t20-29.1.txt").unlink()
    (tmp_path / "identify_ep0_t20-29.1.md").unlink()
    (tmp_path / "identify_ep0_t20-29.1.json").write_text("{not json")
    critical, tally = stages.identify_all(providers.recorded_provider(HOPPER, tmp_path, retries=0), TRAJ, WINDOWS[:1])
    assert critical == [] and tally.skipped == 1 and "not valid JSON" in tally.problems[0]


def test_malformed_answers_of_every_kind_are_counted_and_never_stop_the_stage(tmp_path):
    """Recorded answers to one improvement query, each attempt malformed another way (a 400-digit integer, deep
    nesting, NaN, a wrong type, a wrong length, an API response nested too deep), then a good one: the stage
    finishes, every bad attempt counted as malformed; another query whose answers are all bad is skipped."""
    huge, deep = 10 ** 400, "[" * 100_000 + "]" * 100_000
    item = {"step": 22, "action": [0.1, 0.2, 0.3], "reward": 0.5, "rationale": "r"}
    bad = [{**item, "reward": huge}, {**item, "action": [0.1, huge, 0.3]}, {**item, "step": huge},
           {**item, "reward": float("nan")}, {**item, "action": "up"}, {**item, "action": [0.1] * 7}]
    folder = tmp_path / "answers"
    folder.mkdir()
    for k, b in enumerate(bad, start=1):
        (folder / f"improve_ep0_t20-29.{k}.md").write_text(_fenced({"case_analysis": "x", "suggestions": [b]}))
    (folder / "improve_ep0_t20-29.7.md").write_text('```json\n{"case_analysis": "x", "suggestions": ' + deep + "}\n```")
    (folder / "improve_ep0_t20-29.8.json").write_text('{"content": ' + deep + "}")  # an API response, too deep
    (folder / "improve_ep0_t20-29.9.md").write_text(_fenced({"case_analysis": "x", "suggestions": [item]}))
    (folder / "improve_ep1_t50-59.1.md").write_text(_fenced({"case_analysis": "x", "suggestions": [
        {**item, "step": 55, "reward": -huge}]}))
    provider = providers.recorded_provider(HOPPER, folder, retries=8)
    critical = [results.Critical(22, "r", "s"), results.Critical(55, "r", "s")]
    found, tally = stages.suggest_all(provider, HOPPER, TRAJ, WINDOWS, critical)
    assert [(s.step, s.reward) for s in found] == [(22, 0.5)]
    assert (tally.queries, tally.answered, tally.malformed, tally.skipped) == (2, 1, 9, 1)
    assert all(len(p) < 300 for p in tally.problems), tally.problems
    assert "nested too deep" in tally.problems[6] and "nested too deep" in tally.problems[7]


def test_an_unforeseen_error_in_reading_an_answer_is_malformed_not_a_crash():
    """Whatever a check raises on an untrusted answer (a bug's TypeError, say) counts that answer as malformed;
    the answerer's own errors (no key, no network: SetupError) still stop the stage."""
    query = queries.identify_query(HOPPER, WINDOWS[0])
    tally = stages.Tally()

    def broken_check(value):
        raise TypeError("unsupported operand")

    assert stages.ask(query, lambda q, k: (IDENTIFIED, "test"), 1, tally, broken_check) is None
    assert (tally.malformed, tally.skipped) == (2, 1) and "TypeError: unsupported operand" in tally.problems[0]

    def no_network(q, k):
        raise SetupError("cannot reach the Anthropic API")

    with pytest.raises(SetupError, match="cannot reach"):
        stages.ask(query, no_network, 1, stages.Tally(), lambda v: v)
