"""Raw forms of TF's older op versions and helper kernels, computed by the ops that replaced them
(clause ops.raw-legacy).

TF 2.21 still registers the first versions of many ops beside their successors (`Add` beside
`AddV2`, `Gather` beside `GatherV2`, `BatchMatMul` beside `BatchMatMulV2`, `MatrixDiag` beside
`MatrixDiagV3`, the V1 stateless random ops beside the key-and-counter ones) and helper kernels its
own Python no longer calls (`InplaceAdd`, `ConcatOffset`, `NthElement`, `PopulationCount`, ...). A
program can call each through `tf.raw_ops`. Each is computed here by simdist's raw form of the
successor (or its public functions), with the older kernel's own checks first, read in TF's kernels
(cwise_ops, gather_op.cc, batch_matmul_op_impl.h, matrix_diag_op.cc, inplace_ops.cc,
concat_op.cc, nth_element_op.cc, population_count_op.cc, unique_op.cc, bincount_op.cc,
stateless_random_ops.cc, ...) and observed on TF 2.21: its error classes, its values bit for bit.
The successor's raw call then checks the rest (an error's text names the successor's op where the
two kernels share a check). Ops whose CPU kernel cannot run in TF 2.21 keep TF's error: V1 TopK and
TileGrad ask for an attr their OpDef lacks, SelfAdjointEig and MatrixExponential were removed from
the GraphDef, SegmentSumV2 and friends and AccumulateNV2 have no CPU kernel (raw_rules.check_kernel).

NAMES lists them (scripts/make_raw_opdefs.py records their signatures); `forms()` gives each its
RawArgs (RawArgs.via), read by runtime/ops/raw_ops.py for a raw op no registered op has.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import partial_values
from simdist.runtime.ops.raw_args import RawArgs
from simdist.runtime.ops.raw_compositions import _dims, _invalid   # (the raw forms' shared texts)

__all__ = ["NAMES", "REFUSED", "forms"]


def _raw(name: str) -> Callable[..., Any]:
    from simdist.runtime.ops import raw_ops
    return raw_ops.function(name)


def _value(t: Any) -> np.ndarray:
    from simdist.runtime.ops import dispatch
    return dispatch.static_value(t)


def _const(a: Any, dtype: Any) -> Any:
    from simdist.runtime.ops.array import constant
    return constant(np.asarray(a, dtype=dtype.np), dtype=dtype)


# --- elementwise: Add, Div, Mod, Inv, InvGrad, SoftplusGrad, ApproximateEqual, PopulationCount --------

def _add(x: Any, y: Any) -> Any:
    """Add: AddV2's kernel, and string concatenation (AddV2 has no string kernel)."""
    if x.dtype == dtypes.string:
        from simdist.runtime.ops import math
        return math.add(x, y)
    return _raw("AddV2")(x=x, y=y)


def _safe(op: str, x: Any, y: Any) -> None:
    """safe_div/safe_mod (cwise_ops.h, the integer Div and Mod kernels): a zero divisor is "Integer
    division by zero" once the shapes broadcast and the result has elements (TruncateDiv's functor
    reports it as InternalError instead)."""
    try:
        shape = np.broadcast_shapes(tuple(x.shape.as_list()), tuple(y.shape.as_list()))
    except ValueError:
        return   # (the successor's "Incompatible shapes")
    if int(np.prod(shape)) and (_value(y) == 0).any():
        raise _invalid(op, "Integer division by zero")


def _div(x: Any, y: Any) -> Any:
    """Div: C++'s `/` (cwise_op_div.cc): truncating, with safe_div's "Integer division by zero", for
    integers; x / y for floating and complex types (RealDiv's values)."""
    if x.dtype.is_integer:
        _safe("Div", x, y)
        return _raw("TruncateDiv")(x=x, y=y)
    if x.dtype.is_complex:
        from simdist.runtime.ops import math
        return math.divide(x, y)
    return _raw("RealDiv")(x=x, y=y)


def _mod(x: Any, y: Any) -> Any:
    """Mod (cwise_op_mod.cc): safe_mod for integers, C's fmod for floats: TruncateMod's values."""
    if x.dtype.is_integer:
        _safe("Mod", x, y)
    return _raw("TruncateMod")(x=x, y=y)


def _softplus_grad(gradients: Any, features: Any) -> Any:
    """SoftplusGrad (relu_op_functor.h): gradients / (exp(-features) + 1), on equal shapes."""
    from simdist.runtime.ops import activations, dispatch, raw_shapes
    g, f = raw_shapes.check("SoftplusGrad", [gradients, features])
    return dispatch.execute(activations.SOFTPLUS_GRAD, (g, f))


def _approximate_equal(x: Any, y: Any, tolerance: float) -> Any:
    """ApproximateEqual (cwise_ops.h approximate_equal, approximate_equal_op.cc): |x - y| <= T(tolerance),
    the tolerance a float attr (float32) converted to T; x and y of one shape."""
    from simdist.runtime.ops import math, unary
    xs, ys = x.shape.as_list(), y.shape.as_list()
    if xs != ys:
        raise _invalid("ApproximateEqual", f"x and y must be of the same shape. x shape: {_dims(xs)}. "
                                           f"y shape: {_dims(ys)}")
    tol = _const(np.float32(tolerance), x.dtype)   # (the float attr, then T(tolerance))
    return math.less_equal(unary.abs_(math.subtract(x, y)), tol)


def _population_count(x: Any) -> Any:
    """PopulationCount: the set bits of each element's two's-complement bits, uint8."""
    a = np.array(_value(x), order="C")   # (np.ascontiguousarray made a scalar a vector: seed 3020261204 #170)
    width = a.dtype.itemsize
    bits = np.unpackbits(a.reshape(-1).view(np.uint8).reshape(a.shape + (width,)), axis=-1)
    return _const(bits.sum(axis=-1, dtype=np.uint8), dtypes.uint8)


def _to_bool(input: Any) -> Any:  # noqa: A002 - TF's name
    """ToBool (observed on TF 2.21): a scalar is its value != 0 (a string non-empty, NaN true) for the
    dtypes TensorToBool lists (float32, float64, the signed ints, uint8, string, bool; half, bfloat16,
    uint16-uint64 and complex are the kernel's InvalidArgumentError "half cannot be converted to a
    boolean"; fuzz20 tape seed 2920261202 #180), any other tensor whether it has elements."""
    from simdist.runtime.ops import dispatch, to_bool
    return dispatch.execute(to_bool.TO_BOOL, (input,))


# --- shapes and data movement ------------------------------------------------------------------------

def _conjugate_transpose(x: Any, perm: Any) -> Any:
    """ConjugateTranspose: Transpose, then Conj of a complex input. In a tf.function grappler's ArithmeticOptimizer
    (RemoveIdentityTranspose) replaces one whose perm is a known identity by a Conj node, whose OpDef takes complex64,
    complex128 and variant only: any other dtype is InvalidArgumentError when the function runs, unless x too is a
    constant the graph folds (observed on TF 2.21; fz35a, sig seed 3520261221 #85). Grappler rewrites a graph that
    was built: TransposeShapeFn's trace-time ValueError of an identity perm whose length differs from x's known rank
    ("Dimension must be 3 but is 4") comes first (fz39a, sig seed 3920261202 #144)."""
    from simdist.runtime import context
    from simdist.runtime.ops import graph_constants, static_shapes
    if context.in_function() and not x.dtype.is_complex and graph_constants.known(perm) and \
            not graph_constants.known(x):   # (a constant x: grappler's constant folding computes the op first)
        p = _value(perm).ravel().tolist() if not isinstance(perm, (list, tuple)) else list(perm)
        rank_fits = static_shapes.rank_unknown(x) or x.ndim == len(p)   # (else the shape function's error, below)
        if len(p) >= 2 and p == list(range(len(p))) and rank_fits:   # (0 or 1 entries: no Conj node; seed 3520261221 #63)
            name = {"float32": "float", "float64": "double"}.get(x.dtype.name, x.dtype.name)
            raise _invalid("ConjugateTranspose", f"Value for attr 'T' of {name} is not in the list of allowed values: "
                                                 "complex64, complex128, variant\n\t; NodeDef: {{node ArithmeticOptimizer/"
                                                 "RemoveIdentityTranspose_ConjugateTranspose}}")
    out = _raw("Transpose")(x=x, perm=perm)
    return _raw("Conj")(input=out) if x.dtype.is_complex else out


def _concat(concat_dim: Any, values: list) -> Any:
    return _raw("ConcatV2")(values=values, axis=concat_dim)


def _gather(params: Any, indices: Any, validate_indices: bool) -> Any:
    """Gather (V1, gather_op.cc with axis 0): params of rank >= 1, then GatherV2's checks."""
    if params.ndim == 0:
        raise _invalid("Gather", "params must be at least 1 dimensional")
    return _raw("GatherV2")(params=params, indices=indices, axis=0)


def _reverse_shape(shapes: list, attrs: Any) -> str | None:
    """Reverse's shape function (array_ops.cc): dims a vector, and where its length is known the input of
    that rank (c->WithRank), then at most 8 dimensions; an input of unknown rank takes the length of dims."""
    t, d = shapes
    if d is not None and len(d) != 1:
        return f"Shape must be rank 1 but is rank {len(d)}"
    rank = None if t is None else len(t)
    if d is not None and d[0] is not None:
        if rank is not None and rank != d[0]:
            return f"Shape must be rank {d[0]} but is rank {rank}"
        rank = d[0]   # (an unknown rank becomes the dims' length)
    return "reverse does not work on tensors with more than 8 dimensions" if rank is not None and rank > 8 else None


