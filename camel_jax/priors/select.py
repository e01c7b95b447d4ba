"""Selection: roll out candidate priors, measure them, rank them by a documented score, write a markdown report.

Backends:
- "mjx": every episode of every candidate in one jitted program: `vmap` over (candidate, episode) pairs of a
  `lax.scan` over the steps of the single-instance MJX env; the candidate is picked per pair with `lax.switch`.
- "gymnasium": gymnasium's C MuJoCo v4 tasks, one episode after another: the paper's exact tasks, so the numbers
  to quote (the shipped priors' returns) come from this backend.
Every candidate sees the same initial states (episode e uses seed `seed + e`).

Per candidate: mean and std of the episode return, forward progress (x displacement of the root body from reset to
the end of the episode, in m), episode length, and falls (episodes that terminated, i.e. became unhealthy, before the
step limit). Score: `SCORE_DOC`. With `video`, the first episode of each candidate is recorded and drawn as a GIF
(camel_jax/render.py).

The "progress" score automates the paper's review of the candidates' videos by people, who looked for forward
progress and stability because "the episode return alone may not reliably indicate the policy's quality": a Hopper
that only stands collects the healthy bonus, about 1,000 over an episode, and goes nowhere, while one that hops
forward and falls after a few hundred steps returns less and is the better prior. Per episode, progress is
(forward distance + STAND_CREDIT_M) x (length / max steps): the distance is what the task asks for; the fraction of
the step limit the robot stayed healthy scales it, so falling early costs in proportion; STAND_CREDIT_M (0.1 m) is
what staying up is worth on its own, small against real locomotion but enough to put a robot that stands above one
that falls at once. Examples on Hopper (REFERENCE.md section 5): standing all episode with 0.2 m of drift scores
0.30; hopping 1.7 m and falling after 390 steps (return about 600) 0.70; lunging 0.5 m and falling after 20 steps
0.01; walking backwards scores below zero. The score is the mean over episodes; it is in metres.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

from camel_jax import render, specs
from camel_jax.errors import PriorError, SetupError
from camel_jax.priors import loader
from camel_jax.priors.observations import gym_env

BACKENDS = ("mjx", "gymnasium")
RANK_BY = ("return", "forward", "progress", "speed")
STAND_CREDIT_M = 0.1  # what staying up for a whole episode is worth in the progress score, in metres
GAIT_STEPS = 100  # the speed score's full weight needs this many steps up (a few gait cycles; Hopper: 0.8 s)
SCORE_DOC = {
    "return": "mean episode return (higher first); ties broken by fewer falls, then by more forward progress",
    "forward": "mean forward progress (higher first); ties broken by fewer falls, then by higher mean return",
    "progress": (f"progress, the mean over episodes of (forward progress in m + {STAND_CREDIT_M} m for staying up) "
                 "x the fraction of the step limit the episode lasted (length / max steps), higher first: it rewards "
                 f"moving forward and staying healthy, so a robot that only stands scores about {STAND_CREDIT_M}, "
                 "one that falls at once about 0; ties broken by fewer falls, then by higher mean return"),
    "speed": ("speed, the mean over episodes of the forward speed while up (forward progress / episode duration, in "
              f"m/s) x min(1, length / {GAIT_STEPS} steps), higher first: it rewards a prior whose actions move the "
              "robot forward, however soon it falls, and gives nothing for standing (a robot that stands scores "
              f"about 0; a lunge that falls within a few steps is weighted down by length / {GAIT_STEPS}); ties "
              "broken by fewer falls, then by higher mean return"),
}


@dataclasses.dataclass(frozen=True)
class Evaluation:
    path: Path
    reason: str = ""  # why the candidate was not rolled out ("" when it was)
    returns: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0))
    forward: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0))
    lengths: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0, int))
    fell: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0, bool))
    max_steps: int = 0  # the step limit of the episodes
    dt: float = 0.0  # seconds per env step (the model's timestep x frame_skip)
    video: Path | None = None  # the GIF of the first episode, if one was drawn

    @property
    def ok(self) -> bool:
        return not self.reason

    def value(self, rank_by: str) -> float:
        """The score named `rank_by` (see SCORE_DOC), higher is better."""
        if rank_by == "progress":
            return float(np.mean((self.forward + STAND_CREDIT_M) * self.lengths / self.max_steps))
        if rank_by == "speed":
            steps = np.maximum(self.lengths, 1)
            return float(np.mean(self.forward / (steps * self.dt) * np.minimum(1.0, steps / GAIT_STEPS)))
        return float((self.returns if rank_by == "return" else self.forward).mean())

    def score(self, rank_by: str) -> tuple:
        """Sort key, smaller is better; invalid candidates last."""
        if not self.ok:
            return (1,)
        tiebreak = "forward" if rank_by == "return" else "return"
        return (0, -self.value(rank_by), int(self.fell.sum()), -self.value(tiebreak))


def evaluate(paths: list[str | Path], env_name: str, episodes: int = 10, backend: str = "mjx",
             max_steps: int | None = None, seed: int = 0, rank_by: str = "return",
             video: str | Path | None = None) -> list[Evaluation]:
    """Validate, load and roll out each prior; returns the evaluations ranked best first (see SCORE_DOC).

    `video`: a folder for one GIF per rolled-out candidate (`<folder>/<file stem>.gif`) of its first episode, or a
    `.gif` path when there is one candidate; the GL backend is checked before any rollout.
    """
    spec = specs.load(env_name)
    if backend not in BACKENDS or rank_by not in RANK_BY:
        raise ValueError(f"backend must be one of {BACKENDS} and rank_by one of {RANK_BY}")
    rank_by = rank_for(spec, rank_by)
    if spec.is_gym and (backend == "mjx" or video is not None):
        raise SetupError(f"--env {env_name} has no MuJoCo model here: use --backend gymnasium and no --video")
    max_steps = max_steps or spec.episode_length
    if video is not None:
        render.backend()
    loaded, results = [], []
    for path in map(Path, paths):
        try:
            loaded.append((path, loader.load_prior(path, env_name)))
        except PriorError as e:
            results.append(Evaluation(path, reason=str(e)))
    if loaded:
        policies = [policy for _, policy in loaded]
        record = video is not None
        if backend == "mjx":
            metrics = rollout_mjx(policies, env_name, episodes, max_steps, seed, record)
        else:
            metrics = [rollout_gymnasium(p, env_name, episodes, max_steps, seed, record) for p in policies]
        targets = video_paths(video, [path for path, _ in loaded]) if record else [None] * len(loaded)
        for (path, _), (*m, qpos), target in zip(loaded, metrics, targets):
            if target is not None:
                render.write_video(env_name, qpos, target)
            results.append(Evaluation(path, "", *m, max_steps=max_steps, dt=step_seconds(spec), video=target))
    return sorted(results, key=lambda r: r.score(rank_by))


def rank_for(spec: specs.TaskSpec, rank_by: str) -> str:
    """`rank_by`, or "return" for a task without forward motion (gym:ID), where the other scores would all be 0."""
    return "return" if spec.forward_source is None else rank_by


def step_seconds(spec: specs.TaskSpec) -> float:
    """Seconds per env step of task `spec`: its MuJoCo timestep x frame_skip (0 for a gym:ID task: unused)."""
    import mujoco

    if spec.is_gym:
        return 0.0
    return float(mujoco.MjModel.from_xml_path(str(spec.xml_path)).opt.timestep) * spec.frame_skip


def video_paths(video: str | Path, paths: list[Path]) -> list[Path]:
    """Where each candidate's GIF goes: `video` itself if it ends in .gif (one candidate), else video/<stem>.gif."""
    video = Path(video)
    if video.suffix == ".gif":
        if len(paths) != 1:
            raise SetupError(f"--video {video} names one file for {len(paths)} candidates; give a folder instead")
        return [video]
    stems = [p.stem for p in paths]
    twice = sorted({s for s in stems if stems.count(s) > 1})
    if twice:
        raise SetupError(f"two candidates are named {twice[0]}.py and would share a video; rename one of them")
    return [video / f"{stem}.gif" for stem in stems]


