"""Rules issue 29's ninth campaign (fz9) fixed, as users meet them: static shapes inside a
tf.function, TensorShape.dims' Dimension objects, a failed trace's variable writes, graph
constants' type check, variables created inside strategy.run, and reduce of Python values
(clauses function.symbolic-tensors, ops.fuzz4, function.trace-time-errors, ops.conversion,
mirrored.variables, reduce.axis-none). Expected values are computed here; the differential cases
are tests/ops/test_fuzz9_edges_tf.py and tests/strategies/test_fuzz9_run_tf.py."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, raises

clause = pytest.mark.clause


@clause("function.symbolic-tensors", ref="tf221")
def test_an_input_signature_leaves_dimensions_unknown_to_the_python(tf):
    x = tf.constant(np.ones((3, 2), np.float32))
    seen = {}

    def body(x):
        seen["shape"] = x.shape.as_list()
        seen["rank"] = x.shape.rank
        return x.shape.as_list()[1] + 1
    f = tf.function(body, input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    out = f(x)
    assert_equal(seen["shape"], [None, 2], call="x.shape.as_list() inside f with spec [None, 2]")
    assert_equal(int(out), 3, call="x.shape.as_list()[1] + 1 returned by f")
    g = tf.function(lambda x: x.shape.rank, input_signature=[tf.TensorSpec(None, tf.float32)])
    assert_equal(g(x), None, call="x.shape.rank with an unknown-rank spec", what="the returned value")
    h = tf.function(lambda x: x.shape, input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    with raises(TypeError, call="returning a partly known x.shape from a tf.function"):
        h(x)


@clause("ops.fuzz4", ref="tf221")
def test_shape_dims_are_dimension_objects(tf):
    dims = tf.constant([[1.0, 2.0, 3.0]]).shape.dims
    assert_equal([type(d).__name__ for d in dims], ["Dimension", "Dimension"], call="tensor.shape.dims",
                 what="element types")
    assert_equal([d.value for d in dims], [1, 3], call="[d.value for d in tensor.shape.dims]")
    unknown = tf.TensorShape([None, 2]).dims[0]
    assert_equal(str(unknown), "?", call="str(TensorShape([None, 2]).dims[0])")
    assert_equal((unknown + 1).value, None, call="(unknown Dimension + 1).value")
    assert_equal(dims[1] * 2 == 6, True, call="Dimension(3) * 2 == 6")
    with raises(TypeError, call="Dimension(3) / Dimension(1) (true division is refused)"):
        dims[1] / dims[0]


@clause("function.trace-time-errors", ref="tf221")
def test_a_trace_that_raises_writes_no_variable(tf):
    v = tf.Variable([1.0, 2.0])
    f = tf.function(lambda: (v.assign(v * 10.0), v.dtype)[1])   # a DType output: TypeError at trace
    for _ in range(2):
        with raises(TypeError, call="a tf.function returning v.dtype after v.assign(v * 10)"):
            f()
    assert_equal(v.numpy().tolist(), [1.0, 2.0], call="v after the failed traces", what="values")


@clause("ops.conversion", ref="tf221")
def test_a_graph_constant_checks_its_leaves_against_the_dtype(tf):
    with raises(TypeError, call="tf.constant([[1, 2], [3]], dtype=bool) inside a tf.function"):
        tf.function(lambda: tf.constant([[1, 2], [3]], dtype=bool))()
    with raises(ValueError, call="tf.constant([[1, 2], [3]], dtype=bool) eagerly (ragged)"):
        tf.constant([[1, 2], [3]], dtype=bool)
    with raises(TypeError, call="tf.math.logical_and((0.1, -7.25, 3.0), np.bool_(False))"):
        tf.math.logical_and((0.1, -7.25, 3.0), np.bool_(False))


@clause("mirrored.variables", ref="tf221")
def test_variables_created_inside_run_are_replica_0s(backend, tf):
    strategy = backend.make_strategy("mirrored", replicas=2)
    x = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant([2.0, 7.0][ctx.replica_id_in_sync_group]))
    out = strategy.run(lambda x: tf.Variable(x).read_value(), args=(x,))
    assert_equal([float(t) for t in strategy.experimental_local_results(out)], [2.0, 2.0],
                 call="strategy.run(lambda x: tf.Variable(x).read_value()) with per-replica x = 2.0, 7.0")


@clause("reduce.axis-none", ref="tf221")
def test_reduce_of_python_values_per_replica_is_refused(backend, tf):
    strategy = backend.make_strategy("mirrored", replicas=2)
    values = itertools.count()
    out = strategy.run(lambda: float(next(values)) + 0.5)
    with raises(AttributeError, call="strategy.reduce(SUM, PerReplica(0.5, 1.5), axis=None)"):
        strategy.reduce("SUM", out, axis=None)


@clause("reduce.axis-none", ref="tf221")
def test_gather_of_python_values_per_replica_is_refused(backend, tf):
    strategy = backend.make_strategy("mirrored", replicas=2)
    values = itertools.count()
    out = strategy.run(lambda: float(next(values)) + 0.5)
    with raises(AttributeError, call="strategy.gather(PerReplica(0.5, 1.5), axis=0)"):
        strategy.gather(out, 0)
