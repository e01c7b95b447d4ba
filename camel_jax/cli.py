"""`camel-jax`: the command line. `compare` trains CAMEL and TD3 (or others of the paper's arms) on the same seeds and
compares them (camel_jax/comparison.py); `train` is generated from `Config` (field names are the flags); `resume
RUN_DIR` continues a run (or a comparison) from its latest checkpoint; `sweep` trains a grid (camel_jax/core/sweep.py); `eval RUN_DIR` scores a
finished run's final actor; `plot RUN_DIR...` draws learning curves; `priors ...` is the priors toolbox (camel_jax.priors.cli); `ultra ...` is
ULTRA (camel_jax.ultra.cli); `completion SHELL` prints a shell-completion script for all of them. Every subcommand's
options are parsed by tyro; the first word is dispatched here, because `train --algo ppo` and `train --config FILE`
choose the dataclass and its defaults before tyro parses. Bad input gives one line naming the problem and the fix,
exit 2. The libraries' start-up noise is hidden unless `camel-jax --verbose ...` or CAMEL_JAX_VERBOSE=1
(camel_jax/console.py)."""

from __future__ import annotations

import dataclasses
import sys
import typing
from pathlib import Path
from typing import Annotated, Literal, Union

import tyro

from camel_jax import algos
from camel_jax.core.commandline import check_choices as _check_choices
from camel_jax.core.commandline import take as _take
from camel_jax.core.commandline import user_errors as _user_errors

USAGE = """usage: camel-jax [--version] [--verbose] {compare,train,resume,sweep,eval,plot,priors,ultra,completion} ...

  compare   the main job: train CAMEL (the task's LLM-written prior) and plain TD3 on the same seeds, then one plot and
            one table in one directory: camel-jax compare --env ant --seeds 0,1,2 --total-steps 60000 (--arms adds
            the paper's other arms; camel-jax compare --help)

  train     train TD3 / CAMEL (camel-jax train --help lists every option with its default); --algo ppo trains PPO
            (camel-jax train --algo ppo --help); --config RUN_DIR/config.json [overrides] repeats a run
  resume    continue a killed or interrupted run from its latest checkpoint: camel-jax resume RUN_DIR
            (--total-steps N extends a finished run)
  sweep     a grid over settings in as few compiled programs as possible: camel-jax sweep --grid delta=0.1,0.3 ...
  eval      evaluate the final actor of a finished run, unmasked and masked: camel-jax eval RUN_DIR --episodes 10
  plot      learning curves (IQM and 95% bootstrap CI over seeds) of one or more runs: camel-jax plot RUN_DIR...
  priors    generate, validate, translate and evaluate prior policies (camel-jax priors --help)
  ultra     ULTRA's stages on a PPO run: trajectories, critical states, suggestions, refinement (camel-jax ultra --help)
  completion  print a shell-completion script: eval "$(camel-jax completion bash)" (bash, zsh, tcsh or fish)

  --verbose (or CAMEL_JAX_VERBOSE=1) shows the libraries' start-up warnings, hidden by default: gymnasium's v4
  deprecation, JAX's float64-to-float32 note, mujoco.mjx's "Failed to import warp" (camel_jax/console.py)
"""


def main(argv: list[str] | None = None) -> int:
    """The command line (module docstring). Output cut short by a closed pipe (`camel-jax train --help | head`) ends
    quietly, as a Unix tool does. A run stopped during its first chunk (camel_jax/core/signals.py: unless_stopped) left
    that chunk's compilation running in a helper thread: the process (argv None: the `camel-jax` command) exits
    at once instead of waiting for it."""
    try:
        code = _main(argv)
        from camel_jax.core import signals

        if argv is None and signals.ABANDONED.is_set():
            import os

            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
        return code
    except BrokenPipeError:
        import os

        try:  # the reader has gone: stdout's buffered rest cannot be written, so point it at /dev/null
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError):  # no file descriptor (an in-process caller's stream)
            pass
        return 0