def _reverse(tensor: Any, dims: Any) -> Any:
    """Reverse (reverse_op.cc, ReverseOp): `dims` a vector with one bool per dimension, rank <= 8; inside a
    tf.function the shape function's checks first, a ValueError at trace (fz38a, sig seed 3820261206 #96)."""
    from simdist.runtime.ops import shape_checks, static_shapes
    shape_checks.check("Reverse", _reverse_shape, [static_shapes.known_shape(tensor), static_shapes.known_shape(dims)])
    if dims.ndim != 1:
        raise _invalid("Reverse", f"'dims' must be 1-dimension, not {dims.ndim}")
    flags = [bool(b) for b in _value(dims).tolist()]
    if tensor.ndim == 0:
        return _raw("Identity")(input=tensor)
    if len(flags) != tensor.ndim:
        raise _invalid("Reverse", f"'dims' must have the same number of values as 'input' has dimensions. "
                                  f"'input' has {tensor.ndim}'dims' has {len(flags)} values")
    if tensor.ndim > 8:
        raise errors.UnimplementedError(None, None, "reverse is not implemented for tensors of rank > 8. "
                                                    "[Op:Reverse]")
    return _raw("ReverseV2")(tensor=tensor, axis=_const([i for i, f in enumerate(flags) if f], dtypes.int32))


def _batch_to_space(input: Any, crops: Any, block_size: int) -> Any:  # noqa: A002
    """BatchToSpace (batchtospace_op.cc): a rank-4 input, then BatchToSpaceND with [b, b]."""
    if input.ndim != 4:
        raise _invalid("BatchToSpace", f"Input rank should be: 4instead of: {input.ndim}")
    return _raw("BatchToSpaceND")(input=input, block_shape=_const([block_size, block_size], crops.dtype),
                                  crops=crops)


def _matrix_diag(diagonal: Any) -> Any:
    return _raw("MatrixDiagV3")(diagonal=diagonal, k=0, num_rows=-1, num_cols=-1,
                                padding_value=_const(0, diagonal.dtype), align="RIGHT_LEFT")


def _matrix_diag_part(input: Any) -> Any:  # noqa: A002
    return _raw("MatrixDiagPartV3")(input=input, k=0, padding_value=_const(0, input.dtype), align="RIGHT_LEFT")


def _matrix_set_diag(input: Any, diagonal: Any) -> Any:  # noqa: A002
    return _raw("MatrixSetDiagV3")(input=input, diagonal=diagonal, k=0, align="RIGHT_LEFT")


def _matrix_diag_v2(diagonal: Any, k: Any, num_rows: Any, num_cols: Any, padding_value: Any) -> Any:
    """MatrixDiagV2: MatrixDiagV3 with its diagonals aligned LEFT_LEFT (matrix_diag_op.cc: the V2
    kernels are the V3 ones whose `align` attr is absent, read as LEFT_LEFT)."""
    return _raw("MatrixDiagV3")(diagonal=diagonal, k=k, num_rows=num_rows, num_cols=num_cols,
                                padding_value=padding_value, align="LEFT_LEFT")


def _matrix_diag_part_v2(input: Any, k: Any, padding_value: Any) -> Any:  # noqa: A002
    return _raw("MatrixDiagPartV3")(input=input, k=k, padding_value=padding_value, align="LEFT_LEFT")


def _matrix_set_diag_v2(input: Any, diagonal: Any, k: Any) -> Any:  # noqa: A002
    return _raw("MatrixSetDiagV3")(input=input, diagonal=diagonal, k=k, align="LEFT_LEFT")


def _inplace(op: str) -> Callable[..., Any]:
    """InplaceAdd/Sub/Update (inplace_ops.cc): `i` a vector of row numbers, taken modulo x's rows;
    `v` has one row per entry of `i` and x's other dimensions; rows are updated in i's order (a
    repeated row is added twice, or its last update kept)."""
    def run(x: Any, i: Any, v: Any) -> Any:
        if i.ndim != 1:
            raise _invalid(op, f"i must be a vector. {_dims(i.shape.as_list())}")
        xs, vs = x.shape.as_list(), v.shape.as_list()
        if x.ndim != v.ndim:
            raise _invalid(op, f"x and v shape doesn't match (ranks differ): {_dims(xs)} vs. {_dims(vs)}")
        for d in range(1, x.ndim):
            if xs[d] != vs[d]:
                raise _invalid(op, f"x and v shape doesn't match at index {d} : {_dims(xs)} vs. {_dims(vs)}")
        ids = [int(r) for r in _value(i).tolist()]
        if len(ids) != vs[0]:
            raise _invalid(op, f"i and x shape doesn't match at index 0: {_dims(i.shape.as_list())} vs. {_dims(vs)}")
        out = np.array(_value(x), copy=True)
        rows = _value(v)
        if out.size == 0 or rows.size == 0:   # (nothing to do: the kernel returns before DoInplace's dtype switch)
            return _const(out, x.dtype)
        if op != "InplaceUpdate" and (x.dtype == dtypes.bool_ or x.dtype == dtypes.string):
            # (DoInplace's add and subtract take the number types only; fz34a, seed 3420261216 #12)
            raise _invalid(op, f"Unsupported data type: {x.dtype.name}")
        n = xs[0]
        for k, r in enumerate(ids):
            r %= n
            if op == "InplaceUpdate":
                out[r] = rows[k]
            elif op == "InplaceAdd":
                out[r] = out[r] + rows[k]
            else:
                out[r] = out[r] - rows[k]
        return _const(out, x.dtype)
    return run


def _concat_offset(concat_dim: Any, shape: list) -> Any:
    """ConcatOffset (concat_op.cc ConcatOffsetOp): each input shape's offset along concat_dim (a
    negative one counts from the end); every other dimension must match the first shape's."""
    if concat_dim.ndim != 0:
        raise _invalid("ConcatOffset", f"Concat dim tensor should be a scalar integer, but got shape "
                                       f"{_dims(concat_dim.shape.as_list())}")
    dims = [[int(d) for d in _value(s).tolist()] for s in shape]
    for k, s in enumerate(shape):
        if s.ndim != 1:
            raise _invalid("ConcatOffset", f"input {k} should be a 1-D tensor")
        if len(dims[k]) != len(dims[0]):
            raise _invalid("ConcatOffset", f"input {k} should contain {len(dims[0])} elements, but got "
                                           f"{len(dims[k])}")
    rank = len(dims[0])
    axis = int(_value(concat_dim))
    cdim = axis + rank if axis < 0 else axis
    if not 0 <= cdim < rank:
        raise _invalid("ConcatOffset", f"Concat dim is out of range: {axis} vs. {rank}")
    out = []
    offset = 0
    for k, d in enumerate(dims):
        for j in range(rank):
            if j != cdim and d[j] != dims[0][j]:
                raise _invalid("ConcatOffset", f"All dimensions except {cdim} must match. Input {k} has shape "
                                               f"[{' '.join(map(str, d))}] and doesn't match input 0 with shape "
                                               f"[{' '.join(map(str, dims[0]))}].")
        row = [0] * rank
        row[cdim] = offset
        offset += d[cdim]
        out.append(_const(row, shape[k].dtype))
    return out


def _unique_v2(counts: bool) -> Callable[..., Any]:
    """UniqueV2/UniqueWithCountsV2 (unique_op.cc): `axis` an int tensor of at most one element; none
    is Unique of a vector; one (negative counts from the end) finds the unique slices along it, in
    order of first appearance, compared by their bytes' values (NaN never equals NaN)."""
    op = "UniqueWithCountsV2" if counts else "UniqueV2"

    def run(x: Any, axis: Any, out_idx: Any) -> Any:
        if axis.ndim != 1:   # (unique_op.cc: IsVector before the count; fuzz20 seed 2920261201 #104)
            raise _invalid(op, "axis expects a 1D vector.")
        ax = [int(a) for a in _value(axis).ravel().tolist()]
        if len(ax) > 1:
            raise _invalid(op, "axis does not support input tensors larger than 1 elements")
        if not ax:
            if x.ndim != 1:
                raise _invalid(op, "unique expects a 1D vector.")
            return _raw("UniqueWithCounts" if counts else "Unique")(x=x, out_idx=out_idx)
        a = ax[0] + x.ndim if ax[0] < 0 else ax[0]
        if not 0 <= a < x.ndim:
            raise _invalid(op, f"axis has to be between [0, {x.ndim})")
        arr = np.moveaxis(_value(x), a, 0)
        # (half and bfloat16 slices of one element are Unique's values, hashed by their bits: -0.0 and 0.0 differ;
        # longer slices compare by value, observed on TF 2.21; fz34a, sig seed 3420261211 #199)
        bits = arr.view(np.uint16) if (arr.dtype == np.float16 or arr.dtype.name == "bfloat16") and \
            int(np.prod(arr.shape[1:])) == 1 else None
        keys: list[Any] = []
        idx = np.zeros(arr.shape[0], dtype=out_idx.np)
        cnt: list[int] = []
        for r in range(arr.shape[0]):
            row = arr[r]
            hit = next((j for j, kk in enumerate(keys) if np.array_equal(arr[kk], row) and
                        (bits is None or np.array_equal(bits[kk], bits[r]))), None)
            if hit is None:
                keys.append(r)
                cnt.append(0)
                hit = len(keys) - 1
            idx[r] = hit
            cnt[hit] += 1
        y = np.moveaxis(arr[keys] if keys else arr[:0], 0, a)
        outs = [_const(y, x.dtype), _const(idx, out_idx)]
        if counts:
            outs.append(_const(np.asarray(cnt, dtype=out_idx.np), out_idx))
        return tuple(outs)
    return run


