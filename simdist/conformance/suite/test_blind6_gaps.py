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

import os
import tempfile
import zlib

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.repro import Program
from simdist.conformance.suite.test_gradients import check_central_differences
from simdist.conformance.tolerances import Tolerance
from simdist.conformance.suite.values import positive_inputs, signed_inputs

clause = pytest.mark.clause
#: float64 central differences with h = 1e-6: truncation and rounding errors stay below 1e-6.
NUMERIC_TOL = Tolerance(rtol=1e-5, atol=1e-6)


_pos, _any = positive_inputs, signed_inputs


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


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("name", list(NUMERIC))
def test_blind6_more_gradients_match_central_differences(backend, tf, name):
    """The tape's gradient of sum(R * f(x...)) (R a fixed non-uniform weighting) equals central differences
    of the backend's own forward pass, in float64, element by element of every input."""
    fn, makers = NUMERIC[name]
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    xs = [np.asarray(m(rng), dtype=np.float64) for m in makers]
    check_central_differences(tf, name, fn, xs, rng, NUMERIC_TOL)


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


# -- merges, masking, ReLU's options --------------------------------------------------------------------------
@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("n", [2, 3, 4])
def test_blind6_merge_layers_combine_every_input(tf, keras, n):
    """Add, Average and Concatenate of n inputs: the sum, the sum divided by n, the inputs joined."""
    xs = [_img((2, 3)) * (i + 1) - i for i in range(n)]
    ts = [tf.constant(x) for x in xs]
    s = np.sum(np.stack(xs).astype(np.float64), axis=0)
    assert_close(keras.layers.Add()(ts), s, call=f"Add()([{n} inputs])", what="their sum")
    assert_close(keras.layers.Average()(ts), s / n, call=f"Average()([{n} inputs])", what=f"their sum / {n}")
    assert_close(keras.layers.Concatenate(axis=0)(ts), np.concatenate(xs, axis=0),
                 call=f"Concatenate(axis=0)([{n} inputs])", what="the inputs joined along axis 0")


@clause("keras.mask.propagation", ref="tf221")
@pytest.mark.parametrize("mask_value", [0.0, 2.0])
def test_blind6_masking_masks_a_step_only_when_every_feature_equals_mask_value(tf, keras, mask_value):
    """Masking(mask_value): a time step is masked iff all its features equal mask_value (a step with
    only some equal is kept); masked steps are zeroed and a masked GlobalAveragePooling1D divides by
    the kept steps."""
    m = mask_value
    x = np.array([[[1.0, m, 3.0], [m, m, m], [m, 5.0, m], [2.0, 2.5, -1.0]],
                  [[m, m, m], [m, -4.0, m], [0.5, 0.5, 0.5], [m, m, m]]], dtype=np.float32)
    keep = ~np.all(x == m, axis=-1)
    inp = keras.Input((4, 3))
    masked = keras.layers.Masking(mask_value=m)(inp)
    model = keras.Model(inp, [masked, keras.layers.GlobalAveragePooling1D()(masked)])
    out, pooled = model(tf.constant(x))
    want = x * keep[..., None]
    assert_close(out, want, call=f"Masking(mask_value={m})(x)", what="x with fully masked steps zeroed")
    assert_close(pooled, want.sum(axis=1) / keep.sum(axis=1, keepdims=True),
                 call=f"GlobalAveragePooling1D()(Masking(mask_value={m})(x))", what="the mean over the kept steps")


def _np_relu(x, negative_slope, max_value, threshold):
    """Keras 3.15's ReLU.static_call transcribed: kept above threshold (clipped at max_value), and
    -negative_slope * relu(threshold - x) added."""
    y = np.where(x > threshold, x, 0.0) if threshold != 0 else np.maximum(x, 0.0)
    if max_value is not None:
        y = np.clip(y, 0.0, max_value)
    return y - negative_slope * np.maximum(threshold - x, 0.0)


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("negative_slope,max_value,threshold", [
    (0.0, None, 0.5), (0.0, 2.0, 0.0), (0.0, 6.0, 0.0), (0.2, None, 0.0), (0.2, None, 0.5), (0.3, 1.5, 0.5),
    (0.1, 6.0, 0.0), (0.0, 1.0, 0.75)])
