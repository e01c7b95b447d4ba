"""Validation: the adversarial corpus is rejected, for the expected reason and without side effects; the good corpus
passes."""

from __future__ import annotations

from pathlib import Path

import jax
import numpy as np
import pytest
from priors_testlib import CORPUS, corpus, expected_reason, task_of

from camel_jax.errors import PriorError
from camel_jax.priors import _child, allowlist, purity, sandbox
from camel_jax.priors.cli import main

BAD = corpus("bad")
GOOD = corpus("good")
PWNED = Path("/tmp")  # the bad programs aim their writes at /tmp/camel_jax_pwned*


def _pwned() -> list[Path]:
    return sorted(PWNED.glob("camel_jax_pwned*"))


def test_corpus_sizes():
    assert len(BAD) >= 25 and len(GOOD) >= 5


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_bad_program_rejected_without_side_effects(path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    before = _pwned()
    expected = expected_reason(path)
    limits = sandbox.Limits(timeout_s=3.0) if "timed out" in expected else sandbox.Limits()
    result = sandbox.validate_source(path.read_text(), task_of(path), limits=limits)
    assert not result.ok
    assert expected in result.reason
    assert result.summary == f"invalid: {result.reason}" and "\n" not in result.summary
    assert list(tmp_path.iterdir()) == [] and _pwned() == before


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.stem)
def test_good_prior_accepted(path):
    result = sandbox.validate_file(path, task_of(path))
    assert result.ok, result.reason
    assert result.summary.startswith("valid:") and f"on {sandbox.SAMPLES} rollout observations" in result.summary


def test_static_rejection_never_starts_a_child(monkeypatch):
    def no_child(*args, **kwargs):
        raise AssertionError("a statically rejected program must not run")

    monkeypatch.setattr(sandbox, "run_child", no_child)
    result = sandbox.validate_source((CORPUS / "bad" / "import_os.py").read_text(), "hopper")
    assert not result.ok


