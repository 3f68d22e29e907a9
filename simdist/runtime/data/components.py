"""Composite elements of tf.data pipelines (clause dataset.sparse-elements): a SparseTensor leaf of an
element travels between the nodes as its three component arrays (indices, values, dense_shape), as
TF's SparseTensorSpec `_to_components` gives them; a TensorSpec leaf as its one array. Every node's
flat list holds components in this order, so the nodes that only move elements (take, shuffle, zip,
cache ...) need nothing more; the nodes that combine or split elements (batch, unbatch,
from_tensor_slices) use the batching rules here, which are TF's SerializeManySparse/DeserializeSparse
(sparse_tensor.py `_to_batched_tensor_list` / `_from_compatible_tensor_list`, kernels
serialize_sparse_op.cc and deserialize_sparse_variant_op.cc)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ragged_tensor import RaggedTensor, RaggedTensorSpec
from simdist.runtime.sparse_tensor import SparseTensor, SparseTensorSpec
from simdist.runtime.spec import TensorSpec, flatten, pack_as
from simdist.runtime.tensor import TensorShape

__all__ = ["batch_sparse", "read_only", "component_specs", "flat_component_specs", "has_composite", "leaf_arrays",
           "pack", "probe_sparse", "slice_sparse", "spec_of", "unbatch_sparse"]


def component_specs(spec: Any) -> list[TensorSpec]:
    """The TensorSpecs of one leaf's components (TF's SparseTensorSpec._component_specs; a
    RaggedTensor's flat_values and nested row_splits, a ragged_rank 0 one its dense tensor)."""
    if isinstance(spec, RaggedTensorSpec):
        k = spec.ragged_rank
        if k == 0:
            return [TensorSpec(spec.shape, spec.dtype)]
        inner = spec.shape[k + 1:] if spec.shape.rank is not None else None
        flat = TensorSpec(None if inner is None else TensorShape([None]).concatenate(inner), spec.dtype)
        return [flat] + [TensorSpec([None], spec.row_splits_dtype) for _ in range(k)]
    if isinstance(spec, SparseTensorSpec):
        rank = spec.shape.rank
        return [TensorSpec([None, rank], dtypes.int64), TensorSpec([None], spec.dtype),
                TensorSpec([rank], dtypes.int64)]
    return [spec]


def flat_component_specs(structure: Any) -> list[TensorSpec]:
    """The component specs of every leaf of an element structure, in flatten order."""
    return [c for leaf in flatten(structure) for c in component_specs(leaf)]


def has_composite(structure: Any) -> bool:
    return any(isinstance(s, (SparseTensorSpec, RaggedTensorSpec)) for s in flatten(structure))


def width(spec: Any) -> int:
    """How many components one leaf of this spec has."""
    if isinstance(spec, SparseTensorSpec):
        return 3
    if isinstance(spec, RaggedTensorSpec):
        return 1 + spec.ragged_rank
    return 1


def spec_of(value: Any) -> Any:
    """The spec of one element leaf (a Tensor or a SparseTensor)."""
    if isinstance(value, SparseTensor):
        return SparseTensorSpec(_static_shape(value), value.dtype)
    if isinstance(value, RaggedTensor):
        return RaggedTensorSpec(value.shape, value.dtype, value.ragged_rank, value.row_splits_dtype)
    return TensorSpec(value.shape, value.dtype)


def _static_shape(value: SparseTensor) -> TensorShape:
    """A SparseTensor's static shape: its dense_shape's values (known in simdist's eager values)."""
    return value.shape


def leaf_arrays(value: Any) -> list[np.ndarray]:
    """The component arrays of one element leaf."""
    if isinstance(value, SparseTensor):
        return [np.asarray(value.indices._v), np.asarray(value.values._v), np.asarray(value.dense_shape._v)]
    if isinstance(value, RaggedTensor):
        return [np.asarray(value.flat_values._v)] + [np.asarray(sp._v) for sp in value.nested_row_splits]
    return [np.asarray(value._v)]


def pack(structure: Any, components: list[Any]) -> Any:
    """The element of `structure` from its flat components (Tensors): a SparseTensor per sparse leaf."""
    leaves, i = [], 0
    for spec in flatten(structure):
        if isinstance(spec, SparseTensorSpec):
            ind, val, shp = components[i:i + 3]
            leaves.append(SparseTensor(ind, val, shp))
            i += 3
        elif isinstance(spec, RaggedTensorSpec) and spec.ragged_rank:
            k = spec.ragged_rank
            leaves.append(RaggedTensor.from_nested_row_splits(components[i], components[i + 1:i + 1 + k],
                                                              validate=False))
            i += 1 + k
        else:
            leaves.append(components[i])
            i += 1
    return pack_as(structure, leaves)


