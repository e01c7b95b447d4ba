"""From an LLM answer to a candidate prior file: extract the code, translate NumPy to jnp when needed, validate, and
write it with its provenance header. `camel-jax priors import` runs this on answer files; `priors generate` runs it
on each reply after its HTTP call.

- Code: `answers.extract_code` (the last block defining `policy`, completed from earlier blocks).
- jnp or NumPy: code that imports `jax.numpy` is validated as written; code that uses NumPy or `math` (and jnp code
  that fails validation while using them) is translated by `translate.translate`: the mechanical rewrite, or the
  LLM when allowed, certified equal to the answer in float64 on rollout observations (random and zero actions, and
  the answer's own episodes). The answer itself runs only in the sandbox child.
- Files: a valid candidate is written to its path (`<DIR>/<answer stem>.py` for import, `<task>_<n>.py` for
  generate), an invalid one to `<path>.rejected` with the answer's code and the reason (never matched by `*.py`), an
  answer without code writes nothing. Each file is written atomically and replaces a stale file of the other kind.
- Header: task, model, prompt (template file and its sha256), date (UTC), validation, then `prompt_text` (sha256 of
  the exact prompt text), `answer` (the answer and the sha256 of its bytes) and `method` (how the jnp code came
  about, and the command).
"""

from __future__ import annotations

import ast
import dataclasses
import datetime
from collections.abc import Callable
from pathlib import Path

import camel_jax
from camel_jax import specs
from camel_jax.errors import PriorError, SetupError
from camel_jax.priors import allowlist, answers, loader, prompt, sandbox, translate

NO_CODE = "the answer has no ```python code block defining policy(obs)"
REPORT_NAME = "import_report.md"
Translator = Callable[[str, specs.TaskSpec], translate.Translation]  # translate.translate with its options bound


@dataclasses.dataclass(frozen=True)
class Outcome:
    ok: bool
    reason: str  # why it was rejected; "" when valid
    path: Path | None  # the file written (the candidate or its .rejected); None when the answer had no code
    method: str = ""  # how the jnp prior came about; "" when rejected


def provenance(spec: specs.TaskSpec, style: str, model: str, answer: str) -> dict[str, str]:
    """The header fields that do not depend on the code: task, model, prompt, date, prompt_text, answer."""
    text, path, sha = prompt.build_prompt(spec, prompt.STYLES[style])
    return {
        "task": spec.name,
        "model": model,
        "prompt": prompt.provenance(path, sha),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "prompt_text": f"sha256:{prompt.text_sha256(text)} (the text of `camel-jax priors prompt --env {spec.name} "
                       f"--style {style}`)",
        "answer": answer,
    }


def save_candidate(text: str, spec: specs.TaskSpec, path: Path, header: dict[str, str], translator: Translator,
                   limits: sandbox.Limits = sandbox.DEFAULT_LIMITS, command: str | None = None) -> Outcome:
    """Extract, translate if needed, validate and write the answer `text` as candidate `path` (see the module
    docstring); `header` comes from `provenance`."""
    rejected = path.with_name(path.name + ".rejected")
    code = answers.extract_code(text)
    if code is None:
        for stale in (path, rejected):
            stale.unlink(missing_ok=True)
        return Outcome(False, NO_CODE, None)
    try:
        source, validation, method = to_jnp(code, spec, translator, limits)
    except PriorError as e:
        written = loader.write_prior(rejected, code, {**header, "validation": f"invalid: {e}"})
        path.unlink(missing_ok=True)
        return Outcome(False, str(e), written)
    fields = {**header, "validation": validation, "method": method + (f"; command: {command}" if command else "")}
    written = loader.write_prior(path, source, fields)
    rejected.unlink(missing_ok=True)
    return Outcome(True, "", written, method)


def to_jnp(code: str, spec: specs.TaskSpec, translator: Translator,
           limits: sandbox.Limits = sandbox.DEFAULT_LIMITS) -> tuple[str, str, str]:
    """(jnp source, validation summary, how it came about) for answer `code`; PriorError with the reason if none."""
    allowlist.check(code)  # refused whatever its style: the reason as is
    imports = _imported_modules(code)
    as_written = ""
    if "jax.numpy" in imports or not imports & {"numpy", "math"}:
        result = sandbox.validate_source(code, spec.name, limits=limits)
        if result.ok:
            return code, result.summary, "jnp as written in the answer"
        if not imports & {"numpy", "math"}:
            raise PriorError(result.reason)
        as_written = f" (as written: {result.reason})"
    try:
        t = translator(code, spec)
    except PriorError as e:
        raise PriorError(f"NumPy answer not translated: {e}{as_written}") from None
    how = ("mechanically (camel_jax/priors/convert.py)" if t.method == "mechanical"
           else f"by {t.method} ({t.prompt})")
    return t.source, t.validation, f"NumPy answer translated to jnp {how}, equal to the answer {t.certified}"


