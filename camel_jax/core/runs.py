"""Run directories: the resolved config, the prior's source and hash, metrics and evaluation CSVs, final actor.

Layout of RUN_DIR:
  config.json      the full resolved Config, and what the prior was and cost and the task as results name it
                   (config.RECORDED: prior_kind, prior_label, prior_search_env_steps, task_label)
  versions.json    what made the run: command line, packages, Python, platform, devices, git commit (provenance.py)
  prior.txt        the prior's source (or a description of the baseline) and its sha256 on the first line
  metrics.csv      one row per log step per seed
  eval.csv         one row per evaluation per seed (unmasked and masked), with the backend it ran on
  actor.msgpack    final actor parameters of every seed (leading axis: seed)
  checkpoints/     the complete training state every `checkpoint_every` env steps, the last K (camel_jax/core/checkpoint.py)
  eval_final.json  `camel-jax eval RUN_DIR`: every member's final actor scored (camel_jax/final_eval.py)
  eval_step_S.json `camel-jax eval RUN_DIR --step S`: the same for the policy of the checkpoint at env step S
"""

from __future__ import annotations

import csv
import dataclasses
import json
import shutil
import time
from pathlib import Path

from flax import serialization

from camel_jax import algos
from camel_jax.core import checkpoint, provenance

# metrics.csv's columns are each algorithm's (its plug-in's METRIC_FIELDS); eval.csv's are the same for all
EVAL_FIELDS = ("step", "seed", "return_unmasked", "std_unmasked", "return_masked", "std_masked", "wall_s", "backend")
# config.prior of a run trained through camel_jax.train with a Python callable (api.py): "callable:<its name>". Only
# its source is kept (prior.txt, for reading), so eval scores it unmasked only and resume refuses it.
CALLABLE_PRIOR = "callable:"


def fields(base: tuple[str, ...], config) -> tuple[str, ...]:
    """CSV columns: step, seed, the swept hyperparameters of `--grid` (if any), then `base`'s other columns."""
    return ("step", "seed", *config.grid_values(), *[f for f in base if f not in ("step", "seed")])


def read_config(run_dir: Path, command: str, cls=None):
    """A run directory's config (`cls`: the config class to read it as; None: its algorithm's, from its `algo`);
    FileNotFoundError / ValueError with one line naming the fix for `command`."""
    if not (run_dir / "config.json").is_file():
        raise FileNotFoundError(f"{run_dir} has no config.json; point {command} at a run directory made by "
                                "camel-jax train")
    cls = cls or algos.of_run(run_dir).Config
    try:
        return cls.from_json(run_dir / "config.json")
    except (ValueError, TypeError, KeyError) as e:
        raise ValueError(f"{run_dir / 'config.json'} is not a camel-jax config ({e}); restore it or start over") from None


def default_dir(config, record: dict | None = None) -> Path:
    """runs/<task>_<backend>_<prior>_<time>: the task as results name it (ant on MJX: ant-mjx-contacts) and the
    prior with its kind (llm-hopper, tuned-hopper, none, random, expert-td3, ...)."""
    record = record or {}
    task = slug(record.get("task_label") or config.env)
    kind = record.get("prior_kind", "")
    name = Path(config.prior.split(":", 1)[-1]).stem
    prior = config.prior if config.prior in ("none", "random") else "-".join(p for p in (kind, name) if p)
    return Path("runs") / f"{task}_{config.backend}_{slug(prior)}_{time.strftime('%Y%m%d-%H%M%S')}"


def slug(text: str) -> str:
    """'ant (MJX contacts)' -> 'ant-mjx-contacts': lower case, runs of other characters as one '-'."""
    return "-".join("".join(c if c.isalnum() or c == "_" else " " for c in text.lower()).split())


