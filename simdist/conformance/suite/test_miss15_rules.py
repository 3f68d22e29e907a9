"""The functions the fourteenth fuzzer found missing from simdist's facade — clauses
ops.conv-generic (tf.conv, tf.conv2d_backprop_filter_v2/input_v2) and
ops.parameterized-truncated-normal (tf.random.stateless_parameterized_truncated_normal).

Each test runs on the backend's `tf` alone. Expected values are NumPy references computed here
from the rule each clause states (docs/spec.md); the comparison with TF 2.21 itself, case by case
and bit for bit, is in tests/ops/test_miss15_ops_tf.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises, to_numpy

clause = pytest.mark.clause


def _direct_conv2d(x: np.ndarray, f: np.ndarray) -> np.ndarray:
    """A VALID, unit-stride 2-D convolution (NHWC input, HWIO filter) by its definition."""
    n, h, w, _ = x.shape
    kh, kw, _, co = f.shape
    out = np.zeros((n, h - kh + 1, w - kw + 1, co))
    for i in range(h - kh + 1):
        for j in range(w - kw + 1):
            out[:, i, j, :] = np.tensordot(x[:, i:i + kh, j:j + kw, :], f, axes=([1, 2, 3], [0, 1, 2]))
    return out


@clause("ops.conv-generic", ref="tf221")
def test_conv_batch_dims_and_checks(tf):
    r = np.random.default_rng(15)
    x = r.normal(size=(2, 3, 5, 4, 2))
    f = r.normal(size=(2, 3, 2, 3))
    got = tf.conv(tf.constant(x), tf.constant(f), strides=[1, 1, 1, 1], padding="VALID", batch_dims=2)
    want = _direct_conv2d(x.reshape(6, 5, 4, 2), f).reshape(2, 3, 4, 2, 3)
    assert_close(got, want, call="conv(batch_dims=2)")
    with raises(tf.errors.UnimplementedError, call="conv(groups=2)"):
        tf.conv(tf.constant(x[0]), tf.constant(f), strides=[1, 1, 1, 1], padding="VALID", groups=2)
    with raises(tf.errors.InvalidArgumentError, call="conv(one spatial dimension)"):
        tf.conv(tf.constant(x[0, 0]), tf.constant(f[0]), strides=[1, 1, 1], padding="VALID")
    xv = tf.Variable(x[0])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.conv(xv, tf.constant(f), strides=[1, 1, 1, 1], padding="VALID"))
    with raises(LookupError, call="gradient of Conv"):
        tape.gradient(y, xv)


@clause("ops.conv-generic", ref="tf221")
def test_conv2d_backprop_v2_have_no_kernel(tf):
    x, f, dy = tf.ones([1, 4, 4, 2]), tf.ones([2, 2, 2, 3]), tf.ones([1, 4, 4, 3])
    for fn in (tf.conv2d_backprop_filter_v2, tf.conv2d_backprop_input_v2):
        with raises(tf.errors.NotFoundError, call=f"{fn.__name__} (no kernel)"):
            fn(x, f, dy, strides=[1, 1, 1, 1], padding="SAME")


def _ptn(tf, shape, seed, *params, dtype=np.float32):
    vals = [tf.constant(np.asarray(p, dtype)) for p in params]
    return to_numpy(tf.random.stateless_parameterized_truncated_normal(shape, seed, *vals))


@clause("ops.parameterized-truncated-normal", ref="tf221")
def test_parameterized_truncated_normal_bounds_and_seeds(tf):
    # one parameter set per sampler: normal rejection, uniform rejection, exponential rejection
    for dtype in (np.float32, np.float64):
        for params in ((0.0, 1.0, -2.0, 2.0), (0.0, 1.0, 0.1, 0.3), (0.0, 1.0, 3.0, 10.0), (5.0, 2.0, -np.inf, 4.0)):
            a = _ptn(tf, [200], [4, 5], *params, dtype=dtype)
            b = _ptn(tf, [200], [4, 5], *params, dtype=dtype)
            c = _ptn(tf, [200], [5, 4], *params, dtype=dtype)
            call = f"stateless_parameterized_truncated_normal({params}, {np.dtype(dtype).name})"
            assert_equal(a.dtype.name, np.dtype(dtype).name, call=call, what="dtype")
            assert_true(bool(np.all((a >= params[2]) & (a <= params[3]))), f"samples {a.min()}..{a.max()}, but "
                        f"should lie in [{params[2]}, {params[3]}]", call=call)
            assert_equal(a, b, call=call + " twice with one seed")
            assert_true(not np.array_equal(a, c), "the same samples for seeds [4, 5] and [5, 4], but should differ",
                        call=call)
    # broadcast parameters: the shape ends with their broadcast shape; each column its own bounds
    lo, hi = np.array([-1.0, 0.5, 2.5]), np.array([1.0, 0.7, 10.0])
    s = _ptn(tf, [50, 3], [1, 2], [0.0, 1.0, 2.0], 1.0, lo, hi)
    assert_equal(s.shape, (50, 3), call="broadcast parameters", what="shape")
    assert_true(bool(np.all((s >= lo) & (s <= hi))), "a column outside its own [minval, maxval]",
                call="broadcast parameters")
    with raises(tf.errors.InvalidArgumentError, call="shape not ending with the broadcast shape"):
        _ptn(tf, [3, 2], [1, 2], 0.0, [1.0, 2.0, 3.0], -2.0, 2.0)
    with raises(tf.errors.InvalidArgumentError, call="stddev <= 0 (Invalid parameters)"):
        _ptn(tf, [3], [1, 2], 0.0, -1.0, -2.0, 2.0)


@clause("ops.parameterized-truncated-normal", ref="tf221")
def test_parameterized_truncated_normal_gradient(tf):
    """The implicit reparameterisation gradient: d(sum of samples)/d mean is the number of samples
    of each batch member, d/d stddev the sum of (sample - mean) / stddev."""
    mean, std = tf.Variable(np.array([0.5, -1.0])), tf.Variable(np.array([1.5, 2.0]))
    with tf.GradientTape() as tape:
        lo, hi = tf.constant(-2.0, tf.float64), tf.constant(3.0, tf.float64)
        y = tf.random.stateless_parameterized_truncated_normal([7, 2], [3, 4], mean, std, lo, hi)
        loss = tf.reduce_sum(y)
    gm, gs = tape.gradient(loss, [mean, std])
    ys = to_numpy(y)
    assert_close(gm, np.array([7.0, 7.0]), call="d sum / d means")
    assert_close(gs, ((ys - np.array([0.5, -1.0])) / np.array([1.5, 2.0])).sum(axis=0), call="d sum / d stddevs")


@clause("ops.tensor-proto", ref="tf221")
def test_make_tensor_proto_round_trip(tf):
    """make_ndarray(make_tensor_proto(x)) is x for arrays of every numeric kind; Python floats
    are stored as float32; tensor_content holds the raw bytes of a multi-element array; a short
    value list is padded with its last value; the message prints in protobuf's text format."""
    for a in (np.arange(6, dtype=np.float32).reshape(2, 3) / 7, np.array([1, -2], np.int8),
              np.array([2**40, -1]), np.array([0.5, 65504.0], np.float16), np.array([True, False]),
              np.array([1 + 2j], np.complex64), np.float64(0.1)):
        p = tf.make_tensor_proto(a)
        back = tf.make_ndarray(p)
        assert_equal(back.dtype.name, np.asarray(a).dtype.name, call=f"make_ndarray(make_tensor_proto({a!r}))",
                     what="dtype")
        assert_equal(back, np.asarray(a), call=f"make_ndarray(make_tensor_proto({a!r}))")
    p = tf.make_tensor_proto([[0.1, 2.0], [3.0, 4.0]])
    want = np.array([[0.1, 2.0], [3.0, 4.0]], np.float32)
    assert_equal(bytes(p.tensor_content), want.tobytes(), call="make_tensor_proto(2x2 list).tensor_content")
    assert_equal(tf.make_ndarray(tf.make_tensor_proto(2.5, shape=[2, 2])), np.full((2, 2), 2.5, np.float32),
                 call="make_tensor_proto(2.5, shape=[2, 2])")
    text = str(tf.make_tensor_proto(np.float32(1.5)))
    assert_equal(text, "dtype: DT_FLOAT\ntensor_shape {\n}\nfloat_val: 1.5\n", call="str(make_tensor_proto(1.5))")
    with raises(TypeError, call="make_tensor_proto([1.5], dtype=int32)"):
        tf.make_tensor_proto([1.5], dtype=tf.int32)
    with raises(ValueError, call="make_tensor_proto(3 values, shape=[2])"):
        tf.make_tensor_proto([1.0, 2.0, 3.0], shape=[2])


