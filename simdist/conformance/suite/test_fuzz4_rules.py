"""The API as users call it (issue 29's fourth generator, tests/fuzz4): Variables under Python
operators and slice assignment, tf.function's tracing count, and graph tensors inside a traced
function (clauses ops.fuzz4, ops.variable-slices, function.tracing-count, function.symbolic-tensors).
Expected values are computed here; the differential cases are tests/ops/test_fuzz4gen_edges_tf.py."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_dtype, assert_equal, raises

clause = pytest.mark.clause


@clause("ops.fuzz4", ref="tf221")
def test_variables_mix_with_python_and_numpy_operands(tf):
    v = tf.Variable([1.0, -2.0, 3.0])
    for call, got, want in (("np.float32(2) * v", np.float32(2) * v, [2.0, -4.0, 6.0]),
                            ("v * 2", v * 2, [2.0, -4.0, 6.0]), ("1 - v", 1 - v, [0.0, 3.0, -2.0]),
                            ("abs(v)", abs(v), [1.0, 2.0, 3.0]), ("v // 2", v // 2, [0.0, -1.0, 1.0]),
                            ("v[1:]", v[1:], [-2.0, 3.0])):
        assert_dtype(got, "float32", call=call)
        assert_equal(got, np.array(want, np.float32), call=call)
    assert_equal(tuple(v[..., None].shape), (3, 1), call="v[..., None].shape")
    assert_equal(len(tf.constant([[1, 2], [3, 4], [5, 6]])), 3, call="len(tensor of shape (3, 2))")


@clause("ops.variable-slices", ref="tf221")
def test_slice_assignment_writes_the_selected_elements(tf):
    v = tf.Variable([1.0, 2.0, 3.0, 4.0])
    v[1:3].assign([9, 8])
    assert_equal(v, np.array([1.0, 9.0, 8.0, 4.0], np.float32), call="v[1:3].assign([9, 8])")
    v[::2].assign(0.5)
    assert_equal(v, np.array([0.5, 9.0, 0.5, 4.0], np.float32), call="v[::2].assign(0.5) (broadcast)")
    assert_equal([float(x) for x in v], [0.5, 9.0, 0.5, 4.0], call="iterating a Variable")
    with raises(tf.errors.InvalidArgumentError, call="v[1:3].assign([1, 2, 3]) (3 values into 2 elements)"):
        v[1:3].assign([1.0, 2.0, 3.0])


@clause("function.tracing-count", ref="tf221")
def test_tracing_count_counts_one_trace_per_call_type(tf):
    f = tf.function(lambda x: x * 2)
    counts = []
    for x in (tf.constant(1.0), tf.constant(2.0), tf.constant([1.0]), 1, 1.0, True, 2):
        f(x)
        counts.append(f.experimental_get_tracing_count())
    assert_equal(counts, [1, 1, 2, 3, 3, 3, 4], call="f(1.0 tensor), f(2.0 tensor), f([1.0] tensor), f(1), f(1.0), "
                 "f(True), f(2): tracing count after each", what="counts (1, 1.0 and True are one Python literal)")
    g = tf.function(lambda x: x + 1, input_signature=[tf.TensorSpec([None], tf.float32)])
    g(tf.constant([1.0]))
    g(tf.constant([1.0, 2.0]))
    assert_equal(g.experimental_get_tracing_count(), 1, call="a function with an input_signature, called twice")


@clause("function.symbolic-tensors", ref="tf221")
def test_graph_tensors_have_no_numpy_value(tf):
    seen = {}

    @tf.function
    def f(x):
        y = x * 2
        try:
            y.numpy()
            seen["numpy"] = "returned"
        except AttributeError:
            seen["numpy"] = "AttributeError"
        return y

    out = f(tf.constant([1.0, 2.0]))
    assert_equal(out, np.array([2.0, 4.0], np.float32), call="f(x) = x * 2 in a tf.function")
    assert_equal(seen["numpy"], "AttributeError", call="(x * 2).numpy() inside a tf.function",
                 what="outcome (a graph tensor has no numpy())")
    assert_equal(out.numpy().tolist(), [2.0, 4.0], call="the returned tensor's numpy()", what="values (eager again)")