def rollout_mjx(policies: list[Callable], env_name: str, episodes: int, max_steps: int, seed: int,
                record: bool = False) -> list[tuple]:
    """(returns, forward, lengths, fell), each of shape (episodes,), and the qpos of the first episode (steps + 1,
    nq) when `record` (else None), per policy, from one jitted program."""
    from camel_jax.envs import make_single

    env = make_single(env_name)
    branches = [lambda obs, p=p: jnp.asarray(p(obs), jnp.float32) for p in policies]  # one output type for switch
    k = len(policies)
    candidate = jnp.repeat(jnp.arange(k), episodes)
    keys = jnp.tile(jax.random.split(jax.random.PRNGKey(seed), episodes), (k, 1))

    def episode(index, key):
        state = env.reset(key)
        x0 = state.pipeline_state.qpos[0]

        def step(carry, _):
            state, ret, length, alive, x_end, fell = carry
            state = env.step(state, jax.lax.switch(index, branches, state.obs))
            terminated = state.info["terminated"] > 0
            ret = ret + jnp.where(alive, state.reward, 0.0)
            x_end = jnp.where(alive, state.pipeline_state.qpos[0], x_end)
            carry = (state, ret, length + alive, alive & ~terminated, x_end, fell | (alive & terminated))
            return carry, state.pipeline_state.qpos if record else None

        init = (state, jnp.zeros(()), jnp.zeros((), jnp.int32), jnp.array(True), x0, jnp.array(False))
        (_, ret, length, _, x_end, fell), qpos = jax.lax.scan(step, init, None, length=max_steps)
        return ret, x_end - x0, length, fell, (state.pipeline_state.qpos, qpos) if record else None

    *out, qpos = jax.jit(jax.vmap(episode))(candidate, keys)
    out = [np.asarray(a).reshape(k, episodes) for a in out]
    if not record:
        return [(*(a[i] for a in out), None) for i in range(k)]
    first, steps = (np.asarray(a)[::episodes] for a in qpos)  # episode 0 of each candidate
    return [(*(a[i] for a in out), np.concatenate([first[i][None], steps[i][:out[2][i, 0]]])) for i in range(k)]


