"""LLM answers as files: plain text or markdown pasted from any chat window, or Anthropic Messages JSON; and the
policy code inside an answer.

Which code is taken from an answer (`extract_code`):
- the fenced code blocks (``` or ~~~, tagged python/py/python3 or untagged, indented fences included) that are
  complete (an unclosed fence, as in a truncated answer, is ignored); an answer without fences counts as one block
  when it is Python that defines `policy` (code pasted on its own);
- the last block defining a top-level `policy` wins (answers usually end with the final version);
- names that block uses but does not define (a helper or constant shown in an earlier block) are taken from the
  latest earlier block that defines them, imports first;
- a top-level `if __name__ == "__main__":` demo block is dropped (it is never part of the prior), and so are the
  imports nothing else uses (`import gymnasium as gym` for that demo).
The result is untrusted code like any other: it runs only after validation.
"""

from __future__ import annotations

import ast
import builtins
import dataclasses
import hashlib
import json
import re
import textwrap
from pathlib import Path

from camel_jax.errors import SetupError

_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<lang>[^\s`]*)[^`]*$")
_PYTHON = {"", "python", "py", "python3"}
_DEFINES_POLICY = re.compile(r"^def[ \t]+policy[ \t]*\(", re.MULTILINE)


@dataclasses.dataclass(frozen=True)
class Answer:
    """One answer file: its text, the model named inside it (JSON only), the sha256 of its bytes, or why it cannot
    be read as an answer."""

    path: Path
    text: str
    model: str | None
    sha256: str
    error: str = ""


def read(path: Path) -> Answer:
    """Read an answer file. A missing file raises SetupError; an unreadable one gives an Answer with `error`."""
    if not path.is_file():
        raise SetupError(f"answer file not found: {path}; check the path")
    raw = path.read_bytes()
    sha = hashlib.sha256(raw).hexdigest()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        return Answer(path, "", None, sha, f"not UTF-8 text ({e.reason} at byte {e.start}); save the answer as UTF-8")
    if path.suffix.lower() != ".json" and not text.lstrip().startswith("{"):
        return Answer(path, text, None, sha)
    try:
        message = json.loads(text)
    except ValueError as e:
        if path.suffix.lower() == ".json":
            return Answer(path, "", None, sha, f"not valid JSON ({e}); save the Messages API response as it came")
        return Answer(path, text, None, sha)  # text that merely starts with "{"
    text, model, error = messages_text(message)
    return Answer(path, text, model, sha, error)


def messages_text(message: object) -> tuple[str, str | None, str]:
    """(text, model, error) of an Anthropic Messages API response: the text blocks of its `content`, joined."""
    if isinstance(message, dict) and message.get("type") == "error":
        error = message.get("error") if isinstance(message.get("error"), dict) else {}
        return "", None, f"an API error response, not an answer: {str(error.get('message', ''))[:200]}"
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        content = [{"type": "text", "text": content}]
    if not isinstance(content, list):
        return "", None, ("JSON that is not an Anthropic Messages response (no `content` list); save the response "
                          "body as it came, or paste the answer's text into a .md file")
    text = "\n\n".join(b["text"] for b in content
                       if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str))
    model = message.get("model")
    return text, model if isinstance(model, str) and model.strip() else None, ""


def code_blocks(text: str, langs: frozenset[str] | set[str] = _PYTHON) -> list[str]:
    """The complete fenced code blocks of `text` tagged with one of `langs` (default: Python or untagged), dedented,
    in order."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    blocks, i = [], 0
    while i < len(lines):
        m = _OPEN.match(lines[i])
        if m is None:
            i += 1
            continue
        fence = m["fence"]
        close = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
        end = next((j for j in range(i + 1, len(lines)) if close.match(lines[j])), None)
        if end is None:
            break  # an unclosed fence: the rest is not a complete block
        if m["lang"].lower() in langs:
            blocks.append(textwrap.dedent("\n".join(lines[i + 1:end])).strip("\n") + "\n")
        i = end + 1
    return blocks


def extract_code(text: str) -> str | None:
    """The policy code of an answer (see the module docstring), or None when it has none."""
    blocks = code_blocks(text)
    if not blocks and parse_or_none(text):
        blocks = [text.strip("\n") + "\n"]
    chosen = [i for i, b in enumerate(blocks) if _DEFINES_POLICY.search(b)]
    if not chosen:
        return None
    last = chosen[-1]
    code = _complete(_without(blocks[last], _drop_main_guard), blocks[:last])
    return _without(code, _drop_unused_imports)


def parse_or_none(code: str) -> ast.Module | None:
    """The syntax tree of `code`, or None when it is not Python."""
    try:
        return ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _drop_main_guard(tree: ast.Module) -> list[ast.stmt]:
    """Top-level `if __name__ == "__main__":` blocks: demo code, never part of a prior."""
    return [n for n in tree.body if isinstance(n, ast.If) and "__name__" in ast.unparse(n.test)
            and "__main__" in ast.unparse(n.test)]


def _drop_unused_imports(tree: ast.Module) -> list[ast.stmt]:
    """Top-level imports that nothing uses (`import gymnasium as gym` for a demo block)."""
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    return [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom)) and not _binds([n]) & used]


def _without(code: str, find) -> str:
    """`code` without the top-level statements that `find(tree)` returns (line by line, comments kept)."""
    tree = parse_or_none(code)
    if tree is None:
        return code
    lines = code.splitlines(keepends=True)
    for node in sorted(find(tree), key=lambda n: n.lineno, reverse=True):
        del lines[node.lineno - 1:node.end_lineno]
    return "".join(lines).strip("\n") + "\n"


def _complete(code: str, earlier: list[str]) -> str:
    """`code` with the definitions it lacks taken from `earlier` blocks (the latest definition of each name)."""
    tree = parse_or_none(code)
    if tree is None:
        return code
    bound = _binds(tree.body)
    needed = _free(tree) - bound
    imports, definitions = [], []
    for block in reversed(earlier):
        block_tree = parse_or_none(block)
        for node in reversed(block_tree.body if block_tree else []):
            names = _binds([node])
            if not names & needed:
                continue
            (imports if isinstance(node, (ast.Import, ast.ImportFrom)) else definitions).insert(
                0, ast.get_source_segment(block, node))
            bound |= names
            needed = (needed | _free(ast.Module(body=[node], type_ignores=[]))) - bound
    if not imports and not definitions:
        return code
    return "\n".join(imports) + "\n\n" * bool(imports) + "\n\n".join(definitions) + "\n\n\n" + code


def _binds(nodes: list[ast.stmt]) -> set[str]:
    """Names bound at the top level by `nodes`: functions, imports, assignment targets."""
    names = set()
    for node in nodes:
        if isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    return names


def _free(tree: ast.Module) -> set[str]:
    """Names `tree` reads that it binds nowhere (over-approximate: any binding anywhere counts) and that are not
    builtins."""
    loaded, bound = set(), set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name):
            (loaded if isinstance(n.ctx, ast.Load) else bound).add(n.id)
        elif isinstance(n, ast.arg):
            bound.add(n.arg)
    return loaded - bound - _binds(tree.body) - set(dir(builtins))
