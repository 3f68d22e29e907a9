"""tf.nn.sparse_softmax_cross_entropy_with_logits checks the shapes a traced graph knows —
clause function.trace-time-errors (TF 2.21 only).

nn_ops' rank and shape ValueErrors read the static shapes: with an input_signature of unknown rank
they are skipped at trace, and at the call a dynamic assert_equal and the kernel raise
InvalidArgumentError (found by the fourth fuzzer, seed 51 #54); with the rank known they are the
trace's ValueError.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_equal, raises, to_numpy

clause = pytest.mark.clause


@clause("function.trace-time-errors", ref="tf221")
def test_sparse_xent_defers_its_shape_checks_to_the_call_when_the_rank_is_unknown(tf):
    xent = tf.nn.sparse_softmax_cross_entropy_with_logits
    f = tf.function(lambda a: xent(labels=0, logits=a), input_signature=[tf.TensorSpec(None, tf.float32)])
    f.get_concrete_function()
    with raises(tf.errors.InvalidArgumentError, call="f(logits [4, 3]) with labels=0, logits of unknown rank"):
        f(tf.ones([4, 3]))
    got = to_numpy(f(tf.constant([1.0, 2.0, 3.0])))
    assert_equal(got.shape, (), call="f(logits [3]) with labels=0", what="loss shape")
    g = tf.function(lambda a: xent(labels=[0, 1, 2, 0], logits=a), input_signature=[tf.TensorSpec([None], tf.float32)])
    with raises(ValueError, call="get_concrete_function: labels rank 1, logits rank 1 known at trace"):
        g.get_concrete_function()