def _main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    while argv and argv[0] == "--verbose":  # camel-jax --verbose COMMAND: the libraries' start-up warnings too
        import os

        from camel_jax.console import VERBOSE_ENV

        os.environ[VERBOSE_ENV] = "1"
        argv = argv[1:]
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    if argv[0] in ("-V", "--version"):
        print(f"camel-jax {version()}")
        return 0
    from camel_jax.console import quiet_libraries

    quiet_libraries()
    command, rest = argv[0], argv[1:]
    if command == "priors":
        from camel_jax.priors.cli import main as priors_main

        return priors_main(rest)
    if command == "ultra":
        from camel_jax.ultra.cli import main as ultra_main

        return ultra_main(rest)
    if command == "train":
        return _train(rest)
    if command == "compare":
        return _compare(rest)
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
    print(f"camel-jax: unknown command '{command}'; use one of: compare, train, resume, sweep, eval, plot, priors, ultra, "
          "completion (camel-jax --help)", file=sys.stderr)
    return 2


def _sweep(argv: list[str]) -> int:
    argv = _split_commas(argv)
    try:
        algo, argv = _take(argv, "--algo", algos.DEFAULT)
        procs, argv = _take(argv, "--procs", "auto")
        from camel_jax.core import parallel

        procs = parallel.parse_procs(procs)
        plugin = algos.get(algo)
        if "grid" not in {f.name for f in dataclasses.fields(plugin.Config)}:
            raise ValueError(f"--algo {algo} has no --grid setting to sweep yet; sweep with --algo "
                             f"{algos.DEFAULT}")
    except ValueError as e:
        print(f"camel-jax sweep: {e}", file=sys.stderr)
        return 2
    config = tyro.cli(plugin.Config, args=argv, prog="camel-jax sweep",
                      description="Train every combination of --grid NAME=V1,V2 ... (and every seed). Values of "
                                  "the fields the algorithm varies inside one program (TD3: td3.Hyper's delta, "
                                  "mask_fraction, eps0, ...) and the seeds share one compiled program; each value "
                                  "of any other setting is a run of its own in a subdirectory of --out. --procs "
                                  "N|auto (default auto): runs side by side in N processes; auto is one per core "
                                  "on a CPU with the gymnasium backend (where two processes of five seeds beat one "
                                  "of ten: bench/results/sweep_modes_cpu.md), else 1; with fewer runs than "
                                  "processes the seeds are split into groups, a run each. camel-jax resume DIR "
                                  "continues an interrupted sweep.")
    from camel_jax.core import sweep

    return _reported("sweep", lambda: sweep.run(config, procs))


def _train(argv: list[str]) -> int:
    argv = _split_commas(argv)
    try:
        algo, argv = _take(argv, "--algo", "")
        config_file, argv = _take(argv, "--config", "")
        raw = _read_config_file(config_file) if config_file else None
        stated = str(raw.get("algo", "")) if raw is not None else ""  # a preset or a legacy TD3 run: none
        if stated not in ("", algo or stated):  # --algo given, and the file states another
            raise ValueError(f"--config {config_file} is a {stated} run's config, not {algo}'s; drop --algo (the "
                             "file states its algorithm) or give a config of the other algorithm")
        algo = algo or stated or algos.DEFAULT
        plugin = algos.get(algo)
        cls = plugin.Config
        default = _from_file(cls, config_file, raw) if config_file else None
        _check_choices(cls, argv)
    except (ValueError, FileNotFoundError) as e:
        print(f"camel-jax train: {e}", file=sys.stderr)
        return 2
    config = tyro.cli(cls, args=argv, prog="camel-jax train", default=default,
                      description=f"Train {plugin.ABOUT} on MJX or gymnasium MuJoCo. --algo "
                                  f"{'|'.join(algos.names())} picks the algorithm (default {algos.DEFAULT}); "
                                  "--config FILE starts from a run's config.json (whose algorithm it states) or a "
                                  "preset (the options given here override it). Gymnasium's and JAX's start-up "
                                  "warnings are hidden unless camel-jax --verbose train ... or CAMEL_JAX_VERBOSE=1.")
    return _reported("train", lambda: plugin.train(config))  # train checks the config first


