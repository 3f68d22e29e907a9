"""Raw forms of TF raw ops that simdist computes as compositions of its own ops (clause ops.raw-ops).

TF's public functions run raw ops that simdist has no op of the same name for: `tf.range` is
Range, the first derivative of `a + b` runs BroadcastGradientArgs, `tf.split` Split, `tf.sqrt`'s
gradient SqrtGrad. simdist computes the same values with its own ops (its public functions, its
gradient functions); each raw form here calls that computation with TF's raw arguments, checked
as TF's kernel checks them (its error classes and texts), so `tf.raw_ops.Range(...)` equals TF's.
A tape records the ops of the composition (the gradient is theirs, equal in value to TF's
registered gradient of the raw op); a tf.function traces them, not one node of the raw op's type.

NAMES lists them (scripts/make_raw_opdefs.py records their signatures); `forms()` gives each its
RawArgs (RawArgs.via), read by runtime/ops/raw_ops.py for a raw op no registered op has.
The Ragged* kernels (RaggedGather, RaggedTensorToTensor, ...) are raw_ragged.py's.
`strided_slice_grad` is StridedSliceGrad's (a registered op whose forward takes a `t[...]` key;
raw_forms_more.py binds it). Imported on the first `tf.raw_ops` lookup, not by `import simdist`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from simdist.runtime import errors
from simdist.runtime.ops.raw_args import RawArgs
from simdist.runtime.ops.args import dims_text as _dims

__all__ = ["NAMES", "forms", "broadcast_gradient_args", "cwise_grad", "strided_slice_grad"]

# TF raw ops that no registered op computes, computed here (their OpDefs are in raw_opdefs.json)
NAMES = ("BroadcastGradientArgs", "NoOp", "ParallelDynamicStitch", "RaggedBincount", "RaggedCountSparseOutput",
         "RaggedCross", "RaggedFillEmptyRows", "RaggedFillEmptyRowsGrad", "RaggedGather", "RaggedRange",
         "RaggedTensorToSparse", "RaggedTensorToTensor", "Range", "ReciprocalGrad", "RsqrtGrad",
         "Select", "ShapeN", "Split", "SqrtGrad", "StatelessRandomGetKeyCounter", "StatelessRandomGetKeyCounterAlg",
         "StatelessRandomUniformFullIntV2", "StatelessRandomUniformIntV2")




def _invalid(op: str, text: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{text} [Op:{op}]")


# --- BroadcastGradientArgs (tensorflow/core/kernels/bcast_ops.cc, util/bcast.h BCastList) --------------

def broadcast_gradient_args(s0: list[int], s1: list[int]) -> tuple[list[int], list[int]] | None:
    """BCast's grad_x_reduce_idx and grad_y_reduce_idx of shapes s0 and s1 (None: incompatible):
    equal shapes reduce nothing; otherwise, right-aligned and 1-padded, an axis where every shape
    is 1 is reduced in both, an axis where some are 1 in those that are 1."""
    if s0 == s1:
        return [], []
    rank = max(len(s0), len(s1))
    x = [1] * (rank - len(s0)) + list(s0)
    y = [1] * (rank - len(s1)) + list(s1)
    rx: list[int] = []
    ry: list[int] = []
    for j in range(rank):
        others = {d for d in (x[j], y[j]) if d != 1}
        if len(others) > 1:
            return None
        if x[j] == 1:
            rx.append(j)
        if y[j] == 1:
            ry.append(j)
    return rx, ry


def _bcast_grad_args(s0: Any, s1: Any) -> Any:
    from simdist.runtime.ops import dispatch
    from simdist.runtime.ops.array import constant
    shapes = []
    for i, s in enumerate((s0, s1)):
        if s.ndim != 1:
            raise _invalid("BroadcastGradientArgs", f"In[{i}] must be a vector.{_dims(s.shape.as_list())}")
        shapes.append([int(v) for v in dispatch.static_value(s).tolist()])
    got = broadcast_gradient_args(*shapes)
    if got is None:
        raise _invalid("BroadcastGradientArgs", f"Incompatible shapes: {_dims(shapes[0])} vs. {_dims(shapes[1])}")
    return tuple(constant(np.array(r, dtype=s0.dtype.np)) for r in got)


# --- Range (tensorflow/core/kernels/sequence_ops.cc) -------------------------------------------------

def _range(start: Any, limit: Any, delta: Any) -> Any:
    from simdist.runtime.ops import array
    scalars = []
    for name, v in (("start", start), ("limit", limit), ("delta", delta)):
        # (RangeOp: a scalar, or a vector of one element)
        if not (v.ndim == 0 or (v.ndim == 1 and v.shape.as_list()[0] == 1)):
            raise _invalid("Range", f"{name} must be a scalar, not shape {_dims(v.shape.as_list())}")
        scalars.append(v if v.ndim == 0 else array.reshape(v, []))
    return array.range_(*scalars, dtype=start.dtype)


def _ragged_range(starts: Any, limits: Any, deltas: Any, Tsplits: Any) -> Any:  # noqa: N803 - TF's name
    """RaggedRange (ragged_range_op.cc): tf.ragged.range's kernel, its (row splits, flat values)."""
    from simdist.runtime.ops import ragged_functions, shape_checks, static_shapes
    shape_checks.check("RaggedRange", ragged_functions.ragged_range_shapes,
                       [static_shapes.known_shape(t) for t in (starts, limits, deltas)])
    rt = ragged_functions.range_(starts, limits, deltas, dtype=starts.dtype, row_splits_dtype=Tsplits)
    return rt.row_splits, rt.flat_values


