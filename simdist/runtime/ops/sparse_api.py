"""`tf.sparse`'s functions as TF 2.21's Python composes them (python/ops/sparse_ops.py) over the
kernels of sparse_core/sparse_math/sparse_segments (clause ops.sparse), and the SparseTensor
dispatch of TF's unary math functions (tf.abs, tf.square, tf.cast... on a SparseTensor map its
values; math_ops.py and the dispatch decorators)."""

from __future__ import annotations

import functools

from typing import Any, Callable

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.indexed_slices import IndexedSlices
from simdist.runtime.ops import array, dispatch, linalg, math, reductions, scatter, slicing
from simdist.runtime.ops.attr_rules import make_bool as _make_bool   # (the wrappers' make_bool: ops.attr-types)
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.list_diff import setdiff1d
from simdist.runtime.ops import sparse_core as core
from simdist.runtime.ops import sparse_math as sm
from simdist.runtime.sparse_tensor import SparseTensor
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["from_dense", "to_dense", "reorder", "reshape", "add", "sparse_dense_matmul", "reduce_sum", "reduce_max",
           "concat", "slice_", "split", "transpose", "retain", "fill_empty_rows", "reset_shape", "to_indicator",
           "maximum", "minimum", "softmax", "expand_dims", "eye", "map_values", "mask", "sparse_unary"]


def _sp(x: Any, what: str = "sp_input") -> SparseTensor:
    if isinstance(x, SparseTensor):
        return x
    raise TypeError(f"Input must be a SparseTensor, got {type(x).__name__} for {what}.")


def _i64(x: Any) -> Tensor:
    if isinstance(x, Tensor):
        return x if x.dtype == dtypes.int64 else math.cast(x, dtypes.int64)
    return convert_to_tensor(x, dtype=dtypes.int64)


def from_dense(tensor: Any, name: str | None = None) -> SparseTensor:
    """`tf.sparse.from_dense`: the entries not equal to 0 (NaN kept, -0.0 dropped)."""
    x = _t(tensor)
    indices = math.where(math.not_equal(x, array.zeros_like(x)))
    return SparseTensor(indices, scatter.gather_nd(x, indices), array.shape(x, out_type=dtypes.int64))


def to_dense(sp_input: Any, default_value: Any = None, validate_indices: bool = True,
             name: str | None = None) -> Tensor:
    """`tf.sparse.to_dense`: SparseToDense (indices checked sorted, unique, in bounds unless
    validate_indices=False; a repeated index then keeps its last value)."""
    sp = _sp(sp_input)
    if default_value is None:
        default_value = b"" if sp.dtype == dtypes.string else (False if sp.dtype == dtypes.bool_ else 0)
    default = (
        default_value if isinstance(default_value, Tensor) else convert_to_tensor(default_value, dtype=sp.dtype))
    return dispatch.execute(core.SPARSE_TO_DENSE, (sp.indices, sp.dense_shape, sp.values, default),
                            {"validate_indices": bool(validate_indices)})


def reorder(sp_input: Any, name: str | None = None) -> SparseTensor:
    """`tf.sparse.reorder`: entries sorted in row-major order."""
    sp = _sp(sp_input)
    ind, val = dispatch.execute(core.SPARSE_REORDER, (sp.indices, sp.values, sp.dense_shape))
    static = sp.static_shape()
    if static.is_fully_defined():   # (TF's Python: a static dense shape known in full is a constant)
        return SparseTensor(ind, val, static.as_list())
    out = SparseTensor(ind, val, array.identity(sp.dense_shape))
    out.set_shape(static)
    return out


def reshape(sp_input: Any, shape: Any, name: str | None = None) -> SparseTensor:
    """`tf.sparse.reshape`: SparseReshape of the indices (one -1 inferred), values as they are."""
    sp = _sp(sp_input)
    new = _i64(shape)
    ind, out_shape = dispatch.execute(core.SPARSE_RESHAPE, (sp.indices, sp.dense_shape, new))
    return SparseTensor(ind, sp.values, _reshaped_shape(sp, new, out_shape))