def _first_of_rank1_indices(input: Any, indices: Any, updates: Any) -> tuple[Any, Any]:  # noqa: A002
    """ScatterNdNonAliasingAdd's kernel (scatter_nd_op.cc, ScatterNdUpdateOp) reads rank-1 indices of length N
    as N indices of depth 1 when it validates (updates [N] + input.shape[1:]), but flattens them with
    flat_inner_dims to one row, so only indices[0] and updates[0] take part (fuzz20 seed 3020261201 #105:
    TF adds updates[0] at row indices[0]; TensorScatterAdd reads them as one index of depth N). Returns
    the indices and updates TensorScatterAdd then gets; other ranks pass as they are."""
    ishape, ushape, pshape = indices.shape.as_list(), updates.shape.as_list(), input.shape.as_list()
    if len(ishape) != 1 or not ishape[0] or not pshape or None in ishape + ushape + pshape:
        return indices, updates
    n = ishape[0]
    if not ushape or ushape[0] != n:
        raise _invalid("ScatterNdNonAliasingAdd", f"Dimensions [0,1) of indices[shape={_dims(ishape)}] = {n} must "
                       f"match dimensions [0,1) of updates[shape={_dims(ushape)}] = {ushape[0] if ushape else 0}")
    if ushape[1:] != pshape[1:]:
        raise _invalid("ScatterNdNonAliasingAdd", f"Dimensions [1,{len(pshape)}) of input[shape={_dims(pshape)}] must "
                       f"match dimensions [1,{len(ushape)}) of updates[shape={_dims(ushape)}]")
    from simdist.runtime.ops import array
    return array.reshape(indices[:1], [1, 1]), updates[:1]


def _scatter_nd_shape_refuses(inp: list | None, idx: list | None, upd: list | None) -> str | None:
    """ScatterNdShapeHelper's (common_shape_fns.cc) refusal of the shapes a graph knows (None: an unknown
    rank or dimension), or None: with indices' and updates' ranks known, updates not a scalar and the index
    depth known, the prefix of indices and updates and the suffix of input and updates must merge."""
    if idx is None or upd is None or not upd or not idx or idx[-1] is None:
        return None

    def merges(a: list | None, b: list | None) -> bool:
        return a is None or b is None or (len(a) == len(b) and all(x is None or y is None or x == y for x, y in zip(a, b)))

    def text(shape: list | None) -> str:
        return "?" if shape is None else "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"
    outer, depth = len(idx) - 1, idx[-1]
    if len(upd) < outer or not merges(idx[:outer], upd[:outer]):
        return (f"Dimensions [0,{outer}) of indices[shape={text(idx)}] = {text(idx[:outer])} must match dimensions "
                f"[0,{outer}) of updates[shape={text(upd)}] = {text(upd[:outer])}")
    if inp is not None and len(inp) < depth:
        return f"Shape must be at least rank {depth} but is rank {len(inp)}"
    if not merges(None if inp is None else inp[depth:], upd[outer:]):
        return (f"Dimensions [{depth},{len(inp or [])}) of input[shape={text(inp)}] = {text(inp[depth:] if inp else None)} "
                f"must match dimensions [{outer},{len(upd)}) of updates[shape={text(upd)}] = {text(upd[outer:])}")
    return None


def _scatter_nd_non_aliasing_add(input: Any, indices: Any, updates: Any, bad_indices_policy: str) -> Any:  # noqa: A002
    """TensorScatterAdd's values (rank-1 indices as `_first_of_rank1_indices` reads them); for bool (which
    TensorScatterAdd has no kernel for) `+=` on bool is OR: the updates counted in int32, then > 0 (an
    update's True stays)."""
    from simdist.runtime import context
    from simdist.runtime.ops import static_shapes, trace_errors
    known = [static_shapes.known_shape(t) for t in (input, indices, updates)]
    refusal = _scatter_nd_shape_refuses(*known) if context.in_function() else None
    if refusal is not None:   # (the op's own shape function at trace, on the shapes the graph knows: fz34a, sig
        # seed 3420261211 #40)
        raise trace_errors.shape_error(f"{refusal} [Op:ScatterNdNonAliasingAdd]", refusal, "ScatterNdNonAliasingAdd",
                                       [k if k is not None else [] for k in known])
    # (the kernel's reading; where the graph's shapes do not show rank-1 indices (an input_signature's None) the
    # shape function passes them to the kernel: fz34a, sig seed 3420261207 #50)
    indices, updates = _first_of_rank1_indices(input, indices, updates)
    if input.dtype == dtypes.bool_:
        from simdist.runtime.ops import math
        summed = _raw("TensorScatterAdd")(tensor=math.cast(input, dtypes.int32), indices=indices,
                                          updates=math.cast(updates, dtypes.int32), bad_indices_policy=bad_indices_policy)
        return math.greater(summed, _const(0, dtypes.int32))
    return _raw("TensorScatterAdd")(tensor=input, indices=indices, updates=updates,
                                    bad_indices_policy=bad_indices_policy)


# --- linear algebra -----------------------------------------------------------------------------------

def _batch_matmul(x: Any, y: Any, adj_x: bool, adj_y: bool, grad_x: bool = False, grad_y: bool = False) -> Any:
    """BatchMatMul (V1, batch_matmul_op_impl.h with its BCast off): equal ranks >= 2 and equal batch
    dimensions, no broadcasting; then BatchMatMulV2."""
    from simdist.runtime import context
    xs, ys = x.shape.as_list(), y.shape.as_list()
    if context.in_function():   # (BatchMatMul's shape function: ValueError when the graph adds the op)
        if len(xs) < 2 or len(ys) < 2:
            raise ValueError(f"Shape must be at least rank 2 but is rank {min(len(xs), len(ys))} for "
                             f"'{{{{node BatchMatMul}}}} = BatchMatMul[]'")
        if len(xs) != len(ys) or xs[:-2] != ys[:-2]:
            raise ValueError(f"Batch dimensions of x and y must be equal: {_dims(xs)} vs. {_dims(ys)} for "
                             f"'{{{{node BatchMatMul}}}} = BatchMatMul[]'")
    if len(xs) != len(ys):
        raise _invalid("BatchMatMul", f"In[0] and In[1] has different ndims: {_dims(xs)} vs. {_dims(ys)}")
    if len(xs) < 2:
        raise _invalid("BatchMatMul", f"In[0] and In[1] ndims must be >= 2: {len(xs)}")
    for d in range(len(xs) - 2):
        if xs[d] != ys[d]:
            raise _invalid("BatchMatMul", f"In[0].dim({d}) and In[1].dim({d}) must be the same: {_dims(xs)} vs "
                                          f"{_dims(ys)}")
    return _raw("BatchMatMulV2")(x=x, y=y, adj_x=adj_x, adj_y=adj_y)


def _batch_matmul_v3(x: Any, y: Any, Tout: Any, adj_x: bool, adj_y: bool, grad_x: bool = False,  # noqa: N803
                     grad_y: bool = False) -> Any:
    """BatchMatMulV3: BatchMatMulV2's product of the inputs cast to Tout (its kernels: int8/uint8
    pairs summed in int32, bfloat16 with int8/uint8 in bfloat16, else one type throughout)."""
    from simdist.runtime.ops import dispatch, linalg, math
    if x.dtype == y.dtype == dtypes.as_dtype(Tout) == dtypes.bfloat16 and linalg.v3_shapes_fit(x, y, adj_x, adj_y):
        # (its own kernel: the in-order float32 sum truncated, not BatchMatMulV2's; fz61)
        return dispatch.execute(linalg.BATCH_MATMUL_V3_BF16, (x, y), {"transpose_a": bool(adj_x),
                                                                      "transpose_b": bool(adj_y)})
    xc = x if x.dtype == Tout else math.cast(x, Tout)
    yc = y if y.dtype == Tout else math.cast(y, Tout)
    return _raw("BatchMatMulV2")(x=xc, y=yc, adj_x=adj_x, adj_y=adj_y)


def _removed(op: str, version: int, instead: str) -> Callable[..., Any]:
    def run(**kw: Any) -> Any:
        from simdist.runtime import context
        text = f"Op {op} is not available in GraphDef version 2474. It has been removed in version {version}. {instead}."
        if context.in_function():   # (a graph refuses the node when it adds it: op_def_library's NotImplementedError)
            raise NotImplementedError(text)
        raise errors.UnimplementedError(None, None, f"{text} [Op:{op}]")
    return run


def _missing_attr(op: str, attr: str) -> Callable[..., Any]:
    """V1 TopK and TileGrad: their only CPU kernels constrain an attr their OpDef does not have, so
    TF's kernel lookup refuses every call (observed on TF 2.21)."""
    def run(**kw: Any) -> Any:
        raise _invalid(op, f"OpKernel '{op}' has constraint on attr '{attr}' not in NodeDef")
    return run


def _no_kernel(**kw: Any) -> Any:   # (raw_rules.check_kernel refuses the call before it comes here)
    raise AssertionError("unreachable: the op has no CPU kernel")


def _accumulate_n(inputs: list, shape: Any) -> Any:
    """AccumulateNV2 has no kernel (eagerly NotFoundError, raw_rules.check_kernel); in a tf.function TF's
    AccumulateNV2RemovePass (accumulate_n_optimizer.cc) rewrites the node before it runs: a
    TemporaryVariable assigned Fill(Shape(inputs[0]), 0), then AssignAdd of each input in order (Eigen's
    `+=`, subnormals flushed as TF's add flushes them; the shape attr plays no part), so a -0.0 sum is
    +0.0 and an input of another size is AssignAdd's InvalidArgumentError "Parameters and update must be
    the same size" (fuzz20 seed 3020261201 #239). Not modelled: TF leaks the temporary variable of a
    failed run, and every later AccumulateNV2 in that process is AlreadyExistsError."""
    from simdist.runtime.ops import array, math
    acc = array.zeros_like(inputs[0])
    for x in inputs:
        if x.shape.as_list() != acc.shape.as_list():   # (TensorShape::IsSameSize)
            raise errors.InvalidArgumentError(None, None, "Parameters and update must be the same size")
        acc = math.add(acc, x)
    return acc


