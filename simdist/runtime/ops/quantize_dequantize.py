"""TF 2.21's simulated quantization of float tensors: QuantizeAndDequantizeV2/V3/V4 and V4's gradient
(tensorflow/core/kernels/quantize_and_dequantize_op.{h,cc}; clause ops.quantize-dequantize).

Each slice (the whole tensor, or one index of `axis`) gets a range [min, max]: the given one, or the
slice's own minimum and maximum. ComputeQuantizationRange turns it into a scale that maps the range
into the integer grid [qmin, qmax] (signed: [-2^(b-1), 2^(b-1) - 1], the low end + 1 with
narrow_range; unsigned: [0, 2^b - 1]) keeping 0 fixed: scale_from_min = qmin / min when qmin * min > 0,
scale_from_max = qmax / max when qmax * max > 0 (each else the type's largest value); the smaller
scale wins and moves the other end of the range (inverse_scale = min / qmin or max / qmax). The
output is round(x * scale) * inverse_scale in the input's type, x first clamped to the (moved) range
when the range was given; round is half to even (Eigen's scalar_round_half_to_even_op) or half up
(floor(x + 0.5)). V4's gradient passes the upstream gradient where min <= x <= max for the min and
max *given as inputs*, also when range_given is False (TF's _QuantizeAndDequantizeV4Grad reads
op.inputs), as gradient * select(in range, 1, 0): a NaN or inf gradient outside the range is NaN.

The kernels' argument checks run in TF 2.21's order, as observed (the 2.21 kernel has checks the
published source of earlier releases lacks): V2/V4 with range_given check that min and max are
scalars before the axis, so a per-channel range can never be given to them on CPU. Where TF 2.21's
kernel fails a CHECK and aborts the process (V3 with axis below -1, or a given range of several
elements with axis -1), simdist raises InvalidArgumentError instead.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import errors
from simdist.runtime.ops import args, dispatch, infer_ctx
from simdist.runtime.ops.number_text import six_digits
from simdist.runtime.ops.registry import RegisterGradient, lanes, register

__all__ = ["QDQ_V2", "QDQ_V3", "QDQ_V4", "QDQ_V4_GRAD"]

_PER_LANE = lanes("the range comes from each lane's own minimum and maximum")
_ALLOWED = "bfloat16, half, float, double"


def _fail(op: str, text: str) -> None:
    raise errors.InvalidArgumentError(None, None, f"{text} [Op:{op}]")


def _quant_range(signed_input: bool, num_bits: int, narrow_range: bool) -> tuple[int, int]:
    if signed_input:
        return (-(1 << (num_bits - 1)) + (1 if narrow_range else 0)), (1 << (num_bits - 1)) - 1
    return 0, (1 << num_bits) - 1


def _scales(mn: Any, mx: Any, qmin: int, qmax: int) -> tuple[Any, Any, Any, Any]:
    """ComputeQuantizationRange in the range's type T: (min, max, scale, inverse_scale), the end
    that does not set the scale moved onto the grid."""
    t = type(mn)
    big = t(np.finfo(t).max)
    q_lo, q_hi = t(qmin), t(qmax)   # (int64 -> T, as C++'s usual conversions)
    from_min = t(q_lo / mn) if q_lo * mn > 0 else big
    from_max = t(q_hi / mx) if q_hi * mx > 0 else big
    if from_min < from_max:
        inv = t(mn / q_lo)
        return mn, t(q_hi * inv), from_min, inv
    inv = t(mx / q_hi)
    return t(q_lo * inv), mx, from_max, inv


def _round(v: np.ndarray, half_up: bool) -> np.ndarray:
    return np.floor(v + v.dtype.type(0.5)) if half_up else np.rint(v)


def _one_slice(x: np.ndarray, mn: Any, mx: Any, given: bool, q: tuple[int, int], half_up: bool) -> np.ndarray:
    lo, hi, scale, inv = _scales(mn, mx, *q)
    if given:   # (cwiseMin(max), then cwiseMax(min): a NaN stays NaN; min wins when the range is inverted)
        x = np.where(x > hi, hi, x).astype(x.dtype, copy=False)
        x = np.where(x < lo, lo, x).astype(x.dtype, copy=False)
    return (_round(x * scale, half_up) * inv).astype(x.dtype, copy=False)


def _own_range(x: np.ndarray) -> tuple[Any, Any]:
    """The slice's minimum and maximum (Eigen's reducers; NaN ignored, as observed on TF 2.21 for
    a NaN beside other values: not modelled by position; an empty slice gives +inf and -inf)."""
    t = x.dtype.type
    if x.size == 0 or np.isnan(x).all():
        return t(np.inf), t(-np.inf)
    return t(np.nanmin(x)), t(np.nanmax(x))


def _quantize(op: str, x: np.ndarray, mn: np.ndarray, mx: np.ndarray, signed_input: bool, num_bits: int,
              range_given: bool, half_up: bool, narrow_range: bool, axis: int) -> np.ndarray:
    """The functors: one scale, or one per index of `axis`."""
    q = _quant_range(signed_input, num_bits, narrow_range)
    t = x.dtype.type
    with np.errstate(all="ignore"):
        if axis == -1:
            lo, hi = (t(mn.reshape(-1)[0]), t(mx.reshape(-1)[0])) if range_given else _own_range(x)
            return _one_slice(x, lo, hi, range_given, q, half_up)
        out = np.empty_like(x)
        for i in range(x.shape[axis]):
            sl = (slice(None),) * axis + (i,)
            lo, hi = (t(mn[i]), t(mx[i])) if range_given else _own_range(x[sl])
            out[sl] = _one_slice(x[sl], lo, hi, range_given, q, half_up)
        return out


def _check_bits(op: str, num_bits: int, signed_input: bool, quote: str = "") -> None:
    if not 0 < num_bits < (62 if signed_input else 63):
        _fail(op, f"num_bits is out of range: {num_bits} with {quote}signed_input_{quote} {int(signed_input)}")


def _v2_forward(op: str) -> Any:
    """QuantizeAndDequantizeV2Op (the kernel of V2 and V4), its checks in TF 2.21's order."""
    def forward(input: np.ndarray, input_min: np.ndarray, input_max: np.ndarray, signed_input: bool = True,  # noqa: A002
                num_bits: int = 8, range_given: bool = False, round_mode: str = "HALF_TO_EVEN",
                narrow_range: bool = False, axis: int = -1) -> np.ndarray:
        _check_bits(op, num_bits, signed_input)   # (the kernel's constructor)
        if axis < -1:
            _fail(op, f"Axis must be at least -1. Found {axis}")
        if axis != -1 and axis >= input.ndim:
            _fail(op, f"Shape must be at least rank {axis + 1} but is rank {input.ndim}")
        if range_given:
            if input_min.ndim != 0:
                _fail(op, "input_min must be a scalar.")
            if input_max.ndim != 0:
                _fail(op, "input_max must be a scalar.")
            if axis != -1:
                _fail(op, "Shape must be rank 1 for input_min_tensor when the axis is specified")
            if not input_min <= input_max:
                _fail(op, f"Invalid range: input_min {six_digits(input_min)} > input_max {six_digits(input_max)}")
        return _quantize(op, input, input_min, input_max, signed_input, num_bits, range_given,
                         round_mode == "HALF_UP", narrow_range, axis)
    return forward


