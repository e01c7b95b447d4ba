"""Issue #27 item 6 (an experiment, not part of the package): compile time of pieces of TD3's initial state.

    python wip/init_compile.py nets|buffer|normal|tnormal|uniform      (from the repository root, in .venv)
"""

import sys
import time

import jax
import jax.numpy as jnp

import camel_jax.algos.td3.update as upd
from camel_jax.algos.td3 import buffer as replay

which = sys.argv[1]
obs_dim, act_dim = 11, 3  # Hopper
keys = jnp.stack([jax.random.PRNGKey(s) for s in (0, 1)])  # two members
t0 = time.time()
if which == "nets":
    nets = upd.make_nets(act_dim, (256, 256), 3e-4, False)
    f = jax.jit(jax.vmap(lambda k: upd.init_agent(nets, k, obs_dim, act_dim)))
elif which == "buffer":
    f = jax.jit(jax.vmap(lambda k: replay.init(2000, obs_dim, act_dim)))
else:
    init = {"normal": jax.nn.initializers.normal(), "tnormal": jax.nn.initializers.lecun_normal(),
            "uniform": jax.nn.initializers.variance_scaling(1 / 3, "fan_in", "uniform")}[which]
    f = jax.jit(jax.vmap(lambda k: [init(jax.random.fold_in(k, i), (256, 256)) for i in range(12)]))
low = f.lower(keys)
t1 = time.time()
low.compile()
t2 = time.time()
print(which, f"lower {t1 - t0:.2f}s compile {t2 - t1:.2f}s, hlo lines {len(low.as_text().splitlines())}")
