"""Task specs: one TOML file per task under `tasks/`, the single source for env code, prompts, checks and docs.

A wheel carries the files inside the package (`camel_jax/_data/tasks`); an editable install or a checkout reads them
from the repository root. Adding a task means adding one spec file (and one prior under `priors/`).

Task names: `hopper` is the spec file's task (gymnasium v4, the paper's); `hopper-v5` is the same file with its `[v5]`
table applied over it (only what v5 changes: its id, XML, reward terms, observation, with the differences stated in
`changes`); `gym:ID` is any registered gymnasium task with bounded Box actions and flat Box observations, its spec
built from the env itself (gymnasium backend only).
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import re
import tomllib
from functools import cache
from pathlib import Path

_PKG = Path(__file__).resolve().parent


def data_dir(kind: str) -> Path:
    """Directory of shipped data of `kind` ("tasks" or "priors"): inside a wheel, else the checkout's root."""
    for candidate in (_PKG / "_data" / kind, _PKG.parent / kind):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"camel-jax data folder '{kind}' not found; reinstall the package (pip install -e .)")


@dataclasses.dataclass(frozen=True)
class ObsPart:
    """One piece of a MuJoCo task's observation: `clip(data.<field>[start:], *clip).ravel()` (rows of 2-D fields)."""

    field: str  # an mjData field: qpos, qvel, cinert, cvel, qfrc_actuator, cfrc_ext, ...
    start: int = 0
    clip: tuple[float, float] | None = None


@dataclasses.dataclass(frozen=True)
class TaskSpec:
    name: str
    gym_id: str
    xml: str | None  # None: a gymnasium task that is not a spec'd MuJoCo task (`gym:ID`)
    xml_sha256: str | None
    frame_skip: int
    episode_length: int
    description: str
    obs_names: tuple[str, ...]
    obs_table: tuple[dict, ...]  # one row per observation entry (groups expanded)
    act_names: tuple[str, ...]
    act_table: tuple[dict, ...]
    qpos_start: int
    qvel_clip: float | None
    forward_source: str | None  # qpos0 | torso_xpos | com (mass-weighted xipos, as gymnasium's mass_center); None: none
    forward_weight: float
    healthy_reward: float
    ctrl_cost_weight: float
    reward_text: str
    health_text: str
    z_index: int | None  # None: no health rule (the episode never terminates)
    z_range: tuple[float, float]
    z_inclusive: bool
    angle_index: int | None
    angle_range: tuple[float, float] | None
    state_range: tuple[float, float] | None
    reset_qpos: tuple[str, float]
    reset_qvel: tuple[str, float]
    path: Path
    mjx_variant: str | None = None  # set where MJX computes a different task than gymnasium's C MuJoCo (Ant)
    obs_parts: tuple[ObsPart, ...] = ()
    obs_rows: tuple[dict, ...] = ()  # the spec's table as written (a row with `size = n` stands for n entries)
    act_low: tuple[float, ...] = ()  # the env's action bounds; the trainer's [-1, 1] is rescaled onto them
    act_high: tuple[float, ...] = ()
    healthy_bonus: str = "every_step"  # every_step (v4: paid even on the step that ends the episode) | while_healthy (v5)
    contact_cost_weight: float = 0.0  # weight x sum(cfrc_ext**2), entries clipped to contact_force_range first
    contact_force_range: tuple[float, float] | None = None
    contact_cost_max: float | None = None  # the contact cost itself clipped at this (Humanoid-v5)
    mjx_options: tuple[tuple[str, str], ...] = ()  # model options MJX needs changed (Humanoid: PGS -> Newton)
    version: str = "v4"
    changes: str = ""  # how this version differs from the task's v4 (docs)
    family: str = ""  # the task without its version suffix ("hopper" for hopper-v5)

    @property
    def obs_dim(self) -> int:
        return len(self.obs_names)

    @property
    def act_dim(self) -> int:
        return len(self.act_names)

    @property
    def is_gym(self) -> bool:
        """A gymnasium task named by its id (`gym:ID`), gymnasium backend only."""
        return self.xml is None

    @property
    def unit_actions(self) -> bool:
        """The env's own action bounds are [-1, 1] (no rescaling)."""
        return all(lo == -1.0 for lo in self.act_low) and all(hi == 1.0 for hi in self.act_high)

    @property
    def xml_path(self) -> Path:
        """The MuJoCo XML shipped inside the installed gymnasium package (never copied into this repository), checked
        against the spec's `xml_sha256`: a gymnasium release that changes the task stops here (SetupError)."""
        import gymnasium.envs.mujoco as gym_mujoco

        if self.xml is None:
            raise ValueError(f"task '{self.name}' is a gymnasium task without a spec'd MuJoCo model; only the "
                             "gymnasium backend runs it (--backend gymnasium)")
        path = Path(gym_mujoco.__file__).resolve().parent / "assets" / self.xml
        check_xml(path, self.xml_sha256, self.name)
        return path

    def gym_make(self, **kwargs):
        """`gymnasium.make(gym_id, **kwargs)` after checking the installed XML against `xml_sha256` (`xml_path`),
        with gymnasium's RescaleAction onto [-1, 1] where the env's own action bounds differ (Humanoid, gym:ID)."""
        import gymnasium as gym
        import numpy as np

        if self.xml is not None:
            self.xml_path  # noqa: B018  (the check)
        env = gym.make(self.gym_id, **kwargs)
        if self.unit_actions:
            return env
        space = env.action_space
        one = np.ones(space.shape, space.dtype)
        return gym.wrappers.RescaleAction(env, -one, one)

    def markdown_tables(self) -> str:
        """Observation and action tables as markdown (used by the prompt builder and the docs). A group row (`size`
        entries) shows its index range; the action table has a joint column only where the spec names joints."""
        lines = ["| obs index | name | unit | meaning |", "|---|---|---|---|"]
        i = 0
        for r in self.obs_rows or self.obs_table:
            n = int(r.get("size", 1))
            index = f"{i}" if n == 1 else f"{i}-{i + n - 1}"
            lines.append(f"| {index} | {r['name']} | {r.get('unit', '')} | {r.get('text', '')} |")
            i += n
        if all("joint" in r for r in self.act_table):
            lines += ["", "| action index | name | joint | meaning |", "|---|---|---|---|"]
            lines += [f"| {i} | {r['name']} | {r['joint']} | {r.get('text', '')} |" for i, r in enumerate(self.act_table)]
        else:
            lines += ["", "| action index | name | meaning |", "|---|---|---|"]
            lines += [f"| {i} | {r['name']} | {r.get('text', '')} |" for i, r in enumerate(self.act_table)]
        return "\n".join(lines)