def import_answers(paths: list[Path], spec: specs.TaskSpec, out_dir: Path, style: str, model: str | None,
                   translator: Translator, limits: sandbox.Limits = sandbox.DEFAULT_LIMITS, command: str = "",
                   on_outcome: Callable[[Path, Outcome], None] | None = None,
                   overwrite: bool = True) -> tuple[list[tuple[Path, Outcome]], Path]:
    """Import each answer file as `<out_dir>/<stem>.py`; returns ([(answer, outcome)], the report's path).
    Usage problems (a missing answer, two answers with one stem, `out_dir` a file or inside the installed package,
    or holding a report of an earlier import unless `overwrite`) raise SetupError before anything is written."""
    read = [answers.read(p) for p in paths]
    stems = [a.path.stem for a in read]
    twice = sorted({s for s in stems if stems.count(s) > 1})
    if twice:
        raise SetupError(f"several answers would become {out_dir}/{twice[0]}.py; give the answer files distinct names")
    package = Path(camel_jax.__file__).resolve().parent
    if out_dir.resolve().is_relative_to(package):
        raise SetupError(f"--out {out_dir} is inside the installed camel_jax package; choose a folder of your own")
    if out_dir.exists() and not out_dir.is_dir():
        raise SetupError(f"--out {out_dir} is a file, not a folder; choose a folder for the candidates")
    if (out_dir / REPORT_NAME).is_file() and not overwrite:  # `priors import` passes overwrite=False by default
        raise SetupError(f"--out {out_dir} has an {REPORT_NAME} from an earlier import; choose another --out, or "
                         "pass --overwrite to replace it and the candidates of the same names")
    rows = []
    for answer in read:
        if answer.error:
            outcome = Outcome(False, answer.error, None)
        else:
            name = model or answer.model or "unknown (not recorded in the answer; pass --model NAME)"
            header = provenance(spec, style, name, f"{answer.path.name} sha256:{answer.sha256}")
            outcome = save_candidate(answer.text, spec, out_dir / f"{answer.path.stem}.py", header, translator,
                                     limits, command)
        rows.append((answer.path, outcome))
        if on_outcome is not None:
            on_outcome(answer.path, outcome)
    path = loader.write_atomic(out_dir / REPORT_NAME, report(rows, spec, style, command))
    return rows, path


def report(rows: list[tuple[Path, Outcome]], spec: specs.TaskSpec, style: str, command: str) -> str:
    """The markdown import report: one row per answer, then the counts."""
    text, path, sha = prompt.build_prompt(spec, prompt.STYLES[style])
    shown = f"`{prompt.display_path(path)}` sha256:{sha}; its text sha256:{prompt.text_sha256(text)}"
    lines = [f"# Imported LLM answers: {spec.name} ({spec.gym_id})", ""]
    lines += [f"Command: `{command}`"] if command else []
    lines += [f"Prompt (`--style {style}`): {shown}", "", "| answer | status | candidate | how, or why not |",
              "|---|---|---|---|"]
    for answer, o in rows:
        file = f"`{o.path}`" if o.path else "none"
        why = (o.method if o.ok else o.reason).replace("|", "\\|")
        lines.append(f"| `{answer}` | {'valid' if o.ok else 'invalid'} | {file} | {why} |")
    valid = sum(o.ok for _, o in rows)
    lines += ["", f"**{valid} of {len(rows)} answers valid**, {len(rows) - valid} invalid.", "",
              "Rejected code is kept as `<name>.py.rejected`; rank the valid candidates with `camel-jax priors evaluate`."]
    return "\n".join(lines) + "\n"


def _imported_modules(code: str) -> set[str]:
    """The modules `code` imports by dotted name (`from jax import numpy` counts as jax.numpy); empty if it does not
    parse."""
    tree = answers.parse_or_none(code)
    if tree is None:
        return set()
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
    return names
