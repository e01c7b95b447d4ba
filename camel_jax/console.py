"""A quiet console: the command line hides the start-up noise of its libraries unless asked for it.

Hidden (`quiet_libraries`, installed by `camel-jax` before a command runs): gymnasium's DeprecationWarning that the
paper's v4 tasks are out of date (raw ANSI codes, and its source line; `loop.announce` says in one line of ours why v4
is used), JAX's UserWarning that float64 is truncated to float32 (priors written with numpy's float64 run in JAX's
float32 by design), and mujoco.mjx's "Failed to import warp" / "Failed to import mujoco_warp" notices printed on
stdout when the optional warp package is absent (`import_mjx`: harmless without an NVIDIA GPU; --mjx-impl warp says
itself what to install). Every other warning is shown. `camel-jax --verbose COMMAND ...` or CAMEL_JAX_VERBOSE=1 shows
everything.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
import warnings

VERBOSE_ENV = "CAMEL_JAX_VERBOSE"
NOISE = (  # (category, regex matched against the start of the message)
    (DeprecationWarning, r"(\x1b\[\d+m)?WARN: The environment \S+-v4 is out of date"),
    (UserWarning, r"Explicitly requested dtype float64 requested in \w+ is not available"),
)
MJX_NOTICES = ("Failed to import warp:", "Failed to import mujoco_warp:")


def verbose() -> bool:
    return os.environ.get(VERBOSE_ENV, "").strip().lower() not in ("", "0", "false", "no")


def quiet_libraries() -> None:
    """Hide the known start-up noise (module docstring) for this process, unless CAMEL_JAX_VERBOSE is set."""
    if verbose():
        return
    try:  # gymnasium puts its own filter for its DeprecationWarnings first when imported: import it before ours
        import gymnasium.logger  # noqa: F401
    except ImportError:
        pass
    for category, message in NOISE:
        warnings.filterwarnings("ignore", message=message, category=category)


def import_mjx() -> None:
    """Import mujoco.mjx (and brax, which imports it) with its warp notices dropped from stdout unless verbose; any
    other output of the import is passed on."""
    if "mujoco.mjx" in sys.modules or verbose():
        import mujoco.mjx
        return
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        import mujoco.mjx  # noqa: F401
    kept = [line for line in buffer.getvalue().splitlines(keepends=True) if not line.startswith(MJX_NOTICES)]
    sys.stdout.write("".join(kept))
