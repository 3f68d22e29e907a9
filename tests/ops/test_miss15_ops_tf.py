"""The functions the fourteenth fuzzer found missing from simdist's facade, against real TensorFlow
2.21: tf.conv (the generic Conv op: 2-D and 3-D, batch_dims, explicit padding, dilations, its
checks and the shape function's errors in a tf.function), tf.conv2d_backprop_filter_v2 /
conv2d_backprop_input_v2 (no kernel in TF 2.21: the error classes eagerly and traced),
tf.random.stateless_parameterized_truncated_normal (the kernel's three samplers bit for bit at
half, float and double, broadcast parameters, sharded outputs, errors, its gradient, in a
tf.function and under MirroredStrategy.run), tf.make_tensor_proto / tf.make_ndarray (the message's
text format, dtypes, shapes, padding, errors), tf.image.extract_glimpse (window corners, zero noise,
the copied part of random noise, errors eagerly and traced),
tf.image.generate_bounding_box_proposals (no CPU kernel: error classes eagerly and traced). Values
bit for bit unless a case carries a relative tolerance (convolutions: simdist's im2col sums in
another order than Eigen's). Needs the `tf` extra (golden-backed otherwise). Clauses ops.conv-generic,
ops.parameterized-truncated-normal, ops.tensor-proto, ops.image-glimpse, ops.image-box-proposals."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_R = np.random.default_rng(1515)
X4 = _R.normal(size=(2, 7, 6, 3)).astype(np.float32)
F4 = _R.normal(size=(3, 2, 3, 4)).astype(np.float32)
X5 = _R.normal(size=(2, 5, 4, 5, 2)).astype(np.float32)
F5 = _R.normal(size=(2, 3, 2, 2, 3)).astype(np.float32)
XB = _R.normal(size=(2, 3, 5, 5, 2)).astype(np.float32)
FB = _R.normal(size=(2, 2, 2, 3)).astype(np.float32)
XI = _R.integers(-4, 5, (1, 5, 5, 2)).astype(np.int32)
FI = _R.integers(-3, 4, (2, 2, 2, 3)).astype(np.int32)
S1 = [1, 1, 1, 1]


def _conv(x: Any, f: Any, **kw: Any) -> Callable[[Any], Any]:
    kw.setdefault("strides", [1] * (np.ndim(x) if kw.get("batch_dims", 1) == 1 else np.ndim(x) - 1))
    kw.setdefault("padding", "VALID")
    return lambda tf: tf.conv(tf.constant(x), tf.constant(f), **kw)


def _cast(tf: Any, a: np.ndarray, dt: str) -> Any:
    return tf.cast(tf.constant(a), getattr(tf, dt))


def _conv_grad(tf: Any) -> Any:
    x = tf.Variable(X4)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.conv(x, tf.constant(F4), strides=S1, padding="VALID"))
    return tape.gradient(y, x)


def _v2(which: str, x: Any, f: Any, dy: Any, traced: bool = False, **kw: Any) -> Callable[[Any], Any]:
    kw.setdefault("strides", S1)
    kw.setdefault("padding", "SAME")

    def run(tf: Any) -> Any:
        fn = getattr(tf, f"conv2d_backprop_{which}_v2")
        args = [tf.constant(a) for a in (x, f, dy)]
        if traced:
            return tf.function(lambda a, b, c: fn(a, b, c, **kw))(*args)
        return fn(*args, **kw)
    return run


def _ptn(shape: Any, seed: Any = (1, 2), dt: str | None = None, *params: Any, traced: bool = False,
         **kw: Any) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        ps = [tf.constant(np.asarray(p, dt)) if dt else p for p in params]
        f = tf.random.stateless_parameterized_truncated_normal
        if traced:
            return tf.function(lambda: f(shape, list(seed), *ps, **kw))()
        return f(shape, list(seed), *ps, **kw)
    return run


def _ptn_grad(dt: str, shape: list, means: Any, stddevs: Any, minvals: Any, maxvals: Any) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        vs = [tf.Variable(np.asarray(p, dt)) for p in (means, stddevs, minvals, maxvals)]
        w = np.linspace(-1, 2, int(np.prod(shape))).reshape(shape).astype(dt)
        with tf.GradientTape() as tape:
            y = tf.random.stateless_parameterized_truncated_normal(shape, [3, 4], *vs)
            loss = tf.reduce_sum(y * w)
        return [y, *tape.gradient(loss, vs)]
    return run


def _ptn_mirrored(tf: Any) -> Any:
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"]) if len(tf.config.list_logical_devices("CPU")) > 1 \
        else tf.distribute.MirroredStrategy(["/cpu:0"])

    def step() -> Any:
        return tf.random.stateless_parameterized_truncated_normal([4, 3], [5, 6], 1.0, [0.5, 1.0, 2.0], 0.0, 3.0)
    out = strategy.run(step)
    return [tf.convert_to_tensor(v) for v in strategy.experimental_local_results(out)][:1]


PS = _R.uniform(size=(1, 4, 4, 2)).astype(np.float32)
PD = (_R.normal(size=(1, 4, 4, 8)) * 0.1).astype(np.float32)
PI = np.array([[64, 64, 1, 1, 0]], np.float32)
PA = np.array([[[0, 0, 16, 16], [0, 0, 32, 32]]], np.float32)


def _proposals(traced: bool = False, **kw: Any) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        args = {"scores": PS, "bbox_deltas": PD, "image_info": PI, "anchors": PA, **kw}
        args = {k: v(tf) if callable(v) else v for k, v in args.items()}
        call = lambda: tf.image.generate_bounding_box_proposals(**args)  # noqa: E731
        return list(tf.function(call)() if traced else call())
    return run


def _glimpse_grad(tf: Any) -> Any:
    v = tf.Variable(IMG)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.image.extract_glimpse(v, [2, 2], [[0.0, 0.0], [0.0, 0.0]]))
    return tape.gradient(y, v)


def _proto(value: Any, strings: bool = False, **kw: Any) -> Callable[[Any], Any]:
    """make_tensor_proto's message as its text format (dtype, shape, tensor_content, value lists), its
    dtype enum, and make_ndarray's array back (string arrays: their elements' lengths)."""
    def run(tf: Any) -> Any:
        v = value(tf) if callable(value) else value
        p = tf.make_tensor_proto(v, **kw)
        back = tf.make_ndarray(p)
        if strings:
            back = np.array([len(b) for b in back.ravel()], np.int64).reshape(back.shape)
        return [np.frombuffer(str(p).encode(), np.uint8), np.array(p.dtype), back]
    return run


IMG = np.arange(2 * 6 * 5 * 2, dtype=np.float32).reshape(2, 6, 5, 2)
RIMG = _R.normal(size=(2, 7, 6, 3)).astype(np.float32)


def _glimpse(size: Any, offsets: Any, traced: bool = False, image: np.ndarray = IMG, **kw: Any) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        x = tf.constant(image)
        if traced:
            return tf.function(lambda a: tf.image.extract_glimpse(a, size, offsets, **kw))(x)
        return tf.image.extract_glimpse(x, size, offsets, **kw)
    return run


def _glimpse_noise(noise: str) -> Callable[[Any], Any]:
    """A window over two image corners: the copied parts, and whether every value lies in the
    image's [min, max] (TF's noise is not reproducible: its values are not compared)."""
    def run(tf: Any) -> Any:
        out = tf.image.extract_glimpse(tf.constant(IMG), [3, 3], [[-1.0, -1.0], [0.9, 0.9]], noise=noise)
        o = np.asarray(out)
        lo, hi = IMG.min(axis=(1, 2, 3))[:, None, None, None], IMG.max(axis=(1, 2, 3))[:, None, None, None]
        inside = (o >= lo) & (o <= hi)
        return [out[0, 1:, 1:], out[1, :2, :2], tf.constant(inside)]
    return run


F64 = "float64"
F16 = "float16"
CASES: list[tuple] = [
    # --- tf.conv -------------------------------------------------------------------------------------------
    ("conv-2d-valid", "conv", _conv(X4, F4), 1e-5),
    ("conv-2d-same-strided", "conv", _conv(X4, F4, strides=[1, 2, 3, 1], padding="SAME"), 1e-5),
    ("conv-2d-dilated", "conv", _conv(X4, F4, dilations=[1, 2, 1, 1], padding="SAME"), 1e-5),
    ("conv-2d-explicit", "conv", _conv(X4, F4, padding="EXPLICIT", explicit_paddings=[0, 0, 1, 2, 0, 3, 0, 0]),
     1e-5),
    ("conv-2d-float64", "conv", lambda tf: tf.conv(_cast(tf, X4, F64), _cast(tf, F4, F64), strides=S1,
                                                   padding="SAME"), 1e-12),
    ("conv-2d-float16", "conv", lambda tf: tf.conv(_cast(tf, X4, F16), _cast(tf, F4, F16), strides=S1,
                                                   padding="VALID"), 1e-2),
    ("conv-2d-int32", "conv", _conv(XI, FI)),
    ("conv-3d", "conv", _conv(X5, F5, padding="SAME"), 1e-5),
    ("conv-3d-strided", "conv", _conv(X5, F5, strides=[1, 2, 1, 2, 1]), 1e-5),
    ("conv-batch-dims-2", "conv", _conv(XB, FB, strides=S1, batch_dims=2), 1e-5),
    ("conv-batch-dims-0", "conv", _conv(X4[0], F4, strides=S1, batch_dims=0), 1e-5),
    ("conv-empty-input", "conv", _conv(np.zeros((0, 5, 5, 3), np.float32), F4)),
    ("conv-empty-output", "conv", _conv(X4[:, :2], F4)),
    ("conv-in-function", "conv", edge_compare.traced(lambda tf, x, f: tf.conv(x, f, strides=S1, padding="SAME"),
                                                     lambda tf: tf.constant(X4), lambda tf: tf.constant(F4)), 1e-5),
    ("conv-groups", "conv", _conv(X4, F4, groups=3)),
    ("conv-channels-first", "conv", _conv(X4, F4, data_format="CHANNELS_FIRST")),
    ("conv-channels-first-3d", "conv", _conv(X5, F5, data_format="CHANNELS_FIRST")),
    ("conv-one-spatial-dim", "conv", _conv(X4[0], F4[0], strides=[1, 1, 1])),
    ("conv-depth-mismatch", "conv", _conv(X4, F4[:, :, :2])),
    ("conv-filter-rank-3", "conv", _conv(X4, F4[0], strides=S1)),
    ("conv-filter-zero", "conv", _conv(X4, F4[:, :0])),
    ("conv-strides-length", "conv", _conv(X4, F4, strides=[1, 1, 1])),
    ("conv-strides-batch", "conv", _conv(X4, F4, strides=[2, 1, 1, 1])),
    ("conv-strides-zero", "conv", _conv(X4, F4, strides=[1, 0, 1, 1])),
    ("conv-strides-int", "conv", _conv(X4, F4, strides=1)),
    ("conv-dilations-length", "conv", _conv(X4, F4, dilations=[1, 1, 1])),
    ("conv-bad-padding", "conv", _conv(X4, F4, padding="FULL")),
    ("conv-bad-format", "conv", _conv(X4, F4, data_format="NHWC")),
    ("conv-int64", "conv", lambda tf: tf.conv(_cast(tf, XI, "int64"), _cast(tf, FI, "int64"), strides=S1,
                                              padding="VALID")),
    ("conv-mixed-dtypes", "conv", lambda tf: tf.conv(tf.constant(X4), _cast(tf, F4, F64), strides=S1,
                                                     padding="VALID")),
    ("conv-filter-too-big", "conv", _conv(X4[:, :2, :1], F4)),
    ("conv-traced-depth-mismatch", "conv", edge_compare.traced(
        lambda tf, x, f: tf.conv(x, f, strides=S1, padding="SAME"), lambda tf: tf.constant(X4),
        lambda tf: tf.constant(F4[:, :, :2]))),
    ("conv-traced-one-spatial-dim", "conv", edge_compare.traced(
        lambda tf, x, f: tf.conv(x, f, strides=[1, 1, 1], padding="SAME"), lambda tf: tf.constant(X4[0]),
        lambda tf: tf.constant(F4[0]))),
    ("conv-traced-mixed-dtypes", "conv", edge_compare.traced(
        lambda tf, x, f: tf.conv(x, f, strides=S1, padding="SAME"), lambda tf: tf.constant(X4),
        lambda tf: _cast(tf, F4, F64))),
    ("conv-gradient", "conv", _conv_grad),
    ("conv-traced-bad-padding", "conv", edge_compare.traced(
        lambda tf, x, f: tf.conv(x, f, strides=S1, padding="same"), lambda tf: tf.constant(X4),
        lambda tf: tf.constant(F4))),
    ("conv-traced-empty-strides", "conv", edge_compare.traced(
        lambda tf, x, f: tf.conv(x, f, strides=(), padding="SAME"), lambda tf: tf.constant(X4),
        lambda tf: tf.constant(F4))),
    ("conv-empty-strides", "conv", _conv(X4, F4, strides=())),
    # --- Conv2DBackprop*V2: no kernel ----------------------------------------------------------------------
    *[(f"{w}-v2-{k}", "conv-v2", _v2(w, *a, **kw)) for w in ("filter", "input") for k, a, kw in (
        ("float32", (X4, F4, X4[..., :1].repeat(4, -1)), {}),
        ("mixed-dtypes", (X4, F4, X4[..., :1].repeat(4, -1).astype(np.float64)), {}),
        ("int32", (XI, FI, XI[..., :1].repeat(3, -1)), {}),
        ("float64", (X4.astype(np.float64), F4.astype(np.float64), X4[..., :1].repeat(4, -1).astype(np.float64)),
         {}),
        ("traced", (X4, F4, X4[..., :1].repeat(4, -1)), {"traced": True}),
        ("traced-mixed-dtypes", (X4, F4, X4[..., :1].repeat(4, -1).astype(np.float64)), {"traced": True}),
        ("traced-int32", (XI, FI, XI[..., :1].repeat(3, -1)), {"traced": True}),
        ("strides-int", (X4, F4, X4), {"strides": 1}),
        ("bad-padding", (X4, F4, X4), {"padding": "FULL"}),
        ("bad-format", (X4, F4, X4), {"data_format": "NDHWC"}),
        ("int64-bad-padding", (XI.astype(np.int64), FI.astype(np.int64), XI.astype(np.int64)), {"padding": "same"}),
        ("traced-bad-padding", (X4, F4, X4), {"padding": "same", "traced": True}))],
    # --- stateless_parameterized_truncated_normal ------------------------------------------------------------
    ("ptn-default", "ptn", _ptn([5])),
    ("ptn-2x3", "ptn", _ptn([2, 3])),
    ("ptn-scalar-shape", "ptn", _ptn([])),
    ("ptn-empty", "ptn", _ptn([0, 3])),
    ("ptn-randn-float64", "ptn", _ptn([7], (1, 2), F64, 0.0, 1.0, -2.0, 2.0)),
    ("ptn-randn-float16", "ptn", _ptn([9], (1, 2), F16, 0.0, 1.0, -2.0, 2.0)),
    ("ptn-one-sided", "ptn", _ptn([6], (1, 2), None, 0.0, 1.0, -np.inf, 0.5)),
    ("ptn-upper-unbounded", "ptn", _ptn([6], (9, 1), None, 1.0, 2.0, 0.5, np.inf)),
    ("ptn-uniform", "ptn", _ptn([9], (1, 2), None, 0.0, 1.0, 0.1, 0.3)),
    ("ptn-uniform-float64", "ptn", _ptn([9], (4, 2), F64, 0.0, 1.0, -0.2, 0.3)),
    ("ptn-uniform-float16", "ptn", _ptn([9], (1, 2), F16, 0.0, 1.0, 0.1, 0.3)),
    ("ptn-exponential", "ptn", _ptn([9], (1, 2), None, 0.0, 1.0, 3.0, 10.0)),
    ("ptn-exponential-float64", "ptn", _ptn([9], (1, 2), F64, 0.0, 1.0, 3.0, 10.0)),
    ("ptn-exponential-float16", "ptn", _ptn([9], (1, 2), F16, 1.0, 2.0, 7.0, 20.0)),
    ("ptn-below-mean", "ptn", _ptn([9], (2, 2), None, 5.0, 1.0, -10.0, 2.0)),
    ("ptn-broadcast", "ptn", _ptn([4, 2, 3], (1, 2), None, 0.0, [1.0, 2.0, 3.0], [[-1.0], [-2.0]], [5.0])),
    ("ptn-per-batch", "ptn", _ptn([3, 4], (3, 4), None, [0.0, 1.0, 2.0, 3.0], 1.0, [-1.0, 0.5, 2.5, -10.0],
                                  [1.0, 0.7, 10.0, -9.0])),
    ("ptn-sharded-float32", "ptn", _ptn([3000], (7, 9))),
    ("ptn-sharded-float64", "ptn", _ptn([3000], (7, 9), F64, 0.0, 1.0, -2.0, 2.0)),
    ("ptn-sharded-float16", "ptn", _ptn([3000], (7, 9), F16, 0.0, 1.0, -2.0, 2.0)),
    ("ptn-sharded-batches", "ptn", _ptn([50, 60], (5, 6), None, 0.0, 1.0,
                                        np.linspace(-3, 1, 60).astype(np.float32), 3.0)),
    ("ptn-int64-seed", "ptn", lambda tf: tf.random.stateless_parameterized_truncated_normal(
        [3], tf.constant([-1, 2**40], tf.int64))),
    ("ptn-int64-shape", "ptn", lambda tf: tf.random.stateless_parameterized_truncated_normal(
        tf.constant([2, 2], tf.int64), [1, 2])),
    ("ptn-in-function", "ptn", _ptn([4, 3], (8, 8), None, 0.5, [1.0, 2.0, 0.5], -1.0, 2.0, traced=True)),
    ("ptn-mirrored", "ptn", _ptn_mirrored),
    ("ptn-nan-mean", "ptn", _ptn([3], (1, 2), None, np.nan)),
    ("ptn-negative-stddev", "ptn", _ptn([3], (1, 2), None, 0.0, -1.0)),
    ("ptn-min-above-max", "ptn", _ptn([3], (1, 2), None, 0.0, 1.0, 3.0, 2.0)),
    ("ptn-both-infinite", "ptn", _ptn([3], (1, 2), None, 0.0, 1.0, -np.inf, np.inf)),
    ("ptn-shape-not-ending", "ptn", _ptn([4, 3, 2], (1, 2), None, 0.0, [1.0, 2.0, 3.0])),
    ("ptn-incompatible", "ptn", _ptn([4, 3], (1, 2), None, [1.0, 2.0], [1.0, 2.0, 3.0])),
    ("ptn-negative-dim", "ptn", _ptn([-1], (1, 2))),
    ("ptn-seed-3", "ptn", _ptn([4], (1, 2, 3))),
    ("ptn-float-seed", "ptn", _ptn([4], (1.0, 2.0))),
    ("ptn-float-shape", "ptn", lambda tf: tf.random.stateless_parameterized_truncated_normal(
        tf.constant([3.0]), [1, 2])),
    ("ptn-bfloat16", "ptn", lambda tf: tf.random.stateless_parameterized_truncated_normal(
        [3], [1, 2], *[tf.constant(v, tf.bfloat16) for v in (0.0, 1.0, -2.0, 2.0)])),
    ("ptn-int-params", "ptn", _ptn([3], (1, 2), None, 0, 1, -2, 2)),
    ("ptn-mixed-dtypes", "ptn", lambda tf: tf.random.stateless_parameterized_truncated_normal(
        [3], [1, 2], tf.constant(0.0, tf.float64))),
    ("ptn-traced-shape-not-ending", "ptn", _ptn([4, 3, 2], (1, 2), None, 0.0, [1.0, 2.0, 3.0], traced=True)),
    ("ptn-traced-negative-stddev", "ptn", _ptn([3], (1, 2), None, 0.0, -1.0, traced=True)),
    ("ptn-traced-mixed-dtypes", "ptn", lambda tf: tf.function(
        lambda: tf.random.stateless_parameterized_truncated_normal([3], [1, 2], tf.constant(0.0, tf.float64)))()),
    ("ptn-traced-int-params", "ptn", _ptn([3], (1, 2), None, 0, 1, -2, 2, traced=True)),
    ("ptn-grad-scalars", "ptn-grad", _ptn_grad("float32", [6], 0.5, 1.5, -1.0, 2.0), 1e-5),
    ("ptn-grad-broadcast", "ptn-grad", _ptn_grad("float32", [3, 2, 3], [0.0, 1.0, -1.0], [[1.0], [2.0]], -2.0,
                                                 [3.0, 4.0, 0.5]), 1e-5),
    ("ptn-grad-float64", "ptn-grad", _ptn_grad("float64", [4, 2], [0.0, 2.0], 1.0, [-1.0, 1.5], 3.0), 1e-12),
    # --- make_tensor_proto / make_ndarray --------------------------------------------------------------------
    ("proto-float-list", "proto", _proto([[1.5, -2.0, 0.1], [3.0, 1e-40, 7.25]])),
    ("proto-python-scalar", "proto", _proto(0.1)),
    ("proto-int-scalar", "proto", _proto(7)),
    ("proto-big-int", "proto", _proto([1, 2**40])),
    ("proto-bool", "proto", _proto([True, False, True])),
    ("proto-float64-array", "proto", _proto(np.array([0.1, -2.5, np.inf]))),
    ("proto-float16-array", "proto", _proto(np.array([0.5, -1.25, 65504.0], np.float16))),
    ("proto-float16-scalar", "proto", _proto(np.float16(0.1))),
    ("proto-bfloat16", "proto", _proto(lambda tf: tf.constant([1.5, 0.1], tf.bfloat16))),
    ("proto-bfloat16-one", "proto", _proto(lambda tf: tf.constant([0.1], tf.bfloat16))),
    ("proto-int8-array", "proto", _proto(np.array([[-3, 4], [127, -128]], np.int8))),
    ("proto-uint16-array", "proto", _proto(np.array([1, 65535], np.uint16))),
    ("proto-uint64-one", "proto", _proto(np.array([2**63 + 5], np.uint64))),
    ("proto-complex64", "proto", _proto(np.array([1 + 2j, -0.5j], np.complex64))),
    ("proto-complex128-scalar", "proto", _proto(np.complex128(3 - 1j))),
    ("proto-tensor", "proto", _proto(lambda tf: tf.constant([[1.0, 2.0], [3.0, 4.0]]))),
    ("proto-variable", "proto", _proto(lambda tf: tf.Variable([1, 2, 3]))),
    ("proto-dtype", "proto", _proto([1, 2, 3], dtype="float64")),
    ("proto-dtype-tensor", "proto", _proto(lambda tf: tf.constant([1, 2]), dtype="float32")),
    ("proto-shape-broadcast", "proto", _proto(2.5, shape=[2, 3])),
    ("proto-shape-fewer", "proto", _proto([1.0, 2.0], shape=[2, 2])),
    ("proto-shape-empty", "proto", _proto([], shape=[0, 3])),
    ("proto-empty-list", "proto", _proto([])),
    ("proto-allow-broadcast", "proto", _proto([4.0], shape=[3], allow_broadcast=True)),
    ("proto-verify-shape", "proto", _proto([[1.0, 2.0]], shape=[1, 2], verify_shape=True)),
    ("proto-strings", "proto", _proto(["ab", "", "a\"b\n\x00"], strings=True)),
    ("proto-string-pad", "proto", _proto(["ab"], shape=[3], strings=True)),
    ("proto-bytes-array", "proto", _proto(np.array([b"x", b"yz"]), strings=True)),
    ("proto-verify-shape-error", "proto", _proto([1.0, 2.0], shape=[2, 1], verify_shape=True)),
    ("proto-allow-broadcast-error", "proto", _proto([1.0, 2.0], shape=[3], allow_broadcast=True)),
    ("proto-both-flags", "proto", _proto([1.0], shape=[1], verify_shape=True, allow_broadcast=True)),
    ("proto-too-many", "proto", _proto([1.0, 2.0, 3.0], shape=[2])),
    ("proto-incompatible", "proto", _proto([1.5], dtype="int32")),
    ("proto-dtype-mismatch", "proto", _proto(np.array([1.5]), dtype="int32")),
    ("proto-none", "proto", _proto(None)),
    ("proto-ragged", "proto", _proto([[1, 2], [3]])),
    ("proto-strings-as-float", "proto", _proto(np.array([1.0, 2.0]), dtype="string")),
    ("proto-in-function", "proto", lambda tf: tf.function(lambda x: (tf.make_tensor_proto(x), x)[1])(
        tf.constant([1.0, 2.0]))),
    ("ndarray-of-tensor", "proto", lambda tf: tf.make_ndarray(tf.constant([1.0, 2.0]))),
    ("ndarray-of-list", "proto", lambda tf: tf.make_ndarray([1.0, 2.0])),
    # --- image.extract_glimpse ---------------------------------------------------------------------------------
    ("glimpse-centered-normalized", "glimpse", _glimpse([2, 3], [[0.0, 0.0], [0.1, -0.2]])),
    ("glimpse-pixels", "glimpse", _glimpse([2, 3], [[1.0, 1.0], [2.0, 0.0]], centered=False, normalized=False)),
    ("glimpse-normalized-corner", "glimpse", _glimpse([2, 3], [[0.2, 0.3], [0.5, 0.4]], centered=False)),
    ("glimpse-centered-pixels", "glimpse", _glimpse([2, 2], [[-1.0, -2.0], [0.0, 1.0]], normalized=False)),
    ("glimpse-zero-noise", "glimpse", _glimpse([3, 3], [[-1.0, -1.0], [0.9, 0.9]], noise="zero")),
    ("glimpse-negative-fraction", "glimpse", _glimpse([2, 2], [[-0.3, -0.3], [0.3, 0.3]], centered=False,
                                                      normalized=False, noise="zero")),
    ("glimpse-larger-than-image", "glimpse", _glimpse([8, 7], [[0.0, 0.0], [0.0, 0.0]], noise="zero")),
    ("glimpse-far-edge", "glimpse", _glimpse([2, 2], [[4.0, 3.0], [0.0, 0.0]], centered=False, normalized=False)),
    ("glimpse-nan-offset", "glimpse", _glimpse([2, 2], [[np.nan, 0.0], [0.0, 0.0]], noise="zero")),
    ("glimpse-huge-offset", "glimpse", _glimpse([2, 2], [[1e10, 0.0], [0.0, -1e30]], noise="zero")),
    ("glimpse-random-image", "glimpse", _glimpse([4, 3], [[0.25, -0.5], [-0.1, 0.3]], image=RIMG)),
    ("glimpse-float64-offsets", "glimpse", _glimpse([2, 2], np.zeros((2, 2)))),
    ("glimpse-empty-size", "glimpse", _glimpse([0, 2], [[0.0, 0.0], [0.0, 0.0]])),
    ("glimpse-in-function", "glimpse", _glimpse([2, 3], [[0.0, 0.0], [0.1, -0.2]], traced=True)),
    ("glimpse-uniform-noise", "glimpse", _glimpse_noise("uniform")),
    ("glimpse-gaussian-noise", "glimpse", _glimpse_noise("gaussian")),
    ("glimpse-negative-size", "glimpse", _glimpse([-1, 2], [[0.0, 0.0], [0.0, 0.0]])),
    ("glimpse-size-3", "glimpse", _glimpse([2, 2, 2], [[0.0, 0.0], [0.0, 0.0]])),
    ("glimpse-float-size", "glimpse", _glimpse([2.0, 2.0], [[0.0, 0.0], [0.0, 0.0]])),
    ("glimpse-offsets-batch", "glimpse", _glimpse([2, 2], [[0.0, 0.0]])),
    ("glimpse-offsets-3", "glimpse", _glimpse([2, 2], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]])),
    ("glimpse-rank-3", "glimpse", _glimpse([2, 2], [[0.0, 0.0]], image=IMG[0])),
    ("glimpse-bad-noise", "glimpse", _glimpse([2, 2], [[0.0, 0.0], [0.0, 0.0]], noise="salt")),
    ("glimpse-int-image", "glimpse", lambda tf: tf.image.extract_glimpse(tf.constant(IMG.astype(np.int32)), [2, 2],
                                                                        [[0.0, 0.0], [0.0, 0.0]])),
    ("glimpse-traced-rank-3", "glimpse", _glimpse([2, 2], [[0.0, 0.0]], traced=True, image=IMG[0])),
    ("glimpse-traced-batch", "glimpse", _glimpse([2, 2], [[0.0, 0.0]], traced=True)),
    ("glimpse-traced-size-3", "glimpse", _glimpse([2, 2, 2], [[0.0, 0.0], [0.0, 0.0]], traced=True)),
    ("glimpse-traced-negative-size", "glimpse", _glimpse([-1, 2], [[0.0, 0.0], [0.0, 0.0]], traced=True)),
    ("glimpse-gradient", "glimpse", _glimpse_grad),
    ("glimpse-uint64-offsets", "glimpse", lambda tf: tf.image.extract_glimpse(
        tf.constant(IMG), [2, 2], tf.constant([[1, 1], [0, 2]], tf.uint64))),
    ("glimpse-traced-uint64-offsets", "glimpse", lambda tf: tf.function(
        lambda o: tf.image.extract_glimpse(tf.constant(IMG), [2, 2], o))(tf.constant([[1, 1], [0, 2]], tf.uint64))),
    ("glimpse-traced-inner-uint64-offsets", "glimpse", lambda tf: tf.function(
        lambda: tf.image.extract_glimpse(tf.constant(IMG), [2, 2], tf.constant([[1, 1], [0, 2]], tf.uint64)))()),
    ("glimpse-bool-list", "glimpse", lambda tf: tf.image.extract_glimpse([[[[True], [False]], [[False], [True]]]],
                                                                        [1, 1], [[0.0, 0.0]])),
    # --- image.generate_bounding_box_proposals: no CPU kernel ----------------------------------------------------
    ("proposals", "proposals", _proposals()),
    ("proposals-traced", "proposals", _proposals(traced=True)),
    ("proposals-float64-scores", "proposals", _proposals(scores=lambda tf: tf.constant(PS, tf.float64))),
    ("proposals-int-min-size", "proposals", _proposals(min_size=lambda tf: tf.constant(3))),
    ("proposals-float-post-topn", "proposals", _proposals(post_nms_topn=3.0)),
    ("proposals-float-pre-topn", "proposals", _proposals(pre_nms_topn=3.5)),
    ("proposals-traced-image-info-4", "proposals", _proposals(traced=True, image_info=PI[:, :4])),
    ("proposals-traced-anchors-rank-2", "proposals", _proposals(traced=True, anchors=PA[0])),
    ("proposals-traced-scores-rank-3", "proposals", _proposals(traced=True, scores=PS[0])),
    ("proposals-traced-vector-threshold", "proposals", _proposals(traced=True, nms_threshold=[0.5])),
    ("proposals-traced-float64-argument", "proposals", lambda tf: tf.function(
        lambda s: tf.image.generate_bounding_box_proposals(s, PD, PI, PA))(tf.constant(PS, tf.float64))),
]

EDGES = edge_compare.EdgeModule(__file__, CASES,
                                agree=lambda case: edge_compare.within(case[3]) if len(case) > 3 else
                                edge_compare.bits_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.conv-generic")
@EDGES.parametrize("conv")
def test_conv(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conv-generic")
@EDGES.parametrize("conv-v2")
def test_conv2d_backprop_v2(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.parameterized-truncated-normal")
@EDGES.parametrize("ptn")
def test_stateless_parameterized_truncated_normal(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.parameterized-truncated-normal")
@EDGES.parametrize("ptn-grad")
def test_stateless_parameterized_truncated_normal_gradient(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.tensor-proto")
@EDGES.parametrize("proto")
def test_make_tensor_proto_and_ndarray(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.image-glimpse")
@EDGES.parametrize("glimpse")
def test_extract_glimpse(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.image-box-proposals")
@EDGES.parametrize("proposals")
def test_generate_bounding_box_proposals(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_is_tested() -> None:
    assert EDGES.untested() == [], f"cases in no test function's group: {EDGES.untested()}"


if __name__ == "__main__":
    tf_workers.serve(EDGES.tf_worker)
