"""Seeds sharded over 4 CPU devices (XLA_FLAGS=--xla_force_host_platform_device_count=4) give each seed the result
of the unsharded run: bit for bit through the random phase; after 20 updates parameters agree to rtol 1e-4 /
atol 1e-5 (each device runs a batch of one seed, whose matmuls may sum in another order than a batch of four)."""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from camel_jax.sharding import parse_mesh

SCRIPT = textwrap.dedent("""
    import json, sys
    import jax, jax.numpy as jnp, numpy as np
    sys.path.insert(0, "tests")
    from toy_env import PointGoal
    from camel_jax.config import Config
    from camel_jax.envs.autoreset import AutoResetVecEnv
    from camel_jax.sharding import seed_mesh, shard_seeds
    from camel_jax.trainer import make_train

    config = Config(total_steps=8 * 60, learning_starts=8 * 50, num_envs=8, updates_per_step=2, batch_size=64,
                    hidden=(32, 32), eval_episodes=0)
    tr = make_train(config, AutoResetVecEnv(PointGoal(), 8), None)
    keys = jnp.stack([jax.random.PRNGKey(s) for s in range(4)])
    hyper = jax.tree.map(lambda x: jnp.broadcast_to(x, (4,)), config.hyper())
    run = jax.jit(jax.vmap(tr.run_chunk, in_axes=(0, None, None)), static_argnums=2)
    plain = run(jax.jit(jax.vmap(tr.init))(keys, hyper), 0, 60)[0]
    mesh = seed_mesh(4)
    sharded_init = shard_seeds(jax.jit(jax.vmap(tr.init))(keys, hyper), mesh)
    sharded = run(sharded_init, 0, 60)[0]
    kernel = sharded.learner.agent.actor["params"]["MLP_0"]["Dense_0"]["kernel"]
    devices_per_seed = [len(s.data.devices()) for s in kernel.addressable_shards]
    buf_a, buf_b = np.asarray(plain.learner.buffer.data.obs), np.asarray(sharded.learner.buffer.data.obs)
    diffs = [float(np.max(np.abs(np.asarray(a) - np.asarray(b)) / (1e-5 + 1e-4 * np.abs(np.asarray(a)))))
             for a, b in zip(jax.tree.leaves(plain.learner.agent), jax.tree.leaves(sharded.learner.agent))]
    print(json.dumps({"devices": len(jax.devices()), "shards": len(kernel.addressable_shards),
                      "shard_shape": list(kernel.addressable_shards[0].data.shape),
                      "random_phase_equal": bool(np.array_equal(buf_a[:, :8 * 50], buf_b[:, :8 * 50])),
                      "param_scaled_err": max(diffs)}))
""")


def test_four_seeds_sharded_over_four_cpu_devices_match_unsharded():
    env = {**os.environ, "XLA_FLAGS": "--xla_force_host_platform_device_count=4", "JAX_PLATFORMS": "cpu"}
    r = subprocess.run([sys.executable, "-c", SCRIPT], cwd=Path(__file__).resolve().parents[1], env=env,
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["devices"] == 4 and out["shards"] == 4 and out["shard_shape"][0] == 1  # one seed per device
    assert out["random_phase_equal"]
    assert out["param_scaled_err"] <= 1.0, out  # |a - b| <= 1e-5 + 1e-4 |a| on every parameter and optimizer leaf


def test_parse_mesh():
    assert parse_mesh("") == {} and parse_mesh("seeds=4") == {"seeds": 4}
    for bad in ("envs=2", "seeds=x", "seeds=0"):
        try:
            parse_mesh(bad)
        except ValueError as e:
            assert "--mesh seeds=N" in str(e)
        else:
            raise AssertionError(bad)
