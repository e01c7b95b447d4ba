"""LLM-written priors are the default; controllers searched for in simulation are `tuned:NAME`; every run records
its prior's kind and search cost (config.json, prior.txt), and runs made before the record are read as what they
were (camel_jax/priors/kinds.py). A bad `tuned:` name or a moved `priors/<task>.py` is one line, exit 2, nothing
written."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"


def camel(*args, cwd=ROOT, timeout=900):
    return subprocess.run([sys.executable, "-m", "camel_jax.cli", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, check=False)


def test_a_task_name_is_the_llm_prior_and_tuned_names_the_searched_controller():
    from camel_jax.priors import kinds
    from camel_jax.priors.baselines import resolve

    llm = resolve("hopper", "hopper")
    assert "# kind: llm" in llm.source and "# model: claude" in llm.source
    assert kinds.of_prior("hopper", llm.source, llm.kind) == kinds.Provenance("llm", "LLM prior: claude, answer 3",
                                                                               31_340)
    tuned = resolve("tuned:hopper", "hopper")
    assert "random search (ARS)" in tuned.source and tuned.fn is not None
    assert kinds.of_prior("tuned:hopper", tuned.source, tuned.kind) == kinds.Provenance(
        "tuned", "tuned prior, 0.35M search steps", 350_000)
    for name, label in (("tuned:walker2d", "tuned prior, 0.9M search steps"),
                        ("tuned:ant", "tuned prior, 0.24M search steps"),
                        ("tuned:walker2d_stand", "hand-written prior (walker2d_stand)"),
                        ("ant", "LLM prior: claude, answer 8"), ("walker2d", "LLM prior: claude, answer 2")):
        env = name.split(":")[-1].split("_")[0]
        prior = resolve(name, env)
        assert kinds.of_prior(name, prior.source, prior.kind).label == label
    with pytest.raises(ValueError, match="--prior tuned:walker2d is a controller for walker2d, not hopper; use "
                                         "tuned:hopper"):
        resolve("tuned:walker2d", "hopper")


@pytest.mark.parametrize("prior, needle", [
    ("tuned:foo", ("--prior tuned:foo: no tuned controller of that name; use one of tuned:ant, tuned:hopper, "
                  "tuned:walker2d, tuned:walker2d_stand")),
    ("priors/hopper.py", ("priors/hopper.py has moved: that controller was found or tuned in simulation and is now "
                         "--prior tuned:hopper")),
])
def test_unknown_tuned_name_and_moved_file_are_one_line_errors(tmp_path, prior, needle):
    out = tmp_path / "never"
    r = camel("train", "--env", "hopper", "--backend", "gymnasium", "--prior", prior, "--total-steps", "100",
              "--learning-starts", "10", "--eval-episodes", "0", "--out", str(out), timeout=300)
    err = [ln for ln in r.stderr.strip().splitlines() if not ln.startswith("Failed to import")]  # mujoco's MJX
    assert r.returncode == 2 and len(err) == 1 and needle in err[0], r.stderr
    assert not out.exists()


def test_committed_results_made_with_the_tuned_prior_read_as_tuned():
    """Runs made before the record: hopper_150k/camel has no prior.txt and names priors/hopper.py; the quickstart of
    that time (tests/golden/legacy_quickstart, its config.json and prior.txt as committed before the quickstart was
    regenerated with the LLM prior) names the task (`--prior hopper`, which then meant the tuned controller) and kept
    prior.txt; camel_llm names an imported answer; camel_poor the hand-written stander. None of them may read as
    another kind. Today's quickstart records its LLM prior."""
    from camel_jax.priors import kinds

    expected = {"hopper_150k/camel": ("tuned", 350_000), "hopper_150k/control": ("tuned", 350_000),
                "quickstart/camel": ("llm", 39_640), "walker2d_150k/camel_shipped": ("tuned", 900_000),
                "ant_150k/camel": ("tuned", 240_000), "walker2d_150k/camel_poor": ("hand", None),
                "hopper_150k/camel_llm": ("llm", None), "hopper_150k/camel_llm_speed": ("llm", None),
                "hopper_150k/td3": ("none", None), "hopper_150k/random": ("random", None),
                "hopper_150k/expert": ("expert", None), "ultra_hopper/value-drop_RA": ("guide", None)}
    for run, (kind, steps) in expected.items():
        found = kinds.of_run(RESULTS / run)
        assert (found.kind, found.search_env_steps) == (kind, steps), run
    assert kinds.of_run(RESULTS / "hopper_150k/camel_llm").label == "LLM prior: claude, answer 5"
    assert kinds.of_run(RESULTS / "quickstart/camel").label == "LLM prior: claude, answer 8"
    legacy_quickstart = ROOT / "tests" / "golden" / "legacy_quickstart"
    assert (kinds.of_run(legacy_quickstart).kind, kinds.of_run(legacy_quickstart).search_env_steps) == ("tuned",
                                                                                                      350_000)
    # a resumed run of that time keeps its prior: the tuned controller, not today's meaning of its config
    assert kinds.legacy_prior(legacy_quickstart) == "tuned:hopper"
    assert kinds.legacy_prior(RESULTS / "quickstart/camel") is None
    assert kinds.legacy_prior(RESULTS / "walker2d_150k/camel_poor") == "tuned:walker2d_stand"
    assert kinds.legacy_prior(RESULTS / "hopper_150k/camel_llm") is None


def test_a_new_runs_record_wins_and_is_not_read_back_as_a_setting(tmp_path):
    from camel_jax import cli
    from camel_jax.algos.td3.config import Config
    from camel_jax.core.config import RECORDED
    from camel_jax.priors import kinds

    run = tmp_path / "run"
    run.mkdir()
    record = {"prior_kind": "tuned", "prior_label": "tuned prior, 0.35M search steps",
              "prior_search_env_steps": 350_000, "task_label": "hopper"}
    (run / "config.json").write_text(json.dumps({**json.loads(Config(prior="hopper").to_json()), **record}))
    assert set(record) == set(RECORDED)
    assert kinds.of_run(run) == kinds.Provenance("tuned", "tuned prior, 0.35M search steps", 350_000)
    assert Config.from_json(run / "config.json") == Config(prior="hopper")
    assert cli._from_file(Config, str(run / "config.json")).prior == "hopper"  # train --config RUN/config.json
    assert kinds.legacy_prior(run) is None  # recorded: resume trains with what the config names