# --- nn -------------------------------------------------------------------------------------------------

def _bias_add_v1(value: Any, bias: Any) -> Any:
    return _raw("BiasAdd")(value=value, bias=bias)


def _in_top_k(predictions: Any, targets: Any, k: int) -> Any:
    return _raw("InTopKV2")(predictions=predictions, targets=targets, k=_const(k, targets.dtype))


def _static_list(v: Any) -> list[int]:
    return [int(d) for d in _value(v).ravel().tolist()]


# MaxPoolingGradOp's and MaxPoolingGradGradOp's names for their three inputs in their rank checks
_GRAD_RANKS = {"MaxPoolGradV2": ("tensor_in", "tensor_out", "out_backprop"),
               "MaxPoolGradGradV2": ("tensor_in", "tensor_out", "out_grad_backprop")}


def _pool_v2(successor: str, op: str) -> Callable[..., Any]:
    """MaxPoolV2, MaxPoolGradV2, MaxPoolGradGradV2: the V1 kernels with ksize and strides read from
    input tensors (maxpooling_op.cc), which refuse NCHW on the CPU ("only supports NHWC or
    NCHW_VECT_C")."""
    def run(ksize: Any, strides: Any, padding: str, data_format: str, **tensors: Any) -> Any:
        if op in _GRAD_RANKS and data_format != "NCHW":   # (Compute's rank checks, before it reads ksize and
            # strides from their tensors; the V1 kernels' constructors check those first; fz35a, tape seed
            # 3520261208 #77)
            for name, text in zip(("orig_input", "orig_output", "grad"), _GRAD_RANKS[op]):
                if getattr(tensors.get(name), "ndim", 4) != 4:
                    raise _invalid(op, f"{text} must be 4-dimensional")
        ks, st = _static_list(ksize), _static_list(strides)
        if len(ks) != 4:
            raise _invalid(op, "Sliding window ksize field must specify 4 dimensions")
        if len(st) != 4:
            raise _invalid(op, "Sliding window strides field must specify 4 dimensions")
        if data_format == "NCHW":
            names = {"MaxPoolV2": "MaxPoolingV2Op", "MaxPoolGradV2": "MaxPoolingGradOp",
                     "MaxPoolGradGradV2": "MaxPoolingGradGradOp"}
            raise _invalid(op, f"{names[op]} only supports NHWC or NCHW_VECT_C. Got: NCHW")
        from simdist.runtime import context
        from simdist.runtime.ops import graph_constants, trace_errors
        try:
            return _raw(successor)(ksize=ks, strides=st, padding=padding, data_format=data_format, **tensors)
        except Exception as e:
            # (ksize or strides the graph does not know: the V1 op's shape function saw stand-in values, where
            # TF's MaxPoolV2Shape left the output unknown, so its error is the kernel's when the graph runs;
            # fz32a, MaxPoolGradGradV2 of input_signature strides)
            if context.in_function() and not (graph_constants.known(ksize) and graph_constants.known(strides)) \
                    and trace_errors.builds(e):
                trace_errors.unmark(e)
            raise
    return run


def _nth_element(input: Any, n: Any, reverse: bool) -> Any:  # noqa: A002
    """NthElement (nth_element_op.cc): n a non-negative scalar, input of rank >= 1 whose last
    dimension exceeds n; the n-th smallest (largest with reverse) of each row, std::nth_element's
    order (a NaN compares false with everything: it sorts nowhere)."""
    if n.ndim != 0:
        raise _invalid("NthElement", f"N must be scalar but has rank {n.ndim}")
    k = int(_value(n))
    if k < 0:
        raise _invalid("NthElement", f"n must be non-negative but is {k}")
    if input.ndim < 1:
        raise _invalid("NthElement", f"Input must be at least rank 1 but is rank {input.ndim}")
    last = input.shape.as_list()[-1]
    if last <= k:
        raise _invalid("NthElement", f"Input must have last dimension > n = {k}")
    from simdist.runtime.autodiff import custom_gradient
    from simdist.runtime.ops import sorting

    @custom_gradient
    def call(x: Any) -> Any:
        top = sorting.top_k(x if reverse else _negate(x), k + 1)
        v = top[0][..., k]
        out = v if reverse else _negate(v)
        return out, lambda grad: _nth_element_grad(x, out, grad)
    return call(input)


def _nth_element_grad(x: Any, out: Any, grad: Any) -> Any:
    """nn_grad._NthElementGrad: the upstream gradient split evenly between the row's entries equal to the output
    (ties share it: [1, 1, 0] gives [0.5, 0.5, 0]; +0 elsewhere), where simdist's TopKV2 gradient gave it all to
    the first (fz31a, tape seed 3120261209 #43)."""
    from simdist.runtime.ops import array, math
    hits = math.cast(math.equal(array.expand_dims(out, -1), x), grad.dtype)
    count = array.expand_dims(math.reduce_sum(hits, -1), -1)
    return math.divide(hits, count) * array.expand_dims(grad, -1)


def _negate(x: Any) -> Any:
    """An order-reversing map: -x for floats, ~x for integers (unsigned ones have no negation, and -x of
    a signed minimum overflows to itself; fuzz20 sig seed 3020261202 #163: NthElement of uint64)."""
    if x.dtype.is_integer:
        from simdist.runtime.ops import bitwise
        return bitwise.invert(x)
    from simdist.runtime.ops import math
    return math.negative(x)


def _bincount(arr: Any, size: Any, weights: Any) -> Any:
    """Bincount (bincount_op.cc): size a non-negative scalar, arr non-negative, weights empty (counts
    in T) or one per element; values >= size are dropped."""
    if size.ndim != 0:
        raise _invalid("Bincount", f"Shape must be rank 0 but is rank {size.ndim}")
    n = int(_value(size))
    if n < 0:
        raise _invalid("Bincount", f"size ({n}) must be non-negative")
    a = _value(arr).ravel().astype(np.int64)
    w = _value(weights)
    if w.size and w.size != a.size:
        raise _invalid("Bincount", "Input indices and weights must have the same size.")
    if a.size and a.min() < 0:
        raise _invalid("Bincount", "Input arr must be non-negative!")
    dt = weights.dtype
    out = np.zeros(n, dtype=dt.np)
    wf = w.ravel()
    for j, v in enumerate(a.tolist()):
        if v < n:
            out[v] += wf[j] if w.size else dt.np.type(1)
    return _const(out, dt)


def _lin_space(start: Any, stop: Any, num: Any) -> Any:
    """LinSpace (sequence_ops.cc LinSpaceOp): start, stop and num scalars, num > 0; the first value
    exactly start, the last exactly stop, start + i * step between, step = (stop - start) / (num - 1)
    in T (observed bit for bit; TF 2.21's kernel writes flat(0) = start before its loop from 1, so an
    infinite start or step keeps start where start + 0 * step is NaN: fz45, fz20 seed 4520261202 #61)."""
    for name, v in (("start", start), ("stop", stop), ("num", num)):
        if v.ndim != 0:
            raise _invalid("LinSpace", f"{name} must be a scalar, not shape {_dims(v.shape.as_list())}")
    k = int(_value(num))
    if k <= 0:
        raise _invalid("LinSpace", f"Requires num > 0: {k}")
    t = start.dtype.np.type
    s0, s1 = t(_value(start)), t(_value(stop))
    if k == 1:
        return _const([s0], start.dtype)
    step = t((s1 - s0) / t(k - 1))
    out = np.array([s0] + [s0 + step * t(i) for i in range(1, k - 1)] + [s1], dtype=t)
    return _const(out, start.dtype)


# --- random ---------------------------------------------------------------------------------------------

def _stateless_v1(successor: str, op: str) -> Callable[..., Any]:
    """The V1 stateless random ops (stateless_random_ops.cc): seed a [2] vector, then the V2 op on the
    key and counter StatelessRandomGetKeyCounter derives from it with Philox (the same draws)."""
    def run(shape: Any, seed: Any, **kw: Any) -> Any:
        if seed.shape.as_list() != [2]:
            raise _invalid(op, f"seed must have shape [2], not {_dims(seed.shape.as_list())}")
        key, counter = _raw("StatelessRandomGetKeyCounter")(seed=seed)
        return _raw(successor)(shape=shape, key=key, counter=counter, alg=_const(1, dtypes.int32), **kw)
    return run


def _uniform_full_int_v1(shape: Any, seed: Any, dtype: Any) -> Any:
    """StatelessRandomUniformFullInt: its OpDef takes uint32 and uint64 seeds, which StatelessRandomOpBase's
    GenerateKey refuses ("Invalid seed type: uint64") only after the shape, the seed's [2] and an empty output
    (fz31a, tape seed 3120261212 #135: a [3, 0] shape of a uint64 seed is the empty result)."""
    from simdist.runtime.ops import raw_stateless
    op = "StatelessRandomUniformFullInt"
    shp = raw_stateless._shape(shape, op)
    if seed.shape.as_list() != [2]:
        raise _invalid(op, f"seed must have shape [2], not {_dims(seed.shape.as_list())}")
    if not raw_stateless._count(shp):
        return _const(np.zeros(shp, dtypes.as_dtype(dtype).np), dtypes.as_dtype(dtype))
    if seed.dtype.name in ("uint32", "uint64"):
        raise _invalid(op, f"Invalid seed type: {seed.dtype.name}")
    return _stateless_v1("StatelessRandomUniformFullIntV2", op)(shape, seed, dtype=dtype)


