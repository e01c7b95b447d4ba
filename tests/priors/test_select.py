"""Selection: rollouts of several candidates (gymnasium and one jitted MJX program), ranking, the report."""

from __future__ import annotations

import numpy as np
import pytest
from priors_testlib import CORPUS

from camel_jax.priors import select

STAND = CORPUS / "good" / "hopper_pd_where.py"  # stays up: ~1 per step
TIPS = CORPUS / "good" / "hopper_numpy_constants.py"  # falls within ~10 steps
NAN = CORPUS / "bad" / "nan_output.py"


def _check(results, episodes, max_steps):
    assert [r.path for r in results] == [STAND, TIPS, NAN]  # ranked by mean return, the rejected one last
    stand, tips, nan = results
    for r in (stand, tips):
        assert r.ok and r.returns.shape == r.forward.shape == r.lengths.shape == r.fell.shape == (episodes,)
        assert np.all((1 <= r.lengths) & (r.lengths <= max_steps)) and np.all(np.isfinite(r.forward))
    assert not stand.fell.any() and np.all(stand.lengths == max_steps)
    assert tips.fell.all() and np.all(tips.lengths < max_steps)
    assert not nan.ok and "non-finite actions" in nan.reason


def test_evaluate_on_gymnasium_and_report():
    results = select.evaluate([TIPS, NAN, STAND], "hopper", episodes=2, backend="gymnasium", max_steps=60)
    _check(results, 2, 60)
    text = select.report(results, "hopper", "gymnasium", 2, 60, 0, command="camel-jax priors evaluate ...")
    assert text.startswith("# Prior evaluation: hopper (Hopper-v4, gymnasium C MuJoCo)")
    assert "Command: `camel-jax priors evaluate ...`" in text and select.SCORE_DOC["return"] in text
    rows = [line for line in text.splitlines() if line.startswith(("| 1 ", "| 2 "))]
    assert STAND.name in rows[0] and TIPS.name in rows[1] and "0/2 |" in rows[0] and "2/2 |" in rows[1]
    assert f"- `{NAN}`: " in text
    assert select.return_field(results[0], "hopper", "gymnasium").endswith("on Hopper-v4 (gymnasium); "
                                                                          f"forward {results[0].forward.mean():.2f} m; "
                                                                          "falls 0/2")


def test_ranking_by_forward_progress():
    a = select.Evaluation(STAND, "", np.array([900.0]), np.array([0.1]), np.array([1000]), np.array([False]))
    b = select.Evaluation(TIPS, "", np.array([500.0]), np.array([1.5]), np.array([400]), np.array([True]))
    assert sorted([a, b], key=lambda r: r.score("return")) == [a, b]
    assert sorted([a, b], key=lambda r: r.score("forward")) == [b, a]


@pytest.mark.slow
def test_evaluate_all_candidates_in_one_jitted_mjx_program():
    results = select.evaluate([TIPS, NAN, STAND], "hopper", episodes=2, backend="mjx", max_steps=25)
    _check(results, 2, 25)