def test_child_gets_no_api_key(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-secret")
    env = sandbox._child_env("/tmp/x")
    assert "ANTHROPIC_API_KEY" not in env and set(env) <= {"PATH", "HOME", "TMPDIR", "JAX_PLATFORMS", "XLA_FLAGS",
                                                            "OMP_NUM_THREADS", "MALLOC_ARENA_MAX"}


@pytest.mark.parametrize("source, reason", [
    ("import jax.numpy as jnp\ndef policy(obs, extra):\n    return obs\n", "exactly one argument"),
    ("import jax.numpy as jnp\nX = 1\nX + 1\ndef policy(obs):\n    return obs\n", "at module level"),
    ("import jax.numpy\ndef policy(obs):\n    return obs\n", "`import jax.numpy` is not allowed"),
    ("import jax.numpy as jnp\ndef policy(obs):\n    return jnp.no_such_function(obs)\n", "has no attribute"),
    ("import numpy as np\ndef policy(obs):\n    return np.ctypeslib\n", "'.ctypeslib' is not allowed"),
    ("import numpy as np\ndef policy(obs):\n    return np.char.add\n", "submodule 'np.char' is not allowed"),
    ("import jax.numpy as jnp\ndef policy(obs):\n    jnp = 1\n    return obs\n", "cannot be reassigned"),
    ("import jax.numpy as jnp\ndef policy(obs):\n    return f'{obs}'\n", "f-strings"),
    ("import jax.numpy as jnp\ndef policy(obs):\n    yield obs\n", "generators"),
    ("import jax.numpy as jnp\ndef policy(obs):\n    return [x for x in obs]\n", "loops must run over"),
    ("import jax.numpy as jnp\ndef policy(obs):\n    s = 'x' * 3\n    return s.__len__()\n", "dunder"),
    ("import jax.numpy as jnp\ndef policy(obs):\n    return obs.ctypes\n", "'.ctypes' is not allowed"),
    ("import jax.numpy as jnp\ndef policy(obs):\n    return obs._value\n", "private or dunder"),
    ("import jax.numpy as jnp\ndef policy(obs):\n    return (lambda: obs)()\n" + "#" * 200_001, "characters"),
    ("import numpy as np\nnp.pi = 3.0\ndef policy(obs):\n    return obs\n", "assigning to attributes"),
    ("import numpy as np\ndef policy(obs):\n    np.typecodes['All'] = ''\n    return obs\n", "is module state"),
    # issue #16: helpers beside policy, module-level constants, no state between calls
    ("def policy(obs):\n    return obs\ndef policy(obs):\n    return obs\n", "(found 2; functions: policy, policy)"),
    ("def h(x):\n    return x\ndef h(x):\n    return x\ndef policy(obs):\n    return h(obs)\n", "defined twice"),
    ("def policy(obs):\n    def h(x):\n        return x\n    h = 2\n    return obs\n", "both a function and a variable"),
    ("def h(x):\n    return x\nh = 3\ndef policy(obs):\n    return obs\n", "both a function and a variable"),
    ("import numpy as np\nK = np.zeros(3)\nK[0] = 1.0\ndef policy(obs):\n    return obs\n", "may only bind names"),
    ("import numpy as np\nK = np.load('x.npy')\ndef policy(obs):\n    return obs\n", "'.load' is not allowed"),
    ("K = zip((1,), (2,))\ndef policy(obs):\n    return obs\n", "it calls `zip`"),
    ("K = [i for i in range(3)]\ndef policy(obs):\n    return obs\n", "a ListComp expression"),
    ("K = {**{}}\ndef policy(obs):\n    return obs\n", "`**` unpacking"),
    ("def h(x, k=-abs(1)):\n    return x\ndef policy(obs):\n    return h(obs)\n", "default values must be literal"),
    ("def policy(obs):\n    f = lambda x, c={}: x\n    return f(obs)\n", "default values must be literal"),
    ("def policy(obs) -> abs(1):\n    return obs\n", "annotations may only name types"),
    ("def h():\n    return 1\nK = (h,)\ndef policy(obs):\n    return obs\n", "`h` is not a module-level constant"),
    ("def policy(obs):\n    return [policy][0](obs)\n", "function `policy` may only be called"),
    ("def policy(obs):\n    g = lambda: policy(obs)\n    return g()\n", "recursion is not allowed (policy -> policy)"),
    (("def a(x):\n    return b(x)\ndef b(x):\n    return c(x)\ndef c(x):\n    return a(x)\n"
      "def policy(obs):\n    return a(obs)\n"), "(a -> b -> c -> a)"),
    ("S = {'n': 0}\ndef policy(obs):\n    S.update(n=1)\n    return obs\n", "`.update(...)` changes it in place"),
    ("S = [[0]]\ndef policy(obs):\n    S[0].append(1)\n    return obs\n", "mutates the module-level `S`"),
    ("S = [0]\ndef policy(obs):\n    for S[0] in range(2):\n        pass\n    return obs\n", "mutates the module-level"),
    ("import numpy as np\nA = np.zeros(3)\ndef policy(obs):\n    np.add.at(A, 0, 1.0)\n    return obs\n",
     "`np.add.at` writes into its first argument"),
    ("import numpy as np\nA = np.zeros(3)\ndef policy(obs):\n    A.setflags(write=True)\n    return obs\n",
     "'.setflags' is not allowed"),
    ("import numpy as np\nA = np.zeros(3)\ndef policy(obs):\n    b = A\n    b.flags['WRITEABLE'] = True\n    return obs\n",
     "'.flags' is not allowed"),
    # issue #26: module-level values from the module's own functions, functions passed as arguments
    ("K = h(1.0)\ndef h(x):\n    return x\ndef policy(obs):\n    return obs\n", "it calls `h` before its `def` (line 2)"),
    ("def h(x):\n    return x\nK = h(obs)\ndef policy(obs):\n    return obs\n", "`obs` is not a module-level constant"),
    ("def h(x):\n    return x\ndef k(f):\n    return 1.0\nK = k(h)\ndef policy(obs):\n    return obs\n",
     "`h` is not a module-level constant"),
    ("def h(x):\n    return x\ndef policy(obs):\n    return h\n", "may only be called (`h(...)`) or passed"),
    ("def h(x):\n    return x\ndef policy(obs):\n    g = h\n    return g(obs)\n", "not stored or returned"),
    ("def h(x):\n    return x\ndef policy(obs):\n    return (h,)[0](obs)\n", "not stored or returned"),
    ("def h(f, x):\n    return f(f, x)\ndef policy(obs):\n    return h(h, obs)\n", "recursion is not allowed (h -> h)"),
    (("def a(g, x):\n    return g(x)\ndef b(x):\n    return a(b, x)\ndef policy(obs):\n    return b(obs)\n"),
     "recursion is not allowed"),
    (("def a(g, x):\n    return g(x)\ndef b(x):\n    return a(c, x)\ndef c(x):\n    return b(x)\n"
      "def policy(obs):\n    return b(obs)\n"), "recursion is not allowed"),
    ("def policy(obs):\n    zip = 1\n    return obs\n", "'zip' is a builtin that bounds loops"),
    ("def policy(obs, range=3):\n    return obs\n", "exactly one argument"),
    ("KP = (1.0, 2.0)\ndef policy(obs):\n    KP = obs\n    return [k for k in KP]\n", "loops must run over"),
    ("N = 3\nN = 10**6\ndef policy(obs):\n    return [obs[0] for i in range(N)]\n", "loops must run over"),
    ("N = 65\ndef policy(obs):\n    return [obs[0] for i in range(N)]\n", "loops must run over"),
    ("def policy(obs):\n    return [obs[i] for i in range(len(obs))]\n", "loops must run over"),
])
def test_static_checks(source, reason):
    with pytest.raises(PriorError) as e:
        allowlist.check(source)
    assert reason in str(e.value)


def test_allowed_forms_pass_the_static_check():
    source = (
        "import math\nimport numpy\nimport jax.numpy as jp\nfrom jax import numpy as jnp\n"
        "K: float = 2.0 * math.pi\n"
        "def policy(obs):\n"
        "    '''doc'''\n"
        "    norm = jp.linalg.norm(obs)\n"
        "    parts = [obs[i] * K for i in range(3) if i != 1]\n"
        "    for a, b in zip((1.0, 2.0), [3.0, 4.0]):\n"
        "        norm = norm + a * b\n"
        "    pick = lambda x, lo=-1.0: jnp.clip(x, lo, 1.0)\n"
        "    return pick(jnp.stack([parts[0], norm, numpy.float32(0.0)]))\n"
    )
    assert set(allowlist.check(source)) == {"math", "numpy", "jp", "jnp"}



@pytest.mark.parametrize("source", [
    "S = [0]\ndef policy(obs):\n    S = [1]\n    S.append(2)\n    return obs\n",  # a local that shadows S
    "def policy(obs):\n    acc = []\n    def add(x):\n        acc.append(x)\n    add(1)\n    return obs\n",
    "import numpy as np\ndef policy(obs):\n    act = np.zeros(3)\n    act[0] = obs[0]\n    act[1] += 1\n    return act\n",
    "K = (1.0, -2.0)\ndef h(x, k=-0.5, t=(0.0, 1.0), n=None):\n    return x\ndef policy(obs):\n    return h(obs) * K[0]\n",
    # loops bounded by module-level constants
    "import numpy as np\nKP = np.array([1.0, 2.0, 3.0])\ndef policy(obs):\n    return [KP[i] for i in range(len(KP))]\n",
    "N: int = 3\ndef policy(obs):\n    return [obs[i] for i in range(1, N)]\n",
    "KP = (1.0, 2.0)\nKD = [0.1, 0.2]\ndef policy(obs):\n    return [k * d for k, d in zip(KP, KD)]\n",
    "G = dict(kp=1.0, kd=-0.1)\nIDX = list(range(2, 5))\ndef policy(obs):\n    return obs[IDX[0]] * G['kp']\n",
])
def test_local_state_literal_defaults_and_constant_loops_are_fine(source):
    allowlist.check(source)


def test_loaded_prior_constants_are_frozen():
    """Mutation through aliases and arguments, which the static check cannot follow, fails at run time instead."""
    policy = allowlist.exec_policy((CORPUS / "good" / "hopper_top_level_helpers.py").read_text())
    namespace = policy.__globals__
    assert namespace["LIMITS"] == (-1.0, 1.0) and namespace["LIMITS"].copy() == [-1.0, 1.0]
    with pytest.raises(AttributeError):
        namespace["LIMITS"].append(2.0)
    with pytest.raises(TypeError):
        namespace["GAINS"]["kp"] = 0.0
    with pytest.raises(ValueError, match="read-only"):
        namespace["TARGETS"][0] = 1.0


def test_stateful_numpy_prior_is_refused_in_numpy_mode_too():
    obs = np.zeros((4, 11), np.float32)
    with pytest.raises(PriorError, match="mutates a module-level constant"):
        sandbox.run_numpy_policy((CORPUS / "bad" / "state_through_alias.py").read_text(), obs, 3)


# Routes around the frozen constants (issue #23), refused by the purity rule itself, each with what it does.
STATE_ROUTES = {
    "view base": ("A = np.zeros(4)[:2]\ndef policy(obs):\n    m = A.base\n    m[0] += 1.0\n    return obs\n",
                  "'.base' is not allowed: `.base` is the array a view was taken from"),
    "setflags": ("A = np.zeros(3)\ndef policy(obs):\n    A.setflags(write=True)\n    return obs\n",
                 "'.setflags' is not allowed: `.setflags` can make a frozen (read-only) array writable again"),
    "flags": ("A = np.zeros(3)\ndef policy(obs):\n    b = A\n    b.flags['WRITEABLE'] = True\n    return obs\n",
              "'.flags' is not allowed: `.flags` can make a frozen"),
    "ctypes": ("A = np.zeros(3)\ndef policy(obs):\n    p = A.ctypes\n    return obs\n",
               "'.ctypes' is not allowed: `.ctypes` reaches an array's raw memory"),
    "frompyfunc": ("def policy(obs):\n    f = np.frompyfunc(lambda x: [x], 1, 1)\n    return obs\n",
                   "'.frompyfunc' is not allowed: `frompyfunc` makes object arrays"),
    "object_": ("M = np.empty(2, np.object_)\ndef policy(obs):\n    return obs\n", "`object_` makes object arrays"),
    "dtype=object": ("M = np.array([[0.0], [1.0, 2.0]], dtype=object)\ndef policy(obs):\n    return obs\n",
                     "`object` is not allowed: object arrays (dtype=object)"),
    "astype('O')": ("def policy(obs):\n    return obs.astype('O')\n", "the dtype 'O' is not allowed"),
    "structured dtype": ("def policy(obs):\n    return np.zeros(2, dtype='O,f8')\n", "the dtype 'O,f8' is not allowed"),
}


@pytest.mark.parametrize("source, reason", STATE_ROUTES.values(), ids=STATE_ROUTES.keys())
def test_routes_around_the_frozen_constants_are_refused_statically(source, reason):
    with pytest.raises(PriorError) as e:
        allowlist.check(f"import numpy as np\n{source}")
    assert reason in str(e.value) and "a route for state kept between calls" in str(e.value)


@pytest.mark.parametrize("name", ["state_view_base", "state_object_dtype", "state_object_array_implicit"])
def test_numpy_answers_keeping_state_around_the_frozen_constants_are_refused(name):
    """Before issue #23 the NumPy reference ran these and their actions drifted from call to call on one observation
    (a gait clock in a view's base, in a list inside an object array, in a dict inside an implicit object array)."""
    with pytest.raises(PriorError, match="a route for state kept between calls"):
        sandbox.run_numpy_policy((CORPUS / "bad" / f"{name}.py").read_text(), np.zeros((4, 11), np.float32), 3)


def test_frozen_constants_own_their_memory():
    view = np.zeros(4)[1:3]
    frozen = purity.freeze({"v": view, "w": [view]}, "C")
    for array in (frozen["v"], frozen["w"][0]):
        assert array.base is None and not array.flags.writeable and array.shape == (2,)
    with pytest.raises(PriorError, match="the module-level `C` is an object array"):
        purity.freeze((np.array([{"t": 0}]),), "C")


def test_a_name_object_of_the_priors_own_is_not_an_object_dtype():
    allowlist.check("def policy(obs):\n    object = obs[0]\n    return obs * object\n")


def test_issue_16_helper_prior_passes_validate(capsys):
    """Rejected before issue #16 with "define exactly one top-level function `policy(obs)` (found: _pd, policy)"."""
    path = CORPUS / "good" / "hopper_pd_helper.py"
    assert main(["validate", str(path), "--env", "hopper"]) == 0
    assert capsys.readouterr().out.startswith(f"{path}: valid: ")


def test_issue_16_stateful_prior_is_refused(capsys):
    """`CALLS = [0]` ... `CALLS.append(1)`: valid before issue #16 (the traces see 1, 2, 3, ... calls)."""
    path = CORPUS / "bad" / "state_list_append.py"
    assert main(["validate", str(path), "--env", "hopper"]) == 1
    assert "`CALLS.append(1)` mutates the module-level `CALLS`" in capsys.readouterr().out


# issue #26 (Humanoid answers 3 and 5): what the static rules now accept, run as the sandbox child runs it.
HELPERS = """import numpy as np


def _ry(a):
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


_R = _ry(-0.004)
_TABLE = {"k": (_ry(0.1)[0, 0], 2.0)}


def _heading(o, to_h):
    return to_h(o[:2])


def policy(obs):
    cy, sy = np.cos(obs[2]), np.sin(obs[2])

    def to_h(v):
        return v[0] * cy + v[1] * sy, -v[0] * sy + v[1] * cy

    f, l = _heading(obs, to_h)
    return np.clip(_R @ np.array([f, l, obs[3] * _TABLE["k"][0]]), -1.0, 1.0)
"""


def test_module_level_helper_values_and_functions_as_arguments_run_and_stay_frozen():
    allowlist.check(HELPERS)
    policy = allowlist.exec_policy(HELPERS)
    obs = np.array([0.3, -0.2, 0.5, 0.7, 0.0])
    c, s = np.cos(obs[2]), np.sin(obs[2])
    r = np.array([[np.cos(-0.004), 0.0, np.sin(-0.004)], [0.0, 1.0, 0.0], [-np.sin(-0.004), 0.0, np.cos(-0.004)]])
    expected = np.clip(r @ [0.3 * c - 0.2 * s, -0.3 * s - 0.2 * c, 0.7 * np.cos(0.1)], -1, 1)
    np.testing.assert_allclose(policy(obs), expected, rtol=1e-12)
    constant = policy.__globals__["_R"]
    assert not constant.flags.writeable  # frozen like any constant
    with pytest.raises(TypeError):
        policy.__globals__["_TABLE"]["k"] = 0.0


@pytest.mark.parametrize("made, kind", [
    ("    calls = []\n    return lambda: calls.append(1) or len(calls)\n", "holds a function"),
    ("    return (x for x in range(3))\n", "holds a generator"),
    ("    return [1.0, {'f': lambda: 1}]\n", "holds a function"),
    ("    return zip((1,), (2,))\n", "holds a zip"),
])
def test_module_level_value_from_a_helper_must_be_plain_data(made, kind):
    source = f"def _make():\n{made}\n\nK = _make()\n\n\ndef policy(obs):\n    return obs\n"
    allowlist.check(source)  # statically fine: the value is checked once the module has run
    with pytest.raises(PriorError, match=kind):
        allowlist.exec_policy(source)


# issue #26 (Humanoid answer 4): jax.vmap(policy) and single calls are two XLA programs that round differently in
# float32. A difference above 1e-5 passes only when both agree in float64 and it stays within twice the policy's own
# float32 rounding error. This policy differences nearly equal numbers (as answer 4's finite differences over
# dt = 0.02 do): its float32 rounding error is about 1e-5, by construction.
ROUNDING = ("import jax.numpy as jnp\n\ndef policy(obs):\n    x = obs[:3]\n"
            "    return jnp.clip(50.0 * (jnp.sin(x + 0.02) - jnp.sin(x)) - 1.5 * jnp.cos(x), -1.0, 1.0)\n")


def _single_calls(source: str, obs: np.ndarray, x64: bool) -> np.ndarray:
    with jax.enable_x64(x64):
        policy = jax.jit(allowlist.exec_policy(source))
        dtype = np.float64 if x64 else np.float32
        return np.stack([np.asarray(policy(o.astype(dtype)), np.float64) for o in obs])


def test_vmap_difference_passes_only_within_float32_rounding_and_with_float64_agreement(monkeypatch):
    obs = np.random.default_rng(3).uniform(-1, 1, (200, 11)).astype(np.float32)
    single = _single_calls(ROUNDING, obs, x64=False)
    rounding = float(np.abs(single - _single_calls(ROUNDING, obs, x64=True)).max())
    assert 2e-6 < rounding < 1e-3  # float32 rounding of the policy, not a switch flipped
    phrase = _child._vmap_rounding(ROUNDING, obs, single, 1.5 * rounding)
    assert phrase.startswith(f"vmaps (batched and single calls agree within {1.5 * rounding:.1e} in float32")
    with pytest.raises(_child.Reject, match="more than twice its float32 rounding error"):
        _child._vmap_rounding(ROUNDING, obs, single, 2.5 * rounding)
    vmap = jax.vmap  # a batched program that computes something else: caught in float64, where rounding is ~1e-16
    monkeypatch.setattr(_child.jax, "vmap", lambda f: (lambda x: vmap(f)(x) + 1e-4 * (x.dtype == np.float64)))
    with pytest.raises(_child.Reject, match=r"in float64, where rounding cannot explain it"):
        _child._vmap_rounding(ROUNDING, obs, single, 1.5 * rounding)