def rollout_gymnasium(policy: Callable, env_name: str, episodes: int, max_steps: int, seed: int,
                      record: bool = False) -> tuple:
    """(returns, forward, lengths, fell), each of shape (episodes,), on gymnasium's C MuJoCo task, and the qpos of
    the first episode (steps + 1, nq) when `record` (else None)."""
    env = make_gym(env_name)
    jitted = jax.jit(policy)
    act = lambda obs: jitted(obs.astype(np.float32))
    try:
        out = [run_episode(env, act, seed + e, max_steps, record and e == 0) for e in range(episodes)]
    finally:
        env.close()
    returns, forward, lengths, fell, qpos = zip(*out)
    return np.array(returns), np.array(forward), np.array(lengths, int), np.array(fell, bool), qpos[0]


make_gym = gym_env  # gymnasium's C MuJoCo v4 task (one env, its TimeLimit included)


def run_episode(env, act: Callable, seed: int, max_steps: int, record: bool = False) -> tuple:
    """One episode of `act` (obs -> action) on the gymnasium env `env` from seed `seed`, at most `max_steps` steps:
    (return, forward progress, length, fell, qpos (length + 1, nq) if `record` else None)."""
    obs, _ = env.reset(seed=seed)
    data = getattr(env.unwrapped, "data", None)  # None: not a MuJoCo task (gym:ID); no forward progress then
    x = (lambda: float(data.qpos[0])) if data is not None else (lambda: 0.0)
    x0, ret, length, terminated = x(), 0.0, 0, False
    qpos = [data.qpos.copy()] if record else None
    for _ in range(max_steps):
        obs, reward, terminated, truncated, _ = env.step(np.asarray(act(obs), np.float64))
        ret, length = ret + float(reward), length + 1
        if record:
            qpos.append(data.qpos.copy())
        if terminated or truncated:
            break
    return ret, x() - x0, length, bool(terminated), np.array(qpos) if record else None


