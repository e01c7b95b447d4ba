#!/usr/bin/env python
"""Throughput of the camel-jax trainer, in one run, against baselines measured in the same run.

  (a) CleanRL's own td3_continuous_action_jax.py (given a checkout with --cleanrl and its venv's python with
      --cleanrl-python), run unchanged twice, before and after the other items: its steady env steps/s after
      learning starts, read from its own SPS lines. The ratios below are to (a) when it ran, else to (b).
  (b) camel-jax's gymnasium backend at CleanRL-equivalent settings (Hopper, one env, one update per env step,
      batch 256, 256-256 nets, policy_frequency 2, learning already started): env steps/s of the host loop, driven
      exactly as `camel_jax.algos.td3.loop.train` drives it (the same `jax.jit(jax.vmap(tr.act))` /
      `jax.jit(jax.vmap(tr.learn), donate_argnums=0)` around `make_train`'s pure functions), plus a per-step
      breakdown (C MuJoCo step, learn_act) and the C MuJoCo env alone with random actions.
  (c) the update-only ceiling: the same `learn` (insert + sample + one TD3 update) scanned inside one compiled
      program on a fixed transition (no env, no host), and a bare `lax.scan` of `td3.update` on batches sampled
      from the buffer filled in (b); the ratios (b)/(c).
  (d) MJX backend: env steps/s of the fused training step (`run_chunk` over one member, jitted as in loop.py) at
      several `num_envs` with `updates_per_step=1`, beside the MJX env alone (a scan of the vectorized env step with
      random actions, no learning) at the same `num_envs`.
  (e) 1, 2, 4, 8 seeds vmapped through the gymnasium-path `learn` (host-called per step, no env): transitions/s in
      total and the ratio to one seed.
  (f) MJX `run_chunk` with 4 seeds sharded over a 4-device CPU mesh (--mesh seeds=4) against the same 4 seeds on
      one device, in a subprocess with XLA_FLAGS=--xla_force_host_platform_device_count=4 (bench/mesh_throughput.py).
      The 4 CPU "devices" share the machine's cores: this prices the mesh machinery, it is not a speed-up.

Every item is compiled (and warmed up) before it is timed; "compile_s" is the first call minus one steady call.
Each item is timed over several repetitions of about `--rep-seconds` each; the median is reported with min and max.
"cores_used" is process CPU time / wall time during the timed repetitions (how many cores XLA actually kept busy).

    python bench/throughput.py --out bench/results/throughput_cpu.json   # writes the .json and a .md beside it
    python bench/throughput.py --cleanrl ~/cleanrl --cleanrl-python ~/venvs/cleanrl/bin/python --out ...  # with (a)
    python bench/throughput.py --quick --out /tmp/t.json                  # smoke test (seconds, not minutes)
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

from camel_jax import envs
from camel_jax.algos.td3 import buffer as replay
from camel_jax.algos.td3 import update as td3
from camel_jax.algos.td3.config import Config
from camel_jax.algos.td3.loop import gym_step
from camel_jax.algos.td3.trainer import make_train
from camel_jax.core import provenance
from camel_jax.priors.baselines import resolve


# ----------------------------------------------------------------------------------------------------------- timing
def _cpu_s() -> float:
    t = os.times()
    return t.user + t.system


class Item:
    """A timed workload: `step()` does some work and returns its units (env steps, updates); `sync()` blocks on it.

    With `sync_each` the work is waited for after every step: JAX dispatches asynchronously, so without it a
    repetition would queue far more calls than fit in `rep_s`. The host loop of (a) needs no extra sync (its
    `np.asarray(action)` waits on the device every step, as in loop.py)."""

    def __init__(self, name: str, step, sync=lambda: None, rep_s: float = 1.0, sync_each: bool = True):
        self.name, self.step, self.sync, self.rep_s, self.sync_each = name, step, sync, rep_s, sync_each
        self.rates: list[float] = []
        self.cores: list[float] = []

    def rep(self) -> None:
        units, t0, c0 = 0, time.perf_counter(), _cpu_s()
        while time.perf_counter() - t0 < self.rep_s:
            units += self.step()
            if self.sync_each:
                self.sync()
        self.sync()
        wall = time.perf_counter() - t0
        self.rates.append(units / wall)
        self.cores.append((_cpu_s() - c0) / wall)

    def result(self) -> dict:
        r = self.rates
        return {"median": statistics.median(r), "min": min(r), "max": max(r), "reps": r, "rep_s": self.rep_s,
                "cores_used": statistics.median(self.cores)}


def interleaved(items: list[Item], reps: int) -> dict[str, dict]:
    """Time `reps` repetitions of each item, round-robin (a b c a b c ...), so that a drifting load from other
    processes on a shared machine hits every item alike and the ratios between them stay meaningful."""
    for r in range(reps):
        for item in items:
            item.rep()
        log(f"    rep {r + 1}/{reps}: " + ", ".join(f"{it.name} {it.rates[-1]:.0f}/s" for it in items))
    return {item.name: item.result() for item in items}


def first_call(fn):
    """Wall time of one (compiling) call and its result, blocked until ready."""
    t0 = time.perf_counter()
    out = jax.block_until_ready(fn())
    return time.perf_counter() - t0, out


def block(tree) -> None:
    jax.block_until_ready(tree)


_T0 = time.perf_counter()


def log(msg: str) -> None:
    print(f"[{time.perf_counter() - _T0:6.1f}s] {msg}", file=sys.stderr, flush=True)


# ------------------------------------------------------------------------------------------------------ machine info
def machine_info() -> dict:
    cpu = provenance.cpu()
    versions = {}
    for pkg in ("jax", "jaxlib", "mujoco", "mujoco-mjx", "flax", "optax", "gymnasium", "brax", "numpy"):
        try:
            versions[pkg] = importlib.metadata.version(pkg)
        except importlib.metadata.PackageNotFoundError:
            versions[pkg] = None
    return {
        "cpu_model": cpu["model"] or "unknown",
        "cpu_simd": cpu["simd"],
        "cpu_count": os.cpu_count(),
        "cpus_usable": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "loadavg_start": list(os.getloadavg()),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "versions": versions,
        "devices": [str(d) for d in jax.devices()],
        "default_backend": jax.default_backend(),
        "xla_flags": os.environ.get("XLA_FLAGS", ""),
        "persistent_compile_cache": jax.config.jax_compilation_cache_dir or None,
    }


# ------------------------------------------------------------------------------------------------------- the setups
def base_config(args, **kw) -> Config:
    """CleanRL's TD3 settings (the Config defaults: batch 256, 256-256, policy_frequency 2, 1M buffer)."""
    kw = {"env": args.env, "prior": "none", "total_steps": 1_000_000, "learning_starts": args.learning_starts,
          "eval_episodes": 0, "quiet": True, **kw}
    return Config(**kw)


