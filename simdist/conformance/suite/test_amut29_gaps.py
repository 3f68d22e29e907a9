"""Gaps the sixth mechanical mutation sweep found (benchmarks/auto_mutants.py, seed 6, over the training-layer files
seeds 1-5 never sampled: Keras's preprocessing and lookup layers, keras.ops' image/einops/linalg modules, the trainers'
adapters, forward-mode autodiff, the gradient functions of op modules no seed sampled, the strategies' multi-worker
modules; twenty-ninth session): behaviours the suite executed but no test looked at (docs/conformance.md,
"Twenty-ninth session: automatic sweep, seed 6 (amut29)"; TF 2.21 + Keras 3.15).

Each test closes the class of behaviour a surviving mutant showed unchecked, not the one mutant. Expected values
are NumPy transcriptions of the rules computed here, central differences, relations between two spellings of one
computation, or observations of TF 2.21 / Keras 3.15 named in each test.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises, to_numpy
from simdist.conformance.suite.test_coordinator import BUSY   # (the busy closure test_coordinator's fault tests run)
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause


# -- preprocessing layers: their count arguments at the boundary -------------------------------------------------------
#: (constructor text, the call, None if accepted else the start of Keras 3.15's ValueError): the smallest accepted value
#: and the largest refused one of each count argument (observed on TF 2.21).
_COUNT_BOUNDARIES = [
    ("Discretization(num_bins=0)", lambda L: L.Discretization(num_bins=0), None),
    ("Discretization(num_bins=-1)", lambda L: L.Discretization(num_bins=-1),
     "`num_bins` must be greater than or equal to 0. Received: `num_bins=-1`"),
    ("IntegerLookup(num_oov_indices=0)", lambda L: L.IntegerLookup(num_oov_indices=0, vocabulary=[3, 5]), None),
    ("IntegerLookup(num_oov_indices=-1)", lambda L: L.IntegerLookup(num_oov_indices=-1),
     "The value of `num_oov_indices` argument for `IntegerLookup` must >= 0. Received: num_oov_indices=-1"),
    ("StringLookup(num_oov_indices=0)", lambda L: L.StringLookup(num_oov_indices=0, vocabulary=["a"]), None),
    ("StringLookup(num_oov_indices=-1)", lambda L: L.StringLookup(num_oov_indices=-1),
     "`num_oov_indices` must be greater than or equal to 0. Received: num_oov_indices=-1"),
    ("Hashing(num_bins=1)", lambda L: L.Hashing(num_bins=1), None),
    ("Hashing(num_bins=0)", lambda L: L.Hashing(num_bins=0),
     "The `num_bins` for `Hashing` cannot be `None` or non-positive values. Received: num_bins=0."),
    ("CategoryEncoding(num_tokens=1)", lambda L: L.CategoryEncoding(num_tokens=1), None),
    ("CategoryEncoding(num_tokens=0)", lambda L: L.CategoryEncoding(num_tokens=0),
     "`num_tokens` must be >= 1. Received: num_tokens=0."),
    ("IntegerLookup(max_tokens=2)", lambda L: L.IntegerLookup(max_tokens=2), None),
    ("IntegerLookup(max_tokens=1)", lambda L: L.IntegerLookup(max_tokens=1),
     "If `max_tokens` is set for `IntegerLookup`, it must be greater than 1. Received: max_tokens=1"),
    ("StringLookup(max_tokens=2)", lambda L: L.StringLookup(max_tokens=2), None),
    ("StringLookup(max_tokens=1)", lambda L: L.StringLookup(max_tokens=1),
     "If set, `max_tokens` must be greater than 1. Received: max_tokens=1"),
    ("TextVectorization(max_tokens=2)", lambda L: L.TextVectorization(max_tokens=2), None),
    ("TextVectorization(max_tokens=1)", lambda L: L.TextVectorization(max_tokens=1),
     "If set, `max_tokens` must be greater than 1. Received: max_tokens=1"),
]


@clause("keras.layer.lookup", ref="tf221")
def test_amut29_preprocessing_count_arguments_at_their_boundaries(keras):
    """Each preprocessing layer's count argument at its boundary: Discretization's num_bins and the lookups'
    num_oov_indices accept 0 and refuse -1, Hashing's num_bins and CategoryEncoding's num_tokens accept 1 and refuse 0,
    the lookups' and TextVectorization's max_tokens accept 2 and refuse 1, each refusal a ValueError with Keras's
    message (observed on TF 2.21). With num_oov_indices=0 the lookup maps its vocabulary from index 0."""
    L = keras.layers
    for text, make, refusal in _COUNT_BOUNDARIES:
        if refusal is None:
            layer = make(L)
            assert_true(layer is not None, f"{text} returned None, but should build the layer", call=text)
            continue
        with raises(ValueError, match=re.escape(refusal), call=text):
            make(L)
    lookup = L.IntegerLookup(num_oov_indices=0, vocabulary=[3, 5])
    assert_equal(to_numpy(lookup(np.array([5, 3, 5]))).tolist(), [1, 0, 1],
                 call="IntegerLookup(num_oov_indices=0, vocabulary=[3, 5])([5, 3, 5])")


# -- global average pooling: integer and bool inputs are averaged in float32 ------------------------------------------
@clause("keras.layer.global-pooling-1d", ref="tf221")
@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8", "bool"])
def test_amut29_global_average_pooling_of_integer_inputs_is_float32(keras, tf, dtype):
    """GlobalAveragePooling1D (both data formats, keepdims), 2D and 3D on integer and bool inputs: the layer does not
    cast non-float inputs to its float32 compute dtype, and the mean is taken in float32, so the output is float32
    with the true (fractional) mean, not the input's integer dtype (observed on TF 2.21: every case float32).
    Expected: NumPy's mean in float64."""
    L = keras.layers
    cases = [("GlobalAveragePooling1D()", L.GlobalAveragePooling1D(), (2, 3, 4), (1,)),
             ("GlobalAveragePooling1D(channels_first)", L.GlobalAveragePooling1D(data_format="channels_first"),
              (2, 3, 4), (2,)),
             ("GlobalAveragePooling1D(keepdims=True)", L.GlobalAveragePooling1D(keepdims=True), (2, 3, 4), (1,)),
             ("GlobalAveragePooling2D()", L.GlobalAveragePooling2D(), (2, 3, 3, 2), (1, 2)),
             ("GlobalAveragePooling3D()", L.GlobalAveragePooling3D(), (2, 2, 2, 3, 2), (1, 2, 3))]
    for name, layer, shape, axes in cases:
        base = np.arange(int(np.prod(shape))).reshape(shape) % 3
        x = base.astype(bool) if dtype == "bool" else base.astype(dtype)
        keep = "keepdims=True" in name
        want = np.mean(x.astype(np.float64), axis=axes, keepdims=keep)
        out = layer(tf.constant(x))
        call = f"{name} on a {dtype} input of shape {shape}"
        assert_equal(np.dtype(to_numpy(out).dtype).name, "float32", call=call, what="out.dtype")
        assert_close(out, want, call=call, tolerance=Tolerance(rtol=1e-6, atol=1e-7))