def _reshaped_shape(sp: SparseTensor, new: Tensor, out_shape: Tensor) -> Any:
    """sparse_reshape's dense shape: a constant where constant_value_as_shape(shape) and the input's static shape
    let the Python infer every dimension (one -1 inferred unless a 0 is present), else SparseReshape's output."""
    from simdist.runtime.ops import composite_shapes
    const = composite_shapes.sparse_shape(new) if composite_shapes.in_trace() else _i64_list(new)
    static = sp.static_shape()
    if const is None or not static.is_fully_defined():
        return out_shape
    size = int(np.prod(static.as_list(), dtype=np.int64))
    implied = sum(d is None for d in const)
    if implied == 1 and 0 not in const:
        rest = [d for d in const if d is not None]
        const = [int(size // int(np.prod(rest, dtype=np.int64))) if d is None else d for d in const]
        implied = 0
    return const if implied == 0 else out_shape


def _i64_list(t: Tensor) -> list[int | None]:
    return [int(d) if d >= 0 else None for d in np.asarray(t._v).reshape(-1).tolist()]


def add(a: Any, b: Any, threshold: Any = 0) -> Any:
    """`tf.sparse.add`: SparseAdd of two SparseTensors (a sum of two present entries kept when
    |sum| >= threshold), or SparseTensorDenseAdd with a dense operand (a dense result)."""
    a_sp, b_sp = isinstance(a, SparseTensor), isinstance(b, SparseTensor)
    if not (a_sp or b_sp):
        raise TypeError("At least one input should be SparseTensor; do you mean to use tf.add()?")
    if a_sp and b_sp:
        real = {dtypes.complex64: dtypes.float32, dtypes.complex128: dtypes.float64}.get(a.dtype, a.dtype)
        th = threshold if isinstance(threshold, Tensor) else convert_to_tensor(threshold, dtype=real)
        ind, val, shape = dispatch.execute(sm.SPARSE_ADD, (a.indices, a.values, a.dense_shape, b.indices, b.values,
                                                           b.dense_shape, th))
        if not a.shape.is_compatible_with(b.shape):
            raise ValueError(f"Shapes {a.shape} and {b.shape} are incompatible")
        static = a.static_shape().merge_with(b.static_shape())   # (broadcast_static_shape of compatible shapes)
        return SparseTensor(ind, val, static.as_list() if static.is_fully_defined() else shape)
    if b_sp:
        a, b = b, a
    dense = b if isinstance(b, Tensor) else convert_to_tensor(b, dtype=a.dtype)
    return dispatch.execute(sm.SPARSE_DENSE_ADD, (a.indices, a.values, a.dense_shape, dense))


def sparse_dense_matmul(sp_a: Any, b: Any, adjoint_a: bool = False, adjoint_b: bool = False,
                        name: str | None = None) -> Tensor:
    """`tf.sparse.sparse_dense_matmul`: SparseTensorDenseMatMul (a dense x sparse product is the
    transpose of the sparse x dense one, as TF computes it)."""
    if isinstance(b, SparseTensor):
        if adjoint_a != adjoint_b:
            return array.transpose(sparse_dense_matmul(b, sp_a, adjoint_a, adjoint_b))
        return array.transpose(sparse_dense_matmul(b, sp_a, adjoint_a=not adjoint_a, adjoint_b=not adjoint_b))
    sp = _sp(sp_a)
    bt = _t(b)
    return dispatch.execute(sm.SPARSE_MATMUL, (sp.indices, sp.values, sp.dense_shape, bt),
                            {"adjoint_a": _make_bool(adjoint_a, "adjoint_a", sm.SPARSE_MATMUL.name),
                             "adjoint_b": _make_bool(adjoint_b, "adjoint_b", sm.SPARSE_MATMUL.name)})


def _reduce(kind: str, sp_input: Any, axis: Any, keepdims: Any, output_is_sparse: bool) -> Any:
    from simdist.runtime import symbolic
    # (sparse_ops' `if output_is_sparse:` first: a graph tensor there is OperatorNotAllowedInGraphError; fz66, fz62gen
    # seed 66407 #6)
    output_is_sparse = symbolic.flag(output_is_sparse)
    sp = _sp(sp_input)
    if axis is None:
        axis = list(range(int(sp.dense_shape.shape[0])))
    ax = axis if isinstance(axis, Tensor) else convert_to_tensor(np.asarray(axis, np.int32))
    attrs = {"keep_dims": False if keepdims is None else _make_bool(keepdims, "keep_dims"), "kind": kind}
    if output_is_sparse:
        ind, val, shape = dispatch.execute(sm.REDUCE_SPARSE[kind], (sp.indices, sp.values, sp.dense_shape, ax), attrs)
        return SparseTensor(ind, val, shape)
    return dispatch.execute(sm.REDUCE[kind], (sp.indices, sp.values, sp.dense_shape, ax), attrs)


def reduce_sum(sp_input: Any, axis: Any = None, keepdims: Any = None, output_is_sparse: bool = False,
               name: str | None = None) -> Any:
    """`tf.sparse.reduce_sum`: the stored values summed per kept index (SparseReduceSum[Sparse])."""
    return _reduce("sum", sp_input, axis, keepdims, output_is_sparse)


def reduce_max(sp_input: Any, axis: Any = None, keepdims: Any = None, output_is_sparse: bool = False,
               name: str | None = None) -> Any:
    """`tf.sparse.reduce_max`: the largest stored value per kept index (implicit zeros ignored;
    an index with no stored value is 0)."""
    return _reduce("max", sp_input, axis, keepdims, output_is_sparse)


def concat(axis: int, sp_inputs: Any, expand_nonconcat_dims: bool = False, name: str | None = None) -> SparseTensor:
    """`tf.sparse.concat`: SparseConcat (entries sorted), the other dimensions expanded to their
    maximum when expand_nonconcat_dims."""
    if not isinstance(sp_inputs, (list, tuple)):
        raise TypeError("Inputs must be a list")
    sps = [_sp(s) for s in sp_inputs]
    if len(sps) == 1:
        return sps[0]
    shapes = [s.dense_shape for s in sps]
    if expand_nonconcat_dims:
        biggest = np.max(np.stack([s._v for s in shapes]), axis=0)
        rank = biggest.shape[0]
        ax = axis % rank if -rank <= axis < rank else axis
        shapes = [convert_to_tensor(np.array([int(biggest[d]) if d != ax else int(s._v[d]) for d in range(rank)],
                                             np.int64)) for s in shapes]
    ind, val, shape = dispatch.execute(core.SPARSE_CONCAT, tuple([s.indices for s in sps] + [s.values for s in sps]
                                                                 + list(shapes)),
                                       {"concat_dim": int(axis), "n": len(sps)})
    statics = [s.static_shape() for s in sps]
    if any(st.rank is None for st in statics):
        return SparseTensor(ind, val, shape)
    dims = [d for d in statics[0].as_list()]
    if expand_nonconcat_dims:
        dims = [None if any(st.as_list()[d] is None for st in statics) else max(st.as_list()[d] for st in statics)
                for d in range(len(dims))]
    axis_dims = [st.as_list()[axis] for st in statics]
    dims[axis] = None if any(d is None for d in axis_dims) else sum(axis_dims)
    if all(st.is_fully_defined() for st in statics):
        return SparseTensor(ind, val, convert_to_tensor(np.array(dims, np.int64)))
    out = SparseTensor(ind, val, shape)
    out.set_shape(dims)
    return out


def slice_(sp_input: Any, start: Any, size: Any, name: str | None = None) -> SparseTensor:
    """`tf.sparse.slice`: the entries in [start, start + size), shifted by start."""
    sp = _sp(sp_input)
    ind, val, shape = dispatch.execute(core.SPARSE_SLICE, (sp.indices, sp.values, sp.dense_shape, _i64(start),
                                                           _i64(size)))
    return SparseTensor(ind, val, shape)


def split(sp_input: Any = None, num_split: Any = None, axis: Any = None, name: str | None = None) -> list:
    """`tf.sparse.split`: num_split pieces along axis (the first dim % num_split one wider)."""
    if num_split is None:
        raise ValueError("Argument `num_split` is required.")
    if axis is None:
        raise ValueError("Argument `axis` is required.")
    sp = _sp(sp_input)
    ax = _i64(axis)
    out = []
    for k in range(int(num_split)):
        ind, val, shape = dispatch.execute(core.SPARSE_SPLIT, (ax, sp.indices, sp.values, sp.dense_shape),
                                           {"num_split": int(num_split), "piece": k})
        out.append(SparseTensor(ind, val, shape))
    return out


def transpose(sp_input: Any, perm: Any = None, name: str | None = None) -> SparseTensor:
    """`tf.sparse.transpose`: the index columns permuted, then reordered."""
    sp = _sp(sp_input)
    rank = int(sp.dense_shape.shape[0])
    p = (rank - 1) - np.arange(rank) if perm is None else np.asarray(perm._v if isinstance(perm, Tensor) else perm)
    p_t = convert_to_tensor(p.astype(np.int32) if p.dtype.kind in "iu" else p)
    ind = array.transpose(array.gather(array.transpose(sp.indices), p_t))
    old = sp.dense_shape._v
    shape = np.array([old[int(q)] for q in p], np.int64)
    return reorder(SparseTensor(ind, sp.values, shape))


def retain(sp_input: Any, to_retain: Any) -> SparseTensor:
    """`tf.sparse.retain`: the entries where the 1-D bool to_retain is True."""
    sp = _sp(sp_input)
    keep = _t(to_retain)
    if keep.shape.rank != 1:
        raise ValueError(f"Shape {keep.shape} must have rank 1")
    if sp.values.shape[0] is not None and keep.shape[0] != sp.values.shape[0]:
        raise ValueError(f"Dimensions {sp.values.shape[0]} and {keep.shape[0]} are not compatible")
    where_true = array.reshape(math.where(keep), [-1])
    return SparseTensor(array.gather(sp.indices, where_true), array.gather(sp.values, where_true),
                        array.identity(sp.dense_shape))


def fill_empty_rows(sp_input: Any, default_value: Any, name: str | None = None) -> tuple[SparseTensor, Tensor]:
    """`tf.sparse.fill_empty_rows`: (the entries grouped by row with [row, 0, ...] = default_value
    in each empty row, the empty-row indicator)."""
    sp = _sp(sp_input)
    default = default_value if isinstance(default_value, Tensor) else convert_to_tensor(default_value, dtype=sp.dtype)
    ind, val, empty, _ = dispatch.execute(core.FILL_EMPTY_ROWS, (sp.indices, sp.values, sp.dense_shape, default))
    return SparseTensor(ind, val, sp.dense_shape), empty


def reset_shape(sp_input: Any, new_shape: Any = None) -> SparseTensor:
    """`tf.sparse.reset_shape`: the tightest shape (max index + 1 per dimension) or new_shape,
    which must keep the rank and not be smaller."""
    sp = _sp(sp_input)
    ind = array.identity(sp.indices)
    val = array.identity(sp.values)
    if new_shape is None:
        low = math.add(math.reduce_max(ind, axis=0), array.ones_like(sp.dense_shape))
        return SparseTensor(ind, val, math.maximum(convert_to_tensor(0, dtype=dtypes.int64), low))
    new = _t(new_shape)
    if new.shape.rank != 1:
        raise ValueError(f"Shape {new.shape} must have rank 1")
    new = math.cast(new, dtypes.int64)
    old = sp.dense_shape._v
    if new.shape[0] != old.shape[0]:
        raise ValueError(f"Dimensions {new.shape[0]} and {old.shape[0]} are not compatible")
    if sp.shape.is_fully_defined() and not (old <= new._v).all():
        raise ValueError("Requested new_shape should have dimension sizes >= sp_input.shape.  Found new_shape "
                         f"({old}), sp_input.shape ({new._v}).")
    return SparseTensor(ind, val, new)


def to_indicator(sp_input: Any, vocab_size: Any, name: str | None = None) -> Tensor:
    """`tf.sparse.to_indicator`: a bool tensor [..., vocab_size], True at each row's ids."""
    sp = _sp(sp_input)
    ids = math.cast(sp.values, dtypes.int64)
    n = array.shape(sp.indices)[0]
    values = array.fill(array.expand_dims(n, 0), True)
    new_ind = array.concat([slicing.slice_(sp.indices, [0, 0], [-1, int(sp.indices.shape[1]) - 1]),
                            array.expand_dims(ids, 1)], 1)
    vocab = _i64(vocab_size)
    new_shape = array.concat([slicing.slice_(sp.dense_shape, [0], [int(sp.dense_shape.shape[0]) - 1]),
                              array.reshape(vocab, [1])], 0)
    merged = reorder(SparseTensor(new_ind, values, new_shape))
    return to_dense(SparseTensor(merged.indices, merged.values, new_shape), default_value=False,
                    validate_indices=False)


def _pair(op: Any, sp_a: Any, sp_b: Any) -> SparseTensor:
    a, b = _sp(sp_a), _sp(sp_b)
    ind, val = dispatch.execute(op, (a.indices, a.values, a.dense_shape, b.indices, b.values, b.dense_shape))
    return SparseTensor(ind, val, a.dense_shape)


def maximum(sp_a: Any, sp_b: Any, name: str | None = None) -> SparseTensor:
    """`tf.sparse.maximum`: the elementwise max over the union of entries (a missing one is 0)."""
    return _pair(sm.SPARSE_MAXIMUM, sp_a, sp_b)


def minimum(sp_a: Any, sp_b: Any, name: str | None = None) -> SparseTensor:
    """`tf.sparse.minimum`: the elementwise min over the union of entries (a missing one is 0)."""
    return _pair(sm.SPARSE_MINIMUM, sp_a, sp_b)


def softmax(sp_input: Any, name: str | None = None) -> SparseTensor:
    """`tf.sparse.softmax`: the softmax of each innermost row's stored values."""
    sp = _sp(sp_input)
    return SparseTensor(sp.indices, dispatch.execute(sm.SPARSE_SOFTMAX, (sp.indices, sp.values, sp.dense_shape)),
                        sp.dense_shape)


def expand_dims(sp_input: Any, axis: Any = None, name: str | None = None) -> SparseTensor:
    """`tf.sparse.expand_dims`: a dimension of size 1 inserted at axis (-1: last)."""
    sp = _sp(sp_input)
    rank = int(sp.dense_shape.shape[0])
    axis = -1 if axis is None else axis
    if isinstance(axis, (int, np.integer)) and not isinstance(axis, bool):
        ax = int(axis)
    elif isinstance(axis, Tensor):
        ax = int(axis._v)
    else:
        raise TypeError("axis must be an int or a tensor")
    ax = ax if ax >= 0 else ax + rank + 1
    n = int(sp.indices.shape[0])
    new_col = array.zeros([n, 1], dtype=dtypes.int64)
    ind = array.concat([slicing.slice_(sp.indices, [0, 0], [-1, ax]), new_col,
                        slicing.slice_(sp.indices, [0, ax], [-1, -1])], 1)
    shape = array.concat([slicing.slice_(sp.dense_shape, [0], [ax]), convert_to_tensor([1], dtype=dtypes.int64),
                          slicing.slice_(sp.dense_shape, [ax], [-1])], 0)
    out = SparseTensor(ind, sp.values, shape)
    from simdist.runtime.ops import composite_shapes, partial_values, static_shapes
    if composite_shapes.in_trace():
        # (constant_value_as_shape of the ConcatV2: its Slice pieces unknown to constant_value, the [1] known;
        # ConcatV2's shape function keeps the indices' unknown row count)
        out.set_shape([None] * ax + [1] + [None] * (rank - ax))
        partial_values.mark(ind, [static_shapes.known_dim(sp.indices, 0), rank + 1])
    return out


def eye(num_rows: Any, num_columns: Any = None, dtype: Any = dtypes.float32, name: str | None = None) -> SparseTensor:
    """`tf.sparse.eye`: ones on the diagonal of a [num_rows, num_columns] SparseTensor."""
    rows = _i64(num_rows)
    cols = rows if num_columns is None else _i64(num_columns)
    size = math.minimum(rows, cols)
    diag = array.range_(size, dtype=dtypes.int64)
    return SparseTensor(array.stack([diag, diag], axis=1), array.ones(size, dtype=dtype), array.stack([rows, cols]))


def map_values(op: Callable[..., Any], *args: Any, **kwargs: Any) -> SparseTensor:
    """`tf.sparse.map_values`: op applied to the values of the SparseTensors among the arguments
    (all with the same indices and dense shape)."""
    found: list[SparseTensor] = []

    def swap(x: Any) -> Any:
        if isinstance(x, SparseTensor):
            found.append(x)
            return x.values
        if isinstance(x, (list, tuple)):
            return type(x)(swap(v) for v in x)
        if isinstance(x, dict):
            return {k: swap(v) for k, v in x.items()}
        return x
    new_args = swap(list(args))
    new_kwargs = swap(kwargs)
    if not found:
        raise ValueError("No SparseTensor in argument list of map_values")
    first = found[0]
    for other in found[1:]:
        same = other.indices.shape == first.indices.shape and np.array_equal(other.indices._v, first.indices._v) \
            and np.array_equal(other.dense_shape._v, first.dense_shape._v)
        if not same:
            from simdist.runtime import errors
            raise errors.InvalidArgumentError(None, None, "Condition x == y did not hold element-wise:")
    return SparseTensor(first.indices, op(*new_args, **new_kwargs), first.dense_shape)


def mask(a: Any, mask_indices: Any, name: str | None = None) -> IndexedSlices:
    """`tf.sparse.mask`: the rows of IndexedSlices a whose indices are not in mask_indices."""
    kept, positions = setdiff1d(a.indices, mask_indices)
    return IndexedSlices(array.gather(a.values, positions), kept, a.dense_shape)


def _first_param(fn: Callable[..., Any]) -> str:
    import inspect
    try:
        return next(iter(inspect.signature(fn).parameters))
    except (StopIteration, TypeError, ValueError):
        return "x"


def sparse_unary(fn: Callable[..., Any]) -> Callable[..., Any]:
    """fn, which on a SparseTensor maps its values (TF's math functions that take SparseTensors);
    the first argument may come by keyword, as fn's own name for it."""
    first = _first_param(fn)

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        x = args[0] if args else kwargs.get(first)
        if isinstance(x, SparseTensor):
            if args:
                return SparseTensor(x.indices, fn(x.values, *args[1:], **kwargs), x.dense_shape)
            rest = {k: v for k, v in kwargs.items() if k != first}
            return SparseTensor(x.indices, fn(x.values, **rest), x.dense_shape)
        return fn(*args, **kwargs)
    wrapped.__name__ = getattr(fn, "__name__", "op")
    wrapped.__doc__ = fn.__doc__
    wrapped.__wrapped__ = fn  # type: ignore[attr-defined]
    return wrapped


def sparse_shape_query(fn: Callable[..., Any], kind: str) -> Callable[..., Any]:
    """tf.shape/size/rank of a SparseTensor: from its dense_shape."""
    first = _first_param(fn)

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        x = args[0] if args else kwargs.get(first)
        if not isinstance(x, SparseTensor):
            return fn(*args, **kwargs)
        out_type = kwargs.get("out_type", args[1] if len(args) > 1 else dtypes.int32)
        if kind == "shape":
            return math.cast(x.dense_shape, out_type)
        if kind == "size":
            return math.cast(reductions.reduce_prod(x.dense_shape), out_type)
        return array.size(x.dense_shape)
    functools.update_wrapper(wrapped, fn)   # (its signature is fn's: the facade's name= wrapper reads it)
    return wrapped


def sampled_addmm(indices: Any, values: Any, dense_shape: Any, mat1: Any, mat2: Any, beta: Any = 1.0,
                  alpha: Any = 1.0, output_type: Any = dtypes.float32) -> tuple[Tensor, Tensor, Tensor]:
    """`tf.sparse.sampled_addmm` (math_ops.py): alpha * (mat1 @ mat2) at indices + beta * values,
    as (indices, values, dense_shape); the product's rows and columns gathered and their products
    summed over the last axis."""
    ind = _t(indices)
    # (each converted with its dtype, tensors too: a tensor of another dtype is convert_to_tensor's ValueError, TF 2.21;
    # fz62, fourth generator seeds 62404-62408)
    vals = convert_to_tensor(values, dtype=output_type)
    shape = convert_to_tensor(dense_shape, dtype=dtypes.int32)
    m1 = convert_to_tensor(mat1, dtype=output_type)
    m2 = convert_to_tensor(mat2, dtype=output_type)
    out_shape = array.stack([m1.shape[-2], m2.shape[-1]])
    if not bool(reductions.reduce_all(math.equal(shape, out_shape))._v):
        raise ValueError(f"Dense shape: {shape} does not match output shape: {out_shape}")
    batch = ind[..., :-2]
    rows_at = ind[..., :-1]
    cols_at = array.concat([batch, ind[..., -1:]], axis=-1)
    batch_dims = m1.shape.rank - 2
    rows = scatter.gather_nd(m1, rows_at, batch_dims=batch_dims)
    cols = scatter.gather_nd(linalg.matrix_transpose(m2), cols_at, batch_dims=batch_dims)
    dot = math.reduce_sum(math.multiply(rows, cols), axis=-1)
    return ind, math.add(math.multiply(dot, alpha), math.multiply(vals, beta)), shape
