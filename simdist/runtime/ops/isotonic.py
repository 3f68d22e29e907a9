"""tf.nn.isotonic_regression (TF's IsotonicRegression op): the closest non-increasing sequence
along the last axis (pool adjacent violators), with the segments it pooled; nn_ops.py wraps the
op for another axis (a transpose each way) and for decreasing=False (negated input and output).

Observed on TF 2.21: a new value joins the segment before it while that segment's mean is below
its own (equal means stay apart, a NaN never compares below), repeatedly; each output element is
its segment's mean (sum / count in the output dtype); segments are numbered 0, 1, ... along each
row (int32). Output dtypes: float32, half and bfloat16 keep theirs, int8 and int16 give float32,
int32, int64 and float64 give float64; other dtypes have no CPU kernel (NotFoundError). The
gradient (nn_grad.py's _MeanAggregator) is the upstream gradient averaged over each segment.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime import subnormals as _sn
from simdist.runtime.ops import dispatch
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.nn_rules import REAL_NUMBERS, attr_error
from simdist.runtime.ops.op_outputs import named_outputs
from simdist.runtime.ops.registry import RegisterGradient, lanes, register
from simdist.runtime.tensor import Tensor

__all__ = ["isotonic_regression"]

_OUT = {"float32": "float32", "float16": "float16", "bfloat16": "bfloat16", "int8": "float32", "int16": "float32",
        "int32": "float64", "int64": "float64", "float64": "float64"}


def _row(values: np.ndarray, out_dt: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    """One row by L2PavaSegment (isotonic_regression_op.cc) under DAZ/FTZ: a segment of one point
    keeps its input as its minimum (no arithmetic: a subnormal comes out as it is), a merged one
    y_sum / count; sums, quotients and the minima's `>` read subnormals as zeros."""
    from simdist.runtime.subnormals import flushed
    sums: list[Any] = []
    counts: list[int] = []
    minima: list[Any] = []
    for v in values:
        s, c = out_dt.type(v), 1
        m = s
        while minima and _daz(m, flushed) > _daz(minima[-1], flushed):
            minima.pop()
            s = _daz(out_dt.type(_daz(sums.pop(), flushed) + _daz(s, flushed)), flushed)
            c += counts.pop()
            m = _daz(out_dt.type(s / out_dt.type(c)), flushed)
        sums.append(s)
        counts.append(c)
        minima.append(m)
    out = np.empty(values.shape, out_dt)
    seg = np.empty(values.shape, np.int32)
    i = 0
    for k, (m, c) in enumerate(zip(minima, counts)):
        out[i:i + c] = m
        seg[i:i + c] = k
        i += c
    return out, seg


def _daz(v: Any, flushed: Any) -> Any:
    """Scalar v with a subnormal read as a zero of its sign (float32, float64, bfloat16)."""
    return flushed(np.asarray(v))[()]


def _isotonic(x: np.ndarray, output_dtype: str = "float32") -> tuple[np.ndarray, np.ndarray]:
    out_dt = dtypes.as_dtype(output_dtype).np
    n = x.shape[-1] if x.ndim else 1
    flat = x.reshape(int(np.prod(x.shape[:-1], dtype=np.int64)), n)
    out = np.empty(flat.shape, out_dt)
    seg = np.empty(flat.shape, np.int32)
    with np.errstate(all="ignore"):
        for r in range(flat.shape[0]):
            out[r], seg[r] = _row(flat[r], out_dt)
    return out.reshape(x.shape), seg.reshape(x.shape)


def _rule(dts: Any, attrs: Any) -> tuple:
    d = dts[0]
    if d.name in ("bool", "string") or d.kind == "c":   # not in the op def's list: before the kernel lookup
        raise attr_error("IsotonicRegression", d, REAL_NUMBERS)
    if d.name not in _OUT:
        raise errors.NotFoundError(None, None, "Could not find device for node: {{node IsotonicRegression}} = "
                                   f"IsotonicRegression[T=DT_{d.name.upper()}] [Op:IsotonicRegression]")
    return dtypes.as_dtype(attrs["output_dtype"]), dtypes.int32


ISOTONIC = register("IsotonicRegression", _isotonic, _rule, lambda a, out, at: float(4 * a[0].size), num_outputs=2,
                    kind="scan", none_grad_ok=(1,),   # (DAZ inside _row, on the original input: fz27a)
                    subnormals=_sn.Fixed("isotonic", lambda arrays, flushed, out, attrs: _isotonic(arrays[0], **attrs)),
                    fusion=lanes("pools each row in Python: no stacked form written"))


@RegisterGradient("IsotonicRegression")
def _isotonic_grad(op: Any, grad_output: Any, grad_segments: Any) -> Any:
    from simdist.runtime.ops import array, math
    from simdist.runtime.ops.segments import unsorted_segment_mean
    segments = op.outputs[1]
    result = []
    for inputs_i, segments_i in zip(array.split(grad_output, grad_output.shape[0]),
                                    array.split(segments, segments.shape[0])):
        means_i = unsorted_segment_mean(inputs_i, segments_i, num_segments=math.reduce_max(segments_i) + 1)
        result.append(array.reshape(array.gather(means_i, segments_i), [-1]))
    return [array.stack(result, axis=0)]


def isotonic_regression(inputs: Any, decreasing: bool = True, axis: int = -1) -> tuple[Tensor, Tensor]:
    """`tf.nn.isotonic_regression`: (the non-increasing (or, decreasing=False, non-decreasing)
    fit along `axis`, its segments int32)."""
    from simdist.runtime.ops import array
    from simdist.runtime.ops.math import negative
    x = _t(inputs)
    out_name = _OUT.get(x.dtype.name, "float64")

    def compute(m: Tensor) -> tuple[Tensor, Tensor]:
        if decreasing:
            y, s = dispatch.execute(ISOTONIC, (m,), {"output_dtype": out_name})
            return y, s
        y, s = dispatch.execute(ISOTONIC, (negative(m),), {"output_dtype": out_name})
        return negative(y), s

    rank = x.ndim
    if axis == -1 or axis == rank - 1:
        # (decreasing: the generated op's namedtuple as it is; else `-output, segments`, a plain tuple; fz43, fz14 seed
        # 1420433003 #172)
        return named_outputs("IsotonicRegression", compute(x)) if decreasing else tuple(compute(x))
    if not -rank <= axis < rank:
        raise errors.InvalidArgumentError(None, None, f"`dim` must be in the range [{-rank}, {rank}) where {rank} is "
                                          f"the number of dimensions in the input. Received: dim={axis}")
    d = axis % rank
    perm = list(range(d)) + [rank - 1] + list(range(d + 1, rank - 1)) + [d]
    y, s = compute(array.transpose(x, perm))
    return array.transpose(y, perm), array.transpose(s, perm)   # (TF: a plain tuple on this path)