# -- lookup layers: TF-IDF weights are a non-trainable variable ----------------------------------------------------------
@clause("keras.layer.lookup", ref="tf221")
def test_amut29_tf_idf_weights_are_not_trainable(keras):
    """StringLookup and IntegerLookup in output_mode="tf_idf" hold their idf_weights in a tf.Variable created with
    trainable=False whichever way the weights arrive (with a vocabulary, alone, or by set_vocabulary), and the layer
    lists no trainable weights; the output is the token counts times the idf weights, the OOV slot weighted by the
    mean idf (Keras's IndexLookup; observed on TF 2.21)."""
    L = keras.layers
    idf = [0.5, 0.25]
    for name, make, tokens in [
            ("StringLookup(tf_idf, vocabulary, idf_weights)",
             lambda: L.StringLookup(output_mode="tf_idf", vocabulary=["a", "b"], idf_weights=idf), ["a", "c"]),
            ("StringLookup(tf_idf, idf_weights only)",
             lambda: L.StringLookup(output_mode="tf_idf", idf_weights=idf), None),
            ("IntegerLookup(tf_idf, vocabulary, idf_weights)",
             lambda: L.IntegerLookup(output_mode="tf_idf", vocabulary=[7, 9], idf_weights=idf), [7, 4]),
            ("IntegerLookup(tf_idf, idf_weights only)",
             lambda: L.IntegerLookup(output_mode="tf_idf", idf_weights=idf), None)]:
        layer = make()
        assert_equal(bool(layer.idf_weights.trainable), False, call=name, what="layer.idf_weights.trainable")
        assert_equal(len(layer.trainable_weights), 0, call=name, what="len(layer.trainable_weights)")
        if tokens is None:
            vocab = ["a", "b"] if name.startswith("String") else [7, 9]
            layer.set_vocabulary(vocab, idf_weights=idf)
            assert_equal(bool(layer.idf_weights.trainable), False, call=name + " then set_vocabulary",
                         what="layer.idf_weights.trainable")
            tokens = [vocab[0], vocab[0]]
            want = [0.0, 2 * idf[0], 0.0]
        else:
            want = [float(np.mean(idf)), idf[0], 0.0]
        assert_close(layer(tokens), want, call=f"{name}({tokens})", tolerance=Tolerance(rtol=1e-6, atol=1e-7))


# -- mask propagation through the normalization and rescaling layers -----------------------------------------------------
@clause("keras.mask.propagation", ref="tf221")
def test_amut29_normalization_layers_pass_the_mask_on(keras):
    """Normalization (given moments or adapted), Rescaling, UnitNormalization, LayerNormalization, BatchNormalization
    and GroupNormalization support masking: after Masking(0.0) a mask-aware GlobalAveragePooling1D averages only the
    unmasked steps of the layer's output; Discretization, Hashing, CategoryEncoding and RMSNormalization do not
    (supports_masking False; Keras 3.15, observed on TF 2.21). Expected: NumPy's mean over the unmasked steps of the
    layer's own unmasked output."""
    L = keras.layers
    x = (np.array([[1.0, 2.0, 0.0, 4.0], [3.0, 0.0, 0.0, 0.0]], np.float32)[..., None]
         * np.array([1.0, 0.5], np.float32))
    adapted = L.Normalization()
    adapted.adapt(x)
    passing = [("Normalization(mean=1, variance=2)", L.Normalization(mean=1.0, variance=2.0)),
               ("Normalization() adapted", adapted), ("Rescaling(2.0, offset=1.0)", L.Rescaling(2.0, offset=1.0)),
               ("UnitNormalization()", L.UnitNormalization()), ("LayerNormalization()", L.LayerNormalization()),
               ("BatchNormalization()", L.BatchNormalization()), ("GroupNormalization(groups=1)",
                                                                    L.GroupNormalization(groups=1))]
    keep = np.any(x != 0.0, axis=-1)
    for name, layer in passing:
        assert_equal(bool(layer.supports_masking), True, call=name, what="layer.supports_masking")
        inp = keras.Input((4, 2))
        model = keras.Model(inp, L.GlobalAveragePooling1D()(layer(L.Masking(0.0)(inp))))
        plain = to_numpy(layer(x)).astype(np.float64)
        want = np.stack([plain[b][keep[b]].mean(axis=0) for b in range(2)])
        assert_close(model(x), want, call=f"GlobalAveragePooling1D({name}(Masking(0.0)(x)))",
                     tolerance=Tolerance(rtol=1e-5, atol=1e-6))
    for name, layer in [("Discretization(bin_boundaries=[0.5])", L.Discretization(bin_boundaries=[0.5])),
                        ("Hashing(4)", L.Hashing(4)), ("CategoryEncoding(4)", L.CategoryEncoding(4)),
                        ("RMSNormalization()", L.RMSNormalization())]:
        assert_equal(bool(layer.supports_masking), False, call=name, what="layer.supports_masking")