@cache
def check_xml(path: Path, expected: str, task: str) -> None:
    """SetupError (one line, with the fix) unless the file at `path` has the sha256 `expected`."""
    import gymnasium

    from camel_jax.errors import SetupError

    if not path.is_file():
        raise SetupError(f"task '{task}': {path} is missing from gymnasium {gymnasium.__version__}; install the tested "
                         "set: pip install -c constraints.txt -e .")
    found = hashlib.sha256(path.read_bytes()).hexdigest()
    if found != expected:
        raise SetupError(f"task '{task}': gymnasium {gymnasium.__version__}'s {path.name} (sha256 {found[:12]}...) is not "
                         f"the XML this task was validated with ({expected[:12]}...); install the tested set: "
                         "pip install -c constraints.txt -e . (or re-validate the task and update xml_sha256 in "
                         f"tasks/{task.partition('-')[0]}.toml)")


GYM_PREFIX = "gym:"  # --env gym:ID: any gymnasium task with Box observations and actions (gymnasium backend)
VERSION_RE = re.compile(r"^v\d+$")


def available() -> tuple[str, ...]:
    """The spec'd task names: each spec file's task (gymnasium v4, the paper's) and one `<task>-<version>` per version
    table in it (`[v5]`: hopper-v5). Any gymnasium Box task is also accepted as `gym:ID` (not listed)."""
    names = []
    for path in sorted(data_dir("tasks").glob("*.toml")):
        names.append(path.stem)
        raw = tomllib.loads(path.read_text())
        names += [f"{path.stem}-{key}" for key in raw if VERSION_RE.match(key)]
    return tuple(sorted(names))


def unknown_task(name: str) -> str:
    return (f"unknown task '{name}'; use --env with one of: {', '.join(available())}, or {GYM_PREFIX}ID for a "
            f"gymnasium task with continuous (Box) actions, e.g. {GYM_PREFIX}Pendulum-v1")


def is_gym(name: str) -> bool:
    return str(name).startswith(GYM_PREFIX)


def file_stem(name: str) -> str:
    """Task `name` as part of a file or folder name (gym:Pendulum-v1 -> gym_Pendulum-v1)."""
    return str(name).replace(":", "_")


@cache
def load(name: str) -> TaskSpec:
    """Load the spec of task `name`: "hopper" (v4), "hopper-v5" (the file's [v5] table over it) or "gym:ID".
    Unknown or unsuitable names raise ValueError (one line: the problem and the fix)."""
    if is_gym(name):
        return gym_task(name[len(GYM_PREFIX):])
    family, _, version = name.partition("-")
    path = data_dir("tasks") / f"{family}.toml"
    if not path.is_file() or (version and not VERSION_RE.match(version)):
        raise ValueError(unknown_task(name))
    raw = tomllib.loads(path.read_text())
    if version:
        if version not in raw:
            raise ValueError(unknown_task(name))
        raw = _merged(raw, raw[version])
        raw["name"] = name
    return _from_raw(raw, path, version or "v4", family)


