"""Raw forms of TF's Ragged* kernels, the ops under tf.ragged's public functions (clause ops.ragged).

`tf.gather` of a RaggedTensor runs RaggedGather, `RaggedTensor.to_sparse` RaggedTensorToSparse,
`to_tensor` RaggedTensorToTensor; simdist's tf.ragged computes those functions itself, and a program
can call each kernel through `tf.raw_ops`. Each form here checks its inputs as TF 2.21's kernel does
(tensorflow/core/kernels/ragged_*.cc: error texts and their order, observed) and computes the row
partitions in NumPy as the integer arithmetic they are; the values move through simdist's ops (a
gather, a reshape, a scatter), so a tape sees them and gives TF's registered gradient's values
(ragged_gather_ops._ragged_gather_grad, ragged_tensor._ragged_tensor_to_sparse_gradient, ...).
The shape functions a tf.function runs are in shape_fns_ragged.py.

A few calls make TF 2.21's kernel abort the process or read past its buffers (an OUTPUT_RAGGED_RANK
other than the indices' rank - 1 + PARAMS_RAGGED_RANK: "Check failed: dtype() == expected_dtype";
nested splits whose last value equals the next splits' length); simdist refuses those with
InvalidArgumentError naming what TF does.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.ops.raw_compositions import _invalid

__all__ = ["ragged_bincount", "ragged_count_sparse_output", "ragged_cross", "ragged_fill_empty_rows",
           "ragged_fill_empty_rows_grad", "ragged_gather", "ragged_tensor_to_sparse", "ragged_tensor_to_tensor",
           "PARTITION_TYPES", "partition_types", "ragged_rank_of", "default_value_error", "combine_shapes"]


def _value(t: Any) -> np.ndarray:
    from simdist.runtime.ops import dispatch
    return dispatch.static_value(t)


def _const(a: Any, dtype: Any) -> Any:
    from simdist.runtime.ops.array import constant
    return constant(np.asarray(a, dtype=dtype.np), dtype=dtype)


def slice_debug(shape: list[int], flat: int) -> str:
    """SliceDebugString (tensorflow/core/util/util.cc): "" for a scalar, [i] for a vector, else the
    flat index's coordinates [i,j,...]."""
    if not shape:
        return ""
    if len(shape) == 1:
        return f"[{flat}]"
    coords = []
    for d in reversed(shape):
        coords.append(flat % d if d else 0)
        flat = flat // d if d else 0
    return "[" + ",".join(str(c) for c in reversed(coords)) + "]"


def _rows_of(values: Any, positions: np.ndarray) -> Any:
    """values[positions] along axis 0 by simdist's gather (a tape gives its IndexedSlices gradient)."""
    from simdist.runtime.ops import array
    return array.gather(values, _const(positions, dtypes.int64))


# --- RaggedGather (tensorflow/core/kernels/ragged_gather_op.cc) --------------------------------------------

def _gather_splits_valid(op: str, splits: list[np.ndarray], num_values: int) -> None:
    """RaggedGatherOpBase::ValidateSplits: each splits non-empty, from >= 0, sorted, its last value at most
    the next splits' length (the values' rows for the last)."""
    for dim, s in enumerate(splits):
        last = num_values if dim == len(splits) - 1 else splits[dim + 1].size
        if not s.size:
            raise _invalid(op, "Ragged splits may not be empty")
        if s[0] < 0:
            raise _invalid(op, "Ragged splits must be non-negative")
        if s[-1] > last:
            raise _invalid(op, "Ragged splits must not point past values")
        if (np.diff(s) < 0).any():
            raise _invalid(op, "Ragged splits must be sorted")


