"""PPO's trainer: `make_train(config, env, guide)` returns pure functions; jit and vmap are applied outside.

One iteration of one seed: `num_steps` vectorized steps, each
  normalised obs -> policy sample (or a guide's suggestion where it overrides) -> env gets clip(action, -1, 1)
  -> reward r_env + alpha * bonus, scaled by the running return statistics -> next obs, normalised (stats updated)
then `ppo.learn` on the rollout (GAE, `update_epochs` x `num_minibatches` steps).
On MJX `run_chunk` scans whole iterations (rollout, env included, and update) inside one compiled program for all
seeds at once: the per-seed functions are vmapped, and the env steps every seed's envs as one flat batch (as
camel_jax/algos/td3/trainer.py does for TD3). On gymnasium the host steps the C MuJoCo envs and calls the same functions,
jitted and vmapped over seeds: one call per env step (`observe_act`) and one `update` per rollout.

The guide (ULTRA's hooks, camel_jax/ultra/refine.py): two pure, jittable functions of one observation, `Guide(act,
reward)`, both given the env's raw observation (a guide normalises it its own way: ULTRA's table with its own fixed
statistics, never the run's moving ones):
  act(guide_state, raw_obs) -> (override: bool[], suggested: f32[act_dim], matched: bool[])
      where `override`, the suggestion replaces the sampled action; `matched` counts the state in the metrics
      (ULTRA-R matches without overriding);
  reward(guide_state, raw_obs, taken: f32[act_dim]) -> bonus: f32[]
      the implicit reward of the action actually taken (the env's action, clipped to [-1, 1]).
`guide_state` is a pytree kept in the Learner (so a per-seed lookup table vmaps with the seeds and is checkpointed).
Without a guide (None) no step is overridden and the bonus is 0.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from flax import struct

from camel_jax.algos.ppo import loss as ppo
from camel_jax.algos.ppo import normalize
from camel_jax.algos.ppo.config import PPOConfig
from camel_jax.algos.ppo.loss import Transition
from camel_jax.core.episodes import episode_means


class Guide(NamedTuple):
    """A guide's two hooks (module docstring)."""

    act: Callable  # (guide_state, raw_obs) -> (override, suggested action, matched)
    reward: Callable  # (guide_state, raw_obs, action taken) -> bonus


@struct.dataclass
class Learner:
    """Everything of one seed except the environments."""

    params: dict
    opt_state: Any
    obs_stats: normalize.RunningStats
    reward_scaler: normalize.RewardScaler
    key: jax.Array
    hyper: ppo.Hyper
    guide_state: Any = None


@struct.dataclass
class TrainState:
    """MJX: a seed's learner, its envs and the normalised observation the next step acts on."""

    learner: Learner
    env_state: Any
    obs: jax.Array


class PPOTrain(NamedTuple):
    init_learner: Callable  # (key, hyper, [params,] guide_state, start) -> Learner
    see: Callable  # (learner, raw obs) -> (learner, normalised obs): statistics updated
    act: Callable  # (learner, norm obs, raw obs) -> (learner, half-filled Transition, env action)
    observe: Callable  # (learner, transition, env_state) -> (learner, Transition, next norm obs, step metrics)
    observe_act: Callable  # observe, then act on the next obs: (learner, tr, env_state) -> (learner, Transition,
    #                        next half-filled Transition, next env action, step metrics)
    update: Callable  # (learner, rollout Transition (steps, envs, ...), next norm obs) -> (learner, stats)
    init: Callable  # MJX: (key, hyper, [params, env_state,] guide_state, start) -> TrainState
    first_params: Callable  # gymnasium: key -> the network weights init_learner(key, hyper) makes
    init_parts: Callable  # MJX: key -> (params, env_state), those init(key, hyper) makes
    run_chunk: Callable  # MJX: (TrainState with a leading seed axis, iterations) -> (same, per-iteration rows)
    greedy: Callable  # (learner, raw obs, masked) -> the mean action (statistics frozen); `masked` is ignored
    net: ppo.ActorCritic


