"""ULTRA's refinement: PPO continued from the base run (`PPOConfig.init_from`: seed k from the base run's k-th policy,
value net, observation statistics and reward normaliser's statistics) with an arm's lookup tables as the trainer's
guide.

Modes (the guide of `guide_for`; the table's `match` finds a state's entry by the table's own fixed normalisation,
and `table.bonus` pays the entry's rating of its suggested action times the closeness of the action taken to it):
  A     the suggested action replaces the sampled one where a state matches (no reward bonus; alpha recorded as 0);
  R     the reward learnt from is r_env + alpha * bonus (actions untouched: the bonus falls with the distance of the
        sampled action from the suggestion, `width` per actuator);
  RA    both (the suggestion is taken, so the bonus is its full rating);
  none  plain PPO continued for the same steps (no guide, no table): the no-LLM ablation.
Every mode but `none` reports its matches to the trainer, which counts them in metrics.csv (`matched`: matched env
steps per log row and seed) and on the console; a seed whose table never matched is named in a warning. The refined
run is a normal PPO run directory; RUN/ultra.json records the mode, the arm, its tables' taus and entries, the kernel
width, the matched steps per seed, and which providers identified and suggested.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import re
import sys
from pathlib import Path

import jax.numpy as jnp

from camel_jax.algos.ppo.config import PPOConfig
from camel_jax.algos.ppo.loss import OVERRIDE_LOSSES
from camel_jax.algos.ppo.trainer import Guide
from camel_jax.errors import SetupError
from camel_jax.ultra import results, table
from camel_jax.ultra.work import Work, load_tables, open_work, pick_arm

MODES = ("A", "R", "RA", "none")
ALPHA = 0.1  # the summary's MuJoCo weight of the implicit reward (0.5 on Pong)
OVERRIDE_LOSS = "sampled"  # an overriding suggestion is learnt from as if the policy had sampled it


GUIDE_LINE = re.compile(r"guide: ULTRA-(A|R|RA) \(reward width ([0-9.eE+-]+)\):")


def guide_for(mode: str, width: float = table.WIDTH) -> Guide:
    """The trainer's guide for `mode` ("A", "R" or "RA"); its state is (table, tau). `width`: the bonus's kernel
    width per actuator (`table.bonus`)."""
    if mode not in MODES[:3]:
        raise ValueError(f"mode '{mode}' has no guide; use one of {', '.join(MODES[:3])}")
    if not width > 0:
        raise SetupError(f"--reward-width must be positive, got {width}")

    def act(state, raw_obs):
        tbl, tau = state
        hit, action, _ = table.match(tbl, raw_obs, tau)
        return (hit if "A" in mode else jnp.zeros((), bool)), action, hit

    def reward(state, raw_obs, taken):
        tbl, tau = state
        return table.bonus(tbl, raw_obs, taken, tau, width) if "R" in mode else jnp.zeros(())

    return Guide(act, reward)


def guide_name(mode: str, width: float) -> str:
    """The start of prior.txt's guide line, which `resume` reads back (mode and width)."""
    return f"ULTRA-{mode} (reward width {width:g})"


def matched_per_seed(run_dir: str | Path) -> list[int]:
    """The matched steps of each seed (in the run's seed order) over the whole run, from its metrics.csv."""
    config = PPOConfig.from_json(Path(run_dir) / "config.json")
    totals = {str(s): 0 for s in config.seeds}
    path = Path(run_dir) / "metrics.csv"
    if path.is_file():
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                if row.get("seed") in totals and row.get("matched"):
                    totals[row["seed"]] += int(float(row["matched"]))
    return list(totals.values())


def warn_unmatched(run_dir: str | Path) -> list[int]:
    """Print a warning naming the seeds whose table matched no state in the whole run; returns the counts."""
    counts = matched_per_seed(run_dir)
    seeds = PPOConfig.from_json(Path(run_dir) / "config.json").seeds
    never = [str(s) for s, c in zip(seeds, counts, strict=True) if c == 0]
    if never:
        print(f"warning: {run_dir}: the table of seed(s) {', '.join(never)} matched no state: those seeds trained as "
              "plain PPO continued; rebuild the tables with a larger camel-jax ultra table --match-fraction, or "
              "check that the arm has entries", file=sys.stderr)
    return counts