def ragged_gather(params_nested_splits: list, params_dense_values: Any, indices: Any,
                  OUTPUT_RAGGED_RANK: int) -> Any:  # noqa: N803 - TF's name
    """RaggedGather: the rows `indices` of the ragged tensor (params_nested_splits, params_dense_values),
    as (output_nested_splits, output_dense_values); the indices' outer dimensions become uniform
    ragged dimensions."""
    op = "RaggedGather"
    splits = [_value(s).ravel().astype(np.int64) for s in params_nested_splits]
    first = params_nested_splits[0].shape.as_list()
    num_params = (first[0] if first else 1) - 1
    ishape = indices.shape.as_list()
    flat = _value(indices).ravel().astype(np.int64)
    for i, v in enumerate(flat.tolist()):   # (ValidateIndices)
        if v < 0 or v >= num_params:
            raise _invalid(op, f"indices{slice_debug(ishape, i)} = {v} is not in [0, {num_params})")
    if params_dense_values.ndim == 0:
        raise _invalid(op, "params.rank must be nonzero")
    num_values = params_dense_values.shape.as_list()[0]
    n_out = len(ishape) - 1 + len(splits)
    if OUTPUT_RAGGED_RANK != n_out:
        raise _invalid(op, f"OUTPUT_RAGGED_RANK {OUTPUT_RAGGED_RANK} is not the indices' rank - 1 + "
                           f"PARAMS_RAGGED_RANK ({n_out}): TF 2.21's kernel aborts the process here")
    _gather_splits_valid(op, splits, num_values)
    out: list[list[int]] = [[0] for _ in range(n_out)]
    nrows = 1
    for dim in range(len(ishape) - 1):   # (the indices' outer dimensions: uniform rows)
        nrows *= ishape[dim]
        out[dim] += [i * ishape[dim + 1] for i in range(1, nrows + 1)]
    pieces: list[np.ndarray] = []
    for v in flat.tolist():
        start, limit = v, v + 1
        for dim, s in enumerate(splits):
            if limit >= s.size:
                raise _invalid(op, "a nested splits' last value is the next splits' length: TF 2.21's kernel reads "
                                   "past the splits there (its values are undefined)")
            o = dim + len(ishape) - 1
            if o >= 0:
                delta = out[o][-1] - int(s[start])
                out[o] += [int(s[j + 1]) + delta for j in range(start, limit)]
            start, limit = int(s[start]), int(s[limit])
        if limit != start:
            pieces.append(np.arange(start, limit, dtype=np.int64))
    positions = np.concatenate(pieces) if pieces else np.zeros([0], np.int64)
    rsd = params_nested_splits[0].dtype
    return [_const(o, rsd) for o in out] + [_rows_of(params_dense_values, positions)]


# --- RaggedTensorToSparse (tensorflow/core/kernels/ragged_tensor_to_sparse_kernel.cc) ----------------------

def ragged_tensor_to_sparse(rt_nested_splits: list, rt_dense_values: Any) -> Any:
    """RaggedTensorToSparse: the SparseTensor (indices, values, dense_shape) of the ragged tensor, its values
    rt_dense_values flattened, each ragged row padded to the widest in dense_shape."""
    op = "RaggedTensorToSparse"
    splits = [_value(s).ravel().astype(np.int64) for s in rt_nested_splits]
    for i, s in enumerate(splits):   # (ValidateInputs)
        if not s.size:
            raise _invalid(op, "ragged splits may not be empty.")
        if s[0] != 0:
            raise _invalid(op, "First value of ragged splits must be 0.")
        d = np.nonzero(np.diff(s) < 0)[0]
        if d.size:
            j = int(d[0]) + 1
            raise _invalid(op, f"Ragged splits should be non decreasing, but we got {s[j - 1]} followed by {s[j]}")
        if i > 0 and s.size != splits[i - 1][-1] + 1:
            raise _invalid(op, "Final value of ragged splits must match the length the corresponding ragged values.")
    vshape = rt_dense_values.shape.as_list()
    if not vshape or vshape[0] != splits[-1][-1]:   # (a scalar's dim_size(0) matches nothing)
        raise _invalid(op, "Final value of ragged splits must match the length the corresponding ragged values.")
    # each value row's ragged coordinates, innermost first: its position in its row, then its row's
    rows = np.arange(int(splits[-1][-1]), dtype=np.int64)
    coords = []
    for s in reversed(splits):
        owner = np.searchsorted(s, rows, side="right") - 1   # (the row of each element: splits non-decreasing)
        coords.append(rows - s[owner])
        rows = owner
    coords.append(rows)
    prefix = np.stack(coords[::-1], axis=1) if len(coords) else np.zeros([0, 0], np.int64)
    inner = vshape[1:]
    suffix = np.stack(np.unravel_index(np.arange(int(np.prod(inner))), inner), axis=1).astype(np.int64) \
        if inner else np.zeros([1, 0], np.int64)
    idx = np.concatenate([np.repeat(prefix, suffix.shape[0], axis=0),
                          np.tile(suffix, (prefix.shape[0], 1))], axis=1)
    idx = idx.reshape(-1, len(splits) + len(vshape))
    widths = [int(np.diff(s).max()) if s.size > 1 else 0 for s in splits]
    first = rt_nested_splits[0].shape.as_list()
    shape = [(first[0] if first else 1) - 1] + widths + inner
    from simdist.runtime.ops import array
    values = rt_dense_values if len(vshape) == 1 else array.reshape(rt_dense_values, [-1])
    return _const(idx, dtypes.int64), values, _const(shape, dtypes.int64)


