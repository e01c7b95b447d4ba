"""Mechanical NumPy -> jax.numpy rewriting of a policy, for code simple enough to convert by syntax alone.

Rules, applied to the syntax tree:
- `np.f` -> `jnp.f` (when jnp has `f`), `math.f` -> its jnp counterpart; the imports become `import jax.numpy as jnp`;
- `a[i] = v` -> `a = a.at[i].set(v)` (and `+=`, `-=`, `*=`, `/=` -> `.add/.subtract/.multiply/.divide`);
  `a[i], a[j] = v` -> `v` unpacked into fresh names, then one `.at[...].set` each, in Python's order; a list
  literal whose items are assigned (`a = [0.0] * 3`) -> `jnp.array(...)`; `clip(a_min=, a_max=)` -> `clip(min=, max=)`;
- indexing with a list literal (`obs[[5, 7, 9]]`, NumPy's fancy indexing) -> `obs[jnp.array([5, 7, 9])]`;
- `x if c else y` -> `jnp.where(c, x, y)`; `and`/`or`/`not` -> `jnp.logical_and/or/not`; `a < b < c` -> a
  logical_and of the two comparisons; `max(a, b)`/`min(a, b)` -> `jnp.maximum/minimum`; `float(x)` ->
  `jnp.asarray(x, dtype=float)` (jnp's default float: float32 in training, float64 when certified), `bool(x)` ->
  `jnp.asarray(x, dtype=bool)`;
- `if`/`elif`/`else` on values -> both branches computed into fresh names, merged with `jnp.where` (an early
  `return` in one branch takes the rest of the block into the other branch). A name bound in one branch only is
  merged with its value from before the `if`; when it had none, it is left unmerged if nothing after the `if` reads
  it, and refused otherwise (NumPy would raise there);
- a selection between tuples, lists or dicts (`st, sw = (r, l) if c else (l, r)`, a branch binding a dict) -> a
  `jnp.where` leaf by leaf, by a helper added to the module (`_where_tree`) that refuses differing structures; an
  array against a tuple or list of numbers (`q / n if n > 0 else (1.0, 0.0)`) is a `jnp.where` of the two as arrays;
- an `if` (or `x = a if c else b`) that sets names to int constants which the code after it uses in an index
  (`th[st]`, `act[s:s + 3] = ...`) -> the code after it copied into each branch, so every index stays a constant
  (each copy computed, the returned values merged with `jnp.where` as above).
When an `if` returns on some of its paths only, the code after it is copied onto each path that does not return.
`xs.append(v)` inside a branch -> `xs = xs + [v]`; tuple targets there may nest (`(a, b), c = xs`).
A `for` loop inside a branch over a literal tuple or list, or over `range` of int literals, is written out item by
item (its target assigned, then a copy of its body). Branches may then only hold assignments, nested such `if`s and
a final `return`. Anything else raises PriorError naming
the construct, and the caller falls back to the LLM. The result is not trusted: it is validated and certified.
"""

from __future__ import annotations

import ast
import copy
import math

import jax.numpy as jnp

from camel_jax.errors import PriorError
from camel_jax.priors import allowlist

_MATH_TO_JNP = {"atan2": "arctan2", "asin": "arcsin", "acos": "arccos", "atan": "arctan", "fabs": "abs",
                "pow": "power", "copysign": "copysign", "hypot": "hypot"}
_CLIP_KEYWORDS = {"a_min": "min", "a_max": "max"}
_AUG_TO_AT = {ast.Add: "add", ast.Sub: "subtract", ast.Mult: "multiply", ast.Div: "divide", ast.Pow: "power"}
_WHERE = "$where"  # a selection `where(c, a, b)` until `_Selections` resolves it (not an identifier: no clash)
_MAX_COPIED_NODES = 20_000  # syntax nodes the copies of `_Specialize` may add to one module
# Builtins and jnp functions whose result is (or may be) a tuple, list or dict rather than one array.
_SEQUENCE_BUILTINS = frozenset({"tuple", "list", "dict", "set", "zip", "map", "filter", "sorted", "enumerate",
                                "reversed", "range", "divmod"})
_SEQUENCE_JNP = frozenset({"divmod", "modf", "frexp", "meshgrid", "nonzero", "broadcast_arrays", "split",
                           "array_split", "hsplit", "vsplit", "dsplit", "unravel_index", "histogram", "unique", "eig",
                           "eigh", "svd", "qr", "slogdet", "lstsq"})
