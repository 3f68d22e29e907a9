"""Window maxima that remember where they came from: tf.nn.dilation2d and erosion2d (TF's Dilation2D
and its two backprop kernels) and tf.nn.max_pool_with_argmax (MaxPoolWithArgmax and
MaxPoolGradWithArgmax), NHWC, SAME / VALID.

Both scan each window's in-bounds elements in row-major order and keep a strictly greater one, as
TF 2.21's CPU kernels (dilation_ops.cc, maxpooling_op.cc) do, so a NaN is never kept once a value
is held; they differ in the start (observed on TF 2.21):
- Dilation2D starts at the dtype's lowest finite value: out = max(input + filter) over the window,
  -FLT_MAX when nothing exceeds it (NaN, -inf); its gradients go to the kept element, or, when none
  was kept, to the window's first in-bounds input element and the filter's (0, 0);
- MaxPoolWithArgmax starts at the window's first in-bounds element: a NaN there is the output, with
  its index; the index is ((b * H + y) * W + x) * C + c, b only with include_batch_in_index.
erosion2d is TF's duality: -dilation2d(-input, reverse(filters, [0, 1])).

FLOPs: fh*fw per output element (an add and a compare), the gradients one per output element.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops import args, attr_rules, dispatch, infer_ctx, static_shapes, trace_errors
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.conv import spatial_sequence, window_geometry, windows
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.nn_rules import REAL_NUMBERS, typed
from simdist.runtime.ops.op_outputs import named_outputs
from simdist.runtime.ops.registry import RegisterGradient, lanes, register, rows
from simdist.runtime.tensor import Tensor

__all__ = ["dilation2d", "erosion2d", "max_pool_with_argmax"]


def _lowest(dt: np.dtype) -> Any:
    return dtypes.as_dtype(dt).min


def _scan(x: np.ndarray, f: np.ndarray | None, k: tuple[int, int], strides: tuple, rates: tuple, padding: str,
          from_first: bool, op: str) -> tuple[np.ndarray, np.ndarray, tuple, tuple]:
    """(kept value [N, OH, OW, C], kept window position k or -1 [N, OH, OW, C], (OH, OW), pads)."""
    out_hw, pads = window_geometry(x.shape[1:3], k, strides[1:3], rates[1:3], padding, (), op)
    pt, pb, pl, pr = pads
    xp = np.pad(x, ((0, 0), (pt, pb), (pl, pr), (0, 0))) if any(pads) else x
    ok = np.pad(np.ones((1,) + x.shape[1:3] + (1,), bool), ((0, 0), (pt, pb), (pl, pr), (0, 0)))
    win = windows(xp, k, out_hw, strides[1:3], rates[1:3])
    vwin = windows(ok, k, out_hw, strides[1:3], rates[1:3])
    shape = (x.shape[0], out_hw[0], out_hw[1], x.shape[3])
    best = np.full(shape, _lowest(x.dtype), x.dtype)
    idx = np.full(shape, -1, np.int64)
    held = np.zeros(shape, bool)
    for i in range(k[0]):
        for j in range(k[1]):
            cand = win[:, :, :, i, j, :]
            if f is not None:
                cand = cand + f[i, j]
            valid = vwin[:, :, :, i, j, :]
            take = valid & ((cand > best) | (from_first & ~held))
            best = np.where(take, cand, best)
            idx = np.where(take, i * k[1] + j, idx)
            held |= valid
    return best, idx, out_hw, pads


def _dilation_attrs_check(x: np.ndarray, f: np.ndarray, strides: tuple, rates: tuple, op: str) -> None:
    """dilation_ops.cc: the constructor's ParseAttributes (the strides', then the rates' batch and
    depth, UnimplementedError with TF's texts; rawfz21, seed 2020261202 #142) before Compute's
    checks of the inputs. A list longer than the OpDef's minimum of 4 is the constructor's
    InvalidArgumentError eagerly (a graph's shape function refuses it first: fz33b, fz14 seed
    1420333001 #2)."""
    if len(strides) != 4:
        raise errors.InvalidArgumentError(None, None, f"Sliding window stride field must specify 4 dimensions [Op:{op}]")
    if strides[0] != 1 or strides[3] != 1:
        raise errors.UnimplementedError(None, None, f"Stride is only supported across spatial dimensions. [Op:{op}]")
    if len(rates) != 4:
        raise errors.InvalidArgumentError(None, None, f"Input stride (atrous rate) field must specify 4 dimensions "
                                                      f"[Op:{op}]")
    if rates[0] != 1 or rates[3] != 1:
        raise errors.UnimplementedError(None, None, f"Rate is only supported across spatial dimensions. [Op:{op}]")
    if x.ndim != 4:
        raise errors.InvalidArgumentError(None, None, f"input must be 4-dimensional [Op:{op}]")
    if f.ndim != 3:
        raise errors.InvalidArgumentError(None, None, f"filter must be 3-dimensional [Op:{op}]")
    if x.shape[3] != f.shape[2]:
        raise errors.InvalidArgumentError(None, None, f"input and filter must have the same depth: {x.shape[3]} vs "
                                          f"{f.shape[2]} [Op:{op}]")


def _dilation(x: np.ndarray, f: np.ndarray, strides: tuple, rates: tuple, padding: str) -> np.ndarray:
    _dilation_attrs_check(x, f, strides, rates, "Dilation2D")
    return _scan(x, f, f.shape[:2], strides, rates, padding, False, "Dilation2D")[0]


def _kept_positions(idx: np.ndarray, k: tuple, out_hw: tuple, pads: tuple, strides: tuple,
                    rates: tuple) -> tuple[np.ndarray, ...]:
    """Input rows and columns and filter rows and columns of the kept elements (the window's first
    in-bounds element and filter (0, 0) where none was kept)."""
    n, oh, ow, c = idx.shape
    hb = (np.arange(oh) * strides[1] - pads[0])[None, :, None, None]
    wb = (np.arange(ow) * strides[2] - pads[2])[None, None, :, None]
    fi, fj = np.where(idx >= 0, idx // k[1], 0), np.where(idx >= 0, idx % k[1], 0)
    hi = np.where(idx >= 0, hb + fi * rates[1], np.maximum(hb, 0))
    wi = np.where(idx >= 0, wb + fj * rates[2], np.maximum(wb, 0))
    return hi, wi, fi, fj


def _dilation_backprop_input(x: np.ndarray, f: np.ndarray, g: np.ndarray, strides: tuple, rates: tuple,
                             padding: str) -> np.ndarray:
    _dilation_attrs_check(x, f, strides, rates, "Dilation2DBackpropInput")
    _, idx, out_hw, pads = _scan(x, f, f.shape[:2], strides, rates, padding, False, "Dilation2DBackpropInput")
    hi, wi, _, _ = _kept_positions(idx, f.shape[:2], out_hw, pads, strides, rates)
    out = np.zeros(x.shape, g.dtype)
    n, oh, ow, c = idx.shape
    b = np.broadcast_to(np.arange(n)[:, None, None, None], idx.shape)
    ch = np.broadcast_to(np.arange(c)[None, None, None, :], idx.shape)
    np.add.at(out, (b, np.broadcast_to(hi, idx.shape), np.broadcast_to(wi, idx.shape), ch), g)
    return out


def _dilation_backprop_filter(x: np.ndarray, f: np.ndarray, g: np.ndarray, strides: tuple, rates: tuple,
                              padding: str) -> np.ndarray:
    _dilation_attrs_check(x, f, strides, rates, "Dilation2DBackpropFilter")
    _, idx, out_hw, pads = _scan(x, f, f.shape[:2], strides, rates, padding, False, "Dilation2DBackpropFilter")
    _, _, fi, fj = _kept_positions(idx, f.shape[:2], out_hw, pads, strides, rates)
    out = np.zeros(f.shape, g.dtype)
    ch = np.broadcast_to(np.arange(idx.shape[3])[None, None, None, :], idx.shape)
    np.add.at(out, (fi, fj, ch), g)
    return out


def _window_flops(arrays: Any, out: Any, attrs: Any) -> float:
    f = arrays[1]
    return float(out.size * f.shape[0] * f.shape[1] * 2)


DILATION2D = register("Dilation2D", _dilation, typed("Dilation2D", REAL_NUMBERS), _window_flops, kind="window",
                      fusion=rows(0))
DILATION2D_BACKPROP_INPUT = register("Dilation2DBackpropInput", _dilation_backprop_input,
                                     typed("Dilation2DBackpropInput", REAL_NUMBERS),
                                     lambda a, out, at: float(a[2].size), kind="window", fusion=rows(0, 2))
DILATION2D_BACKPROP_FILTER = register("Dilation2DBackpropFilter", _dilation_backprop_filter,
                                      typed("Dilation2DBackpropFilter", REAL_NUMBERS),
                                      lambda a, out, at: float(a[2].size), kind="window",
                                      fusion=lanes("sums the lane's rows into the filter: no stacked form written"))
no_tf_gradient("Dilation2DBackpropInput")
no_tf_gradient("Dilation2DBackpropFilter")


@RegisterGradient("Dilation2D")
def _dilation_grad(op: Any, grad: Any) -> list:
    x, f = op.inputs
    return [dispatch.execute(DILATION2D_BACKPROP_INPUT, (x, f, grad), dict(op.attrs)),
            dispatch.execute(DILATION2D_BACKPROP_FILTER, (x, f, grad), dict(op.attrs))]


def _padding(padding: Any, op: str) -> str:
    if not isinstance(padding, str):
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    return trace_errors.check_string(op, "padding", padding, ("SAME", "VALID"))


def _nhwc_only(data_format: Any) -> None:
    if data_format != "NHWC":
        raise ValueError("`data_format` values other  than 'NHWC' are not supported. Received: "
                         f"data_format={data_format}")


def dilation2d(input: Any, filters: Any, strides: Any, padding: Any, data_format: Any,  # noqa: A002
               dilations: Any, name: str | None = None) -> Tensor:
    """`tf.nn.dilation2d` (NHWC): max over each window of input + filters ([fh, fw, C]); strides
    and dilations lists of 4."""
    _nhwc_only(data_format)
    # (TF's gen_nn_ops.dilation2d, the raw op's path: filters converted to input's dtype (a bool NumPy
    # filter beside an int32 input is cast), the OpDef's list minimums, the shape function in a graph,
    # the kernel's checks; fz33b, fz14 seed 1420333001 #2)
    from simdist.runtime.ops import raw_ops
    return raw_ops.call("Dilation2D", dict(input=input, filter=filters, strides=strides, rates=dilations,
                                           padding=padding, name=name))


def erosion2d(value: Any, filters: Any, strides: Any, padding: Any, data_format: Any, dilations: Any,
              name: str | None = None) -> Tensor:
    """`tf.nn.erosion2d`: -dilation2d(-value, reverse(filters, [0, 1]))."""
    from simdist.runtime.ops.math import negative
    from simdist.runtime.ops.slicing import reverse
    _nhwc_only(data_format)
    return negative(dilation2d(negative(_t(value)), reverse(_t(filters), [0, 1]), strides, padding, "NHWC",
                               dilations))


# --- MaxPoolWithArgmax ----------------------------------------------------------------------------------------
def _flat_index(idx: np.ndarray, k: tuple, out_hw: tuple, pads: tuple, strides: tuple, shape: tuple,
                include_batch: bool) -> np.ndarray:
    hi, wi, _, _ = _kept_positions(idx, k, out_hw, pads, strides, (1, 1, 1, 1))
    n, h, w, c = shape
    ch = np.arange(c)[None, None, None, :]
    flat = (hi * w + wi) * c + ch
    if include_batch:
        flat = flat + np.arange(n)[:, None, None, None] * (h * w * c)
    return flat


def _depth_pooling(shape: tuple, ksize: tuple, strides: tuple, op: str) -> None:
    """PoolParameters' (pooling_ops_common.cc) refusals of a window over channels, UnimplementedError:
    not with a spatial window, dividing the depth, equal to its stride."""
    if ksize[3] == 1:
        return

    def refuse(text: str) -> errors.UnimplementedError:
        return errors.UnimplementedError(None, None, f"{text} [Op:{op}]")
    if ksize[1] != 1 or ksize[2] != 1:
        raise refuse("MaxPooling supports exactly one of pooling across depth or pooling across width/height.")
    if shape[3] % ksize[3]:
        raise refuse("Depthwise max pooling requires the depth window to evenly divide the input depth")
    if strides[3] != ksize[3]:
        raise refuse("Depthwise max pooling requires the depth window to equal the depth stride")


def _argmax_checks(shape: tuple, ksize: tuple, strides: tuple) -> None:
    """MaxPoolingWithArgmaxOp's checks in TF 2.21's order (maxpooling_op.cc), which a raw call
    reaches: its constructor's positive ksize entries and the batch refusal, then Compute's rank 4
    and PoolParameters' window over channels, then its windowed sizes (a stride of 0: "Stride must be
    > 0", MaxPoolShape's ValueError at trace; fuzz20 seeds 2620261201 #138, 2620261203 #140)."""
    op = "MaxPoolWithArgmax"
    for k in ksize:
        if k <= 0:
            raise errors.InvalidArgumentError(None, None, f"ksize must be a positive int32 value, got:{k} [Op:{op}]")
    if ksize[0] != 1 or strides[0] != 1:
        raise errors.UnimplementedError(None, None, f"Pooling is not yet supported on the batch dimension. [Op:{op}]")
    if len(shape) != 4:
        raise trace_errors.mark_shape(errors.InvalidArgumentError(
            None, None, f"tensor_in must be 4-dimensional (2) [Op:{op}]"),
            f"Shape must be rank 4 but is rank {len(shape)}", op, [list(shape)])
    _depth_pooling(shape, ksize, strides, op)


def _max_pool_argmax(x: np.ndarray, ksize: tuple, strides: tuple, padding: str, Targmax: str = "int64",  # noqa: N803
                     include_batch_in_index: bool = False) -> tuple[np.ndarray, np.ndarray]:
    _argmax_checks(x.shape, ksize, strides)
    k = (ksize[1], ksize[2])
    best, idx, out_hw, pads = _scan(x, None, k, strides, (1, 1, 1, 1), padding, True, "MaxPoolWithArgmax")
    flat = _flat_index(idx, k, out_hw, pads, strides, x.shape, include_batch_in_index)
    return best, flat.astype(np.int64 if Targmax == "int64" else np.int32)


def _max_pool_grad_argmax(x: np.ndarray, g: np.ndarray, argmax: np.ndarray, ksize: tuple, strides: tuple,
                          padding: str, include_batch_in_index: bool = False) -> np.ndarray:
    # (MaxPoolingGradWithArgmaxOp: its constructor's positive ksize and batch refusal, then
    # PoolParameters on the input, then grad's and argmax's shapes against the forward's output;
    # fuzz20 tape seed 2620261202 #178)
    op = "MaxPoolGradWithArgmax"
    if any(k <= 0 for k in ksize):
        raise errors.InvalidArgumentError(None, None, "Sliding window ksize must be positive. The specified or "
                                          f"inferred ksize is: {','.join(str(int(k)) for k in ksize)} [Op:{op}]")
    if ksize[0] != 1 or strides[0] != 1:
        raise errors.UnimplementedError(None, None, f"Pooling is not yet supported on the batch dimension. [Op:{op}]")
    if x.ndim != 4:   # (PoolParameters first: a raw call's input, rawfz21. The shape function's rank 4 at trace is
        # infer_ctx's, on the shapes the graph knows: an input_signature input of unknown rank traces, where this
        # kernel's stand-in of rank 1 was marked as the trace-time error; fz32a, sig seed 3220261211 #40)
        raise errors.InvalidArgumentError(None, None, f"tensor_in_shape must have 2 spatial dimensions. {x.ndim} 0 "
                                          f"[Op:{op}]")
    _depth_pooling(x.shape, ksize, strides, op)
    if ksize[3] == 1:
        out_hw, _ = window_geometry(x.shape[1:3], ksize[1:3], strides[1:3], (1, 1), padding, (), op)
        want = (x.shape[0], out_hw[0], out_hw[1], x.shape[3])
    else:   # (PoolParameters::forward_output_shape of a window over channels)
        want = (x.shape[0], x.shape[1], x.shape[2], x.shape[3] // ksize[3])
    for a, what in ((g, "grad"), (argmax, "argmax")):
        if tuple(a.shape) != want:
            raise errors.InvalidArgumentError(None, None, f"Expected {what} shape to be {args.dims(want)}, but got "
                                              f"{args.dims(a.shape)} [Op:{op}]")
    out = np.zeros(x.size, g.dtype)
    a = argmax.astype(np.int64)
    if not include_batch_in_index:
        a = a + (np.arange(x.shape[0]) * (x.size // max(x.shape[0], 1)))[:, None, None, None]
    np.add.at(out, a.reshape(-1), g.reshape(-1))
    return out.reshape(x.shape)


def _argmax_dtype(dts: Any, attrs: Any) -> tuple:
    d = typed("MaxPoolWithArgmax", REAL_NUMBERS)(dts, attrs)
    return d, dtypes.as_dtype(attrs.get("Targmax", "int64"))


def _pool_flops(arrays: Any, out: Any, attrs: Any) -> float:
    k = attrs["ksize"]
    return float(out[0].size * k[1] * k[2])


MAX_POOL_WITH_ARGMAX = register("MaxPoolWithArgmax", _max_pool_argmax, _argmax_dtype, _pool_flops, num_outputs=2,
                                kind="window", none_grad_ok=(1,),
                                fusion=lanes("its argmax indexes one lane's batch: no stacked form written"))


def _argmax_sees(shapes: list, attrs: dict | None) -> bool:
    """MaxPoolWithArgmax's shape function (MaxPoolShape): it finds a rank other than 4 only where the
    graph knows the rank, and a window error only where it knows the rows and columns; else the
    kernel raises it when the graph runs, InvalidArgumentError (an input_signature of unknown rank
    and a matrix: "tensor_in must be 4-dimensional"; fz28a, extra fresh seed 2820261206 #167)."""
    s = shapes[0]
    if s is None:
        return False
    return len(s) != 4 or all(d is not None for d in s[1:3])


MAX_POOL_WITH_ARGMAX.shape_fn = _argmax_sees
MAX_POOL_GRAD_WITH_ARGMAX = register("MaxPoolGradWithArgmax", _max_pool_grad_argmax,
                                     typed("MaxPoolGradWithArgmax", REAL_NUMBERS, inputs=(1,)),
                                     lambda a, out, at: float(a[1].size), kind="window",
                                     fusion=lanes("its argmax indexes one lane's batch: no stacked form written"))
no_tf_gradient("MaxPoolGradWithArgmax")


@RegisterGradient("MaxPoolWithArgmax")
def _max_pool_with_argmax_grad(op: Any, grad: Any, unused_argmax_grad: Any) -> list:
    attrs = {k: op.attrs[k] for k in ("ksize", "strides", "padding", "include_batch_in_index")}
    # (TF 2.21 registers MaxPoolGradWithArgmax for an int64 argmax only: the gradient of an int32 one finds no
    # kernel, NotFoundError eagerly; fz36a, tape seed 3620261220 #42)
    from simdist.runtime.ops import raw_rules
    raw_rules.check_kernel("MaxPoolGradWithArgmax", {"T": op.inputs[0].dtype, "Targmax": op.outputs[1].dtype})
    return [dispatch.execute(MAX_POOL_GRAD_WITH_ARGMAX, (op.inputs[0], grad, op.outputs[1]), attrs)]


def max_pool_with_argmax(input: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NHWC",  # noqa: A002
                         output_dtype: Any = dtypes.int64, include_batch_in_index: bool = False,
                         name: str | None = None) -> tuple[Tensor, Tensor]:
    """`tf.nn.max_pool_with_argmax` (NHWC): (max of each window, its flattened index), ksize and
    strides an int or a list of 1, 2 or 4."""
    _nhwc_only(data_format)
    # (nn_ops.max_pool_with_argmax_v2: ksize and strides through _get_sequence before the op converts anything)
    ks, st = spatial_sequence(ksize, 2, "ksize"), spatial_sequence(strides, 2, "strides")
    # (gen_nn_ops.max_pool_with_argmax, and eagerly its fallback: make_str(padding), make_type(Targmax),
    # make_bool(include_batch_in_index), TypeError before any input is converted; fz28b, fz14 seed
    # 1420282801 #87: include_batch_in_index=1)
    attr_rules.make_str(padding, "padding")
    idx = attr_rules.make_type(dtypes.int64 if output_dtype is None else output_dtype, "Targmax")
    include_batch_in_index = attr_rules.make_bool(include_batch_in_index, "include_batch_in_index")
    x = _t(input)
    MAX_POOL_WITH_ARGMAX.dtype((x.dtype,), {})   # (the op's T before its shape function and kernel)
    if idx.name not in ("int32", "int64"):
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'Targmax' of {idx.name} is not in the list of "
                                          "allowed values: int32, int64 [Op:MaxPoolWithArgmax]")
    pad = _padding(padding, "MaxPoolWithArgmax")   # (the OpDef's attrs before the kernel's and shape function's checks)
    for k in ks:   # (the kernel's constructor eagerly; TF 2.21's shape function checks it before the rank)
        if k <= 0:
            text = f"ksize must be a positive int32 value, got:{k}"
            raise trace_errors.static(errors.InvalidArgumentError(None, None, f"{text} [Op:MaxPoolWithArgmax]"),
                                      ValueError, text)
    batch = ks[0] != 1 or st[0] != 1
    if batch and x.ndim != 4 and not context.in_function():
        # (MaxPoolingWithArgmaxOp's constructor refuses a batch window or stride before Compute reads the rank:
        # eagerly a scalar input is this UnimplementedError; fz40, fourteenth generator seed 1420403002 #53)
        raise errors.UnimplementedError(None, None, "Pooling is not yet supported on the batch dimension. "
                                        "[Op:MaxPoolWithArgmax]")
    if x.ndim != 4 and context.in_function() and static_shapes.rank_unknown(x):
        # (a rank the graph does not know passes the shape function: the kernel refuses the value when the graph
        # runs, and a dry run goes on past it on stand-ins of the input's unknown rank, so a later op's build error
        # is the trace's; fz46, fz14 seed 1420463004 #129: then truediv(0, a float list)'s TypeError)
        err = errors.InvalidArgumentError(None, None, "input must be 4-dimensional [Op:MaxPoolWithArgmax]")
        y = dispatch.refused(err, x.dtype, x.shape.as_list(), pruned=True, like=x)
        a = dispatch.refused(err, idx, x.shape.as_list(), pruned=True, like=x)
        return named_outputs("MaxPoolWithArgmax", (y, a))
    if x.ndim != 4:
        raise trace_errors.shape_error("input must be 4-dimensional [Op:MaxPoolWithArgmax]",
                                       f"Shape must be rank 4 but is rank {x.ndim}", "MaxPoolWithArgmax",
                                       [x.shape.as_list()])
    attrs = {"ksize": ks, "strides": st, "padding": pad, "Targmax": idx.name,
             "include_batch_in_index": bool(include_batch_in_index)}
    if ks[0] != 1 or ks[3] != 1 or st[0] != 1 or st[3] != 1:
        # (traced: MaxPoolShape's windowed sizes first, ValueError "Negative dimension size caused by
        # subtracting 3 from 1"; the kernel's refusal when the graph runs; fz29b, fz14 seed 1420292902 #47)
        infer_ctx.check("MaxPoolWithArgmax", {"input": x}, attrs)
        raise errors.UnimplementedError(None, None, "Pooling is not yet supported on the batch dimension. "
                                        "[Op:MaxPoolWithArgmax]" if batch else "Pooling is not yet supported on "
                                        "the batch nor channel dimension. [Op:MaxPoolWithArgmax]")
    y, a = dispatch.execute(MAX_POOL_WITH_ARGMAX, (x,), attrs)
    return named_outputs("MaxPoolWithArgmax", (y, a))
