"""A finished TD3 run's final actor (RUN_DIR/actor.msgpack): read back for `camel-jax eval`, the notebook API's
`load_actor` and the `expert:RUN_DIR` prior."""

from __future__ import annotations

from pathlib import Path

import jax
import jax.numpy as jnp
from flax import serialization

from camel_jax import specs
from camel_jax.algos.td3.config import Config
from camel_jax.algos.td3.networks import Actor


def load_actor(run_dir: Path):
    """(config, actor params with leading seed axis) of a finished run."""
    run_dir = Path(run_dir)
    if not (run_dir / "actor.msgpack").is_file():
        raise FileNotFoundError(f"{run_dir} has no actor.msgpack; point expert: at a finished run directory")
    config = Config.from_json(run_dir / "config.json")
    spec = specs.load(config.env)
    actor = Actor(spec.act_dim, config.hidden, config.actor_sees_box)
    ones = jnp.ones((1, spec.act_dim))
    template = actor.init(jax.random.PRNGKey(0), jnp.zeros((1, spec.obs_dim)), -ones, ones)
    template = jax.tree.map(lambda x: jnp.stack([x] * len(config.members())), template)
    return config, serialization.from_bytes(template, (run_dir / "actor.msgpack").read_bytes())
