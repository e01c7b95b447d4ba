"""`camel-jax compare`: train the paper's arms (CAMEL with the task's LLM-written prior and plain TD3 by default) on
the same seeds into one directory, then compare them with camel_jax/compare.py's statistics.

The comparison directory holds `compare_args.json` (what was asked: the arms and every training setting), one run
directory per arm (`td3/`, `camel/`, ...: ordinary runs, which `camel-jax eval`, `plot` and `resume` take), and the
comparison itself: `compare.png` (training return and unmasked evaluation, IQM and 95% bootstrap band over seeds),
`compare.md` (the tables) and `compare.json` (their numbers). `camel-jax resume DIR` continues an interrupted
comparison: finished arms are kept, an interrupted arm resumes from its last checkpoint, arms not begun are trained,
then the tables are written.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import types
from pathlib import Path
from typing import Annotated, Literal

import tyro

from camel_jax.algos.td3.config import Config
from camel_jax.core.config import TASKS

ARGS_FILE = "compare_args.json"
BASELINE_ARMS = ("td3",)  # the arm trained first: expert masks around its actor, the tables' ratios are to it
PREFIX = "compare"  # compare.png, compare.md, compare.json
REPS = 2000  # bootstrap resamples of rliable's CIs in the table (bench/compare.py's default)

# arm name -> (label, how it trains: the prior ("{prior}": --prior or the task's LLM prior; "{tuned}": tuned:TASK;
# "{td3}": the td3 arm's run), masking-aware or not). The paper's set (Zhao et al. 2025, Table 1 and Figure 3).
ARMS: dict[str, tuple[str, str, bool]] = {
    "td3": ("TD3", "none", True),
    "camel": ("CAMEL (LLM prior)", "{prior}", True),
    "camel-tuned": ("CAMEL (tuned prior)", "{tuned}", True),
    "expert": ("expert masking", "expert:{td3}", True),
    "random": ("random masking", "random", True),
    "control": ("CAMEL w/o MA EM", "{prior}", False),
}
ARMS_HELP = ("td3: plain TD3 (no prior); camel: CAMEL with --prior (default: the task's LLM-written prior); "
             "camel-tuned: CAMEL with the controller tuned in simulation (tuned:TASK); expert: masking around the "
             "best seed of the td3 arm's actor (needs td3); random: masking around a random function of the state; "
             "control: --prior without the masking-aware actor and epsilon masking (the paper's 'w/o MA EM')")


@dataclasses.dataclass(frozen=True)
class CompareArgs:
    env: TASKS = "ant"
    """task (tasks/TASK.toml); the default is the quickstart's Ant"""
    prior: str = ""
    """the prior of the camel and control arms: '' means the task's LLM-written prior (priors/llm/TASK/selected.py,
    as --prior TASK in train), or tuned:NAME, or a prior file"""
    arms: Annotated[str, tyro.conf.arg(metavar="A,B,...", help="comma-separated arms, trained td3 first (the "
                                       "others as given); " + ARMS_HELP)] = "camel,td3"
    seeds: tuple[int, ...] = (0, 1, 2)
    """the seeds, the same for every arm (trained together, vmapped, in one process per arm)"""
    total_steps: int = 60_000
    """env steps per seed and arm"""
    learning_starts: int = 5_000
    """uniform random actions (inside the box for masked arms) before the first update"""
    eval_every: int = 10_000
    """steps between evaluations of the deterministic actor (unmasked: the score; masked: a diagnostic)"""
    eval_episodes: int = 5
    """episodes per seed and evaluation"""
    log_every: int = 1_000
    """steps between log rows; the comparison's windows (10,000 steps, or a sixth of --total-steps if less) end on
    them"""
    checkpoint_every: int = 50_000
    """steps between checkpoints (what resume continues from)"""
    backend: Literal["auto", "mjx", "gymnasium"] = "auto"
    """auto: gymnasium's C MuJoCo (the paper's v4 tasks) on a CPU, MJX on an accelerator"""
    batch_size: int = 256
    """TD3's minibatch"""
    hidden: tuple[int, ...] = (256, 256)
    """actor and critic hidden layers"""
    threshold: float = 1000.0
    """the return whose steps-to-reach the table reports"""
    band: Literal["iqm", "t", "minmax"] = "iqm"
    """the plot's band over seeds: iqm (interquartile mean, 95% bootstrap CI), t (mean, Student t), minmax"""
    out: Annotated[str, tyro.conf.arg(metavar="DIR")] = ""
    """the comparison directory; '' means runs/compare_TASK"""
    overwrite: bool = False
    """replace an existing comparison directory (without it, an existing one is an error: continue it with
    camel-jax resume DIR)"""
    quiet: bool = False
    """no progress lines while the arms train"""

    def directory(self) -> Path:
        return Path(self.out or f"runs/compare_{self.env}")

    def arm_names(self) -> list[str]:
        names = [a.strip() for a in self.arms.split(",") if a.strip()]
        unknown = [a for a in names if a not in ARMS]
        if unknown or not names:
            raise ValueError(f"--arms: unknown arm '{(unknown or [''])[0]}'; use some of {', '.join(ARMS)}, "
                             "comma-separated (camel-jax compare --help says what each is)")
        if len(set(names)) != len(names):
            raise ValueError(f"--arms {self.arms} names an arm twice; name each once")
        if "expert" in names and "td3" not in names:
            raise ValueError("--arms: expert masks around the td3 arm's actor; add td3 (e.g. --arms td3,expert)")
        return sorted(names, key=lambda a: a not in BASELINE_ARMS)  # td3 first: expert needs its actor, ratios are to it