def _uniform_int_v1(shape: Any, seed: Any, minval: Any, maxval: Any) -> Any:
    """StatelessRandomOpBase::Compute's order: the shape (MakeShape), the seed of [2], an empty output returned,
    and only then Fill's bounds (0-D: [0] bounds of shape [0] are an empty result; fz31a, tape seed 3120261203
    #105)."""
    from simdist.runtime.ops import raw_stateless
    op = "StatelessRandomUniformInt"
    shp = raw_stateless._shape(shape, op)
    if seed.shape.as_list() != [2]:
        raise _invalid(op, f"seed must have shape [2], not {_dims(seed.shape.as_list())}")
    for name, v in (("minval", minval), ("maxval", maxval)):
        if v.ndim != 0 and raw_stateless._count(shp):
            raise _invalid(op, f"{name} must be 0-D, got shape {_dims(v.shape.as_list())}")
    return _stateless_v1("StatelessRandomUniformIntV2", "StatelessRandomUniformInt")(shape, seed, minval=minval,
                                                                                     maxval=maxval)


def _get_alg() -> Any:
    return _const(1, dtypes.int32)   # (Philox: what the CPU's StatelessRandomGetAlg returns)


def _identity(**kw: Any) -> Any:
    """Copy, DeepCopy, Snapshot, CopyHost, DebugIdentityV2 and NextIteration (eagerly and in simdist's graphs, an Identity: a
    while loop's NextIteration only forwards its value; rgrads)."""
    x = kw["data"] if "data" in kw else kw.get("input", kw.get("x"))
    return _raw("Identity")(input=x)


# --- group two: kernels of the older layouts, image ops, random, checks -----------------------------------

def _bucketize(input: Any, boundaries: list) -> Any:  # noqa: A002
    """Bucketize (bucketize_op.cc): boundaries a sorted float list ("Expected sorted boundaries"); each
    value's index is std::upper_bound's: how many boundaries are <= it (NaN: all of them), compared as
    C++ compares T with float (an integer converted to float32, a double against the widened float)."""
    b = np.asarray(boundaries, dtype=np.float32)
    if b.size > 1 and (b[1:] < b[:-1]).any():
        raise _invalid("Bucketize", "Expected sorted boundaries")
    x = _value(input)
    xv = x.astype(np.float64) if x.dtype == np.float64 else x.astype(np.float32)
    bv = b.astype(xv.dtype)
    out = np.where(np.isnan(xv), b.size, np.searchsorted(bv, xv, side="right")) if xv.size else np.zeros(x.shape)
    return _const(np.asarray(out).reshape(x.shape).astype(np.int32), dtypes.int32)


def _space_to_batch(input: Any, paddings: Any, block_size: int) -> Any:  # noqa: A002
    """SpaceToBatch (spacetobatch_op.cc): a rank-4 input, then SpaceToBatchND with [b, b]."""
    if input.ndim != 4:
        raise _invalid("SpaceToBatch", f"Input rank should be: 4instead of: {input.ndim}")
    return _raw("SpaceToBatchND")(input=input, block_shape=_const([block_size, block_size], paddings.dtype),
                                  paddings=paddings)


def _formats(op: str, src: str, dst: str) -> None:
    if len(src) not in (4, 5):
        raise _invalid(op, f"Source format must be of length 4 or 5, received src_format = {src}")
    if len(dst) not in (4, 5):
        raise _invalid(op, f"Destination format must be of length 4 or 5, received dst_format = {dst}")
    if sorted(src) != sorted(dst):
        raise _invalid(op, f"Destination and source format must determine a permutation, got {src} and {dst}")


def _data_format_dim_map(x: Any, src_format: str, dst_format: str) -> Any:
    """DataFormatDimMap (data_format_ops.h): each dimension index of src_format mapped to its place in
    dst_format, as the functor computes it: m = (x + n) % n in T (the addition wrapping, C's truncating
    remainder), the places of 0 .. n - 2 selected by equality and every other m (a negative one: x below -n, or
    an x + n that wrapped, int64 2**63 - 2) the last's (fz35a, sig seed 3520261211 #166)."""
    _formats("DataFormatDimMap", src_format, dst_format)
    n = len(src_format)
    v = _value(x)
    place = np.array([dst_format.index(c) for c in src_format], dtype=v.dtype)
    with np.errstate(over="ignore"):
        m = np.fmod(v + v.dtype.type(n), v.dtype.type(n))
    out = np.where((m >= 0) & (m < n - 1), place[np.clip(m, 0, n - 1)], place[n - 1])
    return _const(np.asarray(out, dtype=v.dtype).reshape(v.shape), x.dtype)


def _data_format_vec_permute(x: Any, src_format: str, dst_format: str) -> Any:
    """DataFormatVecPermute (data_format_ops.cc): a vector of one entry per dimension (or per spatial
    dimension), or a matrix of such rows in pairs, permuted from src_format's order to dst_format's."""
    op = "DataFormatVecPermute"
    _formats(op, src_format, dst_format)
    shape = x.shape.as_list()
    n = len(src_format)
    if len(shape) not in (1, 2):
        raise _invalid(op, f"input must be a vector or 2D tensor, but got shape {_dims(shape)}")
    if len(shape) == 1 and shape[0] not in (n - 2, n):
        raise _invalid(op, f"1D input must be of size {n - 2} or {n}, but got shape {_dims(shape)}")
    if len(shape) == 2 and (shape[0] not in (n - 2, n) or shape[1] != 2):
        raise _invalid(op, f"2D input must be of size {n - 2} or {n} by 2, but got shape {_dims(shape)}")
    src, dst = src_format, dst_format
    if shape[0] == n - 2:
        src, dst = (''.join(c for c in f if c not in "NC") for f in (src, dst))
    v = _value(x)
    return _const(np.stack([v[src.index(c)] for c in dst]) if v.size else v, x.dtype)


@partial_values.shaped("shape")
def _empty(shape: Any, dtype: Any, init: bool) -> Any:
    """Empty (inplace_ops.cc): shape an int32 vector of dimensions >= 0; the tensor's contents are
    zeros (init=True; without it TF leaves them unset, simdist zeros them too)."""
    from simdist.runtime import context
    # (TF 2.21 runs Empty eagerly through its wrapped function: the kernel's errors carry the function node's
    # prefix, observed)
    pre = "" if context.in_function() else \
        "{{function_node __wrapped__Empty_device_/job:localhost/replica:0/task:0/device:CPU:0}} "
    if shape.ndim != 1:
        raise _invalid("Empty", f"{pre}shape must be a vector of int32, got shape {_dims(shape.shape.as_list())}")
    dims = [int(d) for d in _value(shape).tolist()]
    for d in dims:
        if d < 0:
            raise _invalid("Empty", f"{pre}Dimension {d} must be >= 0")
    if dtype == dtypes.string:
        return _const(np.full(dims, b"", dtype=object), dtype)
    return _const(np.zeros(dims, dtype=dtype.np), dtype)


def _parallel_concat(values: list, shape: Any) -> Any:
    """ParallelConcat (inplace_ops.cc's _ParallelConcatUpdate per value): each value one row of the
    output shape's rows, in order; rows no value writes are zeros (TF leaves them unset). First
    _ParallelConcatStart's shape, fully defined ("Shape [?,2] is not fully defined"), then the
    update's "value should be at least rank 1." for a scalar shape (None eagerly: the fast path's
    empty shape; observed on TF 2.21, fuzz20 seeds 2920261202 #63, 2920261204 #59)."""
    dims = [] if shape is None else list(shape) if isinstance(shape, (list, tuple)) else shape.as_list()
    if dims is None or any(d is None or d < 0 for d in dims):
        text = "<unknown>" if dims is None else "[" + ",".join("?" if d is None or d < 0 else str(d) for d in dims) + "]"
        raise _invalid("ParallelConcat", f"Shape {text} is not fully defined")
    if not dims:
        raise _invalid("ParallelConcat", "value should be at least rank 1.")
    out = np.zeros(dims, dtype=values[0].dtype.np)
    for k, v in enumerate(values):
        vs = v.shape.as_list()
        if vs[1:] != dims[1:] or vs[0] != 1:
            raise _invalid("ParallelConcat", f"update shape doesn't match: {_dims(vs)}")
        out[k] = _value(v)[0]
    return _const(out, values[0].dtype)