def numpy_leaves(structure: Any, flat: list[np.ndarray]) -> list[Any]:
    """as_numpy_iterator's leaves: a sparse leaf as its dense array (TF's SparseTensor._numpy, zeros
    elsewhere), a 0-d array as a NumPy scalar, any other array read-only."""
    out, i = [], 0
    for spec in flatten(structure):
        if isinstance(spec, SparseTensorSpec):
            ind, val, shp = flat[i:i + 3]
            dense = np.zeros(tuple(int(d) for d in shp), dtype=object if spec.dtype is dtypes.string else val.dtype)
            for idx, v in zip(ind.tolist(), val):
                dense[tuple(idx)] = v
            out.append(dense)
            i += 3
        elif isinstance(spec, RaggedTensorSpec) and spec.ragged_rank:
            k = spec.ragged_rank
            from simdist.runtime.tensor import Tensor
            rt = RaggedTensor.from_nested_row_splits(Tensor(flat[i], spec.dtype),
                                                     [Tensor(a, spec.row_splits_dtype) for a in flat[i + 1:i + 1 + k]],
                                                     validate=False)
            out.append(rt.numpy())
            i += 1 + k
        else:
            a = flat[i]
            out.append(a[()] if a.ndim == 0 else read_only(a))
            i += 1
    return out


def read_only(a: np.ndarray) -> np.ndarray:
    """A read-only view of an element's array (TF's `_numpy()` of the element tensor: writing into it
    is NumPy's ValueError, and no element of the dataset changes)."""
    v = a.view()
    v.flags.writeable = False
    return v


def _check_ordered(ind: np.ndarray) -> None:
    """SerializeManySparse's check: the indices in row-major order, without repeats."""
    rows = [tuple(r) for r in ind.tolist()]
    for k in range(1, len(rows)):
        if rows[k] <= rows[k - 1]:
            what = "out of order" if rows[k] < rows[k - 1] else "repeated"
            raise errors.InvalidArgumentError(
                None, None, f"indices[{k}] = [{','.join(str(d) for d in rows[k])}] is {what}. Many sparse ops "
                "require sorted indices.\n    Use `tf.sparse.reorder` to create a correctly ordered copy.\n\n")


def slice_sparse(ind: np.ndarray, val: np.ndarray, shp: np.ndarray) -> list[list[np.ndarray]]:
    """The rows (dim 0) of a SparseTensor, each a SparseTensor of one rank less (SerializeManySparse:
    its indices must be ordered)."""
    if shp.shape[0] == 0:
        raise ValueError("Unbatching a sparse tensor is only supported for rank >= 1. Obtained input: "
                         f"a SparseTensor of indices shape {list(ind.shape)} and dense_shape {shp.tolist()}.")
    _check_ordered(ind)
    return _split_rows(ind, val, shp, int(shp[0]))


def _split_rows(ind: np.ndarray, val: np.ndarray, shp: np.ndarray, n: int) -> list[list[np.ndarray]]:
    rows = ind[:, 0] if ind.shape[0] else np.zeros(0, np.int64)
    out = []
    for r in range(n):
        sel = rows == r
        out.append([np.ascontiguousarray(ind[sel, 1:]), val[sel], shp[1:].copy()])
    return out


def unbatch_sparse(ind: np.ndarray, val: np.ndarray, shp: np.ndarray) -> list[list[np.ndarray]]:
    """unbatch's rows of a batched SparseTensor (its dense_shape[0] rows, in index order)."""
    return _split_rows(ind, val, shp, int(shp[0]))


def batch_sparse(parts: list[list[np.ndarray]], dtype: dtypes.DType) -> list[np.ndarray]:
    """One SparseTensor from a batch of them (DeserializeSparse): each element's indices prefixed with
    its position, its values in order, the dense shape [n] + the largest of each dimension. Ranks must
    agree."""
    rank = parts[0][2].shape[0]
    for k, (_, _, shp) in enumerate(parts):
        if shp.shape[0] != rank:
            raise errors.InvalidArgumentError(
                None, None, f"Inconsistent shape across SparseTensors: rank prior to SparseTensor[{k}] was: "
                f"{rank + 1} but rank of SparseTensor[{k}] is: {shp.shape[0] + 1}")
    dims = np.max(np.stack([p[2] for p in parts]), axis=0) if rank else np.zeros(0, np.int64)
    inds = [np.concatenate([np.full((p[0].shape[0], 1), k, np.int64), p[0].reshape(-1, rank)], axis=1)
            for k, p in enumerate(parts)]
    np_dt = object if dtype is dtypes.string else dtype.np
    vals = np.concatenate([p[1] for p in parts]).astype(np_dt, copy=False) if parts else np.zeros(0, np_dt)
    return [np.concatenate(inds, axis=0).astype(np.int64, copy=False), vals,
            np.concatenate([[len(parts)], dims]).astype(np.int64)]


