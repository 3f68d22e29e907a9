"""TF 2.21's QuantizeV2 and Dequantize over its quantized dtypes (qint8, quint8, qint16, quint16,
qint32; runtime/dtypes.py), transcribed from tensorflow/core/kernels/quantize_op.cc,
dequantize_op.cc and quantization_utils.h, and checked against TF 2.21 runs (clause ops.quantize-dequantize).

QuantizeV2 (float32 in, T out, plus the range it used): per slice (the whole tensor, or each index of
`axis`), min_range = min(0, given min), max_range = max(0, given max, min_range + epsilon) where
epsilon = max(1, |given min|, |given max|) * ensure_minimum_range; a given max below the given min is
InvalidArgumentError. All arithmetic is float32, as Eigen's:
- MIN_COMBINED: scale = (qmax - qmin) / (max_range - min_range) (computed in double, kept as float);
  signed T: round_half_away((clamp(x) - min_range) * scale - (qmax - qmin + 1) / 2); unsigned T:
  (clamp(x) - min_range) * scale + 0.5, truncated.
- MIN_FIRST (quantization_utils.h QUANTIZE_WITH_EIGEN): range_scale = float((2^bits - 1) /
  (max_range - min_range)), range_min_scaled = round(min_range * range_scale); the output is
  round(x * range_scale) - (range_min_scaled - qmin), clamped to [qmin, qmax] (qint32's to
  [-2147483648, 2147483520], the float bounds that convert back) and converted through int32.
- SCALED: qmin + 1 with narrow_range; scale = min(qmin / min_range if qmin * min_range > 0,
  qmax / max_range if qmax * max_range > 0; each else FLT_MAX); the range becomes [qmin / scale,
  qmax / scale]; round(clamp(x) * scale), half away from zero or half to even (round_mode).
The conversion of a float to T is x86's: qint8/quint8/qint16/quint16 truncate through int32
(cvttss2si: NaN and values out of int32's range give 0x80000000, whose low bits are 0), qint32 rounds
through a 64-bit integer and wraps (lrint: 2^31 is -2^31, NaN 0); clamps keep NaN. So MIN_COMBINED
and SCALED map NaN to 0, qint32's top of range to -2^31 (observed on TF 2.21); MIN_FIRST maps NaN to
qmin's low bits (qint32 -2^31, the 8- and 16-bit types 0).

Dequantize (T in, float32 or bfloat16 out): MIN_COMBINED ((q + half) * ((max - min) / (qmax -
qmin)) + min), MIN_FIRST (min + (q - qmin) * float((max - min) / (2^bits - 1))), SCALED (q * scale,
scale = max / qmax for unsigned T, else max(min / (qmin + narrow), max / qmax)); bfloat16 output only
with MIN_COMBINED, computed in float32 and rounded once. Neither op has a gradient in TF 2.21
(LookupError through a tape).
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import args
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import lanes, register

__all__ = ["QUANTIZE_V2", "DEQUANTIZE"]

_F = np.float32
_FLT_MAX = np.finfo(np.float32).max
_PER_SLICE = lanes("per-slice ranges along an axis, and three outputs")


def _fail(op: str, text: str, cls: Any = errors.InvalidArgumentError) -> None:
    raise cls(None, None, f"{text} [Op:{op}]")


def _bounds(t: Any) -> tuple[int, int]:
    """T's lowest and highest (a DType, or the NumPy dtype that stores it)."""
    info = np.iinfo(getattr(t, "np", t))
    return int(info.min), int(info.max)


def _round_away(v: np.ndarray) -> np.ndarray:
    """std::round (Eigen's .round() on float): half away from zero, exactly (no x + 0.5 rounding)."""
    with np.errstate(invalid="ignore"):
        r = np.trunc(v)
        return np.where(np.abs(v - r) >= _F(0.5), r + np.sign(v), r).astype(_F)