def _v3_forward(input: np.ndarray, input_min: np.ndarray, input_max: np.ndarray, num_bits: np.ndarray,  # noqa: A002
                signed_input: bool = True, range_given: bool = True, narrow_range: bool = False,
                axis: int = -1) -> np.ndarray:
    """QuantizeAndDequantizeV3Op: num_bits a tensor, rounding half to even."""
    op = "QuantizeAndDequantizeV3"
    if not -input.ndim <= axis < input.ndim:
        _fail(op, f"Axis requested is larger than input dimensions. Axis: {axis} Input Dimensions: {input.ndim}")
    if axis < -1:   # (TF 2.21 aborts the process: TensorShape::dim_size's CHECK d >= 0)
        _fail(op, f"axis {axis} is below -1 (TF 2.21's kernel aborts the process: Check failed: d >= 0)")
    if num_bits.ndim != 0:
        _fail(op, f"Invalid shape. The `num_bits` tensor should be a scalar. Got dimensions: {num_bits.ndim}")
    bits = int(num_bits)
    _check_bits(op, bits, signed_input, "`")
    if range_given:
        if axis == -1:
            for what, v in (("input_min", input_min), ("input_max", input_max)):
                if v.size != 1:   # (TF 2.21 aborts the process: Tensor::scalar's one-element CHECK)
                    _fail(op, f"{what} holds {v.size} elements (TF 2.21's kernel aborts the process: Check failed: "
                              f"1 == NumElements())")
            lo, hi = input_min.reshape(-1)[0], input_max.reshape(-1)[0]
            if not lo <= hi:
                _fail(op, f"Invalid range: input_min {six_digits(lo)} > input_max {six_digits(hi)}")
        else:
            for what, v in (("input_min", input_min), ("input_max", input_max)):
                if v.ndim != 1:
                    _fail(op, f"Shape must be rank 1 for {what}_tensor when the axis is specified")
            depth = input.shape[axis]
            for what, v in (("input_min", input_min), ("input_max", input_max)):
                if v.shape[0] != depth:
                    _fail(op, f"{what}_tensor has incorrect size, was {v.shape[0]} expected {depth} to match dim "
                              f"{axis} of the input [{v.shape[0]}]")
    return _quantize(op, input, input_min, input_max, signed_input, bits, range_given, False, narrow_range, axis)