def _compare(argv: list[str]) -> int:
    import shlex

    from camel_jax import comparison

    command = "camel-jax compare " + shlex.join(argv)
    argv = _split_commas(argv)
    try:
        _check_choices(comparison.CompareArgs, argv)
    except ValueError as e:
        print(f"camel-jax compare: {e}", file=sys.stderr)
        return 2
    args = tyro.cli(comparison.CompareArgs, args=argv, prog="camel-jax compare",
                    description="Train CAMEL (with the task's LLM-written prior) and plain TD3 on the same seeds, "
                                "each arm a run directory inside --out, then compare them: DIR/compare.png (training "
                                "return and the unmasked evaluation, IQM and 95% bootstrap band over seeds), "
                                "DIR/compare.md and DIR/compare.json (bench/compare.py's statistics). The defaults "
                                "are the quickstart's: Ant, 3 seeds x 60k steps. An interrupted comparison "
                                "continues with camel-jax resume DIR. Gymnasium's and JAX's start-up warnings are "
                                "hidden unless camel-jax --verbose compare ... or CAMEL_JAX_VERBOSE=1 "
                                "(docs/compare.md).")

    return _reported("compare", lambda: comparison.start(args, command))



def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("camel-jax")
    except PackageNotFoundError:
        return "unknown (not installed; pip install -e .)"


def _read_config_file(path: str) -> dict:
    import json

    file = Path(path)
    if not file.is_file():
        raise FileNotFoundError(f"--config {path}: no such file; give a run's config.json (RUN_DIR/config.json) or a "
                                "preset file")
    try:
        raw = json.loads(file.read_text())
    except json.JSONDecodeError as e:
        raise ValueError(f"--config {path} is not JSON ({e}); give a run's config.json or a preset") from None
    if not isinstance(raw, dict):
        raise ValueError(  # noqa: TRY004  (a user error: one line, exit 2)
            f"--config {path} is not a JSON object of settings; give a run's config.json or a preset")
    return raw


def _from_file(cls, path: str, raw: dict | None = None):
    """The defaults for `--config FILE`: a run's config.json or a preset holding some fields. Its run directory and
    --overwrite are not taken over (a repeat names its own --out and never replaces the original)."""
    raw = _read_config_file(path) if raw is None else raw
    from camel_jax.core.config import RECORDED

    fields = {f.name for f in dataclasses.fields(cls)}  # a run's record (RECORDED) is made afresh by the new run
    unknown = sorted(k for k in raw if k not in fields and k not in RECORDED and not k.startswith("_"))
    if unknown:
        raise ValueError(f"--config {path}: unknown settings {', '.join(unknown)} (a {cls.__name__} has none of "
                         "these; a preset for another algorithm names it with \"algo\")")
    raw = {k: tuple(v) if isinstance(v, list) else v for k, v in raw.items() if k in fields}
    return cls(**{**raw, "out": "", "overwrite": False})


@dataclasses.dataclass(frozen=True)
class ResumeArgs:
    run_dir: Annotated[str, tyro.conf.Positional, tyro.conf.arg(metavar="RUN_DIR")]
    """the run directory to continue (its config.json and checkpoints/), or a `camel-jax compare` directory (its
    compare_args.json: its unfinished arms continue, then its tables are written)"""
    quiet: bool = False
    """no progress lines (a run started with --quiet stays quiet)"""
    truncate: bool = False
    """drop the logged rows after the last checkpoint and continue from it (without it, such rows are an error)"""
    total_steps: int = 0
    """train to this many env steps per seed instead of the run's own total: extends a finished run from its final
    checkpoint (0: the run's total)"""


def _resume(argv: list[str]) -> int:
    args = tyro.cli(ResumeArgs, args=argv, prog="camel-jax resume",
                    description="Continue a run from its latest checkpoint to its --total-steps, with the config it "
                                "was started with. A finished run is left alone; a run with logged rows after its "
                                "last checkpoint is left alone unless --truncate.")
    from camel_jax import comparison
    from camel_jax.core import sweep

    if sweep.is_sweep(args.run_dir) and not (Path(args.run_dir) / "config.json").is_file():
        if args.total_steps:
            print("camel-jax resume: --total-steps extends one run, not a sweep; resume one of its run directories "
                  "with --total-steps", file=sys.stderr)
            return 2
        return _reported("resume", lambda: sweep.resume(args.run_dir, quiet=True if args.quiet else None,
                                                        truncate=args.truncate))
    if comparison.is_comparison(args.run_dir):  # a `camel-jax compare` directory: its unfinished arms, then tables
        if args.total_steps:
            print("camel-jax resume: --total-steps extends one run, not a comparison; resume the comparison as it "
                  "is, or resume one of its arm directories with --total-steps", file=sys.stderr)
            return 2
        return _reported("resume", lambda: comparison.resume(args.run_dir, quiet=True if args.quiet else None,
                                                             truncate=args.truncate))
    resume = algos.of_run(args.run_dir).resume  # the algorithm its config.json states
    return _reported("resume", lambda: resume(args.run_dir, quiet=True if args.quiet else None,
                                              truncate=args.truncate, total_steps=args.total_steps))


