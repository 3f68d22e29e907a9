"""Argument conversion shared by the op functions: tensors, shapes, axes, TF's dtype rules."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from simdist.runtime import context, dtypes, errors, host_cpu
from simdist.runtime.ops import trace_errors
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["dims_text", "t", "fixed_input", "matching", "shape_arg", "axes", "same_dtype", "fixed", "bool_out", "attr_dtype",
           "first", "zero_flops", "input_size_flops", "dtype_error", "mismatch_error", "allowed", "tf_name", "dims"]


def dims_text(shape: Any) -> str:
    """A shape as TF's kernels print it (TensorShape::DebugString of a known shape): [2,3], [] for a scalar."""
    return "[" + ",".join(str(int(d)) for d in shape) + "]"


def t(x: Any) -> Tensor:
    """x as a tensor (what convert_to_tensor returns for a tensor and no dtype)."""
    if isinstance(x, Tensor):
        return x
    return convert_to_tensor(x)


def fixed_input(x: Any, dtype: dtypes.DType) -> Any:
    """An input the op def types `dtype` (not a type attr), as TF's wrapper converts it:
    convert_to_tensor(x, dtype), whose TypeError a Python value of another kind raises ("Cannot
    convert 2.5 to EagerTensor of dtype int32"; clause ops.attr-types); a tensor as it is (the
    kernel, or the graph's op_def_library, checks its dtype)."""
    if isinstance(x, Tensor) or hasattr(x, "_as_tensor"):
        return x
    return convert_to_tensor(x, dtype=dtype)


def matching(values: Sequence[Any], allowed: Sequence[dtypes.DType] = (),
             default: dtypes.DType | None = None, op: str | None = None,
             names: Sequence[str] = ()) -> list[Tensor]:
    """Inputs that share one type attr, converted as TF's eager wrapper converts them
    (`_execute.args_to_matching_eager`): when one is a tensor, every Python value is converted
    with that tensor's dtype (a value that does not convert is TypeError: "Cannot convert nan to
    EagerTensor of dtype int32", clause ops.attr-types), and so is every NumPy value, cast
    (ConvertToEagerTensor's NPY_ARRAY_FORCECAST, on the fast path and in the fallback's
    convert_to_tensor alike: `solve(float16 ndarray, float32 tensor)` computes in float32,
    `solve(float16 ndarray, int64 tensor)` is T's InvalidArgumentError; fz26b, fz14 seed 1420262602
    #251); other tensors keep their dtype and the op's dtype rule compares them; with no tensor, the
    first value by itself (with `default` as its preferred dtype when its own is not `allowed`)
    and the other Python and NumPy values with its dtype (`triangular_solve(inf, np.int64 array)`
    is float32: fz14 seed 14 #165). Inside a tf.function op_def_library's rule instead (`_graph_matching`)."""
    if context.in_function():
        return _graph_matching(values, allowed, default, op, names)
    from simdist.runtime.ops import attr_rules
    if not all(attr_rules.check_one_input(v) for v in values):
        # (an input the fast path does not take sends the call to the fallback, whose
        # args_to_matching_eager takes T from the first eager tensor only, else from the first value,
        # and converts a variable of another dtype with it: ValueError "Incompatible type conversion
        # requested to type uint32 for `tf.Variable of type int32"; fz26b, fz14 seed 1420262603 #71)
        return attr_rules.fallback_args_to_matching(values, allowed, default)
    dt = next((t(v).dtype for v in values if isinstance(v, Tensor) or hasattr(v, "_as_tensor")), None)
    out: list[Tensor] = []
    for i, v in enumerate(values):
        if isinstance(v, Tensor) or hasattr(v, "_as_tensor"):
            out.append(t(v))
        elif isinstance(v, (np.ndarray, np.generic)):
            out.append(convert_to_tensor(v) if dt is None else convert_to_tensor(v, dtype=dt))
            dt = out[-1].dtype if dt is None else dt
        elif dt is not None:
            # (the fast path's conversion of a Python int: OverflowError, unless a variable read after drops it)
            v = attr_rules.fast_uint64(v, dt, any(attr_rules.resource_variable(w) for w in values[i + 1:]))
            out.append(convert_to_tensor(v, dtype=dt))
        else:
            x = convert_to_tensor(v)
            if allowed and x.dtype not in allowed and default is not None:
                x = convert_to_tensor(v, dtype_hint=default)
            dt = x.dtype
            out.append(x)
    return out


