"""tf.debugging's assertions the whole suite never called before session 23 (simdist/tf/debugging.py was
39% covered; cov23b; docs/conformance.md, "Twenty-third session: suite coverage of autodiff, gradients
and tf.function"): assert_shapes, assert_none_equal, assert_rank_at_least/in, assert_type,
assert_scalar, assert_integer, assert_same_float_dtype, assert_proper_iterable, is_numeric_tensor,
assert_near, tf.Assert's eager summary, traceback filtering. Model code checks its inputs with them.

Each expected outcome (None, a returned value, or an error's class and whole message) is TF 2.21's,
observed eagerly (tensorflow/python/ops/check_ops.py, control_flow_assert.py `_summarize_eager`).
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_equal, fail

clause = pytest.mark.clause


def _outcome(call):
    try:
        out = call()
    except Exception as e:  # noqa: BLE001 - the outcome compared is the error's class and text
        return (type(e).__name__, str(e))
    return ("returned", repr(out) if out is not None and not hasattr(out, "numpy") else None)


_NEAR_DATA = ("Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: b'{msg}'\n"
              "b'x and y not equal to tolerance rtol = tf.Tensor({rtol}, shape=(), dtype={dt}), atol = tf.Tensor({atol}, "
              "shape=(), dtype={dt})'\nb'x (shape={shape} dtype={dt}) = '\n{x}\nb'y (shape={shape} dtype={dt}) = '\n{y}")


def _cases(tf):
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    v, s = tf.constant([1, 2, 3]), tf.constant(5)
    f64 = tf.constant([1.0], tf.float64)
    d = tf.debugging
    return [
        ("assert_shapes ok", lambda: d.assert_shapes([(x, ("N", "D")), (v, ("K",)), (s, ())]), ("returned", None)),
        ("assert_shapes ellipsis", lambda: d.assert_shapes([(x, ("...", "D")), (v, (3,))]), ("returned", None)),
        ("assert_shapes dim", lambda: d.assert_shapes([(x, ("N", "D")), (v, ("N",))]),
         ("ValueError", "Specified by tensor shape=(2, 2) dtype=float32 dimension 0.  Tensor shape=(3,) dtype=int32 "
                        "dimension 0 must have size 2.  Received size 3, shape (3,)")),
        ("assert_shapes rank", lambda: d.assert_shapes([(x, ("N",))]),
         ("ValueError", "Tensor  must have rank in (0, 1).  Received rank 2, shape (2, 2)")),
        ("assert_shapes int", lambda: d.assert_shapes([(x, (2, 3))]),
         ("ValueError", "Specified explicitly.  Tensor shape=(2, 2) dtype=float32 dimension 1 must have size 3.  "
                        "Received size 2, shape (2, 2)")),
        ("assert_shapes message", lambda: d.assert_shapes([(v, ("N",)), (x, ("N", 2))], message="custom"),
         ("ValueError", "custom.  Specified by tensor shape=(3,) dtype=int32 dimension 0.  Tensor shape=(2, 2) "
                        "dtype=float32 dimension 0 must have size 3.  Received size 2, shape (2, 2)")),
        ("assert_none_equal ok", lambda: d.assert_none_equal(x, x + 1), ("returned", None)),
        ("assert_none_equal", lambda: d.assert_none_equal(x, tf.constant([[0.0, 2.0], [0.0, 0.0]])),
         ("InvalidArgumentError", "Condition x != y did not hold.\nIndices of first 1 different values:\n[[0 1]]\n"
                                  "Corresponding x values:\n[2.]\nCorresponding y values:\n[2.]\nFirst 3 elements of "
                                  "x:\n[1. 2. 3.]\nFirst 3 elements of y:\n[0. 2. 0.]")),
        ("assert_none_equal message", lambda: d.assert_none_equal(v, v, message="same"),
         ("InvalidArgumentError", "same\nCondition x != y did not hold.\nIndices of first 3 different values:\n[[0]\n "
                                  "[1]\n [2]]\nCorresponding x values:\n[1 2 3]\nCorresponding y values:\n[1 2 3]\n"
                                  "First 3 elements of x:\n[1 2 3]\nFirst 3 elements of y:\n[1 2 3]")),
        ("assert_rank_at_least ok", lambda: d.assert_rank_at_least(x, 1), ("returned", None)),
        ("assert_rank_at_least", lambda: d.assert_rank_at_least(v, 2),
         ("ValueError", "Tensor  must have rank at least 2.  Received rank 1, shape (3,)")),
        ("assert_rank_in ok", lambda: d.assert_rank_in(x, [0, 2]), ("returned", None)),
        ("assert_rank_in", lambda: d.assert_rank_in(x, [0, 1]),
         ("ValueError", "Tensor  must have rank in (0, 1).  Received rank 2, shape (2, 2)")),
        ("assert_type ok", lambda: d.assert_type(x, tf.float32), ("returned", None)),
        ("assert_type", lambda: d.assert_type(x, tf.int32),
         ("TypeError", "tensor must be of type tf.int32; got tf.float32")),
        ("assert_scalar ok", lambda: d.assert_scalar(s), ("returned", None)),
        ("assert_scalar", lambda: d.assert_scalar(v), ("ValueError", "Expected scalar shape, saw shape: (3,).")),
        ("assert_integer", lambda: d.assert_integer(x),
         ("TypeError", "Expected \"x\" to be integer type.  Found: tensor of dtype <dtype: 'float32'>")),
        ("assert_same_float_dtype ok", lambda: d.assert_same_float_dtype([x, x * 2]), ("returned", "tf.float32")),
        ("assert_same_float_dtype none", lambda: d.assert_same_float_dtype(None, None), ("returned", "tf.float32")),
        ("assert_same_float_dtype mixed", lambda: d.assert_same_float_dtype([x, f64]),
         ("ValueError", "tf.Tensor([1.], shape=(1,), dtype=float64), type=<dtype: 'float64'>, must be of the same type "
                        "(<dtype: 'float32'>) as tf.Tensor(\n[[1. 2.]\n [3. 4.]], shape=(2, 2), dtype=float32).")),
        ("assert_same_float_dtype dtype", lambda: d.assert_same_float_dtype([x], tf.float64),
         ("ValueError", "tf.Tensor(\n[[1. 2.]\n [3. 4.]], shape=(2, 2), dtype=float32), type=<dtype: 'float32'>, must "
                        "be of the same type (<dtype: 'float64'>).")),
        ("assert_same_float_dtype int", lambda: d.assert_same_float_dtype([v]),
         ("ValueError", "Expected floating point type, got <dtype: 'int32'>.")),
        ("assert_proper_iterable ok", lambda: d.assert_proper_iterable([1, 2]), ("returned", None)),
        ("assert_proper_iterable str", lambda: d.assert_proper_iterable("ab"),
         ("TypeError", "Expected argument \"values\" to be a \"proper\" iterable.  Found: <class 'str'>")),
        ("assert_proper_iterable int", lambda: d.assert_proper_iterable(3),
         ("TypeError", "Expected argument \"values\" to be iterable.  Found: <class 'int'>")),
        ("is_numeric_tensor", lambda: (d.is_numeric_tensor(x), d.is_numeric_tensor(tf.constant("a")),
                                       d.is_numeric_tensor(3.0)), ("returned", "(True, False, False)")),
        ("assert_near ok", lambda: d.assert_near(x, x + 1e-7), ("returned", None)),
        ("assert_near", lambda: d.assert_near(x, x + 1.0, message="far"),
         ("InvalidArgumentError", _NEAR_DATA.format(msg="far.  ", rtol="1.1920929e-06", atol="1.1920929e-06",
                                                    dt="float32", shape="(2, 2)", x="1.0, 2.0, 3.0, ...",
                                                    y="2.0, 3.0, 4.0, ..."))),
        # (strictly less: a zero tolerance fails equal values, a difference equal to atol fails)
        ("assert_near zero tolerance", lambda: d.assert_near(x, x, rtol=0.0, atol=0.0),
         ("InvalidArgumentError", _NEAR_DATA.format(msg="", rtol="0.0", atol="0.0", dt="float32", shape="(2, 2)",
                                                    x="1.0, 2.0, 3.0, ...", y="1.0, 2.0, 3.0, ..."))),
        ("assert_near boundary", lambda: d.assert_near(tf.constant([1.0]), tf.constant([1.5]), rtol=0.0, atol=0.5),
         ("InvalidArgumentError", _NEAR_DATA.format(msg="", rtol="0.0", atol="0.5", dt="float32", shape="(1,)",
                                                    x="1.0", y="1.5"))),
        ("assert_near inside", lambda: d.assert_near(tf.constant([1.0]), tf.constant([1.5]), rtol=0.0, atol=0.51),
         ("returned", None)),
        ("assert_near summarize", lambda: d.assert_near(x, x * 2, rtol=0.1, atol=0.01, summarize=2),
         ("InvalidArgumentError", _NEAR_DATA.format(msg="", rtol="0.1", atol="0.01", dt="float32", shape="(2, 2)",
                                                    x="1.0, 2.0, ...", y="2.0, 4.0, ..."))),
        ("assert_near float64", lambda: d.assert_near(tf.constant([1.0, 2.0], tf.float64), [1.0, 2.5], summarize=-1),
         ("InvalidArgumentError", _NEAR_DATA.format(msg="", rtol="2.220446049250313e-15", atol="2.220446049250313e-15",
                                                    dt="float64", shape="(2,)", x="1.0, 2.0", y="1.0, 2.5"))),
        ("assert_near int", lambda: d.assert_near(tf.constant([1, 2]), tf.constant([1, 2])),
         ("ValueError", "data type <class 'numpy.int32'> not inexact")),
        ("tf.Assert", lambda: tf.Assert(False, [tf.range(5)]),
         ("InvalidArgumentError", "Expected 'False' to be true. Summarized data: 0, 1, 2, ...")),
        ("tf.Assert summarize=2", lambda: tf.Assert(tf.constant(False), ["msg", tf.range(5), 7, [1, 2, 3, 4]],
                                                    summarize=2),
         ("InvalidArgumentError", "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: "
                                  "b'msg'\n0, 1, ...\n7\n1, 2, ...")),
        ("tf.Assert summarize=0", lambda: tf.Assert(False, [tf.constant(3.5), tf.range(4)], summarize=0),
         ("InvalidArgumentError", "Expected 'False' to be true. Summarized data: \n...")),
    ]


@clause("ops.debugging-checks", ref="tf221")
def test_cov23b_debugging_assertions(backend, tf):
    """Each assertion's outcome on passing and failing inputs: None (or its value), or TF's error class
    and whole message."""
    for name, call, want in _cases(tf):
        assert_equal(_outcome(call), want, call=name, what="(outcome, message)")


@clause("ops.debugging-checks", ref="tf221")
def test_cov23b_proper_iterable_of_a_tensor_and_traceback_filtering(backend, tf):
    """assert_proper_iterable of a tensor is TypeError naming the tensor's class (the class path is
    the backend's own: only the text before it is compared); traceback filtering is on by default and
    toggles."""
    kind, text = _outcome(lambda: tf.debugging.assert_proper_iterable(tf.constant([1.0])))
    head = "Expected argument \"values\" to be a \"proper\" iterable.  Found: <class '"
    if kind != "TypeError" or not text.startswith(head):
        fail(f"assert_proper_iterable(tensor) gave {kind}: {text!r}, but should be TypeError starting {head!r}",
             call="tf.debugging.assert_proper_iterable(tf.constant([1.0]))")
    d = tf.debugging
    try:
        got = [d.is_traceback_filtering_enabled(), d.disable_traceback_filtering(), d.is_traceback_filtering_enabled(),
               d.enable_traceback_filtering(), d.is_traceback_filtering_enabled()]
    finally:
        d.enable_traceback_filtering()
    assert_equal(got, [True, None, False, None, True], call="is/disable/is/enable/is traceback filtering")