@clause("ops.image-glimpse", ref="tf221")
def test_extract_glimpse_windows(tf):
    """Glimpses inside the image are its slices at the corner the offsets give (normalized: times
    the image's size; centered: from the image's centre, less half the window); a window past the
    edge with zero noise holds zeros there."""
    img = np.arange(2 * 6 * 5 * 1, dtype=np.float32).reshape(2, 6, 5, 1)
    got = tf.image.extract_glimpse(tf.constant(img), [2, 3], [[1.0, 1.0], [2.0, 0.0]], centered=False,
                                   normalized=False)
    assert_equal(got, np.stack([img[0, 1:3, 1:4], img[1, 2:4, 0:3]]), call="extract_glimpse(pixel corners)")
    got = tf.image.extract_glimpse(tf.constant(img), [2, 2], [[0.0, 0.0], [0.5, -0.5]])
    # centered normalized: corner = offset * size / 2 + size / 2 - window / 2, truncated toward zero
    want = np.stack([img[0, 2:4, 1:3], img[1, 3:5, 0:2]])
    assert_equal(got, want, call="extract_glimpse(centered, normalized)")
    got = to_numpy(tf.image.extract_glimpse(tf.constant(img), [3, 3], [[-1.0, -1.0], [-1.0, -1.0]],
                                            centered=False, normalized=False, noise="zero"))
    want = np.zeros((2, 3, 3, 1), np.float32)
    want[:, 1:, 1:] = img[:, :2, :2]
    assert_equal(got, want, call="extract_glimpse(past the corner, zero noise)")
    with raises(tf.errors.InvalidArgumentError, call="extract_glimpse(noise='salt')"):
        tf.image.extract_glimpse(tf.constant(img), [2, 2], [[0.0, 0.0], [0.0, 0.0]], noise="salt")


@clause("ops.image-box-proposals", ref="tf221")
def test_generate_bounding_box_proposals_has_no_cpu_kernel(tf):
    scores = np.ones((1, 2, 2, 1), np.float32)
    deltas = np.zeros((1, 2, 2, 4), np.float32)
    info = np.array([[16.0, 16.0, 1.0, 1.0, 0.0]], np.float32)
    anchors = np.array([[[0.0, 0.0, 8.0, 8.0]]], np.float32)
    with raises(tf.errors.NotFoundError, call="generate_bounding_box_proposals (GPU kernel only)"):
        tf.image.generate_bounding_box_proposals(scores, deltas, info, anchors)
    with raises(ValueError, call="generate_bounding_box_proposals(image_info [1, 4]) in a tf.function"):
        tf.function(lambda: tf.image.generate_bounding_box_proposals(scores, deltas, info[:, :4], anchors))()
