"""Interrupts: SIGTERM and SIGUSR1 (what SLURM and cloud preemption send first) and Ctrl-C (SIGINT) ask a run to stop
instead of killing it. While a run trains, `stop_requests()` holds handlers that only note the signal; the loop
finishes the chunk it is in, writes a checkpoint and raises `Interrupted`, which the command line prints as one line and exits with `EXIT_INTERRUPTED`; `camel-jax resume RUN_DIR`
then continues exactly. A signal that arrives before the first training step removes the new run directory, so that
nothing blocks the same `--out`. A second Ctrl-C stops at once (KeyboardInterrupt). Outside the main thread (where
Python cannot set handlers) nothing is caught.
The work that compiles (a new run's initial state, and a process's first chunk: minutes for MJX on a CPU) is not
waited for: it runs in a helper thread (`unless_stopped`) while the main thread watches for a signal, and a signal
abandons it, so a run stops during its compilation at once, at the step it started from (its last checkpoint, or
nothing for a new run).
"""

from __future__ import annotations

import contextlib
import shutil
import signal
import threading
from pathlib import Path

EXIT_INTERRUPTED = 75  # EX_TEMPFAIL: try again later (camel-jax resume)
SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGUSR1", "SIGINT") if hasattr(signal, name))


class Interrupted(Exception):
    """A run stopped by a signal: the message says where it stopped and how to continue."""

    def __init__(self, run_dir: Path | None, step: int, name: str):
        self.run_dir, self.step, self.name = run_dir, step, name
        if run_dir is None:
            text = f"stopped by {name} before the first training step; nothing was kept (train again)"
        elif step == 0:
            text = f"stopped by {name} before the first training step; camel-jax resume {run_dir} starts it"
        else:
            text = (f"stopped by {name} at env step {step:,}, checkpoint written; continue with camel-jax resume "
                    f"{run_dir}")
        super().__init__(text)


# Set when compiling work was abandoned and still runs in its helper thread: the command line then exits at once
# (os._exit) instead of waiting for that thread at the interpreter's exit.
ABANDONED = threading.Event()


def unless_stopped(stop: StopRequests, work):
    """(True, `work()`), run in a helper thread while this one waits for it or for a stop request; (False, None)
    when a stop came first: the work is abandoned (its thread goes on by itself and its result is never used) and
    ABANDONED is set. Outside the main thread (no handlers) `work()` runs here."""
    if threading.current_thread() is not threading.main_thread():
        return True, work()
    box: dict = {}

    def target():
        try:
            box["out"] = work()
        except BaseException as e:  # noqa: BLE001 - re-raised in the caller's thread
            box["error"] = e

    thread = threading.Thread(target=target, name="camel-jax-first-chunk", daemon=True)
    thread.start()
    while thread.is_alive():
        thread.join(0.05)  # the handlers run in this thread between the waits
        if stop.requested and thread.is_alive():
            ABANDONED.set()
            return False, None
    if "error" in box:
        raise box["error"]
    return True, box["out"]


class StopRequests:
    requested: str = ""  # the name of the first signal received, "" while none

    def check(self, run_dir: Path, step: int, fresh: bool) -> None:
        """Raise Interrupted when a signal came. Before the first training step (`step` 0) a `fresh` run directory
        (made by this process) is removed; later, the caller has written its checkpoint."""
        if not self.requested:
            return
        if step == 0:
            if fresh:
                shutil.rmtree(run_dir, ignore_errors=True)
            raise Interrupted(None if fresh else run_dir, step, self.requested)
        raise Interrupted(run_dir, step, self.requested)


@contextlib.contextmanager
def stop_requests():
    """Within: SIGTERM, SIGUSR1 and SIGINT set `.requested` instead of stopping the process (see the docstring)."""
    stop = StopRequests()
    if threading.current_thread() is not threading.main_thread():
        yield stop
        return

    def note(signum, frame):
        if stop.requested and signum == signal.SIGINT:
            raise KeyboardInterrupt  # a second Ctrl-C: at once
        stop.requested = stop.requested or signal.Signals(signum).name

    before = {s: signal.signal(s, note) for s in SIGNALS}
    try:
        yield stop
    finally:
        for s, handler in before.items():
            signal.signal(s, handler)
