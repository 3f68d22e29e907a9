"""More of TF 2.21's ragged dispatch (ragged_dispatch.py, ragged_array_ops.py, ragged_math_ops.py,
ragged_string_ops.py, ragged_embedding_ops.py, ragged_where_op.py, ragged_gather_ops.py,
ragged_squeeze_op.py): ops that act row by row or on the flat values of a RaggedTensor —
one_hot and embedding_lookup (of ragged ids: the flat ids looked up, the rows kept), softmax over the
innermost ragged rows, cumsum along a row, reverse, tile, split of rows, squeeze of a uniform
dimension of 1, where(condition) (the coordinates of the True values), gather_nd, reshape to a dense
shape (the flat values in row-major order), add_n, strings.join and strings.reduce_join,
unsorted segment reductions of ragged data and ids, dropout, and tf.shape / tf.zeros / tf.ones with
a DynamicRaggedShape (simdist/runtime/ragged_shape.py). Each `ragged_*` wraps the facade's function
of that name; values go through simdist ops so a tape sees them. Clause ops.ragged."""

from __future__ import annotations

import functools
from typing import Any, Callable

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime import ragged_partition as rp
from simdist.runtime.ops import array, math, scatter
from simdist.runtime.ops.ragged_functions import _gather_rows
from simdist.runtime.ragged_shape import DynamicRaggedShape, shape_of
from simdist.runtime.ragged_tensor import RaggedTensor, _ragged_indices
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["install"]


def _ids(a: Any) -> Tensor:
    return convert_to_tensor(np.asarray(a, np.int64).reshape(-1), dtype=dtypes.int64)


def _same_rows(items: list) -> list:
    """The flat values of ragged operands sharing one partition (ragged_dispatch's matching)."""
    from simdist.runtime.ops.ragged_dispatch import _match
    first = next(v for v in items if isinstance(v, RaggedTensor))
    return [_match(first, v)[1] if isinstance(v, RaggedTensor) else v for v in items]


