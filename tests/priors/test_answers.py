"""Reading LLM answers (markdown, text, Anthropic Messages JSON) and finding the policy code in them."""

from __future__ import annotations

import hashlib
import json

import pytest
from priors_testlib import HERE

from camel_jax.errors import SetupError
from camel_jax.priors import answers

ANSWERS = HERE / "answers"


def test_extract_code_picks_the_last_policy_block():
    reply = ("```python\nx = 1\n```\ntext\n```py\ndef policy(obs):\n    return 1\n```\n"
             "```\ndef policy(obs):\n    return 2\n```")
    assert answers.extract_code(reply) == "def policy(obs):\n    return 2\n"
    assert answers.extract_code("no code here") is None
    assert answers.extract_code("```python\nx = 1\n```") is None


def test_fences_indented_tilde_crlf_other_languages_and_unclosed():
    text = ("1. The code:\r\n\r\n   ```Python\r\n   def policy(obs):\r\n       return obs\r\n   ```\r\n"
            "~~~~\nK = 1\n~~~~\n```json\n{\"a\": 1}\n```\n```python\ndef policy(obs):\n    return 0\n")
    assert answers.code_blocks(text) == ["def policy(obs):\n    return obs\n", "K = 1\n"]
    assert answers.extract_code(text) == "def policy(obs):\n    return obs\n"  # the unclosed last block is ignored


def test_code_pasted_without_fences_is_one_block():
    code = "import numpy as np\n\ndef policy(obs):\n    return np.clip(obs[:3], -1, 1)\n"
    assert answers.extract_code(code) == code
    assert answers.extract_code("Here is the policy: def policy(obs): return obs") is None  # prose, not Python


def test_missing_definitions_come_from_earlier_blocks_and_the_demo_is_dropped():
    text = (ANSWERS / "hopper_split_blocks.md").read_text()
    code = answers.extract_code(text)
    assert code.startswith("import numpy as np\n\ndef saturate(x, limit=1.0):")
    assert "TARGETS = (0.1, -0.25, 0.15)" in code and "GAIN = 2.5" in code and "print(" not in code
    assert code.count("def policy") == 1
    main_guard = ("```python\nimport gymnasium as gym\nimport numpy as np\n\ndef policy(obs):\n"
                  "    return np.clip(obs[:3], -1, 1)\n\nif __name__ == '__main__':\n    env = gym.make('Hopper-v4')\n"
                  "    print(policy(np.zeros(11)))\n```")
    assert answers.extract_code(main_guard) == "import numpy as np\n\ndef policy(obs):\n    return np.clip(obs[:3], -1, 1)\n"


def test_a_block_complete_in_itself_takes_nothing_from_earlier_ones():
    text = ("```python\nK = 5.0\ndef policy(obs):\n    return K\n```\n```python\nK = 1.0\ndef policy(obs):\n"
            "    return K * obs\n```")
    assert answers.extract_code(text) == "K = 1.0\ndef policy(obs):\n    return K * obs\n"


def test_read_markdown_and_messages_json(tmp_path):
    md = answers.read(ANSWERS / "hopper_gemini_numpy.md")
    assert md.model is None and md.error == "" and "def _pd(" in md.text
    assert md.sha256 == hashlib.sha256((ANSWERS / "hopper_gemini_numpy.md").read_bytes()).hexdigest()
    js = answers.read(ANSWERS / "hopper_claude_messages.json")
    assert js.model == "claude-opus-4-1-20250805" and js.error == ""
    assert "def joint_targets(" in js.text and "return obs[:3]" not in js.text  # thinking blocks are not the answer
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps({"content": "```python\ndef policy(obs):\n    return obs\n```"}))
    assert answers.extract_code(answers.read(plain).text) == "def policy(obs):\n    return obs\n"


@pytest.mark.parametrize("name, raw, error", [
    ("error.json", json.dumps({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
     "an API error response, not an answer: Overloaded"),
    ("broken.json", '{"content": [', "not valid JSON"),
    ("other.json", json.dumps({"choices": []}), "not an Anthropic Messages response"),
    ("latin1.md", b"caf\xe9 def policy(obs)", "not UTF-8 text"),
])
def test_unreadable_answers_carry_the_reason(tmp_path, name, raw, error):
    path = tmp_path / name
    path.write_bytes(raw if isinstance(raw, bytes) else raw.encode())
    assert error in answers.read(path).error


def test_missing_answer_is_a_setup_error(tmp_path):
    with pytest.raises(SetupError, match="answer file not found"):
        answers.read(tmp_path / "missing.md")