def _split_seeds(x, seeds: int):
    """(seeds * n, ...) host arrays -> (seeds, n, ...) device arrays."""
    return jnp.asarray(np.asarray(x).reshape(seeds, -1, *np.shape(x)[1:]))


def gym_learner(config: Config):
    """The gymnasium path of `camel_jax.algos.td3.loop.train`, verbatim: venv, make_train, vmapped init, jitted act and
    learn_act (one call per env step); plain `learn` too, for item (e)."""
    seeds = len(config.seeds)
    prior = resolve(config.prior, config.env)
    hyper = jax.tree.map(lambda x: jnp.broadcast_to(x, (seeds,)), config.hyper())
    keys = jnp.stack([jax.random.PRNGKey(s) for s in config.seeds])
    venv = envs.make(config.env, "gymnasium", seeds * config.num_envs)
    tr = make_train(config, venv, prior.fn)
    learner = jax.jit(jax.vmap(tr.init_learner))(keys, hyper)
    act = jax.jit(jax.vmap(tr.act, in_axes=(0, 0, None)))
    learn = jax.jit(jax.vmap(tr.learn, in_axes=(0, 0, 0, 0, None)), donate_argnums=0)  # in-place buffer
    learn_act = jax.jit(jax.vmap(tr.learn_act, in_axes=(0, 0, 0, 0, None)), donate_argnums=0)
    return venv, tr, learner, act, learn, learn_act


def scanned_learn(tr):
    """The update-only ceiling's program: `tr.learn` (insert, sample, one TD3 update) scanned over `length` steps on
    one fixed transition, no env and no host (also bench/whole_run.py's --ceiling)."""

    def learn_scan(learner, obs, action, env_state, start, length):
        def body(learner, k):
            learner, m = tr.learn(learner, obs, action, env_state, k)
            return learner, m["critic_loss"]

        return jax.lax.scan(body, learner, start + jnp.arange(length))

    return learn_scan


