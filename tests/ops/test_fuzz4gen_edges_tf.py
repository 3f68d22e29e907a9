"""The rules issue 29's fourth generator (tests/fuzz4/, seeds 1-3: the API called the way users write
it) found wrong, each against real TensorFlow 2.21: the same program on both backends gives the
same dtypes and bits, or raises the same exception class. tf.function's tracing count and its
NumPy arguments, graph tensors read in Python inside a tf.function (`.numpy()`, bool, iteration,
len, int/float, NumPy conversion) and what a tf.function may return, Variable slice assignment,
iteration and assign_add/assign_sub shape errors. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _count(body: str, calls: list[str]) -> Callable[[Any], Any]:
    """tf.function(lambda x, s: <body>) (made by eval: AutoGraph cannot read it) called with each
    `(x, s)` of `calls` (text over tf/np, a Variable v = [1., 2.], w = [1, 2]): each call's outcome
    class, then the tracing count."""
    def run(tf: Any) -> Any:
        ns = {"tf": tf, "np": np, "v": tf.Variable([1.0, 2.0]), "w": tf.Variable([1, 2])}
        g = tf.function(eval(f"lambda x, s: {body}", ns))  # noqa: S307 - our text
        out = []
        for c in calls:
            try:
                g(*eval(c, ns))  # noqa: S307 - our text
                out.append("ok")
            except Exception as e:  # noqa: BLE001 - the class is the result
                out.append(type(e).__name__)
        return [np.array(out), g.experimental_get_tracing_count()]
    return run


def _graph(body: str, arg: str = "tf.constant([1.0, 2.0])") -> Callable[[Any], Any]:
    """tf.function(lambda x: <body>) made by eval (AutoGraph cannot convert it), called on `arg`."""
    def run(tf: Any) -> Any:
        ns = {"tf": tf, "np": np, "c": tf.constant([3.0, 4.0])}
        x = eval(arg, ns)  # noqa: S307 - our text
        return tf.function(eval(f"lambda x: {body}", ns))(x)  # noqa: S307 - our text
    return run


def _slice_assign(value: Any, dtype: str, key: Callable[[Any], Any], new: Any) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        v = tf.Variable(value, dtype=getattr(tf, dtype))
        r = key(v).assign(new(tf) if callable(new) else new)
        return [r, v]
    return run


def _in_function_slice_assign(new: Any) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        v = tf.Variable([1.0, 2.0, 3.0])
        f = tf.function(eval("lambda x: x[1:].assign(" + repr(new) + ")", {}))  # noqa: S307 - our text
        f(v)
        f(v)
        return v
    return run


def _grad_target(body: str) -> Callable[[Any], Any]:
    """tape.gradient of `<body>` (a non-tensor) with respect to a Variable x = [1., 2.]."""
    def run(tf: Any) -> Any:
        x = tf.Variable([1.0, 2.0])
        with tf.GradientTape() as tape:
            y = eval(body, {"x": x, "tf": tf})  # noqa: S307 - our text
        return tape.gradient(y, [x])
    return run


def _where_on_tape(tf: Any) -> Any:
    x = tf.constant([[0.0, 1.5, -2.0]], tf.float16)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.where(condition=x != 0, x=0, y=x)
    return [y, tape.gradient(y, x)]


def _py_function_numpy(tf: Any) -> Any:
    f = tf.function(eval("lambda x: tf.py_function(lambda t: t.numpy() * 2, [x], tf.float32)", {"tf": tf}))  # noqa: S307
    return f(tf.constant([1.0, 2.0]))


def _autograph_len(tf: Any) -> Any:
    """A function AutoGraph converts (its source is this file): len of a graph tensor computes."""
    return tf.function(lambda x: len(x))(tf.constant([1.0, 2.0, 3.0]))


CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- tracing count: literals by value (1, 1.0, True are one), tensors and variables by spec
    ("count-literals-by-value", "function.tracing-count",
     _count("x + s", ["(tf.constant(1.), 1)", "(tf.constant(1.), 1.0)", "(tf.constant(1.), True)",
                      "(tf.constant(1.), 2)"])),
    ("count-tensors-by-spec", "function.tracing-count",
     _count("x + s", ["(tf.constant(1.), 2)", "(tf.constant([1., 2.]), 2)", "(tf.constant([3., 2.]), 2)",
                      "(tf.constant([1]), 2)"])),
    ("count-variables-by-spec", "function.tracing-count",
     _count("x + s", ["(v, 1)", "(tf.Variable([3., 4.]), 1)", "(w, 1)", "(tf.constant([1., 2.]), 1)"])),
    ("count-numpy-scalars-as-tensors", "function.tracing-count",
     _count("x + s", ["(tf.constant(1.), np.float32(2))", "(tf.constant(1.), np.float32(3))",
                      "(tf.constant(1.), np.float64(3))"])),
    ("count-lists-and-tuples", "function.tracing-count",
     _count("x + s", ["(tf.constant(1.), [1, 2])", "(tf.constant(1.), [1, 2])", "(tf.constant(1.), (1, 2))"])),
    ("count-failed-trace-not-counted", "function.tracing-count",
     _count("x.numpy() + s", ["(tf.constant(1.), 1)", "(tf.constant(1.), 1)"])),
    ("count-run-time-error-counted", "function.tracing-count",
     _count("tf.gather(x, [s])", ["(tf.constant([1., 2.]), 5)", "(tf.constant([1., 2.]), 5)",
                                  "(tf.constant([1., 2.]), 1)"])),
    ("count-trace-time-error-not-counted", "function.tracing-count",
     _count("x + s", ["(tf.constant(1), 2.5)", "(tf.constant(1), 2.5)", "(tf.constant(1.), 2.5)"])),
    # -- NumPy arguments are tensors inside the function
    ("numpy-scalar-argument-is-a-tensor", "function.symbolic-tensors",
     _graph("tf.constant(isinstance(x, tf.Tensor))", "np.float32(2)")),
    ("numpy-list-item-is-a-tensor", "function.symbolic-tensors",
     _graph("tf.constant(isinstance(x[0], tf.Tensor))", "[np.float32(2)]")),
    ("python-float-stays-a-float", "function.symbolic-tensors",
     _graph("tf.constant(isinstance(x, tf.Tensor))", "2.0")),
    ("float64-array-argument-meets-float32", "function.symbolic-tensors",
     _graph("tf.constant([1.0, 2.0]) + x", "np.array([1.0, 2.0])")),
    # -- graph tensors read in Python
    ("numpy-of-graph-tensor", "function.symbolic-tensors", _graph("x.numpy()")),
    ("numpy-of-variable-in-graph", "function.symbolic-tensors", _graph("x.numpy()", "tf.Variable([1.0, 2.0])")),
    ("bool-of-graph-tensor", "function.symbolic-tensors", _graph("tf.constant(bool(x[0]))")),
    ("not-of-graph-tensor", "function.symbolic-tensors", _graph("tf.constant(not x[0])")),
    ("iterate-graph-tensor", "function.symbolic-tensors", _graph("tf.stack(list(x))")),
    ("iterate-variable-in-graph", "function.symbolic-tensors", _graph("tf.stack(list(x))", "tf.Variable([1.0])")),
    ("len-of-graph-tensor", "function.symbolic-tensors", _graph("tf.constant(len(x))")),
    ("float-of-graph-tensor", "function.symbolic-tensors", _graph("tf.constant(float(x[0]))")),
    ("int-of-graph-tensor", "function.symbolic-tensors", _graph("tf.constant(int(x[0]))")),
    ("graph-tensor-as-list-index", "function.symbolic-tensors",
     _graph("tf.constant([1, 2, 3][x[0]])", "tf.constant([1, 0])")),
    ("asarray-of-graph-tensor", "function.symbolic-tensors", _graph("np.asarray(x)")),
    ("np-sum-of-graph-tensor", "function.symbolic-tensors", _graph("np.sum(x)")),
    ("captured-eager-tensor-stays-eager", "function.symbolic-tensors",
     _graph("x + c.numpy() + len(c)")),
    ("op-on-captured-tensor-is-graph", "function.symbolic-tensors", _graph("x + float(c[0] * 2)")),
    ("returns-shape-as-int32", "function.symbolic-tensors", _graph("x.shape", "tf.constant([[1.0, 2.0]])")),
    ("returns-shape-slice", "function.symbolic-tensors", _graph("x.shape[1:]", "tf.constant([[1.0, 2.0]])")),
    ("returns-string-and-numbers", "function.symbolic-tensors", _graph("(x, 1, 2.5, 'a')")),
    ("returns-dtype-refused", "function.symbolic-tensors", _graph("x.dtype")),
    ("returns-partial-shape-refused", "function.symbolic-tensors", _graph("tf.TensorShape([None, 2])")),
    ("py-function-gets-eager-tensors", "function.symbolic-tensors", _py_function_numpy),
    ("autograph-converted-len", "function.symbolic-tensors", _autograph_len),
    ("star-args-input-signature", "function.symbolic-tensors",
     lambda tf: tf.function(eval("lambda *a: a[0] + 1", {}),  # noqa: S307
                            input_signature=[tf.TensorSpec([2], tf.float32)]).get_concrete_function()(
         tf.constant([1.0, 2.0]))),
    # -- Python protocol and conversions eagerly (ops.conversion)
    ("round-of-tensor", "ops.conversion", lambda tf: round(tf.constant(2.5))),
    ("round-of-variable", "ops.conversion", lambda tf: round(tf.Variable(2.5))),
    ("shape-plus-list", "ops.conversion", lambda tf: tf.constant((tf.TensorShape([2]) + [3]).as_list())),
    ("list-plus-shape", "ops.conversion", lambda tf: tf.constant(([1] + tf.TensorShape([2])).as_list())),
    ("autopack-tensor-and-int", "ops.conversion", lambda tf: tf.convert_to_tensor([tf.constant([3.0, 4.0])[0], 1])),
    ("autopack-variable-init", "ops.conversion",
     lambda tf: tf.Variable([tf.constant([3.0, 4.0])[0], 1]).read_value()),
    ("autopack-int-tensor-and-float", "ops.conversion", lambda tf: tf.convert_to_tensor([tf.constant(3), 1.5])),
    ("autopack-mixed-tensors", "ops.conversion",
     lambda tf: tf.convert_to_tensor([tf.constant(3), tf.constant(1.5)])),
    ("gradient-of-numpy-dtype", "ops.conversion", _grad_target("x.numpy().dtype")),
    ("gradient-of-numpy-type", "ops.conversion", _grad_target("x.dtype.as_numpy_dtype")),
    ("constant-of-list-with-tensor", "ops.conversion", lambda tf: tf.constant([tf.constant([3.0, 4.0])[0], 1])),
    ("constant-of-tensors-in-function", "ops.conversion",
     lambda tf: tf.function(lambda: tf.constant([tf.constant(3.0), 1]))()),
    ("matmul-list-takes-a-dtype", "ops.conversion",
     lambda tf: tf.matmul(tf.constant([[1.0, 2.0]], tf.float16), [[3.0], [1.0]])),
    ("matmul-ndarray-takes-a-dtype", "ops.conversion",
     lambda tf: tf.matmul(tf.constant([[1.0, 2.0]]), np.ones((2, 1)))),
    ("matmul-int-beside-float-list", "ops.conversion",
     lambda tf: tf.matmul(tf.constant([[1, 2]]), [[3.0], [1.0]])),
    ("constant-of-tensor-other-dtype", "ops.conversion", lambda tf: tf.constant(tf.constant([3.0, -4.0]), tf.int8)),
    ("constant-of-tensor-with-shape", "ops.conversion", lambda tf: tf.constant(tf.constant([3.0, -4.0]), shape=[2, 1])),
    ("reduce-any-numpy-axis-of-floats", "ops.conversion",
     lambda tf: tf.reduce_any(tf.constant([3.0, 0.0]), axis=np.int32(-1))),
    ("reduce-any-ndarray-axis-of-floats", "ops.conversion",
     lambda tf: tf.reduce_any(tf.constant([3.0, 0.0]), axis=np.array([0]))),
    ("where-scalar-beside-variable", "ops.conversion",
     lambda tf: tf.where([True, False], 0, tf.Variable([1.0, 2.0], dtype=tf.float16))),
    ("where-scalar-beside-watched-tensor", "ops.conversion", _where_on_tape),
    ("gradient-of-tf-dtype", "ops.conversion", _grad_target("x.dtype")),
    ("slice-scalar-in-graph", "function.symbolic-tensors",
     lambda tf: tf.function(eval("lambda x: x[-2:]", {}),  # noqa: S307
                            input_signature=[tf.TensorSpec([], tf.float32)]).get_concrete_function()),
    ("index-past-rank-in-graph", "function.symbolic-tensors",
     lambda tf: tf.function(eval("lambda x: x[0, 0]", {}),  # noqa: S307
                            input_signature=[tf.TensorSpec([2], tf.float32)]).get_concrete_function()),
    # -- a float reduction over one element per output copies it (its sign kept)
    ("sum-of-one-negative-zero", "ops.conversion",
     lambda tf: [tf.reduce_sum(tf.constant([-0.0], d)) for d in (tf.float16, tf.float32, tf.float64, tf.bfloat16)]),
    ("sum-of-two-negative-zeros", "ops.conversion", lambda tf: tf.reduce_sum(tf.constant([-0.0, -0.0]))),
    ("sum-along-size-one-axis", "ops.conversion",
     lambda tf: [tf.reduce_sum(tf.constant([[-0.0], [-0.0]]), axis=1),
                 tf.reduce_sum(tf.constant([[-0.0, -0.0, 1.0]]), axis=0, keepdims=True),
                 tf.reduce_sum(tf.constant([[-0.0]]), axis=[0, 1])]),
    ("mean-of-one-negative-zero", "ops.conversion", lambda tf: tf.reduce_mean(tf.constant([-0.0], tf.float64))),
    ("norm-of-one-negative-zero", "ops.conversion", lambda tf: tf.math.reduce_euclidean_norm(tf.constant([-0.0]))),
    # -- argument errors of split and tensordot (ops.argument-errors)
    ("split-axis-none", "ops.argument-errors", lambda tf: tf.split(tf.constant([1.0, 2.0]), 2, axis=None)),
    ("split-scalar", "ops.argument-errors", lambda tf: tf.split(1, 2)),
    ("split-scalar-sizes", "ops.argument-errors", lambda tf: tf.split(tf.constant(1.0), [1, 1])),
    ("split-list-axis-sizes", "ops.argument-errors", lambda tf: tf.split(tf.zeros([3, 2]), [1, -1], axis=[0])),
    ("split-list-axis-count", "ops.argument-errors", lambda tf: tf.split(tf.zeros([3, 2]), 3, axis=[0])),
    ("unstack-num-mismatch", "ops.argument-errors", lambda tf: tf.unstack(tf.zeros([3, 2]), num=2)),
    ("unstack-num-matches", "ops.argument-errors", lambda tf: tf.unstack(tf.zeros([3, 2]), num=3)),
    ("tensordot-scalar-axes", "ops.argument-errors", lambda tf: tf.tensordot(2.5, 2.5, axes=([0], [0]))),
    ("tensordot-axis-past-rank", "ops.argument-errors",
     lambda tf: tf.tensordot([1.0, 2.0], [1.0, 2.0], axes=([1], [0]))),
    ("tensordot-axis-below-rank", "ops.argument-errors",
     lambda tf: tf.tensordot([1.0, 2.0], [1.0, 2.0], axes=([-2], [0]))),
    ("tensordot-negative-axes", "ops.argument-errors",
     lambda tf: tf.tensordot([1.0, 2.0], [1.0, 2.0], axes=([-1], [-1]))),
    # -- Variable slice assignment (TF's _SliceHelperVar: strided_slice_assign, broadcasting)
    ("slice-assign-tail", "ops.variable-slices",
     _slice_assign([1.0, 2.0, 3.0], "float32", lambda v: v[1:], [5.0, 6.0])),
    ("slice-assign-broadcasts", "ops.variable-slices",
     _slice_assign([1.0, 2.0, 3.0], "float32", lambda v: v[1:], [5.0])),
    ("slice-assign-too-long", "ops.variable-slices",
     _slice_assign([1.0, 2.0, 3.0], "float32", lambda v: v[1:], [1.0, 2.0, 3.0])),
    ("slice-assign-element-list", "ops.variable-slices",
     _slice_assign([1.0, 2.0, 3.0], "float32", lambda v: v[0], [1.0, 2.0])),
    ("slice-assign-float64-numpy-scalar", "ops.variable-slices",
     _slice_assign([1.0, 2.0, 3.0], "float32", lambda v: v[0], np.float64(4.0))),
    ("slice-assign-float64-tensor", "ops.variable-slices",
     _slice_assign([1.0, 2.0, 3.0], "float32", lambda v: v[0], lambda tf: tf.constant(4.0, tf.float64))),
    ("slice-assign-computed-index", "ops.variable-slices",
     _slice_assign([1.0, 2.0, 3.0], "float32", lambda v: v[v.dtype.size // 4], 4)),
    ("slice-assign-newaxis", "ops.variable-slices",
     _slice_assign([1.0, 2.0, 3.0], "float32", lambda v: v[..., None], [[9.0], [8.0], [7.0]])),
    ("slice-assign-empty", "ops.variable-slices",
     _slice_assign([1.0, 2.0, 3.0], "float32", lambda v: v[5:], [])),
    ("slice-assign-out-of-range", "ops.variable-slices",
     _slice_assign([1.0, 2.0, 3.0], "float32", lambda v: v[5], 1.0)),
    ("slice-assign-column", "ops.variable-slices",
     _slice_assign([[1, 2], [3, 4]], "int32", lambda v: v[:, 0], [7, 8])),
    ("slice-assign-reversed", "ops.variable-slices",
     _slice_assign([[1, 2], [3, 4]], "int32", lambda v: v[::-1, ::-1], [[1, 2], [3, 4]])),
    ("slice-assign-bool", "ops.variable-slices",
     _slice_assign([[True], [False]], "bool", lambda v: v[1:], [[True]])),
    ("slice-of-tensor-has-no-assign", "ops.variable-slices",
     lambda tf: tf.constant([1, 2])[0].assign(1)),
    ("slice-assign-add-missing", "ops.variable-slices",
     lambda tf: tf.Variable([1.0, 2.0])[1:].assign_add([1.0])),
    ("slice-assign-in-function", "ops.variable-slices", _in_function_slice_assign([0.0, 0.0])),
    ("slice-assign-in-function-mismatch", "ops.variable-slices", _in_function_slice_assign([0.0, 0.0, 1.0])),
    # -- Variable writes' shapes and iteration
    ("assign-add-scalar-to-vector", "ops.variable-slices",
     lambda tf: tf.Variable([1.0, 2.0, 3.0]).assign_add(np.float16(1.5))),
    ("assign-sub-wrong-length", "ops.variable-slices",
     lambda tf: tf.Variable([1.0, 2.0, 3.0]).assign_sub([1.0, 2.0])),
    ("assign-add-shape-in-function", "ops.variable-slices",
     lambda tf: tf.function(eval("lambda x: x.assign_add(1.0)", {}))(tf.Variable([1.0, 2.0]))),  # noqa: S307
    ("assign-wrong-length", "ops.variable-slices",
     lambda tf: tf.Variable([1.0, 2.0, 3.0]).assign([1.0])),
    ("assign-add-int64-tensor", "ops.variable-slices",
     lambda tf: tf.Variable([1.0, 2.0]).assign_add(tf.constant([0, 0], tf.int64))),
    ("assign-float64-tensor", "ops.variable-slices",
     lambda tf: tf.Variable([1.0, 2.0]).assign(tf.constant([0.0, 0.0], tf.float64))),
    ("iterate-variable", "ops.variable-slices", lambda tf: list(tf.Variable([1.0, 2.0]))),
    ("iterate-scalar-variable", "ops.variable-slices", lambda tf: list(tf.Variable(1.0))),
]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("function.tracing-count")
@EDGES.parametrize("function.tracing-count")
def test_tracing_count(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.symbolic-tensors")
@EDGES.parametrize("function.symbolic-tensors")
def test_graph_tensors_in_python(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_protocol_and_conversions(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_split_and_tensordot_arguments(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.variable-slices")
@EDGES.parametrize("ops.variable-slices")
def test_variable_slices_and_writes(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fuzz4gen_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
