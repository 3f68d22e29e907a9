"""Tensors generated from a few numbers: one_hot (OneHot), eye, linspace, sequence_mask, meshgrid.

one_hot and eye are ops of their own; linspace, sequence_mask and meshgrid are composites of
registered ops built as TF 2.21 builds them (linspace is TF 2's linspace_nd, differentiable in
start and stop through its parts, although the legacy LinSpace op is not).
"""

from __future__ import annotations

import numbers

from typing import Any, Sequence

import numpy as np

from simdist.runtime import context, dtypes, errors, graph_names
from simdist.runtime.ops import args, array, attr_rules, dispatch, index_dtypes, math, partial_values, static_shapes, trace_errors
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["one_hot", "eye", "linspace", "sequence_mask", "meshgrid"]

_ONE_HOT_TI = (dtypes.uint8, dtypes.int8, dtypes.int32, dtypes.int64)


def _one_hot(idx: np.ndarray, on: np.ndarray, off: np.ndarray, depth: int, axis: int) -> np.ndarray:
    """off everywhere, on at each in-range id (out-of-range and negative ids: all off), in the output's
    memory only: depth 2147483647 of int8 values is TF's 2 GiB output, where a comparison against
    arange(depth) took 16 GiB more (fuzz20 tape seed 3320261208 #76 ran the campaign out of memory)."""
    out = np.full(idx.shape + (depth,), off, dtype=np.result_type(on, off))
    ids = idx.astype(np.int64).reshape(-1)
    rows = np.nonzero((ids >= 0) & (ids < depth))[0]
    if rows.size:
        out.reshape(-1, depth)[rows, ids[rows]] = on
    return out if axis == -1 else np.moveaxis(out, -1, axis)


def _one_hot_rule(dts: Sequence[dtypes.DType], attrs: Any) -> dtypes.DType:
    if dts[0] not in _ONE_HOT_TI:
        raise trace_errors.attr_not_allowed("OneHot", "TI", dts[0], "uint8, int8, int32, int64")
    return args.same_dtype("OneHot")(dts[1:], attrs)


ONE_HOT = register("OneHot", _one_hot, _one_hot_rule, args.zero_flops, kind="generator",
                   fusion=lanes("its axis attribute indexes one lane's axes: no stacked form written"))
NotDifferentiable("OneHot")


def _one_hot_kernel_error(ndim: int, depth: np.ndarray, on: Tensor, off: Tensor, axis: int) -> Any:
    """OneHotOp::Compute's checks in its order (one_hot_op.cc): the axis, depth, on_value and
    off_value scalars, depth non-negative; the first failing one's InvalidArgumentError, or None
    (a raw call's vector on_value is refused: fuzz20 seed 2420261202 #97)."""
    def bad(text: str) -> errors.InvalidArgumentError:
        return errors.InvalidArgumentError(None, None, f"{text} [Op:OneHot]")
    if not (axis == -1 or 0 <= axis < ndim + 1):
        return bad(f"Expected axis to be -1 or between [0, {ndim + 1}).  But received: {axis}")
    for what, shape in (("depth", depth.shape), ("on_value", tuple(on.shape.as_list())),
                        ("off_value", tuple(off.shape.as_list()))):
        if len(shape):
            return bad(f"{what} must be a scalar, but got: [{','.join(map(str, shape))}]")
    if int(depth) < 0:
        return bad(f"depth must be non-negative, got: {int(depth)}")
    return None


def _one_hot_static(a: dict) -> list[int | None] | None:
    """OneHot's shape function with a depth the graph does not know: the indices' static shape with an unknown
    dimension inserted at axis."""
    idx = a["indices"]
    known = static_shapes.known_shape(idx) if isinstance(idx, Tensor) else list(np.shape(idx))
    if known is None:
        return None
    axis = -1 if a["axis"] is None else int(a["axis"])
    known.insert(len(known) if axis == -1 else axis, None)
    return known


