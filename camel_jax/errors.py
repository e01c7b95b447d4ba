"""The two error kinds of the priors subsystem, each carrying a one-line message that names the problem and the fix.

`PriorError`: the prior itself is unacceptable (rejected by validation, not equivalent, no code in a reply);
`SetupError`: the surroundings are wrong (missing API key, unreachable API, unknown task, missing file).
The CLI maps them to exit codes 1 and 2.
"""


class PriorError(ValueError):
    """A prior (source code) was rejected; the message is the first reason."""


class SetupError(RuntimeError):
    """A configuration or environment problem that no prior can fix."""


def fail_at(node, reason: str):
    """Raise PriorError for syntax-tree `node`: "line N: reason"."""
    raise PriorError(f"line {getattr(node, 'lineno', '?')}: {reason}")