def make_train(config: PPOConfig, env, guide: Guide | None = None, flat_envs: bool = True) -> PPOTrain:
    """`flat_envs`: `run_chunk` steps all members' envs as one flat batch (one device); False keeps one env batch per
    member, vmapped, so that on a device mesh members never exchange data (as TD3's trainer)."""
    n, obs_dim, act_dim = config.num_envs, env.obs_dim, env.act_dim
    net = ppo.ActorCritic(act_dim, config.hidden)
    settings = config.settings()
    steps_per_update = config.update_epochs * config.num_minibatches
    schedule = ppo.step_size(config.learning_rate, config.anneal_lr, config.iterations, steps_per_update)
    tx = ppo.optimizer(schedule, config.max_grad_norm)

    def init_learner(key, hyper: ppo.Hyper, params=None, guide_state=None, start=None) -> Learner:
        """`params`: `first_params(key)`, made in a program of its own (the run shell's `parts`); None: made here.
        `start`: {"params", "obs_stats"[, "reward_stats"]} of a finished run (its actor.msgpack) to continue from:
        its policy, value net, observation statistics and, when it has them, the statistics of its reward
        normaliser (the running returns of the new envs start at 0, as their episodes do); None: fresh."""
        k_net, key = jax.random.split(key)
        if start is not None:
            params = start["params"]
        elif params is None:
            params = net.init(k_net, jnp.zeros((1, obs_dim)))
        obs_stats = normalize.init_stats((obs_dim,)) if start is None else start["obs_stats"]
        reward_scaler = normalize.init_reward(n)
        if start is not None and start.get("reward_stats") is not None:
            reward_scaler = reward_scaler.replace(stats=start["reward_stats"])
        return Learner(params=params, opt_state=tx.init(params), obs_stats=obs_stats, reward_scaler=reward_scaler,
                       key=key, hyper=hyper, guide_state=guide_state)

    def see(learner: Learner, raw_obs):
        if not config.normalize_obs:
            return learner, raw_obs
        stats, obs = normalize.observe(learner.obs_stats, raw_obs, config.obs_clip)
        return learner.replace(obs_stats=stats), obs

    def act(learner: Learner, obs, raw_obs=None):
        """`obs`: the normalised observations acted on; `raw_obs`: the env's, which a guide reads (unused
        without one)."""
        key, k_act = jax.random.split(learner.key)
        mean, log_std, value = net.apply(learner.params, obs)
        if guide is None:
            override, suggested, matched = jnp.zeros((n,), bool), jnp.zeros((n, act_dim)), jnp.zeros((n,), bool)
        else:
            override, suggested, matched = jax.vmap(guide.act, in_axes=(None, 0))(learner.guide_state, raw_obs)
            override, matched = override.astype(bool), matched.astype(bool)
        action = jnp.where(override[:, None], suggested, ppo.sample(k_act, mean, log_std))
        env_action = jnp.clip(action, -1.0, 1.0)
        bonus = jnp.zeros((n,)) if guide is None else jax.vmap(guide.reward, in_axes=(None, 0, 0))(
            learner.guide_state, raw_obs, env_action).astype(jnp.float32)
        tr = Transition(obs=obs, action=action, logp=ppo.log_prob(mean, log_std, action), value=value,
                        override=override, reward=bonus, done=jnp.zeros((n,)),  # reward: the bonus until observed
                        matched=matched)
        return learner.replace(key=key), tr, env_action

    def observe(learner: Learner, tr: Transition, env_state):
        r = env_state.reward + learner.hyper.alpha * tr.reward
        scaler = learner.reward_scaler
        if config.normalize_reward:
            scaler, r = normalize.reward(scaler, r, env_state.info["terminated"], learner.hyper.gamma,
                                         config.reward_clip)
        learner, next_obs = see(learner.replace(reward_scaler=scaler), env_state.obs)
        ended = env_state.done > 0
        metrics = {
            "episodes": jnp.sum(ended),
            "return_sum": jnp.sum(jnp.where(ended, env_state.metrics["episode_return"], 0.0)),
            "length_sum": jnp.sum(jnp.where(ended, env_state.metrics["episode_length"], 0)),
            "override_frac": jnp.mean(tr.override),
            "matched": jnp.sum(tr.matched, dtype=jnp.int32),
            "bonus_mean": jnp.mean(tr.reward),
            "nonfinite": jnp.sum(env_state.metrics["nonfinite"]),
        }
        return learner, tr.replace(reward=r, done=env_state.done), next_obs, metrics

    def observe_act(learner: Learner, tr: Transition, env_state):
        learner, tr, next_obs, metrics = observe(learner, tr, env_state)
        learner, next_tr, action = act(learner, next_obs, env_state.obs)
        return learner, tr, next_tr, action, metrics

    def update(learner: Learner, traj: Transition, next_obs):
        key, k_update = jax.random.split(learner.key)
        last_value = net.apply(learner.params, next_obs)[2]
        params, opt_state, stats = ppo.learn(net, tx, learner.params, learner.opt_state, traj, last_value, k_update,
                                             learner.hyper, settings)
        stats["learning_rate"] = schedule(opt_state[1][0].count - 1)  # of the update just made (Adam's count)
        return learner.replace(params=params, opt_state=opt_state, key=key), stats

    def first_params(key):
        return net.init(jax.random.split(key)[0], jnp.zeros((1, obs_dim)))

    def init(key, hyper: ppo.Hyper, params=None, env_state=None, guide_state=None, start=None) -> TrainState:
        """`params, env_state`: `init_parts(key)`, made in a program of their own; None: made here."""
        k_env, k_learn = jax.random.split(key)
        env_state = env.reset(k_env) if env_state is None else env_state
        learner, obs = see(init_learner(k_learn, hyper, params, guide_state, start), env_state.obs)
        return TrainState(learner, env_state, obs)

    def init_parts(key):
        k_env, k_learn = jax.random.split(key)
        return first_params(k_learn), env.reset(k_env)

    def run_chunk(state: TrainState, start, length: int):
        """`length` iterations of every member; `state` is `init` vmapped over members (leading axis). `start`: the
        first iteration's index (the run shell's signature; PPO's schedule counts in its optimiser state)."""
        del start
        seeds = state.obs.shape[0]
        flat = lambda x: x.reshape((seeds * n,) + x.shape[2:])
        split = lambda x: x.reshape((seeds, n) + x.shape[1:])

        def env_step_all(env_state, action):
            if flat_envs:
                return jax.tree.map(split, env.step(jax.tree.map(flat, env_state), flat(action)))
            return jax.vmap(env.step)(env_state, action)

        def env_step(carry, _):
            learner, env_state, obs = carry
            learner, tr, action = jax.vmap(act)(learner, obs, env_state.obs)
            env_state = env_step_all(env_state, action)
            learner, tr, obs, metrics = jax.vmap(observe)(learner, tr, env_state)
            return (learner, env_state, obs), (tr, metrics)

        def iteration(state: TrainState, _):
            (learner, env_state, obs), (traj, metrics) = jax.lax.scan(
                env_step, (state.learner, state.env_state, state.obs), None, config.num_steps)
            traj = jax.tree.map(lambda x: jnp.swapaxes(x, 0, 1), traj)  # (seeds, steps, envs, ...)
            learner, stats = jax.vmap(update)(learner, traj, obs)
            return TrainState(learner, env_state, obs), iteration_row(metrics, stats)

        return jax.lax.scan(iteration, state, None, length)  # rows: leaves (length, seeds)

    def greedy(learner: Learner, raw_obs, masked=None):
        del masked  # PPO has no masking: the signature is evaluate.py's
        return jnp.clip(net.apply(learner.params, frozen_input(config, learner, raw_obs))[0], -1.0, 1.0)

    return PPOTrain(init_learner, see, act, observe, observe_act, update, init, first_params, init_parts, run_chunk,
                    greedy, net)


