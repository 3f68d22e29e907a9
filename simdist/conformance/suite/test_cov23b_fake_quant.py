"""Fake-quantization gradients the whole suite never ran before session 23 (cov23b; docs/conformance.md,
"Twenty-third session: suite coverage of autodiff, gradients and tf.function"): the tape's gradient of
fake_quant_with_min_max_args (with narrow_range) and of fake_quant_with_min_max_vars_per_channel (the
quantization-aware training step of a per-channel weight quantizer), and the public *_gradient
functions called directly.

Expected values from TF's functors (tensorflow/core/kernels/fake_quant_ops_functor.h, spec
`ops.fake-quant`), computed here in NumPy: Nudge gives [nudged_min, nudged_max]; the input gradient
passes where nudged_min <= x <= nudged_max; min's gradient is the sum of the gradient where
x < nudged_min, max's where x > nudged_max. Inputs sit at least 0.01 away from every nudged bound.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, to_numpy

clause = pytest.mark.clause


def _nudged(mn: float, mx: float, num_bits: int, narrow: bool) -> tuple[float, float]:
    """Nudge (fake_quant_ops_functor.h) in float32: the zero point rounded half away from zero."""
    f = np.float32
    qmin, qmax = f(1 if narrow else 0), f((1 << num_bits) - 1)
    scale = f((f(mx) - f(mn)) / (qmax - qmin))
    zp_from_min = f(qmin - f(f(mn) / scale))
    zp = qmin if zp_from_min < qmin else qmax if zp_from_min > qmax else f(np.sign(zp_from_min) *
                                                                           np.floor(abs(zp_from_min) + 0.5))
    return float(f((qmin - zp) * scale)), float(f((qmax - zp) * scale))


def _mask(x: np.ndarray, lo: float, hi: float) -> np.ndarray:
    return ((x >= lo) & (x <= hi)).astype(np.float32)


# min -1, max 2, 4 bits: narrow_range nudges to [-15/14, 27/14], the full grid to [-1, 2] itself, so
# -1.05 passes only with narrow_range and 1.95 only without
_X = np.array([-1.5, -1.05, -0.5, 0.0, 0.7, 1.95, 2.5], np.float32)
_G = np.array([1.0, -2.0, 3.0, 0.5, -1.5, 2.5, 4.0], np.float32)


@clause("ops.fake-quant", ref="tf221")
@pytest.mark.parametrize("narrow", [False, True])
def test_cov23b_fake_quant_args_gradient(backend, tf, narrow):
    """The tape's gradient of fake_quant_with_min_max_args(x, -1, 2, num_bits=4, narrow_range) and the
    public fake_quant_with_min_max_args_gradient: the incoming gradient where x is in the nudged range."""
    lo, hi = _nudged(-1.0, 2.0, 4, narrow)
    want = _G * _mask(_X, lo, hi)
    x = tf.constant(_X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.quantization.fake_quant_with_min_max_args(x, min=-1.0, max=2.0, num_bits=4, narrow_range=narrow)
    call = f"fake_quant_with_min_max_args(x, -1, 2, num_bits=4, narrow_range={narrow})"
    assert_equal(to_numpy(tape.gradient(y, x, output_gradients=tf.constant(_G))), want, call=f"tape.gradient of {call}")
    direct = tf.quantization.fake_quant_with_min_max_args_gradient(tf.constant(_G), x, min=-1.0, max=2.0, num_bits=4,
                                                                    narrow_range=narrow)
    assert_equal(to_numpy(direct), want, call=call.replace("args(x", "args_gradient(g, x"))


# two channels with different ranges: [-1, 2] (4 bits) and [0, 3] (4 bits, where 0 is a grid point)
_XC = np.array([[-1.5, 0.5], [-0.5, -0.2], [1.95, 3.4], [2.5, 2.9], [0.0, 1.0]], np.float32)
_GC = np.array([[1.0, -2.0], [3.0, 0.5], [-1.5, 2.5], [4.0, -3.0], [0.25, 1.5]], np.float32)
_MIN, _MAX = np.array([-1.0, 0.0], np.float32), np.array([2.0, 3.0], np.float32)


@clause("ops.fake-quant", ref="tf221")
@pytest.mark.parametrize("narrow", [False, True])
def test_cov23b_fake_quant_per_channel_gradient(backend, tf, narrow):
    """A per-channel quantizer's gradients (fake_quant_with_min_max_vars_per_channel on the tape, as a
    quantization-aware training step takes them, with min and max Variables; and the public
    fake_quant_with_min_max_vars_per_channel_gradient): each channel's own nudged range masks the
    input gradient; min gets the sum below it, max the sum above it."""
    want_x = np.empty_like(_GC)
    want_min, want_max = np.empty(2, np.float32), np.empty(2, np.float32)
    for c in range(2):
        lo, hi = _nudged(float(_MIN[c]), float(_MAX[c]), 4, narrow)
        want_x[:, c] = _GC[:, c] * _mask(_XC[:, c], lo, hi)
        want_min[c] = _GC[:, c][_XC[:, c] < lo].sum()
        want_max[c] = _GC[:, c][_XC[:, c] > hi].sum()
    x = tf.constant(_XC)
    mn, mx = tf.Variable(_MIN), tf.Variable(_MAX)
    call = f"fake_quant_with_min_max_vars_per_channel(x, min, max, num_bits=4, narrow_range={narrow})"
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.quantization.fake_quant_with_min_max_vars_per_channel(x, mn, mx, num_bits=4, narrow_range=narrow)
    gx, gmin, gmax = tape.gradient(y, [x, mn, mx], output_gradients=tf.constant(_GC))
    direct = tf.quantization.fake_quant_with_min_max_vars_per_channel_gradient(
        tf.constant(_GC), x, tf.constant(_MIN), tf.constant(_MAX), num_bits=4, narrow_range=narrow)
    for how, (dx, dmin, dmax) in (("tape.gradient of", (gx, gmin, gmax)), ("the *_gradient function of", direct)):
        assert_equal(to_numpy(dx), want_x, call=f"{how} {call}", what="d/dx")
        assert_close(to_numpy(dmin), want_min, call=f"{how} {call}", what="d/dmin")
        assert_close(to_numpy(dmax), want_max, call=f"{how} {call}", what="d/dmax")


@clause("ops.fake-quant", ref="tf221")
def test_cov23b_fake_quant_vars_gradient_function(backend, tf):
    """The public fake_quant_with_min_max_vars_gradient (one scalar range [-1, 2], 4 bits): three
    outputs, the masked gradient and the sums below and above the nudged range."""
    lo, hi = _nudged(-1.0, 2.0, 4, False)
    dx, dmin, dmax = tf.quantization.fake_quant_with_min_max_vars_gradient(
        tf.constant(_G), tf.constant(_X), tf.constant(-1.0), tf.constant(2.0), num_bits=4)
    call = "fake_quant_with_min_max_vars_gradient(g, x, -1.0, 2.0, num_bits=4)"
    assert_equal(to_numpy(dx), _G * _mask(_X, lo, hi), call=call, what="d/dx")
    assert_close([float(to_numpy(dmin)), float(to_numpy(dmax))],
                 [float(_G[_X < lo].sum()), float(_G[_X > hi].sum())], call=call, what="(d/dmin, d/dmax)")
