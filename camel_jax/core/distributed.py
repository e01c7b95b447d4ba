"""Several processes (hosts) with jax.distributed: start-up, and the few points where processes must meet.

`initialize()` calls `jax.distributed.initialize` when JAX_COORDINATOR_ADDRESS (host:port of process 0) or
JAX_NUM_PROCESSES is set, passing JAX_NUM_PROCESSES and JAX_PROCESS_ID (JAX itself reads only the address); what
is unset is left to JAX's cluster detection (SLURM, Open MPI, Kubernetes, Cloud TPU). They are
environment variables, not Config fields, because the process id differs between processes and config.json (which a
resume reads) is one file for all of them. With none set there is one process and nothing happens.

Then `jax.devices()` lists the devices of every process, the mesh spans them all (camel_jax/core/sharding.py), each
process runs the same compiled chunk for the members on its devices, and orbax writes each process's shards of a
checkpoint. Logs: at each log step the per-member rows (a few numbers per member) are gathered and process 0 alone
writes metrics.csv, eval.csv and actor.msgpack, so a run directory reads the same whatever the process count. The
run directory must be on a filesystem that every process sees (orbax needs that for a checkpoint of several hosts).

Processes meet at a `barrier` (JAX's coordination service, long timeout) before each cross-process collective. A
process can be minutes ahead of another: on CPU only process 0 finds its programs in the persistent compilation
cache, and gloo, JAX's CPU collectives, gives up after 30 s of waiting for a peer that is still compiling.
"""

from __future__ import annotations

import os

import jax
import numpy as np
from jax.experimental import multihost_utils

_NAME_BYTES = 4096
BARRIER_TIMEOUT_S = 3600  # long enough for the slowest process to compile a chunk
_barriers = 0


def initialize(coordinator: str | None = None, num_processes: int | None = None, process_id: int | None = None):
    """Join the processes of a run (from the arguments, else the environment); a no-op for a single process."""
    coordinator = coordinator or os.environ.get("JAX_COORDINATOR_ADDRESS") or None
    num_processes = num_processes or _env_int("JAX_NUM_PROCESSES")
    process_id = process_id if process_id is not None else _env_int("JAX_PROCESS_ID")
    if jax.distributed.is_initialized() or (coordinator is None and num_processes is None):
        return
    jax.distributed.initialize(coordinator, num_processes, process_id)


def is_main() -> bool:
    """Process 0: the one that writes logs, CSVs and the final actor."""
    return jax.process_index() == 0


def barrier(name: str) -> None:
    """Wait until every process gets here (all must call it, in the same order); no-op for one process."""
    global _barriers
    if jax.process_count() == 1:
        return
    from orbax.checkpoint import multihost

    _barriers += 1
    multihost.get_barrier_sync_fn()(key=f"camel-jax:{name}:{_barriers}", timeout_ms=BARRIER_TIMEOUT_S * 1000)


def aligned(jitted, *args):
    """`jitted(*args)` for a program with cross-process collectives: compiled first, then a barrier, so that no
    process waits inside a collective while another is still compiling."""
    if jax.process_count() == 1:
        return jitted(*args)
    compiled = jitted.lower(*args).compile()
    barrier("aligned")
    return compiled(*args)


def to_host(tree):
    """Numpy copies of (sharded) arrays, gathered from every process when there are several (all must call it)."""
    if jax.process_count() == 1:
        return jax.device_get(tree)
    barrier("to_host")
    return multihost_utils.process_allgather(tree, tiled=True)


def gathered(fn):
    """`fn` with its outputs brought to the host by `to_host`."""
    return lambda *args: to_host(fn(*args))


def from_main(make) -> str:
    """`make()` (a string, e.g. the run directory it creates) run on process 0 only and shared with every process."""
    if jax.process_count() == 1:
        return make()
    text, error = "", None
    if is_main():
        try:
            text = make()
        except Exception as e:  # noqa: BLE001 - re-raised below, after the other processes were told
            error = e
    data = text.encode()
    if len(data) > _NAME_BYTES:
        raise ValueError(f"'{text[:80]}...' is longer than {_NAME_BYTES} bytes; use a shorter --out")
    raw = np.zeros(_NAME_BYTES, np.uint8)
    raw[:len(data)] = np.frombuffer(data, np.uint8)
    barrier("from_main")
    shared = bytes(np.asarray(multihost_utils.broadcast_one_to_all(raw), np.uint8)).rstrip(b"\0").decode()
    if error is not None:
        raise error
    if not shared:
        raise RuntimeError("process 0 failed to set up the run (its output says why)")
    return shared


def _env_int(name: str) -> int | None:
    value = os.environ.get(name, "")
    if not value:
        return None
    if not value.isdigit():
        raise ValueError(f"{name}={value!r} is not a number; set it to a non-negative integer")
    return int(value)