@graph_names.scoped("one_hot", "OneHot")   # (array_ops.one_hot's scope names its node)
@partial_values.shaped("depth", rule=_one_hot_static)
def one_hot(indices: Any, depth: Any, on_value: Any = None, off_value: Any = None, axis: Any = None,
            dtype: Any = None, name: str | None = None) -> Tensor:
    """`tf.one_hot`: float32 unless dtype or on/off values say otherwise; an index outside
    [0, depth) gives a row of off_value; `axis` places the new dimension (-1: last)."""
    dt = None if dtype is None else dtypes.as_dtype(dtype)
    attr_rules.check("OneHot", axis=axis)   # (make_int: a graph tensor is TypeError; ops.attr-types)
    on = None if on_value is None else (on_value if isinstance(on_value, Tensor)
                                        else convert_to_tensor(on_value, dtype_hint=dt))
    off = None if off_value is None else (off_value if isinstance(off_value, Tensor)
                                          else convert_to_tensor(off_value, dtype_hint=dt))
    if on is not None or off is not None:
        if dt is not None:
            for what, v in (("on_value", on), ("off_value", off)):
                if v is not None and v.dtype != dt:
                    raise TypeError(f"dtype <dtype: '{v.dtype.name}'> of {what} does not match dtype parameter "
                                    f"<dtype: '{dt.name}'>")
        else:
            dt = on.dtype if on is not None else off.dtype   # type: ignore[union-attr]
    elif dt is None:
        dt = dtypes.float32
    if on is None:
        on = convert_to_tensor(1, dtype=dt)
    if off is None:
        off = convert_to_tensor(0, dtype=dt)
    if on.dtype != off.dtype:
        raise TypeError(f"dtype <dtype: '{on.dtype.name}'> of on_value does not match dtype <dtype: "
                        f"'{off.dtype.name}'> of off_value")
    # (op_def_library converts a non-tensor with TI's default, int64, as the preferred dtype: Python and NumPy
    # bools become 0/1, floats keep float32 and are refused; fz3 seed 97 #69)
    idx = indices if isinstance(indices, Tensor) else convert_to_tensor(indices, dtype_hint=dtypes.int64)
    given_tensor = isinstance(depth, Tensor)
    index_dtypes.check("OneHot", "depth", depth, (indices, depth))   # (an int32 input: clause ops.index-dtypes)
    if not isinstance(depth, Tensor):
        # (OneHot's depth is an int32 input, converted as TF converts it: a Python float or complex, [1.5], 'a' are
        # TypeError, None ValueError, 2**40 wraps to 0 (an empty one-hot), a NumPy float is cast; op_def_library's
        # errors in a graph; fz43, observed on TF 2.21)
        depth = convert_to_tensor(depth._as_tensor() if hasattr(depth, "_as_tensor") else depth, dtype=dtypes.int32)
    dv = np.asarray(dispatch.static_value(depth) if isinstance(depth, Tensor) else depth)
    ax = -1 if axis is None else int(axis)
    kerr = _one_hot_kernel_error(idx.ndim, dv, on, off, ax)
    if kerr is not None:
        # (traced: a Python depth is a constant, which OneHot's shape function reads at trace before the kernel
        # runs: MakeDimForScalarInput; a tensor may be a graph input, unknown to the shape function)
        shape_text = None if given_tensor else (
            f"Input must be scalar but has rank {dv.ndim}" if dv.ndim else
            f"Dimension size, given by scalar input 1, must be non-negative but is {int(dv)}" if int(dv) < 0 else None)
        if ax < -1:
            shape_text = "axis must be >= -1"
        if shape_text is None and ax > idx.ndim and context.in_function() and not static_shapes.rank_unknown(idx) \
                and _one_hot_kernel_error(idx.ndim, dv, on, off, -1) is None:
            # (OneHot's shape function takes an axis past the rank modulo rank + 1, (axis + rank + 1) % (rank + 1),
            # where the kernel refuses it when the graph runs: a trace goes on with that shape, `one_hot(i [2, 3],
            # 3, axis=3)` is [3, 2, 3] in TF's; fix64s)
            di = (ax + idx.ndim + 1) % (idx.ndim + 1)
            shp, known = idx.shape.as_list(), static_shapes.known_shape(idx) or []
            out = dispatch.refused(kerr, on.dtype, shp[:di] + [int(dv)] + shp[di:])
            from simdist.runtime.ops import graph_constants
            unknown_depth = isinstance(depth, Tensor) and not graph_constants.known(depth)
            return static_shapes.mark(out, tuple(d is None for d in known[:di]) + (unknown_depth,) +
                                      tuple(d is None for d in known[di:]))
        if shape_text is None:
            raise kerr
        raise trace_errors.mark_shape(kerr, shape_text, "OneHot", (tuple(idx.shape.as_list()), dv.shape,
                                                                    tuple(on.shape.as_list()),
                                                                    tuple(off.shape.as_list())))
    d = int(dv)
    return dispatch.execute(ONE_HOT, (idx, on, off), {"depth": d, "axis": ax})