def test_blind6_relu_layer_combines_negative_slope_max_value_and_threshold(tf, keras, negative_slope, max_value,
                                                                             threshold):
    x = np.array([-3.0, -1.0, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0, 1.75, 4.0, 7.5], dtype=np.float32)
    want = _np_relu(x.astype(np.float64), negative_slope, max_value, threshold)
    layer = keras.layers.ReLU(max_value=max_value, negative_slope=negative_slope, threshold=threshold)
    assert_close(layer(tf.constant(x)), want,
                 call=f"ReLU(max_value={max_value}, negative_slope={negative_slope}, threshold={threshold})(x)",
                 what="Keras's ReLU rule")
    fn = keras.activations.relu(tf.constant(x), negative_slope=negative_slope, max_value=max_value,
                                threshold=threshold)
    assert_close(fn, want, call="keras.activations.relu(x, ...)", what="the same rule as the layer")


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("zero_output_for_mask", [False, True])
@pytest.mark.parametrize("go_backwards", [False, True])
def test_blind6_masked_rnn_steps_repeat_or_zero_the_output(tf, keras, zero_output_for_mask, go_backwards):
    """RNN(SimpleRNNCell, return_sequences=True) with a mask: a masked step keeps the state; its output
    is the previous output (zeros before any kept step), or zeros with zero_output_for_mask=True."""
    x = (np.arange(2 * 5 * 3, dtype=np.float32).reshape(2, 5, 3) % 5 - 2.0) * np.float32(0.3)
    mask = np.array([[True, False, True, False, True], [False, True, True, False, False]])
    k = np.array([[0.5, -0.25], [0.125, 0.75], [-0.5, 0.25]], np.float32)
    u = np.array([[0.25, -0.5], [0.5, 0.125]], np.float32)
    b = np.array([0.1, -0.2], np.float32)
    layer = keras.layers.RNN(keras.layers.SimpleRNNCell(2), return_sequences=True, return_state=True,
                             go_backwards=go_backwards, zero_output_for_mask=zero_output_for_mask)
    layer(tf.constant(x), mask=tf.constant(mask))
    layer.set_weights([k, u, b])
    seq, state = layer(tf.constant(x), mask=tf.constant(mask))
    steps = range(4, -1, -1) if go_backwards else range(5)
    h = np.zeros((2, 2))
    prev = np.zeros((2, 2))
    outs = []
    for t in steps:
        new = np.tanh(x[:, t].astype(np.float64) @ k + h @ u + b)
        m = mask[:, t][:, None]
        h = np.where(m, new, h)
        out = np.where(m, new, 0.0 if zero_output_for_mask else prev)
        prev = out
        outs.append(out)
    call = (f"RNN(SimpleRNNCell(2), return_sequences=True, go_backwards={go_backwards}, "
            f"zero_output_for_mask={zero_output_for_mask})(x, mask=m)")
    assert_close(seq, np.stack(outs, axis=1), call=call, what="outputs per step (in the order read)",
                 tolerance=Tolerance(rtol=1e-5, atol=1e-6))
    assert_close(state, h, call=call, what="the final state (masked steps keep it)",
                 tolerance=Tolerance(rtol=1e-5, atol=1e-6))


@clause("keras.init.seeding", ref="tf221")
def test_blind6_a_seed_generator_advances_per_draw(tf, keras):
    """keras.random.SeedGenerator(seed): state [seed, 0], each draw uses the state then adds [0, 1], so
    successive draws differ and a Dropout layer draws a new mask each training call."""
    gen = keras.random.SeedGenerator(7)
    assert_close(np.asarray(gen.state), np.array([7, 0]), call="SeedGenerator(7).state", what="[seed, 0]")
    a = np.asarray(keras.random.uniform((64,), seed=gen))
    b = np.asarray(keras.random.uniform((64,), seed=gen))
    assert_close(np.asarray(gen.state), np.array([7, 2]), call="SeedGenerator(7) after two draws",
                 what="state [seed, 2]")
    assert not np.array_equal(a, b), f"two draws from one SeedGenerator gave the same values {a[:4]}..."
    drop = keras.layers.Dropout(0.5, seed=3)
    ones = tf.ones((4, 64))
    m1, m2 = (np.asarray(drop(ones, training=True)) != 0 for _ in range(2))
    assert not np.array_equal(m1, m2), "Dropout(0.5, seed=3) drew the same mask in two training calls"


# -- losses' and metrics' options ------------------------------------------------------------------------------
def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def _log_softmax(z, axis):
    m = z.max(axis=axis, keepdims=True)
    return z - m - np.log(np.exp(z - m).sum(axis=axis, keepdims=True))


