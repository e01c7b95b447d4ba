"""The jax.numpy a prior sees: jnp itself, except that a list or tuple that jnp refuses as an array is converted the
way NumPy converts it.

NumPy takes any array-like (a list, a tuple, nested ones, of numbers or arrays) where an array is expected: an LLM's
`np.deg2rad([5.0, -10.0])` or `np.linalg.norm([x, y])` is valid NumPy. jax.numpy takes only arrays and scalars
there and raises `TypeError: deg2rad requires ndarray or scalar arguments, got <class 'list'>`. One rule covers
every function: the call runs as written; only when jnp refuses it that way does it run again with list or tuple
arguments converted by `jnp.asarray`, the fewest that jnp then accepts (combinations tried fewest first, leftmost
first), so that a shape or axis tuple beside the refused list (`np.reshape([...], (2, 2))`) stays a tuple. When no
combination is accepted, jnp's own refusal is raised. A call that jnp accepts is never changed, so the trace, and
the numbers, of a prior that passes no such sequence are exactly those of plain jnp.

The rule applies to every function of jax.numpy, of its linalg and fft submodules (the only ones a prior may
reach), and to ufuncs and their methods (`jnp.add.reduce`). Classes (`jnp.float32`, `jnp.ndarray`), constants and
index helpers (`jnp.r_`) are jnp's own objects. Not covered: operators (`x - [0.1, 0.2]`) and array methods
(`x.dot([1.0, 2.0])`), which jax arrays implement themselves.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import types

import jax.numpy as jnp

MAX_SEQUENCES = 6  # list/tuple arguments of one call tried in every combination (2**6 - 1 calls at most)
_REFUSED = "requires ndarray"  # jnp's check: "... requires ndarray or scalar arguments" (or "..., scalar, or None")


@functools.cache
def namespace(module: types.ModuleType) -> object:
    """`module` (jax.numpy or one of its submodules) as a prior sees it."""
    return _Module(module)


def call(f, args: tuple, kwargs: dict):
    """`f(*args, **kwargs)`; when jnp refuses a list or tuple argument, again with the fewest of them converted that
    jnp accepts (see above)."""
    try:
        return f(*args, **kwargs)
    except TypeError as refused:
        if _REFUSED not in str(refused):
            raise
        keys = [*range(len(args)), *kwargs]
        arrays = {k: a for k in keys if (a := _as_array(args[k] if isinstance(k, int) else kwargs[k])) is not None}
        if len(arrays) > MAX_SEQUENCES:
            raise
        for size in range(1, len(arrays) + 1):
            for chosen in itertools.combinations(arrays, size):
                new_args = [arrays[k] if k in chosen else a for k, a in enumerate(args)]
                new_kwargs = {k: arrays[k] if k in chosen else v for k, v in kwargs.items()}
                try:
                    return f(*new_args, **new_kwargs)
                except Exception:  # noqa: BLE001,S112 -- the next choice; jnp's own refusal if none is accepted
                    continue
        raise


def _as_array(value):
    """`value` as a jnp array when it is a list or tuple that converts; else None."""
    if not isinstance(value, (list, tuple)):
        return None
    try:
        return jnp.asarray(value)
    except Exception:  # noqa: BLE001 -- not an array-like (ragged, functions, ...): left as written
        return None


def _wrap(obj):
    if inspect.ismodule(obj):
        return _Module(obj)
    if isinstance(obj, jnp.ufunc):
        return _Ufunc(obj)
    if callable(obj) and not inspect.isclass(obj):
        return _function(obj)
    return obj


@functools.cache
def _function(f):
    @functools.wraps(f)
    def coerced(*args, **kwargs):
        return call(f, args, kwargs)

    return coerced


class _Module:
    """A module whose functions coerce sequences (attributes are looked up, and wrapped, on first use)."""

    def __init__(self, module: types.ModuleType):
        self._module = module
        self._cache: dict[str, object] = {}

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        if name not in self._cache:
            self._cache[name] = _wrap(getattr(self._module, name))
        return self._cache[name]

    def __repr__(self) -> str:
        return f"<{self._module.__name__}, coercing sequences as NumPy does>"


class _Ufunc:
    """A jnp ufunc whose call and methods (`reduce`, `accumulate`, `outer`, ...) coerce sequences."""

    def __init__(self, ufunc: jnp.ufunc):
        self._ufunc = ufunc

    def __call__(self, *args, **kwargs):
        return call(self._ufunc, args, kwargs)

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        return _wrap(getattr(self._ufunc, name))
