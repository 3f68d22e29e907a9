"""Rules issue 29's twelfth fuzzing campaign (fz12) found — clauses ops.math-special,
ops.special-more, ops.linalg-more, ops.eigen-kernels, ops.gradient-none-or-zeros,
function.grappler-rewrites (TF 2.21 only).

Each test runs on the backend's `tf` alone; expected values are TF 2.21's as docs/spec.md states
them (observed beside simdist) or follow from the rule. The case-by-case comparison with TF 2.21
itself is in tests/ops/test_fuzz12_edges_tf.py. Every call here runs one element or a scalar
path (no SIMD packet), so no value depends on the CPU's estimate tables.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_true, to_numpy
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause


@clause("ops.math-special", ref="tf221")
def test_float_bessel_kernels_lose_the_phase_correction(tf):
    # Eigen's float j0/j1: p·cos(yn + x) with yn added to x in float32, so at 1e10 the phase is x alone
    s = tf.math.special
    j0 = to_numpy(s.bessel_j0(tf.constant([1e10], tf.float32)))
    assert_close(j0, np.array([6.9664875e-06], np.float32), tolerance=Tolerance(rtol=1e-6, atol=0.0), call="float32 bessel_j0([1e10]) (TF 2.21: 6.9664875e-06)")
    j1 = to_numpy(s.bessel_j1(tf.constant([1e10], tf.float32)))
    assert_close(j1, np.array([6.9664866e-06], np.float32), tolerance=Tolerance(rtol=1e-6, atol=0.0), call="float32 bessel_j1([1e10]) (TF 2.21: 6.9664866e-06)")
    # float64 keeps Cephes' double kernel: the true value, 2.1756e-06
    j0d = to_numpy(s.bessel_j0(tf.constant([1e10], tf.float64)))
    assert_close(j0d, np.array([2.1755892900e-06]), tolerance=Tolerance(rtol=1e-6, atol=0.0), call="float64 bessel_j0([1e10])")
    # the scalar tail's y1 of a subnormal: glibc's logf reads its bits (finite), -1/x under DAZ is -inf
    y1 = to_numpy(s.bessel_y1(tf.constant([1e-40], tf.float32)))
    assert_true(y1[0] == -np.inf, f"out={y1!r}, but should be [-inf]", call="float32 bessel_y1([1e-40])")


@clause("ops.special-more", ref="tf221")
def test_igamma_is_eigens_truncated_series_in_the_elements_precision(tf):
    a = tf.constant([1e6, 1.0, 1e10], tf.float32)
    got = to_numpy(tf.math.igamma(a, a))
    assert_close(got, np.array([1.3122541, 0.63212049, 2.001e-07], np.float32), tolerance=Tolerance(rtol=1e-6, atol=0.0),
                 call="float32 igamma([1e6, 1, 1e10], same) (TF 2.21: 1.3122541, 0.63212049, 2.001e-07)")
    assert_true(got[1] != np.float32(1 - math.exp(-1)), f"igamma(1, 1)={got[1]!r}, but should not be the rounded "
                "true value 0.63212055 (Eigen's float series)", call="float32 igamma(1, 1)")
    d = tf.constant([1e10], tf.float64)
    assert_close(tf.math.igamma(d, d), np.array([0.00798236]), tolerance=Tolerance(rtol=1e-5, atol=0.0), call="float64 igamma(1e10, 1e10)")
    assert_close(tf.math.igammac(d, d), np.array([0.93423711]), tolerance=Tolerance(rtol=1e-7, atol=0.0),
                 call="float64 igammac(1e10, 1e10): the continued fraction (TF 2.21: 0.93423711)")


@clause("ops.linalg-more", ref="tf221")
def test_determinants_take_slogdet_without_a_nonfinite_case(tf):
    det = to_numpy(tf.linalg.det(tf.constant([[0.0, 1.0], [0.0, np.inf]], tf.float32)))
    assert_true(np.isnan(det), f"out={det!r}, but should be nan (log 0 + log inf is NaN; NumPy's det is 0)",
                call="det([[0, 1], [0, inf]])")
    s, ld = (to_numpy(t) for t in tf.linalg.slogdet(tf.constant([[np.inf]], tf.float64)))
    assert_true(s == 1.0 and ld == np.inf, f"out=({s!r}, {ld!r}), but should be (1.0, inf)", call="slogdet([[inf]])")
    s, ld = (to_numpy(t) for t in tf.linalg.slogdet(tf.constant([[np.nan]], tf.float64)))
    assert_true(np.isnan(s) and np.isnan(ld), f"out=({s!r}, {ld!r}), but should be (nan, nan)", call="slogdet([[nan]])")
    s, ld = (to_numpy(t) for t in tf.linalg.slogdet(tf.constant([[1.0, 2.0], [2.0, 4.0]], tf.float32)))
    assert_true(s == 0 and np.signbit(s) and ld == -np.inf, f"out=({s!r}, {ld!r}), but should be (-0.0, -inf)",
                call="slogdet([[1, 2], [2, 4]]): an odd permutation times a zero pivot")


@clause("ops.eigen-kernels", ref="tf221")
def test_atan2_tail_of_subnormal_operands(tf):
    got = to_numpy(tf.math.atan2(tf.constant([5e-324], tf.float64), tf.constant([-np.inf], tf.float64)))
    assert_true(got[0] == math.pi, f"out={got!r}, but should be [pi] (an infinite x is tested first)",
                call="float64 atan2(5e-324, -inf)")
    got = to_numpy(tf.math.atan2(tf.constant([1e-40], tf.float32), tf.constant([1.0], tf.float32)))
    assert_true(got[0] == np.float32(1e-40), f"out={got!r}, but should be [1e-40] (atan2f's x = 1 case: atanf(y))",
                call="float32 atan2(1e-40, 1.0)")


@clause("ops.gradient-none-or-zeros", ref="tf221")
def test_integer_embedding_lookup_has_no_gradient(tf):
    v = tf.Variable(np.array([[-5], [7], [9]], np.int32))
    with tf.GradientTape(persistent=True) as tape:
        y = tf.nn.embedding_lookup(v, [2, 0])
        z = tf.gather(v, [2, 0])
    g = tape.gradient(y, v)
    assert_true(g is None, f"gradient={g!r}, but should be None (embedding_lookup's closing Identity of an int32 "
                "tensor is not recorded)", call="tape.gradient(embedding_lookup(int32 var, [2, 0]), var)")
    h = tape.gradient(z, v)
    assert_true(h is not None and type(h).__name__ == "IndexedSlices", f"gradient={h!r}, but should be IndexedSlices",
                call="tape.gradient(tf.gather(int32 var, [2, 0]), var)")


@clause("function.grappler-rewrites", ref="tf221")
def test_add_n_sums_its_constants_first_inside_a_function(tf):
    def f(x):
        return tf.math.add_n([x, tf.constant([65504.0], tf.float16), tf.constant([-65504.0], tf.float16)])
    x = tf.constant([-1.0], tf.float16)
    traced, eager = to_numpy(tf.function(f)(x)), to_numpy(f(x))
    assert_true(traced[0] == -1.0, f"traced={traced!r}, but should be [-1.0] (65504 + -65504 folded first)",
                call="tf.function(add_n([x, 65504, -65504]))(-1) in float16")
    assert_true(eager[0] == 0.0, f"eager={eager!r}, but should be [0.0] (x + 65504 rounds to 65504)",
                call="add_n([x, 65504, -65504]) of -1 in float16, eagerly")