_BRANCH_STATEMENTS = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.If, ast.Return, ast.Pass)  # see `_rename`
_TREE_LEVELS = 4  # nesting of tuples/lists/dicts that the leafwise selection helper follows
_TREE_HELPER = '''
def {name}(c, a, b):
    """jnp.where(c, a, b) leaf by leaf over tuples, lists and dicts of one structure, nested at most {levels} deep."""
    if not isinstance(a, (tuple, list, dict, jnp.ndarray, int, float, complex)):
        a = dict(a)  # a module-level dict, frozen read-only; anything else fails here, never silently
    if not isinstance(b, (tuple, list, dict, jnp.ndarray, int, float, complex)):
        b = dict(b)
    if isinstance(a, dict) and isinstance(b, dict) and list(a) == list(b):
        return dict(zip(a, map(lambda k: {inner}(c, a[k], b[k]), a)))
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        return tuple(map(lambda x, y: {inner}(c, x, y), a, b))
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return list(map(lambda x, y: {inner}(c, x, y), a, b))
    if isinstance(a, (tuple, list, dict)) and isinstance(b, (tuple, list, dict)):
        return jnp.where(c, a, b)  # two different structures: jnp.where refuses them (a TypeError), never truncates
    return jnp.where(c, jnp.asarray(a), jnp.asarray(b))
'''


