"""Source datasets: `range`, `from_tensor_slices`, `from_tensors` and `from_generator`."""

from __future__ import annotations

import types
from typing import Any, Callable, Iterator

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.data import components
from simdist.runtime.data.dataset import DatasetV2
from simdist.runtime.data.elements import (INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, _INT64_MAX, _as_array, _cdiv,
                                           _normalize, _to_tensor)
from simdist.runtime.ragged_tensor import RaggedTensor, RaggedTensorSpec
from simdist.runtime.sparse_tensor import SparseTensor, SparseTensorSpec
from simdist.runtime.spec import TensorSpec, assert_same_structure, flatten, map_structure, pack_as
from simdist.runtime.tensor import TensorShape, convert_to_tensor


class _RangeDataset(DatasetV2):
    _KIND = "RangeDataset"

    def __init__(self, start: int, stop: int, step: int, output_type: dtypes.DType) -> None:
        if step == 0:
            raise errors.InvalidArgumentError(None, None, "step must be a non-zero integer.")
        super().__init__((), {"start": start, "stop": stop, "step": step, "output_type": output_type},
                         TensorSpec([], output_type))
        self._dt = output_type.np

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        p = self._params
        for v in range(p["start"], p["stop"], p["step"]):
            yield [np.asarray(v, dtype=self._dt)]

    def _card(self) -> int:
        p = self._params
        return range_cardinality(p["start"], p["stop"], p["step"])


def _wrap64(v: int) -> int:
    """v as a C++ int64_t computes it (two's complement wrap-around)."""
    return (v + 2 ** 63) % 2 ** 64 - 2 ** 63


def range_cardinality(start: int, stop: int, step: int) -> int:
    """TF 2.21's RangeCardinality (range_dataset_op.cc): INFINITE when `stop` is int64's maximum
    (the counter `enumerate` builds); else 0 when the signs of stop - start and step differ (in
    int64 arithmetic, so a difference that wraps around counts with its wrapped sign), else the
    number of steps that fit."""
    if stop >= _INT64_MAX:
        return INFINITE_CARDINALITY
    diff = _wrap64(stop - start)
    if ((diff > 0) - (diff < 0)) * ((step > 0) - (step < 0)) <= 0:
        return 0
    if step > 0:
        return _wrap64(_cdiv(diff - 1, step) + 1)
    return _wrap64(_cdiv(_wrap64(-diff - 1), _wrap64(-step)) + 1)


class _TensorSliceDataset(DatasetV2):
    _KIND = "TensorSliceDataset"

    def __init__(self, tensors: Any) -> None:
        spec, arrays = _normalize(tensors)
        leaves = flatten(spec)
        if components.has_composite(spec):
            # each leaf's rows: a SparseTensor's sliced along its dim 0 (SerializeManySparse), a
            # RaggedTensor's rows (RaggedTensorSpec._unbatch: one ragged level less), a dense one's
            # as its own rows (components.py)
            rows, dims, i = [], [], 0
            for leaf in leaves:
                if isinstance(leaf, SparseTensorSpec):
                    rank = int(np.asarray(arrays[i + 2]).shape[0])
                    if rank == 1:   # (SerializeManySparse's check; rank 0 is the Python ValueError below)
                        raise errors.InvalidArgumentError(
                            None, None, "{{function_node __wrapped__SerializeManySparse_device_/job:localhost/replica:"
                            "0/task:0/device:CPU:0}} Rank of input SparseTensor should be > 1, but saw rank: 1 "
                            "[Op:SerializeManySparse] name: ")
                    rows.append(components.slice_sparse(*arrays[i:i + 3]))
                    dims.append(int(arrays[i + 2][0]))
                    i += 3
                elif isinstance(leaf, RaggedTensorSpec) and leaf.ragged_rank:
                    w = components.width(leaf)
                    rows.append(components.unbatch_ragged(arrays[i:i + w], leaf))
                    dims.append(int(arrays[i + 1].shape[0]) - 1)
                    i += w
                else:
                    if arrays[i].ndim == 0:
                        raise ValueError("Unbatching a tensor is only supported for rank >= 1")
                    rows.append(None)
                    dims.append(arrays[i].shape[0])
                    i += 1
            self._sparse_rows: list[Any] | None = rows
            self._widths = [components.width(leaf) for leaf in leaves]
        else:
            for a in arrays:
                if a.ndim == 0:
                    raise ValueError("Unbatching a tensor is only supported for rank >= 1")
            dims = [a.shape[0] for a in arrays]
            self._sparse_rows = None
        for d in dims[1:]:
            if d != dims[0]:
                raise ValueError(f"Dimensions {dims[0]} and {d} are not compatible")
        self._n = dims[0] if dims else 0
        row_spec = map_structure(lambda s: s._unbatch(), spec)
        super().__init__((), {"tensors": arrays}, row_spec)
        self._arrays = arrays if self._sparse_rows is None else []   # (batch's row-copy fast path: dense only)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        if self._sparse_rows is not None:
            yield from self._iter_composite()
            return
        n = self._arrays[0].shape[0] if self._arrays else 0
        for i in range(n):
            yield [a[i, ...] for a in self._arrays]

    def _iter_composite(self) -> Iterator[list[np.ndarray]]:
        arrays = self._params["tensors"]
        for r in range(self._n):
            flat, i = [], 0
            for k, rows in enumerate(self._sparse_rows or []):
                if rows is None:
                    flat.append(arrays[i][r, ...])
                    i += 1
                else:
                    flat.extend(rows[r])
                    i += self._widths[k]
            yield flat

    def _card(self) -> int:
        return int(self._n)


