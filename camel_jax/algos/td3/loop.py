"""The thin host shell around the compiled trainer: chunks, logging, evaluation, checkpoints, the final actor.

No training logic lives here. On MJX each chunk is one call of the jitted `run_chunk` (all members). On gymnasium
each env step is the C MuJoCo step and one call of the jitted `learn_act` (learn from this step, choose the next
action), so the host waits on the device once per step.
`resume(run_dir)` is `train` started from the run's latest checkpoint (camel_jax/core/checkpoint.py) instead of the
init: chunk lengths depend only on the iteration, so a resumed MJX run computes exactly what an uninterrupted one does.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

from camel_jax import envs, specs
from camel_jax.algos.td3.config import Config
from camel_jax.algos.td3.memory import replay_capacity
from camel_jax.algos.td3.trainer import make_train, summarize
from camel_jax.core import distributed, evaluate, runs, signals
from camel_jax.core.checkpoint import Checkpoints
from camel_jax.core.progress import Progress
from camel_jax.core.run import announce, gym_env_seeds, gym_nonfinite, use_compile_cache
from camel_jax.core.sharding import jit_sharded, make_mesh, seed_sharding, shard_seeds, state_shardings
from camel_jax.priors import kinds

METRIC_FIELDS = ("step", "seed", "episodes", "episode_return", "episode_length", "epsilon", "masked_frac",
                 "critic_loss", "actor_loss", "q1", "nonfinite", "steps_per_s", "wall_s")
from camel_jax.priors.baselines import ResolvedPrior, resolve


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
    t_start = time.time()
    backend, why = config.backend_choice()
    why = "as the run was started, config.json" if resume_dir is not None else why
    config = dataclasses.replace(config, backend=backend)  # "auto" -> mjx or gymnasium, recorded in config.json
    config.check()
    use_compile_cache(config.compile_cache)
    distributed.initialize()  # several processes (hosts): from JAX_COORDINATOR_ADDRESS etc.; else nothing
    prior = prior or resolve(config.prior, config.env)
    members = config.members()  # the vmapped axis: seeds x grid points
    mesh = make_mesh(config, len(members))  # None: one device; checked before a run directory is made
    if distributed.is_main() and resume_dir is None:  # a resume says it once its checkpoint has been read
        announce(config, why)
    record = {**kinds.of_prior(config.prior, prior.source, prior.kind).record(),
              "task_label": specs.task_label(config.env, config.backend)}
    run_dir = Path(resume_dir) if resume_dir is not None else Path(distributed.from_main(
        lambda: str(runs.create(config, prior.source, prior.sha256, record=record))))  # process 0 makes it
    seeds = len(members)
    hyper = config.member_hypers()
    keys = jnp.stack([jax.random.PRNGKey(m["seed"]) for m in members])
    log_iters = max(1, config.log_every // config.num_envs)
    eval_iters = max(1, config.eval_every // config.num_envs)
    ckpt_iters = max(1, config.checkpoint_every // config.num_envs)

    ckpt = Checkpoints(run_dir, config.keep_checkpoints, config.buffer_in_checkpoint)
    # a run resumed without its replay buffer refills it: updates wait until it again holds learning_starts rows
    refill_from = (ckpt.latest_step() or 0) // config.num_envs if resume_dir and not config.buffer_in_checkpoint else 0
    if config.backend == "mjx":
        env = envs.make(config.env, "mjx", config.num_envs, config.mjx_impl, seeds * config.num_envs)  # worlds/call
        tr = make_train(config, env, prior.fn, flat_envs=mesh is None, updates_from=refill_from)  # flat: trainer.py
        init = jax.vmap(tr.init)  # state: TrainState (learner and MJX envs)
    else:
        venv = envs.make(config.env, "gymnasium", seeds * config.num_envs)
        tr = make_train(config, venv, prior.fn, updates_from=refill_from)
        init = jax.vmap(tr.init_learner)  # state: Learner (the C MuJoCo envs are not checkpointed)
        act = jax.jit(jax.vmap(tr.act, in_axes=(0, 0, None)))  # a run's first action, and after a resume
        learn_act = jax.jit(jax.vmap(tr.learn_act, in_axes=(0, 0, 0, 0, None)), donate_argnums=0)  # in place

    template = jax.eval_shape(init, keys, hyper)
    shardings = state_shardings(template, mesh)  # placement on the mesh (sharding.py); None: one device
    if config.backend == "mjx":  # the chunk keeps the state where it is: no transfers, no recompiles
        chunk = jit_sharded(tr.run_chunk, mesh, (shardings, seed_sharding(mesh)),
                            static_argnums=2, donate_argnums=0)
    if mesh is not None:  # each member's state is made (or read) on its own devices
        keys, hyper = shard_seeds((keys, hyper), mesh)
    restored = None
    if resume_dir is not None:  # a checkpoint of a shorter run (before resume --total-steps) has a smaller buffer
        saved = ckpt.latest_meta().get("replay_capacity", capacity or replay_capacity(config))
        if saved < replay_capacity(config):
            small = _with_capacity(template, saved)
            restored = ckpt.restore(small, state_shardings(small, mesh))
            if restored is not None:
                grown = jit_sharded(lambda s: _with_capacity(s, replay_capacity(config), grow=True), mesh, shardings)
                restored = (grown(restored[0]), restored[1])
        else:
            restored = ckpt.restore(template, shardings)
    state, meta = restored or (jit_sharded(init, mesh, shardings)(keys, hyper), {"iteration": 0, "wall_s": 0.0})
    i = meta["iteration"]
    if resume_dir is not None and distributed.is_main():  # a corrupt checkpoint stays one line (restore raised)
        announce(config, why)
        runs.truncate(run_dir, i * config.num_envs, truncate)  # only once the checkpoint is known to be good
    if config.backend == "gymnasium":  # a resumed run restarts the in-flight episodes (README, Training)
        env_state, action = venv.reset(gym_env_seeds(config, i)), None  # action: the next step's, chosen ahead
        if restored is not None:  # the checkpoint's masked flags were drawn for the killed episodes: new ones draw
            state = jax.jit(jax.vmap(tr.restart, in_axes=(0, None)), donate_argnums=0)(state, i)  # their own
            venv.count_nonfinite_from(gym_nonfinite(run_dir, i * config.num_envs, seeds, config.num_envs))
    get_learner = (lambda: state.learner) if config.backend == "mjx" else (lambda: state)

    mjx_eval = gym_eval = None
    if config.eval_episodes and config.backend == "mjx":
        eval_env = envs.make_single(config.env, config.mjx_impl, seeds * config.eval_episodes)
        mjx_eval = distributed.gathered(evaluate.make_mjx_eval(tr, eval_env, config.eval_episodes))
    elif config.eval_episodes:
        gym_eval, close_gym_eval = evaluate.make_gym_eval(tr, config.env, config.eval_episodes, seeds)
    main = distributed.is_main()  # with several processes, process 0 writes the logs (distributed.py)
    progress = Progress(config if main else Config(**{**config.__dict__, "quiet": True}), t_start - meta["wall_s"],
                        i * config.num_envs)
    cache = jax.config.jax_compilation_cache_dir if config.compile_cache else None
    progress.note(f"compiling the {'training chunk' if config.backend == 'mjx' else 'update'} (XLA; the first log line "
                  "waits for it; " + (f"cached in {cache} for later runs of these settings)" if cache else
                                      "no compile cache)"))

    def close() -> None:
        ckpt.close()
        if config.backend == "gymnasium":
            venv.close()
        if gym_eval is not None:
            close_gym_eval()

    if stop.requested:  # before this process's first chunk: a new run directory goes, a resumed one stays
        close()
        stop.check(run_dir, i * config.num_envs, fresh=resume_dir is None)
    while i < config.iterations:
        length = min(log_iters, config.iterations - i, eval_iters - i % eval_iters, ckpt_iters - i % ckpt_iters)
        if config.backend == "mjx":
            state, row = chunk(state, i, length)
        else:
            rows = []
            for k in range(i, i + length):
                state, env_state, action, m = gym_step(act, learn_act, venv, state, env_state, action, k, seeds)
                rows.append(m)
            steps = jax.tree.map(lambda *x: np.stack(x, 1), *jax.device_get(rows))  # leaves: (members, steps)
            row = jax.tree.map(lambda *x: np.stack(x), *[summarize(jax.tree.map(lambda x, m=m: x[m], steps), np)
                                                          for m in range(seeds)])
        i += length
        step = i * config.num_envs
        row = distributed.to_host(row)
        if main:
            progress.log(run_dir, step, row)
            if on_log is not None:
                on_log(step, row)
        if config.eval_episodes and (i % eval_iters == 0 or i == config.iterations):
            out = _evaluate(config, get_learner(), mjx_eval, gym_eval, step)
            if main:
                progress.log_eval(run_dir, step, out)
        if i % ckpt_iters == 0 or i == config.iterations or stop.requested:
            ckpt.save(i, step, state, time.time() - progress.t0, {"replay_capacity": replay_capacity(config)})
        if stop.requested and i < config.iterations:
            close()
            stop.check(run_dir, step, fresh=resume_dir is None)

    actor = distributed.to_host(get_learner().agent.actor)
    close()
    if main:
        runs.save_actor(run_dir, actor)
    if main:
        progress.done(run_dir)
    return run_dir


def _evaluate(config: Config, learner, mjx_eval, gym_eval, step: int) -> dict:
    out = {}
    for label, flag in (("unmasked", 0.0), ("masked", 1.0)):
        if mjx_eval is not None:
            keys = jnp.stack([jax.random.PRNGKey(10_000 + m["seed"]) for m in config.members()])
            mean, std = jax.device_get(mjx_eval(learner, keys, flag))
        else:
            mean, std = gym_eval(learner, 10_000 + step, flag)
        out[f"return_{label}"], out[f"std_{label}"] = np.asarray(mean), np.asarray(std)
    return out


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
