"""The episode columns every algorithm logs: episodes ended in a chunk, and their mean return and length."""

from __future__ import annotations


def episode_means(episodes, return_sums, length_sums, xp, axis=None) -> dict:
    """{"episodes", "episode_return", "episode_length"} from per-step counts and sums (reduced over `axis`; None:
    all): the means over every episode that ended, NaN where none did. `xp`: jax.numpy inside a compiled program,
    numpy on the host."""
    count = xp.sum(episodes, axis=axis)
    safe = xp.maximum(count, 1)
    per_episode = lambda sums: xp.where(count > 0, xp.sum(sums, axis=axis) / safe, xp.nan)
    return {"episodes": count, "episode_return": per_episode(return_sums), "episode_length": per_episode(length_sums)}