# --- RaggedTensorToTensor (tensorflow/core/kernels/ragged_tensor_to_tensor_op.cc, util/ragged_to_dense_util.cc) ---

PARTITION_TYPES = ("FIRST_DIM_SIZE", "VALUE_ROWIDS", "ROW_LENGTHS", "ROW_SPLITS", "ROW_LIMITS", "ROW_STARTS")


def partition_types(op: str, names: Any) -> list[str]:
    """GetRowPartitionTypesHelper: each string a RowPartitionType's name."""
    out = [n.decode() if isinstance(n, bytes) else str(n) for n in names]
    for n in out:
        if n not in PARTITION_TYPES:
            raise _invalid(op, f"Unknown string for partition info type: {n}")
    return out


def ragged_rank_of(types: list[str]) -> int:
    """GetRaggedRank: the partitions but a leading FIRST_DIM_SIZE."""
    return len(types) - 1 if types and types[0] == "FIRST_DIM_SIZE" else len(types)


def _dbg(s: list | None) -> str:
    """TensorShape::DebugString of a partial shape: [2,?] (unknown rank: <unknown>)."""
    return "<unknown>" if s is None else "[" + ",".join("?" if d is None or d < 0 else str(d) for d in s) + "]"


def default_value_error(default: list | None, values: list | None) -> str | None:
    """ValidateDefaultValueShape: the default's rank below the values', its dimensions, read from the left
    against the values' from their second, 1 or equal."""
    if default is None or values is None:
        return None
    nd, nv = len(default), len(values)
    head = f"default_value.shape={_dbg(default)} and rt_input.flat_values.shape={_dbg(values)} are incompatible: "
    if nd >= nv:
        return head + f"default_value.rank = {nd}  must be less than rt_input.flat_values.rank = {nv}"
    for i in range(min(nd, nv - 1)):
        d, v = default[i], values[i + 1]
        if d is not None and v is not None and d >= 0 and v >= 0 and d != 1 and d != v:
            return head + (f"default_value.shape[{i - nd}] = {d} but rt_input.flat_values.shape[{i - nd}] = {v}")
    return None


def combine_shapes(ragged_rank: int, shape: list | None, values: list | None) -> tuple[list | None, str | None]:
    """CombineRaggedTensorToTensorShapes: the output's partial shape (-1 unknown), or the error's text."""
    if values is None and shape is None:
        return None, None
    out = [-1] * (ragged_rank + len(values)) if shape is None and values is not None else list(shape or [])
    if values is None:
        return out, None
    given = _dbg(shape)
    if ragged_rank + len(values) != len(out):
        return None, (f"rt_input.shape and shape={given} are incompatible: rt_input.rank = "
                      f"{ragged_rank + len(values)} but shape.rank = {len(out)}")
    for i in range(1, len(values)):
        v = values[i]
        k = len(out) - len(values) + i
        if v is not None and v >= 0:
            if out[k] is not None and out[k] >= 0:
                if out[k] != v:
                    return None, (f"rt_input.shape and shape={given} are incompatible: rt_input.shape[{i + ragged_rank}] "
                                  f"= {v} but shape[{i + ragged_rank}] = {out[k]}")
            else:
                out[k] = v
    return out, None


def _max_width(kind: str, p: np.ndarray) -> int:
    if kind == "ROW_SPLITS":
        return int(max(0, np.diff(p).max())) if p.size > 1 else 0
    if not p.size:   # (VALUE_ROWIDS: the longest run of equal ids)
        return 0
    starts = np.concatenate([[0], np.nonzero(np.diff(p) != 0)[0] + 1, [p.size]])
    return int(np.diff(starts).max())


