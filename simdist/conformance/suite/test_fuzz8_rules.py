"""Rules issue 29's eighth campaign (fz8) fixed: TF's eager cache of converted Python scalars
(clause ops.scalar-cache). Each test starts with the cache empty on both backends (the TF
backend's `before_test`, the simdist backend's reset). Expected values are computed here; the
differential cases are tests/ops/test_fuzz8_edges_tf.py."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal

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
