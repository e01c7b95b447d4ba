"""The lookup table of ULTRA on the device: suggested actions and their implicit rewards keyed by observations.

`Table` is a pytree of fixed capacity (keys (C, obs_dim), actions (C, act_dim), rewards (C,), valid (C,)) that carries
its own normalisation (mean, var (obs_dim,), clip ()), so it can be closed over or passed into jitted code and vmapped
(one table per seed). `match(table, obs, tau)` takes a raw observation, normalises it with the table's statistics,
finds the nearest valid key (`jnp.argmin` over squared Euclidean distances) and reports a hit when that distance is
at most `tau`; it returns (hit, action, rating) with a zero action and rating on a miss.

Keys are normalised the way CleanRL's PPO normalises observations, clip((obs - mean) / sqrt(var + 1e-8), -10, 10),
with the mean and variance given at build time (the base policy's final statistics), and lookups use the same fixed
statistics: the refining run's own running statistics, which keep moving, are never used for matching. `tau` is a
distance in those normalised units; `calibrate_tau` picks the tau at which a given fraction of a batch of
observations would match. The tau chosen (and the fraction it was calibrated for) is saved with the table
(`Built.tau`, `Built.tau_fraction`). When there are more suggestions than capacity, the first `capacity` are kept
(the order given: falls' windows first) and the rest are counted as `dropped`.

The implicit reward (`bonus`): an entry's reward rates its *suggested* action, so the bonus for the action taken at a
matched state is that rating times how close the taken action is to the suggestion,
  rating * exp(-mean_i (taken_i - suggested_i)^2 / (2 width^2)),
the full rating at the suggestion (modes A and RA, where the suggestion is what is taken), exp(-1/2) = 0.61 of it when
every actuator is `width` away, and almost nothing far from it. It is never one constant paid to any action at a
matched state (that would shape the value of reaching the state, not the choice of action there).
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from camel_jax.algos.ppo import normalize
from camel_jax.errors import SetupError
from camel_jax.ultra.results import Suggestion

CLIP = 10.0  # CleanRL's NormalizeObservation + clip
WIDTH = 0.5  # the bonus's kernel width, per actuator, in action units (actions lie in [-1, 1])


class Table(NamedTuple):
    keys: jax.Array  # (C, obs_dim) float32, normalised observations
    actions: jax.Array  # (C, act_dim) float32, in [-1, 1]
    rewards: jax.Array  # (C,) float32, in [-1, 1]: each the rating of its suggested action
    valid: jax.Array  # (C,) bool
    mean: jax.Array  # (obs_dim,) float32: the normalisation of keys and lookups
    var: jax.Array  # (obs_dim,) float32
    clip: jax.Array  # () float32


def normalise(obs, mean, var, clip: float = CLIP):
    """An observation in the table's key space: the base policy's normalisation (camel_jax/algos/ppo/normalize.py)."""
    return normalize.standardise(obs, mean, var, clip)


def key_of(table: Table, obs: jax.Array) -> jax.Array:
    """A raw observation (obs_dim,) in the table's key space (its own fixed normalisation)."""
    return normalise(obs, table.mean, table.var, table.clip)


def _squared_distances(table: Table, obs: jax.Array) -> jax.Array:
    return jnp.where(table.valid, jnp.sum(jnp.square(table.keys - key_of(table, obs)), axis=-1), jnp.inf)


def match(table: Table, obs: jax.Array, tau: float) -> tuple[jax.Array, jax.Array, jax.Array]:
    """(hit, suggested action, its rating) for one raw observation (obs_dim,); vmap for batches."""
    d2 = _squared_distances(table, obs)
    i = jnp.argmin(d2)
    hit = table.valid[i] & (d2[i] <= jnp.square(tau))
    return hit, jnp.where(hit, table.actions[i], 0.0), jnp.where(hit, table.rewards[i], 0.0)


def closeness(taken: jax.Array, suggested: jax.Array, width: float = WIDTH) -> jax.Array:
    """exp(-mean_i (taken_i - suggested_i)^2 / (2 width^2)): 1 at the suggestion, falling with the distance."""
    return jnp.exp(-0.5 * jnp.mean(jnp.square(taken - suggested), axis=-1) / jnp.square(width))


def bonus(table: Table, obs: jax.Array, taken: jax.Array, tau: float, width: float = WIDTH) -> jax.Array:
    """The implicit reward of taking action `taken` (act_dim,), as the env got it, at raw observation `obs`: the
    matched entry's rating times `closeness` of `taken` to its suggestion; 0 on a miss."""
    hit, suggested, rating = match(table, obs, tau)
    return jnp.where(hit, rating * closeness(taken, suggested, width), 0.0)


def guide(table: Table, tau: float):
    """`guide(obs) -> (hit, action, rating)`: `match` with the table and threshold bound."""
    return functools.partial(match, table, tau=tau)


def nearest_distance(table: Table, obs: jax.Array) -> jax.Array:
    """The distance, in key space, from the raw observation `obs` (obs_dim,) to the nearest valid key (inf for an
    empty table)."""
    return jnp.sqrt(jnp.min(_squared_distances(table, obs)))


