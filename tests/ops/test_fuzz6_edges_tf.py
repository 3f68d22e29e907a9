"""Rules issue 29's sixth campaign (fz6: the fourth fuzzer's seeds 11-13) found wrong outside the
complex kernels, each against real TensorFlow 2.21: the same call on both backends gives the
same dtype and bits, or raises the same exception class. Conversion: autopacking a list of tensors
with a requested dtype (or a dtype hint) casts them; a Python sequence mixing bools and numbers
converts when a numeric dtype is requested. Range's shape function checks constant inputs inside a
tf.function before the missing kernel of an unsigned or narrow dtype is looked up. The scan ops'
axis is a tensor operand (a list is the kernel's InvalidArgumentError). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _packed(build: str, **kw: Any) -> Callable[[Any], Any]:
    """tf.convert_to_tensor(<build>, **kw), where build is a Python expression over tensors and
    variables x (float32 [1e10, -2]), t (float32 [1.5, -3]) and i (int64 variable 2**63 - 1)."""
    def run(tf: Any) -> Any:
        env = {"x": tf.Variable(tf.constant([1e10, -2.0])), "t": tf.constant([1.5, -3.0]),
               "i": tf.Variable(tf.constant(2 ** 63 - 1, tf.int64)), "tf": tf, "np": np}
        kws = {k: (getattr(tf, v) if isinstance(v, str) and hasattr(tf, v) else v) for k, v in kw.items()}
        return tf.convert_to_tensor(eval(build, env), **kws)  # noqa: S307 - our text
    return run


CONVERSION: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- autopacking casts the tensors to a requested dtype (fz4 seed 11 #14, #15, #103, #145, #146)
    ("pack-variables-dtype-int16", "ops.conversion", _packed("[x, x]", dtype="int16")),
    ("pack-tensors-dtype-float64", "ops.conversion", _packed("[t, t]", dtype="float64")),
    ("pack-nested-dtype-int32", "ops.conversion", _packed("[[t], [t]]", dtype="int32")),
    ("pack-mixed-dtype-float64", "ops.conversion", _packed("[t, [1.0, 2.0]]", dtype="float64")),
    ("pack-int64-variables-as-float32", "ops.conversion", _packed("[i, i]", dtype="float32")),
    ("pack-hint-int8", "ops.conversion", _packed("[x, x]", dtype_hint="int8")),
    ("pack-hint-float64", "ops.conversion", _packed("[x, x]", dtype_hint=np.float64)),
    ("pack-hint-bool", "ops.conversion", _packed("[x, x]", dtype_hint=np.bool_)),
    ("pack-hint-string-cast-refused", "ops.conversion", _packed("[x, x]", dtype_hint="string")),
    ("variable-of-packed-int64-as-float32", "ops.conversion",
     lambda tf: tf.Variable([tf.Variable(tf.constant(2 ** 63 - 1, tf.int64))] * 2, dtype=tf.float32) * 1),
    # -- bools beside numbers convert when a numeric dtype is requested (fz4 seed 11 #162, #181, seed 12 #162)
    ("bool-int-as-float16", "ops.conversion", lambda tf: tf.constant([True, 0], np.float16)),
    ("bool-int-as-float32", "ops.conversion", lambda tf: tf.constant([True, 0], tf.float32)),
    ("bool-int-as-int64", "ops.conversion", lambda tf: tf.convert_to_tensor([True, 0], dtype=tf.int64)),
    ("bool-int-hint-int64", "ops.conversion", lambda tf: tf.convert_to_tensor([True, 0], dtype_hint="int64")),
    ("int-bool-as-int64", "ops.conversion", lambda tf: tf.convert_to_tensor([0, True], dtype=tf.int64)),
    ("bool-float-as-float32", "ops.conversion", lambda tf: tf.convert_to_tensor([True, 2.5], dtype=tf.float32)),
    ("nested-bool-int-as-int32", "ops.conversion", lambda tf: tf.convert_to_tensor([[True], [0]], dtype=tf.int32)),
    ("bool-int-no-dtype-mixed", "ops.conversion", lambda tf: tf.convert_to_tensor([True, 0])),
    ("bool-int-as-bool-mixed", "ops.conversion", lambda tf: tf.convert_to_tensor([True, 0], dtype=tf.bool)),
    ("int-bool-as-bool-refused", "ops.conversion", lambda tf: tf.convert_to_tensor([1, True], dtype=tf.bool)),
    ("bool-int-as-int8-mixed", "ops.conversion", lambda tf: tf.convert_to_tensor([True, 0], dtype=tf.int8)),
    ("int-bool-as-int8-cast", "ops.conversion", lambda tf: tf.constant([0, True], tf.int8)),
    ("bool-as-int8-refused", "ops.conversion", lambda tf: tf.constant([True], tf.int8)),
    ("int-bool-as-complex64", "ops.conversion", lambda tf: tf.constant([0, True], tf.complex64)),
    ("float-bool-as-bfloat16", "ops.conversion", lambda tf: tf.constant([0.5, True], tf.bfloat16)),
    ("bool-int-as-uint64", "ops.conversion", lambda tf: tf.constant([True, 0], tf.uint64)),
    ("bool-int-as-string-mixed", "ops.conversion", lambda tf: tf.constant([True, 0], tf.string)),
    ("nested-int-bool-as-uint16", "ops.conversion", lambda tf: tf.constant([[0], [True]], tf.uint16)),
]
CASES = CONVERSION


def _range_traced(*args: Any, **kw: Any) -> Callable[[Any], Any]:
    """tf.range(*args, dtype=kw["dtype"] (a tf attribute name), ...) in a tf.function without
    arguments: the class get_concrete_function raises ("at trace: ValueError"), else its call."""
    def run(tf: Any) -> Any:
        kws = {k: (getattr(tf, v) if k == "dtype" else v) for k, v in kw.items()}
        f = tf.function(lambda: tf.range(*args, **kws), input_signature=[])
        try:
            f.get_concrete_function()
        except Exception as e:  # noqa: BLE001 - the class is the result
            return f"at trace: {type(e).__name__}"
        return f()
    return run


RANGE: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- Range's shape function checks constant inputs before the missing kernel (fz3 seed 72 #25, #132, 73 #156)
    ("range-uint32-start-above-limit", "function.trace-time-errors", _range_traced(100, 2, dtype="uint32")),
    ("range-uint16-start-above-limit", "function.trace-time-errors", _range_traced(3, limit=2, dtype="uint16")),
    ("range-uint64-minus-one-wraps", "function.trace-time-errors", _range_traced(-1, limit=0, delta=1, dtype="uint64")),
    ("range-uint16-zero-delta", "function.trace-time-errors", _range_traced(0, 5, 0, dtype="uint16")),
    ("range-uint32-valid-no-kernel", "function.trace-time-errors", _range_traced(0, 5, dtype="uint32")),
    ("range-int8-valid-no-kernel", "function.trace-time-errors", _range_traced(5, 0, -1, dtype="int8")),
]
CASES = CASES + RANGE


def _scan(fn: str, axis: Any, traced: bool) -> Callable[[Any], Any]:
    """tf.math.<fn>(x, axis=axis, exclusive=True) of an int64 (float32 for cumulative_logsumexp)
    matrix, eagerly or inside a tf.function."""
    def run(tf: Any) -> Any:
        x = tf.constant([[0, 3, 0], [1, 5, 7]], tf.int64 if fn != "cumulative_logsumexp" else tf.float32)
        call = lambda: getattr(tf.math, fn)(x, axis=axis, exclusive=True)  # noqa: E731
        return tf.function(call)() if traced else call()
    return run


SCAN_AXIS: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- the scan ops' axis is a tensor operand: a list is the kernel's InvalidArgumentError, None ValueError,
    #    a float TypeError (fz4 seed 12 #7, #63, seed 13 #26, #163)
    *[(f"{fn}-axis-{label}-{'traced' if tr else 'eager'}", "ops.argument-errors", _scan(fn, ax, tr))
      for fn in ("cumsum", "cumprod", "cumulative_logsumexp")
      for label, ax in (("list", [-2]), ("tuple", (0,)), ("none", None), ("float", 0.0), ("nested", [[0]]),
                        ("np-int", np.int64(1)), ("np-array", np.array([0])))
      for tr in (False, True)],
]
CASES = CASES + SCAN_AXIS

SHAPES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- TensorShape's dimensions as TF's Dimension takes them (fz4 seed 11 #185, seed 12 #148)
    *[(f"tensorshape-{label}", "ops.argument-errors", (lambda d: lambda tf: tf.TensorShape(d).as_list())(dims))
      for label, dims in (("negative", [1, -1]), ("np-negative", [np.int64(-3)]), ("float", [2.0]), ("string", ["3"]),
                          ("scalar", 2), ("scalar-negative", -1), ("unknown", [None, 2]), ("tuple", (1, 2)))],
    ("reshape-to-tensorshape-with-minus-one", "ops.argument-errors",
     lambda tf: tf.reshape(np.float64(2.5), tf.TensorShape([1, -1]))),
]
CASES = CASES + SHAPES

GRAPH_BOOLS: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- inside a tf.function a bool beside numbers is an int (make_tensor_proto's NumPy inference; fz4 seed 11 #128)
    *[(f"traced-{label}", "ops.conversion", (lambda v: lambda tf: tf.function(lambda: tf.constant(v))())(value))
      for label, value in (("bool-int", [True, 0]), ("int-bool", [0, True]), ("bool-float", [True, 2.5]),
                           ("nested", [[True], [3]]))],
    ("traced-cast-bool-int", "ops.conversion", lambda tf: tf.function(lambda: tf.cast([True, 0], dtype=np.int64))()),
]
CASES = CASES + GRAPH_BOOLS

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_conversion(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_range_shape_function_first(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_scan_axis_operand(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


if __name__ == "__main__":  # TF worker: python test_fuzz6_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