class _TensorDataset(DatasetV2):
    _KIND = "TensorDataset"

    def __init__(self, tensors: Any) -> None:
        spec, arrays = _normalize(tensors)
        super().__init__((), {"tensors": arrays}, spec)
        self._arrays = arrays

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        yield list(self._arrays)

    def _card(self) -> int:
        return 1


class _FlatMapDataset(DatasetV2):
    """`from_generator` (TF builds it as a FlatMapDataset around a GeneratorDataset)."""

    _KIND = "FlatMapDataset"
    _STATEFUL_OPS = ("PyFunc",)   # (its generator runs in a PyFunc: an iterator checkpoint refuses it)

    def __init__(self, generator: Callable[..., Any], args: tuple, spec: Any, legacy: bool = True) -> None:
        super().__init__((), {"generator": generator, "args": args}, spec)
        self._legacy = legacy   # (TF's output_types path; else its output_signature path: _convert_to_signature)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        from simdist.runtime.ops.py_func import kernel_error
        p = self._params
        try:
            values = iter(p["generator"](*p["args"]))
        except Exception as e:  # noqa: BLE001 - TF's PyFunc kernel turns the generator's exception into a status
            raise kernel_error(e) from e
        while True:
            try:
                value = next(values)
            except StopIteration:
                return
            except Exception as e:  # noqa: BLE001 - as above
                raise kernel_error(e) from e
            yield self._convert(value)

    def _convert(self, value: Any) -> list[np.ndarray]:
        if not self._legacy:
            return self._convert_to_signature(value)
        spec = self._element_spec   # (a list yielded for a tuple spec is refused: TF's nest.flatten_up_to)
        try:
            assert_same_structure(spec, value) if isinstance(spec, (tuple, dict)) else None
            leaves = flatten(value) if isinstance(spec, (tuple, dict)) else [value]
        except (ValueError, TypeError):
            raise errors.InvalidArgumentError(
                None, None, "TypeError: `generator` yielded an element that did not match the expected "
                f"structure. The expected structure was {map_structure(lambda s: s.dtype, spec)}, but the "
                f"yielded element was {value}.") from None
        out = []
        for leaf, s in zip(leaves, self._flat_specs):
            try:
                arr = _as_array(leaf, s.dtype) if s.dtype is not dtypes.string else _to_tensor(leaf)._v
            except (ValueError, TypeError):
                raise errors.InvalidArgumentError(
                    None, None, "TypeError: `generator` yielded an element that could not be converted to the "
                    f"expected type. The expected type was {s.dtype.name}, but the yielded element was "
                    f"{leaf}.") from None
            if not s.shape.is_compatible_with(arr.shape):
                raise errors.InvalidArgumentError(
                    None, None, f"TypeError: `generator` yielded an element of shape {TensorShape(arr.shape)} "
                    f"where an element of shape {s.shape} was expected.")
            out.append(arr)
        return out

    def _convert_to_signature(self, value: Any) -> list[np.ndarray]:
        """TF's output_signature path (from_generator_op.py): structure.normalize_element (a
        SparseTensorSpec leaf takes a SparseTensor, a RaggedTensorSpec leaf a RaggedTensor or what
        converts to a tensor, a TensorSpec leaf a composite or what converts to its dtype), then the
        yielded element's spec must be compatible with the signature, leaf by leaf (class, dtype,
        ragged_rank, row_splits dtype, shape)."""
        sig = self._element_spec
        leaves = None
        try:
            assert_same_structure(sig, value) if isinstance(sig, (tuple, list, dict)) else None
            leaves = [_normalize_leaf(v, s) for v, s in
                      zip(flatten(value) if isinstance(sig, (tuple, list, dict)) else [value], flatten(sig))]
        except (ValueError, TypeError):
            pass
        if leaves is None:
            raise errors.InvalidArgumentError(
                None, None, "TypeError: `generator` yielded an element that did not match the expected "
                f"structure. The expected structure was {sig}, but the yielded element was {value}.")
        got = [components.spec_of(v) for v in leaves]
        if not all(type(g) is type(s) and s.is_compatible_with(g) for g, s in zip(got, flatten(sig))):
            raise errors.InvalidArgumentError(
                None, None, f"TypeError: `generator` yielded an element of {pack_as(sig, got)} where an element "
                f"of {sig} was expected.")
        return [a for v in leaves for a in components.leaf_arrays(v)]

    def _card(self) -> int:
        return UNKNOWN_CARDINALITY


def _normalize_leaf(value: Any, spec: Any) -> Any:
    """One leaf of a generator's element as structure.normalize_element converts it for `spec`
    (TypeError or ValueError when it cannot be)."""
    if isinstance(spec, SparseTensorSpec):
        if not isinstance(value, SparseTensor):
            raise TypeError(f"Neither a SparseTensor nor SparseTensorValue: {value}.")
        return value
    if isinstance(value, (SparseTensor, RaggedTensor)):
        return value
    if isinstance(spec, RaggedTensorSpec):
        return _to_tensor(value)
    return convert_to_tensor(value, dtype=spec.dtype)
