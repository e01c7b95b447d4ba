"""The allow-list: what a prior's source may contain, checked on its syntax tree without running anything, and the
restricted namespace it runs in once accepted.

A prior is a small module: allowed imports, module-level constants, exactly one top-level `def policy(obs):` and
any top-level helper functions it calls (`purity` adds the module-level rules: constants only, no recursion, no
state kept between calls). Inside the functions, only plain expressions and assignments, `if`, bounded `for` loops
(over `range(N)` with N known before running: a literal, an int constant, `len` of a literal constant), nested
helper functions and lambdas, the allowed modules' public functions, types and constants, and a few harmless
builtins (the loop-bounding ones, `range`, `zip`, `enumerate`, `reversed`, may not be rebound). Refused, with the
line and the fix: other imports, dunder or private names and attributes, file/process/introspection attributes
(`np.load`, `x.tofile`, `.format`, frame attributes), other submodules (`np.lib`), module state
(`np.typecodes`), attribute assignment, modules used as values, `while`, unbounded loops, `global`/`nonlocal`,
`try`/`with`/`raise`, classes, generators, huge literals. `exec_policy` then runs the accepted source with only
those builtins and modules in its namespace, so a prior never sees `__import__`, `open` or the real builtins, and
freezes its constants.
"""

from __future__ import annotations

import ast
import builtins
import collections
import dataclasses
import inspect
import math
import sys
from collections.abc import Callable

import jax.numpy as jnp
import numpy as np

from camel_jax.errors import PriorError
from camel_jax.errors import fail_at as _fail
from camel_jax.priors import arraylike, purity

# Modules a prior may import, by dotted name. Any alias is accepted; the canonical ones are jnp, np and math.
MODULES = {"jax.numpy": jnp, "numpy": np, "math": math}
# Submodules reachable from an allowed module (`jnp.linalg.norm`); all others (np.lib, np.ctypeslib, ...) are refused.
SUBMODULES = frozenset({"linalg", "fft"})
INDEX_HELPERS = frozenset({"c_", "r_", "s_", "index_exp", "mgrid", "ogrid"})  # stateless `jnp.r_[...]` helpers
SAFE_BUILTINS = frozenset({
    "abs", "all", "any", "bool", "complex", "dict", "divmod", "enumerate", "filter", "float", "int", "isinstance",
    "len", "list", "map", "max", "min", "pow", "range", "reversed", "round", "set", "slice", "sorted", "sum",
    "tuple", "zip",
})
# Attribute names refused on any object: file I/O, raw memory, global state, callbacks, string-format escapes.
DENIED_ATTRIBUTES = frozenset({
    "load", "loads", "save", "savez", "savez_compressed", "savetxt", "loadtxt", "genfromtxt", "fromfile",
    "fromregex", "memmap", "open_memmap", "tofile", "dump", "dumps", "DataSource", "info", "ctypeslib",
    "lib", "core", "testing", "f2py", "distutils", "random", "show_config", "show_runtime", "get_include",
    "set_printoptions", "printoptions", "seterr", "seterrcall", "setbufsize", "errstate", "unsafe_buffer_pointer",
    "addressable_data", "addressable_shards", "device_buffer", "copy_to_host_async", "client", "device", "devices",
    "sharding", "callback", "pure_callback", "io_callback", "debug", "format", "format_map", "mro", "system",
    "popen", "environ", "modules",
})  # `.base`, `.flags`, `.setflags`, `.ctypes`: `purity.STATE_ROUTES`
LOOP_BUILTINS = frozenset({"range", "enumerate", "reversed", "zip"})  # trusted by the loop-bound check
DENIED_ATTRIBUTE_PREFIXES = ("_", "gi_", "cr_", "ag_", "f_", "tb_", "co_")  # private/dunder, frame and code objects

_MISSING = object()
MAX_LOOP = 64  # iterations of one `for` loop (a literal bound)
MAX_LOOP_PRODUCT = 4096  # iterations of nested loops together
MAX_INT_LITERAL = 10**9
MAX_STR_LITERAL = 10_000
MAX_SOURCE_CHARS = 200_000

_STATEMENTS = (ast.FunctionDef, ast.Return, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.If, ast.Expr,
               ast.Pass, ast.Break, ast.Continue)
_EXPRESSIONS = (ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Lambda, ast.IfExp, ast.Dict, ast.Set, ast.ListComp,
                ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.Compare, ast.Call, ast.Constant, ast.Attribute,
                ast.Subscript, ast.Starred, ast.Name, ast.List, ast.Tuple, ast.Slice)
_PARTS = (ast.comprehension, ast.arguments, ast.arg, ast.keyword, ast.expr_context, ast.operator, ast.unaryop,
          ast.cmpop, ast.boolop)
