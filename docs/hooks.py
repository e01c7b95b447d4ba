"""mkdocs hooks of the documentation site (mkdocs.yml `hooks:`), run at every build:

- `<!-- defaults: camel_jax.algos.td3.config:Config -->` in a page becomes a table of that dataclass's fields: the flag, the
  default and the field's docstring, read from the class itself, so a changed default changes the page;
- `$$ ... $$` blocks and `$...$` inline (outside code) become MathML, which browsers render without JavaScript or a network;
- the figures under bench/results/ (two levels deep) join the site at the same paths, so pages show the committed
  results without copies (`![...](../bench/results/compare_hopper.png)` from a page in a subfolder).

A marker naming a class that does not exist, or a formula latex2mathml cannot read, stops the build.
"""

from __future__ import annotations

import ast
import dataclasses
import html
import importlib
import inspect
import itertools
import re
import textwrap
import typing
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[1]
DEFAULTS = re.compile(r"<!--\s*defaults:\s*([\w.]+):(\w+)\s*-->")
FENCE = re.compile(r"^(```|~~~)")
DISPLAY_MATH = re.compile(r"^\$\$\n(.*?)\n\$\$$", re.DOTALL | re.MULTILINE)
INLINE_MATH = re.compile(r"(?<![\w$\\])\$(?=\S)([^$\n]+?)(?<=\S)\$(?![\w$])")
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)


def field_docs(cls) -> dict[str, str]:
    """The docstring under each field of dataclass `cls` (the string literal after its annotated assignment)."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    body = tree.body[0].body
    docs = {}
    for node, after in itertools.pairwise(body):
        if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant) and isinstance(after.value.value, str)):
            docs[node.target.id] = " ".join(after.value.value.split())
    return docs


def default_text(field: dataclasses.Field) -> str:
    if field.default is not dataclasses.MISSING:
        value = field.default
    elif field.default_factory is not dataclasses.MISSING:
        value = field.default_factory()
    else:
        return "(required)"
    if isinstance(value, tuple):
        return ",".join(map(str, value)) if value else "(none)"
    if isinstance(value, str):
        return value if value else "''"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def defaults_table(module: str, name: str) -> str:
    """A markdown table of dataclass `module:name`: flag, default, meaning."""
    try:
        cls = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as e:
        raise PluginError(f"defaults marker {module}:{name}: {e}") from None
    if not dataclasses.is_dataclass(cls):
        raise PluginError(f"defaults marker {module}:{name} is not a dataclass")
    docs = field_docs(cls)
    hints = typing.get_type_hints(cls, include_extras=True)
    rows = ["| flag | default | meaning |", "|---|---|---|"]
    for field in dataclasses.fields(cls):
        meaning = html.escape(docs.get(field.name, ""), quote=False).replace("|", "\\|")
        default = default_text(field).replace("|", "\\|")
        positional = "Positional" in repr(hints.get(field.name, ""))
        flag = field.name.upper() if positional else f"--{field.name.replace('_', '-')}"
        rows.append(f"| `{flag}` | `{default}` | {meaning} |")
    source = f"`{module}.{name}`"
    return "\n".join(rows) + f"\n\n*Generated at build time from {source} by `docs/hooks.py`.*\n"


def math_to_mathml(markdown: str) -> str:
    """`$$ ... $$` blocks outside fenced code, each on lines of its own, as MathML."""
    from latex2mathml.converter import convert

    out, chunk, in_fence = [], [], False
    for line in markdown.splitlines(keepends=True):
        if FENCE.match(line.lstrip()):
            if not in_fence:
                out.append(_convert_math("".join(chunk), convert))
                chunk = []
            in_fence = not in_fence
            out.append(line)
        elif in_fence:
            out.append(line)
        else:
            chunk.append(line)
    out.append(_convert_math("".join(chunk), convert))
    return "".join(out)


def _convert_math(text: str, convert) -> str:
    def one(match: re.Match) -> str:
        try:
            mathml = convert(match.group(1).strip(), display="block")
        except Exception as e:  # noqa: BLE001 (latex2mathml raises many types of its own)
            raise PluginError(f"cannot convert the formula {match.group(1).strip()!r}: {e}") from None
        return f'<div class="math">{mathml}</div>'

    def inline(match: re.Match) -> str:
        try:
            return convert(match.group(1))
        except Exception as e:  # noqa: BLE001 (latex2mathml raises many types of its own)
            raise PluginError(f"cannot convert the formula {match.group(1)!r}: {e}") from None

    text = DISPLAY_MATH.sub(one, text)
    # inline formulas, outside code spans (a code span's `$` is shell, not math)
    out, last = [], 0
    for span in CODE_SPAN.finditer(text):
        out += [INLINE_MATH.sub(inline, text[last:span.start()]), span.group(0)]
        last = span.end()
    return "".join([*out, INLINE_MATH.sub(inline, text[last:])])


def on_page_markdown(markdown: str, page, config, files) -> str:
    markdown = DEFAULTS.sub(lambda m: defaults_table(m.group(1), m.group(2)), markdown)
    return math_to_mathml(markdown)


def on_files(files, config):
    for png in sorted((ROOT / "bench" / "results").glob("*.png")) + sorted(
            (ROOT / "bench" / "results").glob("*/*.png")):
        uri = png.relative_to(ROOT).as_posix()
        if files.get_file_from_path(uri) is None:
            files.append(File.generated(config, uri, abs_src_path=str(png)))
    return files
