"""TD3's config: the run shell's shared settings (camel_jax.core.config.BaseConfig) plus every TD3 hyperparameter
(CleanRL's defaults) and CAMEL's, one frozen dataclass saved with each run.

The command line is generated from it (field names become flags: `total_steps` -> `--total-steps`).
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from camel_jax.algos.td3.update import Hyper
from camel_jax.core.config import TASK_CHOICES, TASKS, BaseConfig  # noqa: F401  (TASKS: older imports)

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
class Config(BaseConfig):
    """TD3's settings (CleanRL's defaults) and CAMEL's, after the shared ones of camel_jax.core.config.BaseConfig."""

    algo: str = "td3"
    """the algorithm (fixed: config.json states it, so `train --config RUN/config.json` replays the run)"""
    prior: str = "none"
    """a task name for its LLM-written prior (hopper: the answer `priors select` chose), tuned:NAME for a controller
    searched for in simulation (tuned:hopper; its search cost is recorded), a prior file, none (plain TD3), random
    (random box centres) or expert:RUN_DIR"""
    learning_starts: int = 25_000
    """uniform random actions inside the box (and no updates) before this many env steps"""
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
    buffer_in_checkpoint: bool = True
    """store the replay buffer in checkpoints (without it a resumed run starts with an empty buffer)"""

    HYPER: ClassVar[type] = Hyper  # --grid over delta, mask_fraction, eps0, gamma, ... varies inside one program
    RANGES: ClassVar[dict] = HYPER_RANGES

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

    @property
    def actor_sees_box(self) -> bool:
        """The actor's input carries the box only with a prior and the masking-aware actor. Without a prior the box
        is the constant [-1, 1], and CleanRL's actor sees `obs` alone: so does ours (same fan-in, same init)."""
        return self.masking_aware and self.prior != "none"

    def check(self) -> None:
        """Raise ValueError with a one-line message naming the bad setting and the fix."""
        super().check()
        for name in ("updates_per_step", "batch_size", "buffer_size", "policy_frequency"):
            if getattr(self, name) <= 0:
                raise ValueError(f"--{name.replace('_', '-')} must be positive, got {getattr(self, name)}")
        if self.learning_starts < 0 or self.learning_starts >= self.total_steps:
            raise ValueError(f"--learning-starts ({self.learning_starts}) must be in [0, --total-steps "
                             f"({self.total_steps})); lower it or train longer")