@clause("keras.loss.option-coverage", ref="tf221")
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_blind6_crossentropies_reduce_over_their_axis(tf, keras, axis):
    """binary_crossentropy(axis=k) averages the elementwise losses over axis k; categorical_crossentropy
    (axis=k), from logits or probabilities, normalises and sums over axis k."""
    y = np.array([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]], np.float32)
    z = np.array([[0.5, -1.25, 2.0], [-0.75, 0.25, 1.5]], np.float32)
    p = _sigmoid(z.astype(np.float64))
    eps = 1e-7
    pc = np.clip(p, eps, 1 - eps)
    bce = -(y * np.log(pc) + (1 - y) * np.log(1 - pc))
    got = keras.losses.binary_crossentropy(tf.constant(y), tf.constant(p.astype(np.float32)), axis=axis)
    assert_close(got, bce.mean(axis=axis), call=f"keras.losses.binary_crossentropy(y, p, axis={axis})",
                 what=f"the mean over axis {axis}", tolerance=Tolerance(rtol=1e-5, atol=1e-6))
    got = keras.losses.binary_crossentropy(tf.constant(y), tf.constant(z), from_logits=True, axis=axis)
    want = (np.maximum(z, 0) - z * y + np.log1p(np.exp(-np.abs(z)))).mean(axis=axis)
    assert_close(got, want, call=f"binary_crossentropy(y, logits, from_logits=True, axis={axis})",
                 what=f"the mean over axis {axis}", tolerance=Tolerance(rtol=1e-5, atol=1e-6))
    soft = np.array([[0.2, 0.5, 0.3], [0.6, 0.1, 0.3]], np.float32)
    soft = soft / soft.sum(axis=axis, keepdims=True)
    want = -(soft * _log_softmax(z.astype(np.float64), axis)).sum(axis=axis)
    got = keras.losses.categorical_crossentropy(tf.constant(soft), tf.constant(z), from_logits=True, axis=axis)
    assert_close(got, want, call=f"keras.losses.categorical_crossentropy(y, logits, from_logits=True, axis={axis})",
                 what=f"the softmax cross-entropy over axis {axis}", tolerance=Tolerance(rtol=1e-5, atol=1e-6))
    probs = np.exp(_log_softmax(z.astype(np.float64), axis))
    got = keras.losses.categorical_crossentropy(tf.constant(soft), tf.constant(probs.astype(np.float32)), axis=axis)
    assert_close(got, want, call=f"keras.losses.categorical_crossentropy(y, probs, axis={axis})",
                 what=f"the cross-entropy over axis {axis}", tolerance=Tolerance(rtol=1e-5, atol=1e-6))
    loss = keras.losses.CategoricalCrossentropy(from_logits=True, axis=axis, reduction="sum")
    assert_close(loss(tf.constant(soft), tf.constant(z)), want.sum(), call=f"CategoricalCrossentropy("
                 f"from_logits=True, axis={axis}, reduction='sum')", what="the summed cross-entropies",
                 tolerance=Tolerance(rtol=1e-5, atol=1e-6))


@clause("keras.metric.hinge-correlation", ref="tf221")
def test_blind6_hinge_metrics_follow_their_formulas(tf, keras):
    """Hinge/SquaredHinge (0/1 labels mapped to -1/1) and CategoricalHinge: max(max over the other
    classes of y_pred - y_pred[target] + 1, 0), the target's own score excluded from the maximum."""
    yt = np.array([[0, 1, 0], [1, 0, 0], [0, 0, 1]], np.float32)
    yp = np.array([[0.3, 1.9, 0.2], [0.8, 0.5, 0.9], [0.4, 0.1, 0.2]], np.float32)
    pos = (yt * yp).sum(-1)
    neg = ((1 - yt) * yp).max(-1)
    want = np.maximum(neg - pos + 1.0, 0.0).mean()
    m = keras.metrics.CategoricalHinge()
    m.update_state(tf.constant(yt), tf.constant(yp))
    assert_close(m.result(), want, call="CategoricalHinge().update_state(y_true, y_pred)",
                 what="mean of max(max_{j != t} p_j - p_t + 1, 0)")
    yb = np.array([[0, 1], [1, 1], [0, 0]], np.float32)
    zb = np.array([[0.3, 1.9], [-0.8, 0.5], [0.4, -2.0]], np.float32)
    s = 2 * yb - 1
    for cls, f in ((keras.metrics.Hinge, lambda v: v), (keras.metrics.SquaredHinge, np.square)):
        m = cls()
        m.update_state(tf.constant(yb), tf.constant(zb))
        assert_close(m.result(), f(np.maximum(1 - s * zb, 0)).mean(axis=-1).mean(),
                     call=f"{cls.__name__}().update_state(y01, y_pred)", what="the hinge rule with labels -1/1")


