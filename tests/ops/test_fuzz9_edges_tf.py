"""Rules issue 29's ninth campaign (fz9: the fourth fuzzer's seeds 21-23 and 31-33, the second's
51, 61-62) found wrong, each against real TensorFlow 2.21: the same calls on both backends give
the same dtypes and bits, or raise the same exception class. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

NAN = float("nan")


def _fn(body: str) -> Callable[[Any], Any]:
    """tf.function(lambda: <body>)() (tf and np in scope)."""
    def run(tf: Any) -> Any:
        return tf.function(eval(f"lambda: {body}", {"tf": tf, "np": np}))()  # noqa: S307 - our text
    return run


def _eager(body: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        return eval(body, {"tf": tf, "np": np})  # noqa: S307 - our text
    return run


def _sig(body: str, value: Any, spec: Any) -> Callable[[Any], Any]:
    """tf.function(lambda x: <body>, input_signature=[TensorSpec(spec, dtype of value)]) called on
    `value` (a NumPy array)."""
    def run(tf: Any) -> Any:
        x = tf.constant(value)
        f = tf.function(eval(f"lambda x: {body}", {"tf": tf, "np": np}),  # noqa: S307 - our text
                        input_signature=[tf.TensorSpec(spec, x.dtype)])
        return f(x)
    return run


def _exec_fn(body: str, init: Any) -> Callable[[Any], Any]:
    """A tf.function made from exec'd source (AutoGraph cannot read it) over a Variable(init)."""
    def run(tf: Any) -> Any:
        ns: dict[str, Any] = {"tf": tf, "v": tf.Variable(init)}
        exec(f"def g():\n    return {body}\n", ns)  # noqa: S102 - our text
        return tf.function(ns["g"])()
    return run


def _failed_trace(write: str, init: Any, calls: int = 2) -> Callable[[Any], Any]:
    """A tf.function that writes a Variable(init) with <write>, then returns its dtype (a trace-time
    TypeError), called `calls` times: the variable's value afterwards."""
    def run(tf: Any) -> Any:
        v = tf.Variable(init)
        f = tf.function(eval(f"lambda: ({write}, v.dtype)[1]", {"tf": tf, "np": np, "v": v}))  # noqa: S307
        for _ in range(calls):
            try:
                f()
            except TypeError:
                pass
        return v.read_value()
    return run


def _run_error_keeps_writes(tf: Any) -> Any:
    """A write before a kernel's error in a traced graph stays (the graph ran up to it)."""
    v = tf.Variable([1.0, 2.0])
    f = tf.function(lambda i: (v.assign_add([1.0, 1.0]), tf.gather(v, i))[1])
    try:
        f(tf.constant(5))
    except tf.errors.InvalidArgumentError:
        pass
    return v.read_value()


def _nested_failed_trace(tf: Any) -> Any:
    """An inner tf.function whose trace fails inside an outer one that catches the error."""
    w = tf.Variable(1.0)
    inner = tf.function(lambda: (w.assign(5.0), w.dtype)[1])

    @tf.function
    def outer() -> Any:
        w.assign_add(1.0)
        try:
            inner()
        except TypeError:
            pass
        return w.read_value()
    return [outer(), w.read_value()]


def _dims(tf: Any, shape: Any) -> Any:
    """[type name, str(d), d.value or -1] of each Dimension of TensorShape(shape).dims (a flat list)."""
    out: list[Any] = []
    for d in tf.TensorShape(shape).dims:
        out += [type(d).__name__, str(d), -1 if d.value is None else d.value]
    return out


