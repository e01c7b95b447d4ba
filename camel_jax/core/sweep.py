"""Sweeps: a grid over settings run as few compiled programs as possible.

A grid entry over a field of `td3.Hyper` (delta, mask_fraction, eps0, gamma, tau, the noises, min_width) varies inside
one program: its values and the seeds are all members of the vmapped axis (`Config.members`). Any other field
(learning_rate, hidden, batch_size, num_envs, prior, ...) changes the program itself, so each of its values is a run
of its own, in a subdirectory of the sweep directory, run one after the other.

    camel-jax sweep --grid delta=0.1,0.3 mask_fraction=0.25,0.5 learning_rate=1e-4,3e-4 --seeds 0,1,2 ...
    -> SWEEP/learning_rate=0.0001/ and SWEEP/learning_rate=0.0003/, each one program of 2 x 2 x 3 = 12 members.
Tuple-valued fields take '-' between their items: hidden=64-64,256-256.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import shutil
import time
import typing
from pathlib import Path

from camel_jax import algos


def plan(config) -> tuple[Path, list]:
    """Split `config.grid` into programs: (sweep dir, one config per program, its `grid` holding only the fields its
    algorithm varies inside one program, its plug-in's SWEEPABLE)."""
    inner, outer = [], {}
    sweepable = algos.of_config(config).SWEEPABLE
    hints = typing.get_type_hints(type(config))
    for item in config.grid:
        name, _, values = item.partition("=")
        name = name.strip().replace("-", "_")
        if name in sweepable:
            inner.append(f"{name}={values}")
        elif name in ("seeds", "grid", "out", "overwrite", "quiet"):
            raise ValueError(f"--grid '{item}': '{name}' is not a setting to sweep; list seeds with --seeds")
        elif name not in hints:
            raise ValueError(f"--grid '{item}': unknown setting '{name}'; use a train option name, e.g. "
                             f"--grid learning_rate=1e-4,3e-4")
        else:
            outer[name] = [_parse(name, hints[name], v) for v in values.split(",") if v.strip()]
            if not outer[name]:
                raise ValueError(f"--grid '{item}' lists no values, e.g. --grid {name}=1,2")
    root = Path(config.out) if config.out else Path("runs") / f"sweep_{config.env}_{time.strftime('%Y%m%d-%H%M%S')}"
    configs = []
    for combo in itertools.product(*outer.values()):
        settings = dict(zip(outer, combo))
        name = "_".join(f"{k}={_show(v)}" for k, v in settings.items()) or "all"
        configs.append(dataclasses.replace(config, **settings, grid=tuple(inner), out=str(root / name)))
    for c in configs:
        c.check()  # every program's settings are checked before anything is written
    return root, configs


def run(config) -> Path:
    """`camel-jax sweep`: check every program's settings, make the sweep directory (refusing an existing one unless
    --overwrite) with sweep.json listing the runs, then train the runs one after the other."""
    train = algos.of_config(config).train
    root, configs = plan(config.resolved())  # checked with the backend auto picks
    if root.exists() and not config.overwrite:
        raise FileExistsError(f"sweep directory {root} exists; pass --overwrite or choose another --out")
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    (root / "sweep.json").write_text(json.dumps(
        {"grid": list(config.grid), "runs": [Path(c.out).name for c in configs]}, indent=2) + "\n")
    for c in configs:
        if not c.quiet:
            print(f"sweep: {c.out} ({len(c.members())} members in one program)", flush=True)
        train(dataclasses.replace(c, backend=config.backend))  # "auto" stays: each run says what it chose and why
    return root


def _parse(name: str, hint, text: str):
    text = text.strip()
    try:
        if hint is bool:
            if text.lower() not in ("true", "false", "1", "0"):
                raise ValueError
            return text.lower() in ("true", "1")
        if typing.get_origin(hint) is tuple:
            return tuple(int(v) for v in text.split("-"))
        return hint(text) if hint in (int, float, str) else text
    except ValueError:
        raise ValueError(f"--grid {name}: '{text}' is not a valid {getattr(hint, '__name__', hint)}") from None


def _show(v) -> str:
    return "-".join(map(str, v)) if isinstance(v, tuple) else str(v)
