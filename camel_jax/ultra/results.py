"""What ULTRA's stages produce, each item with the `source` that produced it, and their JSON files.

`Critical`: a step named critical, with its rationale. `Suggestion`: for a critical step, the observation there
(so that a table can be built from the file alone), the suggested action (within [-1, 1]), the implicit reward in
[-1, 1] (the rating of the suggested action; see `reward_rates`), the rationale and the window's case analysis;
`source` names the suggester, `identified_by` the identifier. Sources read like `llm claude-sonnet-4-6 reply
sha256:<12 hex>`, `recorded answers/identify_ep0_t0-39.1.md sha256:<12 hex>`, `standin value-drop`, `standin policy
priors/hopper.py`, `random seed 0`.

A file holds {"kind", "provider", "complete", "asked", "items", "tally", ...}: `provider` names what produced it
(`llm`, `recorded`, a stand-in such as `value-drop` or `policy`, `random`), the tally counts the queries, malformed
answers and skipped queries. A stage writes its file after every query (`complete` false, `asked` the queries done so
far), so a stage stopped midway keeps what it did and can continue; the last write marks it complete. A suggestions
file also says what its rewards rate (`reward_rates`: "suggested", the suggested action, or "taken", the action the
agent took: files made with the first improvement prompt or before the rule changed, which no table accepts) and the
prompt template it asked with (`prompt`).
"""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from camel_jax.errors import SetupError


@dataclasses.dataclass(frozen=True)
class Critical:
    step: int
    rationale: str
    source: str


@dataclasses.dataclass(frozen=True)
class Suggestion:
    step: int
    obs: tuple[float, ...]
    action: tuple[float, ...]
    reward: float
    rationale: str
    source: str
    identified_by: str
    clipped: bool = False  # the answer's action had entries outside [-1, 1]
    case_analysis: str = ""


KINDS = {"critical": Critical, "suggestions": Suggestion}


def save(path: str | Path, kind: str, items: Sequence[Critical | Suggestion], tally: dict | None = None,
         provider: str = "", complete: bool = True, asked: Sequence[str] = (), **about) -> None:
    """Write the items of `kind` ("critical" or "suggestions") produced by `provider` as JSON, atomically (never
    half-written); `complete` false for a stage still under way, `asked` the queries done, `about` more fields (a
    suggestions file's `reward_rates` and `prompt`)."""
    text = json.dumps({"kind": kind, "provider": provider, "complete": complete, "asked": list(asked), **about,
                       "items": [dataclasses.asdict(i) for i in items], "tally": tally or {}}, indent=1)
    write_atomic(Path(path), text + "\n")


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file in the same folder (never half-written)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", dir=path.parent, suffix=".tmp", delete=False) as f:
        f.write(text)
    os.replace(f.name, path)


def load(path: str | Path, kind: str) -> tuple[list, dict]:
    """(items, tally) of the file at `path` holding `kind`; SetupError naming the problem otherwise."""
    path = Path(path)
    if not path.is_file():
        raise SetupError(f"{path} not found; check the path")
    try:
        data = json.loads(path.read_text())
        if data.get("kind") != kind:
            raise SetupError(f"{path} holds {data.get('kind')!r}, not {kind!r}; pass the {kind} file")
        cls = KINDS[kind]
        items = [cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in item.items()}) for item in data["items"]]
    except (ValueError, TypeError, KeyError, AttributeError) as e:
        raise SetupError(f"{path} is not a camel-jax ULTRA {kind} file ({e}); regenerate it") from None
    return items, data.get("tally", {})


def about(path: str | Path) -> dict:
    """A results file's fields other than its items and tally, with the defaults of files written before they
    existed (complete; a suggestions file's rewards rating the action taken); SetupError when it is unreadable."""
    path = Path(path)
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise SetupError(f"{path} is not a camel-jax ULTRA results file ({e}); regenerate it") from None
    if not isinstance(data, dict):
        raise SetupError(f"{path} is not a camel-jax ULTRA results file (not a JSON object); regenerate it")
    found = {k: v for k, v in data.items() if k not in ("items", "tally")}
    defaults = {"provider": "", "complete": True, "asked": []}
    if data.get("kind") == "suggestions":
        defaults.update(reward_rates="taken", prompt="")
    return {**defaults, **found}


def provider(path: str | Path) -> str:
    """The `provider` recorded in a results file ("" when it has none)."""
    return str(about(path)["provider"])


def is_complete(path: str | Path) -> bool:
    """Whether the results file at `path` exists and its stage finished."""
    return Path(path).is_file() and bool(about(path)["complete"])