def _output_index(op: str, kind: str, p: np.ndarray, parent: list[int], mult: int, size: int) -> list[int]:
    """CalculateOutputIndexRowSplit / CalculateOutputIndexValueRowID: each child's first output position, or -1."""
    out: list[int] = []
    if kind == "ROW_SPLITS":
        if p.size - 1 > len(parent):
            raise _invalid(op, f"Row partition size is greater than output size: {p.size - 1} > {len(parent)}")
        for i in range(p.size - 1):
            length = int(p[i + 1] - p[i])
            real = min(size, length)
            cur = parent[i]
            if cur == -1:
                real = 0
            for _ in range(real):
                out.append(cur)
                cur += mult
            out += [-1] * max(0, length - real)
        if p.size > 0 and len(out) != int(p[-1]):
            raise _invalid(op, "Invalid row split size.")
        return out
    if kind != "VALUE_ROWIDS":
        raise _invalid(op, f"Unsupported partition type:{kind}")
    if not p.size:
        return out
    col, rid = 0, int(p[0])
    if rid < 0 or rid >= len(parent):   # (size_t comparison: a negative id is not less either)
        raise _invalid(op, f"Got current_value_rowid={rid} which is not less than {len(parent)}")
    cur = parent[rid]
    out.append(cur)
    for nxt in (int(v) for v in p[1:]):
        if nxt == rid:
            if cur >= 0:
                col += 1
                cur = cur + mult if col < size else -1
        else:
            col, rid = 0, nxt
            if nxt < 0 or nxt >= len(parent):
                raise _invalid(op, f"Got next_value_rowid={nxt} which is not less than {len(parent)}")
            cur = parent[nxt]
        out.append(cur)
    return out


def _copy_map(op: str, index: list[int], n_out: int, n_src: int) -> np.ndarray:
    """SetOutput's loop over output_index in units of value rows: the source row of each output row (-1: the
    default), contiguous regions copied as TF copies them (a region reading past the values is TF's
    out-of-bounds memcpy: refused; one writing past the output keeps what lands inside)."""
    src_of = np.full(n_out, -1, np.int64)
    src_start = dst_start = dst_end = 0   # (a padding fill past the output is clipped the same way)
    for src_i in range(len(index) + 1):
        dst_i = index[src_i] if src_i < len(index) else -1
        if dst_i == dst_end:
            dst_end += 1
            continue
        if dst_start < dst_end:
            if src_start + (dst_end - dst_start) > n_src:
                raise _invalid(op, "the row partitions read past the values: TF 2.21's kernel copies from outside its "
                                   "buffer there (undefined values)")
            # (a region past the output's end: TF's memcpy writes past its buffer, and the output holds the rest;
            # value rowids out of order do it, observed)
            stop = min(dst_end, n_out)
            if dst_start < stop:
                src_of[dst_start:stop] = np.arange(src_start, src_start + stop - dst_start)
        if src_i >= len(index):
            dst_i = n_out
        if dst_i > dst_end:
            src_of[dst_end:dst_i] = -1
            dst_end = dst_i
        if dst_i < 0:
            src_start, dst_start = src_i + 1, dst_end
        else:
            src_start, dst_start, dst_end = src_i, dst_end, dst_end + 1
    return src_of


def _shape_input(op: str, shape: Any) -> list | None:
    """TensorShapeFromTensor: a scalar -1 is an unknown shape, a vector its dimensions (>= -1)."""
    if shape.ndim > 1:
        raise _invalid(op, f"Shape must be at most rank 1 but is rank {shape.ndim}")
    v = _value(shape)
    if shape.ndim == 0:
        if int(v) != -1:
            raise _invalid(op, "The only valid scalar shape tensor is the fully unknown shape specified as -1.")
        return None
    dims = [int(d) for d in v.tolist()]
    for d in dims:
        if d < -1:
            raise _invalid(op, f"Dimension {d} must be >= -1")
    return dims


