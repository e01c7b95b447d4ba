"""Generation with the real anthropic SDK over a mock HTTP transport replaying recorded Messages API responses."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from priors_testlib import FAKE_KEY, Replay

from camel_jax import llm, specs
from camel_jax.errors import SetupError
from camel_jax.priors import generate as generate_module
from camel_jax.priors import parse_header, prompt
from camel_jax.priors.generate import generate

HOPPER = specs.load("hopper")


def _files(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def _no_key_anywhere(folder) -> bool:
    return all(FAKE_KEY not in p.read_text() for p in folder.rglob("*") if p.is_file())


def test_several_candidates_parsed_validated_and_saved(api_key, tmp_path):
    replay = Replay("message_two_blocks", "message_plain", "message_invalid_code")
    results = generate(HOPPER, 3, client=replay.client(), out_dir=tmp_path)

    assert [(c.number, c.ok) for c in results] == [(1, True), (2, True), (3, False)]
    assert _files(tmp_path) == ["hopper_1.py", "hopper_2.py", "hopper_3.py.rejected"]
    # the reply with a sketch block and a final block yields the final one
    first = (tmp_path / "hopper_1.py").read_text()
    assert "KP = jnp.array" in first and "act = jnp.array([0.5, 0.0, 0.0])" not in first
    header = parse_header(first)
    _, path, sha = prompt.build_prompt(HOPPER)
    assert header["task"] == "hopper" and header["model"] == "claude-sonnet-4-6"
    assert header["prompt"] == f"priors/prompts/{path.name} sha256:{sha}"
    assert header["validation"].startswith("valid:") and header["date"].endswith("Z")
    assert "`import os` is not allowed" in results[2].reason
    assert parse_header((tmp_path / "hopper_3.py.rejected").read_text())["validation"].startswith("invalid:")

    # every request is one user message carrying the full prompt, for the requested model
    text, _, _ = prompt.build_prompt(HOPPER)
    for body in replay.bodies():
        assert body["model"] == llm.DEFAULT_MODEL and body["messages"] == [{"role": "user", "content": text}]
    assert _no_key_anywhere(tmp_path)


def test_numbering_continues_after_existing_candidates(api_key, tmp_path):
    (tmp_path / "hopper_4.py").write_text("# an earlier candidate\n")
    (tmp_path / "hopper_7.py.rejected").write_text("# an earlier rejected candidate\n")
    results = generate(HOPPER, 1, client=Replay("message_plain").client(), out_dir=tmp_path)
    assert results[0].number == 8 and (tmp_path / "hopper_8.py").is_file()


def test_reply_without_code_saves_nothing(api_key, tmp_path):
    results = generate(HOPPER, 1, client=Replay("message_no_code").client(), out_dir=tmp_path)
    assert not results[0].ok and results[0].path is None and "no ```python code block" in results[0].reason
    assert _files(tmp_path) == []


def test_rate_limit_and_server_error_are_retried(api_key, tmp_path):
    replay = Replay("error_429", "error_500", "message_plain")
    results = generate(HOPPER, 1, client=replay.client(max_retries=2), out_dir=tmp_path)
    assert len(replay.requests) == 3 and results[0].ok
    assert [r.headers.get("x-stainless-retry-count") for r in replay.requests] == ["0", "1", "2"]


def test_errors_after_the_last_retry_name_the_status(api_key, tmp_path):
    replay = Replay("error_529", "error_529")
    with pytest.raises(SetupError, match=r"HTTP 529 after 1 retries: Overloaded; .*try again later"):
        generate(HOPPER, 2, client=replay.client(max_retries=1), out_dir=tmp_path)
    assert _files(tmp_path) == []


def test_unreachable_api_is_a_clear_error(api_key, tmp_path):
    import httpx2

    def offline(request):
        raise httpx2.ConnectError("Name or service not known", request=request)

    client = llm.make_client(http_client=httpx2.Client(transport=httpx2.MockTransport(offline)), max_retries=0)
    with pytest.raises(SetupError, match="cannot reach the Anthropic API"):
        generate(HOPPER, 1, client=client, out_dir=tmp_path)


def test_missing_key_names_the_variable(monkeypatch, tmp_path):
    monkeypatch.delenv(llm.API_KEY_ENV, raising=False)
    with pytest.raises(SetupError, match=f"{llm.API_KEY_ENV} is not set; export {llm.API_KEY_ENV}="):
        generate(HOPPER, 1, out_dir=tmp_path)
    assert _files(tmp_path) == []


def test_paper_style_reply_is_translated_and_saved_with_its_provenance(api_key, tmp_path):
    """`generate --style paper` sends the paper's NumPy prompt and imports the reply like an answer file."""
    replay = Replay("message_paper_numpy")
    results = generate(HOPPER, 1, client=replay.client(), out_dir=tmp_path, style="paper", command="camel-jax ...")
    assert results[0].ok and _files(tmp_path) == ["hopper_1.py"]
    text, _, sha = prompt.build_prompt(HOPPER, prompt.PAPER_PROMPT)
    assert replay.bodies()[0]["messages"] == [{"role": "user", "content": text}]
    saved = (tmp_path / "hopper_1.py").read_text()
    header = parse_header(saved)
    assert header["prompt"] == f"priors/prompts/paper_numpy_v2.md sha256:{sha}"
    assert header["prompt_text"].startswith(f"sha256:{hashlib.sha256(text.encode()).hexdigest()} ")
    reply = replay.responses_sent[0]["body"]["content"][1]["text"]
    assert header["answer"] == f"Messages API reply sha256:{hashlib.sha256(reply.encode()).hexdigest()}"
    assert header["method"].startswith("NumPy answer translated to jnp mechanically") and "command: camel-jax" in \
        header["method"]
    assert "import jax.numpy as jnp" in saved and "np." not in saved.replace("jnp.", "")


def test_default_folder_is_never_inside_the_installed_package(monkeypatch, tmp_path):
    assert generate_module.default_out_dir() == specs.data_dir("priors")  # a checkout: its priors/ folder
    wheel = Path(specs.__file__).resolve().parent / "_data" / "priors"
    monkeypatch.setattr(specs, "data_dir", lambda kind: wheel)
    monkeypatch.chdir(tmp_path)
    assert generate_module.default_out_dir() == tmp_path
