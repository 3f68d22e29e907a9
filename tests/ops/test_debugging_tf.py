"""tf.debugging against real TensorFlow 2.21 (clause ops.debugging-checks): check_numerics and
assert_all_finite (CheckNumerics: values, error classes, dtypes, gradient, inside a tf.function),
and check_ops.py's assertions (assert_integer, assert_none_equal, assert_rank_at_least,
assert_rank_in, assert_same_float_dtype, assert_scalar, assert_shapes, assert_type,
assert_proper_iterable, is_numeric_tensor): what they return, their error classes, and the
messages of the errors check_ops.py raises in Python (compared in full: `_message`). Needs the
`tf` extra (golden-backed otherwise)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

NAN_INF = np.array([1.0, np.nan, np.inf], np.float32)


def _message(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """[error class name, message] of fn(tf) as a Python list (compared exactly), or its result."""
    def run(tf: Any) -> Any:
        try:
            out = fn(tf)
        except Exception as e:  # noqa: BLE001 - the error is the result
            return [tf.constant(type(e).__name__), tf.constant(str(e))]
        return out
    return run


def _returns(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """What fn(tf) returns, as a string tensor (None, a DType, a bool)."""
    return lambda tf: tf.constant(repr(fn(tf)))


_NUMERICS: list[tuple[str, Callable[[Any], Any]]] = [
    ("finite", lambda tf: tf.debugging.check_numerics(tf.constant([1.0, -2.5]), "m")),
    ("nan", lambda tf: tf.debugging.check_numerics(tf.constant([1.0, np.nan]), "m")),
    ("inf", lambda tf: tf.debugging.check_numerics(tf.constant([1.0, -np.inf]), "m")),
    ("inf-and-nan", lambda tf: tf.debugging.check_numerics(tf.constant(NAN_INF), "m")),
    ("float16-inf", lambda tf: tf.debugging.check_numerics(tf.constant([1.0, np.inf], tf.float16), "m")),
    ("float64", lambda tf: tf.debugging.check_numerics(tf.constant([1.0, 2.0], tf.float64), "m")),
    ("bfloat16", lambda tf: tf.debugging.check_numerics(tf.constant([1.0, 2.0], tf.bfloat16), "m")),
    ("int32", lambda tf: tf.debugging.check_numerics(tf.constant([1, 2]), "m")),
    ("complex", lambda tf: tf.debugging.check_numerics(tf.constant([1 + 1j]), "m")),
    ("list", lambda tf: tf.debugging.check_numerics([1.0, 2.0], "m")),
    ("no-message", lambda tf: tf.debugging.check_numerics(tf.constant([1.0]))),
    ("empty", lambda tf: tf.debugging.check_numerics(tf.zeros([0, 3]), "m")),
    ("in-function", lambda tf: tf.function(lambda a: tf.debugging.check_numerics(a, "f") * 2.0)(
        tf.constant(NAN_INF))),
    ("in-function-ok", lambda tf: tf.function(lambda a: tf.debugging.check_numerics(a, "f") * 2.0)(
        tf.constant([1.0, 3.0]))),
    ("in-function-unused-output", lambda tf: tf.function(
        lambda a: [tf.debugging.check_numerics(a, "f"), a + 1.0][1])(tf.constant(NAN_INF))),
    ("in-function-int-trace", lambda tf: tf.function(lambda a: tf.debugging.check_numerics(a, "f"))(
        tf.constant([1, 2]))),
    ("assert-all-finite", lambda tf: tf.debugging.assert_all_finite(tf.constant([1.0, 2.0]), "m")),
    ("assert-all-finite-nan", lambda tf: tf.debugging.assert_all_finite(tf.constant(NAN_INF), "m")),
    ("assert-all-finite-int", lambda tf: tf.debugging.assert_all_finite(tf.constant([1]), "m")),
]


def _grad_through_check(x: np.ndarray) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        v = tf.Variable(x)
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.debugging.check_numerics(v, "m") ** 2)
        return tape.gradient(loss, v)
    return run


def _nan_gradient(tf: Any) -> Any:
    v = tf.Variable([0.0, 1.0])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.sqrt(tf.debugging.check_numerics(v, "m")) * 0.0 + tf.math.log(
            tf.debugging.check_numerics(v, "m")))
    return tape.gradient(loss, v)


_GRADS: list[tuple[str, Callable[[Any], Any]]] = [
    ("grad", _grad_through_check(np.array([1.0, -2.0, 3.0], np.float32))),
    ("grad-nan-error", _nan_gradient),
]

_ASSERTS: list[tuple[str, Callable[[Any], Any]]] = [
    ("integer-ok", _returns(lambda tf: tf.debugging.assert_integer(tf.constant([1])))),
    ("integer-float", _message(lambda tf: tf.debugging.assert_integer(tf.constant([1.0]), message="mm"))),
    ("integer-list", _message(lambda tf: tf.debugging.assert_integer([1.0]))),
    ("integer-uint8", _returns(lambda tf: tf.debugging.assert_integer(tf.constant([1], tf.uint8)))),
    ("none-equal-ok", _returns(lambda tf: tf.debugging.assert_none_equal(tf.constant([1, 2]), tf.constant([3, 4])))),
    ("none-equal-bad", _message(lambda tf: tf.debugging.assert_none_equal(tf.constant([1, 2]), tf.constant([3, 2]),
                                                                          message="mm"))),
    ("none-equal-bad-2d", _message(lambda tf: tf.debugging.assert_none_equal(
        tf.constant([[1, 2], [5, 5]]), tf.constant([[1, 3], [5, 4]])))),
    ("none-equal-broadcast", _returns(lambda tf: tf.debugging.assert_none_equal(tf.constant([1, 2]), 5))),
    ("none-equal-broadcast-bad", _message(lambda tf: tf.debugging.assert_none_equal(tf.constant([1, 2]), 2))),
    ("none-equal-shapes", lambda tf: tf.debugging.assert_none_equal(tf.constant([1, 2]), tf.constant([1, 2, 3]))),
    ("none-equal-dtypes", lambda tf: tf.debugging.assert_none_equal(tf.constant([1, 2]), tf.constant([1.0, 2.0]))),
    ("rank-at-least-ok", _returns(lambda tf: tf.debugging.assert_rank_at_least(tf.ones([2, 3]), 1))),
    ("rank-at-least-bad", _message(lambda tf: tf.debugging.assert_rank_at_least(tf.ones([2, 3]), 3, message="mm"))),
    ("rank-at-least-float", _message(lambda tf: tf.debugging.assert_rank_at_least(tf.ones([2, 3]), 1.0))),
    ("rank-at-least-vector", _message(lambda tf: tf.debugging.assert_rank_at_least(tf.ones([2, 3]), [1]))),
    ("rank-in-ok", _returns(lambda tf: tf.debugging.assert_rank_in(tf.ones([2, 3]), [1, 2]))),
    ("rank-in-bad", _message(lambda tf: tf.debugging.assert_rank_in(tf.ones([2, 3]), [1, 3], message="mm"))),
    ("rank-in-scalar", _message(lambda tf: tf.debugging.assert_rank_in(5.0, (1, 2)))),
    ("same-float-ok", _returns(lambda tf: tf.debugging.assert_same_float_dtype([tf.ones([2]), tf.ones([1])]))),
    ("same-float-none", _returns(lambda tf: tf.debugging.assert_same_float_dtype())),
    ("same-float-int", _message(lambda tf: tf.debugging.assert_same_float_dtype([tf.ones([2], tf.int32)]))),
    ("same-float-mixed", _message(lambda tf: tf.debugging.assert_same_float_dtype(
        [tf.ones([2]), tf.ones([2], tf.float64)]))),
    ("same-float-dtype", _message(lambda tf: tf.debugging.assert_same_float_dtype([tf.ones([2])], tf.float64))),
    ("same-float-dtype-only", _returns(lambda tf: tf.debugging.assert_same_float_dtype(None, tf.float64))),
    ("same-float-int-dtype", _message(lambda tf: tf.debugging.assert_same_float_dtype(None, tf.int32))),
    ("scalar-ok", lambda tf: tf.debugging.assert_scalar(tf.constant(1.5))),
    ("scalar-python", lambda tf: tf.debugging.assert_scalar(3)),
    ("scalar-bad", _message(lambda tf: tf.debugging.assert_scalar(tf.ones([2]), message="mm"))),
    ("type-ok", _returns(lambda tf: tf.debugging.assert_type(tf.ones([2]), tf.float32))),
    ("type-bad", _message(lambda tf: tf.debugging.assert_type(tf.ones([2]), tf.int32, message="mm"))),
    ("type-numpy", _returns(lambda tf: tf.debugging.assert_type(np.ones(2), tf.float64))),
    ("proper-iterable-list", _returns(lambda tf: tf.debugging.assert_proper_iterable([1, 2]))),
    ("proper-iterable-str", _message(lambda tf: tf.debugging.assert_proper_iterable("ab"))),
    ("proper-iterable-bytes", _message(lambda tf: tf.debugging.assert_proper_iterable(b"ab"))),
    ("proper-iterable-numpy", _message(lambda tf: tf.debugging.assert_proper_iterable(np.ones(2)))),
    ("proper-iterable-int", _message(lambda tf: tf.debugging.assert_proper_iterable(3))),
    ("proper-iterable-tensor", lambda tf: tf.debugging.assert_proper_iterable(tf.ones([2]))),
    ("is-numeric", lambda tf: tf.constant([tf.debugging.is_numeric_tensor(tf.ones([2])),
                                           tf.debugging.is_numeric_tensor(tf.constant("a")),
                                           tf.debugging.is_numeric_tensor(tf.constant(True)),
                                           tf.debugging.is_numeric_tensor(np.ones(2)),
                                           tf.debugging.is_numeric_tensor(tf.constant(1j)),
                                           tf.debugging.is_numeric_tensor(tf.constant([1], tf.uint16)),
                                           tf.debugging.is_numeric_tensor(tf.constant([1], tf.bfloat16))])),
    ("shapes-ok", _returns(lambda tf: tf.debugging.assert_shapes([(tf.ones([2, 3]), ("N", "Q")),
                                                                  (tf.ones([2]), ("N",))]))),
    ("shapes-size", _message(lambda tf: tf.debugging.assert_shapes([(tf.ones([2, 3]), ("N", "Q")),
                                                                    (tf.ones([3]), ("N",))]))),
    ("shapes-rank", _message(lambda tf: tf.debugging.assert_shapes([(tf.ones([2, 3]), ("N",))]))),
    ("shapes-rank-2", _message(lambda tf: tf.debugging.assert_shapes([(tf.ones([2, 3, 1]), ("N", "Q"))],
                                                                     message="mm"))),
    ("shapes-explicit", _returns(lambda tf: tf.debugging.assert_shapes([(tf.ones([2, 3]), (2, 3))]))),
    ("shapes-explicit-bad", _message(lambda tf: tf.debugging.assert_shapes([(tf.ones([2, 3]), (2, 4))]))),
    ("shapes-dots-string", _message(lambda tf: tf.debugging.assert_shapes([(tf.ones([2, 3, 4]), ("...", 4))]))),
    ("shapes-ellipsis", _returns(lambda tf: tf.debugging.assert_shapes([(tf.ones([2, 3, 4]), (..., "Q")),
                                                                        (tf.ones([4]), ("Q",))]))),
    ("shapes-star-bad", _message(lambda tf: tf.debugging.assert_shapes([(tf.ones([2, 3, 4]), ("*", 3))]))),
    ("shapes-ellipsis-late", _message(lambda tf: tf.debugging.assert_shapes([(tf.ones([2, 3]), ("N", ...))]))),
    ("shapes-any", _returns(lambda tf: tf.debugging.assert_shapes([(tf.ones([2, 3]), (None, "."))]))),
    ("shapes-dict", _message(lambda tf: tf.debugging.assert_shapes({"a": 1}))),
    ("shapes-scalar", _returns(lambda tf: tf.debugging.assert_shapes([(tf.ones([]), [])]))),
    ("shapes-scalar-bad", _message(lambda tf: tf.debugging.assert_shapes([(tf.ones([2]), [])]))),
    ("shapes-scalar-is-size-1", _returns(lambda tf: tf.debugging.assert_shapes([(tf.ones([]), ("N",)),
                                                                                (tf.ones([1]), ("N",))]))),
    ("shapes-string-symbol", _returns(lambda tf: tf.debugging.assert_shapes([(tf.ones([2]), ("N",)),
                                                                             (tf.ones([2]), "N")]))),
    ("traceback-filtering", lambda tf: tf.constant(tf.debugging.is_traceback_filtering_enabled())),
    # (thirty-seventh session) the elementwise assertions' eager messages: check_ops._make_assert_msg_data and the
    # unary ones' data through _pretty_print
    *[(f"elementwise-{name}", _message(fn)) for name, fn in (
        ("equal", lambda tf: tf.debugging.assert_equal(tf.constant([0, 1, 8, 5, 6]), tf.constant([0, 2, 8, 4, 6]))),
        ("equal-message", lambda tf: tf.debugging.assert_equal(tf.constant([0, 1]), tf.constant([0, 2]), message="m")),
        ("equal-summarize-1", lambda tf: tf.debugging.assert_equal(tf.constant([0, 1, 8]), tf.constant([0, 2, 9]),
                                                                   summarize=1)),
        ("equal-summarize-0", lambda tf: tf.debugging.assert_equal(tf.constant([0, 1]), tf.constant([0, 2]),
                                                                   summarize=0)),
        ("equal-scalar", lambda tf: tf.debugging.assert_equal(tf.constant(1), tf.constant(2))),
        ("equal-broadcast", lambda tf: tf.debugging.assert_equal(tf.constant([0, 1, 8, 5]), tf.constant(0))),
        ("equal-2d", lambda tf: tf.debugging.assert_equal(tf.constant([[1, 2], [3, 4]]), tf.constant([[1, 0], [0, 4]]))),
        ("equal-float", lambda tf: tf.debugging.assert_equal(tf.constant([1.5, -2.25, 3.0]), tf.constant([1.5, 2.0, 3.5]))),
        ("equal-string", lambda tf: tf.debugging.assert_equal(tf.constant(["a", "b"]), tf.constant(["a", "c"]))),
        ("less-all", lambda tf: tf.debugging.assert_less(tf.range(10), tf.range(10) * 2, summarize=-1, message="hey")),
        ("less-equal", lambda tf: tf.debugging.assert_less_equal(tf.constant([0, 5]), tf.constant([1, 4]))),
        ("greater-half", lambda tf: tf.debugging.assert_greater(tf.constant([1.5, 2.0], tf.float16),
                                                                tf.constant(1.75, tf.float16))),
        ("greater-equal-int64", lambda tf: tf.debugging.assert_greater_equal(tf.constant([2**40, 5], tf.int64),
                                                                             tf.constant([2**41, 1], tf.int64))),
        ("positive", lambda tf: tf.debugging.assert_positive(tf.constant([0, 1, 8, 5]))),
        ("positive-message-summarize", lambda tf: tf.debugging.assert_positive(tf.constant([1.5, -2.25, 3.0]),
                                                                               message="mm", summarize=1)),
        ("positive-2d", lambda tf: tf.debugging.assert_positive(tf.constant([[1.0, -1.0], [2.0, 3.0]]))),
        ("positive-scalar", lambda tf: tf.debugging.assert_positive(tf.constant(-1))),
        ("negative", lambda tf: tf.debugging.assert_negative(tf.constant([-1, 1, -8, 5]))),
        ("non-negative-summarize-negative", lambda tf: tf.debugging.assert_non_negative(tf.constant([1.5, -2.0]),
                                                                                        summarize=-1)),
        ("non-positive", lambda tf: tf.debugging.assert_non_positive(tf.constant([0, 1, 8, 5]), message="z")))],
]

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    *[(n, "numerics", f) for n, f in _NUMERICS],
    *[(n, "gradients", f) for n, f in _GRADS],
    *[(n, "asserts", f) for n, f in _ASSERTS],
]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.debugging-checks")
@EDGES.parametrize("numerics")
def test_check_numerics(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.debugging-checks")
@EDGES.parametrize("gradients")
def test_check_numerics_gradient(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.debugging-checks")
@EDGES.parametrize("asserts")
def test_assertions(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_debugging_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
