"""`camel-jax`: the command line. `train` is generated from `Config` (field names are the flags); `resume RUN_DIR`
continues a run from its latest checkpoint; `sweep` trains a grid (camel_jax/sweep.py); `eval RUN_DIR` scores a
finished run's final actor; `plot RUN_DIR...` draws learning curves; `priors ...` is the priors toolbox (camel_jax.priors.cli); `ultra ...` is
ULTRA (camel_jax.ultra.cli); `completion SHELL` prints a shell-completion script for all of them. Every subcommand's
options are parsed by tyro; the first word is dispatched here, because `train --algo ppo` and `train --config FILE`
choose the dataclass and its defaults before tyro parses. Bad input gives one line naming the problem and the fix,
exit 2."""

from __future__ import annotations

import dataclasses
import sys
import typing
from pathlib import Path
from typing import Annotated, Literal, Union

import tyro

USAGE = """usage: camel-jax [--version] {train,resume,sweep,eval,plot,priors,ultra,completion} ...

  train     train TD3 / CAMEL (camel-jax train --help lists every option with its default); --algo ppo trains PPO
            (camel-jax train --algo ppo --help); --config RUN_DIR/config.json [overrides] repeats a run
  resume    continue a killed or interrupted run from its latest checkpoint: camel-jax resume RUN_DIR
  sweep     a grid over settings in as few compiled programs as possible: camel-jax sweep --grid delta=0.1,0.3 ...
  eval      evaluate the final actor of a finished run, unmasked and masked: camel-jax eval RUN_DIR --episodes 10
  plot      learning curves (IQM and 95% bootstrap CI over seeds) of one or more runs: camel-jax plot RUN_DIR...
  priors    generate, validate, translate and evaluate prior policies (camel-jax priors --help)
  ultra     ULTRA's stages on a PPO run: trajectories, critical states, suggestions, refinement (camel-jax ultra --help)
  completion  print a shell-completion script: eval "$(camel-jax completion bash)" (bash, zsh, tcsh or fish)
"""


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    if argv[0] in ("-V", "--version"):
        print(f"camel-jax {version()}")
        return 0
    command, rest = argv[0], argv[1:]
    if command == "priors":
        from camel_jax.priors.cli import main as priors_main

        return priors_main(rest)
    if command == "ultra":
        from camel_jax.ultra.cli import main as ultra_main

        return ultra_main(rest)
    if command == "train":
        return _train(rest)
    if command == "resume":
        return _resume(rest)
    if command == "sweep":
        return _sweep(rest)
    if command == "eval":
        return _eval(rest)
    if command == "plot":
        return _plot(rest)
    if command == "completion":
        return _completion(rest)
    print(f"camel-jax: unknown command '{command}'; use one of: train, resume, sweep, eval, plot, priors, ultra, "
          "completion (camel-jax --help)", file=sys.stderr)
    return 2


def _sweep(argv: list[str]) -> int:
    from camel_jax.config import Config

    config = tyro.cli(Config, args=_split_commas(argv), prog="camel-jax sweep",
                      description="Train every combination of --grid NAME=V1,V2 ... (and every seed). Values of "
                                  "td3.Hyper fields (delta, mask_fraction, eps0, ...) and the seeds share one "
                                  "compiled program; each value of any other setting is a run of its own in a "
                                  "subdirectory of --out, run one after the other.")
    from camel_jax import sweep

    return _reported("sweep", lambda: sweep.run(config))


def _train(argv: list[str]) -> int:
    argv = _split_commas(argv)
    try:
        algo, argv = _take(argv, "--algo", "td3")
        config_file, argv = _take(argv, "--config", "")
        if algo not in ALGOS:
            raise ValueError(f"--algo {algo}: use one of {', '.join(ALGOS)}")
        if algo == "ppo":
            from camel_jax.ppo_config import PPOConfig as cls
        else:
            from camel_jax.config import Config as cls
        default = _from_file(cls, config_file) if config_file else None
        _check_choices(cls, argv)
    except (ValueError, FileNotFoundError) as e:
        print(f"camel-jax train: {e}", file=sys.stderr)
        return 2
    config = tyro.cli(cls, args=argv, prog="camel-jax train", default=default,
                      description=f"Train {ALGOS[algo]} on MJX or gymnasium MuJoCo. --algo td3|ppo picks the "
                                  "algorithm (default td3); --config FILE starts from a run's config.json or a "
                                  "preset (the options given here override it).")
    if algo == "ppo":
        from camel_jax.ppo_loop import train
    else:
        from camel_jax.loop import train

    return _reported("train", lambda: train(config))  # train checks the config first