@dataclasses.dataclass(frozen=True)
class EvalArgs:
    run_dir: Annotated[str, tyro.conf.Positional, tyro.conf.arg(metavar="RUN_DIR")]
    """a finished run directory (its config.json, prior.txt and actor.msgpack); with --step, any run directory with
    checkpoints"""
    step: Annotated[int | None, tyro.conf.arg(metavar="S")] = None
    """evaluate the policy of the checkpoint at env step S (one of the kept ones, RUN_DIR/checkpoints/S/; the run
    need not have finished) instead of the final actor, into RUN_DIR/eval_step_S.json (eval_final.json stays as it
    is). Left out: the final actor"""
    episodes: int = 10
    """episodes per member, each run unmasked and masked from the same initial states"""
    backend: Literal["auto", "gymnasium", "mjx"] = "auto"
    """auto: the backend the run trained on (its config.json's, as train's auto chose it), so a run is scored on the
    task it learnt; gymnasium (C MuJoCo) or mjx to choose"""
    seed: int = 0
    """seed of the evaluation episodes' initial states"""
    video: Annotated[str, tyro.conf.arg(metavar="DIR")] = ""
    """folder for one GIF per member of its first unmasked episode (gymnasium, env seed --seed), drawn with MuJoCo's
    renderer; needs EGL or OSMesa (camel_jax/render.py). '' means no videos"""
    overwrite: bool = False
    """replace the run's eval_final.json, or eval_step_S.json with --step (without it, a run that has the file is
    left alone: an error, exit 2)"""


def _eval(argv: list[str]) -> int:
    args = tyro.cli(EvalArgs, args=argv, prog="camel-jax eval",
                    description="Evaluate the final deterministic actor of every member (seed, grid point) of a "
                                "finished run, unmasked (the score) and masked (a diagnostic); prints a table and "
                                "writes RUN_DIR/eval_final.json (an existing one only with --overwrite). With "
                                "--step S: the policy of the kept checkpoint at env step S, of a finished run or "
                                "not, into RUN_DIR/eval_step_S.json.")
    from camel_jax import final_eval

    def work():
        path = Path(args.run_dir) / final_eval.result_name(args.step)
        if path.is_file() and not args.overwrite:  # before any evaluation
            raise FileExistsError(f"{path} exists (an earlier evaluation); pass --overwrite to replace it, or copy it "
                                  "away first")
        result = final_eval.evaluate_run(args.run_dir, args.episodes, args.backend, args.seed, args.video or None,
                                         step=args.step)
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
    mixed_tasks: bool = False
    """overlay runs of different tasks (refused without it: their returns are on different scales)"""


