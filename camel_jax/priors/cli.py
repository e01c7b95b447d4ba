"""`camel-jax priors generate|prompt|import|validate|translate|evaluate|select`: the command line of the priors subsystem.

One frozen dataclass per subcommand, parsed by tyro as the union `Command` (as `camel-jax ultra` is; the shell
completion reads the same union). Exit codes: 0 success; 1 the prior(s) were rejected (invalid, not equivalent, none
valid); 2 a usage or setup error (bad option, unknown task, missing file, missing API key, API unreachable), reported
as one line on stderr with no traceback and no file half-written.
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import shlex
import sys
import typing
from pathlib import Path
from typing import Annotated, Literal, Union

import tyro

from camel_jax import llm, render, specs
from camel_jax.core.config import TASKS
from camel_jax.errors import PriorError, SetupError
from camel_jax.priors import importer, loader, prompt, sandbox, select, translate
from camel_jax.priors.generate import generate

PROG = "camel-jax priors"
Style = Literal[tuple(prompt.STYLES)]
Files = Annotated[tuple[Path, ...], tyro.conf.Positional, tyro.conf.arg(metavar="FILE...", help_behavior_hint="(required)")]


@dataclasses.dataclass(frozen=True, kw_only=True)
class Limits:
    timeout: float = sandbox.TIMEOUT_S
    """sandbox wall-clock limit per run (s)"""
    memory_mb: int = sandbox.MEMORY_MB
    """sandbox memory limit per run (MiB)"""


@dataclasses.dataclass(frozen=True, kw_only=True)
class Generate(Limits):
    """Ask the LLM (Anthropic API, key in ANTHROPIC_API_KEY) for candidate priors."""

    env: TASKS
    """task name (a spec in tasks/, or gym:ID)"""
    candidates: int = 5
    """number of candidates (one request each)"""
    out: Path | None = None
    """folder for the candidates; None: the checkout's priors/ (the working directory for a wheel install)"""
    max_tokens: int = llm.MAX_TOKENS
    """reply length limit"""
    style: Style = "jnp"
    """jnp: ask for jax.numpy code; paper, paper-verbatim: the paper's NumPy prompt with or without the no-state rule
    (replies translated to jnp)"""
    model: str = llm.DEFAULT_MODEL
    """Anthropic model name"""
    retries: int = llm.MAX_RETRIES
    """API retries (429, 5xx, network)"""
    api_timeout: float = llm.TIMEOUT_S
    """API timeout per request (s)"""


@dataclasses.dataclass(frozen=True, kw_only=True)
class Prompt:
    """Print the exact prompt to paste into any LLM chat (no key, no network); the sha256 of its text goes to
    stderr."""

    env: TASKS
    """task name (a spec in tasks/, or gym:ID)"""
    style: Style = "paper"
    """paper: the paper's NumPy prompt (its Figure 2) plus the no-state rule; paper-verbatim: the paper's wording
    alone; jnp: the jax.numpy prompt of `generate`"""


@dataclasses.dataclass(frozen=True, kw_only=True)
class Import(Limits):
    """Import LLM answers (markdown, text or Anthropic Messages JSON): extract the code, translate NumPy to jnp,
    validate, write candidates and import_report.md."""

    answers: Annotated[tuple[Path, ...], tyro.conf.Positional, tyro.conf.arg(metavar="ANSWER...", help_behavior_hint="(required)")]
    """answer files (.md, .txt or .json)"""
    out: Path
    """folder for the candidates (<answer stem>.py) and the report"""
    env: TASKS
    """task name (a spec in tasks/, or gym:ID)"""
    model: str | None = None
    """the model that wrote the answers; None: the JSON's `model`"""
    style: Style = "paper"
    """the prompt the answers reply to (recorded with its sha256 in each header)"""
    llm: bool = False
    """translate NumPy code the mechanical rewrite cannot convert through the Anthropic API (needs
    ANTHROPIC_API_KEY)"""
    samples: int = translate.SAMPLES
    """rollout observations to certify on"""
    overwrite: bool = False
    """replace --out's import_report.md and candidates of the same names (without it, a folder that has an
    import_report.md is an error: choose another --out)"""


