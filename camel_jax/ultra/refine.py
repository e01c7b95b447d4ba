"""ULTRA's refinement: PPO continued from the base run (`PPOConfig.init_from`: seed k from the base run's k-th policy,
value net and observation statistics) with an arm's lookup tables as the trainer's guide.

Modes (the guide of `guide_for`; the table's `match` gives hit, action and implicit reward for a state):
  A     the suggested action replaces the sampled one where a state matches (no reward bonus; alpha recorded as 0);
  R     the reward learnt from is r_env + alpha * implicit reward where a state matches (actions untouched);
  RA    both;
  none  plain PPO continued for the same steps (no guide, no table): the no-LLM ablation.
Every mode but `none` reports its matches to the trainer, which counts them in metrics.csv (`matched`: matched env
steps per log row and seed). The refined run is a normal PPO run directory; RUN/ultra.json records the mode, the
arm, its tables' taus and entries, and which providers identified and suggested.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import jax.numpy as jnp

from camel_jax.ppo import OVERRIDE_LOSSES
from camel_jax.ppo_config import PPOConfig
from camel_jax.priors.errors import SetupError
from camel_jax.ultra import results, table
from camel_jax.ultra.work import Work, load_tables, open_work, pick_arm

MODES = ("A", "R", "RA", "none")
ALPHA = 0.1  # the summary's MuJoCo weight of the implicit reward (0.5 on Pong)
OVERRIDE_LOSS = "sampled"  # an overriding suggestion is learnt from as if the policy had sampled it


def guide_for(mode: str):
    """The trainer's guide for `mode` ("A", "R" or "RA"); its state is (table, tau)."""
    if mode not in MODES[:3]:
        raise ValueError(f"mode '{mode}' has no guide; use one of {', '.join(MODES[:3])}")

    def guide(state, norm_obs):
        tbl, tau = state
        hit, action, bonus = table.match(tbl, norm_obs, tau)
        override = hit if "A" in mode else jnp.zeros((), bool)
        return override, action, bonus if "R" in mode else jnp.zeros(()), hit

    return guide


def refine(work: Work, mode: str, steps: int, out: str, arm: str = "", alpha: float = ALPHA,
           override_loss: str = OVERRIDE_LOSS, backend: str = "", overwrite: bool = False,
           quiet: bool = False) -> Path:
    """Train the refined run (module docstring) for `steps` env steps per seed into `out`; returns its directory.
    The other settings are the base run's (`backend`: '' keeps the base run's)."""
    from camel_jax.ppo_loop import train

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
        run_dir = train(config)
    else:
        arm = pick_arm(work, arm)
        tables, taus, built = load_tables(work, arm)
        config.check()  # before the run directory is made
        files = {f: str(work.arm_file(arm, 0, f).relative_to(work.path)).replace("seed_0", "seed_<k>")
                 for f in ("critical.json", "suggestions.json", "table.npz")}
        name = (f"ULTRA-{mode}: tables {work.path}/{files['table.npz']} (arm {arm}; entries per seed "
                f"{[b.entries for b in built]}, tau {[round(float(t), 4) for t in taus]})")
        run_dir = train(config, guide=guide_for(mode), guide_state=(tables, taus), guide_name=name)
        about.update(arm=arm, files=files, entries=[b.entries for b in built], dropped=[b.dropped for b in built],
                     tau=[float(t) for t in taus], tau_fraction=built[0].tau_fraction,
                     identified_by=results.provider(work.arm_file(arm, 0, "critical.json")),
                     suggested_by=results.provider(work.arm_file(arm, 0, "suggestions.json")))
    results.write_atomic(Path(run_dir) / "ultra.json", json.dumps(about, indent=1) + "\n")
    return Path(run_dir)


def resume(run_dir: str | Path, quiet: bool | None = None, truncate: bool = False) -> Path:
    """Continue a killed refined run from its checkpoint: the tables are in the checkpoint (with none yet, they are
    read again from the work directory named in ultra.json), and the guide function is its mode's (read from
    prior.txt, `guide: ULTRA-<mode>: ...`). Plain PPO runs go to ppo_loop.resume."""
    import re

    from camel_jax import ppo_loop

    run_dir = Path(run_dir)
    prior = (run_dir / "prior.txt").read_text() if (run_dir / "prior.txt").is_file() else ""
    guide = next((line for line in prior.splitlines() if line.startswith("guide: ")), None)
    if guide is None:
        return ppo_loop.resume(run_dir, quiet=quiet, truncate=truncate)
    mode = re.match(r"guide: ULTRA-(A|R|RA):", guide)
    if mode is None:
        raise SetupError(f"{run_dir} was trained with a guide that is not ULTRA's ({guide[:80]}); resume it from "
                         "Python with camel_jax.ppo_loop.resume(run_dir, guide=...)")
    state = None
    if not any((run_dir / "checkpoints").glob("*")):  # nothing restored: the tables come from the work directory
        about = run_dir / "ultra.json"
        if not about.is_file():
            raise SetupError(f"{run_dir} has no checkpoint and no ultra.json to find its tables; start it again with "
                             "camel-jax ultra refine ... --overwrite")
        about = json.loads(about.read_text())
        tables, taus, _ = load_tables(open_work(about["work"]), about["arm"])
        state = (tables, taus)
    return ppo_loop.resume(run_dir, quiet=quiet, guide=guide_for(mode.group(1)), truncate=truncate,
                           guide_state=state)