def _tensor_strided_slice_update(input: Any, begin: Any, end: Any, strides: Any, value: Any, begin_mask: int,  # noqa: A002
                                 end_mask: int, ellipsis_mask: int, new_axis_mask: int, shrink_axis_mask: int) -> Any:
    """TensorStridedSliceUpdate (strided_slice_op.cc): `input` with the strided slice replaced by
    `value` broadcast to the slice's shape ("Cannot broadcast input shape [3] into final shape [2]"),
    computed as where(slice mask, StridedSliceGrad(value), input): a tape gives both their gradients."""
    from simdist.runtime.ops import array, math, slicing
    dims = tuple(input.shape.as_list())
    try:
        key = slicing.mask_key(begin, end, strides, begin_mask, end_mask, ellipsis_mask, new_axis_mask,
                               shrink_axis_mask, op="TensorStridedSliceUpdate")
        norm = array._slice_key(key, dims)
    except (errors.InvalidArgumentError, ValueError) as e:   # (TensorStridedSliceUpdate's shape function is its
        # input's shape, no slice check: the slice's errors are the kernel's, also in a graph; fz34a, sig seed
        # 3420261211 #81)
        text = str(e).split(" for '{{node")[0].split(" [Op:")[0]
        raise _invalid("TensorStridedSliceUpdate", text) from None
    probe = np.zeros(dims, dtype=np.int8)
    want = list(probe[array._np_key(norm)].shape)
    vs = value.shape.as_list()
    if int(np.prod(want)) == 0:   # (an empty slice: the input as it is, no broadcast check; observed on TF
        return _empty_slice_update(input, value, want)   # 2.21, fuzz20 seed 2920261201 #82)
    from simdist.runtime.ops.slice_assign_bcast import fitted_shape
    fitted = fitted_shape(vs, want)   # (StridedSliceAssignBCast: extra leading ones dropped, then broadcast)
    if fitted is None:
        raise _invalid("TensorStridedSliceUpdate", f"Cannot broadcast input shape {_dims(vs)} into final shape "
                                                   f"{_dims(want)}")
    mask = np.zeros(dims, dtype=bool)
    mask[array._np_key(norm)] = True
    if _value_grad_refusal(want, vs) is not None:   # (the kernel fits the value, dropping leading ones; the
        value = _gradient_refused(value, want, vs)   # gradient's reduction does not: fz50, fuzz20 seed 5020261202 #79)
    filled = array.reshape(value, list(fitted)) if list(fitted) != vs else value
    filled = array.broadcast_to(filled, want) if list(fitted) != want else filled
    if input.dtype.is_floating or input.dtype.is_complex:
        from simdist.runtime.ops import dispatch
        placed = dispatch.execute(array.STRIDED_SLICE_GRAD, (filled,), {"shape": dims, "key": norm})
        return math.where(_const(mask, dtypes.bool_), placed, input)
    out = np.array(_value(input), copy=True)
    out[array._np_key(norm)] = _value(filled)
    return _const(out, input.dtype)


def _value_grad_refusal(want: list, vs: list) -> BaseException | None:
    """array_grad._TensorStridedSliceUpdateGrad's refusal of the value's gradient, or None: BroadcastGradientArgs(slice
    shape `want`, value's shape `vs`) must broadcast ("Incompatible shapes"); its value reduction axes (BCast: every
    axis where the value, padded with leading ones, is 1) index the slice's gradient dy, so one past dy's rank is
    reduce_sum's "Invalid reduction dimension"; and the kept elements, reshaped to the value's shape, must be as many
    (Reshape's "Input to reshape is a tensor with 2 values, but the requested shape has 6": a [1, 0, 1, 2, 1] slice
    beside a [3, 2, 1] value, or a [2, 2, 1] slice beside [1, 1, 2, 1]; observed on TF 2.21, fz50)."""
    try:
        np.broadcast_shapes(tuple(want), tuple(vs))
    except ValueError:
        return _invalid("BroadcastGradientArgs", f"Incompatible shapes: {_dims(want)} vs. {_dims(vs)}")
    n = max(len(want), len(vs))
    pv = [1] * (n - len(vs)) + list(vs)
    axes = [i for i in range(n) if pv[i] == 1]
    for a in axes:
        if a >= len(want):
            return _invalid("Sum", f"Invalid reduction dimension ({a} for input with {len(want)} dimension(s)")
    kept = int(np.prod([d for i, d in enumerate(want) if i not in axes], dtype=np.int64))
    size = int(np.prod(vs, dtype=np.int64))
    if kept != size:
        return _invalid("Reshape", f"Input to reshape is a tensor with {kept} values, but the requested shape has {size}")
    return None


def _gradient_refused(value: Any, want: list, vs: list) -> Any:
    """value, whose gradient through TensorStridedSliceUpdate is `_value_grad_refusal`'s error."""
    from simdist.runtime.autodiff import custom_gradient
    from simdist.runtime.ops import array

    @custom_gradient
    def call(v: Any) -> Any:
        def grad(g: Any) -> Any:
            err = _value_grad_refusal(want, vs)
            if err is not None:
                raise err
            return g
        return array.identity(v), grad
    return call(value)


def _empty_slice_update(input: Any, value: Any, want: list) -> Any:  # noqa: A002
    """TensorStridedSliceUpdate of an empty slice: the input, differentiated as array_grad's
    _TensorStridedSliceUpdateGrad: the input's gradient the upstream one, the value's the empty slice of it summed
    over BroadcastGradientArgs(slice shape, value's shape)'s axes and reshaped to the value's shape (zeros), or,
    when the two shapes do not broadcast (a [0] slice, a [3, 2, 2] value), BroadcastGradientArgs'
    InvalidArgumentError as the gradient is taken (fz31a: tape seed 3120261203 #41, where simdist gave zeros)."""
    from simdist.runtime.autodiff import custom_gradient
    from simdist.runtime.ops import array
    vs = value.shape.as_list()

    @custom_gradient
    def call(x: Any, v: Any) -> Any:
        def grad(g: Any) -> Any:
            err = _value_grad_refusal(want, vs)   # (fz50: also the reduction's and the reshape's refusals)
            if err is not None:
                raise err
            return g, array.zeros_like(v)
        return array.identity(x), grad
    return call(input, value)


def _check_numerics_v2(tensor: Any, message: str) -> Any:
    """CheckNumericsV2: check_numerics.py's op (its gradient checks the incoming gradient)."""
    from simdist.runtime.ops import check_numerics
    return check_numerics.check_numerics_v2(tensor, message)


def _sparse_mat_mul(a: Any, b: Any, transpose_a: bool, transpose_b: bool, a_is_sparse: bool, b_is_sparse: bool) -> Any:
    """SparseMatMul (sparse_matmul_op.cc): float32 or bfloat16 operands multiplied in float32 (the
    sparsity hints choose a kernel, not the value); "Matrix size incompatible: a: [2,3], b: [2,3]"."""
    from simdist.runtime.ops import math
    as_, bs = a.shape.as_list(), b.shape.as_list()
    ka = as_[0] if transpose_a else as_[-1]
    kb = bs[-1] if transpose_b else bs[0]
    if ka != kb:
        raise _invalid("SparseMatMul", f"Matrix size incompatible: a: {_dims(as_)}, b: {_dims(bs)}")
    a32 = a if a.dtype == dtypes.float32 else math.cast(a, dtypes.float32)
    b32 = b if b.dtype == dtypes.float32 else math.cast(b, dtypes.float32)
    return _raw("MatMul")(a=a32, b=b32, transpose_a=transpose_a, transpose_b=transpose_b)


def _nms_v1(boxes: Any, scores: Any, max_output_size: Any, iou_threshold: float) -> Any:
    if not 0.0 <= iou_threshold <= 1.0:
        raise _invalid("NonMaxSuppression", "iou_threshold must be in [0, 1]")
    return _raw("NonMaxSuppressionV3")(boxes=boxes, scores=scores, max_output_size=max_output_size,
                                       iou_threshold=_const(iou_threshold, dtypes.float32),
                                       score_threshold=_const(-np.inf, dtypes.float32))


def _nms_v2(boxes: Any, scores: Any, max_output_size: Any, iou_threshold: Any) -> Any:
    return _raw("NonMaxSuppressionV3")(boxes=boxes, scores=scores, max_output_size=max_output_size,
                                       iou_threshold=iou_threshold,
                                       score_threshold=_const(-np.inf, iou_threshold.dtype))


def _nms_v4(boxes: Any, scores: Any, max_output_size: Any, iou_threshold: Any, score_threshold: Any,
            pad_to_max_output_size: bool) -> Any:
    out = _raw("NonMaxSuppressionV5")(boxes=boxes, scores=scores, max_output_size=max_output_size,
                                      iou_threshold=iou_threshold, score_threshold=score_threshold,
                                      soft_nms_sigma=_const(0, score_threshold.dtype),
                                      pad_to_max_output_size=pad_to_max_output_size)
    return out[0], out[2]


def _extract_glimpse_v1(input: Any, size: Any, offsets: Any, centered: bool, normalized: bool,  # noqa: A002
                        uniform_noise: bool, noise: str) -> Any:
    """ExtractGlimpse (V1: attention_ops.cc runs Eigen's ExtractGlimpses with version 1): the V2 kernel's checks, noise
    and copy, but the corner computed as version 1 does (observed on TF 2.21, 96 zero-noise windows): normalized
    offsets times the image's size; centered ones, normalized or not, halved and moved by half the image; then every
    corner moved back by half the window (V2 halves and moves back only normalized centered ones: unnormalized (0, 0)
    of a [3, 2] window is the corner (-1, -1) in V1, (0, 0) in V2). The corner is computed here in float32 and given to
    ExtractGlimpseV2 as a pixel offset."""
    shapes_ok = (input.ndim == 4 and size.ndim == 1 and size.shape.as_list()[0] == 2 and offsets.ndim == 2
                 and offsets.shape.as_list()[1:] == [2] and offsets.dtype == dtypes.float32)
    if shapes_ok:
        f = np.float32
        in_h, in_w = (f(d) for d in input.shape.as_list()[1:3])
        h, w = (f(v) for v in _value(size).tolist())
        off = np.asarray(_value(offsets), np.float32)
        y, x = off[:, 0], off[:, 1]
        with np.errstate(all="ignore"):
            if normalized:
                x, y = x * in_w, y * in_h
            if centered:   # (V1 halves centered offsets, normalized or not)
                x, y = x / f(2), y / f(2)
                x, y = x + in_w / f(2), y + in_h / f(2)
            x, y = x - w / f(2), y - h / f(2)
        offsets = _const(np.stack([y, x], axis=1), dtypes.float32)
        centered = normalized = False
    return _raw("ExtractGlimpseV2")(input=input, size=size, offsets=offsets, centered=centered, normalized=normalized,
                                    uniform_noise=uniform_noise, noise=noise)


