"""`Dataset.save(path, compression=None, shard_func=None, checkpoint_args=None)` and
`Dataset.load(path, element_spec=None, compression=None, reader_func=None, wait=False)` (and their
`tf.data.experimental` names): TF 2.21's data/ops/save_op.py, load_op.py and SaveDatasetV2Op /
LoadDatasetOp (core/kernels/data/experimental/io_ops.cc), in TF's on-disk format (snapshot_format.py),
so a directory saved by either loads in the other (clause dataset.save-load).

save iterates the dataset once, writing each element's components as records of the shard
`shard_func(element)` (an int64 scalar, else InvalidArgumentError "`shard_func` must return a scalar
int64."); without shard_func every element goes to shard 0 (observed with TF 2.21: one
`00000000.shard` for 100 elements on 2 CPUs). The metadata's num_elements is the number of
elements written (observed: a filtered dataset's count, not its UNKNOWN cardinality), and it is
what the loaded dataset's cardinality reports. load reads `dataset_spec.pb` when
no element_spec is given (NotFoundError "tf.data snapshot element_spec file not found: <path>/
dataset_spec.pb."), lists the run's shard directories sorted and passes the dataset of their
datasets to `reader_func` (default `interleave(lambda x: x, cycle_length=CPUs, num_parallel_calls=
AUTOTUNE)`). A compressed save must be loaded with its compression (else the records' checksums
fail: DataLossError "corrupted record at 0"); an unknown compression saves uncompressed (TF's
RecordWriter logs "Unsupported compression_type:BAD. No compression will be used."); a component of
another dtype than element_spec's is InvalidArgumentError "Data type mismatch at component 0: expected
int32 but got int64."; a directory without snapshot.metadata is NotFoundError "Could not find
metadata file [<path>]".

Differences: the run id is derived from the path (TF draws a random one) and no creation timestamp is
written (simdist reads no clock); `checkpoint_args` (a CheckpointManager over the save) is
NotImplementedError; the default reader's cycle_length is simdist's CPU count (host_cpu.py).
"""

from __future__ import annotations

import glob
import logging
import hashlib
import os
import shutil
from typing import Any, Callable, Iterator

import numpy as np

from simdist.runtime import errors, host_cpu
from simdist.runtime.data import resources, snapshot_format
from simdist.runtime.data.dataset import DatasetV2
from simdist.runtime.data.elements import AUTOTUNE, _apply, _normalize_fn_output, host_device
from simdist.runtime.data.functions import DatasetFunction
from simdist.runtime.data.readers import TFRecordOptions, TFRecordWriter, _compression, _open_read, _records
from simdist.runtime.data.window import DatasetSpec
from simdist.runtime.ops import random_graphs
from simdist.runtime.spec import flatten

__all__ = ["save", "load", "_LoadDataset"]

SPEC_FILE = "dataset_spec.pb"
METADATA_FILE = "snapshot.metadata"


def _run_id(path: str) -> str:
    """A uint64 run id, derived from the directory's absolute path (TF: random::New64)."""
    digest = hashlib.sha256(os.path.abspath(path).encode()).digest()
    return str(int.from_bytes(digest[:8], "little"))


def save(dataset: DatasetV2, path: Any, compression: Any = None, shard_func: Callable[..., Any] | None = None,
         checkpoint_args: Any = None) -> None:
    """Write `dataset` to the directory `path` in TF's format."""
    if checkpoint_args:
        raise NotImplementedError("simdist's Dataset.save does not take checkpoint_args (TF saves through a "
                                  "tf.train.CheckpointManager then)")
    path = os.fspath(path.numpy().decode() if hasattr(path, "numpy") else path)
    comp = compression.decode() if isinstance(compression, bytes) else compression or ""
    if comp not in ("", "GZIP", "ZLIB"):   # (TF's RecordWriter logs this and writes uncompressed)
        logging.getLogger("tensorflow").error("Unsupported compression_type:%s. No compression will be used.", comp)
        comp = ""
    fn = None
    if shard_func is not None:
        import functools
        fn = DatasetFunction(functools.partial(_apply, shard_func), dataset.element_spec,
                             random_graphs.dataset_function())
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, SPEC_FILE), "wb") as f:
        f.write(snapshot_format.encode_structure(dataset.element_spec))
    specs = flatten(dataset.element_spec)
    shards: dict[int, list[bytes]] = {}
    instance = random_graphs.instantiate(fn.trace) if fn is not None else None
    for flat in resources.owned(dataset._iter_flat()):
        shard = 0   # (observed: TF 2.21 writes every element to shard 0 without a shard_func)
        if fn is not None:
            out = _normalize_fn_output(fn.call(flat, instance, host_device()))
            leaves = flatten(out)
            if len(leaves) != 1 or leaves[0].dtype.name != "int64" or np.asarray(leaves[0]._v).size != 1:
                raise errors.InvalidArgumentError(None, None, "`shard_func` must return a scalar int64.")
            shard = int(np.asarray(leaves[0]._v).reshape(()))
        records = shards.setdefault(shard, [])
        records.extend(snapshot_format.encode_tensor(a, s.dtype) for a, s in zip(flat, specs))
    write_directory(path, dataset.element_spec, shards, comp)


