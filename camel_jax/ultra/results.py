"""What ULTRA's stages produce, each item with the `source` that produced it, and their JSON files.

`Critical`: a step named critical, with its rationale. `Suggestion`: for a critical step, the observation there
(so that a table can be built from the file alone), the suggested action (within [-1, 1]), the implicit reward in
[-1, 1], the rationale and the window's case analysis; `source` names the suggester, `identified_by` the identifier.
Sources read like `llm claude-sonnet-4-6 reply sha256:<12 hex>`, `recorded answers/identify_ep0_t0-39.1.md
sha256:<12 hex>`, `standin value-drop`, `standin policy priors/hopper.py`, `random seed 0`.
A file holds {"kind", "provider", "items", "tally"}: `provider` names what produced it (`llm`, `recorded`, a stand-in
such as `value-drop` or `policy`, `random`), the tally counts the queries, malformed answers and skipped queries.
"""

from __future__ import annotations

import dataclasses
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from camel_jax.priors.errors import SetupError


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
         provider: str = "") -> None:
    """Write the items of `kind` ("critical" or "suggestions") produced by `provider` as JSON, atomically (never
    half-written)."""
    text = json.dumps({"kind": kind, "provider": provider, "items": [dataclasses.asdict(i) for i in items],
                       "tally": tally or {}}, indent=1)
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


def provider(path: str | Path) -> str:
    """The `provider` recorded in a results file ("" when it has none)."""
    return str(json.loads(Path(path).read_text()).get("provider", ""))