def _parse_example_v1(**kw: Any) -> Any:
    from simdist.runtime.ops import raw_parsing_v1
    return raw_parsing_v1.parse_example(**kw)


def _parse_single_example(**kw: Any) -> Any:
    from simdist.runtime.ops import raw_parsing_v1
    return raw_parsing_v1.parse_single_example(**kw)


def _parse_sequence_example_v1(**kw: Any) -> Any:
    from simdist.runtime.ops import raw_parsing_v1
    return raw_parsing_v1.parse_sequence_example(**kw)


def _parse_single_sequence_example(**kw: Any) -> Any:
    from simdist.runtime.ops import raw_parsing_v1
    return raw_parsing_v1.parse_single_sequence_example(**kw)


def _draw_bounding_boxes(images: Any, boxes: Any) -> Any:
    return _raw("DrawBoundingBoxesV2")(images=images, boxes=boxes, colors=_const(np.zeros([0, 4]), dtypes.float32))


def _ipt_v2(images: Any, transforms: Any, output_shape: Any, interpolation: str, fill_mode: str) -> Any:
    return _raw("ImageProjectiveTransformV3")(images=images, transforms=transforms, output_shape=output_shape,
                                              fill_value=_const(0, dtypes.float32), interpolation=interpolation,
                                              fill_mode=fill_mode)


def _approx_top_k(input: Any, k: int, reduction_dimension: int, recall_target: float, is_max_k: bool,  # noqa: A002
                  reduction_input_size_override: int, aggregate_to_topk: bool) -> Any:
    from simdist.runtime.ops import math_more
    return math_more.approx_top_k(input, k, reduction_dimension, recall_target, is_max_k,
                                  reduction_input_size_override, aggregate_to_topk)


def _stateless_gamma_v2(shape: Any, seed: Any, alpha: Any) -> Any:
    """StatelessRandomGammaV2: tf.random.stateless_gamma's draws (its seed, alpha's dtype)."""
    from simdist.runtime.ops import random_gamma
    return random_gamma.stateless_gamma(shape, seed, alpha, dtype=alpha.dtype)


def _random_uniform_int(shape: Any, minval: Any, maxval: Any, seed: int, seed2: int) -> Any:
    """RandomUniformInt (random_op.cc): scalar bounds ("minval must be 0-D"), minval < maxval (unless
    the shape has no elements); the integer draws of simdist's RandomUniform kernel, cached per (seed,
    seed2) as RandomUniform's raw form is (raw_forms_more._stateful): two calls of one seed pair continue
    one stream, as TF's cached kernel does."""
    from simdist.runtime.ops import dispatch, random, random_graphs
    from simdist.runtime.ops.args import dims, shape_arg
    op = "RandomUniformInt"
    if shape.ndim != 1:
        raise _invalid(op, f"shape must be a vector of {{int32,int64}}, got shape {dims(shape.shape.as_list())}")
    for name, v in (("minval", minval), ("maxval", maxval)):
        if v.ndim != 0:
            raise _invalid(op, f"{name} must be 0-D, got shape {_dims(v.shape.as_list())}")
    lo, hi = int(_value(minval)), int(_value(maxval))
    shp = random._check_shape(shape_arg(shape), op)
    if lo >= hi and int(np.prod(shp)):
        raise _invalid(op, f"Need minval < maxval, got {lo} >= {hi}")
    return dispatch.execute(random.UNIFORM, (), {"shape": shp, "minval": lo, "maxval": hi, "dtype": minval.dtype,
                                                 "seed": seed, "seed2": seed2, "kernel": random_graphs.instance()})


# -- the table -----------------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def forms() -> dict[str, RawArgs]:
    """The raw form of each op of NAMES."""
    def mp(successor: str, op: str) -> RawArgs:
        return RawArgs(via=_pool_v2(successor, op))
    out = {
        "Add": RawArgs(via=_add),
        "ApproximateEqual": RawArgs(via=_approximate_equal),
        "BatchMatMul": RawArgs(via=_batch_matmul),
        "BatchMatMulV3": RawArgs(via=_batch_matmul_v3),
        "BatchToSpace": RawArgs(via=_batch_to_space),
        "BiasAddV1": RawArgs(via=_bias_add_v1),
        "Bincount": RawArgs(via=_bincount),
        "Concat": RawArgs(via=_concat),
        "ConcatOffset": RawArgs(via=_concat_offset),
        "ConjugateTranspose": RawArgs(via=_conjugate_transpose),
        "Copy": RawArgs(via=_identity),
        "DebugIdentityV2": RawArgs(via=_identity),   # (its dumps to debug_urls are not written; rgrads)
        "DeepCopy": RawArgs(via=_identity),
        "Snapshot": RawArgs(via=_identity), "CopyHost": RawArgs(via=_identity),   # (copies: the thirty-fourth session's survey)
        "Div": RawArgs(via=_div),
        "Gather": RawArgs(via=_gather),
        "InTopK": RawArgs(via=_in_top_k),
        "InplaceAdd": RawArgs(via=_inplace("InplaceAdd")),
        "InplaceSub": RawArgs(via=_inplace("InplaceSub")),
        "InplaceUpdate": RawArgs(via=_inplace("InplaceUpdate")),
        "Inv": RawArgs(via=lambda x: _raw("Reciprocal")(x=x)),
        "InvGrad": RawArgs(via=lambda y, dy: _raw("ReciprocalGrad")(y=y, dy=dy)),
        "LinSpace": RawArgs(via=_lin_space),
        "MatrixDiag": RawArgs(via=_matrix_diag),
        "MatrixDiagPart": RawArgs(via=_matrix_diag_part),
        "MatrixDiagPartV2": RawArgs(via=_matrix_diag_part_v2),
        "MatrixDiagV2": RawArgs(via=_matrix_diag_v2),

        "MatrixSetDiag": RawArgs(via=_matrix_set_diag),
        "MatrixSetDiagV2": RawArgs(via=_matrix_set_diag_v2),
        "MaxPoolGradGradV2": mp("MaxPoolGradGrad", "MaxPoolGradGradV2"),
        "MaxPoolGradV2": mp("MaxPoolGrad", "MaxPoolGradV2"),
        "MaxPoolV2": mp("MaxPool", "MaxPoolV2"),
        "NextIteration": RawArgs(via=_identity),
        "Mod": RawArgs(via=_mod),
        "NthElement": RawArgs(via=_nth_element),
        "PopulationCount": RawArgs(via=_population_count),
        "Reverse": RawArgs(via=_reverse),
        "ScatterNdNonAliasingAdd": RawArgs(via=_scatter_nd_non_aliasing_add),
        "AccumulateNV2": RawArgs(via=_accumulate_n),

        "SoftplusGrad": RawArgs(via=_softplus_grad),
        "StatelessRandomGetAlg": RawArgs(via=_get_alg),
        "StatelessRandomNormal": RawArgs(via=lambda shape, seed, dtype: _stateless_v1(
            "StatelessRandomNormalV2", "StatelessRandomNormal")(shape, seed, dtype=dtype)),
        "StatelessRandomUniform": RawArgs(via=lambda shape, seed, dtype: _stateless_v1(
            "StatelessRandomUniformV2", "StatelessRandomUniform")(shape, seed, dtype=dtype)),
        "StatelessRandomUniformFullInt": RawArgs(via=_uniform_full_int_v1),
        "StatelessRandomUniformInt": RawArgs(via=_uniform_int_v1),
        "StatelessTruncatedNormal": RawArgs(via=lambda shape, seed, dtype: _stateless_v1(
            "StatelessTruncatedNormalV2", "StatelessTruncatedNormal")(shape, seed, dtype=dtype)),
        "TileGrad": RawArgs(via=_missing_attr("TileGrad", "Tmultiples")),
        "ToBool": RawArgs(via=_to_bool),
        "TopK": RawArgs(via=_missing_attr("TopK", "index_type")),
        "UniqueV2": RawArgs(via=_unique_v2(False)),
        "UniqueWithCountsV2": RawArgs(via=_unique_v2(True)),
    }
    out.update({name: RawArgs(via=_removed(name, *why)) for name, why in _REMOVED.items()})
    out.update({name: RawArgs(via=_no_kernel) for name in _NO_CPU_KERNEL if name != "AccumulateNV2"})
    out.update({
        "ApproxTopK": RawArgs(via=_approx_top_k),
        "Bucketize": RawArgs(via=_bucketize),
        "CheckNumericsV2": RawArgs(via=_check_numerics_v2),
        "DataFormatDimMap": RawArgs(via=_data_format_dim_map),
        "DataFormatVecPermute": RawArgs(via=_data_format_vec_permute),
        "DrawBoundingBoxes": RawArgs(via=_draw_bounding_boxes),
        "ExtractGlimpse": RawArgs(via=_extract_glimpse_v1),
        "ParseExample": RawArgs(via=_parse_example_v1),
        "ParseSingleExample": RawArgs(via=_parse_single_example),
        "ParseSequenceExample": RawArgs(via=_parse_sequence_example_v1),
        "ParseSingleSequenceExample": RawArgs(via=_parse_single_sequence_example),
        "Empty": RawArgs(via=_empty),
        "ImageProjectiveTransformV2": RawArgs(via=_ipt_v2),
        "NonMaxSuppression": RawArgs(via=_nms_v1),
        "NonMaxSuppressionV2": RawArgs(via=_nms_v2),
        "NonMaxSuppressionV4": RawArgs(via=_nms_v4),
        "ParallelConcat": RawArgs(via=_parallel_concat),
        "SpaceToBatch": RawArgs(via=_space_to_batch),
        "RandomUniformInt": RawArgs(via=_random_uniform_int),
        "SparseMatMul": RawArgs(via=_sparse_mat_mul),
        "StatelessRandomGammaV2": RawArgs(via=_stateless_gamma_v2),
        "TensorStridedSliceUpdate": RawArgs(via=_tensor_strided_slice_update),
    })
    assert tuple(sorted(out)) == NAMES, sorted(set(out) ^ set(NAMES))
    return out


