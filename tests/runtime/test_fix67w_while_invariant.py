"""A traced tf.while_loop's body sees its loop variables with the shape invariants' unknown dimensions
(clause function.traced-while-loop; fix67w): while_v2 traces cond and body on placeholders of the invariants,
so a Reshape of a [1, 1] value to [2, 1] under TensorShape([None, 1]) passes the static check. Expected values
observed on TF 2.21 (/work/wt/fix67w_logs/p1.py, p2.py): TF's Grappler removes that Reshape (its output keeps
[1, 1]); a [2, 1] value reshapes as usual."""

from __future__ import annotations

import pytest

from simdist import tf


def _loop(inv):
    @tf.function
    def f(x):
        return tf.while_loop(lambda i, x: i < 2, lambda i, x: (i + 1, tf.reshape(x, [2, 1]) + 1.0), [0, x],
                             shape_invariants=[tf.TensorShape([]), tf.TensorShape(inv)])
    return f


@pytest.mark.parametrize("inv", [[None, 1], [None, None], None])
def test_reshape_fitting_value_runs(inv):
    i, x = _loop(inv)(tf.zeros([2, 1]))
    assert int(i) == 2 and x.numpy().tolist() == [[2.0], [2.0]]


def test_unknown_dimension_reaches_body_static_check():
    i, x = _loop([None, 1])(tf.zeros([1, 1]))     # TF 2.21: runs, (1, 1) [[2.0]]; simdist before: ValueError
    assert int(i) == 2 and tuple(x.shape) == (1, 1) and x.numpy().tolist() == [[2.0]]


def test_body_sees_invariant_shape():
    seen = []

    @tf.function
    def f(x):
        def body(i, x):
            seen.append(x.shape.as_list())
            return i + 1, x
        return tf.while_loop(lambda i, x: i < 2, body, [0, x], shape_invariants=[tf.TensorShape([]),
                                                                                 tf.TensorShape([None, 1])])
    f(tf.zeros([3, 1]))
    assert seen and seen[0] == [None, 1]       # TF 2.21: the body's placeholder is (None, 1)