def shape_arg(shape: Any) -> tuple[int, ...]:
    """A shape argument (list, tuple, int, tensor, TensorShape) as a tuple of ints."""
    tp = type(shape)
    if tp is list or tp is tuple:   # the usual [d0, d1, ...]: skip the tests below
        return tuple(map(int, shape))
    if isinstance(shape, Tensor):
        shape = shape._v.tolist()
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(map(int, shape))


def float_axis(axis: Any, opname: str, fast: bool) -> None:
    """A float reduction axis as TF 2.21 refuses it (observed; fz37b, fourth generator seed 3703 #155). Inside a
    tf.function op_def_library's TypeError for a Python float or a list holding one. Eagerly a Python float
    on the fast path (`fast`: the input a tensor, a variable, an ndarray or a Python number) converts with
    Tidx's default: TypeError "Cannot convert 1.0 to EagerTensor of dtype int32"; on the op's fallback (a
    list input, or a list axis) it converts alone, a float32, and the NodeDef's Tidx check refuses it:
    InvalidArgumentError; a NumPy float scalar, np.float64 too, is cast to int32 (TF 2.21 observed, npsweep67)."""
    if isinstance(axis, (np.floating, np.bool_)):   # (a NumPy scalar is cast: index_dtypes.scalar; npsweep67)
        return
    # (a nested list's leaves too, and a Python complex among them converts the list to complex128: fz43b,
    # fz43_gen seed 43004 nn.moments, 43003 l2_normalize)
    leaves = _leaves(axis) if isinstance(axis, (list, tuple)) else []
    listed = any(isinstance(a, (float, complex)) for a in leaves)
    if not listed and not isinstance(axis, float):
        return
    cplx = any(isinstance(a, complex) for a in leaves)
    from simdist.runtime import context
    if context.in_function():
        raise TypeError(f"Value passed to parameter 'reduction_indices' has DataType {'complex128' if cplx else 'float32'}"
                        " not in list of allowed values: int32, int64")
    if fast and not listed:
        raise TypeError(f"Cannot convert {axis!r} to EagerTensor of dtype int32")
    raise errors.InvalidArgumentError(None, None, f"Value for attr 'Tidx' of {'complex128' if cplx else 'float'} is "
                                      f"not in the list of allowed values: int32, int64 [Op:{opname}]")


def _leaves(v: Any) -> list:
    return [x for e in v for x in _leaves(e)] if isinstance(v, (list, tuple)) else [v]


