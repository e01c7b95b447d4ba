"""Command-line helpers that every command tree shares (camel-jax's, `priors`' and `ultra`'s): one line for a bad
choice, and the errors that are the user's to fix."""

from __future__ import annotations

import dataclasses
import typing
from typing import Literal

CHOICE_NAMES = {"env": "task", "backend": "backend", "mjx_impl": "MJX implementation", "rank_by": "score"}


def check_choices(cls, argv: list[str]) -> None:
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


def user_errors() -> tuple[type[Exception], ...]:
    """Errors caused by the user's input or files: reported as one line (anything else keeps its traceback)."""
    from camel_jax.core.checkpoint import CheckpointError
    from camel_jax.errors import SetupError

    return (ValueError, FileExistsError, FileNotFoundError, SetupError, CheckpointError)


def take(argv: list[str], flag: str, default: str) -> tuple[str, list[str]]:
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
