"""`camel-jax ultra collect|prompts|identify|improve|table|refine|run`: ULTRA's stages on a finished PPO run, over a
work directory (layout: camel_jax/ultra/work.py).

One frozen dataclass per subcommand, parsed by tyro as the union `Command` (also what a shell-completion generator
reads). Exit codes: 0 success; 2 a usage or setup error (bad option, missing folder or file, missing API key),
reported as one line on stderr with nothing half-written.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path
from typing import Annotated, Literal, Union

import tyro

from camel_jax.algos.ppo import loss as ppo
from camel_jax.algos.ppo.config import PPOConfig
from camel_jax.errors import SetupError
from camel_jax.ultra import interpret, queries, refine, stages, table, work

PROG = "camel-jax ultra"
WorkDir = Annotated[str, tyro.conf.Positional, tyro.conf.arg(metavar="WORK")]
Arm = Annotated[str, tyro.conf.arg(metavar="NAME")]


@dataclasses.dataclass(frozen=True)
class Collect:
    """Roll out every seed of a finished PPO run on the backend it trained on (gymnasium's C MuJoCo task, or MJX),
    recording the steps and the critic's values, into a new work directory."""

    run_dir: Annotated[str, tyro.conf.Positional, tyro.conf.arg(metavar="RUN_DIR")]
    """a finished PPO run (camel-jax train --algo ppo)"""
    out: Annotated[str, tyro.conf.arg(metavar="WORK")]
    """the work directory to make"""
    episodes: int = 10
    """episodes per seed; episode e of every seed starts from env seed --env-seed + e"""
    policy: Literal["sampled", "mean"] = "sampled"
    """sampled: actions drawn from the policy's Gaussian, as it acted in training (ULTRA explains the trained
    policy's behaviour, noise included); mean: the deterministic mean action"""
    env_seed: int = 0
    """the first episode's env seed"""
    window_steps: int = interpret.MAX_STEPS
    """steps per prompt window: the last steps of each episode (Hopper: 40 steps are 0.32 s)"""
    max_chars: int = interpret.MAX_CHARS
    """characters of step text per window (about 4 characters a token)"""
    max_windows: int = 0
    """windows (episodes) per seed, falls first; 0: all"""
    max_critical: int = queries.MAX_CRITICAL
    """critical steps an identification may name per window"""
    time_limit_windows: bool = False
    """also take the windows of episodes cut off by the time limit as candidates for critical states (by default
    only episodes that ended in a fall give windows)"""
    overwrite: bool = False
    """replace an existing work directory"""


@dataclasses.dataclass(frozen=True)
class Prompts:
    """Write the exact prompts of an arm, to answer with any LLM or by hand: the identification prompts while the
    arm is not identified, then the improvement prompts of its critical steps. Answers go into
    WORK/<arm>/answers/seed_<k>/<query>.1.md, read by --provider recorded."""

    work: WorkDir
    """the work directory (made by camel-jax ultra collect)"""
    arm: Arm = "recorded"
    """the arm the answers are for"""
    improve_prompt: Literal["v2", "v1"] = queries.IMPROVE_VERSION
    """the improvement prompt: v2 asks for a reward rating the suggested action (what the refinement pays); v1, the
    first one, rated the action taken (kept to reproduce old answers; no table accepts them)"""
    show: bool = False
    """also print each prompt's text (the exact text to give the LLM, per seed)"""


@dataclasses.dataclass(frozen=True)
class Identify:
    """Name the critical steps of each seed's windows: llm (Anthropic API, ANTHROPIC_API_KEY), recorded (answer
    files), the stand-ins value-drop and td-error (the base critic), or random (the ablation)."""

    work: WorkDir
    """the work directory (made by camel-jax ultra collect)"""
    provider: work.Identifiers = "recorded"
    """who identifies"""
    arm: Arm = ""
    """the name of this identification (its folder in WORK); '' is the provider's name"""
    answers: Annotated[str, tyro.conf.arg(metavar="DIR")] = ""
    """recorded: answers of seed k in DIR/seed_<k>/ ('' is WORK/<arm>/answers)"""
    count: int = 0
    """random: states per seed"""
    like: Arm = ""
    """random: as many states per seed as this arm's identification"""
    seed: int = 0
    """random: seed k's states are drawn with numpy seeded with --seed + k"""
    model: str = ""
    """llm: the Anthropic model ('' is the priors' default)"""
    retries: int = stages.RETRIES
    """a malformed answer is asked (or read) again this many times, then the query is skipped"""
    overwrite: bool = False
    """replace the arm's identification (its suggestions and tables are dropped)"""


@dataclasses.dataclass(frozen=True)
class Improve:
    """For every critical step of an arm, a suggested action and an implicit reward in [-1, 1] rating it: llm,
    recorded, or the policy stand-in (a prior or a trained actor; it rates its own action +1)."""

    work: WorkDir
    """the work directory (made by camel-jax ultra collect)"""
    provider: work.Suggesters = "recorded"
    """who suggests"""
    arm: Arm = ""
    """the identified arm ('' is the only one)"""
    policy: Annotated[str, tyro.conf.arg(metavar="PRIOR_OR_RUN")] = ""
    """policy: a prior file, a task name (its shipped prior), expert:TD3_RUN_DIR, or a PPO run directory"""
    answers: Annotated[str, tyro.conf.arg(metavar="DIR")] = ""
    """recorded: answers of seed k in DIR/seed_<k>/ ('' is WORK/<arm>/answers)"""
    improve_prompt: Literal["v2", "v1"] = queries.IMPROVE_VERSION
    """llm, recorded: the improvement prompt answered (see camel-jax ultra prompts --help)"""
    model: str = ""
    """llm: the Anthropic model ('' is the priors' default)"""
    retries: int = stages.RETRIES
    """a malformed answer is asked (or read) again this many times, then the query is skipped"""
    overwrite: bool = False
    """replace the arm's suggestions (its tables are dropped)"""


@dataclasses.dataclass(frozen=True)
class Table:
    """Build each seed's device lookup table from an arm's suggestions, keyed by observations normalised with that
    seed's statistics, with tau calibrated on the seed's collected observations and stored in the table."""

    work: WorkDir
    """the work directory (made by camel-jax ultra collect)"""
    arm: Arm = ""
    """the arm ('' is the only one)"""
    match_fraction: float = work.MATCH_FRACTION
    """tau is the distance within which this fraction of the base policy's collected steps lie from a key"""
    capacity: int = 0
    """rows per table (0: the most suggestions any seed has)"""


@dataclasses.dataclass(frozen=True)
class Refine:
    """Continue PPO from the base run with an arm's tables: A (suggested actions at matched states), R (r_env + alpha
    * implicit reward there), RA (both), or none (plain PPO continued, no table). Writes a PPO run directory."""

    work: WorkDir
    """the work directory (made by camel-jax ultra collect)"""
    mode: Literal["A", "R", "RA", "none"] = "RA"
    """the refinement mode"""
    steps: int = 100_000
    """env steps per seed"""
    out: Annotated[str, tyro.conf.arg(metavar="RUN_DIR")] = ""
    """the refined run's directory (required)"""
    arm: Arm = ""
    """the arm whose tables guide ('' is the only one; unused for --mode none)"""
    alpha: float = refine.ALPHA
    """R, RA: weight of the implicit reward (the summary's MuJoCo value)"""
    reward_width: float = table.WIDTH
    """R, RA: the implicit reward is the entry's rating times exp(-mean_i (taken_i - suggested_i)^2 / (2 width^2)):
    full at the suggestion, 0.61 of it with every actuator this far from it"""
    override_loss: ppo.OverrideLoss = refine.OVERRIDE_LOSS
    """how an overriding action enters PPO's loss: sampled (its log-prob forms the ratio) or value_only"""
    backend: Literal["", "gymnasium", "mjx"] = ""
    """'' keeps the base run's backend"""
    overwrite: bool = False
    """replace an existing run directory"""
    quiet: bool = False
    """no progress lines"""


@dataclasses.dataclass(frozen=True)
class Run:
    """The stages in a row for one provider pair: collect, identify, improve, table, and one refined run per mode
    (RUNS/<arm>_<mode>)."""

    run_dir: Annotated[str, tyro.conf.Positional, tyro.conf.arg(metavar="RUN_DIR")]
    """a finished PPO run"""
    work: Annotated[str, tyro.conf.arg(metavar="WORK")]
    """the work directory to make"""
    runs: Annotated[str, tyro.conf.arg(metavar="RUNS")]
    """the folder of the refined runs"""
    identify: work.Identifiers = "recorded"
    """who identifies"""
    improve: work.Suggesters = "recorded"
    """who suggests"""
    answers: Annotated[str, tyro.conf.arg(metavar="DIR")] = ""
    """recorded: answers of seed k in DIR/seed_<k>/ (both stages)"""
    policy: Annotated[str, tyro.conf.arg(metavar="PRIOR_OR_RUN")] = ""
    """--improve policy: its policy"""
    count: int = 0
    """--identify random: states per seed"""
    episodes: int = 10
    """episodes per seed"""
    policy_actions: Literal["sampled", "mean"] = "sampled"
    """how the base policy acts while collecting (see camel-jax ultra collect --help)"""
    modes: Annotated[str, tyro.conf.arg(metavar="A,R,RA,none")] = "A,R,RA"
    """the refinement modes, comma-separated"""
    steps: int = 100_000
    """env steps per seed of each refined run"""
    alpha: float = refine.ALPHA
    """R, RA: weight of the implicit reward"""
    reward_width: float = table.WIDTH
    """R, RA: the implicit reward's kernel width per actuator (see camel-jax ultra refine --help)"""
    improve_prompt: Literal["v2", "v1"] = queries.IMPROVE_VERSION
    """the improvement prompt answered (see camel-jax ultra prompts --help)"""
    time_limit_windows: bool = False
    """also take time-limit windows as candidates (see camel-jax ultra collect --help)"""
    override_loss: ppo.OverrideLoss = refine.OVERRIDE_LOSS
    """how an overriding action enters PPO's loss"""
    match_fraction: float = work.MATCH_FRACTION
    """tau calibration (see camel-jax ultra table --help)"""
    window_steps: int = interpret.MAX_STEPS
    """steps per prompt window"""
    max_windows: int = 0
    """windows per seed; 0: all"""
    quiet: bool = False
    """no progress lines"""


def _about(cls) -> str:
    return " ".join(cls.__doc__.split())


SUBCOMMANDS = {"collect": Collect, "prompts": Prompts, "identify": Identify, "improve": Improve, "table": Table,
               "refine": Refine, "run": Run}
Command = Union[tuple(Annotated[cls, tyro.conf.subcommand(name, description=_about(cls))]  # noqa: UP007
                     for name, cls in SUBCOMMANDS.items())]
DESCRIPTION = ("ULTRA on a finished PPO run: collect trajectories, identify critical states, suggest better actions "
               "and implicit rewards, build the lookup tables, refine PPO with them (modes A, R, RA; none: plain PPO "
               "continued). Each stage writes into the work directory WORK; every result names its provider.")


def main(argv: list[str] | None = None) -> int:
    """Run `camel-jax ultra <command> ...` with `argv` (the arguments after "ultra"); returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    from camel_jax.core import signals
    from camel_jax.core.commandline import check_choices as _check_choices
    from camel_jax.core.commandline import user_errors as _user_errors

    command = argv[0] if argv and argv[0] in SUBCOMMANDS else ""
    try:
        if command:
            _check_choices(SUBCOMMANDS[command], argv[1:])
        args = tyro.cli(Command, args=argv, prog=PROG, description=DESCRIPTION)
        name = next(k for k, v in SUBCOMMANDS.items() if isinstance(args, v))
        RUNNERS[name](args)
    except SystemExit as e:  # --help, or tyro's own usage errors
        return int(e.code or 0)
    except _user_errors() as e:
        print(f"{PROG} {command}: {e}" if command else f"{PROG}: {e}", file=sys.stderr)
        return 2
    except signals.Interrupted as e:  # a refinement stopped by SIGTERM, SIGUSR1 or Ctrl-C: one line
        print(f"{PROG} {command}: {e}", file=sys.stderr)
        return signals.EXIT_INTERRUPTED
    return 0


def _collect(a: Collect) -> None:
    w = work.create(a.out, a.run_dir, a.episodes, a.policy == "sampled", a.env_seed, a.window_steps, a.max_chars,
                    a.max_windows, a.max_critical, a.overwrite, a.time_limit_windows)
    print(f"collected on {w.backend}, the backend the base run trained on")
    for k, returns in enumerate(w.returns):
        traj = w.trajectory(k)
        falls = int(traj.terminated.sum())
        timed = "" if w.time_limit_windows or falls == len(returns) else \
            f" ({len(returns) - falls} time-limit episodes give none: --time-limit-windows to use them)"
        print(f"seed {w.seeds[k]}: {len(returns)} episodes ({falls} falls), {traj.length} steps, {len(w.windows(k))} "
              f"windows{timed}, mean return {sum(returns) / len(returns):.1f}")
    print(f"wrote {w.path}")


def _prompts(a: Prompts) -> None:
    kind, files = work.prompts(work.open_work(a.work), a.arm, a.improve_prompt)
    for f in files:
        if a.show:
            print(f"===== {f} =====\n{f.read_text()}")
        print(f"wrote {f}")
    where = Path(a.work) / a.arm
    print(f"{len(files)} {kind} prompts; save the answer to {where}/prompts/seed_<k>/<query>.md as "
          f"{where}/answers/seed_<k>/<query>.1.md (to a retry: .2.md), then run camel-jax ultra {kind} {a.work} "
          f"--provider recorded --arm {a.arm}" + (f" --improve-prompt {a.improve_prompt}" if kind == "improve" else ""))


def _report(stage: str, arm: str, provider: str, tallies: list[stages.Tally], path: Path) -> None:
    for k, t in enumerate(tallies):
        print(f"{stage} seed index {k} ({provider}): {t.queries} queries, {t.answered} answered, {t.malformed} "
              f"malformed, {t.skipped} skipped")
        for problem in t.problems:
            print(f"  {problem}")
    print(f"wrote {path / arm}")


def _identify(a: Identify) -> None:
    w = work.open_work(a.work)
    asking = work.Asking(a.answers, a.model, a.retries)
    arm, tallies = work.identify(w, a.provider, a.arm, asking, a.count, a.like, a.seed, a.overwrite)
    _report("identify", arm, a.provider, tallies, w.path)


def _improve(a: Improve) -> None:
    w = work.open_work(a.work)
    arm, tallies = work.improve(w, a.provider, a.arm, work.Asking(a.answers, a.model, a.retries,
                                                                  improve_version=a.improve_prompt), a.policy,
                                a.overwrite)
    _report("improve", arm, a.provider, tallies, w.path)


def _table(a: Table) -> None:
    w = work.open_work(a.work)
    arm, built = work.build_tables(w, a.arm, a.match_fraction, a.capacity)
    for k, b in enumerate(built):
        print(f"table seed index {k}: {b.entries} entries ({b.dropped} dropped), tau {b.tau:.4g} (within it of a "
              f"key: {b.tau_fraction:g} of the other collected steps)")
    print(f"wrote {w.path / arm}/seed_<k>/table.npz")


def _refine(a: Refine) -> None:
    run_dir = refine.refine(work.open_work(a.work), a.mode, a.steps, a.out, a.arm, a.alpha, a.override_loss,
                            a.backend, a.overwrite, a.quiet, a.reward_width)
    _report_matched(run_dir)


def _report_matched(run_dir: Path) -> None:
    if refine.GUIDE_LINE.match(next((line for line in (run_dir / "prior.txt").read_text().splitlines()
                                     if line.startswith("guide: ")), "")):
        steps = PPOConfig.from_json(run_dir / "config.json").total_steps
        counts = refine.matched_per_seed(run_dir)
        print(f"matched steps per seed: {counts} of {steps:,} each ({100 * sum(counts) / (steps * len(counts)):.2f}%)")
    print(f"wrote {run_dir}")


def _run(a: Run) -> None:
    modes = [m.strip() for m in a.modes.split(",") if m.strip()]
    bad = [m for m in modes if m not in refine.MODES]
    if bad or not modes:
        raise SetupError(f"--modes {a.modes}: use a comma-separated list of {', '.join(refine.MODES)}")
    if a.identify == "random" and a.count < 1:
        raise SetupError("--identify random needs --count K (states per seed)")
    if a.improve == "policy" and not a.policy:
        raise SetupError("--improve policy needs --policy PRIOR_OR_RUN")
    if "recorded" in (a.identify, a.improve) and not (a.answers and Path(a.answers).is_dir()):
        raise SetupError(f"the recorded provider needs --answers DIR, an existing folder of answers (seed k's in "
                         f"DIR/seed_<k>/); got {a.answers or 'none'}")
    if "llm" in (a.identify, a.improve):
        from camel_jax import llm

        llm.make_client()  # no key: one line before any work
    if Path(a.runs).exists() and any((Path(a.runs) / f"{a.identify}_{m}").exists() for m in modes):
        raise FileExistsError(f"{a.runs} already holds refined runs of this arm; choose another --runs")
    _collect(Collect(a.run_dir, a.work, a.episodes, a.policy_actions, window_steps=a.window_steps,
                     max_windows=a.max_windows, time_limit_windows=a.time_limit_windows))
    asking = work.Asking(answers=a.answers, improve_version=a.improve_prompt)
    w = work.open_work(a.work)
    arm, tallies = work.identify(w, a.identify, "", asking, a.count)
    _report("identify", arm, a.identify, tallies, w.path)
    arm, tallies = work.improve(w, a.improve, arm, asking, a.policy)
    _report("improve", arm, a.improve, tallies, w.path)
    _table(Table(a.work, arm, a.match_fraction))
    for mode in modes:
        run_dir = refine.refine(w, mode, a.steps, str(Path(a.runs) / f"{arm}_{mode}"), arm, a.alpha, a.override_loss,
                                quiet=a.quiet, width=a.reward_width)
        _report_matched(run_dir)


RUNNERS = {"collect": _collect, "prompts": _prompts, "identify": _identify, "improve": _improve, "table": _table,
           "refine": _refine, "run": _run}
