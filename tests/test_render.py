"""Videos with MuJoCo's renderer, headless: the frames change over time and the robot moves in them; the GIF; and a
missing GL backend is one line saying what to install.

The rendering tests skip only where no GL backend is installed and CI is not set; in CI (CI=true) they run, and
.ci/run installs EGL for them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import mujoco
import numpy as np
import pytest
from PIL import Image, ImageSequence
from test_cli_train import TINY as CLI_TINY

from camel_jax import render, specs
from camel_jax.errors import SetupError

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def gl():
    try:
        return render.backend()
    except SetupError as e:
        if os.environ.get("CI") == "true":
            raise
        pytest.skip(f"no GL backend for rendering here (CI runs this test): {e}")


@pytest.fixture(scope="module")
def falling_hopper() -> np.ndarray:
    """qpos of 150 Hopper steps (C MuJoCo, gymnasium's hopper.xml) under a fixed action sequence, from upright
    (torso z 1.25) to lying on the floor (z < 0.2); no termination, so the fall is all there."""
    spec = specs.load("hopper")
    model = mujoco.MjModel.from_xml_path(str(spec.xml_path))
    data = mujoco.MjData(model)
    qpos = [data.qpos.copy()]
    for t in range(150):
        data.ctrl[:] = (0.6, 0.6, -0.6) if t < 50 else (-0.6, 0.6, 0.6)
        mujoco.mj_step(model, data, nstep=spec.frame_skip)
        qpos.append(data.qpos.copy())
    qpos = np.array(qpos)
    assert qpos[0, 1] == pytest.approx(1.25) and qpos[-1, 1] < 0.2  # the robot really falls in these states
    return qpos


def robot_pixels(frame: np.ndarray) -> np.ndarray:
    """Mask of the robot's pixels: its geoms are tan (rgba 0.8 0.6 0.4); the floor is grey and the sky blue-grey."""
    frame = frame.astype(int)
    return frame[..., 0] - frame[..., 2] > 40


def check_frames_show_the_fall(frames: np.ndarray) -> None:
    assert frames.dtype == np.uint8 and frames.shape[1:] == (render.HEIGHT, render.WIDTH, 3)
    change = np.abs(np.diff(frames.astype(int), axis=0)).mean(axis=(1, 2, 3))
    assert np.all(change > 1.0), change  # every frame differs from the one before: neither constant nor static
    masks = [robot_pixels(f) for f in frames]
    assert all(m.sum() > 50 for m in masks)  # the robot is in view in every frame (the camera follows it)
    rows = [np.nonzero(m)[0] for m in masks]
    top, height = [r.min() for r in rows], [r.max() - r.min() for r in rows]
    # upright, the robot stands tall; lying on the floor its top is far lower in the picture and it is flat
    assert top[-1] > top[0] + 20 and height[-1] < 0.5 * height[0], (top, height)


def test_frames_change_and_the_robot_moves(gl, falling_hopper):
    check_frames_show_the_fall(render.frames("hopper", falling_hopper[::25]))


def test_gif_is_small_real_time_and_shows_the_fall(gl, falling_hopper, tmp_path):
    path = render.write_video("hopper", falling_hopper, tmp_path / "fall.gif")
    stride = render.frame_stride("hopper")
    assert stride == 10  # 0.08 s of Hopper (10 steps of 0.008 s) per frame
    with Image.open(path) as gif:
        frames = np.array([np.asarray(f.convert("RGB")) for f in ImageSequence.Iterator(gif)])
        assert gif.info["duration"] == 80 and gif.info["loop"] == 0
    assert len(frames) == len(falling_hopper[::stride]) == 16
    assert path.stat().st_size < 300_000 and not list(tmp_path.glob(".*.tmp"))
    check_frames_show_the_fall(frames[::3])


def test_a_long_episode_is_cut_at_max_frames(gl, tmp_path):
    qpos = np.repeat(mujoco.MjModel.from_xml_path(str(specs.load("hopper").xml_path)).qpos0[None], 1500, axis=0)
    qpos[:, 0] = np.linspace(0, 10, len(qpos))  # sliding forward, so frames differ
    with Image.open(render.write_video("hopper", qpos, tmp_path / "long.gif")) as gif:
        assert gif.n_frames == render.MAX_FRAMES


def test_no_gl_backend_is_one_line_naming_what_to_install(monkeypatch):
    # glfw needs a display: without one it is an unavailable backend on any machine
    for name in ("DISPLAY", "WAYLAND_DISPLAY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("MUJOCO_GL", "glfw")
    render.backend.cache_clear()
    try:
        with pytest.raises(SetupError) as e:
            render.backend()
    finally:
        render.backend.cache_clear()
    message = str(e.value)
    assert "\n" not in message and message.startswith("MuJoCo cannot render without a display here (MUJOCO_GL=glfw: ")
    assert "apt-get install libegl1 libgl1-mesa-dri" in message and "apt-get install libosmesa6" in message


def test_probe_reports_the_failure_of_a_backend():
    assert render._probe("no-such-backend").startswith("RuntimeError: invalid value for environment variable")


def test_priors_evaluate_and_select_draw_each_candidate(gl, capsys, tmp_path):
    from camel_jax.priors import cli

    hopper = specs.data_dir("priors") / "tuned" / "hopper.py"  # hops all 120 steps
    code = cli.main(["evaluate", str(hopper), "--env", "hopper", "--backend", "gymnasium", "--episodes", "1",
                     "--max-steps", "120", "--report", str(tmp_path / "evaluation.md"), "--video",
                     str(tmp_path / "hopper.gif")])
    assert code == 0 and "| [hopper.gif](hopper.gif) |" in (tmp_path / "evaluation.md").read_text()
    with Image.open(tmp_path / "hopper.gif") as gif:
        assert gif.n_frames == 13  # 121 states (reset + 120 steps), every 10th: it hops all 120 steps
    folder = tmp_path / "candidates"
    folder.mkdir()
    for name in ("hopper_pd_where.py", "hopper_numpy_constants.py"):  # stands; tips over at once
        (folder / name).write_text((Path(__file__).parent / "priors" / "corpus" / "good" / name).read_text())
    (folder / "hopper.py").write_text(hopper.read_text())
    code = cli.main(["select", str(folder), "--env", "hopper", "--episodes", "1", "--max-steps", "120", "--video",
                     str(folder / "videos")])
    text = (folder / "hopper_selection.md").read_text()
    capsys.readouterr()
    assert code == 0 and "| video |" in text
    for stem in ("hopper", "hopper_pd_where", "hopper_numpy_constants"):
        assert f" | [videos/{stem}.gif](videos/{stem}.gif) |" in text
        assert 0 < (folder / "videos" / f"{stem}.gif").stat().st_size < 300_000


@pytest.mark.slow
def test_eval_video_is_each_members_first_unmasked_episode(gl, capsys, tmp_path):
    from camel_jax.cli import main

    run = tmp_path / "run"
    r = subprocess.run([sys.executable, "-m", "camel_jax.cli", "train", "--env", "hopper", "--backend", "gymnasium",
                        "--prior", "priors/tuned/hopper.py", "--seeds", "0,1", "--eval-episodes", "0", *CLI_TINY,
                        "--out", str(run)],  # test_cli_train's sizes and prior: its compiled training program
                       cwd=ROOT, capture_output=True, text=True, timeout=900, check=False)
    assert r.returncode == 0, r.stderr[-2000:]
    assert main(["eval", str(run), "--episodes", "1", "--video", str(tmp_path / "videos")]) == 0
    out = capsys.readouterr().out
    members = json.loads((run / "eval_final.json").read_text())["members"]
    for m, name in zip(members, ("seed=0", "seed=1")):
        assert m["video"] == str(tmp_path / "videos" / f"{name}.gif") and Path(m["video"]).stat().st_size > 0
        assert f"video: {m['video']} (return {m['video_return']:.1f})" in out
        # with one episode, the video's episode is the unmasked evaluation episode itself
        assert m["video_return"] == pytest.approx(m["return_unmasked"], rel=1e-4)
    assert members[0]["video_return"] != members[1]["video_return"]  # two members, two different episodes