def bench_gymnasium(args) -> tuple[dict, dict]:
    """(a) the host loop of loop.py and (b) the update-only ceilings, timed interleaved."""
    config = base_config(args, backend="gymnasium", seeds=(0,))
    seeds = 1
    venv, tr, learner, act, _, learn_act = gym_learner(config)
    env_state = venv.reset(int(config.seeds[0]))
    rows: list = []
    i = 0

    def one_step():  # loop.py's gymnasium step itself
        nonlocal learner, env_state, action, i
        learner, env_state, action, m = gym_step(act, learn_act, venv, learner, env_state, action, i, seeds)
        rows.append(m)
        i += 1
        return 1

    log("(a) gymnasium: compile act and learn_act, fill the buffer ...")
    # compile: the first act and the first learn_act (both lax.cond branches are compiled on its first call)
    obs = env_state.obs.reshape(seeds, -1, venv.obs_dim)
    act_first, (key, action) = first_call(lambda: act(learner, obs, i))
    learner = learner.replace(key=key)
    env_state = venv.step(env_state, np.asarray(action).reshape(1, -1))
    learn_first, (learner, action, _) = first_call(
        lambda: learn_act(learner, obs, action, jax.tree.map(lambda x: _split_seeds(x, seeds), env_state), i))
    i += 1
    # fill: uniform random actions and no updates up to learning_starts (as CleanRL), then warm up the learning branch
    t0 = time.perf_counter()
    while i * config.num_envs <= config.learning_starts:
        one_step()
    block(learner)
    fill_sps = (i - 1) / max(time.perf_counter() - t0, 1e-9)
    for _ in range(args.warmup_steps):
        one_step()
    block(learner)
    rows.clear()
    assert i * config.num_envs > config.learning_starts, "timing must start after learning_starts"

    # (b1) the same `learn`, scanned in one compiled program over a fixed transition: no env, no host per step.
    # It runs on its own copy of the learner (the host loop donates its learner at every step).
    fixed_obs, fixed_action = _split_seeds(env_state.obs, seeds), jnp.zeros((1, 1, venv.act_dim), jnp.float32)
    fixed_state = jax.tree.map(lambda x: _split_seeds(x, seeds), env_state)

    learn_scan = scanned_learn(tr)
    scan_len = args.scan_length
    learn_scanned = jax.jit(jax.vmap(learn_scan, in_axes=(0, 0, 0, 0, None, None)), static_argnums=5,
                            donate_argnums=0)
    lstate = {"learner": jax.tree.map(jnp.copy, learner), "i": i}

    def learn_scan_call():
        lstate["learner"], _ = learn_scanned(lstate["learner"], fixed_obs, fixed_action, fixed_state, lstate["i"],
                                             scan_len)
        lstate["i"] += scan_len
        return scan_len

    log("(b) compile the scanned learn ...")
    lfirst, _ = first_call(learn_scan_call)

    # (b2) a bare lax.scan of td3.update on batches sampled from the buffer filled above (seed 0, no vmap)
    one = jax.tree.map(lambda x: jnp.copy(x[0]), learner)
    nets, box, batch_size, pf = tr.nets, tr.box, config.batch_size, config.policy_frequency

    def update_scan(agent, buf, key, hyper, length):
        def body(agent, j):
            k_sample, k_noise = jax.random.split(jax.random.fold_in(key, j))
            batch = replay.sample(buf, k_sample, batch_size)
            agent, stats = td3.update(nets, agent, batch, k_noise, hyper, box, j % pf == 0)
            return agent, stats["critic_loss"]

        return jax.lax.scan(body, agent, jnp.arange(length))

    update_scanned = jax.jit(update_scan, static_argnums=4, donate_argnums=0)
    ustate = {"agent": one.agent, "key": jax.random.PRNGKey(1)}

    def update_call():
        ustate["key"], k = jax.random.split(ustate["key"])
        ustate["agent"], _ = update_scanned(ustate["agent"], one.buffer, k, one.hyper, scan_len)
        return scan_len

    log("(b) compile the scanned td3.update ...")
    ufirst, _ = first_call(update_call)

    rng = np.random.default_rng(0)  # the C MuJoCo env alone, random actions, through the same GymVecEnv wrapper
    env_item = Item("gym_env_only", lambda: (venv.step(None, rng.uniform(-1, 1, (1, venv.act_dim))), 1)[1],
                    rep_s=args.rep_seconds / 4, sync_each=False)
    items = [Item("a_loop", one_step, lambda: (block(learner), rows.clear()), args.rep_seconds, sync_each=False),
             Item("b_learn_scanned", learn_scan_call, lambda: block(lstate["learner"]), args.rep_seconds),
             Item("b_update_scanned", update_call, lambda: block(ustate["agent"]), args.rep_seconds),
             env_item]
    log("(a)+(b) timing, interleaved ...")
    t = interleaved(items, args.reps)
    t["b_learn_scanned"]["compile_s"] = max(lfirst - scan_len / t["b_learn_scanned"]["median"], 0.0)
    t["b_update_scanned"]["compile_s"] = max(ufirst - scan_len / t["b_update_scanned"]["median"], 0.0)

    # where the time goes: the same step with a sync after each part
    parts = {"env_ms": [], "learn_act_ms": []}
    for _ in range(args.breakdown_steps):
        t1 = time.perf_counter()
        obs = env_state.obs.reshape(seeds, -1, venv.obs_dim)
        env_state = venv.step(env_state, np.asarray(action).reshape(seeds * config.num_envs, -1))
        split_state = jax.tree.map(lambda x: x.reshape(seeds, -1, *x.shape[1:]), env_state)
        t2 = time.perf_counter()
        learner, action, m = learn_act(learner, obs, action, split_state, i)
        block((learner.agent, action, m))
        t3 = time.perf_counter()
        i += 1
        parts["env_ms"].append(1e3 * (t2 - t1))
        parts["learn_act_ms"].append(1e3 * (t3 - t2))
    breakdown = {k: statistics.median(v) for k, v in parts.items()}
    venv.close()

    loop, learn_ceiling, update_ceiling = t["a_loop"], t["b_learn_scanned"], t["b_update_scanned"]
    settings = {k: getattr(config, k) for k in ("env", "num_envs", "updates_per_step", "batch_size", "hidden",
                                                "policy_frequency", "buffer_size", "learning_starts")}
    a = {
        "settings": {**settings, "backend": "gymnasium", "seeds": 1, "prior": "none"},
        "env_steps_per_s": loop,
        "compile_s": {"act": act_first, "learn": learn_first},
        "fill_phase_steps_per_s": fill_sps,
        "breakdown_ms_per_step": breakdown,
        "gym_env_only_steps_per_s": t["gym_env_only"],
    }
    b = {
        "learn_scanned": {**learn_ceiling, "what": "tr.learn (insert + sample + td3.update) in lax.scan, fixed "
                                                    "transition, vmapped over 1 seed; updates/s = env steps/s"},
        "update_scanned": {**update_ceiling, "what": "td3.update in lax.scan on batches sampled from the filled "
                                                     "buffer, one seed, no vmap; updates/s"},
        "scan_length": scan_len,
        "ratio_a_over_learn_scanned": loop["median"] / learn_ceiling["median"],
        "ratio_a_over_update_scanned": loop["median"] / update_ceiling["median"],
    }
    return a, b


