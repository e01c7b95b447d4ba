"""Helpers of the priors tests: corpus paths and the real anthropic SDK over a replaying mock transport."""

from __future__ import annotations

import json
from pathlib import Path

import httpx2

from camel_jax import llm

HERE = Path(__file__).parent
CORPUS = HERE / "corpus"
RECORDED = HERE / "recorded"
FAKE_KEY = "sk-ant-test-0000-not-a-real-key"


class Replay:
    """A MockTransport handler answering requests with recorded responses, in order, and keeping the requests."""

    def __init__(self, *names: str):
        self.responses = [json.loads((RECORDED / f"{name}.json").read_text()) for name in names]
        self.responses_sent: list[dict] = []
        self.requests: list[httpx2.Request] = []

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        self.requests.append(request)
        if not self.responses:
            raise AssertionError("more requests than recorded responses")
        r = self.responses.pop(0)
        self.responses_sent.append(r)
        return httpx2.Response(r["status"], headers=r["headers"], json=r["body"])

    def client(self, max_retries: int = 2):
        """A real `anthropic.Anthropic` client (key from the environment) whose HTTP goes to this replay."""
        return llm.make_client(http_client=httpx2.Client(transport=httpx2.MockTransport(self)), max_retries=max_retries)

    def bodies(self) -> list[dict]:
        return [json.loads(r.content) for r in self.requests]


def corpus(kind: str) -> list[Path]:
    return sorted((CORPUS / kind).glob("*.py"))


def expected_reason(path: Path) -> str:
    """The `# expect: <part of the reason>` first line of a bad corpus program."""
    first = path.read_text().splitlines()[0]
    assert first.startswith("# expect: "), f"{path.name} lacks its '# expect:' line"
    return first.removeprefix("# expect: ")


def task_of(path: Path) -> str:
    """Corpus files are named <task>_<style>.py; programs without a task prefix are for hopper."""
    prefix = path.name.split("_")[0]
    return prefix if prefix in ("hopper", "walker2d", "ant") else "hopper"
