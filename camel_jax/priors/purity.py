"""A prior is a pure function of its observation: the module-level rules the allow-list adds on top of its node checks.

- Module level: imports, constants and functions. A constant is a literal, a tuple/list/dict/set of constants,
  arithmetic on constants, an earlier constant, a module constant (`np.pi`), a call of a short list of pure
  NumPy/jnp/math functions on constants (`np.array([...])`, `math.radians(30)`), or a call of one of the module's
  own functions, defined above it, on constants (`_R = _ry(-0.004)`: its body passes every check below, and the value
  it returns must be plain data, `check_data`, and is frozen like any constant); nothing else runs at import.
- Functions: helpers may sit beside `policy` (every body is checked by the same allow-list). Default values must be
  literal constants (a default is computed once and shared by every call), annotations may not call anything,
  a function defined with `def` may only be called or passed straight as an argument of a call (`_state(o, to_h)`;
  never stored or returned), and no function may call itself, directly or through others (a function passed to a
  call counts as called by the caller and by the callee, when the callee is one of the module's functions).
- No state between calls: no function may mutate a module-level name (mutating methods such as `.append`, item
  assignment, augmented assignment, `out=`, NumPy's in-place functions), so a prior cannot act differently on its
  thousandth call (or trace) than on its first. `freeze` makes the module's constants immutable once it has run,
  which also stops mutation through aliases (`g = GAINS; g[0] = 1`, a helper mutating its argument) that the static
  check cannot follow: lists become tuples, dicts read-only mappings, sets frozensets, NumPy arrays read-only
  copies (a copy owns its memory: no writable array stays behind a constant that was a view).
- No route around the freezing (`check_state_routes`, before anything runs): `.base` (the array a view was taken
  from), `.flags`/`.setflags` (a read-only array made writable again), `.ctypes` (raw memory), object arrays
  (`dtype=object`, `np.object_`, a dtype string such as 'O', `np.frompyfunc`: they hold mutable Python objects that
  freezing does not reach). A module-level object array that slips past the static check (`np.array([{}])`) is
  refused by `freeze` when the module runs.
"""

from __future__ import annotations

import ast
import dataclasses
import math
import types
import warnings

import jax
import numpy as np

from camel_jax.errors import PriorError, fail_at

# Calls allowed in module-level constants, on constant arguments only.
ARRAY_FUNCTIONS = frozenset({
    "array", "asarray", "zeros", "ones", "full", "eye", "identity", "diag", "arange", "linspace", "deg2rad",
    "rad2deg", "radians", "degrees", "sqrt", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "sinh",
    "cosh", "tanh", "exp", "log", "abs", "sign", "clip", "maximum", "minimum", "concatenate", "stack", "hstack",
    "vstack", "float32", "float64", "int32", "int64",
})
MATH_FUNCTIONS = frozenset({
    "sqrt", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "exp", "log", "log10",
    "log2", "radians", "degrees", "hypot", "fabs", "floor", "ceil", "copysign", "pow",
})
# Builtins that build a value (no iterators: `zip`, `map`, `enumerate` are used up by the first call).
PURE_BUILTINS = frozenset({"abs", "bool", "dict", "float", "int", "len", "list", "max", "min", "range", "round", "set",
                           "sorted", "sum", "tuple"})
DTYPE_BUILTINS = frozenset({"bool", "complex", "float", "int"})  # `dtype=float` at module level: NumPy's own idiom
ARRAY_METHODS = frozenset({"reshape", "astype", "copy", "flatten", "ravel"})
ARRAY_PROPERTIES = frozenset({"T", "shape", "size", "ndim"})
# Methods that change their object in place (lists, dicts, sets, NumPy arrays).
MUTATING_METHODS = frozenset({
    "append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "popitem", "sort", "reverse",
    "add", "discard", "difference_update", "intersection_update", "symmetric_difference_update", "fill", "itemset",
    "resize", "partition", "put", "setfield", "byteswap",
})
# NumPy functions that write into their first argument.
IN_PLACE_FUNCTIONS = frozenset({"copyto", "put", "place", "putmask", "fill_diagonal", "put_along_axis"})
_ANNOTATION_NODES = (ast.Name, ast.Attribute, ast.Subscript, ast.Constant, ast.Tuple, ast.List, ast.BinOp, ast.BitOr,
                     ast.expr_context)
