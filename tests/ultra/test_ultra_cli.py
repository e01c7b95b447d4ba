"""`camel-jax ultra`: the stages chained on a tiny PPO run with recorded answers (malformed ones included) down to a
refined run that matched states; `run` doing the same in one command; random selection's count; the llm provider
through the CLI over a mock HTTP transport; bad input as one line, exit 2, nothing written."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import httpx2
import numpy as np
from priors.priors_testlib import FAKE_KEY, Replay

from camel_jax import llm
from camel_jax.cli import main
from camel_jax.ultra import queries, results
from camel_jax.ultra.work import open_work

ROOT = Path(__file__).resolve().parents[2]


def ultra(*args) -> int:
    return main(["ultra", *map(str, args)])


def listing(path: Path) -> list[str]:
    return sorted(str(p.relative_to(path)) for p in path.rglob("*")) if path.exists() else []


def fenced(value) -> str:
    return f"Let me think.\n\n```json\n{json.dumps(value)}\n```\n"


def identified(*steps) -> str:
    return fenced({"critical_steps": [{"step": s, "rationale": f"step {s} leads to the fall"} for s in steps]})


def improved(steps, action=(0.5, -0.5, 0.0), reward=-0.5) -> str:
    return fenced({"case_analysis": "it leaned forward", "suggestions": [
        {"step": s, "action": list(action), "reward": reward, "rationale": "brake"} for s in steps]})


def write_answers(work_path: Path, folder: Path) -> dict:
    """Answers for both stages (seed 0 with malformed ones: not JSON, a step outside the window, a wrong action
    shape, rewards outside [-1, 1]; seed 1 all well-formed), and the tallies they must give."""
    w = open_work(work_path)
    (w0, w1, w2), (v0, v1, v2) = w.windows(0), w.windows(1)
    files = {
        0: {f"identify_{w0.name}.1.md": "The critical step is the last one, I think.",  # not JSON
            f"identify_{w0.name}.2.md": identified(w0.steps[-1], w0.steps[-2]),
            f"identify_{w1.name}.1.md": identified(w1.steps[0] - 1),  # not in the window; no 2nd answer: skipped
            f"identify_{w2.name}.1.md": identified(w2.steps[-1]),
            f"improve_{w0.name}.1.md": fenced({"case_analysis": "", "suggestions": [
                {"step": s, "action": [0.1, 0.2], "reward": 0.0, "rationale": "x"} for s in w0.steps[-2:]]}),
            f"improve_{w0.name}.2.md": improved(w0.steps[-2:], action=(1.7, -0.5, 0.0)),  # clipped, not malformed
            f"improve_{w2.name}.1.md": improved([w2.steps[-1]], reward=3.0),
            f"improve_{w2.name}.2.md": "```json\n{\"case_analysis\": \"x\", \"suggestions\": [\n```",
            f"improve_{w2.name}.3.md": improved([w2.steps[-1]], reward=-1.5)},  # three malformed: skipped
        1: {**{f"identify_{v.name}.1.md": identified(v.steps[-1]) for v in (v0, v1, v2)},
            **{f"improve_{v.name}.1.md": improved([v.steps[-1]]) for v in (v0, v1, v2)}},
    }
    for k, answers in files.items():
        (folder / f"seed_{k}").mkdir(parents=True, exist_ok=True)
        for name, text in answers.items():
            (folder / f"seed_{k}" / name).write_text(text)
    return {"identify": [(3, 2, 2, 1), (3, 3, 0, 0)], "improve": [(2, 1, 4, 1), (3, 3, 0, 0)],
            "critical": [[w0.steps[-1], w0.steps[-2], w2.steps[-1]], [v.steps[-1] for v in (v0, v1, v2)]],
            "suggested": [sorted(w0.steps[-2:]), sorted(v.steps[-1] for v in (v0, v1, v2))]}


def tally_of(path: Path) -> tuple:
    t = json.loads(path.read_text())["tally"]
    return t["queries"], t["answered"], t["malformed"], t["skipped"]


def matched(run_dir: Path) -> list[int]:
    with open(run_dir / "metrics.csv") as f:
        rows = list(csv.DictReader(f))
    return [sum(int(r["matched"]) for r in rows if r["seed"] == s) for s in ("0", "1")]


def check_arm(work_path: Path, arm: str, expected: dict) -> None:
    for k in range(2):
        critical = work_path / arm / f"seed_{k}" / "critical.json"
        suggestions = work_path / arm / f"seed_{k}" / "suggestions.json"
        assert results.provider(critical) == "recorded" and results.provider(suggestions) == "recorded"
        assert tally_of(critical) == expected["identify"][k] and tally_of(suggestions) == expected["improve"][k]
        assert [c.step for c in results.load(critical, "critical")[0]] == expected["critical"][k]
        found = results.load(suggestions, "suggestions")[0]
        assert [s.step for s in found] == expected["suggested"][k]
        assert all(s.source.startswith(f"recorded seed_{k}/improve_") for s in found)
        assert all(s.identified_by.startswith(f"recorded seed_{k}/identify_") for s in found)
    clipped = results.load(work_path / arm / "seed_0" / "suggestions.json", "suggestions")[0]
    assert [s.clipped for s in clipped] == [True, True] and clipped[0].action[0] == 1.0


def test_help_lists_the_stages():
    r = subprocess.run([sys.executable, "-m", "camel_jax.cli", "ultra", "--help"], cwd=ROOT, capture_output=True,
                       text=True, timeout=300, check=False)
    assert r.returncode == 0, r.stderr[-2000:]
    for stage in ("collect", "prompts", "identify", "improve", "table", "refine", "run"):
        assert f"• {stage}" in r.stdout


def test_chained_stages_with_recorded_answers_refine_with_matches(work, ppo_base, tmp_path, capsys):
    w = tmp_path / "work"
    shutil.copytree(work, w)
    assert ultra("prompts", w) == 0
    opened = open_work(w)
    for k in range(2):  # the files hold exactly what the recorded provider checks answers against
        for window in opened.windows(k):
            text = (w / "recorded" / "prompts" / f"seed_{k}" / f"identify_{window.name}.md").read_text()
            assert text == queries.identify_query(opened.spec, window, opened.max_critical).text
    expected = write_answers(w, w / "recorded" / "answers")
    assert ultra("identify", w, "--provider", "recorded") == 0
    out = capsys.readouterr().out
    assert "identify seed index 0 (recorded): 3 queries, 2 answered, 2 malformed, 1 skipped" in out
    assert ultra("prompts", w) == 0  # now the improvement prompts of the critical steps
    assert sorted(p.name for p in (w / "recorded" / "prompts" / "seed_0").glob("improve_*")) == sorted(
        f"improve_{v.name}.md" for v in (opened.windows(0)[0], opened.windows(0)[2]))
    assert ultra("improve", w, "--provider", "recorded") == 0
    check_arm(w, "recorded", expected)
    assert ultra("table", w, "--match-fraction", 0.5) == 0
    assert ultra("refine", w, "--mode", "A", "--steps", 128, "--out", tmp_path / "refined", "--quiet") == 0
    run_dir = tmp_path / "refined"
    config = json.loads((run_dir / "config.json").read_text())
    assert (config["init_from"], config["total_steps"], config["alpha"]) == (str(ppo_base), 128, 0.0)
    about = json.loads((run_dir / "ultra.json").read_text())
    assert (about["mode"], about["identified_by"], about["suggested_by"], about["entries"]) == (
        "A", "recorded", "recorded", [2, 3])
    assert all(t > 0 for t in about["tau"])
    assert all(m > 0 for m in matched(run_dir)), matched(run_dir)
    assert "ULTRA-A" in (run_dir / "prior.txt").read_text()
    # killed before its first checkpoint: `camel-jax resume` restarts it with its mode's guide (matches again)
    shutil.rmtree(run_dir / "checkpoints")
    (run_dir / "actor.msgpack").unlink()
    for name in ("metrics.csv", "eval.csv"):
        if (run_dir / name).is_file():
            (run_dir / name).write_text((run_dir / name).read_text().splitlines(keepends=True)[0])
    assert main(["resume", str(run_dir), "--quiet"]) == 0
    assert (run_dir / "actor.msgpack").is_file() and all(m > 0 for m in matched(run_dir)), matched(run_dir)


def test_run_chains_every_stage(work, ppo_base, tmp_path):
    answers = tmp_path / "answers"
    expected = write_answers(work, answers)  # the same windows: the collection repeats exactly
    assert ultra("run", ppo_base, "--work", tmp_path / "w", "--runs", tmp_path / "runs", "--answers", answers,
                 "--episodes", 3, "--window-steps", 8, "--modes", "A,none", "--steps", 128, "--match-fraction", 0.5,
                 "--quiet") == 0
    for k in range(2):
        np.testing.assert_array_equal(open_work(tmp_path / "w").trajectory(k).obs, open_work(work).trajectory(k).obs)
    check_arm(tmp_path / "w", "recorded", expected)
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == ["recorded_A", "recorded_none"]
    assert all(m > 0 for m in matched(tmp_path / "runs" / "recorded_A"))
    assert matched(tmp_path / "runs" / "recorded_none") == [0, 0]  # plain PPO continued: no guide
    assert json.loads((tmp_path / "runs" / "recorded_none" / "ultra.json").read_text())["mode"] == "none"


def test_random_selection_takes_the_given_number_of_states(work, tmp_path):
    w = tmp_path / "work"
    shutil.copytree(work, w)
    assert ultra("identify", w, "--provider", "value-drop") == 0
    assert ultra("identify", w, "--provider", "random", "--like", "value-drop") == 0
    assert ultra("identify", w, "--provider", "random", "--count", 4, "--arm", "random4", "--seed", 7) == 0
    opened = open_work(w)
    for k in range(2):
        value_drop = results.load(w / "value-drop" / f"seed_{k}" / "critical.json", "critical")[0]
        like = results.load(w / "random" / f"seed_{k}" / "critical.json", "critical")[0]
        four = results.load(w / "random4" / f"seed_{k}" / "critical.json", "critical")[0]
        assert len(value_drop) == 3 * 3 and len(like) == len(value_drop) and len(four) == 4
        for chosen in (like, four):
            steps = [c.step for c in chosen]
            assert len(set(steps)) == len(steps) and 0 <= min(steps) and max(steps) < opened.trajectory(k).length
        assert results.provider(w / "random4" / f"seed_{k}" / "critical.json") == "random"
        assert four[0].source == f"random seed {7 + k}"
    assert ultra("identify", w, "--provider", "random", "--count", 4, "--arm", "random4") == 2  # no --overwrite


def test_llm_identification_through_the_cli(work, tmp_path, monkeypatch):
    """The real anthropic SDK over a mock transport: the replies are saved for replay, the results say llm."""
    w = tmp_path / "work"
    shutil.copytree(work, w)
    monkeypatch.setenv(llm.API_KEY_ENV, FAKE_KEY)
    windows = [open_work(w).windows(k) for k in range(2)]
    replay = Replay()
    replay.responses = [{"status": 200, "headers": {"content-type": "application/json"}, "body": {
        "id": "msg", "type": "message", "role": "assistant", "model": "claude-sonnet-4-6", "stop_reason": "end_turn",
        "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1},
        "content": [{"type": "text", "text": identified(v.steps[-1])}]}} for ws in windows for v in ws]
    make_client = llm.make_client
    monkeypatch.setattr(llm, "make_client", lambda *a, **k: make_client(
        http_client=httpx2.Client(transport=httpx2.MockTransport(replay))))
    assert ultra("identify", w, "--provider", "llm") == 0
    for k in range(2):
        critical = results.load(w / "llm" / f"seed_{k}" / "critical.json", "critical")[0]
        assert [c.step for c in critical] == [v.steps[-1] for v in windows[k]]
        assert results.provider(w / "llm" / f"seed_{k}" / "critical.json") == "llm"
        assert critical[0].source.startswith("llm claude-sonnet-4-6 reply sha256:")
        assert sorted(p.name for p in (w / "llm" / "answers" / f"seed_{k}").iterdir()) == sorted(
            f"identify_{v.name}.1.md" for v in windows[k])
    assert not replay.responses


def test_bad_input_is_one_line_exit_2_and_writes_nothing(work, ppo_base, tmp_path, capsys, monkeypatch):
    w = tmp_path / "work"
    shutil.copytree(work, w)
    before = listing(w)
    cases = [
        (("identify", w, "--provider", "oracle"), "unknown provider 'oracle'; use --provider with one of"),
        (("identify", tmp_path / "missing", "--provider", "value-drop"), "does not exist; make one with"),
        (("identify", w, "--provider", "recorded", "--answers", tmp_path / "nowhere"), "answers folder not found"),
        (("identify", w, "--provider", "random"), "needs either --count K"),
        (("identify", w, "--provider", "llm"), f"{llm.API_KEY_ENV} is not set"),
        (("improve", w, "--provider", "policy", "--policy", "hopper"), "no identified arms"),
        (("table", w), "no identified arms"),
        (("refine", w, "--mode", "RA", "--steps", 128, "--out", tmp_path / "refined"), "no identified arms"),
        (("refine", w, "--mode", "none", "--steps", 10, "--out", tmp_path / "refined"), "less than one rollout"),
        (("refine", w, "--mode", "R", "--reward-width", 0, "--out", tmp_path / "refined"), "--reward-width must be"),
        (("prompts", w, "--improve-prompt", "v3"), "v3"),
        (("collect", tmp_path / "no_run", "--out", tmp_path / "new"), "does not exist; point ultra collect at"),
        (("collect", ppo_base, "--out", tmp_path / "new", "--episodes", 0), "--episodes must be at least 1"),
        (("collect", ppo_base, "--out", w), "exists; pass --overwrite"),
        (("run", ppo_base, "--work", tmp_path / "new", "--runs", tmp_path / "runs"), "needs --answers DIR"),
    ]
    monkeypatch.delenv(llm.API_KEY_ENV, raising=False)
    for args, message in cases:
        assert ultra(*args) == 2, args
        err = capsys.readouterr().err.strip()
        assert message in err and "\n" not in err and err.startswith(f"camel-jax ultra {args[0]}: "), (args, err)
    assert listing(w) == before
    assert not any((tmp_path / name).exists() for name in ("missing", "nowhere", "refined", "new", "runs"))
    assert listing(tmp_path) == sorted(["work", *(f"work/{p}" for p in before)])  # no stray temporary folders
