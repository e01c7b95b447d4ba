"""`camel-jax compare`: the arms trained on the same seeds into one directory with one plot and one table (a tiny real
run), its resume (the orchestration with training stubbed: which arms train, resume or are kept), its defaults
(the quickstart's), and its one-line errors that write nothing."""

import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

from camel_jax import comparison
from camel_jax.algos.td3 import loop
from camel_jax.cli import main

ROOT = Path(__file__).resolve().parents[1]
# test_cli_train's tiny settings and prior file: the CAMEL arm's programs are those of its run (compilation cache)
TINY = ["--env", "hopper", "--backend", "gymnasium", "--seeds", "0,1", "--total-steps", "600", "--learning-starts",
        "300", "--log-every", "300", "--eval-every", "300", "--eval-episodes", "1", "--batch-size", "64", "--hidden",
        "32,32", "--checkpoint-every", "600", "--prior", "priors/tuned/hopper.py"]


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    out = tmp_path_factory.mktemp("compare") / "cmp"
    r = subprocess.run([sys.executable, "-m", "camel_jax.cli", "compare", *TINY, "--out", str(out)], cwd=ROOT,
                       capture_output=True, text=True, check=False, timeout=900)
    assert r.returncode == 0, r.stderr[-3000:]
    return out, r


def test_compare_trains_both_arms_on_the_same_seeds_and_writes_one_plot_and_table(compared):
    out, r = compared
    assert {p.name for p in out.iterdir()} >= {"compare_args.json", "td3", "camel", "compare.png", "compare.md",
                                               "compare.json"}
    configs = {arm: json.loads((out / arm / "config.json").read_text()) for arm in ("td3", "camel")}
    assert configs["td3"]["prior"] == "none" and configs["camel"]["prior"] == "priors/tuned/hopper.py"
    assert configs["td3"]["seeds"] == configs["camel"]["seeds"] == [0, 1]
    for arm in ("td3", "camel"):
        assert (out / arm / "actor.msgpack").is_file()
        with open(out / arm / "metrics.csv") as f:
            assert max(int(row["step"]) for row in csv.DictReader(f)) == 600
    table = json.loads((out / "compare.json").read_text())
    assert [m["label"] for m in table["methods"]] == ["TD3", "CAMEL (prior hopper.py)"]  # td3 first: the base
    assert all(m["seeds"] == 2 for m in table["methods"]) and table["budget"] == 600
    md = (out / "compare.md").read_text()
    assert md.startswith("# Hopper-v4: camel-jax methods compared, 2 seeds per arm, 600 steps")
    assert "| CAMEL (prior hopper.py) |" in md and "(baseline)" in md and "![curves](compare.png)" in md
    assert "| return at 300 | IQM at 300 [95% CI] | return at 600 |" in md  # --at auto: half-way and the end
    assert (out / "compare.png").stat().st_size > 20_000
    assert f"compare: wrote {out / 'compare'}.png" in r.stdout


def test_compare_console_has_no_library_noise_and_says_why_v4(compared):
    _, r = compared
    text = r.stdout + r.stderr
    for noise in ("DeprecationWarning", "out of date", "UserWarning", "float64", "Failed to import", "\x1b["):
        assert noise not in text, noise
    assert r.stdout.splitlines()[0].startswith("compare: arm 1/2 td3 (TD3): training into")
    assert f"compare: arm 2/2 camel (CAMEL (prior hopper.py)): training into {compared[0] / 'camel'}" in r.stdout
    assert "task: Hopper-v4, the paper's version" in r.stderr
    assert r.stdout.count("compiling the update") == 2  # each arm says it compiles