def ragged_tensor_to_tensor(shape: Any, values: Any, default_value: Any, row_partition_tensors: list,
                            row_partition_types: Any) -> Any:
    """RaggedTensorToTensor: the ragged tensor (values, its row partitions) as a dense tensor of `shape` (-1:
    the first dimension's rows, the widest row), padded with default_value (broadcast to a value's shape)."""
    op = "RaggedTensorToTensor"
    types = partition_types(op, row_partition_types)
    rank = ragged_rank_of(types)
    first_t = row_partition_tensors[0]
    if int(np.prod(first_t.shape.as_list())) == 0:
        raise _invalid(op, "Invalid first partition input. Tensor requires at least one element.")
    if not types:
        raise _invalid(op, "No row_partition_types given.")
    if types[0] == "FIRST_DIM_SIZE":
        first = int(_value(first_t).ravel()[0])
    elif types[0] == "VALUE_ROWIDS":
        raise _invalid(op, "Cannot handle VALUE_ROWIDS in first dimension.")
    elif types[0] == "ROW_SPLITS":
        first = first_t.shape.as_list()[0] - 1
    else:
        raise _invalid(op, f"Cannot handle type {types[0]}")
    vshape = values.shape.as_list()
    dshape = default_value.shape.as_list()
    bad = default_value_error(dshape, vshape)
    if bad is not None:
        raise _invalid(op, bad)
    given = _shape_input(op, shape)
    combined, bad = combine_shapes(rank, given, vshape)
    if bad is not None:
        raise _invalid(op, bad)
    assert combined is not None
    offset = 1 if types[0] == "FIRST_DIM_SIZE" else 0
    parts = [_value(t).ravel().astype(np.int64) for t in row_partition_tensors[offset:]]
    sizes = list(combined)
    if sizes[0] < 0:
        sizes[0] = first
    for i in range(1, rank + 1):
        if sizes[i] < 0:
            if types[offset + i - 1] not in ("ROW_SPLITS", "VALUE_ROWIDS"):
                raise _invalid(op, f"Cannot handle partition type {types[offset + i - 1]}")
            sizes[i] = _max_width(types[offset + i - 1], parts[i - 1])
    for d in sizes:
        if d < 0:
            raise _invalid(op, f"Dimension {d} must be >= 0")
    mult = [1] * (rank + 1)
    for i in range(rank - 1, -1, -1):
        mult[i] = mult[i + 1] * sizes[i + 1]
    outer = int(np.prod(sizes[:rank + 1]))
    elem = sizes[rank + 1:]
    src_of = np.full(outer, -1, np.int64)
    if outer * int(np.prod(elem)) > 0:
        index = [i * mult[0] if i < min(first, sizes[0]) else -1 for i in range(max(first, 0))]
        for i in range(1, rank + 1):
            index = _output_index(op, types[offset + i - 1], parts[i - 1], index, mult[i], sizes[i])
        src_of = _copy_map(op, index, outer, vshape[0])
    return _assemble(values, default_value, src_of, sizes, elem)


def _assemble(values: Any, default_value: Any, src_of: np.ndarray, sizes: list[int], elem: list[int]) -> Any:
    """The output: value row src_of[k] at outer position k, the default (broadcast to a value's shape) where -1."""
    from simdist.runtime.ops import array, math
    op = "RaggedTensorToTensor"
    dn = int(np.prod(default_value.shape.as_list()))
    en = int(np.prod(elem))
    if dn not in (1, en):
        try:
            np.broadcast_shapes(tuple(default_value.shape.as_list()), tuple(elem))
        except ValueError:
            raise _invalid(op, "Error broadcasting default_value") from None
    fill = array.reshape(default_value, elem) if dn == en else array.broadcast_to(
        array.reshape(default_value, []) if dn == 1 else default_value, elem)
    outer = src_of.size
    taken = src_of >= 0
    pad = array.broadcast_to(array.reshape(fill, [1] + elem), [outer] + elem)
    if taken.any():
        rows = array.gather(values, _const(np.where(taken, src_of, 0), dtypes.int64))
        mask = _const(taken.reshape([outer] + [1] * len(elem)), dtypes.bool_)
        out = math.where(array.broadcast_to(mask, [outer] + elem), rows, pad)
    else:
        out = pad
    return array.reshape(out, sizes)


# --- RaggedFillEmptyRows and its Grad (tensorflow/core/kernels/ragged_fill_empty_rows_op.cc) -----------------------

def _dims_text(shape: list[int]) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


