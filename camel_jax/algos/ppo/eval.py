"""A finished PPO run's policy, loaded for use outside training: `camel-jax eval RUN_DIR` on a PPO run (through
camel_jax/final_eval.py, which dispatches on the run's config kind) and ULTRA's trajectory collection.

`load_run` gives the run's PPOConfig, its trainer's pure functions and a `Learner` (leading axis: seed) holding the
final policy, value net and observation statistics of RUN_DIR/actor.msgpack (`ppo_loop.load_policy`). Evaluation uses
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
from camel_jax.core.runs import check_finished


def load_run(run_dir: str | Path, command: str = "eval") -> tuple[PPOConfig, PPOTrain, Learner]:
    """(config, trainer functions, learner with the final policy of every member) of the finished PPO run `run_dir`;
    FileNotFoundError / ValueError with one line naming the fix (for `command`) when it is not one."""
    run_dir = Path(run_dir)
    config = check_finished(run_dir, PPOConfig, command)
    tr = make_train(config, specs.load(config.env))  # reads only the spec's dimensions here
    keys = jnp.stack([jax.random.PRNGKey(m["seed"]) for m in config.members()])
    hyper = config.member_hypers()
    policy = load_policy(run_dir, jax.eval_shape(jax.vmap(tr.init_learner), keys, hyper))
    learner = Learner(params=policy["params"], opt_state=None, obs_stats=policy["obs_stats"], reward_scaler=None,
                      key=keys, hyper=hyper)
    return config, tr, learner