def bench_cleanrl(args) -> dict | None:
    """(a) CleanRL's td3_continuous_action_jax.py on the same task, run unchanged from --cleanrl with --cleanrl-python,
    twice (before and after our items, to bracket load changes). Its steady env steps/s after learning starts come
    from its own SPS lines (bench/cleanrl_reference.py)."""
    if not args.cleanrl:
        return None
    sys.path.insert(0, str(Path(__file__).parent))
    from cleanrl_reference import run_seed

    script = Path(args.cleanrl) / "cleanrl" / "td3_continuous_action_jax.py"
    if not script.is_file():
        raise SystemExit(f"throughput: no CleanRL script at {script}; pass --cleanrl DIR (a checkout of "
                         "github.com/vwxyzjn/cleanrl)")
    env_id = {"hopper": "Hopper-v4", "walker2d": "Walker2d-v4", "ant": "Ant-v4"}[args.env]
    workdir = Path(os.environ.get("TMPDIR", "/tmp")) / f"throughput_cleanrl_{os.getpid()}"
    workdir.mkdir(parents=True, exist_ok=True)
    log(f"(a) CleanRL: {args.cleanrl_steps:,} steps ...")
    cpu0 = _cpu_children_s()
    _, timing = run_seed(args.cleanrl_python, script, Path(args.cleanrl), env_id, 1, args.cleanrl_steps,
                         args.learning_starts, workdir)
    timing["cores_used"] = (_cpu_children_s() - cpu0) / timing["wall_s"]
    return timing