# -- keras.ops: KerasTensors given by keyword are inputs of the functional graph -----------------------------------------
@clause("keras.model.call", ref="tf221")
def test_amut29_keyword_keras_tensors_feed_a_functional_model(keras):
    """A keras.ops call that receives a KerasTensor by keyword (average(a, weights=w), add(x1=a, x2=b), add(a, x2=b),
    where(c, x1=a, x2=b), multiply(a, x2=b)) records it as an input of the node, so a Model over both inputs feeds it
    at call time: the outputs are NumPy's (Keras 3.15; observed on TF 2.21)."""
    ops = keras.ops
    av = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], np.float32)
    bv = np.array([[1.0, 0.0, 1.0], [2.0, 1.0, 1.0]], np.float32)
    cases = [("average(a, axis=1, weights=b)", lambda a, b: ops.average(a, axis=1, weights=b),
              np.average(av, axis=1, weights=bv)),
             ("add(x1=a, x2=b)", lambda a, b: ops.add(x1=a, x2=b), av + bv),
             ("add(a, x2=b)", lambda a, b: ops.add(a, x2=b), av + bv),
             ("where(a > 1, x1=a, x2=b)", lambda a, b: ops.where(a > 1, x1=a, x2=b), np.where(av > 1, av, bv)),
             ("multiply(a, x2=b)", lambda a, b: ops.multiply(a, x2=b), av * bv)]
    for text, fn, want in cases:
        a, b = keras.Input((3,)), keras.Input((3,))
        model = keras.Model([a, b], fn(a, b))
        assert_close(model([av, bv]), want, call=f"Model([a, b], ops.{text})([a, b])",
                     tolerance=Tolerance(rtol=1e-6, atol=1e-6))


# -- image preprocessing: a value range equal to the layer's working range is not remapped -------------------------------
@clause("keras.layer.image-color-augment", ref="tf221")
def test_amut29_auto_contrast_at_its_working_range_is_exact(keras):
    """AutoContrast(value_range=(0, 255)) works in [0, 255] itself: the images are not mapped through
    (x - 0) / 255 * 255 (Keras's _transform_value_range returns them unchanged when the ranges are equal), so images
    already spanning 0 and 255 come back bit for bit (scale 1, offset 0; float32 x / 255 * 255 differs from x for
    about 0.2% of random values). Observed on TF 2.21; expected: the input itself."""
    rng = np.random.default_rng(29)
    images = (rng.random((2, 32, 32, 3)) * 255).astype(np.float32)
    images[:, 0, 0, :] = 0.0
    images[:, 1, 1, :] = 255.0
    out = to_numpy(keras.layers.AutoContrast(value_range=(0, 255))(images))
    assert_equal(out, images, call="AutoContrast(value_range=(0, 255)) of float32 images spanning [0, 255]")


# -- Resizing: its transformation is the input's height and width ------------------------------------------------------
@clause("keras.layer.image-preprocessing", ref="tf221")
def test_amut29_resizing_transformation_is_the_input_size(keras):
    """Resizing.get_random_transformation returns the input's (height, width), read on the axes of its data_format
    (-3, -2 for channels_last, -2, -1 for channels_first), for a tensor and for a dict of images (Keras 3.15's
    Resizing; observed on TF 2.21)."""
    x = np.zeros((2, 6, 8, 3), np.float32)
    for fmt, want in [("channels_last", [6, 8]), ("channels_first", [8, 3])]:
        layer = keras.layers.Resizing(4, 4, data_format=fmt)
        for text, data in [("images", x), ("{'images': images}", {"images": x})]:
            got = [int(v) for v in layer.get_random_transformation(data)]
            assert_equal(got, want, call=f"Resizing(4, 4, data_format={fmt!r}).get_random_transformation({text} of "
                                         f"shape {x.shape})")


# -- keras.ops.conv_transpose: the channel check reads the channels_first input's axis 1 ---------------------------------
@clause("keras.ops", ref="tf221")
def test_amut29_conv_transpose_checks_the_channel_axis_of_channels_first(keras, onednn_float32):
    """keras.ops.conv_transpose(data_format="channels_first") compares the input's axis 1 (not the batch) with the
    kernel's last axis: a batch different from the channels is accepted (output (batch, out, h+1, w+1) for a 2x2
    kernel, stride 1, valid), eager and symbolic; mismatched channels are Keras's ValueError naming both
    (observed on TF 2.21). Where TF runs float32 without oneDNN, channels_first is its kernel's "only supports NHWC"
    (skipped there: the onednn_float32 fixture)."""
    ops = keras.ops
    kernel = np.ones((2, 2, 3, 4), np.float32)     # (h, w, out channels, in channels)
    for shape in [(2, 4, 5, 5), (4, 4, 5, 5), (3, 4, 5, 5)]:
        x = np.ones(shape, np.float32)
        call = f"ops.conv_transpose(x of shape {shape}, kernel (2, 2, 3, 4), 1, data_format='channels_first')"
        assert_equal(tuple(ops.conv_transpose(x, kernel, 1, data_format="channels_first").shape),
                     (shape[0], 3, 6, 6), call=call, what="out.shape")
        sym = ops.conv_transpose(keras.KerasTensor((None,) + shape[1:]), kernel, 1, data_format="channels_first")
        assert_equal(tuple(sym.shape), (None, 3, 6, 6), call=call + " on a KerasTensor", what="out.shape")
    for shape in [(2, 3, 5, 5), (4, 3, 5, 5)]:
        msg = re.escape("The number of input channels must match the kernel's input channels. Received: input "
                        "channels=3, kernel input channels=4, data_format='channels_first'.")
        call = f"ops.conv_transpose(x of shape {shape}, kernel (2, 2, 3, 4), 1, data_format='channels_first')"
        with raises(ValueError, match=msg, call=call):
            ops.conv_transpose(np.ones(shape, np.float32), kernel, 1, data_format="channels_first")
        with raises(ValueError, match=msg, call=call + " on a KerasTensor"):
            ops.conv_transpose(keras.KerasTensor((None,) + shape[1:]), kernel, 1, data_format="channels_first")


# -- ForwardAccumulator under an outer GradientTape: back-over-forward -----------------------------------------------------
def _f_np(x):
    return float(np.sum(np.sin(x) * x ** 2))


def _grad_np(x):
    return np.cos(x) * x ** 2 + 2 * x * np.sin(x)