_PURE = "a prior must be a pure function of obs, with no state kept between calls"
_OBJECT = ("object arrays (dtype=object) hold mutable Python objects that the frozen constants do not cover, a route "
           "for state kept between calls; use numeric arrays")
# Attributes that reach around the frozen constants, refused on any object: what each one does.
STATE_ROUTES = {
    "base": "`.base` is the array a view was taken from, memory that freezing a constant does not make read-only",
    "flags": "`.flags` can make a frozen (read-only) array writable again",
    "setflags": "`.setflags` can make a frozen (read-only) array writable again",
    "ctypes": "`.ctypes` reaches an array's raw memory, past its read-only flag",
    "frompyfunc": "`frompyfunc` makes object arrays (dtype=object), whose Python objects freezing does not reach",
    "object_": "`object_` makes object arrays (dtype=object), whose Python objects freezing does not reach",
}


def check_module(tree: ast.Module, modules: dict[str, object]) -> None:
    """Raise PriorError at the first breach of the rules above; `modules` are the module's import aliases."""
    module = _Scope.build(tree, None)
    constants = _check_module_names(tree)
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            _Constant(modules, constants, functions).check(node.value)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.Lambda)):
            _check_defaults(node)
        if isinstance(node, ast.FunctionDef):
            for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs, node.args.vararg,
                      node.args.kwarg]:
                _check_annotation(getattr(a, "annotation", None))
            _check_annotation(node.returns)
        elif isinstance(node, ast.AnnAssign):
            _check_annotation(node.annotation)
    uses = _Uses(module, set(modules))
    uses.visit(tree)
    _check_recursion(uses.calls)


def check_state_routes(tree: ast.Module) -> None:
    """Refuse the routes around the frozen constants (see the module docstring), wherever they appear."""
    rebound = any(isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load) and n.id == "object"
                  or isinstance(n, ast.arg) and n.arg == "object" for n in ast.walk(tree))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in STATE_ROUTES:
            fail_at(node, f"attribute '.{node.attr}' is not allowed: {STATE_ROUTES[node.attr]}: a route for state "
                          f"kept between calls ({_PURE})")
        elif isinstance(node, ast.Name) and node.id == "object" and not rebound:
            fail_at(node, f"`object` is not allowed: {_OBJECT}")
        elif isinstance(node, ast.Call):
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                if _object_dtype(arg):
                    fail_at(arg, f"the dtype {ast.unparse(arg)} is not allowed: {_OBJECT}")


def _object_dtype(node: ast.expr) -> bool:
    """A string literal that NumPy reads as a dtype holding Python objects ('O', 'object', 'O,f8', ...)."""
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) <= 64):
        return False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NumPy's deprecation notices for some dtype strings
        try:
            return np.dtype(node.value).hasobject
        except Exception:  # noqa: BLE001 -- not a dtype
            return False


def freeze(value: object, name: str = "") -> object:
    """`value` made immutable: lists -> tuples, dicts -> read-only mappings, sets -> frozensets, NumPy
    arrays -> read-only copies, recursively; anything else is returned unchanged. Raises PriorError for an object
    array; `name`: the constant's, for that message."""
    if isinstance(value, list):
        return _FrozenList(freeze(v, name) for v in value)
    if type(value) is tuple:
        return tuple(freeze(v, name) for v in value)
    if isinstance(value, (dict, types.MappingProxyType)):
        return types.MappingProxyType({k: freeze(v, name) for k, v in value.items()})
    if isinstance(value, (set, frozenset)):
        return frozenset(value)
    if isinstance(value, np.ndarray):
        if value.dtype.hasobject:
            raise PriorError(f"the module-level `{name}` is an object array: {_OBJECT}")
        value = value.copy()  # owns its memory: a view's base, still writable, stays out of reach
        value.setflags(write=False)
    return value


