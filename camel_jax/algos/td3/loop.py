"""TD3's side of the run shell (camel_jax/core/driver.py, which runs every algorithm's chunks, logs, evaluations and
checkpoints): what a run records, the program it builds, and the gymnasium backend's host steps.

No training logic lives here (that is camel_jax/algos/td3/trainer.py). On MJX each chunk is one call of the jitted
`run_chunk` (all members). On gymnasium each env step is the C MuJoCo step and the jitted `learn_act` (learn from
this step, choose the next action), scanned BLOCK steps per call with the env step called back on the host
(`HostSteps.chunk`).
`resume(run_dir)` is `train` started from the run's latest checkpoint (camel_jax/core/checkpoint.py) instead of the
init: chunk lengths depend only on the iteration, so a resumed MJX run computes exactly what an uninterrupted one does.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

from camel_jax import envs, specs
from camel_jax.algos.td3.config import Config
from camel_jax.algos.td3.memory import replay_capacity
from camel_jax.algos.td3.trainer import make_train, summarize
from camel_jax.core import driver, runs, signals
from camel_jax.core.checkpoint import Checkpoints
from camel_jax.core.sharding import jit_sharded, state_shardings
from camel_jax.priors import kinds
from camel_jax.priors.baselines import ResolvedPrior, resolve

METRIC_FIELDS = ("step", "seed", "episodes", "episode_return", "episode_length", "epsilon", "masked_frac",
                 "critic_loss", "actor_loss", "q1", "nonfinite", "steps_per_s", "wall_s")
EVAL_MODES = {"unmasked": 0.0, "masked": 1.0}  # label -> the masked flag the evaluator gives greedy()
BLOCK = 100  # gymnasium backend: iterations per jitted call (HostSteps.chunk), for chunks of a multiple of it
BLOCKS_FROM = 10_000  # ... in runs of at least this many iterations: the scanned block cannot be cached (below)


def resume(run_dir: str | Path, quiet: bool | None = None, truncate: bool = False, total_steps: int = 0) -> Path:
    """Continue the run in `run_dir` from its latest checkpoint to `total_steps` (from the start if it has none).
    A finished run is an error unless `total_steps` extends it (the schedules over the run, e.g. the exploration's
    decay, then stretch to the new total), and so are logged rows after the checkpoint unless `truncate` (they are
    dropped)."""
    run_dir = Path(run_dir)
    config = runs.read_config(run_dir, "resume", Config)
    capacity = replay_capacity(config)  # the checkpoint's, for one written before checkpoints recorded it
    if total_steps:
        config = runs.extend(run_dir, config, total_steps)
    runs.check_resumable(run_dir, config.total_steps)
    if config.prior.startswith(runs.CALLABLE_PRIOR):
        raise ValueError(f"{run_dir} was trained with a Python callable prior ({config.prior}), which cannot be "
                         "reloaded from the run directory; repeat it from Python (camel_jax.train) or train with a "
                         "prior file (def policy(obs): ...) to have resumable runs")
    if moved := kinds.legacy_prior(run_dir):  # a run from before priors/tuned/: its prior is the one it trained with
        config = dataclasses.replace(config, prior=moved)
    if quiet is not None:
        config = Config(**{**config.__dict__, "quiet": quiet})
    return train(config, resume_dir=run_dir, truncate=truncate, _capacity=capacity)


def train(config: Config, resume_dir: Path | None = None, truncate: bool = False, prior: ResolvedPrior | None = None,
          on_log: Callable[[int, dict], None] | None = None, _capacity: int | None = None) -> Path:
    """Train (or, with `resume_dir`, continue) the run of `config`; returns its run directory. `prior`: an already
    resolved prior instead of `config.prior` (the notebook API's callables); `on_log(step, row)` is called after each
    log row is written (row: the summary arrays of that chunk, one entry per member). SIGTERM, SIGUSR1 and Ctrl-C
    stop it after the current chunk with a checkpoint (camel_jax/core/signals.py: `Interrupted`)."""
    with signals.stop_requests() as stop:
        return _train(config, stop, resume_dir, truncate, prior, on_log, _capacity)


def _with_capacity(state, capacity: int, grow: bool = False):
    """The state (or its template) with each member's replay buffer of `capacity` rows. `grow`: pad a restored
    buffer with empty rows instead; it was sized to a shorter run (resume --total-steps), so it never wrapped around
    (a buffer that wraps is buffer_size rows, whatever the run's length) and its next row is its size."""
    learner = state.learner if hasattr(state, "learner") else state
    buf = learner.buffer
    if grow:
        pad = lambda x: jnp.pad(x, [(0, 0), (0, capacity - x.shape[1])] + [(0, 0)] * (x.ndim - 2))
        buf = buf.replace(data=jax.tree.map(pad, buf.data), ptr=buf.size)
    else:
        buf = buf.replace(data=jax.tree.map(
            lambda x: jax.ShapeDtypeStruct((x.shape[0], capacity, *x.shape[2:]), x.dtype), buf.data))
    learner = learner.replace(buffer=buf)
    return state.replace(learner=learner) if hasattr(state, "learner") else learner


def _train(config: Config, stop: signals.StopRequests, resume_dir: Path | None, truncate: bool,
           prior: ResolvedPrior | None, on_log: Callable[[int, dict], None] | None,
           capacity: int | None = None) -> Path:
    @functools.cache
    def resolved() -> ResolvedPrior:  # once the shell has checked the config
        return prior or resolve(config.prior, config.env)

    def new_run(config: Config) -> driver.NewRun:
        prior = resolved()
        record = {**kinds.of_prior(config.prior, prior.source, prior.kind).record(),
                  "task_label": specs.task_label(config.env, config.backend)}
        return driver.NewRun(prior.source, prior.sha256, record)

    def build(config: Config, mesh, ckpt: Checkpoints, keys, hyper) -> driver.Program:
        prior, members = resolved(), len(keys)
        full = replay_capacity(config)
        # a run resumed without its replay buffer refills it: updates wait until it again holds learning_starts rows
        refill_from = ((ckpt.latest_step() or 0) // config.num_envs if resume_dir and not config.buffer_in_checkpoint
                       else 0)
        if config.backend == "mjx":
            env = envs.make(config.env, "mjx", config.num_envs, config.mjx_impl, members * config.num_envs)
            tr = make_train(config, env, prior.fn, flat_envs=mesh is None, updates_from=refill_from)  # trainer.py
            init, parts, host = jax.vmap(tr.init), jax.vmap(tr.init_parts), None  # state: TrainState (learner, envs)
        else:
            venv = envs.make(config.env, "gymnasium", members * config.num_envs)
            tr = make_train(config, venv, prior.fn, updates_from=refill_from)
            init, parts = jax.vmap(tr.init_learner), initial_agents(tr)
            host = HostSteps(tr, venv, members, blocks=config.iterations >= BLOCKS_FROM)
        template = jax.eval_shape(init, keys, hyper)

        def restore(ckpt: Checkpoints, shardings):
            """The latest checkpoint; one of a shorter run (before resume --total-steps) has a smaller buffer,
            grown to this run's."""
            saved = ckpt.latest_meta().get("replay_capacity", capacity or full)
            if saved >= full:
                return ckpt.restore(template, shardings)
            small = _with_capacity(template, saved)
            restored = ckpt.restore(small, state_shardings(small, mesh))
            if restored is None:
                return None
            grown = jit_sharded(lambda s: _with_capacity(s, full, grow=True), mesh, shardings)
            return grown(restored[0]), restored[1]

        return driver.Program(
            trainer=tr, template=template, init=init, parts=parts, export=lambda learner: learner.agent.actor,
            run_chunk=tr.run_chunk, host=host, restore=restore, checkpoint_extra={"replay_capacity": full},
            compiling="the training chunk" if config.backend == "mjx" else "the update")

    return driver.run(config, build, new_run, stop, metric_fields=METRIC_FIELDS, eval_modes=EVAL_MODES,
                      resume_dir=resume_dir, truncate=truncate, on_log=on_log)


def initial_agents(tr):
    """The gymnasium run's `parts` (camel_jax/core/driver.py, Program): keys -> (every member's initial agent,)."""
    def initial_agents(keys):  # the name the compilation cache and JAX_LOG_COMPILES show: jit_initial_agents
        return (jax.vmap(tr.first_agent)(keys),)
    return initial_agents


class HostSteps:
    """The gymnasium backend's iterations (camel_jax/core/driver.py). Each is one env step, the C MuJoCo step with the
    action chosen ahead, then the update that stores the transition, learns, and chooses the next step's action
    (`trainer.learn_act`), vmapped over members. `chunk` runs them BLOCK at a time in one jitted `lax.scan` whose env
    step is an ordered `io_callback` into the C MuJoCo envs: the learner stays on the device and the host dispatches
    one call per block, not one per step: 1.18x the steady rate on a 2-core CPU (docs/benchmarks/speed.md). But a
    program with a host callback has the callback's address in its module, so JAX's persistent compilation cache
    never serves it: every process compiles the block again (seconds). So only runs of at least BLOCKS_FROM
    iterations use blocks (`blocks`), and only for chunks of a multiple of BLOCK; the rest goes one jitted call per
    step (`gym_step`), whose program the cache keeps. Both ways compute the same bits."""

    def __init__(self, tr, venv, members: int, blocks: bool = True):
        self.tr, self.venv, self.members, self.blocks = tr, venv, members, blocks
        self.act = jax.jit(jax.vmap(tr.act, in_axes=(0, 0, None)))  # a run's first action, and after a resume
        self.learn_act = jax.jit(jax.vmap(tr.learn_act, in_axes=(0, 0, 0, 0, None)), donate_argnums=0)  # in place
        self.env_state = self.action = self._block = None

    def start(self, learner, env_state, iteration: int):
        """After the envs were reset: a resumed run's masked flags were drawn for the killed episodes, so new ones
        draw their own (`trainer.restart`)."""
        self.env_state, self.action = env_state, None  # action: the next step's, chosen ahead
        if iteration > 0:
            learner = jax.jit(jax.vmap(self.tr.restart, in_axes=(0, None)), donate_argnums=0)(learner, iteration)
        return learner

    def chunk(self, learner, start: int, length: int):
        """`length` iterations from `start`: (learner, the logged row per member)."""
        if self.action is None:  # a process's first step: its action is chosen first, as in gym_step
            key, self.action = self.act(learner, self.env_state.obs.reshape(self.members, -1, self.venv.obs_dim),
                                        start)
            learner = learner.replace(key=key)
        parts = []
        if self.blocks and length % BLOCK == 0:  # in blocks (the usual log intervals); other lengths step by step,
            self._block = self._block or self._make_block()  # so a run compiles the per-step update only if needed
            env_state = jax.tree.map(jnp.asarray, self.env_state)
            for k in range(start, start + length, BLOCK):
                (learner, env_state, self.action), metrics = self._block(learner, env_state, self.action, k)
                parts.append(metrics)  # leaves: (BLOCK, members)
            self.env_state, parts = env_state, jax.device_get(parts)
        else:
            for k in range(start, start + length):
                learner, self.env_state, self.action, metrics = gym_step(
                    self.act, self.learn_act, self.venv, learner, self.env_state, self.action, k, self.members)
                parts.append(metrics)  # leaves: (members,)
            parts = [jax.tree.map(lambda *x: np.stack(x), *jax.device_get(parts))]
        steps = jax.tree.map(lambda *x: np.moveaxis(np.concatenate(x), 0, 1), *parts)  # leaves: (members, steps)
        return learner, jax.tree.map(lambda *x: np.stack(x), *[summarize(jax.tree.map(lambda x, m=m: x[m], steps), np)
                                                                for m in range(self.members)])

    def _make_block(self):
        """The jitted (learner, env state, action, start) -> ((learner, env state, next action), metrics of BLOCK
        iterations from `start`, leading axis: iterations)."""
        venv, members = self.venv, self.members
        shapes = jax.tree.map(lambda x: jax.ShapeDtypeStruct(np.shape(x), jnp.asarray(x).dtype), self.env_state)
        per_member = lambda x: x.reshape(members, -1, *x.shape[1:])

        def env_step(action):  # on the host, called by the program in order
            state = venv.step(None, np.asarray(action).reshape(venv.num_envs, -1))
            return jax.tree.map(lambda x, s: np.asarray(x, s.dtype), state, shapes)

        def iteration(carry, k):
            learner, env_state, action = carry
            new = io_callback(env_step, shapes, action, ordered=True)
            learner, action, metrics = jax.vmap(self.tr.learn_act, in_axes=(0, 0, 0, 0, None))(
                learner, per_member(env_state.obs), action, jax.tree.map(per_member, new), k)
            return (learner, new, action), metrics

        def run_block(learner, env_state, action, start):
            return jax.lax.scan(iteration, (learner, env_state, action), start + jnp.arange(BLOCK))

        return jax.jit(run_block, donate_argnums=0)


def gym_step(act, learn_act, venv, learner, env_state, action, k: int, seeds: int):
    """One host-driven step on the gymnasium backend: the C MuJoCo step with step k's action, then one jitted call
    that stores the transition, updates, and chooses step k + 1's action (`trainer.learn_act`). `action` is None for
    the first step of a process (then step k's action is chosen first). Returns (learner, env_state, next action,
    metrics)."""
    obs = env_state.obs.reshape(seeds, -1, venv.obs_dim)
    if action is None:
        key, action = act(learner, obs, k)
        learner = learner.replace(key=key)
    env_state = venv.step(env_state, np.asarray(action).reshape(venv.num_envs, -1))
    per_member = jax.tree.map(lambda x: x.reshape(seeds, -1, *x.shape[1:]), env_state)
    learner, action, metrics = learn_act(learner, obs, action, per_member, k)
    return learner, env_state, action, metrics
