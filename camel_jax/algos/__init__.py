"""The algorithm registry: the one place that maps an algorithm's name to its code.

Each algorithm lives in a folder of its own (camel_jax/algos/<name>/) whose `algorithm` module is its plug-in for
the run shell (the command line, camel_jax.core, the notebook API). The plug-in module provides:

    NAME            the name (config.json's `algo`, `camel-jax train --algo NAME`)
    ABOUT           one line for the command line's help
    Config          its frozen config dataclass (with an `algo` field fixed to NAME; the CLI is generated from it)
    METRIC_FIELDS   the columns of its metrics.csv
    EVAL_MODES      the evaluation modes it scores ({"unmasked": 0.0, ...}: label -> flag given to the evaluator)
    train(config, **options) -> run_dir          train a new run (or continue one: resume_dir=)
    resume(run_dir, quiet=None, truncate=False)  continue a run from its latest checkpoint
    load_policy(run_dir, prior=None, command="eval", step=None) -> (config, trainer, learner, modes, about)
                    the final policy of every member of a finished run, for `camel-jax eval`; with `step`, the
                    policy of the run's checkpoint at that env step (`eval --step`; finished or not:
                    runs.check_checkpoint, checkpoint.load_leading)

The registry imports no algorithm: a plug-in is imported on first use (`get`), so the shell knows only this
interface. A new algorithm is one folder plus one `register(...)` line below (see docs/contributing.md).
"""

from __future__ import annotations

import dataclasses
import importlib
import json
from pathlib import Path
from types import ModuleType


@dataclasses.dataclass(frozen=True)
class Algorithm:
    name: str
    about: str
    module: str  # its plug-in module, imported on first use

    def plugin(self) -> ModuleType:
        return importlib.import_module(self.module)


REGISTRY: dict[str, Algorithm] = {}
DEFAULT = "td3"
LEGACY = "td3"  # config.json written before runs stated their `algo` (TD3's, until #25)


def register(name: str, about: str, module: str) -> None:
    """Add an algorithm: `module` is its plug-in (the module docstring lists what it provides)."""
    if name in REGISTRY:
        raise ValueError(f"algorithm '{name}' is already registered")
    REGISTRY[name] = Algorithm(name, about, module)


register("td3", "masking-aware TD3 (CAMEL; plain TD3 with --prior none)", "camel_jax.algos.td3.algorithm")
register("ppo", "PPO (CleanRL's defaults; refined by ULTRA with camel-jax ultra)", "camel_jax.algos.ppo.algorithm")


def names() -> tuple[str, ...]:
    return tuple(REGISTRY)


def get(name: str) -> ModuleType:
    """The plug-in module of algorithm `name`; ValueError naming the choices when there is none."""
    if name not in REGISTRY:
        raise ValueError(f"unknown algorithm '{name}'; use --algo with one of: {', '.join(REGISTRY)}")
    return REGISTRY[name].plugin()


def name_of(raw: dict) -> str:
    """The algorithm a config.json (as a dict) states; a legacy TD3 config states none."""
    return str(raw.get("algo", LEGACY))


def name_of_run(run_dir: str | Path) -> str:
    """The algorithm of a run directory, from its config.json's `algo`; DEFAULT when it has no readable config (the
    plug-in then reports the missing file in its own words)."""
    path = Path(run_dir) / "config.json"
    try:
        return name_of(json.loads(path.read_text()))
    except (OSError, ValueError):
        return DEFAULT


def of_run(run_dir: str | Path) -> ModuleType:
    """The plug-in module of the algorithm that made `run_dir`."""
    return get(name_of_run(run_dir))


def of_config(config) -> ModuleType:
    """The plug-in module of a config object (its `algo` field)."""
    return get(config.algo)
