"""The config every algorithm extends, and the choice of backend for `--backend auto`.

`BaseConfig` holds what the run shell reads: the task and backend, the members (seeds x `--grid` points), the run's
length, logging, evaluation, checkpoints, the device mesh and the run directory. An algorithm's config is a frozen
dataclass that extends it with its own hyperparameters (camel_jax/algos/td3/config.py, camel_jax/algos/ppo/config.py)
and names, as class attributes, the pytree of numbers that varies inside one compiled program (`HYPER`: a `--grid`
over its fields makes members of one program) and their valid ranges (`RANGES`). The command line is generated from
the dataclass (field names become flags: `total_steps` -> `--total-steps`).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, ClassVar, Literal

import tyro

from camel_jax import specs

# Written into config.json beside the settings (runs.create), never read back as settings: what the prior was and
# what it cost (camel_jax/priors/kinds.py), and the task as results name it (specs.task_label).
RECORDED = ("prior_kind", "prior_label", "prior_search_env_steps", "task_label")

# --env: a spec'd task (hopper, hopper-v5, ...: tasks/*.toml) or gym:ID (any gymnasium Box task). Parsed as a string
# (check() names an unknown one); the shell completion offers the spec'd names (TASK_CHOICES, cli.command_tree).
TASK_CHOICES = Literal[specs.available()]
TASKS = Annotated[str, tyro.conf.arg(metavar="{" + ",".join(specs.available()) + "}|gym:ID")]

# settings that must be positive in every algorithm's config
POSITIVE = ("total_steps", "num_envs", "eval_every", "log_every", "checkpoint_every", "keep_checkpoints")


@dataclasses.dataclass(frozen=True)
class BaseConfig:
    algo: str = ""
    """the algorithm (fixed: config.json states it, so `train --config RUN/config.json` replays the run)"""
    env: TASKS = "hopper"
    """task: a spec file in tasks/ (hopper is gymnasium's Hopper-v4, hopper-v5 its v5), or gym:ID for any gymnasium
    task with Box actions (gymnasium backend), e.g. gym:Pendulum-v1"""
    backend: Literal["auto", "mjx", "gymnasium"] = "auto"
    """auto: mjx on a GPU or TPU (or with --mjx-impl warp, --mesh or several processes), gymnasium on a CPU (the
    faster one there: the paper's C MuJoCo v4 tasks, one jitted call per step); mjx: one compiled program,
    vectorized over envs and seeds. config.json records the one used"""
    mjx_impl: Literal["jax", "warp"] = "jax"
    """MJX physics: jax (any device) or warp (MuJoCo Warp: an NVIDIA GPU, or its slow CPU path for debugging; needs
    pip install 'camel-jax[cuda]')"""
    seeds: tuple[int, ...] = (0,)
    """seeds trained at once (vmapped in one program), e.g. --seeds 0,1,2"""
    grid: tuple[str, ...] = ()
    """hyperparameters swept inside the same program, e.g. --grid NAME=V1,V2: every combination x every seed is one
    vmapped member (only the algorithm's in-program fields, its --help lists them; `camel-jax sweep` splits the
    rest into programs of their own)"""
    total_steps: int = 1_000_000
    """env steps (transitions) per member"""
    num_envs: int = 1
    """parallel envs per member"""
    eval_every: int = 10_000
    """env steps between evaluations"""
    eval_episodes: int = 10
    """deterministic-policy episodes per evaluation (0: no evaluation)"""
    log_every: int = 1_000
    """env steps between metric rows (one compiled chunk on MJX)"""
    checkpoint_every: int = 50_000
    """env steps between checkpoints of the complete training state in RUN_DIR/checkpoints/ (also a log step)"""
    keep_checkpoints: int = 3
    """how many of the latest checkpoints are kept"""
    out: str = ""
    """run directory; '' means runs/<task>_<backend>_<prior or algorithm>_<time>"""
    overwrite: bool = False
    """replace an existing run directory"""
    mesh: str = ""
    """spread members and envs over devices: --mesh seeds=4, envs=4 or seeds=2,envs=2 (members a multiple of seeds,
    num_envs of envs); "" = one device (several processes: all devices along seeds)"""
    compile_cache: bool = True
    """keep compiled programs in a persistent cache (JAX_COMPILATION_CACHE_DIR, else ~/.cache/camel-jax/xla), so a
    second run of the same program skips compilation; --no-compile-cache turns it off"""
    quiet: bool = False
    """no progress bar or lines (the CSVs, TensorBoard files in RUN_DIR/tb/ and W&B are still written)"""
    wandb: bool = False
    """log to Weights & Biases too (needs `pip install wandb`; off by default, nothing reaches the network otherwise)"""
    wandb_project: str = "camel-jax"
    """the W&B project of --wandb runs (one W&B run per member, grouped by the run directory)"""
    wandb_entity: str = ""
    """the W&B entity (team or user); '' means wandb's default (WANDB_ENTITY or your login)"""

    # The algorithm's numbers that vary inside one compiled program (a flax struct dataclass whose fields are
    # config fields of the same name), and the valid range of each: (predicate, rule as text).
    HYPER: ClassVar[type]
    RANGES: ClassVar[dict[str, tuple[Callable[[float], bool], str]]] = {}

    def resolved(self):
        """This config with `backend="auto"` made concrete (`backend_choice`); config.json records the one used."""
        return dataclasses.replace(self, backend=self.backend_choice()[0])

    def backend_choice(self) -> tuple[str, str]:
        """(backend, why): `backend`, or for "auto" mjx where JAX's default device is an accelerator (or with
        --mjx-impl warp, --mesh or several processes) and gymnasium on a CPU (a laptop's default: it runs the
        paper's exact tasks and is the faster one there)."""
        return (self.backend, f"--backend {self.backend}") if self.backend != "auto" else auto_backend(
            self.mjx_impl, self.mesh, self.env)

    def ratio_lines(self) -> list[str]:
        """What `train` says at start about how much each update learns from (the algorithm's own words)."""
        return []

    @property
    def steps_per_iteration(self) -> int:
        """Env steps per iteration of the run shell's loop (a vectorized step; PPO: a rollout)."""
        return self.num_envs

    @property
    def iterations(self) -> int:
        """Iterations of the run shell's loop."""
        return -(-self.total_steps // self.steps_per_iteration)

    def every(self, steps: int) -> int:
        """A period in env steps as whole iterations (at least one)."""
        return max(1, steps // self.steps_per_iteration)

    def hyper(self):
        """The config's `HYPER` values (float32 scalars)."""
        import jax.numpy as jnp

        return self.HYPER(**{k: jnp.asarray(getattr(self, k), jnp.float32) for k in self.HYPER.__dataclass_fields__})

    def grid_values(self) -> dict[str, tuple[float, ...]]:
        """`("delta=0.1,0.3",)` -> {"delta": (0.1, 0.3)}; ValueError naming the fix on a bad entry."""
        out = {}
        fields = tuple(self.HYPER.__dataclass_fields__)
        for item in self.grid:
            name, _, values = item.partition("=")
            name = name.strip().replace("-", "_")
            if name not in fields:
                raise ValueError(f"--grid '{item}': '{name}' cannot vary inside one program of {self.algo}; use one of "
                                 f"{', '.join(fields)} (camel-jax sweep runs other settings as separate programs)")
            try:
                out[name] = tuple(float(v) for v in values.split(",") if v.strip())
            except ValueError:
                raise ValueError(f"--grid '{item}': values must be numbers, e.g. --grid {name}=0.1,0.3") from None
            if not out[name]:
                raise ValueError(f"--grid '{item}' lists no values, e.g. --grid {name}=0.1,0.3")
        return out

    def members(self) -> list[dict]:
        """The vmapped axis of a run: one dict per member, {"seed": s, **swept values}, grid-major, seeds inner."""
        grid = self.grid_values()
        combos = [dict(zip(grid, vals)) for vals in itertools.product(*grid.values())]
        return [{"seed": s, **combo} for combo in combos for s in self.seeds]

    def member_hypers(self):
        """`HYPER` with a leading member axis: the config's values, overridden per member by the grid."""
        import jax.numpy as jnp

        members, base = self.members(), self.hyper()
        return self.HYPER(**{k: jnp.asarray([m.get(k, getattr(base, k)) for m in members], jnp.float32)
                             for k in self.HYPER.__dataclass_fields__})

    def check(self) -> None:
        """Raise ValueError with a one-line message naming the bad setting and the fix (the shared settings; an
        algorithm's check() adds its own)."""
        from camel_jax import envs
        from camel_jax.core.sharding import parse_mesh

        fixed = type(self).__dataclass_fields__["algo"].default  # the config class's own algorithm
        if fixed != self.algo:
            raise ValueError(f"{type(self).__name__}.algo must be '{fixed}', got '{self.algo}'")
        specs.load(self.env)  # unknown task -> ValueError listing the known ones
        if self.backend not in (*envs.BACKENDS, "auto"):
            raise ValueError(f"unknown backend '{self.backend}'; use --backend auto, mjx or gymnasium")
        envs.check_mjx_impl(self.mjx_impl, self.backend)
        envs.check_backend(self.env, self.backend)
        for name in POSITIVE:
            if getattr(self, name) <= 0:
                raise ValueError(f"--{name.replace('_', '-')} must be positive, got {getattr(self, name)}")
        if self.eval_episodes < 0:
            raise ValueError(f"--eval-episodes must be >= 0, got {self.eval_episodes}")
        if not self.seeds:
            raise ValueError("--seeds must name at least one seed, e.g. --seeds 0,1,2")
        parse_mesh(self.mesh)
        for name, (ok, rule) in self.RANGES.items():  # the base values and every --grid value alike
            if not ok(getattr(self, name)):
                raise ValueError(f"--{name.replace('_', '-')} must be {rule}, got {getattr(self, name)}")
        for name, values in self.grid_values().items():
            ok, rule = self.RANGES.get(name, (lambda v: True, ""))
            bad = [v for v in values if not ok(v)]
            if bad:
                raise ValueError(f"--grid {name}=...: {name} must be {rule}, got {bad[0]:g}")
        if self.wandb:
            try:
                import wandb  # noqa: F401  (imported here so a missing package stops the run before it starts)
            except ImportError:
                raise ValueError("--wandb needs the wandb package: pip install wandb (or drop --wandb)") from None

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), indent=2)

    @classmethod
    def from_json(cls, path: str | Path):
        """The config of a config.json (JSON lists back to tuples; what config.json records beside the settings,
        RECORDED, is left out)."""
        return cls.from_dict(json.loads(Path(path).read_text()))

    @classmethod
    def from_dict(cls, raw: dict):
        """The config of a dict as config.json holds it (JSON lists back to tuples, RECORDED left out)."""
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in raw.items() if k not in RECORDED})


def auto_backend(mjx_impl: str = "jax", mesh: str = "", env: str = "") -> tuple[str, str]:
    """(backend, why) of `--backend auto` in this process for task `env`: gymnasium for a gym:ID task (it has no MJX
    port), else mjx on an accelerator or where only MJX can do what was asked, gymnasium on a CPU."""
    import jax

    if env and specs.is_gym(env):
        return "gymnasium", f"auto: --env {env} is a gymnasium task, which runs on the gymnasium backend only"

    device = jax.default_backend()
    if device != "cpu":
        return "mjx", f"auto: JAX's default device is {device}, an accelerator, where MJX runs every env in one program"
    if mjx_impl == "warp":
        return "mjx", "auto: --mjx-impl warp is an MJX implementation"
    if mesh:
        return "mjx", "auto: --mesh spreads MJX's envs over devices"
    if jax.process_count() > 1:
        return "mjx", "auto: several processes shard MJX's envs"
    return "gymnasium", ("auto: JAX's default device is the CPU, where gymnasium's C MuJoCo is the faster backend and "
                         "runs the paper's v4 tasks")