# --- Select (tensorflow/core/kernels/cwise_op_select.cc, SelectOp) ----------------------------------

def _select(condition: Any, t: Any, e: Any) -> Any:
    """Select: a scalar condition picks x or y whole; a vector one picks rows of x and y of rank
    >= 2; otherwise condition, x and y have one shape (no broadcasting, unlike SelectV2)."""
    from simdist.runtime.ops import array, math
    x, y = t, e
    cs, xs, ys = (v.shape.as_list() for v in (condition, x, y))
    same = f"'then' and 'else' must have the same size.  but received: {_dims(xs)} vs. {_dims(ys)}"
    if not cs:
        if xs != ys:
            raise _invalid("Select", same)
        return math.where(condition, x, y)
    if len(cs) == 1 and len(xs) != 1:
        if not xs:
            raise _invalid("Select", f"'then' must be at least a vector, but saw shape: {_dims(xs)}")
        if xs[0] != cs[0]:
            raise _invalid("Select", f"Number of batches of 'then' must match size of 'cond', but saw: {xs[0]} vs. "
                                     f"{cs[0]}")
        if xs != ys:
            raise _invalid("Select", same)
        return math.where(array.reshape(condition, [cs[0]] + [1] * (len(xs) - 1)), x, y)
    for i, s in ((1, xs), (2, ys)):   # (OpKernelContext::ValidateInputsAreSameShape)
        if s != cs:
            raise _invalid("Select", "Inputs to operation Select of type Select must have the same size and shape.  "
                                     f"Input 0: {_dims(cs)} != input {i}: {_dims(s)}")
    return math.where(condition, x, y)


# --- SqrtGrad, RsqrtGrad, ReciprocalGrad (cwise_ops_gradients.h; the kernels of unary.py's gradients) -----

def cwise_grad(op: str, kernel: Any) -> Any:
    """The raw SqrtGrad/RsqrtGrad/ReciprocalGrad/SigmoidGrad/TanhGrad: the kernel, differentiated as math_grad.py's
    _SqrtGradGrad, _RsqrtGradGrad, _ReciprocalGradGrad, _SigmoidGradGrad and _TanhGradGrad do (not through
    simdist's composition of the kernel: a subnormal dy, read as 0 under DAZ, gave no gradient; fuzz20 tape seed
    2920261202 #19). The kernel (SimpleBinaryOp) reads dy flat in y's shape, but the gradient functions take the
    op's inputs as given: of y [] and dy [1] TF's SigmoidGrad gives y the gradient grad * dy - ..., of dy's
    broadcast shape [1], and dy sigmoid_grad(y, grad), of y's shape [] (fz31a, where simdist reshaped dy on the tape
    and gave [] and [1]: seed 3020261208 #108)."""
    def run(y: Any, dy: Any) -> Any:
        from simdist.runtime.autodiff import custom_gradient
        from simdist.runtime.ops import raw_shapes
        @custom_gradient
        def call(a0: Any, b0: Any) -> Any:
            a, b = raw_shapes.check(op, [a0, b0])
            out = kernel(a, b)
            return out, lambda grad: _GRAD_GRADS[op](a0, b0, out, grad)
        return call(y, dy)
    return run


