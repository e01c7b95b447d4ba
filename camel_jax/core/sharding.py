"""Spreading the training state over devices with JAX's own sharding: a ("seeds", "envs") Mesh and NamedSharding.

Every leaf of the state has the member (seed) axis first; on MJX the env states and the per-env masked flags
(`learner.masked`) have the env axis second. `--mesh seeds=S,envs=E` makes an S x E mesh of the first S*E devices
(of every process under jax.distributed) and places
  - every leaf's member axis along "seeds" (S must divide the number of members);
  - env-state leaves and `learner.masked` also along "envs", on their env axis (E must divide num_envs);
  - parameters, optimizer states, keys, hyperparameters and the replay buffer replicated over "envs".
The replay buffer is replicated over "envs", not cut along its capacity axis: a step writes its num_envs rows
contiguously at the ring pointer (env j at row ptr + j), so capacity blocks would put each step's rows on one device
and every uniform batch would need rows from all of them, a cross-device gather at every update. Replicated, a step
all-gathers its num_envs new rows (small), sampling stays local and each "envs" device runs the same TD3 update:
what `envs=E` spreads is the env stepping and acting. The compiled chunk keeps this placement (`jit_sharded`), so
buffer, env states and parameters stay on the devices that use them and nothing crosses to the host between
logging points. No --mesh (one device) is the unchanged default.
"""

from __future__ import annotations

import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec

AXES = ("seeds", "envs")
USAGE = "use --mesh seeds=S, envs=E or seeds=S,envs=E (S devices along the seed axis, E along the env axis)"


def parse_mesh(text: str) -> dict[str, int]:
    """`"seeds=2,envs=2"` -> {"seeds": 2, "envs": 2}; "" -> {} (one device)."""
    if not text:
        return {}
    out = {}
    for part in text.split(","):
        name, _, size = part.strip().partition("=")
        if name not in AXES or name in out or not size.isdigit() or int(size) < 1:
            raise ValueError(f"bad --mesh '{text}'; {USAGE}")
        out[name] = int(size)
    return out


def make_mesh(config, members: int) -> Mesh | None:
    """The config's device mesh (None: one device), after checking that the run splits over it. With several
    processes (jax.distributed) the mesh must use every device; no --mesh then means seeds = all devices."""
    spec = parse_mesh(config.mesh)
    processes, devices = jax.process_count(), jax.devices()
    if not spec and processes == 1:
        return None
    seeds, envs = (spec.get("seeds", 1), spec.get("envs", 1)) if spec else (len(devices), 1)
    config = config.resolved()  # backend "auto" -> the one the run will use
    if processes > 1 and config.backend != "mjx":
        raise ValueError("several processes need --backend mjx (the gymnasium envs step on one host)")
    if envs > 1 and config.backend != "mjx":
        raise ValueError(f"--mesh envs={envs} needs --backend mjx (the gymnasium envs step on the host)")
    if members % seeds:
        raise ValueError(f"{members} members (seeds x grid) do not split over seeds={seeds} devices; "
                         f"use a multiple of {seeds} seeds")
    if config.num_envs % envs:
        raise ValueError(f"--num-envs {config.num_envs} does not split over envs={envs} devices; "
                         f"use a multiple of {envs}")
    if seeds * envs > len(devices):
        raise ValueError(f"--mesh {config.mesh} asks for {seeds * envs} devices but JAX sees {len(devices)}; "
                         "lower the mesh or add devices")
    if processes > 1 and seeds * envs != len(devices):
        raise ValueError(f"{processes} processes: the mesh must use all {len(devices)} devices "
                         f"(--mesh seeds=S,envs=E with S*E = {len(devices)})")
    return Mesh(np.array(devices[:seeds * envs]).reshape(seeds, envs), AXES)


def state_shardings(tree, mesh: Mesh | None):
    """NamedSharding per leaf of a (members-leading) state or its `jax.eval_shape` (module docstring); None
    without a mesh."""
    if mesh is None:
        return None
    envs = mesh.shape["envs"]

    def one(path, leaf):
        names = [getattr(p, "name", None) for p in path]
        per_env = "env_state" in names or (names[-1] == "masked" and "buffer" not in names)
        if per_env and len(leaf.shape) >= 2 and leaf.shape[1] % envs == 0:
            return NamedSharding(mesh, PartitionSpec("seeds", "envs"))
        return NamedSharding(mesh, PartitionSpec("seeds"))

    return jax.tree_util.tree_map_with_path(one, tree)


def seed_sharding(mesh: Mesh | None) -> NamedSharding | None:
    """Leading (member) axis along "seeds", the rest replicated: per-member metrics, keys, hyperparameters."""
    return None if mesh is None else NamedSharding(mesh, PartitionSpec("seeds"))


def jit_sharded(fn, mesh: Mesh | None, out_shardings, **kw):
    """`jax.jit(fn, **kw)` whose outputs are placed as `out_shardings` on a mesh; without one, JAX's default (one
    device). A chunk's state comes back as it went in, so the next call neither moves data nor recompiles."""
    return jax.jit(fn, **kw) if mesh is None else jax.jit(fn, out_shardings=out_shardings, **kw)


def shard_seeds(tree, mesh: Mesh):
    """Place small host values (keys, hyperparameters) with their leading (member) axis along "seeds"."""
    seeds = jax.tree.leaves(tree)[0].shape[0]
    if seeds % mesh.shape["seeds"]:
        raise ValueError(f"{seeds} seeds do not split over {mesh.shape['seeds']} devices; "
                         f"use a multiple of {mesh.shape['seeds']} seeds")
    return jax.device_put(tree, seed_sharding(mesh))
