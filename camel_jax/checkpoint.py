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
  one-line `CheckpointError` naming the directory and the fix.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

FORMAT = 1


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

    def save(self, iteration: int, step: int, state, wall_s: float) -> None:
        leaves, _ = jax.tree_util.tree_flatten_with_path(state)
        stored = [k for k, (path, leaf) in enumerate(leaves) if self._stored(path, leaf)]
        # Own host copies: on CPU a device_get may be a view of a buffer that the next chunk donates.
        host = {f"{k:04d}": np.array(leaves[k][1], copy=True) for k in stored}
        meta = {"format": FORMAT, "iteration": int(iteration), "step": int(step), "wall_s": float(wall_s),
                "buffer": self.buffer, "stored": stored, "structure": _fingerprint(leaves),
                "checksum": _checksum(host)}
        ocp = self._ocp
        self.manager.save(step, args=ocp.args.Composite(state=ocp.args.StandardSave(host),
                                                        meta=ocp.args.JsonSave(meta)))

    def latest_step(self) -> int | None:
        return self.manager.latest_step()

    def restore(self, template):
        """(state, meta) of the latest checkpoint, or None when there is none. `template`: the state's pytree of
        `jax.ShapeDtypeStruct` (e.g. from `jax.eval_shape` of the init)."""
        step = self.manager.latest_step()
        if step is None:
            return None
        where = self.dir / str(step)
        fix = f"delete {where} and resume again " + (
            "to continue from the previous checkpoint" if len(self.manager.all_steps()) > 1 else "to start over")
        leaves, treedef = jax.tree_util.tree_flatten_with_path(template)
        try:
            with _quiet():
                meta, host = self._read(step, leaves)
        except CheckpointError as e:
            raise CheckpointError(f"checkpoint {where} {e}") from None
        except Exception as e:  # noqa: BLE001 - whatever orbax or tensorstore raise on damaged files
            raise CheckpointError(f"checkpoint {where} is corrupt or incomplete ({_first_line(e)}); {fix}") from None
        out = [jnp.asarray(host[f"{k:04d}"]) if f"{k:04d}" in host else jnp.zeros(leaf.shape, leaf.dtype)
               for k, (_, leaf) in enumerate(leaves)]
        return jax.tree_util.tree_unflatten(treedef, out), meta

    def _read(self, step: int, leaves):
        ocp = self._ocp
        meta = self.manager.restore(step, args=ocp.args.Composite(meta=ocp.args.JsonRestore())).meta
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise ValueError("no valid metadata record")
        if meta["structure"] != _fingerprint(leaves):
            raise CheckpointError("does not match this run's training state (written by another camel-jax version "
                                  "or config); start the run again with camel-jax train --overwrite")
        abstract = {f"{k:04d}": jax.ShapeDtypeStruct(leaves[k][1].shape, leaves[k][1].dtype) for k in meta["stored"]}
        host = self.manager.restore(step, args=ocp.args.Composite(state=ocp.args.StandardRestore(abstract))).state
        if _checksum(host) != meta["checksum"]:
            raise ValueError("checksum mismatch")
        return meta, host

    def close(self) -> None:
        """Wait for the last asynchronous save to be complete on disk."""
        self.manager.wait_until_finished()
        self.manager.close()

    def _stored(self, path, leaf) -> bool:
        if np.size(leaf) == 0:
            return False  # orbax cannot store zero-size arrays; they are restored as empty arrays
        in_buffer = any(getattr(p, "name", None) == "buffer" for p in path)
        return self.buffer or not in_buffer


def load(run_dir: str | Path, step: int | None = None) -> tuple[dict, dict]:
    """The stored leaves ({index: array}) and the metadata record of a checkpoint (latest by default), without
    a template: for inspection and tests."""
    import orbax.checkpoint as ocp

    with ocp.CheckpointManager(directory(run_dir), item_names=("state", "meta"),
                               options=ocp.CheckpointManagerOptions(create=False)) as manager:
        step = manager.latest_step() if step is None else step
        restored = manager.restore(step, args=ocp.args.Composite(state=ocp.args.StandardRestore(),
                                                                 meta=ocp.args.JsonRestore()))
    return {int(k): np.asarray(v) for k, v in restored.state.items()}, restored.meta


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


def _checksum(host: dict) -> str:
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