def _cpu_children_s() -> float:
    t = os.times()
    return t.children_user + t.children_system


def bench_mjx(args, num_envs: int) -> dict:
    """(c) run_chunk as loop.py compiles it (jit, 1 member, donated state), and the env alone; interleaved."""
    config = base_config(args, backend="mjx", seeds=(0,), num_envs=num_envs, learning_starts=0)
    prior = resolve(config.prior, config.env)
    hyper = jax.tree.map(lambda x: jnp.broadcast_to(x, (1,)), config.hyper())
    keys = jnp.stack([jax.random.PRNGKey(s) for s in config.seeds])
    env = envs.make(config.env, "mjx", num_envs)
    tr = make_train(config, env, prior.fn)
    length = args.mjx_chunk.get(num_envs) or max(2, round(args.mjx_chunk_default / num_envs ** 0.5))

    log(f"(c) mjx num_envs={num_envs}: compile init ...")
    init_s, s0 = first_call(lambda: jax.jit(jax.vmap(tr.init))(keys, hyper))
    state = {"s": s0, "i": 1}  # learning_starts=0: updates from iteration 1 on (i * num_envs > 0)
    chunk = jax.jit(tr.run_chunk, static_argnums=2, donate_argnums=0)

    def chunk_call():
        state["s"], _ = chunk(state["s"], state["i"], length)
        state["i"] += length
        return length * num_envs

    log(f"(c) mjx num_envs={num_envs}: compile run_chunk (chunk {length}) ...")
    first, _ = first_call(chunk_call)

    def rollout(env_state, key, length):
        def body(carry, _):
            s, k = carry
            k, k_act = jax.random.split(k)
            s = env.step(s, jax.random.uniform(k_act, (num_envs, env.act_dim), minval=-1.0, maxval=1.0))
            return (s, k), s.reward[0]

        (env_state, key), _ = jax.lax.scan(body, (env_state, key), None, length)
        return env_state, key

    env_len = 4 * length
    roll = jax.jit(rollout, static_argnums=2, donate_argnums=0)
    est = {"s": jax.jit(env.reset)(jax.random.PRNGKey(0)), "k": jax.random.PRNGKey(1)}  # jit: no aliased leaves

    def roll_call():
        est["s"], est["k"] = roll(est["s"], est["k"], env_len)
        return env_len * num_envs

    log(f"(c) mjx num_envs={num_envs}: compile the env-only scan ({env_len}) ...")
    efirst, _ = first_call(roll_call)
    t = interleaved([Item("train", chunk_call, lambda: block(state["s"]), args.rep_seconds),
                     Item("env_only", roll_call, lambda: block(est["s"]), args.rep_seconds)], args.mjx_reps)
    train, env_only = t["train"], t["env_only"]
    train["compile_s"] = max(first - length * num_envs / train["median"], 0.0)
    train["init_compile_s"] = init_s
    env_only["compile_s"] = max(efirst - env_len * num_envs / env_only["median"], 0.0)
    return {"num_envs": num_envs, "chunk_length": length, "env_scan_length": env_len,
            "train_env_steps_per_s": train, "train_updates_per_s": train["median"] / num_envs,
            "env_only_steps_per_s": env_only,
            "ms_per_iteration": {"train": 1e3 * num_envs / train["median"],
                                 "env_only": 1e3 * num_envs / env_only["median"]}}


def bench_mesh(args) -> dict | None:
    """(f) bench/mesh_throughput.py in its own process: XLA's CPU device count is fixed when jax starts."""
    if not args.mesh_devices:
        return None
    out = Path(args.out).with_suffix(".mesh.json")
    cmd = [sys.executable, str(Path(__file__).with_name("mesh_throughput.py")), "--devices", str(args.mesh_devices),
           "--seeds", str(args.mesh_devices), "--num-envs", str(args.mesh_num_envs), "--chunk", str(args.mesh_chunk),
           "--env", args.env, "--reps", str(args.mjx_reps), "--rep-seconds", str(args.rep_seconds), "--out", str(out)]
    log(f"(f) {args.mesh_devices} seeds over a {args.mesh_devices}-device CPU mesh: {' '.join(cmd[1:])}")
    subprocess.run(cmd, check=True)
    res = json.loads(out.read_text())
    out.unlink()
    return res