def ragged_fill_empty_rows(value_rowids: Any, values: Any, nrows: Any, default_value: Any) -> Any:
    """RaggedFillEmptyRows: each of the nrows rows without a value gets default_value, rows grouped in order (an
    ordered input keeps its order): (output_value_rowids, output_values, empty_row_indicator, reverse_index_map).
    Computed by SparseFillEmptyRows' op on the rowids as [N, 1] indices (runtime/ops/sparse_core.py), whose
    registered gradient is TF's _ragged_fill_empty_rows_grad's (the Grad kernel below)."""
    from simdist.runtime.ops import array, dispatch, sparse_core
    op = "RaggedFillEmptyRows"
    checks = ((nrows.ndim == 0, f"nrows must be a scalar, saw: {_dims_text(nrows.shape.as_list())}"),
              (value_rowids.ndim == 1, f"value_rowids must be a vector, saw: {_dims_text(value_rowids.shape.as_list())}"),
              (values.ndim == 1, f"values must be a vector, saw: {_dims_text(values.shape.as_list())}"))
    for ok, text in checks:
        if not ok:
            raise _invalid(op, text)
    n, nv = value_rowids.shape.as_list()[0], values.shape.as_list()[0]
    if n != nv:
        raise _invalid(op, f"The length of `values` ({nv}) must match the first dimension of `value_rowids` ({n}).")
    if default_value.ndim != 0:
        raise _invalid(op, f"default_value must be a scalar, saw: {_dims_text(default_value.shape.as_list())}")
    rows = int(_value(nrows))
    if rows < 0:   # (the empty_row_indicator output's shape, allocated first)
        raise _invalid(op, f"Expected shape dimensions to be non-negative, got {rows}")
    if rows == 0 and n:
        raise _invalid(op, f"Received SparseTensor with dense_shape[0] = 0 but indices.shape[0] = {n}")
    for i, r in enumerate(_value(value_rowids).tolist()):
        if r < 0 or r >= rows:   # (TF 2.21's text says >= for a negative row too)
            raise _invalid(op, f"indices({i}, 0) is invalid: {r} >= {rows}")
    ind, vals, empty, reverse = dispatch.execute(
        sparse_core.FILL_EMPTY_ROWS, (array.reshape(value_rowids, [-1, 1]), values, array.reshape(nrows, [1]),
                                      default_value))
    # (no rows: TF 2.21 allocates the rowids output as the sparse kernel's [0, 1] indices, observed)
    return array.reshape(ind, [0, 1] if rows == 0 else [-1]), vals, empty, reverse


def ragged_fill_empty_rows_grad(reverse_index_map: Any, grad_values: Any) -> Any:
    """RaggedFillEmptyRowsGrad: (d_values, d_default_value): grad_values at each value's new place, and the rest
    summed in order (SparseFillEmptyRowsGrad's kernel, with this op's texts)."""
    from simdist.runtime.ops import dispatch, sparse_core
    op = "RaggedFillEmptyRowsGrad"
    for what, t in (("reverse_index_map", reverse_index_map), ("grad_values", grad_values)):
        if t.ndim != 1:
            raise _invalid(op, f"{what} must be a vector, saw: {_dims_text(t.shape.as_list())}")
    full = grad_values.shape.as_list()[0]
    for r in _value(reverse_index_map).tolist():
        if not 0 <= r < full:
            raise _invalid(op, f"Elements in reverse index must be in [0, {full}) but got {r}")
    return tuple(dispatch.execute(sparse_core.FILL_EMPTY_ROWS_GRAD, (reverse_index_map, grad_values)))


# --- RaggedBincount (core/kernels/bincount_op.cc) and RaggedCountSparseOutput (core/kernels/count_ops.cc) -----------

def _batch_rows(splits: np.ndarray, n: int) -> np.ndarray:
    """Each value's row as the kernels' loop finds it (`while (idx >= splits(batch_idx)) batch_idx++`, then
    batch_idx - 1): splits out of order put values in the row they reach first, as TF's loop does."""
    rows = np.empty(n, np.int64)
    b = 0
    for idx in range(n):
        while idx >= splits[b]:
            b += 1
        rows[idx] = b - 1
    return rows


def _splits_ends(op: str, splits: np.ndarray, n: int) -> None:
    if splits[0] != 0:
        raise _invalid(op, f"Splits must start with 0, not with {splits[0]}")
    if splits[-1] != n:
        raise _invalid(op, f"Splits must end with the number of values, got {splits[-1]} instead of {n}")


