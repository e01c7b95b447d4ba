"""Checkpoints of the complete training state with orbax: RUN_DIR/checkpoints/<env step>/.

What is saved is the pytree the loop trains: on MJX the seed-vmapped `TrainState` (actor, critics, targets, both
optimizer states, RNG keys, masked flags, hyperparameters, replay buffer, and the MJX env states with their RNGs),
on gymnasium the seed-vmapped `Learner` (everything but the C MuJoCo envs). Beside it a small JSON record: the
iteration (the epsilon schedule position follows from it), env step, wall time, a checksum of the saved bytes and a
fingerprint of the tree's structure.

- Atomic: orbax writes into `<step>.orbax-checkpoint-tmp-*` and renames when complete, so a process killed during a
  save leaves no directory under a final name (leftover tmp directories are removed at the next start).
- The last `keep_checkpoints` are kept. Saves are asynchronous: the arrays are copied to the host first, so the next
  compiled chunk (which donates the state) runs while the files are written.
- Leaves that orbax cannot store (zero-size arrays) and, with `--no-buffer-in-checkpoint`, the replay buffer are not
  written; at restore they are zeros, i.e. an empty buffer (`buffer.init` is all zeros).
- Restore compares the checksum and the structure fingerprint, so a corrupt, truncated or foreign checkpoint is a
  one-line `CheckpointError` naming the directory and the fix. The checksum hashes per-leaf digests computed on the
  devices (integer sums, so they do not depend on the mesh or the process count).
- `load_leading(run_dir, step, part)` reads the first fields of any kept checkpoint's state, and nothing else (an
  algorithm's policy for `camel-jax eval --step`, without its replay buffer or envs); `kept_steps` lists them.
- Sharded state (camel_jax/core/sharding.py): restore takes the target shardings and orbax reads each array straight
  into its shards. Over several processes (jax.distributed) each process hands orbax its own shards (copied on its
  devices instead of to the host) and orbax writes them cooperatively into one checkpoint.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

from camel_jax.core import distributed

FORMAT = 2  # 1: host checksum of the saved bytes (still read in a single process)


class CheckpointError(RuntimeError):
    """A checkpoint that cannot be restored (one-line message naming it and the fix)."""


def directory(run_dir: str | Path) -> Path:
    return Path(run_dir).resolve() / "checkpoints"


class Checkpoints:
    """The run's checkpoint directory: `save(iteration, step, state)` and `restore(template)`."""

    def __init__(self, run_dir: str | Path, keep: int, buffer: bool = True):
        import orbax.checkpoint as ocp

        self._ocp = ocp
        self.dir = directory(run_dir)
        self.buffer = buffer
        options = ocp.CheckpointManagerOptions(max_to_keep=keep, create=True, cleanup_tmp_directories=True)
        try:
            with _quiet():
                self.manager = ocp.CheckpointManager(self.dir, options=options, item_names=("state", "meta"))
        except Exception as e:  # noqa: BLE001 - unreadable metadata of some step directory
            raise CheckpointError(f"cannot read checkpoints in {self.dir} ({_first_line(e)}); delete the broken "
                                  "step directory to resume from the previous checkpoint") from None

    def save(self, iteration: int, step: int, state, wall_s: float, extra: dict | None = None) -> None:
        """`extra`: small JSON facts about the state kept in the checkpoint's metadata (latest_meta reads them back
        before a restore, e.g. TD3's replay capacity, which sizes the state's template)."""
        leaves, _ = jax.tree_util.tree_flatten_with_path(state)
        stored = [k for k, (path, leaf) in enumerate(leaves) if self._stored(path, leaf)]
        arrays = {f"{k:04d}": leaves[k][1] for k in stored}
        # Own copies: on CPU a device_get may be a view of a buffer that the next chunk donates. On the host when
        # this process holds whole arrays; else (several processes) its shards, copied on its devices.
        if all(getattr(x, "is_fully_addressable", True) for x in arrays.values()):
            owned = {name: np.array(x, copy=True) for name, x in arrays.items()}
        else:
            owned = dict(zip(arrays, _copy(list(arrays.values()))))
        meta = {"format": FORMAT, "iteration": int(iteration), "step": int(step), "wall_s": float(wall_s),
                "buffer": self.buffer, "stored": stored, "structure": _fingerprint(leaves),
                "checksum": _checksum(arrays), **(extra or {})}
        ocp = self._ocp
        self.manager.save(step, args=ocp.args.Composite(state=ocp.args.StandardSave(owned),
                                                        meta=ocp.args.JsonSave(meta)))

    def latest_step(self) -> int | None:
        return self.manager.latest_step()

    def latest_meta(self) -> dict:
        """The latest checkpoint's metadata record ({} without a checkpoint or a readable record)."""
        step = self.manager.latest_step()
        if step is None:
            return {}
        try:
            with _quiet():
                meta = self.manager.restore(step, args=self._ocp.args.Composite(meta=self._ocp.args.JsonRestore())).meta
        except Exception:  # noqa: BLE001 - restore() says what is wrong with it
            return {}
        return meta if isinstance(meta, dict) else {}

    def restore(self, template, shardings=None):
        """(state, meta) of the latest checkpoint, or None when there is none. `template`: the state's pytree of
        `jax.ShapeDtypeStruct` (e.g. from `jax.eval_shape` of the init); `shardings`: the same pytree of
        `NamedSharding` (sharding.state_shardings) to restore straight onto the mesh, None for the default device."""
        step = self.manager.latest_step()
        if step is None:
            return None
        where = self.dir / str(step)
        fix = f"delete {where} and resume again " + (
            "to continue from the previous checkpoint" if len(self.manager.all_steps()) > 1 else "to start over")
        leaves, treedef = jax.tree_util.tree_flatten_with_path(template)
        targets = [None] * len(leaves) if shardings is None else jax.tree.leaves(shardings)
        try:
            with _quiet():
                meta, arrays = self._read(step, leaves, targets)
        except CheckpointError as e:
            raise CheckpointError(f"checkpoint {where} {e}") from None
        except Exception as e:  # noqa: BLE001 - whatever orbax or tensorstore raise on damaged files
            raise CheckpointError(f"checkpoint {where} is corrupt or incomplete ({_first_line(e)}); {fix}") from None
        out = [arrays[f"{k:04d}"] if f"{k:04d}" in arrays else _zeros(leaf, target)
               for k, ((_, leaf), target) in enumerate(zip(leaves, targets))]
        return jax.tree_util.tree_unflatten(treedef, out), meta

    def _read(self, step: int, leaves, targets):
        ocp = self._ocp
        meta = self.manager.restore(step, args=ocp.args.Composite(meta=ocp.args.JsonRestore())).meta
        if not isinstance(meta, dict) or meta.get("format") not in (1, FORMAT):
            raise ValueError("no valid metadata record")
        if meta["format"] == 1 and jax.process_count() > 1:
            raise CheckpointError("was written by an older camel-jax; resume it once in a single process")
        if meta["structure"] != _fingerprint(leaves):
            raise CheckpointError("does not match this run's training state (written by another camel-jax version "
                                  "or config); start the run again with camel-jax train --overwrite")
        one = jax.sharding.SingleDeviceSharding(jax.local_devices()[0])  # no mesh: whatever mesh wrote it
        abstract = {f"{k:04d}": jax.ShapeDtypeStruct(leaves[k][1].shape, leaves[k][1].dtype,
                                                     sharding=one if targets[k] is None else targets[k])
                    for k in meta["stored"]}
        restored = self.manager.restore(step, args=ocp.args.Composite(state=ocp.args.StandardRestore(abstract))).state
        arrays = {name: x if targets[int(name)] is not None else _uncommitted(x) for name, x in restored.items()}
        checksum = _host_checksum(restored) if meta["format"] == 1 else _checksum(arrays)
        if checksum != meta["checksum"]:
            raise ValueError("checksum mismatch")
        return meta, arrays

    def close(self) -> None:
        """Wait for the last asynchronous save to be complete on disk."""
        self.manager.wait_until_finished()
        self.manager.close()

    def _stored(self, path, leaf) -> bool:
        if np.size(leaf) == 0:
            return False  # orbax cannot store zero-size arrays; they are restored as empty arrays
        in_buffer = any(getattr(p, "name", None) == "buffer" for p in path)
        return self.buffer or not in_buffer