def _to_t(v: np.ndarray, t: dtypes.DType) -> np.ndarray:
    """A float32 array converted to T's storage as TF 2.21's x86 build converts (module docstring)."""
    v = np.asarray(v, np.float64)
    bad = ~np.isfinite(v)
    if t.name == "qint32":   # (lrint to a 64-bit long, then the low 32 bits)
        ok = ~bad & (np.abs(v) < 2.0 ** 63)
        w = np.where(ok, np.rint(np.where(ok, v, 0.0)), 0.0).astype(np.int64)
        return w.astype(np.int32)
    ok = ~bad & (v > -2.0 ** 31 - 1) & (v < 2.0 ** 31)   # (cvttss2si: truncation, else 0x80000000)
    w = np.where(ok, np.trunc(np.where(ok, v, 0.0)), -2.0 ** 31).astype(np.int64).astype(np.int32)
    return w.astype(t.np)


def _ftz(v: Any) -> Any:
    """A subnormal float32 flushed to zero, sign kept (TF's CPU kernels run with FTZ/DAZ: SCALED's
    range [1 / FLT_MAX, 255 / FLT_MAX] of a range that holds no level is [0, 0]; observed)."""
    return _F(np.copysign(0.0, v)) if 0 < abs(v) < np.finfo(np.float32).tiny else v


def _clamp(x: np.ndarray, lo: Any, hi: Any) -> np.ndarray:
    """cwiseMin(hi).cwiseMax(lo), NaN kept."""
    return np.where(x > hi, _F(hi), np.where(x < lo, _F(lo), x)).astype(_F)


def _range(mn: float, mx: float, ensure: float) -> tuple[Any, Any]:
    lo = _F(min(_F(0.0), _F(mn)))
    eps = _F(max(_F(1.0), max(abs(_F(mn)), abs(_F(mx))))) * _F(ensure)
    return lo, _F(max(_F(0.0), max(_F(mx), _F(lo + eps))))


def _slice(op: str, x: np.ndarray, mn: Any, mx: Any, t: dtypes.DType, mode: str, half_even: bool,
           narrow: bool, ensure: float) -> tuple[np.ndarray, Any, Any]:
    if mx < mn:
        _fail(op, "input_max_range must be larger than input_min_range.")
    lo, hi = _range(mn, mx, ensure)
    qmin, qmax = _bounds(t)
    with np.errstate(invalid="ignore", over="ignore"):
        if mode == "MIN_FIRST":
            steps = float(1 << (8 * t.size))
            scale = _F(0.0) if hi == lo else _F((steps - 1.0) / float(_F(hi - lo)))
            min_scaled = _round_away(np.asarray(lo * scale, _F))
            low_f, high_f = _F(max(qmin, -2.147483648e9)), _F(min(float(_F(qmax)), 2.147483520e9))
            v = (_round_away((x * scale).astype(_F)) - _F(min_scaled - _F(qmin))).astype(_F)
            v = np.where(v < low_f, low_f, np.where(v > high_f, high_f, v))   # (NaN kept: int32's 0x80000000)
            as_int = _to_t(v, dtypes.int32)
            return as_int.astype(t.np), lo, hi
        if mode == "MIN_COMBINED":
            scale = _F((float(qmax) - float(qmin)) / float(_F(hi - lo)))
            c = ((_clamp(x, lo, hi) - lo).astype(_F) * scale).astype(_F)
            if qmin < 0:
                half = _F((float(qmax) - float(qmin) + 1) / 2.0)
                return _to_t(_round_away((c - half).astype(_F)), t), lo, hi
            return _to_t((c + _F(0.5)).astype(_F), t), lo, hi
        qlo = qmin + (1 if narrow else 0)
        from_min = _F(_F(qlo) / lo) if _F(qlo) * lo > 0 else _FLT_MAX
        from_max = _F(_F(qmax) / hi) if _F(qmax) * hi > 0 else _FLT_MAX
        scale = min(from_min, from_max)
        lo, hi = _ftz(_F(_F(qlo) / scale)), _ftz(_F(_F(qmax) / scale))
        v = (_clamp(x, lo, hi) * scale).astype(_F)
        return _to_t(np.rint(v) if half_even else _round_away(v), t), lo, hi


