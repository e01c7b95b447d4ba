#!/usr/bin/env python
"""The speed levers of the gymnasium path, each measured against its alternative in one process, alternating.

  (1) calls per env step: `act` then `learn` (two jitted calls, as before) against `learn_act` (one call: learn
      from step t, choose step t + 1's action), on Hopper with learning started, steady env steps/s;
  (2) env stepping: gymnasium's `SyncVectorEnv` (SAME_STEP autoreset, one `gym.make` per env with the env checker)
      against camel-jax's `GymVecEnv` (its own loop over `gym.make(..., disable_env_checker=True)`), random actions;
  (3) the twin critics: two MLPs (ours) against one vmapped MLP over a stacked parameter axis (one batched matmul
      per layer), `td3.update` scanned 50 times on a fixed batch, updates/s;
  (4) imports before the first step: `import camel_jax.algos.td3.loop` and the gymnasium backend, with brax (and MJX through
      it) imported as well or not, in fresh interpreters (wall s, median).
XLA CPU threading options are a process setting: run the script again under XLA_FLAGS to compare them.
Whole-process times (start-up, compilation, the compilation cache) are bench/whole_run.py's.

    python bench/levers.py --reps 7 --out bench/results/levers_cpu.json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import flax.linen as nn
import gymnasium as gym
import jax
import jax.numpy as jnp
import numpy as np
import optax

from camel_jax import envs
from camel_jax.algos.td3 import buffer as replay
from camel_jax.algos.td3 import update as td3
from camel_jax.algos.td3.config import Config
from camel_jax.algos.td3.loop import gym_step
from camel_jax.algos.td3.networks import MLP, Actor, TwinCritic
from camel_jax.algos.td3.trainer import make_train


def alternate(variants: dict, reps: int) -> dict:
    """Median (min, max) rate of each variant over `reps` rounds, the variants alternating within a round."""
    rates = {name: [] for name in variants}
    for _ in range(reps):
        for name, fn in variants.items():
            rates[name].append(fn())
    return {name: {"median": round(statistics.median(r), 1), "min": round(min(r), 1), "max": round(max(r), 1)}
            for name, r in rates.items()}


def calls_per_step(reps: int, steps: int = 300) -> dict:
    config = Config(env="hopper", backend="gymnasium", prior="none", learning_starts=1000, eval_episodes=0)
    venv = envs.make("hopper", "gymnasium", 1)
    tr = make_train(config, venv, None)
    learner = jax.jit(jax.vmap(tr.init_learner))(jax.random.PRNGKey(0)[None], jax.tree.map(lambda x: x[None],
                                                                                          config.hyper()))
    act = jax.jit(jax.vmap(tr.act, in_axes=(0, 0, None)))
    learn = jax.jit(jax.vmap(tr.learn, in_axes=(0, 0, 0, 0, None)), donate_argnums=0)
    learn_act = jax.jit(jax.vmap(tr.learn_act, in_axes=(0, 0, 0, 0, None)), donate_argnums=0)
    s = {"learner": learner, "env": venv.reset(0), "i": 0, "action": None}

    def two_calls(n):
        for _ in range(n):
            obs = s["env"].obs.reshape(1, 1, -1)
            key, action = act(s["learner"], obs, s["i"])
            s["learner"] = s["learner"].replace(key=key)
            s["env"] = venv.step(s["env"], np.asarray(action).reshape(1, -1))
            per_member = jax.tree.map(lambda x: x.reshape(1, *x.shape), s["env"])
            s["learner"], _ = learn(s["learner"], obs, action, per_member, s["i"])
            s["i"] += 1
        return n

    def one_call(n):
        s["action"] = None  # gym_step chooses the first action with `act`, then one `learn_act` per step
        for _ in range(n):
            s["learner"], s["env"], s["action"], _ = gym_step(act, learn_act, venv, s["learner"], s["env"],
                                                             s["action"], s["i"], 1)
            s["i"] += 1
        return n

    def timed(fn):
        t0 = time.perf_counter()
        n = fn(steps)
        jax.block_until_ready(s["learner"].key)
        return n / (time.perf_counter() - t0)

    two_calls(1100)  # fill past learning_starts, compile both branches
    one_call(50)
    out = alternate({"act + learn (2 calls)": lambda: timed(two_calls), "learn_act (1 call)": lambda: timed(one_call)},
                    reps)
    venv.close()
    return out


def env_stepping(reps: int, steps: int = 2000) -> dict:
    spec = envs.make("hopper", "gymnasium", 1).spec
    sync = gym.vector.SyncVectorEnv([lambda: gym.make(spec.gym_id)], autoreset_mode=gym.vector.AutoresetMode.SAME_STEP)
    sync.reset(seed=0)
    ours = envs.make("hopper", "gymnasium", 1)
    state = ours.reset(0)
    rng = np.random.default_rng(0)
    actions = rng.uniform(-1, 1, (steps, 1, spec.act_dim))

    def run_sync():
        t0 = time.perf_counter()
        for a in actions:
            sync.step(a)
        return steps / (time.perf_counter() - t0)

    def run_ours():
        nonlocal state
        t0 = time.perf_counter()
        for a in actions:
            state = ours.step(state, a)
        return steps / (time.perf_counter() - t0)

    return alternate({"gymnasium SyncVectorEnv": run_sync, "camel-jax GymVecEnv": run_ours}, reps)


class StackedTwin(nn.Module):
    """The alternative twin critic: one MLP vmapped over a stacked parameter axis of size 2."""

    hidden: tuple = (256, 256)

    @nn.compact
    def __call__(self, obs, act):
        x = jnp.concatenate([obs, act], -1)
        q = nn.vmap(MLP, variable_axes={"params": 0}, split_rngs={"params": True}, in_axes=None, out_axes=0,
                    axis_size=2)(self.hidden, 1)(x)[..., 0]
        return q[0], q[1]


def twin_critic(reps: int, length: int = 50) -> dict:
    obs_dim, act_dim, n = 11, 3, 256
    hyper = Config().hyper()
    full = lambda o, m, h: (-jnp.ones(o.shape[:-1] + (act_dim,)), jnp.ones(o.shape[:-1] + (act_dim,)))
    k = jax.random.split(jax.random.PRNGKey(1), 5)
    batch = replay.Transition(jax.random.normal(k[0], (n, obs_dim)), jax.random.uniform(k[1], (n, act_dim)),
                              jax.random.normal(k[2], (n,)), jax.random.normal(k[3], (n, obs_dim)), jnp.zeros(n),
                              jnp.zeros(n))

    def make(critic):
        nets = td3.Nets(Actor(act_dim, (256, 256), False), critic, optax.adam(3e-4), optax.adam(3e-4))
        agent = td3.init_agent(nets, jax.random.PRNGKey(0), obs_dim, act_dim)

        def run(agent):
            def one(a, j):
                a, stats = td3.update(nets, a, batch, jax.random.fold_in(k[4], j), hyper, full, j % 2 == 0)
                return a, stats["critic_loss"]

            return jax.lax.scan(one, agent, jnp.arange(length))

        f = jax.jit(run)
        jax.block_until_ready(f(agent))

        def timed():
            t0 = time.perf_counter()
            jax.block_until_ready(f(agent))
            return length / (time.perf_counter() - t0)

        return timed

    return alternate({"two MLPs (ours)": make(TwinCritic()), "one vmapped MLP": make(StackedTwin())}, reps)


def imports(reps: int) -> dict:
    code = {"without brax (ours)": "import camel_jax.algos.td3.loop, camel_jax.envs.gym_driver",
            "with brax.envs (before)": "import camel_jax.algos.td3.loop, camel_jax.envs.gym_driver, brax.envs"}

    def timed(src):
        def run():
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-c", src], check=True, capture_output=True)
            return time.perf_counter() - t0
        return run

    out = alternate({k: timed(v) for k, v in code.items()}, reps)
    return {k: {**v, "unit": "s (wall, lower is better)"} for k, v in out.items()}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--reps", type=int, default=7)
    p.add_argument("--out", default="bench/results/levers_cpu.json")
    args = p.parse_args()
    result = {"argv": sys.argv, "xla_flags": os.environ.get("XLA_FLAGS", ""), "loadavg_start": os.getloadavg(),
              "jax": jax.__version__,
              "(1) calls per env step, env steps/s": calls_per_step(args.reps),
              "(2) env stepping, env steps/s": env_stepping(args.reps),
              "(3) twin critics, updates/s": twin_critic(args.reps),
              "(4) imports": imports(max(3, args.reps // 2))}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