def frozen_input(config: PPOConfig, learner: Learner, raw_obs):
    """The network's input for raw observations outside training: normalised with the learner's statistics as they
    are (no update), or the raw observations when the run did not normalise them."""
    return normalize.scale(learner.obs_stats, raw_obs, config.obs_clip) if config.normalize_obs else raw_obs


def iteration_row(step_metrics: dict, stats: dict, xp=jnp) -> dict:
    """One iteration's row per seed from its per-step metrics (leaves: (steps, seeds)) and the update's stats
    (leaves: (seeds,)). `xp`: jnp in the compiled MJX chunk, numpy on the gymnasium host loop."""
    sums = {k: xp.sum(step_metrics[k], axis=0) for k in ("episodes", "return_sum", "length_sum", "matched")}
    means = {k: xp.mean(step_metrics[k], axis=0) for k in ("override_frac", "bonus_mean")}
    return {**sums, **means, "nonfinite": step_metrics["nonfinite"][-1], **stats}


def chunk_row(rows: dict, xp=np) -> dict:
    """The logged row per seed of a chunk of iterations (leaves: (iterations, seeds)): episode means over every
    episode that ended in the chunk (NaN if none), the guide's matched steps summed, the mean of the update
    statistics, the last nonfinite count."""
    skip = ("episodes", "return_sum", "length_sum", "nonfinite", "matched")
    return {**episode_means(rows["episodes"], rows["return_sum"], rows["length_sum"], xp, axis=0),
            "nonfinite": rows["nonfinite"][-1],
            "matched": xp.sum(rows["matched"], axis=0),
            **{k: xp.mean(v, axis=0) for k, v in rows.items() if k not in skip}}
