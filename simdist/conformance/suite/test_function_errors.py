"""Errors inside tf.function — clause function.trace-time-errors (TF 2.21).

TF builds a tf.function's graph when it traces: op construction checks the operands' dtypes
(tensorflow/python/framework/op_def_library.py: TypeError) and each op's shape function runs
(tensorflow/core/ops/*.cc: ValueError), so those mistakes surface at trace time with those
classes, while errors only the kernels can find (an index out of range, integer division by
zero) stay InvalidArgumentError at run time. Eagerly, all of them are InvalidArgumentError.
The expected messages are TF's shape functions' and op_def_library's texts, quoted here.
"""

from __future__ import annotations

import re

import pytest

from simdist.conformance.assertions import assert_equal, assert_true, raises, to_numpy

clause = pytest.mark.clause

# (call, program on x = tf.ones([2, 3]), trace-time class, the message's text)
TRACE_TIME = [
    ("tf.reshape(x, [5])", lambda tf, x: tf.reshape(x, [5]), ValueError,
     "Cannot reshape a tensor with 6 elements to shape [5] (5 elements)"),
    ("tf.reshape(x, [4, -1])", lambda tf, x: tf.reshape(x, [4, -1]), ValueError,
     "Dimension size must be evenly divisible by 4 but is 6"),
    ("tf.matmul(x, tf.ones([4, 2]))", lambda tf, x: tf.matmul(x, tf.ones([4, 2])), ValueError,
     "Dimensions must be equal, but are 3 and 4"),
    ("tf.matmul(tf.ones([2, 2, 3]), tf.ones([3, 3, 5]))",
     lambda tf, x: tf.matmul(tf.ones([2, 2, 3]), tf.ones([3, 3, 5])), ValueError,
     "Dimensions must be equal, but are 2 and 3"),
    ("x * tf.ones([3, 3])", lambda tf, x: x * tf.ones([3, 3]), ValueError,
     "Dimensions must be equal, but are 2 and 3"),
    ("tf.concat([x, tf.ones([2, 4])], 0)", lambda tf, x: tf.concat([x, tf.ones([2, 4])], 0), ValueError,
     "Dimension 0 in both shapes must be equal, but are 3 and 4. Shapes are [3] and [4]."),
    ("tf.stack([x, tf.ones([3, 2])])", lambda tf, x: tf.stack([x, tf.ones([3, 2])]), ValueError,
     "Dimension 0 in both shapes must be equal, but are 2 and 3. Shapes are [2,3] and [3,2]."),
    ("tf.transpose(x, [0, 2])", lambda tf, x: tf.transpose(x, [0, 2]), ValueError,
     "perm dim 2 is out of range of input rank 2"),
    ("tf.squeeze(x, [0])", lambda tf, x: tf.squeeze(x, [0]), ValueError,
     "Can not squeeze dim[0], expected a dimension of 1, got 2"),
    ("tf.gather(x, [0], axis=3)", lambda tf, x: tf.gather(x, [0], axis=3), ValueError,
     "Shape must be at least rank 4 but is rank 2"),
    ("x + tf.constant([1, 2])", lambda tf, x: x + tf.constant([1, 2]), TypeError,
     "Input 'y' of 'AddV2' Op has type int32 that does not match type float32 of argument 'x'."),
    ("tf.concat([x, tf.ones([2, 3], tf.int32)], 0)", lambda tf, x: tf.concat([x, tf.ones([2, 3], tf.int32)], 0),
     TypeError, "Tensors in list passed to 'values' of 'ConcatV2' Op have types [float32, int32] that don't all "
     "match."),
    ("tf.pad(x, [[1, 1]], 'REFLECT')", lambda tf, x: tf.pad(x, [[1, 1]], "REFLECT"), ValueError,
     "Shape must be rank 1 but is rank 2"),
]


@clause("function.trace-time-errors", ref="tf221")
@pytest.mark.parametrize("k", range(len(TRACE_TIME)), ids=[c for c, *_ in TRACE_TIME])
def test_shape_and_dtype_errors_raise_when_the_function_traces(backend, tf, k):
    call, prog, cls, text = TRACE_TIME[k]
    x = tf.ones([2, 3])
    with raises(cls, match=re.escape(text), call=f"tf.function(lambda x: {call})(tf.ones([2, 3]))"):
        tf.function(lambda x: prog(tf, x))(x)
    with raises(tf.errors.InvalidArgumentError, call=f"{call} eagerly"):
        prog(tf, x)


