"""The training state sharded over 4 CPU devices (XLA_FLAGS=--xla_force_host_platform_device_count=4), with the toy
env (it compiles in seconds; the MJX path over devices and processes is tests/test_distributed.py).

- `--mesh seeds=4`, `seeds=2,envs=2` and `envs=4` give each of 4 seeds the result of the unsharded run: the random
  phase (actions, env states, replay buffer) bit for bit; after 18 updates parameters and optimizer states agree to
  |a - b| <= 1e-5 + 1e-4 |a| (a device computing a batch of 1 or 2 seeds may sum its matmuls in another order than
  one computing all 4). Env-state leaves and `learner.masked` come back cut along "envs", the rest along "seeds".
- A checkpoint saved from the `seeds=2,envs=2` state restores straight into those shardings (the targets passed to
  orbax) and continues to exactly (tolerance 0) the state of the uninterrupted sharded run; its checksum is the same
  whether the state is sharded or on one device.
"""

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from camel_jax.algos.td3.config import Config
from camel_jax.core.sharding import make_mesh, parse_mesh

SCRIPT = textwrap.dedent("""
    import json, sys, tempfile
    import jax, jax.numpy as jnp, numpy as np
    sys.path.insert(0, "tests")
    from toy_env import PointGoal
    from camel_jax.core.checkpoint import Checkpoints, _checksum
    from camel_jax.algos.td3.config import Config
    from camel_jax.envs.autoreset import AutoResetVecEnv
    from camel_jax.core.sharding import jit_sharded, make_mesh, seed_sharding, shard_seeds, state_shardings
    from camel_jax.algos.td3.trainer import make_train

    config = Config(seeds=(0, 1, 2, 3), total_steps=8 * 60, learning_starts=8 * 50, num_envs=8, updates_per_step=2,
                    batch_size=64, hidden=(32, 32), eval_episodes=0)
    tr = make_train(config, AutoResetVecEnv(PointGoal(), 8), None, flat_envs=False)  # as loop.py on a mesh
    keys = jnp.stack([jax.random.PRNGKey(s) for s in config.seeds])
    hyper = config.member_hypers()
    init, run = jax.vmap(tr.init), tr.run_chunk
    template = jax.eval_shape(init, keys, hyper)

    def train(mesh):  # as loop.train places and compiles it: two chunks of 30 iterations
        shardings = state_shardings(template, mesh)
        chunk = jit_sharded(run, mesh, (shardings, seed_sharding(mesh)), static_argnums=2)
        k, h = shard_seeds((keys, hyper), mesh) if mesh is not None else (keys, hyper)
        half, _ = chunk(jit_sharded(init, mesh, shardings)(k, h), 0, 30)
        return half, chunk(half, 30, 30), chunk, shardings

    def scaled_err(a, b):
        return max(float(np.max(np.abs(np.asarray(x) - np.asarray(y)) / (1e-5 + 1e-4 * np.abs(np.asarray(x)))))
                   for x, y in zip(jax.tree.leaves(a), jax.tree.leaves(b)))

    def equal(a, b):
        return all(np.array_equal(np.asarray(x), np.asarray(y)) for x, y in zip(jax.tree.leaves(a), jax.tree.leaves(b)))

    _, (plain, plain_row), _, _ = train(None)
    out = {"devices": len(jax.devices())}
    for text in ("seeds=4", "seeds=2,envs=2", "envs=4"):
        mesh = make_mesh(Config(**{**config.__dict__, "mesh": text}), 4)
        half, (state, row), chunk, shardings = train(mesh)
        placed = jax.tree.leaves(jax.tree.map(lambda x, s: x.sharding == s, state, shardings))
        obs, masked = state.env_state.obs, state.learner.masked
        kernel = state.learner.agent.actor["params"]["MLP_0"]["Dense_0"]["kernel"]
        buf_a, buf_b = np.asarray(plain.learner.buffer.data.obs), np.asarray(state.learner.buffer.data.obs)
        out[text] = {
            "mesh": dict(mesh.shape), "all_placed": all(placed),
            "obs_spec": list(obs.sharding.spec), "obs_shard": list(obs.addressable_shards[0].data.shape),
            "masked_shard": list(masked.addressable_shards[0].data.shape),
            "kernel_spec": list(kernel.sharding.spec), "kernel_shard": list(kernel.addressable_shards[0].data.shape),
            "random_phase_equal": bool(np.array_equal(buf_a[:, :8 * 50], buf_b[:, :8 * 50])),
            "agent_scaled_err": scaled_err(plain.learner.agent, state.learner.agent),
            "env_state_scaled_err": scaled_err(plain.env_state, state.env_state),
            "metrics_scaled_err": scaled_err({k: v for k, v in plain_row.items() if "loss" not in k and k != "q1"},
                                             {k: v for k, v in row.items() if "loss" not in k and k != "q1"}),
        }
        if text == "seeds=2,envs=2":  # save after the first chunk, restore sharded, continue
            ckpt = Checkpoints(tempfile.mkdtemp(), keep=2)
            ckpt.save(30, 30 * 8, half, 1.0)
            ckpt.close()
            restored, meta = Checkpoints(ckpt.dir.parent, keep=2).restore(template, shardings)
            restored_placed = jax.tree.leaves(jax.tree.map(lambda x, s: x.sharding == s, restored, shardings))
            continued, _ = chunk(restored, 30, 30)
            named = lambda tree: {f"{k:04d}": x for k, x in enumerate(jax.tree.leaves(tree))}
            one_device = jax.device_put(half, jax.devices()[0])
            out["checkpoint"] = {"iteration": meta["iteration"], "restored_placed": all(restored_placed),
                                 "restored_equal": equal(half, restored), "continued_equal": equal(state, continued),
                                 "checksum_mesh_independent": _checksum(named(half)) == _checksum(named(one_device))}
    print(json.dumps(out))
""")