def _dimension_ops(tf: Any) -> Any:
    D = tf.compat.v1.Dimension
    a, b, u = D(3), D(2), D(None)
    vals = [a + b, a - b, a * b, a // b, a % b, 3 + a, 7 - a, 7 // a, a + u]
    out: list[Any] = [-1 if d.value is None else d.value for d in vals]
    out += [a == 3, a == u, a != 2, a < b, a < u, a <= 3, u > 1, int(a), bool(D(0)), [0, 1, 2, 3][b]]
    return [str(x) for x in out]


def _dimension_error(expr: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        D = tf.compat.v1.Dimension  # noqa: F841 - read by the expression
        return eval(expr, {"tf": tf, "np": np, "D": D})  # noqa: S307 - our text
    return run


def _clear(tf: Any) -> None:
    """Empty the backend's eager scalar cache (a new process's state)."""
    if tf.__name__.startswith("simdist"):
        from simdist.runtime import scalar_cache
        scalar_cache.clear()
    else:
        from tensorflow.python import pywrap_tfe
        pywrap_tfe.TFE_ClearScalarCache()


def _zero_after(first: str) -> Callable[[Any], Any]:
    """On an empty scalar cache, <first> (its error ignored), then `tf.constant(1.5) * 0.0`: the
    sign of the zero the cache gives 0.0 under (0.0, float32)."""
    def run(tf: Any) -> Any:
        _clear(tf)
        v = tf.Variable(0.0)  # noqa: F841 - read by the expression
        try:
            eval(first, {"tf": tf, "np": np, "v": v})  # noqa: S307 - our text
        except Exception:  # noqa: BLE001 - only the conversion before the error matters
            pass
        return tf.constant(1.5) * 0.0
    return run


def _stack_tensor_axis(first: str, second: str) -> Callable[[Any], Any]:
    """tf.stack([<first>, <second>], axis=tf.constant(1)) over a float16 constant x1, a float32
    constant c and a float32 variable v (2x2 each)."""
    def run(tf: Any) -> Any:
        ns = {"x1": tf.constant(np.zeros((2, 2), np.float16)), "c": tf.constant(np.ones((2, 2), np.float32)),
              "v": tf.Variable(np.ones((2, 2), np.float32)), "tf": tf}
        return tf.stack([eval(first, ns), eval(second, ns)], axis=tf.constant(1))  # noqa: S307 - our text
    return run


def _tape_gradient(build: str) -> Callable[[Any], Any]:
    """The gradient of <build> over a watched float32 x [[-2], [1], [0]], unconnected as None."""
    def run(tf: Any) -> Any:
        x = tf.constant([[-2.0], [1.0], [0.0]])
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = eval(build, {"tf": tf, "x": x})  # noqa: S307 - our text
        g = tape.gradient(y, x)
        return "None" if g is None else g
    return run


def _slice_assign(init: Any, key: str, value: Any) -> Callable[[Any], Any]:
    """v = Variable(zeros(init, int32)); v<key>.assign(value); v's value."""
    def run(tf: Any) -> Any:
        v = tf.Variable(np.zeros(init, np.int32))
        eval(f"v{key}", {"v": v}).assign(value)  # noqa: S307 - our text
        return v.read_value()
    return run


def _ragged_bool(tf: Any) -> Any:
    return tf.function(lambda: tf.constant([[1, 2], [3]], dtype=bool))()


CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- make_tensor_proto's type check of a graph constant (fz4 seed 23 #181)
    ("traced-ragged-ints-as-bool", "ops.conversion", _ragged_bool),
    ("traced-ints-as-bool", "ops.conversion", _fn("tf.constant([1, 0], dtype=bool)")),
    ("traced-mixed-bools-as-bool", "ops.conversion", _fn("tf.constant([[True, 1], [0, False]], dtype=bool)")),
    ("traced-numpy-bool-scalar-in-list", "ops.conversion", _fn("tf.constant([np.True_], dtype=bool)")),
    ("eager-numpy-bool-scalar-in-list", "ops.conversion", _eager("tf.constant([np.True_], dtype=bool)")),
    ("traced-bool-array-in-list", "ops.conversion", _fn("tf.constant([np.array([True])], dtype=bool)")),
    ("traced-float32-scalar-as-int", "ops.conversion", _fn("tf.constant([np.float32(1.5)], dtype=tf.int32)")),
    ("traced-ragged-ints", "ops.conversion", _fn("tf.constant([[1, 2], [3]], dtype=tf.int32)")),
    ("traced-none-as-int8", "ops.conversion", _fn("tf.constant(None, tf.int8)")),
    ("traced-bools-as-float16", "ops.conversion", _fn("tf.constant([True, 2], dtype=tf.float16)")),
    ("traced-logical-and-tuple-of-floats", "ops.conversion",
     _fn("tf.math.logical_and(x=(0.1, -7.25, 3.0), y=np.bool_(False))")),
    # -- a graph tensor as tf.constant's shape: make_tensor_proto's np.prod (fz4 seed 32 #86)
    ("sig-constant-of-argument-with-tensor-shape", "ops.conversion",
     _sig("tf.constant(x, dtype=np.float32, shape=tf.constant([2, 3], tf.int32))", np.zeros((3, 2)), [3, 2])),
    ("traced-constant-of-list-with-tensor-shape", "ops.conversion",
     _fn("tf.constant([1.0, 2.0], dtype=np.float32, shape=tf.constant([2, 1], tf.int32))")),
    ("sig-constant-of-argument", "ops.conversion", _sig("tf.constant(x, dtype=np.float32)", np.zeros((3, 2)), [3, 2])),
    ("constant-with-tensor-shape", "ops.conversion",
     _eager("tf.constant([1.0, 2.0], dtype=np.float32, shape=tf.constant([2, 1], tf.int32))")),
    # -- a Python sequence as logical_and's first operand converts with dtype bool (fz4 seed 33 #161)
    ("logical-and-tuple-of-floats-numpy-bool", "ops.conversion",
     _eager("tf.math.logical_and(x=(0.1, -7.25, 3.0), y=np.bool_(False))")),
    ("logical-and-tuple-of-ints-numpy-bool", "ops.conversion", _eager("tf.math.logical_and((1, 0, 1), np.bool_(False))")),
    ("logical-and-bools-numpy-bool", "ops.conversion",
     _eager("tf.math.logical_and([True, False, True], np.bool_(False))")),
    ("logical-and-floats-python-bool", "ops.conversion", _eager("tf.math.logical_and((0.1, 2.0, 3.0), True)")),
    ("logical-or-nested-ints-list", "ops.conversion", _eager("tf.math.logical_or([[1], [0]], [True])")),
    ("logical-and-mixed-bools-tensor", "ops.conversion",
     _eager("tf.math.logical_and([True, 1, False], tf.constant([True, False, True]))")),
    # -- Pack's axis as a tensor: the eager fallback converts a variable to the first tensor's dtype
    #    (fz4 seed 31 #146)
    ("stack-tensor-axis-variable-after-half", "ops.conversion", _stack_tensor_axis("x1", "v")),
    ("stack-tensor-axis-half-after-variable", "ops.conversion", _stack_tensor_axis("v", "x1")),
    ("stack-tensor-axis-tensors", "ops.conversion", _stack_tensor_axis("x1", "c")),
    ("stack-tensor-axis-same-dtype", "ops.conversion", _stack_tensor_axis("c", "v")),
    ("stack-tensor-axis-list", "ops.conversion", _stack_tensor_axis("x1", "[[1.0, 2.0], [3.0, 4.0]]")),
    ("stack-int-axis-variable-after-half", "ops.conversion",
     lambda tf: tf.stack([tf.constant(np.zeros((2, 2), np.float16)), tf.Variable(np.ones((2, 2), np.float32))], axis=1)),
    # -- `bool_tensor * ndarray`: the array's own dtype, then to bool through int32 (fz4 seed 31 #130)
    ("bool-times-float64-array", "ops.conversion",
     _eager("tf.constant([True, True, True, True]) * np.array([0.0, 0.1, 3.0, -0.5])")),
    ("bool-times-float32-array-extremes", "ops.conversion",
     _eager("tf.constant([True, True, True, True]) * np.array([0.5, 1e10, np.nan, -3.0], np.float32)")),
    ("bool-times-int-array", "ops.conversion", _eager("tf.constant([True, True, True, True]) * np.array([0, 2, 3, 0])")),
    ("bool-times-numpy-float", "ops.conversion", _eager("tf.constant([True, False]) * np.float64(2.5)")),
    ("bool-plus-float-array", "ops.conversion", _eager("tf.constant([True, False]) + np.array([0.5, 2.0])")),
    ("bool-and-float-array", "ops.conversion", _eager("tf.constant([True, True]) & np.array([0.1, 0.0])")),
    ("bool-variable-times-float-array", "ops.conversion",
     _eager("tf.Variable([True, False, True]) * np.array([0.5, 2.0, 3.0])")),
    # -- a variable of numbers beside a bool tensor under `*` (fz4 seed 34 #126)
    ("bool-variable-times-float-variable", "ops.conversion",
     _eager("tf.Variable(False) * tf.Variable([[3.0, -0.0, 0.001]])")),
    ("bool-tensor-times-float-variable", "ops.conversion", _eager("tf.constant(False) * tf.Variable([3.0, 0.5])")),
    ("float-tensor-times-bool-variable", "ops.conversion", _eager("tf.constant([3.0, 0.5]) * tf.Variable(False)")),
    ("bool-variable-times-int-variable", "ops.conversion",
     _eager("tf.Variable([True, False]) * tf.Variable([2, 0])")),
    # -- a traced list with no tensor: each element converts alone, a variable too (fz4 seed 34 #22)
    ("traced-stack-variable-and-nested-tuple", "ops.conversion",
     lambda tf: tf.function(lambda v: tf.stack((v, ([-1, 3], (0, 5), [5, 5])), axis=-1))(
         tf.Variable(np.array([[-4, 3], [2, 0], [2, 3]], np.int64)))),
    ("traced-stack-tensor-and-nested-tuple", "ops.conversion",
     lambda tf: tf.function(lambda v: tf.stack((v, ([-1, 3], (0, 5), [5, 5])), axis=-1))(
         tf.constant(np.array([[-4, 3], [2, 0], [2, 3]], np.int64)))),
    ("traced-stack-float-and-int-lists", "ops.conversion", _fn("tf.stack(([1.5], [2]), axis=-1)")),
    ("stack-variable-and-nested-tuple", "ops.conversion",
     _eager("tf.stack((tf.Variable(np.array([[-4, 3], [2, 0], [2, 3]], np.int64)), ([-1, 3], (0, 5), [5, 5])), "
            "axis=-1)")),
    # -- `o @ tensor` converts o with the tensor's dtype (fz4 seed 31 #91)
    ("rmatmul-list", "ops.conversion", _eager("[[1, 2]] @ tf.constant([[1.0], [2.0]])")),
    ("rmatmul-floats-into-int", "ops.conversion", _eager("[[1.5, 2]] @ tf.constant([[1], [2]])")),
    ("rmatmul-string", "ops.conversion", _eager("'a' @ tf.constant([[1.0], [2.0]])")),
    ("rmatmul-variable", "ops.conversion", _eager("[[1.0], [2.0]] @ tf.Variable([[1.0, 2.0]])")),
    ("rmatmul-zero-into-cache", "ops.scalar-cache", _zero_after("-0.0 @ v")),
    ("rmatmul-zero-tensor-into-cache", "ops.scalar-cache", _zero_after("-0.0 @ tf.constant(0.0)")),
    ("matmul-zero-not-cached", "ops.scalar-cache", _zero_after("tf.matmul(-0.0, v)")),
    ("matmul-zero-second-into-cache", "ops.scalar-cache", _zero_after("v @ -0.0")),
    # -- int()/float() of a Variable where AutoGraph does not convert (fz4 seed 22 #34, 31 #22, 32 #41)
    ("exec-int-of-two-element-variable", "function.symbolic-tensors", _exec_fn("int(v)", [-7.25, 0.0])),
    ("exec-float-of-scalar-variable", "function.symbolic-tensors", _exec_fn("float(v)", 2.5)),
    ("exec-bool-of-scalar-variable", "function.symbolic-tensors", _exec_fn("bool(v)", 2.5)),
    # -- a str returned by a recorded call (fz4 seed 22 #99)
    ("traced-dtype-name-second-call", "function.symbolic-tensors",
     lambda tf: [tf.function(lambda x: x.dtype.name)(tf.constant([1], tf.int64)) for _ in range(2)]),
    # -- shapes as a traced graph knows them (fz4 seed 21 #82, 31 #51, 32 #120, 33 #29)
    ("sig-shape-partly-known", "function.symbolic-tensors", _sig("x.shape", np.ones((3, 2), np.float32), [None, 2])),
    ("sig-get-shape-partly-known", "function.symbolic-tensors",
     _sig("x.get_shape()", np.ones((3, 2), np.float32), [None, 2])),
    ("sig-as-list-partly-known", "function.symbolic-tensors",
     _sig("x.shape.as_list()", np.ones((3, 2), np.float32), [None, 2])),
    ("sig-dims-partly-known", "function.symbolic-tensors",
     _sig("x.shape.dims", np.ones((3, 2), np.float32), [None, 2])),
    ("sig-dims-known", "function.symbolic-tensors", _sig("x.shape.dims", np.ones((3, 2), np.float32), [3, 2])),
    ("sig-dims-unknown-rank", "function.symbolic-tensors", _sig("x.shape.dims", np.ones((3, 2), np.float32), None)),
    ("sig-rank-unknown-rank", "function.symbolic-tensors", _sig("x.shape.rank", np.ones((3, 2), np.float32), None)),
    ("sig-first-dim-unknown", "function.symbolic-tensors", _sig("x.shape[0]", np.ones((3, 2), np.float32), [None, 2])),
    ("sig-num-elements", "function.symbolic-tensors",
     _sig("int(x.shape.num_elements() or 0)", np.ones((4, 3), np.float32), [4, None])),
    ("sig-fully-defined", "function.symbolic-tensors",
     _sig("x.shape.is_fully_defined()", np.ones((3, 2), np.float32), [None, 2])),
    ("sig-iterate-shape", "function.symbolic-tensors",
     _sig("[d for d in x.shape]", np.ones((3, 2), np.float32), [None, 2])),
    ("sig-shape-equals", "function.symbolic-tensors", _sig("x.shape == [3, 2]", np.ones((3, 2), np.float32), [None, 2])),
    ("sig-len-unknown-rank", "function.symbolic-tensors", _sig("len(x.shape)", np.ones((3, 2), np.float32), None)),
    ("traced-segment-sum-rows", "function.symbolic-tensors",
     _fn("[d for d in tf.math.segment_sum(tf.ones([3, 2]), [0, 0, 1]).shape]")),
    ("traced-segment-sum-constant-ids-rows", "function.symbolic-tensors",
     _fn("[d for d in tf.math.segment_sum(tf.ones([3, 2]), tf.constant([0, 0, 1])).shape]")),
    ("sig-slice-of-unknown-rank", "function.symbolic-tensors",
     _sig("x[:-1].shape.rank", np.ones((1, 3, 1), np.float32), None)),
    ("sig-index-of-unknown-rank", "function.symbolic-tensors", _sig("x[0].shape.rank", np.ones((1, 3, 1), np.float32), None)),
    ("sig-sum-with-unknown-rank", "function.symbolic-tensors",
     _sig("(x + tf.ones([3])).shape.rank", np.ones((2, 3), np.float32), None)),
    # -- an index of a slice of an unknown-rank input: the kernel's error (fz4 seed 31 #83)
    ("sig-index-into-empty-slice-unknown-rank", "function.trace-time-errors",
     _sig("x[:-1][tf.constant(0)]", np.ones((1, 3, 1), np.float32), None)),
    # -- Dimension objects (fz8's open class: seed 3 #18, 21 #82)
    ("eager-dims", "ops.fuzz4", lambda tf: _dims(tf, tf.constant([[1.0, 2.0]]).shape)),
    ("dims-partly-known", "ops.fuzz4", lambda tf: _dims(tf, [None, 2])),
    ("dims-unknown-rank", "ops.fuzz4", lambda tf: [tf.TensorShape(None).dims is None]),
    ("dimension-arithmetic", "ops.fuzz4", _dimension_ops),
    ("dimension-truediv", "ops.fuzz4", _dimension_error("D(3) / D(2)")),
    ("dimension-negative", "ops.fuzz4", _dimension_error("D(-1)")),
    ("dimension-float", "ops.fuzz4", _dimension_error("D(2.5)")),
    ("dimension-int-of-unknown", "ops.fuzz4", _dimension_error("int(D(None))")),
    ("dimension-hash", "ops.fuzz4", _dimension_error("hash(D(3))")),
    ("dimension-merge-mismatch", "ops.fuzz4", _dimension_error("D(3).merge_with(4)")),
    ("dimension-to-tensor", "ops.fuzz4", _dimension_error("tf.convert_to_tensor(D(3))")),
    ("dimension-to-int64", "ops.fuzz4", _dimension_error("tf.convert_to_tensor(D(3), tf.int64)")),
    ("dimension-to-float32", "ops.fuzz4", _dimension_error("tf.convert_to_tensor(D(3), tf.float32)")),
    ("unknown-dimension-to-tensor", "ops.fuzz4", _dimension_error("tf.convert_to_tensor(D(None))")),
    ("traced-return-unknown-dimension", "ops.fuzz4", _dimension_error("tf.function(lambda: D(None))()")),
    ("traced-return-dimension", "ops.fuzz4", _dimension_error("tf.function(lambda: D(4))()")),
    ("dimension-value", "ops.fuzz4",
     _dimension_error("[tf.compat.v1.dimension_value(D(3)), tf.compat.v1.dimension_value(5)]")),
    # -- a trace that raises writes nothing (fz4 seed 22 #99, 23 #175)
    ("failed-trace-assign", "function.trace-time-errors",
     _failed_trace("v.assign(v + [[3, 3, -1], [0, 5, 0], [3, 5, 3]])", np.array([[0, 0, 0], [1, 5, 2], [1, 2, 0]],
                                                                                 np.int32))),
    ("failed-trace-assign-add", "function.trace-time-errors",
     _failed_trace("v.assign_add(v)", np.array([[-0.0, 4.0], [0.5, 3.0]], np.float16), calls=3)),
    ("failed-trace-scatter", "function.trace-time-errors",
     _failed_trace("v.scatter_nd_update([[1]], [7.0])", np.array([1.0, 2.0], np.float32))),
    ("run-error-keeps-writes", "function.trace-time-errors", _run_error_keeps_writes),
    ("nested-failed-trace", "function.trace-time-errors", _nested_failed_trace),
    # -- shape functions at trace (fz4 seed 32 #30, #47, #64, #152, #165)
    ("traced-einsum-ellipsis-of-scalar", "function.trace-time-errors",
     _fn("tf.einsum('...i->...', np.array(2, dtype=np.int32))")),
    ("sig-einsum-ellipsis-of-scalar", "function.trace-time-errors", _sig("tf.einsum('...i->...', x)",
                                                                         np.float32(0.1), [])),
    ("sig-einsum-rank-of-scalar", "function.trace-time-errors", _sig("tf.einsum('ij->i', x)", np.float32(0.1), [])),
    ("sig-einsum-unknown-rank", "function.trace-time-errors", _sig("tf.einsum('ij->i', x)", np.float32(0.1), None)),
    ("einsum-ellipsis-of-scalar", "function.trace-time-errors", _eager("tf.einsum('...i->...', tf.constant(2.0))")),
    ("traced-scatter-nd-rows", "function.trace-time-errors", _fn("tf.scatter_nd([[0], [1]], updates=[5], shape=(3,))")),
    ("scatter-nd-rows", "function.trace-time-errors", _eager("tf.scatter_nd([[0], [1]], updates=[5], shape=(3,))")),
    ("sig-scatter-nd-unknown-rows", "function.trace-time-errors",
     _sig("tf.scatter_nd(tf.reshape(x, [-1, 1]), updates=[5], shape=(3,))", np.array([0, 1], np.int32), [None])),
    ("traced-roll-scalar", "function.trace-time-errors", _fn("tf.roll(3, shift=-1, axis=[0])")),
    ("roll-scalar", "function.trace-time-errors", _eager("tf.roll(3, shift=-1, axis=[0])")),
    ("sig-roll-unknown-rank", "function.trace-time-errors",
     _sig("tf.roll(x, shift=-1, axis=[0])", np.ones((3, 4)), None)),
    ("sig-roll-shift-axis-sizes", "function.trace-time-errors",
     _sig("tf.roll(x, shift=[1, 2], axis=[0])", np.ones((3, 4)), [3, 4])),
    ("roll-shift-matrix", "function.trace-time-errors", _eager("tf.roll(tf.ones([3]), shift=[[1]], axis=[[0]])")),
    # -- tensordot is a MatMul of reshaped operands (fuzz2 seed 63 #18)
    ("traced-tensordot-mismatch", "function.trace-time-errors",
     lambda tf: tf.function(lambda v: tf.tensordot(tf.math.sqrt(v / 0.5), tf.math.sqrt(v / 0.5), axes=1))(
         tf.Variable(np.array([[3.0], [2.0], [1.5]], np.float16)))),
    ("tensordot-mismatch", "function.trace-time-errors",
     _eager("tf.tensordot(tf.ones([3, 1]), tf.ones([3, 1]), axes=1)")),
    ("sig-tensordot-unknown-dims", "function.trace-time-errors",
     _sig("tf.tensordot(x, x, axes=1)", np.ones((3, 1), np.float32), [None, 1])),
    ("tensordot-equal-products", "function.trace-time-errors",
     _eager("tf.tensordot(tf.reshape(tf.range(12.0), [4, 3]), tf.reshape(tf.range(12.0), [2, 6]), "
            "axes=[[0, 1], [0, 1]])")),
    ("tensordot-equal-products-free-dims", "function.trace-time-errors",
     _eager("tf.tensordot(tf.reshape(tf.range(24.0), [2, 2, 6]), tf.reshape(tf.range(12.0), [3, 4]), "
            "axes=[[1, 2], [0, 1]])")),
    # -- SelectV2's graph build converts a non-tensor x alone (fz4 seed 32 #141)
    ("traced-where-float-beside-half", "function.trace-time-errors",
     _fn("tf.where([True, False], np.float64(2.5), tf.constant([1., 2, 3, 4], tf.float16))")),
    ("traced-where-python-float-beside-half", "function.trace-time-errors",
     _fn("tf.where([True, False, True, True], 2.5, tf.constant([1., 2, 3, 4], tf.float16))")),
    ("traced-where-list-beside-half", "function.trace-time-errors",
     _fn("tf.where([True, False, True, True], [2.5, 1, 1, 1], tf.constant([1., 2, 3, 4], tf.float16))")),
    ("traced-where-half-scalar-beside-half", "function.trace-time-errors",
     _fn("tf.where([True, False, True, True], np.float16(2.5), tf.constant([1., 2, 3, 4], tf.float16))")),
    ("where-float-beside-half", "function.trace-time-errors",
     _eager("tf.where([True, False, True, True], 2.5, tf.constant([1., 2, 3, 4], tf.float16))")),
    # -- a first call's kernel error yields to a later op's graph-build error (fz4 seed 32 #26)
    ("sig-pow-then-float-sub", "function.trace-time-errors",
     _sig("(x ** x) - 0.5", np.array([[0, 2], [0, 5], [2, -1], [7, -4]], np.int32), [4, None])),
    ("sig-star-args-pow-then-float-sub", "function.trace-time-errors",
     lambda tf: tf.function(lambda *a: (a[0] ** a[0]) - 0.5, input_signature=[tf.TensorSpec([4, None], tf.int32)])(
         tf.constant([[0, 2], [0, 5], [2, -1], [7, -4]]))),
    ("traced-pow-then-float-sub", "function.trace-time-errors",
     lambda tf: tf.function(lambda x: (x ** x) - 0.5)(tf.constant([[0, 2], [2, -1]]))),
    # -- Where (coordinates) has no registered gradient: a tape reaching it is LookupError (fz4 seed 31 #172)
    ("gradient-of-where-coordinates", "ops.gradient-none-or-zeros", _tape_gradient("tf.where(x)")),
    ("gradient-through-where-indices", "ops.gradient-none-or-zeros", _tape_gradient("tf.gather_nd(x, tf.where(x))")),
    ("gradient-through-boolean-mask", "ops.gradient-none-or-zeros",
     _tape_gradient("tf.boolean_mask(x, tf.reshape(x > 0, [-1]))")),
    ("gradient-of-select", "ops.gradient-none-or-zeros", _tape_gradient("tf.where(x > 0, x, 0.0)")),
    # -- an empty slice assignment takes any value (fz4 seed 34 #32)
    ("slice-assign-empty-slice-empty-list", "ops.variable-slices", _slice_assign((1, 3, 3), "[1:]", [])),
    ("slice-assign-empty-slice-row", "ops.variable-slices", _slice_assign((2, 3), "[:0]", [[]])),
    ("slice-assign-past-the-end", "ops.variable-slices", _slice_assign((2, 3), "[5:]", [1])),
    ("slice-assign-nonempty-slice-empty-list", "ops.variable-slices", _slice_assign((2, 3), "[1:]", [])),
    # -- Tile's multiples dtype, an empty one too (fz4 seed 31 #182, 32 #70)
    ("tile-empty-float-multiples", "ops.argument-errors", _eager("tf.tile(tf.constant(0.5), tf.constant([]))")),
    ("tile-empty-int8-multiples", "ops.argument-errors",
     _eager("tf.tile(tf.constant(0.5), tf.constant([], tf.int8))")),
    ("traced-tile-empty-float-multiples", "ops.argument-errors", _fn("tf.tile(tf.constant(0.5), tf.constant([]))")),
    ("tile-empty-int64-multiples", "ops.argument-errors",
     _eager("tf.tile(tf.constant(0.5), tf.constant([], tf.int64))")),
    ("tile-empty-list-multiples", "ops.argument-errors", _eager("tf.tile(tf.constant(0.5), [])")),
    # -- bfloat16 segment max/min fold as half (fuzz2 seed 51 #154)
    ("bfloat16-floordiv-segment-max-chain", "ops.nan-folds",
     lambda tf: tf.split(tf.sequence_mask(tf.nn.bias_add(tf.math.segment_max(tf.math.floordiv(
         -1, tf.constant(np.array([[4.0, NAN, -3e38], [-0.0, -np.inf, -0.0], [65504.0, -0.0, 4.0]], np.float32),
                         tf.bfloat16)), [0, 0, 2]), [1, 1, 1]), maxlen=4), 3, axis=-2)[1]),
]
for _col in ([NAN, 0.0], [0.0, NAN], [NAN, 1.0, NAN], [1.0, NAN, 2.0], [0.0, -0.0], [-0.0, 0.0, -1.0]):
    for _op in ("segment_max", "segment_min"):
        CASES.append((f"bfloat16-{_op}-{_col}", "ops.nan-folds",
                      _eager(f"tf.math.{_op}(tf.tile(tf.constant(np.array({_col!r}, np.float32).reshape(-1, 1), "
                             f"tf.bfloat16), [1, 20]), [0] * {len(_col)})".replace("nan", "np.nan"))))
        CASES.append((f"bfloat16-unsorted-{_op}-{_col}", "ops.nan-folds",
                      _eager(f"tf.math.unsorted_{_op}(tf.constant(np.array({_col!r}, np.float32), tf.bfloat16), "
                             f"[0] * {len(_col)} + [1] * 0, 2)".replace("nan", "np.nan"))))

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_graph_constant_type_check(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.scalar-cache")
@EDGES.parametrize("ops.scalar-cache")
def test_reflected_matmul_scalar_cache(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.symbolic-tensors")
@EDGES.parametrize("function.symbolic-tensors")
def test_graph_tensors_and_static_shapes(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.fuzz4")
@EDGES.parametrize("ops.fuzz4")
def test_dimension_objects(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors_and_failed_traces(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.gradient-none-or-zeros")
@EDGES.parametrize("ops.gradient-none-or-zeros")
def test_where_has_no_gradient(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.variable-slices")
@EDGES.parametrize("ops.variable-slices")
def test_empty_slice_assignment(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_tile_multiples_dtype(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.nan-folds")
@EDGES.parametrize("ops.nan-folds")
def test_bfloat16_segment_extremes(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


if __name__ == "__main__":  # TF worker: python test_fuzz9_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