def kept_steps(run_dir: str | Path) -> list[int]:
    """The env steps of the run's kept checkpoints, oldest first ([] without any). A save still being written is a
    `<step>.orbax-checkpoint-tmp-*` directory, not listed."""
    where = directory(run_dir)
    return sorted(int(p.name) for p in where.iterdir() if p.is_dir() and p.name.isdigit()) if where.is_dir() else []


def load_leading(run_dir: str | Path, step: int, part):
    """(part with arrays, metadata record) of the run's checkpoint at env step `step`, read only as far as `part`: a
    pytree of `jax.ShapeDtypeStruct` whose leaves are the saved state's first leaves, in order (the fields a state
    starts with: a learner whose first field is the policy; on MJX the state's first field is the learner). Only
    those arrays are read (not the replay buffer, not the envs), whole into this process, whatever mesh wrote them.
    Each must be stored with `part`'s shape and dtype, else a one-line CheckpointError; the checksum covers the
    whole state, so it is not checked here (damaged files still fail to read)."""
    import orbax.checkpoint as ocp

    where = directory(run_dir) / str(step)
    leaves, treedef = jax.tree_util.tree_flatten(part)
    names = [f"{k:04d}" for k in range(len(leaves))]
    one = jax.sharding.SingleDeviceSharding(jax.local_devices()[0])
    handlers = {"state": ocp.PyTreeCheckpointHandler(), "meta": ocp.JsonCheckpointHandler()}
    try:
        with _quiet(), ocp.CheckpointManager(directory(run_dir), item_handlers=handlers,
                                             options=ocp.CheckpointManagerOptions(create=False)) as manager:
            meta = manager.restore(step, args=ocp.args.Composite(meta=ocp.args.JsonRestore())).meta
            if not isinstance(meta, dict) or meta.get("format") not in (1, FORMAT):
                raise ValueError("no valid metadata record")
            on_disk = manager.item_metadata(step)["state"]
            wanted = {name: leaf for name, leaf in zip(names, leaves) if int(name) in meta["stored"]}
            for name, leaf in wanted.items():
                found = on_disk.get(name)
                if found is None or (tuple(found.shape), np.dtype(found.dtype)) != (tuple(leaf.shape),
                                                                                   np.dtype(leaf.dtype)):
                    raise CheckpointError("does not match this run's policy (written by another camel-jax version "
                                          "or config)")
            abstract = {name: jax.ShapeDtypeStruct(leaf.shape, leaf.dtype, sharding=one)
                        for name, leaf in wanted.items()}
            restore_args = {name: ocp.ArrayRestoreArgs(sharding=one) for name in abstract}
            arrays = dict(manager.restore(step, args=ocp.args.Composite(state=ocp.args.PyTreeRestore(
                abstract, restore_args=restore_args, partial_restore=True))).state) if abstract else {}
    except CheckpointError as e:
        raise CheckpointError(f"checkpoint {where} {e}") from None
    except Exception as e:  # noqa: BLE001 - whatever orbax or tensorstore raise on damaged files
        raise CheckpointError(f"checkpoint {where} is corrupt or incomplete ({_first_line(e)}); pick another "
                              "--step") from None
    out = [_uncommitted(arrays[name]) if name in arrays else jnp.zeros(leaf.shape, leaf.dtype)
           for name, leaf in zip(names, leaves)]
    return jax.tree_util.tree_unflatten(treedef, out), meta


