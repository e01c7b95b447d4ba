"""Stand-ins for the LLM, for experiments where none is reachable; their results say so in `source`.

Identification from a critic's values (arrays over the trajectory's steps, e.g. the base PPO's value of each obs):
- `value_drop`: score V(s_t) - V(s_t+1), with V = 0 after a termination (the fall loses the whole value);
- `td_error`: score -(r_t + gamma * V(s_t+1) * (1 - terminated_t) - V(s_t)): the steps that went most below what
  the critic expected.
`next_values` default to the next step's value within the episode; after a truncation or a cut, where the next
state is not in the arrays, to V(s_t) itself (no drop). Each window's `max_critical` highest scores are its critical
steps (ties: the earlier step), whatever their size: a window always yields them, as an LLM asked for them would.

Suggestions from a policy (a CAMEL prior from `camel_jax.priors.loader.load_prior`, an expert actor, ...): the
action is the policy's at the recorded observation, clipped to [-1, 1]; the implicit reward rates that suggested
action, as the LLM's does (camel_jax/ultra/prompts/ultra_improve_v2.md): the stand-in trusts its policy, so it rates
every suggestion `rating` (default 1, "clearly good"). The refinement pays that rating for the action taken in
proportion to its closeness to the suggestion (camel_jax/ultra/table.py, `bonus`), so the stand-in's reward pulls
the action toward the policy's at the matched states; it no longer rates the base policy's action, which paid any
action at a matched state.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import numpy as np

from camel_jax.ultra import queries
from camel_jax.ultra.interpret import Window
from camel_jax.ultra.results import Critical, Suggestion
from camel_jax.ultra.stages import Tally
from camel_jax.ultra.trajectory import Trajectory


def next_values_within(values: np.ndarray, traj: Trajectory) -> np.ndarray:
    """V(s_t+1) within each episode; V(s_t) at an episode's last step (the value there is never used after a
    termination)."""
    values = np.asarray(values, np.float64)
    following = np.append(values[1:], values[-1])
    ends = traj.terminated | traj.truncated
    ends[-1] = True
    return np.where(ends, values, following)


def value_drop(values, traj: Trajectory, next_values=None) -> np.ndarray:
    values = np.asarray(values, np.float64)
    after = next_values_within(values, traj) if next_values is None else np.asarray(next_values, np.float64)
    return values - np.where(traj.terminated, 0.0, after)


def td_error(values, traj: Trajectory, gamma: float = 0.99, next_values=None) -> np.ndarray:
    values = np.asarray(values, np.float64)
    after = next_values_within(values, traj) if next_values is None else np.asarray(next_values, np.float64)
    return -(traj.rewards + gamma * np.where(traj.terminated, 0.0, after) - values)


SCORES = {"value-drop": value_drop, "td-error": td_error}


@dataclasses.dataclass(frozen=True)
class ScoreIdentifier:
    """Critical steps: the highest `scores` (one per trajectory step) of each window."""

    scores: np.ndarray
    name: str  # "value-drop" or "td-error"
    max_critical: int = queries.MAX_CRITICAL

    def identify(self, traj: Trajectory, window: Window, tally: Tally) -> list[Critical]:
        if len(self.scores) != traj.length:
            raise ValueError(f"{self.name}: {len(self.scores)} scores for a trajectory of {traj.length} steps")
        tally.queries += 1
        tally.answered += 1
        steps = np.asarray(window.steps)
        top = steps[np.argsort(-self.scores[steps], kind="stable")[:self.max_critical]]
        return [Critical(int(t), f"{self.name} {self.scores[t]:+.4g} (rank {r + 1} of {len(steps)} steps)",
                         f"standin {self.name}") for r, t in enumerate(top)]


def score_identifier(kind: str, values, traj: Trajectory, next_values=None, gamma: float = 0.99,
                     max_critical: int = queries.MAX_CRITICAL) -> ScoreIdentifier:
    """The `kind` ("value-drop" or "td-error") stand-in over the critic's `values` of `traj`'s observations."""
    if kind not in SCORES:
        raise ValueError(f"unknown stand-in identifier '{kind}'; choose one of: {', '.join(SCORES)}")
    if len(values) != traj.length:
        raise ValueError(f"{kind}: {len(values)} values for a trajectory of {traj.length} steps; give one per step")
    extra = {"gamma": gamma} if kind == "td-error" else {}
    return ScoreIdentifier(SCORES[kind](values, traj, next_values=next_values, **extra), kind, max_critical)


@dataclasses.dataclass(frozen=True)
class PolicySuggester:
    """Suggestions from `policy(obs) -> action` (raw observation of the trajectory, shape (obs_dim,))."""

    policy: Callable
    name: str  # what the policy is, e.g. "prior priors/hopper.py" (the source reads "standin policy <name>")
    rating: float = 1.0  # the implicit reward of each suggested action, in [-1, 1]

    def __post_init__(self):
        if not -1.0 <= self.rating <= 1.0:
            raise ValueError(f"the policy stand-in's rating must be in [-1, 1], got {self.rating}")

    def suggest(self, traj: Trajectory, window: Window, critical: Sequence[Critical],
                tally: Tally) -> list[Suggestion]:
        tally.queries += 1
        tally.answered += 1
        found = []
        for c in critical:
            raw = np.asarray(self.policy(traj.obs[c.step]), np.float32)
            if raw.shape != traj.actions.shape[1:]:
                raise ValueError(f"policy {self.name} returned shape {raw.shape}, the task's actions are "
                                 f"{traj.actions.shape[1:]}")
            action = np.clip(raw, -1.0, 1.0)
            found.append(Suggestion(c.step, tuple(traj.obs[c.step].tolist()), tuple(action.tolist()),
                                    float(self.rating), f"the policy's action, rated {self.rating:+g}",
                                    f"standin policy {self.name}", c.source, bool(np.any(action != raw))))
        return found
