"""PPO for continuous actions (CleanRL's `ppo_continuous_action.py`, read in one sitting): networks, GAE, the clipped
loss and one update of `update_epochs` x `num_minibatches` gradient steps, pure.

  policy     a ~ N(mean(s), exp(log_std)): a tanh 64-64 MLP mean and a state-independent log-std (starts at 0);
             the env gets clip(a, -1, 1), the rollout keeps the unclipped a (CleanRL's ClipAction wrapper)
  value      V(s): a separate tanh 64-64 MLP; both orthogonally initialised (gain sqrt 2, last layers 0.01 and 1)
  GAE        delta_t = r_t + gamma V(s_t+1) (1 - done_t) - V(s_t); A_t = delta_t + gamma lambda (1 - done_t) A_t+1;
             done = terminated or truncated (no bootstrap at time limits, as CleanRL); returns = A + V
  loss       pg = mean max(-A ratio, -A clip(ratio, 1 - c, 1 + c)), ratio = pi(a|s) / pi_old(a|s), A normalised
             per minibatch (std with ddof 1, as torch); value = 0.5 mean max((V - R)^2, (V_old + clip(V - V_old,
             -c, c) - R)^2); loss = pg - ent_coef * entropy + vf_coef * value
  optimiser  clip_by_global_norm(max_grad_norm), Adam(eps 1e-5) whose step size falls linearly to 0 over the run,
             constant within one update (CleanRL's `anneal_lr`)

Guidance (ULTRA): a rollout step may have had its action overridden by a suggestion (`override`). `override_loss`
says how such a step enters the policy loss: "sampled" treats the stored action as if the policy had sampled it (its
log-prob under the old and new policy forms the ratio); "value_only" keeps it out of the policy loss (and out of the
advantage normalisation), so it trains the value alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, get_args

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import struct

OverrideLoss = Literal["sampled", "value_only"]
OVERRIDE_LOSSES = get_args(OverrideLoss)


@struct.dataclass
class Hyper:
    """The numeric hyperparameters used inside the compiled program: pytree leaves, so seeds (and sweeps) vmap."""

    gamma: jax.Array
    gae_lambda: jax.Array
    clip_coef: jax.Array
    vf_coef: jax.Array
    ent_coef: jax.Array
    alpha: jax.Array  # weight of a guide's reward bonus: the reward learnt from is r_env + alpha * bonus


@struct.dataclass
class Settings:
    """The static parts of an update (shapes and switches: not pytree leaves)."""

    update_epochs: int = struct.field(pytree_node=False, default=10)
    num_minibatches: int = struct.field(pytree_node=False, default=32)
    norm_adv: bool = struct.field(pytree_node=False, default=True)
    clip_vloss: bool = struct.field(pytree_node=False, default=True)
    override_loss: str = struct.field(pytree_node=False, default="sampled")


@struct.dataclass
class Transition:
    """One vectorized rollout step (leading axis: envs; a rollout stacks them on a time axis in front)."""

    obs: jax.Array  # the normalised observation acted on
    action: jax.Array  # the action taken, unclipped (a guide's suggestion where `override`)
    logp: jax.Array  # its log-prob under the acting policy
    value: jax.Array  # V(obs) when acting
    override: jax.Array  # bool: a guide replaced the sampled action
    reward: jax.Array  # the reward learnt from (normalised r_env + alpha * bonus)
    done: jax.Array  # the episode ended with this step (terminated or truncated)
    matched: jax.Array | None = None  # bool: the guide matched the state (counted in the metrics; not learnt from)


@struct.dataclass
class Batch:
    """Flat samples of a rollout (leading axis: steps x envs), what the loss reads."""

    obs: jax.Array
    action: jax.Array
    logp: jax.Array  # log-prob of `action` under the policy that acted
    value: jax.Array  # V(obs) when acting
    advantage: jax.Array
    returns: jax.Array
    in_policy_loss: jax.Array  # 1.0 where the step enters the policy loss (0.0: value_only and overridden)


def orthogonal(scale: float):
    """Flax's orthogonal initializer, except that under `jax.vmap` (the seeds) it draws one member at a time
    (`jax.lax.map`), so that the compiled init holds one unbatched QR per layer instead of batched ones.

    Why: jaxlib 0.10.2's CPU LAPACK kernels split a batched factorisation into chunks on XLA's intra-op thread pool
    and block a pool thread until they finish. When the pool's threads (2 on a 2-core machine) all start such a call
    at once, and the six layers' QRs are independent, so they do, every thread waits on chunks no thread is free to
    run: the program never finishes. gdb on a hung run showed both `tf_XLAEigen` threads in `ParallelBatchMap` under
    `lapack_sgeqrf_ffi`. `bench/stress_ppo_init.py` reproduces it (the batched init hangs within seconds) and shows
    this one finishing. The draws are bit for bit those of the batched init."""
    init = nn.initializers.orthogonal(scale)

    def draw(key, shape, dtype=jnp.float32):
        @jax.custom_batching.custom_vmap
        def one(k):
            return init(k, shape, dtype)

        @one.def_vmap
        def _(axis_size, in_batched, k):
            return (jax.lax.map(one, k), True) if in_batched[0] else (one(k), False)

        return one(key)

    return draw


class TanhMLP(nn.Module):
    hidden: Sequence[int]
    out: int
    out_scale: float

    @nn.compact
    def __call__(self, x: jax.Array) -> jax.Array:
        for h in self.hidden:
            x = nn.tanh(nn.Dense(h, kernel_init=orthogonal(np.sqrt(2)))(x))
        return nn.Dense(self.out, kernel_init=orthogonal(self.out_scale))(x)


class ActorCritic(nn.Module):
    """`(obs) -> (mean, log_std, value)`; the actor and the critic share nothing but the input."""

    act_dim: int
    hidden: Sequence[int] = (64, 64)

    @nn.compact
    def __call__(self, obs: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
        mean = TanhMLP(self.hidden, self.act_dim, 0.01, name="actor")(obs)
        log_std = self.param("log_std", nn.initializers.zeros, (self.act_dim,))
        value = TanhMLP(self.hidden, 1, 1.0, name="critic")(obs)[..., 0]
        return mean, jnp.broadcast_to(log_std, mean.shape), value


def log_prob(mean: jax.Array, log_std: jax.Array, action: jax.Array) -> jax.Array:
    """Log-density of a diagonal Gaussian, summed over the action dimensions."""
    return jnp.sum(jax.scipy.stats.norm.logpdf(action, mean, jnp.exp(log_std)), axis=-1)


def entropy(log_std: jax.Array) -> jax.Array:
    return jnp.sum(0.5 * jnp.log(2 * jnp.pi * jnp.e) + log_std, axis=-1)


def sample(key: jax.Array, mean: jax.Array, log_std: jax.Array) -> jax.Array:
    return mean + jnp.exp(log_std) * jax.random.normal(key, mean.shape)


def step_size(learning_rate: float, anneal: bool, iterations: int, steps_per_update: int) -> optax.Schedule:
    """Adam's step size by gradient step: annealed, update k (0-based) uses lr * (1 - k / iterations) throughout."""
    if not anneal:
        return optax.constant_schedule(learning_rate)
    linear = optax.linear_schedule(learning_rate, 0.0, iterations)
    return lambda count: linear(count // steps_per_update)


def optimizer(schedule: optax.Schedule, max_grad_norm: float) -> optax.GradientTransformation:
    """The global-norm clip, then Adam (eps 1e-5, as CleanRL's torch Adam)."""
    return optax.chain(optax.clip_by_global_norm(max_grad_norm), optax.adam(schedule, eps=1e-5))


def gae(reward: jax.Array, value: jax.Array, done: jax.Array, last_value: jax.Array, gamma: jax.Array,
        lam: jax.Array) -> tuple[jax.Array, jax.Array]:
    """(advantages, returns) of a rollout; leading axis: time. `done[t]`: the episode ended with step t's action;
    `last_value`: V of the observation after the last step."""
    next_value = jnp.concatenate([value[1:], last_value[None]])
    nonterminal = 1.0 - done
    delta = reward + gamma * next_value * nonterminal - value

    def back(next_adv, x):
        d, nt = x
        adv = d + gamma * lam * nt * next_adv
        return adv, adv

    _, advantage = jax.lax.scan(back, jnp.zeros_like(last_value), (delta, nonterminal), reverse=True)
    return advantage, advantage + value


def loss(net: ActorCritic, params, batch: Batch, hyper: Hyper, settings: Settings) -> tuple[jax.Array, dict]:
    """The clipped PPO loss of one minibatch, and its diagnostics."""
    mean, log_std, value = net.apply(params, batch.obs)
    w = batch.in_policy_loss
    n = jnp.maximum(jnp.sum(w), 1.0)
    # steps kept out of the policy loss get a log-ratio of exactly 0 (no gradient, and no overflow of exp)
    logratio = jnp.where(w > 0, log_prob(mean, log_std, batch.action) - batch.logp, 0.0)
    ratio = jnp.exp(logratio)
    adv = batch.advantage
    if settings.norm_adv:
        adv_mean = jnp.sum(w * adv) / n
        adv_std = jnp.sqrt(jnp.sum(w * jnp.square(adv - adv_mean)) / jnp.maximum(n - 1.0, 1.0))
        adv = (adv - adv_mean) / (adv_std + 1e-8)
    c = hyper.clip_coef
    pg = jnp.maximum(-adv * ratio, -adv * jnp.clip(ratio, 1.0 - c, 1.0 + c))
    pg_loss = jnp.sum(jnp.where(w > 0, pg, 0.0)) / n
    v_err = jnp.square(value - batch.returns)
    if settings.clip_vloss:
        v_clipped = batch.value + jnp.clip(value - batch.value, -c, c)
        v_err = jnp.maximum(v_err, jnp.square(v_clipped - batch.returns))
    v_loss = 0.5 * jnp.mean(v_err)
    ent = jnp.mean(entropy(log_std))
    total = pg_loss - hyper.ent_coef * ent + hyper.vf_coef * v_loss
    stats = {"pg_loss": pg_loss, "v_loss": v_loss, "entropy": ent,
             "approx_kl": jnp.sum(w * ((ratio - 1.0) - logratio)) / n,
             "clipfrac": jnp.sum(w * (jnp.abs(ratio - 1.0) > c)) / n}
    return total, stats


def update(net: ActorCritic, tx: optax.GradientTransformation, params, opt_state, batch: Batch, key: jax.Array,
           hyper: Hyper, settings: Settings):
    """`update_epochs` passes over `batch`, each shuffled into `num_minibatches` minibatches, one Adam step each.
    Returns (params, opt_state, mean diagnostics over all steps)."""
    size = batch.obs.shape[0]
    m = settings.num_minibatches

    def step(carry, minibatch):
        params, opt_state = carry
        grads, stats = jax.grad(lambda p: loss(net, p, minibatch, hyper, settings), has_aux=True)(params)
        updates, opt_state = tx.update(grads, opt_state, params)
        return (optax.apply_updates(params, updates), opt_state), stats

    def epoch(carry, k):
        perm = jax.random.permutation(k, size)
        minibatches = jax.tree.map(lambda x: x[perm].reshape((m, size // m) + x.shape[1:]), batch)
        return jax.lax.scan(step, carry, minibatches)

    (params, opt_state), stats = jax.lax.scan(epoch, (params, opt_state),
                                              jax.random.split(key, settings.update_epochs))
    return params, opt_state, jax.tree.map(jnp.mean, stats)


def learn(net: ActorCritic, tx: optax.GradientTransformation, params, opt_state, traj: Transition,
          last_value: jax.Array, key: jax.Array, hyper: Hyper, settings: Settings):
    """GAE over a rollout (`traj` leaves: (steps, envs, ...)), then `update`. Returns (params, opt_state, stats)."""
    advantage, returns = gae(traj.reward, traj.value, traj.done, last_value, hyper.gamma, hyper.gae_lambda)
    keep = jnp.ones_like(traj.value)
    if settings.override_loss == "value_only":
        keep = 1.0 - traj.override.astype(jnp.float32)
    flat = lambda x: x.reshape((-1,) + x.shape[2:])
    batch = Batch(flat(traj.obs), flat(traj.action), flat(traj.logp), flat(traj.value), flat(advantage),
                  flat(returns), flat(keep))
    params, opt_state, stats = update(net, tx, params, opt_state, batch, key, hyper, settings)
    var_returns = jnp.var(batch.returns)
    explained = jnp.where(var_returns > 0, 1.0 - jnp.var(batch.returns - batch.value) / var_returns, jnp.nan)
    return params, opt_state, {**stats, "explained_variance": explained}
