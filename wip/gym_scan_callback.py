"""Prototype: gymnasium TD3 as a per-step host loop (today) vs one scanned chunk whose env step is an io_callback."""
import resource
import sys
import time

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

from camel_jax import envs
from camel_jax.algos.td3.config import Config
from camel_jax.algos.td3.loop import HostSteps
from camel_jax.algos.td3.trainer import make_train

N_LEARN = int(sys.argv[1]) if len(sys.argv) > 1 else 600
LS, CH = 300, 100
config = Config(env="hopper", backend="gymnasium", seeds=(0,), total_steps=LS + N_LEARN + 10, learning_starts=LS,
                eval_episodes=0, quiet=True)
hyper = config.member_hypers()
keys = jnp.stack([jax.random.PRNGKey(0)])

def make():
    venv = envs.make("hopper", "gymnasium", 1)
    tr = make_train(config, venv, None)
    learner = jax.jit(jax.vmap(tr.init_learner))(keys, hyper)
    env_state = venv.reset([0])
    return venv, tr, learner, env_state

def cpu(): r = resource.getrusage(resource.RUSAGE_SELF); return r.ru_utime + r.ru_stime

def host_loop(total):
    venv, tr, learner, env_state = make()
    hs = HostSteps(tr, venv, 1); learner = hs.start(learner, env_state, 0)
    marks = []
    for k in range(total):
        learner, _ = hs.step(learner, k)
        if k % CH == CH - 1:
            jax.block_until_ready(learner); marks.append((k + 1, time.perf_counter(), cpu()))
    return learner, marks

def scanned(total):
    venv, tr, learner, env_state = make()
    st = jax.tree.map(jnp.asarray, env_state)
    shapes = jax.tree.map(lambda x: jax.ShapeDtypeStruct(x.shape, x.dtype), st)
    def host(action):
        s = venv.step(None, np.asarray(action).reshape(venv.num_envs, -1))
        return jax.tree.map(lambda x, sh: np.asarray(x, sh.dtype).reshape(sh.shape), s, shapes)
    act = jax.vmap(tr.act, in_axes=(0, 0, None)); learn_act = jax.vmap(tr.learn_act, in_axes=(0, 0, 0, 0, None))
    def chunk(carry, start, length):
        def step(carry, i):
            learner, env_state, action = carry
            obs = env_state.obs.reshape(1, 1, -1)
            new = io_callback(host, shapes, action, ordered=True)
            per = jax.tree.map(lambda x: x.reshape(1, *x.shape), new)
            learner, nxt, m = learn_act(learner, obs, action, per, i)
            return (learner, new, nxt), m
        return jax.lax.scan(step, carry, start + jnp.arange(length))
    chunk = jax.jit(chunk, static_argnums=2, donate_argnums=0)
    key, action = jax.jit(act)(learner, st.obs.reshape(1, 1, -1), 0)
    carry = (learner.replace(key=key), st, action)
    marks = []
    for k in range(0, total, CH):
        carry, _ = chunk(carry, k, CH)
        jax.block_until_ready(carry); marks.append((k + CH, time.perf_counter(), cpu()))
    return carry[0], marks

