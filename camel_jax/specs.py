"""Task specs: one TOML file per task under `envs/`, the single source for env code, prompts, checks and docs.

A wheel carries the files inside the package (`camel_jax/_data/envs`); an editable install or a checkout reads them
from the repository root. Adding a task means adding one spec file (and one prior under `priors/`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import tomllib
from functools import cache
from pathlib import Path

_PKG = Path(__file__).resolve().parent


def data_dir(kind: str) -> Path:
    """Directory of shipped data of `kind` ("envs" or "priors"): inside a wheel, else the checkout's root."""
    for candidate in (_PKG / "_data" / kind, _PKG.parent / kind):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"camel-jax data folder '{kind}' not found; reinstall the package (pip install -e .)")


@dataclasses.dataclass(frozen=True)
class TaskSpec:
    name: str
    gym_id: str
    xml: str
    xml_sha256: str
    frame_skip: int
    episode_length: int
    description: str
    obs_names: tuple[str, ...]
    obs_table: tuple[dict, ...]
    act_names: tuple[str, ...]
    act_table: tuple[dict, ...]
    qpos_start: int
    qvel_clip: float | None
    forward_source: str
    forward_weight: float
    healthy_reward: float
    ctrl_cost_weight: float
    reward_text: str
    health_text: str
    z_index: int
    z_range: tuple[float, float]
    z_inclusive: bool
    angle_index: int | None
    angle_range: tuple[float, float] | None
    state_range: tuple[float, float] | None
    reset_qpos: tuple[str, float]
    reset_qvel: tuple[str, float]
    path: Path
    mjx_variant: str | None = None  # set where MJX computes a different task than gymnasium's C MuJoCo (Ant)

    @property
    def obs_dim(self) -> int:
        return len(self.obs_names)

    @property
    def act_dim(self) -> int:
        return len(self.act_names)

    @property
    def xml_path(self) -> Path:
        """The MuJoCo XML shipped inside the installed gymnasium package (never copied into this repository), checked
        against the spec's `xml_sha256`: a gymnasium release that changes the task stops here (SetupError)."""
        import gymnasium.envs.mujoco as gym_mujoco

        path = Path(gym_mujoco.__file__).resolve().parent / "assets" / self.xml
        check_xml(path, self.xml_sha256, self.name)
        return path

    def gym_make(self, **kwargs):
        """`gymnasium.make(gym_id, **kwargs)` after checking the installed XML against `xml_sha256` (`xml_path`)."""
        import gymnasium as gym

        self.xml_path  # noqa: B018  (the check)
        return gym.make(self.gym_id, **kwargs)

    def markdown_tables(self) -> str:
        """Observation and action tables as markdown (used by the prompt builder and the docs)."""
        lines = ["| obs index | name | unit | meaning |", "|---|---|---|---|"]
        lines += [f"| {i} | {r['name']} | {r.get('unit', '')} | {r.get('text', '')} |" for i, r in enumerate(self.obs_table)]
        lines += ["", "| action index | name | joint | meaning |", "|---|---|---|---|"]
        lines += [f"| {i} | {r['name']} | {r['joint']} | {r.get('text', '')} |" for i, r in enumerate(self.act_table)]
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
                         f"envs/{task}.toml)")


def available() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in data_dir("envs").glob("*.toml")))


@cache
def load(name: str) -> TaskSpec:
    """Load the spec of task `name` (e.g. "hopper"). Unknown names raise ValueError listing the known ones."""
    path = data_dir("envs") / f"{name}.toml"
    if not path.is_file():
        raise ValueError(f"unknown task '{name}'; choose one of: {', '.join(available())}")
    raw = tomllib.loads(path.read_text())
    health, reward, obs, act, reset = raw["health"], raw["reward"], raw["observation"], raw["action"], raw["reset"]
    return TaskSpec(
        name=raw["name"],
        gym_id=raw["gym_id"],
        xml=raw["xml"],
        xml_sha256=raw["xml_sha256"],
        frame_skip=int(raw["frame_skip"]),
        episode_length=int(raw["episode_length"]),
        description=raw["description"].strip(),
        obs_names=tuple(r["name"] for r in obs["table"]),
        obs_table=tuple(obs["table"]),
        act_names=tuple(r["name"] for r in act["table"]),
        act_table=tuple(act["table"]),
        qpos_start=int(obs["qpos_start"]),
        qvel_clip=obs.get("qvel_clip"),
        forward_source=reward["forward_source"],
        forward_weight=float(reward["forward_weight"]),
        healthy_reward=float(reward["healthy_reward"]),
        ctrl_cost_weight=float(reward["ctrl_cost_weight"]),
        reward_text=reward["text"].strip(),
        health_text=health["text"].strip(),
        z_index=int(health["z_index"]),
        z_range=tuple(float(v) for v in health["z_range"]),
        z_inclusive=bool(health.get("z_inclusive", False)),
        angle_index=health.get("angle_index"),
        angle_range=tuple(health["angle_range"]) if "angle_range" in health else None,
        state_range=tuple(health["state_range"]) if "state_range" in health else None,
        reset_qpos=(reset["qpos"]["kind"], float(reset["qpos"]["scale"])),
        reset_qvel=(reset["qvel"]["kind"], float(reset["qvel"]["scale"])),
        path=path,
        mjx_variant=raw.get("mjx_variant"),
    )


def task_label(name: str, backend: str) -> str:
    """The task as a result should name it: `name`, or on MJX, where MJX computes a different task than the
    gymnasium v4 one (the spec's `mjx_variant`), `name (variant)`, e.g. "ant (MJX contacts)"."""
    variant = load(name).mjx_variant if backend == "mjx" else None
    return f"{name} ({variant})" if variant else name
