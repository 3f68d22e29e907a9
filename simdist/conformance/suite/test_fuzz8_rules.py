"""Rules issue 29's eighth campaign (fz8) fixed: TF's eager cache of converted Python scalars
(clause ops.scalar-cache). Each test starts with the cache empty on both backends (the TF
backend's `before_test`, the simdist backend's reset). Expected values are computed here; the
differential cases are tests/ops/test_fuzz8_edges_tf.py."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, raises

clause = pytest.mark.clause


def _signs(t) -> list[bool]:
    return np.signbit(np.asarray(t.numpy())).reshape(-1).tolist()


@clause("ops.scalar-cache", ref="tf221")
def test_an_equal_zero_converted_first_gives_its_sign(tf):
    first = tf.constant(-0.0)
    assert_equal(_signs(first), [True], call="tf.constant(-0.0) on an empty cache", what="signbit")
    assert_equal(_signs(tf.constant(0.0)), [True], call="tf.constant(0.0) after tf.constant(-0.0)",
                 what="signbit (the cached -0.0)")
    assert_equal(_signs(tf.constant(0.0, tf.float32)), [False], call="tf.constant(0.0, tf.float32) after them",
                 what="signbit (another key: the requested dtype)")
    assert_equal(_signs(tf.ones([2]) * -0.0), [False, False], call="tf.ones([2]) * -0.0 after them",
                 what="signbit (the operand's key is (0.0, float32))")
    assert_equal(_signs(tf.constant([0.0])), [False], call="tf.constant([0.0]) (a list: not cached)", what="signbit")


@clause("run.distributed-variable-args", ref="tf221")
def test_run_passes_a_distributed_variable_whole(backend, tf):
    strategy = backend.make_strategy("mirrored", replicas=2)
    with strategy.scope():
        v = tf.Variable([1.0, 2.0])
    out = strategy.run(lambda x: x, args=(v,))
    assert_equal(out is v, True, call="strategy.run(lambda x: x, args=(v,)) with a MirroredVariable v",
                 what="result is v")
    with raises(AssertionError, call="strategy.reduce(SUM, v, axis=None) of a MirroredVariable"):
        strategy.reduce("SUM", out, axis=None)
    total = strategy.reduce("SUM", strategy.run(lambda x: [x, x], args=(v,)), axis=None)
    assert_equal([t.numpy().tolist() for t in total], [[2.0, 4.0], [2.0, 4.0]],
                 call="strategy.reduce(SUM, [v, v], axis=None): each leaf reduced as its copies")