def bench_seeds(args) -> list[dict]:
    """(d) the gymnasium-path learn vmapped over 1, 2, 4 seeds, called per step from the host, no env; interleaved."""
    fake = fake_transition(args)
    items, firsts = [], {}
    for n_seeds in args.seed_counts:
        config = base_config(args, backend="gymnasium", seeds=tuple(range(n_seeds)))
        venv, _tr, learner, _, learn, _ = gym_learner(config)
        venv.close()
        obs, action, env_state = jax.tree.map(lambda x, n=n_seeds: jnp.broadcast_to(x, (n, *x.shape[1:])), fake)
        # learning on from the first call: updates once i * num_envs > learning_starts
        state = {"l": learner, "i": config.learning_starts + 1}

        def step(state=state, learn=learn, obs=obs, action=action, env_state=env_state, n=n_seeds):
            state["l"], _ = learn(state["l"], obs, action, env_state, state["i"])
            state["i"] += 1
            return n

        log(f"(d) vmapped learn, {n_seeds} seed(s): compile ...")
        firsts[n_seeds], _ = first_call(step)
        for _ in range(args.warmup_steps):
            step()
        block(state["l"])
        items.append(Item(f"seeds_{n_seeds}", step, lambda state=state: block(state["l"]), args.rep_seconds))
    t = interleaved(items, args.reps)
    out = []
    base = t["seeds_1"]["median"]
    for n_seeds in args.seed_counts:
        r = t[f"seeds_{n_seeds}"]
        r["compile_s"] = max(firsts[n_seeds] - n_seeds / r["median"], 0.0)
        out.append({"seeds": n_seeds, "transitions_per_s": r, "steps_per_s_per_seed": r["median"] / n_seeds,
                    "ratio_to_1_seed": r["median"] / base})
    return out


def fake_transition(args):
    """One real Hopper transition from the gymnasium backend, split per seed (leading axis 1) like loop.py does."""
    config = base_config(args, backend="gymnasium")
    venv = envs.make(config.env, "gymnasium", 1)
    s0 = venv.reset(0)
    s1 = venv.step(s0, np.zeros((1, venv.act_dim)))
    venv.close()
    obs = _split_seeds(s0.obs, 1)
    return obs, jnp.zeros((1, 1, venv.act_dim), jnp.float32), jax.tree.map(lambda x: _split_seeds(x, 1), s1)


# --------------------------------------------------------------------------------------------------------- reporting
def fmt(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}"


def rate_cell(r: dict) -> str:
    return f"{fmt(r['median'])} ({fmt(r['min'])}-{fmt(r['max'])})"


