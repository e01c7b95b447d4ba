"""The trainer: `make_train(config, env, prior)` returns pure functions; jit is applied outside.

One training step, in order (`act`, then the env, then `learn`):
  obs -> prior(obs) -> box (the episode's masked flag) -> actor + exploration noise, clipped into the box
  -> env.step -> transition (obs, action, reward, final next obs, terminated, masked) -> buffer.insert
  -> masked flags redrawn for episodes that just reset, with probability eps(t)
  -> `updates_per_step` TD3 updates on sampled batches (boxes of s and s' recomputed from the prior).
On MJX, `run_chunk` scans that step (env included) inside one compiled program, for all members (seeds x grid
points) at once: `act` and `learn` are vmapped over members, while on one device the env steps every member's envs
as one flat batch of members * num_envs (a vmap of the env's own vmap ran the MJX step 2.7x slower on XLA-CPU, and
turned the autoreset's "any env done?" branch into a reset computed at every step; bench/mjx_seed_vmap.py). On a
device mesh each member keeps its own env batch (`flat_envs=False`), so members never talk across devices. On
gymnasium the host drives the same `act` and `learn`, jitted and vmapped over members, around the C MuJoCo envs
(CleanRL style).
Iteration indices (`i`) are passed unbatched, so the member vmap keeps the learning-starts and policy-delay
branches real branches.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import jax
import jax.numpy as jnp
from flax import struct

from camel_jax.algos.td3 import buffer as replay
from camel_jax.algos.td3 import masking
from camel_jax.algos.td3 import update as td3
from camel_jax.algos.td3.config import Config
from camel_jax.algos.td3.memory import replay_capacity
from camel_jax.algos.td3.update import Agent, Hyper
from camel_jax.core.episodes import episode_means


@struct.dataclass
class Learner:
    """Everything of one seed except the environments."""

    agent: Agent
    buffer: replay.Buffer
    masked: jax.Array  # (num_envs,) the current episode's masked flag per env
    key: jax.Array
    hyper: Hyper


@struct.dataclass
class TrainState:
    learner: Learner
    env_state: object  # the MJX envs' brax State (batched over num_envs)


class Train(NamedTuple):
    init_learner: Callable  # (key, hyper[, agent]) -> Learner
    box: Callable  # (obs, masked, hyper) -> low, high
    act: Callable  # (learner, obs, i) -> (next key, action)
    learn: Callable  # (learner, obs, action, env_state_after, i) -> (learner, metrics)
    learn_act: Callable  # (learner, obs, action, env_state_after, i) -> (learner, next action, metrics)
    init: Callable  # MJX: (key, hyper[, agent, env_state]) -> TrainState
    first_agent: Callable  # gymnasium: key -> the agent init_learner(key, hyper) makes
    init_parts: Callable  # MJX: key -> (agent, env_state), those init(key, hyper) makes
    run_chunk: Callable  # MJX: (TrainState with a leading member axis, start_iteration, length) -> (same, metrics)
    greedy: Callable  # (learner, obs, masked) -> deterministic action
    nets: td3.Nets
    restart: Callable  # gymnasium resume: (learner, i) -> learner with fresh masked flags for episodes reset at i


def make_train(config: Config, env, prior: Callable | None, flat_envs: bool = True, updates_from: int = 0) -> Train:
    """`flat_envs`: `run_chunk` steps all members' envs as one flat batch (one device); False keeps one env batch
    per member, vmapped, so that on a device mesh members never exchange data (the auto-reset's "any env done?"
    over a flat batch would be an all-reduce over every device at every step).
    `updates_from`: the iteration at which the replay buffer was (re)started empty: 0, or the iteration a run was
    resumed at without its buffer. Updates run once more than `learning_starts` env steps have been stored since."""
    n, obs_dim, act_dim = config.num_envs, env.obs_dim, env.act_dim
    nets = td3.make_nets(act_dim, config.hidden, config.learning_rate, config.actor_sees_box)
    capacity = replay_capacity(config)
    always_masked = not config.masking_aware  # the paper's control: no epsilon, the box always applies

    def box(obs, masked, hyper: Hyper):
        if prior is None:
            full = jnp.ones(obs.shape[:-1] + (act_dim,))
            return -full, full
        low, high = masking.prior_bounds(jax.vmap(prior)(obs), hyper.delta, hyper.min_width)
        return masking.apply_mask(low, high, masked)

    def eps_at(t, hyper: Hyper):
        if always_masked:
            return jnp.ones(())
        return masking.epsilon(t, config.total_steps, hyper.eps0, hyper.mask_fraction)

    def init_learner(key, hyper: Hyper, agent: Agent | None = None) -> Learner:
        """`agent`: `first_agent(key)`, made in a program of its own (the run shell's `parts`); None: made here."""
        k_agent, k_mask, key = jax.random.split(key, 3)
        return Learner(
            agent=td3.init_agent(nets, k_agent, obs_dim, act_dim) if agent is None else agent,
            buffer=replay.init(capacity, obs_dim, act_dim),
            masked=masking.draw_masked(k_mask, eps_at(0, hyper), (n,)),
            key=key,
            hyper=hyper,
        )

    def act(learner: Learner, obs, i):
        key, k_act = jax.random.split(learner.key)
        low, high = box(obs, learner.masked, learner.hyper)
        random_phase = i * n < config.learning_starts
        action = td3.explore(nets, learner.agent, k_act, obs, low, high, learner.hyper, random_phase)
        return key, action  # only the key changes: returning the whole learner would copy the replay buffer

    def learn(learner: Learner, obs, action, env_state, i):
        """Store the transition, redraw masked flags of reset envs, then `updates_per_step` TD3 updates."""
        info = env_state.info
        transition = replay.Transition(obs=obs, action=action, reward=env_state.reward, next_obs=info["final_obs"],
                                       terminated=info["terminated"], masked=learner.masked)
        buf = replay.insert(learner.buffer, transition)
        key, k_mask, k_update = jax.random.split(learner.key, 3)
        t = (i + 1) * n  # env steps taken so far
        fresh = masking.draw_masked(k_mask, eps_at(t, learner.hyper), (n,))
        masked = jnp.where(env_state.done > 0, fresh, learner.masked)

        def updates(agent):
            def one(agent, j):
                k_sample, k_noise = jax.random.split(jax.random.fold_in(k_update, j))
                batch = replay.sample(buf, k_sample, config.batch_size)
                update_actor = (i * config.updates_per_step + j) % config.policy_frequency == 0
                return td3.update(nets, agent, batch, k_noise, learner.hyper, box, update_actor)

            agent, stats = jax.lax.scan(one, agent, jnp.arange(config.updates_per_step))
            return agent, jax.tree.map(jnp.nanmean, stats)

        no_stats = {"critic_loss": jnp.nan, "actor_loss": jnp.nan, "q1": jnp.nan}
        # As CleanRL: random actions while global_step < learning_starts, updates once global_step > learning_starts
        # (global_step = i * num_envs, the env steps taken before this iteration; counted from `updates_from`).
        do_update = (i - updates_from) * n > config.learning_starts  # from i alone: a real branch under the vmap
        agent, stats = jax.lax.cond(do_update, updates, lambda a: (a, no_stats), learner.agent)
        ended = env_state.done > 0
        metrics = {
            **stats,
            "episodes": jnp.sum(ended),
            "return_sum": jnp.sum(jnp.where(ended, env_state.metrics["episode_return"], 0.0)),
            "length_sum": jnp.sum(jnp.where(ended, env_state.metrics["episode_length"], 0)),
            "masked_frac": jnp.mean(learner.masked),
            "epsilon": eps_at(t, learner.hyper),
            "nonfinite": jnp.sum(env_state.metrics["nonfinite"]),
        }
        return learner.replace(agent=agent, buffer=buf, masked=masked, key=key), metrics

    def learn_act(learner: Learner, obs, action, env_state, i):
        """`learn` for iteration i, then `act` for iteration i + 1 on the env's new observation, in one call: the
        host loop's single jitted call per env step (the same random keys as calling the two in turn)."""
        learner, metrics = learn(learner, obs, action, env_state, i)
        key, next_action = act(learner, env_state.obs, i + 1)
        return learner.replace(key=key), next_action, metrics

    def first_agent(key) -> Agent:
        return td3.init_agent(nets, jax.random.split(key, 3)[0], obs_dim, act_dim)

    def init(key, hyper: Hyper, agent: Agent | None = None, env_state=None) -> TrainState:
        """`agent, env_state`: `init_parts(key)`, made in a program of their own; None: made here."""
        k_env, k_learn = jax.random.split(key)
        return TrainState(learner=init_learner(k_learn, hyper, agent),
                          env_state=env.reset(k_env) if env_state is None else env_state)

    def init_parts(key):
        k_env, k_learn = jax.random.split(key)
        return first_agent(k_learn), env.reset(k_env)

    def run_chunk(state: TrainState, start: jax.Array, length: int):
        """`length` training steps of every member; `state` is `init` vmapped over members (leading axis)."""
        members = state.learner.key.shape[0]
        flat = lambda x: x.reshape((members * n,) + x.shape[2:])  # (members, n, ...) -> (members * n, ...)
        split = lambda x: x.reshape((members, n) + x.shape[1:])

        def env_step(env_state, action):
            if flat_envs:
                return jax.tree.map(split, env.step(jax.tree.map(flat, env_state), flat(action)))
            return jax.vmap(env.step)(env_state, action)

        def step(state: TrainState, i):
            obs = state.env_state.obs
            key, action = jax.vmap(act, in_axes=(0, 0, None))(state.learner, obs, i)
            learner = state.learner.replace(key=key)
            env_state = env_step(state.env_state, action)
            learner, metrics = jax.vmap(learn, in_axes=(0, 0, 0, 0, None))(learner, obs, action, env_state, i)
            return TrainState(learner, env_state), metrics

        state, metrics = jax.lax.scan(step, state, start + jnp.arange(length))
        return state, jax.vmap(summarize, in_axes=1)(metrics)  # metrics leaves: (length, members)

    def greedy(learner: Learner, obs, masked):
        low, high = box(obs, masked, learner.hyper)
        return nets.actor.apply(learner.agent.actor, obs, low, high)

    def restart(learner: Learner, i):
        """The learner for envs that all start new episodes at iteration i (a resumed gymnasium run resets them: the
        episodes in flight at the checkpoint are not continued): every env's masked flag drawn afresh, with eps after
        i * num_envs env steps, as `learn` draws it for an episode that reset at the end of iteration i - 1. (MJX
        restores its envs mid-episode, and their flags with them, so it never calls this.)"""
        key, k_mask = jax.random.split(learner.key)
        return learner.replace(masked=masking.draw_masked(k_mask, eps_at(i * n, learner.hyper), (n,)), key=key)

    return Train(init_learner, box, act, learn, learn_act, init, first_agent, init_parts, run_chunk, greedy, nets,
                 restart)


def summarize(metrics: dict, xp=jnp) -> dict:
    """Reduce per-step metrics of a chunk (leading axis: steps) to one row. `xp`: jnp inside the compiled MJX chunk,
    numpy on the host (the gymnasium loop: no device work, nothing to compile per chunk length)."""
    return {
        **episode_means(metrics["episodes"], metrics["return_sum"], metrics["length_sum"], xp),
        "epsilon": metrics["epsilon"][-1],
        "masked_frac": xp.mean(metrics["masked_frac"]),
        "critic_loss": _nanmean(metrics["critic_loss"], xp),
        "actor_loss": _nanmean(metrics["actor_loss"], xp),
        "q1": _nanmean(metrics["q1"], xp),
        "nonfinite": metrics["nonfinite"][-1],
    }


def _nanmean(x, xp):
    """Mean of the non-NaN entries, NaN when there are none (numpy's nanmean would also warn)."""
    count = xp.sum(~xp.isnan(x))
    return xp.where(count > 0, xp.sum(xp.where(xp.isnan(x), 0.0, x)) / xp.maximum(count, 1), xp.nan)
