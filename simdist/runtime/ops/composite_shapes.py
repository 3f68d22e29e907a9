"""Static shapes of composite tensors while a tf.function's graph is built (clause function.composite-static-shapes).

TF 2.21 builds a SparseTensor in a graph from three graph tensors and gives it the static dense shape
`tensor_util.constant_value_as_shape(dense_shape)` (framework/sparse_tensor.py): Python's constant folding, which
knows a Const (and a captured eager tensor), follows Shape (the input's static shape), Pack (each scalar's
constant_value), ConcatV2, Cast and a plain StridedSlice, and otherwise knows only the vector's length. So the
SparseTensor an op computes (SparseAdd's, a set operation's, SparseSlice's ...) or one built on a function
argument's dense_shape (a placeholder) has unknown dimensions, `(None, None)`, where eagerly it has its values'.
`set_shape` merges a shape into it, and a SparseTensor argument keeps its TensorSpec's shape
(SparseTensorSpec._from_components merges it).

A composite argument of a tf.function is a set of placeholders (its type spec's component specs):
a SparseTensor's indices `[None, rank]`, values `[None]`, dense_shape `[rank]`; a RaggedTensor's flat values
`[None, ...]` (inner dimensions kept), its outermost row splits `[nrows + 1]` and the inner ones `[None]`.

simdist runs a traced function's Python on values: `arguments` marks those components (VARYING to
graph_constants, their unknown dimensions to static_shapes) for the call and `restore` takes the marks off again;
`sparse_shape` is constant_value_as_shape over those marks (a partial value where partial_values noted one).
"""

from __future__ import annotations

from typing import Any

from simdist.runtime.ops import graph_constants, partial_values, static_shapes
from simdist.runtime.tensor import Tensor

__all__ = ["NAMES", "RANK", "sparse_shape", "in_trace", "computed", "arguments", "restore", "outputs"]


def computed(t: Tensor, *sources: Any) -> Tensor:
    """t, an output of a kernel on `sources` that simdist computes outside dispatch (RaggedTensorToSparse's dense
    shape): in a trace, marked as dispatch marks an op's output (FOLDED, VARYING when a source is), so that
    constant_value does not know it."""
    if in_trace():
        lv = max([graph_constants.FOLDED] + [graph_constants.level(x) for x in sources if isinstance(x, Tensor)])
        graph_constants._mark(t, lv)
    return t


def in_trace() -> bool:
    """Whether a tf.function's Python is running (its graph being built)."""
    return partial_values.in_trace()


def sparse_shape(dense_shape: Tensor) -> list[int | None] | None:
    """constant_value_as_shape(dense_shape) in the graph being built: its dimensions (None: unknown), or None for
    an unknown rank (a dense_shape vector of unknown length)."""
    lv = graph_constants.level(dense_shape)
    if lv == 0:
        return [int(d) if d >= 0 else None for d in dense_shape._v.tolist()]
    entry = partial_values._entry(dense_shape) if lv == graph_constants.VARYING else None
    if entry is not None and not isinstance(entry[1], partial_values.Refused):   # (a refused Subshape: its length)
        return [None if d is None or d < 0 else int(d) for d in entry[1]]
    n = static_shapes.known_dim(dense_shape, 0) if not static_shapes.rank_unknown(dense_shape) else None
    return None if n is None else [None] * n


def _mark(t: Tensor, flags: tuple, undo: list) -> None:
    undo.append(("shape", t, static_shapes.UNKNOWN.get(id(t))))
    if any(flags) and len(flags) == t.ndim:
        static_shapes.mark(t, flags)


def _vary(t: Tensor, undo: list) -> None:
    undo.append(("level", t, graph_constants.MARKS.get(id(t))))
    graph_constants._mark(t, graph_constants.VARYING)


def _walk(x: Any, undo: list) -> None:
    name = type(x).__name__
    if isinstance(x, (list, tuple)):
        for v in x:
            _walk(v, undo)
    elif isinstance(x, dict):
        for k in sorted(x, key=repr):
            _walk(x[k], undo)
    elif name == "SparseTensor":
        for t in (x.indices, x.values, x.dense_shape):
            _vary(t, undo)
        _mark(x.indices, (True, False), undo)
        _mark(x.values, (True,), undo)
    elif name == "RaggedTensor":
        splits = list(x.nested_row_splits)
        for t in [x.flat_values, *splits]:
            _vary(t, undo)
        fv = x.flat_values
        _mark(fv, (True,) + (False,) * (fv.ndim - 1), undo)
        for s in splits[1:]:
            _mark(s, (True,), undo)
    elif isinstance(x, Tensor):
        _vary(x, undo)


