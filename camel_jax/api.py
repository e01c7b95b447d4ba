"""The Python API for notebooks and scripts: the same training as `camel-jax train`, with results as arrays.

    import camel_jax as cj
    result = cj.train(cj.Config(env="hopper", seeds=(0, 1, 2), total_steps=30_000), prior="hopper")
    result.metrics["episode_return"], result.evals["return_unmasked"], result.run_dir
    act = cj.load_actor(result.run_dir)      # the final deterministic actor of member 0, unmasked: obs -> action
    env = cj.make_env("hopper", "gymnasium")  # the env layer the trainer steps

A prior is a path, a task name (its LLM-written prior), "tuned:NAME" (a controller searched for in simulation),
"none"/"random"/"expert:RUN_DIR", or a Python callable
`policy(obs) -> act` (jittable; your own code, so it is traced, not sandboxed; its source is saved in prior.txt, and
the run cannot be resumed from the command line, which needs a prior file). `camel-jax eval` scores such a run
unmasked only; `evaluate_run(run_dir, prior=policy)` scores it masked as well.
"""

from __future__ import annotations

import csv
import dataclasses
import inspect
from collections.abc import Callable
from pathlib import Path

import numpy as np

from camel_jax.config import Config


@dataclasses.dataclass(frozen=True)
class Result:
    run_dir: Path
    metrics: dict[str, np.ndarray]  # metrics.csv, one array per column (rows: log steps x members)
    evals: dict[str, np.ndarray]  # eval.csv, likewise
    config: Config  # as run (the backend resolved)
    record: dict = dataclasses.field(default_factory=dict)  # config.json's record: prior_kind, prior_label, ...


def train(config: Config | None = None, prior: str | Path | Callable | None = None,
          callback: Callable[[int, dict], None] | None = None, **overrides) -> Result:
    """Train the run of `config` (default `Config()`, with `overrides` applied, e.g. `env="walker2d"`) and return its
    curves. `prior` replaces `config.prior` (see the module docstring); `callback(step, row)` gets every log row as it
    is written (row: metric name -> one value per member)."""
    from camel_jax import loop, runs
    from camel_jax.priors.baselines import ResolvedPrior

    config = dataclasses.replace(config or Config(), **overrides)
    resolved = None
    if callable(prior):
        resolved = ResolvedPrior(_callable_prior(prior, config.env), "callable", _source_of(prior))
        config = dataclasses.replace(config, prior=runs.CALLABLE_PRIOR + getattr(prior, "__name__", "policy"))
    elif prior is not None:
        config = dataclasses.replace(config, prior=str(prior))
    run_dir = loop.train(config, prior=resolved, on_log=callback)
    import json

    from camel_jax.config import RECORDED

    raw = json.loads((run_dir / "config.json").read_text())
    return Result(run_dir, read_csv(run_dir / "metrics.csv"), read_csv(run_dir / "eval.csv"),
                  Config.from_json(run_dir / "config.json"), {k: raw[k] for k in RECORDED if k in raw})


def read_csv(path: str | Path) -> dict[str, np.ndarray]:
    """A run CSV as {column: float array} (empty arrays when it has no rows); a text column (eval.csv's `backend`)
    as an array of strings."""
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        rows = list(reader)
    out = {}
    for c in reader.fieldnames or []:
        try:
            out[c] = np.array([float(r[c]) if r[c] != "" else np.nan for r in rows])
        except ValueError:
            out[c] = np.array([r[c] for r in rows])
    return out


def make_env(name: str = "hopper", backend: str = "gymnasium", num_envs: int = 1):
    """`num_envs` auto-resetting instances of task `name` (camel_jax.envs.make): reset(...) and step(state, action)."""
    from camel_jax import envs

    return envs.make(name, backend, num_envs)


def load_prior(prior: str | Path, env: str | None = None) -> Callable:
    """A prior file (validated in the sandbox first), a task name's LLM-written prior or `tuned:NAME`, as a jittable
    obs -> act. The task comes from `env` or the file's header."""
    from camel_jax.priors import loader

    path = loader.prior_path(prior)
    return loader.load_prior(path, loader.task_of(path, env))


def load_actor(run_dir: str | Path, member: int = 0) -> Callable:
    """The final deterministic actor of member `member` (seed order, then grid points) of a finished run, unmasked
    (the box is the whole action range): a jittable obs (obs_dim,) -> action (act_dim,)."""
    import jax
    import jax.numpy as jnp

    from camel_jax import runs, specs
    from camel_jax.networks import Actor

    config, params = runs.load_actor(Path(run_dir))
    if not 0 <= member < len(config.members()):
        raise ValueError(f"member {member} is not in {run_dir} ({len(config.members())} members: 0..."
                         f"{len(config.members()) - 1})")
    act_dim = specs.load(config.env).act_dim
    actor = Actor(act_dim, config.hidden, config.actor_sees_box)
    mine = jax.tree.map(lambda x: x[member], params)
    ones = jnp.ones(act_dim)
    return jax.jit(lambda obs: actor.apply(mine, obs, -ones, ones))


def evaluate_run(run_dir: str | Path, episodes: int = 10, backend: str = "gymnasium", seed: int = 0,
                 prior: Callable | None = None) -> dict:
    """`camel-jax eval RUN_DIR` from Python: every member's final deterministic actor for `episodes` episodes,
    unmasked and masked, written to RUN_DIR/eval_final.json and returned (one entry per member in "members"). For a
    run trained with a Python callable prior, pass the same callable as `prior` to get the masked scores too
    (without it they are skipped and "masked_skipped" says so)."""
    from camel_jax import final_eval

    if prior is not None and not callable(prior):
        raise ValueError(f"prior= takes the Python callable the run trained with, got {prior!r}; a run trained with "
                         "a prior file or baseline reloads it itself (leave prior= out)")
    result = final_eval.evaluate_run(run_dir, episodes, backend, seed, prior=prior)
    final_eval.write(run_dir, result)
    return result


def _callable_prior(fn: Callable, env: str) -> Callable:
    """`fn` after checking it maps one observation to one action of the task's shapes under jax tracing."""
    import jax
    import jax.numpy as jnp

    from camel_jax import specs

    spec = specs.load(env)
    try:
        out = jax.eval_shape(fn, jax.ShapeDtypeStruct((spec.obs_dim,), jnp.float32))
    except Exception as e:  # noqa: BLE001  (any tracing failure is the user's to fix; name it)
        raise ValueError(f"prior {fn!r} does not trace under jax ({type(e).__name__}: {e}); write it with jax.numpy "
                         "so that it is jittable") from None
    if getattr(out, "shape", None) != (spec.act_dim,):
        raise ValueError(f"prior {fn!r} returns shape {getattr(out, 'shape', type(out))} for one {env} observation; "
                         f"it must return ({spec.act_dim},)")
    return fn


def _source_of(fn: Callable) -> str:
    try:
        return inspect.getsource(fn)
    except (OSError, TypeError):
        return f"{fn!r} (source not available)\n"
