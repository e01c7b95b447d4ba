"""Selection: rollouts of several candidates (gymnasium and one jitted MJX program), recording, the scores, ranking,
the report, `camel-jax priors select`."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from priors_testlib import CORPUS

from camel_jax import render, specs
from camel_jax.priors import cli, select

STAND = CORPUS / "good" / "hopper_pd_where.py"  # stays up: ~1 per step
TIPS = CORPUS / "good" / "hopper_numpy_constants.py"  # falls within ~10 steps
NAN = CORPUS / "bad" / "nan_output.py"
HOPPER = specs.data_dir("priors") / "tuned" / "hopper.py"  # the tuned controller: hops forward


def _check(results, episodes, max_steps):
    assert [r.path for r in results] == [STAND, TIPS, NAN]  # ranked by mean return, the rejected one last
    stand, tips, nan = results
    for r in (stand, tips):
        assert r.ok and r.returns.shape == r.forward.shape == r.lengths.shape == r.fell.shape == (episodes,)
        assert np.all((1 <= r.lengths) & (r.lengths <= max_steps)) and np.all(np.isfinite(r.forward))
    assert not stand.fell.any() and np.all(stand.lengths == max_steps)
    assert tips.fell.all() and np.all(tips.lengths < max_steps)
    assert not nan.ok and "non-finite actions" in nan.reason


def test_evaluate_on_gymnasium_and_report():
    results = select.evaluate([TIPS, NAN, STAND], "hopper", episodes=2, backend="gymnasium", max_steps=60)
    _check(results, 2, 60)
    text = select.report(results, "hopper", "gymnasium", 2, 60, 0, command="camel-jax priors evaluate ...")
    assert text.startswith("# Prior evaluation: hopper (Hopper-v4, gymnasium C MuJoCo)")
    assert "Command: `camel-jax priors evaluate ...`" in text and select.SCORE_DOC["return"] in text
    rows = [line for line in text.splitlines() if line.startswith(("| 1 ", "| 2 "))]
    assert STAND.name in rows[0] and TIPS.name in rows[1] and "0/2 |" in rows[0] and "2/2 |" in rows[1]
    assert f"- `{NAN}`: " in text
    assert select.return_field(results[0], "hopper", "gymnasium").endswith("on Hopper-v4 (gymnasium); "
                                                                          f"forward {results[0].forward.mean():.2f} m; "
                                                                          "falls 0/2")


def test_ranking_by_forward_progress():
    a = select.Evaluation(STAND, "", np.array([900.0]), np.array([0.1]), np.array([1000]), np.array([False]))
    b = select.Evaluation(TIPS, "", np.array([500.0]), np.array([1.5]), np.array([400]), np.array([True]))
    assert sorted([a, b], key=lambda r: r.score("return")) == [a, b]
    assert sorted([a, b], key=lambda r: r.score("forward")) == [b, a]


@pytest.mark.slow
def test_evaluate_all_candidates_in_one_jitted_mjx_program_and_record_the_first_episode_of_each(monkeypatch, tmp_path):
    """One MJX program (a compilation of Hopper's step costs ~20 s here) serves both: `evaluate` with --video records
    the first episode of each candidate (rollout_mjx(record=True)); the GIF writer is replaced by one that keeps the
    recorded qpos, so no GL backend is needed."""
    recorded = {}
    monkeypatch.setattr(select.render, "backend", lambda: "test")
    monkeypatch.setattr(select.render, "write_video", lambda env, qpos, path: recorded.setdefault(Path(path).stem, qpos))
    results = select.evaluate([TIPS, NAN, STAND], "hopper", episodes=2, backend="mjx", max_steps=25,
                              video=tmp_path / "videos")
    _check(results, 2, 25)
    stand, tips, _ = results
    assert sorted(recorded) == sorted([STAND.stem, TIPS.stem])  # the rejected candidate is not rolled out
    for r in (stand, tips):
        qpos = recorded[r.path.stem]
        assert r.video == tmp_path / "videos" / f"{r.path.stem}.gif"
        assert qpos.shape == (r.lengths[0] + 1, 6) and r.forward[0] == pytest.approx(qpos[-1, 0] - qpos[0, 0], abs=1e-5)
    assert len(recorded[STAND.stem]) == 26 and len(recorded[TIPS.stem]) < 26  # the one that tips over stops at its fall


def _synthetic(name: str, ret: float, forward: float, length: int, fell: bool, episodes: int = 2):
    return select.Evaluation(Path(name), "", np.full(episodes, ret), np.full(episodes, forward),
                             np.full(episodes, length), np.full(episodes, fell), max_steps=1000)


def test_progress_score_puts_moving_above_standing_above_falling():
    # REFERENCE.md section 5: a Hopper that stands scores about 1,000 and moves 0.2 m; a crude hopping controller
    # returns about 600 and moves 1.7 m (falling after about 390 steps)
    hopping = _synthetic("hopping.py", 600.0, 1.7, 390, True)
    standing = _synthetic("standing.py", 1024.0, 0.2, 1000, False)
    drifting = _synthetic("standing_drifting_back.py", 996.0, -0.03, 1000, False)
    lunging = _synthetic("lunging.py", 80.0, 0.5, 20, True)
    falling = _synthetic("falling_at_once.py", 9.0, 0.0, 10, True)
    backwards = _synthetic("walking_backwards.py", 700.0, -1.0, 1000, False)
    candidates = [falling, backwards, standing, lunging, drifting, hopping]
    ranked = sorted(candidates, key=lambda r: r.score("progress"))
    assert ranked == [hopping, standing, drifting, lunging, falling, backwards]
    assert sorted(candidates, key=lambda r: r.score("return"))[:2] == [standing, drifting]  # what return alone picks
    assert hopping.value("progress") == pytest.approx((1.7 + 0.1) * 0.39)
    assert standing.value("progress") == pytest.approx(0.3) and falling.value("progress") == pytest.approx(0.001)
    # ties (the same progress) go to fewer falls, then to higher return
    steady = _synthetic("steady.py", 1100.0, 0.9, 1000, False)
    richer = _synthetic("steady_richer.py", 1150.0, 0.9, 1000, False)
    shaky = select.Evaluation(Path("shaky.py"), "", np.array([900.0, 1000.0]), np.array([3.9, -0.1]),
                              np.array([500, 1000]), np.array([True, False]), max_steps=1000)
    assert steady.value("progress") == richer.value("progress") == shaky.value("progress") == 1.0
    assert sorted([shaky, steady, richer], key=lambda r: r.score("progress")) == [richer, steady, shaky]


def test_speed_score_ranks_a_prior_that_moves_above_ones_that_stand():
    # bench/results/selector_hopper.md: the LLM's Hopper candidates as `priors select` measured them; CAMEL trained
    # best with the one that moves and falls (answer_3), worst with the standers that `progress` ranked first
    dt = 0.008
    mover = _synthetic("answer_3.py", 239.0, 0.84, 134, True)
    stander = _synthetic("answer_5.py", 1046.0, 0.37, 1000, False)
    still = _synthetic("answer_4.py", 1010.0, 0.08, 1000, False)
    lunging = _synthetic("lunging.py", 80.0, 0.5, 20, True)
    for e in (mover, stander, still, lunging):
        object.__setattr__(e, "dt", dt)
    assert mover.value("speed") == pytest.approx(0.84 / (134 * dt))  # past GAIT_STEPS: full weight
    assert stander.value("speed") == pytest.approx(0.37 / 8.0) and still.value("speed") == pytest.approx(0.01)
    assert lunging.value("speed") == pytest.approx(0.5 / (20 * dt) * 20 / select.GAIT_STEPS)
    assert sorted([still, lunging, stander, mover], key=lambda r: r.score("speed")) == [mover, lunging, stander, still]
    assert max([still, stander, mover], key=lambda r: r.score("progress")) == mover  # progress ranked it last
    assert select.step_seconds(select.specs.load("hopper")) == pytest.approx(0.008)


def test_select_ranks_a_folder_by_progress_and_names_the_chosen_one(capsys, tmp_path):
    folder = tmp_path / "candidates"
    folder.mkdir()
    for p in (HOPPER, STAND, TIPS, NAN):
        shutil.copy(p, folder / p.name)
    code = cli.main(["select", str(folder), "--env", "hopper", "--episodes", "1", "--max-steps", "150",
                     "--rank-by", "progress"])
    out = capsys.readouterr().out
    report = folder / "hopper_selection.md"
    text = report.read_text()
    assert code == 0 and text in out and out.endswith(f"report written to {report}\nchosen: {folder / 'hopper.py'}\n")
    assert text.startswith("# Prior selection: hopper (Hopper-v4, gymnasium C MuJoCo)")
    assert f"**Chosen: `{folder / 'hopper.py'}` (rank 1 by progress)**" in text and select.SCORE_DOC["progress"] in text
    rows = [line.split(" | ") for line in text.splitlines() if line.startswith(("| 1 ", "| 2 ", "| 3 "))]
    assert [row[1] for row in rows] == [f"`{folder / p.name}`" for p in (HOPPER, STAND, TIPS)]
    scores = [float(row[2]) for row in rows]
    assert scores[0] > 1.0 and 0.05 < scores[1] < 0.15 and abs(scores[2]) < 0.02  # hops, stands, falls at once
    assert f"- `{folder / NAN.name}`: " in text and "video" not in rows[0][-1]


def test_select_of_an_empty_folder_is_a_usage_error(capsys, tmp_path):
    assert cli.main(["select", str(tmp_path), "--env", "hopper"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"no *.py candidate files in {tmp_path}; write or import candidates there first" in err


def test_video_without_a_gl_backend_is_one_line_exit_2_and_writes_nothing(capsys, monkeypatch, tmp_path):
    for name in ("DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MUJOCO_GL", "glfw")  # needs a display: unavailable here
    render.backend.cache_clear()
    try:
        code = cli.main(["evaluate", str(STAND), "--env", "hopper", "--backend", "gymnasium", "--episodes", "1",
                         "--report", str(tmp_path / "r.md"), "--video", str(tmp_path / "videos")])
    finally:
        render.backend.cache_clear()
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("camel-jax priors: error: MuJoCo cannot render without a display here (MUJOCO_GL=glfw: ")
    assert "apt-get install libegl1 libgl1-mesa-dri" in err and list(tmp_path.iterdir()) == []


def test_a_recorded_gymnasium_episode_matches_its_measurements():
    env = select.make_gym("hopper")
    act = lambda obs: np.array([0.5, 0.5, -0.5])
    try:
        *measured, qpos = select.run_episode(env, act, 3, 100, record=True)
        *plain, none = select.run_episode(env, act, 3, 100)
    finally:
        env.close()
    _, forward, length, fell = measured
    assert measured == plain and none is None  # recording changes nothing
    assert fell and qpos.shape == (length + 1, 6) and forward == pytest.approx(qpos[-1, 0] - qpos[0, 0])
    assert qpos[0, 1] == pytest.approx(1.25, abs=0.01) and qpos[-1, 1] != qpos[0, 1]