def numpy_to_jnp(source: str) -> str:
    """The jnp rewrite of NumPy policy `source`; raises PriorError when it needs more than the rules above."""
    tree = allowlist.parse(source)
    modules = allowlist.check_tree(tree)
    docstring = tree.body[:1] if tree.body and allowlist.is_docstring(tree.body[0]) else []
    rest = [n for n in tree.body[len(docstring):] if not isinstance(n, (ast.Import, ast.ImportFrom))]
    imports = [ast.Import(names=[ast.alias(name="jax.numpy", asname="jnp")])]
    tree.body = docstring + imports + rest
    specialize = _Specialize()
    for func in [n for n in tree.body if isinstance(n, ast.FunctionDef)]:
        func.body = specialize.block(func.body)
    tree = _Expressions(modules).visit(tree)
    taken = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | \
        {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    items = _ItemAssignments(taken)
    tree = items.visit(tree)
    taken |= items.taken
    branches = _Branches(taken)
    for func in [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]:
        func.body = branches.block(func.body, _parameters(func), [[]])
    _Selections(tree, branches.taken).resolve(tree)
    tree = ast.fix_missing_locations(tree)  # one statement a line, two blank lines before each function
    return "\n".join(("\n\n" if isinstance(n, ast.FunctionDef) else "") + ast.unparse(n) for n in tree.body) + "\n"


def _fail(node: ast.AST, what: str):
    raise PriorError(f"line {getattr(node, 'lineno', '?')}: cannot convert mechanically: {what}")


def _is_jnp(func: ast.expr, name: str) -> bool:
    return isinstance(func, ast.Attribute) and func.attr == name and isinstance(func.value, ast.Name) \
        and func.value.id == "jnp"


def _jnp(name: str, *args: ast.expr, **keywords: ast.expr) -> ast.Call:
    func = ast.Attribute(value=ast.Name("jnp", ast.Load()), attr=name, ctx=ast.Load())
    return ast.Call(func=func, args=list(args), keywords=[ast.keyword(arg=k, value=v) for k, v in keywords.items()])


def _select(cond: ast.expr, a: ast.expr, b: ast.expr) -> ast.Call:
    """`a` where `cond` holds, else `b`: a placeholder that `_Selections` makes jnp.where or the leafwise helper."""
    return ast.Call(func=ast.Name(_WHERE, ast.Load()), args=[cond, a, b], keywords=[])


def _is_select(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == _WHERE


class _Expressions(ast.NodeTransformer):
    """Module references, conditionals, boolean logic and builtins on values, rewritten for jnp."""

    def __init__(self, modules: dict[str, object]):
        self.modules = modules

    def visit_Attribute(self, node: ast.Attribute) -> ast.expr:
        module = self.modules.get(node.value.id) if isinstance(node.value, ast.Name) else None
        if module is None:
            return self.generic_visit(node)
        name = _MATH_TO_JNP.get(node.attr, node.attr) if module is math else node.attr
        if module is not jnp and not hasattr(jnp, name):
            _fail(node, f"`{node.value.id}.{node.attr}` has no jax.numpy counterpart")
        return ast.copy_location(ast.Attribute(value=ast.Name("jnp", ast.Load()), attr=name, ctx=node.ctx), node)

    def visit_Subscript(self, node: ast.Subscript) -> ast.expr:
        node = self.generic_visit(node)
        if isinstance(node.slice, ast.List):  # NumPy indexes with a list; jnp needs an array
            node.slice = ast.copy_location(_jnp("array", node.slice), node.slice)
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        node = self.generic_visit(node)
        return ast.copy_location(_select(node.test, node.body, node.orelse), node)

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.expr:
        node = self.generic_visit(node)
        name = "logical_and" if isinstance(node.op, ast.And) else "logical_or"
        result = node.values[0]
        for value in node.values[1:]:
            result = _jnp(name, result, value)
        return ast.copy_location(result, node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.expr:
        node = self.generic_visit(node)
        return ast.copy_location(_jnp("logical_not", node.operand), node) if isinstance(node.op, ast.Not) else node

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        node = self.generic_visit(node)
        if len(node.ops) == 1:
            return node
        operands = [node.left, *node.comparators]
        pairs = [ast.Compare(left=a, ops=[op], comparators=[b]) for a, op, b in zip(operands, node.ops, operands[1:])]
        result = pairs[0]
        for pair in pairs[1:]:
            result = _jnp("logical_and", result, pair)
        return ast.copy_location(result, node)

    def visit_Call(self, node: ast.Call) -> ast.expr:
        node = self.generic_visit(node)
        if any(k.arg == "out" for k in node.keywords):
            _fail(node, "in-place `out=` arguments")
        if _is_jnp(node.func, "clip"):  # NumPy's clip(a, a_min, a_max) keywords; jnp's are (arr, /, min, max)
            node.args += [k.value for k in node.keywords if k.arg == "a"]
            node.keywords = [ast.keyword(_CLIP_KEYWORDS.get(k.arg, k.arg), k.value) for k in node.keywords
                             if k.arg != "a"]
        if not (isinstance(node.func, ast.Name) and not node.keywords):
            return node
        name, args = node.func.id, node.args
        if name in ("max", "min") and args and not any(isinstance(a, ast.Starred) for a in args):
            if len(args) == 1:
                return ast.copy_location(_jnp(name, _jnp("asarray", args[0])), node)
            result = args[0]
            for arg in args[1:]:
                result = _jnp("maximum" if name == "max" else "minimum", result, arg)
            return ast.copy_location(result, node)
        if name in ("float", "bool") and len(args) == 1:  # float: jnp's default float (float32, float64 when
            # certified in 64 bits); bool: nonzero is True, as bool() of a NumPy scalar
            return ast.copy_location(_jnp("asarray", args[0], dtype=ast.Name(name, ast.Load())), node)
        return node


class _ItemAssignments(ast.NodeTransformer):
    """In-place array updates and augmented assignments become plain assignments to names; a list literal whose
    items are assigned later in the same function (`act = [0.0] * 3; act[0] = x`) becomes a jnp array."""

    def __init__(self, taken: set[str]):
        self.updated: set[str] = set()  # names item-assigned in the function being rewritten
        self.taken = set(taken)  # names in use: the unpacked items of `_unpack` get fresh ones

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        outer = self.updated
        self.updated = {t.value.id for t in ast.walk(node) if isinstance(t, ast.Subscript)
                        and isinstance(t.ctx, ast.Store) and isinstance(t.value, ast.Name)}
        node = self.generic_visit(node)
        self.updated = outer
        return node

    def visit_Assign(self, node: ast.Assign) -> ast.stmt | list[ast.stmt]:
        target = node.targets[0]
        if len(node.targets) == 1 and isinstance(target, ast.Subscript):
            return ast.copy_location(self._update(target, "set", node.value), node)
        if len(node.targets) == 1 and isinstance(target, (ast.Tuple, ast.List)) \
                and any(isinstance(n, ast.Subscript) for n in ast.walk(target)):
            return self._unpack(node, target)
        if len(node.targets) == 1 and isinstance(target, ast.Name) and target.id in self.updated \
                and _is_list(node.value):
            node.value = ast.copy_location(_jnp("array", node.value), node.value)
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.stmt:
        if node.value is None:
            _fail(node, "an annotation without a value")
        return self.visit_Assign(ast.copy_location(ast.Assign(targets=[node.target], value=node.value), node))

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.stmt:
        if isinstance(node.target, ast.Name):
            load = ast.Name(node.target.id, ast.Load())
            value = ast.BinOp(left=load, op=node.op, right=node.value)
            return ast.copy_location(ast.Assign(targets=[node.target], value=value), node)
        if isinstance(node.target, ast.Subscript) and type(node.op) in _AUG_TO_AT:
            return ast.copy_location(self._update(node.target, _AUG_TO_AT[type(node.op)], node.value), node)
        _fail(node, f"the augmented assignment `{ast.unparse(node)}`")

    def _unpack(self, node: ast.Assign, target: ast.Tuple | ast.List) -> list[ast.stmt]:
        """`a[i], b, a[j] = value` -> `_item1, _item2, _item3 = value`, then `a = a.at[i].set(_item1)`, `b = _item2`,
        `a = a.at[j].set(_item3)`: Python's order (the value unpacked first, then the targets bound from left to
        right, each index computed at its turn), each item update in the functional form."""
        if any(not isinstance(e, (ast.Name, ast.Subscript)) for e in target.elts):
            _fail(node, f"the assignment `{ast.unparse(node)}` (unpacking into items converts only for a flat "
                        "`a[i], b = value`)")
        fresh = []
        for _ in target.elts:
            k = 1
            while f"_item{k}" in self.taken:
                k += 1
            self.taken.add(f"_item{k}")
            fresh.append(f"_item{k}")
        out: list[ast.stmt] = [ast.Assign(targets=[ast.Tuple(elts=[ast.Name(n, ast.Store()) for n in fresh],
                                                             ctx=ast.Store())], value=node.value)]
        for e, name in zip(target.elts, fresh):
            item = ast.Name(name, ast.Load())
            out.append(self._update(e, "set", item) if isinstance(e, ast.Subscript)
                       else ast.Assign(targets=[ast.Name(e.id, ast.Store())], value=item))
        return [ast.copy_location(s, node) for s in out]

    @staticmethod
    def _update(target: ast.Subscript, method: str, value: ast.expr) -> ast.Assign:
        if not isinstance(target.value, ast.Name):
            _fail(target, f"item assignment to `{ast.unparse(target)}` (only `name[index] = value` converts)")
        name = target.value.id
        at = ast.Subscript(value=ast.Attribute(value=ast.Name(name, ast.Load()), attr="at", ctx=ast.Load()),
                           slice=target.slice, ctx=ast.Load())
        call = ast.Call(func=ast.Attribute(value=at, attr=method, ctx=ast.Load()), args=[value], keywords=[])
        return ast.Assign(targets=[ast.Name(name, ast.Store())], value=call)


class _Specialize:
    """Tail duplication for constant indices: an `if` (or `x = a if c else b`) binding names to int constants only,
    followed by code that uses one of them (or a name computed from one) in an index, gets that code copied into
    each branch. Each copy then indexes with a Python constant, as NumPy did on its path. Applied to the NumPy code,
    before any other rule; only where the copied code holds what branches may hold (no loops)."""

    def __init__(self):
        self.copied = 0

    def block(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out = []
        for i, s in enumerate(stmts):
            rest = stmts[i + 1:]
            split = _as_if(s) if rest and _indexes_with(rest, _constant_names(s)) else None
            if split is None:
                out.append(self._inside(s))
                continue
            for branch in (split.body, split.orelse):
                if not _returns(branch):
                    branch += self._copy(s, rest)
            return out + [self._inside(split)]
        return out

    def _inside(self, s: ast.stmt) -> ast.stmt:
        if isinstance(s, ast.If):
            s.body, s.orelse = self.block(s.body), self.block(s.orelse)
        elif isinstance(s, (ast.For, ast.FunctionDef)):
            s.body = self.block(s.body)
        return s

    def _copy(self, node: ast.stmt, stmts: list[ast.stmt]) -> list[ast.stmt]:
        self.copied += sum(1 for s in stmts for _ in ast.walk(s))
        if self.copied > _MAX_COPIED_NODES:
            _fail(node, "the code after this `if` uses the constants it sets as indices; copying it into each branch "
                        f"would add more than {_MAX_COPIED_NODES} syntax nodes")
        return [copy.deepcopy(s) for s in stmts]


def _as_if(s: ast.stmt) -> ast.If | None:
    """`s` as an `if` statement: itself, or `x = a if c else b` as `if c: x = a` / `else: x = b`."""
    if isinstance(s, ast.If):
        return s
    if isinstance(s, ast.Assign) and isinstance(s.value, ast.IfExp):
        v = s.value
        return ast.copy_location(ast.If(test=v.test, body=[ast.Assign(targets=s.targets, value=v.body)],
                                        orelse=[ast.Assign(targets=copy.deepcopy(s.targets), value=v.orelse)]), s)
    return None


def _constant_names(s: ast.stmt) -> set[str]:
    """Names that `s` (an `if`, or an assignment of a conditional expression) binds, only ever to int constants."""
    if isinstance(s, ast.Assign) and isinstance(s.value, ast.IfExp):
        stmts = [s]
    elif isinstance(s, ast.If):
        stmts = s.body + s.orelse
    else:
        return set()
    constant: dict[str, bool] = {}
    for node in [n for stmt in stmts for n in ast.walk(stmt)]:
        pairs = []
        if isinstance(node, ast.Assign):
            pairs = [pair for target in node.targets for pair in _target_values(target, node.value)]
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.comprehension)):
            pairs = [(n, node.target, False) for n in _stored_names(node.target)]
        for name, value, exact in pairs:
            constant[name] = constant.get(name, True) and exact and _is_int_constant(value)
    return {name for name, ok in constant.items() if ok}


def _target_values(target: ast.expr, value: ast.expr) -> list[tuple[str, ast.expr, bool]]:
    """(name, expression, exact) for each name that `target = value` binds: exact when the name gets the expression
    itself, else it gets an item of it (`a, b = f(x)`) or, starred, a list of items (`a, *b = x`: `[]` stands in)."""
    if isinstance(target, ast.Name):
        return [(target.id, value, True)]
    if isinstance(target, ast.Starred):
        return [(n, ast.List(elts=[], ctx=ast.Load()), False) for n in _stored_names(target)]
    if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)) \
            and len(target.elts) == len(value.elts) and not any(isinstance(e, ast.Starred) for e in target.elts):
        return [pair for t, v in zip(target.elts, value.elts) for pair in _target_values(t, v)]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [pair for t in target.elts for pair in _target_values(t, value)]  # items: not exact
    return []  # a subscript or attribute: binds no name