def _hess_diag_np(x):
    """f is a sum of one-variable terms: its Hessian is diagonal."""
    return -np.sin(x) * x ** 2 + 4 * x * np.cos(x) + 2 * np.sin(x)


@clause("autodiff.higher-order", ref="tf221")
def test_amut29_back_over_forward_hessian_vector_products(tf):
    """A GradientTape entered before a ForwardAccumulator records the ops that compute the JVPs (TF's
    push_forwardprop_state sets aside only the tapes entered after the accumulator): tape.gradient(acc.jvp(y), x) is
    the Hessian-vector product H v, and the tape keeps recording after the accumulator computed JVPs (a persistent
    tape's gradients of y and of a later op); equal to forward-over-back, acc.jvp(tape.gradient(y, x)).
    f(x) = sum(sin(x) x^2); expected: its analytic gradient and (diagonal) Hessian in NumPy float64."""
    xv = np.array([0.5, -1.0, 2.0])
    vv = np.array([1.0, 2.0, -0.5])
    hvp = _hess_diag_np(xv) * vv
    tol = Tolerance(rtol=1e-10, atol=1e-12)
    x, v = tf.constant(xv), tf.constant(vv)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        with tf.autodiff.ForwardAccumulator(x, v) as acc:
            y = tf.reduce_sum(tf.sin(x) * x ** 2)
        jvp = acc.jvp(y)
        z = tf.reduce_sum(x * 3.0)
    assert_close(jvp, float(np.dot(_grad_np(xv), vv)), call="acc.jvp(f(x)) under an outer persistent tape",
                 tolerance=tol)
    assert_close(tape.gradient(jvp, x), hvp, call="tape.gradient(acc.jvp(f(x)), x) (back-over-forward)", tolerance=tol)
    assert_close(tape.gradient(y, x), _grad_np(xv), call="tape.gradient(f(x), x) with an accumulator inside",
                 tolerance=tol)
    assert_close(tape.gradient(z, x), np.full(3, 3.0), call="tape.gradient(sum(3 x), x) recorded after the accumulator",
                 tolerance=tol)
    with tf.GradientTape() as tape2:
        tape2.watch(x)
        with tf.autodiff.ForwardAccumulator(x, v) as acc2:
            y2 = tf.reduce_sum(tf.sin(x) * x ** 2)
        j2 = acc2.jvp(y2)
    assert_close(tape2.gradient(j2, x), hvp, call="non-persistent tape.gradient(acc.jvp(f(x)), x)", tolerance=tol)
    with tf.autodiff.ForwardAccumulator(x, v) as acc3:
        with tf.GradientTape() as tape3:
            tape3.watch(x)
            y3 = tf.reduce_sum(tf.sin(x) * x ** 2)
        g3 = tape3.gradient(y3, x)
    assert_close(acc3.jvp(g3), hvp, call="acc.jvp(tape.gradient(f(x), x)) (forward-over-back)", tolerance=tol)


# -- fake quantization: min equal to max is refused --------------------------------------------------------------------
@clause("ops.fake-quant", ref="tf221")
def test_amut29_fake_quant_args_refuse_min_equal_to_max(tf):
    """FakeQuantWithMinMaxArgs and its gradient op require min < max: min == max (and min > max) is
    InvalidArgumentError "min has to be smaller than max, was: MIN >= MAX", for the raw ops and for
    tf.quantization.fake_quant_with_min_max_args (TF's fake_quant_ops.cc; observed on TF 2.21)."""
    g, x = tf.ones([2]), tf.constant([0.5, 1.5])
    for lo, hi in [(1.0, 1.0), (2.0, 1.0), (0.0, 0.0)]:
        want = rf"min has to be smaller than max, was: {lo:g} >= {hi:g}"
        with raises(tf.errors.InvalidArgumentError, match=want,
                    call=f"raw_ops.FakeQuantWithMinMaxArgsGradient(min={lo}, max={hi})"):
            tf.raw_ops.FakeQuantWithMinMaxArgsGradient(gradients=g, inputs=x, min=lo, max=hi)
        with raises(tf.errors.InvalidArgumentError, match=want, call=f"raw_ops.FakeQuantWithMinMaxArgs(min={lo}, max={hi})"):
            tf.raw_ops.FakeQuantWithMinMaxArgs(inputs=x, min=lo, max=hi)
        with raises(tf.errors.InvalidArgumentError, match=want,
                    call=f"quantization.fake_quant_with_min_max_args(min={lo}, max={hi})"):
            tf.quantization.fake_quant_with_min_max_args(x, min=lo, max=hi)


# -- the parameterized truncated normal's gradients by its bounds, any stddev ---------------------------------------------
def _ndtr(z):
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def _ndtri(p):
    """The normal quantile by bisection then Newton (float64; p in (0, 1))."""
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if _ndtr(mid) < p:
            lo = mid
        else:
            hi = mid
    z = 0.5 * (lo + hi)
    for _ in range(3):
        z -= (_ndtr(z) - p) / (math.exp(-0.5 * z * z) / math.sqrt(2 * math.pi))
    return z