def report(results: list[Evaluation], env_name: str, backend: str, episodes: int, max_steps: int | None,
           seed: int, rank_by: str = "return", command: str = "", choose: bool = False,
           report_dir: str | Path = ".") -> str:
    """The markdown report of ranked `results`; `choose`: a selection report, naming the chosen (first) candidate.
    Videos are linked relative to `report_dir`, the folder the report is written to."""
    spec = specs.load(env_name)
    rank_by = rank_for(spec, rank_by)
    steps = max_steps or spec.episode_length
    where = f"{spec.gym_id}, gymnasium" + ("" if spec.is_gym else " C MuJoCo") if backend == "gymnasium" else \
        f"{spec.gym_id} on MJX"
    ranked = [r for r in results if r.ok]
    lines = [f"# Prior {'selection' if choose else 'evaluation'}: {spec.name} ({where})", ""]
    if command:
        lines += [f"Command: `{command}`", ""]
    if choose:
        chosen = f"`{ranked[0].path}` (rank 1 by {rank_by})" if ranked else "none: no candidate passed validation"
        lines += [f"**Chosen: {chosen}**", ""]
    videos = any(r.video for r in ranked)
    lines += [
        (f"- Episodes per candidate: {episodes}, seeds {seed}..{seed + episodes - 1} (the same for every candidate), "
         f"at most {steps} steps each."),
        f"- Score: {SCORE_DOC[rank_by]}.",
        ("- Ended: episodes that terminated before the step limit by the task's own rules, which for a gym:ID task "
         "can be a success (a lander at rest) as well as a failure; forward is 0 (no MuJoCo root body to track)."
         if spec.is_gym else
         "- Forward: x displacement of the root body from reset to the end of the episode (m). "
         "Falls: episodes that terminated (unhealthy) before the step limit."),
    ]
    if videos:
        lines.append(f"- Video: the first episode (seed {seed}), camel_jax/render.py; paths relative to this report.")
    lines += [
        "",
        "| rank | prior | score | return (mean ± std) | forward m (mean ± std) | length (mean) | "
        + ("ended |" if spec.is_gym else "falls |")
        + (" video |" if videos else ""),
        "|---|---|---|---|---|---|---|" + ("---|" if videos else ""),
    ]
    for i, r in enumerate(ranked, 1):
        lines.append(f"| {i} | `{r.path}` | {r.value(rank_by):.2f} | {r.returns.mean():.1f} ± {r.returns.std():.1f} | "
                     f"{r.forward.mean():.2f} ± {r.forward.std():.2f} | {r.lengths.mean():.0f} | "
                     f"{int(r.fell.sum())}/{len(r.fell)} |" + (f" {_link(r.video, report_dir)} |" if videos else ""))
    rejected = [r for r in results if not r.ok]
    if rejected:
        lines += ["", "Rejected (not rolled out):", ""] + [f"- `{r.path}`: {r.reason}" for r in rejected]
    return "\n".join(lines) + "\n"


def _link(video: Path | None, report_dir: str | Path) -> str:
    if video is None:
        return "none"
    relative = Path(os.path.relpath(video, report_dir)).as_posix()
    return f"[{relative}]({relative})"


def return_field(result: Evaluation, env_name: str, backend: str) -> str:
    """The `# return:` header value recording `result`."""
    spec = specs.load(env_name)
    where = f"{spec.gym_id} (gymnasium)" if backend == "gymnasium" else f"{spec.gym_id} on MJX"
    return (f"{result.returns.mean():.1f} +- {result.returns.std():.1f} over {len(result.returns)} episodes on "
            f"{where}; forward {result.forward.mean():.2f} m; falls {int(result.fell.sum())}/{len(result.fell)}")
