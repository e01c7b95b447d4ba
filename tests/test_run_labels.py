"""No silent change of task or of replay ratio: `train` says which backend `auto` chose and why and what its
update-to-data ratio is (warning when it strays 10x from CleanRL's while claiming CleanRL's settings), PPO's default
backend is `auto`, and every artefact names its backend and prior: config.json, eval.csv, plot legends and titles,
bench/compare.py tables (MIXED BACKENDS when they differ), `camel-jax eval`'s table; Ant on MJX is named
"ant (MJX contacts)". The commands run in this process, their output captured: a subprocess would only add its
imports (issue #27)."""

import contextlib
import csv
import dataclasses
import io
import json
import runpy
import sys
from pathlib import Path

import pytest

from camel_jax.cli import main

ROOT = Path(__file__).resolve().parents[1]


@dataclasses.dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str


def _captured(call) -> Result:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = call()
    return Result(code, out.getvalue(), err.getvalue())


def camel(*args):
    return _captured(lambda: main(list(args)))


def ours(lines: str) -> list[str]:
    """Lines of stderr that are not library chatter (mujoco's MJX import, gymnasium's v4 deprecation, JAX dtypes)."""
    return [ln for ln in lines.splitlines() if ln.startswith(("backend:", "update-to-data", "warning:"))]


# --- a tiny CAMEL run with the default (LLM) prior, CleanRL's settings but 16 envs ----------------------------------
@pytest.fixture(scope="module")
def llm_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("labels") / "llm"
    r = camel("train", "--env", "hopper", "--prior", "hopper", "--num-envs", "16", "--total-steps", "640",
              "--learning-starts", "320", "--log-every", "320", "--eval-every", "640", "--eval-episodes", "1",
              "--out", str(out), "--quiet")
    assert r.returncode == 0, r.stderr[-2000:]
    return out, r


def test_train_says_which_backend_auto_chose_and_why_even_when_quiet(llm_run):
    _, r = llm_run
    lines = ours(r.stderr)
    assert lines[0] == ("backend: gymnasium (auto: JAX's default device is the CPU, where gymnasium's C MuJoCo is the "
                        "faster backend and runs the paper's v4 tasks)")
    assert not [ln for ln in r.stdout.splitlines() if ln.startswith(("step", "eval", "done"))]  # still quiet


def test_train_prints_the_update_to_data_ratio_and_warns_at_16_envs(llm_run):
    _, r = llm_run
    lines = ours(r.stderr)
    assert lines[1].startswith("update-to-data ratio: 1 update(s) per vectorized step of 16 env transition(s) = "
                               "0.0625 per transition (16 sampled rows per transition); CleanRL's TD3: 1")
    assert lines[2].startswith("warning: the update-to-data ratio 0.0625 is 16x below CleanRL's 1 while every "
                               "other TD3 setting is CleanRL's; --updates-per-step 16 with --num-envs 16")
    assert len(lines) == 3


def test_the_run_records_its_llm_prior_and_backend(llm_run):
    out, _ = llm_run
    config = json.loads((out / "config.json").read_text())
    assert config["backend"] == "gymnasium" and config["prior"] == "hopper"
    assert (config["prior_kind"], config["prior_label"], config["prior_search_env_steps"], config["task_label"]) == (
        "llm", "LLM prior: claude, answer 3", 31_340, "hopper")
    saved = (out / "prior.txt").read_text()
    assert "# kind: llm" in saved and "# selected: by camel-jax priors select" in saved
    with open(out / "eval.csv") as f:
        rows = list(csv.DictReader(f))
    assert rows and all(r["backend"] == "gymnasium" for r in rows)
    from camel_jax import plots

    run = plots.load_run(out)
    assert run.describe("CAMEL") == "CAMEL [LLM prior: claude, answer 3; hopper, gymnasium]"
    assert list(run.evals["backend"]) == ["gymnasium"]