def arm_configs(args: CompareArgs) -> list[tuple[str, Config]]:
    """(arm, its training config) for every arm, each checked (ValueError with one line) before anything is
    written; priors other than expert's (made from the td3 arm when it has trained) are resolved here too."""
    from camel_jax.priors.baselines import resolve

    root = args.directory()
    if len(args.seeds) != len(set(args.seeds)) or not args.seeds:
        raise ValueError(f"--seeds {','.join(map(str, args.seeds))}: give distinct seeds, e.g. --seeds 0,1,2")
    out = []
    for arm in args.arm_names():
        _, prior, aware = ARMS[arm]
        prior = prior.format(prior=args.prior or args.env, tuned=f"tuned:{args.env}", td3=root / "td3")
        config = Config(env=args.env, backend=args.backend, prior=prior, seeds=tuple(args.seeds),
                        total_steps=args.total_steps, learning_starts=args.learning_starts,
                        eval_every=args.eval_every, eval_episodes=args.eval_episodes, log_every=args.log_every,
                        checkpoint_every=args.checkpoint_every, batch_size=args.batch_size, hidden=tuple(args.hidden),
                        masking_aware=aware, out=str(root / arm), overwrite=True, quiet=args.quiet)
        config.resolved().check()
        if arm != "expert":
            resolve(prior, args.env)  # a bad --prior: one line (ValueError, SetupError)
        out.append((arm, config))
    if args.total_steps < 2 * args.log_every:
        raise ValueError(f"--log-every {args.log_every:,} leaves fewer than 2 log rows in --total-steps "
                         f"{args.total_steps:,}; use --log-every {max(args.total_steps // 10, 1):,}")
    return out


def start(args: CompareArgs, command: str = "") -> Path:
    """`camel-jax compare`: check every arm, make the comparison directory (an existing one only with --overwrite)
    with compare_args.json (and `command`, the command line, for the tables), then train the arms and write the
    comparison (`proceed`)."""
    configs = arm_configs(args)  # every check before anything is written
    root = args.directory()
    if root.exists() and not args.overwrite:
        what = "a comparison" if (root / ARGS_FILE).is_file() else "files"
        raise FileExistsError(f"{root} exists and holds {what}; continue it with camel-jax resume {root}, pass "
                              "--overwrite to start over, or choose another --out")
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    record = {**dataclasses.asdict(args), "out": str(root), "seeds": list(args.seeds), "hidden": list(args.hidden),
              "command": command}
    (root / ARGS_FILE).write_text(json.dumps(record, indent=2) + "\n")
    return proceed(root, args, configs, truncate=False)


def is_comparison(path: str | Path) -> bool:
    return (Path(path) / ARGS_FILE).is_file()


