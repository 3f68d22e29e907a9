"""Rules issue 29's eleventh campaign (fz11) fixed, as users meet them: the array protocol of a
0-d tensor, DType.name's fresh strings under strategy.run, binary_op_wrapper's retry of NumPy's
reflected operator inside a tf.function, and TF's singleton rule for variables created in a
tf.function, AutoGraph's StagingError (clauses ops.fuzz4, ops.reflected-retry, function.trace-once,
function.trace-time-errors). Expected values are
computed here; the differential cases are tests/ops/test_fuzz11_edges_tf.py."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, raises

clause = pytest.mark.clause


@clause("ops.fuzz4", ref="tf221")
def test_array_protocol_of_a_scalar_tensor(tf):
    x = tf.constant(1.5)
    direct = x.__array__()
    assert_equal(type(direct).__name__, "float32", call="tf.constant(1.5).__array__()", what="the type")
    assert_equal(float(direct), 1.5, call="tf.constant(1.5).__array__()")
    converted = np.asarray(x)
    assert_equal(type(converted).__name__, "ndarray", call="np.asarray(tf.constant(1.5))", what="the type")
    assert_equal(converted.ndim, 0, call="np.asarray(tf.constant(1.5))", what="the rank")
    assert_equal(type(x.__array__(np.float64)).__name__, "ndarray", call="tf.constant(1.5).__array__(np.float64)",
                 what="the type")


@clause("ops.fuzz4", ref="tf221")
def test_dtype_names_are_new_strings_under_strategy_run(backend, tf):
    x = tf.constant([1.0])
    assert_equal(x.dtype.name is x.dtype.name, False, call="x.dtype.name is x.dtype.name")
    assert_equal(x.dtype.name, "float32", call="x.dtype.name")
    strategy = backend.make_strategy("mirrored", replicas=2)
    out = strategy.run(lambda: tf.constant(1.0).dtype.name)
    assert_equal(list(strategy.experimental_local_results(out)), ["float32", "float32"],
                 call="experimental_local_results(strategy.run(lambda: tf.constant(1.0).dtype.name))")
    assert_equal(isinstance(out, str), False, call="strategy.run(lambda: tf.constant(1.0).dtype.name)",
                 what="whether it regrouped to one str")


@clause("ops.reflected-retry", ref="tf221")
def test_numpy_reflected_operator_refuses_a_graph_tensor(tf):
    with raises(NotImplementedError, call="tf.function(lambda: (tf.constant([1.5]) > 0) + np.int64(-2))()"):
        tf.function(lambda: (tf.constant([1.5]) > 0) + np.int64(-2))()
    with raises(NotImplementedError, call="tf.function(lambda: tf.constant([1.5]) | np.int32(3))()"):
        tf.function(lambda: tf.constant([1.5]) | np.int32(3))()
    with raises(TypeError, call="tf.function(lambda: (tf.constant([1.5]) > 0) + 2)()"):
        tf.function(lambda: (tf.constant([1.5]) > 0) + 2)()
    with raises(tf.errors.InvalidArgumentError, call="(tf.constant([1.5]) > 0) + np.int64(-2) eagerly"):
        (tf.constant([1.5]) > 0) + np.int64(-2)
    out = tf.constant([1, 2]) | np.float32(1.5)
    assert_equal(np.asarray(out).tolist(), [1, 3], call="tf.constant([1, 2]) | np.float32(1.5) eagerly")


@clause("function.trace-once", ref="tf221")
def test_a_function_creates_its_variables_once(tf):
    class Scale:
        v = None

        def __call__(self, x):
            if self.v is None:
                self.v = tf.Variable(x * 2)
            self.v.assign_add(x)
            return self.v.read_value()
    s = Scale()
    f = tf.function(s)
    outs = [float(f(tf.constant(x))) for x in (1.0, 2.0, 3.0)]
    assert_equal(outs, [3.0, 5.0, 8.0], call="the singleton pattern called with 1.0, 2.0, 3.0")
    assert_equal(f.experimental_get_tracing_count(), 2, call="its experimental_get_tracing_count()")
    every = tf.function(lambda: tf.Variable(1.0) * 2)
    try:
        every()   # (TF 2.21 raises here already; simdist from the second call)
    except ValueError:
        pass
    with raises(ValueError, call="a second call of a tf.function creating a tf.Variable on every call"):
        every()


def _last_dimension(x):
    return int(x.shape[-1])


@clause("function.trace-time-errors", ref="tf221")
def test_an_index_error_of_the_trace_is_a_staging_error(tf):
    x = tf.constant(2.0)
    with raises(IndexError, call="int(x.shape[-1]) of a 0-d tensor eagerly"):
        _last_dimension(x)
    try:
        tf.function(_last_dimension)(x)
    except Exception as e:  # noqa: BLE001 - the class is the result
        got = type(e).__name__
    else:
        got = "no error"
    assert_equal(got, "StagingError", call="tf.function(lambda x: int(x.shape[-1]))(0-d tensor)", what="the error class")
    with raises(IndexError, call="the same with autograph=False"):
        tf.function(_last_dimension, autograph=False)(x)