def computed_names(tree: ast.Module) -> set[str]:
    """The module-level names whose value calls one of the module's own functions (`_R = _ry(-0.004)`): code that
    ran at import, whose result `check_data` must find to be plain data."""
    functions = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
    return {n.id for node in tree.body if getattr(node, "value", None) is not None
            and any(isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and c.func.id in functions
                    for c in ast.walk(node.value))
            for t in _targets(node) for n in ast.walk(t) if isinstance(n, ast.Name)}


def check_data(value: object, name: str, depth: int = 0) -> None:
    """Raise PriorError unless `value` is plain data: numbers, strings, None, NumPy or jax arrays and scalars, and
    tuples, lists, dicts and sets of them. A module-level value computed by the module's own function must be: a
    function, lambda, generator or iterator it returned would carry state between calls that freezing cannot reach
    (a closure over a list it appends to)."""
    if depth > 32:
        raise PriorError(f"the module-level `{name}` is nested more than 32 levels deep; keep constants flat")
    if isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            check_data(v, name, depth + 1)
    elif isinstance(value, (dict, types.MappingProxyType)):
        for k, v in value.items():
            check_data(k, name, depth + 1)
            check_data(v, name, depth + 1)
    elif not isinstance(value, (bool, int, float, complex, str, bytes, type(None), np.ndarray, np.generic,
                                jax.Array)):
        raise PriorError(f"the module-level `{name}` is computed by one of the module's functions and holds a "
                         f"{type(value).__name__}: such a value must be data (numbers, arrays, tuples, lists or dicts "
                         f"of them); a function or iterator made at import could keep state between calls ({_PURE})")


def constant_names(tree: ast.Module) -> list[str]:
    """The names that module-level assignments bind, in order."""
    return [n.id for node in tree.body for t in _targets(node) for n in ast.walk(t) if isinstance(n, ast.Name)]


def _targets(node: ast.stmt) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        return node.targets
    return [node.target] if isinstance(node, ast.AnnAssign) else []


class _FrozenList(tuple):
    """A module-level list after `freeze`: a tuple that still has the list's one non-mutating extra, `copy`."""

    __slots__ = ()

    def copy(self) -> list:
        return list(self)


@dataclasses.dataclass
class _Scope:
    """The names one function (or the module, or a lambda) binds: by `def`, and otherwise."""

    node: ast.AST
    parent: _Scope | None
    defs: dict[str, ast.FunctionDef] = dataclasses.field(default_factory=dict)
    variables: set[str] = dataclasses.field(default_factory=set)  # parameters, assignments, loop targets, imports
    augmented: set[str] = dataclasses.field(default_factory=set)  # names bound only as `name += ...` targets
    children: dict[int, _Scope] = dataclasses.field(default_factory=dict)  # id(nested def or lambda) -> its scope

    @classmethod
    def build(cls, node: ast.AST, parent: _Scope | None) -> _Scope:
        scope = cls(node, parent)
        if isinstance(node, (ast.FunctionDef, ast.Lambda)):
            a = node.args
            scope.variables |= {x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg] if x}
        aug_targets = set()
        for child in _own_nodes(node):
            if isinstance(child, ast.FunctionDef):
                if child.name in scope.defs:
                    fail_at(child, f"function `{child.name}` is defined twice; keep one definition")
                scope.defs[child.name] = child
            if isinstance(child, (ast.FunctionDef, ast.Lambda)):
                scope.children[id(child)] = cls.build(child, scope)
            elif isinstance(child, ast.AugAssign) and isinstance(child.target, ast.Name):
                scope.augmented.add(child.target.id)
                aug_targets.add(id(child.target))
            elif isinstance(child, ast.Name) and isinstance(child.ctx, ast.Store) and id(child) not in aug_targets:
                scope.variables.add(child.id)
            elif isinstance(child, (ast.Import, ast.ImportFrom)):
                scope.variables |= {a.asname or a.name for a in child.names}
        scope.augmented -= scope.variables
        for name in sorted(set(scope.defs) & (scope.variables | scope.augmented)):
            fail_at(scope.defs[name], f"`{name}` is both a function and a variable; rename one of them")
        return scope

    def resolve(self, name: str) -> tuple[str, _Scope | None, ast.FunctionDef | None]:
        """("def", scope, node), ("variable", scope, None) or ("free", None, None): what `name` means here."""
        scope = self
        while scope is not None:
            if name in scope.variables or name in scope.augmented:
                return "variable", scope, None
            if name in scope.defs:
                return "def", scope, scope.defs[name]
            scope = scope.parent
        return "free", None, None