def packed_loop(total):
    """The host loop with the learner's small leaves (params, optimizer states, targets, counters, key, hyper) packed
    into one array per dtype and the replay buffer's six arrays apart: one call per step with ~17 buffers, not ~100."""
    venv, tr, learner, env_state = make()
    hs = HostSteps(tr, venv, 1); learner = hs.start(learner, env_state, 0)
    members = learner.key.shape[0]
    rest0 = learner.replace(buffer=learner.buffer.replace(data=None))
    leaves0, treedef = jax.tree.flatten(rest0)
    dtypes = sorted({str(x.dtype) for x in leaves0})
    groups = {d: [i for i, x in enumerate(leaves0) if str(x.dtype) == d] for d in dtypes}
    shapes = [x.shape for x in leaves0]

    def pack(rest):
        leaves = jax.tree.leaves(rest)
        return tuple(jnp.concatenate([leaves[i].reshape(members, -1) for i in groups[d]], axis=1) for d in dtypes)

    def unpack(packs):
        leaves = [None] * len(shapes)
        for d, flat in zip(dtypes, packs):
            at = 0
            for i in groups[d]:
                size = int(np.prod(shapes[i][1:], dtype=int))
                leaves[i] = flat[:, at:at + size].reshape(shapes[i]); at += size
        return jax.tree.unflatten(treedef, leaves)

    act = jax.jit(jax.vmap(tr.act, in_axes=(0, 0, None)))
    vla = jax.vmap(tr.learn_act, in_axes=(0, 0, 0, 0, None))

    def step(packs, data, obs, action, per, k):
        rest = unpack(packs)
        learner = rest.replace(buffer=rest.buffer.replace(data=data))
        learner, nxt, m = vla(learner, obs, action, per, k)
        return pack(learner.replace(buffer=learner.buffer.replace(data=None))), learner.buffer.data, nxt, m
    step = jax.jit(step, donate_argnums=(0, 1))
    data = learner.buffer.data
    packs = jax.jit(pack)(rest0)
    print("packed: arrays per call", len(packs) + len(jax.tree.leaves(data)), "instead of", len(jax.tree.leaves(learner)),
          flush=True)
    obs = env_state.obs.reshape(members, -1, venv.obs_dim)
    key, action = act(learner, obs, 0)
    packs = jax.jit(pack)(rest0.replace(key=key))
    marks = []
    for k in range(total):
        obs = env_state.obs.reshape(members, -1, venv.obs_dim)
        env_state = venv.step(env_state, np.asarray(action).reshape(venv.num_envs, -1))
        per = jax.tree.map(lambda x: x.reshape(members, -1, *x.shape[1:]), env_state)
        packs, data, action, _ = step(packs, data, obs, action, per, k)
        if k % CH == CH - 1:
            jax.block_until_ready(packs); marks.append((k + 1, time.perf_counter(), cpu()))
    rest = unpack(packs)
    return rest.replace(buffer=rest.buffer.replace(data=data)), marks

def ceiling(total):
    venv, tr, learner, env_state = make()
    st = jax.tree.map(jnp.asarray, env_state)
    learn_act = jax.vmap(tr.learn_act, in_axes=(0, 0, 0, 0, None))
    def chunk(carry, start, length):
        def step(carry, i):
            learner, action = carry
            obs = st.obs.reshape(1, 1, -1)
            per = jax.tree.map(lambda x: x.reshape(1, *x.shape), st)
            learner, nxt, m = learn_act(learner, obs, action, per, i)
            return (learner, nxt), m
        return jax.lax.scan(step, carry, start + jnp.arange(length))
    chunk = jax.jit(chunk, static_argnums=2, donate_argnums=0)
    carry = (learner, jnp.zeros((1, 1, venv.act_dim)))
    marks = []
    for k in range(0, total, CH):
        carry, _ = chunk(carry, k, CH)
        jax.block_until_ready(carry); marks.append((k + CH, time.perf_counter(), cpu()))
    return carry[0], marks

total = LS + N_LEARN
order = sys.argv[2].split(",") if len(sys.argv) > 2 else ["host", "scan", "host", "scan"]
res = {}
for name in order:
    t0 = time.perf_counter(); c0 = cpu()
    learner, marks = {"host": host_loop, "scan": scanned, "ceil": ceiling, "packed": packed_loop}[name](total)
    # steady: learning steps after the first learning chunk
    a = next(m for m in marks if m[0] >= LS + 2 * CH); b = marks[-1]
    rate = (b[0] - a[0]) / (b[1] - a[1]); crate = (b[0] - a[0]) / (b[2] - a[2])
    print(f"{name}: whole {time.perf_counter()-t0:.1f}s, steady {rate:.1f} steps/s wall, {crate:.1f} steps/cpu-s", flush=True)
    res.setdefault(name, []).append(jax.tree.leaves(learner.agent))
for other in ("scan", "packed"):
    if "host" in res and other in res:
        pairs = list(zip(res["host"][0], res[other][0]))
        same = all(np.array_equal(np.asarray(x), np.asarray(y)) for x, y in pairs)
        diff = max(float(np.max(np.abs(np.asarray(x) - np.asarray(y)))) for x, y in pairs)
        print(f"{other}: bit-identical agent to host's:", same, "max abs diff", diff)