def test_compare_again_on_its_directory_is_one_line_and_resume_of_a_finished_one_too(compared, capsys):
    out, _ = compared
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    assert main(["compare", *TINY, "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [(f"camel-jax compare: {out} exists and holds a comparison; continue it with camel-jax resume "
                    f"{out}, pass --overwrite to start over, or choose another --out")]
    assert main(["resume", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "has finished" in err[0]
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == before  # nothing touched


def _fake_run(run_dir: Path, config, finished: bool) -> None:
    """A run directory as loop.train leaves it (metrics and evaluations on a straight line), without training."""
    run_dir.mkdir(parents=True, exist_ok=True)
    (run_dir / "config.json").write_text(json.dumps({**json.loads(config.to_json()), "backend": "gymnasium"}))
    slope = 2.0 if config.prior != "none" else 1.0
    with open(run_dir / "metrics.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["step", "seed", "episodes", "episode_return", "wall_s"])
        for step in range(config.log_every, config.total_steps + 1, config.log_every):
            for seed in config.seeds:
                w.writerow([step, seed, 2, slope * step + seed, step / 100])
    with open(run_dir / "eval.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["step", "seed", "return_unmasked"])
        for step in range(config.eval_every, config.total_steps + 1, config.eval_every):
            for seed in config.seeds:
                w.writerow([step, seed, 10 * slope * step + seed])
    if finished:
        (run_dir / "actor.msgpack").write_bytes(b"x")


def test_resume_keeps_finished_arms_resumes_the_interrupted_one_and_trains_the_rest(tmp_path, monkeypatch, capsys):
    calls = []

    def train(config, **_):
        calls.append(("train", Path(config.out).name))
        _fake_run(Path(config.out), config, True)

    def resume(run_dir, quiet=None, truncate=False):
        calls.append(("resume", Path(run_dir).name, truncate))
        (Path(run_dir) / "actor.msgpack").write_bytes(b"x")

    monkeypatch.setattr(loop, "train", train)
    monkeypatch.setattr(loop, "resume", resume)
    monkeypatch.setattr(comparison, "REPS", 20)  # rliable's resamples: few (the statistics are tested elsewhere)
    out = tmp_path / "cmp"
    args = ["compare", "--env", "hopper", "--backend", "gymnasium", "--seeds", "0,1,2", "--total-steps", "6000",
            "--learning-starts", "1000", "--eval-every", "1000", "--arms", "random,camel,td3", "--out", str(out)]

    def interrupted(config, **_):  # td3 finishes, random is killed part-way (it has a run directory), camel never starts
        calls.append(("train", Path(config.out).name))
        _fake_run(Path(config.out), config, Path(config.out).name == "td3")
        if Path(config.out).name == "random":
            raise KeyboardInterrupt

    monkeypatch.setattr(loop, "train", interrupted)
    assert main(args) == 130  # a KeyboardInterrupt the run did not turn into a checkpoint: the CLI's exit code
    assert calls == [("train", "td3"), ("train", "random")] and not (out / "compare.md").exists()
    monkeypatch.setattr(loop, "train", train)
    calls.clear()
    capsys.readouterr()
    assert main(["resume", str(out), "--truncate"]) == 0
    assert calls == [("resume", "random", True), ("train", "camel")]
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"compare: arm 1/3 td3: finished already ({out / 'td3'})"
    assert lines[1] == f"compare: arm 2/3 random: resuming {out / 'random'}"
    table = json.loads((out / "compare.json").read_text())
    assert [m["label"] for m in table["methods"]] == ["TD3", "random masking", "CAMEL (LLM prior)"]
    camel = table["methods"][2]
    # unmasked evaluations 20 x step + seed: at 6,000 steps the mean of the three seeds is 120,001; TD3's is half
    assert camel["eval_at_6000"][:2] == [6000, 120_001.0]
    assert table["methods"][0]["eval_at_6000"][:2] == [6000, 60_001.0]
    recorded = json.loads((out / "compare_args.json").read_text())
    assert recorded["arms"] == "random,camel,td3" and recorded["command"] == "camel-jax compare " + " ".join(args[1:])
    assert f"Command: `{recorded['command']}`" in (out / "compare.md").read_text()


def test_defaults_are_the_quickstarts():
    """The committed quickstart (README, bench/results/quickstart) is what `camel-jax compare` trains by default."""
    configs = dict(comparison.arm_configs(comparison.CompareArgs(backend="gymnasium")))
    assert list(configs) == ["td3", "camel"]
    for arm in ("camel", "td3"):
        recorded = json.loads((ROOT / "bench/results/quickstart" / arm / "config.json").read_text())
        mine = json.loads(configs[arm].to_json())
        for key in ("env", "prior", "seeds", "total_steps", "learning_starts", "eval_every", "eval_episodes",
                    "masking_aware", "batch_size", "hidden", "delta", "mask_fraction"):
            assert mine[key] == recorded[key], (arm, key)
    assert comparison.CompareArgs().directory() == Path("runs/compare_ant")


def test_the_paper_arms_train_with_their_priors(tmp_path):
    args = comparison.CompareArgs(env="hopper", backend="gymnasium", arms="control,expert,camel-tuned,random,td3",
                                  out=str(tmp_path / "c"))
    configs = dict(comparison.arm_configs(args))
    assert list(configs) == ["td3", "control", "expert", "camel-tuned", "random"]
    assert configs["expert"].prior == f"expert:{tmp_path / 'c' / 'td3'}"
    assert configs["camel-tuned"].prior == "tuned:hopper" and configs["random"].prior == "random"
    assert configs["control"].prior == "hopper" and not configs["control"].masking_aware
    assert all(c.masking_aware for arm, c in configs.items() if arm != "control")
    assert not (tmp_path / "c").exists()


@pytest.mark.parametrize("args,needle", [
    (["--arms", "camel,ppo"], "--arms: unknown arm 'ppo'; use some of td3, camel, camel-tuned, expert, random, control"),
    (["--arms", "camel,expert"], "expert masks around the td3 arm's actor; add td3"),
    (["--arms", "td3,td3"], "names an arm twice"),
    (["--env", "pong"], "unknown task 'pong'; use --env with one of"),
    (["--learning-starts", "5000", "--total-steps", "1000"], "--learning-starts (5000) must be in"),
    (["--prior", "no/such/prior.py"], "prior file not found: no/such/prior.py"),
    (["--seeds", "0,0"], "give distinct seeds"),
    (["--total-steps", "1000", "--learning-starts", "100", "--log-every", "1000"], "fewer than 2 log rows"),
])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path, capsys, args, needle):
    out = tmp_path / "cmp"
    assert main(["compare", "--backend", "gymnasium", "--out", str(out), *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("camel-jax compare: ") and needle in err[0], err
    assert not out.exists()


def test_help_names_the_arms_and_how_to_see_the_warnings(capsys):
    with pytest.raises(SystemExit) as e:
        main(["compare", "--help"])
    out = capsys.readouterr().out
    assert e.value.code == 0
    for text in ("camel-tuned", "w/o MA EM", "camel-jax resume DIR", "CAMEL_JAX_VERBOSE", "(default: ant)"):
        assert text in " ".join(out.split()), text