def _eye(num_rows: int, num_columns: int, batch_shape: tuple[int, ...], dtype: dtypes.DType) -> np.ndarray:
    m = np.eye(num_rows, num_columns, dtype=dtype._np)
    return np.broadcast_to(m, batch_shape + m.shape).copy() if batch_shape else m


EYE = register("Eye", _eye, lambda dts, attrs: attrs["dtype"], args.zero_flops, kind="generator",
               fusion=lanes("made from its attributes only: shared by every lane"))
NotDifferentiable("Eye")


def _eye_static(a: dict) -> list[int | None] | None:
    """linalg_ops_impl.eye's static shape: batch_shape + [num_rows, num_columns], each as the graph knows it."""
    rows = partial_values.scalar_of(a["num_rows"])
    cols = rows if a["num_columns"] is None else partial_values.scalar_of(a["num_columns"])
    batch = [] if a["batch_shape"] is None else partial_values.shape_of(a["batch_shape"])
    return None if batch is None else batch + [rows, cols]


@partial_values.shaped("num_rows", "num_columns", "batch_shape", rule=_eye_static)
def eye(num_rows: Any, num_columns: Any = None, batch_shape: Any = None, dtype: Any = dtypes.float32,
        name: str | None = None) -> Tensor:
    """`tf.eye`: an identity matrix (batch_shape + [rows, columns]). One op here; TF builds it
    from ones and MatrixDiag, neither of which takes a gradient from a constant."""
    cols_arg = num_rows if num_columns is None else num_columns
    if not isinstance(num_rows, Tensor) and not isinstance(cols_arg, Tensor):
        # (linalg_ops_impl.eye: sizes given as Python or NumPy values must be integral (numbers.Integral,
        # np.integer), else TypeError; a bool passes that test and then fails ones()'s int32 shape conversion,
        # TypeError too: keras.ops.identity(5.0), eye(True); TF 2.21 observed, esweep67)
        for v in (num_rows, cols_arg):
            if isinstance(v, (bool, np.bool_)):
                raise TypeError(f"Cannot convert [{v!r}] to EagerTensor of dtype int32")
            if not isinstance(v, (numbers.Integral, np.integer)):
                raise TypeError("Arguments `num_rows` and `num_columns` must be positive integer values. Received: "
                                f"num_rows={num_rows}, num_columns={cols_arg}")
    rows = int(num_rows)
    cols = rows if num_columns is None else int(num_columns)
    batch = () if batch_shape is None else args.shape_arg(batch_shape)
    for d in (*batch, min(rows, cols)):   # TF fills ones of [batch..., min(rows, cols)] first (ops.eye-negative)
        if d < 0:
            raise trace_errors.shape_error(f"Dimension {d} must be >= 0 [Op:Fill]", "Fill dimensions must be >= 0",
                                           "Fill", ([len(batch) + 1], []))
    return dispatch.execute(EYE, (), {"num_rows": rows, "num_columns": cols, "batch_shape": batch,
                                      "dtype": dtypes.as_dtype(dtype)})


