"""Mechanical NumPy -> jax.numpy rewriting of a policy, for code simple enough to convert by syntax alone.

Rules, applied to the syntax tree:
- `np.f` -> `jnp.f` (when jnp has `f`), `math.f` -> its jnp counterpart; the imports become `import jax.numpy as jnp`;
- `a[i] = v` -> `a = a.at[i].set(v)` (and `+=`, `-=`, `*=`, `/=` -> `.add/.subtract/.multiply/.divide`); a list
  literal whose items are assigned (`a = [0.0] * 3`) -> `jnp.array(...)`; `clip(a_min=, a_max=)` -> `clip(min=, max=)`;
- `x if c else y` -> `jnp.where(c, x, y)`; `and`/`or`/`not` -> `jnp.logical_and/or/not`; `a < b < c` -> a
  logical_and of the two comparisons; `max(a, b)`/`min(a, b)` -> `jnp.maximum/minimum`; `float(x)` -> jnp float32;
- `if`/`elif`/`else` on values -> both branches computed into fresh names, merged with `jnp.where` (an early
  `return` in one branch takes the rest of the block into the other branch).
Branches may only hold assignments, nested such `if`s and a final `return`. Anything else raises PriorError naming
the construct, and the caller falls back to the LLM. The result is not trusted: it is validated and certified.
"""

from __future__ import annotations

import ast
import math

import jax.numpy as jnp

from camel_jax.priors import allowlist
from camel_jax.priors.errors import PriorError

_MATH_TO_JNP = {"atan2": "arctan2", "asin": "arcsin", "acos": "arccos", "atan": "arctan", "fabs": "abs",
                "pow": "power", "copysign": "copysign", "hypot": "hypot"}
_CLIP_KEYWORDS = {"a_min": "min", "a_max": "max"}
_AUG_TO_AT = {ast.Add: "add", ast.Sub: "subtract", ast.Mult: "multiply", ast.Div: "divide", ast.Pow: "power"}


def numpy_to_jnp(source: str) -> str:
    """The jnp rewrite of NumPy policy `source`; raises PriorError when it needs more than the rules above."""
    tree = allowlist.parse(source)
    modules = allowlist.check_tree(tree)
    docstring = tree.body[:1] if tree.body and allowlist.is_docstring(tree.body[0]) else []
    rest = [n for n in tree.body[len(docstring):] if not isinstance(n, (ast.Import, ast.ImportFrom))]
    imports = [ast.Import(names=[ast.alias(name="jax.numpy", asname="jnp")])]
    tree.body = docstring + imports + rest
    tree = _Expressions(modules).visit(tree)
    tree = _ItemAssignments().visit(tree)
    branches = _Branches({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)})
    for func in [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]:
        func.body = branches.block(func.body)
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

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        node = self.generic_visit(node)
        return ast.copy_location(_jnp("where", node.test, node.body, node.orelse), node)

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
        if name == "float" and len(args) == 1:
            return ast.copy_location(_jnp("asarray", args[0], dtype=ast.Attribute(
                value=ast.Name("jnp", ast.Load()), attr="float32", ctx=ast.Load())), node)
        return node


class _ItemAssignments(ast.NodeTransformer):
    """In-place array updates and augmented assignments become plain assignments to names; a list literal whose
    items are assigned later in the same function (`act = [0.0] * 3; act[0] = x`) becomes a jnp array."""

    def __init__(self):
        self.updated: set[str] = set()  # names item-assigned in the function being rewritten

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        outer = self.updated
        self.updated = {t.value.id for t in ast.walk(node) if isinstance(t, ast.Subscript)
                        and isinstance(t.ctx, ast.Store) and isinstance(t.value, ast.Name)}
        node = self.generic_visit(node)
        self.updated = outer
        return node

    def visit_Assign(self, node: ast.Assign) -> ast.stmt:
        target = node.targets[0]
        if len(node.targets) == 1 and isinstance(target, ast.Subscript):
            return ast.copy_location(self._update(target, "set", node.value), node)
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

    @staticmethod
    def _update(target: ast.Subscript, method: str, value: ast.expr) -> ast.Assign:
        if not isinstance(target.value, ast.Name):
            _fail(target, f"item assignment to `{ast.unparse(target)}` (only `name[index] = value` converts)")
        name = target.value.id
        at = ast.Subscript(value=ast.Attribute(value=ast.Name(name, ast.Load()), attr="at", ctx=ast.Load()),
                           slice=target.slice, ctx=ast.Load())
        call = ast.Call(func=ast.Attribute(value=at, attr=method, ctx=ast.Load()), args=[value], keywords=[])
        return ast.Assign(targets=[ast.Name(name, ast.Store())], value=call)


class _Branches:
    """`if` statements on values -> straight-line code merged with jnp.where (see the module docstring)."""

    def __init__(self, taken: set[str]):
        self.taken = set(taken)
        self.temporaries: set[str] = set()  # fresh names: branch-local, never merged outward

    def block(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out, todo = [], list(stmts)
        while todo:
            s = todo.pop(0)
            if isinstance(s, ast.If):
                body, orelse = s.body, s.orelse
                if _returns(body) and not _returns(orelse):
                    orelse, todo = orelse + todo, []
                elif _returns(orelse) and not _returns(body):
                    body, todo = body + todo, []
                out += self._merge(s, self.block(body), self.block(orelse))
            elif isinstance(s, ast.For) and any(isinstance(n, ast.Return) for n in ast.walk(s)):
                _fail(s, "a `return` inside a `for` loop")
            elif isinstance(s, ast.For):
                s.body = self.block(s.body)
                out.append(s)
            else:
                out.append(s)
        return out

    def _merge(self, node: ast.If, body: list[ast.stmt], orelse: list[ast.stmt]) -> list[ast.stmt]:
        cond = self._fresh("cond")
        out = [ast.Assign(targets=[ast.Name(cond, ast.Store())], value=node.test)]
        then_code, then_names, then_ret = self._rename(body, "then")
        else_code, else_names, else_ret = self._rename(orelse, "else")
        out += then_code + else_code
        if (then_ret is None) != (else_ret is None):
            _fail(node, "one branch returns while the other falls through to the end of the function")
        if then_ret is not None:
            return out + [ast.Return(value=_jnp("where", ast.Name(cond, ast.Load()), then_ret, else_ret))]
        for name in dict.fromkeys(n for n in [*then_names, *else_names] if n not in self.temporaries):
            picks = [ast.Name(names.get(name, name), ast.Load()) for names in (then_names, else_names)]
            where = _jnp("where", ast.Name(cond, ast.Load()), *picks)
            out.append(ast.Assign(targets=[ast.Name(name, ast.Store())], value=where))
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
            if isinstance(s, ast.Assign) and len(s.targets) == 1:
                value = _Rename(current).visit(s.value)
                targets = s.targets[0].elts if isinstance(s.targets[0], ast.Tuple) else [s.targets[0]]
                if not all(isinstance(t, ast.Name) for t in targets):
                    _fail(s, f"the assignment `{ast.unparse(s)}` inside an `if` on values")
                for t in targets:
                    current[t.id] = self._fresh(f"{t.id}_{tag}")
                stores = [ast.Name(current[t.id], ast.Store()) for t in targets]
                target = stores[0] if len(stores) == 1 else ast.Tuple(elts=stores, ctx=ast.Store())
                out.append(ast.Assign(targets=[target], value=value))
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


def _returns(stmts: list[ast.stmt]) -> bool:
    """Whether every path through `stmts` ends in a `return`."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, ast.Return):
        return True
    return isinstance(last, ast.If) and _returns(last.body) and _returns(last.orelse)