def axes(axis: Any, rank: int, opname: str, shape: Sequence[int] | None = None,
         of: Any = None, fast: bool = True, keepdims: bool = False) -> tuple[int, ...] | None:
    """A reduction's `axis` argument, checked against the rank and made non-negative. An axis out
    of range is the kernel's InvalidArgumentError, marked with the shape function's ValueError
    (a tf.function's trace; `shape`: the input's, for the message) unless the graph does not know
    the rank of `of` (the input: an unknown-rank TensorSpec), when the kernel raises it as the
    graph runs; a repeated axis is the kernel's InvalidArgumentError in both modes (NumPy's
    ValueError must not leak), except where Grappler removes the reduction first (`_folded_away`)."""
    if axis is None:
        return None
    if isinstance(axis, Tensor) and axis.dtype.is_integer or isinstance(axis, (np.ndarray, np.generic)):
        # (an integer tensor of a dtype Tidx does not allow, and a 0-d NumPy axis TF reads as its int: clause
        # ops.index-dtypes)
        from simdist.runtime.ops import index_dtypes
        index_dtypes.check(opname, "reduction_indices", axis)
        axis = index_dtypes.scalar(axis)
    if isinstance(axis, (str, bytes)) or (isinstance(axis, (list, tuple)) and axis
                                          and all(isinstance(a, (str, bytes)) for a in axis)):
        # (a str axis converts to a string tensor: the Tidx refusal below, never int("1"); asweep65, fix65k)
        axis = convert_to_tensor(axis)
    if isinstance(axis, Tensor):
        if not axis.dtype.is_integer:
            from simdist.runtime import context
            if not context.in_function():   # (eagerly the NodeDef's Tidx refusal; observed, fz43b)
                c_name = {"float16": "half", "float32": "float", "float64": "double"}.get(axis.dtype.name,
                                                                                          axis.dtype.name)
                raise errors.InvalidArgumentError(None, None, f"Value for attr 'Tidx' of {c_name} is not in the list "
                                                              f"of allowed values: int32, int64 [Op:{opname}]")
            raise TypeError(f"Value passed to parameter 'reduction_indices' has DataType {axis.dtype.name} not in "
                            "list of allowed values: int32, int64")
        axis = axis._v.tolist()
    float_axis(axis, opname, fast)
    if isinstance(axis, np.floating):   # (the eager fallback's conversion with Tidx's int32: a forced cast)
        axis = int(axis)
    if isinstance(axis, (list, tuple, np.ndarray)) and np.ndim(axis) >= 2:
        # (reduction_indices of rank 2 or more: the kernel reads them flat, the shape function wants at most rank 1,
        # its ValueError while a tf.function is traced; fz43b, fz43_gen seed 43002 nn.moments)
        nd = np.ndim(axis)
        from simdist.runtime import context
        if context.in_function():
            raise ValueError(f"Shape must be at most rank 1 but is rank {nd} for '{{{{node {opname}}}}}' with input "
                             f"shapes: {_dims_text(shape) if shape is not None else '?'}, {_dims_text(np.shape(axis))}.")
        axis = [int(a) for a in np.asarray(axis).ravel()]
    axs = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    out = []
    for a in axs:
        a = int(a)
        if not -rank <= a < rank:
            err = errors.InvalidArgumentError(
                None, None, f"Invalid reduction dimension ({a} for input with {rank} dimension(s) [Op:{opname}]")
            dims = list(shape) if shape is not None else [1] * rank
            err = trace_errors.mark_shape(err, f"Invalid reduction dimension {a} for input with {rank} dimensions.",
                                          opname, (dims, [len(axs)] if not isinstance(axis, (int, np.integer)) else []))
            if of is not None:
                from simdist.runtime.ops import static_shapes
                if static_shapes.rank_unknown(of):
                    trace_errors.unmark(err)
            raise err
        if a % rank in out and _folded_away(axs, rank, of, keepdims):
            continue
        if a % rank in out:
            raise errors.InvalidArgumentError(None, None, f"Invalid reduction arguments: Axes contains duplicate "
                                                          f"dimension: {a % rank} [Op:{opname}]")
        out.append(a % rank)
    return tuple(out)


def _folded_away(axs: Sequence[Any], rank: int, of: Any, keepdims: bool) -> bool:
    """Inside a tf.function, a reduction keeping dims whose constant indices all name dimensions the graph knows to
    be of size 1 is constant folding's Identity (constant_folding.cc IsReductionSimplifiableToIdentity, which does
    not look for repeats): its kernel never runs, so a repeated axis is no error. `reduce_sum(x, [0, -2],
    keepdims=True)` of a [1, 3] signature returns x (Sum, Mean, Max, Min, Prod, Any, int32, bool, complex alike);
    without keepdims, with an unknown or larger dimension the kernel refuses it (fz49, third generator --ext8 seed
    4901 #113: l2_normalize(float16 [1, 3], [-2, 0]) in a tf.function; observed on TF 2.21)."""
    from simdist.runtime import context
    if not keepdims or of is None or not context.in_function():
        return False
    from simdist.runtime.ops import grappler, static_shapes
    if not grappler._on("constant_folding"):
        return False
    known = static_shapes.known_shape(of)
    return known is not None and len(known) == rank and all(known[int(a) % rank] == 1 for a in axs)