def create(config, prior_source: str, prior_sha: str, metric_fields: tuple[str, ...] | None = None,
           eval_fields: tuple[str, ...] = EVAL_FIELDS, record: dict | None = None) -> Path:
    """Make the run directory (refusing an existing one unless `overwrite`) and write config and prior. `config`: an
    algorithm's config (a frozen dataclass with `algo`, `out`, `overwrite` and `to_json`); `metric_fields`: None for
    its algorithm's columns.
    `record`: what config.json records beside the settings (config.RECORDED: the prior's kind, label and search
    cost, the task label)."""
    metric_fields = metric_fields or algos.of_config(config).METRIC_FIELDS
    run_dir = Path(config.out) if config.out else default_dir(config, record)
    if run_dir.exists():
        if not (config.overwrite or never_trained(run_dir)):
            raise FileExistsError(f"run directory {run_dir} exists; pass --overwrite or choose another --out")
        shutil.rmtree(run_dir)
    run_dir.mkdir(parents=True)
    provenance.record(run_dir)  # versions.json: command, packages, Python, platform, devices, git commit
    settings = json.loads(dataclasses.replace(config, out=str(run_dir)).to_json())
    (run_dir / "config.json").write_text(json.dumps({**settings, **(record or {})}, indent=2))
    (run_dir / "prior.txt").write_text(f"# sha256: {prior_sha}\n{prior_source}")
    for name, base in (("metrics.csv", metric_fields), ("eval.csv", eval_fields)):
        with open(run_dir / name, "w", newline="") as f:
            csv.writer(f).writerow(fields(base, config))
    return run_dir


def append(run_dir: Path, name: str, fields: tuple[str, ...], rows: list[dict]) -> None:
    """Append `rows` under the file's own header when it has one (a run resumed from an older version keeps its
    columns: a new column is left out rather than shifting the others), else under `fields`."""
    path = run_dir / name
    header = None
    if path.is_file():
        with open(path, newline="") as f:
            header = next(csv.reader(f), None)
    with open(path, "a", newline="") as f:
        w = csv.DictWriter(f, header or fields, extrasaction="ignore")
        for row in rows:
            w.writerow({k: _fmt(row.get(k, "")) for k in w.fieldnames})


def last_logged_step(run_dir: Path) -> int:
    """The largest env step in the run's metrics.csv and eval.csv (0 when they hold no rows)."""
    steps = [0]
    for name in ("metrics.csv", "eval.csv"):
        if (run_dir / name).is_file():
            with open(run_dir / name, newline="") as f:
                steps += [int(r[0]) for r in list(csv.reader(f))[1:] if r]
    return max(steps)


def nonfinite_at(run_dir: Path, step: int, members: int) -> list[int]:
    """Per member, the cumulative count of non-finite env steps that metrics.csv logged at env step `step` (a
    checkpoint's step is always a log step); zeros where the file has no such rows (step 0)."""
    with open(run_dir / "metrics.csv", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["step"] and int(r["step"]) == step]
    if len(rows) != members:
        return [0] * members
    return [int(float(r["nonfinite"] or 0)) for r in rows]


def never_trained(run_dir: Path) -> bool:
    """Whether `run_dir` is a run directory that was stopped (or killed) before its first training step: a
    config.json but no logged row, no checkpoint and no actor. Such a directory holds nothing, and a new run with the
    same --out replaces it."""
    return ((run_dir / "config.json").is_file() and not (run_dir / "actor.msgpack").exists()
            and not has_checkpoint(run_dir) and last_logged_step(run_dir) == 0)


def has_checkpoint(run_dir: Path) -> bool:
    """Whether RUN_DIR/checkpoints/ holds a saved step."""
    checkpoints = Path(run_dir) / "checkpoints"
    return checkpoints.is_dir() and any(p.name.isdigit() for p in checkpoints.iterdir())


def check_resumable(run_dir: Path, total_steps: int) -> None:
    """ValueError (one line) when the run has logged all `total_steps` and there is nothing left to do: it has its
    actor, or it has no checkpoint to write one from (a run killed after its final checkpoint but before writing
    actor.msgpack is resumable: it only writes the actor)."""
    last = last_logged_step(run_dir)
    if last >= total_steps and ((run_dir / "actor.msgpack").is_file() or not has_checkpoint(run_dir)):
        raise ValueError(f"{run_dir} has finished ({last} of {total_steps} env steps logged); there is nothing to "
                         f"resume (camel-jax eval {run_dir} scores its actor; train --config {run_dir}/config.json "
                         "--out NEW_DIR repeats it)")


def extend(run_dir: Path, config, total_steps: int):
    """`resume --total-steps N`: the run's config with `total_steps` N, written into its config.json (the recorded
    fields kept) so that the run states what it trains to; ValueError (one line) when N is below what it logged."""
    last = last_logged_step(run_dir)
    if total_steps < max(last, 1):
        raise ValueError(f"--total-steps {total_steps} is below the {last:,} env steps {run_dir} has logged; give a "
                         "larger total to extend it")
    config = dataclasses.replace(config, total_steps=total_steps)
    config.check()
    raw = json.loads((run_dir / "config.json").read_text())
    tmp = run_dir / "config.json.tmp"
    tmp.write_text(json.dumps({**raw, "total_steps": total_steps}, indent=2))
    tmp.replace(run_dir / "config.json")
    return config


