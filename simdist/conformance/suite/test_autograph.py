"""AutoGraph: Python control flow on tensors inside tf.function — clause function.autograph (TF 2.21).

TF's tf.function (autograph=True, the default) rewrites the user's Python before it traces it
(tensorflow/python/autograph: converters/control_flow.py, operators/control_flow.py): an `if` or `while`
whose condition is a tensor, and a `for` over tf.range, become tf.cond / tf.while_loop over the variables
their blocks modify, so both branches trace, the branches' variables must agree, and a loop variable must
keep its shape unless `tf.autograph.experimental.set_loop_options` relaxes it. A Python condition runs as
Python. The expected values are computed in the tests; the messages quoted are AutoGraph's.
"""

from __future__ import annotations

import re

import pytest

from simdist.conformance.assertions import assert_equal, raises

clause = pytest.mark.clause


@clause("function.autograph", ref="tf221")
def test_an_if_on_a_tensor_traces_both_branches_and_joins_their_shapes(backend, tf):
    seen = []

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def f(x):
        if tf.reduce_sum(x) > 0:
            seen.append("main")
            z = x[:1] * 2.0
        else:
            seen.append("else")
            z = tf.zeros([3, 2])
        seen.append(tuple(z.shape.as_list()))
        return z

    got = f(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    assert_equal(got.numpy().tolist(), [[2.0, 4.0]], call="the taken branch's value (sum > 0)")
    assert_equal(seen, ["main", "else", (None, 2)],
                 call="both branches' Python at the trace, then z's static shape after the if")
    # (a second call's value only: simdist runs the Python of a function whose branches differ in shape again at
    # every call, docs/spec.md function.autograph's differences; TF traces once per signature)
    got = f(tf.constant([[-1.0, 0.0]]))
    assert_equal(got.numpy().tolist(), [[0.0, 0.0]] * 3, call="the other branch's value on a second call")


@clause("function.autograph", ref="tf221")
def test_an_if_on_a_tensor_traces_once_per_signature(backend, tf):
    seen = []

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def f(x):
        if tf.reduce_sum(x) > 0:
            seen.append("main")
            z = x * 2.0
        else:
            seen.append("else")
            z = -x
        return z

    assert_equal(f(tf.constant([[1.0, 2.0]])).numpy().tolist(), [[2.0, 4.0]], call="sum > 0: x * 2")
    assert_equal(f(tf.constant([[-1.0, 0.0]])).numpy().tolist(), [[1.0, -0.0]], call="sum <= 0: -x")
    assert_equal(seen, ["main", "else"], call="both branches' Python once, at the first call's trace")


@clause("function.autograph", ref="tf221")
def test_a_variable_one_branch_leaves_undefined_is_an_error(backend, tf):
    @tf.function
    def f(x):
        if x > 0:
            y = x + 1.0
        return y

    with raises(ValueError, match=re.escape("'y' must also be initialized in the else branch"),
                call="if x > 0: y = x + 1 (no else), then return y"):
        f(tf.constant(1.0))


@clause("function.autograph", ref="tf221")
def test_a_while_on_a_tensor_is_a_loop_whose_shapes_must_hold(backend, tf):
    @tf.function
    def count(n):
        i, total = tf.constant(0), tf.constant(0)
        while i < n:
            total += i
            i += 1
        return total

    assert_equal([int(count(tf.constant(k))) for k in (0, 4, 7)], [0, 6, 21], call="sum of range(n) by a while")

    @tf.function
    def grow(n):
        a = tf.zeros([1])
        for _ in tf.range(n):
            a = tf.concat([a, [1.0]], 0)
        return a

    with raises(ValueError, match=re.escape("'a' has shape (1,) before the loop, but shape (2,) after one iteration"),
                call="a loop variable that grows without a shape invariant"):
        grow(tf.constant(3))

    @tf.function
    def grow_relaxed(n):
        a = tf.zeros([1])
        for _ in tf.range(n):
            tf.autograph.experimental.set_loop_options(shape_invariants=[(a, tf.TensorShape([None]))])
            a = tf.concat([a, [1.0]], 0)
        return a

    assert_equal(grow_relaxed(tf.constant(3)).numpy().tolist(), [0.0, 1.0, 1.0, 1.0],
                 call="the same loop with set_loop_options(shape_invariants=[(a, [None])])")


@clause("function.autograph", ref="tf221")
def test_a_python_condition_runs_as_python(backend, tf):
    seen = []

    @tf.function
    def f(x):
        if x.shape[0] > 2:
            seen.append("long")
            return tf.reshape(x, [-1, 3])
        seen.append("short")
        return x * 2.0

    assert_equal(f(tf.constant([1.0, 2.0])).numpy().tolist(), [2.0, 4.0], call="a static shape condition, false")
    assert_equal(seen, ["short"], call="the untaken Python branch never traced (no tf.cond)")