@clause("ops.parameterized-truncated-normal", ref="tf221")
def test_amut29_parameterized_truncated_normal_gradients_by_its_bounds(tf):
    """The implicit reparameterization gradient of stateless_parameterized_truncated_normal holds each sample's CDF
    u = (Phi(s) - Phi(a)) / (Phi(b) - Phi(a)) fixed (s, a, b the sample and bounds standardized by the mean and
    stddev): d sample / d minval and d maxval are the central differences of
    mean + stddev * Phi^-1(Phi(a) + u (Phi(b) - Phi(a))) in the bound, with stddevs other than 1 and means other
    than 0 (TF's random_grad._StatelessParameterizedTruncatedNormalGrad). Expected: central differences in NumPy
    float64 of that map, at the samples TF drew."""
    means, stds = np.array([0.5, -1.0]), np.array([1.5, 2.5])
    lows, highs = np.array([-1.0, -3.0]), np.array([2.0, 1.5])
    mean, std = tf.constant(means), tf.constant(stds)
    lo, hi = tf.Variable(lows), tf.Variable(highs)
    with tf.GradientTape() as tape:
        y = tf.random.stateless_parameterized_truncated_normal([5, 2], [3, 4], mean, std, lo, hi)
        loss = tf.reduce_sum(y)
    g_lo, g_hi = tape.gradient(loss, [lo, hi])
    ys = to_numpy(y).astype(np.float64)

    def sample(s, m, sd, a_raw, b_raw, a_new, b_new):
        a, b = (a_raw - m) / sd, (b_raw - m) / sd
        u = (_ndtr((s - m) / sd) - _ndtr(a)) / (_ndtr(b) - _ndtr(a))
        a2, b2 = (a_new - m) / sd, (b_new - m) / sd
        return m + sd * _ndtri(_ndtr(a2) + u * (_ndtr(b2) - _ndtr(a2)))

    h = 1e-5
    want_lo, want_hi = np.zeros(2), np.zeros(2)
    for j in range(2):
        args = (means[j], stds[j], lows[j], highs[j])
        for s in ys[:, j]:
            want_lo[j] += (sample(s, *args, lows[j] + h, highs[j]) - sample(s, *args, lows[j] - h, highs[j])) / (2 * h)
            want_hi[j] += (sample(s, *args, lows[j], highs[j] + h) - sample(s, *args, lows[j], highs[j] - h)) / (2 * h)
    tol = Tolerance(rtol=1e-5, atol=1e-7)
    assert_close(g_lo, want_lo, call="d sum(stateless_parameterized_truncated_normal) / d minvals", tolerance=tol)
    assert_close(g_hi, want_hi, call="d sum(stateless_parameterized_truncated_normal) / d maxvals", tolerance=tol)


# -- BroadcastGradientArgs: equal shapes reduce nothing, unequal ones their broadcast axes -------------------------------
def _bcast_reduce(s0, s1):
    """util/bcast.h BCastList's grad_reduce_idx: equal shapes reduce nothing; otherwise, right-aligned and 1-padded,
    each shape reduces the axes where it is 1 (an axis 1 in both is reduced in both); None: incompatible."""
    if list(s0) == list(s1):
        return [], []
    rank = max(len(s0), len(s1))
    x = [1] * (rank - len(s0)) + list(s0)
    y = [1] * (rank - len(s1)) + list(s1)
    if any(a != b and a != 1 and b != 1 for a, b in zip(x, y)):
        return None
    return [j for j in range(rank) if x[j] == 1], [j for j in range(rank) if y[j] == 1]


@clause("ops.raw-ops", ref="tf221")
def test_amut29_broadcast_gradient_args_of_equal_and_broadcast_shapes(tf):
    """raw_ops.BroadcastGradientArgs(s0, s1), int32 and int64: identical shapes (with size-1 axes or without, scalars)
    reduce nothing; different ones reduce, per input, the axes where its right-aligned, 1-padded shape is 1; an
    incompatible pair is InvalidArgumentError "Incompatible shapes: [2,3] vs. [2,4]" (TF's bcast_ops.cc; expected:
    the rule transcribed above, which TF 2.21 gives for these pairs). And the gradient a broadcasting
    tf.math.betainc reduces through it (a scalar x beside a [2, 3]: the beta density summed over both axes)."""
    pairs = [([1, 3], [1, 3]), ([2, 3], [2, 3]), ([], []), ([1], [1]), ([2, 1, 3], [2, 1, 3]), ([2, 3], [3]),
             ([2, 3], [1, 3]), ([1, 1], [1]), ([4, 1], [1, 5]), ([3], [2, 1, 3])]
    for dt in ("int32", "int64"):
        for s0, s1 in pairs:
            call = f"raw_ops.BroadcastGradientArgs(s0={s0}, s1={s1}) ({dt})"
            r0, r1 = tf.raw_ops.BroadcastGradientArgs(s0=tf.constant(s0, dt), s1=tf.constant(s1, dt))
            want = _bcast_reduce(s0, s1)
            assert_equal([to_numpy(r0).tolist(), to_numpy(r1).tolist()], [want[0], want[1]], call=call,
                         what="[r0, r1]")
        with raises(tf.errors.InvalidArgumentError, match=re.escape("Incompatible shapes: [2,3] vs. [2,4]"),
                    call=f"raw_ops.BroadcastGradientArgs(s0=[2, 3], s1=[2, 4]) ({dt})"):
            tf.raw_ops.BroadcastGradientArgs(s0=tf.constant([2, 3], dt), s1=tf.constant([2, 4], dt))
    a = np.array([[0.5, 2.0, 3.0], [1.5, 1.0, 4.0]])
    b = np.array([[2.0, 0.5, 1.5], [3.0, 2.5, 1.0]])
    xv = 0.4
    x = tf.constant(xv, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.math.betainc(tf.constant(a), tf.constant(b), x))
    beta = np.vectorize(lambda p, q: math.exp(math.lgamma(p) + math.lgamma(q) - math.lgamma(p + q)))(a, b)
    density = xv ** (a - 1) * (1 - xv) ** (b - 1) / beta     # d betainc(a, b, x) / dx: the beta density
    assert_close(tape.gradient(y, x), density.sum(),
                 call="d sum(betainc(a [2, 3], b [2, 3], x scalar)) / dx (reduced over both broadcast axes)",
                 tolerance=Tolerance(rtol=1e-9, atol=1e-12))


# -- Discretization.adapt: Keras's quantile summary, kept in float32 ----------------------------------------------------
def _keras_summarize(values, epsilon):
    values = np.sort(np.reshape(values, [-1]))
    step = max(np.size(values) / (1.0 / epsilon), 1)
    boundaries = values[int(step - 1)::int(step)]
    return np.stack([boundaries, np.ones_like(boundaries) * step])


def _keras_compress(summary, epsilon):
    if summary.shape[1] * epsilon < 1:
        return summary
    percents = epsilon + np.arange(0.0, 1.0, epsilon)
    cum_weights = summary[1].cumsum()
    cum_weight_percents = cum_weights / cum_weights[-1]
    new_bins = np.interp(percents, cum_weight_percents, summary[0])
    cum_weights = np.interp(percents, cum_weight_percents, cum_weights)
    new_weights = cum_weights - np.concatenate((np.array([0]), cum_weights[:-1]))
    return np.stack((new_bins, new_weights)).astype("float32")