def _plot(argv: list[str]) -> int:
    args = tyro.cli(PlotArgs, args=argv, prog="camel-jax plot",
                    description="Learning curves: (a) training episode return, (b) evaluation return unmasked "
                                "(solid) and, for runs with masking, masked (dashed), (c) epsilon and the masked "
                                "fraction, drawn only for runs with masking (not plain TD3 or PPO); each curve is "
                                "a summary over seeds with a band (--band; default: the interquartile mean and "
                                "its 95% bootstrap CI). The title names the task and backend; an ULTRA-refined run "
                                "is drawn after its base run's steps.")
    from camel_jax import plots

    labels = [v.strip() for v in args.labels.split(",")] if args.labels else None
    def work():
        png = plots.plot(list(args.run_dirs), args.out or None, args.x, labels, args.smooth, args.band,
                         args.mixed_tasks)
        print(f"wrote {png}")

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
    is what the completion script is generated from. `train` offers the options of every algorithm's config (the
    registry's); each run still parses with its own dataclass."""
    classes = [algos.get(name).Config for name in algos.names()]
    from camel_jax.priors import cli as priors_cli
    from camel_jax.ultra import cli as ultra_cli

    fields, hints = [], {}
    for cls in reversed(classes):
        hints.update(typing.get_type_hints(cls, include_extras=True))
    seen = {"algo", "config"}
    for f in (f for cls in classes for f in dataclasses.fields(cls)):
        if f.name not in seen:
            seen.add(f.name)
            default = {"default": f.default} if f.default is not dataclasses.MISSING else {
                "default_factory": f.default_factory}
            fields.append((f.name, hints[f.name], dataclasses.field(**default)))
    algo = ("algo", Literal[algos.names()], dataclasses.field(default=algos.DEFAULT))
    train = _offering_tasks(dataclasses.make_dataclass(
        "Train", [algo, ("config", str, dataclasses.field(default="")), *fields], frozen=True))
    priors_command = Union[tuple(Annotated[_offering_tasks(cls), tyro.conf.subcommand(  # noqa: UP007
        name, description=priors_cli._about(cls))] for name, cls in priors_cli.SUBCOMMANDS.items())]
    priors = dataclasses.make_dataclass("Priors", [("command", priors_command)], frozen=True)
    ultra = dataclasses.make_dataclass("Ultra", [("command", ultra_cli.Command)], frozen=True)
    from camel_jax.comparison import CompareArgs

    commands = {"compare": _offering_tasks(CompareArgs), "train": train, "resume": ResumeArgs,
                "sweep": _offering_tasks(algos.get(algos.DEFAULT).Config), "eval": EvalArgs, "plot": PlotArgs,
                "priors": priors, "ultra": ultra, "completion": CompletionArgs}
    return Union[tuple(Annotated[cls, tyro.conf.subcommand(name)] for name, cls in commands.items())]  # noqa: UP007


def _offering_tasks(cls):
    """`cls` with its --env offering the spec'd task names to the shell: parsing takes any string (gym:ID too), so
    the choices live only in the completion script."""
    from camel_jax.core.config import TASK_CHOICES, TASKS

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
    """Run `work()`; a user error (_user_errors) becomes one line `camel-jax COMMAND: message` and exit code 2; a run
    stopped by a signal one line and EXIT_INTERRUPTED (a second Ctrl-C: 130)."""
    from camel_jax.core import signals

    try:
        work()
    except _user_errors() as e:
        print(f"camel-jax {command}: {e}", file=sys.stderr)
        return 2
    except signals.Interrupted as e:
        print(f"camel-jax {command}: {e}", file=sys.stderr)
        return signals.EXIT_INTERRUPTED
    except KeyboardInterrupt:
        print(f"camel-jax {command}: stopped at once by a second Ctrl-C; the last checkpoint is kept", file=sys.stderr)
        return 130
    return 0


def _split_commas(argv: list[str]) -> list[str]:
    """Accept `--seeds 0,1,2`, `--seeds=0,1,2`, `--seeds 0-9` (a range, both ends in) and `--hidden 256,256` as
    well as tyro's space-separated form."""
    out, flag_of = [], ""
    for a in argv:
        flag, eq, value = a.partition("=")
        if eq and flag in LIST_FLAGS:
            out += [flag, *_items(flag, value)]
            flag_of = ""
            continue
        if flag_of and not a.startswith("-"):
            out += _items(flag_of, a)
        else:
            out.append(a)
            flag_of = a if a in LIST_FLAGS else ""
    return out


def _items(flag: str, text: str) -> list[str]:
    items = [v for v in text.split(",") if v]
    if flag != "--seeds":
        return items
    out = []
    for v in items:
        first, dash, last = v.partition("-")
        if dash and first.isdigit() and last.isdigit():
            if int(last) < int(first):
                raise SystemExit(f"camel-jax: --seeds {v}: a range runs upwards, e.g. --seeds 0-9")
            out += [str(s) for s in range(int(first), int(last) + 1)]
        else:
            out.append(v)
    return out


LIST_FLAGS = ("--seeds", "--hidden")


if __name__ == "__main__":
    raise SystemExit(main())