def markdown(res: dict) -> str:
    m, a, b = res["machine"], res["a_gymnasium"], res["b_update_only"]
    base = a["env_steps_per_s"]["median"]
    lines = [
        f"# camel-jax throughput ({m['cpu_model']}, {m['cpus_usable']} cores usable, {m['default_backend']})",
        "",
        f"Command: `{res['command']}`  ",
        (f"jax {m['versions']['jax']}, mujoco {m['versions']['mujoco']}, mujoco-mjx {m['versions']['mujoco-mjx']}, "
         f"devices {', '.join(m['devices'])}; load average at start {m['loadavg_start'][0]:.2f}, "
         f"at end {res['loadavg_end'][0]:.2f}; total wall {res['total_wall_s']:.0f} s."),
        "",
        "Rates: median over repetitions (min-max in brackets). Ratios are against numbers measured in this run.",
        "",
        "| item | setting | rate (median, min-max) | unit | ratio | compile s | cores used |",
        "|---|---|---|---|---|---|---|",
    ]
    row = lambda *c: lines.append("| " + " | ".join(str(x) for x in c) + " |")
    cl = res.get("cleanrl")
    ours = base
    if cl:  # ratios to CleanRL's script (a); without a checkout, to our gymnasium trainer (b)
        base, ref, own_ratio = cl["steps_per_s"]["median"], "(a)", f"{ours / cl['steps_per_s']['median']:.2f}x (a)"
        runs = cl["runs"]
        row("(a) CleanRL td3_continuous_action_jax.py", f"{runs[0]['command'].split('--env-id ')[1].split()[0]}, "
            f"its defaults, {len(runs)} runs bracketing the others", rate_cell(cl["steps_per_s"]),
            "env steps/s (steady, after learning starts)", "1.00 (baseline)", "",
            " / ".join(f"{r['cores_used']:.2f}" for r in runs))
    else:
        ref, own_ratio = "(b)", "1.00 (baseline)"
    s = a["settings"]
    setting = (f"{s['env']}, 1 env, 1 update/step, batch {s['batch_size']}, {'-'.join(map(str, s['hidden']))}, "
               f"pf {s['policy_frequency']}")
    row("(b) camel-jax, gymnasium backend (loop.py host loop)", setting, rate_cell(a["env_steps_per_s"]), "env steps/s",
        own_ratio, f"act {a['compile_s']['act']:.1f}, learn {a['compile_s']['learn']:.1f}",
        f"{a['env_steps_per_s']['cores_used']:.2f}")
    bd = a["breakdown_ms_per_step"]
    row("(b) per-step breakdown (synced)", "median ms: C MuJoCo step / learn_act (learn + next act)",
        f"{bd['env_ms']:.2f} / {bd['learn_act_ms']:.2f}", "ms", "", "", "")
    row("(b) C MuJoCo env alone (GymVecEnv, random actions)", f"{s['env']}, 1 env",
        rate_cell(a["gym_env_only_steps_per_s"]), "env steps/s",
        f"{a['gym_env_only_steps_per_s']['median'] / ours:.1f}x (b)", "", f"{a['gym_env_only_steps_per_s']['cores_used']:.2f}")
    row("(c) ceiling: `learn` scanned, no env", f"scan of {b['scan_length']}, fixed transition",
        rate_cell(b["learn_scanned"]), "updates/s", f"(b)/(c) = {b['ratio_a_over_learn_scanned']:.2f}",
        f"{b['learn_scanned']['compile_s']:.1f}", f"{b['learn_scanned']['cores_used']:.2f}")
    row("(c) ceiling: `td3.update` scanned", f"scan of {b['scan_length']}, batches from the filled buffer",
        rate_cell(b["update_scanned"]), "updates/s", f"(b)/(c) = {b['ratio_a_over_update_scanned']:.2f}",
        f"{b['update_scanned']['compile_s']:.1f}", f"{b['update_scanned']['cores_used']:.2f}")
    for c in res["c_mjx"]:
        t, e = c["train_env_steps_per_s"], c["env_only_steps_per_s"]
        row(f"(d) MJX `run_chunk`, num_envs={c['num_envs']}", f"1 update/step, chunk {c['chunk_length']}",
            rate_cell(t), "env steps/s", f"{t['median'] / base:.2f}x {ref}; {fmt(c['train_updates_per_s'])} updates/s",
            f"{t['compile_s']:.1f} (+ init {t['init_compile_s']:.1f})", f"{t['cores_used']:.2f}")
        row(f"(d) MJX env only, num_envs={c['num_envs']}", f"random actions, scan {c['env_scan_length']}",
            rate_cell(e), "env steps/s", f"train/env-only = {t['median'] / e['median']:.2f}",
            f"{e['compile_s']:.1f}", f"{e['cores_used']:.2f}")
    one = res["d_seeds"][0]["transitions_per_s"]["median"]
    for d in res["d_seeds"]:
        r = d["transitions_per_s"]
        row(f"(e) vmapped `learn`, {d['seeds']} seed(s)", "host-called per step, no env", rate_cell(r),
            "transitions/s (all seeds)", f"{r['median'] / one:.2f}x 1 seed", f"{r['compile_s']:.1f}",
            f"{r['cores_used']:.2f}")
    f = res.get("f_mesh")
    for name, label in (("one_device", "1 device"), ("mesh", f"{len(f['devices'])}-device CPU mesh")) if f else ():
        r = f["env_steps_per_s"][name]
        ratio = "1.00" if name == "one_device" else f"{f['ratio_mesh_to_one_device']:.2f}x 1 device (shared cores)"
        row(f"(f) MJX `run_chunk`, {f['seeds']} seeds, {label}", f"num_envs={f['num_envs']}, 1 update/step, chunk "
            f"{f['chunk_length']}", rate_cell(r), "env steps/s (all seeds)", ratio, f"{r['compile_s']:.1f}",
            f"{r['cores_used']:.2f}")
    lines += ["", "MJX per vectorized iteration (ms): " + "; ".join(
        f"num_envs={c['num_envs']}: train {c['ms_per_iteration']['train']:.1f}, env only "
        f"{c['ms_per_iteration']['env_only']:.1f}, one update (c, td3.update scanned) "
        f"{1e3 / b['update_scanned']['median']:.1f}" for c in res["c_mjx"])] if res["c_mjx"] else []
    return "\n".join(lines) + "\n"


