"""Videos of episodes, drawn by MuJoCo's own renderer (`mujoco.Renderer`) without a display, through EGL or OSMesa.

An episode is recorded as its `qpos`, one row per env step with the reset state first, and drawn afterwards: the
positions are all a picture needs, so episodes of either backend (gymnasium's C MuJoCo, MJX) are drawn the same way.
The model is the task's XML from the installed gymnasium package (`TaskSpec.xml_path`) with two visual-only changes
that keep the files small: no reflections or shadows, and 2 m floor squares (gymnasium's are 0.33 m). The camera
follows the root body (the torso) over the floor at a fixed height and angle, so the floor scrolls as the robot moves
forward, and hops and falls show as such.

A video is an animated GIF (Pillow; GitHub shows it inline in the committed reports): WIDTH x HEIGHT pixels, one frame
per FRAME_S of simulated time played in real time, at most MAX_FRAMES frames (the whole 8 s episode of Hopper and
Walker2d; the first 10 s of Ant's 50 s), one shared palette of COLOURS colours. Measured with the shipped priors'
whole episodes: Hopper 154 KB, Walker2d 191 KB, Ant 245 KB; a robot that stands or falls, 3-45 KB.

GL backend: MUJOCO_GL when it is set, else EGL, then OSMesa; each is tried in a child process first (a failed EGL
start can leave PyOpenGL bound to EGL in this one). mujoco picks its GL context when it is imported, so `backend()`
sets MUJOCO_GL, and if mujoco was imported earlier it points `mujoco.Renderer` at the chosen context class.
"""

from __future__ import annotations

import functools
import importlib
import io
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from camel_jax import specs
from camel_jax.errors import SetupError
from camel_jax.priors import loader

HEADLESS = ("egl", "osmesa")  # tried in this order when MUJOCO_GL is not set
INSTALL = ("install EGL (apt-get install libegl1 libgl1-mesa-dri) or OSMesa (apt-get install libosmesa6), "
           "then unset MUJOCO_GL or set it to egl or osmesa")
WIDTH, HEIGHT = 160, 120
FRAME_S = 0.08  # simulated seconds per frame: 12.5 frames per second
MAX_FRAMES = 101
COLOURS = 32
FLOOR_SQUARE_M = 2.0
_PROBE = "import mujoco; mujoco.Renderer(mujoco.MjModel.from_xml_string('<mujoco/>'), 8, 8).close()"


@functools.cache
def backend() -> str:
    """The GL backend that renders here (set in MUJOCO_GL); SetupError with one line saying what to install if none."""
    requested = os.environ.get("MUJOCO_GL", "").strip().lower()
    failures = []
    for name in (requested,) if requested else HEADLESS:
        why = _probe(name) or _bind(name)
        if why is None:
            return name
        failures.append(f"MUJOCO_GL={name}: {why}")
    raise SetupError(f"MuJoCo cannot render without a display here ({'; '.join(failures)}); {INSTALL}")


def _probe(name: str) -> str | None:
    """None if a renderer starts with MUJOCO_GL=name in a child process, else the last line of its error."""
    try:
        r = subprocess.run([sys.executable, "-c", _PROBE], env={**os.environ, "MUJOCO_GL": name}, capture_output=True,
                           text=True, timeout=120, check=False)
    except subprocess.TimeoutExpired:
        return "the renderer did not start within 120 s"
    lines = [line.strip() for line in r.stderr.splitlines() if line.strip()]
    return None if r.returncode == 0 else (lines[-1][:200] if lines else f"exit code {r.returncode}")


def _bind(name: str) -> str | None:
    """Use backend `name` in this process: None, or why not."""
    os.environ["MUJOCO_GL"] = name  # read by mujoco when it is first imported (here or in child processes)
    import mujoco

    if name in HEADLESS:  # mujoco may have been imported before MUJOCO_GL was set: give its Renderer this context
        try:
            context = importlib.import_module(f"mujoco.{name}").GLContext
        except ImportError as e:  # e.g. PyOpenGL bound to another platform earlier in this process
            return (str(e) or type(e).__name__).splitlines()[0][:200]
        importlib.import_module(mujoco.Renderer.__module__).gl_context.GLContext = context
    return None


