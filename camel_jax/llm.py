"""Talking to the Anthropic Messages API through the `anthropic` SDK (the code in a reply: `answers.extract_code`).

The key is read from ANTHROPIC_API_KEY only, passed to the SDK, and never printed or written. Retries (429, 5xx,
connection errors, with exponential backoff or the server's retry-after) and timeouts are the SDK's own. Tests pass
`http_client=httpx2.Client(transport=httpx2.MockTransport(...))` to drive the real SDK offline.
"""

from __future__ import annotations

import os

import anthropic

from camel_jax.errors import SetupError

API_KEY_ENV = "ANTHROPIC_API_KEY"
DEFAULT_MODEL = "claude-sonnet-4-6"
MAX_TOKENS = 8192
MAX_RETRIES = 4
TIMEOUT_S = 300.0


def make_client(http_client=None, max_retries: int = MAX_RETRIES, timeout_s: float = TIMEOUT_S) -> anthropic.Anthropic:
    """An SDK client with the key from ANTHROPIC_API_KEY (SetupError naming the variable when it is missing)."""
    key = os.environ.get(API_KEY_ENV, "").strip()
    if not key:
        raise SetupError(f"{API_KEY_ENV} is not set; export {API_KEY_ENV}=<your Anthropic API key> and run again")
    return anthropic.Anthropic(api_key=key, http_client=http_client, max_retries=max_retries, timeout=timeout_s)


def ask(client: anthropic.Anthropic, model: str, prompt: str, max_tokens: int = MAX_TOKENS) -> tuple[str, str]:
    """Send one user message (default sampling, so candidates differ); returns (reply text, the model that
    answered). API failures raise SetupError."""
    try:
        message = client.messages.create(model=model, max_tokens=max_tokens,
                                         messages=[{"role": "user", "content": prompt}])
    except anthropic.AuthenticationError:
        raise SetupError(f"the Anthropic API rejected the key (HTTP 401); check {API_KEY_ENV}") from None
    except anthropic.APIStatusError as e:
        raise SetupError(f"the Anthropic API answered HTTP {e.status_code} after {client.max_retries} retries: "
                         f"{_error_message(e)}; check --model or try again later") from None
    except anthropic.APIConnectionError as e:
        raise SetupError(f"cannot reach the Anthropic API ({type(e).__name__}); check the network connection "
                         "and proxy settings, or try again later") from None
    text = "".join(block.text for block in message.content if getattr(block, "type", None) == "text")
    return text, message.model


def _error_message(e: anthropic.APIStatusError) -> str:
    body = e.body if isinstance(e.body, dict) else {}
    error = body.get("error", {}) if isinstance(body.get("error"), dict) else {}
    return " ".join(str(error.get("message") or e.message).split())[:200]