@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("label_smoothing", [0.0, 0.2])
def test_blind6_crossentropy_metrics_apply_label_smoothing(tf, keras, label_smoothing):
    """The BinaryCrossentropy and CategoricalCrossentropy metrics pass label_smoothing to their loss:
    binary targets move towards 0.5, categorical ones towards 1/num_classes."""
    ls = label_smoothing
    yt = np.array([[1.0, 0.0, 1.0], [0.0, 0.0, 1.0]], np.float32)
    yp = np.array([[0.9, 0.2, 0.6], [0.3, 0.1, 0.7]], np.float32)
    t = yt * (1 - ls) + 0.5 * ls
    p = np.clip(yp.astype(np.float64), 1e-7, 1 - 1e-7)
    want = (-(t * np.log(p) + (1 - t) * np.log(1 - p))).mean(axis=-1).mean()
    m = keras.metrics.BinaryCrossentropy(label_smoothing=ls)
    m.update_state(tf.constant(yt), tf.constant(yp))
    assert_close(m.result(), want, call=f"metrics.BinaryCrossentropy(label_smoothing={ls})",
                 what="mean BCE against smoothed targets", tolerance=Tolerance(rtol=1e-5, atol=1e-6))
    yc = np.array([[0, 1, 0], [1, 0, 0]], np.float32)
    pc = yp / yp.sum(axis=-1, keepdims=True)
    tc = yc * (1 - ls) + ls / 3
    want = (-(tc * np.log(np.clip(pc.astype(np.float64), 1e-7, 1 - 1e-7))).sum(-1)).mean()
    m = keras.metrics.CategoricalCrossentropy(label_smoothing=ls)
    m.update_state(tf.constant(yc), tf.constant(pc))
    assert_close(m.result(), want, call=f"metrics.CategoricalCrossentropy(label_smoothing={ls})",
                 what="mean CCE against smoothed targets", tolerance=Tolerance(rtol=1e-5, atol=1e-6))


@clause("keras.metric.iou", ref="tf221")
def test_blind6_iou_averages_over_the_classes_present(tf, keras):
    """IoU/MeanIoU: the mean of tp / (tp + fp + fn) over the target classes whose denominator is
    not 0: a class absent from both y_true and y_pred does not count as IoU 0."""
    yt = np.array([0, 0, 1, 1, 3, 3, 0])
    yp = np.array([0, 1, 1, 1, 3, 0, 0])
    cm = np.zeros((4, 4))
    for a, b in zip(yt, yp):
        cm[a, b] += 1
    tp = np.diag(cm)
    den = cm.sum(0) + cm.sum(1) - tp
    iou = np.where(den > 0, tp / np.where(den > 0, den, 1), 0.0)
    m = keras.metrics.MeanIoU(num_classes=4)
    m.update_state(tf.constant(yt), tf.constant(yp))
    assert_close(m.result(), iou[den > 0].mean(), call="MeanIoU(num_classes=4) with class 2 absent",
                 what="the mean IoU over classes 0, 1, 3", tolerance=Tolerance(rtol=1e-5, atol=1e-6))
    m = keras.metrics.IoU(num_classes=4, target_class_ids=[1, 2])
    m.update_state(tf.constant(yt), tf.constant(yp))
    assert_close(m.result(), iou[1], call="IoU(num_classes=4, target_class_ids=[1, 2]) with class 2 absent",
                 what="class 1's IoU alone", tolerance=Tolerance(rtol=1e-5, atol=1e-6))


@clause("keras.metric.auc", ref="tf221")
@pytest.mark.parametrize("curve", ["ROC", "PR"])
def test_blind6_multi_label_auc_weights_labels_by_normalised_weights(tf, keras, curve):
    """AUC(multi_label=True, label_weights=w) is sum(w_i * AUC_i) / sum(w): each label's AUC (checked
    against a single-label AUC of that column) weighted by its normalised weight."""
    yt = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 0], [1, 0, 1]], np.float32)
    yp = np.array([[0.9, 0.3, 0.6], [0.2, 0.7, 0.8], [0.6, 0.4, 0.3], [0.1, 0.6, 0.2], [0.7, 0.1, 0.9]],
                  np.float32)
    w = np.array([0.5, 2.0, 1.5], np.float32)
    per = []
    for j in range(3):
        m = keras.metrics.AUC(num_thresholds=50, curve=curve)
        m.update_state(tf.constant(yt[:, j]), tf.constant(yp[:, j]))
        per.append(float(np.asarray(m.result())))
    per = np.array(per)
    m = keras.metrics.AUC(num_thresholds=50, curve=curve, multi_label=True, num_labels=3, label_weights=w)
    m.update_state(tf.constant(yt), tf.constant(yp))
    assert_close(m.result(), (w * per).sum() / w.sum(), call=f"AUC(curve={curve!r}, multi_label=True, "
                 "label_weights=[0.5, 2, 1.5])", what="sum(w * per-label AUC) / sum(w)",
                 tolerance=Tolerance(rtol=1e-5, atol=1e-6))