# Removed from the GraphDef (TF 2.21's UnimplementedError "Op X is not available in GraphDef version 2474. It has
# been removed in version N. ...", observed): name -> (N, what TF's text says to use).
_REMOVED: dict[str, tuple[int, str]] = {
    "BatchCholesky": (13, "Use Cholesky instead."), "BatchCholeskyGrad": (13, "Use CholeskyGrad instead."),
    "BatchMatrixBandPart": (14, "Use MatrixBandPart"), "BatchMatrixDeterminant": (13, "Use MatrixDeterminant instead."),
    "BatchMatrixDiag": (14, "Use MatrixDiag"), "BatchMatrixDiagPart": (14, "Use MatrixDiagPart"),
    "BatchMatrixInverse": (13, "Use MatrixInverse instead."), "BatchMatrixSetDiag": (14, "Use MatrixSetDiag"),
    "BatchMatrixSolve": (13, "Use MatrixSolve instead."), "BatchMatrixSolveLs": (13, "Use MatrixSolveLs instead."),
    "BatchMatrixTriangularSolve": (13, "Use MatrixTriangularSolve instead."),
    "BatchSelfAdjointEig": (11, "Use SelfAdjointEigV2 instead."), "BatchSelfAdjointEigV2": (13, "Use SelfAdjointEigV2 instead."),
    "BatchSvd": (13, "Use Svd instead."), "Conv3DBackpropFilter": (10, "Use Conv3DBackpropFilterV2"),
    "Conv3DBackpropInput": (10, "Use Conv3DBackpropInputV2"),
    "MatrixExponential": (27, "Use Python implementation tf.linalg.matrix_exponential instead."),
    "SelfAdjointEig": (11, "Use SelfAdjointEigV2 instead."),
    # (found missing by the thirty-fourth session's survey of TF's raw ops: each refused so, observed)
    "AdjustContrast": (2, "Use AdjustContrastv2 instead"), "QuantizeAndDequantize": (22, "Replaced by QuantizeAndDequantizeV2"),
    "BatchNormWithGlobalNormalization": (9, "Use tf.nn.batch_normalization()"),
    "BatchNormWithGlobalNormalizationGrad": (9, "Use tf.nn.batch_normalization()"),
    # (thirty-eighth session: AudioSummary, V1 of AudioSummaryV2 with sample_rate an attr, observed)
    "AudioSummary": (15, "Use AudioSummaryV2."),
}
# Every op whose OpDef carries a deprecation (TF 2.21's op_def_registry): a graph refuses the node as
# op_def_library._apply_op_helper starts, before it converts any input (NotImplementedError); eagerly the
# kernel runs or is missing. _REMOVED's ops are also refused eagerly (UnimplementedError).
GRAPH_REMOVED: dict[str, tuple[int, str]] = {
    **_REMOVED, "TileGrad": (3, "TileGrad has been replaced with reduce_sum"), "TopK": (7, "Use TopKV2 instead"),
    **{f"Batch{op}": (15, f"Use {op}") for op in ("FFT", "FFT2D", "FFT3D", "IFFT", "IFFT2D", "IFFT3D")},
}


def refuse_in_graph(op: str) -> None:
    """Inside a tf.function, a deprecated op's NotImplementedError before any input is converted
    (fuzz20 sig seed 2920261203 #59, #80, #84: a uint64 BatchCholesky was the dtype's TypeError)."""
    from simdist.runtime import context
    if op in GRAPH_REMOVED and context.in_function():
        version, instead = GRAPH_REMOVED[op]
        raise NotImplementedError(f"Op {op} is not available in GraphDef version 2474. It has been removed in version "
                                  f"{version}. {instead}.")


# No CPU kernel in TF 2.21 (raw_kernels.json holds none: raw_rules.check_kernel's NotFoundError, eagerly, and
# InvalidArgumentError "No OpKernel was registered" in a tf.function); inputs of ordinary tensors only.
_NO_CPU_KERNEL = ("AccumulateNV2", "AllToAll", "BatchFFT", "BatchFFT2D", "BatchFFT3D", "BatchIFFT", "BatchIFFT2D",
                  "BatchIFFT3D", "CTCLossV2", "CrossReplicaSum", "CudnnRNN", "CudnnRNNBackprop", "CudnnRNNBackpropV2",
                  "CudnnRNNBackpropV3", "CudnnRNNCanonicalToParams", "CudnnRNNCanonicalToParamsV2", "CudnnRNNParamsSize",
                  "CudnnRNNParamsToCanonical", "CudnnRNNParamsToCanonicalV2", "CudnnRNNV2", "CudnnRNNV3", "FFTND",
                  "IFFTND", "IRFFTND", "MaxPoolGradGradWithArgmax", "RFFTND", "SegmentMaxV2", "SegmentMinV2",
                  "SegmentProdV2", "SegmentSumV2") + (
    # (thirty-seventh session: TF 2.21's CPU build registers no kernel for the BoostedTrees kernels, the SparseCore
    # COO converters, the TPU ops and the Xla* ops below (tensorflow.python.framework.kernels lists none;
    # BoostedTreesBucketize observed: NotFoundError eagerly, "No OpKernel was registered" in a tf.function))
    "BoostedTreesAggregateStats", "BoostedTreesBucketize", "BoostedTreesCalculateBestFeatureSplit",
    "BoostedTreesCalculateBestFeatureSplitV2", "BoostedTreesCalculateBestGainsPerFeature",
    "BoostedTreesMakeQuantileSummaries", "BoostedTreesMakeStatsSummary", "BoostedTreesSparseAggregateStats",
    "BoostedTreesSparseCalculateBestFeatureSplit", "ConvertToListOfSparseCoreCooTensors",
    "ConvertToSparseCoreCsrWrappedCooTensor", "GetStatsFromListOfSparseCoreCooTensors",
    "SortListOfSparseCoreCooTensors", "TPUCompilationResult", "TPUEmbeddingActivations", "TPUPartitionedInput",
    "TPUPartitionedInputV2", "TPUPartitionedOutput", "TPUPartitionedOutputV2", "TPUReplicateMetadata",
    "TPUReplicatedInput", "TPUReplicatedOutput", "XlaConcatND", "XlaSplitND", "XlaSparseDenseMatmul",
    "XlaSparseDenseMatmulWithCsrInput", "XlaSparseDenseMatmulWithStaticBufferSize") + tuple(
    f"XlaSparseDenseMatmulGradWith{opt}And{kind}" for opt in ("Adagrad", "AdagradMomentum", "Adam", "Ftrl", "Sgd")
    for kind in ("CsrInput", "StaticBufferSize"))

# The ops of NAMES whose every call TF 2.21's CPU refuses (no kernel, an attr the kernel wants and the
# OpDef lacks, removed from the GraphDef): no recorded call can succeed (scripts/record_raw_op_cases.py
# skips them; tests/ops/test_raw_legacy_tf.py checks their errors).
REFUSED = tuple(sorted(set(_REMOVED) | set(_NO_CPU_KERNEL) | {"TileGrad", "TopK"}))

NAMES = tuple(sorted(("Add", "ApproximateEqual", "BatchMatMul", "BatchMatMulV3", "BatchToSpace", "BiasAddV1", "Bincount",
                      "Concat", "ConcatOffset", "ConjugateTranspose", "Copy", "CopyHost", "DebugIdentityV2", "DeepCopy", "Div", "Gather", "InTopK",
                      "InplaceAdd", "InplaceSub", "InplaceUpdate", "Inv", "InvGrad", "LinSpace", "MatrixDiag",
                      "MatrixDiagPart", "MatrixDiagPartV2", "MatrixDiagV2", "MatrixSetDiag", "MatrixSetDiagV2",
                      "MaxPoolGradGradV2", "MaxPoolGradV2", "MaxPoolV2", "Mod", "NextIteration", "NthElement", "PopulationCount",
                      "Reverse", "ScatterNdNonAliasingAdd", "Snapshot", "SoftplusGrad", "StatelessRandomGetAlg",
                      "StatelessRandomNormal", "StatelessRandomUniform", "StatelessRandomUniformFullInt",
                      "StatelessRandomUniformInt", "StatelessTruncatedNormal", "TileGrad", "ToBool", "TopK", "UniqueV2",
                      "UniqueWithCountsV2", "ApproxTopK", "Bucketize", "CheckNumericsV2", "DataFormatDimMap",
                      "DataFormatVecPermute", "DrawBoundingBoxes", "Empty", "ExtractGlimpse", "ImageProjectiveTransformV2",
                      "ParseExample", "ParseSingleExample", "ParseSequenceExample", "ParseSingleSequenceExample",
                      "NonMaxSuppression", "NonMaxSuppressionV2", "NonMaxSuppressionV4", "ParallelConcat", "SpaceToBatch",
                      "SparseMatMul", "StatelessRandomGammaV2", "TensorStridedSliceUpdate", "RandomUniformInt")
                     + tuple(_REMOVED) + _NO_CPU_KERNEL))
