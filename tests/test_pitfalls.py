"""GPU pitfalls ruled out on CPU, from the compiled trainer's jaxpr and HLO (on the toy env: fast compiles).

1. `lax.cond` under the member vmap: with a per-member (batched) predicate vmap turns a cond into a select of both
   branches, so every member would run the TD3 updates at every step. The trainer passes the iteration index
   unbatched, so the learning-starts and policy-delay conds stay conditionals in `run_chunk` (and the same check
   on a trainer vmapped with a batched index finds none: the check can tell).
2. The replay buffer is updated in place: `run_chunk` jitted with the state donated (as loop.py jits it) aliases each
   buffer input to its output, and the compiled program holds no copy of a whole buffer.
3. The autoreset's "any env done?" branch: on the flat env batch of `run_chunk` it is a real conditional (resets are
   computed only at steps where some env ended); under a vmap over members it would be a select that computes a
   reset for every env at every step (why `run_chunk` steps all members' envs as one flat batch).
Buffer bytes per member (GPU memory planning): tests/test_preset.py and camel_jax/algos/td3/memory.py.
"""

import re

import jax
import jax.numpy as jnp
import pytest
from toy_env import PointGoal

from camel_jax.algos.td3.config import Config
from camel_jax.algos.td3.trainer import make_train
from camel_jax.envs.autoreset import AutoResetVecEnv

MEMBERS, N, CAPACITY = 2, 4, 512


@pytest.fixture(scope="module")
def setup():
    config = Config(num_envs=N, total_steps=4096, learning_starts=64, batch_size=32, hidden=(16, 16),
                    buffer_size=CAPACITY, seeds=tuple(range(MEMBERS)), eval_episodes=0)
    env = AutoResetVecEnv(PointGoal(), N)
    tr = make_train(config, env, None)
    keys = jnp.stack([jax.random.PRNGKey(s) for s in config.seeds])
    state = jax.jit(jax.vmap(tr.init))(keys, config.member_hypers())
    return config, env, tr, state


def _eqns(jaxpr):
    """Every equation of a jaxpr, nested ones (scan/cond/while bodies, pjit calls) included."""
    for eqn in jaxpr.eqns:
        yield eqn
        for value in eqn.params.values():
            for sub in value if isinstance(value, (tuple, list)) else (value,):
                sub = getattr(sub, "jaxpr", sub)
                if hasattr(sub, "eqns"):
                    yield from _eqns(sub)


def _prims(jaxpr) -> set[str]:
    return {e.primitive.name for e in _eqns(jaxpr)}


def _update_conds(jaxpr) -> list:
    """cond equations with one branch that does network math (dot_general) and one that does none."""
    out = []
    for e in _eqns(jaxpr):
        if e.primitive.name == "cond":
            math = ["dot_general" in _prims(b.jaxpr) for b in e.params["branches"]]
            if any(math) and not all(math):
                out.append(e)
    return out


def test_member_vmap_keeps_update_branches_real_conditionals(setup):
    _, _, tr, state = setup
    jaxpr = jax.make_jaxpr(tr.run_chunk, static_argnums=2)(state, 0, 2).jaxpr
    # learning starts (updates or none) and the policy delay (actor step or none): both stay conds
    assert len(_update_conds(jaxpr)) >= 2
    # the contrast: the same learn vmapped with a per-member iteration index loses them to selects
    obs = state.env_state.obs
    action = jnp.zeros(obs.shape[:-1] + (2,))
    batched_i = jax.make_jaxpr(jax.vmap(tr.learn))(state.learner, obs, action, state.env_state,
                                                   jnp.zeros((MEMBERS,), jnp.int32)).jaxpr
    assert _update_conds(batched_i) == [] and "select_n" in _prims(batched_i)


def _reset_conds(jaxpr) -> list:
    """cond equations with one branch that draws random numbers (an env reset) and one that does not."""
    out = []
    for e in _eqns(jaxpr):
        if e.primitive.name == "cond":
            rand = ["random_bits" in _prims(b.jaxpr) or "threefry2x32" in _prims(b.jaxpr)
                    for b in e.params["branches"]]
            if any(rand) and not all(rand):
                out.append(e)
    return out


def test_autoreset_branch_is_a_conditional_on_the_flat_env_batch_only(setup):
    _, env, tr, state = setup
    jaxpr = jax.make_jaxpr(tr.run_chunk, static_argnums=2)(state, 0, 2).jaxpr
    assert _reset_conds(jaxpr), "run_chunk should reset envs inside a real conditional"
    one = jax.tree.map(lambda x: x[0], state.env_state)
    action = jnp.zeros((N, 2))
    assert _reset_conds(jax.make_jaxpr(env.step)(one, action).jaxpr)
    # under a vmap over members (what flat_envs=True avoids) the branch becomes a select: resets at every step
    vmapped = jax.make_jaxpr(jax.vmap(env.step))(state.env_state, jnp.zeros((MEMBERS, N, 2))).jaxpr
    assert _reset_conds(vmapped) == []


def test_donated_chunk_updates_the_replay_buffer_in_place(setup):
    _, _, tr, state = setup
    compiled = jax.jit(tr.run_chunk, static_argnums=2, donate_argnums=0).lower(state, 0, 2).compile()
    hlo = compiled.as_text()
    leaves = jax.tree.leaves(state)
    buffer_ids = {id(x) for x in jax.tree.leaves(state.learner.buffer.data)}
    buffer_params = [k for k, x in enumerate(leaves) if id(x) in buffer_ids]
    header = hlo.split("\n", 1)[0]
    aliased = {int(p) for p in re.findall(r"\(\s*(\d+)\s*,\s*\{\}\s*,\s*(?:may|must)-alias\)", header)}
    assert buffer_params and set(buffer_params) <= aliased, (buffer_params, header[:500])
    # no instruction copies a whole buffer field (f32[MEMBERS, CAPACITY, ...])
    whole = re.compile(rf"f32\[{MEMBERS},{CAPACITY}(,\d+)?\]\{{[^}}]*\}} copy\(")
    assert not whole.search(hlo), whole.search(hlo).group(0)
    # the contrast: without donation nothing is aliased and every buffer field is copied whole once per call
    plain = jax.jit(tr.run_chunk, static_argnums=2).lower(state, 0, 2).compile().as_text()
    assert "alias" not in plain.split("\n", 1)[0]
    assert len(whole.findall(plain)) == len(buffer_params)