def load(run_dir: str | Path, step: int | None = None) -> tuple[dict, dict]:
    """The stored leaves ({index: array}) and the metadata record of a checkpoint (latest by default), without
    a template, read whole into this process whatever mesh wrote it: for inspection and tests."""
    import orbax.checkpoint as ocp

    handlers = {"state": ocp.StandardCheckpointHandler(), "meta": ocp.JsonCheckpointHandler()}
    with ocp.CheckpointManager(directory(run_dir), item_handlers=handlers,
                               options=ocp.CheckpointManagerOptions(create=False)) as manager:
        step = manager.latest_step() if step is None else step
        one = jax.sharding.SingleDeviceSharding(jax.local_devices()[0])
        abstract = {name: jax.ShapeDtypeStruct(m.shape, m.dtype, sharding=one)
                    for name, m in manager.item_metadata(step)["state"].items()}
        restored = manager.restore(step, args=ocp.args.Composite(state=ocp.args.StandardRestore(abstract),
                                                                 meta=ocp.args.JsonRestore()))
    return {int(k): np.asarray(v) for k, v in restored.state.items()}, restored.meta


def _uncommitted(x) -> jax.Array:
    """A restored array (orbax places it on one device: committed) as a fresh run's state holds it, uncommitted. A
    committed array lowers to another program (sharding annotations), so a resumed run, or an evaluation of a kept
    checkpoint, would compile its programs again instead of loading the fresh run's from the compilation cache."""
    return jnp.array(np.asarray(x))


@contextlib.contextmanager
def _quiet():
    """Orbax logs through absl; with no handler configured its warnings about a damaged step directory would reach
    stderr beside our one-line error. Silence them while reading; the error says what is wrong."""
    logger = logging.getLogger("absl")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


def _zeros(leaf, sharding):
    """Zeros of a leaf that was not stored, made directly in its shards."""
    make = lambda: jnp.zeros(leaf.shape, leaf.dtype)
    return make() if sharding is None else jax.jit(make, out_shardings=sharding)()


_copy = jax.jit(lambda arrays: [jnp.copy(x) for x in arrays])  # same shardings, new device buffers


