"""Static shapes that depend on values inside a tf.function — clause function.static-shapes (TF 2.21).

When a tf.function traces, an op's static output shape comes from its C++ shape function, which reads a shape-like
input's value only where the graph knows it: through the shape refiner's partial evaluation (shape_refiner.cc
ConstantPartialShape: Shape, Pack, ConcatV2, StridedSlice, Cast of those) and constant folding
(eval_const_tensor.cc: Shape/Size/Rank of known dimensions, `tf.shape(x)[i]` of a known dimension). A placeholder's
value is known only when the graph runs, so every dimension it decides is None, and a count that depends on data
(tf.where's rows) is None too. The expected shapes were observed on TF 2.21 (tests/runtime/test_value_shapes_tf.py
holds more cases).
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_equal, raises

clause = pytest.mark.clause


def _static(tf, fn, sig):
    """The static shape `fn` sees while tracing with input_signature `sig`, and the concrete function's output
    shape (None for an unknown rank)."""
    seen = []

    def rec(*a):
        out = fn(*a)
        seen.append(out.shape.as_list() if out.shape.rank is not None else None)
        return out
    cf = tf.function(rec, input_signature=sig).get_concrete_function()
    out = cf.structured_outputs.shape
    return seen[0], (out.as_list() if out.rank is not None else None), cf


def _check_cases(tf, cases, sig, x_shape: str):
    """Each (label, fn, want): the static shape while tracing and the concrete function's output shape are want."""
    for label, fn, want in cases:
        seen, out, _ = _static(tf, fn, sig)
        assert_equal(seen, want, call=f"static shape of {label} while tracing, x of {x_shape}")
        assert_equal(out, want, call=f"concrete function's output shape of {label}")


@clause("function.static-shapes", ref="tf221")
def test_a_placeholder_value_leaves_the_dimensions_it_decides_unknown(backend, tf):
    n = [tf.TensorSpec([], tf.int32)]
    xn = [tf.TensorSpec([4, 3], tf.float32), tf.TensorSpec([], tf.int32)]
    cases = [
        ("tf.range(n)", lambda n: tf.range(n), n, [None]),
        ("tf.zeros([n, 2])", lambda n: tf.zeros([n, 2]), n, [None, 2]),
        ("tf.fill([n, 2], 1.0)", lambda n: tf.fill([n, 2], 1.0), n, [None, 2]),
        ("tf.ones(tf.stack([n, 2]))", lambda n: tf.ones(tf.stack([n, 2])), n, [None, 2]),
        ("tf.zeros(tf.concat([[2], [n]], 0))", lambda n: tf.zeros(tf.concat([[2], [n]], 0)), n, [2, None]),
        ("tf.zeros([n + 1, 2])", lambda n: tf.zeros([n + 1, 2]), n, [None, 2]),
        ("x[:n]", lambda x, n: x[:n], xn, [None, 3]),
        ("x[:, :n]", lambda x, n: x[:, :n], xn, [4, None]),
        ("x[n]", lambda x, n: x[n], xn, [3]),
        ("tf.tile(x, [n, 1])", lambda x, n: tf.tile(x, [n, 1]), xn, [None, 3]),
        ("tf.pad(x, [[0, n], [0, 0]])", lambda x, n: tf.pad(x, [[0, n], [0, 0]]), xn, [None, 3]),
        ("tf.one_hot(zeros([4]), n)", lambda x, n: tf.one_hot(tf.zeros([4], tf.int32), n), xn, [4, None]),
        ("tf.random.uniform([n], seed=1)", lambda x, n: tf.random.uniform([n], seed=1), xn, [None]),
        ("tf.broadcast_to(x[:1], [n, 3])", lambda x, n: tf.broadcast_to(x[:1], [n, 3]), xn, [None, 3]),
        ("tf.slice(x, [0, 0], [n, 3])", lambda x, n: tf.slice(x, [0, 0], [n, 3]), xn, [None, 3]),
    ]
    for label, fn, sig, want in cases:
        seen, out, _ = _static(tf, fn, sig)
        assert_equal(seen, want, call=f"static shape of {label} while tracing, n a placeholder")
        assert_equal(out, want, call=f"concrete function's output shape of {label}")


