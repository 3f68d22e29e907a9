"""`Dataset.cache(filename)`: the elements cached in files (TF 2.21's CacheDatasetV2 with a filename,
core/kernels/data/cache_dataset_ops.cc, observed on TF 2.21).

When `<filename>.index` exists, an iteration reads the cached elements from the files and never consults its input
(a cache written by another pipeline is read as it is). Otherwise the first element's step takes the lockfile
`<filename>_0.lockfile`, writing `<filename>_0.data-00000-of-00001.tempstate<n>` as it goes:
another iterator meeting the lockfile is AlreadyExistsError ("There appears to be a concurrent caching iterator
running - cache lockfile already exists ('<lockfile>'). ..."), a missing directory NotFoundError ("<lockfile>; No such
file or directory"); a complete pass renames its elements into `<filename>.data-00000-of-00001` and `<filename>.index`
and drops the lockfile (an empty pass writes the index alone); an iterator dropped before the end discards what it
wrote (TF: "the partially cached contents of the dataset will be discarded").

Differences: the files hold simdist's own format (each element's components as TensorProtos, length-delimited; the
index their count), so a cache TF wrote is not read by simdist nor the reverse; the lockfile says "Created at: 0"
(TF writes the wall clock's seconds; simdist reads no wall clock), the temporary file's suffix is a counter.
"""

from __future__ import annotations

import itertools
import os
import weakref
from typing import Any, Iterator

import numpy as np

from simdist.runtime import dtypes, errors, proto_wire
from simdist.runtime.data import snapshot_format
from simdist.runtime.data.dataset import DatasetV2, _UnaryDataset
from simdist.runtime.data.resumable import Steps
from simdist.runtime.spec import flatten

_TEMP_IDS = itertools.count()


def _read(filename: str) -> list[list[np.ndarray]]:
    """The elements a completed cache holds (the index gives their count and components)."""
    with open(filename + ".index", "rb") as f:
        index = f.read()
    count, pos = proto_wire.read_varint(index, 0)
    width, _ = proto_wire.read_varint(index, pos)
    if not count:
        return []
    with open(filename + ".data-00000-of-00001", "rb") as f:
        data = f.read()
    out, pos = [], 0
    for _ in range(count):
        element = []
        for _ in range(width):
            n, pos = proto_wire.read_varint(data, pos)
            element.append(snapshot_format.decode_tensor(data[pos:pos + n])[1])
            pos += n
        out.append(element)
    return out


class _CacheSteps(Steps):
    """Steps that a finalizer can watch (an iterator dropped before the end discards its partial cache)."""

    __slots__ = ("__weakref__",)


class _FileCacheDataset(_UnaryDataset):
    """`cache(filename)` with a non-empty filename (see the module)."""

    _KIND = "CacheDatasetV2"

    def __init__(self, input_dataset: DatasetV2, filename: str) -> None:
        super().__init__((input_dataset,), {"filename": filename}, input_dataset.element_spec)
        self._filename = filename
        self._dtypes = [s.dtype for s in flatten(input_dataset.element_spec)]

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        name = self._filename
        if os.path.exists(name + ".index"):
            return iter(_read(name))
        lock = f"{name}_0.lockfile"
        temp = f"{name}_0.data-00000-of-00001.tempstate{next(_TEMP_IDS)}"
        state: dict[str, Any] = {"input": None, "file": None, "count": 0, "done": False}

        def discard() -> None:
            if state["file"] is not None and not state["done"]:
                state["file"].close()
                for path in (temp, lock):
                    if os.path.exists(path):
                        os.remove(path)

        def step() -> list[np.ndarray]:
            if state["done"]:
                raise StopIteration
            if state["file"] is None:
                if os.path.exists(lock):
                    with open(lock) as f:
                        contents = f.read()
                    raise errors.AlreadyExistsError(
                        None, None, f"There appears to be a concurrent caching iterator running - cache lockfile "
                        f"already exists ('{lock}'). If you are sure no other running TF computations are using this "
                        "cache prefix, delete the lockfile and re-initialize the iterator. Lockfile contents: "
                        f"{contents} [Op:IteratorGetNext]")
                try:
                    with open(lock, "x") as f:
                        f.write("Created at: 0")
                except FileNotFoundError:
                    raise errors.NotFoundError(None, None, f"{lock}; No such file or directory [Op:IteratorGetNext]") \
                        from None
                state["file"] = open(temp, "wb")   # noqa: SIM115 - closed at the end or on discard
                state["input"] = self._input._iter_flat()
            try:
                flat = next(state["input"])
            except StopIteration:
                state["file"].close()
                if state["count"]:
                    os.replace(temp, name + ".data-00000-of-00001")
                else:   # (TF writes no data file for an empty cache)
                    os.remove(temp)
                with open(name + ".index", "wb") as f:
                    f.write(proto_wire.varint(state["count"]) + proto_wire.varint(len(self._dtypes)))
                os.remove(lock)
                state["done"] = True
                raise
            for a, dt in zip(flat, self._dtypes):
                body = snapshot_format.encode_tensor(np.asarray(a), dtypes.as_dtype(dt))
                state["file"].write(proto_wire.varint(len(body)) + body)
            state["count"] += 1
            return flat

        steps = _CacheSteps(step)
        weakref.finalize(steps, discard)
        return steps

    def _card(self) -> int:
        return self._input._card()