def probe_sparse(spec: SparseTensorSpec, size: int, fill: int) -> list[np.ndarray]:
    """A valid SparseTensor for a function's spec probe: unknown dims `size`, `size - 1` entries (as many
    as fit) at the first positions in row-major order, values `fill` (b"a" for strings when not 0)."""
    rank = spec.shape.rank if spec.shape.rank is not None else 1
    dims = [size] * rank if spec.shape.rank is None else [size if d is None else d for d in spec.shape.as_list()]
    nnz = min(size - 1, int(np.prod(dims)) if dims else 1)
    ind = np.array(np.unravel_index(np.arange(nnz), dims)).T.astype(np.int64) if rank else np.zeros((nnz, 0), np.int64)
    if spec.dtype is dtypes.string:
        val = np.full(nnz, b"a" if fill else b"", dtype=object)
    else:
        val = np.full(nnz, fill, dtype=spec.dtype.np)
    return [ind.reshape(nnz, rank), val, np.asarray(dims, np.int64)]


def probe_flat(structure: Any, size: int, fill: int, dense_probe: Any) -> list[np.ndarray]:
    """A probe element's components: `dense_probe([spec], size, fill)` for a TensorSpec leaf, a valid
    SparseTensor (`probe_sparse`) for a sparse one."""
    out: list[np.ndarray] = []
    for spec in flatten(structure):
        if isinstance(spec, SparseTensorSpec):
            out.extend(probe_sparse(spec, size, fill))
        elif isinstance(spec, RaggedTensorSpec) and spec.ragged_rank:
            out.extend(probe_ragged(spec, size, fill, dense_probe))
        else:
            out.extend(dense_probe([spec], size, fill))
    return out


def probe_ragged(spec: RaggedTensorSpec, size: int, fill: int, dense_probe: Any) -> list[np.ndarray]:
    """A RaggedTensor for a function's spec probe: `size` rows of `size` values at every ragged level
    (uniform splits), flat values from `dense_probe`."""
    k = spec.ragged_rank
    inner = spec.shape[k + 1:] if spec.shape.rank is not None else TensorShape([])
    flat = dense_probe([TensorSpec(TensorShape([size ** (k + 1)]).concatenate(inner), spec.dtype)], size, fill)
    np_dt = spec.row_splits_dtype.np
    splits = [np.arange(size ** j + 1, dtype=np_dt) * size for j in range(1, k + 1)]
    return flat + splits


def batch_ragged(parts: list[list[np.ndarray]], spec: RaggedTensorSpec) -> list[np.ndarray]:
    """One RaggedTensor of ragged_rank k + 1 from a batch of ragged_rank k ones (k = 0: dense tensors of
    different leading sizes): flat values concatenated, each level's splits joined (offset by the
    values before them), the new outer splits the elements' row counts accumulated."""
    k = spec.ragged_rank
    np_dt = spec.row_splits_dtype.np
    flat = np.concatenate([p[0] for p in parts], axis=0) if parts else np.zeros((0,), spec.dtype.np)
    rows = [(p[1].shape[0] - 1) if k else p[0].shape[0] for p in parts]
    outer = np.concatenate([[0], np.cumsum(rows)]).astype(np_dt)
    levels = []
    for j in range(1, k + 1):
        pieces, offset = [np.zeros(1, np_dt)], 0
        for p in parts:
            sp = p[j].astype(np_dt)
            pieces.append(sp[1:] + offset)
            offset += int(sp[-1])
        levels.append(np.concatenate(pieces).astype(np_dt))
    return [flat, outer] + levels


def unbatch_ragged(flat: list[np.ndarray], spec: RaggedTensorSpec) -> list[list[np.ndarray]]:
    """The rows of a RaggedTensor of ragged_rank k >= 1, each of ragged_rank k - 1 (TF's
    RaggedTensorSpec._unbatch), as component lists."""
    k = spec.ragged_rank
    values, splits = flat[0], flat[1:]
    out = []
    for r in range(splits[0].shape[0] - 1):
        lo, hi = int(splits[0][r]), int(splits[0][r + 1])
        inner = []
        for sp in splits[1:]:
            piece = sp[lo:hi + 1]
            inner.append(piece - piece[0])
            lo, hi = int(piece[0]), int(piece[-1])
        out.append([values[lo:hi]] + inner)
    return out
