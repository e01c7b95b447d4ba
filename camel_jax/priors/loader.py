"""Loading a prior file as a jittable function, and its provenance header.

A prior file starts with a header of comment lines::

    # camel-jax prior
    # task: hopper
    # model: claude-sonnet-4-6            (or "hand-written from priors/prompts/locomotion_v1.md")
    # prompt: priors/prompts/locomotion_v1.md sha256:<hex of the prompt file>
    # date: 2026-11-22T10:00:00Z
    # validation: valid: (11,) -> (3,) float, ...
    # return: 1234.5 +- 6.7 over 10 episodes on Hopper-v4 (optional)

followed by the code. `load_prior` validates the file in the sandbox before running it in-process. The shipped
priors also state what made them (camel_jax/priors/kinds.py reads these into every run's record)::

    # kind: llm | tuned | hand                (an LLM's answer, a controller searched for in simulation, hand-written)
    # search: how much simulation went into it, in words
    # search_env_steps: 350000                (that cost in env steps, when it was recorded)
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from camel_jax import specs
from camel_jax.errors import PriorError
from camel_jax.priors import allowlist, sandbox

HEADER_TITLE = "# camel-jax prior"
HEADER_KEYS = ("task", "model", "prompt", "date", "validation", "return")  # written in this order, others after


def load_prior(path: str | Path, env_name: str) -> Callable:
    """The `policy` of the prior file at `path` for task `env_name`: obs (obs_dim,) -> act (act_dim,), jittable.

    Validates first (raises PriorError with the first reason when invalid; SetupError for a missing file or an
    unknown task), then runs the module with restricted builtins and only its allowed modules.
    """
    source = sandbox.read_source(path)
    task = parse_header(source).get("task")
    if task is not None and not specs.compatible(task, env_name):
        raise PriorError(f"{path} is a prior for task '{task}' (its header), not '{env_name}'; pick the right file")
    result = _validate(source, env_name)
    if not result.ok:
        raise PriorError(f"{path}: {result.reason}")
    return allowlist.exec_policy(source)


def shipped_prior(env_name: str) -> Path:
    """The default prior of task `env_name` (`--prior TASK`): the LLM-written answer that `camel-jax priors select`
    chose, copied with its provenance and selection header to `priors/llm/<env_name>/selected.py`; else its v4 task's
    where the two versions observe and act alike (hopper-v5: priors/llm/hopper/selected.py). SetupError (one line: how
    to make one) if there is none."""
    from camel_jax.errors import SetupError

    folder = specs.data_dir("priors") / "llm"
    own = folder / specs.file_stem(env_name) / "selected.py"
    if own.is_file():
        return own
    family = specs.load(env_name).family
    if (folder / family / "selected.py").is_file() and specs.compatible(family, env_name):
        return folder / family / "selected.py"
    out = f"priors/llm/{specs.file_stem(env_name)}"
    raise SetupError(f"no LLM prior is selected yet for task '{env_name}' ({out}/selected.py does not exist); make "
                     f"one: camel-jax priors prompt --env {env_name} --style paper > prompt.md, ask an LLM for five "
                     f"answers, camel-jax priors import ANSWER.md... --env {env_name} --out DIR, camel-jax priors select "
                     f"DIR --env {env_name}, then copy the chosen file to {out}/selected.py (or pass --prior FILE)")


TUNED = "tuned:"  # `--prior tuned:NAME`: a controller found or tuned in simulation, priors/tuned/NAME.py


def tuned_names() -> tuple[str, ...]:
    """The controllers in priors/tuned/ (found by random search or tuned by hand in simulation; not an LLM's)."""
    return tuple(sorted(p.stem for p in (specs.data_dir("priors") / "tuned").glob("*.py")))


def tuned_prior(name: str) -> Path:
    """`priors/tuned/<name>.py`; ValueError (one line naming the choices) for a name that is not there."""
    if name not in tuned_names():
        raise ValueError(f"--prior {TUNED}{name}: no tuned controller of that name; use one of "
                         f"{', '.join(TUNED + n for n in tuned_names())}")
    return specs.data_dir("priors") / "tuned" / f"{name}.py"


def prior_path(prior: str | Path) -> Path:
    """`prior` as a file: `tuned:NAME` is priors/tuned/NAME.py; a task name that is not an existing path is that
    task's default, LLM-written prior (also from a wheel install, where priors/ lives inside the package). A missing
    `priors/<name>.py` of a controller that moved to priors/tuned/ is a ValueError saying where it went."""
    text = str(prior)
    if text.startswith(TUNED):
        return tuned_prior(text[len(TUNED):])
    path = Path(prior)
    if path.exists():
        return path
    if text in specs.available() or specs.is_gym(text):
        return shipped_prior(text)
    if path.parent.name == "priors" and path.suffix == ".py" and path.stem in tuned_names():
        raise ValueError(f"{text} has moved: that controller was found or tuned in simulation and is now --prior "
                         f"{TUNED}{path.stem} (priors/tuned/{path.name}); --prior {path.stem.split('_')[0]} is the "
                         "task's LLM-written prior")
    return path


@lru_cache(maxsize=64)
def _validate(source: str, env_name: str) -> sandbox.ValidationResult:
    return sandbox.validate_source(source, env_name)


def task_of(path: str | Path, env_name: str | None) -> str:
    """The task to check the prior file at `path` on: `env_name`, else its header's `task:`. SetupError (one line
    with the fix) when neither names one, or when they disagree."""
    from camel_jax.errors import SetupError

    task = parse_header(sandbox.read_source(path)).get("task")
    if env_name is None and task is None:
        raise SetupError(f"{path} has no `# task:` header; name its task with --env ({', '.join(specs.available())})")
    if env_name is not None and task is not None and not specs.compatible(task, env_name):
        raise SetupError(f"{path} is a prior for {task} (its header says `task: {task}`), not {env_name}; drop --env "
                         f"or pass --env {task}")
    return env_name or task


def unused_path(path: Path) -> Path:
    """`path` if nothing is there, else the first free `<stem>_2<suffix>`, `<stem>_3<suffix>`, ... beside it."""
    candidate, n = path, 2
    while candidate.exists():
        candidate, n = path.with_name(f"{path.stem}_{n}{path.suffix}"), n + 1
    return candidate


def parse_header(source: str) -> dict[str, str]:
    """The `# key: value` lines of the provenance header ({} when the file has no camel-jax header)."""
    lines = source.splitlines()
    if not lines or lines[0].strip() != HEADER_TITLE:
        return {}
    header = {}
    for line in lines[1:]:
        if not line.startswith("#"):
            break
        key, sep, value = line[1:].partition(":")
        if sep:
            header[key.strip()] = value.strip()
    return header


def strip_header(source: str) -> str:
    """`source` without its provenance header (unchanged when it has none)."""
    lines = source.splitlines(keepends=True)
    if not lines or lines[0].strip() != HEADER_TITLE:
        return source
    i = 1
    while i < len(lines) and lines[i].startswith("#"):
        i += 1
    return "".join(lines[i:]).lstrip("\n")


def format_header(header: dict[str, str]) -> str:
    keys = [k for k in HEADER_KEYS if k in header] + [k for k in header if k not in HEADER_KEYS]
    lines = [HEADER_TITLE]
    for key in keys:
        value = " ".join(str(header[key]).split())  # one line
        if not key or ":" in key or not key.isprintable():
            raise ValueError(f"invalid header key {key!r}; use a plain word")
        lines.append(f"# {key}: {value}")
    return "\n".join(lines) + "\n"


def write_prior(path: str | Path, source: str, header: dict[str, str]) -> Path:
    """Write `source` under a fresh provenance `header` (replacing any old one), atomically; returns the path."""
    return write_atomic(path, format_header(header) + "\n" + strip_header(source).rstrip("\n") + "\n")


def write_atomic(path: str | Path, text: str | bytes) -> Path:
    """Write `text` (or bytes) to `path` through a temporary file and a rename, so no reader ever sees half a file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb" if isinstance(text, bytes) else "w") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
