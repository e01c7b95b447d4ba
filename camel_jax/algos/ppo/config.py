"""PPO's settings: one frozen dataclass with CleanRL's `ppo_continuous_action.py` defaults, saved with each run.

The task, run, log, evaluation, checkpoint and mesh fields are the run shell's (camel_jax.core.config.BaseConfig), as
for TD3; `algo` marks a run directory's config.json as PPO's. The members are seeds x `--grid` points over ppo.Hyper's
fields (gamma, gae_lambda, clip_coef, vf_coef, ent_coef, alpha), all in one compiled program. Steps are counted in env steps; the loop works in whole iterations (one rollout
of `num_steps` x `num_envs` env steps and one update), so `log_every`, `eval_every` and `checkpoint_every` are rounded
down to whole iterations (at least one) and `total_steps` to whole iterations (CleanRL's `total_timesteps //
batch_size`).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import ClassVar

from camel_jax.algos.ppo.loss import OVERRIDE_LOSSES, Hyper, Settings
from camel_jax.core.config import BaseConfig

# The valid range of every ppo.Hyper field (the numbers a --grid varies inside one program), base and grid values.
HYPER_RANGES = {
    "gamma": (lambda v: 0 <= v <= 1, "in [0, 1]"),
    "gae_lambda": (lambda v: 0 <= v <= 1, "in [0, 1]"),
    "clip_coef": (lambda v: v > 0, "positive"),
    "vf_coef": (lambda v: v >= 0, ">= 0"),
    "ent_coef": (lambda v: v >= 0, ">= 0"),
    "alpha": (lambda v: v >= 0, ">= 0"),
}


@dataclasses.dataclass(frozen=True)
class PPOConfig(BaseConfig):
    """PPO's settings (CleanRL's defaults), after the shared ones of camel_jax.core.config.BaseConfig."""

    algo: str = "ppo"
    """the algorithm (fixed: marks the run directory as PPO's)"""
    log_every: int = 2048
    """env steps between metric rows (rounded down to whole iterations)"""
    num_steps: int = 2048
    """steps per env in each rollout (the PPO settings below are CleanRL's defaults)"""
    learning_rate: float = 3e-4
    """Adam step size of the actor and the value net"""
    anneal_lr: bool = True
    """the step size falls linearly to 0 over the run"""
    gamma: float = 0.99
    """discount (also of the reward normalisation's running return)"""
    gae_lambda: float = 0.95
    """GAE lambda"""
    num_minibatches: int = 32
    """minibatches per epoch (num_steps x num_envs must be a multiple)"""
    update_epochs: int = 10
    """passes over each rollout"""
    norm_adv: bool = True
    """normalise advantages per minibatch"""
    clip_coef: float = 0.2
    """the surrogate clipping coefficient (also clips the value loss)"""
    clip_vloss: bool = True
    """clipped value loss"""
    ent_coef: float = 0.0
    """entropy coefficient"""
    vf_coef: float = 0.5
    """value loss coefficient"""
    max_grad_norm: float = 0.5
    """global gradient-norm clip"""
    hidden: tuple[int, ...] = (64, 64)
    """hidden layer sizes of the policy mean and the value net (tanh)"""
    normalize_obs: bool = True
    """running observation normalisation (gymnasium's NormalizeObservation math)"""
    normalize_reward: bool = True
    """return-based reward scaling (gymnasium's NormalizeReward math)"""
    obs_clip: float = 10.0
    """normalised observations are clipped to [-obs_clip, obs_clip]"""
    reward_clip: float = 10.0
    """normalised rewards are clipped to [-reward_clip, reward_clip]"""
    alpha: float = 0.0
    """weight of a guide's reward bonus (ULTRA-R): the reward learnt from is r_env + alpha * bonus"""
    override_loss: str = "sampled"
    """how a guide's overriding action enters the policy loss: sampled (its log-prob forms the ratio) or value_only
    (the step trains the value alone)"""
    init_from: str = ""
    """a finished PPO run directory: member k starts from that run's final policy, value net, observation statistics
    and reward normaliser's statistics of its k-th member (ULTRA's refinement, or plain PPO continued); the
    optimiser and its step-size schedule start afresh"""

    HYPER: ClassVar[type] = Hyper  # --grid over gamma, gae_lambda, clip_coef, vf_coef, ent_coef, alpha: one program
    RANGES: ClassVar[dict] = HYPER_RANGES

    @property
    def batch_size(self) -> int:
        """Env steps per iteration (one rollout)."""
        return self.num_steps * self.num_envs

    @property
    def steps_per_iteration(self) -> int:
        return self.batch_size

    @property
    def iterations(self) -> int:
        """Whole iterations (CleanRL's `total_timesteps // batch_size`)."""
        return self.total_steps // self.batch_size

    def ratio_lines(self) -> list[str]:
        """What `train` says at start about reuse of data: PPO is on-policy, so a replay ratio in TD3's sense does not
        apply; each rollout is used for update_epochs x num_minibatches gradient steps, every transition
        update_epochs times (CleanRL's: 10 x 32 steps per 2,048 transitions)."""
        steps = self.update_epochs * self.num_minibatches
        return [(f"update-to-data ratio: n/a for PPO (on-policy); each rollout of {self.batch_size:,} transitions "
                 f"gets {self.update_epochs} epochs x {self.num_minibatches} minibatches = {steps} gradient steps "
                 f"({steps / self.batch_size:.3g} per transition, each transition used {self.update_epochs} times); "
                 "CleanRL's PPO: 320 per 2,048 (0.156)")]

    def settings(self) -> Settings:
        return Settings(update_epochs=self.update_epochs, num_minibatches=self.num_minibatches,
                        norm_adv=self.norm_adv, clip_vloss=self.clip_vloss, override_loss=self.override_loss)

    def check(self) -> None:
        """Raise ValueError with a one-line message naming the bad setting and the fix."""
        super().check()
        for name in ("num_steps", "num_minibatches", "update_epochs"):
            if getattr(self, name) <= 0:
                raise ValueError(f"--{name.replace('_', '-')} must be positive, got {getattr(self, name)}")
        if self.iterations < 1:
            raise ValueError(f"--total-steps ({self.total_steps}) is less than one rollout (--num-steps x "
                             f"--num-envs = {self.batch_size}); train longer or shorten the rollout")
        if self.batch_size % self.num_minibatches:
            raise ValueError(f"--num-steps x --num-envs ({self.batch_size}) must be a multiple of --num-minibatches "
                             f"({self.num_minibatches}); change one of them")
        if self.override_loss not in OVERRIDE_LOSSES:
            raise ValueError(f"--override-loss '{self.override_loss}' is unknown; use one of "
                             f"{', '.join(OVERRIDE_LOSSES)}")
        for name in ("learning_rate", "max_grad_norm", "obs_clip", "reward_clip"):
            if getattr(self, name) <= 0:
                raise ValueError(f"--{name.replace('_', '-')} must be positive, got {getattr(self, name)}")
        if self.init_from:
            self._check_init_from()

    def _check_init_from(self) -> None:
        base_dir = Path(self.init_from)
        if not is_ppo_run(base_dir) or not (base_dir / "actor.msgpack").is_file():
            raise ValueError(f"--init-from {base_dir} is not a finished PPO run (no PPO config.json or actor.msgpack); "
                             "point it at the run directory of a completed camel-jax train --algo ppo")
        base = PPOConfig.from_json(base_dir / "config.json")
        for name in ("env", "hidden", "normalize_obs"):
            if getattr(base, name) != getattr(self, name):
                raise ValueError(f"--init-from run has {name}={getattr(base, name)}, this run {getattr(self, name)}; "
                                 "use the same setting")
        if len(base.members()) != len(self.members()):
            raise ValueError(f"--init-from run has {len(base.members())} members (seeds x grid), this run "
                             f"{len(self.members())}; member k starts from the run's k-th, so give as many --seeds")


def is_ppo_run(run_dir: str | Path) -> bool:
    """Whether a run directory's config.json states PPO as its algorithm (`algo`); False without one."""
    from camel_jax import algos

    return (Path(run_dir) / "config.json").is_file() and algos.name_of_run(run_dir) == "ppo"
