"""Running observation and reward normalisation as pure functions over explicit state (PPO's input pipeline).

The math of gymnasium's `NormalizeObservation` and `NormalizeReward` wrappers (and their `RunningMeanStd`), which
CleanRL's `ppo_continuous_action.py` stacks with clipping at 10, written over pytrees so it runs inside jit and vmap
and is checkpointed with the rest of the training state:
  stats      mean 0, var 1, count 1e-4 at the start; a batch updates them with the parallel-moments rule
  obs        stats updated with the observation first, then clip((obs - mean) / sqrt(var + 1e-8), -clip, clip)
  reward     ret = ret * gamma * (1 - terminated) + r; stats of ret updated; clip(r / sqrt(var + 1e-8), -clip, clip)
             (the return is scaled, never centred; it carries over truncations, as in gymnasium)
Two differences from CleanRL's stack, both small: a batch of envs updates one set of statistics (gymnasium's vector
wrappers; CleanRL wraps each env separately, the same thing at its default of one env), and only the observations
the policy acts on are counted (CleanRL's wrappers also count each episode's final observation, which is normalised
on its way to the vector env's auto-reset and never used: one observation in an episode's length).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
from flax import struct

EPSILON = 1e-8  # added to the variance under the square root, as gymnasium does


@struct.dataclass
class RunningStats:
    mean: jax.Array
    var: jax.Array
    count: jax.Array


@struct.dataclass
class RewardScaler:
    stats: RunningStats  # of the discounted return
    ret: jax.Array  # (num_envs,) the running discounted return of each env


def init_stats(shape: tuple[int, ...] = ()) -> RunningStats:
    return RunningStats(jnp.zeros(shape, jnp.float32), jnp.ones(shape, jnp.float32), jnp.asarray(1e-4, jnp.float32))


def update(stats: RunningStats, batch: jax.Array) -> RunningStats:
    """Fold a batch (leading axis: samples) into the statistics (Chan et al.'s parallel algorithm)."""
    n = batch.shape[0]
    batch_mean, batch_var = jnp.mean(batch, axis=0), jnp.var(batch, axis=0)
    delta = batch_mean - stats.mean
    total = stats.count + n
    m2 = stats.var * stats.count + batch_var * n + jnp.square(delta) * stats.count * n / total
    return RunningStats(stats.mean + delta * n / total, m2 / total, total)


def scale(stats: RunningStats, x: jax.Array, clip: float) -> jax.Array:
    """(x - mean) / std, clipped to [-clip, clip], with the statistics as they are (no update)."""
    return standardise(x, stats.mean, stats.var, clip)


def standardise(x, mean, var, clip: float) -> jax.Array:
    """(x - mean) / sqrt(var + EPSILON), clipped to [-clip, clip]."""
    return jnp.clip((jnp.asarray(x) - mean) / jnp.sqrt(var + EPSILON), -clip, clip)


def observe(stats: RunningStats, obs: jax.Array, clip: float) -> tuple[RunningStats, jax.Array]:
    """NormalizeObservation + clip on a batch of observations (num_envs, obs_dim): update, then normalise."""
    stats = update(stats, obs)
    return stats, scale(stats, obs, clip)


def init_reward(num_envs: int) -> RewardScaler:
    return RewardScaler(init_stats(), jnp.zeros((num_envs,), jnp.float32))


def reward(scaler: RewardScaler, r: jax.Array, terminated: jax.Array, gamma: jax.Array,
           clip: float) -> tuple[RewardScaler, jax.Array]:
    """NormalizeReward + clip on a batch of rewards (num_envs,): return-based scaling, no centring."""
    ret = scaler.ret * gamma * (1.0 - terminated) + r
    stats = update(scaler.stats, ret)
    return RewardScaler(stats, ret), jnp.clip(r / jnp.sqrt(stats.var + EPSILON), -clip, clip)
