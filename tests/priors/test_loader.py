"""Loading a prior (validated, jittable) and its provenance header."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from priors_testlib import CORPUS

from camel_jax.priors import (
    PriorError,
    SetupError,
    allowlist,
    load_prior,
    loader,
    parse_header,
    shipped_prior,
    write_prior,
)
from camel_jax.priors.observations import rollout_observations

GOOD = CORPUS / "good" / "hopper_pd_where.py"
HEADER = {"task": "hopper", "model": "hand-written from priors/prompts/locomotion_v1.md",
          "prompt": "priors/prompts/locomotion_v1.md sha256:abc", "date": "2026-11-22T00:00:00Z",
          "validation": "valid: ..."}


def test_load_prior_returns_a_jittable_vmappable_policy():
    policy = load_prior(GOOD, "hopper")
    obs = jnp.asarray(rollout_observations("hopper", 2000)[:64])
    single = jax.jit(policy)(obs[0])
    batched = jax.jit(jax.vmap(policy))(obs)
    assert single.shape == (3,) and batched.shape == (64, 3)
    np.testing.assert_allclose(batched[0], single, atol=1e-6)
    assert float(jnp.abs(batched).max()) <= 1.0


def test_shipped_prior_paths():
    assert shipped_prior("hopper").name == "selected.py" and shipped_prior("hopper").parts[-3:-1] == ("llm", "hopper")


def test_load_prior_refuses_invalid_files(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text((CORPUS / "bad" / "import_os.py").read_text())
    with pytest.raises(PriorError, match="`import os` is not allowed"):
        load_prior(bad, "hopper")
    with pytest.raises(SetupError, match="not found"):
        load_prior(tmp_path / "missing.py", "hopper")
    with pytest.raises(SetupError, match="unknown task"):
        load_prior(GOOD, "cheetah")


def test_load_prior_checks_the_header_task(tmp_path):
    path = write_prior(tmp_path / "p.py", GOOD.read_text(), {**HEADER, "task": "walker2d"})
    with pytest.raises(PriorError, match="for task 'walker2d'"):
        load_prior(path, "hopper")


def test_header_round_trip_and_replacement(tmp_path):
    path = write_prior(tmp_path / "sub" / "p.py", GOOD.read_text(), {**HEADER, "validation": "two\nlines"})
    text = path.read_text()
    assert text.startswith("# camel-jax prior\n# task: hopper\n# model: hand-written")
    header = parse_header(text)
    assert header == {**HEADER, "validation": "two lines"}
    write_prior(path, text, {**header, "return": "1000.0 +- 1.0"})  # rewriting replaces, never stacks, the header
    again = path.read_text()
    assert again.count("# camel-jax prior") == 1 and parse_header(again)["return"] == "1000.0 +- 1.0"
    assert loader.strip_header(again) == loader.strip_header(text) == GOOD.read_text().rstrip("\n") + "\n"
    assert [p.name for p in path.parent.iterdir()] == ["p.py"]  # no temporary file left
    assert parse_header("import jax.numpy as jnp\n") == {}


def test_module_level_jnp_constant_loads_in_a_fresh_process(tmp_path):
    """jax's dispatch imports numpy and ml_dtypes through the calling frame's builtins the first time an op runs: a
    module-level `jnp.sqrt(...)` constant once failed with KeyError '__import__' in the restricted namespace (a real
    LLM answer, priors/llm/hopper/answer_5.md). A fresh process, so that nothing has warmed jax up before."""
    import subprocess
    import sys

    src = ("import jax.numpy as jnp\nC = jnp.sqrt(9.81 / 0.7)\n\n\ndef policy(obs):\n"
           "    return jnp.clip(jnp.zeros(3) + obs[0] * 0.0 + C / 10.0, -1.0, 1.0)\n")
    code = ("from camel_jax.priors import allowlist; import jax.numpy as jnp\n"
            f"p = allowlist.exec_policy({src!r})\nprint(float(p(jnp.ones(11))[0]))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert abs(float(out.strip().splitlines()[-1]) - (9.81 / 0.7) ** 0.5 / 10.0) < 1e-6
    bad = "import jax.numpy as jnp\n\n\ndef policy(obs):\n    return __import__('os')\n"
    with pytest.raises(PriorError):  # the prior's own code still cannot reach __import__
        allowlist.exec_policy(bad)