def _reciprocal_grad_grad(a: Any, b: Any, out: Any, grad: Any) -> tuple:
    from simdist.runtime.ops.complex_math import conj_of
    ca, cg = conj_of(a), conj_of(grad)
    return cg * -2.0 * b * ca, _reciprocal_composed(ca, grad)


def _reciprocal_composed(y: Any, dy: Any) -> Any:
    """The raw ReciprocalGrad, -dy · (c · c) (c = conj(y)), +0 where dy is 0, of the broadcast shape TF's
    SimpleBinaryOp gives raw operands of different ranks (fz31a; Reciprocal's gradient runs the kernel op,
    sqrt_grads.RECIPROCAL_GRAD)."""
    from simdist.runtime.ops import unary
    c = unary._conj(y)
    return unary._safe(dy, -dy * (c * c))


def _sqrt_grad_grad(a: Any, b: Any, out: Any, grad: Any) -> tuple:
    from simdist.runtime.ops.complex_math import conj_of
    ga = grad / a
    return -conj_of(ga) * out, 0.5 * ga


def _rsqrt_grad_grad(a: Any, b: Any, out: Any, grad: Any) -> tuple:
    from simdist.runtime.ops import unary
    from simdist.runtime.ops.complex_math import conj_of
    ca, cg = conj_of(a), conj_of(grad)
    return -1.5 * cg * b * unary.square(ca), unary.rsqrt_grad(ca, grad)


def _sigmoid_grad_grad(a: Any, b: Any, out: Any, grad: Any) -> tuple:
    from simdist.runtime.ops import activations, dispatch
    from simdist.runtime.ops.complex_math import conj_of
    ca, cb = conj_of(a), conj_of(b)
    gb = grad * cb
    return gb - 2.0 * gb * ca, dispatch.execute(activations.SIGMOID_GRAD, (ca, grad))


def _tanh_grad_grad(a: Any, b: Any, out: Any, grad: Any) -> tuple:
    from simdist.runtime.ops import activations, dispatch
    from simdist.runtime.ops.complex_math import conj_of
    ca, cb = conj_of(a), conj_of(b)
    return grad * -2.0 * cb * ca, dispatch.execute(activations.TANH_GRAD, (ca, grad))


_GRAD_GRADS = {"SqrtGrad": _sqrt_grad_grad, "RsqrtGrad": _rsqrt_grad_grad, "ReciprocalGrad": _reciprocal_grad_grad,
               "SigmoidGrad": _sigmoid_grad_grad, "TanhGrad": _tanh_grad_grad}


# --- Split, ShapeN, ParallelDynamicStitch, NoOp --------------------------------------------------------

def _split(split_dim: Any, value: Any, num_split: int) -> Any:
    from simdist.runtime.ops import array, dispatch
    if split_dim.ndim != 0:
        raise _invalid("Split", f"split_dim must be a scalar but has rank {split_dim.ndim}")
    from simdist.runtime.ops import graph_constants
    # (a split_dim the graph does not know stays a tensor: array.split's trace-time errors read a known one
    # only, so an input_signature's split_dim traces as on TF; fz32a, sig seed 3220261206 #233)
    axis = int(dispatch.static_value(split_dim)) if graph_constants.known(split_dim) else split_dim
    from simdist.runtime import context
    from simdist.runtime.ops import grappler, trace_errors
    if int(num_split) == 1 and context.in_function() and grappler.enabled:
        # (constant_folding.cc RemoveSplitOrSplitV: past the shape function the graph's Split of one output is an
        # Identity, so the kernel's split_dim check never runs: a scalar or an out-of-range split_dim the graph does
        # not see computes; fz36a, sig seed 3620261207 #89)
        try:
            return array.split(value, 1, axis)
        except Exception as e:
            if trace_errors.builds(e):
                raise
            return [array.identity(value)]
    return array.split(value, int(num_split), axis)


def _shape_n(input: list, out_type: Any) -> Any:  # noqa: A002 - TF's name
    from simdist.runtime.ops import array_more
    return array_more.shape_n(input, out_type)


def _parallel_dynamic_stitch(indices: list, data: list) -> Any:
    """DynamicStitch's values (ParallelDynamicStitch differs only in which of repeated indices wins,
    which TF leaves unspecified)."""
    from simdist.runtime.ops import data_flow
    return data_flow.dynamic_stitch(indices, data)