@pytest.fixture(scope="module")
def sharded():
    env = {**os.environ, "XLA_FLAGS": os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=4", "JAX_PLATFORMS": "cpu"}
    r = subprocess.run([sys.executable, "-c", SCRIPT], cwd=Path(__file__).resolve().parents[1], env=env,
                       capture_output=True, text=True, timeout=900, check=False)
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["devices"] == 4
    return out


@pytest.mark.parametrize("mesh, seeds_per_device, envs_per_device", [
    ("seeds=4", 1, 8), ("seeds=2,envs=2", 2, 4), ("envs=4", 4, 2)])
def test_four_seeds_sharded_over_four_cpu_devices_match_unsharded(sharded, mesh, seeds_per_device, envs_per_device):
    out = sharded[mesh]
    assert out["all_placed"], out  # every leaf comes back from the chunk where it went in
    assert out["obs_spec"] == ["seeds", "envs"] and out["obs_shard"][:2] == [seeds_per_device, envs_per_device]
    assert out["masked_shard"] == [seeds_per_device, envs_per_device]
    assert out["kernel_spec"] == ["seeds"] and out["kernel_shard"][0] == seeds_per_device  # replicated over envs
    assert out["random_phase_equal"]
    for key in ("agent_scaled_err", "env_state_scaled_err", "metrics_scaled_err"):
        assert out[key] <= 1.0, (key, out)  # |a - b| <= 1e-5 + 1e-4 |a| on every leaf


def test_sharded_checkpoint_restores_sharded_and_continues_exactly(sharded):
    out = sharded["checkpoint"]
    assert out == {"iteration": 30, "restored_placed": True, "restored_equal": True, "continued_equal": True,
                   "checksum_mesh_independent": True}


def test_parse_mesh():
    assert parse_mesh("") == {} and parse_mesh("seeds=4") == {"seeds": 4}
    assert parse_mesh("seeds=2,envs=2") == {"seeds": 2, "envs": 2} and parse_mesh("envs=4") == {"envs": 4}
    for bad in ("gpus=2", "seeds=x", "seeds=0", "seeds=2,seeds=2"):
        with pytest.raises(ValueError, match="use --mesh seeds=S, envs=E or seeds=S,envs=E"):
            parse_mesh(bad)


@pytest.mark.parametrize("settings, message", [
    ({"num_envs": 6, "mesh": "envs=4"}, "--num-envs 6 does not split over envs=4 devices; use a multiple of 4"),
    ({"seeds": (0, 1, 2), "mesh": "seeds=2"}, "3 members (seeds x grid) do not split over seeds=2 devices"),
    ({"backend": "gymnasium", "num_envs": 2, "mesh": "envs=2"}, "--mesh envs=2 needs --backend mjx"),
    ({"seeds": tuple(range(64)), "mesh": "seeds=64"}, "asks for 64 devices but JAX sees"),
])
def test_a_mesh_that_does_not_fit_is_a_one_line_error(settings, message):
    config = Config(**settings)
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")) as e:
        make_mesh(config, len(config.members()))
    assert "\n" not in str(e.value)


PPO_TINY = ["--algo", "ppo", "--env", "hopper", "--backend", "gymnasium", "--seeds", "0,1", "--num-envs", "2",
            "--num-steps", "32", "--num-minibatches", "4", "--update-epochs", "2", "--total-steps", "128",
            "--log-every", "64", "--eval-every", "128", "--eval-episodes", "1", "--hidden", "16,16", "--quiet"]


def test_ppo_seeds_sharded_over_two_devices_match_one_device(tmp_path):
    """PPO runs in the shell's loop (camel_jax/core/driver.py), so `--mesh` places its members over devices as
    TD3's: two seeds over two CPU devices give each seed's one-device rows (|a - b| <= 1e-5 + 1e-4 |a|: a device
    computing one seed may sum its matmuls in another order than one computing both)."""
    import csv
    import math

    env = {**os.environ, "XLA_FLAGS": os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=2",
           "JAX_PLATFORMS": "cpu"}
    rows = {}
    for name, mesh in (("one", []), ("mesh", ["--mesh", "seeds=2"])):
        r = subprocess.run([sys.executable, "-m", "camel_jax.cli", "train", *PPO_TINY, *mesh, "--out",
                            str(tmp_path / name)], cwd=Path(__file__).resolve().parents[1], env=env,
                           capture_output=True, text=True, timeout=900, check=False)
        assert r.returncode == 0, r.stderr[-3000:]
        for csv_name in ("metrics.csv", "eval.csv"):
            with open(tmp_path / name / csv_name) as f:
                rows[name, csv_name] = list(csv.DictReader(f))
    config = json.loads((tmp_path / "mesh" / "config.json").read_text())
    assert config["mesh"] == "seeds=2" and config["algo"] == "ppo"
    for csv_name, columns in (("metrics.csv", ("episode_return", "pg_loss", "v_loss", "approx_kl")),
                              ("eval.csv", ("return_unmasked",))):
        one, mesh = rows["one", csv_name], rows["mesh", csv_name]
        assert len(one) == len(mesh) >= 2
        for a, b in zip(one, mesh):
            assert (a["step"], a["seed"]) == (b["step"], b["seed"])
            for c in columns:
                x, y = float(a[c]), float(b[c])
                assert abs(x - y) <= 1e-5 + 1e-4 * abs(x) or (math.isnan(x) and math.isnan(y)), (csv_name, c, a, b)