def _linspace_static(a: dict) -> list[int | None] | None:
    """linspace_nd's static shape with a `num` the graph does not know: start's and stop's broadcast shape with
    an unknown dimension at axis."""
    shapes = [static_shapes.known_shape(v) if isinstance(v, Tensor) else list(np.shape(v))
              for v in (a["start"], a["stop"])]
    if any(s is None for s in shapes):
        return None
    n = max(len(s) for s in shapes)   # type: ignore[arg-type]
    pads = [[1] * (n - len(s)) + list(s) for s in shapes]   # type: ignore[arg-type]
    out: list[int | None] = [None if x is None or y is None else max(x, y) for x, y in zip(*pads)]
    axis = int(a["axis"])
    out.insert(axis if axis >= 0 else len(out) + 1 + axis, None)
    return out


@partial_values.shaped("num", rule=_linspace_static)
def linspace(start: Any, stop: Any, num: Any, name: str | None = None, axis: int = 0) -> Tensor:
    """`tf.linspace` (TF 2's linspace_nd): num evenly spaced values from start to stop inclusive,
    along a new `axis`; start and stop broadcast; integer inputs give float64, as TF."""
    st = _t(start)
    # (math_ops.linspace_nd: stop converted with start's dtype, a tensor of another dtype too:
    # ValueError "Tensor conversion requested dtype int32 for Tensor with dtype float32"; fz14 seed
    # 1420261218 #38)
    sp = convert_to_tensor(stop, dtype=st.dtype)
    # (then array_ops.convert_to_int_tensor(num): converted preferring int32, any other dtype than an integer one is
    # TypeError "Argument `tensor` (name: num) must be of type integer"; TF 2.21 observed, fz44b, fz44_gen seed 44003)
    nt = num if isinstance(num, Tensor) else convert_to_tensor(num, dtype_hint=dtypes.int32)
    if not nt.dtype.is_integer:
        raise TypeError(f"Argument `tensor` (name: num) must be of type integer. Received `tensor` = {nt._v} of "
                        f"dtype: {nt.dtype!r}")
    # (then `cast(num_int, dtype=start.dtype)`, before the arithmetic: eagerly Cast int32 to string is the kernel's
    # UnimplementedError; traced the Cast builds and the subtraction's TypeError comes first; fix62d, vsweep62)
    if st.dtype == dtypes.string and not context.in_function():
        math.cast(nt, st.dtype)
    nv = np.asarray(dispatch.static_value(nt))
    # (a num of one element and shape [1] computes eagerly: Range's kernel takes a "legacy scalar" limit and the size's
    # concat a [1] piece, linspace(0., 1., np.array([3])) is [0, 0.5, 1]; traced, Range's shape function wants a
    # rank-0 limit: ValueError; TF 2.21 observed, npsweep67)
    if nv.ndim == 1 and nv.size == 1 and context.in_function():
        raise ValueError("Shape must be rank 0 but is rank 1\n\t for 'limit' for '{{node linspace/range}} = "
                         "Range[Tidx=DT_INT64](linspace/range/start, linspace/range/Cast, linspace/range/delta)' with "
                         "input shapes: [], [1], [].")
    n = int(nv.reshape(-1)[0]) if nv.ndim == 1 and nv.size == 1 else int(nv)
    shape = list(np.broadcast_shapes(tuple(st.shape.as_list()), tuple(sp.shape.as_list())))
    st, sp = array.broadcast_to(st, shape), array.broadcast_to(sp, shape)
    e_start, e_stop = array.expand_dims(st, axis), array.expand_dims(sp, axis)
    ndims = len(shape) + 1
    ax = axis if axis >= 0 else ndims + axis
    n_steps = max(n - 1, 1)
    delta = math.truediv(math.subtract(e_stop, e_start), math.cast(n_steps, e_stop.dtype))
    e_start, e_stop = math.cast(e_start, delta.dtype), math.cast(e_stop, delta.dtype)
    try:
        steps = math.cast(array.range_(1, n_steps if n >= 0 else -1, dtype=dtypes.int64), delta.dtype)
    except errors.InvalidArgumentError as e:
        if isinstance(num, Tensor):   # (a tensor num may be a graph input: Range's shape function cannot see it)
            trace_errors.unmark(e)
        raise
    steps = array.reshape(steps, [max(n - 2, 0) if i == ax else 1 for i in range(ndims)])
    res = math.add(e_start, math.multiply(delta, steps))
    out = array.concat([e_start, res, e_stop], axis=ax)
    from simdist.runtime.ops import slicing
    size = [max(n, 0) if i == ax else d for i, d in enumerate(out.shape.as_list())]
    return slicing.slice_(out, [0] * ndims, size)