def test_ppo_defaults_to_auto_and_says_what_it_chose(tmp_path):
    from camel_jax.algos.ppo.config import PPOConfig

    assert PPOConfig().backend == "auto" and PPOConfig().resolved().backend == "gymnasium"  # this CPU
    out = tmp_path / "ppo"
    r = camel("train", "--algo", "ppo", "--env", "hopper", "--seeds", "0,1", "--num-envs", "2", "--num-steps", "64",
              "--num-minibatches", "4", "--update-epochs", "2", "--total-steps", "384", "--log-every", "128",
              "--checkpoint-every", "256", "--eval-episodes", "0", "--out", str(out),
              "--quiet")  # test_ppo's TINY sizes: its compiled programs
    assert r.returncode == 0, r.stderr[-2000:]
    lines = ours(r.stderr)
    assert lines[0].startswith("backend: gymnasium (auto: JAX's default device is the CPU")
    assert lines[1].startswith("update-to-data ratio: n/a for PPO (on-policy); each rollout of 128 transitions gets "
                               "2 epochs x 4 minibatches = 8 gradient steps")
    config = json.loads((out / "config.json").read_text())
    assert config["backend"] == "gymnasium" and config["prior_kind"] == "none"
    assert PPOConfig.from_json(out / "config.json").backend == "gymnasium"


# --- the replay ratio ------------------------------------------------------------------------------------------------
def test_ratio_warning_only_when_cleanrl_settings_meet_a_ratio_10x_away():
    from camel_jax.algos.td3.config import Config

    assert len(Config().ratio_lines()) == 1  # CleanRL's: 1 update per transition
    gpu = Config(num_envs=1024).ratio_lines()  # the README's old GPU advice
    assert len(gpu) == 2 and "of 1,024 env transition(s) = 0.000977 per transition" in gpu[0]
    assert "is 1,024x below CleanRL's 1" in gpu[1]
    assert "20x above" in Config(updates_per_step=20).ratio_lines()[1]
    assert len(Config(num_envs=1024, updates_per_step=1024).ratio_lines()) == 1  # CleanRL's ratio kept
    assert len(Config(num_envs=8).ratio_lines()) == 1  # within 10x
    assert len(Config(num_envs=1024, batch_size=32768).ratio_lines()) == 1  # not CleanRL's settings: no claim


def test_the_preset_states_its_ratio():
    from camel_jax.algos.td3.config import Config

    preset = json.loads((ROOT / "presets" / "fast.json").read_text())
    config = Config(**{**dataclasses.asdict(Config()), **preset})
    line, = config.ratio_lines()  # no warning: its batch and ratio are chosen together
    assert "= 0.00195 per transition (64 sampled rows per transition)" in line
    doc = (ROOT / "presets" / "fast.md").read_text()
    assert "0.00195 updates per env transition" in doc and "64 sampled rows per env transition" in doc


# --- labels: Ant on MJX, plots, compare tables, eval's table --------------------------------------------------------
def test_ant_on_mjx_is_named_as_its_variant():
    from camel_jax import specs
    from camel_jax.algos.td3.config import Config
    from camel_jax.core import runs

    assert specs.task_label("ant", "mjx") == "ant (MJX contacts)"
    assert specs.task_label("ant", "gymnasium") == "ant" and specs.task_label("hopper", "mjx") == "hopper"
    name = runs.default_dir(Config(env="ant", backend="mjx", prior="tuned:ant"),
                            {"prior_kind": "tuned", "task_label": "ant (MJX contacts)"}).name
    assert name.startswith("ant-mjx-contacts_mjx_tuned-ant_")
    assert runs.default_dir(Config(prior="hopper", backend="gymnasium"),
                            {"prior_kind": "llm", "task_label": "hopper"}).name.startswith("hopper_gymnasium_llm-hopper_")


def _run_dir(path: Path, env: str, backend: str, prior: str, record: dict | None = None) -> Path:
    """A finished run directory as camel_jax.core.runs writes it: config.json, metrics.csv, eval.csv (3 seeds)."""
    from camel_jax.algos.td3.config import Config
    from camel_jax.algos.td3.loop import METRIC_FIELDS
    from camel_jax.core import runs

    path.mkdir(parents=True)
    config = json.loads(Config(env=env, backend=backend, prior=prior, seeds=(0, 1, 2)).to_json())
    (path / "config.json").write_text(json.dumps({**config, **(record or {})}))
    with open(path / "metrics.csv", "w", newline="") as f:
        w = csv.DictWriter(f, METRIC_FIELDS, restval="0")
        w.writeheader()
        for step in (2000, 4000, 6000):
            for seed in range(3):
                w.writerow({"step": step, "seed": seed, "episodes": 2, "episode_return": step / 10 + seed,
                            "epsilon": 0.5, "masked_frac": 0.5, "wall_s": step / 100})
    with open(path / "eval.csv", "w", newline="") as f:
        w = csv.DictWriter(f, runs.EVAL_FIELDS, restval="0")
        w.writeheader()
        for step in (2000, 6000):
            for seed in range(3):
                w.writerow({"step": step, "seed": seed, "return_unmasked": step + seed, "backend": backend})
    return path


