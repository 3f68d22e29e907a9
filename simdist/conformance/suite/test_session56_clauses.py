"""A clause the fifty-sixth session's helper fz56b added from TF 2.21's runs, checked on any backend: the static shapes
of composite results inside a tf.function (function.composite-static-shapes). Each expectation is TF 2.21's observed
behaviour (fz56b's differential test: tests/ops/test_fz56b_composite_shapes_tf.py)."""

from __future__ import annotations

from simdist.conformance.assertions import assert_equal

import pytest

clause = pytest.mark.clause


@clause("function.composite-static-shapes", ref="tf221")
def test_a_sparse_result_built_in_a_trace_has_tf_static_shape(backend, tf):
    """Inside a tf.function a SparseTensor an op computes has the static shape TF reads from its dense_shape tensor
    (unknown: `(None, None)`), and so has a dense result of it; the argument keeps its spec's shape, and eagerly the
    same op's result is concrete."""
    sp = tf.sparse.from_dense(tf.constant([[1.0, 0.0, 2.0], [0.0, 0.0, 3.0]]))
    a, b = tf.constant([[1, 2], [3, 4]]), tf.constant([[2, 5], [3, 3]])
    got = {
        "map_values": tf.function(lambda s: tf.constant(str(tf.sparse.map_values(tf.abs, s).shape)))(sp),
        "sets.union": tf.function(lambda: tf.constant(str(tf.sets.union(a, b).shape)))(),
        "to_dense": tf.function(lambda s: tf.constant(str(tf.sparse.to_dense(s).shape)))(sp),
        "argument": tf.function(lambda s: tf.constant(str(s.shape)))(sp),
    }
    got = {k: v.numpy().decode() for k, v in got.items()}
    got["eager map_values"] = str(tf.sparse.map_values(tf.abs, sp).shape)
    assert_equal(got, {"map_values": "(None, None)", "sets.union": "(None, None)", "to_dense": "(None, None)",
                       "argument": "(2, 3)", "eager map_values": "(2, 3)"},
                 what="static shapes of sparse results in a tf.function (str of .shape)",
                 call="tf.function(lambda s: str(tf.sparse.map_values(tf.abs, s).shape)) and its kin")