def ragged_bincount(splits: Any, values: Any, size: Any, weights: Any, binary_output: bool) -> Any:
    """RaggedBincount: a dense [rows, size] count (or sum of weights, or 1 with binary_output) of each row's
    values below size, added in order in the weights' dtype; a negative value is InvalidArgumentError."""
    op = "RaggedBincount"
    if size.ndim != 0:
        raise _invalid(op, f"Shape must be rank 0 but is rank {size.ndim}")
    n_size = int(_value(size))
    if n_size < 0:
        raise _invalid(op, f"size ({n_size}) must be non-negative")
    s = _value(splits).ravel().astype(np.int64)
    if not s.size:
        raise _invalid(op, "Splits must be non-empty")
    v = _value(values).ravel().astype(np.int64)
    _splits_ends(op, s, v.size)
    w = _value(weights).ravel()
    dt = weights.dtype
    out = np.zeros((s.size - 1, n_size), dt.np)
    rows = _batch_rows(s, v.size)
    with np.errstate(all="ignore"):
        for idx in range(v.size):
            bin_ = int(v[idx])
            if bin_ < 0:
                raise _invalid(op, "Input must be non-negative")
            if bin_ < n_size:
                if binary_output:
                    out[rows[idx], bin_] = 1
                else:
                    if w.size and idx >= w.size:
                        raise _invalid(op, f"weights hold {w.size} values, fewer than the values ({v.size}): TF 2.21's "
                                           "kernel reads past its weights there (undefined values)")
                    out[rows[idx], bin_] = out[rows[idx], bin_] + (w[idx] if w.size else dt.np.type(1))
    return _const(out, dt)


def ragged_count_sparse_output(splits: Any, values: Any, weights: Any, binary_output: bool, minlength: int,
                               maxlength: int) -> Any:
    """RaggedCountSparseOutput: per row a sorted sparse map value -> count (or summed weight, 1 with
    binary_output) of the values below maxlength, as (output_indices, output_values, output_dense_shape) with
    dense shape [rows, maxlength, or max(largest + 1, minlength)] (sparse_count.py's counting)."""
    from simdist.runtime.ops import sparse_count
    op = "RaggedCountSparseOutput"
    v = _value(values).ravel().astype(np.int64)
    w = _value(weights)
    if w.size and tuple(weights.shape.as_list()) != tuple(values.shape.as_list()):
        raise _invalid(op, f"Weights and values must have the same shape. Weight shape: "
                           f"{_dims_text(weights.shape.as_list())}; values shape: {_dims_text(values.shape.as_list())}")
    s = _value(splits).ravel().astype(np.int64)
    if s.size - 1 <= 0:
        raise _invalid(op, "Must provide at least 2 elements for the splits argument")
    _splits_ends(op, s, v.size)
    ind, vals, shape = sparse_count._counted(_batch_rows(s, v.size), v, w.ravel(), s.size - 1, minlength, maxlength,
                                             binary_output, weights.dtype.np, op)
    return _const(ind, dtypes.int64), _const(vals, weights.dtype), _const(shape, dtypes.int64)


# --- RaggedCross (core/kernels/ragged_cross_op.cc) -----------------------------------------------------------------

def _verify_splits(op: str, s: np.ndarray, n: int) -> None:
    """RaggedTensorVerifySplits (core/util/ragged_utils.h) with its last-element check."""
    if s.size < 1:
        raise _invalid(op, "Invalid ragged splits: ragged splits must have at least one splits, but is empty")
    if s[0] != 0:
        raise _invalid(op, f"Invalid ragged splits: first element of ragged splits  must be 0 but is {s[0]}")
    for j in range(1, s.size):
        if s[j] < s[j - 1]:
            raise _invalid(op, f"Invalid ragged splits: ragged splits must be monotonically increasing, but "
                               f"ragged_splits[{j}]={s[j]} is smaller than row_splits[{j - 1}]={s[j - 1]}")
    if s[-1] != n:
        raise _invalid(op, f"Invalid ragged splits: last element of ragged splits must be the number of ragged "
                           f"values({n}) but is {s[-1]}")