# TF's DataTypeString names, which its kernel messages use ("float", not "float32").
_TF_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def tf_name(d: dtypes.DType) -> str:
    """The dtype as TF's C++ messages spell it."""
    return _TF_NAMES.get(d.name, d.name)


def dims(shape: Any) -> str:
    """A shape as TF's C++ messages print it: [2,3] (no spaces)."""
    return "[" + ",".join(str(int(d)) for d in shape) + "]"


_dims_text = dims


# Ops whose x86 CPU kernel in TF 2.21 is oneDNN's for float32, float16 and bfloat16 (float16 where
# the CPU supports it: host_cpu.py): eager errors raised while the kernel is chosen name that
# kernel (clause keras.ops.dtype-promotion).
_ONEDNN_KERNELS = {"Conv2D": "_MklNativeConv2D", "MatMul": "_MklMatMul", "BatchMatMulV2": "_MklBatchMatMulV2",
                   "DepthwiseConv2dNative": "_MklNativeDepthwiseConv2dNative"}
_ONEDNN_DTYPES = ("float32", "float16", "bfloat16")


def kernel_name(opname: str, dtype: dtypes.DType) -> str:
    """The name of the CPU kernel TF 2.21 runs for `opname` at `dtype` (oneDNN's `_Mkl...` kernel
    for the ops and dtypes it takes on the modelled CPU, else the op's own name)."""
    if host_cpu.current().onednn(dtype.name, _ONEDNN_DTYPES):
        return _ONEDNN_KERNELS.get(opname, opname)
    return opname


def dtype_error(opname: str, index: int, want: dtypes.DType, got: dtypes.DType) -> errors.InvalidArgumentError:
    """The kernel's input-type error; the NodeDef's allowed-values error first where `want`, which
    an earlier input fixed, is not allowed (type_attr_first.py)."""
    from simdist.runtime.ops import type_attr_first
    first = type_attr_first.refusal(opname, index, want)
    if first is not None:
        return first
    return errors.InvalidArgumentError(
        None, None, f"cannot compute {kernel_name(opname, want)} as input #{index}(zero-based) was expected to be a "
        f"{tf_name(want)} tensor but is a {tf_name(got)} tensor [Op:{opname}]")


def mismatch_error(opname: str, index: int, want: dtypes.DType, got: dtypes.DType,
                   all_dtypes: Sequence[dtypes.DType] | None = None) -> errors.InvalidArgumentError:
    """dtype_error for an input whose dtype differs from the one the op's type attr took from an
    earlier input: TF catches it when it builds a graph (a TypeError at trace time); the NodeDef's
    allowed-values error (its own graph TypeError) where `want` is not allowed."""
    from simdist.runtime.ops import type_attr_first
    first = type_attr_first.refusal(opname, index, want)
    if first is not None:
        return first
    return trace_errors.dtype_mismatch(dtype_error(opname, index, want, got), opname, index, want, got, all_dtypes)


def _graph_matching(values: Sequence[Any], allowed: Sequence[dtypes.DType], default: dtypes.DType | None,
                    op: str | None, names: Sequence[str]) -> list[Tensor]:
    """op_def_library._apply_op_helper's inference of a type attr while a graph is built: the first
    input fixes it (a tensor or variable by its dtype, a Python or NumPy value by its own conversion,
    `default` preferred when that dtype is not `allowed`); later Python and NumPy values convert to
    it, and a later tensor of another dtype is TypeError "Input 'rhs' of 'MatrixTriangularSolve' Op
    has type bfloat16 that does not match type float32 of argument 'matrix'." (fz14 seed 1420262201
    #130), before any shape function or kernel."""
    out: list[Tensor] = []
    dt: dtypes.DType | None = None
    for i, v in enumerate(values):
        if isinstance(v, Tensor) or hasattr(v, "_as_tensor"):
            x = t(v)
            if dt is not None and x.dtype != dt:
                name = names[i] if i < len(names) else f"input {i}"
                first = names[0] if names else "input 0"
                raise TypeError(f"Input '{name}' of '{op or 'the'}' Op has type {x.dtype.name} that does not match "
                                f"type {dt.name} of argument '{first}'.")
        elif dt is not None:
            x = convert_to_tensor(v, dtype=dt)
        else:
            x = convert_to_tensor(v)
            if allowed and x.dtype not in allowed and default is not None:
                x = convert_to_tensor(v, dtype_hint=default)
        dt = x.dtype if dt is None else dt
        out.append(x)
    return out


