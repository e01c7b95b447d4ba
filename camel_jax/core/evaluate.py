"""Evaluation: the deterministic actor for N episodes, unmasked (the real score) and masked (a diagnostic).

MJX: one jitted program, episodes vmapped, seeds vmapped. gymnasium: a host loop over C MuJoCo envs with the same
jitted actor. Each returns per-seed (mean return, std return), shaped (seeds,). `train` is any algorithm's trainer
functions with `greedy(learner, obs, masked_flag) -> action` (the algorithm interface's greedy); `learner` its state.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from camel_jax import envs


def make_mjx_eval(train, env, episodes: int):
    """`env`: a task name, or one unbatched brax-style env with an `episode_length` (the step limit)."""
    env = envs.make_single(env) if isinstance(env, str) else env
    length = env.episode_length

    def one_seed(learner, key, masked_flag):
        states = jax.vmap(env.reset)(jax.random.split(key, episodes))
        masked = jnp.full((episodes,), masked_flag, jnp.float32)

        def step(carry):
            states, alive, total, t = carry
            action = train.greedy(learner, states.obs, masked)
            states = jax.vmap(env.step)(states, action)
            total = total + jnp.where(alive > 0, states.reward, 0.0)  # never alive * reward: 0 * NaN is NaN
            alive = alive * (1.0 - states.done)
            return states, alive, total, t + 1

        def running(carry):  # until every episode has ended (early in training after a few dozen steps) or the limit
            _, alive, _, t = carry
            return (t < length) & jnp.any(alive > 0)

        init = (states, jnp.ones(episodes), jnp.zeros(episodes), jnp.zeros((), jnp.int32))
        _, _, total, _ = jax.lax.while_loop(running, step, init)
        return jnp.mean(total), jnp.std(total)

    return jax.jit(jax.vmap(one_seed, in_axes=(0, 0, None)))


def make_gym_eval(train, env_name: str, episodes: int, seeds: int):
    """Per seed (leading axis of the learner), `episodes` episodes on gymnasium's C MuJoCo task; episode e of every
    member starts from env seed `seed + e`, so a member's score does not depend on the other members.

    The envs and the jitted actor are built once; returns `(evaluate(learner, seed, masked_flag), close)`.
    """
    venv = envs.make(env_name, "gymnasium", num_envs=seeds * episodes)
    greedy = jax.jit(jax.vmap(train.greedy))

    def run(learner, seed: int, masked_flag: float):
        state = venv.reset([seed + e for _ in range(seeds) for e in range(episodes)])  # every member: the same states
        masked = jnp.full((seeds, episodes), masked_flag, jnp.float32)
        first_return = np.full(seeds * episodes, np.nan)
        for _ in range(venv.spec.episode_length):
            obs = jnp.asarray(state.obs.reshape(seeds, episodes, -1))
            action = np.asarray(greedy(learner, obs, masked)).reshape(seeds * episodes, -1)
            state = venv.step(state, action)
            ended = (state.done > 0) & np.isnan(first_return)
            first_return[ended] = state.metrics["episode_return"][ended]
            if not np.isnan(first_return).any():
                break
        returns = first_return.reshape(seeds, episodes)
        return returns.mean(axis=1), returns.std(axis=1)

    return run, venv.close
