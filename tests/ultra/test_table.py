"""The device lookup table: nearest-neighbour matching under tau, jit and vmap, building, saving and loading."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from camel_jax.errors import SetupError
from camel_jax.ultra import table
from camel_jax.ultra.results import Suggestion

MEAN, VAR = np.zeros(2, np.float32), np.ones(2, np.float32)


def _suggestion(step: int, obs, action, reward: float) -> Suggestion:
    return Suggestion(step, tuple(obs), tuple(action), reward, "why", f"test source {step}", "test identifier")


def _built(capacity: int = 4) -> table.Built:
    entries = [_suggestion(0, (0.0, 0.0), (0.5, -0.5), -0.25), _suggestion(7, (3.0, 0.0), (1.0, 1.0), 0.75)]
    return table.build(entries, MEAN, VAR, act_dim=2, capacity=capacity)


def test_a_state_within_tau_of_a_key_hits_and_beyond_misses():
    t = _built().table
    hit, action, bonus = table.match(t, jnp.array([0.3, 0.4]), 0.5)  # distance 0.5 to the first key
    assert bool(hit) and action.tolist() == [0.5, -0.5] and float(bonus) == -0.25
    hit, action, bonus = table.match(t, jnp.array([0.3, 0.4]), 0.49)
    assert not bool(hit) and action.tolist() == [0.0, 0.0] and float(bonus) == 0.0
    hit, action, bonus = table.match(t, jnp.array([2.0, 0.0]), 1.5)  # nearer the second key (1.0) than the first (2.0)
    assert bool(hit) and action.tolist() == [1.0, 1.0] and float(bonus) == 0.75


def test_empty_rows_never_match_even_with_an_infinite_tau():
    t = _built().table
    assert t.valid.tolist() == [True, True, False, False]  # the zero rows lie at the origin, like the first key
    empty = table.build([], MEAN, VAR, act_dim=2, capacity=3).table
    assert not bool(table.match(empty, jnp.zeros(2), jnp.inf)[0])
    far = jnp.array([50.0, 50.0])
    assert bool(table.match(t, far, jnp.inf)[0]) and float(table.nearest_distance(empty, far)) == np.inf


def test_vmapped_over_envs_equals_looped_and_jit_works():
    t = _built().table
    obs = jnp.asarray(np.random.default_rng(0).normal(0.0, 2.0, (64, 2)), jnp.float32)
    batched = jax.jit(jax.vmap(table.guide(t, 1.0)))(obs)
    looped = [table.match(t, o, 1.0) for o in obs]
    for k in range(3):
        assert np.array_equal(np.asarray(batched[k]), np.stack([np.asarray(r[k]) for r in looped]))
    assert 0 < int(table.count_matches(batched[0])) < 64  # the draw has hits and misses
    assert int(table.count_matches(batched[0])) == sum(bool(r[0]) for r in looped)


def test_vmapped_over_seeds_takes_one_table_per_seed():
    a = _built().table
    b = table.build([_suggestion(1, (0.0, 0.0), (-1.0, 0.0), 1.0)], MEAN, VAR, act_dim=2, capacity=4).table
    tables = jax.tree.map(lambda x, y: jnp.stack([x, y]), a, b)
    hit, action, bonus = jax.jit(jax.vmap(table.match, (0, None, None)))(tables, jnp.zeros(2), 0.1)
    assert hit.tolist() == [True, True] and action.tolist() == [[0.5, -0.5], [-1.0, 0.0]]
    assert bonus.tolist() == [-0.25, 1.0]


def test_keys_are_normalised_with_the_given_statistics():
    built = table.build([_suggestion(0, (2.0, -10.0), (0.0, 0.0), 0.0)], [1.0, 0.0], [4.0, 0.01], 2, 1)
    assert np.allclose(np.asarray(built.table.keys[0]), [0.5, -10.0])  # (2-1)/2, and -100 clipped to -10
    assert np.allclose(np.asarray(table.normalise([2.0, -10.0], built.mean, built.var)), built.table.keys[0])


def test_overflow_keeps_the_first_entries_and_counts_the_rest():
    built = _built(capacity=1)
    assert built.entries == 1 and built.dropped == 1 and built.steps.tolist() == [0]
    assert built.table.keys.shape == (1, 2) and bool(built.table.valid[0])
    with pytest.raises(ValueError, match="does not have 3 \\(mean and var\\) or 2 \\(act_dim\\) entries"):
        table.build([_suggestion(0, (0.0, 0.0), (0.0, 0.0), 0.0)], np.zeros(3), np.ones(3), 2, 4)


def test_save_and_load_keep_the_table_and_its_sources(tmp_path):
    built = _built()
    table.save(tmp_path / "table.npz", built)
    again = table.load(tmp_path / "table.npz")
    for a, b in zip(built.table, again.table, strict=True):
        assert np.array_equal(np.asarray(a), np.asarray(b))
    assert again.sources == ("test source 0", "test source 7") and again.identified_by == ("test identifier",) * 2
    assert again.steps.tolist() == [0, 7] and again.dropped == 0 and again.clip == table.CLIP
    (tmp_path / "other.npz").write_bytes(b"not a table")
    with pytest.raises(SetupError, match="is not a camel-jax ULTRA table"):
        table.load(tmp_path / "other.npz")
    with pytest.raises(SetupError, match="table file not found"):
        table.load(tmp_path / "missing.npz")


def test_calibrated_tau_matches_the_asked_fraction():
    t = _built().table
    obs = jnp.asarray(np.random.default_rng(1).normal(0.0, 3.0, (200, 2)), jnp.float32)
    tau = table.calibrate_tau(t, obs, 0.25)
    hits = jax.vmap(table.guide(t, tau))(obs)[0]
    assert abs(int(table.count_matches(hits)) - 50) <= 1
