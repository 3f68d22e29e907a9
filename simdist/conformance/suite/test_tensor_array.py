"""`tf.TensorArray` (clause ops.tensor-array) and TensorShape/Tensor shape methods (clause
ops.tensor-shape-methods), TF 2.21's eager semantics (tensor_array_ops.py `_EagerTensorArray`,
tensor_shape.py)."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, raises

clause = pytest.mark.clause


@clause("ops.tensor-array", ref="tf221")
def test_tensor_array_write_read_stack(tf):
    ta = tf.TensorArray(tf.float32, size=0, dynamic_size=True, clear_after_read=False)
    ta = ta.write(0, 10.0).write(1, 20.0).write(3, 40.0)
    assert_equal(int(ta.size()), 4, call="TensorArray(dynamic_size=True) after writes at 0, 1, 3", what="size()")
    assert_equal(ta.read(1), np.float32(20.0), call="ta.read(1)")
    assert_equal(ta.stack(), np.array([10.0, 20.0, 0.0, 40.0], np.float32),
                 call="ta.stack() (index 2 never written: zeros)")
    assert_equal(ta.gather([3, 0]), np.array([40.0, 10.0], np.float32), call="ta.gather([3, 0])")
    rows = tf.TensorArray(tf.int32, size=3, clear_after_read=False).unstack(tf.constant([[1, 2], [3, 4], [5, 6]]))
    assert_equal(rows.read(2), np.array([5, 6], np.int32), call="TensorArray.unstack(...).read(2)")
    assert_equal(rows.concat(), np.array([1, 2, 3, 4, 5, 6], np.int32), call="TensorArray.unstack(...).concat()")
    sp = tf.TensorArray(tf.float32, size=2).split(tf.constant([1.0, 2.0, 3.0]), [1, 2])
    assert_equal(sp.read(1), np.array([2.0, 3.0], np.float32), call="TensorArray.split(v, [1, 2]).read(1)")


@clause("ops.tensor-array", ref="tf221")
def test_tensor_array_checks(tf):
    ta = tf.TensorArray(tf.float32, size=2)
    with raises(tf.errors.InvalidArgumentError, match="TensorArray dtype is float32 but Op is trying to write dtype "
                "int32", call="TensorArray(float32).write(0, int32 tensor)"):
        ta.write(0, tf.constant(1))
    with raises(tf.errors.OutOfRangeError, match="not resizeable", call="TensorArray(size=2).write(2, ...)"):
        ta.write(2, 1.0)
    ta.write(0, [1.0, 2.0])
    with raises(ValueError, match="Incompatible shape", call="write of shape (3,) after (2,)"):
        ta.write(1, [1.0, 2.0, 3.0])
    once = tf.TensorArray(tf.float32, size=1).write(0, 5.0)
    once.read(0)
    with raises(tf.errors.InvalidArgumentError, match="Could not read index 0 twice",
                call="a second read with clear_after_read (the default)"):
        once.read(0)
    with raises(ValueError, match="Cannot convert a partially known TensorShape",
                call="stack() of a cleared slot whose element shape is unknown"):
        _cleared_then_concat(tf)
    with raises(ValueError, match="Size must be declared", call="TensorArray(tf.float32) without size"):
        tf.TensorArray(tf.float32)


def _cleared_then_concat(tf):
    ta = tf.TensorArray(tf.int32, size=2).unstack(tf.constant([[1, 2], [3, 4]]))   # (unstack infers no shape)
    ta.read(1)
    return ta.concat()


@clause("ops.tensor-array", ref="tf221")
def test_tensor_array_in_a_function_and_a_while_loop(tf):
    @tf.function
    def squares(n):
        ta = tf.TensorArray(tf.float32, size=n)
        for i in tf.range(n):
            ta = ta.write(i, tf.cast(i * i, tf.float32))
        return ta.stack()

    assert_equal(squares(tf.constant(4)), np.array([0.0, 1.0, 4.0, 9.0], np.float32),
                 call="tf.function writing i*i into a TensorArray in a loop")
    i, out = tf.while_loop(lambda i, ta: i < 3, lambda i, ta: (i + 1, ta.write(i, 2 * i)),
                           (tf.constant(0), tf.TensorArray(tf.int32, size=3)))
    assert_equal(out.stack(), np.array([0, 2, 4], np.int32), call="tf.while_loop with a TensorArray loop variable")


@clause("ops.tensor-shape-methods", ref="tf221")
def test_tensor_shape_methods(tf):
    s = tf.TensorShape([None, 3])
    assert_equal(s.merge_with([2, None]).as_list(), [2, 3], call="TensorShape([None, 3]).merge_with([2, None])")
    assert_equal(tf.TensorShape(None).merge_with([1]).as_list(), [1], call="TensorShape(None).merge_with([1])")
    with raises(ValueError, match="are not compatible", call="TensorShape([None, 3]).merge_with([2, 4])"):
        s.merge_with([2, 4])
    assert_equal(tf.TensorShape(None).with_rank(2).as_list(), [None, None], call="TensorShape(None).with_rank(2)")
    with raises(ValueError, match="must have rank 1", call="TensorShape([None, 3]).with_rank(1)"):
        s.with_rank(1)
    with raises(ValueError, match="must have rank at least 3", call="TensorShape([None, 3]).with_rank_at_least(3)"):
        s.with_rank_at_least(3)
    t = tf.constant([1.0, 2.0])
    t.set_shape([None])
    with raises(ValueError, match="is not compatible with supplied shape", call="constant([1., 2.]).set_shape([3])"):
        t.set_shape([3])
    assert_equal([d.is_numeric for d in (tf.bool, tf.int8, tf.float16, tf.complex64, tf.string)],
                 [False, True, True, True, False], call="DType.is_numeric of bool, int8, float16, complex64, string")
    assert_equal(tf.get_static_value(4), 4, call="tf.get_static_value(4)")
    assert_equal(tf.get_static_value(tf.Variable(1.0)) is None, True, call="tf.get_static_value(Variable)",
                 what="is None")
