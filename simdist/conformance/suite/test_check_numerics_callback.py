"""`tf.debugging.enable_check_numerics` (clause ops.check-numerics-callback): while on, an op whose
floating output holds NaN or Inf raises InvalidArgumentError naming the op and what it held; data
movement (Reshape, Identity, ConcatV2, Maximum, ...) and non-float outputs are not checked; off again
after disable_check_numerics. Expected texts are TF 2.21's (debug/lib/check_numerics_callback.py)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, assert_true, raises

clause = pytest.mark.clause


@clause("ops.check-numerics-callback", ref="tf221")
def test_check_numerics_callback_names_the_op(tf):
    tf.debugging.enable_check_numerics()
    try:
        cases = [("tf.math.sqrt([0, -1, 4])", lambda: tf.math.sqrt(tf.constant([0.0, -1.0, 4.0])), "Sqrt",
                  "Tensor had NaN values"),
                 ("[1, -1, 0] / [0, 0, 0]", lambda: tf.constant([1.0, -1.0, 0.0]) / tf.constant([0.0, 0.0, 0.0]),
                  "RealDiv", "Tensor had -Inf, +Inf, and NaN values"),
                 ("tf.math.log(float64 [[0, 1]])", lambda: tf.math.log(tf.constant([[0.0, 1.0]], tf.float64)),
                  "Log", "Tensor had -Inf values"),
                 ("[inf] + 1", lambda: tf.constant([np.inf]) + 1.0, "AddV2", "Tensor had +Inf values")]
        for call, fn, op, status in cases:
            with raises(tf.errors.InvalidArgumentError, call=call,
                        match=f'of eagerly-executing op "{op}"(.|\\n)*{re.escape(status)}'):
                fn()
        ok = [("int32 // int32", lambda: tf.constant([1, 2]) // tf.constant([1, 1]), [1, 2]),
              ("maximum(nan, 1)", lambda: tf.maximum(tf.constant([np.nan]), 1.0), [np.nan]),
              ("reshape([inf])", lambda: tf.reshape(tf.constant([np.inf]), [1]), [np.inf]),
              ("identity([inf])", lambda: tf.identity(tf.constant([np.inf])), [np.inf])]
        for call, fn, want in ok:
            got = np.asarray(fn()).ravel().tolist()
            assert_true(np.array_equal(got, want, equal_nan=True), f"value={got}, but should be {want}",
                        call=call + " with check numerics on")
    finally:
        tf.debugging.disable_check_numerics()
    got = tf.math.sqrt(tf.constant(-1.0))
    assert_equal(bool(np.isnan(np.asarray(got))), True, call="sqrt(-1.0) after disable_check_numerics",
                 what="isnan")