def _v4_grad_forward(gradients: np.ndarray, input: np.ndarray, input_min: np.ndarray,  # noqa: A002
                     input_max: np.ndarray, axis: int = -1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """QuantizeAndDequantizeV4GradientOp: (gradient where min <= x <= max, zeros, zeros)."""
    op = "QuantizeAndDequantizeV4Grad"
    if axis < -1:
        _fail(op, f"Axis must be at least -1. Found {axis}")
    if axis != -1 and axis >= input.ndim:
        _fail(op, f"Axis should be -1 or 0 or a positive value less than {input.ndim}but given axis value was {axis}")
    if gradients.shape != input.shape:
        _fail(op, "gradient and input must be the same size")
    for what, v in (("min", input_min), ("max", input_max)):
        if v.ndim not in (0, 1):
            _fail(op, f"Input {what} tensor must have dimension 0 or 1. Received {v.ndim}.")
    if axis != -1:
        for what, v in (("input_min", input_min), ("input_max", input_max)):
            if v.ndim != 1:
                _fail(op, f"Shape must be rank 1 for {what}_tensor when the axis is specified")
        depth = input.shape[axis]
        for what, v in (("min", input_min), ("max", input_max)):
            if v.shape[0] != depth:
                _fail(op, f"{what} has incorrect size, expected {depth} was {v.shape[0]}")
        shape = [1] * input.ndim
        shape[axis] = depth
        lo, hi = input_min.reshape(shape), input_max.reshape(shape)
    else:
        for what, v in (("input_min", input_min), ("input_max", input_max)):
            if v.ndim != 0:
                _fail(op, f"{what} must be a scalar if axis is unspecified")
        lo, hi = input_min, input_max
    one, zero = input.dtype.type(1), input.dtype.type(0)
    with np.errstate(invalid="ignore"):
        backprop = (gradients * np.where((input >= lo) & (input <= hi), one, zero)).astype(input.dtype, copy=False)
    return backprop, np.zeros_like(input_min), np.zeros_like(input_max)


def _flops(arrays: Any, out: Any, attrs: Any) -> float:
    """About five operations per element (clamp, scale, round, rescale), two more for a computed range."""
    return 5.0 * arrays[0].size


def _grad_flops(arrays: Any, outs: Any, attrs: Any) -> float:
    return 2.0 * arrays[0].size


def _dtype(name: str, n: int) -> Any:
    """T over the first `n` inputs (V3's fourth is num_bits: int32)."""
    rule = args.allowed(name, "f", _ALLOWED)

    def dtype(dts: Any, attrs: Any) -> Any:
        return rule(tuple(dts)[:n], attrs)
    return dtype


def _three(name: str) -> Any:
    rule = args.allowed(name, "f", _ALLOWED)
    return lambda dts, attrs: (rule(dts, attrs),) * 3


QDQ_V2 = register("QuantizeAndDequantizeV2", _v2_forward("QuantizeAndDequantizeV2"),
                  _dtype("QuantizeAndDequantizeV2", 3), _flops, kind="nn", fusion=_PER_LANE)
QDQ_V4 = register("QuantizeAndDequantizeV4", _v2_forward("QuantizeAndDequantizeV4"),
                  _dtype("QuantizeAndDequantizeV4", 3), _flops, kind="nn", fusion=_PER_LANE)
QDQ_V3 = register("QuantizeAndDequantizeV3", _v3_forward, _dtype("QuantizeAndDequantizeV3", 3), _flops,
                  kind="nn", fusion=_PER_LANE)
QDQ_V4_GRAD = register("QuantizeAndDequantizeV4Grad", _v4_grad_forward, _three("QuantizeAndDequantizeV4Grad"),
                       _grad_flops, num_outputs=3, kind="nn", fusion=_PER_LANE)
for _op in (QDQ_V2, QDQ_V3, QDQ_V4, QDQ_V4_GRAD):   # (TF's shape function, at trace: one transcription, below)
    _op.trace_shape = infer_ctx.trace_shape(_op.name)


@RegisterGradient("QuantizeAndDequantizeV2")
def _QuantizeAndDequantizeV2Grad(op: Any, grad: Any) -> list:  # noqa: N802 - TF's name
    """array_grad.py: the gradient passes straight through (the V1 behaviour)."""
    return [grad, None, None]


@RegisterGradient("QuantizeAndDequantizeV3")
def _QuantizeAndDequantizeV3Grad(op: Any, grad: Any) -> list:  # noqa: N802 - TF's name
    """array_grad.py: straight through to the input only."""
    return [grad, None, None, None]


@RegisterGradient("QuantizeAndDequantizeV4")
def _QuantizeAndDequantizeV4Grad(op: Any, grad: Any) -> list:  # noqa: N802 - TF's name
    """array_ops.py: the V4Grad op on the op's own input, min and max (given or not)."""
    return list(dispatch.execute(QDQ_V4_GRAD, (grad, op.inputs[0], op.inputs[1], op.inputs[2]),
                                 {"axis": op.get_attr("axis")}))


@RegisterGradient("QuantizeAndDequantizeV4Grad")
def _QuantizeAndDequantizeV4GradGrad(op: Any, grad: Any) -> list:  # noqa: N802 - TF's name
    """array_ops.py registers this with one gradient argument for an op of three outputs: TF 2.21's
    tape calls it with three, a TypeError ("takes 2 positional arguments but 4 were given")."""
    return _QuantizeAndDequantizeV4Grad(op, grad)
