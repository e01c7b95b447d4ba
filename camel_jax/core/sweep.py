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
from camel_jax.core import parallel

SWEEP_FILE = "sweep.json"


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


def split_seeds(configs: list, procs: int) -> list:
    """With fewer programs than processes, each program's seeds in `procs` groups (contiguous, as even as can be),
    each group a run of its own named after its seeds (`seeds=0-4`, `seeds=5-9`): ten seeds of one setting on two
    cores become two runs of five, side by side (camel_jax/core/parallel.py says why)."""
    if len(configs) >= procs:
        return configs
    out = []
    for c in configs:
        n = len(c.seeds)
        groups = [g for g in (c.seeds[n * k // procs:n * (k + 1) // procs] for k in range(procs)) if g]
        if len(groups) == 1:
            out.append(c)
            continue
        for g in groups:
            name = "seeds=" + _seed_names(g)
            parent = Path(c.out)
            sub = name if parent.name == "all" else f"{parent.name}_{name}"
            out.append(dataclasses.replace(c, seeds=tuple(g), out=str(parent.parent / sub)))
    return out


def run(config, procs: int | str = "auto") -> Path:
    """`camel-jax sweep`: check every program's settings, make the sweep directory (refusing an existing one unless
    --overwrite) with sweep.json listing the runs and their configs, then train the runs: one after the other in
    this process with --procs 1, else `procs` processes side by side (--procs auto: one per core on a CPU with the
    gymnasium backend, camel_jax/core/parallel.py), the seeds split into groups when there are fewer runs than
    processes."""
    resolved = config.resolved()
    root, configs = plan(resolved)  # checked with the backend auto picks
    if procs == "auto":
        procs = parallel.auto_procs(resolved.backend, len(resolved.seeds) * len(configs))
    configs = split_seeds(configs, procs)
    if root.exists() and not config.overwrite:
        raise FileExistsError(f"sweep directory {root} exists; pass --overwrite or choose another --out")
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    # each run keeps the backend the user gave ("auto" stays: each run says what it chose and why)
    configs = [dataclasses.replace(c, backend=config.backend) for c in configs]
    (root / SWEEP_FILE).write_text(json.dumps(
        {"grid": list(config.grid), "runs": [Path(c.out).name for c in configs], "procs": procs, "algo": config.algo,
         "configs": {Path(c.out).name: dataclasses.asdict(c) for c in configs}}, indent=2) + "\n")
    return _train_all(root, configs, procs, config.quiet)


def is_sweep(path: str | Path) -> bool:
    return (Path(path) / SWEEP_FILE).is_file()


def resume(root: str | Path, quiet: bool | None = None, truncate: bool = False) -> Path:
    """`camel-jax resume SWEEP_DIR`: finished runs are kept, interrupted ones resume from their last checkpoint, runs
    not begun train; as many processes side by side as the sweep was started with."""
    root = Path(root)
    try:
        record = json.loads((root / SWEEP_FILE).read_text())
        plugin = algos.get(record["algo"])
        configs = [plugin.Config.from_dict(raw) for raw in record["configs"].values()]
    except (KeyError, TypeError, json.JSONDecodeError) as e:
        raise ValueError(f"{root / SWEEP_FILE} cannot be resumed ({e}): a sweep from before camel-jax resume took "
                         "sweeps; resume its runs one by one (camel-jax resume SWEEP_DIR/RUN)") from None
    configs = [dataclasses.replace(c, out=str(root / Path(c.out).name)) for c in configs]  # the directory may move
    if all(_finished(c) for c in configs):
        raise ValueError(f"{root} has finished (every run trained); there is nothing to resume")
    quiet = configs[0].quiet if quiet is None else quiet
    return _train_all(root, configs, int(record.get("procs", 1)), quiet, truncate)


def _finished(config) -> bool:
    return (Path(config.out) / "actor.msgpack").is_file()


def _train_all(root: Path, configs: list, procs: int, quiet: bool, truncate: bool = False) -> Path:
    say = (lambda line: None) if quiet else (lambda line: print(f"sweep: {line}", flush=True))
    todo = [c for c in configs if not _finished(c)]
    if procs <= 1:
        for c in todo:
            plugin = algos.of_config(c)
            say(f"{c.out} ({len(c.members())} members in one program)")
            if (Path(c.out) / "config.json").is_file():
                plugin.resume(c.out, quiet=quiet, truncate=truncate)
            else:
                plugin.train(c)
        return root
    jobs = [parallel.Job(name=Path(c.out).name, run_dir=c.out, kind="resume", truncate=truncate)
            if (Path(c.out) / "config.json").is_file() else
            parallel.Job(name=Path(c.out).name, run_dir=c.out, kind="train", algo=c.algo,
                         config=dataclasses.asdict(c))
            for c in todo]
    runs = f"{len(jobs)} run" + "s" * (len(jobs) != 1)
    say(f"{runs}, {procs} processes side by side (--procs; each run's output in RUN.log beside it)")
    codes = parallel.run(jobs, procs, say)
    failed = [name for name, code in codes.items() if code not in (0, parallel.EXIT_INTERRUPTED)]
    if failed:
        raise ValueError(f"runs {', '.join(failed)} of {root} failed (their logs: {root}/RUN.log); fix the cause and "
                         f"continue with camel-jax resume {root}")
    if any(code == parallel.EXIT_INTERRUPTED for code in codes.values()):
        from camel_jax.core import signals

        stopped = signals.Interrupted(root, 0, "a signal")
        stopped.args = (f"stopped by a signal, each run's checkpoint written; continue with camel-jax resume {root}",)
        raise stopped
    return root


def _seed_names(seeds: tuple[int, ...]) -> str:
    if len(seeds) > 1 and list(seeds) == list(range(seeds[0], seeds[-1] + 1)):
        return f"{seeds[0]}-{seeds[-1]}"
    return "+".join(map(str, seeds))


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