# --- dtype rules (OpDef.dtype): (input dtypes, attrs) -> output dtype --------------------------------
def same_dtype(name: str) -> Any:
    """All inputs share the first input's dtype, which the output has (TF's attr T)."""
    def rule(dts: Sequence[dtypes.DType], attrs: Any) -> dtypes.DType:
        d0 = dts[0]
        for i in range(1, len(dts)):
            d = dts[i]
            if d is not d0 and d != d0:
                raise mismatch_error(name, i, d0, d, dts)
        return d0
    return rule


def allowed(name: str, kinds: str, what: str) -> Any:
    """Like same_dtype, and the dtype's NumPy kind must be one of `kinds` ("f": floating, ...);
    complex ("c") is allowed exactly when TF's list `what` names complex64 (clause ops.complex)."""
    base = same_dtype(name)
    kinds = kinds.replace("c", "") + ("c" if "complex64" in what else "")

    def rule(dts: Sequence[dtypes.DType], attrs: Any) -> dtypes.DType:
        d = base(dts, attrs)
        if d.kind == "q" and f" {d.name}," in f" {what},":
            # (a quantized dtype the OpDef lists but no CPU kernel of TF 2.21 registers: Sum, Mean, Max of qint8 are
            # NotFoundError "Could not find device for node"; observed; clause ops.quantize-dequantize)
            raise errors.NotFoundError(None, None, f"Could not find device for node: {{{{node {name}}}}} = {name}"
                                       f"[T=DT_{d.name.upper()}] [Op:{name}]")
        if d.kind not in kinds:
            raise trace_errors.not_allowed(errors.InvalidArgumentError(
                None, None, f"Value for attr 'T' of {tf_name(d)} is not in the list of allowed values: {what} "
                f"[Op:{name}]"), name, d, what)
        return d
    return rule


def handle_refused(op: str) -> Exception:
    """A resource tensor given to op `op`, whose attr T does not allow resource: TF's InvalidArgumentError "Value for
    attr 'T' of resource is not in the list of allowed values: ..." eagerly (the OpDef's list, raw_opdefs.json), the
    op_def_library TypeError in a tf.function (`v.handle + 1`, `v.handle * v.handle`; observed on TF 2.21)."""
    from simdist.runtime.ops import raw_ops
    allowed = raw_ops.opdefs()["ops"].get(op, {}).get("inferred", {}).get("T", {}).get("allowed", [])
    what = ", ".join(tf_name(dtypes.as_dtype(a)) if a in dtypes._BY_NAME else a for a in allowed)
    return trace_errors.not_allowed(errors.InvalidArgumentError(
        None, None, f"Value for attr 'T' of resource is not in the list of allowed values: {what} [Op:{op}]"), op,
        dtypes.resource, what)


def quantized_refused(op: str, d: dtypes.DType) -> Exception | None:
    """A tensor of a quantized dtype given to op `op`: TF's InvalidArgumentError "Value for attr 'T' of qint8 is not
    in the list of allowed values: ..." when the OpDef's T (raw_opdefs.json) lists allowed types without it (AddV2,
    Mul, ...: `q + q`), else None (Reshape, Identity, ConcatV2 take any type; observed on TF 2.21; clause
    ops.quantize-dequantize)."""
    from simdist.runtime.ops import raw_ops
    allowed = raw_ops.opdefs()["ops"].get(op, {}).get("inferred", {}).get("T", {}).get("allowed")
    if not allowed or d.name in allowed:
        return None
    what = ", ".join(tf_name(dtypes.as_dtype(a)) if a in dtypes._BY_NAME else a for a in allowed)
    return trace_errors.not_allowed(errors.InvalidArgumentError(
        None, None, f"Value for attr 'T' of {d.name} is not in the list of allowed values: {what} [Op:{op}]"), op, d, what)


