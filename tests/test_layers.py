"""The layering contract (issue #25), read from the source's imports (every import statement, those inside functions
included), with nothing run:

- no import cycle between camel_jax's modules;
- the run shell (camel_jax.core) imports no algorithm (camel_jax.algos.<name>) and no method (camel_jax.priors,
  camel_jax.ultra), not even through another module: it reaches algorithms only through the registry
  (camel_jax.algos), which imports none itself;
- an algorithm's folder imports no other algorithm's folder;
- the bottom layer (specs, errors, llm, envs, console) imports nothing above it;
- each method owns its prompts: ULTRA reaches no part of CAMEL's prompt code (camel_jax.priors.prompt), and its
  templates sit in its own package (camel_jax/ultra/prompts/), none of them in the priors' folder;
- `if algo == ...` appears nowhere outside camel_jax/algos/ (the registry, and each algorithm checking its own name):
  the registry maps names to code.

CI runs it with the rest of the suite (.ci/run runs it first, on its own, so a broken contract fails fast).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "camel_jax"
BOTTOM = ("camel_jax.specs", "camel_jax.errors", "camel_jax.llm", "camel_jax.envs", "camel_jax.console")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports(path: Path, known: dict[str, Path]) -> set[str]:
    """The camel_jax modules `path` imports: `from a.b import c` is a.b.c where that is a module, else a.b."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("camel_jax")}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("camel_jax"):
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                out.add(sub if sub in known else node.module)
    return {m for m in out if m in known}


def graph() -> dict[str, set[str]]:
    known = modules()
    return {m: imports(p, known) - {m} for m, p in known.items()}


def reach(g: dict[str, set[str]], start: str) -> dict[str, str]:
    """Every module `start` imports, directly or through others: {module: the module that imports it}."""
    seen, todo = {}, [start]
    while todo:
        m = todo.pop()
        for n in g[m]:
            if n not in seen:
                seen[n] = m
                todo.append(n)
    return seen


def chain(seen: dict[str, str], start: str, end: str) -> str:
    path = [end]
    while path[-1] != start:
        path.append(seen[path[-1]])
    return " -> ".join(reversed(path))


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return out


def algorithms() -> list[str]:
    return sorted(p.name for p in (PACKAGE / "algos").iterdir() if (p / "__init__.py").is_file())


def test_no_import_cycle():
    found = cycles(graph())
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_shell_reaches_no_algorithm_and_no_method():
    g = graph()
    forbidden = ("camel_jax.priors", "camel_jax.ultra", *(f"camel_jax.algos.{a}" for a in algorithms()))
    bad = []
    for m in sorted(g):
        if m == "camel_jax.core" or m.startswith("camel_jax.core."):
            seen = reach(g, m)
            bad += [chain(seen, m, n) for n in sorted(seen) if n.startswith(forbidden)]
    assert not bad, "the run shell imports an algorithm or a method:\n" + "\n".join(bad)


def test_the_registry_imports_no_algorithm():
    assert not {n for n in graph()["camel_jax.algos"] if n.startswith("camel_jax.algos.")}


def test_algorithms_do_not_import_each_other():
    g, names = graph(), algorithms()
    assert {"td3", "ppo"} <= set(names)
    bad = [f"{m} -> {n}" for m in sorted(g) for n in sorted(g[m]) for a in names for b in names
           if a != b and m.startswith(f"camel_jax.algos.{a}.") and n.startswith(f"camel_jax.algos.{b}")]
    assert not bad, "algorithms import each other:\n" + "\n".join(bad)


def test_the_bottom_layer_imports_nothing_above_it():
    g = graph()
    bad = []
    for m in sorted(g):
        if m.startswith(BOTTOM):
            seen = reach(g, m)
            bad += [chain(seen, m, n) for n in sorted(seen) if not n.startswith(BOTTOM)]
    assert not bad, "the bottom layer imports from above:\n" + "\n".join(bad)


def test_ultra_owns_its_prompts():
    g = graph()
    bad = []
    for m in sorted(g):
        if m == "camel_jax.ultra" or m.startswith("camel_jax.ultra."):
            seen = reach(g, m)
            bad += [chain(seen, m, n) for n in sorted(seen) if n == "camel_jax.priors.prompt"]
    assert not bad, "ULTRA reaches CAMEL's prompt code:\n" + "\n".join(bad)
    ours = sorted(p.name for p in (PACKAGE / "ultra" / "prompts").glob("*.md"))
    assert ours == ["ultra_identify_v1.md", "ultra_improve_v1.md", "ultra_improve_v2.md"]
    assert not list((ROOT / "priors" / "prompts").glob("ultra_*")), "ULTRA's prompts are back in priors/prompts/"


def test_no_branch_on_the_algorithm_outside_the_registry():
    pattern = re.compile(r"algo\s*[!=]=|[!=]=\s*['\"](td3|ppo)['\"]")
    bad = [f"{p.relative_to(ROOT)}:{i}: {line.strip()}" for p in PACKAGE.rglob("*.py")
           if PACKAGE / "algos" not in p.parents for i, line in enumerate(p.read_text().splitlines(), 1)
           if pattern.search(line)]
    assert not bad, "branches on the algorithm's name outside the registry:\n" + "\n".join(bad)


@pytest.mark.parametrize("g, expected", [({"a": {"b"}, "b": {"a"}, "c": set()}, [["a", "b"]]),
                                         ({"a": {"b"}, "b": {"c"}, "c": set()}, [])])
def test_the_cycle_finder_finds_cycles(g, expected):
    assert cycles(g) == expected


def test_the_import_reader_sees_imports_inside_functions(tmp_path):
    known = {"camel_jax.x": tmp_path / "x.py", "camel_jax.y": tmp_path / "y.py", "camel_jax.z": tmp_path / "z.py"}
    known["camel_jax.x"].write_text("from camel_jax import y\n\n\ndef f():\n    from camel_jax.z import g\n")
    assert imports(known["camel_jax.x"], known) == {"camel_jax.y", "camel_jax.z"}
