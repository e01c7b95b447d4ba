"""`camel-jax priors generate|prompt|import|validate|translate|evaluate|select`: the command line of the priors subsystem.

Exit codes: 0 success; 1 the prior(s) were rejected (invalid, not equivalent, none valid); 2 a usage or setup
error (bad option, unknown task, missing file, missing API key, API unreachable), reported as one line on stderr
with no traceback and no file half-written.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime
import functools
import io
import shlex
import sys
from pathlib import Path

from camel_jax import render, specs
from camel_jax.priors import importer, llm, loader, prompt, sandbox, select, translate
from camel_jax.priors.errors import PriorError, SetupError
from camel_jax.priors.generate import generate

PROG = "camel-jax priors"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line instead of usage + message
        raise SetupError(f"{message} (see `{self.prog} --help`)")


class _Help(argparse.ArgumentDefaultsHelpFormatter):
    def _get_help_string(self, action):  # "(default: ...)" only where there is a value to show
        return action.help if action.default is None or action.default is False else super()._get_help_string(action)


def main(argv: list[str] | None = None) -> int:
    """Run `camel-jax priors <command> ...` with `argv` (the arguments after "priors"); returns the exit code."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = build_parser().parse_args(argv)
        if getattr(args, "video", None) is not None:
            render.backend()  # sets MUJOCO_GL before mujoco is imported; no GL: one line before any work
        _import_mjx_quietly()
        return args.run(args, argv)
    except SystemExit as e:  # --help
        return int(e.code or 0)
    except SetupError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog=PROG, description="LLM-written prior policies: generate, validate, translate, evaluate.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    count, seconds = _positive(int), _positive(float)

    def command(name: str, run, help: str, env_help: str = "") -> argparse.ArgumentParser:
        p = commands.add_parser(name, help=help, description=help, formatter_class=_Help)
        p.add_argument("--env", required=not env_help, choices=specs.available(),
                       help=env_help or "task name (a spec in envs/)")
        p.set_defaults(run=run)
        return p

    def limits(p: argparse.ArgumentParser) -> None:
        p.add_argument("--timeout", type=seconds, default=sandbox.TIMEOUT_S, help="sandbox wall-clock limit per run (s)")
        p.add_argument("--memory-mb", type=count, default=sandbox.MEMORY_MB, help="sandbox memory limit per run (MiB)")

    def model(p: argparse.ArgumentParser) -> None:
        p.add_argument("--model", default=llm.DEFAULT_MODEL, help="Anthropic model name")
        p.add_argument("--retries", type=int, default=llm.MAX_RETRIES, help="API retries (429, 5xx, network)")
        p.add_argument("--api-timeout", type=seconds, default=llm.TIMEOUT_S, help="API timeout per request (s)")

    def style(p: argparse.ArgumentParser, default: str, help: str) -> None:
        p.add_argument("--style", choices=prompt.STYLES, default=default, help=help)

    p = command("generate", _generate, "ask the LLM (Anthropic API, key in ANTHROPIC_API_KEY) for candidate priors")
    p.add_argument("--candidates", type=count, default=5, help="number of candidates (one request each)")
    p.add_argument("--out", type=Path, default=None,
                   help="folder for the candidates (default: the checkout's priors/; the working directory for a wheel)")
    p.add_argument("--max-tokens", type=count, default=llm.MAX_TOKENS, help="reply length limit")
    style(p, "jnp", "jnp: ask for jax.numpy code; paper, paper-verbatim: the paper's NumPy prompt with or without "
                   "the no-state rule (replies translated to jnp)")
    model(p)
    limits(p)

    p = command("prompt", _prompt, "print the exact prompt to paste into any LLM chat (no key, no network); the "
                                   "sha256 of its text goes to stderr")
    style(p, "paper", "paper: the paper's NumPy prompt (its Figure 2) plus the no-state rule; paper-verbatim: the "
                     "paper's wording alone; jnp: the jax.numpy prompt of `generate`")

    p = command("import", _import, "import LLM answers (markdown, text or Anthropic Messages JSON): extract the "
                                   "code, translate NumPy to jnp, validate, write candidates and import_report.md")
    p.add_argument("answers", nargs="+", type=Path, metavar="ANSWER", help="answer files (.md, .txt or .json)")
    p.add_argument("--out", type=Path, required=True, help="folder for the candidates (<answer stem>.py) and report")
    p.add_argument("--model", default=None, help="the model that wrote the answers (default: the JSON's `model`)")
    style(p, "paper", "the prompt the answers reply to (recorded with its sha256 in each header)")
    p.add_argument("--llm", action="store_true", help="translate NumPy code the mechanical rewrite cannot convert "
                                                     "through the Anthropic API (needs ANTHROPIC_API_KEY)")
    p.add_argument("--samples", type=count, default=translate.SAMPLES, help="rollout observations to certify on")
    limits(p)

    p = command("validate", _validate, "check prior files in the sandbox (exit 0 when all are valid, else 1)",
                env_help="task to check on (default: each file's `# task:` header; a header that disagrees is an "
                         "error)")
    p.add_argument("files", nargs="+", type=Path, help="prior files")
    p.add_argument("--samples", type=count, default=sandbox.SAMPLES, help="rollout observations to test on")
    limits(p)

    p = command("translate", _translate, "rewrite a NumPy policy as a jnp prior, certified equivalent on rollouts")
    p.add_argument("file", type=Path, help="the NumPy policy file")
    p.add_argument("--out", type=Path, default=None, help="output file (default: <file stem>_jnp.py beside it)")
    p.add_argument("--no-llm", action="store_true", help="only try the mechanical conversion")
    p.add_argument("--samples", type=count, default=translate.SAMPLES, help="rollout observations to certify on")
    model(p)
    limits(p)

    def rollouts(p: argparse.ArgumentParser, backend: str, rank_by: str, report: str) -> None:
        p.add_argument("--episodes", type=count, default=10, help="episodes per candidate")
        p.add_argument("--backend", choices=select.BACKENDS, default=backend,
                       help="mjx: all rollouts in one jitted program; gymnasium: the paper's C MuJoCo v4 tasks")
        p.add_argument("--max-steps", type=count, default=None, help="step limit per episode (default: the task's)")
        p.add_argument("--seed", type=int, default=0, help="episode e starts from seed + e")
        p.add_argument("--rank-by", choices=select.RANK_BY, default=rank_by, help="score used for the ranking")
        p.add_argument("--report", type=Path, default=None,
                       help=f"markdown report path, replaced if it exists (default: <folder of the first file>/"
                            f"{report}, or {Path(report).stem}_2.md, _3.md, ... when that exists: never replaced)")
        p.add_argument("--video", type=Path, default=None, metavar="DIR_OR_GIF",
                       help="draw the first episode of each candidate as DIR/<file stem>.gif (or as this .gif for "
                            "one candidate) with MuJoCo's renderer; needs EGL or OSMesa (see camel_jax/render.py)")

    p = command("evaluate", _evaluate, "roll out candidate priors, rank them and write a markdown report")
    p.add_argument("files", nargs="+", type=Path, help="prior files")
    rollouts(p, "mjx", "return", "<env>_evaluation_<backend>.md")
    p.add_argument("--write-return", action="store_true", help="record each result in its file's `# return:` line")

    p = command("select", _select, "rank candidate priors by forward progress and staying healthy (not by return "
                                   "alone), optionally draw each, and write a report naming the chosen one")
    p.add_argument("files", nargs="+", type=Path, help="candidate prior files, or folders of them (every *.py)")
    rollouts(p, "gymnasium", "speed", "<env>_selection.md")
    return parser


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
                                           translator, _limits(args), f"{PROG} {shlex.join(argv)}", show)
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
        "validation": f"{t.validation}; equal to {args.file.name} within {t.max_abs_diff:.1e} on {t.samples} "
                      "rollout observations",
    }
    loader.write_prior(out, t.source, header)
    print(f"{out}: {method}, equivalent within {t.max_abs_diff:.1e} on {t.samples} rollout observations")
    return 0


def _evaluate(args, argv) -> int:
    default = args.files[0].parent / f"{args.env}_evaluation_{args.backend}.md"
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
    results = _rank(args, argv, files, args.report or loader.unused_path(files[0].parent / f"{args.env}_selection.md"),
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
    with contextlib.redirect_stdout(io.StringIO()):
        import mujoco.mjx  # noqa: F401


def _limits(args) -> sandbox.Limits:
    return sandbox.Limits(args.timeout, args.memory_mb)


def _positive(cast):
    """An argparse type: a number of type `cast` above zero."""

    def parse(text: str):
        try:
            value = cast(text)
        except ValueError:
            value = None
        if value is None or value <= 0:
            raise argparse.ArgumentTypeError(f"{text!r} is not a positive {cast.__name__}")
        return value

    return parse
