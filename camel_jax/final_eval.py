"""`camel-jax eval RUN_DIR`: the final deterministic actor of every member of a finished run, N episodes unmasked
(the real score) and masked (a diagnostic), with the same initial states for both; written atomically to
RUN_DIR/eval_final.json.

The actor is RUN_DIR/actor.msgpack (written when a run finishes). The prior is the one the run trained with: for a
prior file, the copy saved in RUN_DIR/prior.txt (checked against its sha256), so an edited or moved file changes
nothing; `none`, `random` and `expert:RUN` are resolved as in training. Evaluation reuses camel_jax/evaluate.py.
A prior that cannot be reloaded from the run directory (a Python callable given to `camel_jax.train`, whose prior.txt
holds its source for reading only; an `expert:RUN` whose run has lost its actor) does not stop the evaluation: the
unmasked score needs no prior, so the run is scored unmasked only and the result's `masked_skipped` says why (the
command prints it as one line). From Python, `camel_jax.evaluate_run(RUN_DIR, prior=fn)` gives the callable back
and evaluates masked as well.

A PPO run (config.json with `algo` "ppo") is scored the same way through camel_jax/ppo_eval.py: its deterministic
mean action on observations normalised with the run's statistics, unmasked only (PPO has no mask).

With `video`, each member's first unmasked evaluation episode is drawn as a GIF (camel_jax/render.py): the member's
greedy actor, unmasked, on gymnasium's C MuJoCo task from env seed `seed` (episode 0's initial state), into
`video/<member>.gif`; its path and return are kept in the member's entry (`video`, `video_return`). The videos come
from the gymnasium task also with `backend="mjx"`.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from collections.abc import Callable
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

from camel_jax import envs, evaluate, render, runs, specs
from camel_jax.config import Config
from camel_jax.ppo_config import is_ppo_run
from camel_jax.priors import select
from camel_jax.priors.baselines import ResolvedPrior, resolve
from camel_jax.td3 import Agent
from camel_jax.trainer import Learner, make_train

RESULT = "eval_final.json"


def check_finished(run_dir: Path, cls=Config, command: str = "eval"):
    """The run's config (`cls`: Config, or PPOConfig); FileNotFoundError / ValueError with one line naming the fix
    if it is not a finished run."""
    if not run_dir.is_dir():
        what = "is not a directory" if run_dir.exists() else "does not exist"
        raise FileNotFoundError(f"{run_dir} {what}; point {command} at a run directory made by camel-jax train")
    config = runs.read_config(run_dir, command, cls)
    if not (run_dir / "actor.msgpack").is_file():
        last = runs.last_logged_step(run_dir)
        if last >= config.total_steps and not runs.has_checkpoint(run_dir):
            raise FileNotFoundError(f"{run_dir} finished ({last} of {config.total_steps} env steps logged) but has no "
                                    "actor.msgpack (it was not kept or not committed), so there is no actor to "
                                    f"evaluate; its CSVs hold its results. To get one, repeat the run: camel-jax train "
                                    f"--config {run_dir}/config.json --out NEW_DIR")
        raise FileNotFoundError(f"{run_dir} has no actor.msgpack: the run has not finished writing it ({last} of "
                                f"{config.total_steps} env steps logged); resume it first (camel-jax resume {run_dir})")
    return config


class PriorUnavailable(ValueError):
    """The run's prior cannot be reloaded from its run directory (the message says why and what to do)."""


