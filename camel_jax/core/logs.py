"""Logging sinks beside the CSVs: TensorBoard event files and, with `--wandb`, Weights & Biases.

Each sink gets the per-member rows that `Progress` writes to metrics.csv / eval.csv and logs their finite scalars
(NaN means nothing happened in that window: no episode ended, no update yet):
  TensorBoard  RUN_DIR/tb/<member>/ (one writer per member, e.g. tb/seed0, tb/delta0.1_seed0), tags train/... and
               eval/...; a resumed run purges the points after its checkpoint (tensorboardX `purge_step`).
  W&B          one wandb run per member, grouped by run directory (ids in RUN_DIR/wandb_ids.json, so a resume continues
               them), each with the config, its member and the same scalars under the same tags.
"""

from __future__ import annotations

import dataclasses
import json
import math
import secrets
import time
from pathlib import Path

TRAIN_KEYS = ("episode_return", "episode_length", "epsilon", "masked_frac", "critic_loss", "actor_loss", "q1",
              "steps_per_s", "pg_loss", "v_loss", "entropy", "approx_kl", "clipfrac", "explained_variance",
              "learning_rate", "override_frac", "bonus_mean")  # the last nine: PPO's (absent keys are skipped)
EVAL_KEYS = ("return_unmasked", "return_masked")
KEYS = {"train": TRAIN_KEYS, "eval": EVAL_KEYS}


def member_name(member: dict) -> str:
    """{"seed": 0} -> "seed0"; {"seed": 0, "delta": 0.1} -> "delta0.1_seed0" (swept values first, then the seed)."""
    return "_".join([f"{k}{v:g}" for k, v in member.items() if k != "seed"] + [f"seed{member['seed']}"])


def scalars(section: str, row: dict) -> dict[str, float]:
    """The finite scalars of one CSV row of `section` ("train" or "eval") under their tags, e.g. train/q1."""
    out = {}
    for key in KEYS[section]:
        value = row.get(key)
        if value is not None and math.isfinite(float(value)):
            out[f"{section}/{key}"] = float(value)
    return out


class TensorBoard:
    """One tensorboardX SummaryWriter per member under RUN_DIR/tb/; flushed at every log step."""

    def __init__(self, run_dir: Path, members: list[dict], start_step: int):
        from tensorboardX import SummaryWriter

        # purge_step: TensorBoard hides the points of earlier event files at steps >= start_step + 1, i.e. the ones
        # logged after the checkpoint a resume starts from (the CSVs are cut back the same way). File names carry
        # only whole seconds: the nanosecond suffix keeps a quick resume from overwriting the previous file and
        # keeps the names in chronological order (TensorBoard reads them sorted by name).
        suffix = f".{time.time_ns()}"
        self.writers = [SummaryWriter(str(Path(run_dir) / "tb" / member_name(m)), purge_step=start_step + 1,
                                      filename_suffix=suffix) for m in members]

    def log(self, step: int, section: str, rows: list[dict]) -> None:
        for writer, row in zip(self.writers, rows, strict=True):
            for tag, value in scalars(section, row).items():
                writer.add_scalar(tag, value, step)
            writer.flush()

    def close(self) -> None:
        for writer in self.writers:
            writer.close()


class WandB:
    """One Weights & Biases run per member (seed, grid point), all in one group named after the run directory, so
    W&B's grouped view draws the seeds as one curve with a band; tags: task, backend and prior kind (llm, tuned, ...);
config: config.json, its record included. The ids are kept
    in RUN_DIR/wandb_ids.json, so a resume continues every member's run."""

    def __init__(self, config, run_dir: Path, members: list[dict]):
        import wandb

        run_dir = Path(run_dir)
        id_file = run_dir / "wandb_ids.json"
        ids = json.loads(id_file.read_text()) if id_file.is_file() else {}
        names = [member_name(m) for m in members]
        for name in names:
            ids.setdefault(name, secrets.token_hex(4))  # wandb ids: lowercase letters and digits
        id_file.write_text(json.dumps(ids, indent=1) + "\n")
        # config.json: the settings and the record (the prior's kind, label and search cost, the task label)
        saved = run_dir / "config.json"
        settings = json.loads(saved.read_text()) if saved.is_file() else dataclasses.asdict(config)
        prior = settings.get("prior_kind") or getattr(config, "prior", "none").split(":", 1)[0]
        tags = [settings.get("task_label") or config.env, config.backend, f"prior:{prior}",
                f"algo:{config.algo}"]
        self.runs = [wandb.init(project=config.wandb_project, entity=getattr(config, "wandb_entity", "") or None,
                                group=run_dir.name, name=f"{run_dir.name}/{name}", id=ids[name], tags=tags,
                                resume="allow", dir=str(run_dir), config={**settings, "member": member},
                                reinit="create_new")
                     for name, member in zip(names, members)]

    def log(self, step: int, section: str, rows: list[dict]) -> None:
        for run, row in zip(self.runs, rows, strict=True):
            run.log(scalars(section, row), step=step)

    def close(self) -> None:
        for run in self.runs:
            run.finish()


def open_sinks(config, run_dir: Path, start_step: int) -> list:
    """TensorBoard always; W&B when `config.wandb` (Config.check has made sure the package is there)."""
    members = config.members()
    sinks = [TensorBoard(run_dir, members, start_step)]
    if config.wandb:
        sinks.append(WandB(config, run_dir, members))
    return sinks
