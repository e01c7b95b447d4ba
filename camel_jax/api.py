"""The Python API for notebooks and scripts: the same training as `camel-jax train`, with results as arrays.

    import camel_jax as cj
    result = cj.train(cj.Config(env="hopper", seeds=(0, 1, 2), total_steps=30_000), prior="hopper")
    curves = result.curves("episode_return")  # .values: members x log steps; .steps; .members (seed, swept values)
    result.curves("return_unmasked", csv="eval"), result.run_dir
    ppo = cj.train(cj.PPOConfig(env="hopper", seeds=(0, 1)))  # PPO: the same API
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
from collections.abc import Callable
from pathlib import Path

import numpy as np

from camel_jax.algos.td3.config import Config


@dataclasses.dataclass(frozen=True)
class Curves:
    """One column of a run's CSV per member: `values[m, t]` is member m's value at `steps[t]` (NaN where it has no
    row there); `members[m]` is its seed and swept values ({"seed": 0, "delta": 0.1})."""

    column: str
    members: list[dict]
    steps: np.ndarray  # (log steps,)
    values: np.ndarray  # (members, log steps)

    @property
    def seeds(self) -> np.ndarray:
        return np.array([m["seed"] for m in self.members])


@dataclasses.dataclass(frozen=True)
class Result:
    run_dir: Path
    metrics: dict[str, np.ndarray]  # metrics.csv, one array per column (rows: log steps x members, flat)
    evals: dict[str, np.ndarray]  # eval.csv, likewise
    config: object  # as run (the backend resolved): a Config (TD3) or a PPOConfig
    record: dict = dataclasses.field(default_factory=dict)  # config.json's record: prior_kind, prior_label, ...

    def curves(self, column: str, csv: str = "metrics") -> Curves:
        """`column` of metrics.csv (csv="metrics") or eval.csv (csv="eval") as members x log steps, in the run's
        member order; KeyError naming the columns when it has no such column."""
        table = {"metrics": self.metrics, "eval": self.evals}[csv]
        if column not in table:
            raise KeyError(f"{csv}.csv has no column '{column}'; it has: {', '.join(table)}")
        return member_curves(table, column, self.config.members())


def member_curves(table: dict[str, np.ndarray], column: str, members: list[dict]) -> Curves:
    """Unflatten a CSV column (rows: log steps x members) into members x log steps, matching each row to its member
    by the member's seed and swept values."""
    steps = np.unique(table["step"]) if len(table.get("step", ())) else np.zeros(0)
    values = np.full((len(members), len(steps)), np.nan)
    for i, member in enumerate(members):
        mine = np.ones(len(table["step"]), bool)
        for k, v in member.items():
            mine &= np.isclose(table[k].astype(float), float(v))
        values[i, np.searchsorted(steps, table["step"][mine])] = table[column][mine]
    return Curves(column, [dict(m) for m in members], steps, values)


def train(config=None, prior: str | Path | Callable | None = None,
          callback: Callable[[int, dict], None] | None = None, **overrides) -> Result:
    """Train the run of `config` (default `Config()`, TD3; a `PPOConfig` trains PPO; with `overrides` applied, e.g.
    `env="walker2d"`) and return its curves (`result.curves("episode_return")`: members x log steps). `prior`
    replaces a TD3 config's `prior` (see the module docstring); `callback(step, row)` gets every log row as it is
    written (row: metric name -> one value per member)."""
    import json

    from camel_jax import algos
    from camel_jax.core.config import RECORDED

    config = dataclasses.replace(config or Config(), **overrides)
    plugin = algos.of_config(config)
    options = {} if callback is None else {"on_log": callback}
    if prior is not None:
        if not hasattr(plugin, "with_prior"):
            raise ValueError(f"{config.algo} takes no prior; leave prior= out (priors mask TD3's actions: CAMEL)")
        config, options["prior"] = plugin.with_prior(config, prior)
    run_dir = plugin.train(config, **options)
    raw = json.loads((run_dir / "config.json").read_text())
    return Result(run_dir, read_csv(run_dir / "metrics.csv"), read_csv(run_dir / "eval.csv"),
                  plugin.Config.from_json(run_dir / "config.json"), {k: raw[k] for k in RECORDED if k in raw})


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

    from camel_jax import specs
    from camel_jax.algos.td3.actor import load_actor as load_td3_actor
    from camel_jax.algos.td3.networks import Actor

    config, params = load_td3_actor(Path(run_dir))
    if not 0 <= member < len(config.members()):
        raise ValueError(f"member {member} is not in {run_dir} ({len(config.members())} members: 0..."
                         f"{len(config.members()) - 1})")
    act_dim = specs.load(config.env).act_dim
    actor = Actor(act_dim, config.hidden, config.actor_sees_box)
    mine = jax.tree.map(lambda x: x[member], params)
    ones = jnp.ones(act_dim)
    return jax.jit(lambda obs: actor.apply(mine, obs, -ones, ones))


def evaluate_run(run_dir: str | Path, episodes: int = 10, backend: str = "auto", seed: int = 0,
                 prior: Callable | None = None, step: int | None = None) -> dict:
    """`camel-jax eval RUN_DIR` from Python: every member's final deterministic actor for `episodes` episodes,
    unmasked and masked, written to RUN_DIR/eval_final.json and returned (one entry per member in "members"). For a
    run trained with a Python callable prior, pass the same callable as `prior` to get the masked scores too
    (without it they are skipped and "masked_skipped" says so). `step`: the policy of the kept checkpoint at that
    env step instead (`--step`), written to RUN_DIR/eval_step_<step>.json."""
    from camel_jax import final_eval

    if prior is not None and not callable(prior):
        raise ValueError(f"prior= takes the Python callable the run trained with, got {prior!r}; a run trained with "
                         "a prior file or baseline reloads it itself (leave prior= out)")
    result = final_eval.evaluate_run(run_dir, episodes, backend, seed, prior=prior, step=step)
    final_eval.write(run_dir, result)
    return result