# -- optimizers: defaults and gradients of variables the loss does not use under a strategy ------------------
OPTIMIZER_DEFAULTS = {
    "SGD": {"learning_rate": 0.01, "momentum": 0.0, "nesterov": False},
    "Adam": {"learning_rate": 0.001, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-7, "amsgrad": False},
    "AdamW": {"learning_rate": 0.001, "weight_decay": 0.004, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-7,
              "amsgrad": False},
    "RMSprop": {"learning_rate": 0.001, "rho": 0.9, "momentum": 0.0, "epsilon": 1e-7, "centered": False},
    "Adagrad": {"learning_rate": 0.001, "initial_accumulator_value": 0.1, "epsilon": 1e-7},
}
COMMON_DEFAULTS = {"weight_decay": None, "clipnorm": None, "global_clipnorm": None, "clipvalue": None,
                   "use_ema": False, "ema_momentum": 0.99, "ema_overwrite_frequency": None,
                   "loss_scale_factor": None, "gradient_accumulation_steps": None}


@clause("optim.option-coverage", ref="tf221")
@pytest.mark.parametrize("name", list(OPTIMIZER_DEFAULTS))
def test_blind6_optimizer_defaults_are_keras_defaults(tf, name):
    """Every optimizer built without arguments has Keras 3.15's defaults (its signature's), and its
    config says so."""
    config = getattr(tf.keras.optimizers, name)().get_config()
    want = {**COMMON_DEFAULTS, **OPTIMIZER_DEFAULTS[name]}
    got = {k: config.get(k, "<missing>") for k in want}

    def same(g, w):
        if w is None or isinstance(w, bool):
            return g is w or (isinstance(w, bool) and g == w and isinstance(g, (bool, np.bool_)))
        return isinstance(g, (int, float, np.floating)) and np.isclose(float(g), w, rtol=1e-6)
    wrong = {k: got[k] for k in want if not same(got[k], want[k])}
    assert not wrong, f"{name}().get_config() has {wrong}, but should have {({k: want[k] for k in wrong})}"


_NONE_GRADIENT_STEP = """
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    a = tf.Variable([1.0, 2.0])
    b = tf.Variable([3.0, -1.0])
    c = tf.Variable([0.5, -0.25])
    opt = tf.keras.optimizers.SGD(0.1)
    opt.build([a, b, c])

def step():
    r = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group + 1, tf.float32)
    with tf.GradientTape() as tape:
        loss = r * tf.reduce_sum(b * tf.constant([1.0, 2.0])) + r * tf.reduce_sum(c * c)
    grads = tape.gradient(loss, [a, b, c])
    opt.apply_gradients(zip(grads, [a, b, c]))

strategy.run(step)
values = [v.numpy() for v in (a, b, c)]
"""


@clause("optim.mirrored-sum", ref="tf221")
def test_blind6_a_variable_without_gradient_leaves_the_others_theirs(backend):
    """apply_gradients under MirroredStrategy(2) with a None gradient first: the others get their own
    gradients summed over the replicas (replica r scales the loss by r + 1), the unused variable stays."""
    ns = Program(backend, _NONE_GRADIENT_STEP).run()
    want = [np.array([1.0, 2.0]), np.array([3.0, -1.0]) - 0.1 * 3 * np.array([1.0, 2.0]),
            np.array([0.5, -0.25]) - 0.1 * 3 * 2 * np.array([0.5, -0.25])]
    call = "MirroredStrategy(2).run(apply_gradients([(None, a), (g_b, b), (g_c, c)]))"
    for name, got, w in zip("abc", ns["values"], want):
        assert_close(got, w, call=call, what=f"variable {name} after the step")


# -- fit / evaluate / predict / train_on_batch details ---------------------------------------------------------
@clause("keras.callback.csv-logger", ref="tf221")
@pytest.mark.parametrize("separator,append", [(";", False), ("\t", True)])
def test_blind6_csv_logger_writes_its_separator(keras, tf, separator, append):
    """CSVLogger(filename, separator, append): a header 'epoch<sep>loss<sep>...' (val_ columns added
    when fit has no validation, filled with NA) and one row per epoch, fields joined by `separator`;
    append=True adds rows to an existing file without a second header."""
    x = np.linspace(-1, 1, 8, dtype=np.float32).reshape(8, 1)
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "log.csv")
        model.fit(x, 2 * x, batch_size=4, epochs=2, verbose=0, callbacks=[keras.callbacks.CSVLogger(path, separator)])
        if append:
            model.fit(x, 2 * x, batch_size=4, epochs=1, verbose=0,
                      callbacks=[keras.callbacks.CSVLogger(path, separator, append=True)])
        with open(path) as f:
            lines = f.read().splitlines()
    call = f"fit(..., callbacks=[CSVLogger(path, separator={separator!r}, append={append})])"
    assert_equal(lines[0].split(separator), ["epoch", "loss", "mae", "val_loss", "val_mae"], call=call,
                 what="the header's fields (val_ columns added when fit has no validation)")
    assert_equal([ln.split(separator)[0] for ln in lines[1:]], ["0", "1"] + (["0"] if append else []), call=call,
                 what="the rows' epoch fields")
    assert_equal([ln.split(separator)[3:] for ln in lines[1:]], [["NA", "NA"]] * (len(lines) - 1), call=call,
                 what="the rows' val_ fields")