@dataclasses.dataclass(frozen=True, kw_only=True)
class Validate(Limits):
    """Check prior files in the sandbox (exit 0 when all are valid, else 1)."""

    files: Files
    """prior files"""
    env: TASKS | None = None
    """task to check on; None: each file's `# task:` header (a header that disagrees with --env is an error)"""
    samples: int = sandbox.SAMPLES
    """rollout observations to test on"""


@dataclasses.dataclass(frozen=True, kw_only=True)
class Translate(Limits):
    """Rewrite a NumPy policy as a jnp prior, certified equivalent on rollouts."""

    file: Annotated[Path, tyro.conf.Positional, tyro.conf.arg(metavar="FILE")]
    """the NumPy policy file"""
    env: TASKS
    """task name (a spec in tasks/, or gym:ID)"""
    out: Path | None = None
    """output file; None: <file stem>_jnp.py beside it"""
    no_llm: bool = False
    """only try the mechanical conversion"""
    samples: int = translate.SAMPLES
    """rollout observations to certify on"""
    model: str = llm.DEFAULT_MODEL
    """Anthropic model name"""
    retries: int = llm.MAX_RETRIES
    """API retries (429, 5xx, network)"""
    api_timeout: float = llm.TIMEOUT_S
    """API timeout per request (s)"""


@dataclasses.dataclass(frozen=True, kw_only=True)
class Rollouts:
    files: Files
    """prior files (select: or folders of them, every *.py)"""
    env: TASKS
    """task name (a spec in tasks/, or gym:ID)"""
    episodes: int = 10
    """episodes per candidate"""
    max_steps: int | None = None
    """step limit per episode; None: the task's"""
    seed: int = 0
    """episode e starts from seed + e"""
    report: Path | None = None
    """markdown report path, replaced if it exists; None: a new file beside the first candidate, never replacing
    one (<env>_evaluation_<backend>.md or <env>_selection.md, else _2.md, _3.md, ...)"""
    video: Annotated[Path | None, tyro.conf.arg(metavar="DIR_OR_GIF")] = None
    """draw the first episode of each candidate as DIR/<file stem>.gif (or as this .gif for one candidate) with
    MuJoCo's renderer; needs EGL or OSMesa (see camel_jax/render.py)"""


@dataclasses.dataclass(frozen=True, kw_only=True)
class Evaluate(Rollouts):
    """Roll out candidate priors, rank them and write a markdown report."""

    backend: Literal[select.BACKENDS] = "gymnasium"
    """gymnasium (the default, as for select: the paper's C MuJoCo v4 tasks, fastest on a CPU) or mjx (all rollouts in
    one jitted program: for a GPU; minutes of compiling on a CPU)"""
    rank_by: Literal[select.RANK_BY] = "return"
    """score used for the ranking"""
    write_return: bool = False
    """record each result in its file's `# return:` line"""


@dataclasses.dataclass(frozen=True, kw_only=True)
class Select(Rollouts):
    """Rank candidate priors by forward progress and staying healthy (not by return alone), optionally draw each,
    and write a report naming the chosen one."""

    backend: Literal[select.BACKENDS] = "gymnasium"
    """gymnasium (the default, as for evaluate: the paper's C MuJoCo v4 tasks, fastest on a CPU) or mjx (all
    rollouts in one jitted program: for a GPU; minutes of compiling on a CPU)"""
    rank_by: Literal[select.RANK_BY] = "speed"
    """score used for the ranking"""


def _about(cls) -> str:
    return " ".join(cls.__doc__.split())


SUBCOMMANDS = {"generate": Generate, "prompt": Prompt, "import": Import, "validate": Validate,
               "translate": Translate, "evaluate": Evaluate, "select": Select}
Command = Union[tuple(Annotated[cls, tyro.conf.subcommand(name, description=_about(cls))]  # noqa: UP007
                     for name, cls in SUBCOMMANDS.items())]
DESCRIPTION = "LLM-written prior policies: generate, validate, translate, evaluate."