def _checksum(arrays: dict) -> str:
    """Hash of the leaves' names, dtypes, shapes and device digests (`_digest`); every process gets the same.
    One process on the CPU computes the same digests with NumPy (`_host_digest`): no program to compile per state
    shape (XLA took 2-5 s for each, 77 times in a cold test suite), no transfer (the arrays are in host memory)."""
    names = sorted(arrays)
    leaves = [arrays[name] for name in names]
    on_host = (jax.process_count() == 1 and jax.default_backend() == "cpu"
               and all(np.dtype(x.dtype).itemsize <= 4 and x.size < 2**32 for x in leaves))
    if on_host:
        digests = [_host_digest(np.asarray(x)) for x in leaves]
    else:
        digests = distributed.to_host(distributed.aligned(_digests, leaves)) if names else []
    h = hashlib.blake2b(digest_size=16)
    for name, d in zip(names, digests):
        x = arrays[name]
        h.update(f"{name}:{np.dtype(x.dtype).str}:{tuple(x.shape)}:{int(d[0]):08x}{int(d[1]):08x};".encode())
    return h.hexdigest()


@jax.jit
def _digests(arrays: list) -> jax.Array:
    return jnp.stack([_digest(x) for x in arrays])


def _digest(x) -> jax.Array:
    """Two 32-bit sums of the leaf's bits weighted by position. Integer sums do not depend on how the array is cut
    into shards or in which order partial sums meet, so any mesh and process count gives the same digest; the first
    sum's weights are odd, so changing any one element always changes it."""
    u = _bits(x)
    index, stride = jnp.zeros(u.shape, jnp.uint32), 1
    for d in reversed(range(u.ndim)):
        index = index + jax.lax.broadcasted_iota(jnp.uint32, u.shape, d) * jnp.uint32(stride % 2**32)
        stride *= u.shape[d]
    first = jnp.sum(u * ((index * 2 + 1) * jnp.uint32(0x9E3779B1)), dtype=jnp.uint32)
    mixed = (u ^ (u >> 16)) * jnp.uint32(0x85EBCA6B) + index
    return jnp.stack([first, jnp.sum(mixed ^ (mixed >> 13), dtype=jnp.uint32)])


def _host_digest(x: np.ndarray) -> np.ndarray:
    """`_digest` in NumPy, the same uint32 arithmetic (wrapping) on the same bits, so the same two sums."""
    if x.dtype == np.bool_:
        u = x.astype(np.uint32)
    elif x.dtype.itemsize < 4:
        u = np.ascontiguousarray(x).view({1: np.uint8, 2: np.uint16}[x.dtype.itemsize]).astype(np.uint32)
    else:
        u = np.ascontiguousarray(x).view(np.uint32)
    u = u.reshape(-1)
    index = np.arange(u.size, dtype=np.uint32)  # the row-major position, as `_digest`'s strides give it
    first = np.sum(u * ((index * np.uint32(2) + np.uint32(1)) * np.uint32(0x9E3779B1)), dtype=np.uint32)
    mixed = (u ^ (u >> np.uint32(16))) * np.uint32(0x85EBCA6B) + index
    return np.array([first, np.sum(mixed ^ (mixed >> np.uint32(13)), dtype=np.uint32)], np.uint32)


def _bits(x) -> jax.Array:
    """The leaf's raw bits as uint32 (narrower types widened, 64-bit ones split in two)."""
    if x.dtype == jnp.bool_:
        return x.astype(jnp.uint32)
    if x.dtype.itemsize < 4:
        return jax.lax.bitcast_convert_type(x, {1: jnp.uint8, 2: jnp.uint16}[x.dtype.itemsize]).astype(jnp.uint32)
    return jax.lax.bitcast_convert_type(x, jnp.uint32)


def _host_checksum(host: dict) -> str:
    """Format 1: blake2b of the saved bytes (whole arrays on the host)."""
    h = hashlib.blake2b(digest_size=16)
    for name in sorted(host):
        a = np.ascontiguousarray(host[name])
        h.update(f"{name}:{a.dtype.str}:{a.shape};".encode())
        h.update(a.tobytes())
    return h.hexdigest()


def _fingerprint(leaves_with_paths) -> str:
    """Leaf paths, shapes and dtypes (a treedef's repr is not stable: MJX's static fields print memory addresses)."""
    text = "".join(f"|{jax.tree_util.keystr(path)}{tuple(np.shape(x))}:{np.dtype(x.dtype).str}"
                   for path, x in leaves_with_paths)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _first_line(e: BaseException) -> str:
    text = (str(e).strip().splitlines() or [type(e).__name__])[0]
    return text[:160] + ("..." if len(text) > 160 else "")
