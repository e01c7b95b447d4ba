"""PPO's plug-in for the run shell (the interface: camel_jax/algos/__init__.py). ULTRA's guide is PPO's own plug-in
(camel_jax/ultra): a guided run states its guide in prior.txt (`guide: ...`, written by the loop), and its resume
goes through ULTRA, which reads the guide's tables again."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from camel_jax.algos.ppo import eval as ppo_eval
from camel_jax.algos.ppo.config import PPOConfig as Config
from camel_jax.algos.ppo.loop import EVAL_MODES, METRIC_FIELDS, train
from camel_jax.algos.ppo.loop import resume as resume_plain
from camel_jax.algos.ppo.loss import Hyper

NAME = "ppo"
ABOUT = "PPO (CleanRL's defaults; refined by ULTRA with camel-jax ultra)"
SWEEPABLE = tuple(Hyper.__dataclass_fields__)  # the --grid fields that vary inside one compiled program
__all__ = ["ABOUT", "EVAL_MODES", "METRIC_FIELDS", "NAME", "SWEEPABLE", "Config", "guide_line", "load_policy",
           "resume", "train"]


def guide_line(run_dir: str | Path) -> str | None:
    """The run's `guide: ...` line of prior.txt (a guided run, e.g. ULTRA's refinement), or None for plain PPO."""
    path = Path(run_dir) / "prior.txt"
    text = path.read_text() if path.is_file() else ""
    return next((line for line in text.splitlines() if line.startswith("guide: ")), None)


def resume(run_dir: str | Path, quiet: bool | None = None, truncate: bool = False, total_steps: int = 0) -> Path:
    """Continue a PPO run from its latest checkpoint (to `total_steps` when given: extends a finished run); a guided
    run with its guide again (ULTRA's resume)."""
    if guide_line(run_dir) is None:
        return resume_plain(run_dir, quiet=quiet, truncate=truncate, total_steps=total_steps)
    from camel_jax.ultra.refine import resume as resume_guided

    return resume_guided(run_dir, quiet=quiet, truncate=truncate, total_steps=total_steps)


def load_policy(run_dir: str | Path, prior: Callable | None = None, command: str = "eval", step: int | None = None):
    """(config, trainer functions, learner with every seed's final policy, eval modes, what the result records) of
    a finished PPO run: its deterministic mean action on observations normalised with the run's statistics; with
    `step`, the policy and statistics of the run's checkpoint at that env step (a finished run or not)."""
    if prior is not None:
        raise ValueError(f"{run_dir} is a PPO run, which has no prior to mask with; evaluate it without prior=")
    config, tr, learner = ppo_eval.load_run(run_dir, command, step)
    return config, tr, learner, dict(EVAL_MODES), {"algo": NAME, "prior": "none"}
