"""What kind of prior a run used, and what it cost in simulation: the record every run carries.

A result made with a controller found by random search in simulation must never read as one made with an LLM's
prior. Every run's config.json therefore records `prior_kind`, `prior_label` and `prior_search_env_steps`
(`Provenance.record`), `camel-jax plot` and `bench/compare.py` show the label, and prior.txt holds the prior's
source with its header. The kinds:

  llm       an LLM's answer (a `# model:` naming a model, or `# kind: llm`): `LLM prior: claude, answer 3`
  tuned     a controller searched for in simulation (`# kind: tuned`, priors/tuned/): `tuned prior, 0.35M search steps`
  hand      written by hand by someone who could run the simulator (`# kind: hand`): `hand-written prior`
  expert    a trained actor (`--prior expert:RUN_DIR`)
  random    random masking (`--prior random`)
  none      no prior (plain TD3, or PPO)
  guide     ULTRA's guidance of a PPO run
  callable  a Python function given to the notebook API
  unknown   a prior file whose header does not say where it came from

`prior_search_env_steps` is the env steps spent finding the prior in simulation, as its header records them
(`# search_env_steps:`; for a selected LLM answer, the selection's rollouts); None when not recorded.

Runs made before these fields existed are read from what they kept (`of_run`): prior.txt's header, or a prior file
whose code is that of a controller now in priors/tuned/; a config naming `priors/<name>.py` or a bare task name
meant, at the time, the controller that is now priors/tuned/<name>.py.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

from camel_jax import specs
from camel_jax.priors import loader

KINDS = ("llm", "tuned", "hand", "expert", "random", "none", "guide", "callable", "unknown")


@dataclasses.dataclass(frozen=True)
class Provenance:
    kind: str  # one of KINDS
    label: str  # what a legend or a table says, e.g. "tuned prior, 0.35M search steps"
    search_env_steps: int | None = None  # env steps spent on the prior in simulation; None: not recorded

    def record(self) -> dict:
        """The fields written into a run's config.json."""
        return {"prior_kind": self.kind, "prior_label": self.label, "prior_search_env_steps": self.search_env_steps}


RECORD_KEYS = tuple(Provenance("none", "").record())  # written beside a config's settings, never read back as one


def steps_text(steps: int) -> str:
    """350000 -> '0.35M', 31340 -> '31k', 900 -> '900'."""
    if steps >= 100_000:
        return f"{steps / 1e6:.2g}M"
    return f"{steps / 1000:.0f}k" if steps >= 1000 else str(steps)


def of_source(source: str, name: str = "") -> Provenance:
    """The provenance of a prior file's text (`name`: its file name, for a label when nothing else says)."""
    header = loader.parse_header(source)
    kind = header.get("kind", "")
    if not kind:
        same = _tuned_with_code(loader.strip_header(source))
        if same is not None:  # a run made before the move: the old header, a tuned controller's code
            return same
        model = header.get("model", "")
        kind = "llm" if model and not model.lower().startswith("none") else "unknown"
    steps = _int(header.get("search_env_steps"))
    if kind == "llm":
        model = header.get("model", "").split(" ")[0] or "unnamed model"
        answer = Path(header.get("answer", "").split(" ")[0] or header.get("source", "") or name).stem
        return Provenance("llm", f"LLM prior: {model}, {answer.replace('_', ' ')}".rstrip(", "), steps)
    if kind == "tuned":
        cost = f"{steps_text(steps)} search steps" if steps is not None else "search steps not recorded"
        return Provenance("tuned", f"tuned prior, {cost}", steps)
    if kind == "hand":
        return Provenance("hand", "hand-written prior" + (f" ({Path(name).stem})" if name else ""), steps)
    return Provenance("unknown", f"prior of unstated origin ({Path(name).name or 'no name'})", steps)


def of_prior(prior: str, source: str, kind: str) -> Provenance:
    """The provenance of a resolved `--prior` value (`kind`, `source`: camel_jax.priors.baselines.ResolvedPrior's)."""
    if kind == "none":
        return Provenance("none", "no prior")
    if kind == "random":
        return Provenance("random", "random masking")
    if kind == "expert":
        return Provenance("expert", f"expert prior: the actor of {Path(prior.split(':', 1)[1]).name}")
    if kind == "callable":
        return Provenance("callable", f"Python prior {prior.split(':', 1)[-1]}")
    return of_source(source, Path(prior.removeprefix(loader.TUNED)).name)


def of_run(run_dir: str | Path) -> Provenance:
    """A run's prior provenance: config.json's record, else (a run made before the record) what the run kept."""
    run_dir = Path(run_dir)
    config = json.loads((run_dir / "config.json").read_text())
    if config.get("prior_kind"):
        return Provenance(config["prior_kind"], config.get("prior_label") or config["prior_kind"],
                          config.get("prior_search_env_steps"))
    saved = run_dir / "prior.txt"
    text = saved.read_text().partition("\n")[2] if saved.is_file() else ""
    if "prior" not in config:  # an algorithm without priors (PPO); a guided run names its guide in prior.txt
        return Provenance("guide", "ULTRA guide") if text.startswith("guide:") else Provenance("none", "no prior")
    prior = str(config.get("prior", "none"))
    if prior in ("none", "random") or prior.startswith(("expert:", "callable:")):
        return of_prior(prior, text, prior.split(":")[0])
    if text:
        return of_source(text, Path(prior).name)
    legacy = _legacy_file(prior)
    return of_source(legacy.read_text(), legacy.name) if legacy else of_source("", Path(prior).name)


def legacy_prior(run_dir: str | Path) -> str | None:
    """`tuned:NAME` when the run at `run_dir` predates the record and its config's `prior` meant the controller that
    is now priors/tuned/NAME.py (`priors/NAME.py`, or a bare task name); None otherwise (resume uses it)."""
    config = json.loads((Path(run_dir) / "config.json").read_text())
    prior = str(config.get("prior", ""))
    if config.get("prior_kind") or "prior" not in config:  # recorded, or an algorithm without priors (PPO)
        return None
    legacy = _legacy_file(prior)
    return loader.TUNED + legacy.stem if legacy is not None and legacy.parent.name == "tuned" else None


def _legacy_file(prior: str) -> Path | None:
    """The file a pre-record config's `prior` named: `priors/<name>.py` and a task name meant the controller now in
    priors/tuned/; a path under priors/ is looked up in the installed priors folder; None when there is none."""
    path = Path(prior)
    if prior in loader.tuned_names() or (path.parent.name == "priors" and path.stem in loader.tuned_names()):
        return loader.tuned_prior(path.stem)
    if path.is_file():
        return path
    inside = specs.data_dir("priors") / prior.removeprefix("priors/")
    return inside if prior.startswith("priors/") and inside.is_file() else None


def _tuned_with_code(code: str) -> Provenance | None:
    """The provenance of the priors/tuned/ controller whose code (header aside) is `code`, if any."""
    for name in loader.tuned_names():
        text = loader.tuned_prior(name).read_text()
        if loader.strip_header(text).strip() == code.strip():
            return of_source(text, f"{name}.py")
    return None


def _int(value: str | None) -> int | None:
    match = re.match(r"\s*(\d+)", value or "")
    return int(match.group(1)) if match else None