def _is_int_constant(node: ast.expr) -> bool:
    if isinstance(node, ast.IfExp):
        return _is_int_constant(node.body) and _is_int_constant(node.orelse)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _is_int_constant(node.operand)
    return isinstance(node, ast.Constant) and type(node.value) in (int, bool)


def _indexes_with(stmts: list[ast.stmt], names: set[str]) -> bool:
    """Whether `stmts` hold only what a branch may hold (assignments, `if`s, `return`) and index with one of `names`
    or with a name computed from one of them."""
    nodes = [n for s in stmts for n in ast.walk(s)]
    if not names or any(isinstance(n, ast.stmt) and not isinstance(n, _BRANCH_STATEMENTS)
                        and not allowlist.is_docstring(n) for n in nodes):
        return False
    tainted, grown = set(names), True
    while grown:
        grown = False
        for n in nodes:
            if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and n.value is not None \
                    and _loads_any(n.value, tainted):
                targets = n.targets if isinstance(n, ast.Assign) else [n.target]
                new = {name for t in targets for name in _stored_names(t)} - tainted
                tainted |= new
                grown |= bool(new)
    return any(isinstance(n, ast.Subscript) and _loads_any(n.slice, tainted) for n in nodes)


class _Branches:
    """`if` statements on values -> straight-line code merged with selections (see the module docstring)."""

    def __init__(self, taken: set[str]):
        self.taken = set(taken)
        self.temporaries: set[str] = set()  # fresh names: branch-local, never merged outward
        self.copied = 0  # syntax nodes the loops written out by `_unroll` added

    def block(self, stmts: list[ast.stmt], bound: set[str], after: list[list[ast.stmt]]) -> list[ast.stmt]:
        """`stmts` without `if`s on values. `bound`: the names bound before them, updated with those they bind on
        every path; `after`: the statements that may run after them, one list per path (to tell what is read later)."""
        out, todo = [], list(stmts)
        while todo:
            s = todo.pop(0)
            if isinstance(s, ast.If):
                body, orelse = s.body, s.orelse
                if _returns(body) and not _returns(orelse):
                    orelse, todo = orelse + todo, []
                elif _returns(orelse) and not _returns(body):
                    body, todo = body + todo, []
                elif not _returns(body) and any(isinstance(n, ast.Return) for n in ast.walk(s)):
                    body, orelse, todo = self._tail(s, body, todo), self._tail(s, orelse, todo), []
                body, orelse = self._unroll(body), self._unroll(orelse)
                later = [todo + a for a in after]
                branches = [self.block(b, set(bound), later) for b in (body, orelse)]
                out += self._merge(s, *branches, bound, later)
            elif isinstance(s, ast.For) and any(isinstance(n, ast.Return) for n in ast.walk(s)):
                _fail(s, "a `return` inside a `for` loop")
            elif isinstance(s, ast.For):
                later = [todo + a for a in after]
                inside = bound | set(_stored_names(s.target))
                s.body = self.block(s.body, inside, [s.body + a for a in later] + later)
                bound |= inside  # its bound is a constant: the loop runs
                out.append(s)
            else:
                bound |= _bound_names(s)
                out.append(s)
        return out

    def _tail(self, node: ast.If, stmts: list[ast.stmt], tail: list[ast.stmt]) -> list[ast.stmt]:
        """`stmts` then `tail`, with a copy of `tail` on each path through `stmts` that does not return: where an
        `if` returns on some paths only (`if c: ...; if d: return x` then more code), every path then returns."""
        if _returns(stmts):
            return stmts
        for i, s in enumerate(stmts):
            if isinstance(s, ast.If) and any(isinstance(n, ast.Return) for n in ast.walk(s)):
                rest = stmts[i + 1:] + tail
                s.body, s.orelse = self._tail(node, s.body, rest), self._tail(node, s.orelse, rest)
                return stmts[:i + 1]
        self.copied += sum(1 for t in tail for _ in ast.walk(t))
        if self.copied > _MAX_COPIED_NODES:
            _fail(node, f"copying the code after this `if` into each of its paths would add more than "
                        f"{_MAX_COPIED_NODES} syntax nodes")
        return stmts + [copy.deepcopy(t) for t in tail]

    def _unroll(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        """A branch's `for` loops over a literal tuple or list (`for i, leg in ((3, hR), (7, hL)):`) or over
        `range` of int literals, written out: per item, its target bound by one assignment, then a copy of the body
        (Python's own order); nested ones too. Any other loop stays, and `_rename` refuses it."""
        out = []
        for s in stmts:
            items = _loop_items(s) if isinstance(s, ast.For) else None
            if items is None or any(isinstance(n, (ast.Break, ast.Continue)) for n in ast.walk(s)):
                out.append(s)
                continue
            self.copied += len(items) * sum(1 for b in s.body for _ in ast.walk(b))
            if self.copied > _MAX_COPIED_NODES:
                _fail(s, f"writing out this loop inside an `if` on values would add more than {_MAX_COPIED_NODES} "
                         "syntax nodes")
            for item in items:
                out.append(ast.copy_location(ast.Assign(targets=[copy.deepcopy(s.target)], value=item), s))
                out += self._unroll([copy.deepcopy(b) for b in s.body])
        return out

    def _merge(self, node: ast.If, body: list[ast.stmt], orelse: list[ast.stmt], bound: set[str],
               later: list[list[ast.stmt]]) -> list[ast.stmt]:
        cond = self._fresh("cond")
        out = [ast.Assign(targets=[ast.Name(cond, ast.Store())], value=node.test)]
        then_code, then_names, then_ret = self._rename(body, "then")
        else_code, else_names, else_ret = self._rename(orelse, "else")
        out += then_code + else_code
        if (then_ret is None) != (else_ret is None):
            _fail(node, "one branch returns while the other falls through to the end of the function")
        if then_ret is not None:
            return out + [ast.Return(value=_select(ast.Name(cond, ast.Load()), then_ret, else_ret))]
        for name in dict.fromkeys(n for n in [*then_names, *else_names] if n not in self.temporaries):
            if not (name in bound or (name in then_names and name in else_names)):
                if _read_later(name, later):
                    which = "`if`" if name in then_names else "`else`"
                    _fail(node, f"`{name}` is bound only in the {which} branch and read after it, where NumPy would "
                                "raise UnboundLocalError on the other branch; give it a value before the `if`")
                continue  # bound on one branch only and never read again: nothing to merge
            picks = [ast.Name(names.get(name, name), ast.Load()) for names in (then_names, else_names)]
            out.append(ast.Assign(targets=[ast.Name(name, ast.Store())],
                                  value=_select(ast.Name(cond, ast.Load()), *picks)))
            bound.add(name)
        return out
    def _rename(self, stmts: list[ast.stmt], tag: str) -> tuple[list[ast.stmt], dict[str, str], ast.expr | None]:
        """One branch as straight-line code writing fresh names: (code, {name: fresh name}, returned value)."""
        current: dict[str, str] = {}
        out = []
        for s in stmts:
            if isinstance(s, ast.Return):
                if s.value is None:
                    _fail(s, "a bare `return`")
                return out, current, _Rename(current).visit(s.value)
            appended = _appended(s)
            if appended is not None:  # `xs.append(v)` -> `xs = xs + [v]`: a new list under the branch's fresh name
                name, item = appended
                s = ast.Assign(targets=[ast.Name(name, ast.Store())],
                               value=ast.BinOp(ast.Name(name, ast.Load()), ast.Add(), ast.List([item], ast.Load())))
            if isinstance(s, ast.Assign) and len(s.targets) == 1:
                value = _Rename(current).visit(s.value)
                target = s.targets[0]
                if not all(isinstance(n, (ast.Name, ast.Tuple, ast.List, ast.expr_context)) for n in ast.walk(target)):
                    _fail(s, f"the assignment `{ast.unparse(s)}` inside an `if` on values")
                for name in _stored_names(target):
                    current[name] = self._fresh(f"{name}_{tag}")
                out.append(ast.Assign(targets=[_RenameStores(current).visit(copy.deepcopy(target))], value=value))
            elif not (isinstance(s, ast.Pass) or allowlist.is_docstring(s)):
                _fail(s, f"`{type(s).__name__}` inside an `if` on values")
        return out, current, None

    def _fresh(self, base: str) -> str:
        k = 1
        while f"{base}{k}" in self.taken:
            k += 1
        self.taken.add(f"{base}{k}")
        self.temporaries.add(f"{base}{k}")
        return f"{base}{k}"


class _RenameStores(ast.NodeTransformer):
    def __init__(self, names: dict[str, str]):
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.Name:
        if isinstance(node.ctx, ast.Store):
            return ast.copy_location(ast.Name(self.names[node.id], ast.Store()), node)
        return node


def _appended(s: ast.stmt) -> tuple[str, ast.expr] | None:
    """(name, item) for the statement `name.append(item)`; else None."""
    call = s.value if isinstance(s, ast.Expr) else None
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "append" \
            and isinstance(call.func.value, ast.Name) and len(call.args) == 1 and not call.keywords \
            and not isinstance(call.args[0], ast.Starred):
        return call.func.value.id, call.args[0]
    return None


class _Rename(ast.NodeTransformer):
    def __init__(self, names: dict[str, str]):
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.Name:
        if isinstance(node.ctx, ast.Load) and node.id in self.names:
            return ast.copy_location(ast.Name(self.names[node.id], ast.Load()), node)
        return node


def _is_list(node: ast.expr) -> bool:
    """A list literal, or one repeated (`[0.0] * 3`)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return _is_list(node.left) or _is_list(node.right)
    return isinstance(node, ast.List)


def _loop_items(loop: ast.For) -> list[ast.expr] | None:
    """The items a loop's `iter` yields, as expressions, when it is a literal tuple or list without `*` or `range`
    of int literals; else None."""
    it = loop.iter
    if isinstance(it, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in it.elts):
        return [copy.deepcopy(e) for e in it.elts]
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" and not it.keywords \
            and 1 <= len(it.args) <= 3:
        bounds = [_int_literal(a) for a in it.args]
        if None not in bounds and not (len(bounds) == 3 and bounds[2] == 0) and len(range(*bounds)) <= 64:
            return [ast.Constant(k) for k in range(*bounds)]
    return None


def _int_literal(node: ast.expr) -> int | None:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _int_literal(node.operand)
        return None if inner is None else -inner
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int else None


def _returns(stmts: list[ast.stmt]) -> bool:
    """Whether every path through `stmts` ends in a `return`."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, ast.Return):
        return True
    return isinstance(last, ast.If) and _returns(last.body) and _returns(last.orelse)



def _parameters(func: ast.FunctionDef) -> set[str]:
    a = func.args
    return {x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs, a.vararg, a.kwarg] if x is not None}


