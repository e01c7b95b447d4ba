"""Resolving `--prior`: a prior file, or one of the paper's baselines as a plain function.

- `none`: no prior, plain TD3 (the box is always [-1, 1]).
- `random`: random masking. The box centre is a fixed pseudo-random function of the observation (a random
  projection passed through sin), roughly uniform in [-1, 1] and unrelated to the task. Being a function of the
  state, the box recomputed at update time is the one the agent acted in.
- `expert:RUN_DIR`: a trained actor from a finished run, evaluated unmasked, as the prior: the member (seed) with
  the best unmasked evaluation return at the run's last evaluation (the first member if the run has no eval.csv).
  TD3's seeds differ a lot at a short budget, and the paper's expert is a good actor, not an arbitrary one.
- `tuned:NAME`: a controller found or tuned in simulation, priors/tuned/NAME.py (not an LLM's).
- a task name: that task's default prior, the LLM-written answer `priors select` chose (priors/llm/TASK/selected.py).
- any other value: a prior file, validated in the sandbox before it runs.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

from camel_jax import specs

Prior = Callable[[jax.Array], jax.Array]  # obs (obs_dim,) -> act (act_dim,)


@dataclasses.dataclass(frozen=True)
class ResolvedPrior:
    fn: Prior | None
    kind: str  # "none" | "random" | "expert" | "file"
    source: str  # text saved with the run (the prior's source, or a description)

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.source.encode()).hexdigest()


def resolve(prior: str, env_name: str) -> ResolvedPrior:
    spec = specs.load(env_name)
    if prior == "none":
        return ResolvedPrior(None, "none", "none: plain TD3, no prior\n")
    if prior == "random":
        return ResolvedPrior(random_prior(spec.obs_dim, spec.act_dim), "random",
                             "random: box centre = sin(W @ obs * 10 + b), W, b fixed from seed 0\n")
    if prior.startswith("expert:"):
        run_dir = Path(prior.split(":", 1)[1])
        fn, member, why = expert_prior(run_dir, env_name)
        return ResolvedPrior(fn, "expert", f"expert: actor of run {run_dir}, member {member} ({why})\n")
    from camel_jax.priors.loader import TUNED, load_prior, parse_header, prior_path, tuned_names

    path = prior_path(prior)
    if prior.startswith(TUNED):
        task = parse_header(path.read_text()).get("task")
        if not specs.compatible(task, env_name):
            mine = [TUNED + n for n in tuned_names() if parse_header(prior_path(TUNED + n).read_text()).get("task")
                    == env_name]
            raise ValueError(f"--prior {prior} is a controller for {task}, not {env_name}; use "
                             f"{' or '.join(mine) or 'a prior file written for ' + env_name}")
    elif path != Path(prior) and not specs.compatible(prior, env_name):  # a shipped prior by task name, for another
        raise ValueError(f"--prior {prior} is the LLM-written prior of {prior}, not of {env_name}; use --prior "
                         f"{env_name} or a prior file written for {env_name}")
    return ResolvedPrior(load_prior(path, env_name), "file", path.read_text())


def random_prior(obs_dim: int, act_dim: int, seed: int = 0) -> Prior:
    rng = np.random.default_rng(seed)
    w = jnp.asarray(rng.normal(size=(act_dim, obs_dim)), jnp.float32)
    b = jnp.asarray(rng.uniform(-np.pi, np.pi, size=act_dim), jnp.float32)
    return lambda obs: jnp.sin(10.0 * (w @ obs) + b)


def best_member(run_dir: Path) -> tuple[int, str]:
    """(member index, reason): the member with the highest unmasked eval return at the run's last evaluation."""
    import csv

    path = Path(run_dir) / "eval.csv"
    rows = []
    if path.is_file():
        with path.open() as f:
            rows = list(csv.DictReader(f))
    if not rows:
        return 0, "first member: the run has no evaluations"
    last = max(int(r["step"]) for r in rows)
    final = [r for r in rows if int(r["step"]) == last]  # one row per member, in member order
    i = max(range(len(final)), key=lambda k: float(final[k]["return_unmasked"]))
    return i, f"best unmasked eval return at step {last}: {float(final[i]['return_unmasked']):.1f}"


def expert_prior(run_dir: Path, env_name: str) -> tuple[Prior, int, str]:
    """(prior, member index, why that member) from a finished run's actor."""
    from camel_jax.algos.td3.actor import load_actor

    config, actor_params = load_actor(run_dir)
    if config.env != env_name:
        raise ValueError(f"expert run {run_dir} trained on '{config.env}', not '{env_name}'; pick a run of this task")
    member, why = best_member(run_dir)
    params = jax.tree.map(lambda x: x[member], actor_params)
    from camel_jax.algos.td3.networks import Actor

    actor = Actor(specs.load(env_name).act_dim, config.hidden, config.actor_sees_box)
    ones = jnp.ones(specs.load(env_name).act_dim)
    return (lambda obs: actor.apply(params, obs, -ones, ones)), member, why


def callable_prior(fn: Callable, env: str) -> Callable:
    """`fn` after checking it maps one observation to one action of the task's shapes under jax tracing."""
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


def source_of(fn: Callable) -> str:
    import inspect

    try:
        return inspect.getsource(fn)
    except (OSError, TypeError):
        return f"{fn!r} (source not available)\n"
