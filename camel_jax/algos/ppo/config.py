"""PPO's settings: one frozen dataclass with CleanRL's `ppo_continuous_action.py` defaults, saved with each run.

The run, log, evaluation and checkpoint fields mean what they mean in `camel_jax.algos.td3.config.Config` (TD3); `algo` marks a
run directory's config.json as PPO's. Steps are counted in env steps; the loop works in whole iterations (one rollout
of `num_steps` x `num_envs` env steps and one update), so `log_every`, `eval_every` and `checkpoint_every` are rounded
down to whole iterations (at least one) and `total_steps` to whole iterations (CleanRL's `total_timesteps //
batch_size`).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
from pathlib import Path
from typing import Literal

import jax.numpy as jnp

from camel_jax.algos.ppo.loss import OVERRIDE_LOSSES, Hyper, Settings


@dataclasses.dataclass(frozen=True)
class PPOConfig:
    algo: str = "ppo"
    """the algorithm (fixed: marks the run directory as PPO's)"""
    env: str = "hopper"
    """task: a spec file in tasks/ (hopper, hopper-v5, ...), or gym:ID (gymnasium backend)"""
    backend: Literal["auto", "mjx", "gymnasium"] = "auto"
    """auto (as TD3's: mjx on a GPU or TPU, gymnasium on a CPU and for gym:ID tasks; train prints the choice and
    config.json records it), mjx (one rollout plus one update is one compiled step) or gymnasium (gymnasium's own
    tasks, host loop)"""
    seeds: tuple[int, ...] = (0,)
    """seeds trained at once (vmapped in one program), e.g. --seeds 0,1,2"""
    total_steps: int = 1_000_000
    """env steps per seed (rounded down to whole iterations)"""
    num_envs: int = 1
    """parallel envs per seed"""
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
    """a finished PPO run directory: seed k starts from that run's final policy, value net, observation statistics
    and reward normaliser's statistics of its k-th seed (ULTRA's refinement, or plain PPO continued); the optimiser
    and its step-size schedule start afresh"""
    eval_every: int = 10_000
    """env steps between evaluations (rounded down to whole iterations)"""
    eval_episodes: int = 10
    """deterministic (mean action) episodes per evaluation (0: no evaluation)"""
    log_every: int = 2048
    """env steps between metric rows (rounded down to whole iterations)"""
    checkpoint_every: int = 50_000
    """env steps between checkpoints of the complete training state (rounded down to whole iterations)"""
    keep_checkpoints: int = 3
    """how many of the latest checkpoints are kept"""
    out: str = ""
    """run directory (default: runs/<env>_<backend>_ppo_<time>)"""
    overwrite: bool = False
    """replace an existing run directory"""
    compile_cache: bool = True
    """keep compiled programs in a persistent cache (see camel-jax train --help)"""
    quiet: bool = False
    """no progress bar or lines"""
    wandb: bool = False
    """log to Weights & Biases too (needs `pip install wandb`)"""
    wandb_project: str = "camel-jax"
    """the W&B project of --wandb runs"""

    @property
    def batch_size(self) -> int:
        """Env steps per iteration (one rollout)."""
        return self.num_steps * self.num_envs

    @property
    def iterations(self) -> int:
        return self.total_steps // self.batch_size

    def every(self, steps: int) -> int:
        """A period in env steps as whole iterations (at least one)."""
        return max(1, steps // self.batch_size)

    def resolved(self) -> PPOConfig:
        """This config with `backend="auto"` made concrete (`backend_choice`)."""
        return dataclasses.replace(self, backend=self.backend_choice()[0])

    def backend_choice(self) -> tuple[str, str]:
        """(backend, why), as for TD3 (camel_jax.core.config.auto_backend)."""
        from camel_jax.core.config import auto_backend

        return (self.backend, f"--backend {self.backend}") if self.backend != "auto" else auto_backend(env=self.env)

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

    def hyper(self) -> Hyper:
        return Hyper(**{k: jnp.asarray(getattr(self, k), jnp.float32) for k in Hyper.__dataclass_fields__})

    def member_hypers(self) -> Hyper:
        """Hyper with a leading member axis (one member per seed)."""
        return Hyper(**{k: jnp.full((len(self.seeds),), getattr(self, k), jnp.float32)
                        for k in Hyper.__dataclass_fields__})

    def members(self) -> list[dict]:
        return [{"seed": s} for s in self.seeds]

    def grid_values(self) -> dict:
        return {}  # no in-program grid for PPO (yet): members are seeds

    def check(self) -> None:
        """Raise ValueError with a one-line message naming the bad setting and the fix."""
        from camel_jax import envs, specs

        if self.algo != "ppo":
            raise ValueError(f"PPOConfig.algo must be 'ppo', got '{self.algo}'")
        specs.load(self.env)
        if self.backend not in (*envs.BACKENDS, "auto"):
            raise ValueError(f"unknown backend '{self.backend}'; use --backend auto, mjx or gymnasium")
        if self.backend != "auto":
            envs.check_backend(self.env, self.backend)
        for name in ("total_steps", "num_envs", "num_steps", "num_minibatches", "update_epochs", "log_every",
                     "checkpoint_every", "keep_checkpoints", "eval_every"):
            if getattr(self, name) <= 0:
                raise ValueError(f"--{name.replace('_', '-')} must be positive, got {getattr(self, name)}")
        if not self.seeds:
            raise ValueError("--seeds must name at least one seed, e.g. --seeds 0,1,2")
        if self.iterations < 1:
            raise ValueError(f"--total-steps ({self.total_steps}) is less than one rollout (--num-steps x "
                             f"--num-envs = {self.batch_size}); train longer or shorten the rollout")
        if self.batch_size % self.num_minibatches:
            raise ValueError(f"--num-steps x --num-envs ({self.batch_size}) must be a multiple of --num-minibatches "
                             f"({self.num_minibatches}); change one of them")
        if self.override_loss not in OVERRIDE_LOSSES:
            raise ValueError(f"--override-loss '{self.override_loss}' is unknown; use one of "
                             f"{', '.join(OVERRIDE_LOSSES)}")
        ranges = {"gamma": (0, 1), "gae_lambda": (0, 1)}
        for name, (lo, hi) in ranges.items():
            if not lo <= getattr(self, name) <= hi:
                raise ValueError(f"--{name.replace('_', '-')} must be in [{lo}, {hi}], got {getattr(self, name)}")
        for name in ("learning_rate", "clip_coef", "max_grad_norm", "obs_clip", "reward_clip"):
            if getattr(self, name) <= 0:
                raise ValueError(f"--{name.replace('_', '-')} must be positive, got {getattr(self, name)}")
        for name in ("vf_coef", "ent_coef", "alpha", "eval_episodes"):
            if getattr(self, name) < 0:
                raise ValueError(f"--{name.replace('_', '-')} must be >= 0, got {getattr(self, name)}")
        if self.init_from:
            self._check_init_from()
        if self.wandb and importlib.util.find_spec("wandb") is None:  # before a run directory is made
            raise ValueError("--wandb needs the wandb package: pip install wandb (or drop --wandb)")

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
        if len(base.seeds) != len(self.seeds):
            raise ValueError(f"--init-from run has {len(base.seeds)} seeds, this run {len(self.seeds)}; seed k starts "
                             "from the run's k-th, so give as many --seeds")

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), indent=2)

    @classmethod
    def from_json(cls, path: str | Path) -> PPOConfig:
        """The config of a config.json (JSON lists back to the tuples `seeds` and `hidden`)."""
        from camel_jax.core.config import RECORDED

        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in json.loads(Path(path).read_text()).items()
                      if k not in RECORDED})


def is_ppo_run(run_dir: str | Path) -> bool:
    """Whether a run directory's config.json states PPO as its algorithm (`algo`); False without one."""
    from camel_jax import algos

    return (Path(run_dir) / "config.json").is_file() and algos.name_of_run(run_dir) == "ppo"