ALGOS = {"td3": "masking-aware TD3 (CAMEL; plain TD3 with --prior none)", "ppo": "PPO (CleanRL's defaults)"}


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("camel-jax")
    except PackageNotFoundError:
        return "unknown (not installed; pip install -e .)"


def _take(argv: list[str], flag: str, default: str) -> tuple[str, list[str]]:
    """(value of `flag` as `FLAG V` or `FLAG=V`, the other arguments); the last one given wins."""
    value, rest, i = default, [], 0
    while i < len(argv):
        if argv[i] == flag:
            if i + 1 >= len(argv):
                raise ValueError(f"{flag} needs a value")
            value, i = argv[i + 1], i + 2
        elif argv[i].startswith(flag + "="):
            value, i = argv[i].split("=", 1)[1], i + 1
        else:
            rest.append(argv[i])
            i += 1
    return value, rest


CHOICE_NAMES = {"env": "task", "backend": "backend", "mjx_impl": "MJX implementation", "rank_by": "score"}


def _check_choices(cls, argv: list[str]) -> None:
    """One line naming the bad value and the choices for every Literal-typed option in `argv` (tyro's own message
    is a multi-line box)."""
    import types

    hints = typing.get_type_hints(cls)
    for field in dataclasses.fields(cls):
        hint = hints[field.name]
        if typing.get_origin(hint) in (typing.Union, types.UnionType):  # TASK | None
            hint = next((a for a in typing.get_args(hint) if typing.get_origin(a) is Literal), hint)
        choices = typing.get_args(hint) if typing.get_origin(hint) is Literal else ()
        if not choices:
            continue
        flag = "--" + field.name.replace("_", "-")
        for i, arg in enumerate(argv):
            value = argv[i + 1] if arg == flag and i + 1 < len(argv) else arg.partition("=")[2] \
                if arg.startswith(flag + "=") else None
            if value is not None and value not in choices:
                what = CHOICE_NAMES.get(field.name, field.name)
                raise ValueError(f"unknown {what} '{value}'; use {flag} with one of: {', '.join(choices)}")


def _from_file(cls, path: str):
    """The defaults for `--config FILE`: a run's config.json or a preset holding some fields. Its run directory and
    --overwrite are not taken over (a repeat names its own --out and never replaces the original)."""
    import json

    file = Path(path)
    if not file.is_file():
        raise FileNotFoundError(f"--config {path}: no such file; give a run's config.json (RUN_DIR/config.json) or a "
                                "preset file")
    try:
        raw = json.loads(file.read_text())
    except json.JSONDecodeError as e:
        raise ValueError(f"--config {path} is not JSON ({e}); give a run's config.json or a preset") from None
    from camel_jax.config import RECORDED

    fields = {f.name for f in dataclasses.fields(cls)}  # a run's record (RECORDED) is made afresh by the new run
    unknown = sorted(k for k in raw if k not in fields and k not in RECORDED and not k.startswith("_"))
    if unknown:
        raise ValueError(f"--config {path}: unknown settings {', '.join(unknown)} (a {cls.__name__} has none of "
                         "these; for PPO pass --algo ppo)")
    raw = {k: tuple(v) if isinstance(v, list) else v for k, v in raw.items() if k in fields}
    return cls(**{**raw, "out": "", "overwrite": False})


@dataclasses.dataclass(frozen=True)
class ResumeArgs:
    run_dir: Annotated[str, tyro.conf.Positional, tyro.conf.arg(metavar="RUN_DIR")]
    """the run directory to continue (its config.json and checkpoints/)"""
    quiet: bool = False
    """no progress lines (a run started with --quiet stays quiet)"""
    truncate: bool = False
    """drop the logged rows after the last checkpoint and continue from it (without it, such rows are an error)"""


def _resume(argv: list[str]) -> int:
    args = tyro.cli(ResumeArgs, args=argv, prog="camel-jax resume",
                    description="Continue a run from its latest checkpoint to its --total-steps, with the config it "
                                "was started with. A finished run is left alone; a run with logged rows after its "
                                "last checkpoint is left alone unless --truncate.")
    from camel_jax.ppo_config import is_ppo_run

    if is_ppo_run(args.run_dir):  # PPO, plain or refined by ULTRA (its guide from the run's prior.txt)
        from camel_jax.ultra.refine import resume
    else:
        from camel_jax.loop import resume

    return _reported("resume", lambda: resume(args.run_dir, quiet=True if args.quiet else None,
                                              truncate=args.truncate))


