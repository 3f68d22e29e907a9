"""The rules the second differential fuzzer (tests/fuzz2/) found wrong, each against real
TensorFlow 2.21: the same call on both backends gives the same dtype and bits, or raises the
same exception class. Integer truediv tables (uint32/uint64), cross-replica MEAN dtypes and the
collectives' dtypes, operand conversion of binary op functions (eager and traced), and the
errors a tf.function's graph build raises for refused dtypes. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers
from edge_compare import traced

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


_STRATEGIES: dict[str, Any] = {}


def _strategy(tf: Any) -> Any:
    """MirroredStrategy on two logical CPUs: simdist's on a fresh simulation for each case (the
    test harness resets simdist between tests), TF's made once per worker (TF's worker hung when
    each case made its own: collective executors piling up)."""
    simdist_tf = tf.__name__.startswith("simdist")
    if simdist_tf or tf.__name__ not in _STRATEGIES:
        if simdist_tf:
            import simdist
            simdist.reset()
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        _STRATEGIES[tf.__name__] = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    return _STRATEGIES[tf.__name__]


def _reduce(dt: str, how: str, axis: Any) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        s = _strategy(tf)
        v = s.experimental_distribute_values_from_function(lambda ctx: tf.constant([1, 2 + ctx.replica_id_in_sync_group],
                                                                                   dtype=getattr(tf, dt)))
        return s.reduce(how, v, axis=axis)
    return run


def _all_reduce(dt: str, how: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        s = _strategy(tf)
        out = s.run(lambda: tf.distribute.get_replica_context().all_reduce(how, tf.constant([1, 2], dtype=getattr(tf, dt))))
        return list(s.experimental_local_results(out))
    return run


def _all_gather(dt: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        s = _strategy(tf)
        out = s.run(lambda: tf.distribute.get_replica_context().all_gather(tf.constant([1, 2], dtype=getattr(tf, dt)), 0))
        return list(s.experimental_local_results(out))
    return run


def _grad(tf: Any, fn: Callable[[Any], Any]) -> Any:
    v = tf.Variable([1.0, np.nan, np.inf])
    with tf.GradientTape() as tape:
        y = fn(v)
    return tape.gradient(y, v, unconnected_gradients=tf.UnconnectedGradients.ZERO)


def _zero_upstream(tf: Any, name: str, dt: str) -> Any:
    v = tf.Variable(tf.constant([0.0, -1.0, 4.0, np.inf], getattr(tf, dt)))
    fn = {"sqrt": tf.sqrt, "rsqrt": tf.math.rsqrt, "reciprocal": tf.math.reciprocal}[name]
    with tf.GradientTape() as tape:
        y = fn(v)
    return tape.gradient(y, v, output_gradients=tf.constant([0.0, 0.0, 1.0, 0.0], getattr(tf, dt)))


def _int_grad(tf: Any, fn: Callable[[Any, Any], Any]) -> Any:
    v = tf.Variable([3, -1], dtype=tf.int32)
    with tf.GradientTape() as tape:
        y = fn(tf, v)
    g = tape.gradient(y, v)
    return tf.constant(-99) if g is None else g


def _slices_grad(tf: Any, fn: Callable[[Any, Any], Any]) -> Any:
    """The gradient of a gather of fn(v): its class (IndexedSlices or dense) as a string tensor's
    length (2 or 1) and its dense value."""
    v = tf.Variable(np.arange(6, dtype=np.float32).reshape(3, 2))
    with tf.GradientTape() as tape:
        y = tf.gather(fn(tf, v), [2, 0])
    g = tape.gradient(y, v)
    return [tf.constant(2 if type(g).__name__ == "IndexedSlices" else 1), tf.convert_to_tensor(g)]


def _perm_grad(tf: Any, perm: list[int]) -> Any:
    v = tf.Variable(np.array([[4.0], [5.0]], np.float32))
    with tf.GradientTape() as tape:
        y = tf.transpose(v, perm=perm)
    return tape.gradient(y, v)


def _cast_beyond(tf: Any, src: str, dst: str, n: int) -> Any:
    """n floats of dtype src (values beyond dst's range among them, repeated) cast to dst."""
    vals = np.array([np.inf, 1e30, 5e9, 3e9, 2.0**64, -1.5, np.nan, -np.inf, -2.0**40, 1.5, 2.0**63], np.float64)
    with np.errstate(over="ignore"):
        return tf.cast(tf.constant(np.resize(vals, n).astype(src)), getattr(tf, dst))


def _c(dt: str, values: Any = (1, 2)) -> Callable[[Any], Any]:
    return lambda tf: tf.constant(list(values), dtype=getattr(tf, dt))


CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- integer truediv: math_ops._TRUEDIV_TABLE (uint32/uint64 in float64: fuzz2 seed 1 #23)
    *[(f"truediv-{dt}", "ops.truediv-dtypes", lambda tf, dt=dt: tf.constant([0, 3], getattr(tf, dt)) / tf.constant([0, 2], getattr(tf, dt)))
      for dt in ("uint8", "uint16", "uint32", "uint64", "int16")],
    ("divide-no-nan-uint64", "ops.truediv-dtypes", lambda tf: tf.math.divide_no_nan(tf.constant([3, 1], tf.uint64), tf.constant([2, 0], tf.uint64))),
    # -- cross-replica MEAN of unsigned integers, bfloat16 collectives (fuzz2 seed 1 #23)
    *[(f"reduce-{how}-{dt}-axis-{ax}", "reduce.dtypes", _reduce(dt, how, ax))
      for dt in ("uint32", "uint64", "bfloat16") for how in ("SUM", "MEAN") for ax in (None, 0)],
    *[(f"all-reduce-{how}-{dt}", "reduce.dtypes", _all_reduce(dt, how)) for dt in ("bfloat16", "uint32") for how in ("SUM", "MEAN")],
    ("all-gather-bfloat16", "gather.dtypes", _all_gather("bfloat16")),
    # -- operand conversion of op functions (fuzz2 seeds 2, 3)
    ("add-int-literal-first-int64", "ops.conversion", lambda tf: tf.math.add(2, _c("int64")(tf))),
    ("add-float-literal-first-float64", "ops.conversion", lambda tf: tf.add(2.5, _c("float64")(tf))),
    ("add-int-literal-first-int32", "ops.conversion", lambda tf: tf.add(2, _c("int32")(tf))),
    ("subtract-numpy-first-float64", "ops.conversion", lambda tf: tf.math.subtract(np.float32(2.0), _c("float64")(tf))),
    ("greater-numpy-first-int64", "ops.conversion", lambda tf: tf.greater(np.int32(1), _c("int64")(tf))),
    ("add-numpy-first-float64", "ops.conversion", lambda tf: tf.math.add(np.float32(2.0), _c("float64")(tf))),
    ("left-shift-literal-first-int64", "ops.conversion", lambda tf: tf.bitwise.left_shift(1, _c("int64")(tf))),
    ("truncatediv-numpy-first-float64", "ops.conversion", lambda tf: tf.truncatediv(np.float32(7.0), _c("float64")(tf))),
    ("xlogy-numpy-first-float64", "ops.conversion", lambda tf: tf.math.xlogy(np.float32(2.0), _c("float64")(tf))),
    ("realdiv-float-literal-first-float64", "ops.conversion", lambda tf: tf.realdiv(2.5, _c("float64")(tf))),
    ("divide-literal-first-int64", "ops.conversion", lambda tf: tf.divide(2, _c("int64")(tf))),
    ("divide-literal-first-uint8", "ops.conversion", lambda tf: tf.math.divide(3, _c("uint8")(tf))),
    ("divide-named-literal-first-int64", "ops.conversion", lambda tf: tf.divide(2, _c("int64")(tf), name="d")),
    ("divide-no-nan-literal-first-int64", "ops.conversion", lambda tf: tf.math.divide_no_nan(2, _c("int64", (0, 4))(tf))),
    ("truediv-literal-first-int64", "ops.conversion", lambda tf: tf.math.truediv(2, _c("int64")(tf))),
    ("reduce-any-float-list-axis", "ops.conversion", lambda tf: tf.reduce_any(_c("float32", (1.5, 0.0))(tf), axis=[0])),
    ("reduce-any-float-int-axis", "ops.conversion", lambda tf: tf.reduce_any(_c("float32", (1.5, 0.0))(tf), axis=0)),
    ("reduce-all-int-literal", "ops.conversion", lambda tf: tf.reduce_all(1)),
    ("logical-and-float-and-list", "ops.conversion", lambda tf: tf.logical_and(_c("float32", (1.5, 0.0))(tf), [True, False])),
    ("logical-and-bool-and-list", "ops.conversion", lambda tf: tf.logical_and(_c("bool", (True, False))(tf), [True, True])),
    ("list-first-beside-float64-variable", "ops.conversion",
     lambda tf: tf.math.squared_difference([[1.0, 1.0]], tf.Variable([0.25, 0.0], dtype=tf.float64))),
    ("numpy-first-beside-float64-variable", "ops.conversion",
     lambda tf: tf.math.subtract(np.int32(-7), tf.Variable([0.25, 0.0], dtype=tf.float64))),
    ("float-first-beside-float64-variable", "ops.conversion",
     lambda tf: tf.math.subtract(2.5, tf.Variable([0.25, 0.0], dtype=tf.float64))),
    ("int64-list-first-beside-int32-variable", "ops.conversion",
     lambda tf: tf.bitwise.bitwise_and([[6, 2147483648]], tf.Variable([1, 2], dtype=tf.int32))),
    ("int32-list-first-beside-int32-variable", "ops.conversion",
     lambda tf: tf.bitwise.bitwise_and([6, 2], tf.Variable([1, 2], dtype=tf.int32))),
    ("numpy-scalar-ge-variable", "ops.conversion", lambda tf: np.float32(-0.0) >= tf.Variable([0.0, -1.0, 2.0])),
    ("numpy-scalar-minus-variable", "ops.conversion", lambda tf: np.float64(2.5) - tf.Variable([1.0, 2.0])),
    # -- saturate_cast clamps with the ClipByValue op (no uint32/uint64 CPU kernel: fuzz2 seed 4 #107)
    *[(f"saturate-cast-{a}-to-{b}", "ops.truncation",
       lambda tf, a=a, b=b: tf.saturate_cast(tf.constant([4, 1], getattr(tf, a)), getattr(tf, b)))
      for a, b in (("uint32", "int8"), ("uint64", "uint64"), ("uint16", "uint64"), ("int16", "uint8"))],
    # -- IsNan/IsInf/IsFinite have no registered gradient (fuzz2 seed 4 #95)
    ("grad-is-inf-target", "ops.gradient-none-or-zeros", lambda tf: _grad(tf, lambda v: tf.math.is_inf(v))),
    ("grad-where-is-nan", "ops.gradient-none-or-zeros", lambda tf: _grad(tf, lambda v: tf.where(tf.math.is_nan(v), 0.0, v))),
    ("grad-cast-is-finite", "ops.gradient-none-or-zeros",
     lambda tf: _grad(tf, lambda v: tf.cast(tf.math.is_finite(v), tf.float32) * v)),
    # -- SqrtGrad, RsqrtGrad and ReciprocalGrad give +0 where the incoming gradient is 0 (seed 8 #103)
    *[(f"grad-{k}-zero-upstream", "ops.gradient-none-or-zeros", lambda tf, k=k, dt=dt: _zero_upstream(tf, k, dt))
      for k in ("sqrt", "rsqrt", "reciprocal") for dt in ("float32", "float16")],
    # -- an integer variable's own read is recorded (ReadVariableOp takes the handle): fuzz2 seed 4 #250
    *[(f"grad-int-variable-{k}", "ops.gradient-none-or-zeros", lambda tf, f=f: _int_grad(tf, f))
      for k, f in (("read", lambda tf, v: tf.convert_to_tensor(v)), ("round", lambda tf, v: tf.round(v)),
                   ("identity", lambda tf, v: tf.identity(v)), ("times-one", lambda tf, v: v * 1))],
    # -- IndexedSlices through FloorMod/Mul/broadcast Sub become dense, through Cast and Neg stay slices (seed 4 #208)
    *[(f"grad-slices-through-{k}", "ops.gather-gradient-indexed-slices", lambda tf, f=f: _slices_grad(tf, f))
      for k, f in (("floormod", lambda tf, v: tf.math.floormod(v, 4.0)), ("mul", lambda tf, v: v * v),
                   ("sub-broadcast", lambda tf, v: v - tf.constant([1.0, 2.0])), ("cast", lambda tf, v: tf.cast(v, tf.float64)),
                   ("neg", lambda tf, v: -v), ("add-scalar", lambda tf, v: v + 1.0), ("sqrt", lambda tf, v: tf.sqrt(v)),
                   ("square", lambda tf, v: tf.square(v)), ("reshape", lambda tf, v: tf.reshape(tf.reshape(v, [-1]), [3, 2])),
                   ("concat", lambda tf, v: tf.concat([v, v], axis=0)), ("identity", lambda tf, v: tf.identity(v)))],
    # -- argmax/argmin output types: ArgMin's op def has int32 and int64 only (seed 7 #31, #35)
    *[(f"{fn}-output-{ot}", "ops.argument-errors",
       lambda tf, fn=fn, ot=ot: getattr(tf, fn)(tf.constant([[3.0, 1.0]]), axis=1, output_type=getattr(tf, ot)))
      for fn in ("argmax", "argmin") for ot in ("int8", "int16", "uint16", "int32")],
    ("traced-argmin-output-int16", "function.trace-time-errors",
     traced(lambda tf, x: tf.argmin(x, axis=0, output_type=tf.int16), _c("float32"))),
    # -- a graph build's errors (op_def_library) inside tf.function, the operands as arguments
    ("traced-exp-int32", "function.trace-time-errors", traced(lambda tf, x: tf.exp(x), _c("int32"))),
    ("traced-relu-bool", "function.trace-time-errors", traced(lambda tf, x: tf.nn.relu(x), _c("bool", (True, False)))),
    ("traced-reduce-sum-bool", "function.trace-time-errors", traced(lambda tf, x: tf.reduce_sum(x), _c("bool", (True, False)))),
    ("traced-sort-bool", "function.trace-time-errors", traced(lambda tf, x: tf.sort(x), _c("bool", (True, False)))),
    ("traced-softmax-int32", "function.trace-time-errors", traced(lambda tf, x: tf.nn.softmax(x), _c("int32"))),
    ("traced-argmax-ok-bool", "function.trace-time-errors", traced(lambda tf, x: tf.argmax(x), _c("bool", (False, True)))),
    ("traced-logical-and-int", "function.trace-time-errors", traced(lambda tf, x: tf.logical_and(x, x), _c("int32"))),
    ("traced-reduce-any-float", "function.trace-time-errors", traced(lambda tf, x: tf.reduce_any(x, axis=[0]), _c("float32"))),
    ("traced-realdiv-int32-no-kernel", "function.trace-time-errors", traced(lambda tf, x: tf.realdiv(x, x), _c("int32"))),
    ("traced-rint-half-no-kernel", "function.trace-time-errors", traced(lambda tf, x: tf.math.rint(x), _c("float16"))),
    ("traced-saturate-cast-uint32-no-kernel", "function.trace-time-errors",
     traced(lambda tf, x: tf.saturate_cast(x, tf.int8), _c("uint32"))),
    ("traced-reduce-sum-axis-out-of-range", "function.trace-time-errors", traced(lambda tf, x: tf.reduce_sum(x, 3), _c("float32"))),
    ("traced-reduce-max-axis-list-out-of-range", "function.trace-time-errors",
     traced(lambda tf, x: tf.reduce_max(x, [0, -3]), _c("float32"))),
    ("traced-reduce-sum-duplicate-axes", "function.trace-time-errors", traced(lambda tf, x: tf.reduce_sum(x, [0, 0]), _c("float32"))),
    ("traced-argmin-vector-axis-out-of-range", "function.trace-time-errors",
     traced(lambda tf, x: tf.argmin(x, axis=2), _c("float32"))),
    ("traced-argmin-matrix-axis-out-of-range", "function.trace-time-errors",
     traced(lambda tf, x: tf.argmin(tf.reshape(x, [1, 2]), axis=2), _c("float32"))),
    ("reduce-logsumexp-duplicate-axes", "ops.shape-errors", lambda tf: tf.reduce_logsumexp(_c("float32")(tf), [-1, 0])),
    ("reduce-sum-duplicate-axes", "ops.shape-errors", lambda tf: tf.reduce_sum(tf.constant([[1.0, 2.0]]), [-1, 1])),
    ("traced-bias-add-vector", "function.trace-time-errors", traced(lambda tf, x: tf.nn.bias_add(x, x), _c("float64"))),
    ("traced-bias-add-matrix-bias", "function.trace-time-errors",
     traced(lambda tf, x: tf.nn.bias_add(tf.reshape(x, [1, 2]), tf.reshape(x, [1, 2])), _c("float32"))),
    ("traced-greater-equal-literal-first", "function.trace-time-errors",
     traced(lambda tf, x: tf.greater_equal(2, x), _c("int64"))),
    ("traced-greater-equal-literal-second", "function.trace-time-errors",
     traced(lambda tf, x: tf.greater_equal(x, 2), _c("int64"))),
    ("traced-subtract-float-literal-first", "function.trace-time-errors",
     traced(lambda tf, x: tf.subtract(2.0, x), _c("float64"))),
    ("traced-subtract-float-literal-first-float32", "function.trace-time-errors",
     traced(lambda tf, x: tf.subtract(2.0, x), _c("float32"))),
    ("traced-bitwise-and-literal-first", "function.trace-time-errors",
     traced(lambda tf, x: tf.bitwise.bitwise_and(3, x), _c("uint8"))),
    # -- Python ints outside uint64's range (fuzz2 seed 4 #107, seed 5 #14, #46, #81): TF's converter leaves
    # an OverflowError set; the fast path of a generated op raises it, convert_to_tensor's EagerTensor a
    # SystemError. "fresh-" cases run in a TF process of their own (TF caches converted scalars).
    ("fresh-uint64-not-equal-minus-one", "ops.conversion", lambda tf: tf.math.not_equal(_c("uint64")(tf), -1)),
    ("fresh-uint64-mod-too-big", "ops.conversion", lambda tf: tf.math.mod(_c("uint64")(tf), 2**64)),
    ("fresh-uint64-minus-operator-minus-one", "ops.conversion", lambda tf: _c("uint64")(tf) - -1),
    ("fresh-uint64-and-operator-minus-two", "ops.conversion", lambda tf: _c("uint64")(tf) & -2),
    ("fresh-uint64-plus-operator-minus-one", "ops.conversion", lambda tf: _c("uint64")(tf) + -1),
    ("fresh-minus-one-minus-uint64", "ops.conversion", lambda tf: -1 - _c("uint64")(tf)),
    ("fresh-uint64-constant-minus-one", "ops.conversion", lambda tf: tf.constant(-1, tf.uint64)),
    ("fresh-uint64-less-list-min-int64", "ops.conversion", lambda tf: tf.math.less(_c("uint64")(tf), [3, -2**63])),
    ("traced-uint64-not-equal-minus-one", "ops.conversion",
     traced(lambda tf, x: tf.math.not_equal(x, -1), _c("uint64"))),
    ("traced-int64-plus-two-to-63", "ops.conversion", traced(lambda tf, x: x + 2**63, _c("int64"))),
    ("traced-uint64-plus-two-to-64", "ops.conversion", traced(lambda tf, x: x + 2**64, _c("uint64"))),
    # -- a Python bool converts to uint64 (seed 6 #12: `add_n([...]) | True`)
    ("uint64-or-true", "ops.conversion", lambda tf: _c("uint64", (1, 6))(tf) | True),
    ("uint64-minus-true", "ops.conversion", lambda tf: tf.math.subtract(_c("uint64", (1, 6))(tf), True)),
    ("uint32-or-true", "ops.conversion", lambda tf: _c("uint32", (1, 6))(tf) | True),
    # -- NumPy operands of logical ops are cast to bool (seed 7 #101, #185; seed 8)
    ("logical-and-numpy-uint32-first", "ops.conversion",
     lambda tf: tf.logical_and(np.uint32(4), _c("bool", (True, False))(tf))),
    ("logical-and-numpy-float16-first", "ops.conversion",
     lambda tf: tf.logical_and(np.float16(0), _c("bool", (True, False))(tf))),
    ("logical-or-numpy-beside-float-tensor", "ops.conversion",
     lambda tf: tf.logical_or(np.uint32(4), _c("float32", (1.5, 2.0))(tf))),
    ("numpy-uint32-and-operator-bool", "ops.conversion", lambda tf: np.uint32(4) & _c("bool", (True, False))(tf)),
    ("traced-logical-and-numpy-first", "ops.conversion",
     traced(lambda tf, x: tf.logical_and(np.uint32(4), x), _c("bool", (True, False)))),
    ("bitwise-xor-numpy-float", "ops.conversion", lambda tf: tf.bitwise.bitwise_xor(_c("int32")(tf), np.float64(2.5))),
    # -- concat/stack: Python and NumPy elements take the first tensor's dtype (args_to_matching_eager)
    ("concat-float64-and-list", "ops.conversion", lambda tf: tf.concat([_c("float64")(tf), [1.5]], 0)),
    ("concat-list-first-float64", "ops.conversion", lambda tf: tf.concat([[1.5, 2.5], _c("float64")(tf)], 0)),
    ("concat-int8-and-wrapping-list", "ops.conversion", lambda tf: tf.concat([_c("int8")(tf), [300]], 0)),
    ("concat-int32-and-float-list", "ops.conversion", lambda tf: tf.concat([_c("int32")(tf), [2.5]], 0)),
    ("concat-int32-and-numpy-float", "ops.conversion", lambda tf: tf.concat([_c("int32")(tf), np.array([2.5])], 0)),
    ("concat-list-beside-two-dtypes", "ops.conversion",
     lambda tf: tf.concat([[1.5], _c("float64")(tf), _c("float32")(tf)], 0)),
    ("stack-list-first-float64", "ops.conversion", lambda tf: tf.stack([[1.5, 2.0], _c("float64")(tf)])),
    ("traced-concat-int32-and-float-list", "ops.conversion",
     traced(lambda tf, x: tf.concat([x, [2.5]], 0), _c("int32"))),
    ("traced-concat-list-first-float64", "ops.conversion",
     traced(lambda tf, x: tf.concat([[1.5], x], 0), _c("float64"))),
    # -- shape functions and type constraints inside tf.function (seed 4 #162, #220; seed 6 #23, #53; seed 7 #66)
    ("traced-log-softmax-scalar", "function.trace-time-errors",
     traced(lambda tf, x: tf.nn.log_softmax(x), lambda tf: tf.constant(-np.inf, tf.float16))),
    ("traced-softmax-scalar", "function.trace-time-errors",
     traced(lambda tf, x: tf.nn.softmax(x), lambda tf: tf.constant(1.5, tf.float32))),
    ("log-softmax-scalar", "function.trace-time-errors", lambda tf: tf.nn.log_softmax(tf.constant(1.5, tf.float64))),
    ("traced-gather-float-indices", "function.trace-time-errors",
     traced(lambda tf, x: tf.gather(x, [], axis=0), _c("float32"))),
    ("traced-one-hot-bool-indices", "function.trace-time-errors",
     traced(lambda tf, x: tf.one_hot(x, 1, dtype=tf.uint8), _c("bool", (True, False)))),
    ("traced-segment-sum-float-ids", "function.trace-time-errors",
     traced(lambda tf, x: tf.math.segment_sum(x, x), _c("float32", (0.0, 1.0)))),
    ("traced-segment-prod-unknown-rows", "function.trace-time-errors",
     traced(lambda tf, x: tf.math.not_equal(tf.math.segment_prod(x, [0, 0, 1]), x), _c("uint64", (2, 2, 3)))),
    ("traced-segment-mean-unknown-rows-broadcast", "function.trace-time-errors",
     traced(lambda tf, x: tf.math.segment_mean(tf.reshape(x, [2, 2]), [0, 1]) + tf.reshape(x, [2, 2])[:, :1],
             _c("float32", (1.0, 2.0, 3.0, 4.0)))),
    ("traced-unsorted-segment-known-rows", "function.trace-time-errors",
     traced(lambda tf, x: tf.math.not_equal(tf.math.unsorted_segment_sum(x, [0, 0, 1], 2), x), _c("uint64", (2, 2, 3)))),
    ("traced-boolean-mask-unknown-rows", "function.trace-time-errors",
     traced(lambda tf, x: tf.boolean_mask(x, [True, False, True]) + x, _c("float32", (2.0, 2.0, 3.0)))),
    ("traced-unique-unknown-rows", "function.trace-time-errors",
     traced(lambda tf, x: tf.unique(x)[0] + x, _c("float32", (2.0, 2.0, 3.0)))),
    ("traced-where-unknown-rows", "function.trace-time-errors",
     traced(lambda tf, x: tf.cast(tf.where(x > 2), tf.float32) + x, _c("float32", (2.0, 2.0, 3.0)))),
    ("traced-sequence-mask-unknown-columns", "function.trace-time-errors",
     traced(lambda tf, x: tf.sequence_mask(x) & tf.constant([[True, False]]), _c("int32", (2, 2, 3)))),
    ("traced-sequence-mask-known-columns", "function.trace-time-errors",
     traced(lambda tf, x: tf.sequence_mask(x, 3) & tf.constant([[True, False]]), _c("int32", (2, 2, 3)))),
    ("traced-matmul-uint64-bad-shapes", "function.trace-time-errors",
     traced(lambda tf, x: tf.reshape(x, [2, 3]) @ tf.reshape(x, [2, 3]), _c("uint64", range(6)))),
    ("matmul-uint64-bad-shapes", "function.trace-time-errors",
     lambda tf: tf.reshape(_c("uint64", range(6))(tf), [2, 3]) @ tf.reshape(_c("uint64", range(6))(tf), [2, 3])),
    ("traced-matmul-int8", "function.trace-time-errors",
     traced(lambda tf, x: tf.reshape(x, [2, 2]) @ tf.reshape(x, [2, 2]), _c("int8", range(4)))),
    ("traced-strided-slice-shrink-negative-stride", "function.trace-time-errors",
     traced(lambda tf, x: tf.strided_slice(tf.reshape(x, [2, 2]), [1], [0], [-1], shrink_axis_mask=1),
             _c("float16", range(4)))),
    ("traced-strided-slice-shrink-out-of-bounds", "function.trace-time-errors",
     traced(lambda tf, x: tf.strided_slice(tf.reshape(x, [2, 2]), [5], [0], [1], shrink_axis_mask=1),
             _c("float16", range(4)))),
    # -- strided_slice: a shrink axis takes positive strides only (seed 1 #6, seed 4 #128, #236)
    ("strided-slice-shrink-negative-stride", "ops.argument-errors",
     lambda tf: tf.strided_slice(tf.reshape(_c("float16", range(4))(tf), [2, 2]), [0, 1], [-1, -2], [-1, 1],
                                 shrink_axis_mask=3)),
    ("strided-slice-shrink-stride-two", "ops.argument-errors",
     lambda tf: tf.strided_slice(tf.reshape(_c("float16", range(4))(tf), [2, 2]), [1], [0], [2], shrink_axis_mask=1)),
    # -- tensordot is a MatMul: its dtype rule (seed 7 #91)
    ("tensordot-bool", "ops.argument-errors", lambda tf: tf.tensordot(_c("bool", (True, False))(tf),
                                                                    _c("bool", (True, False))(tf), axes=0)),
    ("tensordot-int16", "ops.argument-errors", lambda tf: tf.tensordot(_c("int16")(tf), _c("int16")(tf), axes=1)),
    # -- Range (sequence_mask's): NaN bounds, lengths beyond int64, outputs the allocator refuses (seed 3 #16, seed 5 #26)
    ("sequence-mask-huge-int64", "ops.argument-errors",
     lambda tf: tf.sequence_mask(tf.constant([1, 2**63 - 1], tf.int64))),
    ("sequence-mask-nan", "ops.argument-errors", lambda tf: tf.sequence_mask(_c("float32", (1.5, np.nan))(tf))),
    ("sequence-mask-inf", "ops.argument-errors", lambda tf: tf.sequence_mask(_c("float32", (1.5, np.inf))(tf))),
    ("traced-sequence-mask-nan", "ops.argument-errors",
     traced(lambda tf, x: tf.sequence_mask(x), _c("float32", (1.5, np.nan)))),
    ("sequence-mask-float", "ops.argument-errors", lambda tf: tf.sequence_mask(_c("float32", (1.5, 2.5))(tf))),
    # -- Range's types: the op def refuses uint8, the CPU kernels int8/int16/uint16/uint32/uint64 (seed 11 #7)
    ("sequence-mask-uint8", "ops.argument-errors", lambda tf: tf.sequence_mask(_c("uint8", (0, 2))(tf), dtype=tf.int32)),
    ("sequence-mask-int16", "ops.argument-errors", lambda tf: tf.sequence_mask(_c("int16", (0, 2))(tf))),
    ("traced-sequence-mask-uint8", "ops.argument-errors",
     traced(lambda tf, x: tf.sequence_mask(x), _c("uint8", (0, 2)))),
    ("range-dtype-uint8", "ops.argument-errors", lambda tf: tf.range(0, 3, dtype=tf.uint8)),
    ("range-dtype-uint64", "ops.argument-errors", lambda tf: tf.range(0, 3, dtype=tf.uint64)),
    ("traced-range-dtype-int8", "ops.argument-errors", traced(lambda tf, x: tf.range(0, x[0], dtype=tf.int8), _c("int32"))),
    ("range-int8-tensors", "ops.argument-errors", lambda tf: tf.range(tf.constant(0, tf.int8), tf.constant(3, tf.int8))),
    ("range-float16-tensors", "ops.argument-errors",
     lambda tf: tf.range(tf.constant(0, tf.float16), tf.constant(3, tf.float16))),
    ("range-bfloat16-and-int", "ops.argument-errors", lambda tf: tf.range(tf.constant(0.5, tf.bfloat16), 3)),
    # -- saturate_cast to and from bfloat16 (ml_dtypes' limits; seed 4 #184, #242)
    *[(f"saturate-cast-{a}-to-{b}", "ops.truncation",
       lambda tf, a=a, b=b, v=v: tf.saturate_cast(tf.constant(np.array(v, np.float64).astype(a) if a != "bfloat16" else
                                                              np.array(v, np.float32), getattr(tf, a)), getattr(tf, b)))
      for a, b, v in (("int32", "bfloat16", [-7, 2**31 - 1, -2**31]), ("float64", "bfloat16", [-7.5, 1e300, -np.inf]),
                      ("int64", "bfloat16", [-7, 300, 2**15]), ("bfloat16", "int16", [-7.5, 1e30, -np.inf, 300]),
                      ("bfloat16", "uint8", [-7.5, 1e30, 300]), ("float16", "bfloat16", [-7, 300, 2**15]))],
    ("traced-saturate-cast-int32-to-bfloat16", "ops.truncation",
     traced(lambda tf, x: tf.saturate_cast(x, tf.bfloat16), _c("int32", (-7, 2**31 - 1)))),
    ("traced-saturate-cast-float32-to-int16", "ops.truncation",
     traced(lambda tf, x: tf.saturate_cast(x, tf.int16), _c("float32", (-7.5, 1e9, np.inf, -40000)))),
    # -- float to uint32/uint64 beyond the type: uint64 2**63, uint32 packets of 8 2**31 (seed 11 #0, seed 7 #185)
    *[(f"cast-{src}-to-{dst}-{n}", "ops.packet-paths", lambda tf, src=src, dst=dst, n=n: _cast_beyond(tf, src, dst, n))
      for src in ("float32", "float64", "float16") for dst in ("uint32", "uint64") for n in (11, 19)],
    # -- seed 12: tf.math.add converts a float literal alone (float32 range: eager ValueError; a graph gives inf, then
    # op_def_library's TypeError), cumulative_logsumexp of bfloat16, Sqrt's op def before segment ids when traced
    ("add-float-list-beyond-float32-first", "ops.conversion", lambda tf: tf.math.add([-249.0, 7.5e38], _c("float64")(tf))),
    ("add-float-beyond-float32-first", "ops.conversion", lambda tf: tf.math.add(7.5e38, _c("float64")(tf))),
    ("subtract-float-list-beyond-float32-first", "ops.conversion",
     lambda tf: tf.math.subtract([-249.0, 7.5e38], _c("float64")(tf))),
    ("traced-add-float-list-beyond-float32-first", "function.trace-time-errors",
     traced(lambda tf, x: tf.math.add([-249.0, 7.5e38], x), _c("float64"))),
    ("traced-constant-beyond-float32", "ops.conversion", traced(lambda tf, x: tf.constant([1e40]) + x, _c("float32"))),
    ("cumulative-logsumexp-bfloat16-exclusive", "ops.argument-errors",
     lambda tf: tf.math.cumulative_logsumexp(tf.constant([[4.0], [3.0]], tf.bfloat16), axis=-1, exclusive=True)),
    ("cumulative-logsumexp-bfloat16", "ops.argument-errors",
     lambda tf: tf.math.cumulative_logsumexp(tf.constant([[4.0, 1.0], [3.0, 2.0]], tf.bfloat16), axis=-1)),
    ("traced-unsorted-segment-sqrt-n-int32-bad-ids", "function.trace-time-errors",
     traced(lambda tf, x: tf.math.unsorted_segment_sqrt_n(x, [2, 2], num_segments=2), _c("int32"))),
    ("unsorted-segment-sqrt-n-int32", "function.trace-time-errors",
     lambda tf: tf.math.unsorted_segment_sqrt_n(_c("int32")(tf), [0, 1], num_segments=2)),
    # -- Tile (and tf.repeat) has no uint16 kernel case, after its identity and empty shortcuts (seed 5 #199)
    ("tile-uint16", "ops.argument-errors", lambda tf: tf.tile(_c("uint16")(tf), [2])),
    ("tile-uint16-identity", "ops.argument-errors", lambda tf: tf.tile(_c("uint16")(tf), [1])),
    ("tile-uint16-empty", "ops.argument-errors", lambda tf: tf.tile(tf.reshape(_c("uint16", ())(tf), [1, 0]), [2, 1])),
    ("repeat-uint16", "ops.argument-errors", lambda tf: tf.repeat(tf.reshape(_c("uint16")(tf), [1, 2]), 2, axis=-1)),
    ("repeat-uint16-once", "ops.argument-errors", lambda tf: tf.repeat(_c("uint16")(tf), 1)),
    ("traced-tile-uint16", "ops.argument-errors", traced(lambda tf, x: tf.tile(x, [3]), _c("uint16"))),
    ("tile-uint32", "ops.argument-errors", lambda tf: tf.tile(_c("uint32")(tf), [2])),
    # -- seed 12 #81, #130, seed 5 #199: `+` with a list that does not convert to the tensor's dtype, the
    # gradient of a transpose by a negative perm (InvertPermutation), bfloat16 segment extremes
    ("bool-plus-int-list", "ops.conversion", lambda tf: _c("bool", (True,))(tf) + [2]),
    ("int8-plus-float-list", "ops.conversion", lambda tf: _c("int8")(tf) + [2.5, 1.5]),
    ("int8-minus-float-list", "ops.conversion", lambda tf: _c("int8")(tf) - [2.5, 1.5]),
    ("grad-transpose-negative-perm", "ops.argument-errors",
     lambda tf: _perm_grad(tf, [-1, -2])),
    ("grad-transpose-perm", "ops.argument-errors", lambda tf: _perm_grad(tf, [1, 0])),
    ("unsorted-segment-min-bfloat16", "ops.argument-errors",
     lambda tf: tf.math.unsorted_segment_min(tf.constant([[1.0, 2.0]], tf.bfloat16), [0], num_segments=3)),
    ("segment-min-bfloat16", "ops.argument-errors",
     lambda tf: tf.math.segment_min(tf.constant([[1.0, 2.0]], tf.bfloat16), [1])),
    # -- uint64 means sum in uint64 (wrapping) and divide unsigned (seed 11 #42)
    ("reduce-mean-uint64-max", "ops.integer-mean", lambda tf: tf.reduce_mean(_c("uint64", (0, 2**64 - 1, 0))(tf))),
    ("reduce-mean-uint64-wraps", "ops.integer-mean", lambda tf: tf.reduce_mean(_c("uint64", (2**63, 2**63, 7))(tf))),
    ("reduce-mean-uint64-axis", "ops.integer-mean",
     lambda tf: tf.reduce_mean(tf.reshape(_c("uint64", (2**64 - 1, 3, 2**64 - 1, 5))(tf), [2, 2]), axis=0)),
    ("reduce-mean-uint32-no-wrap", "ops.integer-mean", lambda tf: tf.reduce_mean(_c("uint32", (2**32 - 1, 2**32 - 1))(tf))),
    ("reduce-sum-two-axes", "ops.shape-errors", lambda tf: tf.reduce_sum(tf.constant([[1.0, 2.0]]), [0, -1])),
]
EDGES = edge_compare.EdgeModule(__file__, CASES)


def _in_child(tf: Any, k: int) -> Any:
    """Case k in a forked TF process of its own (nothing converted or cached before it), for the
    "fresh-" cases: TF's scalar cache keeps a handle converted with an OverflowError pending, so a
    second conversion of the same literal computes, and such a conversion can abort the process."""
    import os
    import pickle
    rd, wr = os.pipe()
    pid = os.fork()
    if pid == 0:   # the child: TF imported, its runtime not yet initialized
        os.close(rd)
        with os.fdopen(wr, "wb") as f:
            pickle.dump(EDGES.outcome(tf, k), f)
        os._exit(0)
    os.close(wr)
    with os.fdopen(rd, "rb") as f:
        data = f.read()
    _, status = os.waitpid(pid, 0)
    return pickle.loads(data) if data else ("err", f"child process ended with status {status}")


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    out = {k: _in_child(tf, k) for k in indices if CASES[k][0].startswith("fresh-")}   # before TF's runtime starts
    _strategy(tf)   # the logical CPUs are configured before any op initializes TF's runtime
    out.update({k: EDGES.outcome(tf, k) for k in indices if k not in out})
    return out


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.truediv-dtypes")
@EDGES.parametrize("ops.truediv-dtypes")
def test_truediv_tables(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("reduce.dtypes")
@EDGES.parametrize("reduce.dtypes")
def test_cross_replica_dtypes(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("gather.dtypes")
@EDGES.parametrize("gather.dtypes")
def test_gather_dtypes(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_operand_conversion(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.truncation")
@EDGES.parametrize("ops.truncation")
def test_saturate_cast_kernels(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.gradient-none-or-zeros")
@EDGES.parametrize("ops.gradient-none-or-zeros")
def test_flag_ops_have_no_gradient(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.gather-gradient-indexed-slices")
@EDGES.parametrize("ops.gather-gradient-indexed-slices")
def test_slices_through_gradients(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.shape-errors")
@EDGES.parametrize("ops.shape-errors")
def test_reduction_axes(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_arg_output_types(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.packet-paths")
@EDGES.parametrize("ops.packet-paths")
def test_unsigned_cast_packets(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.integer-mean")
@EDGES.parametrize("ops.integer-mean")
def test_unsigned_means(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_graph_build_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of clauses {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fuzz2_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(_tf_worker)
