"""Fixtures of the priors tests (helpers live in priors_testlib.py)."""

import pytest
from priors_testlib import FAKE_KEY

from camel_jax import llm


@pytest.fixture
def api_key(monkeypatch):
    """A fake key in ANTHROPIC_API_KEY; the SDK only ever talks to a mock transport in these tests."""
    monkeypatch.setenv(llm.API_KEY_ENV, FAKE_KEY)
    return FAKE_KEY
