"""Tensor ops — clauses ops.* (TF 2.21 only: the rules where TF's ops differ from NumPy's defaults).

Each test runs on the backend's `tf` alone (no strategy): the value, dtype, gradient or error a
TF user relies on. The error messages are compared word for word against TF 2.21 in
tests/runtime/test_ops_errors_tf.py; here the class and the gist are checked.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_dtype, assert_equal, assert_true, raises, to_numpy

clause = pytest.mark.clause


def assert_same(got, want, call):
    """Exact equality, NaN equal to NaN."""
    g = to_numpy(got)
    assert_true(g.shape == np.shape(want) and np.array_equal(g, want, equal_nan=True),
                f"out={g!r}, but should be {np.asarray(want)!r}", call=call)


@clause("ops.integer-division", ref="tf221")
def test_integer_division_by_zero_raises(tf):
    assert_equal(tf.constant([7, -7]) // tf.constant([2, 2]), np.array([3, -4], np.int32), call="[7,-7] // 2")
    assert_equal(tf.math.floormod(tf.constant([7, -7]), tf.constant([3, 3])), np.array([1, 2], np.int32),
                 call="floormod([7,-7], 3)")
    with raises(tf.errors.InvalidArgumentError, match="Integer division by zero", call="[4, 2] // [2, 0]"):
        tf.constant([4, 2]) // tf.constant([2, 0])
    with raises(tf.errors.InvalidArgumentError, match="Integer division by zero", call="floormod([4], [0])"):
        tf.math.floormod(tf.constant([4]), tf.constant([0]))
    assert_equal(tf.constant([1.0, -1.0]) // tf.constant([0.0, 0.0]), np.array([np.inf, -np.inf], np.float32),
                 call="float floordiv by zero")


@clause("ops.truediv-dtypes", ref="tf221")
@pytest.mark.parametrize("src, out", [("int8", "float32"), ("uint8", "float32"), ("int16", "float32"),
                                      ("int32", "float64"), ("int64", "float64"), ("float32", "float32")])
def test_truediv_casts_integers(tf, src, out):
    x = tf.constant([3, 4], dtype=getattr(tf, src))
    y = tf.constant([2, 0], dtype=getattr(tf, src))
    q = x / y
    assert_dtype(q, out, call=f"{src} / {src}")
    assert_equal(q, np.array([1.5, np.inf], dtype=out), call=f"{src} [3,4] / [2,0]")
    d = tf.math.divide_no_nan(x, y)
    assert_dtype(d, out, call=f"divide_no_nan({src})")
    assert_equal(d, np.array([1.5, 0.0], dtype=out), call=f"divide_no_nan({src} [3,4], [2,0])")


@clause("ops.shape-errors", ref="tf221")
def test_shape_mismatches_raise_invalid_argument(tf):
    with raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[2\] vs. \[3\]", call="[2] + [3]"):
        tf.constant([1.0, 2.0]) + tf.constant([1.0, 2.0, 3.0])
    with raises(tf.errors.InvalidArgumentError, match=r"Matrix size-incompatible: In\[0\]: \[2,3\], In\[1\]: \[4,2\]",
                call="matmul([2,3], [4,2])"):
        tf.matmul(tf.ones([2, 3]), tf.ones([4, 2]))
    with raises(tf.errors.InvalidArgumentError, match="Expected multiples argument to be a vector of length 1",
                call="tile([2], [2, 2])"):
        tf.tile(tf.ones([2]), [2, 2])
    with raises(ValueError, match="are incompatible", call="clip_by_value([3], [2,3] bound)"):
        tf.clip_by_value(tf.ones([3]), tf.zeros([2, 3]), 2.0)


@clause("ops.index-errors", ref="tf221")
def test_indices_out_of_range_raise_instead_of_wrapping(tf):
    p = tf.reshape(tf.range(6.0), [3, 2])
    with raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = 3 is not in \[0, 3\)", call="gather(p, [0, 3])"):
        tf.gather(p, [0, 3])
    with raises(tf.errors.InvalidArgumentError, match="does not index into param shape", call="gather_nd(p, [[0,-1]])"):
        tf.gather_nd(p, [[0, -1]])
    with raises(tf.errors.InvalidArgumentError, match="does not index into shape", call="scatter_nd([[7]], ...)"):
        tf.scatter_nd([[1], [7]], [1.0, 2.0], [5])
    with raises(tf.errors.InvalidArgumentError, match="out of bounds", call="p[3]"):
        p[3]
    assert_equal(p[-1], np.array([4.0, 5.0], np.float32), call="p[-1] (negative indices count from the end)")
    assert_equal(tf.tensor_scatter_nd_update(tf.zeros([3]), [[1], [1]], [5.0, 6.0]), np.array([0, 6, 0], np.float32),
                 call="tensor_scatter_nd_update with a repeated index (the last wins)")


@clause("ops.dtype-refusal", ref="tf221")
def test_dtypes_tf_refuses_are_refused(tf):
    for call, fn in (("sqrt(int32)", lambda: tf.sqrt(tf.constant([4]))),
                     ("reduce_sum(bool)", lambda: tf.reduce_sum(tf.constant([True]))),
                     ("reduce_any(float)", lambda: tf.reduce_any(tf.constant([1.0]))),
                     ("logical_and(int32)", lambda: tf.logical_and(tf.constant([1]), tf.constant([1]))),
                     ("one_hot(float indices)", lambda: tf.one_hot([1.0], 3)),
                     ("float32 + int32", lambda: tf.constant([1.0]) + tf.constant([1]))):
        with raises(tf.errors.InvalidArgumentError, call=call):
            fn()
    with raises(TypeError, match="Cannot convert 2.0 to EagerTensor of dtype int32", call="int32 tensor * 2.0"):
        tf.constant([1, 2]) * 2.0
    with raises(TypeError, match="Input must be either real or complex", call="reduce_variance(int32)"):
        tf.math.reduce_variance(tf.constant([1, 2]))


@clause("ops.nonfinite-silent", ref="tf221")
def test_nonfinite_results_without_error(tf):
    x = tf.constant([np.inf, 0.0, -1.0])
    assert_same(x - x, np.array([np.nan, 0.0, 0.0], np.float32), call="inf - inf")
    assert_same(tf.math.log(x), np.array([np.inf, -np.inf, np.nan], np.float32), call="log([inf, 0, -1])")
    assert_equal(tf.math.reciprocal(x), np.array([0.0, np.inf, -1.0], np.float32), call="reciprocal([inf, 0, -1])")
    assert_equal(tf.reduce_logsumexp(tf.constant([-np.inf, -np.inf])), np.float32(-np.inf),
                 call="reduce_logsumexp([-inf, -inf])")


@clause("ops.argmax", ref="tf221")
def test_argmax_int64_first_maximum_and_nan(tf):
    r = tf.argmax(tf.constant([[1.0, 3.0, 3.0], [np.nan, 2.0, 0.0]]), axis=1)
    assert_dtype(r, "int64", call="argmax(...) default output_type")
    assert_equal(r, np.array([1, 1], np.int64), call="argmax with ties and a NaN")
    assert_equal(tf.argmin(tf.constant([[2.0, 1.0], [0.0, 5.0]])), np.array([1, 0], np.int64),
                 call="argmin(axis=None) reduces axis 0")
    assert_dtype(tf.argmax(tf.constant([1, 5]), output_type=tf.int32), "int32", call="argmax(output_type=int32)")
    with raises(tf.errors.InvalidArgumentError, match="Reduction axis 0 is empty", call="argmax(zeros([0]))"):
        tf.argmax(tf.zeros([0]))


@clause("ops.one-hot", ref="tf221")
def test_one_hot_out_of_range_rows_and_dtypes(tf):
    r = tf.one_hot([0, 3, -1, 5], 4)
    assert_dtype(r, "float32", call="one_hot default dtype")
    assert_equal(r, np.array([[1, 0, 0, 0], [0, 0, 0, 1], [0, 0, 0, 0], [0, 0, 0, 0]], np.float32),
                 call="one_hot([0, 3, -1, 5], 4)")
    assert_dtype(tf.one_hot([1], 2, on_value=5, off_value=-1), "int32", call="one_hot(on_value=5)")
    with raises(TypeError, match="does not match", call="one_hot(on_value=5, off_value=0.0)"):
        tf.one_hot([1], 2, on_value=5, off_value=0.0)


@clause("ops.segment-ids", ref="tf221")
def test_segment_ids(tf):
    d = tf.constant([1.0, 2.0, 3.0, 4.0])
    assert_equal(tf.math.unsorted_segment_sum(d, [1, -1, 0, 1], 3), np.array([3, 5, 0], np.float32),
                 call="unsorted_segment_sum with a negative id (dropped)")
    assert_equal(tf.math.segment_sum(d, [0, 0, 2, 2]), np.array([3, 0, 7], np.float32),
                 call="segment_sum with a missing id (a zero row)")
    with raises(tf.errors.InvalidArgumentError, match="segment ids are not increasing", call="segment_sum unsorted"):
        tf.math.segment_sum(d, [1, 0, 2, 2])
    with raises(tf.errors.InvalidArgumentError, match=r"is out of range \[0, 2\)", call="unsorted id 5 of 2"):
        tf.math.unsorted_segment_sum(d, [0, 5, 0, 1], 2)
    assert_equal(tf.math.segment_max(d, [0, 0, 2, 2]), np.array([2, 0, 4], np.float32),
                 call="segment_max with a missing id (a zero row)")
    assert_equal(tf.math.segment_mean(tf.constant([1, 2, 4]), [0, 0, 1]), np.array([1, 4], np.int32),
                 call="segment_mean of int32 (truncated)")
    assert_equal(tf.math.unsorted_segment_max(d, [1, -1, 1, 1], 2),
                 np.array([np.finfo(np.float32).min, 4], np.float32), call="unsorted_segment_max (empty: lowest)")
    assert_equal(tf.math.unsorted_segment_prod(d, [1, 0, 1, -1], 3), np.array([2, 3, 1], np.float32),
                 call="unsorted_segment_prod (empty: 1)")
    assert_close(tf.math.unsorted_segment_sqrt_n(d, [0, 0, 0, 1], 2), np.float32([6 / np.sqrt(3), 4]),
                 call="unsorted_segment_sqrt_n")


@clause("ops.sort", ref="tf221")
def test_sort_and_top_k_order(tf):
    assert_equal(tf.argsort(tf.constant([2.0, 1.0, 2.0, 1.0, np.nan])), np.array([1, 3, 0, 2, 4], np.int32),
                 call="argsort with ties and a NaN")
    assert_equal(tf.argsort(tf.constant([2, 1, 2, 1]), direction="DESCENDING"), np.array([0, 2, 1, 3], np.int32),
                 call="argsort DESCENDING with ties")
    v, i = tf.math.top_k(tf.constant([1.0, 3.0, 3.0, 2.0]), 2)
    assert_equal(v, np.array([3.0, 3.0], np.float32), call="top_k values")
    assert_equal(i, np.array([1, 2], np.int32), call="top_k indices (ties: lower index first)")
    assert_equal(tf.sort(tf.constant([[3, 1], [2, 4]]), axis=0), np.array([[2, 1], [3, 4]], np.int32),
                 call="sort(axis=0)")


@clause("ops.clip-global-norm", ref="tf221")
def test_clip_by_global_norm(tf):
    a, b = tf.constant([3.0, 4.0]), tf.constant([12.0])
    clipped, norm = tf.clip_by_global_norm([a, None, b], 5.0)
    assert_close(norm, np.float32(13.0), call="global norm of [3,4] and [12]")
    assert_true(clipped[1] is None, "a None entry must stay None", call="clip_by_global_norm([a, None, b])")
    assert_close(clipped[0], np.array([3.0, 4.0]) * 5 / 13, call="clipped a")
    s = tf.IndexedSlices(tf.constant([[3.0, 4.0]]), tf.constant([1]), tf.constant([3, 2]))
    out, _ = tf.clip_by_global_norm([s], 1.0)
    assert_true(type(out[0]).__name__ == "IndexedSlices", f"an IndexedSlices must stay one, got {type(out[0])}",
                call="clip_by_global_norm([IndexedSlices])")
    assert_close(out[0].values, np.array([[0.6, 0.8]]), call="clipped IndexedSlices values")
    inf, n = tf.clip_by_global_norm([tf.constant([np.inf, 1.0])], 1.0)
    assert_true(bool(np.all(np.isnan(to_numpy(inf[0])))) and np.isinf(to_numpy(n)),
                "an infinite global norm makes every value NaN", call="clip_by_global_norm([[inf, 1]])")


@clause("ops.stateless-random", ref="tf221")
def test_stateless_ops_repeat_for_the_same_seed(tf):
    a = tf.random.stateless_normal([4], seed=[1, 2])
    tf.random.set_seed(5)
    tf.random.uniform([3])
    b = tf.random.stateless_normal([4], seed=[1, 2])
    assert_equal(a, to_numpy(b), call="stateless_normal([4], seed=[1, 2]) twice")
    c = tf.random.stateless_normal([4], seed=[1, 3])
    assert_true(not np.array_equal(to_numpy(a), to_numpy(c)), "another seed pair must give other values",
                call="stateless_normal seed [1, 3]")
    u = to_numpy(tf.random.stateless_uniform([1000], seed=[3, 4], minval=-2, maxval=2, dtype=tf.int32))
    assert_true(u.min() >= -2 and u.max() <= 1, f"ints in [-2, 2), got [{u.min()}, {u.max()}]",
                call="stateless_uniform int range")
    with raises(tf.errors.InvalidArgumentError, match=r"seed must have shape \[2\]", call="seed=[1, 2, 3]"):
        tf.random.stateless_normal([2], seed=[1, 2, 3])


@clause("ops.gather-gradient-indexed-slices", ref="tf221")
def test_gather_gradients_are_indexed_slices(tf):
    p = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape(persistent=True) as tape:
        g = tf.reduce_sum(tf.gather(p, [2, 0, 2]) * 2.0)
        n = tf.reduce_sum(tf.gather_nd(p, [[1]]))
        m = tf.reduce_sum(tf.boolean_mask(p, [True, False, True]))
        d = tf.reduce_sum(tf.gather(p, [1], axis=1))
        e = tf.reduce_sum(tf.gather(p, 0, axis=-2))   # the first axis, but not literally 0: dense
    for what, loss, want in (("gather", g, [[2, 2], [0, 0], [4, 4]]), ("gather_nd [N,1]", n, [[0, 0], [1, 1], [0, 0]])):
        grad = tape.gradient(loss, p)
        assert_true(type(grad).__name__ == "IndexedSlices", f"{what}'s gradient is {type(grad).__name__}",
                    call=f"tape.gradient({what})")
        assert_equal(tf.convert_to_tensor(grad), np.array(want, np.float32), call=f"dense {what} gradient")
    for what, loss, want in (("gather(axis=1)", d, [[0, 1], [0, 1], [0, 1]]),
                             ("gather(axis=-2)", e, [[1, 1], [0, 0], [0, 0]]),
                             ("boolean_mask", m, [[1, 1], [0, 0], [1, 1]])):
        grad = tape.gradient(loss, p)   # boolean_mask gathers from a Reshape, whose gradient is dense
        assert_true(type(grad).__name__ != "IndexedSlices", f"{what}'s gradient should be dense",
                    call=f"tape.gradient({what})")
        assert_equal(grad, np.array(want, np.float32), call=f"{what} gradient")


@clause("ops.gradient-none-or-zeros", ref="tf221")
def test_which_gradients_are_none_and_which_zeros(tf):
    x = tf.constant([0.4, 1.6, -2.5])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        outs = {"floor": tf.floor(x), "ceil": tf.math.ceil(x), "round": tf.round(x), "sign": tf.sign(x),
                "argmax": tf.argmax(x), "top_k.indices": tf.math.top_k(x, 2).indices,
                "cast to int": tf.cast(x, tf.int32)}
    for name, none in (("floor", True), ("ceil", True), ("round", True), ("sign", False), ("argmax", True),
                       ("top_k.indices", False), ("cast to int", True)):
        g = tape.gradient(outs[name], x)
        if none:
            assert_true(g is None, f"d {name} / dx should be None, got {g!r}", call=f"tape.gradient({name})")
        else:
            assert_equal(g, np.zeros(3, np.float32), call=f"tape.gradient({name}) (zeros, not None)")


@clause("ops.special-functions", ref="tf221")
def test_special_functions_poles_gradients_and_dtypes(tf):
    x = tf.constant([0.0, -1.0, 0.5, -np.inf], tf.float32)
    assert_same(tf.math.lgamma(x), np.array([np.inf, np.inf, 0.5723649, np.inf], np.float32), call="lgamma")
    d = to_numpy(tf.math.digamma(x))
    assert_true(bool(np.isnan(d[[0, 1, 3]]).all()), f"digamma={d!r}: NaN at 0, -1 and -inf", call="digamma")
    assert_close(tf.math.erf(tf.constant([np.inf, -np.inf], tf.float32)), np.array([1.0, -1.0], np.float32),
                 call="erf(±inf) in float32")
    v = tf.constant([0.3, -1.2, 2.0], tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(v)
        ys = {"sin": tf.sin(v), "cos": tf.cos(v), "tan": tf.tan(v), "atan": tf.math.atan(v),
              "asinh": tf.math.asinh(v), "expm1": tf.math.expm1(v), "erf": tf.math.erf(v)}
    nv = to_numpy(v)
    want = {"sin": np.cos(nv), "cos": -np.sin(nv), "tan": 1 / np.cos(nv) ** 2, "atan": 1 / (1 + nv * nv),
            "asinh": 1 / np.sqrt(1 + nv * nv), "expm1": np.exp(nv), "erf": 2 / np.sqrt(np.pi) * np.exp(-nv * nv)}
    for name, y in ys.items():
        assert_close(tape.gradient(y, v), want[name], call=f"d/dx {name}(x)")
    with raises(tf.errors.InvalidArgumentError, match="not in the list of allowed values", call="sin(int32)"):
        tf.sin(tf.constant([1, 2]))
    with raises(tf.errors.InvalidArgumentError, match="float, double", call="polygamma(float16)"):
        tf.math.polygamma(tf.constant([1.0], tf.float16), tf.constant([2.0], tf.float16))


@clause("ops.reverse-norm-scan", ref="tf221")
def test_reverse_euclidean_norm_and_cumulative_logsumexp(tf):
    x = tf.reshape(tf.range(6.0), [2, 3])
    assert_equal(tf.reverse(x, [-1, 0]), np.array([[5.0, 4.0, 3.0], [2.0, 1.0, 0.0]], np.float32),
                 call="reverse(x, [-1, 0])")
    with raises(tf.errors.InvalidArgumentError, match="more than once", call="reverse(x, [0, -2])"):
        tf.reverse(x, [0, -2])
    assert_equal(tf.math.reduce_euclidean_norm(tf.constant([3, 5])), np.int32(5), call="reduce_euclidean_norm([3, 5])")
    assert_close(tf.math.reduce_euclidean_norm(x, axis=1), np.sqrt([5.0, 50.0]).astype(np.float32),
                 call="reduce_euclidean_norm(x, axis=1)")
    v = tf.constant([1.0, 2.0, 3.0])
    assert_close(tf.math.cumulative_logsumexp(v), np.logaddexp.accumulate(np.float32([1, 2, 3])),
                 call="cumulative_logsumexp")
    assert_same(tf.math.cumulative_logsumexp(v, exclusive=True)[:1], np.float32([-np.inf]),
                call="cumulative_logsumexp(exclusive=True)[0]")
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        tape.watch(v)
        norm = tf.math.reduce_euclidean_norm(x, axis=1)
        scan = tf.math.cumulative_logsumexp(v)
        rev = tf.reduce_sum(tf.reverse(x, [1]) * tf.constant([1.0, 2.0, 3.0]))
    nx = to_numpy(x)
    assert_close(tape.gradient(norm, x), nx / np.sqrt((nx * nx).sum(1, keepdims=True)), call="d norm / dx")
    e = np.exp(np.float32([1, 2, 3]))
    assert_close(tape.gradient(scan, v), e * (1 / np.cumsum(e))[::-1].cumsum()[::-1], call="d cumulative_logsumexp / dv")
    assert_equal(tape.gradient(rev, x), np.float32([[3, 2, 1], [3, 2, 1]]), call="d reverse / dx")
    assert_true(tf.nn.top_k is tf.math.top_k, "tf.nn.top_k should be tf.math.top_k", call="tf.nn.top_k")


@clause("ops.bfloat16", ref="tf221")
def test_bfloat16_rounds_results(tf):
    x = tf.constant([1.0, 2.7, 1e3], tf.bfloat16)
    assert_true(x.dtype == tf.bfloat16, f"dtype {x.dtype!r}, but should be tf.bfloat16", call="tf.constant(..., tf.bfloat16)")
    assert_true(tf.bfloat16.is_floating and tf.bfloat16.size == 2, "tf.bfloat16 should be a 2-byte float",
                call="tf.bfloat16")
    assert_equal(tf.cast(x, tf.float32), np.float32([1.0, 2.703125, 1000.0]), call="bfloat16 values of 1, 2.7, 1e3")
    assert_equal(tf.cast(x * x, tf.float32), np.float32([1.0, 7.3125, 999424.0]), call="bfloat16 x * x (rounded)")
    m = tf.matmul(tf.reshape(x, [1, 3]), tf.reshape(x, [3, 1]))
    assert_true(m.dtype == tf.bfloat16, f"dtype {m.dtype!r}, but should be tf.bfloat16", call="matmul of bfloat16")
    assert_equal(tf.cast(m, tf.float32), np.float32([[999424.0]]), call="bfloat16 matmul (float sum, rounded once)")


@clause("ops.einsum", ref="tf221")
def test_einsum_common_contractions(tf):
    a = tf.reshape(tf.range(6.0), [2, 3])
    b = tf.reshape(tf.range(12.0), [3, 4])
    na, nb = to_numpy(a), to_numpy(b)
    for eq, args, want in (("ij,jk->ik", (a, b), na @ nb), ("ij->j", (a,), na.sum(0)), ("ij->ji", (a,), na.T),
                           ("i,j->ij", (a[0], b[0]), np.outer(na[0], nb[0])), ("ij,kj", (a, a), na @ na.T),
                           ("bi,ij,bj->b", (a, tf.ones([3, 3]), a), np.einsum("bi,ij,bj->b", na, np.ones((3, 3)), na)),
                           ("...ij,jk->...ik", (tf.stack([a, a]), b), np.stack([na @ nb] * 2))):
        assert_close(tf.einsum(eq, *args), want, call=f"einsum({eq!r})")
    sq = tf.reshape(tf.range(9.0), [3, 3])
    assert_close(tf.einsum("ii->", sq), np.float32(12.0), call="einsum('ii->')")
    with raises(ValueError, match="expecting 2", call="einsum('ij,jk->ik', one operand)"):
        tf.einsum("ij,jk->ik", a)


def _bits_equal(got, want, call):
    """Same dtype, shape and bits (NaN equal to NaN, -0.0 not equal to 0.0)."""
    g, w = to_numpy(got), np.asarray(want)
    same = g.dtype == w.dtype and g.shape == w.shape
    if same and g.dtype.kind == "f":
        u = f"u{g.dtype.itemsize}"
        same = bool(np.all((np.isnan(g) & np.isnan(w)) | (g.view(u) == w.view(u))))
    elif same:
        same = bool(np.array_equal(g, w))
    assert_true(same, f"out={g!r}, but should be {w!r} (bit for bit)", call=call)


@clause("ops.floor-division-float", ref="tf221")
def test_float_floor_division_is_floor_of_the_quotient(tf):
    # floor(x / y) of the rounded float32 quotient, computed here with NumPy's own division
    x = np.array([1.0, 1.0, -1.0, 0.0, -0.0, 1.0, np.inf, 7.5], np.float32)
    y = np.array([0.2, 0.0, 0.0, 5.0, 5.0, np.inf, 2.0, -0.2], np.float32)
    with np.errstate(all="ignore"):
        want_div = np.floor(x / y)
        r = np.fmod(x, y)
        want_mod = np.where((r != 0) & ((x < 0) != (y < 0)), r + y, r)
    _bits_equal(tf.math.floordiv(tf.constant(x), tf.constant(y)), want_div, call="floordiv over zeros/infs")
    _bits_equal(tf.math.floormod(tf.constant(x), tf.constant(y)), want_mod, call="floormod over zeros/infs")
    _bits_equal(tf.math.floordiv(1.0, 0.2), np.float32(5.0), call="floordiv(1.0, 0.2)")
    v = tf.Variable([1.0, -2.5, 3.0])
    _bits_equal(v % 2.0, np.array([1.0, 1.5, 1.0], np.float32), call="Variable % 2.0")
    _bits_equal(v // 2.0, np.array([0.0, -2.0, 1.0], np.float32), call="Variable // 2.0")
    _bits_equal(abs(v), np.array([1.0, 2.5, 3.0], np.float32), call="abs(Variable)")


@clause("ops.bitwise", ref="tf221")
def test_bitwise_on_integers_logical_on_bools(tf):
    t = tf.constant([6, -7, 5])
    a = np.array([6, -7, 5], np.int32)
    _bits_equal(t & 3, a & 3, call="int32 & 3")
    _bits_equal(3 | t, a | 3, call="3 | int32")
    _bits_equal(t ^ 3, a ^ 3, call="int32 ^ 3")
    _bits_equal(~t, ~a, call="~int32")
    _bits_equal(tf.constant([True, False]) & tf.constant([True, True]), np.array([True, False]), call="bool & bool")
    _bits_equal(~tf.constant([True, False]), np.array([False, True]), call="~bool")
    _bits_equal(tf.bitwise.left_shift(tf.constant([1, 5]), tf.constant([40, 2])),
                np.array([np.iinfo(np.int32).min, 20], np.int32), call="left_shift clamps to 31 and wraps")
    _bits_equal(tf.bitwise.right_shift(tf.constant([-8, 8]), tf.constant([40, -2])), np.array([-1, 8], np.int32),
                call="right_shift clamps to [0, 31]")
    _bits_equal(tf.Variable([6, -7, 5]) & 3, a & 3, call="Variable & 3")
    with raises(tf.errors.InvalidArgumentError, match="Value for attr 'T' of float", call="float & float"):
        tf.constant([1.0]) & tf.constant([2.0])


@clause("ops.conversion", ref="tf221")
def test_python_values_convert_as_tf(tf):
    _bits_equal(tf.constant(2**33 + 5, tf.int32), np.int32(5), call="2**33 + 5 as int32 (wraps)")
    _bits_equal(tf.constant([-1, 300], tf.uint8), np.array([255, 44], np.uint8), call="[-1, 300] as uint8")
    _bits_equal(tf.constant([1]) + 2**40, np.array([1], np.int32), call="int32 + 2**40")
    _bits_equal(tf.constant([1, 2]) + np.float64(2.5), np.array([3, 4], np.int32), call="int32 + np.float64(2.5)")
    for call, fn in [("constant([1.0], int64)", lambda: tf.constant([1.0], dtype=tf.int64)),
                     ("range(0.5, 5, int64)", lambda: tf.range(0.5, 5, dtype=tf.int64)),
                     ("constant([0, 1], bool)", lambda: tf.constant([0, 1], tf.bool))]:
        with raises(TypeError, call=call):
            fn()
    for call, fn in [("constant([1e40])", lambda: tf.constant([1e40])), ("constant([True, 2])", lambda: tf.constant([True, 2])),
                     ("constant(2**63)", lambda: tf.constant(2**63))]:
        with raises(ValueError, call=call):
            fn()
    _bits_equal(tf.constant([1e40], tf.float32), np.array([np.inf], np.float32), call="constant([1e40], float32)")
    _bits_equal(tf.where(tf.constant([True, False]), 3, tf.constant([1.0, 2.0])), np.array([3.0, 2.0], np.float32),
                call="where(c, 3, float32)")
    _bits_equal(-3 / tf.constant([2], tf.int64), np.array([-1.5]), call="-3 / int64")


@clause("ops.conversion", ref="tf221")
def test_python_bool_converts_to_complex128_not_complex64(tf):
    _bits_equal(tf.convert_to_tensor(True, tf.complex128), np.complex128(1), call="convert_to_tensor(True, complex128)")
    _bits_equal(tf.math.subtract(tf.constant([1 + 2j], tf.complex128), True), np.array([2j]),
                call="complex128 [1 + 2j] - True")
    with raises(TypeError, call="convert_to_tensor(True, complex64)"):
        tf.convert_to_tensor(True, tf.complex64)


@clause("ops.conversion", ref="tf221")
def test_autopacking_casts_and_bools_beside_numbers(tf):
    t = tf.constant([1.5, -3.0])
    packed = tf.convert_to_tensor([t, t], dtype=tf.int16)
    _bits_equal(packed, np.array([[1, -3], [1, -3]], np.int16), call="convert_to_tensor([t, t], dtype=int16) casts")
    hinted = tf.convert_to_tensor([t, t], dtype_hint=tf.float64)
    _bits_equal(hinted, np.array([[1.5, -3.0], [1.5, -3.0]]), call="convert_to_tensor([t, t], dtype_hint=float64)")
    _bits_equal(tf.constant([True, 0], tf.float16), np.array([1, 0], np.float16), call="constant([True, 0], float16)")
    _bits_equal(tf.constant([0, True], tf.int8), np.array([0, 1], np.int8), call="constant([0, True], int8)")
    with raises(ValueError, match="mixed types", call="constant([True, 0], int8)"):
        tf.constant([True, 0], tf.int8)
    with raises(ValueError, match="mixed types", call="constant([True, 0])"):
        tf.constant([True, 0])


@clause("ops.tensor-equality", ref="tf221")
def test_equality_is_elementwise(tf):
    v, w = tf.Variable([1.0, 2.0, 3.0]), tf.Variable([1.0, 0.0, 3.0])
    _bits_equal(v == w, np.array([True, False, True]), call="Variable == Variable")
    _bits_equal(v != w, np.array([False, True, False]), call="Variable != Variable")
    _bits_equal(tf.constant([1, 2]) == [1, 2, 3], np.bool_(False), call="[2] == [3] (shapes do not broadcast)")
    assert_true((tf.constant([1.0]) == None) is False, "tensor == None should be False", call="tensor == None")  # noqa: E711
    with raises(ValueError, call="Variable == None"):
        v == None  # noqa: B015, E711
    with raises(TypeError, call="int32 tensor == 1.5"):
        tf.constant([1, 2]) == 1.5  # noqa: B015


@clause("ops.tensor-equality", ref="tf221")
def test_references_key_tensors_and_variables(tf):
    """Since == is elementwise, TF tells programs to key on `x.ref()`: a reference hashed and equal by
    identity whose deref() gives the object back, for tensors and variables alike."""
    v, w, t = tf.Variable([1.0, 2.0]), tf.Variable([1.0, 2.0]), tf.constant([1.0])
    table = {v.ref(): "v", w.ref(): "w", t.ref(): "t"}
    assert_equal([table[v.ref()], table[w.ref()], table[t.ref()]], ["v", "w", "t"],
                 call="{x.ref(): name}[x.ref()] for two equal variables and a tensor", what="the looked-up names")
    assert_true(v.ref().deref() is v and t.ref().deref() is t, "x.ref().deref() is x", call="Variable.ref().deref()")
    assert_true(v.ref() != w.ref(), "references to two variables with equal values differ", call="v.ref() != w.ref()")


@clause("ops.integer-mean", ref="tf221")
def test_integer_mean_is_exact(tf):
    vals = [2**62 + 1, 2**62 + 3, 2**61 + 7]
    s = (sum(vals) + 2**63) % 2**64 - 2**63         # the sum wraps in int64
    want = abs(s) // 3 * (1 if s >= 0 else -1)      # exact division, truncated toward zero
    _bits_equal(tf.reduce_mean(tf.constant(vals, tf.int64)), np.int64(want), call="mean of int64 near 2**62")
    _bits_equal(tf.reduce_mean(tf.constant([2**30] * 3, tf.int32)), np.int32(2**30), call="mean of int32 (no wrap)")
    _bits_equal(tf.reduce_mean(tf.constant([-7, 0])), np.int32(-3), call="mean([-7, 0]) truncates toward zero")


@clause("ops.empty-inputs", ref="tf221")
def test_empty_inputs(tf):
    _bits_equal(tf.reduce_max(tf.constant([], tf.int32)), np.int32(np.iinfo(np.int32).min), call="reduce_max([] int32)")
    _bits_equal(tf.reduce_min(tf.zeros([0, 2]), axis=0), np.array([np.inf, np.inf], np.float32),
                call="reduce_min of [0, 2] on axis 0")
    _bits_equal(tf.cumsum(tf.constant([], tf.float32), exclusive=True), np.zeros([0], np.float32),
                call="exclusive cumsum of []")
    parts = tf.split(tf.constant([1.0, 2.0]), [2, -1])
    assert_true(len(parts) == 2, f"split gave {len(parts)} parts, but should give 2", call="split([1, 2], [2, -1])")
    _bits_equal(parts[1], np.zeros([0], np.float32), call="split([1, 2], [2, -1])[1]")
    with raises(tf.errors.InvalidArgumentError, match="only be one -1", call="split(x, [-1, -1, 3])"):
        tf.split(tf.constant([1.0, 2.0, 3.0]), [-1, -1, 3])


@clause("ops.gather-batch-dims", ref="tf221")
def test_gather_with_batch_dims(tf):
    p = np.array([[0.1, 0.5, 0.3], [0.9, 0.2, 0.4]], np.float32)
    assert_equal(tf.gather(tf.constant(p), [2, 0], axis=1, batch_dims=1), np.array([p[0, 2], p[1, 0]], np.float32),
                 call="gather(p, [2, 0], axis=1, batch_dims=1)")
    q = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    i = np.array([[0, 2], [1, 1]])
    want = np.stack([q[k][:, i[k]] for k in range(2)])          # batch k: its params gathered on axis 2 by i[k]
    assert_equal(tf.gather(tf.constant(q), tf.constant(i), axis=2, batch_dims=1), want,
                 call="gather([2,3,4], [[0,2],[1,1]], axis=2, batch_dims=1)")
    with raises(tf.errors.InvalidArgumentError, match="should be equal to", call="batch dimensions 2 vs 3"):
        tf.gather(tf.constant(q), tf.constant([[0], [1], [2]]), axis=1, batch_dims=1)


@clause("ops.nan-folds", ref="tf221")
def test_nan_folds(tf):
    assert_same(tf.math.segment_max(tf.constant([0.0, np.nan, np.nan, 3.0], tf.float64), [1, 1, 2, 2]),
                np.array([0.0, np.nan, 3.0]), call="segment_max([0, nan, nan, 3], [1, 1, 2, 2])")
    assert_same(tf.math.unsorted_segment_min(tf.constant([np.nan, 1.0, 3.0, np.nan]), [0, 0, 1, 1], 2),
                np.array([1.0, np.nan], np.float32), call="unsorted_segment_min([nan, 1, 3, nan], [0, 0, 1, 1])")
    assert_close(tf.math.cumulative_logsumexp(tf.constant([1.0, np.nan, 1.0], tf.float64)),
                 np.array([1.0, 1.0 + np.log(2.0), 1.0 + np.log(3.0)]),
                 call="cumulative_logsumexp([1, nan, 1]) skips the NaN")
    got = to_numpy(tf.math.cumulative_logsumexp(tf.constant([np.inf, np.inf, 1.0])))
    assert_true(got[0] == np.inf and np.isnan(got[1:]).all(), f"out={got!r}, but should be [inf, nan, nan]",
                call="cumulative_logsumexp([inf, inf, 1])")


@clause("ops.argument-errors", ref="tf221")
def test_argument_errors(tf):
    with raises(tf.errors.InvalidArgumentError, match=r"range \[0, 0\)", call="argmax of a scalar"):
        tf.argmax(tf.constant(1.0))
    with raises(tf.errors.InvalidArgumentError, call="broadcast_to([2] -> [3, 1])"):
        tf.broadcast_to(tf.constant([1, 2]), [3, 1])
    with raises(ValueError, match="not in range", call="unstack(axis=3) of a matrix"):
        tf.unstack(tf.constant([[1, 2]]), axis=3)
    with raises(tf.errors.InvalidArgumentError, call="gather with float indices"):
        tf.gather(tf.constant([[1.0, 2.0]]), tf.constant([0.0]), axis=1)
    with raises(tf.errors.InvalidArgumentError, call="squared_difference of int8"):
        tf.math.squared_difference(tf.constant([1], tf.int8), tf.constant([2], tf.int8))


@clause("ops.fuzz", ref="tf221")
def test_fuzz_program(tf):
    """One program of the kind the fuzzer draws: edge values through exact ops, values and dtypes
    computed here with NumPy."""
    x = tf.constant([1.0, -0.0, np.inf, np.nan, -2.5, 7.25])
    y = tf.reverse(tf.maximum(tf.reshape(x, [2, 3]), -1.0), [1])
    assert_same(y, np.array([[np.inf, -0.0, 1.0], [7.25, -1.0, np.nan]], np.float32), call="reverse(maximum(...))")
    z = tf.gather(tf.math.floordiv(y, 2.0), [1, 0], axis=0)
    assert_same(z, np.array([[3.0, -1.0, np.nan], [np.inf, -0.0, 0.0]], np.float32), call="gather(floordiv(y, 2))")
    i = tf.argmax(tf.where(tf.math.is_nan(z), -np.inf, z), axis=1)
    assert_dtype(i, "int64", call="argmax")
    assert_same(i, np.array([0, 0]), call="argmax(where(is_nan(z), -inf, z), axis=1)")