def frame_stride(env_name: str) -> int:
    """Env steps per video frame (FRAME_S of simulated time, at least one step)."""
    spec = specs.load(env_name)
    return max(1, round(FRAME_S / (_model(env_name).opt.timestep * spec.frame_skip)))


def frames(env_name: str, qpos: np.ndarray) -> np.ndarray:
    """RGB frames (n, HEIGHT, WIDTH, 3) uint8 of the states `qpos` (n, nq), camera following the root body."""
    import mujoco

    backend()
    model = _model(env_name)
    data = mujoco.MjData(model)
    camera = mujoco.MjvCamera()
    camera.type = mujoco.mjtCamera.mjCAMERA_FREE
    camera.azimuth, camera.elevation, camera.distance = 90.0, -10.0, _view(env_name)[0]  # from the side
    renderer = mujoco.Renderer(model, HEIGHT, WIDTH)
    for flag in (mujoco.mjtRndFlag.mjRND_SHADOW, mujoco.mjtRndFlag.mjRND_REFLECTION):
        renderer.scene.flags[flag] = False
    out = np.zeros((len(qpos), HEIGHT, WIDTH, 3), np.uint8)
    try:
        for i, q in enumerate(qpos):
            data.qpos[:] = q
            mujoco.mj_forward(model, data)  # positions, and the lights and cameras that follow them
            camera.lookat[:] = (*data.xpos[1][:2], _view(env_name)[1])  # body 1: the robot's root (torso)
            renderer.update_scene(data, camera)
            out[i] = renderer.render()
    finally:
        renderer.close()
    return out


def write_video(env_name: str, qpos: np.ndarray, path: str | Path) -> Path:
    """An animated GIF of the recorded episode `qpos` (steps + 1, nq) at `path`, written atomically."""
    stride = frame_stride(env_name)
    images = _gif_frames(frames(env_name, qpos[::stride][:MAX_FRAMES]))
    step_s = _model(env_name).opt.timestep * specs.load(env_name).frame_skip
    buffer = io.BytesIO()
    images[0].save(buffer, format="GIF", save_all=True, append_images=images[1:], loop=0, optimize=True,
                   duration=round(1000 * stride * step_s))
    return loader.write_atomic(path, buffer.getvalue())


def _gif_frames(rgb: np.ndarray) -> list:
    """Pillow images sharing one COLOURS-colour palette taken from the first, middle and last frames (no flicker)."""
    from PIL import Image

    sample = Image.fromarray(np.concatenate([rgb[0], rgb[len(rgb) // 2], rgb[-1]], axis=0))
    palette = sample.quantize(colors=COLOURS, method=Image.Quantize.MAXCOVERAGE)  # keeps the robot's few colours
    return [Image.fromarray(f).quantize(palette=palette, dither=Image.Dither.NONE) for f in rgb]


@functools.cache
def _model(env_name: str):
    """The task's model from gymnasium's XML, with reflections off and FLOOR_SQUARE_M floor squares."""
    import mujoco

    model = mujoco.MjModel.from_xml_path(str(specs.load(env_name).xml_path))
    model.mat_reflectance[:] = 0.0
    for geom in np.flatnonzero(model.geom_type == mujoco.mjtGeom.mjGEOM_PLANE):
        material = model.geom_matid[geom]
        if material >= 0:  # a checker texture holds 2 x 2 squares per repeat
            model.mat_texrepeat[material] = 2 * model.geom_size[geom][:2] / (2 * FLOOR_SQUARE_M)
    return model


@functools.cache
def _view(env_name: str) -> tuple[float, float]:
    """(camera distance, height of the point looked at): 2.5 x the robot's radius around its root body at qpos0,
    and the root body's initial height, so the whole robot stays in view as it hops."""
    import mujoco

    model = _model(env_name)
    data = mujoco.MjData(model)
    mujoco.mj_kinematics(model, data)
    robot = model.geom_bodyid > 0
    radius = np.max(np.linalg.norm(data.geom_xpos[robot] - data.xpos[1], axis=1) + model.geom_rbound[robot])
    return 2.5 * float(radius), float(data.xpos[1][2])
