"""Slices, tiles and pads (TF's array_ops Slice, StridedSlice's public form, Tile, Pad, PadV2,
MirrorPad), with their gradients: a slice's gradient is a pad, a pad's is a slice, a tile's a
sum over the copies, a mirror pad's folds the mirrored borders back (MirrorPadGrad)."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops import args, attr_rules, dispatch, graph_constants, graph_inputs, index_dtypes
from simdist.runtime.ops import partial_values, rank_limits, static_shapes, trace_errors
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.registry import OVER_AXIS, RegisterGradient, lanes, register, selected_bytes
from simdist.runtime.tensor import Tensor, convert_to_tensor

# Why these ops run lane by lane in a fused replay (OpDef.fusion).
_LANE_AXES = lanes("its attributes index one lane's axes: no stacked form written")

__all__ = ["slice_", "strided_slice_fn", "tile", "pad", "reverse"]

_ZERO = args.zero_flops


def _ints(v: Any, what: str, opname: str, empty_ok: bool = True) -> tuple[int, ...]:
    """A shape-like argument (list, tuple, int tensor) as ints; a float one is refused as TF does
    (and, unless `empty_ok`, an empty Python list, which TF converts to float32: Slice's begin)."""
    arr = np.asarray(dispatch.static_value(v)) if isinstance(v, Tensor) else np.asarray(v)
    if arr.dtype.kind not in "iu" and (arr.size or not empty_ok):
        name = args.tf_name(v.dtype) if isinstance(v, Tensor) else "float"
        raise errors.InvalidArgumentError(None, None, f"Value for attr '{what}' of {name} is not in the list of "
                                          f"allowed values: int32, int64 [Op:{opname}]")
    return tuple(int(i) for i in arr.reshape(-1))


def _python_ints(v: Any) -> bool:
    """A Python list or tuple of Python ints (the common shape-like argument: no conversion rule to apply)."""
    return type(v) in (list, tuple) and all(type(i) is int for i in v)


def _value_shape(v: Any) -> list[int]:
    """The shape of an op's operand as given (a tensor's static shape, a nested list's by its first items, NumPy's),
    without reading a graph tensor's value."""
    if isinstance(v, Tensor):
        return [int(d) if d is not None else -1 for d in v.shape.as_list()] if v.shape.rank is not None else []
    if isinstance(v, (list, tuple)):
        return [len(v)] + (_value_shape(v[0]) if v and isinstance(v[0], (list, tuple, np.ndarray)) else [])
    return list(np.shape(v))


def _paddings(p: Any, opname: str, shp: list[int]) -> tuple[tuple[int, int], ...]:
    """The paddings as the op takes them (attr Tpaddings, default int32): a tensor must be int32 or
    int64; a NumPy value and an empty Python list convert to int32; a Python list of floats infers
    float32, refused. They must be a matrix of 2 columns: eagerly the kernel's InvalidArgumentError,
    traced the shape function's ValueError (clause ops.pad-paddings)."""
    if isinstance(p, Tensor):
        if p.dtype not in (dtypes.int32, dtypes.int64):
            raise trace_errors.attr_not_allowed(opname, "Tpaddings", p.dtype, "int32, int64")
        p = dispatch.static_value(p)
        arr = np.asarray(p)
    elif isinstance(p, (np.ndarray, np.generic)):
        arr = np.asarray(p)
    elif _holds_tensor(p):
        arr = np.asarray(dispatch.static_value(_list_with_tensors(p, opname)))
    else:
        arr = np.asarray(p)
        if arr.dtype.kind == "f" and arr.size:
            raise trace_errors.attr_not_allowed(opname, "Tpaddings", dtypes.float32, "int32, int64")
    if arr.ndim != 2 or arr.shape[1] != 2:
        text = f"Shape must be rank 2 but is rank {arr.ndim}" if arr.ndim != 2 else \
            f"Dimension must be 2 but is {arr.shape[1]}"
        raise trace_errors.shape_error(f"paddings must be a matrix with 2 columns: {args.dims(list(arr.shape))} "
                                       f"[Op:{opname}]", text, opname, (shp, list(arr.shape)))
    return tuple((int(a), int(b)) for a, b in arr.reshape(-1, 2)) if arr.size else ()


def _holds_tensor(p: Any) -> bool:
    """Whether a (nested) Python list or tuple holds a tensor among its leaves."""
    if isinstance(p, (list, tuple)):
        return any(_holds_tensor(v) for v in p)
    return isinstance(p, Tensor)


def _list_with_tensors(p: Any, opname: str) -> Tensor:
    """Paddings given as a Python list holding tensors, converted as TF converts an input of a type attr with a
    default (Tpaddings: int32). Eagerly (execute.args_to_matching_eager) the list's own conversion first —
    autopacking's dtype is its first tensor's, so tensors of two dtypes are Pack's InvalidArgumentError — and,
    when Tpaddings does not allow that dtype, the conversion preferring int32, which casts every tensor
    (1.5 → 1, -0.5 → 0); in a graph (op_def_library) the preferred int32 conversion first. keras.ops.eye(3, 4,
    k=2.5) pads by float32 tensors; TF 2.21 observed, esweep67 (clause ops.attr-types)."""
    from simdist.runtime import context
    if context.in_function():
        try:
            t = convert_to_tensor(p, dtype=dtypes.int32)
        except (TypeError, ValueError):
            t = convert_to_tensor(p)
    else:
        t = convert_to_tensor(p)
        if t.dtype not in (dtypes.int32, dtypes.int64):
            try:
                t = convert_to_tensor(p, dtype=dtypes.int32)
            except (TypeError, ValueError):
                pass
    if t.dtype not in (dtypes.int32, dtypes.int64):
        raise trace_errors.attr_not_allowed(opname, "Tpaddings", t.dtype, "int32, int64")
    return t


# --- Slice ---------------------------------------------------------------------------------------------------
def _slice(a: np.ndarray, begin: Any, size: Any) -> np.ndarray:
    """Slice's kernel (its rank template: rank_limits.sliced)."""
    if a.ndim > 8:
        rank_limits.sliced(a.shape, a.dtype.itemsize, [(int(b), int(b) + (a.shape[i] - int(b) if int(s) == -1 else
                                                                           int(s)), 1)
                                                        for i, (b, s) in enumerate(zip(begin, size))], "Slice")
    return a[tuple(slice(b, b + s) for b, s in zip(begin, size))]


SLICE = register("Slice", _slice, args.first,
                 _ZERO, kind="shape",
                 fusion=_LANE_AXES,
                 bytes=selected_bytes)


def _rank_of(v: Any) -> int | None:
    """The rank of Slice's begin or size as the graph knows it (None: unknown, or a ragged list)."""
    if isinstance(v, Tensor) or hasattr(v, "_as_tensor"):
        known = static_shapes.known_shape(_t(v))
        return None if known is None else len(known)
    try:
        return np.ndim(v)
    except Exception:  # noqa: BLE001 - a ragged list: its conversion's error comes later
        return None


def _slice_static(a: dict) -> list[int | None] | None:
    """SliceShape (common_shape_fns.cc) with begin or size not known in full: a size the graph knows fully, each
    dimension that size (-1: the input's dimension less begin's, where both are known); a partly known size, its
    known elements (-1 and the others unknown)."""
    known = static_shapes.known_shape(_t(a["input_"]))
    size = a["size"]
    raw = partial_values.flat_of(size) if isinstance(size, (list, tuple, Tensor)) else None
    if raw is None:
        return None if known is None else [None] * len(known)
    if any(s is None for s in raw):
        return [None if s is None or s == -1 else s for s in raw]
    begin = partial_values.flat_of(a["begin"]) if isinstance(a["begin"], (list, tuple, Tensor)) else None
    out: list[int | None] = []
    for i, s in enumerate(raw):
        if s != -1:
            out.append(s)
            continue
        d = known[i] if known is not None and i < len(known) else None
        b = begin[i] if begin is not None and i < len(begin) else None
        out.append(None if d is None or b is None else d - b)
    return out


def _slice_shape_refusal(begin: list[int], size: list[int], shape: list[Any]) -> str | None:
    """SliceShape's (common_shape_fns.cc) refusal of constant begin and size, dimension by dimension, or None: a size
    below -1 ("Invalid value in tensor used for shape"), a -1 size whose begin is past the known dimension (its
    Subtract's "Negative dimension size")."""
    for bi, si, d in zip(begin, size, shape):
        if si < -1:
            return f"Invalid value in tensor used for shape: {si}"
        if si == -1 and d is not None and bi > d:
            return f"Negative dimension size caused by subtracting {bi} from {d}"
    return None


@partial_values.shaped("begin", "size", rule=_slice_static)
def slice_(input_: Any, begin: Any, size: Any, name: str | None = None) -> Tensor:
    """`tf.slice`: size -1 takes the rest of the dimension; out-of-range begin/size raise as TF."""
    # (a graph: op_def_library converts begin, then size with begin's Index: an int32 tensor size beside
    # an int64 begin is its TypeError before the shape function; fz32b, fz14 seed 1420323001 #192)
    graph_inputs.check("Slice", (input_, begin, size))
    t = _t(input_)
    if not context.in_function() and not (_python_ints(begin) and _python_ints(size)):
        # (eagerly begin and size share Index as TF converts them: `slice(x, [0, 0], 1.5)` and `[1.5]`, `1j`, 'a' are
        # size's conversion to begin's int32, TypeError "Cannot convert 1.5 to EagerTensor of dtype int32"; fz43)
        attr_rules.eager_group([begin, size], attr_rules.fast_path_takes("Slice", (input_, begin, size)))
    # (begin and size share Index: an empty `size` converts with begin's integer dtype; fz14 seed 14 #574)
    b, s = _ints(begin, "Index", "Slice", False), _ints(size, "Index", "Slice", True)
    # (Index, int32 or int64: eagerly the first tensor's dtype, else begin's, a NumPy array's own; clause
    # ops.index-dtypes)
    first = next((v for v in (begin, size) if isinstance(v, Tensor)), begin) if not context.in_function() else begin
    index_dtypes.attr("Slice", "Index", _index_dtype(first))
    shp = t.shape.as_list()
    ranks = [_rank_of(begin), _rank_of(size)]
    if any(r not in (None, 1) for r in ranks):
        # (SharedSliceValidation: begin and size are vectors; traced, SliceShape's WithRank(begin, 1), then
        # size's: `tf.slice([-4], begin=[[0]], size=(1,))`; fz36b, fz14 seed 1420363004 #169)
        bs, ss = (list(np.shape(dispatch.static_value(v) if isinstance(v, Tensor) else v)) for v in (begin, size))
        err = errors.InvalidArgumentError(
            None, None, f"Expected begin and size arguments to be 1-D tensors of size {len(shp)}, but got shapes "
            f"{args.dims(bs)} and {args.dims(ss)} instead. [Op:Slice]")
        bad = next(r for r in ranks if r not in (None, 1))
        raise trace_errors.mark_shape(err, f"Shape must be rank 1 but is rank {bad}", "Slice",
                                      [static_shapes.known_shape(t) or [], bs, ss])
    if len(b) != len(shp) or len(s) != len(shp):
        err = errors.InvalidArgumentError(
            None, None, f"Expected begin and size arguments to be 1-D tensors of size {len(shp)}, but got shapes "
            f"[{len(b)}] and [{len(s)}] instead. [Op:Slice]")
        # traced: SliceShape merges begin's and size's lengths, then asks the input for that rank
        known = static_shapes.known_shape(t)
        text = trace_errors.merge_text([len(b)], [len(s)]) if len(b) != len(s) else \
            None if known is None else f"Shape must be rank {len(b)} but is rank {len(known)}"
        if text is not None and all(not isinstance(v, Tensor) or static_shapes.known_shape(v) is not None
                                    for v in (begin, size)):
            raise trace_errors.mark_shape(err, text, "Slice", [known or [], [len(b)], [len(s)]])
        raise err
    # (SliceShape, while a graph is built, with begin and size constants: a size below -1, or a -1 size whose begin
    # is past its dimension, is its ValueError at trace; the kernel's other refusals come when the graph runs.
    # Observed on TF 2.21: blind79's op-slice-bounds)
    static_text = _slice_shape_refusal(b, s, shp) if _python_ints(begin) and _python_ints(size) else None
    sizes = []
    for i, (bi, si, d) in enumerate(zip(b, s, shp)):
        if si == -1:
            si = d - bi
        err = None
        if not 0 <= bi <= d:
            err = errors.InvalidArgumentError(None, None, f"Expected begin[{i}] in [0, {d}], but got {bi} [Op:Slice]")
        elif not 0 <= si <= d - bi:
            err = errors.InvalidArgumentError(None, None, f"Expected size[{i}] in [0, {d - bi}], but got {si} "
                                              "[Op:Slice]")
        if err is not None:
            if static_text:
                raise trace_errors.mark_shape(err, static_text, "Slice", [shp, [len(b)], [len(s)]])
            # (the kernel's refusal when the graph runs: a trace goes on with SliceShape's static shape, a size past
            # the end as given, -1 the rest of the dimension; `tf.slice(x [4, 5], [3, 0], [2, -1])` is [2, 5] in TF's
            # trace; fix64s)
            return _slice_marked(dispatch.refused(err, t.dtype, [max(d0 - b0, 0) if s0 == -1 else s0
                                                                  for b0, s0, d0 in zip(b, s, shp)]), t, s)
        sizes.append(si)
    return _slice_marked(dispatch.execute(SLICE, (t,), {"begin": b, "size": tuple(sizes)}), t, s)


def _slice_marked(out: Tensor, t: Tensor, size: Sequence[int]) -> Tensor:
    """SliceShape with begin and size constants, in a graph: each dimension the size, a -1 the input's dimension
    less begin, unknown where the graph does not know the input's (`tf.slice(x [None, None], [1, 0], [2, -1])` is
    [2, None]; fix64s)."""
    if not context.in_function():
        return out
    known = static_shapes.known_shape(t)
    flags = tuple(si == -1 and (known is None or i >= len(known) or known[i] is None) for i, si in enumerate(size))
    return static_shapes.mark(out, flags) if len(flags) == out.ndim else out


@RegisterGradient("Slice")
def _slice_grad(op: Any, grad: Any) -> list:
    """TF's _SliceGrad: the gradient padded with zeros back to the input's shape."""
    shp = op.inputs[0].shape.as_list()
    begin, size = op.get_attr("begin"), op.get_attr("size")
    if not shp:   # (a scalar: TF's paddings reshaped to [0, 2], a Pad that passes the gradient; rawfz21)
        return [grad]
    return [pad(grad, [[b, d - s - b] for b, s, d in zip(begin, size, shp)])]


def _index_dtype(v: Any) -> dtypes.DType | None:
    """The dtype `v` converts to for StridedSlice's attr Index: a tensor's or a NumPy integer
    array's own, a Python list of ints int32 (None where it is no integer value: `_ints` refuses it)."""
    if isinstance(v, Tensor) or hasattr(v, "_as_tensor"):
        return dtypes.as_dtype(v.dtype)
    arr = np.asarray(v)
    if arr.dtype.kind not in "iu":
        return None
    return dtypes.as_dtype(arr.dtype) if isinstance(v, (np.ndarray, np.generic)) else dtypes.int32


def _index_match(begin: Any, end: Any, strides: Any, fast: bool = False) -> tuple:
    """begin, end and strides share StridedSlice's attr Index, checked before any shape (fz14 seed
    1420261219 #120). strides=None is array_ops' ones_like(begin): a tensor of begin's dtype. Eagerly
    on TF's fast path (`fast`: every input one CheckOneInput takes and every mask a Python int) the
    first tensor or variable fixes Index, the other values are converted to it, and a tensor of
    another dtype reaches the op as it is: the executor's InvalidArgumentError "cannot compute
    StridedSlice as input #3(zero-based) was expected to be a int32 tensor but is a int64 tensor"
    (fz36b, fourteenth generator seed 1420363001 #49: `strided_slice(x, np.array([0], np.int64),
    tf.constant([1]))`, whose ones_like strides are int64). On the eager fallback (a NumPy scalar or
    a list among the inputs) args_to_matching_eager passes tensors alone as they are (the same
    error, Index being begin's) and otherwise converts each to the first tensor's dtype: a tensor
    of another dtype is convert_to_tensor's ValueError. In a graph (op_def_library) the first input
    fixes it and a later tensor of another dtype is the TypeError "Input 'end' of 'StridedSlice' Op
    has type int32 that does not match type int64 of argument 'begin'"."""
    named = [("begin", begin), ("end", end), ("strides", strides)]
    dts = [_index_dtype(v) for _, v in named]
    if dts[2] is None and strides is None:
        dts[2] = dts[0]
        if begin is not None and context.executing_eagerly():
            try:   # (ones_like(begin): a NumPy float array's float64, a Python list's own dtype)
                dts[2] = convert_to_tensor(begin).dtype
            except Exception:  # noqa: BLE001 - begin's own conversion error comes later
                pass
    tensor = [isinstance(v, Tensor) or (i == 2 and strides is None) for i, (_, v) in enumerate(named)]
    if context.executing_eagerly():
        return tuple(_eager_index_match(named, dts, tensor, fast))
    if any(d is None for d in dts):
        return begin, end, strides
    if tensor[0]:   # (op_def_library checks begin's Index against the allowed list as it infers it, before end's)
        index_dtypes.attr("StridedSlice", "Index", dts[0])
    for i in (1, 2):
        if tensor[i] and dts[i] != dts[0]:
            raise TypeError(f"Input '{named[i][0]}' of 'StridedSlice' Op has type {dts[i].name} that does not match "
                            f"type {dts[0].name} of argument 'begin'.")
    return begin, end, strides


def _eager_index_match(named: list, dts: list, tensor: list, fast: bool) -> list:
    """`_index_match` eagerly: on the fast path (or the fallback with tensors alone) a tensor of
    another Index than the first tensor's (a variable's, on the fast path) is the executor's
    InvalidArgumentError after every value is converted; on the fallback the values convert in
    order to the first eager tensor's dtype (a tensor of another dtype: ValueError). Either way a
    Python value that does not convert to that dtype is its TypeError ("Cannot convert [1.5, 1] to
    EagerTensor of dtype int32"), and a NumPy value is cast to it. Returns begin, end and strides
    with those casts; with no tensor the conversions of `_ints` decide."""
    variable = [not isinstance(v, Tensor) and hasattr(v, "_as_tensor") for _, v in named]
    fast = fast or all(tensor)
    held = [t or (fast and var) for t, var in zip(tensor, variable)]
    cast = [v for _, v in named]
    index = next((d for d, h in zip(dts, held) if h), None)
    if all(tensor):
        index = dts[0]   # (args_to_matching_eager passes eager tensors alone as they are: Index is begin's)
    if index is None:
        return cast   # (no tensor: the conversions of `_ints`)
    # (the conversions come before the attr's check: a bool or string first tensor makes a Python `[1, 1]` beside it
    # "Cannot convert [1, 1] to EagerTensor of dtype bool", TypeError, and a float or uint8 one an int32 tensor
    # convert_to_tensor's ValueError on the fallback; fz66, fz62gen seed 66403 #0's class)
    for i, (name, v) in enumerate(named):
        if held[i]:
            if not fast and dts[i] != index:
                v = v if i != 2 or v is not None else convert_to_tensor(np.ones(len(np.asarray(
                    dispatch.static_value(named[0][1]) if isinstance(named[0][1], Tensor) else named[0][1]
                ).reshape(-1)), dts[i].as_numpy_dtype))
                raise ValueError(f"Tensor conversion requested dtype {index.name} for Tensor with dtype "
                                 f"{dts[i].name}: {v!r}")
        elif variable[i]:   # (the fallback: a variable converts through its conversion function)
            from simdist.runtime.ops import attr_rules
            attr_rules.fallback_conversion(v, index)
        elif not isinstance(v, (np.ndarray, np.generic)) or index == dtypes.string:
            # (a Python value: its TypeError when it does not fit; a NumPy number to string: ValueError "Failed to
            # convert a NumPy array to a Tensor (Unsupported object type int).")
            convert_to_tensor(v, dtype=index)
        elif np.asarray(v).dtype != index.as_numpy_dtype:
            cast[i] = np.asarray(v).astype(index.as_numpy_dtype)   # (a NumPy value is cast: 0.5 to 0)
    if index not in (dtypes.int16, dtypes.int32, dtypes.int64):
        return cast   # (Index of another dtype: the attr's check, `_ints`)
    for i, (d, h) in enumerate(zip(dts, held)):
        if h and d != index:
            raise errors.InvalidArgumentError(
                None, None, f"cannot compute StridedSlice as input #{i + 1}(zero-based) was expected to be a "
                            f"{args.tf_name(index)} tensor but is a {args.tf_name(d)} tensor [Op:StridedSlice] name: ")
    return cast


def strided_slice_fn(input_: Any, begin: Any, end: Any, strides: Any = None, begin_mask: int = 0, end_mask: int = 0,
                     ellipsis_mask: int = 0, new_axis_mask: int = 0, shrink_axis_mask: int = 0, var: Any = None,
                     name: str | None = None) -> Tensor:
    """`tf.strided_slice` with TF's bit masks, as the same StridedSlice op `t[...]` makes."""
    from simdist.runtime.ops import array
    from simdist.runtime.ops import attr_rules
    fast = context.executing_eagerly() and attr_rules.fast_path_takes(
        "StridedSlice", tuple(v for v in (input_, begin, end, strides) if v is not None), begin_mask=begin_mask,
        end_mask=end_mask, ellipsis_mask=ellipsis_mask, new_axis_mask=new_axis_mask, shrink_axis_mask=shrink_axis_mask)
    if not isinstance(input_, Tensor) and not hasattr(input_, "_as_tensor"):
        # (the generated op converts `input` before begin, end and strides, on the eager fallback and
        # in a graph: `strided_slice([0.5, 1e300], [0], [1, 2])` is the conversion's ValueError;
        # fz26b, fz14 seed 1420262602 #14)
        input_ = _t(input_)
    if strides is None and isinstance(begin, Tensor) and begin.dtype == dtypes.string:
        # (array_ops' `strides = ones_like(begin)` of a known shape is ones(), whose constant 1 of dtype string is the
        # conversion's TypeError before the op; fz66)
        array.ones([0], dtypes.string)
    begin, end, strides = _index_match(begin, end, strides, fast)
    index_dtypes.attr("StridedSlice", "Index", dtypes.as_dtype(_index_attr(begin, end, strides))
                      if any(_index_dtype(v) is not None for v in (begin, end, strides)) else None)   # (ops.index-dtypes)
    _vectors(begin, end, strides)
    b, e = _ints(begin, "Index", "StridedSlice"), _ints(end, "Index", "StridedSlice")
    st = (1,) * len(b) if strides is None else _ints(strides, "Index", "StridedSlice")
    if not len(b) == len(e) == len(st):
        err = errors.InvalidArgumentError(None, None, "Expected begin, end, and strides to be 1D equal size tensors, "
                                          f"but got shapes [{len(b)}], [{len(e)}], and [{len(st)}] instead. "
                                          "[Op:StridedSlice]")
        from simdist.runtime.ops import static_shapes
        if any(isinstance(v, Tensor) and static_shapes.known_shape(v) in (None, [None]) for v in (begin, end, strides)):
            raise err
        # (traced: StridedSliceShape merges begin's shape with end's, then with strides': ValueError
        # "Dimension 0 in both shapes must be equal"; fz14 seed 1420261218 #239)
        other = len(e) if len(e) != len(b) else len(st)
        raise trace_errors.mark_shape(err, trace_errors.merge_text([len(b)], [other]), "StridedSlice",
                                      ([], [len(b)], [len(e)], [len(st)]))
    known: Any = False
    if context.in_function() and isinstance(input_, Tensor):
        from simdist.runtime.ops import static_shapes
        from simdist.runtime.ops import graph_constants
        # (StridedSliceShapeFn returns an unknown shape unchecked unless the graph knows the input's rank and
        # the strides' values)
        known = static_shapes.known_shape(input_) if graph_constants.known(strides) else None
    key = _masked_key(b, e, st, begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask, "StridedSlice",
                      known)
    return array.strided_slice(input_, key, _index_attr(begin, end, strides))


def _vectors(begin: Any, end: Any, strides: Any) -> None:
    """StridedSlice's begin, end and strides are vectors (strides=None is ones_like(begin)): eagerly
    the kernel's InvalidArgumentError "Expected begin, end, and strides to be 1D equal size tensors,
    but got shapes [1,1], [1], and [1,1] instead.", traced the shape function's ValueError "Shape
    must be rank 1 but is rank 2" (begin, then end, then strides); a rank the graph does not know is
    left to the run (fz35b, fourteenth generator seed 1420353002 #146: `strided_slice(x, begin=[[0]],
    end=[0])` was computed)."""
    from simdist.runtime.ops import static_shapes

    def shape(v: Any) -> list | None:
        if isinstance(v, Tensor) or hasattr(v, "_as_tensor"):
            return static_shapes.known_shape(_t(v))
        try:
            return list(np.shape(v))
        except Exception:  # noqa: BLE001 - a ragged list: the conversion's error comes later
            return [0]
    shapes = [shape(begin), shape(end), shape(begin if strides is None else strides)]
    bad = next((shp for shp in shapes if shp is not None and len(shp) != 1), None)
    if bad is None:
        return
    a, b, c = ("<unknown>" if shp is None else "[" + ",".join("?" if d is None else str(d) for d in shp) + "]"
               for shp in shapes)
    err = errors.InvalidArgumentError(None, None, "Expected begin, end, and strides to be 1D equal size tensors, but "
                                      f"got shapes {a}, {b}, and {c} instead. [Op:StridedSlice]")
    raise trace_errors.mark_shape(err, f"Shape must be rank 1 but is rank {len(bad)}", "StridedSlice",
                                  [[]] + [shp or [] for shp in shapes])


def _index_attr(begin: Any, end: Any, strides: Any) -> str:
    """StridedSlice's attr Index, as its name: eagerly the first tensor's dtype (args_to_matching_eager),
    else, and in a graph, begin's (op_def_library's first input)."""
    first = next((v for v in (begin, end, strides) if isinstance(v, Tensor)), None) \
        if context.executing_eagerly() else None
    dt = _index_dtype(first if first is not None else begin)
    return dt.name if dt is not None else "int32"


def _graph_knows(known: Any, i: int, new_axis_mask: int, ellipsis_mask: int) -> bool:
    """Whether the graph being built knows the input dimension that index i of the spec reads
    (`known`: False eagerly, else static_shapes.known_shape of the input); after an ellipsis, whether
    it knows the rank."""
    if known is False:
        return True
    if known is None:
        return False
    if ellipsis_mask & ((1 << i) - 1):
        return True
    dense = i - bin(new_axis_mask & ((1 << i) - 1)).count("1")
    return dense < len(known) and known[dense] is not None


def _masked_key(b: tuple, e: tuple, st: tuple, begin_mask: int, end_mask: int, ellipsis_mask: int,
                new_axis_mask: int, shrink_axis_mask: int, op: str, known: Any = False) -> tuple:
    """The `t[...]` key of StridedSlice's begin, end, strides and bit masks (`known`: the input's
    shape as a graph being built knows it, False eagerly)."""
    if ellipsis_mask & (ellipsis_mask - 1):   # ValidateStridedSliceOp: the mask's bits, even beyond begin's
        # length (fuzz20 sig seed 2420261204 #127: mask 5 with empty begin; the kernel eagerly, the shape
        # function when traced, which returns an unknown shape unchecked where the graph does not know the
        # input's rank: then the kernel when the graph runs; fz37a, sig seed 3720261201 #39)
        err = errors.InvalidArgumentError(None, None, f"Multiple ellipses in slice spec not allowed [Op:{op}]")
        if known is None:
            raise err
        raise trace_errors.static(err, ValueError,
                                  f"Multiple ellipses in slice spec not allowed for '{{{{node {op}}}}}'")
    key: list[Any] = []
    for i in range(len(b)):
        bit = 1 << i
        if ellipsis_mask & bit:
            key.append(Ellipsis)
        elif new_axis_mask & bit:
            key.append(None)
        elif shrink_axis_mask & bit:
            if st[i] < 0:   # ValidateStridedSliceOp (the kernel eagerly, the shape function when traced;
                # a dimension the graph does not know is skipped there, so the kernel finds it when the
                # graph runs: fuzz20 sig seed 2520261203 #90)
                err = errors.InvalidArgumentError(None, None, f"only stride 1 allowed on non-range indexing. [Op:{op}]")
                if not _graph_knows(known, i, new_axis_mask, ellipsis_mask):
                    raise err
                raise trace_errors.static(err, ValueError,
                                          f"only stride 1 allowed on non-range indexing. for '{{{{node {op}}}}}'")
            key.append(b[i])
        else:
            key.append(slice(None if begin_mask & bit else b[i], None if end_mask & bit else e[i], st[i]))
    return tuple(key)


def mask_key(begin: Any, end: Any, strides: Any, begin_mask: int, end_mask: int, ellipsis_mask: int,
             new_axis_mask: int, shrink_axis_mask: int, op: str) -> tuple:
    """The `t[...]` key of a StridedSlice-family op's index tensors and bit masks (StridedSliceGrad's
    raw form), checked as StridedSlice checks them."""
    b, e, st = (_ints(v, "Index", op) for v in (begin, end, strides))
    if not len(b) == len(e) == len(st):
        raise errors.InvalidArgumentError(None, None, "Expected begin, end, and strides to be 1D equal size tensors, "
                                          f"but got shapes [{len(b)}], [{len(e)}], and [{len(st)}] instead. [Op:{op}]")
    return _masked_key(b, e, st, begin_mask, end_mask, ellipsis_mask, new_axis_mask, shrink_axis_mask, op)


# --- Tile ------------------------------------------------------------------------------------------------------
def _tile(a: np.ndarray, multiples: Any) -> np.ndarray:
    """TileOp: its kernel has no uint16 case; it returns a scalar, an unchanged shape and an empty
    output before it looks (fuzz2 seed 7 #190, clause ops.array-more)."""
    if a.dtype == np.uint16 and any(k != 1 for k in multiples) and a.size and all(multiples):
        raise errors.UnimplementedError(None, None, "TileOp : The input data type is not supported, DataType : uint16, "
                                        f"Dimension : {a.ndim} [Op:Tile]")
    return np.tile(a, multiples)


TILE = register("Tile", _tile, args.first, _ZERO, kind="shape", fusion=_LANE_AXES)
# (TileShapeFn: each dimension times its multiple; a dry run goes on with it past the uint16 refusal,
# as TF's trace does: sobel_edges' later MirrorPad shape error; fz27b, fz14 seed 1420272702 #206)
TILE.standin_static = True
TILE.standin = lambda arrays, attrs: (tuple(d * k for d, k in zip(arrays[0].shape, attrs["multiples"])),)


def _tile_static(a: dict) -> list[int | None] | None:
    """TileShape: each input dimension times its multiple, unknown where either is."""
    known = static_shapes.known_shape(_t(a["input"]))
    mult = partial_values.shape_of(a["multiples"])
    if known is None or mult is None or len(mult) != len(known):
        return None if known is None else [None] * len(known)
    return [None if d is None or m is None else d * m for d, m in zip(known, mult)]


@partial_values.shaped("multiples", rule=_tile_static)
def tile(input: Any, multiples: Any, name: str | None = None) -> Tensor:  # noqa: A002 - TF's name
    t = _t(input)
    if not context.in_function() and not (isinstance(multiples, Tensor) or hasattr(multiples, "_as_tensor")) and \
            not (type(multiples) in (list, tuple) and all(type(i) is int for i in multiples)):
        # (eagerly Tmultiples' default int32 as TF's fast path or fallback converts: `tile(x, 1.5)` is TypeError
        # "Cannot convert 1.5 to EagerTensor of dtype int32", an ndarray is cast; fz43, as ReverseV2's axis)
        multiples = attr_rules.default_group([multiples], dtypes.int32, ("int32", "int64"),
                                             attr_rules.fast_path_takes("Tile", (input, multiples)))[0]
    elif context.in_function() and not (isinstance(multiples, Tensor) or hasattr(multiples, "_as_tensor")) and \
            not _python_ints(multiples):
        # (op_def_library's conversion of Tmultiples, preferring int32: np.float32(1.5) and True are int32 scalars,
        # then the shape function's rank error; None its ValueError; fz43)
        multiples = graph_inputs.convert("Tile", multiples, "multiples")
    md = getattr(multiples, "dtype", None)
    if isinstance(multiples, Tensor) or hasattr(multiples, "_as_tensor"):
        if md not in (dtypes.int32, dtypes.int64):   # (an empty one too: the attr is checked before the values)
            raise trace_errors.attr_not_allowed("Tile", "Tmultiples", md, "int32, int64")
    m = _ints(multiples, "Tmultiples", "Tile")
    m_shape = _value_shape(multiples)
    if len(m_shape) != 1 and not (isinstance(multiples, Tensor) and static_shapes.rank_unknown(multiples)):
        # (TileOp: a vector of multiples, "Expected multiples to be 1-D, but got shape []" for np.float32(2) cast to
        # int32; Tile's shape function WithRank(multiples, 1) in a graph; fz43, observed on TF 2.21)
        raise trace_errors.shape_error(f"Expected multiples to be 1-D, but got shape {args.dims(m_shape)} [Op:Tile]",
                                       f"Shape must be rank 1 but is rank {len(m_shape)}", "Tile",
                                       (t.shape.as_list(), m_shape))
    if len(m) != t.ndim:
        if static_shapes.rank_unknown(t):   # (Tile's shape function cannot see it: the kernel, when the graph runs)
            raise errors.InvalidArgumentError(None, None, f"Expected multiples argument to be a vector of length "
                                                          f"{t.ndim} but got length {len(m)} [Op:Tile]")
        raise trace_errors.shape_error(f"Expected multiples argument to be a vector of length {t.ndim} but got length "
                                       f"{len(m)} [Op:Tile]", f"Shape must be rank {t.ndim} but is rank {len(m)}",
                                       "Tile", (t.shape.as_list(), (len(m),)))
    for i, k in enumerate(m):
        if k < 0:
            raise errors.InvalidArgumentError(None, None, f"Expected multiples[{i}] >= 0, but got {k} [Op:Tile]")
    return dispatch.execute(TILE, (t,), {"multiples": m})


@RegisterGradient("Tile")
def _tile_grad(op: Any, grad: Any) -> list:
    """TF's _TileGrad: reshape to [m0, d0, m1, d1, ...] and sum over the copies (even axes)."""
    from simdist.runtime.ops import array, math
    shp = op.inputs[0].shape.as_list()
    split = [v for pair in zip(op.get_attr("multiples"), shp) for v in pair]
    return [math.reduce_sum(array.reshape(grad, split), list(range(0, len(split), 2)))]


# --- Pad ------------------------------------------------------------------------------------------------------
def _pad_const(a: np.ndarray, paddings: tuple, value: Any = None) -> np.ndarray:
    """Pad's/PadV2's kernel: the constant value, else T's zero (Pad: T() in pad_op.cc, the empty
    string for a string tensor; fuzz20 seed 2620261201 #48)."""
    rank_limits.pad(a.shape, paddings if paddings else [(0, 0)] * a.ndim)
    if value is None:
        value = b"" if a.dtype == object else 0
    if a.dtype == object:   # (np.pad would fill with np.bytes_ values)
        value = np.array(value, dtype=object)
    if not paddings:   # (a scalar's [0, 2] paddings: a copy; np.pad reads the empty tuple as floats, qsweep60)
        return a.copy()
    return np.pad(a, paddings, mode="constant", constant_values=value)


def _mirror_pad(a: np.ndarray, paddings: tuple, mode: str) -> np.ndarray:
    """MirrorPadOp's kernel: each dimension's paddings checked (_check_dims), then NumPy's reflect
    or symmetric pad."""
    rank_limits.mirror_pad(a.shape)
    _check_dims(paddings, a.shape, "MirrorPad", mode)
    if not paddings:
        return a.copy()
    return np.pad(a, paddings, mode="reflect" if mode == "REFLECT" else "symmetric")


def _mirror_pad_grad(g: np.ndarray, paddings: tuple, mode: str) -> np.ndarray:
    """The gradient of a mirror pad: each padded border added back onto the entries it mirrors.
    MirrorPadGradOp's checks per dimension first (a raw call's paddings; rawfz21, seed 2020261202
    #78): non-negative, their total below the input's size (TF 2.21's text), then no greater (SYMMETRIC)
    or less (REFLECT) than the output's size."""
    off = 1 if mode == "REFLECT" else 0
    p = np.asarray(paddings)
    if p.ndim != 2 or p.shape[1] != 2:   # (MirrorPadGradOp: the paddings' shape, then their rows against the rank;
        # fuzz20 seed 2320261203 #115)
        raise errors.InvalidArgumentError(None, None, f"paddings must be a matrix with 2 columns: {args.dims(p.shape)} "
                                                      "[Op:MirrorPadGrad]")
    if p.shape[0] != g.ndim:
        raise errors.InvalidArgumentError(None, None, f"The first dimension of paddings must be the rank of inputs"
                                                      f"{args.dims(p.shape)} {args.dims(g.shape)} [Op:MirrorPadGrad]")
    for d, (lo, hi) in enumerate(paddings):
        def fail(text: str) -> None:
            raise errors.InvalidArgumentError(None, None, f"{text} [Op:MirrorPadGrad]")
        if lo < 0 or hi < 0:
            fail(f"Paddings must be non-negative: {lo}, {hi}")
        if not lo + hi < g.shape[d]:
            fail(f"Total paddings must be less than the input dimension size: {lo + hi} was not less than {g.shape[d]}")
        n = g.shape[d] - lo - hi
        if off == 0 and not (lo <= n and hi <= n):
            fail(f"paddings must be no greater than the output dimension size: {lo}, {hi} greater than {n}")
        if off == 1 and not (lo < n and hi < n):
            fail(f"paddings must be less than the output dimension size: {lo}, {hi} not less than {n}")
    out = g
    for ax, (lo, hi) in enumerate(paddings):
        v = np.moveaxis(out, ax, 0)
        n = v.shape[0] - lo - hi
        core = v[lo:lo + n].copy()
        if lo:
            core[off:off + lo] += v[:lo][::-1]
        if hi:
            core[n - off - hi:n - off] += v[lo + n:][::-1]
        out = np.moveaxis(core, 0, ax)
    return np.ascontiguousarray(out)


PAD = register("Pad", _pad_const, args.first, _ZERO, kind="shape",
               fusion=_LANE_AXES)
PADV2 = register("PadV2", lambda a, c, paddings: _pad_const(a, paddings, c), args.same_dtype("PadV2"), _ZERO,
                 kind="shape",
                 fusion=_LANE_AXES)
MIRROR_PAD = register("MirrorPad", _mirror_pad, args.first, _ZERO, kind="shape",
                      fusion=_LANE_AXES)
# (MirrorPad's shape function: each dimension plus its paddings; a dry run goes on with it past the
# kernel's "paddings must be less than the dimension size": sobel_edges' later TypeError for a complex
# image in a tf.function; fz27b, fz3 seed 2702 #145)
MIRROR_PAD.standin_static = True
MIRROR_PAD.standin = lambda arrays, attrs: (tuple(d + lo + hi for d, (lo, hi) in zip(arrays[0].shape,
                                                                                     attrs["paddings"])),)
MIRROR_PAD_GRAD = register("MirrorPadGrad", _mirror_pad_grad, args.first, kind="shape",
                           fusion=_LANE_AXES)
# (PadShapeFn checks the input's rank against the paddings only where the graph knows it: an input of
# unknown rank traces, and the kernel refuses when the graph runs; fz22, fuzz20 seed 2220261202 #102)
PAD.shape_fn = PADV2.shape_fn = MIRROR_PAD.shape_fn = lambda shapes, attrs: shapes[0] is not None


def _check_paddings(p: tuple, shp: list[int], opname: str, mode: str, rank_unknown: bool = False,
                    constant: list[int] | None = None, known: bool = False) -> None:
    """PadOp's / MirrorPadOp's checks in pad_op.cc's order: paddings' rows against the input's rank,
    PadV2's constant_values a scalar (`constant`: its shape; fuzz20 seed 2320261202 #3, #22), then each
    dimension's paddings."""
    if len(p) != len(shp):   # (traced: PadShapeFn's WithRank(input, paddings' first dimension))
        if rank_unknown:   # (an input of a rank the graph does not know: the kernel, when the graph runs)
            raise errors.InvalidArgumentError(None, None, f"The first dimension of paddings must be the rank of "
                                                          f"inputs[{len(p)},2] {args.dims(shp)} [Op:{opname}]")
        raise trace_errors.shape_error(
            f"The first dimension of paddings must be the rank of inputs[{len(p)},2] {args.dims(shp)} [Op:{opname}]",
            f"Shape must be rank {len(p)} but is rank {len(shp)}", opname, (shp, [len(p), 2]))
    if constant is not None and len(constant) != 0:
        raise errors.InvalidArgumentError(None, None, f"constant_values must be a scalar. Found: {args.dims(constant)} "
                                                      f"[Op:{opname}]")
    if known and context.in_function() and any(lo < 0 or hi < 0 for lo, hi in p):
        # (PadShapeFn and MirrorPad's shape function read paddings the graph knows: ValueError at trace;
        # overlap_and_add's frame_step 0, fz29b, fz14 seed 1420292902 #172; tf.pad(x, [[-1, 0], [0, 0]],
        # "REFLECT") in a tf.function, qsweep60)
        lo, hi = next((lo, hi) for lo, hi in p if lo < 0 or hi < 0)
        raise trace_errors.mark_shape(errors.InvalidArgumentError(
            None, None, f"Paddings must be non-negative: {lo} {hi} [Op:{opname}]"), "Paddings must be non-negative",
            opname, (shp, [len(p), 2]))
    if opname != "MirrorPad":   # (MirrorPad's kernel checks its dimensions itself: `_mirror_pad`)
        _check_dims(p, shp, opname, mode)


def _check_dims(p: Any, shp: Any, opname: str, mode: str) -> None:
    """The kernel's checks of each dimension's paddings (run-time errors: a traced graph meets them
    when it runs)."""
    for (lo, hi), d in zip(p, shp):
        if lo < 0 or hi < 0:
            raise errors.InvalidArgumentError(None, None, f"Paddings must be non-negative: {lo} {hi} [Op:{opname}]")
        if mode == "REFLECT" and (lo >= d or hi >= d):
            raise errors.InvalidArgumentError(None, None, f"paddings must be less than the dimension size: {lo}, {hi} "
                                              f"not less than {d} [Op:{opname}]")
        if mode == "SYMMETRIC" and (lo > d or hi > d):
            raise errors.InvalidArgumentError(None, None, f"paddings must be no greater than the dimension size: "
                                              f"{lo}, {hi} greater than {d} [Op:{opname}]")


def _padv2_input(tensor: Any, c: Tensor) -> Tensor:
    """PadV2's input beside a tensor constant_values, which share its type attr T, checked before the paddings
    and the shape function: eagerly the tensor among them fixes T and a Python or NumPy input is converted to its
    dtype (`pad([-4], [[1, 1]], constant_values=tf.constant(0.5))` is float32 [0.5, -4, 0.5], `pad(-4.0, ...,
    constant_values=tf.constant(1))` the conversion's TypeError), an input tensor of another dtype the kernel's
    InvalidArgumentError; in a graph op_def_library converts the input first with its own dtype, then refuses a
    constant_values of another (TypeError before PadShapeFn's rank check, and before Grappler removes a zero
    padding; fz14 seed 1420443004 #212)."""
    if isinstance(tensor, Tensor) or context.in_function():   # (eagerly a variable is converted to T: an int32
        # variable beside a float32 constant_values is the conversion's ValueError)
        t = _t(tensor)
        if t.dtype != c.dtype:
            if context.in_function():
                raise TypeError(f"Input 'constant_values' of 'PadV2' Op has type {c.dtype.name} that does not match "
                                f"type {t.dtype.name} of argument 'input'.")
            raise errors.InvalidArgumentError(None, None, "cannot compute PadV2 as input #2(zero-based) was expected "
                                              f"to be a {args.tf_name(t.dtype)} tensor but is a "
                                              f"{args.tf_name(c.dtype)} tensor [Op:PadV2]")
        return t
    return convert_to_tensor(tensor, dtype=c.dtype)


def _pad_static(a: dict) -> list[int | None] | None:
    """A traced tf.pad's static shape with paddings the graph does not know in full: PadShapeFn's unknown
    dimensions of the input's rank, which array_ops.pad's set_shape refines from the paddings' partial constant
    value (each dimension the input's plus both paddings, where all three are known)."""
    known = static_shapes.known_shape(_t(a["tensor"]))
    if known is None:
        return None
    flat = partial_values.flat_of(a["paddings"])
    if flat is None or len(flat) != 2 * len(known):
        return [None] * len(known)
    return [None if d is None or flat[2 * i] is None or flat[2 * i + 1] is None else d + flat[2 * i] + flat[2 * i + 1]
            for i, d in enumerate(known)]


@partial_values.shaped("paddings", rule=_pad_static)
def pad(tensor: Any, paddings: Any, mode: str = "CONSTANT", constant_values: Any = 0,
        name: str | None = None) -> Tensor:
    """`tf.pad`: CONSTANT (Pad, or PadV2 for a non-zero or tensor value), REFLECT and SYMMETRIC
    (MirrorPad); the mode is case-insensitive, as in TF."""
    m = str(mode).upper()
    t = _padv2_input(tensor, constant_values) if m == "CONSTANT" and isinstance(constant_values, Tensor) else \
        _t(tensor)
    zero = not isinstance(constant_values, Tensor) and np.ndim(constant_values) == 0 and constant_values == 0
    # a non-zero constant_values is converted before the paddings: pad(False, [], constant_values=1)
    # is TF's TypeError, pad(False, [], constant_values=False) its InvalidArgumentError (paddings not a matrix)
    c = None if m != "CONSTANT" or zero or isinstance(constant_values, Tensor) else \
        convert_to_tensor(constant_values, dtype=t.dtype)
    shp = t.shape.as_list()
    if m not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
        raise ValueError('Value of argument `mode` expected to be one of "CONSTANT", "REFLECT", or "SYMMETRIC". '
                         f"Received `mode` = {m}")
    p = _paddings(paddings, "MirrorPad" if m != "CONSTANT" else "Pad" if zero else "PadV2", shp)
    from simdist.runtime.ops import grappler
    if m == "CONSTANT" and grappler.pad_removed(paddings, p):   # (Grappler's Identity: only the shape function)
        if not static_shapes.rank_unknown(t):
            _check_paddings(p, shp, "Pad" if zero else "PadV2", m)
        from simdist.runtime.ops import array
        return array.identity(t)
    if m == "CONSTANT":
        known = not isinstance(paddings, Tensor) or graph_constants.known(paddings)
        if zero:
            _check_paddings(p, shp, "Pad", m, static_shapes.rank_unknown(t), known=known)
            return dispatch.execute(PAD, (t,), {"paddings": p})
        c = constant_values if c is None else c
        _check_paddings(p, shp, "PadV2", m, static_shapes.rank_unknown(t), list(_t(c).shape), known=known)
        return dispatch.execute(PADV2, (t, c), {"paddings": p})
    known = not isinstance(paddings, Tensor) or graph_constants.known(paddings)
    _check_paddings(p, shp, "MirrorPad", m, static_shapes.rank_unknown(t), known=known)
    return dispatch.execute(MIRROR_PAD, (t,), {"paddings": p, "mode": m})


def _pad_grad(op: Any, grad: Any) -> list:
    """TF's _PadGrad: the input's window of the gradient (constant_values gets None)."""
    shp = op.inputs[0].shape.as_list()
    begin = [lo for lo, _ in op.get_attr("paddings")]
    if not begin:   # (a scalar's: TF's Slice of rank 0 is the gradient itself; qsweep60 pad rank0)
        return [grad] + [None] * (len(op.inputs) - 1)
    return [slice_(grad, begin, shp)] + [None] * (len(op.inputs) - 1)


RegisterGradient("Pad")(_pad_grad)
RegisterGradient("PadV2")(_pad_grad)


@RegisterGradient("MirrorPad")
def _mirror_pad_grad_fn(op: Any, grad: Any) -> list:
    return [dispatch.execute(MIRROR_PAD_GRAD, (grad,), {"paddings": op.get_attr("paddings"),
                                                        "mode": op.get_attr("mode")})]



@RegisterGradient("MirrorPadGrad")
def _mirror_pad_grad_grad(op: Any, grad: Any) -> list:
    return [dispatch.execute(MIRROR_PAD, (grad,), {"paddings": op.get_attr("paddings"), "mode": op.get_attr("mode")})]


# --- ReverseV2: one declaration (a shape op whose axis attribute the stacked form shifts) -------------------
def _reverse_kernel(a: np.ndarray, axis: Any) -> np.ndarray:
    rank_limits.reverse(a.shape)
    return np.flip(a, axis)


REVERSE = register("ReverseV2", _reverse_kernel, args.first, args.zero_flops, kind="shape",
                   fusion=OVER_AXIS)


def reverse(tensor: Any, axis: Any, name: str | None = None) -> Tensor:
    """`tf.reverse`: the elements reversed along each axis of the 1-D `axis` (int32 or int64)."""
    t = _t(tensor)
    if isinstance(axis, Tensor) or context.in_function():
        ax = axis if isinstance(axis, Tensor) else convert_to_tensor(axis, dtype_hint=dtypes.int32)   # Tidx's default
    else:   # (eagerly Tidx's default int32 as TF's fast path or fallback converts: a Python float is TypeError "Cannot
        # convert 1.5 to EagerTensor of dtype int32", an ndarray is cast; fz43, fz14 seed 1420433003 #93)
        ax = attr_rules.default_group([axis], dtypes.int32, ("int32", "int64"),
                                      attr_rules.fast_path_takes("ReverseV2", (tensor, axis)))[0]
    if ax.dtype.name not in ("int32", "int64"):
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'Tidx' of {args.tf_name(ax.dtype)} is not in "
                                          "the list of allowed values: int32, int64 [Op:ReverseV2]")
    from simdist.runtime.ops import static_shapes
    empty = t.shape.num_elements() == 0
    traced = context.in_function()
    if empty and (not traced or static_shapes.rank_unknown(t)):
        # ReverseV2's kernel returns an empty input before it checks the axes (TF 2.21), as the
        # op's output (recorded: the gradient of an integer variable's reverse is None, not the
        # read's ones: fuzz2 seed 5 #107); traced, the shape function checks the axis first
        # (below; fz21, third generator seed 2103 #52)
        if traced and np.ndim(dispatch.static_value(ax)) != 1:
            raise trace_errors.shape_error("", f"Shape must be rank 1 but is rank {np.ndim(dispatch.static_value(ax))}",
                                           "ReverseV2", (t.shape.as_list(), list(ax.shape)))
        return dispatch.execute(REVERSE, (t,), {"axis": ()})
    dims = dispatch.static_value(ax)
    if t.ndim == 0 and (not context.in_function() or (dims.ndim == 1 and static_shapes.rank_unknown(t))):
        # (a graph input of unknown rank: the shape function cannot see the rank, so the kernel
        # decides when the graph runs; fz10 seed 91 #147)
        # ReverseV2's kernel returns a scalar input as it is before it checks the axes, even an axis
        # that is no vector (TF 2.21, fz16d: fz14 seed 1420261202 #990; traced, the shape function
        # checks them: ValueError below, ops.reverse-norm-scan)
        return dispatch.execute(REVERSE, (t,), {"axis": ()})
    if dims.ndim != 1:   # (traced: ReverseV2's shape function)
        raise trace_errors.shape_error(f"'dims' must be 1-dimension, not {dims.ndim} [Op:ReverseV2]",
                                       f"Shape must be rank 1 but is rank {dims.ndim}", "ReverseV2",
                                       (t.shape.as_list(), list(dims.shape)))
    nd = t.ndim
    seen: set[int] = set()
    for i, d in enumerate(int(v) for v in dims):
        # (traced: ReverseV2's shape function checks the constant axes: ValueError, function.trace-time-errors)
        if not -nd <= d < nd:
            text = f"'axis'[{i}] = {d} is out of valid range [0, {nd - 1}"
            raise trace_errors.shape_error(f"{text} [Op:ReverseV2]", text, "ReverseV2",
                                           (t.shape.as_list(), list(dims.shape)))
        if d % nd in seen:
            text = f"axis {d % nd} specified more than once."
            raise trace_errors.shape_error(f"{text} [Op:ReverseV2]", text, "ReverseV2",
                                           (t.shape.as_list(), list(dims.shape)))
        seen.add(d % nd)
    if empty:   # (traced, a known rank: the shape function's checks passed, the kernel returns it)
        return dispatch.execute(REVERSE, (t,), {"axis": ()})
    return dispatch.execute(REVERSE, (t,), {"axis": tuple(int(v) % nd for v in dims)})


@RegisterGradient("ReverseV2")
def _reverse_grad(op: Any, grad: Any) -> list:
    return [dispatch.execute(REVERSE, (grad,), {"axis": op.get_attr("axis")})]