# -------------------------------------------------------------------------------------------------------------- main
def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true", help="very short smoke run (MJX num_envs=1 only, 2 reps)")
    p.add_argument("--out", default="bench/results/throughput_cpu.json", help="JSON path; the .md goes beside it")
    p.add_argument("--env", default="hopper")
    p.add_argument("--mjx-num-envs", default=None, help="comma list (default 1,16,128; --quick: 1; \"\" skips item (d))")
    p.add_argument("--seeds", default=None, help="comma list of seed counts for (e) (default 1,2,4,8; --quick: 1,2); "
                   "1 is always included")
    p.add_argument("--cleanrl", default=os.environ.get("CLEANRL_DIR", ""),
                   help="a checkout of github.com/vwxyzjn/cleanrl (or $CLEANRL_DIR): adds item (a), its TD3 script")
    p.add_argument("--cleanrl-python", default=sys.executable,
                   help="interpreter of a venv with CleanRL's requirements (gymnasium 0.29.1, mujoco<3.2, torch, ...)")
    p.add_argument("--render", metavar="JSON", help="only rewrite the .md beside an existing JSON result, then exit")
    p.add_argument("--reps", type=int, default=None)
    p.add_argument("--rep-seconds", type=float, default=None)
    p.add_argument("--mesh-devices", type=int, default=None,
                   help="(f): CPU devices (and seeds) of the mesh item (default 4; --quick: 0, skipped); 0 skips")
    p.add_argument("--mesh-num-envs", type=int, default=None, help="(f): num_envs per seed (default 16; --quick: 1)")
    args = p.parse_args(argv)
    q = args.quick
    args.mjx_num_envs = [int(x) for x in (("1" if q else "1,16,128") if args.mjx_num_envs is None else args.mjx_num_envs).split(",") if x]
    args.seed_counts = [int(x) for x in (args.seeds or ("1,2" if q else "1,2,4,8")).split(",") if x]
    args.seed_counts = [1, *(n for n in args.seed_counts if n != 1)]  # the ratios are to 1 seed
    args.reps = args.reps or (2 if q else 5)
    args.mjx_reps = args.reps if q else max(3, args.reps - 2)
    args.rep_seconds = args.rep_seconds or (0.3 if q else 2.0)
    args.learning_starts = 64 if q else 1000
    args.cleanrl_steps = 1_500 if q else 6_000
    args.warmup_steps = 5 if q else 50
    args.breakdown_steps = 20 if q else 200
    args.scan_length = 10 if q else 100
    args.mjx_chunk = {} if not q else {1: 4}
    args.mjx_chunk_default = 64
    args.mesh_devices = (0 if q else 4) if args.mesh_devices is None else args.mesh_devices
    args.mesh_num_envs = args.mesh_num_envs or (1 if q else 16)
    args.mesh_chunk = 4 if q else 16
    return args


def main(argv=None) -> dict:
    args = parse_args(argv)
    if args.render:
        res = json.loads(Path(args.render).read_text())
        Path(args.render).with_suffix(".md").write_text(markdown(res))
        return res
    t_start = time.perf_counter()
    res = {"command": " ".join(["python", *([sys.argv[0]] if argv is None else ["bench/throughput.py"]),
                                *(sys.argv[1:] if argv is None else argv)]),
           "quick": args.quick, "machine": machine_info()}
    log(f"machine: {res['machine']['cpu_model']}, {res['machine']['cpus_usable']} cores, "
        f"{res['machine']['devices']}")
    first = bench_cleanrl(args)
    res["a_gymnasium"], res["b_update_only"] = bench_gymnasium(args)
    res["c_mjx"] = [bench_mjx(args, n) for n in args.mjx_num_envs]
    res["d_seeds"] = bench_seeds(args)
    res["f_mesh"] = bench_mesh(args)
    if first is not None:
        runs = [first, bench_cleanrl(args)]
        rates = [r["steady_steps_per_s"] for r in runs]
        res["cleanrl"] = {"runs": runs, "steps_per_s": {"median": statistics.median(rates), "min": min(rates),
                                                        "max": max(rates)}}
    res["loadavg_end"] = list(os.getloadavg())
    res["total_wall_s"] = time.perf_counter() - t_start

    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=2, default=float) + "\n")
    md = markdown(res)
    out.with_suffix(".md").write_text(md)
    print(md)
    log(f"wrote {out} and {out.with_suffix('.md')}")
    return res


if __name__ == "__main__":
    main()
