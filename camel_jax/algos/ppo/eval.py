"""A finished PPO run's policy, loaded for use outside training: `camel-jax eval RUN_DIR` on a PPO run (through
camel_jax/final_eval.py, which dispatches on the run's config kind) and ULTRA's trajectory collection.

`load_run` gives the run's PPOConfig, its trainer's pure functions and a `Learner` (leading axis: seed) holding the
final policy, value net and observation statistics of RUN_DIR/actor.msgpack (`ppo_loop.load_policy`), or with `step`
those of the checkpoint at that env step (`camel-jax eval --step`). Evaluation uses
the trainer's `greedy`: the deterministic mean action, clipped to [-1, 1], on observations normalised with the
run's statistics, frozen (`normalize.scale`).
"""

from __future__ import annotations

from pathlib import Path

import jax
import jax.numpy as jnp

from camel_jax import specs
from camel_jax.algos.ppo.config import PPOConfig
from camel_jax.algos.ppo.loop import load_policy
from camel_jax.algos.ppo.trainer import Learner, PPOTrain, make_train
from camel_jax.core import checkpoint
from camel_jax.core.runs import check_checkpoint, check_finished


def load_run(run_dir: str | Path, command: str = "eval",
             step: int | None = None) -> tuple[PPOConfig, PPOTrain, Learner]:
    """(config, trainer functions, learner with the final policy of every member) of the finished PPO run `run_dir`;
    with `step`, the policy of its checkpoint at that env step (a finished run or not). FileNotFoundError /
    ValueError with one line naming the fix (for `command`) when there is none."""
    run_dir = Path(run_dir)
    config = check_finished(run_dir, PPOConfig, command) if step is None else \
        check_checkpoint(run_dir, step, PPOConfig, command)
    tr = make_train(config, specs.load(config.env))  # reads only the spec's dimensions here
    keys = jnp.stack([jax.random.PRNGKey(m["seed"]) for m in config.members()])
    hyper = config.member_hypers()
    template = jax.eval_shape(jax.vmap(tr.init_learner), keys, hyper)
    if step is None:
        policy = load_policy(run_dir, template)
    else:  # the learner's first fields, as the state saved them (on MJX the learner is its first field)
        (params, _, obs_stats), _ = checkpoint.load_leading(
            run_dir, step, (template.params, template.opt_state, template.obs_stats))
        policy = {"params": params, "obs_stats": obs_stats}
    learner = Learner(params=policy["params"], opt_state=None, obs_stats=policy["obs_stats"], reward_scaler=None,
                      key=keys, hyper=hyper)
    return config, tr, learner