def _quantize_v2(input: np.ndarray, min_range: np.ndarray, max_range: np.ndarray, T: dtypes.DType,  # noqa: A002,N803
                 mode: str = "MIN_COMBINED", round_mode: str = "HALF_AWAY_FROM_ZERO", narrow_range: bool = False,
                 axis: int = -1, ensure_minimum_range: float = 0.01) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    op = "QuantizeV2"
    if round_mode == "HALF_TO_EVEN" and mode != "SCALED":
        _fail(op, f"Round mode 'HALF_TO_EVEN' only supported for mode 'SCALED', but mode is '{mode}'.")
    x = np.asarray(input, _F)
    if axis >= 0 and axis >= x.ndim:
        _fail(op, "Axis is on a zero-based index, so its value must always be less than number of input's dims, but "
                  f"given axis value was {axis} and input's dims was {x.ndim}")
    num_slices = x.shape[axis] if axis > -1 else 1
    for what, r in (("min_range", min_range), ("max_range", max_range)):
        if axis == -1:
            if r.size != 1:
                _fail(op, f"If axis is not specified, {what} must contain a single float element, but it contains "
                          f"{r.size} elements")
        elif r.ndim != 1:
            _fail(op, f"If axis is specified, {what} must be a 1-D tensor whose size matches the axis dimension of the "
                      f"input and output tensors, but {what} dims are {r.ndim}")
        elif r.shape[0] != num_slices:
            _fail(op, f"If axis is specified, {what} must be a 1-D tensor whose size matches the axis dimension of the "
                      f"input and output tensors, but {what} is a 1-D tensor of size {r.shape[0]} and input's axis "
                      f"dimension is of size {num_slices}")
    half_even = round_mode == "HALF_TO_EVEN"
    if num_slices == 1:
        out, lo, hi = _slice(op, x, _F(min_range.reshape(-1)[0]), _F(max_range.reshape(-1)[0]), T, mode, half_even,
                             narrow_range, ensure_minimum_range)
        return out.reshape(x.shape), np.asarray(lo, _F), np.asarray(hi, _F)
    if mode == "MIN_FIRST":
        _fail(op, "MIN_FIRST mode is not implemented for Quantize with axis != -1.", errors.UnimplementedError)
    out = np.zeros(x.shape, T.np)
    los, his = np.zeros(min_range.shape, _F), np.zeros(min_range.shape, _F)
    for i in range(num_slices):
        idx = (slice(None),) * axis + (i,)
        out[idx], los[i], his[i] = _slice(op, x[idx], _F(min_range[i]), _F(max_range[i]), T, mode, half_even,
                                          narrow_range, ensure_minimum_range)
    return out, los, his


def _dequantize_slice(q: np.ndarray, mn: Any, mx: Any, mode: str, narrow: bool) -> np.ndarray:
    qmin, qmax = _bounds(q.dtype)   # (T's storage: qint8's is int8)
    qf = q.astype(_F)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        if mode == "MIN_COMBINED":
            half = _F(0.0) if qmin == 0 else _F((float(_F(qmax)) - qmin + 1) / 2.0)
            scale = _F((mx - mn) / _F(float(_F(qmax)) - qmin))
            return (((qf + half).astype(_F) * scale).astype(_F) + mn).astype(_F)
        if mode == "MIN_FIRST":
            # (TF 2.21 moves the range so that zero falls on a level: r = floor(min * s + 1/2) with
            # s = 255 / (max - min) for 8 bits; observed, its float32 rounding order not reproduced:
            # within 2e-7 of TF's values)
            steps = float(1 << (8 * q.dtype.itemsize)) - 1.0
            if mx == mn:
                return np.full(q.shape, mn, _F)
            s = _F(steps / float(_F(mx - mn)))
            r = np.floor(_F(mn * s) + _F(0.5)).astype(_F)
            step = _F(float(_F(mx - mn)) / steps)
            return ((qf - _F(qmin) + r).astype(_F) * step).astype(_F)
        qlo = qmin + (1 if narrow else 0)
        scale = _F(mx / _F(qmax)) if qmin == 0 else max(_F(mn / _F(qlo)), _F(mx / _F(qmax)))
        return (qf * scale).astype(_F)