_ALLOWED_NODES = _STATEMENTS + _EXPRESSIONS + _PARTS
_REFUSALS = {  # friendlier reasons for constructs that are not on the list
    ast.While: "`while` loops are not allowed; use `for i in range(N)` with a small literal N, or jnp functions",
    ast.Global: "`global` is not allowed",
    ast.Nonlocal: "`nonlocal` is not allowed",
    ast.Try: "`try` is not allowed",
    ast.With: "`with` is not allowed",
    ast.Raise: "`raise` is not allowed",
    ast.Assert: "`assert` is not allowed",
    ast.Delete: "`del` is not allowed",
    ast.ClassDef: "classes are not allowed",
    ast.AsyncFunctionDef: "async functions are not allowed",
    ast.Import: "imports are only allowed at the top of the module",
    ast.ImportFrom: "imports are only allowed at the top of the module",
    ast.Yield: "generators (`yield`) are not allowed",
    ast.YieldFrom: "generators (`yield`) are not allowed",
    ast.Await: "`await` is not allowed",
    ast.NamedExpr: "the walrus operator `:=` is not allowed",
    ast.JoinedStr: "f-strings are not allowed",
}


def check(source: str) -> dict[str, object]:
    """Check `source` against the allow-list without running it; return {alias: module}. Raises PriorError."""
    return check_tree(parse(source))


def parse(source: str) -> ast.Module:
    if len(source) > MAX_SOURCE_CHARS:
        raise PriorError(f"source is {len(source)} characters; a prior must stay under {MAX_SOURCE_CHARS}")
    try:
        return ast.parse(source)
    except SyntaxError as e:
        raise PriorError(f"line {e.lineno}: syntax error: {e.msg}") from None
    except (ValueError, RecursionError, MemoryError) as e:
        raise PriorError(f"source cannot be parsed: {type(e).__name__}: {e}") from None


def check_tree(tree: ast.Module) -> dict[str, object]:
    """The checks of `check` on a parsed module."""
    modules: dict[str, object] = {}
    functions = []
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            modules.update(_check_import(node))
        elif isinstance(node, ast.FunctionDef):
            functions.append(node)
        elif not (isinstance(node, (ast.Assign, ast.AnnAssign)) or is_docstring(node)):
            _fail(node, "only imports, constants and functions (`def policy(obs):` and its helpers) are allowed at "
                        "module level")
    policies = [f for f in functions if f.name == "policy"]
    if len(policies) != 1:
        names = ", ".join(f.name for f in functions) or "none"
        raise PriorError(f"define exactly one top-level function `policy(obs)` (found {len(policies)}; functions: "
                         f"{names}); helper functions beside it are fine")
    _check_signature(policies[0])
    purity.check_state_routes(tree)
    checker = _Checker(modules, _bound_names(tree), _Known.of(tree))
    for node in tree.body:
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            checker.visit(node)
    purity.check_module(tree, modules)
    return modules


def exec_policy(source: str) -> Callable:
    """Run the accepted `source` with restricted builtins and only its allowed modules; return its `policy`.
    jax.numpy is seen through `arraylike.namespace` (lists and tuples taken as arrays where NumPy takes them). The
    module's constants are frozen (`purity.freeze`) before `policy` is returned."""
    tree = parse(source)
    modules = check_tree(tree)
    tree.body = [n for n in tree.body if not isinstance(n, (ast.Import, ast.ImportFrom))]
    safe = {name: getattr(builtins, name) for name in SAFE_BUILTINS}
    seen = {alias: arraylike.namespace(m) if m is jnp else m for alias, m in modules.items()}
    namespace = {"__builtins__": {**safe, "__import__": _loaded_modules_only}, **seen}
    exec(compile(tree, "<prior>", "exec"), namespace)  # noqa: S102 -- checked source, restricted namespace
    computed = purity.computed_names(tree)
    for name in purity.constant_names(tree):
        if name in namespace:
            if name in computed:
                purity.check_data(namespace[name], name)
            namespace[name] = purity.freeze(namespace[name], name)
    return namespace["policy"]


def _loaded_modules_only(name, globals=None, locals=None, fromlist=(), level=0):
    """The `__import__` of a prior's namespace. A prior's own code cannot reach it (dunder names and import
    statements are refused above), but library C code called from the prior's frame imports through that frame's
    builtins: jax's dispatch imports numpy and ml_dtypes when a module-level constant such as `jnp.sqrt(9.81 / 0.7)`
    is computed. Only modules already loaded are returned; nothing new is ever imported."""
    wanted = name if fromlist else name.partition(".")[0]
    if level == 0 and wanted in sys.modules:
        return sys.modules[wanted]
    raise ImportError(f"a prior may not import {name!r}")


