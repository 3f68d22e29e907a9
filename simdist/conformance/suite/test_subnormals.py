"""Subnormal floats — clause ops.subnormals (TF 2.21 only).

TF's CPU kernels run with flush-to-zero and denormals-are-zero. Each test runs on the backend's
`tf` alone; expected values follow the rule the clause states (docs/spec.md); the comparison with
TF 2.21 over every op kind and float dtype is in tests/ops/test_subnormals_tf.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_true, to_numpy

clause = pytest.mark.clause
S = 1e-39   # a float32 subnormal


def _bits(a) -> list[int]:
    a = np.asarray(a)
    return a.view(f"u{a.dtype.itemsize}").ravel().tolist()


def assert_bits(got, want, call):
    g, w = to_numpy(got), np.asarray(want)
    assert_true(g.dtype == w.dtype and g.shape == w.shape and _bits(g) == _bits(w),
                f"out={g.tolist()} ({g.dtype}), but should be {w.tolist()} ({w.dtype}) bit for bit", call=call)


@clause("ops.subnormals", ref="tf221")
def test_arithmetic_reads_subnormals_as_zeros_and_flushes_results(tf):
    x = tf.constant(np.array([S, -S, 1.0], np.float32))
    assert_bits(x * tf.constant(1.0), np.array([0.0, -0.0, 1.0], np.float32), call="[s, -s, 1] * 1.0")
    assert_bits(x + tf.constant(0.0), np.array([0.0, 0.0, 1.0], np.float32), call="[s, -s, 1] + 0.0")
    assert_bits(x > tf.constant(0.0), np.array([False, False, True]), call="[s, -s, 1] > 0")
    assert_bits(tf.cast(x, tf.float64), np.array([0.0, -0.0, 1.0]), call="cast([s, -s, 1], float64)")
    small = tf.constant(np.array([1e-20, -2e-20], np.float32))
    assert_bits(small * tf.constant(np.float32(1e-20)), np.array([0.0, -0.0], np.float32),
                call="[1e-20, -2e-20] * 1e-20 (subnormal results)")
    assert_bits(tf.math.reduce_std(tf.constant(np.array([0.0, 1e-19], np.float32))), np.float32(0.0),
                call="reduce_std([0, 1e-19]) (squared deviations below 2**-126)")


@clause("ops.subnormals", ref="tf221")
def test_data_movement_keeps_subnormals_and_sorting_ties_them_with_zeros(tf):
    x = tf.constant(np.array([S, -S, 0.0], np.float32))
    want = np.array([S, -S, 0.0], np.float32)
    assert_bits(tf.reshape(x, [3, 1]), want.reshape(3, 1), call="reshape([s, -s, 0])")
    assert_bits(-x, -want, call="-[s, -s, 0]")
    assert_bits(tf.abs(x), np.abs(want), call="abs([s, -s, 0])")
    assert_bits(tf.gather(x, [1, 0]), want[[1, 0]], call="gather([s, -s, 0], [1, 0])")
    assert_bits(tf.sort(x), want, call="sort([s, -s, 0]) (equal as zeros: index order)")
    half = tf.constant(np.array([1.2e-7, -1.2e-7], np.float16))
    assert_bits(half * tf.constant(1.0, tf.float16), np.array([1.2e-7, -1.2e-7], np.float16),
                call="float16 subnormals * 1 (computed in float32: kept)")


@clause("ops.subnormals", ref="tf221")
def test_complex_casts_keep_parts_of_one_precision(tf):
    # float32 <-> complex64 moves the parts' bits (a subnormal part kept); complex64 -> complex128 converts
    # them (cvtps2pd under DAZ: read as zero); Python numbers to complex64 eagerly: doubles to float32 under FTZ
    x = tf.constant(np.array([S, 1.0], np.float32))
    assert_bits(tf.cast(x, tf.complex64), np.array([S, 1.0], np.complex64), call="cast([s, 1], complex64)")
    z = tf.constant(np.array([complex(S, -S), complex(1.0, S)], np.complex64))
    assert_bits(tf.math.real(tf.cast(z, tf.complex128)), np.array([0.0, 1.0]), call="real(cast([s - sj, 1 + sj], complex128))")
    assert_bits(tf.math.imag(tf.cast(z, tf.complex128)), np.array([-0.0, 0.0]), call="imag(cast([s - sj, 1 + sj], complex128))")
    assert_bits(tf.math.real(tf.constant([complex(1e-40, 1.0)], tf.complex64)), np.array([0.0], np.float32),
                call="real(constant([1e-40 + 1j], complex64))")