def list_attr(value: Any, name: str, op: str) -> list:
    """A list(int) attr of the generated op wrapper `op` (`strides`, `ksizes`): a list or tuple;
    eagerly also any other sequence whose items are Python ints (a TensorShape, an empty NumPy
    array), which TF's eager fast path takes, so its length is checked against the op def's
    minimum next; anything else (a NumPy array of NumPy ints, a tensor, a number; inside a
    tf.function anything but a list or tuple) is the wrapper's TypeError. Clause
    ops.argument-errors. An empty tensor is a sequence of no items too: the fast path takes it as []
    (`extract_patches(x, tf.constant([], tf.int32), ...)` is the attr minimum's InvalidArgumentError;
    fz29b, fz14 seed 1420292901 #293); a non-empty one has tensor items, the TypeError."""
    if isinstance(value, (list, tuple)):
        return list(value)
    empty_tensor = isinstance(value, Tensor) and np.ndim(value._v) >= 1 and np.shape(value._v)[0] == 0
    if context.executing_eagerly() and not isinstance(value, (str, bytes)) and (
            empty_tensor or not isinstance(value, Tensor)):
        try:
            items = [value[i] for i in range(len(value))]
        except Exception:  # noqa: BLE001 - not a sequence: the wrapper's TypeError below
            items = None
        if items is not None and all(type(v) is int for v in items):
            return items
    raise TypeError(f"Expected list for '{name}' argument to '{op}' Op, not {value!r}.")


def raw_attribute(value: Any, name: str) -> Any:
    """`value.<name>` read as TF's Python reads it on an argument it has not converted (a window's
    `dtype.is_floating`, a linalg wrapper's `tensor.dtype`): anything without that attribute (a
    string, a NumPy type, a Python number or list) raises AttributeError, as in TF. Clause
    ops.argument-errors."""
    return getattr(value, name)


def no_kernel(name: str, d: dtypes.DType, extra: str = "") -> errors.NotFoundError:
    """TF's error for a dtype its op def lists but no CPU kernel is registered for (eager: NotFoundError;
    the DataType enum's name: DT_FLOAT, DT_DOUBLE, DT_HALF, DT_INT32, ...)."""
    return errors.NotFoundError(None, None, f"Could not find device for node: {{{{node {name}}}}} = "
                                f"{name}[T=DT_{tf_name(d).upper()}{extra}] [Op:{name}]")


def listed_no_complex_kernel(name: str, kinds: str, what: str) -> Any:
    """`allowed`, and a complex dtype (which TF's list names) has no CPU kernel: NotFoundError
    (Round, FloorDiv, TruncateDiv: cwise_op_*.cc register real types only)."""
    base = allowed(name, kinds, what)

    def rule(dts: Sequence[dtypes.DType], attrs: Any) -> dtypes.DType:
        d = base(dts, attrs)
        if d.kind == "c":
            raise no_kernel(name, d)
        return d
    return rule


def first(dts: Sequence[dtypes.DType], attrs: Any) -> dtypes.DType:
    """The first input's dtype (other inputs are indices, shapes, ...)."""
    return dts[0]


def bool_out(name: str) -> Any:
    base = same_dtype(name)

    def rule(dts: Sequence[dtypes.DType], attrs: Any) -> dtypes.DType:
        base(dts, attrs)
        return dtypes.bool_
    return rule


def fixed(dt: dtypes.DType) -> Any:
    return lambda dts, attrs: dt


def attr_dtype(key: str) -> Any:
    """The output dtype is the attr `key` (e.g. Cast's DstT)."""
    return lambda dts, attrs: attrs[key]


# --- FLOP formulas (OpDef.flops): (input arrays, output, attrs) -> FLOPs ------------------------------
def zero_flops(arrays: Any, out: Any, attrs: Any) -> float:
    return 0


def input_size_flops(arrays: Any, out: Any, attrs: Any) -> float:
    return arrays[0].size