@lru_cache(maxsize=1)
def forms() -> dict[str, RawArgs]:
    """The raw form of each op of NAMES."""
    from simdist.runtime.ops import raw_ragged, raw_stateless, unary
    out = {
        "BroadcastGradientArgs": RawArgs(via=_bcast_grad_args),
        "NoOp": RawArgs(via=lambda: None),
        "ParallelDynamicStitch": RawArgs(via=_parallel_dynamic_stitch),
        "RaggedRange": RawArgs(via=_ragged_range),
        # (the Ragged* kernels of tf.ragged's functions: runtime/ops/raw_ragged.py)
        "RaggedBincount": RawArgs(via=raw_ragged.ragged_bincount),
        "RaggedCountSparseOutput": RawArgs(via=raw_ragged.ragged_count_sparse_output),
        "RaggedCross": RawArgs(via=raw_ragged.ragged_cross),
        "RaggedFillEmptyRows": RawArgs(via=raw_ragged.ragged_fill_empty_rows),
        "RaggedFillEmptyRowsGrad": RawArgs(via=raw_ragged.ragged_fill_empty_rows_grad),
        "RaggedGather": RawArgs(via=raw_ragged.ragged_gather),
        "RaggedTensorToSparse": RawArgs(via=raw_ragged.ragged_tensor_to_sparse),
        "RaggedTensorToTensor": RawArgs(via=raw_ragged.ragged_tensor_to_tensor),
        "Range": RawArgs(via=_range),
        "ReciprocalGrad": RawArgs(via=cwise_grad("ReciprocalGrad", _reciprocal_composed)),
        "RsqrtGrad": RawArgs(via=cwise_grad("RsqrtGrad", unary.rsqrt_grad)),
        "Select": RawArgs(via=_select),
        "ShapeN": RawArgs(via=_shape_n),
        "Split": RawArgs(via=_split),
        "SqrtGrad": RawArgs(via=cwise_grad("SqrtGrad", unary.sqrt_grad)),
        # (the key-and-counter random ops: runtime/ops/raw_stateless.py)
        "StatelessRandomGetKeyCounter": RawArgs(via=raw_stateless.get_key_counter),
        "StatelessRandomGetKeyCounterAlg": RawArgs(via=raw_stateless.get_key_counter_alg),
        "StatelessRandomUniformFullIntV2": RawArgs(via=raw_stateless.uniform_full_int),
        "StatelessRandomUniformIntV2": RawArgs(via=raw_stateless.uniform_int),
    }
    assert tuple(sorted(out)) == NAMES, sorted(out)
    return out


# --- StridedSliceGrad: a registered op whose forward takes the key (raw_forms_more.py binds it) ----------

def strided_slice_grad(shape: Any, begin: Any, end: Any, strides: Any, dy: Any, begin_mask: int, end_mask: int,
                        ellipsis_mask: int, new_axis_mask: int, shrink_axis_mask: int) -> Any:
    """StridedSliceGrad: dy placed where StridedSlice(zeros(shape), ...) reads, zeros elsewhere."""
    from simdist.runtime.ops import array, dispatch, slicing
    if shape.ndim != 1:
        raise _invalid("StridedSliceGrad", f"shape must be 1-D, got shape.shape = {_dims(shape.shape.as_list())}")
    dims = tuple(int(d) for d in dispatch.static_value(shape).tolist())
    try:
        key = slicing.mask_key(begin, end, strides, begin_mask, end_mask, ellipsis_mask, new_axis_mask,
                               shrink_axis_mask, op="StridedSliceGrad")
    except errors.InvalidArgumentError as e:
        # (StridedSliceGrad's shape function reads only the shape tensor: the masks are the kernel's when
        # the graph runs, not a trace-time ValueError; fuzz20 sig seed 3020261202 #48)
        from simdist.runtime.ops import trace_errors
        trace_errors.unmark(e)
        raise
    norm = array._slice_key(key, dims)
    want = list(np.zeros(dims, dtype=np.int8)[array._np_key(norm)].shape)
    got = dy.shape.as_list()
    if got != want:
        raise _invalid("StridedSliceGrad", f"shape of dy was {_dims(got)} instead of {_dims(want)}")
    return dispatch.execute(array.STRIDED_SLICE_GRAD, (dy,), {"shape": dims, "key": norm})