def run_prior(run_dir: Path, config: Config) -> ResolvedPrior:
    """The prior the run trained with (a prior file from its saved copy in prior.txt); PriorUnavailable when it
    cannot be reloaded from the run directory."""
    if config.prior.startswith(runs.CALLABLE_PRIOR):
        raise PriorUnavailable(f"{run_dir} was trained with a Python callable prior ({config.prior}), which cannot be "
                               "reloaded from the run directory (prior.txt keeps its source for reading only); for "
                               "the masked scores pass it again: camel_jax.evaluate_run(RUN_DIR, prior=fn)")
    if config.prior.startswith("expert:"):
        expert = Path(config.prior.split(":", 1)[1])
        if not (expert / "actor.msgpack").is_file():
            raise PriorUnavailable(f"{run_dir} was trained with the prior {config.prior}, but {expert / 'actor.msgpack'} "
                                   "is not there (from this directory); run eval from where the run was trained, or "
                                   "restore that run, for the masked scores")
    if config.prior in ("none", "random") or config.prior.startswith("expert:"):
        return resolve(config.prior, config.env)
    header, _, source = (run_dir / "prior.txt").read_text().partition("\n")
    if header.removeprefix("# sha256: ").strip() != hashlib.sha256(source.encode()).hexdigest():
        raise ValueError(f"{run_dir / 'prior.txt'} does not match its sha256 line; restore it from the run's backup")
    with tempfile.TemporaryDirectory() as tmp:  # validated and loaded like any prior file
        path = Path(tmp) / Path(config.prior).name
        path.write_text(source)
        return resolve(str(path), config.env)


def evaluate_run(run_dir: str | Path, episodes: int = 10, backend: str = "gymnasium", seed: int = 0,
                 video: str | Path | None = None, prior: Callable | None = None) -> dict:
    """Per member: mean and std of the return over `episodes` episodes, unmasked and masked (and its video, see the
    module's docstring). `prior`: the jittable callable a run made with a Python callable prior trained with (None:
    the run's own prior; such a run is then scored unmasked only, with `masked_skipped` saying why)."""
    run_dir = Path(run_dir)
    if episodes < 1:
        raise ValueError(f"--episodes must be at least 1, got {episodes}")
    if backend not in envs.BACKENDS:
        raise ValueError(f"unknown backend '{backend}'; use --backend gymnasium or --backend mjx")
    if is_ppo_run(run_dir):
        from camel_jax import ppo_eval

        if prior is not None:
            raise ValueError(f"{run_dir} is a PPO run, which has no prior to mask with; evaluate it without prior=")
        config, tr, learner = ppo_eval.load_run(run_dir)
        flags, about = {"unmasked": 0.0}, {"algo": "ppo", "prior": "none"}
    else:
        config, tr, learner, skipped = td3_policy(run_dir, prior)
        flags, about = {"unmasked": 0.0, "masked": 1.0}, {"prior": config.prior}
        if skipped:
            flags, about = {"unmasked": 0.0}, {**about, "masked_skipped": skipped}
    if video is not None:
        render.backend()  # no GL: one line before any work
    members = config.members()
    if backend == "gymnasium":
        run, close = evaluate.make_gym_eval(tr, config.env, episodes, len(members))
        try:
            stats = {label: run(learner, seed, flag) for label, flag in flags.items()}
        finally:
            close()
    else:
        mjx_eval = evaluate.make_mjx_eval(tr, config.env, episodes)
        keys = jnp.stack([jax.random.fold_in(jax.random.PRNGKey(seed), m["seed"]) for m in members])
        stats = {label: jax.device_get(mjx_eval(learner, keys, flag)) for label, flag in flags.items()}
    rows = []
    for i, member in enumerate(members):
        row = dict(member)
        for label, (mean, std) in stats.items():
            row[f"return_{label}"], row[f"std_{label}"] = float(np.asarray(mean)[i]), float(np.asarray(std)[i])
        if video is not None:
            path, row["video_return"] = member_video(tr, learner, i, config.env, seed,
                                                     Path(video) / f"{_file_name(row)}.gif")
            row["video"] = str(path)
        rows.append(row)
    return {"run_dir": str(run_dir), "env": config.env, **about, "total_steps": config.total_steps,
            "backend": backend, "task": specs.task_label(config.env, backend), "trained_on": config.backend,
            "episodes": episodes, "seed": seed, "members": rows}


