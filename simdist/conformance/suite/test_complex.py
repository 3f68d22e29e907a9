"""Complex numbers — clause ops.complex (TF 2.21 only).

Runs on the backend's `tf` alone; the expected values are NumPy's on the rule the clause states
(docs/spec.md). The case-by-case comparison with TF 2.21 is tests/ops/test_complex_tf.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_dtype, assert_true, raises, to_numpy

clause = pytest.mark.clause


@clause("ops.complex", ref="tf221")
def test_complex_dtypes_conversion_ops_and_gradients(tf):
    z = tf.constant([1 + 2j, -3.5 + 0.5j])
    assert_dtype(z, "complex128", call="tf.constant([1+2j, -3.5+0.5j])")
    assert_true(tf.complex64.size == 8 and tf.complex64.real_dtype == tf.float32 and tf.complex128.is_complex,
                f"complex64: size {tf.complex64.size}, real_dtype {tf.complex64.real_dtype}, but should be 8 and "
                "float32", call="tf.complex64 attributes")
    with raises(ValueError, match="mixed types", call="tf.constant([1.0, 2j])"):
        tf.constant([1.0, 2j])
    c = tf.cast(tf.constant([1.5 - 2j, 1j], tf.complex64), tf.float32)
    assert_close(c, np.array([1.5, 0.0], np.float32), call="cast(complex64 [1.5-2j, 1j], float32): the real part")
    a = tf.abs(z)
    assert_dtype(a, "float64", call="abs(complex128)")
    assert_close(a, np.abs(np.array([1 + 2j, -3.5 + 0.5j])), call="abs(complex128)")
    parts = [tf.math.real(z), tf.math.imag(z), tf.math.conj(z), tf.math.angle(z)]
    want = np.array([1 + 2j, -3.5 + 0.5j])
    for got, ref, what in zip(parts, (want.real, want.imag, np.conj(want), np.angle(want)), ("real", "imag", "conj", "angle")):
        assert_close(got, ref, call=f"tf.math.{what}(complex128)")
    assert_close(tf.complex(tf.constant([1.0]), tf.constant([2.0])), np.array([1 + 2j], np.complex64),
                 call="tf.complex(float32, float32)")
    q = tf.constant([1 + 1j, 2 - 1j], tf.complex128) / tf.constant([0j, 1 + 1j], tf.complex128)
    qv = to_numpy(q)
    assert_true(np.isnan(qv[0].real) and np.isnan(qv[0].imag) and qv[1] == (2 - 1j) / (1 + 1j),
                f"out={qv!r}, but should be [nan+nanj, {(2 - 1j) / (1 + 1j)!r}] (a packet's division by 0 is NaN)",
                call="complex128 [1+1j, 2-1j] / [0, 1+1j]")
    with raises(tf.errors.InvalidArgumentError, call="complex128 < 1"):
        tf.less(z, tf.constant(1 + 0j))
    v = tf.Variable(np.array([1 + 2j, -0.5 + 0.25j]))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.abs(v) ** 2)
    assert_close(tape.gradient(loss, v), 2 * np.array([1 + 2j, -0.5 + 0.25j]),
                 call="d sum(|z|^2)/dz (TF: dL/d(re z) + i dL/d(im z) = 2z)")
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.math.real(v * v))
    assert_close(tape.gradient(loss, v), 2 * np.conj(np.array([1 + 2j, -0.5 + 0.25j])),
                 call="d sum(re(z^2))/dz = 2 conj(z)")
    e = tf.linalg.eigvals(tf.constant([[2.0, 0.0], [0.0, -1.0]]))
    assert_dtype(e, "complex64", call="eigvals(float32 diag(2, -1))")
    assert_close(np.sort_complex(to_numpy(e)), np.array([-1 + 0j, 2 + 0j], np.complex64), call="eigvals(diag(2, -1))")


@clause("ops.complex", ref="tf221")
def test_complex_division_tail_and_elementwise_specials(tf):
    # the scalar tail divides as C (Annex G: a nonzero number by zero is infinite); a packet gives NaN
    q = to_numpy(tf.constant([1 + 2j], tf.complex128) / tf.constant([0j], tf.complex128))
    assert_true(np.isinf(q[0].real) and np.isinf(q[0].imag),
                f"out={q!r}, but should be [inf+infj] (C's division in the scalar tail)",
                call="complex128 [1+2j] / [0j] (one element: the tail)")
    d = to_numpy(tf.math.divide_no_nan(tf.constant([2 + 1j], tf.complex64), tf.constant([0j], tf.complex64)))
    assert_close(d, np.array([0j], np.complex64), call="divide_no_nan(2+1j, 0)")
    r = to_numpy(tf.math.rsqrt(tf.constant([0j, complex(np.inf, 1.0)], tf.complex128)))
    assert_true(np.isinf(r[0].real) and np.isnan(r[0].imag) and r[1] == 0,
                f"out={r!r}, but should be [inf+nanj, 0j] (Eigen's complex_rsqrt)", call="rsqrt([0j, inf+1j])")
    s = to_numpy(tf.math.sqrt(tf.constant([complex(-2.0, -0.0)], tf.complex128)))
    assert_close(s, np.array([np.sqrt(2.0) * 1j]), call="sqrt(-2 - 0j) in the tail (Eigen's complex_sqrt: y < 0 "
                                                        "is false for -0, so +1.414j)")
    g = to_numpy(tf.math.sigmoid(tf.constant([complex(1000.0, 0.5)], tf.complex128)))
    assert_close(g, np.array([1 + 0j]), call="sigmoid(1000 + 0.5j): 1 where re exp(z) is infinite")
