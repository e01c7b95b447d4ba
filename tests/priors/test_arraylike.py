"""The jax.numpy a prior sees takes lists and tuples where NumPy takes them (issue #23), and changes nothing else."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from priors_testlib import CORPUS

from camel_jax.priors import allowlist, arraylike

OBS = np.random.default_rng(0).uniform(-1, 1, (64, 11)).astype(np.float32)

# NumPy calls with lists or tuples where jnp wants arrays; each is run as NumPy and as jnp in a prior, under jit.
CALLS = {
    "list literal": "np.deg2rad([10.0, -20.0, obs[0]])",
    "tuple literal": "np.deg2rad((10.0, -20.0, 5.0)) * obs[1]",
    "list of observation values": "np.linalg.norm([obs[0], obs[1]]) + np.zeros(3)",
    "list constant": "np.multiply(KP, obs[2:5])",
    "list and tuple bounds": "np.clip(obs[2:5], [-0.5, -0.2, 0.0], (0.5, 0.2, 0.1))",
    "shape tuple beside a list": "np.reshape([obs[0], obs[1], obs[2]], (3,))",
    "axis tuple beside a list": "np.sum([obs[2:5], obs[5:8]], axis=(0,))",
    "ufunc method": "np.add.reduce([obs[0], obs[1], 1.0]) * np.ones(3)",
    "keyword arguments": "np.interp(obs[0], xp=[-1.0, 0.0, 1.0], fp=(0.0, 0.5, -1.0)) * np.ones(3)",
    "fft submodule": "np.fft.rfft([obs[0], obs[1], obs[2], obs[3]]).real[:3]",
}


@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
def test_sequences_are_arrays_in_a_priors_jnp_as_in_numpy(call):
    body = f"KP = [1.5, 1.2, 0.8]\n\ndef policy(obs):\n    return {call}\n"
    numpy_policy = allowlist.exec_policy(f"import numpy as np\n{body}")
    jnp_policy = allowlist.exec_policy(f"import jax.numpy as np\n{body}")
    expected = np.stack([np.asarray(numpy_policy(o.astype(np.float64)), np.float64) for o in OBS])
    np.testing.assert_allclose(np.asarray(jax.jit(jax.vmap(jnp_policy))(OBS)), expected, rtol=1e-5, atol=1e-6)


def test_what_jnp_refuses_for_another_reason_stays_refused():
    policy = allowlist.exec_policy("import jax.numpy as jnp\ndef policy(obs):\n    return jnp.sign([[1.0], [1.0, 2.0]])\n")
    with pytest.raises(TypeError, match="sign requires ndarray or scalar arguments"):  # ragged: no array at all
        policy(OBS[0])


@pytest.mark.parametrize("path", sorted((CORPUS / "good").glob("*.py")), ids=lambda p: p.stem)
def test_priors_that_pass_no_sequence_trace_exactly_as_with_plain_jnp(path, monkeypatch):
    """The training numerics of every prior that jnp already accepted are unchanged: the same jaxpr."""
    source = path.read_text()
    obs = jax.ShapeDtypeStruct((27 if path.stem.startswith("ant") else 17 if "walker" in path.stem else 11,),
                               jnp.float32)
    seen = jax.make_jaxpr(allowlist.exec_policy(source))(obs)
    monkeypatch.setattr(arraylike, "namespace", lambda module: module)
    plain = jax.make_jaxpr(allowlist.exec_policy(source))(obs)
    assert str(seen) == str(plain)


def test_classes_constants_and_index_helpers_are_jnps_own():
    seen = arraylike.namespace(jnp)
    assert seen.float32 is jnp.float32 and seen.ndarray is jnp.ndarray and seen.pi == jnp.pi and seen.r_ is jnp.r_
    assert isinstance(jnp.zeros(2), seen.ndarray)
    with pytest.raises(AttributeError):
        seen._src  # noqa: B018 -- private names stay out of reach, as the allow-list already ensures
