"""The ULTRA work directory and the stages that fill it, one function per stage (the CLI's subcommands call them).

Layout of WORK:
  work.json                       the base run, its task and seeds, how (and on which backend) the trajectories were
                                  collected, and the settings every later stage reads: window size (steps,
                                  characters), windows per seed, critical steps per window, whether time-limit
                                  windows are candidates (fixed here, so printed prompts, answers and checks agree)
  seed_<k>/trajectory.npz         seed k's episodes (camel_jax/ultra/trajectory.py)
  seed_<k>/values.npz             the critic's values of each step's observation and of the next one, the reward
                                  scale of those values, and the observation statistics of seed k's policy
  <arm>/seed_<k>/critical.json    the critical steps of one identification ("arm": llm, recorded, value-drop,
                                  td-error, random, or a name given with --arm), with its provider and tally
  <arm>/seed_<k>/suggestions.json their suggested actions and implicit rewards (each rating its suggested action),
                                  with the suggester, the prompt and the tally
  <arm>/seed_<k>/table.npz        the device lookup table of those suggestions, with its tau
  <arm>/prompts/seed_<k>/         the exact prompts, `<query>.md` (identification before the arm is identified,
                                  improvement after), to answer with any LLM or by hand
  <arm>/answers/seed_<k>/         answer files `<query>.<attempt>.md` (the `recorded` provider's default; the `llm`
                                  provider saves its replies here)

Every stage checks its input first, so bad input writes nothing. `identify` and `improve` then write each seed's
file after every query (atomically; `complete` false until the seed is done), so a stage stopped midway (an API
failure, a kill) keeps what it did, and running the same command again continues it (the queries done are not asked
again); `--overwrite` starts the arm again. `collect` builds WORK in a temporary directory and renames it.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Literal, get_args

import jax
import jax.numpy as jnp
import numpy as np

from camel_jax import specs
from camel_jax.errors import SetupError
from camel_jax.ultra import ablation, interpret, providers, queries, results, stages, standins, table, trajectory
from camel_jax.ultra.collect import collect
from camel_jax.ultra.interpret import Window
from camel_jax.ultra.results import write_atomic
from camel_jax.ultra.trajectory import Trajectory

WORK_FILE = "work.json"
Identifiers = Literal["llm", "recorded", "value-drop", "td-error", "random"]
Suggesters = Literal["llm", "recorded", "policy"]
IDENTIFIERS, SUGGESTERS = get_args(Identifiers), get_args(Suggesters)
MATCH_FRACTION = 0.05  # tau: 5% of the base policy's other steps lie within tau of a table key (`build_tables`)


@dataclasses.dataclass(frozen=True)
class Work:
    """An opened work directory (its work.json)."""

    path: Path
    run_dir: str
    env: str
    seeds: tuple[int, ...]
    episodes: int
    policy: str  # "sampled" or "mean": how the actions were chosen
    env_seed: int
    gamma: float
    obs_clip: float | None  # the base run's observation clip (None: it did not normalise observations)
    window_steps: int
    max_chars: int
    max_windows: int  # windows per seed (0: all, one per episode)
    max_critical: int
    returns: tuple[tuple[float, ...], ...]  # per seed, each collected episode's return
    backend: str = "gymnasium"  # where the trajectories were collected (work.json before this field: gymnasium)
    time_limit_windows: bool = False  # the windows of time-limit episodes are candidates for critical states

    @property
    def spec(self) -> specs.TaskSpec:
        return specs.load(self.env)

    def seed_dir(self, k: int) -> Path:
        return self.path / f"seed_{k}"

    def trajectory(self, k: int) -> Trajectory:
        return trajectory.load(self.seed_dir(k) / "trajectory.npz")

    def values(self, k: int) -> dict[str, np.ndarray]:
        with np.load(self.seed_dir(k) / "values.npz", allow_pickle=False) as d:
            return {name: d[name] for name in d.files}

    def windows(self, k: int, traj: Trajectory | None = None) -> list[Window]:
        traj = self.trajectory(k) if traj is None else traj
        return interpret.windows(self.spec, traj, self.window_steps, self.max_chars, self.max_windows or None,
                                 self.time_limit_windows)

    def arm_dir(self, arm: str) -> Path:
        return self.path / arm

    def arm_file(self, arm: str, k: int, name: str) -> Path:
        return self.arm_dir(arm) / f"seed_{k}" / name

    def arms(self) -> list[str]:
        """The arms identified so far (folders with every seed's critical.json, complete), sorted."""
        return sorted(p.name for p in self.path.iterdir() if p.is_dir() and not p.name.startswith("seed_") and
                      all(results.is_complete(self.arm_file(p.name, k, "critical.json"))
                          for k in range(len(self.seeds))))

    def unfinished(self, arm: str, name: str) -> bool:
        """Whether a stage writing `name` (critical.json, suggestions.json) on `arm` started and did not finish."""
        files = [self.arm_file(arm, k, name) for k in range(len(self.seeds))]
        return any(f.is_file() for f in files) and not all(results.is_complete(f) for f in files)


def open_work(path: str | Path) -> Work:
    """The work directory at `path`; SetupError with one line naming the fix when it is not one."""
    path = Path(path)
    if not (path / WORK_FILE).is_file():
        what = "does not exist" if not path.exists() else f"has no {WORK_FILE}"
        raise SetupError(f"work directory {path} {what}; make one with camel-jax ultra collect RUN_DIR --out {path}")
    raw = json.loads((path / WORK_FILE).read_text())
    fields = {f.name for f in dataclasses.fields(Work)} - {"path"}
    return Work(path=path, **{k: tuple(map(tuple, v)) if k == "returns" else tuple(v) if isinstance(v, list) else v
                              for k, v in raw.items() if k in fields})


def pick_arm(work: Work, arm: str) -> str:
    """`arm`, checked to be identified in `work`; '' picks the only one there is."""
    arms = work.arms()
    if arm:
        if arm not in arms and work.unfinished(arm, "critical.json"):
            raise SetupError(f"the identification of arm '{arm}' in {work.path} stopped before it finished; run the "
                             f"same camel-jax ultra identify {work.path} --arm {arm} command again to continue it")
        if arm not in arms:
            raise SetupError(f"{work.path} has no identified arm '{arm}' (it has: {', '.join(arms) or 'none'}); run "
                             f"camel-jax ultra identify {work.path} first, or pick one of those with --arm")
        return arm
    if len(arms) != 1:
        raise SetupError(f"{work.path} has {len(arms) or 'no'} identified arms ({', '.join(arms) or 'none'}); "
                         + ("pass --arm NAME" if arms else f"run camel-jax ultra identify {work.path} first"))
    return arms[0]


# --- collect -------------------------------------------------------------------------------------------------------
def create(out: str | Path, run_dir: str | Path, episodes: int, sampled: bool = True, env_seed: int = 0,
           window_steps: int = interpret.MAX_STEPS, max_chars: int = interpret.MAX_CHARS, max_windows: int = 0,
           max_critical: int = queries.MAX_CRITICAL, overwrite: bool = False, time_limit_windows: bool = False) -> Work:
    """Collect `episodes` episodes per seed of the PPO run `run_dir` (camel_jax/ultra/collect.py, on the backend it
    trained on) into the new work directory `out`."""
    out = Path(out)
    if out.exists() and not overwrite:
        raise FileExistsError(f"work directory {out} exists; pass --overwrite or choose another --out")
    for name, value, least in (("window-steps", window_steps, 1), ("max-chars", max_chars, 1),
                               ("max-windows", max_windows, 0), ("max-critical", max_critical, 1)):
        if value < least:
            raise ValueError(f"--{name} must be at least {least}, got {value}")
    config, rollouts = collect(run_dir, episodes, sampled, env_seed)
    if config.env not in interpret.FAMILIES:
        raise ValueError(f"task '{config.env}' has no state interpretation; add it to FAMILIES in "
                         "camel_jax/ultra/interpret.py")
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    staging.chmod(0o755)  # mkdtemp's 0700 would outlive the rename
    try:
        info = {"run_dir": str(run_dir), "env": config.env, "seeds": list(config.seeds), "episodes": episodes,
                "policy": "sampled" if sampled else "mean", "env_seed": env_seed, "gamma": config.gamma,
                "obs_clip": config.obs_clip if config.normalize_obs else None, "window_steps": window_steps,
                "max_chars": max_chars, "max_windows": max_windows, "max_critical": max_critical,
                "returns": [r.returns.tolist() for r in rollouts], "backend": config.backend,
                "time_limit_windows": time_limit_windows}
        (staging / WORK_FILE).write_text(json.dumps(info, indent=1) + "\n")
        for k, r in enumerate(rollouts):
            (staging / f"seed_{k}").mkdir()
            trajectory.save(staging / f"seed_{k}" / "trajectory.npz", r.traj)
            np.savez(staging / f"seed_{k}" / "values.npz", values=r.values, next_values=r.next_values,
                     reward_scale=r.reward_scale, obs_mean=r.obs_mean, obs_var=r.obs_var)
        if out.exists():
            shutil.rmtree(out)
        os.replace(staging, out)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return open_work(out)


# --- identification ------------------------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Asking:
    """How the text providers are reached: the answers folder of `recorded` (seed k's answers in <folder>/seed_<k>;
    '' is WORK/<arm>/answers), and the model and retries of `llm` / `recorded`."""

    answers: str = ""
    model: str = ""
    retries: int = stages.RETRIES
    client: object = None  # an anthropic client (tests: over a mock transport); None: llm.make_client()
    improve_version: str = queries.IMPROVE_VERSION  # the improvement prompt (queries.IMPROVE_PROMPTS)

    def folder(self, work: Work, arm: str, k: int) -> Path:
        return (Path(self.answers) if self.answers else work.arm_dir(arm) / "answers") / f"seed_{k}"

    def provider(self, kind: str, work: Work, arm: str, k: int) -> providers.Answering:
        if self.improve_version not in queries.IMPROVE_PROMPTS:
            raise SetupError(f"unknown --improve-prompt '{self.improve_version}'; use one of "
                             f"{', '.join(queries.IMPROVE_PROMPTS)}")
        if kind == "recorded":
            return providers.recorded_provider(work.spec, self.folder(work, arm, k), self.retries, work.max_critical,
                                               self.improve_version)
        from camel_jax import llm

        return providers.llm_provider(work.spec, self.client, self.model or llm.DEFAULT_MODEL, self.retries,
                                      work.max_critical, save_to=work.arm_dir(arm) / "answers" / f"seed_{k}",
                                      improve_version=self.improve_version)


def _start(work: Work, arm: str, name: str, provider: str, overwrite: bool, stage: str, prompt: str = "") -> None:
    """Before a stage writing `name` on `arm` does anything: an error when the arm has it complete (without
    `overwrite`), or when an unfinished run of the stage used another provider (or improvement prompt); with
    `overwrite`, nothing is removed here (`_restart` does it once every check has passed)."""
    files = [work.arm_file(arm, k, name) for k in range(len(work.seeds))]
    if overwrite or not any(f.is_file() for f in files):
        return
    if all(results.is_complete(f) for f in files):
        drops = "drops its suggestions and tables" if name == "critical.json" else "drops its tables"
        raise FileExistsError(f"{work.arm_dir(arm)} already has its {stage} done; pass --overwrite ({drops}) or "
                              "name another --arm")
    began = {results.provider(f) for f in files if f.is_file()}
    if began != {provider}:
        raise SetupError(f"the unfinished {stage} of {work.arm_dir(arm)} was started with --provider "
                         f"{', '.join(sorted(began))}; continue it with that provider, or pass --overwrite")
    asked = {results.about(f).get("prompt", "") for f in files if f.is_file()}
    # by file name: a stage begun before ULTRA's prompts moved out of priors/prompts/ recorded that folder
    if name == "suggestions.json" and {Path(a).name for a in asked} != {Path(prompt).name}:
        raise SetupError(f"the unfinished {stage} of {work.arm_dir(arm)} was started with the prompt "
                         f"{', '.join(sorted(asked))}; continue it with the same --improve-prompt, or pass --overwrite")


def _restart(work: Work, arm: str, names: tuple[str, ...]) -> None:
    """--overwrite: remove the arm's files `names` of every seed (after every check has passed)."""
    for k in range(len(work.seeds)):
        for name in names:
            work.arm_file(arm, k, name).unlink(missing_ok=True)


def _run_stage(work: Work, arm: str, name: str, kind: str, provider: str, run, **about) -> list[stages.Tally]:
    """Seed by seed, `run(k, done, after)` fills `done` (stages.Done) on from what seed k's file `name` holds so far
    (a seed already complete is not run again), calling `after(done)` after every query, which writes the file; the
    last write marks it complete. An error of the surroundings (API, files) stops the stage with what it did kept.
    Returns each seed's tally."""
    tallies = []
    for k in range(len(work.seeds)):
        path = work.arm_file(arm, k, name)
        if results.is_complete(path):
            tallies.append(stages.Tally(**results.load(path, kind)[1]))
            continue
        done = stages.Done()
        if path.is_file():
            items, tally = results.load(path, kind)
            done = stages.Done(items, stages.Tally(**tally), list(results.about(path)["asked"]))
        save = lambda d, complete=False, path=path: results.save(path, kind, d.items, d.tally.as_dict(), provider,
                                                                  complete, d.asked, **about)
        try:
            run(k, done, save)
        except SetupError as e:
            raise SetupError(f"{e} (the {kind} of seed index {k}'s {len(done.asked)} queries done so far are kept in "
                             f"{path}; run the same command again to continue)") from None
        save(done, complete=True)
        tallies.append(done.tally)
    return tallies


def identify(work: Work, provider: str, arm: str = "", asking: Asking = Asking(), count: int = 0, like: str = "",
             seed: int = 0, overwrite: bool = False) -> tuple[str, list[stages.Tally]]:
    """Name the critical steps of every seed's windows with `provider` (IDENTIFIERS) into WORK/<arm>/ (arm: the
    provider's name unless given). `random` chooses `count` steps per seed, or as many per seed as arm `like` has,
    uniformly from all the seed's steps (numpy seeded with seed + k). Returns (arm, tally per seed)."""
    if provider not in IDENTIFIERS:
        raise SetupError(f"unknown identification provider '{provider}'; use --provider with one of: "
                         f"{', '.join(IDENTIFIERS)}")
    arm = arm or provider
    _check_arm_name(arm)
    _start(work, arm, "critical.json", provider, overwrite, "identification")
    counts = _random_counts(work, count, like) if provider == "random" else None
    identifiers = [_identifier(work, provider, arm, asking, k) for k in range(len(work.seeds))]  # checked up front
    _restart(work, arm, ("critical.json", "suggestions.json", "table.npz") if overwrite else
             ("suggestions.json", "table.npz"))

    def run(k: int, done: stages.Done, after) -> None:
        traj = work.trajectory(k)
        if provider == "random":
            done.items[:] = ablation.random_critical(traj, counts[k], seed + k)
        else:
            stages.identify_all(identifiers[k], traj, work.windows(k, traj), done, after)

    return arm, _run_stage(work, arm, "critical.json", "critical", provider, run)


def _check_arm_name(arm: str) -> None:
    if arm.startswith(("seed_", ".")) or "/" in arm or arm in ("prompts", "answers"):
        raise SetupError(f"--arm '{arm}' is not a usable name (no '/', not starting with 'seed_' or '.'); pick another")


def _random_counts(work: Work, count: int, like: str) -> list[int]:
    if bool(count) == bool(like):
        raise SetupError("--provider random needs either --count K (states per seed) or --like ARM (as many states "
                         "per seed as that arm's identification)")
    if count:
        if count < 0:
            raise SetupError(f"--count must be positive, got {count}")
        return [count] * len(work.seeds)
    like = pick_arm(work, like)
    return [len(results.load(work.arm_file(like, k, "critical.json"), "critical")[0]) for k in range(len(work.seeds))]


def _identifier(work: Work, provider: str, arm: str, asking: Asking, k: int):
    if provider in ("llm", "recorded"):
        return asking.provider(provider, work, arm, k)
    if provider == "random":
        return None
    v = work.values(k)
    scale = float(v["reward_scale"])  # values in reward units, beside the rewards (camel_jax/ultra/collect.py)
    return standins.score_identifier(provider, v["values"] * scale, work.trajectory(k), v["next_values"] * scale,
                                     work.gamma, work.max_critical)


# --- improvement ---------------------------------------------------------------------------------------------------
def improve(work: Work, provider: str, arm: str = "", asking: Asking = Asking(), policy: str = "",
            overwrite: bool = False) -> tuple[str, list[stages.Tally]]:
    """A suggested action and implicit reward for every critical step of `arm` from `provider` (SUGGESTERS); `policy`:
    the policy of the `policy` stand-in (`policy_of`). Returns (arm, tally per seed)."""
    if provider not in SUGGESTERS:
        raise SetupError(f"unknown improvement provider '{provider}'; use --provider with one of: "
                         f"{', '.join(SUGGESTERS)}")
    if provider == "policy" and not policy:
        raise SetupError("--provider policy needs --policy PRIOR_OR_RUN (a prior file, a task name for its shipped "
                         "prior, expert:TD3_RUN_DIR, or a PPO run directory)")
    arm = pick_arm(work, arm)
    if provider == "policy":
        about = {"reward_rates": "suggested", "prompt": ""}
    elif asking.improve_version in queries.IMPROVE_PROMPTS:
        about = {"reward_rates": queries.REWARD_RATES[asking.improve_version],
                 "prompt": queries.display_path(queries.IMPROVE_PROMPTS[asking.improve_version])}
    else:
        raise SetupError(f"unknown --improve-prompt '{asking.improve_version}'; use one of "
                         f"{', '.join(queries.IMPROVE_PROMPTS)}")
    _start(work, arm, "suggestions.json", provider, overwrite, "improvement", about["prompt"])
    if provider == "policy":
        fn, name = policy_of(policy, work.env)
        suggesters = [standins.PolicySuggester(fn, name)] * len(work.seeds)
    else:
        suggesters = [asking.provider(provider, work, arm, k) for k in range(len(work.seeds))]
    _restart(work, arm, ("suggestions.json", "table.npz") if overwrite else ("table.npz",))

    def run(k: int, done: stages.Done, after) -> None:
        traj = work.trajectory(k)
        critical, _ = results.load(work.arm_file(arm, k, "critical.json"), "critical")
        stages.suggest_all(suggesters[k], work.spec, traj, work.windows(k, traj), critical, work.window_steps,
                           work.max_chars, done, after)

    return arm, _run_stage(work, arm, "suggestions.json", "suggestions", provider, run, **about)


def policy_of(policy: str, env: str) -> tuple[Callable, str]:
    """(obs -> action, its name) of `policy`: a PPO run directory (the mean action of its best-evaluated seed), or
    what `--prior` accepts apart from none and random (a prior file, a task name, expert:TD3_RUN_DIR)."""
    from camel_jax.algos.ppo import eval as ppo_eval
    from camel_jax.algos.ppo.config import is_ppo_run
    from camel_jax.priors.baselines import best_member, resolve

    if is_ppo_run(policy):
        config, tr, learner = ppo_eval.load_run(policy, "ultra")
        if config.env != env:
            raise SetupError(f"--policy {policy} is a PPO run on '{config.env}', not '{env}'; pick a run of this task")
        member, why = best_member(Path(policy))
        one = jax.tree.map(lambda x: x[member], learner)
        greedy = jax.jit(lambda obs: tr.greedy(one, obs[None])[0])
        return greedy, f"PPO run {policy} seed index {member} mean action ({why})"
    if policy in ("none", "random"):
        raise SetupError(f"--policy {policy} suggests nothing; give a prior file, a task name, expert:RUN_DIR or a PPO "
                         "run directory")
    resolved = resolve(policy, env)
    return jax.jit(resolved.fn), f"{resolved.kind} {policy}"


# --- the lookup tables ---------------------------------------------------------------------------------------------
def build_tables(work: Work, arm: str = "", match_fraction: float = MATCH_FRACTION,
                 capacity: int = 0) -> tuple[str, list[table.Built]]:
    """Seed k's table from arm's suggestions for seed k, keyed by observations normalised with seed k's final
    statistics (stored in the table: lookups use them too), and its tau: the distance within which `match_fraction`
    of seed k's other collected observations (all but the keys' own steps, which lie at distance 0) lie from some key
    (`table.calibrate_tau`). Every seed's table has `capacity` rows (0: the most suggestions any seed has), so they
    stack into one guide state. Suggestions whose rewards rate the action taken (the v1 prompt, or files made before
    the rule changed) are refused. Returns (arm, tables)."""
    arm = pick_arm(work, arm)
    if not 0.0 < match_fraction <= 1.0:
        raise ValueError(f"--match-fraction must be in (0, 1], got {match_fraction}")
    missing = [k for k in range(len(work.seeds)) if not work.arm_file(arm, k, "suggestions.json").is_file()]
    if missing:
        raise SetupError(f"{work.arm_dir(arm)} has no suggestions for seed index {missing[0]}; run camel-jax ultra "
                         f"improve {work.path} --arm {arm} first")
    for k in range(len(work.seeds)):
        about = results.about(work.arm_file(arm, k, "suggestions.json"))
        if not about["complete"]:
            raise SetupError(f"the improvement of {work.arm_dir(arm)} stopped before it finished (seed index {k}); run "
                             "the same camel-jax ultra improve command again to continue it")
        if about["reward_rates"] != "suggested":
            raise SetupError(f"the rewards of {work.arm_file(arm, k, 'suggestions.json')} rate the action the agent "
                             f"took ({about['prompt'] or 'made before the reward rule changed'}), not the suggested "
                             f"one that the refinement pays for; run camel-jax ultra improve {work.path} --arm {arm} "
                             "--overwrite with the current prompt")
    found = [results.load(work.arm_file(arm, k, "suggestions.json"), "suggestions")[0] for k in range(len(work.seeds))]
    capacity = capacity or max(1, *map(len, found))
    built = []
    for k, suggestions in enumerate(found):
        v = work.values(k)
        mean, var = v["obs_mean"], v["obs_var"]
        clip = work.obs_clip if work.obs_clip is not None else np.inf
        if work.obs_clip is None:
            mean, var = np.zeros_like(mean), np.ones_like(var)  # the guide sees raw observations
        b = table.build(suggestions, mean, var, work.spec.act_dim, capacity, clip)
        others = np.delete(work.trajectory(k).obs, b.steps, axis=0)
        tau = table.calibrate_tau(b.table, others, match_fraction) if b.entries and len(others) else 0.0
        built.append(dataclasses.replace(b, tau=tau, tau_fraction=match_fraction))
    for k, b in enumerate(built):
        _save_npz(work.arm_file(arm, k, "table.npz"), lambda p, b=b: table.save(p, b))
    return arm, built


def load_tables(work: Work, arm: str) -> tuple[table.Table, jax.Array, list[table.Built]]:
    """(the seeds' tables stacked on a leading seed axis, their taus (seeds,), the tables as loaded)."""
    missing = [k for k in range(len(work.seeds)) if not work.arm_file(arm, k, "table.npz").is_file()]
    if missing:
        raise SetupError(f"{work.arm_dir(arm)} has no table for seed index {missing[0]}; run camel-jax ultra table "
                         f"{work.path} --arm {arm} first")
    built = [table.load(work.arm_file(arm, k, "table.npz")) for k in range(len(work.seeds))]
    stacked = jax.tree.map(lambda *x: jnp.stack(x), *(b.table for b in built))
    return stacked, jnp.asarray([b.tau for b in built], jnp.float32), built


def _save_npz(path: Path, save: Callable[[Path], None]) -> None:
    """`save(tmp)` into a temporary .npz beside `path`, renamed to `path` (never half-written)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.stem}.tmp.npz")
    save(tmp)
    os.replace(tmp, path)


# --- prompts -------------------------------------------------------------------------------------------------------
@dataclasses.dataclass
class _Recorder:
    """An Identifier and Suggester that keeps the queries an `Answering` provider would send, and answers nothing."""

    spec: specs.TaskSpec
    max_critical: int
    improve_version: str = queries.IMPROVE_VERSION
    found: list = dataclasses.field(default_factory=list)

    def identify(self, traj, window, tally):
        self.found.append(queries.identify_query(self.spec, window, self.max_critical))
        return []

    def suggest(self, traj, window, critical, tally):
        self.found.append(queries.improve_query(self.spec, window, critical, self.improve_version))
        return []


def prompts(work: Work, arm: str = "recorded", improve_version: str = queries.IMPROVE_VERSION,
            ) -> tuple[str, list[Path]]:
    """Write the exact prompts of `arm` as WORK/<arm>/prompts/seed_<k>/<query>.md: the identification prompts while
    the arm is not identified, the improvement prompts (version `improve_version`) of its critical steps once it is.
    Returns (kind, files)."""
    _check_arm_name(arm)
    if improve_version not in queries.IMPROVE_PROMPTS:
        raise SetupError(f"unknown --improve-prompt '{improve_version}'; use one of {', '.join(queries.IMPROVE_PROMPTS)}")
    identified = arm in work.arms()
    files = []
    for k in range(len(work.seeds)):
        traj, recorder = work.trajectory(k), _Recorder(work.spec, work.max_critical, improve_version)
        if identified:
            critical, _ = results.load(work.arm_file(arm, k, "critical.json"), "critical")
            stages.suggest_all(recorder, work.spec, traj, work.windows(k, traj), critical, work.window_steps,
                               work.max_chars)
        else:
            stages.identify_all(recorder, traj, work.windows(k, traj))
        for query in recorder.found:
            files.append(work.arm_dir(arm) / "prompts" / f"seed_{k}" / f"{query.name}.md")
            write_atomic(files[-1], query.text)
    return ("improve" if identified else "identify"), files
