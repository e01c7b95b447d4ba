"""Spreading the seed axis over devices with JAX's own sharding (a device Mesh and NamedSharding).

The trainer's state is vmapped over seeds (leading axis of every leaf). Placing that axis on a 1-D mesh named
"seeds" is all it takes: `jit(vmap(run_chunk))` then runs each device's seeds where their buffer, env states and
parameters live, and nothing crosses to the host between logging points. A single device is the unchanged default.
"""

from __future__ import annotations

import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec


def parse_mesh(text: str) -> dict[str, int]:
    """`"seeds=4"` -> {"seeds": 4}; "" -> {} (one device). Only the seed axis is supported so far."""
    if not text:
        return {}
    out = {}
    for part in text.split(","):
        name, _, size = part.partition("=")
        if name != "seeds" or not size.isdigit() or int(size) < 1:
            raise ValueError(f"bad --mesh '{text}'; use --mesh seeds=N (N devices for the seed axis)")
        out[name] = int(size)
    return out


def seed_mesh(devices: int) -> Mesh:
    available = jax.devices()
    if devices > len(available):
        raise ValueError(f"--mesh asks for {devices} devices but JAX sees {len(available)}; lower N or add devices")
    return Mesh(np.array(available[:devices]), ("seeds",))


def shard_seeds(tree, mesh: Mesh):
    """Place every leaf's leading (seed) axis across the mesh's "seeds" axis."""
    seeds = jax.tree.leaves(tree)[0].shape[0]
    if seeds % mesh.size:
        raise ValueError(f"{seeds} seeds do not split over {mesh.size} devices; use a multiple of {mesh.size} seeds")
    return jax.device_put(tree, NamedSharding(mesh, PartitionSpec("seeds")))
