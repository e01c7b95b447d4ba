"""Selection: roll out candidate priors, measure them, rank them by a documented score, write a markdown report.

Backends:
- "mjx": every episode of every candidate in one jitted program: `vmap` over (candidate, episode) pairs of a
  `lax.scan` over the steps of the single-instance MJX env; the candidate is picked per pair with `lax.switch`.
- "gymnasium": gymnasium's C MuJoCo v4 tasks, one episode after another: the paper's exact tasks, so the numbers
  to quote (the shipped priors' returns) come from this backend.
Every candidate sees the same initial states (episode e uses seed `seed + e`).

Per candidate: mean and std of the episode return, forward progress (x displacement of the root body from reset to
the end of the episode, in m), episode length, and falls (episodes that terminated, i.e. became unhealthy, before the
step limit). Score: `SCORE_DOC`.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

from camel_jax import specs
from camel_jax.priors import loader
from camel_jax.priors.errors import PriorError

BACKENDS = ("mjx", "gymnasium")
RANK_BY = ("return", "forward")
SCORE_DOC = {
    "return": "mean episode return (higher first); ties broken by fewer falls, then by more forward progress",
    "forward": "mean forward progress (higher first); ties broken by fewer falls, then by higher mean return",
}


@dataclasses.dataclass(frozen=True)
class Evaluation:
    path: Path
    reason: str = ""  # why the candidate was not rolled out ("" when it was)
    returns: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0))
    forward: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0))
    lengths: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0, int))
    fell: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(0, bool))

    @property
    def ok(self) -> bool:
        return not self.reason

    def score(self, rank_by: str) -> tuple:
        """Sort key, smaller is better; invalid candidates last."""
        if not self.ok:
            return (1,)
        ret, fwd, falls = self.returns.mean(), self.forward.mean(), int(self.fell.sum())
        return (0, -ret, falls, -fwd) if rank_by == "return" else (0, -fwd, falls, -ret)


def evaluate(paths: list[str | Path], env_name: str, episodes: int = 10, backend: str = "mjx",
             max_steps: int | None = None, seed: int = 0, rank_by: str = "return") -> list[Evaluation]:
    """Validate, load and roll out each prior; returns the evaluations ranked best first (see SCORE_DOC)."""
    spec = specs.load(env_name)
    if backend not in BACKENDS or rank_by not in RANK_BY:
        raise ValueError(f"backend must be one of {BACKENDS} and rank_by one of {RANK_BY}")
    max_steps = max_steps or spec.episode_length
    loaded, results = [], []
    for path in map(Path, paths):
        try:
            loaded.append((path, loader.load_prior(path, env_name)))
        except PriorError as e:
            results.append(Evaluation(path, reason=str(e)))
    if loaded:
        policies = [policy for _, policy in loaded]
        if backend == "mjx":
            metrics = rollout_mjx(policies, env_name, episodes, max_steps, seed)
        else:
            metrics = [rollout_gymnasium(p, env_name, episodes, max_steps, seed) for p in policies]
        results += [Evaluation(path, "", *m) for (path, _), m in zip(loaded, metrics)]
    return sorted(results, key=lambda r: r.score(rank_by))


def rollout_mjx(policies: list[Callable], env_name: str, episodes: int, max_steps: int, seed: int) -> list[tuple]:
    """(returns, forward, lengths, fell), each of shape (episodes,), per policy, from one jitted program."""
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
            return (state, ret, length + alive, alive & ~terminated, x_end, fell | (alive & terminated)), None

        init = (state, jnp.zeros(()), jnp.zeros((), jnp.int32), jnp.array(True), x0, jnp.array(False))
        (_, ret, length, _, x_end, fell), _ = jax.lax.scan(step, init, None, length=max_steps)
        return ret, x_end - x0, length, fell

    out = [np.asarray(a).reshape(k, episodes) for a in jax.jit(jax.vmap(episode))(candidate, keys)]
    return [tuple(a[i] for a in out) for i in range(k)]


def rollout_gymnasium(policy: Callable, env_name: str, episodes: int, max_steps: int, seed: int) -> tuple:
    """(returns, forward, lengths, fell), each of shape (episodes,), on gymnasium's C MuJoCo task."""
    import gymnasium as gym

    spec = specs.load(env_name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "v4 is out of date"
        env = gym.make(spec.gym_id)
    act = jax.jit(policy)
    returns, forward = np.zeros(episodes), np.zeros(episodes)
    lengths, fell = np.zeros(episodes, int), np.zeros(episodes, bool)
    try:
        for e in range(episodes):
            obs, _ = env.reset(seed=seed + e)
            x0 = float(env.unwrapped.data.qpos[0])
            for _ in range(max_steps):
                obs, reward, terminated, truncated, _ = env.step(np.asarray(act(obs.astype(np.float32)), np.float64))
                returns[e] += reward
                lengths[e] += 1
                if terminated or truncated:
                    break
            fell[e] = terminated
            forward[e] = float(env.unwrapped.data.qpos[0]) - x0
    finally:
        env.close()
    return returns, forward, lengths, fell


def report(results: list[Evaluation], env_name: str, backend: str, episodes: int, max_steps: int | None,
           seed: int, rank_by: str = "return", command: str = "") -> str:
    """The markdown report of ranked `results`."""
    spec = specs.load(env_name)
    steps = max_steps or spec.episode_length
    where = f"{spec.gym_id}, gymnasium C MuJoCo" if backend == "gymnasium" else f"{spec.gym_id} on MJX"
    lines = [f"# Prior evaluation: {spec.name} ({where})", ""]
    if command:
        lines += [f"Command: `{command}`", ""]
    lines += [
        (f"- Episodes per candidate: {episodes}, seeds {seed}..{seed + episodes - 1} (the same for every candidate), "
         f"at most {steps} steps each."),
        f"- Score: {SCORE_DOC[rank_by]}.",
        ("- Forward: x displacement of the root body from reset to the end of the episode (m). "
         "Falls: episodes that terminated (unhealthy) before the step limit."),
        "",
        "| rank | prior | return (mean ± std) | forward m (mean ± std) | length (mean) | falls |",
        "|---|---|---|---|---|---|",
    ]
    ranked = [r for r in results if r.ok]
    for i, r in enumerate(ranked, 1):
        lines.append(f"| {i} | `{r.path}` | {r.returns.mean():.1f} ± {r.returns.std():.1f} | "
                     f"{r.forward.mean():.2f} ± {r.forward.std():.2f} | {r.lengths.mean():.0f} | "
                     f"{int(r.fell.sum())}/{len(r.fell)} |")
    rejected = [r for r in results if not r.ok]
    if rejected:
        lines += ["", "Rejected (not rolled out):", ""] + [f"- `{r.path}`: {r.reason}" for r in rejected]
    return "\n".join(lines) + "\n"


def return_field(result: Evaluation, env_name: str, backend: str) -> str:
    """The `# return:` header value recording `result`."""
    spec = specs.load(env_name)
    where = f"{spec.gym_id} (gymnasium)" if backend == "gymnasium" else f"{spec.gym_id} on MJX"
    return (f"{result.returns.mean():.1f} +- {result.returns.std():.1f} over {len(result.returns)} episodes on "
            f"{where}; forward {result.forward.mean():.2f} m; falls {int(result.fell.sum())}/{len(result.fell)}")