def _own_nodes(node: ast.AST):
    """The nodes of `node`'s own scope: not inside nested functions or lambdas (which are yielded themselves)."""
    todo = list(node.body) if isinstance(node, (ast.Module, ast.FunctionDef)) else [node.body]
    while todo:
        child = todo.pop()
        yield child
        if not isinstance(child, (ast.FunctionDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(child))


def _check_module_names(tree: ast.Module) -> set[str]:
    """Module-level assignments bind plain names (a name that is also a function or an import alias is refused by
    `_Scope.build` and the allow-list); returns them."""
    for node in tree.body:
        for part in (n for t in _targets(node) for n in ast.walk(t)):
            if not isinstance(part, (ast.Name, ast.Tuple, ast.List, ast.expr_context)):
                fail_at(node, f"module-level assignments may only bind names, not items or attributes: {_PURE}")
    return set(constant_names(tree))


class _Constant:
    """Checks that a module-level value is a constant expression (see the module docstring)."""

    def __init__(self, modules: dict[str, object], constants: set[str],
                 functions: dict[str, ast.FunctionDef] | None = None):
        self.modules = modules
        self.constants = constants
        self.functions = functions or {}  # the module's own functions, by name

    def check(self, node: ast.expr) -> None:
        why = self._why_not(node)
        if why:
            fail_at(node, f"module-level values must be constants (literals, tuples, arrays of literals, arithmetic, "
                          f"math functions on constants); `{_short(node)}` is not: {why}")

    def _why_not(self, node: ast.expr) -> str:
        if isinstance(node, ast.Constant):
            return ""
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return self._first(node.elts)
        if isinstance(node, ast.Dict):
            if None in node.keys:
                return "`**` unpacking"
            return self._first([*node.keys, *node.values])
        if isinstance(node, ast.BinOp):
            return self._first([node.left, node.right])
        if isinstance(node, ast.UnaryOp):
            return self._why_not(node.operand)
        if isinstance(node, ast.Subscript):
            return self._first([node.value, node.slice])
        if isinstance(node, ast.Slice):
            return self._first([p for p in (node.lower, node.upper, node.step) if p is not None])
        if isinstance(node, ast.Name):
            return "" if node.id in self.constants else f"`{node.id}` is not a module-level constant"
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id in self.modules:
                return ""  # a module constant or dtype (`np.pi`, `np.float32`); the allow-list checks the name
            return self._why_not(node.value) if node.attr in ARRAY_PROPERTIES else f"the attribute `.{node.attr}`"
        if isinstance(node, ast.Call):
            return self._call(node)
        if isinstance(node, ast.Lambda):
            return "a lambda (define a function with `def` instead)"
        return f"a {type(node).__name__} expression"

    def _call(self, node: ast.Call) -> str:
        f = node.func
        if isinstance(f, ast.Name) and f.id in self.functions:
            if self.functions[f.id].lineno > node.lineno:
                return f"it calls `{f.id}` before its `def` (line {self.functions[f.id].lineno}); define it first"
            allowed = True  # the module's own function: its body is checked like any other, the value frozen
        elif isinstance(f, ast.Name):
            allowed = f.id in PURE_BUILTINS
        elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in self.modules:
            allowed = f.attr in (MATH_FUNCTIONS if self.modules[f.value.id] is math else ARRAY_FUNCTIONS)
        elif isinstance(f, ast.Attribute) and f.attr in ARRAY_METHODS:
            allowed = not self._why_not(f.value)
        else:
            allowed = False
        if not allowed:
            return (f"it calls `{_short(f)}` (only NumPy/jnp array constructors and elementwise functions, math "
                    f"functions, {', '.join(sorted(PURE_BUILTINS))} and the module's own functions may be called at "
                    "module level)")
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            return "`*` or `**` arguments"
        return self._first([*node.args, *(k.value for k in node.keywords if not _builtin_dtype(k))])

    def _first(self, nodes: list[ast.expr]) -> str:
        return next((why for why in map(self._why_not, nodes) if why), "")


def _builtin_dtype(keyword: ast.keyword) -> bool:
    """`dtype=float` (int, bool, complex): a Python type named as a dtype, a constant like `dtype=np.float64`."""
    return keyword.arg == "dtype" and isinstance(keyword.value, ast.Name) and keyword.value.id in DTYPE_BUILTINS


def _check_defaults(node: ast.FunctionDef | ast.Lambda) -> None:
    for default in [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]:
        if not _literal(default):
            fail_at(default, f"default values must be literal constants (`kp=0.5`, `target=(0.0, 1.0)`), not "
                             f"`{_short(default)}`: a default is computed once and shared by every call")


def _literal(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return isinstance(node.operand, ast.Constant) and isinstance(node.operand.value, (int, float, complex))
    return isinstance(node, ast.Tuple) and all(map(_literal, node.elts))


def _check_annotation(node: ast.expr | None) -> None:
    if node is not None and not all(isinstance(n, _ANNOTATION_NODES) for n in ast.walk(node)):
        fail_at(node, f"annotations may only name types (`jnp.ndarray`, `float`), not compute: `{_short(node)}`")


class _Uses(ast.NodeVisitor):
    """Walks every scope: functions only called, no mutation of module-level names; collects who calls whom."""

    def __init__(self, module: _Scope, aliases: set[str]):
        self.scope = module
        self.module = module
        self.aliases = aliases
        self.function: ast.FunctionDef | None = None  # the innermost `def` being walked
        self.calls: dict[ast.FunctionDef, set[ast.FunctionDef]] = {}
        self.callees: set[int] = set()  # ids of Name nodes in call position
        self.passed: set[int] = set()  # ids of Name nodes passed straight as arguments of a call

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._enter(node, [*node.decorator_list, *node.args.defaults, *node.args.kw_defaults], node.body)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._enter(node, [*node.args.defaults, *node.args.kw_defaults], [node.body])

    def _enter(self, node, outside: list, inside: list) -> None:
        for child in outside:
            if child is not None:
                self.visit(child)
        scope, function = self.scope, self.function
        self.scope = scope.children[id(node)]
        if isinstance(node, ast.FunctionDef):
            self.function = node
            self.calls.setdefault(node, set())
        for child in inside:
            self.visit(child)
        self.scope, self.function = scope, function

    def visit_Call(self, node: ast.Call) -> None:
        f = node.func
        if isinstance(f, ast.Name):
            self.callees.add(id(f))
        callee = self.scope.resolve(f.id) if isinstance(f, ast.Name) else ("free", None, None)
        for arg in [*node.args, *(k.value for k in node.keywords)]:
            kind, _, target = self.scope.resolve(arg.id) if isinstance(arg, ast.Name) else ("free", None, None)
            if kind == "def":  # a function passed to a call: the callee may call it (the caller too, see visit_Name)
                self.passed.add(id(arg))
                if callee[0] == "def":
                    self.calls.setdefault(callee[2], set()).add(target)
        if isinstance(f, ast.Attribute) and f.attr in MUTATING_METHODS:
            self._no_global(f.value, node, f"`.{f.attr}(...)` changes it in place")
        for k in node.keywords:
            if k.arg == "out":
                self._no_global(k.value, node, "`out=` writes into it")
        if node.args and isinstance(f, ast.Attribute) and self._is_module_function(f):
            self._no_global(node.args[0], node, f"`{_short(f)}` writes into its first argument")
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if not isinstance(node.ctx, ast.Load):
            return
        kind, _, target = self.scope.resolve(node.id)
        if kind != "def":
            return
        if id(node) not in self.callees and id(node) not in self.passed:
            fail_at(node, f"function `{node.id}` may only be called (`{node.id}(...)`) or passed as an argument of a "
                          "call, not stored or returned")
        if self.function is not None:
            self.calls[self.function].add(target)

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            self._no_global_targets(target, node)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self._no_global_targets(node.target, node)
        self.generic_visit(node)

    def visit_For(self, node: ast.For) -> None:
        self._no_global_targets(node.target, node)
        self.generic_visit(node)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        t = node.target
        if isinstance(t, ast.Name) and self.scope is not self.module and t.id in self.scope.augmented:
            kind, scope, _ = self.scope.parent.resolve(t.id)
            if kind == "variable" and scope is self.module:
                fail_at(node, f"`{_short(node)}` inside a function changes the module-level `{t.id}`: {_PURE}; "
                              "compute a new local name instead")
        else:
            self._no_global_targets(t, node)
        self.generic_visit(node)

    def _no_global_targets(self, target: ast.expr, node: ast.stmt) -> None:
        for part in ast.walk(target):
            if isinstance(part, (ast.Subscript, ast.Attribute)) and isinstance(part.ctx, ast.Store):
                self._no_global(part.value, node, "assigning to its items changes it")

    def _no_global(self, expr: ast.expr, node: ast.AST, how: str) -> None:
        """Fail when `expr` is (an item or attribute of) a module-level constant, seen from inside a function."""
        while isinstance(expr, (ast.Subscript, ast.Attribute, ast.Starred)):
            expr = expr.value
        if not isinstance(expr, ast.Name) or expr.id in self.aliases or self.scope is self.module:
            return
        kind, scope, _ = self.scope.resolve(expr.id)
        if kind == "variable" and scope is self.module:
            fail_at(node, f"`{_short(node)}` mutates the module-level `{expr.id}` ({how}): {_PURE}; "
                          "work on a local copy instead")

    def _is_module_function(self, f: ast.Attribute) -> bool:
        """`np.copyto`-style in-place functions and ufunc `.at` (`np.add.at`) on an import alias."""
        root = f.value
        while isinstance(root, ast.Attribute):
            root = root.value
        on_alias = isinstance(root, ast.Name) and root.id in self.aliases
        return on_alias and (f.attr in IN_PLACE_FUNCTIONS or (f.attr == "at" and isinstance(f.value, ast.Attribute)))


def _check_recursion(calls: dict[ast.FunctionDef, set[ast.FunctionDef]]) -> None:
    state: dict[ast.FunctionDef, int] = {}  # 1: on the current path, 2: done

    def visit(f: ast.FunctionDef, path: list[ast.FunctionDef]) -> None:
        state[f] = 1
        for g in sorted(calls.get(f, ()), key=lambda g: g.lineno):
            if state.get(g) == 1:
                cycle = [*path[path.index(g):], g] if g in path else [f, g]
                fail_at(g, f"recursion is not allowed ({' -> '.join(h.name for h in cycle)}); a prior's functions "
                           "may not call themselves, directly or through each other")
            if g not in state:
                visit(g, [*path, g])
        state[f] = 2

    for f in sorted(calls, key=lambda f: f.lineno):
        if f not in state:
            visit(f, [f])


def _short(node: ast.AST, limit: int = 60) -> str:
    text = " ".join(ast.unparse(node).split())
    return text if len(text) <= limit else text[:limit - 3] + "..."