def td3_policy(run_dir: Path, prior: Callable | None = None) -> tuple[Config, object, Learner, str]:
    """(config, the TD3 trainer's functions, a learner holding the final actor of every member, "" or why the
    masked scores cannot be computed) of a finished run. `prior`: the callable of a run trained with one (else the
    run's own prior). Without its prior the trainer has none: its greedy actor is the unmasked one, bit for bit
    (an unmasked box is [-1, 1] either way)."""
    config = check_finished(run_dir)
    _, actor = runs.load_actor(run_dir)
    skipped = ""
    if prior is not None:
        if not config.prior.startswith(runs.CALLABLE_PRIOR):
            raise ValueError(f"{run_dir} was trained with the prior {config.prior}, not a Python callable; evaluate "
                             "it without prior= (its own prior is reloaded from the run directory)")
        from camel_jax.api import _callable_prior

        fn = _callable_prior(prior, config.env)  # traced once: one clear error for wrong shapes
    else:
        try:
            fn = run_prior(run_dir, config).fn
        except PriorUnavailable as e:
            fn, skipped = None, f"masked scores skipped: {e}"
    # greedy() reads only the actor and the hyperparameters (the box); make_train only the spec's dimensions here
    tr = make_train(config, specs.load(config.env), fn)
    agent = Agent(actor=actor, critic=None, target_actor=None, target_critic=None, actor_opt=None, critic_opt=None)
    learner = Learner(agent=agent, buffer=None, masked=None, key=None, hyper=config.member_hypers())
    return config, tr, learner, skipped


def member_video(tr, learner: Learner, member: int, env_name: str, seed: int, path: Path) -> tuple[Path, float]:
    """The GIF of member `member`'s greedy actor, unmasked, for one gymnasium episode from env seed `seed`, and the
    episode's return."""
    one = jax.tree.map(lambda x: x[member], learner)
    greedy = jax.jit(lambda obs: tr.greedy(one, obs[None], jnp.zeros(1))[0])
    env = select.make_gym(env_name)
    try:
        ret, *_, qpos = select.run_episode(env, lambda obs: greedy(jnp.asarray(obs, jnp.float32)), seed,
                                           specs.load(env_name).episode_length, record=True)
    finally:
        env.close()
    return render.write_video(env_name, qpos, path), float(ret)


def write(run_dir: str | Path, result: dict) -> Path:
    """RUN_DIR/eval_final.json, written to a temporary file first and renamed (never half-written)."""
    path = Path(run_dir) / RESULT
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(result, indent=2) + "\n")
    tmp.replace(path)
    return path


def table(result: dict) -> str:
    """A small text table: one line per member (mean ± std over episodes), then the mean over the seeds of each
    grid point that has several; the masked columns only where the run has them (not PPO's)."""
    rows = result["members"]
    labels = [label for label in ("unmasked", "masked") if f"return_{label}" in rows[0]]
    cell = lambda m, label: f"{m[f'return_{label}']:10.1f} ± {m[f'std_{label}']:<8.1f}"
    names = [" ".join(p for p in (_swept(m), f"seed={m['seed']}") if p) for m in rows]
    points = {_swept(m): [r for r in rows if _swept(r) == _swept(m)] for m in rows}
    means = {f"mean {p} ({len(g)} seeds)".replace("  ", " "): g for p, g in points.items() if len(g) > 1}
    width = max(len("member"), *map(len, names), *map(len, means))
    lines = [f"{'member':<{width}}" + "".join(f"  {label:>10}{'± std':>7}{'':4}" for label in labels)]
    lines += [f"{n:<{width}}" + "".join(f"  {cell(m, label)}" for label in labels) for n, m in zip(names, rows)]
    for name, group in means.items():
        mean = lambda key: float(np.mean([m[key] for m in group]))  # noqa: B023
        lines.append(f"{name:<{width}}" + "".join(f"  {mean(f'return_{label}'):10.1f}{'':11}" for label in labels))
    trained = result.get("trained_on", result["backend"])
    other = f"; trained on {trained}" if trained != result["backend"] else ""
    lines.append(f"({result['episodes']} episodes per member of {result.get('task', result['env'])} on "
                 f"{result['backend']}, seed {result['seed']}{other})")
    return "\n".join(line.rstrip() for line in lines)


_STATS = ("return_", "std_", "video")


def _swept(member: dict) -> str:
    """The member's grid values, "delta=0.1 eps0=0.5" ("" without a grid)."""
    return " ".join(f"{k}={v:g}" for k, v in member.items() if k != "seed" and not k.startswith(_STATS))


def _file_name(member: dict) -> str:
    """The member's grid values and seed as a file name: "delta=0.1_seed=0"."""
    return "_".join([*_swept(member).split(), f"seed={member['seed']}"])
