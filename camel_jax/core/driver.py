"""The run shell's loop, one for every algorithm: members, run directory, chunks, logging, evaluation, checkpoints,
interrupts and the final policy. It imports no algorithm: an algorithm's loop module hands it a `Program`.

One run, in order:
  the backend (auto made concrete, and why) -> the config checked -> the device mesh -> the run directory (new, or
  the one resumed) -> the algorithm's `build` (envs, trainer, the state's shapes) -> the state (initialised, or
  restored from the latest checkpoint) -> chunks until the run's iterations are done -> the final policy.
The one backend switch: on MJX a chunk is one call of the algorithm's compiled `run_chunk` (envs included, all
members); on gymnasium the algorithm's `HostSteps.chunk` steps the C MuJoCo envs on the host (TD3: a jitted scan
whose env step calls back into them; PPO: a rollout, then its update, per iteration). An iteration is
`config.steps_per_iteration` env steps per member.

After every chunk: a metrics row per member (`Progress`), an evaluation every `eval_every` env steps (the algorithm's
`greedy` in each of its EVAL_MODES: MJX in one program, gymnasium on C MuJoCo), and a checkpoint every
`checkpoint_every`. SIGTERM, SIGUSR1 and Ctrl-C (camel_jax/core/signals.py) stop the run after the current chunk,
with a checkpoint; while the initial state or a process's first chunk compiles they stop it at once, at the step
it started from; a new run stopped before its first chunk is done leaves no directory behind.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import jax
import jax.numpy as jnp
import numpy as np

from camel_jax import envs
from camel_jax.core import distributed, evaluate, provenance, runs, signals
from camel_jax.core.checkpoint import Checkpoints
from camel_jax.core.progress import Progress
from camel_jax.core.run import announce, gym_env_seeds, gym_nonfinite, use_compile_cache
from camel_jax.core.sharding import jit_sharded, make_mesh, seed_sharding, shard_seeds, state_shardings


class HostSteps(Protocol):
    """The gymnasium backend's side of an algorithm: its C MuJoCo envs (`venv`, every member's envs, member-major)
    and one iteration at a time, jitted calls around the host's env steps."""

    venv: Any

    def start(self, state, env_state, iteration: int):
        """The state to go on with after the envs were reset (a new run, or a resumed one: in-flight episodes
        restart) at `iteration`."""

    def chunk(self, state, start: int, length: int) -> tuple[Any, dict]:
        """`length` iterations from iteration `start`; returns (state, the logged row per member, numpy)."""


@dataclasses.dataclass
class Program:
    """What an algorithm's `build` gives the shell for one run."""

    trainer: Any  # its trainer functions; the shell uses `greedy(learner, obs, masked_flag)` to evaluate
    template: Any  # jax.eval_shape of the member-stacked state: MJX: learner and envs (`.learner`); gymnasium: learner
    init: Callable  # (keys, hyper, *parts(keys), *init_args()) -> state with a leading member axis (jitted, placed)
    export: Callable  # learner -> the pytree of actor.msgpack (the final policy of every member)
    run_chunk: Callable | None = None  # MJX: (state, start_iteration, length: static) -> (state, raw row)
    finish_row: Callable = lambda raw: raw  # MJX: the raw row of a chunk on the host -> the logged row per member
    host: HostSteps | None = None  # gymnasium
    init_args: Callable[[], tuple] = tuple  # more arguments of init, made only for a fresh state
    # (keys) -> the leading arguments of init that compile alone, before init_args(): the networks' initial weights
    # (their random draws compile about as long as a training step) and MJX's env reset. Their program is keyed
    # only by what they depend on (the networks, the task, the member count), so runs of other lengths, batch sizes
    # or buffers share it from the compilation cache; init, keyed by the whole state, is left with little to compile.
    parts: Callable | None = None
    restore: Callable | None = None  # (checkpoints, shardings) -> (state, meta) or None; default: the template's
    checkpoint_extra: dict = dataclasses.field(default_factory=dict)  # recorded with every checkpoint
    compiling: str = "the training chunk"  # what the first chunk compiles, for the console


@dataclasses.dataclass
class NewRun:
    """What a new run directory records (camel_jax/core/runs.py: create)."""

    prior_source: str  # prior.txt: the prior's source, or what stands in for it ("none (PPO without guidance)")
    prior_sha: str
    record: dict  # config.json's record beside the settings (config.RECORDED)
    files: dict[str, str] = dataclasses.field(default_factory=dict)  # more files written into it (name: text)


