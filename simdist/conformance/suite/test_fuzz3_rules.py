"""Rules the third differential fuzzer (issue 29) found — clauses ops.fuzz3, ops.math-special,
function.input-signature (TF 2.21 only).

Each test runs on the backend's `tf` alone; expected values are computed here from the rule each
clause states (docs/spec.md). The case-by-case comparison with TF 2.21 itself is in
tests/ops/test_fuzz3_edges_tf.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_dtype, assert_true, raises, to_numpy

clause = pytest.mark.clause


@clause("ops.fuzz3", ref="tf221")
def test_parameter_names_and_arg_axis(tf):
    x = tf.constant([[1.0, 5.0], [7.0, 2.0]])
    assert_true(to_numpy(tf.expand_dims(input=x, axis=0)).shape == (1, 2, 2), "expand_dims(input=) did not add an axis",
                call="tf.expand_dims(input=x, axis=0)")
    assert_true(to_numpy(tf.squeeze(input=tf.zeros([2, 1]), axis=1)).shape == (2,), "squeeze(input=) kept the axis",
                call="tf.squeeze(input=..., axis=1)")
    assert_dtype(tf.shape(input=x, out_type=tf.int64), "int64", call="tf.shape(input=x, out_type=tf.int64)")
    assert_dtype(tf.ones_like(input=x, dtype=tf.int8), "int8", call="tf.ones_like(input=x, dtype=tf.int8)")
    assert_dtype(tf.zeros([1], dtype=tf.as_dtype(type_value="int16")), "int16", call="tf.as_dtype(type_value=)")
    got = to_numpy(tf.math.argmax(x, axis=True))
    assert_true(np.array_equal(got, [1, 0]), f"out={got!r}, but should be [1, 0]", call="argmax(axis=True)")
    with raises(TypeError, call="argmax(axis=[0]): math_ops.argmax_v2's Python check"):
        tf.math.argmax(x, axis=[0])
    with raises(TypeError, call="argmax(axis=np.int64(1)): a NumPy dtype is not a TF DType"):
        tf.math.argmax(x, axis=np.int64(1))
    with raises(tf.errors.InvalidArgumentError, match="dim must be a scalar", call="argmin(axis=[0, 1])"):
        tf.math.argmin(x, axis=[0, 1])
    with raises(tf.errors.InvalidArgumentError, call="eye(-1): Fill of a negative dimension"):
        tf.eye(-1)


@clause("ops.math-special", ref="tf221")
def test_math_special_domains_dtypes_and_gradients(tf):
    s = tf.math.special
    z = tf.constant([0.0, -1.0, 1.0], tf.float64)
    assert_close(s.bessel_j0(z), np.array([1.0, 0.7651976865579666, 0.7651976865579666]), call="bessel_j0([0, -1, 1])")
    assert_close(s.bessel_k0(z)[:2], np.array([np.inf, np.inf]), call="bessel_k0 at 0 and below 0 (Eigen: inf)")
    assert_close(s.bessel_y0(z)[:2], np.array([-np.inf, -np.inf]), call="bessel_y0 at 0 and below 0 (Eigen: -inf)")
    e = to_numpy(s.expint(tf.constant([-1.0, 0.0, np.inf], tf.float64)))
    assert_true(np.isnan(e[0]) and e[1] == -np.inf and np.isnan(e[2]), f"out={e!r}, but should be [nan, -inf, nan]",
                call="expint([-1, 0, inf])")
    assert_close(s.spence(tf.constant([0.0, 1.0], tf.float64)), np.array([math.pi ** 2 / 6, 0.0]),
                 call="spence([0, 1])")
    assert_close(s.fresnel_sin(tf.constant([0.0], tf.float64)), np.array([0.0]), call="fresnel_sin(0)")
    d = to_numpy(s.dawsn(tf.constant([-0.0])))
    assert_true(not np.signbit(d[0]), f"out={d!r}, but should be [0.0] (+0)", call="dawsn(-0.0)")
    with raises(tf.errors.NotFoundError, call="dawsn of float16: no CPU kernel"):
        s.dawsn(tf.constant([0.5], tf.float16))
    with raises(tf.errors.InvalidArgumentError, call="bessel_j0 of int32: not in the op def's list"):
        s.bessel_j0(tf.constant([1], tf.int32))
    v = tf.Variable([0.0, 1.0], dtype=tf.float64)
    with tf.GradientTape() as tape:
        y = s.dawsn(v) + s.spence(v)
    # d dawsn = 1 - 2xy (1 at 0; 1 - 2 dawsn(1) at 1); d spence = log(x)/(1-x): -inf at 0, -1 at 1
    dawsn1 = 0.5380795069127684
    assert_close(tape.gradient(y, v), np.array([-np.inf, 1 - 2 * dawsn1 - 1.0]), call="d(dawsn + spence)/dx at [0, 1]")


@clause("function.input-signature", ref="tf221")
def test_input_signature_binds_calls(tf):
    f = tf.function(lambda x: x + 1, input_signature=[tf.TensorSpec([None], tf.float32)])
    out = f([1, 2])
    assert_dtype(out, "float32", call="a Python list of ints for a float32 spec")
    assert_close(out, np.array([2.0, 3.0], np.float32), call="f([1, 2])")
    assert_dtype(f(np.array([1.5], np.float64)), "float32", call="a float64 NumPy array is cast to the spec")
    with raises(TypeError, match="Binding inputs", call="an int32 tensor for a float32 spec"):
        f(tf.constant([1], tf.int32))
    with raises(TypeError, match="Binding inputs", call="a rank-2 tensor for a [None] spec"):
        f(tf.ones([2, 2]))
    with raises(TypeError, match="Binding inputs", call="two arguments for one parameter"):
        f(tf.ones([1]), tf.ones([1]))
    g = tf.function(lambda x: x * 2, input_signature=[tf.TensorSpec(None, tf.int32)])
    assert_true(to_numpy(g(tf.ones([2, 2], tf.int32))).shape == (2, 2), "unknown rank refused a matrix",
                call="TensorSpec(None, int32) with a [2, 2] tensor")