def main(argv: list[str] | None = None) -> int:
    """Run `camel-jax priors <command> ...` with `argv` (the arguments after "priors"); returns the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        if argv and argv[0] not in SUBCOMMANDS and not argv[0].startswith("-"):
            raise SetupError(f"unknown command '{argv[0]}'; use one of: {', '.join(SUBCOMMANDS)} ({PROG} --help)")
        if argv and argv[0] in SUBCOMMANDS and not {"-h", "--help"} & set(argv):
            _check_usage(argv[0], argv[1:])
        args = tyro.cli(Command, args=argv, prog=PROG, description=DESCRIPTION)
        name = next(k for k, v in SUBCOMMANDS.items() if isinstance(args, v))
        _check_numbers(args)
        if getattr(args, "video", None) is not None:
            render.backend()  # sets MUJOCO_GL before mujoco is imported; no GL: one line before any work
        _import_mjx_quietly()
        return RUNNERS[name](args, argv)
    except SystemExit as e:  # --help, or tyro's own usage errors
        return int(e.code or 0)
    except SetupError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130


def _check_usage(command: str, argv: list[str]) -> None:
    """One line for the usage errors a user makes most (tyro's own message is a multi-line box): a bad choice, a
    missing required option, no file given."""
    from camel_jax.core.commandline import check_choices as _check_choices
    from camel_jax.core.commandline import take as _take

    cls = SUBCOMMANDS[command]
    try:
        _check_choices(cls, argv)
        env = _take(argv, "--env", "")[0]
    except ValueError as e:
        raise SetupError(str(e)) from None
    if env:
        sandbox.load_spec(env)  # an unknown or unsuitable task (gym:ID too): one line
    flags, positional = _required(cls)
    for flag in flags:
        if not any(a == flag or a.startswith(flag + "=") for a in argv):
            raise SetupError(f"{command} needs {flag} (see `{PROG} {command} --help`)")
    if positional and not _positionals(cls, argv):
        raise SetupError(f"{command} needs at least one {positional} (see `{PROG} {command} --help`)")


def _required(cls) -> tuple[list[str], str]:
    """The flags of `cls`'s fields without a default, and the metavar of its positional one ('' if none)."""
    hints = typing.get_type_hints(cls, include_extras=True)
    flags, positional = [], ""
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING:
            continue
        meta = getattr(hints[f.name], "__metadata__", ())
        if tyro.conf.Positional in meta:
            positional = next(m.metavar for m in meta if getattr(m, "metavar", None)).rstrip(".")
        else:
            flags.append("--" + f.name.replace("_", "-"))
    return flags, positional


def _positionals(cls, argv: list[str]) -> list[str]:
    """The arguments of `argv` that are no option's value (flags of booleans take none)."""
    hints = typing.get_type_hints(cls, include_extras=True)
    flags = {"--" + f.name.replace("_", "-") for f in dataclasses.fields(cls) if hints[f.name] is not bool}
    out, i = [], 0
    while i < len(argv):
        if argv[i] in flags:
            i += 2
            continue
        if not argv[i].startswith("-"):
            out.append(argv[i])
        i += 1
    return out


def _check_numbers(args) -> None:
    """Counts and limits must be above zero: one line naming the option."""
    for name in ("timeout", "memory_mb", "candidates", "max_tokens", "samples", "episodes", "api_timeout",
                 "max_steps"):
        value = getattr(args, name, None)
        if value is not None and value <= 0:
            raise SetupError(f"--{name.replace('_', '-')} {value}: use a positive number")


def _generate(args, argv) -> int:
    client = llm.make_client(max_retries=args.retries, timeout_s=args.api_timeout)

    def show(c) -> None:
        where = f" ({c.path})" if c.path else ""
        print(f"candidate {c.number}: " + ("valid" if c.ok else f"invalid: {c.reason}") + where, flush=True)

    results = generate(specs.load(args.env), args.candidates, args.model, client, args.out, args.max_tokens,
                       _limits(args), on_candidate=show, style=args.style, command=f"{PROG} {shlex.join(argv)}")
    valid = sum(c.ok for c in results)
    print(f"{valid} of {len(results)} candidates valid")
    return 0 if valid else 1


def _prompt(args, argv) -> int:
    text, path, sha = prompt.build_prompt(specs.load(args.env), prompt.STYLES[args.style])
    sys.stdout.write(text)
    print(f"prompt text sha256:{prompt.text_sha256(text)} (template {prompt.provenance(path, sha)})", file=sys.stderr)
    return 0


def _import(args, argv) -> int:
    client = llm.make_client() if args.llm else None  # a missing key stops here, before any file is written
    translator = functools.partial(translate.translate, client=client, use_llm=args.llm, samples=args.samples,
                                   limits=_limits(args))

    def show(answer, o) -> None:
        print(f"VALID {o.path}" if o.ok else f"INVALID {answer}: {' '.join(o.reason.split())}", flush=True)

    rows, report = importer.import_answers(args.answers, specs.load(args.env), args.out, args.style, args.model,
                                           translator, _limits(args), f"{PROG} {shlex.join(argv)}", show,
                                           overwrite=args.overwrite)
    valid = sum(o.ok for _, o in rows)
    print(f"{valid} of {len(rows)} answers valid; report written to {report}")
    return 0 if valid else 1


def _validate(args, argv) -> int:
    tasks = [loader.task_of(f, args.env) for f in args.files]  # every file's task checked before any runs
    results = [(f, sandbox.validate_file(f, task, args.samples, _limits(args))) for f, task in zip(args.files, tasks)]
    for f, r in results:
        print(f"{f}: {r.summary}")
    return 0 if all(r.ok for _, r in results) else 1


def _translate(args, argv) -> int:
    connect = functools.partial(llm.make_client, max_retries=args.retries, timeout_s=args.api_timeout)
    try:
        t = translate.translate(sandbox.read_source(args.file), specs.load(args.env), connect, args.model,
                                not args.no_llm, args.samples, _limits(args))
    except PriorError as e:
        print(f"{args.file}: not translated: {e}")
        return 1
    out = args.out or args.file.with_name(f"{args.file.stem}_jnp.py")
    method = "mechanical translation" if t.method == "mechanical" else f"{t.method} translation"
    header = {
        "task": args.env,
        "model": f"{method} of {args.file.name}",
        "prompt": t.prompt or "none (mechanical rewrite, camel_jax/priors/convert.py)",
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "validation": f"{t.validation}; equal to {args.file.name} {t.certified}",
    }
    loader.write_prior(out, t.source, header)
    print(f"{out}: {method}, equivalent {t.certified}")
    return 0


def _evaluate(args, argv) -> int:
    default = args.files[0].parent / f"{specs.file_stem(args.env)}_evaluation_{args.backend}.md"
    results = _rank(args, argv, args.files, args.report or loader.unused_path(default), choose=False)
    if args.write_return:
        for r in (r for r in results if r.ok):
            source = r.path.read_text()
            header = {**loader.parse_header(source), "return": select.return_field(r, args.env, args.backend)}
            loader.write_prior(r.path, source, header)
    return 0 if any(r.ok for r in results) else 1


def _select(args, argv) -> int:
    files = [f for arg in args.files for f in (sorted(arg.glob("*.py")) if arg.is_dir() else [arg])]
    if not files:
        raise SetupError(f"no *.py candidate files in {', '.join(map(str, args.files))}; write or import candidates "
                         "there first (camel-jax priors generate or import)")
    report = files[0].parent / f"{specs.file_stem(args.env)}_selection.md"
    results = _rank(args, argv, files, args.report or loader.unused_path(report),
                    choose=True)
    chosen = [r for r in results if r.ok]
    print(f"chosen: {chosen[0].path}" if chosen else "no candidate chosen: none passed validation")
    return 0 if chosen else 1


def _rank(args, argv, files: list[Path], path: Path, choose: bool) -> list[select.Evaluation]:
    """Roll out `files`, rank them, write the report to `path` (and print it); the ranked evaluations."""
    for f in files:
        sandbox.read_source(f)  # a missing file is a usage error, before any rollout
    results = select.evaluate(files, args.env, args.episodes, args.backend, args.max_steps, args.seed, args.rank_by,
                              args.video)
    text = select.report(results, args.env, args.backend, args.episodes, args.max_steps, args.seed, args.rank_by,
                         command=f"{PROG} {shlex.join(argv)}", choose=choose, report_dir=path.parent)
    loader.write_atomic(path, text)
    print(text, end="")
    print(f"report written to {path}")
    return results


def _import_mjx_quietly() -> None:
    """mujoco.mjx prints "Failed to import warp" on stdout when warp is absent (harmless on CPU); stdout is for
    results, so import it once with that notice dropped."""
    from camel_jax.console import import_mjx

    import_mjx()


def _limits(args) -> sandbox.Limits:
    return sandbox.Limits(args.timeout, args.memory_mb)


RUNNERS = {"generate": _generate, "prompt": _prompt, "import": _import, "validate": _validate,
           "translate": _translate, "evaluate": _evaluate, "select": _select}
