"""Validation: the adversarial corpus is rejected, for the expected reason and without side effects; the good corpus
passes."""

from __future__ import annotations

from pathlib import Path

import pytest
from priors_testlib import CORPUS, corpus, expected_reason, task_of

from camel_jax.priors import allowlist, sandbox
from camel_jax.priors.errors import PriorError

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