class _Recorder:
    """A callback factory: records (hook, index, kernel, sorted log keys) for every hook fit calls."""

    @staticmethod
    def make(keras, events):
        class Rec(keras.callbacks.Callback):
            def _note(self, hook, i=None, logs=None):
                events.append((hook, i, float(np.asarray(self.model.get_weights()[0]).ravel()[0]),
                               tuple(sorted(logs or {}))))

        for hook in ("on_train_begin", "on_train_end", "on_test_begin", "on_test_end"):
            setattr(Rec, hook, lambda self, logs=None, _h=hook: self._note(_h, None, logs))
        for hook in ("on_epoch_begin", "on_epoch_end", "on_train_batch_begin", "on_train_batch_end",
                     "on_test_batch_begin", "on_test_batch_end"):
            setattr(Rec, hook, lambda self, i, logs=None, _h=hook: self._note(_h, i, logs))
        return Rec()


@clause("keras.fit.callback-hooks", ref="tf221")
def test_blind6_fit_calls_each_hook_at_its_moment(tf, keras):
    """fit(epochs=2, 2 batches, validation_data): the hooks in Keras 3.15's order; a batch-begin hook
    sees the weights before that batch's step (the previous batch-end's), a batch-end hook after it;
    validation runs (test hooks) after the epoch's last batch and before on_epoch_end, whose logs
    hold the val_ entries."""
    x = np.linspace(-1, 1, 8, dtype=np.float32).reshape(8, 1)
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    events = []
    model.fit(x, 3 * x, batch_size=4, epochs=2, shuffle=False, verbose=0, validation_data=(x[:4], 3 * x[:4]),
              callbacks=[_Recorder.make(keras, events)])
    hooks = [(h, i) for h, i, _, _ in events]
    epoch = [("on_train_batch_begin", 0), ("on_train_batch_end", 0), ("on_train_batch_begin", 1),
             ("on_train_batch_end", 1), ("on_test_begin", None), ("on_test_batch_begin", 0),
             ("on_test_batch_end", 0), ("on_test_end", None)]
    want = ([("on_train_begin", None), ("on_epoch_begin", 0)] + epoch + [("on_epoch_end", 0), ("on_epoch_begin", 1)]
            + epoch + [("on_epoch_end", 1), ("on_train_end", None)])
    call = "fit(x[8], batch_size=4, epochs=2, validation_data=(4 samples)) with a recording callback"
    assert_equal(hooks, want, call=call, what="the hooks in order")
    w = [k for _, _, k, _ in events]
    begins = [w[j] for j, (h, _) in enumerate(hooks) if h == "on_train_batch_begin"]
    ends = [w[j] for j, (h, _) in enumerate(hooks) if h == "on_train_batch_end"]
    assert_close(np.array(begins), np.array([1.0] + ends[:-1]), call=call,
                 what="kernel at each batch begin (the initial one, then the previous batch end's)")
    assert_true(all(b != e for b, e in zip(begins, ends)), f"kernel at batch begins {begins} and ends {ends}: "
                "every step should change it", call=call)
    epoch_end_keys = [k for h, _, _, k in events if h == "on_epoch_end"]
    assert_equal(epoch_end_keys, [("loss", "val_loss")] * 2, call=call, what="on_epoch_end's log keys")


def _np_sgd_mse(w, b, x, y, sw, lr):
    """One SGD step of Dense(1) on mse with sample weights (sum_over_batch_size: divided by the batch)."""
    e = w * x + b - y
    n = len(x)
    gw = np.sum(sw * 2 * e * x) / n
    gb = np.sum(sw * 2 * e) / n
    return w - lr * gw, b - lr * gb


