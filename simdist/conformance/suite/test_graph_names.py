"""Inside a tf.function: the names of the graph's nodes (Tensor.name of the tensors the Python makes, tf.name_scope
made unique) and the order in which TF 2.21's optimized graph sums an AddN, by the names of the nodes that feed it
(Grappler's canonical form): a gradient's terms inside a tf.function sum in their names' order, not in the forward
order. Observed on TF 2.21 (ops.py Graph.unique_name, backprop._gradient_function's `gradient_tape/` scope,
gradients_util's `<op>_grad` scopes; the runtime graph through TF_DUMP_GRAPH_PREFIX); every expected value below is
a rule of those files or of a run.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_equal

clause = pytest.mark.clause


@clause("function.symbolic-tensors", ref="tf221")
def test_graph_tensors_are_named_after_their_nodes(tf):
    """An op is named by its type or its public function's scope, below the current scope; a name in use, compared
    without case, takes `_1`, `_2`; a scope entered again is made unique."""
    seen = []

    @tf.function
    def f(x, c):
        ys = [x * c[0], tf.multiply(x, c[1]), tf.sin(x), x * x, tf.square(x), x / 2.0, tf.transpose(tf.stack([x, x]))]
        for _ in range(2):
            with tf.name_scope("blk"):
                ys.append(x * c[2])
        ys.append(tf.identity(x, name="mine"))
        seen.extend(y.name for y in ys)
        return ys[0]

    f(tf.constant(1.0), tf.constant([1.0, 2.0, 3.0]))
    assert_equal(seen, ["mul:0", "Mul_1:0", "Sin:0", "mul_2:0", "Square:0", "truediv:0", "transpose:0", "blk/mul:0",
                        "blk_1/mul:0", "mine:0"], call="Tensor.name inside a tf.function", what="the nodes' names")



@clause("function.symbolic-tensors", ref="tf221")
def test_traced_constants_are_const_nodes(tf):
    """A tf.constant made inside a tf.function is a Const node: `Const`, or its `name`, made unique."""
    seen = []

    @tf.function
    def f():
        a, b, c = tf.constant(1.0), tf.constant(2.0, name="bee"), tf.constant(3.0)
        seen.extend(t.name for t in (a, b, c))
        return a + b + c

    f()
    assert_equal(seen, ["Const:0", "bee:0", "Const_1:0"], call="tf.constant(...).name inside a tf.function",
                 what="the constants' names")

def _twelve(tf, how):
    """d/dx of sum_i x * c_i inside a tf.function, c an argument (nothing folds), times an argument w = 1."""
    coeffs = [1e8, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1e8, 3.0]

    @tf.function
    def f(x, c, w):
        if how == "gradients":
            return tf.gradients(tf.add_n([x * c[i] for i in range(12)]) * w, x)[0]
        with tf.GradientTape() as t:
            t.watch(x)
            s = tf.add_n([x * c[i] for i in range(12)]) * w
        return t.gradient(s, x)
    return float(f(tf.constant(1.0), tf.constant(coeffs, tf.float32), tf.constant(1.0)).numpy())


@clause("function.grappler-rewrites", ref="tf221")
def test_a_tapes_gradient_terms_sum_in_their_nodes_names_order(tf):
    """The twelve terms `gradient_tape/mul/Mul`, `gradient_tape/mul_1/Mul`, ..., `gradient_tape/mul_11/Mul` sum in
    the order 0, 1, 10, 11, 2, ..., 9 (float32: 1e8 + 1 + (-1e8) + 3 + 1 + 0 ... = 4.0; the forward order gives 0.0)."""
    assert_equal(_twelve(tf, "tape"), 4.0, call="tape.gradient inside a tf.function", what="the sum of 12 terms")


@clause("function.grappler-rewrites", ref="tf221")
def test_tf_gradients_terms_sum_in_their_nodes_names_order(tf):
    """tf.gradients' terms are `gradients/mul_grad/Mul`, `gradients/mul_1_grad/Mul`, ..., `gradients/mul_11_grad/Mul`:
    digits sort before `g`, so they sum in the order 10, 11, 1, 2, ..., 9, 0 (float32: -1e8 + 3 + 1 + 1 + 0 ... + 1e8
    = 0.0, where the forward order 1e8 + 1 + 1 + ... - 1e8 + 3 gives 3.0)."""
    assert_equal(_twelve(tf, "gradients"), 0.0, call="tf.gradients inside a tf.function", what="the sum of 12 terms")
