"""`Dataset.snapshot(path, compression="AUTO", reader_func=None, shard_func=None)` and
`tf.data.experimental.snapshot`: the input's elements, written to disk on a complete first pass and
read back from there by later iterations (TF 2.21's data/ops/snapshot_op.py and SnapshotDatasetV2;
clause dataset.save-load).

TF keys the snapshot by a fingerprint of the input pipeline (path/<fingerprint>/snapshot.metadata,
path/<fingerprint>/<run_id>/<shard>.shard/...): while no finalized snapshot exists an iteration
passes the input's elements through and writes them, finalizing at the input's end (an iteration
stopped early leaves nothing usable); once finalized, iterations read it through `reader_func`
(default: interleave of the shards, cycle_length the CPU count). Without shard_func the input is
enumerated and element i goes to shard i % CPUs (then the index is projected away), so a re-read
gives the input's order; with a shard_func the re-read order is reader_func's over the shards.

Differences: simdist's fingerprint is its own (a digest of the pipeline's node kinds, element specs,
parameters and functions' code), so a snapshot TF wrote is not found by simdist nor the reverse;
compression "AUTO" (TF: Snappy) writes uncompressed; the shard files are save's format (save_load.py).
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import types
from typing import Any, Callable, Iterator

import numpy as np

from simdist.runtime import errors, host_cpu
from simdist.runtime.data import checkpoint_state, snapshot_format
from simdist.runtime.data.dataset import _UnaryDataset
from simdist.runtime.data.elements import _apply, _normalize_fn_output, host_device
from simdist.runtime.data.functions import DatasetFunction
from simdist.runtime.data.save_load import METADATA_FILE, read_directory, write_directory
from simdist.runtime.ops import random_graphs
from simdist.runtime.spec import flatten

__all__ = ["snapshot", "_SnapshotDataset"]


def _describe(value: Any) -> bytes:
    """A deterministic description of a node parameter for the fingerprint."""
    if isinstance(value, functools.partial):
        return _describe(value.func) + _describe(value.args)
    if isinstance(value, types.FunctionType):
        code = value.__code__
        out = code.co_code + repr(code.co_names).encode()
        out += b"".join(_describe(c) for c in code.co_consts)
        for cell in value.__closure__ or ():
            try:
                out += _describe(cell.cell_contents)
            except ValueError:   # (an empty cell)
                pass
        return out
    if isinstance(value, types.CodeType):
        return value.co_code + b"".join(_describe(c) for c in value.co_consts)
    if isinstance(value, np.ndarray):
        return str(value.dtype).encode() + repr(value.shape).encode() + (value.tobytes() if value.dtype != object
                                                                         else repr(value.tolist()).encode())
    if hasattr(value, "_v") and hasattr(value, "dtype"):   # (a Tensor)
        return _describe(np.asarray(value._v))
    if isinstance(value, (list, tuple)):
        return b"(" + b",".join(_describe(v) for v in value) + b")"
    if isinstance(value, dict):
        return b"{" + b",".join(repr(k).encode() + b":" + _describe(v) for k, v in sorted(value.items(), key=repr)) + b"}"
    text = repr(value)
    return type(value).__name__.encode() if " at 0x" in text else text.encode()


def _fingerprint(dataset: Any) -> str:
    digest = hashlib.sha256()
    for node in checkpoint_state.pipeline(dataset):
        digest.update(node.kind.encode() + repr(node.element_spec).encode())
        for key in sorted(node.params):
            digest.update(key.encode() + _describe(node.params[key]))
    return str(int.from_bytes(digest.digest()[:8], "little"))


def _snapshot_compression(compression: Any) -> str:
    comp = compression.decode() if isinstance(compression, bytes) else compression
    if comp in (None, "", "AUTO"):
        return ""
    if comp not in ("GZIP", "ZLIB"):
        logging.getLogger("tensorflow").error("Unsupported compression_type:%s. No compression will be used.", comp)
        return ""
    return comp


class _SnapshotDataset(_UnaryDataset):
    _KIND = "SnapshotDatasetV2"

    def __init__(self, input_dataset: Any, path: Any, compression: Any, reader_func: Any,
                 shard_func: Callable[..., Any] | None, indexed: bool) -> None:
        path = os.fspath(path.numpy().decode() if hasattr(path, "numpy") else path)
        super().__init__((input_dataset,), {"path": path, "compression": compression}, input_dataset.element_spec)
        self._comp, self._reader_func, self._indexed = _snapshot_compression(compression), reader_func, indexed
        self._trace = random_graphs.dataset_function()
        self._shard_fn = None if shard_func is None else DatasetFunction(
            functools.partial(_apply, shard_func), input_dataset.element_spec, self._trace)

    def _directory(self) -> str:
        return os.path.join(self._params["path"], _fingerprint(self._input))

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        directory = self._directory()
        meta_file = os.path.join(directory, METADATA_FILE)
        if os.path.exists(meta_file):
            with open(meta_file, "rb") as f:
                finalized = snapshot_format.decode_metadata(f.read())["finalized"]
            if finalized:
                reader, _ = read_directory(directory, self._element_spec, self._comp, self._reader_func)
                yield from reader._iter_flat()
                return
        specs = self._flat_specs
        cpus = host_cpu.current().parallelism
        instance = random_graphs.instantiate(self._trace) if self._shard_fn is not None else None
        shards: dict[int, list[bytes]] = {}
        for flat in self._input._iter_flat():
            if self._shard_fn is not None:
                out = flatten(_normalize_fn_output(self._shard_fn.call(flat, instance, host_device())))
                if len(out) != 1 or out[0].dtype.name != "int64" or np.asarray(out[0]._v).size != 1:
                    raise errors.InvalidArgumentError(None, None, "`shard_func` must return a scalar int64.")
                shard = int(np.asarray(out[0]._v).reshape(()))
            else:
                shard = int(flat[0]) % cpus
            shards.setdefault(shard, []).extend(snapshot_format.encode_tensor(a, s.dtype)
                                                for a, s in zip(flat, specs))
            yield flat
        os.makedirs(directory, exist_ok=True)
        write_directory(directory, self._element_spec, shards, self._comp)

    def _card(self) -> int:
        return self._input._card()


def snapshot(dataset: Any, path: Any, compression: Any = "AUTO", reader_func: Any = None,
             shard_func: Callable[..., Any] | None = None) -> Any:
    """snapshot_op._snapshot: without shard_func, the input enumerated, sharded by index % CPUs and
    the index projected away after the snapshot."""
    if shard_func is not None:
        return _SnapshotDataset(dataset, path, compression, reader_func, shard_func, False)
    return _SnapshotDataset(dataset.enumerate(), path, compression, reader_func, None, True).map(lambda _, e: e)


def experimental_snapshot(path: Any, compression: Any = "AUTO", reader_func: Any = None,
                          shard_func: Callable[..., Any] | None = None) -> Callable[[Any], Any]:
    """tf.data.experimental.snapshot: a transformation for `Dataset.apply`."""
    return lambda dataset: dataset.snapshot(path, compression, reader_func, shard_func)