def ragged_cross(ragged_values: list, ragged_row_splits: list, sparse_indices: list, sparse_values: list,
                 sparse_shape: list, dense_inputs: list, input_order: str, hashed_output: bool, num_buckets: int,
                 hash_key: int, out_values_type: Any, out_row_splits_type: Any) -> Any:
    """RaggedCross: per batch row, every combination of one feature from each input taken in input_order (R
    ragged, S sparse, D dense; the last input varying fastest), as (output_values, output_row_splits): int64
    output values are the crosses hashed (FingerprintCat64 from hash_key, modulo num_buckets), string ones the
    features joined by "_X_" (the output dtype decides, not hashed_output, as the kernel's writer does)."""
    from simdist.runtime.ops import sparse_cross as sc
    op = "RaggedCross"
    if len(ragged_values) != len(ragged_row_splits):
        raise _invalid(op, "ragged values and splits must have the same length")
    if len(ragged_values) + len(sparse_values) + len(dense_inputs) != len(input_order):
        raise _invalid(op, "Invalid length for input_order")
    for s in ragged_row_splits:
        if s.dtype != out_row_splits_type:
            raise _invalid(op, f"ragged_row_splits of {s.dtype.name} with out_row_splits_type "
                               f"{dtypes.as_dtype(out_row_splits_type).name}: TF 2.21's kernel reads them as the "
                               "output's type and aborts the process")
    for v, s in zip(ragged_values, ragged_row_splits):   # (ValidateInput)
        if v.ndim != 1 or s.ndim != 1:
            raise _invalid(op, "tf.ragged.cross only supports inputs with rank=2.")
        _verify_splits(op, _value(s).astype(np.int64), v.shape.as_list()[0])
    for i, (ind, val, shp) in enumerate(zip(sparse_indices, sparse_values, sparse_shape)):
        if ind.ndim != 2 or val.ndim != 1 or shp.ndim != 1:
            raise _invalid(op, f"Invalid SparseTensor {i}")
        if shp.shape.as_list()[0] != 2:
            raise _invalid(op, "tf.ragged.cross only supports inputs with rank=2.")
    for d in dense_inputs:
        if d.ndim != 2:
            raise _invalid(op, "tf.ragged.cross only supports inputs with rank=2.")
    if ragged_row_splits:
        batch = ragged_row_splits[0].shape.as_list()[0] - 1
    elif dense_inputs:
        batch = dense_inputs[0].shape.as_list()[0]
    elif sparse_shape:
        batch = int(_value(sparse_shape[0])[0])
    else:
        batch = 0
    sizes = ([s.shape.as_list()[0] - 1 for s in ragged_row_splits] + [int(_value(s)[0]) for s in sparse_shape]
             + [d.shape.as_list()[0] for d in dense_inputs])
    if any(b != batch for b in sizes):
        raise _invalid(op, "inputs must all have the same batch dimension size.")
    hashed = dtypes.as_dtype(out_values_type) == dtypes.int64
    feature = sc._feature_hash if hashed else sc._text
    rows_of: list[list[list[Any]]] = []
    nxt = {"R": 0, "S": 0, "D": 0}
    for c in input_order:
        if c not in nxt:
            raise _invalid(op, "Unexpected input_order value.")
        k = nxt[c]
        nxt[c] += 1
        if c == "R":
            vals, s = _value(ragged_values[k]).tolist(), _value(ragged_row_splits[k]).tolist()
            rows = [vals[a:b] for a, b in zip(s[:-1], s[1:])]
        elif c == "S":
            ind, vals = _value(sparse_indices[k]), _value(sparse_values[k]).tolist()
            rows = [[] for _ in range(batch)]
            for j, v in enumerate(vals):   # (SparseFeatureReader: a row's values in their order)
                rows[int(ind[j, 0])].append(v)
        else:
            rows = [list(r) for r in _value(dense_inputs[k]).tolist()]
        rows_of.append([[feature(v) for v in r] for r in rows])
    key = int(hash_key) & ((1 << 64) - 1)
    values: list[Any] = []
    splits = [0]
    for b in range(batch):
        for combo in itertools.product(*[r[b] for r in rows_of]):
            if hashed:
                h = key
                for f in combo:
                    h = sc.fingerprint_cat64(h, f)
                values.append(h % int(num_buckets) if num_buckets > 0 else h % ((1 << 63) - 1))
            else:
                values.append(b"_X_".join(combo))
        splits.append(len(values))
    out_dt = dtypes.int64 if hashed else dtypes.string
    arr = np.asarray(values, dtype=np.int64 if hashed else object).reshape(len(values))
    from simdist.runtime.tensor import convert_to_tensor
    return convert_to_tensor(arr, dtype=out_dt), _const(splits, dtypes.as_dtype(out_row_splits_type))
