"""One frozen dataclass with every hyperparameter (CleanRL's TD3 defaults plus CAMEL's), saved with each run.

The command line is generated from it (field names become flags: `total_steps` -> `--total-steps`).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from pathlib import Path
from typing import Annotated, Literal

import jax.numpy as jnp
import tyro

from camel_jax import specs
from camel_jax.algos.td3.update import Hyper
from camel_jax.core.config import RECORDED, auto_backend

# --env: a spec'd task (hopper, hopper-v5, ...: tasks/*.toml) or gym:ID (any gymnasium Box task). Parsed as a string
# (check() names an unknown one); the shell completion offers the spec'd names (TASK_CHOICES, cli.command_tree).
TASK_CHOICES = Literal[specs.available()]
TASKS = Annotated[str, tyro.conf.arg(metavar="{" + ",".join(specs.available()) + "}|gym:ID")]
# CleanRL's td3_continuous_action_jax.py settings that decide how much each update learns from; with all of them at
# these values a run claims CleanRL's TD3, whose update-to-data ratio is 1 (one update per env transition).
CLEANRL_TD3 = {"buffer_size": 1_000_000, "batch_size": 256, "learning_rate": 3e-4, "gamma": 0.99, "tau": 0.005,
               "exploration_noise": 0.1, "policy_noise": 0.2, "noise_clip": 0.5, "policy_frequency": 2,
               "hidden": (256, 256)}

# The valid range of every td3.Hyper field, checked for the base value and for each --grid value.
HYPER_RANGES = {
    "gamma": (lambda v: 0 <= v <= 1, "in [0, 1]"),
    "tau": (lambda v: 0 < v <= 1, "in (0, 1]"),
    "exploration_noise": (lambda v: v >= 0, ">= 0"),
    "policy_noise": (lambda v: v >= 0, ">= 0"),
    "noise_clip": (lambda v: v >= 0, ">= 0"),
    "delta": (lambda v: v > 0, "> 0"),
    "min_width": (lambda v: 0 < v <= 2, "in (0, 2]"),
    "eps0": (lambda v: 0 <= v <= 1, "in [0, 1]"),
    "mask_fraction": (lambda v: v >= 0, ">= 0"),
}


@dataclasses.dataclass(frozen=True)
class Config:
    algo: str = "td3"
    """the algorithm (fixed: config.json states it, so `train --config RUN/config.json` replays the run)"""
    env: TASKS = "hopper"
    """task: a spec file in tasks/ (hopper is gymnasium's Hopper-v4, hopper-v5 its v5), or gym:ID for any gymnasium
    task with Box actions (gymnasium backend), e.g. gym:Pendulum-v1"""
    backend: Literal["auto", "mjx", "gymnasium"] = "auto"
    """auto: mjx on a GPU or TPU (or with --mjx-impl warp, --mesh or several processes), gymnasium on a CPU (the faster one there: the paper's C MuJoCo v4 tasks, one jitted
    call per step); mjx: one compiled program, vectorized over envs and seeds. config.json records the one used"""
    mjx_impl: Literal["jax", "warp"] = "jax"
    """MJX physics: jax (any device) or warp (MuJoCo Warp: an NVIDIA GPU, or its slow CPU path for debugging; needs
    pip install 'camel-jax[cuda]')"""
    prior: str = "none"
    """a task name for its LLM-written prior (hopper: the answer `priors select` chose), tuned:NAME for a controller
    searched for in simulation (tuned:hopper; its search cost is recorded), a prior file, none (plain TD3), random
    (random box centres) or expert:RUN_DIR"""
    seeds: tuple[int, ...] = (0,)
    """seeds trained at once (vmapped in one program), e.g. --seeds 0,1,2"""
    grid: tuple[str, ...] = ()
    """hyperparameters swept inside the same program, e.g. --grid delta=0.1,0.3 mask_fraction=0.25,0.5: every
    combination x every seed is one vmapped member (only fields of td3.Hyper; `camel-jax sweep` splits the rest)"""
    total_steps: int = 1_000_000
    """env steps (transitions) per seed: vectorized steps x num_envs"""
    learning_starts: int = 25_000
    """uniform random actions inside the box (and no updates) before this many env steps"""
    num_envs: int = 1
    """parallel envs per seed"""
    updates_per_step: int = 1
    """gradient updates per vectorized env step"""
    buffer_size: int = 1_000_000
    """replay capacity (TD3 settings below are CleanRL's defaults)"""
    batch_size: int = 256
    """transitions per gradient update"""
    learning_rate: float = 3e-4
    """Adam step size of actor and critics"""
    gamma: float = 0.99
    """discount"""
    tau: float = 0.005
    """Polyak rate of the target networks"""
    exploration_noise: float = 0.1
    """std of the Gaussian acting noise"""
    policy_noise: float = 0.2
    """std of the target policy smoothing noise"""
    noise_clip: float = 0.5
    """clip of the target policy smoothing noise"""
    policy_frequency: int = 2
    """actor and targets are updated every this many critic updates"""
    hidden: tuple[int, ...] = (256, 256)
    """hidden layer sizes of actor and critics, e.g. --hidden 256,256"""
    delta: float = 0.3
    """half-width of the box around the prior's action (the paper's action-mapping width)"""
    min_width: float = 0.05
    """the box is never narrower than this"""
    eps0: float = 1.0
    """initial masking probability"""
    mask_fraction: float = 0.5
    """epsilon falls linearly from eps0 to 0 at mask_fraction * total_steps"""
    masking_aware: bool = True
    """False: the paper's 'w/o MA EM' control (actor blind to the box, every episode masked)"""
    eval_every: int = 10_000
    """env steps between evaluations"""
    eval_episodes: int = 10
    """deterministic-actor episodes per evaluation, each reported unmasked and masked (0: no evaluation)"""
    log_every: int = 1_000
    """env steps between metric rows (one compiled chunk on MJX)"""
    checkpoint_every: int = 50_000
    """env steps between checkpoints of the complete training state in RUN_DIR/checkpoints/ (also a log step)"""
    keep_checkpoints: int = 3
    """how many of the latest checkpoints are kept"""
    buffer_in_checkpoint: bool = True
    """store the replay buffer in checkpoints (without it a resumed run starts with an empty buffer)"""
    out: str = ""
    """run directory; '' means runs/<env>_<backend>_<prior>_<time>"""
    overwrite: bool = False
    """replace an existing run directory"""
    mesh: str = ""
    """spread seeds and envs over devices: --mesh seeds=4, envs=4 or seeds=2,envs=2 (members a multiple of seeds,
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

    def resolved(self) -> Config:
        """This config with `backend="auto"` made concrete (`backend_choice`); config.json records the one used."""
        return dataclasses.replace(self, backend=self.backend_choice()[0])

    def backend_choice(self) -> tuple[str, str]:
        """(backend, why): `backend`, or for "auto" mjx where JAX's default device is an accelerator (or with
        --mjx-impl warp, --mesh or several processes) and gymnasium on a CPU (a laptop's default: it runs the paper's
        exact tasks and is the faster one there)."""
        return (self.backend, f"--backend {self.backend}") if self.backend != "auto" else auto_backend(
            self.mjx_impl, self.mesh, self.env)

    def update_to_data(self) -> float:
        """Gradient updates per env transition: updates_per_step per vectorized step of num_envs transitions."""
        return self.updates_per_step / self.num_envs

    def ratio_lines(self) -> list[str]:
        """What `train` says at start about the update-to-data ratio, and a warning when it is more than 10x away
        from CleanRL's 1 while every other setting of CLEANRL_TD3 is CleanRL's (the run claims CleanRL's TD3 but
        learns from each transition far more or far less)."""
        ratio = self.update_to_data()
        rows = ratio * self.batch_size
        lines = [(f"update-to-data ratio: {self.updates_per_step} update(s) per vectorized step of "
                  f"{self.num_envs:,} env transition(s) = {ratio:.3g} per transition ({rows:,.3g} sampled rows per "
                  "transition); CleanRL's TD3: 1 (256 rows)")]
        cleanrl = all(getattr(self, k) == v for k, v in CLEANRL_TD3.items())
        if cleanrl and not 0.1 <= ratio <= 10:
            factor = f"{1 / ratio:,.0f}x below" if ratio < 1 else f"{ratio:,.0f}x above"
            lines.append(f"warning: the update-to-data ratio {ratio:.3g} is {factor} CleanRL's 1 while every other "
                         f"TD3 setting is CleanRL's; --updates-per-step {self.num_envs} with --num-envs "
                         f"{self.num_envs} keeps CleanRL's ratio, or start from --config presets/fast.json, whose "
                         "batch and ratio are chosen together (presets/fast.md)")
        return lines

    def hyper(self) -> Hyper:
        f = lambda v: jnp.asarray(v, jnp.float32)
        return Hyper(gamma=f(self.gamma), tau=f(self.tau), exploration_noise=f(self.exploration_noise),
                     policy_noise=f(self.policy_noise), noise_clip=f(self.noise_clip), delta=f(self.delta),
                     min_width=f(self.min_width), eps0=f(self.eps0), mask_fraction=f(self.mask_fraction))

    def grid_values(self) -> dict[str, tuple[float, ...]]:
        """`("delta=0.1,0.3",)` -> {"delta": (0.1, 0.3)}; ValueError naming the fix on a bad entry."""
        out = {}
        for item in self.grid:
            name, _, values = item.partition("=")
            name = name.strip().replace("-", "_")
            if name not in Hyper.__dataclass_fields__:
                raise ValueError(f"--grid '{item}': '{name}' cannot vary inside one program; use one of "
                                 f"{', '.join(Hyper.__dataclass_fields__)} (camel-jax sweep runs other settings "
                                 f"as separate programs)")
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

    def member_hypers(self) -> Hyper:
        """Hyper with a leading member axis: the config's values, overridden per member by the grid."""
        members = self.members()
        base = self.hyper()
        return Hyper(**{k: jnp.asarray([m.get(k, getattr(base, k)) for m in members], jnp.float32)
                        for k in Hyper.__dataclass_fields__})

    @property
    def actor_sees_box(self) -> bool:
        """The actor's input carries the box only with a prior and the masking-aware actor. Without a prior the box
        is the constant [-1, 1], and CleanRL's actor sees `obs` alone: so does ours (same fan-in, same init)."""
        return self.masking_aware and self.prior != "none"

    @property
    def iterations(self) -> int:
        """Vectorized env steps in the run."""
        return -(-self.total_steps // self.num_envs)

    def check(self) -> None:
        """Raise ValueError with a one-line message naming the bad setting and the fix."""
        from camel_jax import envs, specs

        if self.algo != "td3":
            raise ValueError(f"Config.algo must be 'td3', got '{self.algo}'")
        specs.load(self.env)  # unknown task -> ValueError listing the known ones
        if self.backend not in (*envs.BACKENDS, "auto"):
            raise ValueError(f"unknown backend '{self.backend}'; use --backend auto, mjx or gymnasium")
        envs.check_mjx_impl(self.mjx_impl, self.backend)
        envs.check_backend(self.env, self.backend)
        for name in ("total_steps", "num_envs", "updates_per_step", "batch_size", "buffer_size", "policy_frequency",
                     "log_every", "checkpoint_every", "keep_checkpoints"):
            if getattr(self, name) <= 0:
                raise ValueError(f"--{name.replace('_', '-')} must be positive, got {getattr(self, name)}")
        if not self.seeds:
            raise ValueError("--seeds must name at least one seed, e.g. --seeds 0,1,2")
        self.grid_values()
        if self.learning_starts < 0 or self.learning_starts >= self.total_steps:
            raise ValueError(f"--learning-starts ({self.learning_starts}) must be in [0, --total-steps "
                             f"({self.total_steps})); lower it or train longer")
        if self.eval_every <= 0 or self.eval_episodes < 0:
            raise ValueError("--eval-every must be positive and --eval-episodes >= 0")
        from camel_jax.core.sharding import parse_mesh

        parse_mesh(self.mesh)
        for name, (ok, rule) in HYPER_RANGES.items():  # the base values and every --grid value alike
            if not ok(getattr(self, name)):
                raise ValueError(f"--{name.replace('_', '-')} must be {rule}, got {getattr(self, name)}")
        for name, values in self.grid_values().items():
            bad = [v for v in values if not HYPER_RANGES[name][0](v)]
            if bad:
                raise ValueError(f"--grid {name}=...: {name} must be {HYPER_RANGES[name][1]}, got {bad[0]:g}")
        if self.wandb:
            try:
                import wandb  # noqa: F401  (imported here so a missing package stops the run before it starts)
            except ImportError:
                raise ValueError("--wandb needs the wandb package: pip install wandb (or drop --wandb)") from None

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), indent=2)

    @classmethod
    def from_json(cls, path: str | Path) -> Config:
        raw = {k: v for k, v in json.loads(Path(path).read_text()).items() if k not in RECORDED}
        for k in ("seeds", "hidden", "grid"):
            if k in raw:
                raw[k] = tuple(raw[k])
        return cls(**raw)