def arguments(values: Any) -> list:
    """Mark the components of the composite tensors among a tf.function call's arguments (nested in lists,
    tuples and dicts; the dense tensors nested there VARYING too) as the placeholders of their type specs;
    returns what `restore` needs."""
    undo: list = []
    _walk(values, undo)
    return undo


def restore(undo: list) -> None:
    """Undo `arguments`: each tensor's marks as they were before the call."""
    for kind, t, entry in reversed(undo):
        table = static_shapes.UNKNOWN if kind == "shape" else graph_constants.MARKS
        key = id(t)
        if entry is None:
            table.pop(key, None)
        else:
            table[key] = entry


# The outputs of kernels whose sizes depend on values: each output's flags (True: a dimension the shape function
# leaves unknown) as TF 2.21's shape functions give them (core/ops/sparse_ops.cc, set_ops.cc, string_ops.cc,
# ragged_*_ops.cc): None keeps what static_shapes knows, RANK an unknown rank.
RANK = "rank"
_NNZ = ((True, False), (True,), None)   # indices [?, rank], values [?], dense_shape [rank]
_OUTPUTS: dict[str, tuple] = {
    "SparseAdd": _NNZ, "SparseSlice": _NNZ, "SparseSplit": _NNZ, "SparseConcat": _NNZ, "SparseCross": _NNZ,
    "SparseCrossV2": _NNZ, "SparseCrossHashed": _NNZ, "DenseCountSparseOutput": _NNZ,
    "SparseCountSparseOutput": _NNZ, "RaggedCountSparseOutput": _NNZ, "DenseToDenseSetOperation": _NNZ,
    "DenseToSparseSetOperation": _NNZ, "SparseToSparseSetOperation": _NNZ, "RaggedTensorToSparse": _NNZ,
    # (simdist's string splits return the pieces and their row splits, TF's the pieces' indices, values and shape:
    # values [?], the splits [nrows + 1] as TF's from_value_rowids with nrows gives them)
    # (shape[0], constant-folded for a known input: nrows unknown for an input the graph does not know)
    "StringSplit": lambda ts: ((True,), (True,) if graph_constants.level(ts[0]) == graph_constants.VARYING else None),
    "StringSplitV2": lambda ts: ((True,), (True,) if graph_constants.level(ts[0]) == graph_constants.VARYING
                                 else None),
    # (empty_row_indicator: [dense_shape's first value], known where MakeShapeFromShapeTensor knows it)
    "SparseFillEmptyRows": lambda ts: ((True, False), (True,), ((partial_values.shape_of(ts[2]) or [None])[0] is None,),
                                       None),
    "SparseSparseMaximum": ((True, True), (True,)), "SparseSparseMinimum": ((True, True), (True,)),
    "SparseReduceSumSparse": (RANK, RANK, RANK), "SparseReduceMaxSparse": (RANK, RANK, RANK),
    "UnicodeDecode": (None, (True,)), "UnicodeDecodeWithOffsets": (None, (True,), (True,)),
    "StringNGrams": ((True,), None), "RaggedRange": (None, (True,)),
    # (UnchangedShape: the output indices and values are the input's, their unknown dimensions kept)
    "SparseReorder": lambda ts: (static_shapes.unknown(ts[0]), static_shapes.unknown(ts[1])),
    # (SparseReshape: [indices' rows, new_shape's length], new_shape's shape)
    "SparseReshape": lambda ts: ((bool((static_shapes.unknown(ts[0]) or (False,))[0]), False), None),
}


def _flags_of(spec: Any, out: Tensor) -> Any:
    if spec is RANK or spec is None:
        return spec
    if not spec or len(spec) != out.ndim:
        return None if not spec or not spec[0] or not out.ndim else (True,) + (False,) * (out.ndim - 1)
    return spec


def outputs(op: Any, tensors: Any, outs: Any, attrs: Any) -> Any:
    """The outputs of `op` (dispatch calls it while a tf.function traces) with the dimensions its shape function
    leaves unknown marked: the value-sized outputs of the sparse, set, string-split and ragged kernels (_OUTPUTS),
    and the dense results whose shape functions read a shape tensor or a value (_DENSE)."""
    name = op.name
    spec = _OUTPUTS.get(name)
    if callable(spec):
        spec = spec(tensors)
    if spec is not None:
        for o, f in zip(outs, spec):
            f = _flags_of(f, o)
            if f is RANK:
                static_shapes.mark_rank_unknown(o)
            elif f is not None and any(f):
                static_shapes.mark(o, f)
        return outs
    fn = _DENSE.get(name)
    if fn is not None and len(outs) == 1:
        dims = fn(tensors, outs[0], attrs or {})
        if dims is not False:
            partial_values.mark(outs[0], dims)
    return outs