def read_args(root: Path) -> CompareArgs:
    try:
        raw = json.loads((root / ARGS_FILE).read_text())
        fields = {f.name for f in dataclasses.fields(CompareArgs)}
        raw = {k: tuple(v) if isinstance(v, list) else v for k, v in raw.items() if k in fields}
        return CompareArgs(**raw)
    except (json.JSONDecodeError, TypeError) as e:
        raise ValueError(f"{root / ARGS_FILE} is not a camel-jax comparison ({e}); start over with camel-jax compare "
                         "--overwrite") from None


def resume(root: str | Path, quiet: bool | None = None, truncate: bool = False) -> Path:
    """`camel-jax resume DIR` on a comparison: finished arms are kept, an interrupted one resumes from its last
    checkpoint (`truncate`: dropping rows logged after it), the others train; then the comparison is written. A
    comparison whose arms have all finished and whose tables are written is an error (nothing to do)."""
    root = Path(root)
    args = read_args(root)
    args = dataclasses.replace(args, out=str(root), quiet=args.quiet if quiet is None else quiet)
    configs = arm_configs(args)
    if all(_finished(Path(c.out)) for _, c in configs) and (root / f"{PREFIX}.md").is_file():
        raise ValueError(f"{root} has finished (every arm trained, {PREFIX}.md written); there is nothing to resume "
                         f"(camel-jax compare --out NEW_DIR starts another)")
    return proceed(root, args, configs, truncate)


def _finished(run_dir: Path) -> bool:
    return (run_dir / "actor.msgpack").is_file()


def proceed(root: Path, args: CompareArgs, configs: list[tuple[str, Config]], truncate: bool) -> Path:
    """Train every arm not finished (resuming one that has a run directory), then write the comparison."""
    from camel_jax.algos.td3 import loop

    for k, (arm, config) in enumerate(configs, 1):
        run_dir = Path(config.out)
        if _finished(run_dir):
            _say(args, f"compare: arm {k}/{len(configs)} {arm}: finished already ({run_dir})")
            continue
        if (run_dir / "config.json").is_file():
            _say(args, f"compare: arm {k}/{len(configs)} {arm}: resuming {run_dir}")
            loop.resume(run_dir, quiet=args.quiet, truncate=truncate)
        else:
            _say(args, f"compare: arm {k}/{len(configs)} {arm} ({label(args, arm)}): training into {run_dir}")
            loop.train(config)
    return write(root, args, [arm for arm, _ in configs])


def write(root: Path, args: CompareArgs, arms: list[str]) -> Path:
    """The comparison of the arms' runs: root/compare.png, .md and .json (camel_jax.compare.compare_runs)."""
    from camel_jax import compare, specs

    window = min(10_000, max(args.log_every, args.total_steps // 6 // args.log_every * args.log_every))
    labels = {arm: label(args, arm) for arm in arms}
    baseline = labels["td3"] if "td3" in arms else labels[arms[0]]
    options = types.SimpleNamespace(
        at="auto", window=window, threshold=args.threshold, title=specs.load(args.env).gym_id, band=args.band,
        out=str(root / PREFIX), final_frac=0.2, baseline=baseline, reps=REPS,
        command=json.loads((root / ARGS_FILE).read_text()).get("command") or f"camel-jax resume {root}")
    code = compare.compare_runs(options, [(labels[arm], root / arm) for arm in arms], [])
    if code:
        raise ValueError(f"the arms in {root} trained, but their comparison failed (the line above); "
                         "python bench/compare.py --run LABEL=RUN_DIR ... compares them with other settings")
    _say(args, f"compare: wrote {root / PREFIX}.png, {PREFIX}.md and {PREFIX}.json", always=True)
    return root


def label(args: CompareArgs, arm: str) -> str:
    """The arm's name in the tables and the plot: ARMS' label, with the prior named where --prior replaced the task's
    LLM-written prior (the camel and control arms)."""
    name = ARMS[arm][0]
    if arm in ("camel", "control") and args.prior and args.prior != args.env:
        prior = Path(args.prior).name if args.prior.endswith(".py") else args.prior
        name = "CAMEL (prior " + prior + ")" if arm == "camel" else f"CAMEL w/o MA EM (prior {prior})"
    return name


def _say(args: CompareArgs, line: str, always: bool = False) -> None:
    if always or not args.quiet:
        print(line, flush=True)