def _stored_names(target: ast.expr) -> list[str]:
    return [n.id for n in ast.walk(target) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]


def _bound_names(s: ast.stmt) -> set[str]:
    """The names that statement `s` (not an `if` or a loop) binds."""
    if isinstance(s, ast.FunctionDef):
        return {s.name}
    targets = s.targets if isinstance(s, ast.Assign) else [s.target] if isinstance(s, (ast.AugAssign, ast.AnnAssign)) \
        else []
    return {name for t in targets for name in _stored_names(t)}


def _loads_any(node: ast.AST, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in names for n in ast.walk(node))


def _read_later(name: str, paths: list[list[ast.stmt]]) -> bool:
    """Whether `name` may be read on one of `paths` before it is bound again."""
    return any(_first_use(name, stmts) == "read" for stmts in paths)


def _first_use(name: str, stmts: list[ast.stmt]) -> str | None:
    """"read" when `stmts` may read `name` before binding it, "dead" when every path through them binds it first or
    returns, None when they leave it alone. Loops count as reads of any name they mention."""
    for s in stmts:
        if isinstance(s, ast.If):
            if _loads_any(s.test, {name}):
                return "read"
            uses = {_first_use(name, s.body), _first_use(name, s.orelse)}
            if "read" in uses:
                return "read"
            if uses == {"dead"}:
                return "dead"
        elif _loads_any(s, {name}):
            return "read"
        elif isinstance(s, ast.Return) or (not isinstance(s, ast.For) and name in _bound_names(s)):
            return "dead"
    return None