@clause("function.trace-time-errors", ref="tf221")
def test_an_unused_op_with_a_static_error_fails_the_trace(backend, tf):
    x = tf.ones([2, 3])

    def f(x):
        tf.reshape(x, [7])       # its result is never used: TF still builds (and shape-checks) it
        return x * 2.0
    with raises(ValueError, match=re.escape("Cannot reshape a tensor with 6 elements to shape [7] (7 elements)"),
                call="tf.function(f)(x), f computing an unused tf.reshape(x, [7])"):
        tf.function(f)(x)


@clause("function.trace-time-errors", ref="tf221")
def test_a_new_signature_traces_again_and_fails_there(backend, tf):
    f = tf.function(lambda x: tf.reshape(x, [6]))
    assert_equal(f(tf.ones([2, 3])).shape.as_list(), [6], call="f(tf.ones([2, 3])), f = reshape to [6]",
                 what="result shape")
    for attempt in (1, 2):      # a failed trace is not kept: the call traces (and fails) again
        with raises(ValueError, match=re.escape("Cannot reshape a tensor with 4 elements to shape [6] (6 elements)"),
                    call=f"f(tf.ones([2, 2])) (attempt {attempt})"):
            f(tf.ones([2, 2]))


@clause("function.trace-time-errors", ref="tf221")
def test_value_dependent_errors_stay_invalid_argument(backend, tf):
    x = tf.ones([2, 3])
    with raises(tf.errors.InvalidArgumentError, match=re.escape("indices[0] = 5 is not in [0, 2)"),
                call="tf.function(lambda x: tf.gather(x, [5]))(x)"):
        tf.function(lambda x: tf.gather(x, [5]))(x)
    with raises(tf.errors.InvalidArgumentError, match="Integer division by zero",
                call="tf.function(lambda a: a // tf.constant(0))(tf.constant(1))"):
        tf.function(lambda a: a // tf.constant(0))(tf.constant(1))
    with raises(tf.errors.InvalidArgumentError, match=re.escape("1 is missing from {0,0}."),
                call="tf.function(lambda x: tf.transpose(x, [0, 0]))(x)"):
        tf.function(lambda x: tf.transpose(x, [0, 0]))(x)


@clause("function.trace-time-errors", ref="tf221")
def test_shape_functions_merge_an_unknown_dimension_with_any(backend, tf):
    """ConcatV2's and BiasAdd's shape functions check only dimensions the graph knows: with
    TensorSpec([None, None]) arguments both trace, and the values decide when the graph runs."""
    cat = tf.function(lambda x: tf.concat([x, tf.zeros([0, 4])], axis=1),
                      input_signature=[tf.TensorSpec([None, None], tf.float32)])
    got = cat(tf.zeros([0, 2]))
    assert_true(tuple(got.shape) == (0, 6), f"concat gives shape {tuple(got.shape)}, but should be (0, 6)",
                call="tf.function(concat([x, zeros([0, 4])], 1), TensorSpec([None, None]))(zeros([0, 2]))")
    bias = tf.function(lambda x: tf.nn.bias_add(x, tf.constant([1.0, 2.0])),
                       input_signature=[tf.TensorSpec([None, None], tf.float32)])
    got = to_numpy(bias(tf.zeros([3, 2])))
    assert_true(got.tolist() == [[1.0, 2.0]] * 3, f"bias_add gives {got.tolist()}, but should be [[1, 2]] * 3",
                call="tf.function(bias_add(x, [1, 2]), TensorSpec([None, None]))(zeros([3, 2]))")


@clause("function.trace-time-errors", ref="tf221")
def test_a_const_node_named_empty_is_refused_at_trace(tf):
    # constant_op builds its Const with Graph.create_op and the name given, which Operation validates;
    # generated ops scope an empty name away, and eagerly no name is checked
    with raises(ValueError, match="not a valid node name", call="tf.function(tf.constant([1.0], name=''))"):
        tf.function(lambda: tf.constant([1.0], name=""))()
    got = to_numpy(tf.function(lambda: tf.math.add(tf.ones([2]), 1.0, name=""))())
    assert_equal(got.tolist(), [2.0, 2.0], call="tf.function(tf.math.add(ones, 1, name=''))")
    assert_equal(to_numpy(tf.constant([1.0], name="")).tolist(), [1.0], call="eager tf.constant([1.0], name='')")