def _keras_bin_boundaries(batches, num_bins, epsilon=0.01):
    """Keras 3.15's Discretization.adapt, transcribed (layers/preprocessing/discretization.py): the summary starts as
    a float32 [[], []], each batch (cast to float32) is summarized and merged, and the boundaries are the summary
    compressed to num_bins quantiles, all but the last."""
    summary = np.array([[], []], dtype="float32")
    for batch in batches:
        data = np.array(batch).astype("float32")
        merged = np.concatenate((_keras_summarize(data, epsilon), summary), axis=1)
        merged = np.take(merged, np.argsort(merged[0]), axis=1)
        summary = _keras_compress(merged, epsilon)
    return _keras_compress(summary, 1.0 / num_bins)[0, :-1].tolist()


@clause("keras.layer.lookup", ref="tf221")
def test_amut29_discretization_adapts_its_boundaries_in_float32(keras, tf):
    """Discretization(num_bins=k).adapt(data) computes its bin_boundaries with Keras's quantile summary, which starts
    as a float32 array, so the cumulative weights and their percentages of an uncompressed summary (fewer than
    1/epsilon values) are float32: the boundaries are exactly those of the transcription above (a float64 summary
    moves most of them by an ulp), for 7 to 99 values, 2 to 7 bins, one array or a dataset of batches, through
    adapt (which resets the summary first) or through a fresh layer's update_state and finalize_state (whose summary
    is the constructor's) (Keras 3.15; the transcription agrees with TF 2.21 exactly)."""
    rng = np.random.default_rng(29)
    for n, bins in [(7, 3), (13, 4), (37, 6), (71, 7), (99, 7), (50, 2)]:
        data = rng.normal(size=n).astype(np.float32)
        layer = keras.layers.Discretization(num_bins=bins)
        layer.adapt(data)
        call = f"Discretization(num_bins={bins}).adapt({n} float32 values)"
        assert_equal([float(b) for b in layer.bin_boundaries], _keras_bin_boundaries([data], bins), call=call,
                     what="bin_boundaries")
        fresh = keras.layers.Discretization(num_bins=bins)     # the public steps adapt takes, without its reset
        fresh.update_state(data)
        fresh.finalize_state()
        assert_equal([float(b) for b in fresh.bin_boundaries], _keras_bin_boundaries([data], bins),
                     call=f"Discretization(num_bins={bins}).update_state({n} values), finalize_state()",
                     what="bin_boundaries")
    data = rng.normal(size=(3, 20)).astype(np.float32)
    layer = keras.layers.Discretization(num_bins=5)
    layer.adapt(tf.data.Dataset.from_tensor_slices(data))
    assert_equal([float(b) for b in layer.bin_boundaries], _keras_bin_boundaries(list(data), 5),
                 call="Discretization(num_bins=5).adapt(a dataset of 3 batches of 20 values)", what="bin_boundaries")


# -- a functional model's input spec: a trailing 1 may be squeezed, the other axes are checked ---------------------------
@clause("keras.model.call", ref="tf221")
def test_amut29_functional_inputs_check_every_axis_beside_a_squeezed_trailing_one(keras):
    """A functional Model's input spec is its Input's shape with allow_last_axis_squeeze: a trailing 1 of the spec or
    of the input is dropped before the comparison, and every other axis is still compared, so Input((3, 1)) takes
    (2, 3, 1) and (2, 3) but refuses (2, 4, 1) and (2, 4), and Input((3, 2, 1)) refuses (2, 4, 2, 1) and (2, 3, 5, 1),
    with Keras's ValueError "... is incompatible with the layer: expected shape=S, found shape=F" (F after the
    squeeze; observed on TF 2.21)."""
    L = keras.layers
    for ishape, accepted, refused in [((3, 1), [(2, 3, 1), (2, 3)], [(2, 4, 1), (2, 4)]),
                                      ((3,), [(2, 3), (2, 3, 1)], [(2, 4), (2, 4, 1)]),
                                      ((3, 2, 1), [(2, 3, 2, 1), (2, 3, 2)], [(2, 4, 2, 1), (2, 4, 2), (2, 3, 5, 1)])]:
        inp = keras.Input(ishape)
        model = keras.Model(inp, L.Flatten()(inp))
        for shape in accepted:
            out = model(np.ones(shape, np.float32))
            assert_equal(tuple(out.shape), (2, int(np.prod(ishape))), call=f"Model(Input({ishape}))(x of shape {shape})",
                         what="out.shape")
        for shape in refused:
            found = shape[:-1] if shape[-1] == 1 else shape
            msg = (rf"is incompatible with the layer: expected shape={re.escape(str((None,) + ishape))}, "
                   rf"found shape={re.escape(str(found))}")
            with raises(ValueError, match=msg, call=f"Model(Input({ishape}))(x of shape {shape})"):
                model(np.ones(shape, np.float32))


