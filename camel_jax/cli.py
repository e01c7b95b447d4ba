"""`camel-jax`: the command line. `train` is generated from `Config` (field names are the flags); `resume RUN_DIR`
continues a run from its latest checkpoint; `priors ...` is the priors toolbox (camel_jax.priors.cli). Bad input
gives one line naming the problem and the fix, exit 2."""

from __future__ import annotations

import dataclasses
import sys
from typing import Annotated

import tyro

USAGE = """usage: camel-jax {train,resume,priors} ...

  train     train TD3 / CAMEL (camel-jax train --help lists every option with its default)
  resume    continue a killed or interrupted run from its latest checkpoint: camel-jax resume RUN_DIR
  priors    generate, validate, translate and evaluate prior policies (camel-jax priors --help)
"""


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    command, rest = argv[0], argv[1:]
    if command == "priors":
        from camel_jax.priors.cli import main as priors_main

        return priors_main(rest)
    if command == "train":
        return _train(rest)
    if command == "resume":
        return _resume(rest)
    print(f"camel-jax: unknown command '{command}'; use one of: train, resume, priors (camel-jax --help)",
          file=sys.stderr)
    return 2


def _train(argv: list[str]) -> int:
    from camel_jax.config import Config

    config = tyro.cli(Config, args=_split_commas(argv), prog="camel-jax train",
                      description="Train masking-aware TD3 (CAMEL) on MJX or gymnasium MuJoCo.")
    from camel_jax.loop import train

    try:
        train(config)  # checks the config first
    except _user_errors() as e:
        print(f"camel-jax train: {e}", file=sys.stderr)
        return 2
    return 0


@dataclasses.dataclass(frozen=True)
class ResumeArgs:
    run_dir: Annotated[str, tyro.conf.Positional, tyro.conf.arg(metavar="RUN_DIR")]
    """the run directory to continue (its config.json and checkpoints/)"""
    quiet: bool = False
    """no progress lines (a run started with --quiet stays quiet)"""


def _resume(argv: list[str]) -> int:
    args = tyro.cli(ResumeArgs, args=argv, prog="camel-jax resume",
                    description="Continue a run from its latest checkpoint to its --total-steps, with the config it "
                                "was started with; metrics.csv and eval.csv are first cut back to the checkpoint.")
    from camel_jax.loop import resume

    try:
        resume(args.run_dir, quiet=True if args.quiet else None)
    except _user_errors() as e:
        print(f"camel-jax resume: {e}", file=sys.stderr)
        return 2
    return 0


def _user_errors() -> tuple[type[Exception], ...]:
    """Errors caused by the user's input or files: reported as one line (anything else keeps its traceback)."""
    from camel_jax.checkpoint import CheckpointError
    from camel_jax.priors.errors import SetupError

    return (ValueError, FileExistsError, FileNotFoundError, SetupError, CheckpointError)


def _split_commas(argv: list[str]) -> list[str]:
    """Accept `--seeds 0,1,2` and `--hidden 256,256` as well as tyro's space-separated form."""
    out, listy = [], False
    for a in argv:
        if listy and not a.startswith("-") and "," in a:
            out += [v for v in a.split(",") if v]
        else:
            out.append(a)
        listy = a in ("--seeds", "--hidden")
    return out


if __name__ == "__main__":
    raise SystemExit(main())
