"""The host shell around PPO's compiled trainer (camel_jax/algos/ppo/trainer.py): iterations, logging, evaluation,
checkpoints and the final policy, in the run directory layout of TD3's runs (camel_jax/core/runs.py).

No training logic lives here. On MJX each chunk of iterations (rollouts with their updates) is one call of the jitted
`run_chunk` for all seeds. On gymnasium each env step is the C MuJoCo step and one jitted call (`observe_act`), and
each rollout ends with one jitted `update`. The loop's unit is the iteration (`num_steps` x `num_envs` env steps).

RUN_DIR as for TD3: config.json (a PPOConfig, `algo` "ppo"), prior.txt (says that there is none, or names the guide),
metrics.csv (per log row and seed: episodes, mean episode return and length of the episodes that ended, PPO's loss
diagnostics, override fraction, mean bonus and matched steps (a count over the log period and the
seed's envs) of a guide), eval.csv (the deterministic mean action: `return_unmasked`;
the masked columns stay empty, PPO has no mask), checkpoints/ (the complete seed-vmapped training state: on MJX with
the envs, so a resume is exact; on gymnasium the learner, and the envs restart their episodes), and actor.msgpack
(`{"params", "obs_stats", "reward_stats"}` per seed: the policy needs the observation statistics, and a run continued
from this one (`init_from`) carries on both normalisers).
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable
from pathlib import Path

import jax
import numpy as np
from flax import serialization

from camel_jax import envs, specs
from camel_jax.algos.ppo.config import PPOConfig
from camel_jax.algos.ppo.trainer import Guide, chunk_row, iteration_row, make_train
from camel_jax.core import driver, runs, signals
from camel_jax.priors import kinds

# its losses and diagnostics, and ULTRA's guidance counts in place of masking
METRIC_FIELDS = ("step", "seed", "episodes", "episode_return", "episode_length", "pg_loss", "v_loss", "entropy",
                 "approx_kl", "clipfrac", "explained_variance", "learning_rate", "override_frac", "bonus_mean",
                 "matched", "nonfinite", "steps_per_s", "wall_s")
EVAL_FIELDS = runs.EVAL_FIELDS
EVAL_MODES = {"unmasked": 0.0}  # PPO has no mask: its deterministic mean action only


def resume(run_dir: str | Path, quiet: bool | None = None, guide: Guide | None = None, truncate: bool = False,
           guide_state=None, total_steps: int = 0) -> Path:
    """Continue the PPO run in `run_dir` from its latest checkpoint (from the start if it has none), as
    `camel_jax.algos.td3.loop.resume` does for TD3: a finished run is an error, and so are logged rows after the checkpoint
    unless `truncate`. A guided run needs its `guide` function again (its state is in the checkpoint; with no
    checkpoint yet, `guide_state` starts it again)."""
    run_dir = Path(run_dir)
    config = runs.read_config(run_dir, "resume", PPOConfig)
    if total_steps:  # extend it (a finished run too); the annealed learning rate stretches to the new total
        config = runs.extend(run_dir, config, total_steps)
    runs.check_resumable(run_dir, config.iterations * config.batch_size)
    if quiet is not None:
        config = dataclasses.replace(config, quiet=quiet)
    return train(config, resume_dir=run_dir, guide=guide, guide_state=guide_state, truncate=truncate)


def train(config: PPOConfig, resume_dir: Path | None = None, guide: Guide | None = None, guide_state=None,
          guide_name: str = "", truncate: bool = False, files: dict[str, str] | None = None,
          on_log: Callable[[int, dict], None] | None = None) -> Path:
    """Train PPO for `config.seeds` at once; returns the run directory. `guide`, `guide_state` (leading seed axis)
    and `guide_name` (written to prior.txt): ULTRA's guidance (camel_jax/algos/ppo/trainer.py); None for plain PPO.
    `truncate`: a resume may drop logged rows after its checkpoint. `files`: more files (name: text) written into a
    new run directory when it is made (ULTRA's ultra.json, which a resume reads). `on_log(step, row)` is called after
    each log row is written (row: the summary arrays of that chunk, one entry per seed), as for TD3. SIGTERM, SIGUSR1
    and Ctrl-C stop it after the current chunk with a checkpoint (camel_jax/core/signals.py: `Interrupted`)."""
    with signals.stop_requests() as stop:
        return _train(config, stop, resume_dir, guide, guide_state, guide_name, truncate, files, on_log)


def _train(config: PPOConfig, stop: signals.StopRequests, resume_dir: Path | None, guide: Guide | None, guide_state,
           guide_name: str, truncate: bool, files: dict[str, str] | None,
           on_log: Callable[[int, dict], None] | None) -> Path:
    members = len(config.members())
    if guide_state is not None and any(np.shape(x)[:1] != (members,) for x in jax.tree.leaves(guide_state)):
        raise ValueError(f"guide_state needs a leading member axis of {members} on every leaf (one table per seed); "
                         "stack the per-seed states, e.g. jax.tree.map(lambda *x: jnp.stack(x), *states)")

    def new_run(config: PPOConfig) -> driver.NewRun:
        source = f"guide: {guide_name or 'unnamed'}" if guide is not None else "none (PPO without guidance)"
        prior = kinds.Provenance("guide", "ULTRA guide") if guide is not None else kinds.Provenance("none", "no prior")
        return driver.NewRun(source, "none", {**prior.record(), "task_label": specs.task_label(config.env,
                                                                                              config.backend)},
                             files=dict(files or {}))

    def build(config: PPOConfig, mesh, ckpt, keys, hyper) -> driver.Program:
        if config.backend == "mjx":
            env = envs.make(config.env, "mjx", config.num_envs, config.mjx_impl, members * config.num_envs)
            tr = make_train(config, env, guide, flat_envs=mesh is None)
            init, parts, host = jax.vmap(tr.init), jax.vmap(tr.init_parts), None  # state: TrainState (learner, MJX
            #                                                                       envs, next observation)
        else:
            venv = envs.make(config.env, "gymnasium", members * config.num_envs)
            tr = make_train(config, venv, guide)
            init, host = jax.vmap(tr.init_learner), HostSteps(tr, venv, members, config.num_steps)  # state: Learner

            def parts(keys):  # the initial weights (camel_jax/core/driver.py, Program)
                return (jax.vmap(tr.first_params)(keys),)
        template = jax.eval_shape(lambda k, h, g: init(k, h, *parts(k), g), keys, hyper, guide_state)

        def init_args() -> tuple:  # a fresh state: the guide's, and the start of a continued run (init_from)
            start = load_policy(config.init_from, template) if config.init_from else None
            if start is not None and start["reward_stats"] is None:
                print(f"warning: {config.init_from}/actor.msgpack has no reward statistics (saved by an older "
                      "camel-jax): the reward normaliser starts afresh; retrain the base run to carry it on",
                      file=sys.stderr)
            return guide_state, start

        export = lambda learner: {"params": learner.params, "obs_stats": learner.obs_stats,
                                  "reward_stats": learner.reward_scaler.stats}
        return driver.Program(trainer=tr, template=template, init=init, parts=parts, init_args=init_args, export=export,
                              run_chunk=tr.run_chunk, finish_row=chunk_row, host=host,
                              compiling=f"PPO's {'training chunk' if config.backend == 'mjx' else 'update'}")

    return driver.run(config, build, new_run, stop, metric_fields=METRIC_FIELDS, eval_modes=EVAL_MODES,
                      resume_dir=resume_dir, truncate=truncate, on_log=on_log, show_matched=guide is not None)


def load_policy(run_dir: str | Path, template) -> dict:
    """{"params", "obs_stats", "reward_stats"} (leading seed axis) of a finished PPO run; `template`: this run's state
    (or its shapes), whose learner gives the structure. `reward_stats` is None for a run saved before it was kept
    (its reward normaliser cannot be carried on)."""
    learner = getattr(template, "learner", template)
    saved = serialization.msgpack_restore((Path(run_dir) / "actor.msgpack").read_bytes())
    like = {"params": learner.params, "obs_stats": learner.obs_stats}
    if "reward_stats" in saved and learner.reward_scaler is not None:
        like["reward_stats"] = learner.reward_scaler.stats
    return {"reward_stats": None, **serialization.from_state_dict(like, saved)}


class HostSteps:
    """The gymnasium backend's iterations (camel_jax/core/driver.py), one rollout and its update each: the C MuJoCo
    envs and the jitted calls (vmapped over members): `act` (a rollout's first step), `observe_act` (every other
    step), `observe` (the last step, so that the next rollout acts with the updated policy) and `update`."""

    def __init__(self, tr, venv, seeds: int, num_steps: int):
        self.venv, self.seeds, self.num_steps = venv, seeds, num_steps
        self.see = jax.jit(jax.vmap(tr.see))
        self.act = jax.jit(jax.vmap(tr.act))
        self.observe_act = jax.jit(jax.vmap(tr.observe_act), donate_argnums=0)
        self.observe = jax.jit(jax.vmap(tr.observe), donate_argnums=0)
        self.update = jax.jit(jax.vmap(tr.update), donate_argnums=0)
        self.env_state = self.obs = None

    def per_seed(self, x):
        return x.reshape(self.seeds, -1, *x.shape[1:])

    def start(self, learner, env_state, iteration: int):
        """After the envs were reset (a new run, or a resumed one: in-flight episodes restart): normalise the first
        obs. A resume keeps each env's running discounted return (`reward_scaler.ret`): the cut episodes ended
        without terminating, and gymnasium's NormalizeReward carries the return over any such end (a truncation, a
        reset)."""
        self.env_state = env_state
        learner, self.obs = self.see(learner, self.per_seed(self.env_state.obs))
        return learner

    def chunk(self, learner, start: int, length: int):
        """`length` iterations from `start`, one rollout and its update each: (learner, the logged row per member)."""
        rows = []
        for k in range(start, start + length):
            learner, row = self.step(learner, k)
            rows.append(row)
        return learner, chunk_row(jax.tree.map(lambda *x: np.stack(x), *rows))

    def step(self, learner, iteration: int):
        """One rollout and its update; returns (learner, this iteration's row per member, numpy)."""
        num_steps = self.num_steps
        learner, tr, action = self.act(learner, self.obs, self.per_seed(self.env_state.obs))
        traj, metrics = [], []
        for t in range(num_steps):
            self.env_state = self.venv.step(self.env_state, np.asarray(action).reshape(self.venv.num_envs, -1))
            env_state = jax.tree.map(self.per_seed, self.env_state)
            if t < num_steps - 1:
                learner, done_tr, tr, action, m = self.observe_act(learner, tr, env_state)
            else:
                learner, done_tr, self.obs, m = self.observe(learner, tr, env_state)
            traj.append(done_tr)
            metrics.append(m)
        traj, metrics = jax.device_get((traj, metrics))
        traj = jax.tree.map(lambda *x: np.stack(x, axis=1), *traj)  # (seeds, steps, envs, ...)
        metrics = jax.tree.map(lambda *x: np.stack(x), *metrics)  # (steps, seeds)
        learner, stats = self.update(learner, traj, self.obs)
        return learner, iteration_row(metrics, jax.device_get(stats), np)