@clause("keras.fit.data", ref="tf221")
def test_blind6_train_on_batch_applies_class_weight(tf, keras):
    """train_on_batch(x, y, class_weight={c: w}) weights each sample by its class's weight, as fit does."""
    x = np.array([[0.5], [-1.0], [2.0], [1.5]], np.float32)
    y = np.array([[0.0], [1.0], [1.0], [0.0]], np.float32)
    cw = {0: 0.5, 1: 3.0}
    sw = np.array([cw[int(v)] for v in y[:, 0]])
    lr = 0.1
    for how in ("train_on_batch", "fit"):
        model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, kernel_initializer="ones")])
        model.compile(optimizer=keras.optimizers.SGD(lr), loss="mse")
        if how == "fit":
            model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0, class_weight=cw)
        else:
            model.train_on_batch(x, y, class_weight=cw)
        w, b = _np_sgd_mse(1.0, 0.0, x[:, 0].astype(np.float64), y[:, 0].astype(np.float64), sw, lr)
        got = np.array([np.asarray(v).ravel()[0] for v in model.get_weights()])
        assert_close(got, np.array([w, b]), call=f"{how}(x, y, class_weight={cw}) with SGD({lr}), mse",
                     what="[kernel, bias] after the weighted step")


@clause("keras.fit.evaluate-inference", ref="tf221")
def test_blind6_every_inference_entry_point_runs_in_inference_mode(tf, keras):
    """predict, predict_on_batch, test_on_batch, evaluate and a plain call run Dropout as the identity
    and BatchNormalization on (and without updating) its moving statistics."""
    rng = np.random.default_rng(61)
    x = rng.uniform(-1, 1, size=(8, 3)).astype(np.float32)
    w0 = np.array([[0.5, -1.0], [2.0, 0.25], [-0.75, 1.5]], np.float32)
    mean, var = np.array([0.2, -0.1], np.float32), np.array([1.5, 0.5], np.float32)
    gamma, beta = np.array([1.0, 2.0], np.float32), np.array([0.1, -0.2], np.float32)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, use_bias=False), keras.layers.Dropout(0.5),
                              keras.layers.BatchNormalization(momentum=0.5)])
    model.set_weights([w0, gamma, beta, mean, var])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    want = (x.astype(np.float64) @ w0 - mean) / np.sqrt(var + 1e-3) * gamma + beta
    tol = Tolerance(rtol=1e-5, atol=1e-6)
    for how, got in (("predict", lambda: model.predict(x, batch_size=4, verbose=0)),
                     ("predict_on_batch", lambda: model.predict_on_batch(x)),
                     ("model(x)", lambda: model(tf.constant(x)))):
        assert_close(np.asarray(got()), want, call=f"{how} of Dense -> Dropout(0.5) -> BatchNormalization",
                     what="inference-mode outputs", tolerance=tol)
    y = np.zeros((8, 2), np.float32)
    mse = float(np.mean(want ** 2))
    assert_close(np.float64(model.test_on_batch(x, y)), mse, call="test_on_batch(x, 0)", what="inference-mode mse",
                 tolerance=tol)
    assert_close(np.float64(model.evaluate(x, y, batch_size=8, verbose=0)), mse, call="evaluate(x, 0)",
                 what="inference-mode mse", tolerance=tol)
    assert_close(np.asarray(model.get_weights()[3]), mean, call="the moving mean after predict/evaluate",
                 what="unchanged")
    assert_close(np.asarray(model.get_weights()[4]), var, call="the moving variance after predict/evaluate",
                 what="unchanged")


@clause("keras.metric.accuracy-resolution", ref="tf221")
@pytest.mark.parametrize("targets", ["sparse_rank1", "sparse_column", "one_hot", "binary"])
def test_blind6_accuracy_string_resolves_by_the_shapes(tf, keras, targets):
    """compile(metrics=["accuracy"]) on an identity model: integer targets of shape (n,) or (n, 1)
    against (n, 3) outputs give sparse categorical accuracy, one-hot (n, 3) targets categorical
    accuracy, (n, 1) outputs binary accuracy (threshold 0.5)."""
    p3 = np.array([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2], [0.2, 0.2, 0.6], [0.3, 0.4, 0.3]], np.float32)
    labels = np.array([1, 2, 2, 0])
    if targets == "binary":
        x = np.array([[0.7], [0.2], [0.5], [0.9]], np.float32)
        y = np.array([[1.0], [1.0], [0.0], [1.0]], np.float32)
        want, loss = np.mean((x[:, 0] > 0.5) == (y[:, 0] == 1)), "binary_crossentropy"
    else:
        x = p3
        want = np.mean(np.argmax(p3, axis=1) == labels)
        y, loss = {"sparse_rank1": (labels, "sparse_categorical_crossentropy"),
                   "sparse_column": (labels[:, None], "sparse_categorical_crossentropy"),
                   "one_hot": (np.eye(3, dtype=np.float32)[labels], "categorical_crossentropy")}[targets]
    model = keras.Sequential([keras.Input(x.shape[1:]), keras.layers.Activation("linear")])
    model.compile(loss=loss, metrics=["accuracy"])
    got = model.evaluate(x, y, batch_size=4, verbose=0, return_dict=True)["accuracy"]
    assert_close(np.float64(got), np.float64(want), call=f"evaluate with metrics=['accuracy'], y{np.shape(y)}, "
                 f"y_pred{x.shape}", what="the accuracy the shapes select")


