"""Control flow and graph gradients inside tf.function — clauses function.traced-branches,
function.traced-while-loop and function.graph-gradients (TF 2.21).

TF builds a graph for every branch of a tf.cond when a tf.function traces (cond_v2.py), once per
input signature: both branches' Python runs once, a branch not taken has no effect when the
graph runs, and the branches' outputs must agree in dtype. tf.while_loop traces its cond and body
once (while_v2.py) and refuses a body that changes a loop variable's shape or dtype. tf.gradients
exists only in a graph (gradients_impl.py). The expected values are computed in the tests; the
messages quoted are cond_v2's, while_v2's and gradients_impl's.
"""

from __future__ import annotations

import re

import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises

clause = pytest.mark.clause


@clause("function.traced-branches", ref="tf221")
def test_every_branch_traces_once_and_the_untaken_one_has_no_effect(backend, tf):
    log = []
    v = tf.Variable(1.0)

    def yes(x):
        log.append("true")
        v.assign_add(10.0)
        return x * 2.0

    def no(x):
        log.append("false")
        return x - 1.0
    f = tf.function(lambda x: tf.cond(x > 0, lambda: yes(x), lambda: no(x)))
    got = [float(f(tf.constant(a))) for a in (-1.0, 3.0, -4.0)]
    assert_equal(got, [-2.0, 6.0, -5.0], call="tf.cond(x > 0, x * 2, x - 1) for x = -1, 3, -4")
    assert_equal(log, ["true", "false"], call="branches' Python side effects over three calls of one signature")
    assert_equal(float(v.numpy()), 11.0, call="v.assign_add(10) in the true branch, taken once in three calls")
    text = "true_fn and false_fn arguments to tf.cond must have the same number, type, and overall structure"
    with raises(TypeError, match=re.escape(text), call="tf.cond(x > 0, lambda: x, lambda: tf.cast(x, tf.int32))"):
        tf.function(lambda x: tf.cond(x > 0, lambda: x, lambda: tf.cast(x, tf.int32)))(tf.constant(1.0))
    with raises(ValueError, match=re.escape("Cannot reshape a tensor with 6 elements to shape [5] (5 elements)"),
                call="a reshape error in the branch not taken"):
        tf.function(lambda x: tf.cond(x > 0, lambda: x, lambda: tf.reshape(tf.ones([6]), [5])))(tf.constant(1.0))


@clause("function.traced-while-loop", ref="tf221")
def test_while_loop_traces_its_body_once_and_checks_its_shapes(backend, tf):
    log = []

    def body(v):
        log.append("body")
        return v + 1.5
    f = tf.function(lambda x: tf.while_loop(lambda v: v < 10.0, body, [x]))
    got = [float(f(tf.constant(a))[0]) for a in (1.0, 3.0, 20.0)]
    assert_equal(got, [10.0, 10.5, 20.0], call="while v < 10: v += 1.5, from 1, 3 and 20")
    assert_equal(log, ["body"], call="the body's Python side effects over three calls of one signature")
    text = "enters the loop with shape (1,), but has shape (2,) after one iteration"
    with raises(ValueError, match=re.escape(text), call="a body doubling a loop variable's length"):
        tf.function(lambda x: tf.while_loop(lambda v: tf.reduce_sum(v) < 10.0, lambda v: tf.concat([v, v], 0),
                                            [x]))(tf.ones([1]))
    g = tf.function(lambda x: tf.while_loop(lambda v: tf.reduce_sum(v) < 10.0, lambda v: tf.concat([v, v], 0), [x],
                                            shape_invariants=[tf.TensorShape([None])]))
    assert_equal(int(g(tf.ones([1]))[0].shape[0]), 16, call="the same loop with shape_invariants=[TensorShape([None])]")


@clause("function.graph-gradients", ref="tf221")
def test_graph_gradients_inside_a_function(backend, tf):
    x = tf.constant([1.0, 2.0, 3.0])
    with raises(RuntimeError, match=re.escape("tf.gradients is not supported when eager execution is enabled"),
                call="tf.gradients(x, x) eagerly"):
        tf.gradients(x, x)
    f = tf.function(lambda x: tf.gradients(tf.reduce_sum(x * x * x), [x, tf.constant(1.0)],
                                           unconnected_gradients=tf.UnconnectedGradients.ZERO))
    gx, gc = f(x)
    assert_close(gx, [3.0, 12.0, 27.0], call="tf.gradients(sum(x^3), x) inside a tf.function")
    assert_equal(float(gc), 0.0, call="the gradient of an unconnected x with UnconnectedGradients.ZERO")

    def stop(x):
        a = x * x
        return tf.gradients(a * 3.0 + x, x, stop_gradients=[a])[0]
    assert_close(tf.function(stop)(x), [1.0, 1.0, 1.0], call="stop_gradients=[x * x] in 3 x^2 + x")
    g = tf.function(lambda x: tf.gradients(x * x, x, grad_ys=tf.constant([1.0, 0.5, 2.0]))[0])
    assert_close(g(x), [2.0, 2.0, 12.0], call="grad_ys weighting x * x")