def _check_import(node: ast.Import | ast.ImportFrom) -> dict[str, object]:
    fix = "the only imports allowed are `import jax.numpy as jnp`, `import numpy as np` and `import math`"
    if isinstance(node, ast.ImportFrom):
        if node.module == "jax" and node.level == 0 and [a.name for a in node.names] == ["numpy"]:
            return {node.names[0].asname or "numpy": jnp}
        _fail(node, f"`from {node.module or '.'} import ...` is not allowed; {fix}")
    found = {}
    for alias in node.names:
        if alias.name not in MODULES or (alias.asname is None and "." in alias.name):
            _fail(node, f"`import {alias.name}` is not allowed; {fix}")
        found[alias.asname or alias.name] = MODULES[alias.name]
    for name in found:
        if name.startswith("__"):
            _fail(node, f"dunder alias '{name}' is not allowed")
    return found


def _check_signature(func: ast.FunctionDef) -> None:
    a = func.args
    if func.decorator_list:
        _fail(func, "decorators are not allowed on `policy`")
    if len(a.posonlyargs) + len(a.args) != 1 or a.vararg or a.kwarg or a.kwonlyargs or a.defaults:
        _fail(func, "`policy` must take exactly one argument, the observation: `def policy(obs):`")


def is_docstring(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _bound_names(tree: ast.Module) -> set[str]:
    """Every name the module binds anywhere: assignment and loop targets, parameters, function names."""
    return set(_bindings(tree))


def _bindings(tree: ast.Module):
    """The name of every binding in the module, once per binding."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            yield node.id
        elif isinstance(node, ast.arg):
            yield node.arg
        elif isinstance(node, ast.FunctionDef):
            yield node.name


class _Checker(ast.NodeVisitor):
    """Walks the tree and raises PriorError at the first construct outside the allow-list."""

    def __init__(self, modules: dict[str, object], bound: set[str], known: _Known):
        self.modules = modules
        self.bound = bound
        self.known = known
        self.loop_product = 1
        self.attribute_bases: set[int] = set()  # ids of Name nodes used as `module.<attr>` bases

    def generic_visit(self, node: ast.AST) -> None:
        if not isinstance(node, _ALLOWED_NODES):
            _fail(node, _REFUSALS.get(type(node), f"`{type(node).__name__}` is not allowed in a prior"))
        super().generic_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        if node.decorator_list:
            _fail(node, "decorators are not allowed")
        self._check_binding(node, node.name)
        self.generic_visit(node)

    def visit_arg(self, node: ast.arg) -> None:
        self._check_binding(node, node.arg)
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            self._check_name(node, node.id)
        else:
            self._check_binding(node, node.id)
        if node.id in self.modules:
            if isinstance(node.ctx, ast.Store):
                _fail(node, f"module alias '{node.id}' cannot be reassigned")
            if id(node) not in self.attribute_bases:
                _fail(node, f"module '{node.id}' may only be used as `{node.id}.<function>`")
        elif isinstance(node.ctx, ast.Load) and node.id not in self.bound and node.id not in SAFE_BUILTINS:
            _fail(node, f"name '{node.id}' is not defined or not allowed (only jnp/np/math functions and a few "
                        "builtins such as abs, min, max, range, len are available)")

    def visit_Attribute(self, node: ast.Attribute) -> None:
        attr = node.attr
        if not isinstance(node.ctx, ast.Load):
            _fail(node, f"assigning to attributes (`.{attr} = ...`) is not allowed")
        if attr.startswith(DENIED_ATTRIBUTE_PREFIXES) or attr in DENIED_ATTRIBUTES:
            kind = "private or dunder" if attr.startswith("_") else "file, process, global-state or introspection"
            _fail(node, f"attribute '.{attr}' is not allowed ({kind} access)")
        if isinstance(node.value, ast.Name) and node.value.id in self.modules:
            self.attribute_bases.add(id(node.value))
        module = self._static_object(node.value)
        if module is not None:  # `module.attr`: resolve it now
            obj = getattr(module, attr, _MISSING)
            base = ast.unparse(node.value)
            if obj is _MISSING:
                _fail(node, f"'{base}' has no attribute '{attr}'")
            if inspect.ismodule(obj) and attr not in SUBMODULES:
                _fail(node, f"submodule '{base}.{attr}' is not allowed (only {', '.join(sorted(SUBMODULES))})")
            if not (inspect.ismodule(obj) or callable(obj) or isinstance(obj, (int, float, type(None), np.bool_))
                    or attr in INDEX_HELPERS):
                _fail(node, f"'{base}.{attr}' is module state ({type(obj).__name__}); only functions, types, "
                            "constants and the linalg/fft submodules are allowed")
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        v = node.value
        if isinstance(v, int) and not isinstance(v, bool) and abs(v) > MAX_INT_LITERAL:
            _fail(node, f"integer literal {v} is too large (limit {MAX_INT_LITERAL:.0e})")
        if isinstance(v, (str, bytes)) and len(v) > MAX_STR_LITERAL:
            _fail(node, f"string literal of {len(v)} characters is too large (limit {MAX_STR_LITERAL})")

    def visit_For(self, node: ast.For) -> None:
        if node.orelse:
            _fail(node, "`for ... else` is not allowed")
        self._bounded_loop(node, [node.target, node.iter], node.body)

    def visit_comprehension(self, node: ast.comprehension) -> None:
        if node.is_async:
            _fail(node.iter, "async comprehensions are not allowed")
        self._bounded_loop(node.iter, [node.target, node.iter], node.ifs)

    def _bounded_loop(self, where: ast.AST, header: list[ast.AST], body: list[ast.AST]) -> None:
        n = self.known.iterations(header[1])
        if n is None:
            _fail(where, f"loops must run over `range(N)` (N up to {MAX_LOOP}: an int literal, a module-level int "
                         "constant or `len` of a module-level literal list/tuple/array) or over such a list/tuple "
                         "(no loops over traced values)")
        self.loop_product *= max(n, 1)
        if self.loop_product > MAX_LOOP_PRODUCT:
            _fail(where, f"nested loops run more than {MAX_LOOP_PRODUCT} iterations in total")
        for child in header + body:
            self.visit(child)
        self.loop_product //= max(n, 1)

    def _check_name(self, node: ast.AST, name: str) -> None:
        if name.startswith("__"):
            _fail(node, f"dunder name '{name}' is not allowed")

    def _check_binding(self, node: ast.AST, name: str) -> None:
        self._check_name(node, name)
        if name in LOOP_BUILTINS:
            _fail(node, f"'{name}' is a builtin that bounds loops; do not rebind it, choose another name")
        if name in self.modules and not isinstance(node, ast.Name):
            _fail(node, f"module alias '{name}' cannot be reassigned")

    def _static_object(self, node: ast.expr):
        """The module that `node` (`jnp`, `jnp.linalg`) names, or None when it is not a module chain."""
        if isinstance(node, ast.Name):
            return self.modules.get(node.id)
        if isinstance(node, ast.Attribute):
            base = self._static_object(node.value)
            obj = getattr(base, node.attr, None) if base is not None else None
            return obj if inspect.ismodule(obj) else None
        return None


@dataclasses.dataclass(frozen=True)
class _Known:
    """What bounds a loop without running anything: literals, and module-level constants bound once in the whole
    module (so no local can shadow them) to an int literal (`N = 3`) or to a literal sequence (`KP = (1.0, 2.0)`,
    `KP = np.array([1.0, 2.0])`), whose length is known."""

    ints: dict[str, int]
    lengths: dict[str, int]

    @classmethod
    def of(cls, tree: ast.Module) -> _Known:
        bindings = collections.Counter(_bindings(tree))
        ints, lengths = {}, {}
        for node in tree.body:
            target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else \
                node.target if isinstance(node, ast.AnnAssign) else None
            if not isinstance(target, ast.Name) or bindings[target.id] != 1 or node.value is None:
                continue
            value = node.value
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and len(value.args) == 1 \
                    and value.func.attr in ("array", "asarray"):
                value = value.args[0]
            if _int_literal(value) is not None:
                ints[target.id] = _int_literal(value)
            elif isinstance(value, (ast.List, ast.Tuple)):
                lengths[target.id] = len(value.elts)
        return cls(ints, lengths)

    def iterations(self, it: ast.expr) -> int | None:
        """How many items a loop over `it` yields, when that is known without running anything; else None."""
        if isinstance(it, (ast.List, ast.Tuple)):
            return len(it.elts)
        if isinstance(it, ast.Name):
            return self.lengths.get(it.id)
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and not it.keywords):
            return None
        if it.func.id == "range":
            args = [self.integer(a) for a in it.args]
            if not 1 <= len(args) <= 3 or None in args or (len(args) == 3 and args[2] == 0):
                return None
            n = len(range(*args))
            return n if n <= MAX_LOOP else None
        if it.func.id in ("enumerate", "reversed") and len(it.args) == 1:
            return self.iterations(it.args[0])
        if it.func.id == "zip" and it.args:
            counts = [self.iterations(a) for a in it.args]
            return None if None in counts else min(counts)
        return None

    def integer(self, node: ast.expr) -> int | None:
        """An int literal, a known int constant, or `len(<known sequence>)`."""
        if isinstance(node, ast.Name):
            return self.ints.get(node.id)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" \
                and len(node.args) == 1 and not node.keywords:
            return self.iterations(node.args[0]) if isinstance(node.args[0], (ast.Name, ast.List, ast.Tuple)) else None
        return _int_literal(node)


def _int_literal(node: ast.expr) -> int | None:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _int_literal(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None