def write_directory(path: str, element_spec: Any, shards: dict[int, list[bytes]], comp: str) -> None:
    """Write the run's shard files (`shards`: shard -> TensorProto records) and a finalized
    snapshot.metadata under `path` (dataset_spec.pb is save's)."""
    specs = flatten(element_spec)
    run_id = _run_id(path)
    run_dir = os.path.join(path, run_id)
    shutil.rmtree(run_dir, ignore_errors=True)
    for shard, records in sorted(shards.items()):
        shard_dir = os.path.join(run_dir, f"{shard:08d}.shard")
        os.makedirs(shard_dir, exist_ok=True)
        with TFRecordWriter(os.path.join(shard_dir, "00000000.snapshot"), TFRecordOptions(comp)) as w:
            for r in records:
                w.write(r)
    os.makedirs(run_dir, exist_ok=True)
    count = sum(len(r) for r in shards.values()) // max(1, len(specs))
    meta = snapshot_format.encode_metadata(run_id, [s.dtype.as_datatype_enum for s in specs], count)
    with open(os.path.join(path, METADATA_FILE), "wb") as f:
        f.write(meta)


class _SnapshotShardDataset(DatasetV2):
    """One shard directory's elements: its checkpoint files in order, `len(specs)` records an element."""

    _KIND = "SnapshotShardDataset"

    def __init__(self, files: list[str], compression: str, element_spec: Any) -> None:
        super().__init__((), {"files": files, "compression": compression}, element_spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        k = len(self._flat_specs)
        for name in self._params["files"]:
            row: list[np.ndarray] = []
            for record in _records(_open_read(name, self._params["compression"]), name):
                dt, value = snapshot_format.decode_tensor(record)
                spec = self._flat_specs[len(row)]
                if dt != spec.dtype:
                    raise errors.InvalidArgumentError(None, None, f"Data type mismatch at component {len(row)}: "
                                                      f"expected {spec.dtype.name} but got {dt.name}.")
                if not spec.shape.is_compatible_with(value.shape):
                    raise errors.InvalidArgumentError(None, None, f"a saved component of shape {list(value.shape)} "
                                                      f"does not match the element spec's {spec!r}")
                row.append(value)
                if len(row) == k:
                    yield row
                    row = []

    def _card(self) -> int:
        from simdist.runtime.data.elements import UNKNOWN_CARDINALITY
        return UNKNOWN_CARDINALITY


class _ShardsDataset(DatasetV2):
    """The dataset of the shards' datasets that `reader_func` reads (its elements are datasets)."""

    _KIND = "ShardsDataset"

    def __init__(self, shards: list[_SnapshotShardDataset], element_spec: Any) -> None:
        super().__init__((), {}, DatasetSpec(element_spec))
        self._shards, self._inner_spec = shards, element_spec

    def _iter_flat(self) -> Iterator[list[Any]]:
        for shard in self._shards:
            yield [shard]

    def _pack(self, flat: list[Any], device: str | None = None) -> Any:
        return flat[0]

    def _probe_flat(self, size: int, fill: int) -> list[Any]:
        return [_SnapshotShardDataset([], "", self._inner_spec)]

    def _card(self) -> int:
        return len(self._shards)


class _LoadDataset(DatasetV2):
    _KIND = "LoadDataset"

    def __init__(self, path: str, element_spec: Any, compression: str, reader: DatasetV2, num_elements: int) -> None:
        super().__init__((), {"path": path, "compression": compression}, element_spec)
        self._reader, self._num_elements = reader, num_elements

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        return self._reader._iter_flat()

    def _card(self) -> int:
        return self._num_elements


def _default_reader(datasets: DatasetV2) -> DatasetV2:
    return datasets.interleave(lambda x: x, cycle_length=host_cpu.current().parallelism, num_parallel_calls=AUTOTUNE)


def load(path: Any, element_spec: Any = None, compression: Any = None,
         reader_func: Callable[[DatasetV2], DatasetV2] | None = None, wait: bool = False) -> DatasetV2:
    """The dataset saved at `path`."""
    if wait:
        raise NotImplementedError("simdist's Dataset.load does not wait for a snapshot being written (wait=True)")
    path = os.fspath(path.numpy().decode() if hasattr(path, "numpy") else path)
    comp = _compression(compression)
    if element_spec is None:
        spec_file = os.path.join(path, SPEC_FILE)
        if not os.path.exists(spec_file):
            raise errors.NotFoundError(None, None, f"tf.data snapshot element_spec file not found: {spec_file}.")
        with open(spec_file, "rb") as f:
            element_spec = snapshot_format.decode_structure(f.read())
    meta_file = os.path.join(path, METADATA_FILE)
    if not os.path.exists(meta_file):
        raise errors.NotFoundError(None, None, f"Could not find metadata file [{path}] [Op:LoadDataset]")
    reader, meta = read_directory(path, element_spec, comp, reader_func)
    return _LoadDataset(path, element_spec, comp, reader, meta["num_elements"])


def read_directory(path: str, element_spec: Any, comp: str,
                   reader_func: Callable[[DatasetV2], DatasetV2] | None) -> tuple[DatasetV2, dict[str, Any]]:
    """The dataset `reader_func` makes of the run's shard datasets, and the metadata."""
    with open(os.path.join(path, METADATA_FILE), "rb") as f:
        meta = snapshot_format.decode_metadata(f.read())
    run_dir = os.path.join(path, meta["run_id"])
    shard_dirs = sorted(glob.glob(os.path.join(glob.escape(run_dir), "*.shard")))
    shards = [_SnapshotShardDataset(sorted(glob.glob(os.path.join(glob.escape(d), "*.snapshot"))), comp, element_spec)
              for d in shard_dirs]
    reader = (reader_func or _default_reader)(_ShardsDataset(shards, element_spec))
    if not isinstance(reader, DatasetV2):
        raise TypeError(f"`reader_func` must return a `tf.data.Dataset`, got {type(reader).__name__}")
    return reader, meta