def run(config, build: Callable[..., Program], new_run: Callable[[Any], NewRun], stop: signals.StopRequests, *,
        metric_fields: tuple[str, ...], eval_modes: dict[str, float], resume_dir: Path | None = None,
        truncate: bool = False, on_log: Callable[[int, dict], None] | None = None, show_matched: bool = False) -> Path:
    """Train (or, with `resume_dir`, continue) the run of `config`; returns its run directory.
    `build(config, mesh, checkpoints, keys, hyper)` -> Program: the algorithm's envs, trainer and state shapes for
    this run (config: the backend made concrete). `new_run(config)` -> NewRun: what a new run directory records.
    `metric_fields`: the algorithm's METRIC_FIELDS (metrics.csv's columns); `eval_modes`: its EVAL_MODES (label -> the flag its greedy gets). `on_log(step, row)` is called
    after each log row is written (row: metric -> one value per member)."""
    t_start = time.time()
    backend, why = config.backend_choice()
    why = "as the run was started, config.json" if resume_dir is not None else why
    config = dataclasses.replace(config, backend=backend)  # "auto" -> mjx or gymnasium, recorded in config.json
    config.check()
    use_compile_cache(config.compile_cache)
    distributed.initialize()  # several processes (hosts): from JAX_COORDINATOR_ADDRESS etc.; else nothing
    members = config.members()  # the vmapped axis: seeds x grid points
    mesh = make_mesh(config, len(members))  # None: one device; checked before a run directory is made
    main = distributed.is_main()  # with several processes, process 0 writes the logs (distributed.py)
    made = new_run(config) if resume_dir is None else None  # a bad prior is one line before anything is printed
    if main and resume_dir is None:  # a resume says it once its checkpoint has been read
        announce(config, why)
    if resume_dir is not None:
        run_dir = Path(resume_dir)
    else:

        def create() -> str:
            path = runs.create(config, made.prior_source, made.prior_sha, metric_fields, record=made.record)
            for name, text in made.files.items():
                (path / name).write_text(text)
            return str(path)

        run_dir = Path(distributed.from_main(create))  # process 0 makes it
    keys = jnp.stack([jax.random.PRNGKey(m["seed"]) for m in members])
    hyper = config.member_hypers()
    per_iteration = config.steps_per_iteration
    log_iters, eval_iters, ckpt_iters = (config.every(config.log_every), config.every(config.eval_every),
                                         config.every(config.checkpoint_every))

    ckpt = Checkpoints(run_dir, config.keep_checkpoints, getattr(config, "buffer_in_checkpoint", True))
    program = build(config, mesh, ckpt, keys, hyper)
    shardings = state_shardings(program.template, mesh)  # placement on the mesh (sharding.py); None: one device
    chunk = None
    if config.backend == "mjx":  # the chunk keeps the state where it is: no transfers, no recompiles
        chunk = jit_sharded(program.run_chunk, mesh, (shardings, seed_sharding(mesh)), static_argnums=2,
                            donate_argnums=0)
    if mesh is not None:  # each member's state is made (or read) on its own devices
        keys, hyper = shard_seeds((keys, hyper), mesh)
    cache = jax.config.jax_compilation_cache_dir if config.compile_cache else None
    note = (f"compiling {program.compiling} (XLA; the first log line waits for it; " +
            (f"cached in {cache} for later runs of these settings)" if cache else "no compile cache)"))
    say = lambda: print(note, flush=True) if main and not config.quiet else None
    if resume_dir is None:  # before the initial state, which compiles too (MJX's env reset)
        say()
    restored, init, init_args = None, jit_sharded(program.init, mesh, shardings), None
    parts = (lambda: ()) if program.parts is None else (lambda: jax.jit(program.parts)(keys))
    if resume_dir is not None:
        # trace and lower the init as a fresh run does before its first chunk (no compile): what a process has traced
        # decides how JAX shares small private functions between later modules, and without it a resumed MJX run's
        # evaluator lowered to another module than the fresh run's, missing the compilation cache (docs/contributing.md)
        init_args = (*parts(), *program.init_args())
        init.lower(keys, hyper, *init_args)
        restored = (program.restore(ckpt, shardings) if program.restore is not None
                    else ckpt.restore(program.template, shardings))
    if restored is None:  # a signal stops its compilation (signals.unless_stopped)
        done, state = signals.unless_stopped(
            stop, lambda: init(keys, hyper, *((*parts(), *program.init_args()) if init_args is None else init_args)))
        if not done:
            ckpt.close()
            if program.host is not None:
                program.host.venv.close()
            stop.check(run_dir, 0, fresh=resume_dir is None)
        restored = state, {"iteration": 0, "wall_s": 0.0}
    state, meta = restored
    i = meta["iteration"]
    if resume_dir is not None and main:  # a corrupt checkpoint stays one line (restore raised)
        announce(config, why)
        runs.truncate(run_dir, i * per_iteration, truncate)  # only once the checkpoint is known to be good
        provenance.record_resume(run_dir, i * per_iteration)  # the commit and packages this part runs on
        say()
    host = program.host
    if host is not None:  # gymnasium: the envs restart their episodes, also in a resumed run (README, Training)
        env_state = host.venv.reset(gym_env_seeds(config, i))
        if i > 0:  # resumed: the non-finite counts go on from the checkpoint's, as MJX's restored envs' do
            host.venv.count_nonfinite_from(gym_nonfinite(run_dir, i * per_iteration, len(members), config.num_envs))
        state = host.start(state, env_state, i)
    learner = (lambda: state.learner) if host is None else (lambda: state)

    evaluate_at, close_eval = _evaluator(config, program.trainer, eval_modes, len(members))
    progress = Progress(config if main else dataclasses.replace(config, quiet=True), t_start - meta["wall_s"],
                        i * per_iteration, metric_fields=metric_fields, show_matched=show_matched)

    def close(abandoned: bool = False) -> None:
        ckpt.close()
        if host is not None and not abandoned:  # an abandoned first chunk may still be stepping the envs
            host.venv.close()
        close_eval()

    def advance(state, i: int, length: int):
        """`length` iterations from iteration i: (state, the logged row per member)."""
        if host is None:
            state, raw = chunk(state, i, length)
            return state, program.finish_row(distributed.to_host(raw))
        return host.chunk(state, i, length)

    if stop.requested:  # before this process's first chunk: a new run directory goes, a resumed one stays
        close()
        stop.check(run_dir, i * per_iteration, fresh=resume_dir is None)
    first = True
    while i < config.iterations:
        length = min(log_iters, config.iterations - i, eval_iters - i % eval_iters, ckpt_iters - i % ckpt_iters)
        if first:  # it compiles: a signal stops it (signals.unless_stopped), at the step the process started from
            done, out = signals.unless_stopped(stop, lambda state=state, i=i, length=length: advance(state, i, length))
            if not done:
                close(abandoned=True)
                stop.check(run_dir, i * per_iteration, fresh=resume_dir is None)
            (state, row), first = out, False
        else:
            state, row = advance(state, i, length)
        i += length
        step = i * per_iteration
        if main:
            progress.log(run_dir, step, row)
            if on_log is not None:
                on_log(step, row)
        if evaluate_at is not None and (i % eval_iters == 0 or i == config.iterations):
            out = evaluate_at(learner(), step)
            if main:
                progress.log_eval(run_dir, step, out)
        if i % ckpt_iters == 0 or i == config.iterations or stop.requested:
            ckpt.save(i, step, state, time.time() - progress.t0, program.checkpoint_extra or None)
        if stop.requested and i < config.iterations:
            close()
            stop.check(run_dir, step, fresh=resume_dir is None)

    final = distributed.to_host(program.export(learner()))
    close()
    if main:
        runs.save_actor(run_dir, final)
        progress.done(run_dir)
    return run_dir


