"""TD3's plug-in for the run shell (the interface: camel_jax/algos/__init__.py). CAMEL is TD3 with a prior as its own
plug-in (camel_jax/priors): the prior is resolved by the loop and evaluated masked and unmasked here."""

from __future__ import annotations

import dataclasses
import hashlib
import tempfile
from collections.abc import Callable
from pathlib import Path

from camel_jax import specs
from camel_jax.algos.td3.actor import checkpoint_actor, load_actor
from camel_jax.algos.td3.config import Config
from camel_jax.algos.td3.loop import EVAL_MODES, METRIC_FIELDS, resume, train
from camel_jax.algos.td3.trainer import Learner, make_train
from camel_jax.algos.td3.update import Agent, Hyper
from camel_jax.core import runs
from camel_jax.priors.baselines import ResolvedPrior, callable_prior, resolve, source_of

NAME = "td3"
ABOUT = "masking-aware TD3 (CAMEL; plain TD3 with --prior none)"
SWEEPABLE = tuple(Hyper.__dataclass_fields__)  # the --grid fields that vary inside one compiled program
__all__ = ["ABOUT", "EVAL_MODES", "METRIC_FIELDS", "NAME", "SWEEPABLE", "Config", "load_policy", "resume", "train", "with_prior"]


def with_prior(config: Config, prior) -> tuple[Config, ResolvedPrior | None]:
    """The notebook API's `prior=`: a path, a task name, a baseline name (into `config.prior`) or a Python callable
    (checked under tracing, its source kept; the config names it `callable:<name>`). Returns (config, the resolved
    prior for `train(config, prior=...)`, None when `config.prior` says it)."""
    if callable(prior):
        resolved = ResolvedPrior(callable_prior(prior, config.env), "callable", source_of(prior))
        return dataclasses.replace(config, prior=runs.CALLABLE_PRIOR + getattr(prior, "__name__", "policy")), resolved
    return dataclasses.replace(config, prior=str(prior)), None


def load_policy(run_dir: str | Path, prior: Callable | None = None, command: str = "eval", step: int | None = None):
    """(config, trainer functions, learner with every member's final actor, eval modes, what the result records)
    of a finished run, for `camel-jax eval`; with `step`, the actor of the run's checkpoint at that env step (a
    finished run or not). Without its prior (a Python callable not given again, an expert run gone) the run is
    scored unmasked only and `masked_skipped` says why."""
    config, tr, learner, skipped = final_policy(Path(run_dir), prior, step)
    flags, about = dict(EVAL_MODES), {"prior": config.prior}
    if skipped:
        flags, about = {"unmasked": EVAL_MODES["unmasked"]}, {**about, "masked_skipped": skipped}
    return config, tr, learner, flags, about


class PriorUnavailable(ValueError):
    """The run's prior cannot be reloaded from its run directory (the message says why and what to do)."""


def run_prior(run_dir: Path, config: Config) -> ResolvedPrior:
    """The prior the run trained with (a prior file from its saved copy in prior.txt); PriorUnavailable when it
    cannot be reloaded from the run directory."""
    if config.prior.startswith(runs.CALLABLE_PRIOR):
        raise PriorUnavailable(f"{run_dir} was trained with a Python callable prior ({config.prior}), which cannot be "
                               "reloaded from the run directory (prior.txt keeps its source for reading only); for "
                               "the masked scores pass it again: camel_jax.evaluate_run(RUN_DIR, prior=fn)")
    if config.prior.startswith("expert:"):
        expert = Path(config.prior.split(":", 1)[1])
        if not (expert / "actor.msgpack").is_file():
            raise PriorUnavailable(f"{run_dir} was trained with the prior {config.prior}, but {expert / 'actor.msgpack'} "
                                   "is not there (from this directory); run eval from where the run was trained, or "
                                   "restore that run, for the masked scores")
    if config.prior in ("none", "random") or config.prior.startswith("expert:"):
        return resolve(config.prior, config.env)
    header, _, source = (run_dir / "prior.txt").read_text().partition("\n")
    if header.removeprefix("# sha256: ").strip() != hashlib.sha256(source.encode()).hexdigest():
        raise ValueError(f"{run_dir / 'prior.txt'} does not match its sha256 line; restore it from the run's backup")
    with tempfile.TemporaryDirectory() as tmp:  # validated and loaded like any prior file
        path = Path(tmp) / Path(config.prior).name
        path.write_text(source)
        return resolve(str(path), config.env)


def final_policy(run_dir: Path, prior: Callable | None = None,
                 step: int | None = None) -> tuple[Config, object, Learner, str]:
    """(config, the TD3 trainer's functions, a learner holding the final actor of every member, "" or why the
    masked scores cannot be computed) of a finished run; with `step`, the actors of its checkpoint at that env step
    instead (a finished run or not). `prior`: the callable of a run trained with one (else the run's own prior).
    Without its prior the trainer has none: its greedy actor is the unmasked one, bit for bit (an unmasked box is
    [-1, 1] either way)."""
    if step is None:
        config = runs.check_finished(run_dir, Config)
        _, actor = load_actor(run_dir)
    else:
        config = runs.check_checkpoint(run_dir, step, Config)
        actor = checkpoint_actor(run_dir, config, step)
    skipped = ""
    if prior is not None:
        if not config.prior.startswith(runs.CALLABLE_PRIOR):
            raise ValueError(f"{run_dir} was trained with the prior {config.prior}, not a Python callable; evaluate "
                             "it without prior= (its own prior is reloaded from the run directory)")
        fn = callable_prior(prior, config.env)  # traced once: one clear error for wrong shapes
    else:
        try:
            fn = run_prior(run_dir, config).fn
        except PriorUnavailable as e:
            fn, skipped = None, f"masked scores skipped: {e}"
    # greedy() reads only the actor and the hyperparameters (the box); make_train only the spec's dimensions here
    tr = make_train(config, specs.load(config.env), fn)
    agent = Agent(actor=actor, critic=None, target_actor=None, target_critic=None, actor_opt=None, critic_opt=None)
    learner = Learner(agent=agent, buffer=None, masked=None, key=None, hyper=config.member_hypers())
    return config, tr, learner, skipped
