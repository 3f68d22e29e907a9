"""Rules behind the disagreement classes fz51b closed (session 51: tests/fuzz51b/fz51b_gen.py, the public names no
earlier generator called, at seeds 51101-), each against real TensorFlow 2.21: the same call on both backends gives
the same dtype and values bit for bit, or raises the same exception class, eagerly and in a tf.function. Needs the
`tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_VAR = "tf.Variable([[1.0, -2.0, 3.0], [0.5, 0.0, -1.0]])"


def _of_variable(expr: str, in_function: bool) -> Callable[[Any], Any]:
    """`expr` of a float32 tf.Variable `v` [2, 3], eagerly or inside a tf.function (AutoGraph off)."""
    def run(tf: Any) -> Any:
        v = eval(_VAR, {"tf": tf})  # noqa: S307 - our own text
        f = (lambda: eval(expr, {"tf": tf, "np": np, "v": v}))  # noqa: S307 - our own text
        return tf.function(f, autograph=False)() if in_function else f()
    return run


# --- keras.ops of a tf.Variable: tf.is_tensor(variable) is True, so Keras's TF backend (core.py convert_to_tensor)
# returns the variable itself, and a backend function reading `x.ndim` next is AttributeError "'ResourceVariable'
# object has no attribute 'ndim'" (fz51b seed 51101 #5, #9, #14, #25, #28, #30: swapaxes, argmax, diag,
# take_along_axis, diff of the GradientTape mode's variable inputs); functions that only call tf ops compute.
def _variable_cases() -> list[tuple[str, str, object]]:
    calls = ("tf.keras.ops.swapaxes(v, 0, 1)", "tf.keras.ops.argmax(v, axis=0)", "tf.keras.ops.diag(v)",
             "tf.keras.ops.diff(v)", "tf.keras.ops.take_along_axis(v, [[0, 1, 1]], axis=0)",
             "tf.keras.ops.sum(v, axis=1)", "tf.keras.ops.add(v, 1.0)", "tf.keras.ops.transpose(v)",
             "tf.keras.ops.cumsum(v, axis=1)", "tf.keras.ops.reshape(v, [-1])", "tf.keras.ops.convert_to_tensor(v)",
             "tf.keras.ops.convert_to_tensor(v, dtype='float64')", "tf.keras.ops.matmul(v, tf.transpose(v))",
             "tf.keras.ops.where(v > 0.0, v, 0.0)", "tf.keras.ops.flip(v, axis=0)", "tf.keras.ops.tril(v)",
             # Keras's backend `cast` is tf.cast, which gives a variable of the asked dtype back itself: norm's ord=2
             # then reaches moveaxis's `x.ndim` (fz51b seed 51103 #56)
             "tf.keras.ops.norm(v, ord=2)", "tf.keras.ops.norm(v)", "tf.keras.ops.norm(v, ord=1, axis=0)",
             "tf.keras.ops.cast(v, 'float32')", "tf.keras.ops.cast(v, 'float64')")
    out = []
    for call in calls:
        out.append((f"{call} of a tf.Variable", "keras.ops", _of_variable(call, False)))
        out.append((f"{call} of a tf.Variable in a tf.function", "keras.ops", _of_variable(call, True)))
    return out


# --- keras.ops.isin in a tf.function: Keras's TF backend tests `if tf.size(x1) == 0 or tf.size(x2) == 0:` in Python,
# library code AutoGraph never converts, so a graph tensor's truth is OperatorNotAllowedInGraphError (fz51b seed
# 51101 #29); eagerly it computes.
def _graph_truth_cases() -> list[tuple[str, str, object]]:
    calls = ("tf.keras.ops.isin(tf.constant([1, 2, 3]), tf.constant([2]))",
             "tf.keras.ops.isin(tf.constant([1, 2, 3]), [2, 5], invert=True)",
             "tf.keras.ops.isin(tf.constant([1.5, 2.0]), tf.constant([2.0]), assume_unique=True)")
    out = []
    for call in calls:
        out.append((call, "keras.ops", _eager(call)))
        out.append((f"{call} in a tf.function", "keras.ops", _traced(call)))
    out.append(("keras.ops.isin in a tf.function with AutoGraph on", "keras.ops", _isin_autograph))
    return out


def _isin_autograph(tf: Any) -> Any:
    return tf.function(lambda x: tf.keras.ops.isin(x, tf.constant([2])))(tf.constant([1, 2, 3]))


# --- tf.case of no pair (and exclusive=True's count, below): control_flow_case unpacks `predicates, actions = zip(*pred_fn_pairs)`, ValueError "not
# enough values to unpack (expected 2, got 0)", a default given or not (fz51b seed 51101 #21; simdist raised
# IndexError without a default and returned the default with one).
def _case_cases() -> list[tuple[str, str, object]]:
    t, f = "tf.constant(True)", "tf.constant(False)"
    calls = ("tf.case([], default=lambda: tf.constant(1))", "tf.case([])", "tf.case((), default=lambda: tf.constant(2.0))",
             "tf.case([(tf.constant(False), lambda: tf.constant(1))], default=lambda: tf.constant(2))",
             # exclusive=True counts the pairs left once the default is made (fz51b seed 51103 #38)
             f"tf.case([({t}, lambda: tf.constant(1.0))], exclusive=True)",
             f"tf.case([({t}, lambda: tf.constant(1.0)), ({t}, lambda: tf.constant(2.0))], default=lambda: tf.constant(3.0), exclusive=True)",
             f"tf.case([({t}, lambda: tf.constant(1.0)), ({t}, lambda: tf.constant(2.0))], exclusive=True)",
             f"tf.case([({t}, lambda: tf.constant(1.0)), ({t}, lambda: tf.constant(2.0)), ({t}, lambda: tf.constant(3.0))], exclusive=True)",
             f"tf.case([({f}, lambda: tf.constant(1.0)), ({t}, lambda: tf.constant(2.0)), ({t}, lambda: tf.constant(3.0))], exclusive=True)",
             f"tf.case([({t}, lambda: tf.constant(1.0)), ({f}, lambda: tf.constant(2.0))], default=lambda: tf.constant(3.0), exclusive=True)")
    out = []
    for call in calls:
        out.append((call, "ops.function-utilities", _eager(call)))
        out.append((f"{call} in a tf.function", "ops.function-utilities", _traced(call)))
    return out


# --- tf.while_loop carrying a tf.TensorArray inside a tf.function: while_v2 carries the array's flow tensor; simdist
# converted every loop variable to a tensor (TypeError "Failed to convert elements of <TensorArray ...>"), so
# keras.ops.scan (Keras's TF backend: a while_loop over lists of TensorArrays) failed in every tf.function (fz51b seed
# 51102 #11, #40).
def _ta_loop(kind: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        def body_of(n: Any) -> Any:
            def f(x: Any) -> Any:
                ta = tf.TensorArray(tf.float32, size=n)
                loop_vars = (0, [ta]) if kind == "list" else (0, ta)

                def body(i: Any, t: Any) -> Any:
                    v = x[i] * tf.cast(i + 1, tf.float32)
                    return (i + 1, [a.write(i, v) for a in t]) if kind == "list" else (i + 1, t.write(i, v))
                _, out = tf.while_loop(lambda i, t: i < n, body, loop_vars)
                return (out[0] if kind == "list" else out).stack()
            return f
        g = tf.function(body_of(3), autograph=False)
        first = g(tf.constant([1.0, 2.0, 3.0]))
        second = g(tf.constant([-1.0, 0.5, 4.0]))   # (a second call: the loop's Python runs again)
        x = tf.Variable([2.0, -1.0, 0.5])
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.function(body_of(3), autograph=False)(x) ** 2)
        return [first, second, y, tape.gradient(y, x)]
    return run


def _scan(tf: Any) -> Any:
    xs = tf.Variable([[1.0, 2.0], [3.0, -4.0], [0.5, 6.0]])
    f = tf.function(lambda x: tf.keras.ops.scan(lambda c, v: (c + v, c * v), tf.zeros([2]), x), autograph=False)
    with tf.GradientTape() as tape:
        carry, ys = f(xs)
        loss = tf.reduce_sum(carry) + tf.reduce_sum(ys * ys)
    return [carry, ys, f(tf.constant([[2.0, 1.0]])), tape.gradient(loss, xs)]


def _ta_cases() -> list[tuple[str, str, object]]:
    return [("tf.while_loop carrying a TensorArray in a tf.function (two calls, a gradient)", "ops.control-flow",
             _ta_loop("plain")),
            ("tf.while_loop carrying a list of TensorArrays in a tf.function (two calls, a gradient)",
             "ops.control-flow", _ta_loop("list")),
            ("keras.ops.scan in a tf.function (two calls, a gradient)", "ops.control-flow", _scan)]


# --- tf.constant of a tf.TensorShape in a tf.function: a graph's make_tensor_proto has no conversion function for it:
# with a dtype _AssertCompatible's TypeError "Expected int32, but got (1, 4) of type 'TensorShape'.", without one
# np.array's shape [2] against the dense shape [] of a non-list (ValueError); eagerly, and through convert_to_tensor,
# it converts (fz51b seed 51103 #18: `tf.constant(tf.experimental.numpy.shape(x), tf.int32)`).
def _shape_constant_cases() -> list[tuple[str, str, object]]:
    calls = ("tf.constant(tf.TensorShape([1, 4]), tf.int32)", "tf.constant(tf.TensorShape([1, 4]))",
             "tf.constant(tf.TensorShape([]), tf.int64)", "tf.convert_to_tensor(tf.TensorShape([1, 4]))",
             "tf.constant(tf.experimental.numpy.shape(tf.zeros([1, 4])), tf.int32)",
             "tf.constant(tf.zeros([2, 3]).shape, tf.float32)")
    out = []
    for call in calls:
        out.append((call, "ops.conversion", _eager(call)))
        out.append((f"{call} in a tf.function", "ops.conversion", _traced(call)))
    return out


# --- a graph tensor as a TensorSpec's shape: TensorShape iterates the value, a graph tensor refuses iteration with a
# TypeError, so TF takes it as one dimension, which as_dimension refuses (TypeError "Dimension value must be integer
# or None or have an __index__ method"); an eager shape vector is its dimensions. Keras's nanquantile/nanpercentile
# along an axis build `tf.TensorSpec(shape=tf.shape(q))`, so they fail to trace (fz51b seed 51104 #24, #36).
def _spec_shape_cases() -> list[tuple[str, str, object]]:
    calls = ("tf.constant(tf.TensorSpec(shape=tf.shape(tf.zeros([2, 3]))).shape.as_list())",
             "tf.keras.ops.nanquantile(tf.constant([[1.0, float('nan')], [2.0, 3.0]]), 1.0, axis=0, method='lower', keepdims=True)",
             "tf.keras.ops.nanpercentile(tf.constant([[1.0, float('nan')], [2.0, 3.0]]), 100, axis=1, method='higher')",
             "tf.keras.ops.nanquantile(tf.constant([[1.0, float('nan')], [2.0, 3.0]]), 0.5)")
    out = []
    for call in calls:
        out.append((call, "ops.tensor-shape-methods", _eager(call)))
        out.append((f"{call} in a tf.function", "ops.tensor-shape-methods", _traced(call)))
    return out


CASES: list[tuple] = [
    *_spec_shape_cases(),
    *_shape_constant_cases(),
    *_ta_cases(),
    *_variable_cases(),
    *_graph_truth_cases(),
    *_case_cases(),
]


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: case[3] if len(case) > 3 else edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, object]:
    return EDGES.tf_answers()


@clause("keras.ops")
@EDGES.parametrize("keras.ops")
def test_keras_ops_of_variables_and_graph_truths(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.control-flow")
@EDGES.parametrize("ops.control-flow")
def test_while_loop_carrying_tensor_arrays(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_constant_of_a_tensor_shape_in_a_graph(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.tensor-shape-methods")
@EDGES.parametrize("ops.tensor-shape-methods")
def test_a_graph_tensor_as_a_spec_shape(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.function-utilities")
@EDGES.parametrize("ops.function-utilities")
def test_case_of_no_pair_and_exclusive_counts(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz51b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