# -- CenterCrop and RandomCrop: the crop offsets ---------------------------------------------------------------------------
@clause("keras.layer.image-preprocessing", ref="tf221")
def test_amut29_center_crop_offsets_floor_half_the_difference(keras):
    """CenterCrop(h, w) of a larger image keeps rows from floor((H - h) / 2) and columns from floor((W - w) / 2), odd
    differences included, channels_last and channels_first; expected: NumPy's slice of the input (Keras 3.15's
    CenterCrop; observed on TF 2.21)."""
    img = np.arange(7 * 6 * 2, dtype=np.float32).reshape(1, 7, 6, 2)
    for h, w in [(4, 3), (5, 5), (2, 2), (6, 6), (7, 1)]:
        r0, c0 = (7 - h) // 2, (6 - w) // 2
        want = img[:, r0:r0 + h, c0:c0 + w, :]
        assert_equal(keras.layers.CenterCrop(h, w)(img), want, call=f"CenterCrop({h}, {w}) of a (1, 7, 6, 2) image")
        got = keras.layers.CenterCrop(h, w, data_format="channels_first")(img.transpose(0, 3, 1, 2))
        assert_equal(got, want.transpose(0, 3, 1, 2),
                     call=f"CenterCrop({h}, {w}, data_format='channels_first') of a (1, 2, 7, 6) image")


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_amut29_random_crop_reaches_every_offset(keras):
    """RandomCrop(4, 4) of a 5 x 6 image in training draws its top-left corner uniformly over every valid offset,
    rows 0..H-h and columns 0..W-w inclusive (Keras 3.15: uniform(0, H - h + 1) cast to int32): over 30 seeds and over
    30 calls of one seeded layer, the offsets seen (read from the crop's first pixel) are exactly {0, 1} x {0, 1, 2}
    (the chance of missing one is below 1e-4 per run of 30); each crop is NumPy's slice of the input there."""
    img = np.arange(5 * 6, dtype=np.float32).reshape(1, 5, 6, 1)
    want = {(r, c) for r in range(2) for c in range(3)}
    for how, calls in [("RandomCrop(4, 4, seed=s) for s in 0..29", [keras.layers.RandomCrop(4, 4, seed=s)
                                                                      for s in range(30)]),
                       ("one RandomCrop(4, 4, seed=3) called 30 times", [keras.layers.RandomCrop(4, 4, seed=3)] * 30)]:
        seen = set()
        for layer in calls:
            out = to_numpy(layer(img, training=True))
            first = int(out[0, 0, 0, 0])
            r, c = divmod(first, 6)
            assert_equal(out, img[:, r:r + 4, c:c + 4, :], call=how, what=f"the crop at offset ({r}, {c})")
            seen.add((r, c))
        assert_equal(sorted(seen), sorted(want), call=how, what="the offsets seen")


# -- TextVectorization: pad_to_max_tokens reaches the lookup ---------------------------------------------------------------
@clause("keras.layer.text-vectorization", ref="tf221")
def test_amut29_text_vectorization_pads_its_outputs_to_max_tokens(keras):
    """TextVectorization(max_tokens=6, pad_to_max_tokens=True) passes the flag to its StringLookup, so the multi_hot,
    count and tf_idf outputs are 6 wide and one_hot's last axis 6 after adapting a 3-token vocabulary; with False
    they are the vocabulary size, 4 (3 tokens and the OOV; no mask token in these modes); int output
    (one index per token) is unaffected. Keras 3.15, observed on TF 2.21."""
    for mode in ["multi_hot", "count", "tf_idf", "one_hot", "int"]:
        for pad in [True, False]:
            layer = keras.layers.TextVectorization(max_tokens=6, output_mode=mode, pad_to_max_tokens=pad)
            layer.adapt(["a b", "b c"])
            vocab = layer.vocabulary_size()
            out = layer(["a c"])
            call = f"TextVectorization(max_tokens=6, output_mode={mode!r}, pad_to_max_tokens={pad}) adapted to 'a b', 'b c'"
            if mode == "int":
                assert_equal(int(out.shape[-1]), 2, call=call + ", called on ['a c']", what="out.shape[-1]")
                continue
            assert_equal(vocab, 4, call=call, what="vocabulary_size()")
            width = 6 if pad else vocab
            assert_equal(int(out.shape[-1]), width, call=call + ", called on ['a c']", what="out.shape[-1]")
            assert_equal(bool(layer.get_config()["pad_to_max_tokens"]), pad, call=call,
                         what="get_config()['pad_to_max_tokens']")


# -- keras.ops.norm of a batch of matrices ---------------------------------------------------------------------------------
@clause("keras.ops", ref="tf221")
def test_amut29_matrix_norms_of_a_batch_reduce_only_their_two_axes(keras):
    """keras.ops.norm(x, ord, axis=(i, j)) of a (2, 3, 4) batch computes a matrix norm per batch member for ord 1, -1,
    inf, -inf, 'fro' and None, both axis orders, negative axes and keepdims: NumPy's np.linalg.norm of the same
    (Keras's TF backend reduces the sum axis, then the max/min over the other one only)."""
    x = np.arange(24.0).reshape(2, 3, 4) - 10.0
    for ord_ in [1, -1, float("inf"), -float("inf"), "fro", None]:
        for axis in [(1, 2), (2, 1), (-2, -1)]:
            for keepdims in [False, True]:
                want = np.linalg.norm(x, ord=ord_, axis=axis, keepdims=keepdims)
                got = keras.ops.norm(x, ord=ord_, axis=axis, keepdims=keepdims)
                assert_close(got, want, call=f"ops.norm(x of shape (2, 3, 4), ord={ord_!r}, axis={axis}, "
                                             f"keepdims={keepdims})", tolerance=Tolerance(rtol=1e-12, atol=1e-12))


# -- keras.ops.image.scale_and_translate: antialias defaults to True --------------------------------------------------------
@clause("keras.ops", ref="tf221")
def test_amut29_scale_and_translate_antialiases_by_default(keras):
    """keras.ops.image.scale_and_translate's antialias defaults to True: downscaling 8x8 images by 0.5 without the
    argument gives exactly the antialias=True result, which differs from antialias=False (Keras 3.15's signature;
    observed on TF 2.21)."""
    img = np.linspace(0, 1, 2 * 8 * 8).reshape(2, 8, 8, 1).astype(np.float32)
    args = (img, (2, 4, 4, 1), np.array([0.5, 0.5], np.float32), np.array([0.0, 0.0], np.float32), (1, 2), "bilinear")
    default = to_numpy(keras.ops.image.scale_and_translate(*args))
    on = to_numpy(keras.ops.image.scale_and_translate(*args, antialias=True))
    off = to_numpy(keras.ops.image.scale_and_translate(*args, antialias=False))
    call = "ops.image.scale_and_translate(8x8 images, (2, 4, 4, 1), scale 0.5, 'bilinear')"
    assert_equal(default, on, call=call, what="the result without antialias (antialias=True's)")
    assert_true(float(np.abs(on - off).max()) > 1e-3,
                f"antialias=True and antialias=False agree (max difference {np.abs(on - off).max():.3g}), but a 2x "
                "downscale of a ramp should differ", call=call)