def truncate(run_dir: Path, step: int, allow: bool = False) -> None:
    """Drop the CSV rows after env step `step` (a resume continues from there), each file replaced atomically.
    Unless `allow`, rows after `step` are an error instead: a resume never silently cuts a run's logged results."""
    last = last_logged_step(run_dir)
    if last > step and not allow:
        if step == 0 and not has_checkpoint(run_dir):  # stopped before its first checkpoint was written
            raise ValueError(f"{run_dir} has logged rows up to step {last} but no checkpoint (it was stopped before "
                             "its first one was written); resuming would start it again from step 0 and drop its "
                             "rows: pass --truncate to do that, or train it again with --overwrite")
        raise ValueError(f"{run_dir} has logged rows up to step {last} but its last checkpoint is at step {step}; "
                         f"resuming would drop the rows after step {step}: copy the run first, then pass --truncate "
                         "to continue from the checkpoint")
    for name in ("metrics.csv", "eval.csv"):
        path = run_dir / name
        with open(path, newline="") as f:
            rows = list(csv.reader(f))
        keep = rows[:1] + [r for r in rows[1:] if r and int(r[0]) <= step]
        tmp = path.with_suffix(".csv.tmp")
        with open(tmp, "w", newline="") as f:
            csv.writer(f).writerows(keep)
        tmp.replace(path)


def _fmt(v):
    return f"{v:.6g}" if isinstance(v, float) else v


def save_actor(run_dir: Path, actor_params) -> None:
    tmp = run_dir / "actor.msgpack.tmp"
    tmp.write_bytes(serialization.to_bytes(actor_params))
    tmp.replace(run_dir / "actor.msgpack")  # atomic: never a half-written file under the final name


def check_finished(run_dir: Path, cls=None, command: str = "eval"):
    """The run's config (`cls`: its config class; None: its algorithm's); FileNotFoundError / ValueError with one
    line naming the fix if it is not a finished run."""
    _check_dir(run_dir, command)
    config = read_config(run_dir, command, cls)
    if not (run_dir / "actor.msgpack").is_file():
        last = last_logged_step(run_dir)
        if last >= config.total_steps and not has_checkpoint(run_dir):
            raise FileNotFoundError(f"{run_dir} finished ({last} of {config.total_steps} env steps logged) but has no "
                                    "actor.msgpack (it was not kept or not committed), so there is no actor to "
                                    f"evaluate; its CSVs hold its results. To get one, repeat the run: camel-jax train "
                                    f"--config {run_dir}/config.json --out NEW_DIR")
        kept = checkpoint.kept_steps(run_dir) if command == "eval" else []
        also = f", or evaluate a kept checkpoint with --step S (S: {', '.join(map(str, kept))})" if kept else ""
        raise FileNotFoundError(f"{run_dir} has no actor.msgpack: the run has not finished writing it ({last} of "
                                f"{config.total_steps} env steps logged); resume it first (camel-jax resume {run_dir})"
                                + also)
    return config


def check_checkpoint(run_dir: Path, step: int, cls=None, command: str = "eval"):
    """The run's config, for the policy of its checkpoint at env step `step` (`camel-jax eval --step`; the run need
    not have finished); FileNotFoundError / ValueError with one line naming the fix when there is no such
    checkpoint (the line lists the kept ones)."""
    _check_dir(run_dir, command)
    config = read_config(run_dir, command, cls)
    kept = checkpoint.kept_steps(run_dir)
    if not kept:
        fix = ("leave out --step to evaluate its final actor" if (run_dir / "actor.msgpack").is_file() else
               f"nothing to evaluate before it trains again (camel-jax resume {run_dir})")
        raise FileNotFoundError(f"{run_dir} has no checkpoints; {fix}")
    if step not in kept:
        raise ValueError(f"{run_dir} has no checkpoint at env step {step}; pass --step with one of its kept "
                         f"checkpoints: {', '.join(map(str, kept))}")
    return config


def _check_dir(run_dir: Path, command: str) -> None:
    if not run_dir.is_dir():
        what = "is not a directory" if run_dir.exists() else "does not exist"
        raise FileNotFoundError(f"{run_dir} {what}; point {command} at a run directory made by camel-jax train")
