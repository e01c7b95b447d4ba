#!/usr/bin/env python
"""Where a steady step of the gymnasium path goes: the scanned block of camel_jax/algos/td3/loop.py taken apart, each
part timed in one process, the variants alternating in every round (ms per env step, median over rounds).

  ceiling     the trainer's `learn` (store, sample, one TD3 update) scanned on a fixed transition, no vmap
              (bench/whole_run.py's --ceiling);
  vmap        the same inside `jax.vmap` over one member, as a run has it;
  learn_act   `learn` then the next action (`trainer.learn_act`), vmapped, on a fixed transition;
  callback    `learn_act` with the env step an ordered `io_callback` that returns a fixed transition (no MuJoCo);
  unordered   the same with an unordered `io_callback` (the data still orders the calls: each step's action
              depends on the step before);
  scalar      `learn_act` on the fixed transition with an ordered `io_callback` that returns one float (added times
              0 to the action): the callback's cost when it hands back nothing of size;
  bare        the ordered `io_callback` of `callback` scanned alone (no learn, no act): the callback by itself;
  block       the run's own block (`HostSteps`), C MuJoCo stepped through the callback;
and, outside any program, one `GymVecEnv.step` of C MuJoCo alone. Hopper-v4, one env, CleanRL's settings.

    python bench/step_parts.py --rounds 5
"""

from __future__ import annotations

import argparse
import statistics
import time

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback
from throughput import scanned_learn  # the ceiling's program (bench/throughput.py, bench/whole_run.py's --ceiling)

from camel_jax import envs
from camel_jax.algos.td3.config import Config
from camel_jax.algos.td3.loop import BLOCK, HostSteps
from camel_jax.algos.td3.trainer import make_train


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--env", default="hopper")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--blocks", type=int, default=6, help="blocks of BLOCK steps per variant and round")
    args = p.parse_args()

    config = Config(env=args.env, backend="gymnasium", prior="none", total_steps=11_000, learning_starts=0,
                    eval_episodes=0)
    venv = envs.make(args.env, "gymnasium", 1)
    tr = make_train(config, venv, None)
    state0 = venv.reset(0)
    fixed = jax.tree.map(jnp.asarray, state0)
    one = lambda tree: jax.tree.map(lambda x: x[None], tree)  # a member axis of one
    action = jnp.zeros((1, venv.act_dim))
    vm_learn = jax.vmap(tr.learn, in_axes=(0, 0, 0, 0, None))
    vm_learn_act = jax.vmap(tr.learn_act, in_axes=(0, 0, 0, 0, None))
    shapes = jax.tree.map(lambda x: jax.ShapeDtypeStruct(np.shape(x), jnp.asarray(x).dtype), state0)
    host_fixed = jax.tree.map(lambda x, s: np.asarray(x, s.dtype), state0, shapes)

    def scanned(body):
        return jax.jit(lambda carry, start: jax.lax.scan(body, carry, start + jnp.arange(BLOCK)), donate_argnums=0)

    def vmapped(learner, k):
        learner, m = vm_learn(learner, fixed.obs[None], action[None], one(fixed), k)
        return learner, m["critic_loss"]

    def learn_act(carry, k):
        learner, a = carry
        learner, a, m = vm_learn_act(learner, fixed.obs[None], a, one(fixed), k)
        return (learner, a), m

    def callback(carry, k, ordered=True):
        learner, a = carry
        new = io_callback(lambda _: host_fixed, shapes, a, ordered=ordered)
        learner, a, m = vm_learn_act(learner, fixed.obs[None], a, one(new), k)
        return (learner, a), m

    def scalar(carry, k):
        learner, a = carry
        z = io_callback(lambda _: np.float32(0), jax.ShapeDtypeStruct((), jnp.float32), a, ordered=True)
        learner, a, m = vm_learn_act(learner, fixed.obs[None], a + 0 * z, one(fixed), k)
        return (learner, a), m

    def bare(a, k):
        new = io_callback(lambda _: host_fixed, shapes, a, ordered=True)
        return a + 0 * new.obs[:, :1], new.reward

    key, hyper = jax.random.PRNGKey(0), config.hyper()
    plain = lambda: jax.jit(tr.init_learner)(key, hyper)
    member = lambda: jax.jit(jax.vmap(tr.init_learner, in_axes=(0, None)))(key[None], hyper)
    host = HostSteps(tr, venv, 1)
    host.env_state = state0
    block = host._make_block()
    learn_scan = scanned_learn(tr)
    ceiling = jax.jit(lambda learner, start: learn_scan(learner, fixed.obs, action, fixed, start, BLOCK),
                      donate_argnums=0)
    programs = {"ceiling": ceiling, "vmap": scanned(vmapped),
                "learn_act": scanned(learn_act), "callback": scanned(callback),
                "unordered": scanned(lambda carry, k: callback(carry, k, ordered=False)),
                "scalar": scanned(scalar), "bare": scanned(bare)}
    carries = {"ceiling": plain(), "vmap": member(), "learn_act": (member(), action[None]),
               "callback": (member(), action[None]),
               "unordered": (member(), action[None]), "scalar": (member(), action[None]), "bare": action,
               "block": (member(), fixed, action[None])}
    starts = dict.fromkeys(carries, 1)

    def run(name: str, blocks: int) -> float:
        t0 = time.perf_counter()
        for _ in range(blocks):
            if name == "block":
                carries[name], out = block(*carries[name], starts[name])
            else:
                carries[name], out = programs[name](carries[name], starts[name])
            starts[name] += BLOCK
        jax.block_until_ready(out)
        return (time.perf_counter() - t0) / (blocks * BLOCK)

    for name in carries:
        t0 = time.perf_counter()
        run(name, 1)
        print(f"{name}: compiled and ran one block in {time.perf_counter() - t0:.1f} s", flush=True)
    times: dict[str, list[float]] = {name: [] for name in carries}
    for r in range(args.rounds):
        for name in (list(carries) if r % 2 == 0 else list(carries)[::-1]):
            times[name].append(run(name, args.blocks))
    a = np.zeros((1, venv.act_dim))
    t0 = time.perf_counter()
    for _ in range(2000):
        venv.step(None, a)
    env_ms = 1e3 * (time.perf_counter() - t0) / 2000
    print(f"\nms per env step (median of {args.rounds} rounds; each round's figure in brackets):")
    for name, ts in times.items():
        print(f"  {name:10s} {1e3 * statistics.median(ts):6.3f}  {[round(1e3 * t, 2) for t in ts]}")
    print(f"  C MuJoCo's GymVecEnv.step alone: {env_ms:.3f}")


if __name__ == "__main__":
    main()
