"""Rules issue 29's eighth campaign (fz8: the fourth fuzzer's seeds 21-23, the second's 51-52) found
wrong, each against real TensorFlow 2.21: the same calls on both backends give the same dtypes
and bits, or raise the same exception class. TF's eager cache of converted Python scalars: every
case starts with the cache emptied (`TFE_ClearScalarCache` in TF, `scalar_cache.clear` in simdist),
then converts a zero of one sign and later an equal zero of the other. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _clear(tf: Any) -> None:
    """Empty the backend's eager scalar cache (a new process's state)."""
    if tf.__name__.startswith("simdist"):
        from simdist.runtime import scalar_cache
        scalar_cache.clear()
    else:
        from tensorflow.python import pywrap_tfe
        pywrap_tfe.TFE_ClearScalarCache()


def _fresh(program: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """`program(tf)` on an empty scalar cache."""
    def run(tf: Any) -> Any:
        _clear(tf)
        return program(tf)
    return run


def _device_then_default(tf: Any) -> Any:
    with tf.device("CPU:0"):
        first = tf.constant(-0.0)
    return [first, tf.constant(0.0)]


def _traced_then_eager(tf: Any) -> Any:
    traced = tf.function(lambda: tf.constant(-0.0))()
    return [traced, tf.constant(0.0)]


def _variable_update(tf: Any) -> Any:
    v = tf.Variable([1.0, -2.0])
    tf.constant(-0.0, tf.float32)
    v.assign(v * 0.0)     # the operand's key is (0.0, float32)
    return v.read_value()


SCALAR_CACHE: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- (fz4 seed 21 #199: `x0 / -0.0` divided by +0.0 in TF's long-lived worker; seed 23 #184: `x0 * 0.0`)
    ("constant-minus-zero-then-zero", "ops.scalar-cache",
     _fresh(lambda tf: [tf.constant(-0.0), tf.constant(0.0)])),
    ("constant-zero-then-minus-zero", "ops.scalar-cache",
     _fresh(lambda tf: [tf.constant(0.0), tf.constant(-0.0)])),
    ("dtype-is-part-of-the-key", "ops.scalar-cache",
     _fresh(lambda tf: [tf.constant(-0.0), tf.constant(0.0, tf.float32), tf.constant(0.0, tf.float64)])),
    ("float64-key", "ops.scalar-cache",
     _fresh(lambda tf: [tf.constant(-0.0, tf.float64), tf.convert_to_tensor(0.0, tf.float64)])),
    ("float16-key-then-shape", "ops.scalar-cache",
     _fresh(lambda tf: [tf.constant(-0.0, tf.float16), tf.constant(0.0, tf.float16, shape=[2])])),
    ("operand-key-is-the-tensor-dtype", "ops.scalar-cache",
     _fresh(lambda tf: [tf.constant(-0.0, tf.float32), tf.constant([1.0, -1.0]) * 0.0, 0.0 * tf.ones([2]),
                        tf.ones([2]) / 0.0, tf.math.multiply(tf.ones([1]), 0.0)])),
    ("operand-then-constant", "ops.scalar-cache",
     _fresh(lambda tf: [tf.zeros([2]) + (-0.0), tf.constant(0.0, tf.float32)])),
    ("untyped-op-operands-key-none", "ops.scalar-cache",
     _fresh(lambda tf: [tf.constant(-0.0), tf.fill([2], 0.0), tf.maximum(-1.0, 0.0), tf.add(0.0, tf.zeros([1]))])),
    ("failed-hint-keys-none", "ops.scalar-cache",
     _fresh(lambda tf: [tf.constant(-0.0), tf.convert_to_tensor(0.0, dtype_hint=tf.int32)])),
    ("hint-keys-the-hint", "ops.scalar-cache",
     _fresh(lambda tf: [tf.convert_to_tensor(-0.0, dtype_hint=tf.float64), tf.constant(0.0, tf.float64),
                        tf.constant(0.0)])),
    ("numpy-float64-is-a-python-float", "ops.scalar-cache",
     _fresh(lambda tf: [tf.constant(np.float64(-0.0)), tf.constant(np.float64(0.0)), tf.constant(0.0)])),
    ("numpy-float32-is-not-cached", "ops.scalar-cache",
     _fresh(lambda tf: [tf.constant(np.float32(-0.0)), tf.constant(np.float32(0.0))])),
    ("lists-are-not-cached", "ops.scalar-cache",
     _fresh(lambda tf: [tf.constant([-0.0]), tf.constant([0.0])])),
    ("int-zero-is-another-key", "ops.scalar-cache",
     _fresh(lambda tf: [tf.constant(-0.0, tf.float32), tf.constant(0, tf.float32), tf.constant(False, tf.float32)])),
    ("complex-zero-parts", "ops.scalar-cache",
     _fresh(lambda tf: [tf.constant(complex(-0.0, -0.0)), tf.constant(0j), tf.constant(complex(0.0, 1.0)),
                        tf.constant(complex(-0.0, 1.0))])),
    ("device-scope-is-part-of-the-key", "ops.scalar-cache", _fresh(_device_then_default)),
    ("traced-conversions-are-not-cached", "ops.scalar-cache", _fresh(_traced_then_eager)),
    ("variable-initial-value", "ops.scalar-cache",
     _fresh(lambda tf: [tf.constant(-0.0), tf.Variable(0.0).read_value()])),
    ("variable-update-operand", "ops.scalar-cache", _fresh(_variable_update)),
]
CASES = SCALAR_CACHE


def _with_vars(build: str, traced: bool = False) -> Callable[[Any], Any]:
    """Evaluate `build` over x64 (float64 variable [-1]), x32 (float32 variable [3, 3, -1]), c64
    (float64 tensor [1]) and c3 (float64 zeros (3, 3, 3)); inside a tf.function when `traced`."""
    def run(tf: Any) -> Any:
        env = {"tf": tf, "np": np, "x64": tf.Variable([-1.0], dtype=tf.float64),
               "x32": tf.Variable([3.0, 3.0, -1.0]), "c64": tf.constant([1.0], tf.float64),
               "c3": tf.constant(np.zeros((3, 3, 3)))}
        call = lambda: eval(build, env)  # noqa: E731,S307 - our text
        return tf.function(call)() if traced else call()
    return run


CONCAT: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- the fast path's list dtype comes from the first tensor or variable; other lists take the
    #    eager fallback's (fz4 seed 21 #153, seed 22 #65, #164, seed 23 #44)
    ("concat-number-then-variable", "ops.conversion", _with_vars("tf.concat([[2.5], x64], 0)")),
    ("concat-scalar-number-then-variable", "ops.conversion", _with_vars("tf.concat([2.5, x64[0]], 0)")),
    ("concat-python-scalar-beside-variable", "ops.conversion", _with_vars("tf.concat([2.5, x64], 0)")),
    ("concat-int-beside-float-variable", "ops.conversion", _with_vars("tf.concat([x64, 2], 0)")),
    ("concat-nested-list-then-variable", "ops.conversion", _with_vars("tf.concat([[2], x64], 0)")),
    ("concat-np-int64-beside-variable", "ops.conversion", _with_vars("tf.concat([x32, np.int64(5)], axis=-1)")),
    ("concat-variable-of-other-dtype-fast-path", "ops.conversion", _with_vars("tf.concat([1.5, c64, x32], 0)")),
    ("concat-variable-of-other-dtype-fallback", "ops.conversion", _with_vars("tf.concat([[1.5], c64, x32], 0)")),
    ("stack-number-then-variable", "ops.conversion",
     _with_vars("tf.stack([2.5, tf.Variable(1.0, dtype=tf.float64)], 0)")),
    ("concat-traced-number-then-variable", "ops.conversion", _with_vars("tf.concat([[2.5], x64], 0)", traced=True)),
    # -- ConcatV2's axis: a scalar or a one-element vector eagerly, a scalar in a graph
    ("concat-axis-list", "ops.argument-errors", _with_vars("tf.concat([x64, [5.0]], axis=[0])")),
    ("concat-axis-nested-list", "ops.argument-errors", _with_vars("tf.concat([x64, [5.0]], axis=[[0]])")),
    ("concat-axis-ndarray", "ops.argument-errors", _with_vars("tf.concat([x64, [5.0]], axis=np.array([0]))")),
    ("concat-axis-two-elements", "ops.argument-errors", _with_vars("tf.concat([x64, x64], axis=[0, 1])")),
    ("concat-axis-tensor-vector", "ops.argument-errors", _with_vars("tf.concat([x64, x64], axis=tf.constant([0]))")),
    ("concat-axis-float-list", "ops.argument-errors", _with_vars("tf.concat([x64, x64], axis=[0.0])")),
    ("concat-axis-list-out-of-range", "ops.argument-errors", _with_vars("tf.concat([x64, x64], axis=[5])")),
    ("concat-axis-list-scalars", "ops.argument-errors",
     _with_vars("tf.concat([np.array([[0.0, -7.25]], dtype=np.float32), np.float32(-0.5)], axis=[-2])")),
    ("concat-traced-axis-list", "ops.argument-errors", _with_vars("tf.concat([x64, x64], axis=[0])", traced=True)),
    ("concat-traced-axis-list-numpy-scalar", "ops.argument-errors",
     _with_vars("tf.concat([c3, np.float64(1.0)], axis=[2])", traced=True)),
]
CASES = CASES + CONCAT


def _sig(body: str, value: Any, spec: Any) -> Callable[[Any], Any]:
    """tf.function(lambda x: <body>, input_signature=[TensorSpec(spec, dtype of value)]): the class
    get_concrete_function raises ("at trace: ValueError"), else the call's outcome on `value`
    (a NumPy array)."""
    def run(tf: Any) -> Any:
        x = tf.constant(value)
        f = tf.function(eval(f"lambda x: {body}", {"tf": tf, "np": np}),  # noqa: S307 - our text
                        input_signature=[tf.TensorSpec(spec, x.dtype)])
        try:
            f.get_concrete_function()
        except Exception as e:  # noqa: BLE001 - the class is the result
            return f"at trace: {type(e).__name__}"
        return f(x)
    return run


SIG: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- a shape function sees only the ranks and dimensions the graph knows (fz4 seeds 21 #30, #108,
    #    #116, #167, 22 #4, 23 #83)
    ("slice-of-unknown-rank-scalar", "function.trace-time-errors", _sig("x[5:]", np.int64(5), None)),
    ("index-of-unknown-rank-scalar", "function.trace-time-errors", _sig("x[tf.constant(0)]", np.bool_(False), None)),
    ("index-into-unknown-empty-dim", "function.trace-time-errors",
     _sig("x[tf.constant(0)][None]", np.zeros((0, 3), np.float32), [None, 3])),
    ("index-into-unknown-dim", "function.trace-time-errors", _sig("x[0]", np.zeros((0,), np.float32), [None])),
    ("index-out-of-known-dim", "function.trace-time-errors", _sig("x[1, ...][3]", np.zeros((3, 3)), [3, 3])),
    ("index-out-of-known-dim-after-unknown", "function.trace-time-errors",
     _sig("x[1, ...][3]", np.zeros((3, 3)), [None, 3])),
    ("index-of-known-scalar", "function.trace-time-errors", _sig("x[0]", np.float32(3.0), [])),
    ("reduce-mean-axis-of-unknown-rank-scalar", "function.trace-time-errors",
     _sig("tf.reduce_mean(x, axis=0)", np.float32(3.0), None)),
    ("reduce-sum-axis-of-known-scalar", "function.trace-time-errors",
     _sig("tf.reduce_sum(x, axis=0)", np.float32(3.0), [])),
    ("matmul-unknown-rank-by-scalar", "function.trace-time-errors", _sig("x @ 2", np.float32(3.0), None)),
    ("matmul-unknown-rank-by-vector", "function.trace-time-errors",
     _sig("x @ tf.ones([2])", np.ones((2, 2), np.float32), None)),
    ("matmul-unknown-ranks", "function.trace-time-errors", _sig("x @ x", np.float32(3.0), None)),
    ("top-k-of-constant-scalar", "function.trace-time-errors", _sig("tf.math.top_k(-3, k=1)", np.float32(3.0), None)),
    ("top-k-of-unknown-rank-scalar", "function.trace-time-errors", _sig("tf.math.top_k(x, k=1)", np.float32(3.0), None)),
    ("top-k-of-known-scalar", "function.trace-time-errors", _sig("tf.math.top_k(x, k=1)", np.float32(3.0), [])),
    ("top-k-beyond-known-last-dim", "function.trace-time-errors",
     _sig("tf.math.top_k(x, k=3)", np.ones(2, np.float32), [2])),
    ("top-k-beyond-unknown-last-dim", "function.trace-time-errors",
     _sig("tf.math.top_k(x, k=3)", np.ones(2, np.float32), [None])),
]
CASES = CASES + SIG


def _traced_arg(body: str, value: Any) -> Callable[[Any], Any]:
    """tf.function(lambda x: <body>)(tf.constant(value)): x is a graph tensor there."""
    def run(tf: Any) -> Any:
        return tf.function(eval(f"lambda x: {body}", {"tf": tf, "np": np}))(tf.constant(value))  # noqa: S307
    return run


def _constant_of_own_tensor(tf: Any) -> Any:
    """tf.constant of an eager tensor is that tensor: a tape's gradient of it is ones (int32 too)."""
    x = tf.constant([-2147483648, 5], tf.int32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.constant(x)
    return [y, tape.gradient(y, x)]


CONSTANT_OF_TENSORS: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- tf.constant of a tensor or variable (fz4 seeds 22 #7, #35, #128, #180, 23 #136)
    ("constant-of-variable-as-float16", "ops.conversion",
     lambda tf: tf.constant(tf.Variable([4.0, -1.5]), tf.float16)),
    ("constant-of-variable-as-int32-truncates", "ops.conversion",
     lambda tf: tf.constant(tf.Variable([4.0, -1.5]), tf.int32)),
    ("constant-of-variable-as-float64-with-shape", "ops.conversion",
     lambda tf: tf.constant(tf.Variable([4.0, -1.5]), dtype="float64", shape=[2, 1])),
    ("constant-of-tensor-other-dtype", "ops.conversion", lambda tf: tf.constant(tf.constant([4.0]), tf.float16)),
    ("constant-of-tensor-is-the-tensor", "ops.conversion", _constant_of_own_tensor),
    ("traced-constant-of-argument", "ops.conversion", _traced_arg("tf.constant(x)", [4.0, -1.5])),
    ("traced-constant-of-argument-as-int8", "ops.conversion",
     _traced_arg("tf.constant(x, dtype=tf.int8, shape=[2])", [4, -1])),
    ("traced-constant-of-computed-tensor", "ops.conversion", _traced_arg("tf.constant(x * 2)", [4.0])),
    ("traced-constant-of-captured-tensor-cast", "ops.conversion",
     lambda tf: (lambda c: tf.function(lambda: tf.constant(c, dtype=tf.int8, shape=[3, 1]))())(
         tf.constant([[-4], [3], [-1]]))),
    ("traced-constant-of-variable", "ops.conversion",
     lambda tf: (lambda v: tf.function(lambda: tf.constant(v, tf.float16))())(tf.Variable([4.0]))),
]
CASES = CASES + CONSTANT_OF_TENSORS


def _truth(build: str) -> Callable[[Any], Any]:
    """`not <build>` as a bool tensor (the Python truth of a tensor or variable)."""
    def run(tf: Any) -> Any:
        return tf.constant(not eval(build, {"tf": tf, "np": np}))  # noqa: S307 - our text
    return run


def _update(dtype: str, call: str) -> Callable[[Any], Any]:
    """`v.<call>` of a variable of `dtype` holding [False] / ["s"], then its value."""
    def run(tf: Any) -> Any:
        v = tf.Variable([False] if dtype == "bool" else ["s"])
        eval(f"v.{call}", {"v": v, "tf": tf})  # noqa: S307 - our text
        return v.read_value()
    return run


MORE: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- AssignAdd/AssignSubVariableOp have no bool or string kernel (fz4 seeds 21 #55, #62, 22 #77, 23 #40)
    ("bool-assign-sub-tensor", "ops.variable-slices", _update("bool", "assign_sub(tf.constant([True]))")),
    ("bool-assign-sub-python-scalar", "ops.variable-slices", _update("bool", "assign_sub(True)")),
    ("bool-assign-add-list-locking", "ops.variable-slices", _update("bool", "assign_add([False], use_locking=True)")),
    ("bool-assign-add-no-read", "ops.variable-slices", _update("bool", "assign_add((False,), read_value=False)")),
    ("string-assign-add", "ops.variable-slices", _update("string", "assign_add(['t'])")),
    ("bool-assign-add-float-converts-first", "ops.variable-slices", _update("bool", "assign_add(0.5, read_value=False)")),
    ("bool-assign-add-int-converts-first", "ops.variable-slices", _update("bool", "assign_add(2)")),
    # -- sort_ops converts axis to a tensor: None is ValueError (fz4 seeds 21 #52, 23 #34)
    ("sort-axis-none", "ops.argument-errors", lambda tf: tf.sort(tf.constant([3, 1]), axis=None)),
    ("sort-variable-axis-none-descending", "ops.argument-errors",
     lambda tf: tf.sort(tf.Variable(2.5), axis=None, direction="DESCENDING")),
    ("argsort-axis-none", "ops.argument-errors", lambda tf: tf.argsort(tf.constant([3, 1]), axis=None)),
    # -- a tensor's truth: bool(x.size > 0 and x) (fz4 seed 23 #75)
    ("truth-of-empty-tensor", "ops.fuzz4", _truth("tf.constant(np.zeros((0,), np.int64))")),
    ("truth-of-empty-variable", "ops.fuzz4", _truth("tf.Variable(np.zeros((0, 2)))")),
    ("truth-of-one-zero", "ops.fuzz4", _truth("tf.constant([0.0])")),
    ("truth-of-two-elements", "ops.fuzz4", _truth("tf.constant([1.0, 2.0])")),
    # -- a tf.function's output must be a tensor (nest leaf): a class is TypeError (fz4 seed 23 #37, #199)
    ("traced-returns-numpy-type", "function.symbolic-tensors",
     _traced_arg("x.dtype.as_numpy_dtype", np.zeros((1, 0), np.float32))),
    ("traced-returns-dtype-name", "function.symbolic-tensors", _traced_arg("x.dtype.name", [1, 2])),
]
CASES = CASES + MORE

LAST: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- `bool_tensor * list` converts the list as a number: without the dtype, then through int32 (fz4 seed 23 #71)
    ("bool-times-int-list", "ops.conversion", lambda tf: tf.constant([True, True, True, False]) * [3, 0, 1, 2]),
    ("bool-times-float-list", "ops.conversion", lambda tf: tf.constant([True, True, False]) * [0.5, 2.0, 1.0]),
    ("bool-times-nested-tuple", "ops.conversion", lambda tf: tf.constant([True, False]) * ((1, 0), (0, 1))),
    ("bool-variable-times-list", "ops.conversion", lambda tf: tf.Variable([True, False]) * [2, 2]),
    ("bool-plus-list", "ops.conversion", lambda tf: tf.constant([True, False]) + [3, 0]),
    ("bool-minus-list", "ops.conversion", lambda tf: tf.constant([True, False]) - [1, 0]),
    # -- an index deeper than the tensor's rank (fz4 seed 21 #154)
    ("tensor-scatter-update-scalar", "ops.argument-errors",
     lambda tf: tf.tensor_scatter_nd_update(tf.Variable(False), [[0]], [True])),
    ("tensor-scatter-add-scalar", "ops.argument-errors", lambda tf: tf.tensor_scatter_nd_add(tf.constant(1.0), [[0]], [2.0])),
    ("tensor-scatter-update-too-deep", "ops.argument-errors",
     lambda tf: tf.tensor_scatter_nd_update(tf.constant([1.0]), [[0, 0]], [2.0])),
    ("traced-tensor-scatter-update-scalar", "function.trace-time-errors",
     lambda tf: tf.function(lambda: tf.tensor_scatter_nd_update(tf.constant(1.0), [[0]], [2.0]))()),
    # -- in a graph the refused operand's reflected operator is looked up (fz4 seed 21 #48)
    ("traced-float-or-list", "function.trace-time-errors",
     _sig("x | [[True], [True], [True]]", np.ones((3, 1), np.float32), [3, 1])),
    ("float-or-list", "ops.argument-errors", lambda tf: tf.constant([[1.0]]) | [[True]]),
    # -- AddN in a graph: the list's dtypes before its shapes (fz4 seed 21 #35)
    ("traced-add-n-dtypes-then-shapes", "function.trace-time-errors",
     _sig("tf.math.add_n([np.array([[5, 3]], dtype=np.int64), x])", np.array([1.0]), [1])),
    ("add-n-dtypes-and-shapes", "ops.argument-errors",
     lambda tf: tf.math.add_n([np.array([[5, 3]], dtype=np.int64), tf.constant([1.0], tf.float64)])),
]
CASES = CASES + LAST


def _traced_on(body: str) -> Callable[[Any], Any]:
    """tf.function(lambda x0: <body>)(float32 [7, -1.5]) (a segment reduction of x0 has an
    unknown first dimension in the graph)."""
    def run(tf: Any) -> Any:
        f = tf.function(eval(f"lambda x0: {body}", {"tf": tf, "np": np}))  # noqa: S307 - our text
        return f(tf.constant([7.0, -1.5]))
    return run


def _int_variable_gradient(build: str) -> Callable[[Any], Any]:
    """The gradient of <build> (over x, an int64 variable [[5], [-1]]) with respect to [x],
    unconnected gradients as zeros."""
    def run(tf: Any) -> Any:
        x = tf.Variable(tf.constant([[5], [-1]], tf.int64))
        with tf.GradientTape() as tape:
            y = eval(build, {"tf": tf, "x": x})  # noqa: S307 - our text
        return tape.gradient(y, [x], unconnected_gradients=tf.UnconnectedGradients.ZERO)
    return run


SEED41: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- fuzz2 seed 41 #163: a strided slice keeps a dimension the graph does not know; unstack
    #    infers num from the static shape
    ("traced-unstack-of-ellipsis-slice", "function.trace-time-errors",
     _traced_on("tf.unstack(tf.math.segment_min(x0, [0, 2])[...], axis=-1)[-1]")),
    ("traced-unstack-of-equal-to-ellipsis-slice", "function.trace-time-errors",
     _traced_on("tf.unstack(tf.equal(tf.math.segment_min(x0, [0, 2]), tf.math.segment_min(x0, [0, 2])[...]), "
                "axis=-1)[-1]")),
    ("traced-unstack-of-full-slice", "function.trace-time-errors",
     _traced_on("tf.unstack(tf.math.segment_min(x0, [0, 2])[:], axis=0)[-1]")),
    ("traced-unstack-of-bounded-slice", "function.trace-time-errors",
     _traced_on("tf.unstack(tf.math.segment_min(x0, [0, 2])[0:1], axis=0)[-1]")),
    ("traced-unstack-of-new-axis", "function.trace-time-errors",
     _traced_on("tf.unstack(tf.math.segment_min(x0, [0, 2])[None], axis=0)[-1]")),
    ("traced-unstack-with-num", "function.trace-time-errors",
     _traced_on("tf.unstack(tf.math.segment_min(x0, [0, 2])[...], num=3, axis=-1)[-1]")),
    # -- fuzz2 seed 41 #145: add_n of one input with a name is its Identity; read_value() is a read
    #    then an Identity: neither recorded for integers
    ("int-gradient-add-n-one-named", "autodiff.integer", _int_variable_gradient("tf.add_n([x], name='op_1')")),
    ("int-gradient-add-n-one", "autodiff.integer", _int_variable_gradient("tf.add_n([x])")),
    ("int-gradient-read-value", "autodiff.integer", _int_variable_gradient("x.read_value()")),
    ("int-gradient-convert", "autodiff.integer", _int_variable_gradient("tf.convert_to_tensor(x)")),
    ("int-gradient-identity", "autodiff.integer", _int_variable_gradient("tf.identity(x)")),
    ("int-gradient-add-n-two", "autodiff.integer", _int_variable_gradient("tf.add_n([x, x])")),
]
CASES = CASES + SEED41