def ragged_one_hot(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapped(indices: Any, depth: Any, on_value: Any = None, off_value: Any = None, axis: Any = None,
                dtype: Any = None, name: Any = None) -> Any:
        if not isinstance(indices, RaggedTensor):
            return fn(indices, depth, on_value, off_value, axis, dtype, name)
        rr = indices.ragged_rank
        if axis is not None and axis != -1 and axis <= rr:
            raise ValueError(f"axis ({axis}) must be greater than indices.ragged_rank ({rr}).")
        ax = None if axis in (None, -1) else axis - rr
        return indices.with_flat_values(fn(indices.flat_values, depth, on_value, off_value, ax, dtype))
    return wrapped


def ragged_embedding_lookup(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapped(params: Any, ids: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(ids, RaggedTensor):
            return ids.with_flat_values(fn(params, ids.flat_values, *args, **kwargs))
        return fn(params, ids, *args, **kwargs)
    return wrapped


def _innermost(rt: RaggedTensor) -> RaggedTensor:
    v = rt
    while isinstance(v.values, RaggedTensor):
        v = v.values
    return v


def ragged_softmax(fn: Callable[..., Any]) -> Callable[..., Any]:
    """tf.nn.softmax of a RaggedTensor over its last axis: each innermost row (a dense last axis:
    the flat values' own softmax)."""
    @functools.wraps(fn)
    def wrapped(logits: Any, axis: Any = None, name: Any = None) -> Any:
        if not isinstance(logits, RaggedTensor):
            return fn(logits, axis, name)
        rank = logits.shape.rank
        if axis not in (None, -1, rank - 1):
            raise NotImplementedError("simdist's ragged softmax takes the last axis only")
        flat = logits.flat_values
        if flat.shape.rank > 1:
            return logits.with_flat_values(fn(flat, -1))
        inner = _innermost(logits)
        s = inner.row_splits._v.astype(np.int64)
        n = len(s) - 1
        rowids = _ids(np.repeat(np.arange(n), s[1:] - s[:-1]))
        from simdist.runtime.ops import segments, exp
        m = segments.unsorted_segment_max(flat, rowids, n)
        e = exp(math.subtract(flat, array.gather(m, rowids)))
        total = scatter.unsorted_segment_sum(e, rowids, n)
        return logits.with_flat_values(math.divide(e, array.gather(total, rowids)))
    return wrapped


def ragged_cumsum(fn: Callable[..., Any]) -> Callable[..., Any]:
    """tf.math.cumsum of a RaggedTensor along a ragged row axis, as ragged_math_ops'
    _cumsum_flat_values_at_ragged_rank composes it: E, the flat values' exclusive cumsum (reversed for
    reverse), less E at each row's eldest sibling (youngest, reversed), and for an inclusive sum the
    flat values added after: `(E - E[first]) + x`, so a one-element row is x exactly (fz48b_gen seed 48002
    #5, a float16 row; simdist had subtracted from the inclusive cumsum, one ulp off)."""
    @functools.wraps(fn)
    def wrapped(x: Any, axis: Any = 0, exclusive: bool = False, reverse: bool = False, name: Any = None) -> Any:
        if not isinstance(x, RaggedTensor):
            return fn(x, axis, exclusive, reverse, name)
        rank = x.shape.rank
        ax = int(axis) + rank if int(axis) < 0 else int(axis)
        if ax >= x.ragged_rank + 1:
            return x.with_flat_values(fn(x.flat_values, ax - x.ragged_rank, exclusive, reverse))
        if ax < x.ragged_rank:
            # (an axis above the innermost ragged one: ragged_cumsum pads to a dense tensor, sums it there and cuts the
            # rows back with from_tensor(lengths=nested_row_lengths()): the dense sums at each flat value's [row, col,
            # ...] position, in x's partitions (and splits dtype); fz55b seed 55207 #52)
            dense = fn(x.to_tensor(), ax, exclusive, reverse)
            idx = _ragged_indices(x)
            vals = scatter.gather_nd(dense, convert_to_tensor(idx.reshape(len(idx), x.ragged_rank + 1),
                                                              dtype=dtypes.int64))
            return x.with_flat_values(vals)
        inner = _innermost(x)
        flat = x.flat_values
        s = inner.row_splits._v.astype(np.int64)
        lengths = s[1:] - s[:-1]
        base_all = fn(flat, 0, True, reverse)
        anchor = np.repeat(s[1:] - 1 if reverse else s[:-1], lengths)
        partial = math.subtract(base_all, array.gather(base_all, _ids(anchor)))
        return x.with_flat_values(partial if exclusive else math.add(partial, flat))
    return wrapped


def _reverse_rows(rt: Any, axes: list[int]) -> Any:
    if not isinstance(rt, RaggedTensor):
        from simdist.runtime.ops.slicing import reverse
        return reverse(rt, axes) if axes else rt
    out = rt
    if 0 in axes:
        out = _gather_rows(out, _ids(np.arange(out.nrows_int())[::-1]))
    if 1 in axes:
        s = out.row_splits._v.astype(np.int64)
        order = np.concatenate([np.arange(b - 1, a - 1, -1) for a, b in zip(s[:-1], s[1:])]) if len(s) > 1 \
            else np.zeros(0, np.int64)
        out = RaggedTensor(_gather_rows(out.values, _ids(order)), out.row_splits, internal=True, uniform=out._uniform)
    deeper = [a - 1 for a in axes if a >= 2]
    if deeper:
        out = out.with_values(_reverse_rows(out.values, deeper))
    return out


def ragged_reverse(fn: Callable[..., Any]) -> Callable[..., Any]:
    """tf.reverse of a RaggedTensor: axis 0 reverses the rows, axis 1 each row, deeper the values."""
    @functools.wraps(fn)
    def wrapped(tensor: Any, axis: Any, name: Any = None) -> Any:
        if not isinstance(tensor, RaggedTensor):
            return fn(tensor, axis, name)
        rank = tensor.shape.rank
        axes = [int(a) + rank if int(a) < 0 else int(a) for a in np.asarray(
            axis._v if isinstance(axis, Tensor) else axis).reshape(-1)]
        return _reverse_rows(tensor, axes)
    return wrapped


def _tile(x: Any, m: list[int], dense_tile: Callable[..., Any]) -> Any:
    """x tiled by m: its rows repeated m[0] times, each row's contents m[1] times, and so on inward."""
    if not isinstance(x, RaggedTensor):
        return dense_tile(x, m) if any(v != 1 for v in m) else x
    rows = _gather_rows(x, _ids(np.tile(np.arange(x.nrows_int()), m[0]))) if m[0] != 1 else x
    s = rows.row_splits._v.astype(np.int64)
    order = np.concatenate([np.tile(np.arange(a, b), m[1]) for a, b in zip(s[:-1], s[1:])]) if len(s) > 1 \
        else np.zeros(0, np.int64)
    values = _gather_rows(rows.values, _ids(order)) if m[1] != 1 else rows.values
    lengths = (s[1:] - s[:-1]) * m[1]
    return RaggedTensor(_tile(values, [1] + m[2:], dense_tile),
                        rp.as_splits_tensor(np.concatenate([[0], np.cumsum(lengths)]), x.row_splits_dtype),
                        internal=True, uniform=None if x._uniform is None else x._uniform * m[1])


def ragged_tile(fn: Callable[..., Any]) -> Callable[..., Any]:
    """tf.tile of a RaggedTensor: the rows repeated multiples[0] times, each row's contents
    multiples[1] times, inward to the flat values' dimensions (tiled as dense ones)."""
    @functools.wraps(fn)
    def wrapped(input: Any, multiples: Any, name: Any = None) -> Any:  # noqa: A002
        if not isinstance(input, RaggedTensor):
            return fn(input, multiples, name)
        m = [int(x) for x in np.asarray(multiples._v if isinstance(multiples, Tensor) else multiples).reshape(-1)]
        if len(m) != input.shape.rank:
            raise ValueError(f"Expected {input.shape.rank} multiples, got {len(m)}")
        return _tile(input, m, fn)
    return wrapped


def ragged_split(fn: Callable[..., Any]) -> Callable[..., Any]:
    """tf.split of a RaggedTensor along axis 0: its rows in num_or_size_splits pieces."""
    @functools.wraps(fn)
    def wrapped(value: Any, num_or_size_splits: Any, axis: Any = 0, num: Any = None, name: str = "split") -> Any:
        if not isinstance(value, RaggedTensor):
            return fn(value, num_or_size_splits, axis, num, name)
        if int(axis) != 0:
            raise NotImplementedError("simdist splits a RaggedTensor along axis 0 only")
        n = value.nrows_int()
        spec = num_or_size_splits._v if isinstance(num_or_size_splits, Tensor) else num_or_size_splits
        if np.ndim(spec) == 0:
            k = int(spec)
            if k <= 0 or n % k:
                raise errors.InvalidArgumentError(None, None, f"Number of ways to split should evenly divide the "
                                                  f"split dimension, but got split_dim 0 (size = {n}) and "
                                                  f"num_split {k}")
            sizes = [n // k] * k
        else:
            sizes = [int(x) for x in np.asarray(spec).reshape(-1)]
        out, start = [], 0
        for size in sizes:
            out.append(_gather_rows(value, _ids(np.arange(start, start + size))))
            start += size
        return out
    return wrapped


def ragged_squeeze(fn: Callable[..., Any]) -> Callable[..., Any]:
    """tf.squeeze of a RaggedTensor: the given axes, each a uniform dimension of size 1 (a ragged
    one: InvalidArgumentError "the given axis (axis = 1) is not squeezable!")."""
    @functools.wraps(fn)
    def wrapped(input: Any, axis: Any = None, name: Any = None) -> Any:  # noqa: A002
        if not isinstance(input, RaggedTensor):
            return fn(input, axis, name)
        if axis is None:
            raise ValueError("Ragged.squeeze must have an axis argument.")
        rank = input.shape.rank
        axes = sorted({int(a) + rank if int(a) < 0 else int(a) for a in np.asarray(axis).reshape(-1)}, reverse=True)
        out: Any = input
        for a in axes:
            out = _squeeze(out, a)
        return out
    return wrapped


def _squeeze(rt: Any, a: int) -> Any:
    if not isinstance(rt, RaggedTensor):
        return array.squeeze(rt, [a])
    if a == 0:
        raise ValueError("Ragged.squeeze does not support squeezing the outermost (batch) dimension.")
    if a == 1:
        s = rt.row_splits._v
        if not (s[1:] - s[:-1] == 1).all():
            raise errors.InvalidArgumentError(None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be "
                                              "true. Summarized data: b'the given axis (axis = 1) is not "
                                              "squeezable!'")
        return rt.values
    return rt.with_values(_squeeze(rt.values, a - 1))


def ragged_where(fn: Callable[..., Any]) -> Callable[..., Any]:
    """tf.where(condition) of a RaggedTensor: the [row, column, ...] coordinates of its True values
    (int64)."""
    @functools.wraps(fn)
    def wrapped(condition: Any, x: Any = None, y: Any = None, name: Any = None) -> Any:
        if not isinstance(condition, RaggedTensor) or x is not None or y is not None:
            return fn(condition, x, y, name)
        idx = _ragged_indices(condition)
        flat = condition.flat_values._v
        if flat.ndim > 1:
            inner = np.argwhere(flat)
            coords = np.concatenate([idx[inner[:, 0]], inner[:, 1:]], axis=1)
        else:
            coords = idx[np.asarray(flat, bool)]
        return convert_to_tensor(coords.astype(np.int64).reshape(-1, condition.shape.rank), dtype=dtypes.int64)
    return wrapped


def ragged_gather_nd(fn: Callable[..., Any]) -> Callable[..., Any]:
    """tf.gather_nd of ragged params and 2-D dense indices: each index row walks the ragged
    dimensions (a partial index gives a row)."""
    @functools.wraps(fn)
    def wrapped(params: Any, indices: Any, batch_dims: int = 0, name: Any = None, bad_indices_policy: str = "") -> Any:
        if not isinstance(params, RaggedTensor):
            return fn(params, indices, batch_dims, name, bad_indices_policy)
        ind = np.asarray(indices._v if isinstance(indices, Tensor) else indices, np.int64)
        if ind.ndim != 2 or batch_dims:
            raise NotImplementedError("simdist's ragged gather_nd takes 2-D indices and batch_dims=0 only")
        k = ind.shape[1]
        rows = ind[:, 0]
        level: Any = params
        for d in range(1, k):
            if not isinstance(level, RaggedTensor):
                vals = array.gather(level, _ids(rows))
                return fn(vals, convert_to_tensor(ind[:, d:], dtype=dtypes.int64))
            s = level.row_splits._v.astype(np.int64)
            if (rows >= len(s) - 1).any() or (ind[:, d] >= s[1:][rows] - s[:-1][rows]).any():
                raise errors.InvalidArgumentError(None, None, "indices out of range [Op:GatherNd]")
            rows = s[:-1][rows] + ind[:, d]
            level = level.values
        if isinstance(level, RaggedTensor):
            return _gather_rows(level, _ids(rows))
        return array.gather(level, _ids(rows))
    return wrapped


def ragged_reshape(fn: Callable[..., Any]) -> Callable[..., Any]:
    """tf.reshape of a RaggedTensor to a dense shape: its flat values (row-major) reshaped."""
    @functools.wraps(fn)
    def wrapped(tensor: Any, shape: Any, name: Any = None) -> Any:
        if isinstance(tensor, RaggedTensor) and not isinstance(shape, DynamicRaggedShape):
            return fn(tensor.flat_values, shape)
        return fn(tensor, shape, name)
    return wrapped


def ragged_add_n(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapped(inputs: Any, name: Any = None) -> Any:
        if isinstance(inputs, (list, tuple)) and any(isinstance(v, RaggedTensor) for v in inputs):
            rt = next(v for v in inputs if isinstance(v, RaggedTensor))
            return rt.with_flat_values(fn(_same_rows(list(inputs))))
        return fn(inputs, name)
    return wrapped


def ragged_strings_join(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapped(inputs: Any, separator: str = "", name: Any = None) -> Any:
        if isinstance(inputs, (list, tuple)) and any(isinstance(v, RaggedTensor) for v in inputs):
            rt = next(v for v in inputs if isinstance(v, RaggedTensor))
            return rt.with_flat_values(fn(_same_rows(list(inputs)), separator=separator))
        return fn(inputs, separator=separator, name=name)
    return wrapped


def ragged_reduce_join(fn: Callable[..., Any]) -> Callable[..., Any]:
    """tf.strings.reduce_join of a ragged_rank-1 RaggedTensor of strings: every value (axis None,
    the dense op), each row (axis 1) or each column (axis 0) joined as UnsortedSegmentJoin joins."""
    @functools.wraps(fn)
    def wrapped(inputs: Any, axis: Any = None, keepdims: bool = False, separator: str = "", name: Any = None) -> Any:
        if not isinstance(inputs, RaggedTensor):
            return fn(inputs, axis, keepdims, separator, name)
        if axis is None:
            return fn(inputs.flat_values, None, keepdims, separator)
        if inputs.ragged_rank != 1 or inputs.flat_values.shape.rank != 1 or keepdims:
            raise NotImplementedError("simdist's ragged reduce_join takes a 2-D ragged_rank-1 input, no keepdims")
        ax = int(axis) + 2 if int(axis) < 0 else int(axis)
        sep = separator.encode() if isinstance(separator, str) else bytes(separator)
        rows = inputs.to_list()

        def join(items: list) -> bytes:
            # (UnsortedSegmentJoin, which ragged_reduce_aggregate uses: an item joins with the
            # separator only once the segment's string is not empty, so leading empty items vanish)
            out = b""
            for v in items:
                out = v if out == b"" else out + sep + v
            return out
        if ax == 1:
            out = [join(r) for r in rows]
        else:
            width = max((len(r) for r in rows), default=0)
            out = [join([r[j] for r in rows if len(r) > j]) for j in range(width)]
        return convert_to_tensor(np.asarray(out, dtype=object).reshape(len(out)), dtype=dtypes.string)
    return wrapped


def ragged_segment(fn: Callable[..., Any]) -> Callable[..., Any]:
    """tf.math.unsorted_segment_* of ragged data and ragged segment ids of one partition."""
    @functools.wraps(fn)
    def wrapped(data: Any, segment_ids: Any, num_segments: Any, name: Any = None) -> Any:
        if isinstance(data, RaggedTensor) or isinstance(segment_ids, RaggedTensor):
            d, ids = _same_rows([data, segment_ids])
            return fn(d, ids, num_segments)
        return fn(data, segment_ids, num_segments, name)
    return wrapped


def ragged_flat_map(fn: Callable[..., Any]) -> Callable[..., Any]:
    """fn applied to a RaggedTensor's flat values (tf.nn.dropout: each value dropped on its own)."""
    @functools.wraps(fn)
    def wrapped(x: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(x, RaggedTensor):
            return x.with_flat_values(fn(x.flat_values, *args, **kwargs))
        return fn(x, *args, **kwargs)
    return wrapped


def ragged_shape(fn: Callable[..., Any]) -> Callable[..., Any]:
    """tf.shape of a RaggedTensor: its DynamicRaggedShape."""
    @functools.wraps(fn)
    def wrapped(input: Any, out_type: Any = None, name: Any = None) -> Any:  # noqa: A002
        if isinstance(input, RaggedTensor):
            return shape_of(input, out_type if out_type is not None else dtypes.int32)
        if out_type is None:
            return fn(input, name=name)
        return fn(input, out_type=out_type, name=name)
    return wrapped


def ragged_fill_like(fn: Callable[..., Any], value: int) -> Callable[..., Any]:
    """tf.zeros/tf.ones of a DynamicRaggedShape: a RaggedTensor of its row lengths."""
    @functools.wraps(fn)
    def wrapped(shape: Any, dtype: Any = dtypes.float32, name: Any = None, *args: Any, **kwargs: Any) -> Any:
        if isinstance(shape, DynamicRaggedShape):
            return shape._ragged_zeros(value, dtypes.as_dtype(dtype))
        return fn(shape, dtype, name, *args, **kwargs)
    return wrapped


def _stack_rows(rows: list, rsd: Any = dtypes.int64) -> RaggedTensor:
    """map_fn's ragged output: its rows (tensors of rank >= 1, or RaggedTensors) as one RaggedTensor."""
    from simdist.runtime.ops.ragged_functions import _interleave
    if any(isinstance(r, RaggedTensor) for r in rows):
        wrapped = [RaggedTensor(r, rp.as_splits_tensor(np.array([0, r.nrows_int()]), r.row_splits_dtype),
                                internal=True) for r in rows]
        return _interleave(wrapped, 0)
    rows = [r if isinstance(r, Tensor) else convert_to_tensor(r) for r in rows]
    if any(r.shape.rank == 0 for r in rows):
        raise errors.InvalidArgumentError(None, None, "Ragged values must have rank >= 1; encoded scalar element at "
                                          "index 0 [Op:RaggedTensorFromVariant]")
    lengths = np.asarray([int(r.shape[0]) for r in rows], np.int64)
    return RaggedTensor(array.concat(rows, 0), rp.as_splits_tensor(np.concatenate([[0], np.cumsum(lengths)]), rsd),
                        internal=True)


def ragged_map_fn(dense_map_fn: Callable[..., Any]) -> Callable[..., Any]:
    """tf.map_fn over RaggedTensor elems or to a RaggedTensorSpec output (ragged_map_ops' rules):
    fn gets each row (a tensor for ragged_rank 1), the results stacked dense for a dtype/TensorSpec
    signature and ragged (int64 row_splits) for a RaggedTensorSpec one, or by default for a ragged
    elems' leaf."""
    @functools.wraps(dense_map_fn)
    def wrapped(fn: Any, elems: Any, dtype: Any = None, parallel_iterations: Any = None, back_prop: bool = True,
                swap_memory: bool = False, infer_shape: bool = True, name: Any = None,
                fn_output_signature: Any = None) -> Any:
        from simdist.runtime import nest
        from simdist.runtime.ragged_tensor import RaggedTensorSpec
        from simdist.runtime.ops.ragged_dispatch import getitem
        sig = fn_output_signature if fn_output_signature is not None else dtype
        leaves = nest.flatten(elems)
        sig_leaves = nest.flatten(sig) if sig is not None else []
        if not any(isinstance(x, RaggedTensor) for x in leaves) and \
                not any(isinstance(x, RaggedTensorSpec) for x in sig_leaves):
            return dense_map_fn(fn, elems, dtype, parallel_iterations, back_prop, swap_memory, infer_shape, name,
                                fn_output_signature)
        if not callable(fn):
            raise TypeError(f"fn must be callable. Received: {fn}")
        tensors = [x if isinstance(x, (RaggedTensor, Tensor)) else convert_to_tensor(x) for x in leaves]
        n = tensors[0].nrows_int() if isinstance(tensors[0], RaggedTensor) else int(tensors[0].shape[0])
        outs = []
        for i in range(n):
            row = [getitem(x, i) if isinstance(x, RaggedTensor) else x[i] for x in tensors]
            outs.append(nest.flatten(fn(nest.pack_sequence_as(elems, row))))
        structure = sig if sig is not None else elems
        kinds = nest.flatten(structure)
        results = []
        for k, kind in enumerate(kinds):
            column = [o[k] for o in outs]
            if isinstance(kind, (RaggedTensor, RaggedTensorSpec)):
                results.append(_stack_rows(column))
            else:
                results.append(array.stack(column, 0))
        return nest.pack_sequence_as(structure, results)
    return wrapped


_TOP = {"one_hot": ragged_one_hot, "reverse": ragged_reverse, "tile": ragged_tile, "split": ragged_split,
        "squeeze": ragged_squeeze, "where": ragged_where, "gather_nd": ragged_gather_nd, "reshape": ragged_reshape,
        "add_n": ragged_add_n, "shape": ragged_shape, "map_fn": ragged_map_fn,
        "zeros": lambda f: ragged_fill_like(f, 0),
        "ones": lambda f: ragged_fill_like(f, 1)}
_MATH = {"cumsum": ragged_cumsum, "add_n": ragged_add_n, "unsorted_segment_sum": ragged_segment,
         "unsorted_segment_max": ragged_segment, "unsorted_segment_min": ragged_segment,
         "unsorted_segment_prod": ragged_segment, "unsorted_segment_mean": ragged_segment,
         "unsorted_segment_sqrt_n": ragged_segment}
_NN = {"softmax": ragged_softmax, "embedding_lookup": ragged_embedding_lookup, "dropout": ragged_flat_map}
_STRINGS = {"join": ragged_strings_join, "reduce_join": ragged_reduce_join}


def install(namespace: dict, which: str) -> None:
    """Wrap a facade namespace's functions ("tf", "math", "nn" or "strings") for RaggedTensors."""
    table = {"tf": {**_TOP, "cumsum": ragged_cumsum}, "math": _MATH, "nn": _NN, "strings": _STRINGS}[which]
    for name, wrap in table.items():
        if name in namespace and not getattr(namespace[name], "_simdist_ragged_rows", False):
            namespace[name] = wrap(namespace[name])
            try:
                namespace[name]._simdist_ragged_rows = True
            except AttributeError:
                pass