class _Selections(ast.NodeTransformer):
    """Resolves each selection to `jnp.where`, or to the leafwise helper where a side may be a tuple, list or dict.
    Whether a value may be one is told from the syntax: a name may be one when any of its bindings in its function
    may be; arrays, numbers and jnp results are not. A wrong guess of "array" fails in jnp.where, never silently."""

    def __init__(self, tree: ast.Module, taken: set[str]):
        self.taken = taken
        self.functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
        self.returned: dict[str, bool] = {}  # function name -> may return a tuple, list or dict
        self.envs: dict[str, dict[str, bool]] = {}  # function name -> its scope (see `_scope`)
        self.module: dict[str, bool] = {}
        self.module = self._scope([n for n in tree.body if isinstance(n, (ast.Assign, ast.AnnAssign))], set())
        self.env = self.module
        self.helper: str | None = None

    def resolve(self, tree: ast.Module) -> None:
        """Resolve every selection in `tree`; the helper, when used, goes before the first function."""
        for node in tree.body:
            self.env = self._function(node) if isinstance(node, ast.FunctionDef) else self.module
            self.visit(node)
        if self.helper is not None:
            at = next(i for i, n in enumerate(tree.body) if isinstance(n, ast.FunctionDef))
            names = [self._fresh(f"_where_tree{level}") for level in range(1, _TREE_LEVELS)] + [self.helper]
            inner = ["jnp.where", *names]
            helpers = [ast.parse(_TREE_HELPER.format(name=name, inner=inner[i], levels=i + 1)).body[0]
                       for i, name in enumerate(names)]
            tree.body[at:at] = helpers

    def visit_Call(self, node: ast.Call) -> ast.Call:
        tree = _is_select(node) and (self.may_hold(node.args[1]) or self.may_hold(node.args[2]))
        node = self.generic_visit(node)
        if tree:
            self.helper = self.helper or self._fresh("_where_tree")
            node.func = ast.Name(self.helper, ast.Load())
        elif _is_select(node):
            node.func = ast.Attribute(value=ast.Name("jnp", ast.Load()), attr="where", ctx=ast.Load())
        return node

    def may_hold(self, node: ast.expr, env: dict[str, bool] | None = None) -> bool:
        """Whether `node` may evaluate to a tuple, list or dict (of arrays) rather than an array or number."""
        env = self.env if env is None else env
        if isinstance(node, (ast.Tuple, ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp,
                             ast.GeneratorExp)):
            return True
        if isinstance(node, ast.Name):
            return env[node.id] if node.id in env else self.module.get(node.id, False)
        if isinstance(node, ast.BinOp):
            return self.may_hold(node.left, env) or self.may_hold(node.right, env)
        if isinstance(node, (ast.Subscript, ast.Starred)):  # an item of a tuple may be one; of an array, not
            return self.may_hold(node.value, env)
        if isinstance(node, ast.Attribute):
            return node.attr == "shape" or self.may_hold(node.value, env)
        if not isinstance(node, ast.Call):
            return False  # numbers, comparisons, logic, lambdas
        func = node.func
        if _is_select(node):
            return self.may_hold(node.args[1], env) or self.may_hold(node.args[2], env)
        if isinstance(func, ast.Name) and func.id in self.functions:
            return self._returns(func.id)
        if isinstance(func, ast.Name):
            return func.id in _SEQUENCE_BUILTINS
        if isinstance(func, ast.Attribute) and _is_module(func.value):
            return func.attr in _SEQUENCE_JNP
        if isinstance(func, ast.Attribute):  # a method: `.tolist()`, or a container's `.copy()`, `.get()`, ...
            return func.attr == "tolist" or self.may_hold(func.value, env)
        return True

    def _returns(self, name: str) -> bool:
        if name not in self.returned:
            self.returned[name] = False  # no recursion in a prior (allow-list); this only guards the walk
            f = self.functions[name]
            self.returned[name] = any(self.may_hold(r.value, self._function(f)) for r in ast.walk(f)
                                      if isinstance(r, ast.Return) and r.value is not None)
        return self.returned[name]

    def _function(self, f: ast.FunctionDef) -> dict[str, bool]:
        if f.name not in self.envs:
            self.envs[f.name] = self._scope([f], _parameters(f))
        return self.envs[f.name]

    def _scope(self, stmts: list[ast.stmt], parameters: set[str]) -> dict[str, bool]:
        """{name bound in `stmts` or a parameter: may hold a tuple, list or dict}, to a fixed point over all the
        name's bindings."""
        nodes = [n for s in stmts for n in ast.walk(s)]
        env = dict.fromkeys(parameters, False)
        env.update(dict.fromkeys((n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)),
                                 False))
        nodes = [n for n in nodes if isinstance(n, (ast.Assign, ast.AnnAssign, ast.For, ast.comprehension))]
        grown = True
        while grown:
            grown = False
            for node in nodes:
                for name, holds in self._bindings(node, env):
                    if holds and not env[name]:
                        env[name] = grown = True
        return env

    def _bindings(self, node: ast.AST, env: dict[str, bool]) -> list[tuple[str, bool]]:
        if isinstance(node, ast.Assign):
            pairs = [pair for t in node.targets for pair in _target_values(t, node.value)]
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            pairs = _target_values(node.target, node.value)
        elif isinstance(node, (ast.For, ast.comprehension)):  # items of `range(...)` are ints; of others, unknown
            ranged = isinstance(node.iter, ast.Call) and isinstance(node.iter.func, ast.Name) \
                and node.iter.func.id == "range"
            return [(n, not ranged and self.may_hold(node.iter, env)) for n in _stored_names(node.target)]
        else:
            return []
        return [(name, self.may_hold(value, env)) for name, value, _ in pairs]  # an item: as the whole, see may_hold

    def _fresh(self, name: str) -> str:
        while name in self.taken:
            name = "_" + name
        self.taken.add(name)
        return name


def _is_module(node: ast.expr) -> bool:
    """`jnp` or one of its submodules (`jnp.linalg`)."""
    return isinstance(node, ast.Name) and node.id == "jnp" or isinstance(node, ast.Attribute) and _is_module(node.value)