@dataclasses.dataclass(frozen=True)
class EvalArgs:
    run_dir: Annotated[str, tyro.conf.Positional, tyro.conf.arg(metavar="RUN_DIR")]
    """a finished run directory (its config.json, prior.txt and actor.msgpack)"""
    episodes: int = 10
    """episodes per member, each run unmasked and masked from the same initial states"""
    backend: Literal["gymnasium", "mjx"] = "gymnasium"
    """gymnasium (the paper's C MuJoCo v4 tasks) or mjx, whichever backend the run trained on"""
    seed: int = 0
    """seed of the evaluation episodes' initial states"""
    video: Annotated[str, tyro.conf.arg(metavar="DIR")] = ""
    """folder for one GIF per member of its first unmasked episode (gymnasium, env seed --seed), drawn with MuJoCo's
    renderer; needs EGL or OSMesa (camel_jax/render.py). '' means no videos"""


def _eval(argv: list[str]) -> int:
    args = tyro.cli(EvalArgs, args=argv, prog="camel-jax eval",
                    description="Evaluate the final deterministic actor of every member (seed, grid point) of a "
                                "finished run, unmasked (the score) and masked (a diagnostic); prints a table and "
                                "writes RUN_DIR/eval_final.json.")
    from camel_jax import final_eval

    def work():
        result = final_eval.evaluate_run(args.run_dir, args.episodes, args.backend, args.seed, args.video or None)
        if result.get("masked_skipped"):  # the unmasked score is there; one line says what is not and why
            print(f"camel-jax eval: {result['masked_skipped']}", file=sys.stderr)
        print(final_eval.table(result))
        for member in result["members"] if args.video else []:
            print(f"video: {member['video']} (return {member['video_return']:.1f})")
        print(f"wrote {final_eval.write(args.run_dir, result)}")

    return _reported("eval", work)


@dataclasses.dataclass(frozen=True)
class PlotArgs:
    run_dirs: Annotated[tuple[str, ...], tyro.conf.Positional,
                        tyro.conf.arg(metavar="RUN_DIR...", help_behavior_hint="(required)")]
    """one or more run directories, overlaid (one colour per run, or per grid point of a --grid run)"""
    out: Annotated[str, tyro.conf.arg(metavar="PNG")] = ""
    """the PNG to write; '' means RUN_DIR/plots/curves.png for a single run (required for several)"""
    x: Literal["step", "wall_s"] = "step"
    """x axis: env steps per seed, or wall-clock seconds"""
    labels: Annotated[str, tyro.conf.arg(metavar="A,B,...")] = ""
    """legend labels, one per run directory, comma-separated; '' means the run directories' names"""
    smooth: int = 1
    """moving average of the training return over this many log rows per seed (1: none)"""
    band: Literal["iqm", "t", "minmax"] = "iqm"
    """iqm: interquartile mean, 95% percentile bootstrap CI over seeds (with 3 seeds: the seeds' min-max); t: mean,
    95% Student-t CI; minmax: mean, min-max over seeds. Fractions and probabilities are clipped to [0, 1]"""


def _plot(argv: list[str]) -> int:
    args = tyro.cli(PlotArgs, args=argv, prog="camel-jax plot",
                    description="Learning curves: (a) training episode return, (b) evaluation return unmasked "
                                "(solid) and masked (dashed), (c) epsilon and the masked fraction; each curve is "
                                "a summary over seeds with a band (--band; default: the interquartile mean and "
                                "its 95% bootstrap CI).")
    from camel_jax import plots

    labels = [v.strip() for v in args.labels.split(",")] if args.labels else None
    def work():
        print(f"wrote {plots.plot(list(args.run_dirs), args.out or None, args.x, labels, args.smooth, args.band)}")

    return _reported("plot", work)


@dataclasses.dataclass(frozen=True)
class CompletionArgs:
    shell: Annotated[Literal["bash", "zsh", "tcsh", "fish"], tyro.conf.Positional]
    """the shell to complete in"""


def _completion(argv: list[str]) -> int:
    import warnings

    shells = typing.get_args(typing.get_type_hints(CompletionArgs, include_extras=True)["shell"].__origin__)
    if argv and not argv[0].startswith("-") and argv[0] not in shells:
        print(f"camel-jax completion: unknown shell '{argv[0]}'; use one of: {', '.join(shells)}", file=sys.stderr)
        return 2
    args = tyro.cli(CompletionArgs, args=argv, prog="camel-jax completion",
                    description="Print a completion script for every subcommand and option of camel-jax (choices "
                                "such as --env's tasks included). bash: eval \"$(camel-jax completion bash)\" in "
                                "~/.bashrc; zsh: camel-jax completion zsh > ~/.zfunc/_camel-jax (a folder on "
                                "$fpath).")
    try:
        with warnings.catch_warnings():  # tyro's notes on defaults it cannot check: the script is unaffected
            warnings.simplefilter("ignore")
            tyro.cli(command_tree(), args=["--tyro-print-completion", args.shell], prog="camel-jax",
                     config=(tyro.conf.OmitSubcommandPrefixes,))
    except SystemExit as e:  # tyro exits once the script is printed
        return int(e.code or 0)
    return 0


