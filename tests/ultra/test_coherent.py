"""Issue #23's ULTRA, through the CLI on the tiny base run: stages that write as they go and continue after an error;
time-limit windows left out unless asked for; the exact v2 prompts per seed, and v1 answers refused by the table;
the matched steps on the console and a warning for a table that never matches; the base run's reward statistics
carried into a refinement (PPO continued included) and on through a resume; collection on the base run's backend;
old refined runs refused by resume."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import jax
import numpy as np
from flax import serialization
from test_ultra_cli import identified, improved, ultra

from camel_jax import envs
from camel_jax.cli import main
from camel_jax.ultra import queries, results, table, trajectory
from camel_jax.ultra.work import open_work


def _copy(work: Path, tmp_path: Path) -> Path:
    w = tmp_path / "work"
    shutil.copytree(work, w)
    return w


def _answer_all(w: Path, folder: Path, stage: str) -> None:
    """A well-formed answer for every window of every seed (identify: its last step; improve: that step)."""
    opened = open_work(w)
    for k in range(len(opened.seeds)):
        (folder / f"seed_{k}").mkdir(parents=True, exist_ok=True)
        for v in opened.windows(k):
            text = identified(v.steps[-1]) if stage == "identify" else improved([v.steps[-1]], reward=0.5)
            (folder / f"seed_{k}" / f"{stage}_{v.name}.1.md").write_text(text)


def test_a_stage_stopped_midway_keeps_its_results_and_continues(work, tmp_path, capsys):
    w = _copy(work, tmp_path)
    answers = w / "recorded" / "answers"
    _answer_all(w, answers, "identify")
    first, second, _ = open_work(w).windows(0)
    (answers / "seed_0" / f"identify_{second.name}.1.txt").write_text("a second answer file: an error of the files")
    assert ultra("identify", w, "--provider", "recorded") == 2
    err = capsys.readouterr().err
    assert "several answers" in err and "run the same command again to continue" in err and err.count("\n") == 1
    path = w / "recorded" / "seed_0" / "critical.json"
    about = results.about(path)
    assert not about["complete"] and about["asked"] == [first.name]  # the first query's answer is kept
    assert [c.step for c in results.load(path, "critical")[0]] == [first.steps[-1]]
    assert open_work(w).arms() == []  # not identified yet: the next stages refuse it
    assert ultra("improve", w, "--provider", "recorded", "--arm", "recorded") == 2
    assert "stopped before it finished; run the same camel-jax ultra identify" in capsys.readouterr().err
    assert ultra("identify", w, "--provider", "value-drop", "--arm", "recorded") == 2  # another provider
    assert "was started with --provider recorded" in capsys.readouterr().err

    (answers / "seed_0" / f"identify_{second.name}.1.txt").unlink()
    (answers / "seed_0" / f"identify_{first.name}.1.md").unlink()  # asked already: not asked again
    assert ultra("identify", w, "--provider", "recorded") == 0
    assert "identify seed index 0 (recorded): 3 queries, 3 answered, 0 malformed, 0 skipped" in capsys.readouterr().out
    assert results.is_complete(path) and open_work(w).arms() == ["recorded"]
    assert [c.step for c in results.load(path, "critical")[0]] == [v.steps[-1] for v in open_work(w).windows(0)]
    assert ultra("identify", w, "--provider", "recorded") == 2  # complete: only --overwrite starts it again
    assert "already has its identification done; pass --overwrite" in capsys.readouterr().err


def test_time_limit_windows_are_left_out_unless_the_work_directory_says_so(work, tmp_path, ppo_base):
    w = _copy(work, tmp_path)
    traj = open_work(w).trajectory(0)
    (first, last), *_ = traj.episodes()
    assert traj.terminated[last]  # the tiny base falls; make its first episode a time-limit one
    terminated, truncated = traj.terminated.copy(), traj.truncated.copy()
    terminated[last], truncated[last] = False, True
    trajectory.save(w / "seed_0" / "trajectory.npz", trajectory.make(traj.obs, traj.actions, traj.rewards,
                                                                     terminated, truncated))
    names = [v.name for v in open_work(w).windows(0)]
    assert len(names) == 2 and not any(n.startswith("ep0_") for n in names)
    info = json.loads((w / "work.json").read_text())
    (w / "work.json").write_text(json.dumps({**info, "time_limit_windows": True}))
    assert [v.name for v in open_work(w).windows(0)][-1].startswith("ep0_")
    assert ultra("identify", w, "--provider", "value-drop") == 0  # the candidates are those windows' steps
    steps = {c.step for c in results.load(w / "value-drop" / "seed_0" / "critical.json", "critical")[0]}
    assert steps & set(range(first, last + 1))
    assert ultra("collect", ppo_base, "--out", tmp_path / "w2", "--episodes", 1, "--time-limit-windows") == 0
    assert json.loads((tmp_path / "w2" / "work.json").read_text())["time_limit_windows"] is True


def test_prompts_print_the_v2_texts_per_seed_and_v1_answers_make_no_table(work, tmp_path, capsys):
    w = _copy(work, tmp_path)
    answers = w / "recorded" / "answers"
    _answer_all(w, answers, "identify")
    assert ultra("identify", w, "--provider", "recorded") == 0
    capsys.readouterr()
    assert ultra("prompts", w, "--show") == 0
    out = capsys.readouterr().out
    opened = open_work(w)
    for k in range(2):
        critical = results.load(w / "recorded" / f"seed_{k}" / "critical.json", "critical")[0]
        for v in opened.windows(k):
            query = queries.improve_query(opened.spec, v, [c for c in critical if c.step in v.steps])
            path = w / "recorded" / "prompts" / f"seed_{k}" / f"{query.name}.md"
            assert f"===== {path} =====\n{query.text}\n" in out  # exactly the text to give the LLM
            assert "rating the action you suggest" in query.text
    assert "--improve-prompt v2" in out.splitlines()[-1]
    _answer_all(w, answers, "improve")
    assert ultra("improve", w, "--provider", "recorded", "--improve-prompt", "v1") == 0
    about = results.about(w / "recorded" / "seed_0" / "suggestions.json")
    assert (about["reward_rates"], about["prompt"]) == ("taken", "camel_jax/ultra/prompts/ultra_improve_v1.md")
    assert ultra("table", w) == 2
    assert "rate the action the agent took" in capsys.readouterr().err
    assert not (w / "recorded" / "seed_0" / "table.npz").exists()
    assert ultra("improve", w, "--provider", "recorded", "--overwrite") == 0  # v2: the same answers, now rating
    assert results.about(w / "recorded" / "seed_0" / "suggestions.json")["reward_rates"] == "suggested"
    assert ultra("table", w) == 0


def _policy_arm(work: Path, tmp_path: Path) -> Path:
    w = _copy(work, tmp_path)
    assert ultra("identify", w, "--provider", "value-drop") == 0
    assert ultra("improve", w, "--provider", "policy", "--policy", "hopper") == 0
    assert ultra("table", w, "--match-fraction", 0.5) == 0
    return w


def test_the_console_shows_matches_and_warns_when_a_table_never_matches(work, tmp_path, capsys):
    w = _policy_arm(work, tmp_path)
    capsys.readouterr()
    assert ultra("refine", w, "--mode", "R", "--steps", 128, "--out", tmp_path / "r") == 0
    out = capsys.readouterr()
    lines = [line for line in out.out.splitlines() if line.startswith("step ")]
    assert lines and all("matched" in line for line in lines)  # the progress lines count the matches
    assert "matched steps per seed: [" in out.out and "matched no state" not in out.err
    about = json.loads((tmp_path / "r" / "ultra.json").read_text())
    assert all(m > 0 for m in about["matched"]) and about["reward_width"] == table.WIDTH
    for k in range(2):  # a tau no state comes within: the refinement is plain PPO, and says so
        built = table.load(w / "value-drop" / f"seed_{k}" / "table.npz")
        table.save(w / "value-drop" / f"seed_{k}" / "table.npz", dataclasses.replace(built, tau=1e-9))
    assert ultra("refine", w, "--mode", "R", "--steps", 128, "--out", tmp_path / "never", "--quiet") == 0
    err = capsys.readouterr().err
    assert "warning:" in err and "seed(s) 0, 1 matched no state" in err and "--match-fraction" in err
    assert json.loads((tmp_path / "never" / "ultra.json").read_text())["matched"] == [0, 0]


def _reward_stats(run_dir: Path) -> np.ndarray:
    return np.asarray(serialization.msgpack_restore((run_dir / "actor.msgpack").read_bytes())["reward_stats"]["count"])


def test_refinements_carry_the_base_reward_statistics_and_a_resume_continues_them(work, ppo_base, tmp_path):
    """PPO continued and ULTRA-RA start from the base run's reward statistics (not a fresh variance of 1, which
    scaled the first rewards up to the clip); a refinement killed after its first checkpoint and resumed ends with
    the count of one uninterrupted run (base + its steps), so the checkpoint kept them."""
    base = _reward_stats(ppo_base)
    np.testing.assert_allclose(base, 1e-4 + 384, rtol=1e-6)
    w = _policy_arm(work, tmp_path)
    assert ultra("refine", w, "--mode", "none", "--steps", 128, "--out", tmp_path / "none", "--quiet") == 0
    np.testing.assert_allclose(_reward_stats(tmp_path / "none"), base + 128, rtol=1e-6)  # PPO continued
    run_dir = tmp_path / "RA"
    assert ultra("refine", w, "--mode", "RA", "--steps", 384, "--out", run_dir, "--quiet") == 0
    np.testing.assert_allclose(_reward_stats(run_dir), base + 384, rtol=1e-6)
    assert (run_dir / "checkpoints" / "256").is_dir()
    shutil.rmtree(run_dir / "checkpoints" / "384")  # killed after the checkpoint at 256
    (run_dir / "actor.msgpack").unlink()
    (run_dir / "ultra.json").write_text(json.dumps({k: v for k, v in json.loads(
        (run_dir / "ultra.json").read_text()).items() if k != "matched"}))  # as written when the run was made
    for name in ("metrics.csv", "eval.csv"):
        lines = (run_dir / name).read_text().splitlines(keepends=True)
        (run_dir / name).write_text("".join(lines[:1] + [x for x in lines[1:] if int(x.split(",")[0]) <= 256]))
    assert main(["resume", str(run_dir), "--quiet"]) == 0  # the guide's tables restored from the checkpoint
    np.testing.assert_allclose(_reward_stats(run_dir), base + 384, rtol=1e-6)
    assert len(json.loads((run_dir / "ultra.json").read_text())["matched"]) == 2


def test_collection_runs_on_the_backend_the_base_run_trained_on(ppo_base, tmp_path, capsys):
    """A base run trained on MJX is collected on MJX: episode e of every seed starts from the e-th initial state of
    the MJX env reset with PRNGKey(env seed), not from gymnasium's reset. (4 envs, as tests/test_autoreset.py: the
    same compiled MJX programs, from the persistent cache.)"""
    base = tmp_path / "mjx_base"
    shutil.copytree(ppo_base, base)
    config = json.loads((base / "config.json").read_text())
    (base / "config.json").write_text(json.dumps({**config, "backend": "mjx"}))
    assert ultra("collect", base, "--out", tmp_path / "w", "--episodes", 2) == 0
    assert "collected on mjx, the backend the base run trained on" in capsys.readouterr().out
    w = open_work(tmp_path / "w")
    assert w.backend == "mjx"
    starts = np.asarray(envs.make("hopper", "mjx", 4).jitted()[0](jax.random.PRNGKey(0)).obs)[:2]  # collect's reset
    for k in range(2):
        traj = w.trajectory(k)
        np.testing.assert_allclose(traj.obs[[first for first, _ in traj.episodes()]], starts, atol=1e-6)
    gym_start = envs.make("hopper", "gymnasium", 1).reset(0).obs[0]
    assert not np.allclose(starts[0], gym_start)


def test_resume_refuses_a_run_refined_under_the_old_rule(ppo_base, tmp_path, capsys):
    run_dir = tmp_path / "old"
    shutil.copytree(ppo_base, run_dir)
    (run_dir / "prior.txt").write_text("guide: ULTRA-RA: tables work/value-drop/seed_<k>/table.npz (arm value-drop)\n")
    assert main(["resume", str(run_dir)]) == 2
    err = capsys.readouterr().err
    assert "old reward rule" in err and "--overwrite" in err and err.count("\n") == 1