def calibrate_tau(table: Table, obs: jax.Array, fraction: float) -> float:
    """The tau at which `fraction` of the raw observations `obs` (N, obs_dim) would match (a quantile of their
    nearest distances)."""
    if not 0.0 < fraction <= 1.0:
        raise ValueError(f"fraction must be in (0, 1], got {fraction}")
    return float(jnp.quantile(jax.vmap(nearest_distance, (None, 0))(table, obs), fraction))


def count_matches(hit: jax.Array) -> jax.Array:
    """The number of matched steps in `hit` (any shape), int32: add it to a running counter in the training loop."""
    return jnp.sum(hit, dtype=jnp.int32)


@dataclasses.dataclass(frozen=True)
class Built:
    """A table and what it was built from (saved with it)."""

    table: Table
    steps: np.ndarray  # (n,) the trajectory steps of the entries
    obs: np.ndarray  # (n, obs_dim) their raw observations
    sources: tuple[str, ...]  # the suggester of each entry
    identified_by: tuple[str, ...]  # the identifier of each entry
    mean: np.ndarray
    var: np.ndarray
    clip: float
    dropped: int  # suggestions beyond the capacity, not in the table
    tau: float | None = None  # the matching threshold used with this table (None: not chosen yet)
    tau_fraction: float | None = None  # the fraction of observations `tau` was calibrated to match

    @property
    def entries(self) -> int:
        return len(self.steps)


def build(suggestions: Sequence[Suggestion], mean, var, act_dim: int, capacity: int, clip: float = CLIP) -> Built:
    """A table of `capacity` rows from `suggestions` (the first `capacity` of them; the rest counted as dropped),
    keyed by their observations normalised with `mean` and `var`, with actions of `act_dim` entries."""
    mean, var = np.asarray(mean, np.float32), np.asarray(var, np.float32)
    if capacity < 1:
        raise ValueError(f"table capacity must be at least 1, got {capacity}")
    if mean.ndim != 1 or mean.shape != var.shape:
        raise ValueError(f"mean and var must be vectors of the same length, got {mean.shape} and {var.shape}")
    kept = list(suggestions)[:capacity]
    if any(len(s.obs) != len(mean) or len(s.action) != act_dim for s in kept):
        raise ValueError(f"a suggestion's observation or action does not have {len(mean)} (mean and var) or "
                         f"{act_dim} (act_dim) entries; build the table for the task the suggestions are for")
    obs = np.array([s.obs for s in kept], np.float32).reshape(len(kept), len(mean))
    rows = np.zeros((capacity, len(mean)), np.float32)
    rows[:len(kept)] = np.asarray(normalise(obs, mean, var, clip))
    actions = np.zeros((capacity, act_dim), np.float32)
    actions[:len(kept)] = np.array([s.action for s in kept], np.float32).reshape(len(kept), act_dim)
    rewards = np.zeros(capacity, np.float32)
    rewards[:len(kept)] = [s.reward for s in kept]
    table = Table(jnp.asarray(rows), jnp.asarray(actions), jnp.asarray(rewards), jnp.arange(capacity) < len(kept),
                  jnp.asarray(mean), jnp.asarray(var), jnp.float32(clip))
    return Built(table, np.array([s.step for s in kept], np.int64), obs, tuple(s.source for s in kept),
                 tuple(s.identified_by for s in kept), mean, var, float(clip), len(suggestions) - len(kept))


def save(path: str | Path, built: Built) -> None:
    """Write the table and its provenance as one .npz file."""
    t = built.table
    np.savez(path, keys=np.asarray(t.keys), actions=np.asarray(t.actions), rewards=np.asarray(t.rewards),
             valid=np.asarray(t.valid), steps=built.steps, obs=built.obs, mean=built.mean, var=built.var,
             info=np.array(json.dumps({"sources": built.sources, "identified_by": built.identified_by,
                                       "clip": built.clip, "dropped": built.dropped, "tau": built.tau,
                                       "tau_fraction": built.tau_fraction})))


def load(path: str | Path) -> Built:
    """The table saved at `path` (SetupError when it is missing or not a table file)."""
    if not Path(path).is_file():
        raise SetupError(f"table file not found: {path}; check the path")
    try:
        with np.load(path, allow_pickle=False) as d:
            info = json.loads(str(d["info"]))
            table = Table(*(jnp.asarray(d[k]) for k in ("keys", "actions", "rewards", "valid", "mean", "var")),
                          jnp.float32(info["clip"]))
            return Built(table, d["steps"], d["obs"], tuple(info["sources"]), tuple(info["identified_by"]),
                         d["mean"], d["var"], float(info["clip"]), int(info["dropped"]), info.get("tau"),
                         info.get("tau_fraction"))
    except (KeyError, ValueError, OSError) as e:
        raise SetupError(f"{path} is not a camel-jax ULTRA table ({e}); rebuild it") from None
