"""The stand-ins without an LLM (values, a policy) and the random-selection ablation."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from camel_jax import specs
from camel_jax.priors import loader
from camel_jax.ultra import ablation, interpret, stages, standins, trajectory
from camel_jax.ultra.results import Critical

HOPPER = specs.load("hopper")


def _traj(length=20, terminated_at=(9,), truncated_at=()):
    steps = np.arange(length)
    obs = np.zeros((length, 11), np.float32)
    obs[:, 0], obs[:, 1] = 1.25, 0.01 * steps
    return trajectory.make(obs, np.zeros((length, 3)), np.ones(length), np.isin(steps, terminated_at),
                           np.isin(steps, truncated_at))


def test_value_drop_picks_the_biggest_drop_and_counts_a_fall_as_losing_the_value():
    traj = _traj()
    values = np.full(20, 10.0)
    values[5] = 14.0  # 14 -> 10 at step 5: a drop of 4
    values[9] = 3.0  # step 9 terminates: drop 3 - 0 = 3 (and 10 -> 3 at step 8: 7)
    scores = standins.value_drop(values, traj)
    assert scores[[5, 8, 9]].tolist() == [4.0, 7.0, 3.0] and scores[4] == -4.0
    identifier = standins.score_identifier("value-drop", values, traj, max_critical=2)
    windows = interpret.windows(HOPPER, traj, max_steps=10)
    critical, tally = stages.identify_all(identifier, traj, windows)
    assert [c.step for c in critical[:2]] == [8, 5] and critical[0].source == "standin value-drop"  # the fall's window
    assert critical[0].rationale.startswith("value-drop +7 (rank 1 of 10 steps)")
    assert len(critical) == 4 and tally.queries == tally.answered == 2 and tally.skipped == 0


def test_td_error_picks_the_step_most_below_expectation():
    traj = _traj(10, terminated_at=(), truncated_at=(9,))
    values = np.linspace(5.0, 4.1, 10)
    values[3] = 9.0  # expected much more than r + gamma * V(next) at step 3
    scores = standins.td_error(values, traj, gamma=0.9)
    assert int(np.argmax(scores)) == 3 and scores[3] == pytest.approx(-(1 + 0.9 * values[4] - 9.0))
    assert scores[9] == pytest.approx(-(1 + 0.9 * values[9] - values[9]))  # truncated: V(next) taken as V(s)
    [only] = standins.score_identifier("td-error", values, traj, gamma=0.9, max_critical=1).identify(
        traj, interpret.windows(HOPPER, traj, time_limits=True)[0], stages.Tally())
    assert only.step == 3
    with pytest.raises(ValueError, match="unknown stand-in identifier 'rnd'"):
        standins.score_identifier("rnd", values, traj)
    with pytest.raises(ValueError, match="3 values for a trajectory of 10 steps"):
        standins.score_identifier("td-error", values[:3], traj)


def test_policy_suggester_clips_and_rates_its_suggestion_not_the_action_taken():
    """The stand-in's reward rates the suggested action (its policy's, trusted: `rating`), as the v2 prompt asks the
    LLM to: the same whatever action the agent took there."""
    traj = _traj()
    policy = lambda obs: np.array([2.0, -1.0, 5 * obs[1]])
    windows = interpret.windows(HOPPER, traj, max_steps=10)
    critical = [Critical(9, "r", "test identifier"), Critical(15, "r", "test identifier")]
    found, tally = stages.suggest_all(standins.PolicySuggester(policy, "test-policy"), HOPPER, traj, windows, critical)
    first = found[0]
    assert first.step == 9 and first.action == pytest.approx((1.0, -1.0, 0.45))
    assert first.clipped and first.source == "standin policy test-policy" and first.identified_by == critical[0].source
    assert first.obs == tuple(traj.obs[first.step].tolist()) and tally.queries == len(found) == 2
    other = dataclasses.replace(traj, actions=np.full_like(traj.actions, -1.0))  # the agent took other actions
    again, _ = stages.suggest_all(standins.PolicySuggester(policy, "test-policy"), HOPPER, other, windows, critical)
    assert [s.reward for s in found] == [s.reward for s in again] == [1.0, 1.0]
    half, _ = stages.suggest_all(standins.PolicySuggester(policy, "p", rating=0.5), HOPPER, traj, windows, critical)
    assert [s.reward for s in half] == [0.5, 0.5]
    with pytest.raises(ValueError, match="rating must be in \\[-1, 1\\]"):
        standins.PolicySuggester(policy, "p", rating=2.0)


def test_a_camel_prior_serves_as_the_suggesting_policy():
    traj = _traj()
    prior = loader.load_prior(loader.shipped_prior("hopper"), "hopper")
    critical = ablation.random_critical(traj, 2, seed=0)
    found, _ = stages.suggest_all(standins.PolicySuggester(prior, "prior priors/hopper.py"), HOPPER, traj,
                                  interpret.windows(HOPPER, traj), critical)
    for s in found:
        assert np.allclose(s.action, np.clip(np.asarray(prior(traj.obs[s.step])), -1, 1), atol=1e-6)


def test_random_selection_draws_distinct_steps_uniformly_and_reproducibly():
    traj = _traj(1000, terminated_at=(499,))
    picks = ablation.random_critical(traj, 50, seed=3)
    steps = [c.step for c in picks]
    assert len(set(steps)) == 50 and steps == sorted(steps) and all(0 <= s < 1000 for s in steps)
    assert steps == [c.step for c in ablation.random_critical(traj, 50, seed=3)]
    assert steps != [c.step for c in ablation.random_critical(traj, 50, seed=4)]
    assert picks[0].source == "random seed 3"
    assert 15 <= sum(s < 500 for s in steps) <= 35  # both episodes, not only their ends
    everything = [c.step for c in ablation.random_critical(traj, 1000, seed=0)]
    assert everything == list(range(1000))
    with pytest.raises(ValueError, match="cannot choose 1001 states from a trajectory of 1000 steps"):
        ablation.random_critical(traj, 1001, seed=0)


def test_random_states_outside_the_windows_get_windows_of_their_own():
    traj = _traj(100, terminated_at=(99,))
    windows = interpret.windows(HOPPER, traj, max_steps=10)
    critical = ablation.random_critical(traj, 3, seed=1)
    asked = []

    class Recorder:
        def suggest(self, traj, window, critical, tally):
            asked.append((window, [c.step for c in critical]))
            return []

    stages.suggest_all(Recorder(), HOPPER, traj, windows, critical, max_steps=10)
    assert sorted(s for _, steps in asked for s in steps) == [c.step for c in critical]
    assert all(s in w.steps for w, steps in asked for s in steps)
