"""Gaps the sixth blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): behaviours no earlier suite test looked at closely enough for a wrong
implementation to fail (TF 2.21 + Keras 3.15).

The gradient tables widen clause autodiff.op-gradients to the differentiable ops the
central-difference table of test_gradients.py left out (inverse trigonometric and special
functions, the *_no_nan and x*y families, scatters into a tensor, space/depth moves, mirror pads,
segment extrema and products, linear algebra, options such as silu's beta) and check the linear
ops (bilinear resize, scatters) exactly against the transpose of their forward map. Every expected
value is computed here with NumPy or from the backend's own forward pass, never from its gradient.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
#: float64 central differences with h = 1e-6: truncation and rounding errors stay below 1e-6.
NUMERIC_TOL = Tolerance(rtol=1e-5, atol=1e-6)


def _pos(shape, lo=0.3, hi=1.7):
    return lambda rng: np.round(rng.uniform(lo, hi, size=shape), 3)


def _any(shape, lo=0.2, hi=1.5):
    """Values away from 0 with both signs."""
    def make(rng):
        v = np.round(rng.uniform(lo, hi, size=shape), 3)
        return v * np.where(rng.uniform(size=shape) < 0.5, -1.0, 1.0)
    return make


def _unit(shape):
    """Values inside (-0.9, 0.9), away from 0 (asin, acos, atanh)."""
    return _any(shape, 0.1, 0.85)


def _distinct(shape):
    """Distinct values (no ties for max/min)."""
    return lambda rng: (rng.permutation(int(np.prod(shape))).reshape(shape) * 0.37 - 1.1).astype(np.float64)


def _spd(tf, x):
    """A symmetric positive definite matrix of x (its Cholesky and inverse are then smooth in x)."""
    n = x.shape[-1]
    return tf.matmul(x, x, transpose_b=True) + tf.constant(3.0 * np.eye(n), dtype=x.dtype)


_IDX = [[0, 1], [2, 0], [1, 1]]
NUMERIC = {
    # inverse trigonometric, hyperbolic and special functions
    "asin": (lambda tf, x: tf.asin(x), [_unit((2, 3))]),
    "acos": (lambda tf, x: tf.acos(x), [_unit((2, 3))]),
    "atanh": (lambda tf, x: tf.atanh(x), [_unit((2, 3))]),
    "acosh": (lambda tf, x: tf.acosh(x), [_pos((2, 3), 1.2, 2.5)]),
    "atan2": (lambda tf, y, x: tf.atan2(y, x), [_any((2, 3)), _any((2, 3))]),
    "erfc": (lambda tf, x: tf.math.erfc(x), [_any((2, 3))]),
    "digamma": (lambda tf, x: tf.math.digamma(x), [_pos((2, 3))]),
    "softplus": (lambda tf, x: tf.math.softplus(x), [_any((2, 3))]),
    "silu_beta": (lambda tf, x: tf.nn.silu(x, beta=1.7), [_any((2, 3))]),
    "silu_beta_grad": (lambda tf, b: tf.nn.silu(tf.constant([[-1.3, 0.4, 2.1]], tf.float64), beta=b),
                       [_pos(())]),
    "gelu_approximate": (lambda tf, x: tf.nn.gelu(x, approximate=True), [_any((2, 3))]),
    "leaky_relu_default": (lambda tf, x: tf.nn.leaky_relu(x), [_any((2, 3))]),
    # the *_no_nan and x*y families, floormod
    "div_no_nan": (lambda tf, x, y: tf.math.divide_no_nan(x, y), [_any((2, 3)), _any((1, 3))]),
    "multiply_no_nan": (lambda tf, x, y: tf.math.multiply_no_nan(x, y), [_any((2, 3)), _any((2, 1))]),
    "xlogy": (lambda tf, x, y: tf.math.xlogy(x, y), [_any((2, 3)), _pos((2, 3))]),
    "xdivy": (lambda tf, x, y: tf.math.xdivy(x, y), [_any((2, 3)), _any((2, 3))]),
    "xlog1py": (lambda tf, x, y: tf.math.xlog1py(x, y), [_any((2, 3)), _pos((2, 3))]),
    "maximum_broadcast": (lambda tf, x, y: tf.maximum(x, y + 0.1), [_distinct((2, 3)), _distinct((3,))]),
    # scatters into a tensor (the tensor's gradient is zero where an update overwrote it)
    "tensor_scatter_update": (lambda tf, t, u: tf.tensor_scatter_nd_update(t, [[0, 1], [2, 0]], u),
                              [_any((3, 2)), _any((2,))]),
    "tensor_scatter_update_rows": (lambda tf, t, u: tf.tensor_scatter_nd_update(t, [[2], [0]], u),
                                   [_any((3, 2)), _any((2, 2))]),
    "tensor_scatter_add": (lambda tf, t, u: tf.tensor_scatter_nd_add(t, _IDX, u), [_any((3, 2)), _any((3,))]),
    "tensor_scatter_sub": (lambda tf, t, u: tf.tensor_scatter_nd_sub(t, _IDX, u), [_any((3, 2)), _any((3,))]),
    "tensor_scatter_max": (lambda tf, t, u: tf.tensor_scatter_nd_max(t, [[0, 1], [2, 0]], u),
                           [_distinct((3, 2)), _distinct((2,))]),
    "scatter_nd": (lambda tf, u: tf.scatter_nd([[1], [3], [1]], u, [4, 2]), [_any((3, 2))]),
    # space/depth moves, pads, rolls
    "space_to_depth": (lambda tf, x: tf.nn.space_to_depth(x, 2), [_any((1, 4, 2, 1))]),
    "depth_to_space": (lambda tf, x: tf.nn.depth_to_space(x, 2), [_any((1, 1, 2, 4))]),
    "space_to_batch_nd": (lambda tf, x: tf.space_to_batch_nd(x, [2], [[1, 1]]), [_any((1, 4, 2))]),
    "batch_to_space": (lambda tf, x: tf.batch_to_space(x, [2], [[1, 0]]), [_any((2, 2, 1))]),
    "pad_reflect": (lambda tf, x: tf.pad(x, [[1, 2], [2, 0]], mode="REFLECT"), [_any((3, 3))]),
    "pad_symmetric": (lambda tf, x: tf.pad(x, [[0, 2], [1, 1]], mode="SYMMETRIC"), [_any((3, 2))]),
    "pad_constant_value": (lambda tf, x: tf.pad(x, [[1, 0], [0, 2]], constant_values=2.5), [_any((2, 2))]),
    "roll_two_axes": (lambda tf, x: tf.roll(x, shift=[1, -2], axis=[0, 1]), [_any((2, 3))]),
    "reverse_sequence": (lambda tf, x: tf.reverse_sequence(x, [1, 3], seq_axis=1, batch_axis=0), [_any((2, 3))]),
    # segment extrema and products, stitches, norms
    "segment_max": (lambda tf, x: tf.math.segment_max(x, [0, 0, 1]), [_distinct((3, 2))]),
    "unsorted_segment_min": (lambda tf, x: tf.math.unsorted_segment_min(x, [1, 0, 1], 2), [_distinct((3, 2))]),
    "unsorted_segment_prod": (lambda tf, x: tf.math.unsorted_segment_prod(x, [1, 0, 1], 2), [_any((3, 2))]),
    "segment_prod": (lambda tf, x: tf.math.segment_prod(x, [0, 0, 1]), [_any((3, 2))]),
    "dynamic_stitch": (lambda tf, x, y: tf.dynamic_stitch([[0, 2], [1]], [x, y]), [_any((2, 2)), _any((1, 2))]),
    "dynamic_partition": (lambda tf, x: tf.dynamic_partition(x, [1, 0, 1], 2)[1] * 2.0, [_any((3, 2))]),
    "euclidean_norm": (lambda tf, x: tf.math.reduce_euclidean_norm(x, axis=1), [_any((2, 3))]),
    "l2_loss": (lambda tf, x: tf.nn.l2_loss(x), [_any((2, 3))]),
    "cross": (lambda tf, x, y: tf.linalg.cross(x, y), [_any((2, 3)), _any((2, 3))]),
    # linear algebra
    "matrix_inverse": (lambda tf, x: tf.linalg.inv(_spd(tf, x)), [_any((2, 2))]),
    "matrix_determinant": (lambda tf, x: tf.linalg.det(_spd(tf, x)), [_any((3, 3))]),
    "matrix_solve": (lambda tf, a, b: tf.linalg.solve(_spd(tf, a), b), [_any((2, 2)), _any((2, 3))]),
    "cholesky": (lambda tf, x: tf.linalg.cholesky(_spd(tf, x)), [_any((3, 3))]),
    "triangular_solve_upper": (lambda tf, a, b: tf.linalg.triangular_solve(
        tf.linalg.band_part(a, 0, -1) + tf.constant(3.0 * np.eye(2), tf.float64), b, lower=False),
        [_any((2, 2)), _any((2, 2))]),
    "band_part": (lambda tf, x: tf.linalg.band_part(x, 1, 0), [_any((3, 3))]),
    "diag_part": (lambda tf, x: tf.linalg.diag_part(x), [_any((2, 3))]),
    # window ops not in the first table (TF has no float64 kernels of the 3-D pools and LRN)
    "conv3d": (lambda tf, x, f: tf.nn.conv3d(x, f, [1, 1, 1, 1, 1], "VALID"),
               [_any((1, 3, 2, 2, 1)), _any((2, 1, 2, 1, 2))]),
}


def _grads(tf, fn, *xs: np.ndarray, upstream: np.ndarray):
    ts = [tf.constant(x, dtype=tf.float64) for x in xs]
    with tf.GradientTape(persistent=True) as tape:
        for t in ts:
            tape.watch(t)
        out = fn(*ts)
    return tape.gradient(out, ts, output_gradients=tf.constant(upstream, dtype=tf.float64))


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("name", list(NUMERIC))
def test_blind6_more_gradients_match_central_differences(backend, tf, name):
    """The tape's gradient of sum(R * f(x...)) (R a fixed non-uniform weighting) equals central differences
    of the backend's own forward pass, in float64, element by element of every input."""
    fn, makers = NUMERIC[name]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    xs = [np.asarray(m(rng), dtype=np.float64) for m in makers]
    out_shape = tuple(fn(tf, *[tf.constant(x, dtype=tf.float64) for x in xs]).shape)
    r = np.round(rng.uniform(-2.0, 2.0, size=out_shape), 2)
    R = tf.constant(r, dtype=tf.float64)

    def objective(vals):
        return float(tf.reduce_sum(R * fn(tf, *[tf.constant(v, dtype=tf.float64) for v in vals])).numpy())

    grads = _grads(tf, lambda *ts: fn(tf, *ts), *xs, upstream=r)
    h = 1e-6
    for k, (x, g) in enumerate(zip(xs, grads)):
        want = np.zeros_like(x)
        for idx in np.ndindex(x.shape):
            up = [v.copy() for v in xs]
            dn = [v.copy() for v in xs]
            up[k][idx] += h
            dn[k][idx] -= h
            want[idx] = (objective(up) - objective(dn)) / (2 * h)
        got = np.zeros_like(x) if g is None else tf.convert_to_tensor(g).numpy()
        assert_close(got, want, call=f"tape.gradient(sum(R * {name}(...)), input {k}) vs central differences",
                     what=f"d/dinput{k}", tolerance=NUMERIC_TOL)


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("in_hw,out_hw", [((3, 2), (5, 4)), ((4, 6), (3, 4)), ((2, 3), (2, 7))])
def test_blind6_bilinear_resize_gradient_is_the_transpose_of_its_forward_map(tf, in_hw, out_hw):
    """tf.image.resize(bilinear) is linear in the image: its gradient for an upstream R must be M^T R,
    M's columns being the resized unit images (the backend's own forward pass), up and down, per axis."""
    h, w = in_hw
    n = h * w
    cols = []
    for i in range(n):
        e = np.zeros((1, h, w, 1), np.float32)
        e.flat[i] = 1.0
        cols.append(np.asarray(tf.image.resize(tf.constant(e), out_hw, method="bilinear")).ravel())
    m = np.stack(cols, axis=1).astype(np.float64)
    rng = np.random.default_rng(zlib.crc32(repr((in_hw, out_hw)).encode()))
    r = np.round(rng.uniform(-2.0, 2.0, size=(1, *out_hw, 1)), 2).astype(np.float32)
    x = tf.constant(np.round(rng.uniform(-1.0, 1.0, size=(1, h, w, 1)), 2).astype(np.float32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.resize(x, out_hw, method="bilinear")
    g = tape.gradient(y, x, output_gradients=tf.constant(r))
    want = (m.T @ r.astype(np.float64).ravel()).reshape(1, h, w, 1)
    assert_close(np.asarray(g, np.float64), want, call=f"tape.gradient(tf.image.resize(x{in_hw} -> {out_hw}, "
                 "'bilinear'), x, output_gradients=R)", what="M^T R", tolerance=Tolerance(rtol=1e-5, atol=1e-6))


@clause("ops.clip-global-norm", ref="tf221")
@pytest.mark.parametrize("axes", [None, [0], [1], [0, 1]])
def test_blind6_clip_by_norm_clips_each_slice_along_axes(tf, axes):
    """tf.clip_by_norm(t, c, axes): t * c / max(||t||_axes, c), the L2 norm taken over `axes` only
    (one norm per slice along the other axes), the values' gradient included."""
    t = np.array([[3.0, -4.0, 0.5], [0.3, 0.4, -1.2]])
    c = 1.5
    norm = np.sqrt((t ** 2).sum(axis=None if axes is None else tuple(axes), keepdims=True))
    want = t * c / np.maximum(norm, c)
    got = tf.clip_by_norm(tf.constant(t), c, axes=axes)
    assert_close(got, want, call=f"tf.clip_by_norm(t, {c}, axes={axes})", what="t clipped per slice")
    x = tf.constant(t)
    r = np.array([[1.0, -0.5, 2.0], [0.25, 1.5, -1.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.clip_by_norm(x, c, axes=axes)
    g = np.asarray(tape.gradient(y, x, output_gradients=tf.constant(r)))
    h = 1e-6
    num = np.zeros_like(t)
    for idx in np.ndindex(t.shape):
        up, dn = t.copy(), t.copy()
        up[idx] += h
        dn[idx] -= h
        f = [float((r * np.asarray(tf.clip_by_norm(tf.constant(v), c, axes=axes))).sum()) for v in (up, dn)]
        num[idx] = (f[0] - f[1]) / (2 * h)
    assert_close(g, num, call=f"tape.gradient(tf.clip_by_norm(x, {c}, axes={axes}), x, R)",
                 what="central differences", tolerance=NUMERIC_TOL)


# -- Keras spatial layers: asymmetric options under both data formats ----------------------------------------
@pytest.fixture()
def keras(tf):
    tf.keras.backend.clear_session()
    return tf.keras


def _img(shape):
    return (np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) % 7 - 2.5) * np.float32(1.25)


def _cf(x):
    """NHWC (or NWC) -> channels first."""
    return np.moveaxis(x, -1, 1)


def _np_pool(x, pool, strides, op):
    """VALID pooling of NHWC x with NumPy."""
    n, h, w, c = x.shape
    oh, ow = (h - pool[0]) // strides[0] + 1, (w - pool[1]) // strides[1] + 1
    out = np.zeros((n, oh, ow, c), np.float64)
    for i in range(oh):
        for j in range(ow):
            win = x[:, i * strides[0]:i * strides[0] + pool[0], j * strides[1]:j * strides[1] + pool[1], :]
            out[:, i, j, :] = op(win, axis=(1, 2))
    return out


SPATIAL = {
    # name: (layer factory(keras, data_format), NHWC/NWC input shape, NumPy rule on the channels-last input)
    "zero_padding1d": (lambda k, df: k.layers.ZeroPadding1D((1, 3), data_format=df), (2, 3, 2),
                       lambda x: np.pad(x, [(0, 0), (1, 3), (0, 0)])),
    "zero_padding2d_int": (lambda k, df: k.layers.ZeroPadding2D(2, data_format=df), (2, 3, 4, 2),
                           lambda x: np.pad(x, [(0, 0), (2, 2), (2, 2), (0, 0)])),
    "zero_padding2d_pair": (lambda k, df: k.layers.ZeroPadding2D((1, 3), data_format=df), (2, 3, 4, 2),
                            lambda x: np.pad(x, [(0, 0), (1, 1), (3, 3), (0, 0)])),
    "zero_padding2d_pairs": (lambda k, df: k.layers.ZeroPadding2D(((0, 2), (3, 1)), data_format=df), (2, 3, 4, 2),
                             lambda x: np.pad(x, [(0, 0), (0, 2), (3, 1), (0, 0)])),
    "upsampling2d": (lambda k, df: k.layers.UpSampling2D((2, 3), data_format=df), (1, 2, 3, 2),
                     lambda x: np.repeat(np.repeat(x, 2, axis=1), 3, axis=2)),
    "max_pooling2d": (lambda k, df: k.layers.MaxPooling2D((2, 3), strides=(1, 2), data_format=df), (2, 4, 7, 2),
                      lambda x: _np_pool(x, (2, 3), (1, 2), np.max)),
    "average_pooling2d": (lambda k, df: k.layers.AveragePooling2D((3, 2), data_format=df), (1, 6, 5, 3),
                          lambda x: _np_pool(x, (3, 2), (3, 2), np.mean)),
    "global_average_pooling2d": (lambda k, df: k.layers.GlobalAveragePooling2D(data_format=df), (2, 3, 4, 5),
                                 lambda x: x.mean(axis=(1, 2))),
    "global_average_pooling2d_keepdims": (lambda k, df: k.layers.GlobalAveragePooling2D(df, keepdims=True),
                                          (2, 3, 4, 5), lambda x: x.mean(axis=(1, 2), keepdims=True)),
    "global_max_pooling2d": (lambda k, df: k.layers.GlobalMaxPooling2D(data_format=df), (2, 3, 4, 5),
                             lambda x: x.max(axis=(1, 2))),
    "global_max_pooling2d_keepdims": (lambda k, df: k.layers.GlobalMaxPooling2D(df, keepdims=True), (2, 3, 4, 5),
                                      lambda x: x.max(axis=(1, 2), keepdims=True)),
}


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize("name", list(SPATIAL))
def test_blind6_spatial_layers_apply_each_axis_its_own_option(tf, keras, name, data_format):
    """Padding, upsampling and pooling layers with different options per spatial axis (and non-square
    inputs), in both data formats: the channels-first result is the channels-last rule moved, never
    the rule applied to the wrong axes."""
    make, shape, rule = SPATIAL[name]
    x = _img(shape)
    want = rule(x.astype(np.float64))
    if data_format == "channels_first":
        x = _cf(x)
        if want.ndim == x.ndim:
            want = _cf(want)
    out = make(keras, data_format)(tf.constant(x))
    assert_close(out, want, call=f"{name}(data_format={data_format!r})(x{x.shape})",
                 what="the per-axis rule of the layer")