def _evaluator(config, trainer, modes: dict[str, float], members: int):
    """(evaluate(learner, step) -> {"return_<mode>", "std_<mode>": per member}, close) of the run's backend;
    (None, no-op) without evaluation. MJX: every member's episodes in one program, member m's from key 10,000 +
    its seed; gymnasium: C MuJoCo, episode e of every member from env seed 10,000 + step + e."""
    if not config.eval_episodes:
        return None, lambda: None
    if config.backend == "mjx":
        env = envs.make_single(config.env, config.mjx_impl, members * config.eval_episodes)
        mjx_eval = distributed.gathered(evaluate.make_mjx_eval(trainer, env, config.eval_episodes))
        keys = jnp.stack([jax.random.PRNGKey(10_000 + m["seed"]) for m in config.members()])
        one = lambda learner, step, flag: mjx_eval(learner, keys, flag)
        close = lambda: None
    else:
        gym_eval, close = evaluate.make_gym_eval(trainer, config.env, config.eval_episodes, members)
        one = lambda learner, step, flag: gym_eval(learner, 10_000 + step, flag)

    def evaluate_at(learner, step: int) -> dict:
        out = {}
        for label, flag in modes.items():
            mean, std = one(learner, step, flag)
            out[f"return_{label}"], out[f"std_{label}"] = np.asarray(mean), np.asarray(std)
        return out

    return evaluate_at, close