SPLIT: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- Split's shape function reads a constant split_dim and a known dimension (fz4 seed 22 #32)
    ("traced-split-uneven", "function.trace-time-errors",
     lambda tf: tf.function(lambda x: tf.split(x, 2))(tf.constant([1.0, 2.0, 3.0]))),
    ("traced-split-uneven-numpy-axis", "function.trace-time-errors",
     lambda tf: tf.function(lambda x: tf.split(x, 2, axis=np.int64(-1)))(tf.Variable([1.0, 2.0, 3.0]))),
    ("traced-split-uneven-tensor-axis", "function.trace-time-errors",
     lambda tf: tf.function(lambda x: tf.split(x, 2, axis=tf.constant(0)))(tf.constant([1.0, 2.0, 3.0]))),
    ("traced-split-uneven-unknown-dim", "function.trace-time-errors", _sig("tf.split(x, 2)", np.ones(3, np.float32), [None])),
    ("split-uneven", "ops.argument-errors", lambda tf: tf.split(tf.constant([1.0, 2.0, 3.0]), 2)),
]
CASES = CASES + SPLIT

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.scalar-cache")
@EDGES.parametrize("ops.scalar-cache")
def test_scalar_cache(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_list_input_conversion(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_concat_axis_operand(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_shape_functions_see_what_the_graph_knows(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.variable-slices")
@EDGES.parametrize("ops.variable-slices")
def test_variable_updates(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.fuzz4")
@EDGES.parametrize("ops.fuzz4")
def test_python_protocol(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.symbolic-tensors")
@EDGES.parametrize("function.symbolic-tensors")
def test_traced_outputs(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("autodiff.integer")
@EDGES.parametrize("autodiff.integer")
def test_integer_variable_gradients(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


if __name__ == "__main__":  # TF worker: python test_fuzz8_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
