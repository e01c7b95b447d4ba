"""Vectorized, auto-resetting wrapper over a single-instance brax-style env (the MJX training path).

Per step, for every one of `num_envs` instances:
  (a) a finished instance is reset to a *fresh random* initial state (its own RNG key, never a cached state);
  (b) the true final observation of the finished episode is kept in `info["final_obs"]` for bootstrapping
      (for unfinished instances it equals the next observation), while `State.obs` is already the reset one;
  (c) a non-finite physics state (or reward) is treated as a terminated episode: its reward and final observation
      are zeroed so no NaN reaches the replay buffer, it is reset, and `metrics["nonfinite"]` counts it.

The returned `State` carries the shared small interface that the trainer reads on both backends:
`obs`, `reward`, `done`, `info["terminated"]`, `info["truncation"]`, `info["final_obs"]`,
`metrics["episode_return"]` / `metrics["episode_length"]` (of the episode that ended at this step, else 0),
`metrics["nonfinite"]` (cumulative count per instance).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp

from camel_jax.console import import_mjx

import_mjx()  # before brax: mujoco.mjx's warp notices stay off the console (camel_jax/console.py)
from brax.envs.base import Env, State


class AutoResetVecEnv:
    def __init__(self, env: Env, num_envs: int):
        if num_envs < 1:
            raise ValueError(f"num_envs must be >= 1, got {num_envs}")
        self.env = env
        self.spec = getattr(env, "spec", None)
        self.num_envs = num_envs
        self.obs_dim = env.observation_size
        self.act_dim = env.action_size
        self.backend = env.backend

    def jitted(self):
        """(reset, step), each jitted on its own, for stepping from the host (ULTRA's collection, tests): their
        outputs strongly typed, so that a state from reset and one from step are the same argument signature (MJX's
        step returns `pipeline_state.ctrl` weakly typed where reset does not: another trace, lowering and compile of
        the whole MJX step, a minute of CPU for Hopper). Every caller of the same task and env count gets the same
        programs, which the persistent compilation cache shares between processes and tests."""
        if not hasattr(self, "_jitted"):
            strong = lambda state: jax.tree.map(lambda x: jnp.asarray(x, x.dtype), state)

            def reset(key):
                return strong(self.reset(key))

            def step(state, action):
                return strong(self.step(state, action))

            self._jitted = jax.jit(reset), jax.jit(step)
        return self._jitted

    def reset(self, key: jax.Array) -> State:
        key_reset, key_carry = jax.random.split(key)
        state = jax.vmap(self.env.reset)(jax.random.split(key_reset, self.num_envs))
        n = self.num_envs
        zeros = jnp.zeros((n,), jnp.float32)
        info = {
            **state.info,
            "rng": jax.random.split(key_carry, n),
            "final_obs": state.obs,
            "running_return": zeros,
        }
        metrics = {"episode_return": zeros, "episode_length": jnp.zeros((n,), jnp.int32),
                   "nonfinite": jnp.zeros((n,), jnp.int32)}
        return state.replace(info=info, metrics=metrics)

    def step(self, state: State, action: jax.Array) -> State:
        inner = jax.vmap(self.env.step)(state, action)
        data = inner.pipeline_state
        finite = (
            jnp.all(jnp.isfinite(data.qpos), axis=-1)
            & jnp.all(jnp.isfinite(data.qvel), axis=-1)
            & jnp.all(jnp.isfinite(inner.obs), axis=-1)
            & jnp.isfinite(inner.reward)
        )
        bad = ~finite
        reward = jnp.where(bad, 0.0, inner.reward)
        final_obs = jnp.where(bad[:, None], 0.0, inner.obs)
        terminated = jnp.where(bad, 1.0, inner.info["terminated"])
        truncation = jnp.where(bad, 0.0, inner.info["truncation"])
        done = jnp.maximum(terminated, truncation)
        running = state.info["running_return"] + reward
        length = inner.info["steps"]

        rng, reset_keys = _split_each(state.info["rng"])

        def with_resets(_):
            fresh = jax.vmap(self.env.reset)(reset_keys)
            pick = lambda new, old: jnp.where(_expand(done > 0, old), new, old)
            return (jax.tree.map(pick, fresh.pipeline_state, data), pick(fresh.obs, inner.obs))

        # A real branch when unbatched over seeds (most steps reset nothing); a select under an outer vmap.
        pipeline_state, obs = jax.lax.cond(jnp.any(done > 0), with_resets, lambda _: (data, inner.obs), None)

        is_done = done > 0
        info = {
            **inner.info,
            "steps": jnp.where(is_done, 0, length),
            "terminated": terminated,
            "truncation": truncation,
            "rng": rng,
            "final_obs": final_obs,
            "running_return": jnp.where(is_done, 0.0, running),
        }
        metrics = {
            "episode_return": jnp.where(is_done, running, 0.0),
            "episode_length": jnp.where(is_done, length, 0),
            "nonfinite": state.metrics["nonfinite"] + bad.astype(jnp.int32),
        }
        return State(pipeline_state=pipeline_state, obs=obs, reward=reward, done=done, metrics=metrics, info=info)


def _split_each(keys: jax.Array) -> tuple[jax.Array, jax.Array]:
    both = jax.vmap(jax.random.split)(keys)
    return both[:, 0], both[:, 1]


def _expand(mask: jax.Array, like: jax.Array) -> jax.Array:
    return mask.reshape(mask.shape + (1,) * (like.ndim - mask.ndim))