def _merged(base: dict, over: dict) -> dict:
    """`over` on top of `base`: tables merged key by key, anything else (arrays included) replaced."""
    out = {k: v for k, v in base.items() if not VERSION_RE.match(k)}
    for key, value in over.items():
        out[key] = _merged(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def _from_raw(raw: dict, path: Path, version: str, family: str) -> TaskSpec:
    health, reward, obs, act, reset = raw.get("health", {}), raw["reward"], raw["observation"], raw["action"], raw["reset"]
    rows = tuple(obs["table"])
    table = tuple(r2 for r in rows for r2 in _expand(r))
    parts = tuple(ObsPart(p["field"], int(p.get("start", 0)), _clip(p.get("clip"))) for p in obs["parts"]) \
        if "parts" in obs else (ObsPart("qpos", int(obs["qpos_start"])), ObsPart("qvel", 0, _clip(obs.get("qvel_clip"))))
    n_act = len(act["table"])
    low, high = (float(v) for v in act.get("range", (-1.0, 1.0)))
    return TaskSpec(
        name=raw["name"],
        gym_id=raw["gym_id"],
        xml=raw["xml"],
        xml_sha256=raw["xml_sha256"],
        frame_skip=int(raw["frame_skip"]),
        episode_length=int(raw["episode_length"]),
        description=raw["description"].strip(),
        obs_names=tuple(r["name"] for r in table),
        obs_table=table,
        act_names=tuple(r["name"] for r in act["table"]),
        act_table=tuple(act["table"]),
        qpos_start=next(p.start for p in parts if p.field == "qpos"),
        qvel_clip=obs.get("qvel_clip"),
        forward_source=reward["forward_source"],
        forward_weight=float(reward["forward_weight"]),
        healthy_reward=float(reward.get("healthy_reward", 0.0)),
        ctrl_cost_weight=float(reward["ctrl_cost_weight"]),
        reward_text=reward["text"].strip(),
        health_text=health["text"].strip(),
        z_index=health.get("z_index"),
        z_range=tuple(float(v) for v in health.get("z_range", (-math.inf, math.inf))),
        z_inclusive=bool(health.get("z_inclusive", False)),
        angle_index=health.get("angle_index"),
        angle_range=tuple(health["angle_range"]) if "angle_range" in health else None,
        state_range=tuple(health["state_range"]) if "state_range" in health else None,
        reset_qpos=(reset["qpos"]["kind"], float(reset["qpos"]["scale"])),
        reset_qvel=(reset["qvel"]["kind"], float(reset["qvel"]["scale"])),
        path=path,
        mjx_variant=raw.get("mjx_variant"),
        obs_parts=parts,
        obs_rows=rows,
        act_low=(low,) * n_act,
        act_high=(high,) * n_act,
        healthy_bonus=reward.get("healthy_bonus", "every_step"),
        contact_cost_weight=float(reward.get("contact_cost_weight", 0.0)),
        contact_force_range=_clip(reward.get("contact_force_range")),
        contact_cost_max=reward.get("contact_cost_max"),
        mjx_options=tuple(sorted(raw.get("mjx", {}).items())),
        version=version,
        changes=raw.get("changes", "").strip(),
        family=family,
    )


def _expand(row: dict) -> list[dict]:
    """A table row as one row per observation entry: a group row (`size = n`) becomes `<name>_0` ... `<name>_<n-1>`."""
    n = int(row.get("size", 1))
    if "size" not in row:
        return [row]
    return [{**{k: v for k, v in row.items() if k != "size"}, "name": f"{row['name']}_{k}"} for k in range(n)]


def _clip(value) -> tuple[float, float] | None:
    """A clip bound from a spec: a number c means (-c, c), a pair (lo, hi); absent: None."""
    if value is None:
        return None
    if isinstance(value, int | float):
        return (-float(value), float(value))
    return (float(value[0]), float(value[1]))


@cache
def gym_task(gym_id: str) -> TaskSpec:
    """A spec for gymnasium task `gym_id` built from the env itself: its class docstring (the description), its spaces
    (the tables) and its time limit. ValueError (one line) for an unknown id, a missing dependency, or an env camel-jax
    cannot train on (actions not a bounded Box, observations not a flat Box, no time limit)."""
    import inspect
    import warnings

    import gymnasium as gym
    import numpy as np

    name = GYM_PREFIX + gym_id
    try:
        registered = gym.spec(gym_id)
    except gym.error.Error as e:
        raise ValueError(f"--env {name}: {_first_line(e)}; give a registered gymnasium id, e.g. "
                         f"{GYM_PREFIX}Pendulum-v1") from None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            env = gym.make(gym_id)
    except gym.error.DependencyNotInstalled as e:
        raise ValueError(f"--env {name}: {_first_line(e)}") from None
    except Exception as e:  # noqa: BLE001  (any failure to build the env is the user's to fix: name it)
        raise ValueError(f"--env {name}: gymnasium.make failed ({type(e).__name__}: {_first_line(e)})") from None
    try:
        obs_space, act_space, doc = env.observation_space, env.action_space, inspect.getdoc(type(env.unwrapped))
    finally:
        env.close()
    if not isinstance(act_space, gym.spaces.Box) or len(act_space.shape) != 1:
        raise ValueError(f"--env {name} has {type(act_space).__name__} actions {act_space}; camel-jax trains on "
                         "continuous actions (a 1-D Box): pick a task with a Box action space")
    if not (np.isfinite(act_space.low).all() and np.isfinite(act_space.high).all()):
        raise ValueError(f"--env {name} has unbounded actions ({act_space}); camel-jax rescales [-1, 1] onto finite "
                         "bounds: pick a task with bounded actions")
    if not isinstance(obs_space, gym.spaces.Box) or len(obs_space.shape) != 1 or obs_space.dtype == np.uint8:
        kind = type(obs_space).__name__ if not isinstance(obs_space, gym.spaces.Box) else f"image-like {obs_space}"
        raise ValueError(f"--env {name} has {kind} observations; camel-jax needs a flat vector (a 1-D Box): pick "
                         "another task or flatten it with a gymnasium wrapper in a registered env of your own")
    if registered.max_episode_steps is None:
        raise ValueError(f"--env {name} has no time limit (max_episode_steps); register it with one")
    bound = lambda lo, hi: "unbounded" if not (np.isfinite(lo) and np.isfinite(hi)) else f"in [{lo:g}, {hi:g}]"
    obs_table = tuple({"name": f"obs_{i}", "unit": "", "text": f"observation {i}, {bound(lo, hi)}"}
                      for i, (lo, hi) in enumerate(zip(obs_space.low.tolist(), obs_space.high.tolist())))
    act_table = tuple({"name": f"action_{i}", "text": f"-1 ... 1 is applied as {lo:g} ... {hi:g} (the env's bounds)"}
                      for i, (lo, hi) in enumerate(zip(act_space.low.tolist(), act_space.high.tolist())))
    text = "as documented above"
    return TaskSpec(
        name=name, gym_id=gym_id, xml=None, xml_sha256=None, frame_skip=1,
        episode_length=int(registered.max_episode_steps),
        description=(doc or f"(the {gym_id} class has no docstring)").strip(),
        obs_names=tuple(r["name"] for r in obs_table), obs_table=obs_table,
        act_names=tuple(r["name"] for r in act_table), act_table=act_table,
        qpos_start=0, qvel_clip=None, forward_source=None, forward_weight=0.0, healthy_reward=0.0,
        ctrl_cost_weight=0.0, reward_text=text, health_text=text + f"; truncated after {registered.max_episode_steps} steps",
        z_index=None, z_range=(-math.inf, math.inf), z_inclusive=False, angle_index=None, angle_range=None,
        state_range=None, reset_qpos=("uniform", 0.0), reset_qvel=("uniform", 0.0), path=Path(name),
        act_low=tuple(float(v) for v in act_space.low), act_high=tuple(float(v) for v in act_space.high),
        version=gym_id.rpartition("-")[2], family=name,
    )


def _first_line(e: Exception) -> str:
    return (str(e).strip().splitlines() or [type(e).__name__])[0].rstrip(".")


def compatible(prior_task: str, env_name: str) -> bool:
    """Whether a prior written for `prior_task` reads task `env_name`'s observations and writes its actions alike:
    the same task, or two versions of one task with the same observation and action tables (hopper and hopper-v5)."""
    if prior_task == env_name:
        return True
    try:
        a, b = load(prior_task), load(env_name)
    except ValueError:
        return False
    return (a.family == b.family and a.obs_table == b.obs_table and a.act_table == b.act_table
            and a.act_low == b.act_low and a.act_high == b.act_high)


def task_label(name: str, backend: str) -> str:
    """The task as a result should name it: `name`, or on MJX, where MJX computes a different task than the
    gymnasium v4 one (the spec's `mjx_variant`), `name (variant)`, e.g. "ant (MJX contacts)"."""
    variant = load(name).mjx_variant if backend == "mjx" else None
    return f"{name} ({variant})" if variant else name
