"""TF 2.21's own CPU Conv2D kernel, where oneDNN does not take the dtype (clause ops.fuzz-raw).

Conv2DOp<CPUDevice, T> (conv_ops_impl.h) runs every dtype on a CPU without oneDNN's features (this
project's AVX2 AMD host) and float64 (with float16 where the CPU lacks AVX512-FP16) everywhere. Its
Compute, in order: ComputeConv2DDimension (conv_ops.cc: both ranks 4, "convolution input must be
4-dimensional: [1,4]"; the filter's in-depth positive and dividing the input's; the windowed output
sizes), the output allocated in the data_format and returned as it is when it has no elements, zeros
when the input has none (an EXPLICIT padding's output), and only then the CPU launcher
(LaunchConv2DOp<CPUDevice>): NCHW refused (UnimplementedError), a filter of no elements refused, the
output depth a multiple of the groups. (oneDNN's kernel, conv.py's onednn_conv, keeps its own order.)
Observed on TF 2.21 (fuzz20 seed 3420261201 #191: a rank-2 float16 input with NCHW is the rank error,
not the layout's refusal).
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from simdist.runtime import errors

__all__ = ["channels_first", "dimensions", "early_output", "launch_checks", "to_nchw_explicit", "to_nhwc_explicit"]


def _dims(shape: Sequence[int]) -> str:
    return "[" + ",".join(str(int(d)) for d in shape) + "]"


def _bad(text: str, op: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{text} [Op:{op}]")


def to_nhwc_explicit(explicit: Sequence[int], nchw: bool) -> tuple[int, ...]:
    """explicit_paddings (pairs in the layout's dimension order) in NHWC order."""
    ex = tuple(int(v) for v in explicit)
    if not nchw or len(ex) != 8:
        return ex
    return ex[0:2] + ex[4:6] + ex[6:8] + ex[2:4]


def to_nchw_explicit(explicit_nhwc: Sequence[int]) -> tuple[int, ...]:
    """explicit_paddings in NHWC order -> NCHW order (to_nhwc_explicit's inverse)."""
    ex = tuple(int(v) for v in explicit_nhwc)
    return ex[0:2] + ex[6:8] + ex[2:4] + ex[4:6] if len(ex) == 8 else ex


def dimensions(x_shape: Sequence[int], f_shape: Sequence[int], strides: Sequence[int], dilations: Sequence[int],
               padding: str, explicit: Sequence[int], nchw: bool, op: str = "Conv2D") -> list[int]:
    """ComputeConv2DDimension's checks in its order; the output's shape in the layout. `strides` and
    `dilations` are in the layout's order, as the attrs give them, `explicit` in NHWC order."""
    from simdist.runtime.ops.conv import window_geometry
    if len(x_shape) != 4:
        raise _bad(f"convolution input must be 4-dimensional: {_dims(x_shape)}", op)
    if len(f_shape) != 4:
        raise _bad(f"convolution filter must be 4-dimensional: {_dims(f_shape)}", op)
    n, c, h, w = (x_shape[0], x_shape[1], x_shape[2], x_shape[3]) if nchw else \
        (x_shape[0], x_shape[3], x_shape[1], x_shape[2])
    kh, kw, fin, cout = f_shape
    if fin <= 0:
        raise _bad(f"filter depth must be stricly positive, got {fin}", op)
    if c % fin:
        raise _bad(f"input depth must be evenly divisible by filter depth: {c} vs {fin}", op)
    sp = (2, 3) if nchw else (1, 2)
    (oh, ow), _ = window_geometry((h, w), (kh, kw), [strides[i] for i in sp], [dilations[i] for i in sp], padding,
                                  tuple(explicit), op)
    return [n, cout, oh, ow] if nchw else [n, oh, ow, cout]


def early_output(x_shape: Sequence[int], out_shape: Sequence[int], dtype: np.dtype) -> np.ndarray | None:
    """The output Compute returns before the launcher: an output of no elements, or zeros for an
    input of none; None when the launcher runs."""
    if int(np.prod(out_shape)) == 0 or int(np.prod(x_shape)) == 0:
        return np.zeros(tuple(out_shape), dtype)
    return None


def launch_checks(x_shape: Sequence[int], f_shape: Sequence[int], nchw: bool, op: str = "Conv2D") -> int:
    """LaunchConv2DOp<CPUDevice>'s refusals, in its order; the number of groups."""
    if nchw:
        raise errors.UnimplementedError(None, None, "The Conv2D op currently only supports the NHWC tensor format on "
                                                    f"the CPU. The op was given the format: NCHW [Op:{op}]")
    if int(np.prod(f_shape)) <= 0:
        raise _bad("filter must not have zero elements (i.e. all dimensions must be non-zero)", op)
    groups = int(x_shape[3]) // int(f_shape[2])
    cout = int(f_shape[3])
    if cout % groups or cout < groups:
        raise _bad(f"output depth must be evenly divisible by number of groups: {cout} vs {groups}", op)
    return groups


def _graph_backprop_refusal(x: Any, f: Any, op: str) -> BaseException | None:
    """Inside a tf.function whose own GradientTape records this NCHW Conv2D (Keras's train step of a channels-first
    Conv1D/Conv2D), the error TF's call raises: the gradient's Conv2DBackpropFilter (Conv2DBackpropInput where the
    tape watches only the input) refuses NCHW in its kernel's constructor, which TF runs when it instantiates the
    graph, before the forward's launcher refuses the layout in Compute (observed on the AVX2 host: fit of
    Conv2D(data_format="channels_first") is InvalidArgumentError "Conv2DCustomBackpropFilterOp only supports NHWC.",
    predict the forward's UnimplementedError; open52). None elsewhere (eagerly the forward runs first; a tape
    outside the function differentiates another graph)."""
    from simdist.runtime import context, execution
    if op != "Conv2D" or not context._function_depth:
        return None
    own = [t for t in execution.current().tapes
           if getattr(t, "function_depth", 0) == context._function_depth and hasattr(t, "should_record")]
    if any(t.should_record([f]) for t in own):
        return errors.InvalidArgumentError(None, None, "Conv2DCustomBackpropFilterOp only supports NHWC. "
                                                       "[Op:Conv2DBackpropFilter]")
    if any(t.should_record([x]) for t in own):
        return errors.InvalidArgumentError(None, None, "Conv2DCustomBackpropInputOp only supports NHWC. "
                                                       "[Op:Conv2DBackpropInput]")
    return None


def channels_first(x: Any, f: Any, strides: Sequence[int], padding: str, explicit_nhwc: Sequence[int],
                   dilations: Sequence[int], op: str = "Conv2D") -> Any:
    """An NCHW Conv2D on TF's own kernel (x and f tensors; strides and dilations in NCHW order, the
    explicit paddings in NHWC order): its checks, then the output it returns before the launcher
    refuses the layout (its dtype's zeros, NCHW). Under a tape its gradient is TF's _Conv2DGrad,
    the NCHW backprops, which TF's own kernels refuse in turn."""
    from simdist.runtime import execution
    from simdist.runtime.ops import array
    out_shape = dimensions(x.shape.as_list(), f.shape.as_list(), strides, dilations, padding, explicit_nhwc, True, op)
    if early_output(x.shape.as_list(), out_shape, np.float32) is None:
        try:
            launch_checks(x.shape.as_list(), f.shape.as_list(), True, op)
        except errors.UnimplementedError as err:   # (the layout's refusal: pruned where nothing uses it)
            from simdist.runtime.ops import dispatch
            own = _graph_backprop_refusal(x, f, op)
            if own is not None:
                raise own from None
            return dispatch.layout_refused(err, x.dtype, out_shape, [x, f])
    out = array.zeros(out_shape, x.dtype)
    c = execution.current()
    if not c.tapes and c.aside is None:
        return out
    from simdist.runtime.autodiff.tape import record_operation
    from simdist.runtime.ops import raw_ops
    attrs = dict(strides=list(strides), padding=padding, explicit_paddings=list(to_nchw_explicit(explicit_nhwc)),
                 data_format="NCHW",
                 dilations=list(dilations))

    def backward(grad: Any) -> list:
        return [raw_ops.function("Conv2DBackpropInput")(input_sizes=x.shape.as_list(), filter=f, out_backprop=grad,
                                                        **attrs),
                raw_ops.function("Conv2DBackpropFilter")(input=x, filter_sizes=f.shape.as_list(), out_backprop=grad,
                                                         **attrs)]
    copy = array.identity(out)
    record_operation(op, [copy], [x, f], backward)
    return copy