def sequence_mask(lengths: Any, maxlen: Any = None, dtype: Any = dtypes.bool_, name: str | None = None) -> Tensor:
    """`tf.sequence_mask`: mask[..., j] = j < lengths[...], j in [0, maxlen) (maxlen defaults to
    max(lengths)); as TF: range(maxlen) < cast(expand_dims(lengths, -1)), cast to dtype."""
    lt = _t(lengths)
    if maxlen is None:
        m = math.reduce_max(lt)
        m = math.maximum(convert_to_tensor(0, dtype=m.dtype), m)
    else:
        m = _t(maxlen)
        if m.ndim != 0:
            raise ValueError(f"Argument `maxlen` must be scalar for sequence_mask, received `maxlen` = {m} with "
                             f"shape '{m.shape}' instead")
    # (TF: `_range(constant(0, maxlen.dtype), maxlen, constant(1, maxlen.dtype))`: the constants first, so a bool
    # maxlen is constant's TypeError "Cannot convert 0 to EagerTensor of dtype bool" before Range's dtype check;
    # TF 2.21 observed, npsweep67)
    zero, one = convert_to_tensor(0, dtype=m.dtype), convert_to_tensor(1, dtype=m.dtype)
    array.range_kernel(m.dtype)   # (TF calls Range itself, with the lengths' dtype)
    row = array.range_(zero, m, one, dtype=m.dtype)
    if maxlen is None:   # Range up to a computed max: its length is unknown to a traced graph
        row = static_shapes.mark_dim(row, 0)
    result = math.less(row, math.cast(array.expand_dims(lt, -1), m.dtype))
    dt = dtypes.as_dtype(dtype)
    return result if dt is dtypes.bool_ else math.cast(result, dt)


def meshgrid(*args_: Any, **kwargs: Any) -> list[Tensor]:
    """`tf.meshgrid(*args, indexing='xy')`: N coordinate tensors (TF: reshapes times ones)."""
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"'{next(iter(kwargs))}' is an invalid keyword argument for this function")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Argument `indexing` parameter must be either 'xy' or 'ij', got '{indexing}'")
    ts = [_t(a) for a in args_]
    ndim = len(ts)
    out = [array.reshape(x, [1] * i + [-1] + [1] * (ndim - i - 1)) for i, x in enumerate(ts)]
    shapes = [x.shape.num_elements() for x in ts]
    if indexing == "xy" and ndim > 1:
        out[0] = array.reshape(out[0], [1, -1] + [1] * (ndim - 2))
        out[1] = array.reshape(out[1], [-1, 1] + [1] * (ndim - 2))
        shapes[0], shapes[1] = shapes[1], shapes[0]
    if not out:
        return []
    ones = array.ones(shapes, dtype=ts[0].dtype)
    # (array_ops.meshgrid's `x * mult_fact`: the operator, whose bool product is a logical and, so
    # `tf.meshgrid(True)` is [True] where Mul refuses bool; fz35b, fourteenth generator seed 1420353001 #97)
    return [x * ones for x in out]