def _dequantize(input: np.ndarray, min_range: np.ndarray, max_range: np.ndarray,  # noqa: A002
                mode: str = "MIN_COMBINED", narrow_range: bool = False, axis: int = -1,
                dtype: dtypes.DType = dtypes.float32) -> np.ndarray:
    op = "Dequantize"
    if dtype.name == "bfloat16" and mode != "MIN_COMBINED":
        _fail(op, f"When output type is bfloat16, Mode string must be 'MIN_COMBINED', is '{mode}'")
    q = np.asarray(input)
    if not axis < q.ndim:
        _fail(op, f"Axis must be less than input dimension({q.ndim}), got {axis}")
    num_slices = q.shape[axis] if axis > -1 else 1
    for what, r in (("input_min_tensor", min_range), ("input_max_tensor", max_range)):
        if r.size != num_slices:
            _fail(op, f"{what} must have as many elements as input on the dequantization axis ({axis}), got {r.size}, "
                      f"expected {num_slices}")
    if num_slices == 1:
        out = _dequantize_slice(q, _F(min_range.reshape(-1)[0]), _F(max_range.reshape(-1)[0]), mode, narrow_range)
    else:
        if mode == "MIN_FIRST":
            _fail(op, "MIN_FIRST mode is not implemented for Dequantize with axis != -1.", errors.UnimplementedError)
        out = np.zeros(q.shape, _F)
        for i in range(num_slices):
            idx = (slice(None),) * axis + (i,)
            out[idx] = _dequantize_slice(q[idx], _F(min_range[i]), _F(max_range[i]), mode, narrow_range)
    return out.astype(ml_dtypes.bfloat16) if dtype.name == "bfloat16" else out


def _quantize_dtype(dts: Any, attrs: Any) -> tuple:
    d = tuple(dts)[0]
    if d != dtypes.float32:
        _fail("QuantizeV2", f"cannot compute QuantizeV2 as input #0(zero-based) was expected to be a float tensor but "
                            f"is a {d.name if d.name != 'float64' else 'double'} tensor")
    return attrs["T"], dtypes.float32, dtypes.float32


def _dequantize_dtype(dts: Any, attrs: Any) -> Any:
    d, out = tuple(dts)[0], attrs.get("dtype", dtypes.float32)
    if not d.is_quantized:
        _fail("Dequantize", f"Value for attr 'T' of {args.tf_name(d)} is not in the list of allowed values: qint8, "
                            "quint8, qint32, qint16, quint16")
    if out.name not in ("float32", "bfloat16"):
        _fail("Dequantize", f"Value for attr 'dtype' of {args.tf_name(out)} is not in the list of allowed values: "
                            "bfloat16, float")
    return out


def _flops(arrays: Any, out: Any, attrs: Any) -> float:
    """About four operations per element (clamp, offset, scale, round)."""
    return 4.0 * arrays[0].size


def _dq_forward(input: np.ndarray, min_range: np.ndarray, max_range: np.ndarray, **attrs: Any) -> np.ndarray:  # noqa: A002
    return _dequantize(input, min_range, max_range, **attrs)


QUANTIZE_V2 = register("QuantizeV2", _quantize_v2, _quantize_dtype, _flops, num_outputs=3, kind="nn",
                       fusion=_PER_SLICE)
