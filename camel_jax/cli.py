"""`camel-jax`: the command line. `train` is generated from `Config` (field names are the flags); `priors ...`
is the priors toolbox (camel_jax.priors.cli). Bad input gives one line naming the problem and the fix, exit 2."""

from __future__ import annotations

import sys

USAGE = """usage: camel-jax {train,priors} ...

  train     train TD3 / CAMEL (camel-jax train --help lists every option with its default)
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
    print(f"camel-jax: unknown command '{command}'; use one of: train, priors (camel-jax --help)", file=sys.stderr)
    return 2


def _train(argv: list[str]) -> int:
    import tyro

    from camel_jax.config import Config

    config = tyro.cli(Config, args=_split_commas(argv), prog="camel-jax train",
                      description="Train masking-aware TD3 (CAMEL) on MJX or gymnasium MuJoCo.")
    try:
        config.check()
        from camel_jax.loop import train

        train(config)
    except (ValueError, RuntimeError, FileExistsError, FileNotFoundError) as e:
        print(f"camel-jax train: {e}", file=sys.stderr)
        return 2
    return 0


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