def _known(t: Tensor, i: int) -> int | None:
    if static_shapes.rank_unknown(t) or t.ndim <= i:
        return None
    return static_shapes.known_dim(t, i)


def _sparse_to_dense(ts: Any, out: Tensor, attrs: dict) -> Any:
    """SparseToDense: MakeShapeFromShapeTensor(output_shape)."""
    return partial_values.shape_of(ts[1])


def _matmul(ts: Any, out: Tensor, attrs: dict) -> Any:
    """SparseTensorDenseMatMul: [a_shape's dimension (1 if adjoint_a else 0) from the shape tensor, b's other]."""
    a = partial_values.shape_of(ts[2])
    left = a[1 if attrs.get("adjoint_a") else 0] if a is not None and len(a) == 2 else None
    return [left, _known(ts[3], 0 if attrs.get("adjoint_b") else 1)]


def _segments(ts: Any, out: Tensor, attrs: dict) -> Any:
    """SparseSegmentReduction(WithNumSegments)ShapeFn: [num_segments' value, or ?] + data's inner dimensions."""
    if static_shapes.rank_unknown(ts[0]):
        return None
    first = partial_values.scalar_of(ts[3]) if len(ts) > 3 else None
    return [first] + [_known(ts[0], i) for i in range(1, ts[0].ndim)]


def _reduce(ts: Any, out: Tensor, attrs: dict) -> Any:
    """SparseReduceShapeFn: the shape from input_shape's and reduction_axes' values where the graph knows both,
    else an unknown shape."""
    if not graph_constants.known(ts[2], ts[3]):
        return None
    return False


def _unknown_rank(ts: Any, out: Tensor, attrs: dict) -> Any:
    return None


def _values_shaped(ts: Any, out: Tensor, attrs: dict) -> Any:
    """SparseSoftmax, SparseDenseCwise*: the values' shape."""
    return static_shapes.known_shape(ts[1])


_DENSE = {"SparseToDense": _sparse_to_dense, "SparseTensorDenseMatMul": _matmul,
          "SparseSegmentSum": _segments, "SparseSegmentMean": _segments, "SparseSegmentSqrtN": _segments,
          "SparseSegmentSumWithNumSegments": _segments, "SparseSegmentMeanWithNumSegments": _segments,
          "SparseSegmentSqrtNWithNumSegments": _segments, "SparseReduceSum": _reduce, "SparseReduceMax": _reduce,
          "SetSize": _unknown_rank, "SparseSoftmax": _values_shaped, "SparseDenseCwiseMul": _values_shaped,
          "SparseDenseCwiseDiv": _values_shaped, "SparseDenseCwiseAdd": _values_shaped}

NAMES = frozenset(_OUTPUTS) | frozenset(_DENSE)


def ragged_to_tensor(rt: Any, shape: Any, out: Tensor) -> None:
    """RaggedTensorToTensor's shape function on a traced call: the row count as the outermost splits' static length
    gives it, the ragged dimensions unknown, the flat values' inner ones kept; merged with `shape`'s partial
    shape (a dimension it gives is known)."""
    dims = rt._static_shape().as_list()
    for i in range(1, rt.ragged_rank + 1):
        dims[i] = None
    if shape is not None:
        if isinstance(shape, Tensor):
            want = partial_values.shape_of(shape)
        elif hasattr(shape, "as_list"):
            want = shape.as_list() if shape.rank is not None else None
        else:
            want = [None if d is None else partial_values.scalar_of(d) for d in shape]
            want = [None if d is None or d < 0 else d for d in want]
        if want is not None and len(want) == len(dims):
            dims = [w if w is not None else d for w, d in zip(want, dims)]
    partial_values.mark(out, dims)


def value_sized(x: Any, outer: bool = False) -> Any:
    """x (a tensor or RaggedTensor an op computes outside dispatch) with the dimensions a value-sized kernel's shape
    function leaves unknown marked while a tf.function traces: a tensor's first dimension; a RaggedTensor's flat
    values' first dimension and its inner row splits (RaggedRange's, a ragged boolean_mask's), its outermost
    splits too when `outer` (RaggedGather's: every output splits [?])."""
    if not in_trace():
        return x
    if isinstance(x, Tensor):
        if x.ndim:
            static_shapes.mark(x, (True,) + (False,) * (x.ndim - 1))
        return x
    fv = x.flat_values
    if fv.ndim:
        static_shapes.mark(fv, (True,) + (False,) * (fv.ndim - 1))
    for i, s in enumerate(x.nested_row_splits):
        if outer or i:
            static_shapes.mark(s, (True,))
    return x