@clause("function.static-shapes", ref="tf221")
def test_the_value_is_computed_from_the_call(backend, tf):
    n = [tf.TensorSpec([], tf.int32)]
    _, _, cf = _static(tf, lambda n: tf.zeros([n, 2]), n)
    assert_equal(list(cf(tf.constant(3)).shape), [3, 2], call="zeros([n, 2]) called with n = 3")
    f = tf.function(lambda x, n: x[:n], input_signature=[tf.TensorSpec([4, 3], tf.float32),
                                                          tf.TensorSpec([], tf.int32)])
    assert_equal(list(f(tf.ones([4, 3]), tf.constant(2)).shape), [2, 3], call="x[:n] called with n = 2")


@clause("function.static-shapes", ref="tf221")
def test_shapes_of_known_dimensions_fold(backend, tf):
    x = [tf.TensorSpec([None, 3], tf.float32)]
    cases = [
        ("tf.zeros([tf.shape(x)[1]])", lambda x: tf.zeros([tf.shape(x)[1]]), [3]),
        ("tf.zeros([tf.shape(x)[1] * 2])", lambda x: tf.zeros([tf.shape(x)[1] * 2]), [6]),
        ("tf.zeros([tf.shape(x)[0]])", lambda x: tf.zeros([tf.shape(x)[0]]), [None]),
        ("tf.zeros(tf.shape(x))", lambda x: tf.zeros(tf.shape(x)), [None, 3]),
        ("tf.zeros(tf.shape(x)[1:])", lambda x: tf.zeros(tf.shape(x)[1:]), [3]),
        ("tf.zeros(tf.shape(x) * 2)", lambda x: tf.zeros(tf.shape(x) * 2), [None, None]),
        ("tf.zeros(tf.identity(tf.shape(x)))", lambda x: tf.zeros(tf.identity(tf.shape(x))), [None, None]),
        ("tf.zeros(tf.concat([tf.shape(x), [2]], 0))", lambda x: tf.zeros(tf.concat([tf.shape(x), [2]], 0)),
         [None, 3, 2]),
        ("tf.reshape(x, [-1, tf.shape(x)[1]])", lambda x: tf.reshape(x, [-1, tf.shape(x)[1]]), [None, 3]),
        ("tf.reshape(x, [tf.shape(x)[0], -1])", lambda x: tf.reshape(x, [tf.shape(x)[0], -1]), [None, None]),
        ("tf.zeros([tf.rank(x)])", lambda x: tf.zeros([tf.rank(x)]), [2]),
        ("tf.broadcast_to(x[:1], tf.shape(x))", lambda x: tf.broadcast_to(x[:1], tf.shape(x)), [None, 3]),
    ]
    _check_cases(tf, cases, x, "[None, 3]")


@clause("function.static-shapes", ref="tf221")
def test_data_dependent_counts_are_unknown(backend, tf):
    x = [tf.TensorSpec([4, 3], tf.float32)]
    cases = [
        ("tf.gather_nd(x, tf.where(x > 0))", lambda x: tf.gather_nd(x, tf.where(x > 0)), [None]),
        ("tf.dynamic_partition(x, [0, 1, 0, 1], 2)[0]",
         lambda x: tf.dynamic_partition(x, tf.constant([0, 1, 0, 1]), 2)[0], [None, 3]),
        ("tf.range(tf.shape(tf.where(x > 0))[0])", lambda x: tf.range(tf.shape(tf.where(x > 0))[0]), [None]),
    ]
    _check_cases(tf, cases, x, "[4, 3]")


@clause("function.static-shapes", ref="tf221")
def test_reshape_checks_what_the_partial_shape_shows(backend, tf):
    sig = [tf.TensorSpec([4, 3], tf.float32), tf.TensorSpec([], tf.int32)]
    with raises(ValueError, match="Dimension size must be evenly divisible by 5 but is 12",
                call="get_concrete_function of reshape(x [4, 3], [n, 5]) with n a placeholder"):
        tf.function(lambda x, n: tf.reshape(x, [n, 5]), input_signature=sig).get_concrete_function()
    # (Grappler: the shape function infers [4, 3], the input's own shape, so the graph forwards x for any n)
    f = tf.function(lambda x, n: tf.reshape(x, [n, 3]), input_signature=sig)
    seen, out, _ = _static(tf, lambda x, n: tf.reshape(x, [n, 3]), sig)
    assert_equal(seen, [4, 3], call="static shape of reshape(x [4, 3], [n, 3]) while tracing")
    for n in (2, 4, 6):
        got = f(tf.ones([4, 3]), tf.constant(n))
        assert_equal(list(got.shape), [4, 3], call=f"reshape(x [4, 3], [n, 3]) called with n = {n}")
