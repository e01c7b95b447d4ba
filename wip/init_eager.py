"""Issue #27 item 6 (an experiment, not part of the package): TD3's agent init op by op, jitted, and jitted at
XLA optimisation level 0; prints the times and whether the weights are bit for bit.   python wip/init_eager.py
"""

import time

import jax
import jax.numpy as jnp
import numpy as np

import camel_jax.algos.td3.update as upd

obs_dim, act_dim = 11, 3  # Hopper
nets = upd.make_nets(act_dim, (256, 256), 3e-4, False)
keys = jnp.stack([jax.random.PRNGKey(s) for s in (0, 1)])


def f(k):
    return upd.init_agent(nets, k, obs_dim, act_dim)


def same(x, y):
    return all(np.array_equal(np.asarray(p), np.asarray(q)) for p, q in zip(jax.tree.leaves(x), jax.tree.leaves(y)))


t0 = time.time()
a = jax.block_until_ready(jax.vmap(f)(keys))
t1 = time.time()
jax.block_until_ready(jax.vmap(f)(keys))
t2 = time.time()
c = jax.jit(jax.vmap(f))(keys)
t3 = time.time()
d = jax.jit(jax.vmap(f)).lower(keys).compile(compiler_options={"xla_backend_optimization_level": 0})(keys)
t4 = time.time()
print(f"eager first {t1 - t0:.2f}s again {t2 - t1:.2f}s; jit {t3 - t2:.2f}s; jit O0 {t4 - t3:.2f}s; "
      f"eager==jit {same(a, c)}; O0==jit {same(c, d)}")
