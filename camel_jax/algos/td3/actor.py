"""A finished TD3 run's final actor (RUN_DIR/actor.msgpack): read back for `camel-jax eval`, the notebook API's
`load_actor` and the `expert:RUN_DIR` prior; and the actor of any kept checkpoint (`camel-jax eval --step`)."""

from __future__ import annotations

from pathlib import Path

import jax
import jax.numpy as jnp
from flax import serialization

from camel_jax import specs
from camel_jax.algos.td3.config import Config
from camel_jax.algos.td3.networks import Actor
from camel_jax.core import checkpoint


def load_actor(run_dir: Path):
    """(config, actor params with leading seed axis) of a finished run."""
    run_dir = Path(run_dir)
    if not (run_dir / "actor.msgpack").is_file():
        raise FileNotFoundError(f"{run_dir} has no actor.msgpack; point expert: at a finished run directory")
    config = Config.from_json(run_dir / "config.json")
    return config, serialization.from_bytes(_template(config), (run_dir / "actor.msgpack").read_bytes())


def checkpoint_actor(run_dir: Path, config: Config, step: int):
    """The actor params (leading member axis) of the run's checkpoint at env step `step`. The actor is the first
    field of the learner's agent, and the learner is the saved state (gymnasium) or its first field (MJX's
    TrainState), so the actor's leaves are the state's first ones on either backend: only they are read."""
    actor, _ = checkpoint.load_leading(run_dir, step, jax.eval_shape(lambda: _template(config)))
    return actor


def _template(config: Config):
    """Actor params of the run's shape, with its leading member axis."""
    spec = specs.load(config.env)
    actor = Actor(spec.act_dim, config.hidden, config.actor_sees_box)
    ones = jnp.ones((1, spec.act_dim))
    template = actor.init(jax.random.PRNGKey(0), jnp.zeros((1, spec.obs_dim)), -ones, ones)
    return jax.tree.map(lambda x: jnp.stack([x] * len(config.members())), template)
