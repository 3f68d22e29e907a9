"""What issue 29's fourteenth generator (tests/fuzz14: TF's public API drawn by parameter name)
found: a plain Variable's in-place operators, and the namedtuples of ops with several outputs
(clauses ops.variable-inplace, ops.output-namedtuples). Expected values are computed here; the
differential cases are tests/ops/test_fz14_edges_tf.py."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, assert_true, assert_type_name, raises

clause = pytest.mark.clause


@clause("ops.variable-inplace", ref="tf221")
def test_variable_inplace_operators_refuse_or_rebind(tf):
    v = tf.Variable([1, 2])
    for op in ("+", "-", "*", "/", "**"):
        y = v
        with raises(RuntimeError, match="not supported", call=f"y = tf.Variable([1, 2]); y {op}= 2"):
            exec(f"y {op}= 2", {}, {"y": y})  # noqa: S102 - our own text
    ns = {"y": v}
    exec("y //= 2", {}, ns)  # noqa: S102 - our own text
    assert_true(ns["y"] is not v, "y //= 2 rebinds y to a new tensor (the variable's floordiv)", call="y //= 2")
    assert_equal(ns["y"], np.array([0, 1], np.int32), call="y = tf.Variable([1, 2]); y //= 2")
    assert_equal(v, np.array([1, 2], np.int32), call="the variable after y //= 2 (unchanged)")


@clause("ops.output-namedtuples", ref="tf221")
def test_ops_with_several_outputs_return_namedtuples(tf):
    r = tf.unique([3, 3, 2])
    assert_type_name(r, "Unique", call="tf.unique([3, 3, 2])")
    assert_equal(r.y, np.array([3, 2], np.int32), call="tf.unique([3, 3, 2]).y")
    assert_equal(r.idx, np.array([0, 0, 1], np.int32), call="tf.unique([3, 3, 2]).idx")
    c = tf.unique_with_counts([3, 3, 2])
    assert_type_name(c, "UniqueWithCounts", call="tf.unique_with_counts([3, 3, 2])")
    assert_equal(c.count, np.array([2, 1], np.int32), call="tf.unique_with_counts([3, 3, 2]).count")
    d = tf.linalg.slogdet(tf.constant([[2.0, 0.0], [0.0, -3.0]]))
    assert_type_name(d, "LogMatrixDeterminant", call="tf.linalg.slogdet(diag(2, -3))")
    assert_equal(d.sign, np.float32(-1.0), call="tf.linalg.slogdet(diag(2, -3)).sign")
    q = tf.linalg.qr(tf.constant([[1.0, 0.0], [0.0, 1.0]]))
    assert_type_name(q, "Qr", call="tf.linalg.qr(eye(2))")
    assert_equal(q.r.shape.as_list(), [2, 2], call="tf.linalg.qr(eye(2)).r.shape")
    s = tf.linalg.svd(tf.constant([[1.0]]))
    assert_true(type(s).__name__ == "tuple", f"type(out)={type(s).__name__}, but should be tuple (TF builds it)",
                call="tf.linalg.svd([[1.0]])")