DEQUANTIZE = register("Dequantize", _dq_forward, _dequantize_dtype, _flops, kind="nn", fusion=_PER_SLICE)
no_tf_gradient("QuantizeV2")   # (TF 2.21 registers none: LookupError through a tape)
no_tf_gradient("Dequantize")


def quantized_concat(concat_dim: np.ndarray, values: list, mins: list, maxes: list,
                     t: dtypes.DType) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """QuantizedConcatOp<T> (quantized_concat_op.cc, TF 2.21; names44) for T quint8 or qint32: the kernel's checks
    in its order, the output range ([min(0, min of mins), max of maxes], symmetric [-m, m] for the signed qint32),
    and each input's RequantizeCopier: a copy when its range is the output's, else DEQUANTIZE_WITH_EIGEN with its
    QuantizedToFloatStruct then QUANTIZE_WITH_EIGEN with the output's FloatToQuantizedStruct, in float32."""
    op = "QuantizedConcat"
    if np.ndim(concat_dim) != 0:
        _fail(op, f"Concat dim tensor should be a scalar integer, but got shape {args.dims(np.shape(concat_dim))}")
    axis = int(concat_dim)
    first = np.asarray(values[0])
    if not 0 <= axis < first.ndim:
        _fail(op, f"ConcatOp : Expected concatenating dimensions in the range [0, {first.ndim}), but got {axis}")
    pairs = [(_F(np.asarray(a).reshape(-1)[0]), _F(np.asarray(b).reshape(-1)[0])) for a, b in zip(mins, maxes)]
    overall_min, overall_max = _FLT_MAX, _F(-_FLT_MAX)
    for a, b in pairs:
        overall_min, overall_max = min(overall_min, a), max(overall_max, b)
    overall_min = min(_F(0.0), overall_min)
    if t.name == "qint32":
        largest = max(abs(overall_min), abs(overall_max))
        out_min, out_max = _F(-largest), _F(largest)
    else:
        out_min, out_max = overall_min, overall_max
    for i, v in enumerate(values):
        v = np.asarray(v)
        if v.ndim != first.ndim:
            _fail(op, f"ConcatOp : Ranks of all input tensors should match: shape[0] = {args.dims(first.shape)} vs. "
                      f"shape[{i}] = {args.dims(v.shape)}")
        if any(v.shape[j] != first.shape[j] for j in range(first.ndim) if j != axis):
            _fail(op, f"ConcatOp : Dimensions of inputs should match: shape[0] = {args.dims(first.shape)} vs. "
                      f"shape[{i}] = {args.dims(v.shape)}")
    bits = 8 * np.dtype(t.np).itemsize
    steps = float(1 << bits)
    lowest = _F(_bounds(t)[0])
    low_f, high_f = _F(max(float(lowest), -2.147483648e9)), _F(min(float(_F(_bounds(t)[1])), 2.147483520e9))
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        f2q_scale = _F(0.0) if out_max == out_min else _F((steps - 1.0) / float(_F(out_max - out_min)))
        f2q_min_scaled = _round_away(np.asarray(_F(out_min * f2q_scale), _F))
        parts = []
        for v, (a, b) in zip(values, pairs):
            v = np.asarray(v)
            if a == out_min and b == out_max:
                parts.append(v.copy())
                continue
            q2f_scale = _F(float(_F(b - a)) / (steps - 1.0))
            rounded = a if b == a else _F(_round_away(np.asarray(_F(a / q2f_scale), _F)) * q2f_scale)
            as_float = (_F(rounded - _F(lowest * q2f_scale)) + (v.astype(_F) * q2f_scale).astype(_F)).astype(_F)
            q = (_round_away((as_float * f2q_scale).astype(_F)) - _F(f2q_min_scaled - lowest)).astype(_F)
            q = np.where(q < low_f, low_f, np.where(q > high_f, high_f, q))
            parts.append(_to_t(q, dtypes.int32).astype(v.dtype))
        out = np.concatenate(parts, axis=axis)
    return out, np.asarray(out_min, _F), np.asarray(out_max, _F)
