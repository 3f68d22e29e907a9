"""tf.quantization.quantize_and_dequantize(_v2): simulated quantization of float tensors, TF 2.21 only
(clause ops.quantize-dequantize).

Every expected value is computed here from the rule the clause states (ComputeQuantizationRange: the
scale that maps the given or computed range into the integer grid keeping 0 fixed, the other end of
the range moved onto the grid, round half to even or half up, a given range clamped first), in the
input's precision; tests/ops/test_quantize_dequantize_tf.py compares 102 calls with TF 2.21 bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises, to_numpy
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
#: the rule in the input's precision: the same float32 (float64) operations, up to one rounding
_TOL = Tolerance(rtol=1e-6, atol=0.0)
_TOL64 = Tolerance(rtol=1e-12, atol=0.0)

_X = np.array([-1.0, -0.5, 0.0, 0.3, 0.8, 0.55, 0.6, 2.5, -3.3, 0.5 / 127, 2.5 / 127], np.float32)
_M = np.array([[0.1, -0.7, 0.33], [2.0, -4.0, 1.0]], np.float32)


def _qdq(x: np.ndarray, lo: float | None, hi: float | None, signed: bool = True, bits: int = 8,
         narrow: bool = False, half_up: bool = False) -> np.ndarray:
    """The rule for one slice: lo/hi the given range, or None for the slice's own min and max."""
    t = x.dtype.type
    given = lo is not None
    mn, mx = (t(lo), t(hi)) if given else (t(x.min()), t(x.max()))
    qmin = (-(1 << (bits - 1)) + (1 if narrow else 0)) if signed else 0
    qmax = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
    big = t(np.finfo(t).max)
    from_min = t(t(qmin) / mn) if t(qmin) * mn > 0 else big
    from_max = t(t(qmax) / mx) if t(qmax) * mx > 0 else big
    if from_min < from_max:
        scale, inv = from_min, t(mn / t(qmin))
        mx = t(t(qmax) * inv)
    else:
        scale, inv = from_max, t(mx / t(qmax))
        mn = t(t(qmin) * inv)
    v = np.minimum(np.maximum(x, mn), mx) if given else x
    v = v * scale
    r = np.floor(v + t(0.5)) if half_up else np.rint(v)
    return (r * inv).astype(x.dtype)


_CASES = [   # (label, kwargs, the rule's arguments)
    ("computed range", {}, dict(lo=None, hi=None)),
    ("computed range, unsigned", dict(signed_input=False), dict(lo=None, hi=None, signed=False)),
    ("computed range, 4 bits", dict(num_bits=4), dict(lo=None, hi=None, bits=4)),
    ("given range", dict(range_given=True), dict(lo=-1.0, hi=1.0)),
    ("given range, narrow", dict(range_given=True, narrow_range=True), dict(lo=-1.0, hi=1.0, narrow=True)),
    ("given range, unsigned", dict(range_given=True, signed_input=False), dict(lo=-1.0, hi=1.0, signed=False)),
    ("given range, 3 bits half up", dict(range_given=True, num_bits=3, round_mode="HALF_UP"),
     dict(lo=-1.0, hi=1.0, bits=3, half_up=True)),
    ("given range, 3 bits half to even", dict(range_given=True, num_bits=3), dict(lo=-1.0, hi=1.0, bits=3)),
]


@clause("ops.quantize-dequantize", ref="tf221")
@pytest.mark.parametrize("label,kwargs,rule", _CASES, ids=[c[0] for c in _CASES])
def test_quantize_and_dequantize_v2_follows_the_scale_rule(tf, label, kwargs, rule):
    got = to_numpy(tf.quantization.quantize_and_dequantize_v2(tf.constant(_X), -1.0, 1.0, **kwargs))
    assert_close(got, _qdq(_X, **rule), tolerance=_TOL,
                 call=f"quantize_and_dequantize_v2(x, -1.0, 1.0, {kwargs}) [{label}]")


@clause("ops.quantize-dequantize", ref="tf221")
def test_per_channel_ranges_and_float64(tf):
    q = tf.quantization
    got = to_numpy(q.quantize_and_dequantize_v2(tf.constant(_M), [0.0, 0.0, 0.0], [0.0, 0.0, 0.0], axis=1))
    want = np.stack([_qdq(_M[:, i], None, None) for i in range(3)], axis=1)
    assert_close(got, want, tolerance=_TOL, call="quantize_and_dequantize_v2(m, ..., axis=1) [per column]")
    got = to_numpy(q.quantize_and_dequantize_v2(tf.constant(_M), [0.0, 0.0], [0.0, 0.0], axis=-2))
    want = np.stack([_qdq(_M[i], None, None) for i in range(2)])
    assert_close(got, want, tolerance=_TOL, call="quantize_and_dequantize_v2(m, ..., axis=-2) [per row]")
    x64 = _X.astype(np.float64) / 3.0
    got = to_numpy(q.quantize_and_dequantize_v2(tf.constant(x64), 0.0, 0.0))
    assert_equal(str(got.dtype), "float64", call="quantize_and_dequantize_v2(float64 x).dtype")
    assert_close(got, _qdq(x64, None, None), tolerance=_TOL64, call="quantize_and_dequantize_v2(float64 x)")


@clause("ops.quantize-dequantize", ref="tf221")
def test_gradients_clip_by_the_ops_min_and_max(tf):
    q = tf.quantization
    x = tf.constant(_X)
    w = tf.constant(np.arange(1.0, 1.0 + _X.size, dtype=np.float32))
    inside = ((_X >= -1.0) & (_X <= 1.0)).astype(np.float32)
    for kwargs in ({}, dict(range_given=True)):
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(q.quantize_and_dequantize_v2(x, -1.0, 1.0, **kwargs) * w)
        assert_equal(to_numpy(tape.gradient(loss, x)), to_numpy(w) * inside,
                     call=f"d/dx sum(w * quantize_and_dequantize_v2(x, -1, 1, {kwargs})) [zero outside [-1, 1]]")
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(q.quantize_and_dequantize(x, -1.0, 1.0, range_given=True) * w)
    assert_equal(to_numpy(tape.gradient(loss, x)), to_numpy(w),
                 call="d/dx sum(w * quantize_and_dequantize(x, -1, 1)) [straight through]")


@clause("ops.quantize-dequantize", ref="tf221")
def test_kernel_checks(tf):
    q = tf.quantization
    x = tf.constant(_X)
    for call, fn in (
            ("quantize_and_dequantize_v2(x, 1.0, -1.0, range_given=True) [min > max]",
             lambda: q.quantize_and_dequantize_v2(x, 1.0, -1.0, range_given=True)),
            ("quantize_and_dequantize_v2(x, 0, 0, num_bits=0)", lambda: q.quantize_and_dequantize_v2(x, 0.0, 0.0, num_bits=0)),
            ("quantize_and_dequantize_v2(m, [-1] * 3, [1] * 3, axis=1, range_given=True) [TF 2.21's V4 kernel takes "
             "only scalar given ranges]",
             lambda: q.quantize_and_dequantize_v2(tf.constant(_M), [-1.0] * 3, [1.0] * 3, axis=1, range_given=True))):
        with raises(tf.errors.InvalidArgumentError, call=call):
            fn()
    got = to_numpy(q.quantize_and_dequantize_v2(x, 1.0, -1.0))
    assert_close(got, _qdq(_X, None, None), tolerance=_TOL,
                 call="quantize_and_dequantize_v2(x, 1.0, -1.0) [a range not given is not read]")