# -- ForwardAccumulator: recording stops at exit, and cannot be entered twice -------------------------------------------------
@clause("autodiff.higher-order", ref="tf221")
def test_amut29_forward_accumulator_records_only_inside_its_block(tf):
    """A ForwardAccumulator computes JVPs only while entered: acc.jvp of an op run after the with block is None,
    the JVPs computed inside stay readable; entering it while it records is ValueError "Accumulator is already
    recording."; entering it again later records again (TF's forwardprop.py; observed on TF 2.21). Expected JVPs:
    d(x*x) = 2 x v and d(sin x) = cos(x) v in NumPy."""
    xv, vv = np.array([1.0, 2.0]), np.array([1.0, 0.5])
    x, v = tf.constant(xv), tf.constant(vv)
    acc = tf.autodiff.ForwardAccumulator(x, v)
    with acc:
        y = x * x
    z = x * 3.0
    tol = Tolerance(rtol=1e-12, atol=1e-12)
    assert_close(acc.jvp(y), 2 * xv * vv, call="acc.jvp(x * x) computed inside the block", tolerance=tol)
    assert_equal(acc.jvp(z), None, call="acc.jvp(x * 3) computed after the block", what="the JVP")
    with raises(ValueError, match=re.escape("Accumulator is already recording."), call="with acc: with acc:"):
        with acc:
            with acc:
                pass
    with acc:
        y2 = tf.sin(x)
    assert_close(acc.jvp(y2), np.cos(xv) * vv, call="acc.jvp(sin(x)) on entering the accumulator again", tolerance=tol)


# -- ScaleAndTranslate's gradient: each axis its own translation ---------------------------------------------------------------
@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("kernel", ["triangle", "lanczos3", "keyscubic"])
def test_amut29_scale_and_translate_gradient_with_distinct_translations(tf, kernel):
    """ScaleAndTranslate is linear in the images, so its gradient is the transpose of the map: d sum(w * op(x)) / dx
    equals the matrix whose column k is op(e_k) (each basis image) transposed times w, with a different scale and
    translation on each axis (rows 1.5 / 0.3, columns 0.75 / -0.7), antialias on and off (TF's
    ScaleAndTranslateGrad; expected: the map built from the op's own outputs, in NumPy)."""
    shape = (1, 3, 4, 1)
    out_hw = (4, 3)
    scale = np.array([1.5, 0.75], np.float32)
    trans = np.array([0.3, -0.7], np.float32)
    rng = np.random.default_rng(29)
    w = rng.normal(size=(1,) + out_hw + (1,)).astype(np.float32)
    for antialias in (True, False):
        def op(images):
            return tf.raw_ops.ScaleAndTranslate(images=images, size=np.array(out_hw, np.int32), scale=scale,
                                                translation=trans, kernel_type=kernel, antialias=antialias)
        cols = []
        for k in range(int(np.prod(shape))):
            e = np.zeros(int(np.prod(shape)), np.float32)
            e[k] = 1.0
            cols.append(to_numpy(op(tf.constant(e.reshape(shape)))).ravel())
        want = (np.stack(cols, axis=1).T @ w.ravel()).reshape(shape)
        x = tf.constant(rng.normal(size=shape).astype(np.float32))
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(op(x) * w)
        assert_close(tape.gradient(loss, x), want, call=f"d sum(w * ScaleAndTranslate(x, {kernel}, antialias="
                                                        f"{antialias}, scale {scale}, translation {trans})) / dx",
                     tolerance=Tolerance(rtol=1e-5, atol=1e-6))


# -- ClusterCoordinator: what each function's RemoteValue holds after a parameter server fails ------------------------------
_PS_FAILURE = """
from simdist.conformance.protocol import PSFailure
cluster = backend.make_ps_cluster(workers=2, ps=1, faults=[PSFailure(ps=0, during_closure=1)])
""" + BUSY + """rvs = []
try:
    for _ in range(6):
        rvs.append(coordinator.schedule(work))
    coordinator.join()
    error = None
except Exception as e:
    error = e
outcomes = []
for rv in rvs:
    try:
        outcomes.append(("ok", float(rv.fetch())))
    except Exception as e:
        outcomes.append((type(e).__name__, str(e)))
fired = cluster.faults_fired()
"""


@pytest.mark.requires("multi_worker", "fault_injection")
@clause("coord.ps-failure", ref="tf221")
def test_amut29_remote_values_after_a_ps_failure(backend, tf):
    """Two workers, the parameter server fails while the first of six scheduled functions runs: join raises
    UnavailableError, and no function's RemoteValue holds a value: each fetch raises UnavailableError (a function the
    failure reached) or CancelledError (one cancelled running or still queued: "RemoteExecuteNode::RunAsync" or
    "The corresponding function is cancelled. Please reschedule the function."), at least one UnavailableError
    (TF's cluster_coordinator: a closure's error is set on its RemoteValue and fails the queue, which cancels the
    rest; which functions get which class depends on timing on TF 2.21, observed in two runs: one
    UnavailableError, five CancelledError)."""
    from simdist.conformance.repro import Program
    ns = Program(backend, _PS_FAILURE).run()
    call = "2 workers, ps 0 fails during the first function, schedule x6 + join, then fetch each RemoteValue"
    assert_true("fail ps 0" in ns["fired"], f"the ps failure never happened (fired: {ns['fired']})", call=call)
    err = ns["error"]
    assert_true(isinstance(err, tf.errors.UnavailableError),
                f"join raised {type(err).__name__}({str(err)[:200]!r}), but should raise UnavailableError", call=call)
    backend.notice_error(err)
    outcomes = ns["outcomes"]
    assert_equal(len(outcomes), 6, call=call, what="the number of RemoteValues")
    for i, (kind, text) in enumerate(outcomes):
        assert_true(kind in ("UnavailableError", "CancelledError"),
                    f"fetch of function {i} gave {kind}({text[:200]!r}), but should raise UnavailableError or "
                    "CancelledError", call=call)
    kinds = [k for k, _ in outcomes]
    assert_true("UnavailableError" in kinds, f"the fetches raised {kinds}, but the function the failure reached "
                                             "should raise UnavailableError", call=call)