_LOSS_WEIGHTS = """
import os
inp = tf.keras.Input((2,))
o1 = tf.keras.layers.Dense(1, name="o1", use_bias=False)(inp)
o2 = tf.keras.layers.Dense(2, name="o2", use_bias=False)(inp)
model = tf.keras.Model(inp, [o1, o2])
model.set_weights([k1, k2])
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss=["mse", "mae"], loss_weights=[0.5, 2.0])
before = model.evaluate(x, [y1, y2], batch_size=4, verbose=0, return_dict=True)
path = os.path.join(tmp, "m.keras")
model.save(path)
loaded = tf.keras.models.load_model(path)
after = loaded.evaluate(x, [y1, y2], batch_size=4, verbose=0, return_dict=True)
"""


@clause("keras.compile.loss-weights", ref="tf221")
def test_blind6_loss_weights_weigh_the_total_not_the_outputs_loss_metrics(backend):
    """compile(loss=[mse, mae], loss_weights=[0.5, 2]) on a two-output model: `loss` is 0.5 mse + 2 mae,
    while `o1_loss`/`o2_loss` report each output's unweighted loss; a `.keras` file keeps the weights
    (load_model's evaluate gives the same dict)."""
    rng = np.random.default_rng(62)
    x = rng.uniform(-1, 1, size=(8, 2)).astype(np.float32)
    y1 = rng.uniform(-1, 1, size=(8, 1)).astype(np.float32)
    y2 = rng.uniform(-1, 1, size=(8, 2)).astype(np.float32)
    k1 = np.array([[0.5], [-1.0]], np.float32)
    k2 = np.array([[1.5, -0.5], [0.25, 2.0]], np.float32)
    with tempfile.TemporaryDirectory() as tmp:
        ns = Program(backend, _LOSS_WEIGHTS, x=x, y1=y1, y2=y2, k1=k1, k2=k2, tmp=tmp).run()
    x64 = x.astype(np.float64)
    mse = np.mean((x64 @ k1 - y1) ** 2)
    mae = np.mean(np.abs(x64 @ k2 - y2))
    want = {"loss": 0.5 * mse + 2.0 * mae, "o1_loss": mse, "o2_loss": mae}
    tol = Tolerance(rtol=1e-5, atol=1e-6)
    for when in ("before", "after"):
        got = ns[when]
        call = ("evaluate of Model(x, [o1, o2]) compiled with loss=['mse', 'mae'], loss_weights=[0.5, 2.0]"
                + (" after save/load_model" if when == "after" else ""))
        assert_equal(sorted(got), sorted(want), call=call, what="the logged names")
        for k, w in want.items():
            assert_close(np.float64(got[k]), w, call=call, what=k, tolerance=tol)


_AUTOCAST = """
tf.keras.mixed_precision.set_global_policy("mixed_float16")
try:
    class Probe(tf.keras.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(shape=(2,), initializer="ones")

        def call(self, x):
            return tf.convert_to_tensor(self.w)

    class Outer(tf.keras.layers.Layer):
        def __init__(self, inner_autocast, **kwargs):
            super().__init__(**kwargs)
            self.probe = Probe(autocast=inner_autocast)

        def call(self, x):
            return self.probe(x), tf.convert_to_tensor(self.probe.w)

    seen = {}
    for autocast in (True, False):
        nested, own = Outer(autocast)(np.ones((1, 3), np.float32))
        alone = Probe(autocast=autocast)(np.ones((1, 3), np.float32))
        seen[autocast] = (nested.dtype.name, own.dtype.name, alone.dtype.name)
finally:
    tf.keras.mixed_precision.set_global_policy("float32")
"""


@clause("keras.mixed-precision.policy", ref="tf221")
def test_blind6_a_layer_with_autocast_false_reads_its_variables_unchanged(backend):
    """Under mixed_float16 a layer's float32 variables read as float16 inside its call; a nested layer
    made with autocast=False clears its parent's autocast scope (its variable reads float32), while
    the parent still reads it as float16, and a top-level layer opens the scope whatever its own
    autocast (Keras 3.15's Layer.__call__)."""
    ns = Program(backend, _AUTOCAST).run()
    want = {True: ("float16", "float16", "float16"), False: ("float32", "float16", "float16")}
    assert_equal(ns["seen"], want, call="mixed_float16: Outer(Probe(autocast=a)) and Probe(autocast=a) alone",
                 what="{autocast: (nested read, the parent's read, a top-level layer's read)}")
