"""Masking-aware TD3: the losses and one update, `(Agent, batch) -> Agent`, pure.

Everything of TD3 is in this file (CleanRL's algorithm, read in one sitting):
  target action  = clip(target_actor(s', box(s')) + clip(N(0, policy_noise), -noise_clip, noise_clip), box(s'))
  target         = r + gamma * (1 - terminated) * min(Q1', Q2')(s', target action)
  critic loss    = mse(Q1(s, a), target) + mse(Q2(s, a), target)
  every `policy_frequency` updates: actor loss = -mean Q1(s, actor(s, box(s))), then Polyak targets (tau).
`box(s)` is the prior's box when the transition's episode was masked, else [-1, 1]; it is recomputed from the prior
here rather than stored (see camel_jax/algos/td3/buffer.py). With no prior the box is always [-1, 1] and this is plain TD3.
"""

from __future__ import annotations

from collections.abc import Callable

import jax
import jax.numpy as jnp
import optax
from flax import struct

from camel_jax.algos.td3.buffer import Transition
from camel_jax.algos.td3.networks import Actor, TwinCritic

BoxFn = Callable[[jax.Array, jax.Array, "Hyper"], tuple[jax.Array, jax.Array]]  # (obs, masked, hyper) -> low, high


@struct.dataclass
class Hyper:
    """The numeric hyperparameters used inside the compiled program: pytree leaves, so a sweep is a vmap."""

    gamma: jax.Array
    tau: jax.Array
    exploration_noise: jax.Array
    policy_noise: jax.Array
    noise_clip: jax.Array
    delta: jax.Array
    min_width: jax.Array
    eps0: jax.Array
    mask_fraction: jax.Array


@struct.dataclass
class Agent:
    actor: dict
    critic: dict
    target_actor: dict
    target_critic: dict
    actor_opt: optax.OptState
    critic_opt: optax.OptState


@struct.dataclass
class Nets:
    """The static parts: network definitions and optimizers (not pytree leaves)."""

    actor: Actor = struct.field(pytree_node=False)
    critic: TwinCritic = struct.field(pytree_node=False)
    actor_tx: optax.GradientTransformation = struct.field(pytree_node=False)
    critic_tx: optax.GradientTransformation = struct.field(pytree_node=False)


def make_nets(act_dim: int, hidden: tuple[int, ...], learning_rate: float, sees_box: bool) -> Nets:
    """`sees_box`: the actor's input is `(obs, low, high)` (CAMEL) or `obs` alone (plain TD3, the w/o MA control)."""
    return Nets(Actor(act_dim, hidden, sees_box), TwinCritic(hidden), optax.adam(learning_rate),
                optax.adam(learning_rate))


def init_agent(nets: Nets, key: jax.Array, obs_dim: int, act_dim: int) -> Agent:
    k_actor, k_critic = jax.random.split(key)
    obs, act = jnp.zeros((1, obs_dim)), jnp.zeros((1, act_dim))
    actor = nets.actor.init(k_actor, obs, -jnp.ones((1, act_dim)), jnp.ones((1, act_dim)))
    critic = nets.critic.init(k_critic, obs, act)
    return Agent(actor, critic, actor, critic, nets.actor_tx.init(actor), nets.critic_tx.init(critic))


def update(nets: Nets, agent: Agent, batch: Transition, key: jax.Array, hyper: Hyper, box: BoxFn,
           update_actor: jax.Array) -> tuple[Agent, dict]:
    """One TD3 gradient step on `batch`; the actor and the targets move only when `update_actor` (a scalar bool)."""
    low_next, high_next = box(batch.next_obs, batch.masked, hyper)
    next_action = target_action(nets, agent, key, batch.next_obs, low_next, high_next, hyper)
    q1_next, q2_next = nets.critic.apply(agent.target_critic, batch.next_obs, next_action)
    target = batch.reward + hyper.gamma * (1.0 - batch.terminated) * jnp.minimum(q1_next, q2_next)
    target = jax.lax.stop_gradient(target)

    def critic_loss(params):
        q1, q2 = nets.critic.apply(params, batch.obs, batch.action)
        return jnp.mean((q1 - target) ** 2) + jnp.mean((q2 - target) ** 2), q1

    (c_loss, q1), grads = jax.value_and_grad(critic_loss, has_aux=True)(agent.critic)
    updates, critic_opt = nets.critic_tx.update(grads, agent.critic_opt, agent.critic)
    agent = agent.replace(critic=optax.apply_updates(agent.critic, updates), critic_opt=critic_opt)

    low, high = box(batch.obs, batch.masked, hyper)

    def actor_step(agent: Agent) -> tuple[Agent, jax.Array]:
        def actor_loss(params):
            action = nets.actor.apply(params, batch.obs, low, high)
            return -jnp.mean(nets.critic.apply(agent.critic, batch.obs, action)[0])

        a_loss, grads = jax.value_and_grad(actor_loss)(agent.actor)
        updates, actor_opt = nets.actor_tx.update(grads, agent.actor_opt, agent.actor)
        actor = optax.apply_updates(agent.actor, updates)
        return agent.replace(
            actor=actor,
            actor_opt=actor_opt,
            target_actor=optax.incremental_update(actor, agent.target_actor, hyper.tau),
            target_critic=optax.incremental_update(agent.critic, agent.target_critic, hyper.tau),
        ), a_loss

    agent, a_loss = jax.lax.cond(update_actor, actor_step, lambda a: (a, jnp.nan), agent)
    return agent, {"critic_loss": c_loss, "actor_loss": a_loss, "q1": jnp.mean(q1)}


def target_action(nets: Nets, agent: Agent, key: jax.Array, next_obs: jax.Array, low: jax.Array, high: jax.Array,
                  hyper: Hyper) -> jax.Array:
    """Target policy smoothing inside the box: target actor + clipped N(0, policy_noise), clipped into the box."""
    noise = jnp.clip(hyper.policy_noise * jax.random.normal(key, low.shape), -hyper.noise_clip, hyper.noise_clip)
    return jnp.clip(nets.actor.apply(agent.target_actor, next_obs, low, high) + noise, low, high)


def explore(nets: Nets, agent: Agent, key: jax.Array, obs: jax.Array, low: jax.Array, high: jax.Array,
            hyper: Hyper, random_phase: jax.Array) -> jax.Array:
    """Acting: actor + N(0, exploration_noise), clipped into the box; uniform inside the box while `random_phase`."""
    k_noise, k_uniform = jax.random.split(key)
    greedy = nets.actor.apply(agent.actor, obs, low, high)
    noisy = jnp.clip(greedy + hyper.exploration_noise * jax.random.normal(k_noise, greedy.shape), low, high)
    uniform = jax.random.uniform(k_uniform, greedy.shape, minval=low, maxval=high)
    return jnp.where(random_phase, uniform, noisy)
