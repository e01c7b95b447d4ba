"""`camel-jax eval RUN_DIR`: the final deterministic actor of every member of a finished run, N episodes unmasked
(the real score) and masked (a diagnostic), with the same initial states for both; written atomically to
RUN_DIR/eval_final.json.

The actor is RUN_DIR/actor.msgpack (written when a run finishes). The prior is the one the run trained with: for a
prior file, the copy saved in RUN_DIR/prior.txt (checked against its sha256), so an edited or moved file changes
nothing; `none`, `random` and `expert:RUN` are resolved as in training. Evaluation reuses camel_jax/core/evaluate.py.
A prior that cannot be reloaded from the run directory (a Python callable given to `camel_jax.train`, whose prior.txt
holds its source for reading only; an `expert:RUN` whose run has lost its actor) does not stop the evaluation: the
unmasked score needs no prior, so the run is scored unmasked only and the result's `masked_skipped` says why (the
command prints it as one line). From Python, `camel_jax.evaluate_run(RUN_DIR, prior=fn)` gives the callable back
and evaluates masked as well.

The backend is the run's own by default (`--backend auto`: config.json's, as `train` chose it), so a run is scored
on the task it learnt; `--backend gymnasium` or `mjx` chooses.

A PPO run (config.json with `algo` "ppo") is scored the same way through camel_jax/algos/ppo/eval.py: its deterministic
mean action on observations normalised with the run's statistics, unmasked only (PPO has no mask).

With `step` (`camel-jax eval RUN_DIR --step S`) the policy is the one of the run's checkpoint at env step S instead,
one of the kept ones (RUN_DIR/checkpoints/S/; the run need not have finished: a run stopped or killed mid-way is
evaluated at its checkpoints), and the result goes to RUN_DIR/eval_step_S.json (its `step` says which), never to
eval_final.json. The last checkpoint of a finished run holds its final actor, so it scores as eval_final.json does.

With `video`, each member's first unmasked evaluation episode is drawn as a GIF (camel_jax/render.py): the member's
greedy actor, unmasked, on gymnasium's C MuJoCo task from env seed `seed` (episode 0's initial state), into
`video/<member>.gif`; its path and return are kept in the member's entry (`video`, `video_return`). The videos come
from the gymnasium task also with `backend="mjx"`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

from camel_jax import algos, envs, render, specs
from camel_jax.core import evaluate
from camel_jax.core.runs import check_finished  # noqa: F401  (importable from here, as before)
from camel_jax.priors import select

RESULT = "eval_final.json"


def result_name(step: int | None = None) -> str:
    """The result file's name: eval_final.json, or eval_step_<step>.json for a checkpoint's policy."""
    return RESULT if step is None else f"eval_step_{step}.json"


def run_backend(run_dir: str | Path, backend: str) -> str:
    """`backend`, or for "auto" the backend the run trained on (its config.json's, as `train` resolved it), so that
    a run is scored on the task it learnt: Ant on MJX is not Ant-v4 (camel_jax/specs.py: task_label)."""
    if backend != "auto":
        return backend
    try:
        recorded = json.loads((Path(run_dir) / "config.json").read_text()).get("backend", "gymnasium")
    except (OSError, ValueError):
        return "gymnasium"  # no readable config: the plug-in names the missing file in its own words
    return recorded if recorded in envs.BACKENDS else "gymnasium"


def evaluate_run(run_dir: str | Path, episodes: int = 10, backend: str = "auto", seed: int = 0,
                 video: str | Path | None = None, prior: Callable | None = None, step: int | None = None) -> dict:
    """Per member: mean and std of the return over `episodes` episodes, unmasked and masked (and its video, see the
    module's docstring). `prior`: the jittable callable a run made with a Python callable prior trained with (None:
    the run's own prior; such a run is then scored unmasked only, with `masked_skipped` saying why). `step`: score
    the policy of the run's checkpoint at that env step instead of its final actor. `backend`: auto (the run's own,
    `run_backend`), gymnasium or mjx."""
    run_dir = Path(run_dir)
    backend = run_backend(run_dir, backend)
    if episodes < 1:
        raise ValueError(f"--episodes must be at least 1, got {episodes}")
    if backend not in envs.BACKENDS:
        raise ValueError(f"unknown backend '{backend}'; use --backend auto, gymnasium or mjx")
    # the algorithm's final policy of every member (or its checkpoint's), and the modes it is scored in (label -> flag)
    plugin = algos.of_run(run_dir)
    if step is None:
        config, tr, learner, flags, about = plugin.load_policy(run_dir, prior)
    else:
        config, tr, learner, flags, about = plugin.load_policy(run_dir, prior, step=step)
        about = {**about, "step": step}
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


def member_video(tr, learner, member: int, env_name: str, seed: int, path: Path) -> tuple[Path, float]:
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
    """RUN_DIR/eval_final.json (eval_step_S.json for a result with a `step`), written to a temporary file first and
    renamed (never half-written)."""
    path = Path(run_dir) / result_name(result.get("step"))
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
    policy = f"the checkpoint at env step {result['step']}, " if result.get("step") is not None else ""
    lines.append(f"({policy}{result['episodes']} episodes per member of {result.get('task', result['env'])} on "
                 f"{result['backend']}, seed {result['seed']}{other})")
    return "\n".join(line.rstrip() for line in lines)


_STATS = ("return_", "std_", "video")


def _swept(member: dict) -> str:
    """The member's grid values, "delta=0.1 eps0=0.5" ("" without a grid)."""
    return " ".join(f"{k}={v:g}" for k, v in member.items() if k != "seed" and not k.startswith(_STATS))


def _file_name(member: dict) -> str:
    """The member's grid values and seed as a file name: "delta=0.1_seed=0"."""
    return "_".join([*_swept(member).split(), f"seed={member['seed']}"])