def command_tree():
    """The whole command line as one tyro type (a union of subcommands, `priors` and `ultra` with their own), which
    is what the completion script is generated from. `train` offers the options of both --algo td3 (Config) and
    --algo ppo (PPOConfig); each run still parses with its own dataclass."""
    from camel_jax.config import Config
    from camel_jax.ppo_config import PPOConfig
    from camel_jax.priors import cli as priors_cli
    from camel_jax.ultra import cli as ultra_cli

    fields, hints = [], {}
    for cls in (PPOConfig, Config):
        hints.update(typing.get_type_hints(cls, include_extras=True))
    seen = {"algo", "config"}
    for f in (f for cls in (Config, PPOConfig) for f in dataclasses.fields(cls)):
        if f.name not in seen:
            seen.add(f.name)
            default = {"default": f.default} if f.default is not dataclasses.MISSING else {
                "default_factory": f.default_factory}
            fields.append((f.name, hints[f.name], dataclasses.field(**default)))
    train = _offering_tasks(dataclasses.make_dataclass(
        "Train", [("algo", Literal[tuple(ALGOS)], dataclasses.field(default="td3")),
                  ("config", str, dataclasses.field(default="")), *fields], frozen=True))
    priors_command = Union[tuple(Annotated[_offering_tasks(cls), tyro.conf.subcommand(  # noqa: UP007
        name, description=priors_cli._about(cls))] for name, cls in priors_cli.SUBCOMMANDS.items())]
    priors = dataclasses.make_dataclass("Priors", [("command", priors_command)], frozen=True)
    ultra = dataclasses.make_dataclass("Ultra", [("command", ultra_cli.Command)], frozen=True)
    commands = {"train": train, "resume": ResumeArgs, "sweep": _offering_tasks(Config), "eval": EvalArgs, "plot": PlotArgs,
                "priors": priors, "ultra": ultra, "completion": CompletionArgs}
    return Union[tuple(Annotated[cls, tyro.conf.subcommand(name)] for name, cls in commands.items())]  # noqa: UP007


def _offering_tasks(cls):
    """`cls` with its --env offering the spec'd task names to the shell: parsing takes any string (gym:ID too), so
    the choices live only in the completion script."""
    from camel_jax.config import TASK_CHOICES, TASKS

    swap = {TASKS: TASK_CHOICES, TASKS | None: TASK_CHOICES | None}
    hints = typing.get_type_hints(cls, include_extras=True)
    changed = {f: (swap[hints[f.name]]) for f in dataclasses.fields(cls) if hints[f.name] in swap}
    if not changed:
        return cls
    namespace = {"__annotations__": {f.name: t for f, t in changed.items()}}
    namespace |= {f.name: f.default for f in changed if f.default is not dataclasses.MISSING}
    kw_only = any(f.kw_only for f in changed)
    return dataclasses.dataclass(frozen=True, kw_only=kw_only)(type(cls.__name__, (cls,), namespace))


def _reported(command: str, work) -> int:
    """Run `work()`; a user error (_user_errors) becomes one line `camel-jax COMMAND: message` and exit code 2."""
    try:
        work()
    except _user_errors() as e:
        print(f"camel-jax {command}: {e}", file=sys.stderr)
        return 2
    return 0


def _user_errors() -> tuple[type[Exception], ...]:
    """Errors caused by the user's input or files: reported as one line (anything else keeps its traceback)."""
    from camel_jax.checkpoint import CheckpointError
    from camel_jax.priors.errors import SetupError

    return (ValueError, FileExistsError, FileNotFoundError, SetupError, CheckpointError)


def _split_commas(argv: list[str]) -> list[str]:
    """Accept `--seeds 0,1,2`, `--seeds=0,1,2` and `--hidden 256,256` as well as tyro's space-separated form."""
    out, listy = [], False
    for a in argv:
        flag, eq, value = a.partition("=")
        if eq and flag in LIST_FLAGS:
            out += [flag, *[v for v in value.split(",") if v]]
            listy = False
            continue
        if listy and not a.startswith("-") and "," in a:
            out += [v for v in a.split(",") if v]
        else:
            out.append(a)
        listy = a in LIST_FLAGS
    return out


LIST_FLAGS = ("--seeds", "--hidden")


if __name__ == "__main__":
    raise SystemExit(main())
