"""State interpretation: a trajectory's steps as text built from the task spec (`tasks/<task>.toml`), and the windows
of steps that become one prompt each.

A step reads as one sentence per observation dimension (name, value, unit, meaning from the spec's table; angles in
rad also in degrees; the torso height and pitch with the spec's healthy range and whether the value is inside it),
then the action (named per actuator, in the action table's order), the reward, and how the episode ends there.
One function per task family (`FAMILIES`):
- `planar` (hopper, walker2d): every dimension as it is;
- `quadruped` (ant): the torso quaternion's four dimensions become one sentence with the quaternion and what it
  means: the tilt of the torso from upright in degrees, the direction it leans toward, and the heading.

Windows (`windows`): one per episode, its last steps (the end of an episode is where falls happen and where the
actions that caused them are), at most `max_steps` steps and at most `max_chars` characters of text (the earliest
steps are dropped until it fits); episodes that end in termination (falls) come first. The windows of episodes cut
off by the time limit (truncated, not terminated) are left out unless `time_limits` is set: nothing went wrong at
their end, so their last steps are no candidates for critical states (an LLM asked for critical steps there names
some anyway).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
from scipy.spatial.transform import Rotation

from camel_jax import specs
from camel_jax.ultra.trajectory import Trajectory

MAX_STEPS = 40  # steps per window: Hopper's last 40 steps are 0.32 s of simulated time
MAX_CHARS = 60_000  # characters per window (about 15k tokens): room for the task text and the answer


def dimension(spec: specs.TaskSpec, i: int, value: float) -> str:
    """The sentence for observation dimension `i` with `value`."""
    row = spec.obs_table[i]
    unit, meaning = row.get("unit", ""), row.get("text", "")
    text = f"{row['name']} = {value:+.3f}" + (f" {unit}" if unit else "")
    if unit == "rad":
        text += f" ({math.degrees(value):+.1f} deg)"
    if meaning:
        text += f": {meaning}"
    note = health_note(spec, i, value)
    return text + (f"; {note}" if note else "") + "."


def health_note(spec: specs.TaskSpec, i: int, value: float) -> str:
    """For the dimensions that the spec's health rule reads (torso height, torso pitch): the healthy range and
    whether `value` is inside it; "" for the others."""
    if i == spec.z_index - spec.qpos_start:
        (lo, hi), closed = spec.z_range, spec.z_inclusive
    elif spec.angle_index is not None and i == spec.angle_index - spec.qpos_start:
        (lo, hi), closed = spec.angle_range, False
    else:
        return ""
    inside = lo <= value <= hi if closed else lo < value < hi
    interval = ("[" if closed else "(") + f"{lo:g}, {hi:g}" + ("]" if closed else ")")
    return f"healthy range {interval}, {'inside' if inside else 'OUTSIDE (unhealthy)'}"


def planar(spec: specs.TaskSpec, obs: np.ndarray) -> list[str]:
    """Hopper, Walker2d: one sentence per dimension."""
    return [dimension(spec, i, float(v)) for i, v in enumerate(obs)]


def quadruped(spec: specs.TaskSpec, obs: np.ndarray) -> list[str]:
    """Ant: one sentence per dimension, the torso quaternion (w, x, y, z; MuJoCo's order) as one sentence."""
    quat = [i for i, name in enumerate(spec.obs_names) if name.startswith("torso_quat_")]
    lines = [dimension(spec, i, float(v)) for i, v in enumerate(obs) if i not in quat]
    lines.insert(quat[0], orientation(np.asarray(obs)[quat]))
    return lines


def orientation(quat_wxyz: np.ndarray) -> str:
    """The torso quaternion, its tilt from upright (degrees), the direction the top leans toward, and the heading."""
    w, x, y, z = (float(q) for q in quat_wxyz)
    rotation = Rotation.from_quat([w, x, y, z], scalar_first=True)  # normalises
    up, forward = rotation.apply([0.0, 0.0, 1.0]), rotation.apply([1.0, 0.0, 0.0])
    tilt = math.degrees(math.acos(min(1.0, max(-1.0, up[2]))))
    lean = math.degrees(math.atan2(up[1], up[0]))
    heading = math.degrees(math.atan2(forward[1], forward[0]))
    text = (f"torso orientation quaternion (w, x, y, z) = ({w:+.3f}, {x:+.3f}, {y:+.3f}, {z:+.3f}): the torso is "
            f"tilted {tilt:.1f} deg from upright")
    if tilt >= 0.05:
        text += f", leaning toward azimuth {lean:+.0f} deg (0 = +x forward, +90 = +y left)"
    if tilt > 90:
        text += " (upside down)"
    return text + f"; it faces azimuth {heading:+.0f} deg."


FAMILIES = {"hopper": planar, "walker2d": planar, "ant": quadruped}


def describe_observation(spec: specs.TaskSpec, obs: np.ndarray) -> list[str]:
    """The sentences of one observation, by the task's family (ValueError for a task without one)."""
    if spec.name not in FAMILIES:
        raise ValueError(f"task '{spec.name}' has no state interpretation; add it to FAMILIES in "
                         "camel_jax/ultra/interpret.py")
    if len(obs) != spec.obs_dim:
        raise ValueError(f"task '{spec.name}': observation has {len(obs)} dimensions, the spec {spec.obs_dim}")
    return FAMILIES[spec.name](spec, np.asarray(obs))


def describe_step(spec: specs.TaskSpec, traj: Trajectory, t: int, episode: int, first: int) -> str:
    """Step `t` of `traj` as text; `episode` and its `first` step name where it is."""
    if traj.actions.shape[1] != spec.act_dim:
        raise ValueError(f"task '{spec.name}': actions have {traj.actions.shape[1]} dimensions, the spec "
                         f"{spec.act_dim}")
    lines = [f"Step {t} (episode {episode}, its step {t - first}):"]
    lines += [f"- {s}" for s in describe_observation(spec, traj.obs[t])]
    action = ", ".join(f"{n} = {a:+.3f}" for n, a in zip(spec.act_names, traj.actions[t].tolist(), strict=True))
    lines += [f"- action: {action}.", f"- reward: {float(traj.rewards[t]):+.3f}."]
    if traj.terminated[t]:
        lines.append("- the episode terminates after this step: the robot became unhealthy (see Episode end).")
    elif traj.truncated[t]:
        lines.append("- the episode is cut off after this step (time limit or end of the recording), not a fall.")
    return "\n".join(lines)


@dataclasses.dataclass(frozen=True)
class Window:
    name: str  # "ep<episode>_t<first>-<last>": names its prompts and answer files
    episode: int
    steps: tuple[int, ...]  # consecutive step indices of the trajectory
    ending: str  # "terminated", "truncated" or "continues" (the window ends before its episode does)
    text: str


def windows(spec: specs.TaskSpec, traj: Trajectory, max_steps: int = MAX_STEPS, max_chars: int = MAX_CHARS,
            max_windows: int | None = None, time_limits: bool = False) -> list[Window]:
    """The windows of `traj` (module docstring): falls first, each at most `max_steps` steps and `max_chars`
    characters; those of time-limit episodes only with `time_limits`; at most `max_windows` of them (all when
    None)."""
    found = [window_ending(spec, traj, last, max_steps, max_chars) for _, last in traj.episodes()
             if time_limits or not traj.truncated[last]]
    found.sort(key=lambda w: w.ending != "terminated")  # stable: falls first, each group in episode order
    return found[:max_windows]


def window_around(spec: specs.TaskSpec, traj: Trajectory, step: int, max_steps: int = MAX_STEPS,
                  max_chars: int = MAX_CHARS) -> Window:
    """A window holding `step` with up to half of `max_steps` after it (within its episode), so that the text shows
    what followed; for states chosen outside the episode-end windows (random selection)."""
    last = next(last for first, last in traj.episodes() if first <= step <= last)
    window = window_ending(spec, traj, min(last, step + max_steps // 2), max_steps, max_chars)
    if step not in window.steps:
        raise ValueError(f"step {step} does not fit in a window of max_chars={max_chars}; raise max_chars")
    return window


def window_ending(spec: specs.TaskSpec, traj: Trajectory, last: int, max_steps: int = MAX_STEPS,
                  max_chars: int = MAX_CHARS) -> Window:
    """The window of at most `max_steps` steps and `max_chars` characters that ends at step `last`, within its
    episode (the earliest steps are dropped until the text fits)."""
    if max_steps < 1 or max_chars < 1:
        raise ValueError(f"max_steps and max_chars must be positive, got {max_steps} and {max_chars}")
    episode, first, end = next((i, f, e) for i, (f, e) in enumerate(traj.episodes()) if f <= last <= e)
    texts = [describe_step(spec, traj, t, episode, first) for t in range(max(first, last - max_steps + 1), last + 1)]
    while len(texts) > 1 and sum(len(s) + 2 for s in texts) > max_chars:
        texts.pop(0)
    if len(texts[0]) > max_chars:
        raise ValueError(f"one step of task '{spec.name}' takes {len(texts[0])} characters, more than "
                         f"max_chars={max_chars}; raise max_chars")
    steps = tuple(range(last - len(texts) + 1, last + 1))
    ending = "continues" if last < end else "terminated" if traj.terminated[last] else \
        "truncated" if traj.truncated[last] else "continues"
    return Window(f"ep{episode}_t{steps[0]}-{steps[-1]}", episode, steps, ending, "\n\n".join(texts))
