"""tf.quantization's fake quantization (TF 2.21's FakeQuantWithMinMaxArgs, FakeQuantWithMinMaxVars,
FakeQuantWithMinMaxVarsPerChannel and their *Gradient ops), as tensorflow/core/kernels/
fake_quant_ops_functor.h computes them in float32 (clause ops.fake-quant).

Nudge(min, max, quant_min, quant_max): scale = (max - min) / (qmax - qmin), inv_scale =
(qmax - qmin) / (max - min), zero point qmin - min / scale clamped to [qmin, qmax] and rounded half
away from zero (std::round; a NaN one, of an infinite min, is 0 as x86 converts it), nudged_min = (qmin - zp) * scale, nudged_max = (qmax - zp) * scale;
qmin is 1 with narrow_range, else 0, qmax 2^num_bits - 1. The output is
floor((clamp(x) - nudged_min) * inv_scale - quant_zero + 0.5) * scale with quant_zero =
floor(-nudged_min * inv_scale + 0.5) (the Vars op divides by scale instead of multiplying by
inv_scale); a min and max both 0 give zeros (the Vars ops). The gradient passes where
nudged_min <= x <= nudged_max; the Vars gradients give min the sum of the gradient below the range
and max the sum above it (Eigen's sum order, sum_order.py).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch
from simdist.runtime.ops.number_text import six_digits
from simdist.runtime.ops.registry import NotDifferentiable, RegisterGradient, lanes, register
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["fake_quant_with_min_max_args", "fake_quant_with_min_max_args_gradient", "fake_quant_with_min_max_vars",
           "fake_quant_with_min_max_vars_gradient", "fake_quant_with_min_max_vars_per_channel",
           "fake_quant_with_min_max_vars_per_channel_gradient"]

_F = np.float32
_PER_LANE = lanes("the nudged range comes from each lane's own min and max")


def _round_half_away(v: np.float32) -> np.float32:
    """std::round on a float."""
    r = np.trunc(v)
    return _F(r + np.sign(v)) if abs(v - r) >= _F(0.5) else _F(r)


def _quant_range(num_bits: int, narrow_range: bool) -> tuple[int, int]:
    return (1 if narrow_range else 0), (1 << num_bits) - 1


def nudge(mn: float, mx: float, quant_min: int, quant_max: int) -> tuple[np.float32, np.float32, np.float32, np.float32]:
    """Nudge (fake_quant_ops_functor.h): (nudged_min, nudged_max, scale, inv_scale), in float32."""
    qmin, qmax, mn, mx = _F(quant_min), _F(quant_max), _F(mn), _F(mx)
    with np.errstate(all="ignore"):
        scale = _F((mx - mn) / (qmax - qmin))
        inv_scale = _F((qmax - qmin) / (mx - mn))
        zp_from_min = _F(qmin - _F(mn / scale))
    if zp_from_min < qmin:
        zp = qmin
    elif zp_from_min > qmax:
        zp = qmax
    elif np.isnan(zp_from_min):   # (static_cast<uint16>(std::round(NaN)): x86's cvttss2si gives the "integer
        # indefinite" 0x80000000, whose low 16 bits are 0, with narrow_range too: an infinite min makes the nudged
        # range (NaN or +-inf, +-inf), observed on TF 2.21; fz39a, tape seed 3920261205 #197)
        zp = _F(0)
    else:
        zp = _round_half_away(zp_from_min)
    with np.errstate(all="ignore"):
        return _F((qmin - zp) * scale), _F((qmax - zp) * scale), scale, inv_scale


def _quantize(x: np.ndarray, mn: float, mx: float, quant_min: int, quant_max: int, divide: bool) -> np.ndarray:
    """One range's fake quantization of x (float32), the functor's expression step by step."""
    if _F(mn) == 0 and _F(mx) == 0:   # (the Vars functors; the Args op refuses min >= max first)
        return np.zeros_like(x)
    lo, hi, scale, inv = nudge(mn, mx, quant_min, quant_max)
    with np.errstate(all="ignore"):
        quant_zero = np.floor(_F(-lo * inv) + _F(0.5))
        shifted = np.maximum(np.minimum(x, hi), lo) - lo
        q = shifted / scale if divide else shifted * inv
        return (np.floor((q - quant_zero) + _F(0.5)) * scale).astype(_F, copy=False)


def _check_bits(op: str, num_bits: int) -> None:
    if not 2 <= num_bits <= 16:
        raise errors.InvalidArgumentError(None, None, f"num_bits must be between 2 and 16, inclusive [Op:{op}]")


def _args_forward(inputs: np.ndarray, min: float = -6.0, max: float = 6.0, num_bits: int = 8,  # noqa: A002
                  narrow_range: bool = False) -> np.ndarray:
    _check_bits("FakeQuantWithMinMaxArgs", num_bits)
    if not min < max:
        raise errors.InvalidArgumentError(None, None, f"min has to be smaller than max, was: {six_digits(_F(min))} >= "
                                          f"{six_digits(_F(max))} [Op:FakeQuantWithMinMaxArgs]")
    return _quantize(inputs, min, max, *_quant_range(num_bits, narrow_range), divide=False)


def _pass_mask(x: np.ndarray, lo: np.float32, hi: np.float32) -> np.ndarray:
    return ((x >= lo) & (x <= hi)).astype(_F)


def _args_grad_forward(gradients: np.ndarray, inputs: np.ndarray, min: float = -6.0, max: float = 6.0,  # noqa: A002
                       num_bits: int = 8, narrow_range: bool = False) -> np.ndarray:
    _check_bits("FakeQuantWithMinMaxArgsGradient", num_bits)
    if not min < max:
        raise errors.InvalidArgumentError(None, None, f"min has to be smaller than max, was: {six_digits(_F(min))} >= "
                                          f"{six_digits(_F(max))} [Op:FakeQuantWithMinMaxArgsGradient]")
    if gradients.shape != inputs.shape:   # (BinaryElementWiseOp's ValidateInputsAreSameShape, after the
        # constructor's checks; fuzz20 seed 3020261201 #220)
        dims = ["[" + ",".join(str(d) for d in a.shape) + "]" for a in (gradients, inputs)]
        raise errors.InvalidArgumentError(None, None, "Inputs to operation FakeQuantWithMinMaxArgsGradient of type "
                                          "FakeQuantWithMinMaxArgsGradient must have the same size and shape.  "
                                          f"Input 0: {dims[0]} != input 1: {dims[1]} [Op:FakeQuantWithMinMaxArgsGradient]")
    lo, hi, _, _ = nudge(min, max, *_quant_range(num_bits, narrow_range))
    return gradients * _pass_mask(inputs, lo, hi)


def _vars_checks(op: str, inputs: np.ndarray, mn: np.ndarray, mx: np.ndarray, num_bits: int, per_channel: bool) -> None:
    _check_bits(op, num_bits)
    if per_channel:
        depth = inputs.shape[-1] if inputs.ndim else None
        for what, v in (("min", mn), ("max", mx)):
            if v.ndim != 1:
                raise errors.InvalidArgumentError(None, None, f"`{what}` must be rank 1 but is rank {v.ndim} [Op:{op}]")
        if depth is None:   # (TF 2.21's kernel aborts the process: TensorShape's dim_size check)
            raise errors.InvalidArgumentError(None, None, f"inputs must be at least rank 1 [Op:{op}]")
        for what, v in (("min", mn), ("max", mx)):
            if v.shape[0] != depth:
                raise errors.InvalidArgumentError(None, None, f"{what} has incorrect size, expected {depth} was "
                                                  f"{v.shape[0]} [Op:{op}]")
        return
    for what, v in (("min", mn), ("max", mx)):
        if v.ndim != 0:
            raise errors.InvalidArgumentError(None, None, f"`{what}` must be rank 0 but is rank {v.ndim} [Op:{op}]")


def _vars_forward(inputs: np.ndarray, min: np.ndarray, max: np.ndarray, num_bits: int = 8,  # noqa: A002
                  narrow_range: bool = False) -> np.ndarray:
    _vars_checks("FakeQuantWithMinMaxVars", inputs, min, max, num_bits, False)
    return _quantize(inputs, float(min), float(max), *_quant_range(num_bits, narrow_range), divide=True)


def _per_channel_forward(inputs: np.ndarray, min: np.ndarray, max: np.ndarray, num_bits: int = 8,  # noqa: A002
                         narrow_range: bool = False) -> np.ndarray:
    _vars_checks("FakeQuantWithMinMaxVarsPerChannel", inputs, min, max, num_bits, True)
    q = _quant_range(num_bits, narrow_range)
    out = np.empty_like(inputs)
    for i in range(min.shape[0]):
        out[..., i] = _quantize(inputs[..., i], float(min[i]), float(max[i]), *q, divide=False)
    return out


def _grads(g: np.ndarray, x: np.ndarray, mn: float, mx: float, q: tuple[int, int]) -> tuple[np.ndarray, Any, Any]:
    """(backprop to x, to min, to max) for one range (the functor's selects, Eigen's sums)."""
    from simdist.runtime.ops.sum_order import eigen_order_sum
    if _F(mn) == 0 and _F(mx) == 0:
        return g.copy(), _F(0), _F(0)
    lo, hi, _, _ = nudge(mn, mx, *q)
    below, above = (x < lo).astype(_F), (x > hi).astype(_F)

    def total(a: np.ndarray) -> np.float32:
        flat = np.ascontiguousarray(a).reshape(-1)
        s = eigen_order_sum(flat, None, False)   # (None for one element: the reducer's 0 + x)
        return _F(np.add.reduce(flat, initial=_F(0)) if s is None else s)
    return g * _pass_mask(x, lo, hi), total(g * below), total(g * above)


def _vars_grad_forward(gradients: np.ndarray, inputs: np.ndarray, min: np.ndarray, max: np.ndarray,  # noqa: A002
                       num_bits: int = 8, narrow_range: bool = False) -> tuple[np.ndarray, ...]:
    op = "FakeQuantWithMinMaxVarsGradient"
    if gradients.shape != inputs.shape:
        raise errors.InvalidArgumentError(None, None, f"gradient and input must be the same size [Op:{op}]")
    _vars_checks(op, inputs, min, max, num_bits, False)
    dx, dmin, dmax = _grads(gradients, inputs, float(min), float(max), _quant_range(num_bits, narrow_range))
    return dx, np.asarray(dmin, _F), np.asarray(dmax, _F)


def _per_channel_grad_forward(gradients: np.ndarray, inputs: np.ndarray, min: np.ndarray, max: np.ndarray,  # noqa: A002
                              num_bits: int = 8, narrow_range: bool = False) -> tuple[np.ndarray, ...]:
    op = "FakeQuantWithMinMaxVarsPerChannelGradient"
    if gradients.shape != inputs.shape:
        raise errors.InvalidArgumentError(None, None, f"gradient and input must be the same size [Op:{op}]")
    _vars_checks(op, inputs, min, max, num_bits, True)
    q = _quant_range(num_bits, narrow_range)
    dx = np.empty_like(inputs)
    dmin, dmax = np.empty(min.shape, _F), np.empty(max.shape, _F)
    for i in range(min.shape[0]):
        dx[..., i], dmin[i], dmax[i] = _grads(gradients[..., i], inputs[..., i], float(min[i]), float(max[i]), q)
    return dx, dmin, dmax


def _float32_only(op: str) -> Any:
    def rule(dts: Any, attrs: Any) -> Any:
        for d in dts:
            if d != dtypes.float32:
                raise errors.InvalidArgumentError(None, None, f"cannot compute {op} as input #{list(dts).index(d)}"
                                                  f"(zero-based) was expected to be a float tensor but is a "
                                                  f"{d.name} tensor [Op:{op}]")
        return dtypes.float32
    return rule


def _three(op: str) -> Any:
    base = _float32_only(op)
    return lambda dts, attrs: (base(dts, attrs),) * 3


def _flops(arrays: Any, out: Any, attrs: Any) -> float:
    """About six float operations per element (clamp, shift, scale, round, rescale)."""
    return 6.0 * arrays[0].size


def _grad_flops(arrays: Any, out: Any, attrs: Any) -> float:
    return 3.0 * arrays[0].size


ARGS = register("FakeQuantWithMinMaxArgs", _args_forward, _float32_only("FakeQuantWithMinMaxArgs"), _flops,
                kind="elementwise")
ARGS_GRAD = register("FakeQuantWithMinMaxArgsGradient", _args_grad_forward,
                     _float32_only("FakeQuantWithMinMaxArgsGradient"), _grad_flops, kind="elementwise")
VARS = register("FakeQuantWithMinMaxVars", _vars_forward, _float32_only("FakeQuantWithMinMaxVars"), _flops,
                kind="nn", fusion=_PER_LANE)
VARS_GRAD = register("FakeQuantWithMinMaxVarsGradient", _vars_grad_forward,
                     _three("FakeQuantWithMinMaxVarsGradient"), _grad_flops, num_outputs=3, kind="nn",
                     fusion=_PER_LANE)
PER_CHANNEL = register("FakeQuantWithMinMaxVarsPerChannel", _per_channel_forward,
                       _float32_only("FakeQuantWithMinMaxVarsPerChannel"), _flops, kind="nn", fusion=_PER_LANE)
PER_CHANNEL_GRAD = register("FakeQuantWithMinMaxVarsPerChannelGradient", _per_channel_grad_forward,
                            _three("FakeQuantWithMinMaxVarsPerChannelGradient"), _grad_flops, num_outputs=3,
                            kind="nn", fusion=_PER_LANE)
for _name in ("FakeQuantWithMinMaxArgsGradient", "FakeQuantWithMinMaxVarsGradient",
              "FakeQuantWithMinMaxVarsPerChannelGradient"):
    NotDifferentiable(_name)   # (TF 2.21's registry holds None for them: the tape's gradient is None; observed, fz27a)


def _attrs(num_bits: Any, narrow_range: Any, **floats: Any) -> dict:
    """The op's attrs as TF's execute.make_* take them: float attrs are 32-bit."""
    out: dict = {k: float(_F(v)) for k, v in floats.items()}
    out.update(num_bits=int(num_bits), narrow_range=bool(narrow_range))
    return out


def _f32(x: Any) -> Tensor:
    return convert_to_tensor(x, dtype=dtypes.float32)


def fake_quant_with_min_max_args(inputs: Any, min: float = -6, max: float = 6, num_bits: int = 8,  # noqa: A002
                                 narrow_range: bool = False, name: str | None = None) -> Tensor:
    """`tf.quantization.fake_quant_with_min_max_args`: inputs quantized to the nudged [min, max] grid."""
    return dispatch.execute(ARGS, (_f32(inputs),), _attrs(num_bits, narrow_range, min=min, max=max))


def fake_quant_with_min_max_args_gradient(gradients: Any, inputs: Any, min: float = -6, max: float = 6,  # noqa: A002
                                          num_bits: int = 8, narrow_range: bool = False,
                                          name: str | None = None) -> Tensor:
    """`tf.quantization.fake_quant_with_min_max_args_gradient`: gradients where inputs lie in the range."""
    return dispatch.execute(ARGS_GRAD, (_f32(gradients), _f32(inputs)),
                            _attrs(num_bits, narrow_range, min=min, max=max))


def fake_quant_with_min_max_vars(inputs: Any, min: Any, max: Any, num_bits: int = 8,  # noqa: A002
                                 narrow_range: bool = False, name: str | None = None) -> Tensor:
    """`tf.quantization.fake_quant_with_min_max_vars`: as _args with min and max as scalar tensors."""
    return dispatch.execute(VARS, (_f32(inputs), _f32(min), _f32(max)), _attrs(num_bits, narrow_range))


def fake_quant_with_min_max_vars_gradient(gradients: Any, inputs: Any, min: Any, max: Any, num_bits: int = 8,  # noqa: A002
                                          narrow_range: bool = False, name: str | None = None) -> tuple:
    """`tf.quantization.fake_quant_with_min_max_vars_gradient`: (to inputs, to min, to max)."""
    return dispatch.execute(VARS_GRAD, (_f32(gradients), _f32(inputs), _f32(min), _f32(max)),
                            _attrs(num_bits, narrow_range))


def fake_quant_with_min_max_vars_per_channel(inputs: Any, min: Any, max: Any, num_bits: int = 8,  # noqa: A002
                                             narrow_range: bool = False, name: str | None = None) -> Tensor:
    """`tf.quantization.fake_quant_with_min_max_vars_per_channel`: one range per last-axis channel."""
    return dispatch.execute(PER_CHANNEL, (_f32(inputs), _f32(min), _f32(max)), _attrs(num_bits, narrow_range))


def fake_quant_with_min_max_vars_per_channel_gradient(gradients: Any, inputs: Any, min: Any, max: Any,  # noqa: A002
                                                      num_bits: int = 8, narrow_range: bool = False,
                                                      name: str | None = None) -> tuple:
    """`tf.quantization.fake_quant_with_min_max_vars_per_channel_gradient`: (to inputs, to min, to max)."""
    return dispatch.execute(PER_CHANNEL_GRAD, (_f32(gradients), _f32(inputs), _f32(min), _f32(max)),
                            _attrs(num_bits, narrow_range))


@RegisterGradient("FakeQuantWithMinMaxArgs")
def _args_grad(op: Any, grad: Any) -> list:
    """TF's _FakeQuantWithMinMaxArgsGradient (array_grad.py)."""
    return [dispatch.execute(ARGS_GRAD, (grad, op.inputs[0]),
                             {k: op.get_attr(k) for k in ("min", "max", "num_bits", "narrow_range")})]


@RegisterGradient("FakeQuantWithMinMaxVars")
def _vars_grad(op: Any, grad: Any) -> list:
    """TF's _FakeQuantWithMinMaxVarsGradient: the Gradient op's three outputs."""
    return list(dispatch.execute(VARS_GRAD, (grad, *op.inputs),
                                 {k: op.get_attr(k) for k in ("num_bits", "narrow_range")}))


@RegisterGradient("FakeQuantWithMinMaxVarsPerChannel")
def _per_channel_grad(op: Any, grad: Any) -> list:
    """TF's _FakeQuantWithMinMaxVarsPerChannelGradient."""
    return list(dispatch.execute(PER_CHANNEL_GRAD, (grad, *op.inputs),
                                 {k: op.get_attr(k) for k in ("num_bits", "narrow_range")}))