def test_plot_legends_name_prior_and_backend_and_the_title_says_mixed_backends(tmp_path):
    from camel_jax import plots

    legacy = _run_dir(tmp_path / "camel", "ant", "gymnasium", "priors/ant.py")  # made before the record
    mjx = _run_dir(tmp_path / "td3", "ant", "mjx", "none", {"prior_kind": "none", "prior_label": "no prior",
                                                             "prior_search_env_steps": None})
    fig = plots.plot_runs([plots.load_run(legacy), plots.load_run(mjx)], tmp_path / "p.png",
                          labels=["CAMEL (LLM prior)", "TD3 (no prior)"])
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert legend == ["CAMEL (LLM prior) [tuned prior, 0.24M search steps; ant, gymnasium]",
                      "TD3 (no prior) [ant (MJX contacts), mjx]"]
    assert fig._suptitle.get_text() == ("MIXED BACKENDS: ant on gymnasium, ant (MJX contacts) on mjx (different "
                                        "simulators, so not the same task)")
    alone = plots.plot_runs([plots.load_run(legacy)], tmp_path / "q.png")
    assert alone._suptitle.get_text() == "ant on gymnasium"


def test_compare_tables_name_prior_and_backend_and_say_mixed_backends(tmp_path):
    _run_dir(tmp_path / "camel", "hopper", "gymnasium", "priors/hopper.py")  # made before the record: tuned
    _run_dir(tmp_path / "llm", "hopper", "mjx", "hopper", {"prior_kind": "llm", "prior_label":
                                                              "LLM prior: claude, answer 3",
                                                              "prior_search_env_steps": 31340})
    argv = ["bench/compare.py", "--run", f"CAMEL, LLM prior={tmp_path / 'camel'}", "--run", f"CAMEL 2={tmp_path / 'llm'}",
            "--at", "6000", "--window", "2000", "--title", "Hopper-v4", "--out", str(tmp_path / "cmp")]

    def script() -> int:  # the script as `python bench/compare.py ...` runs it, in this process
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(sys, "argv", argv)
            mp.setattr(sys, "path", list(sys.path))  # the script puts the checkout first
            try:
                runpy.run_path(str(ROOT / argv[0]), run_name="__main__")
            except SystemExit as e:
                return e.code
        return 0

    r = _captured(script)
    assert r.returncode == 0, r.stderr
    md = (tmp_path / "cmp.md").read_text()
    assert md.splitlines()[0] == ("# Hopper-v4: camel-jax methods compared (MIXED BACKENDS: hopper on gymnasium, "
                                  "hopper on mjx (different simulators, so not the same task)), 3 seeds per arm, "
                                  "6,000 steps")
    assert "| CAMEL, LLM prior | tuned prior, 0.35M search steps | hopper, gymnasium | 3 |" in md
    assert "| CAMEL 2 | LLM prior: claude, answer 3 | hopper, mjx | 3 |" in md
    assert md.count("| tuned prior, 0.35M search steps | hopper, gymnasium |") == 2  # the unmasked-eval table too
    methods = json.loads((tmp_path / "cmp.json").read_text())["methods"]
    assert [(m["prior_kind"], m["prior_search_env_steps"], m["backend"]) for m in methods] == [
        ("tuned", 350_000, "gymnasium"), ("llm", 31_340, "mjx")]


def test_eval_table_names_the_task_variant_and_the_training_backend():
    from camel_jax import final_eval

    member = {"seed": 0, "return_unmasked": 1.0, "std_unmasked": 0.0, "return_masked": 2.0, "std_masked": 0.0}
    table = final_eval.table({"members": [member], "env": "ant", "task": "ant (MJX contacts)", "backend": "mjx",
                              "trained_on": "gymnasium", "episodes": 3, "seed": 0})
    assert table.splitlines()[-1] == "(3 episodes per member of ant (MJX contacts) on mjx, seed 0; trained on gymnasium)"