def refine(work: Work, mode: str, steps: int, out: str, arm: str = "", alpha: float = ALPHA,
           override_loss: str = OVERRIDE_LOSS, backend: str = "", overwrite: bool = False,
           quiet: bool = False, width: float = table.WIDTH) -> Path:
    """Train the refined run (module docstring) for `steps` env steps per seed into `out`; returns its directory.
    The other settings are the base run's (`backend`: '' keeps the base run's)."""
    from camel_jax.algos.ppo.loop import train

    if mode not in MODES:
        raise SetupError(f"unknown refinement mode '{mode}'; use --mode with one of: {', '.join(MODES)}")
    if override_loss not in OVERRIDE_LOSSES:
        raise SetupError(f"unknown --override-loss '{override_loss}'; use one of: {', '.join(OVERRIDE_LOSSES)}")
    if not out:
        raise SetupError("--out RUN_DIR is required: the refined run's directory")
    base = PPOConfig.from_json(Path(work.run_dir) / "config.json")
    config = dataclasses.replace(base, init_from=work.run_dir, total_steps=steps, out=out, overwrite=overwrite,
                                 quiet=quiet, alpha=alpha if "R" in mode else 0.0, override_loss=override_loss,
                                 backend=backend or base.backend)
    about = {"mode": mode, "work": str(work.path), "base_run": work.run_dir, "alpha": config.alpha,
             "override_loss": override_loss}
    if mode == "none":
        config.check()
        run_dir = train(config, files={"ultra.json": json.dumps(about, indent=1) + "\n"})
    else:
        guide = guide_for(mode, width)
        arm = pick_arm(work, arm)
        tables, taus, built = load_tables(work, arm)
        config.check()  # before the run directory is made
        files = {f: str(work.arm_file(arm, 0, f).relative_to(work.path)).replace("seed_0", "seed_<k>")
                 for f in ("critical.json", "suggestions.json", "table.npz")}
        name = (f"{guide_name(mode, width)}: tables {work.path}/{files['table.npz']} (arm {arm}; entries per seed "
                f"{[b.entries for b in built]}, tau {[round(float(t), 4) for t in taus]})")
        about.update(arm=arm, files=files, entries=[b.entries for b in built], dropped=[b.dropped for b in built],
                     tau=[float(t) for t in taus], tau_fraction=built[0].tau_fraction, reward_width=width,
                     identified_by=results.provider(work.arm_file(arm, 0, "critical.json")),
                     suggested_by=results.provider(work.arm_file(arm, 0, "suggestions.json")))
        run_dir = train(config, guide=guide, guide_state=(tables, taus), guide_name=name,
                        files={"ultra.json": json.dumps(about, indent=1) + "\n"})  # a resume reads it
        about.update(matched=warn_unmatched(run_dir))
    results.write_atomic(Path(run_dir) / "ultra.json", json.dumps(about, indent=1) + "\n")
    return Path(run_dir)


def resume(run_dir: str | Path, quiet: bool | None = None, truncate: bool = False, total_steps: int = 0) -> Path:
    """Continue a killed refined run from its checkpoint: the tables are read again from the work directory named in
    ultra.json (written when the run was made), which gives the checkpoint's structure and, with no checkpoint yet,
    the guide's state (a checkpoint restores the state it saved), and the guide function is its mode's (read from
    prior.txt, `guide: ULTRA-<mode> (reward width <w>): ...`). Plain PPO runs go to ppo_loop.resume."""
    from camel_jax.algos.ppo import loop as ppo_loop

    run_dir = Path(run_dir)
    prior = (run_dir / "prior.txt").read_text() if (run_dir / "prior.txt").is_file() else ""
    guide = next((line for line in prior.splitlines() if line.startswith("guide: ")), None)
    if guide is None:
        return ppo_loop.resume(run_dir, quiet=quiet, truncate=truncate, total_steps=total_steps)
    if re.match(r"guide: ULTRA-(A|R|RA):", guide):
        raise SetupError(f"{run_dir} was refined under ULTRA's old reward rule (a constant bonus at matched states, "
                         "keys under moving statistics), which this camel-jax no longer has; refine again with "
                         "camel-jax ultra refine ... --overwrite")
    mode = GUIDE_LINE.match(guide)
    if mode is None:
        raise SetupError(f"{run_dir} was trained with a guide that is not ULTRA's ({guide[:80]}); resume it from "
                         "Python with camel_jax.algos.ppo.loop.resume(run_dir, guide=...)")
    about = run_dir / "ultra.json"
    if not about.is_file():
        raise SetupError(f"{run_dir} has no ultra.json to find its tables; start it again with camel-jax ultra refine "
                         "... --overwrite")
    about = json.loads(about.read_text())
    tables, taus, _ = load_tables(open_work(about["work"]), about["arm"])
    run_dir = ppo_loop.resume(run_dir, quiet=quiet, guide=guide_for(mode.group(1), float(mode.group(2))),
                              truncate=truncate, guide_state=(tables, taus), total_steps=total_steps)
    results.write_atomic(run_dir / "ultra.json", json.dumps({**about, "matched": warn_unmatched(run_dir)}, indent=1)
                         + "\n")
    return run_dir
