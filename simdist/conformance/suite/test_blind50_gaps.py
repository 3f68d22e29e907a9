"""Gaps the fiftieth blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is the
suite"): rules of Keras's layers, losses, metrics, optimizers and callbacks that the suite stated for one spelling,
one option value or one input only, or never, so that a wrong implementation of the other case passed
(TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy or
plain Python (a transcription of TF's or Keras 3.15's rule), or is a relation TF's rule implies between two
spellings, or (said so where it is) was observed on TF 2.21 — never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import to_numpy as _np   # (an ndarray of any backend's value)
from simdist.conformance.suite.host_model import runs_onednn
from simdist.conformance.suite.outcomes import outcome as _outcome

clause = pytest.mark.clause


def _shape(x):
    return tuple(None if d is None else int(d) for d in x)


# -- the convolution, pooling, cropping and resampling layers' output shapes ---------------------------------------------
def _conv_len(n, k, s, d, padding):
    """Keras 3.15's compute_conv_output_shape for one spatial axis."""
    if n is None:
        return None
    if padding == "same":
        return (n - 1) // s + 1
    return (n - d * (k - 1) - 1) // s + 1


def _deconv_len(n, k, s, d, padding, output_padding):
    """Keras 3.15's deconv_output_length (compute_conv_transpose_output_shape) for one spatial axis."""
    if n is None:
        return None
    k = k + (k - 1) * (d - 1)
    if output_padding is None:
        return n * s + max(k - s, 0) if padding == "valid" else n * s
    pad = k // 2 if padding == "same" else 0
    return (n - 1) * s + k - 2 * pad + output_padding


def _pool_len(n, p, s, padding):
    if n is None:
        return None
    return (n - 1) // s + 1 if padding == "same" else (n - p) // s + 1


#: (layer, kwargs, input shape without batch) for the conv-shaped layers; want computed by _want_conv.
_CONV = [
    ("Conv1D", {"filters": 2, "kernel_size": 3, "strides": 2}, (9, 3)),
    ("Conv1D", {"filters": 2, "kernel_size": 3, "dilation_rate": 2, "padding": "valid"}, (9, 3)),
    ("Conv1D", {"filters": 2, "kernel_size": 3, "dilation_rate": 2, "padding": "causal"}, (9, 3)),
    ("Conv2D", {"filters": 4, "kernel_size": (3, 2), "strides": (2, 1), "padding": "same"}, (7, 6, 3)),
    ("Conv2D", {"filters": 4, "kernel_size": 3, "dilation_rate": (2, 1)}, (9, 6, 3)),
    ("Conv2D", {"filters": 4, "kernel_size": 3, "strides": 2, "data_format": "channels_first"}, (3, 9, 8)),
    ("Conv1DTranspose", {"filters": 2, "kernel_size": 3, "strides": 2}, (5, 3)),
    ("Conv1DTranspose", {"filters": 2, "kernel_size": 3, "dilation_rate": 2}, (5, 3)),
    ("Conv2DTranspose", {"filters": 2, "kernel_size": 3, "strides": 2}, (5, 4, 3)),
    ("Conv2DTranspose", {"filters": 2, "kernel_size": 3, "strides": 2, "padding": "same"}, (5, 4, 3)),
    ("Conv2DTranspose", {"filters": 2, "kernel_size": 3, "strides": 2, "output_padding": 1}, (5, 4, 3)),
    ("Conv2DTranspose", {"filters": 2, "kernel_size": 3, "dilation_rate": 2}, (5, 4, 3)),
    ("Conv2DTranspose", {"filters": 2, "kernel_size": (3, 2), "strides": (2, 3), "padding": "same",
                         "output_padding": (1, 2)}, (5, 4, 3)),
    ("Conv3DTranspose", {"filters": 2, "kernel_size": 2, "strides": (1, 2, 3)}, (3, 4, 2, 1)),
    ("DepthwiseConv2D", {"kernel_size": 3, "depth_multiplier": 2}, (6, 5, 3)),
    ("DepthwiseConv2D", {"kernel_size": 3, "depth_multiplier": 3, "strides": 2, "padding": "same"}, (6, 5, 2)),
    ("DepthwiseConv1D", {"kernel_size": 3, "depth_multiplier": 2}, (6, 3)),
    ("SeparableConv2D", {"filters": 5, "kernel_size": 3, "depth_multiplier": 2}, (6, 5, 3)),
    ("SeparableConv1D", {"filters": 5, "kernel_size": 2, "strides": 2}, (7, 3)),
]


def _want_conv(name, kw, shape):
    cf = kw.get("data_format") == "channels_first"
    spatial = list(shape[1:] if cf else shape[:-1])
    channels = shape[0] if cf else shape[-1]
    rank = len(spatial)

    def per_axis(key, default):
        v = kw.get(key, default)
        return list(v) if isinstance(v, (tuple, list)) else [v] * rank
    k, s, d = per_axis("kernel_size", 1), per_axis("strides", 1), per_axis("dilation_rate", 1)
    padding = kw.get("padding", "valid")
    if "Transpose" in name:
        op = kw.get("output_padding")
        op = [None] * rank if op is None else per_axis("output_padding", 0)
        out = [_deconv_len(n, k[i], s[i], d[i], padding, op[i]) for i, n in enumerate(spatial)]
    else:
        out = [_conv_len(n, k[i], s[i], d[i], "same" if padding == "causal" else padding) for i, n in enumerate(spatial)]
    if name.startswith("Depthwise"):
        filters = channels * kw["depth_multiplier"]
    else:
        filters = kw["filters"]
    return tuple([None] + ([filters] + out if cf else out + [filters]))


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("case", _CONV, ids=lambda c: c[0] + "-" + "-".join(f"{k}={v}" for k, v in c[1].items()
                                                                            if k not in ("filters", "kernel_size")))
def test_blind50_conv_layers_output_shape_by_option(keras, tf, case):
    """compute_output_shape, a symbolic call and an eager call of a convolution layer agree with Keras 3.15's shape
    rule (compute_conv_output_shape: (n - d(k - 1) - 1) // s + 1 for 'valid', (n - 1) // s + 1 for 'same' and
    'causal'; deconv_output_length for the transposed ones, dilation widening the kernel and output_padding
    taking the explicit form; the depthwise layers' channels times depth_multiplier), every option on its own (no
    eager call of a channels_first convolution: TF's CPU kernels refuse NCHW; an eager dilated transposed
    convolution fails on TF 2.21's own CPU kernel, InvalidArgumentError, observed on an AVX2-only host; where oneDNN
    runs float32 it computes, as oneDNN's backprop dilates: clause nn.conv-dilation)."""
    name, kw, shape = case
    want = _want_conv(name, kw, shape)
    layer = getattr(keras.layers, name)(**kw)
    got = _shape(layer.compute_output_shape((None,) + shape))
    assert got == want, f"{name}({kw}).compute_output_shape({(None,) + shape}): expected {want}, got {got}"
    sym = _shape(getattr(keras.layers, name)(**kw)(keras.Input(shape)).shape)
    assert sym == want, f"{name}({kw}) of a symbolic {(None,) + shape} input: expected {want}, got {sym}"
    if kw.get("data_format") == "channels_first":
        return   # (TF's CPU kernels have no NCHW convolution: the eager call fails on TF 2.21)
    if "Transpose" in name and kw.get("dilation_rate", 1) != 1 and not runs_onednn(tf):
        cls, got = _outcome(lambda: getattr(keras.layers, name)(**kw)(np.zeros((2,) + shape, "float32")))
        text = "Current CPU implementations do not yet support dilation rates larger than 1"
        assert cls == "InvalidArgumentError" and text in got, \
            f"{name}({kw}) eagerly: expected InvalidArgumentError {text!r} (TF 2.21's CPU kernel), got {cls}: {got}"
        return
    eager = _shape(getattr(keras.layers, name)(**kw)(np.zeros((2,) + shape, "float32")).shape)
    assert eager == (2,) + want[1:], f"{name}({kw}) of a (2,) + {shape} batch: expected {(2,) + want[1:]}, got {eager}"


#: (layer, kwargs, input shape without batch) for the pooling, cropping, padding and upsampling layers.
_RESHAPING = [
    ("AveragePooling1D", {"pool_size": 3, "strides": 1}, (7, 2)),
    ("AveragePooling2D", {"pool_size": 2, "strides": 1}, (5, 4, 2)),
    ("AveragePooling2D", {"pool_size": (3, 2), "strides": (1, 2), "padding": "same"}, (5, 4, 2)),
    ("AveragePooling2D", {"pool_size": 2}, (5, 4, 2)),
    ("MaxPooling2D", {"pool_size": 2, "strides": 1}, (5, 4, 2)),
    ("AveragePooling3D", {"pool_size": 2, "strides": 1}, (3, 4, 5, 1)),
    ("MaxPooling3D", {"pool_size": 2, "strides": (1, 2, 1)}, (3, 4, 5, 1)),
    ("Cropping1D", {"cropping": (0, 2)}, (6, 2)),
    ("Cropping1D", {"cropping": (3, 1)}, (6, 2)),
    ("Cropping2D", {"cropping": ((1, 2), (0, 3))}, (8, 9, 2)),
    ("Cropping2D", {"cropping": ((2, 0), (1, 1)), "data_format": "channels_first"}, (2, 8, 9)),
    ("Cropping3D", {"cropping": ((1, 0), (0, 2), (1, 1))}, (4, 5, 6, 1)),
    ("UpSampling1D", {"size": 3}, (4, 2)),
    ("UpSampling2D", {"size": (2, 3)}, (4, 5, 2)),
    ("UpSampling3D", {"size": (1, 2, 3)}, (2, 3, 4, 1)),
    ("ZeroPadding1D", {"padding": (0, 2)}, (4, 2)),
    ("ZeroPadding2D", {"padding": ((1, 0), (2, 3))}, (4, 5, 2)),
    ("ZeroPadding3D", {"padding": ((1, 0), (0, 2), (3, 1))}, (2, 3, 4, 1)),
]


def _want_reshaping(name, kw, shape):
    cf = kw.get("data_format") == "channels_first"
    spatial = list(shape[1:] if cf else shape[:-1])
    rank = len(spatial)
    if "Pooling" in name:
        p = kw["pool_size"]
        p = list(p) if isinstance(p, tuple) else [p] * rank
        s = kw.get("strides") or p
        s = list(s) if isinstance(s, (tuple, list)) else [s] * rank
        out = [_pool_len(n, p[i], s[i], kw.get("padding", "valid")) for i, n in enumerate(spatial)]
    elif name.startswith(("Cropping", "ZeroPadding")):
        pairs = kw["cropping" if name.startswith("Cropping") else "padding"]
        pairs = [pairs] if rank == 1 else list(pairs)
        sign = -1 if name.startswith("Cropping") else 1
        out = [n + sign * sum(pairs[i]) for i, n in enumerate(spatial)]
    else:
        size = kw["size"]
        size = list(size) if isinstance(size, tuple) else [size] * rank
        out = [n * size[i] for i, n in enumerate(spatial)]
    return tuple([None] + ([shape[0]] + out if cf else out + [shape[-1]]))


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("case", _RESHAPING, ids=lambda c: c[0] + "-" + "-".join(f"{k}={v}" for k, v in c[1].items()))
def test_blind50_pooling_cropping_padding_upsampling_output_shapes(keras, case):
    """compute_output_shape, a symbolic and an eager call of the pooling (strides default to the pool size; 'valid':
    (n - p) // s + 1, 'same': (n - 1) // s + 1), cropping (each axis less its start and end crop), zero-padding
    (plus both pads) and upsampling (times the size, on the spatial axes only) layers; the eager output's values
    for the croppings and paddings are the input's slice and the zeros around it (NumPy)."""
    name, kw, shape = case
    want = _want_reshaping(name, kw, shape)
    got = _shape(getattr(keras.layers, name)(**kw).compute_output_shape((None,) + shape))
    assert got == want, f"{name}({kw}).compute_output_shape({(None,) + shape}): expected {want}, got {got}"
    sym = _shape(getattr(keras.layers, name)(**kw)(keras.Input(shape)).shape)
    assert sym == want, f"{name}({kw}) of a symbolic {(None,) + shape} input: expected {want}, got {sym}"
    x = np.arange(int(np.prod((2,) + shape)), dtype="float32").reshape((2,) + shape)
    y = np.asarray(_np(getattr(keras.layers, name)(**kw)(x)))
    assert y.shape == (2,) + want[1:], f"{name}({kw}) of a (2,) + {shape} batch: expected {(2,) + want[1:]}, " \
                                       f"got {y.shape}"
    if name.startswith(("Cropping", "ZeroPadding")) and kw.get("data_format") != "channels_first":
        rank = len(shape) - 1
        pairs = kw["cropping" if name.startswith("Cropping") else "padding"]
        pairs = [pairs] if rank == 1 else list(pairs)
        if name.startswith("Cropping"):
            index = (slice(None),) + tuple(slice(a, n - b) for (a, b), n in zip(pairs, shape[:-1]))
            np.testing.assert_array_equal(y, x[index], err_msg=f"{name}({kw}) values")
        else:
            np.testing.assert_array_equal(y, np.pad(x, [(0, 0)] + [tuple(p) for p in pairs] + [(0, 0)]),
                                          err_msg=f"{name}({kw}) values")


# -- the layers' and metrics' argument checks when they are made ------------------------------------------------------------
_STRIDES_DILATION = "Specifying `strides > 1` is not compatible with `dilation_rate > 1`"
_RATE = "Expected a float value between 0 and 1"
#: what -> (constructor, the outcome class, a fragment of its message or the accepted value); observed on TF 2.21.
_ARGS = {
    "UnitNormalization(axis='x')": (lambda k: k.layers.UnitNormalization(axis="x").axis, "TypeError",
                                    "Invalid value for `axis` argument"),
    "UnitNormalization(axis=1.5)": (lambda k: k.layers.UnitNormalization(axis=1.5).axis, "TypeError",
                                    "Invalid value for `axis` argument"),
    "UnitNormalization(axis=None)": (lambda k: k.layers.UnitNormalization(axis=None).axis, "TypeError",
                                     "Invalid value for `axis` argument"),
    "UnitNormalization(axis=(1, 2))": (lambda k: list(k.layers.UnitNormalization(axis=(1, 2)).axis), "ok", [1, 2]),
    "Cropping1D((0, 2))": (lambda k: tuple(k.layers.Cropping1D((0, 2)).cropping), "ok", (0, 2)),
    "Cropping1D((2, 0))": (lambda k: tuple(k.layers.Cropping1D((2, 0)).cropping), "ok", (2, 0)),
    "Cropping1D(0)": (lambda k: tuple(k.layers.Cropping1D(0).cropping), "ok", (0, 0)),
    "Cropping1D((-1, 1))": (lambda k: k.layers.Cropping1D((-1, 1)), "ValueError", "`value >= 0`"),
    "Cropping1D((1, 2, 3))": (lambda k: k.layers.Cropping1D((1, 2, 3)), "ValueError",
                              "The `cropping` argument must be a tuple of 2 integers"),
    "Cropping2D(((0, 1), (1, 0)))": (lambda k: tuple(map(tuple, k.layers.Cropping2D(((0, 1), (1, 0))).cropping)), "ok",
                                     ((0, 1), (1, 0))),
    "Cropping2D(((-1, 1), (0, 0)))": (lambda k: k.layers.Cropping2D(((-1, 1), (0, 0))), "ValueError", "`value >= 0`"),
    "Cropping3D(0)": (lambda k: tuple(map(tuple, k.layers.Cropping3D(0).cropping)), "ok", ((0, 0),) * 3),
    "InputLayer(batch_size=2, batch_shape=(2, 3))": (
        lambda k: k.layers.InputLayer(batch_size=2, batch_shape=(2, 3)), "ValueError",
        "You cannot pass both `batch_size` and `batch_shape` at the same time."),
    "InputLayer(shape=(3,), batch_shape=(2, 3))": (
        lambda k: k.layers.InputLayer(shape=(3,), batch_shape=(2, 3)), "ValueError",
        "You cannot pass both `shape` and `batch_shape` at the same time."),
    "InputLayer()": (lambda k: k.layers.InputLayer(), "ValueError", "You must pass a `shape` argument."),
    "InputLayer(shape=(3,), batch_size=2)": (lambda k: tuple(k.layers.InputLayer(shape=(3,), batch_size=2).batch_shape),
                                             "ok", (2, 3)),
    "Input(batch_size=2, batch_shape=(2, 3))": (
        lambda k: k.Input(batch_size=2, batch_shape=(2, 3)), "ValueError",
        "You cannot pass both `batch_size` and `batch_shape` at the same time."),
    "ConvLSTM1D(strides=2, dilation_rate=2)": (
        lambda k: k.layers.ConvLSTM1D(2, 3, strides=2, dilation_rate=2), "ValueError", _STRIDES_DILATION),
    "ConvLSTM2D(strides=(2, 1), dilation_rate=(1, 2))": (
        lambda k: k.layers.ConvLSTM2D(2, 3, strides=(2, 1), dilation_rate=(1, 2)), "ValueError", _STRIDES_DILATION),
    "ConvLSTM2D(strides=(1, 2), dilation_rate=(2, 1))": (
        lambda k: k.layers.ConvLSTM2D(2, 3, strides=(1, 2), dilation_rate=(2, 1)), "ValueError", _STRIDES_DILATION),
    "ConvLSTM2D(strides=(2, 2), dilation_rate=(2, 2))": (
        lambda k: k.layers.ConvLSTM2D(2, 3, strides=(2, 2), dilation_rate=(2, 2)), "ValueError", _STRIDES_DILATION),
    "ConvLSTM2D(strides=1, dilation_rate=2)": (
        lambda k: tuple(k.layers.ConvLSTM2D(2, 3, strides=1, dilation_rate=2).cell.dilation_rate), "ok", (2, 2)),
    "ConvLSTM3D(strides=(1, 1, 2), dilation_rate=(2, 1, 1))": (
        lambda k: k.layers.ConvLSTM3D(2, 3, strides=(1, 1, 2), dilation_rate=(2, 1, 1)), "ValueError",
        _STRIDES_DILATION),
    "Conv2D(strides=(2, 1), dilation_rate=(1, 2))": (
        lambda k: k.layers.Conv2D(2, 3, strides=(2, 1), dilation_rate=(1, 2)), "ValueError",
        "`strides > 1` not supported in conjunction with `dilation_rate > 1`"),
    "GaussianNoise(1.5)": (lambda k: k.layers.GaussianNoise(1.5), "ValueError", "argument `stddev`. " + _RATE),
    "GaussianNoise(-0.1)": (lambda k: k.layers.GaussianNoise(-0.1), "ValueError", "argument `stddev`. " + _RATE),
    "GaussianNoise(0.0)": (lambda k: k.layers.GaussianNoise(0.0).stddev, "ok", 0.0),
    "GaussianDropout(1.5)": (lambda k: k.layers.GaussianDropout(1.5), "ValueError", "argument `rate`. " + _RATE),
    "GaussianDropout(-0.1)": (lambda k: k.layers.GaussianDropout(-0.1), "ValueError", "argument `rate`. " + _RATE),
    "GaussianDropout(1.0)": (lambda k: k.layers.GaussianDropout(1.0).rate, "ok", 1.0),
    "Dropout(1.5)": (lambda k: k.layers.Dropout(1.5), "ValueError", "argument `rate`. " + _RATE),
    "SpatialDropout1D(1.5)": (lambda k: k.layers.SpatialDropout1D(1.5), "ValueError", "argument `rate`. " + _RATE),
    "AlphaDropout(1.5)": (lambda k: k.layers.AlphaDropout(1.5).rate, "ok", 1.5),
    "PrecisionAtRecall(1.5)": (lambda k: k.metrics.PrecisionAtRecall(1.5), "ValueError",
                               "Argument `recall` must be in the range [0, 1]. Received: recall=1.5"),
    "PrecisionAtRecall(-0.1)": (lambda k: k.metrics.PrecisionAtRecall(-0.1), "ValueError",
                                "Argument `recall` must be in the range [0, 1]. Received: recall=-0.1"),
    "PrecisionAtRecall(1.0)": (lambda k: k.metrics.PrecisionAtRecall(1.0).recall, "ok", 1.0),
    "RecallAtPrecision(1.5)": (lambda k: k.metrics.RecallAtPrecision(1.5), "ValueError",
                               "Argument `precision` must be in the range [0, 1]. Received: precision=1.5"),
    "SensitivityAtSpecificity(-0.1)": (lambda k: k.metrics.SensitivityAtSpecificity(-0.1), "ValueError",
                                       "Argument `specificity` must be in the range [0, 1]. Received: specificity=-0.1"),
    "SpecificityAtSensitivity(1.5)": (lambda k: k.metrics.SpecificityAtSensitivity(1.5), "ValueError",
                                      "Argument `sensitivity` must be in the range [0, 1]. Received: sensitivity=1.5"),
    "DepthwiseConv2D(strides=0)": (lambda k: k.layers.DepthwiseConv2D(3, strides=0), "ValueError",
                                   "including values {0} that do not satisfy `value > 0`"),
    "DepthwiseConv1D(strides=0)": (lambda k: k.layers.DepthwiseConv1D(3, strides=0), "ValueError",
                                   "including values {0} that do not satisfy `value > 0`"),
    "SeparableConv2D(strides=0)": (lambda k: k.layers.SeparableConv2D(2, 3, strides=0), "ValueError",
                                   "including values {0} that do not satisfy `value > 0`"),
}


@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("what", list(_ARGS))
def test_blind50_constructor_argument_checks(keras, what):
    """A layer's or metric's constructor accepts or refuses an argument as Keras 3.15 does, with its error class and
    message (observed on TF 2.21): UnitNormalization's axis type (TypeError), Cropping's zero and negative crops,
    InputLayer's exclusive shape arguments, ConvLSTM's and Conv's strides with dilation on any axis, the noise and
    dropout layers' [0, 1] ranges (AlphaDropout has none), the at-value metrics' [0, 1] ranges, zero strides."""
    make, want_cls, want = _ARGS[what]
    cls, got = _outcome(lambda: make(keras))
    if want_cls == "ok":
        assert (cls, got) == ("ok", want), f"{what}: expected to be accepted with {want!r}, got {cls}: {got}"
    else:
        assert cls == want_cls and want in got, f"{what}: expected {want_cls} with {want!r}, got {cls}: {got}"


# -- the ReLU layer's options ---------------------------------------------------------------------------------------------------
_RELU_X = np.array([-2.0, -0.5, 0.0, 0.25, 0.5, 1.0, 3.0, 7.0], "float32")


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("kw", [{}, {"threshold": 0.5}, {"max_value": 6.0}, {"max_value": 2.0},
                                {"negative_slope": 0.1}, {"threshold": 0.5, "negative_slope": 0.1},
                                {"threshold": 0.5, "max_value": 2.0}, {"threshold": 1.0},
                                {"negative_slope": 0.2, "max_value": 2.0, "threshold": 0.25}],
                         ids=lambda kw: "-".join(f"{k}={v}" for k, v in kw.items()) or "default")
def test_blind50_relu_layer_options(keras, kw):
    """ReLU(max_value, negative_slope, threshold) as Keras 3.15's activations.relu computes it: x where x > threshold
    (else 0), clipped to [0, max_value], minus negative_slope · relu(threshold - x); computed here in float64."""
    t, slope, top = kw.get("threshold", 0.0), kw.get("negative_slope", 0.0), kw.get("max_value")
    x = _RELU_X.astype(np.float64)
    pos = np.where(x > t, x, 0.0) if t != 0 else np.maximum(x, 0.0)
    if top is not None:
        pos = np.clip(pos, 0.0, top)
    want = pos - slope * np.maximum(t - x, 0.0)
    got = np.asarray(_np(keras.layers.ReLU(**kw)(_RELU_X)))
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7, err_msg=f"ReLU({kw}) of {_RELU_X.tolist()}")


# -- the recurrent cells' state sizes and initial states ----------------------------------------------------------------------
@clause("keras.layer.option-coverage", ref="tf221")
def test_blind50_stacked_cells_state_size_in_cell_order(keras):
    """StackedRNNCells([SimpleRNNCell(2), LSTMCell(3), GRUCell(4)]): state_size lists each cell's in the cells' order
    ([2, [3, 3], 4]), output_size is the last cell's (4), get_initial_state gives each cell's zeros in that order, and
    an RNN over the list returns the output and then every state (shapes; observed on TF 2.21)."""
    cells = lambda: [keras.layers.SimpleRNNCell(2), keras.layers.LSTMCell(3), keras.layers.GRUCell(4)]   # noqa: E731
    stacked = keras.layers.StackedRNNCells(cells())
    got = [list(s) if isinstance(s, (list, tuple)) else int(s) for s in stacked.state_size]
    assert got == [2, [3, 3], 4], f"StackedRNNCells state_size: expected [2, [3, 3], 4], got {got}"
    assert int(stacked.output_size) == 4, f"StackedRNNCells output_size: expected 4, got {stacked.output_size}"
    init = stacked.get_initial_state(batch_size=2)
    shapes = [[tuple(u.shape) for u in s] if isinstance(s, (list, tuple)) else [tuple(s.shape)] for s in init]
    assert shapes == [[(2, 2)], [(2, 3), (2, 3)], [(2, 4)]], f"StackedRNNCells initial states: got {shapes}"
    outs = keras.layers.RNN(cells(), return_state=True)(np.ones((1, 3, 2), "float32"))
    flat = []
    for t in outs:
        flat += [tuple(u.shape) for u in t] if isinstance(t, (list, tuple)) else [tuple(t.shape)]
    assert flat == [(1, 4), (1, 2), (1, 3), (1, 3), (1, 4)], \
        f"RNN([SimpleRNNCell(2), LSTMCell(3), GRUCell(4)], return_state=True): expected output (1, 4) then states " \
        f"(1, 2), (1, 3), (1, 3), (1, 4), got {flat}"


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("dtype", ["mixed_float16", "float64", "float32"])
@pytest.mark.parametrize("name", ["SimpleRNN", "GRU", "LSTM"])
def test_blind50_rnn_initial_state_takes_the_compute_dtype(keras, name, dtype):
    """A recurrent cell's and layer's get_initial_state are zeros of the compute dtype (float16 under
    mixed_float16, Keras 3.15's ops.zeros(..., dtype=self.compute_dtype)); LSTM's two states both."""
    want = "float16" if dtype == "mixed_float16" else dtype
    n = 2 if name == "LSTM" else 1
    cell = getattr(keras.layers, name + "Cell")(2, dtype=dtype)
    got = [str(t.dtype.name) for t in cell.get_initial_state(batch_size=2)]
    assert got == [want] * n, f"{name}Cell(dtype={dtype}).get_initial_state: expected {[want] * n}, got {got}"
    got = [str(t.dtype.name) for t in getattr(keras.layers, name)(2, dtype=dtype).get_initial_state(2)]
    assert got == [want] * n, f"{name}(dtype={dtype}).get_initial_state: expected {[want] * n}, got {got}"
    y = getattr(keras.layers, name)(2, dtype=dtype)(np.ones((1, 3, 2), "float32"))
    assert str(y.dtype.name) == want, f"{name}(dtype={dtype}) output: expected {want}, got {y.dtype.name}"


# -- Hashing and HashedCrossing: output shape and dtype per mode --------------------------------------------------------------
def _hash_shape(mode, shape, bins):
    """Keras 3.15's Hashing output shape: 'int' keeps the input's; 'one_hot' appends bins after squeezing a unit last
    axis; the counting modes replace the last axis (a rank-1 input is one sample)."""
    if mode == "int":
        return shape
    if mode == "one_hot":
        return (shape[:-1] if shape[-1] == 1 and len(shape) > 1 else shape) + (bins,)
    return shape[:-1] + (bins,) if len(shape) > 1 else (bins,)


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("shape", [(2, 1), (1, 2), (2,), (2, 3), (1, 1)])
@pytest.mark.parametrize("mode", ["int", "one_hot", "multi_hot", "count"])
def test_blind50_hashing_output_shape_and_dtype_by_mode(keras, mode, shape):
    """Hashing(num_bins=3, output_mode) of a string batch: the shape by Keras 3.15's rule (_hash_shape: a unit last
    axis is squeezed before one_hot, whatever the batch size) and the dtype (int64 for 'int', else float32; observed
    on TF 2.21)."""
    x = np.array(list("abcdef")[:int(np.prod(shape))]).reshape(shape)
    y = keras.layers.Hashing(num_bins=3, output_mode=mode)(x)
    want = (_hash_shape(mode, shape, 3), "int64" if mode == "int" else "float32")
    got = (tuple(y.shape), str(y.dtype.name))
    assert got == want, f"Hashing(num_bins=3, output_mode={mode!r}) of a {shape} batch: expected {want}, got {got}"


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("scalar", [False, True])
@pytest.mark.parametrize("mode, dtype", [("int", None), ("int", "int32"), ("one_hot", None), ("one_hot", "int32")])
def test_blind50_hashed_crossing_output_dtype(keras, tf, mode, dtype, scalar):
    """HashedCrossing(num_bins=5, output_mode, dtype): 'int' gives int64 unless a dtype is given, 'one_hot' the
    float policy's float32 (or the dtype given); a batch of 2 gives (2,) or (2, 5), scalars () or (1, 5) (observed
    on TF 2.21)."""
    inputs = [tf.constant(1), tf.constant("a")] if scalar else [np.array([1, 2]), np.array(["a", "b"])]
    y = keras.layers.HashedCrossing(num_bins=5, output_mode=mode, dtype=dtype)(inputs)
    want_dtype = dtype or ("int64" if mode == "int" else "float32")
    want_shape = (() if scalar else (2,)) if mode == "int" else ((1, 5) if scalar else (2, 5))
    got = (tuple(y.shape), str(y.dtype.name))
    assert got == (want_shape, want_dtype), f"HashedCrossing(output_mode={mode!r}, dtype={dtype}) of " \
                                            f"{'scalars' if scalar else 'a batch of 2'}: expected " \
                                            f"{(want_shape, want_dtype)}, got {got}"


# -- the lookup layers' vocabulary_size ---------------------------------------------------------------------------------------
@clause("keras.layer.lookup", ref="tf221")
@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize("oov", [0, 1, 2])
@pytest.mark.parametrize("mode", ["int", "one_hot", "multi_hot", "count", "tf_idf"])
@pytest.mark.parametrize("cls", ["StringLookup", "IntegerLookup"])
def test_blind50_lookup_vocabulary_size_counts_special_tokens(keras, cls, mode, oov, masked):
    """vocabulary_size() of a lookup layer over two tokens is the length of get_vocabulary(): the tokens, the
    num_oov_indices OOV slots and, in 'int' mode only, the mask token's (Keras 3.15's lookup_table.size() plus
    _token_start_index())."""
    voc, mask = (["a", "b"], "") if cls == "StringLookup" else ([3, 4], 0)
    kw = dict(vocabulary=voc, num_oov_indices=oov, mask_token=mask if masked else None, output_mode=mode)
    if mode == "tf_idf":
        kw["idf_weights"] = [1.0, 2.0]
    layer = getattr(keras.layers, cls)(**kw)
    want = 2 + oov + (1 if masked and mode == "int" else 0)
    got = (int(layer.vocabulary_size()), len(layer.get_vocabulary()))
    assert got == (want, want), f"{cls}({kw}): expected vocabulary_size() and len(get_vocabulary()) {want}, got {got}"


# -- AdditiveAttention's and Attention's weights ------------------------------------------------------------------------------
_Q = np.array([[[1.0, 0.0, 2.0], [0.5, -1.0, 0.0]]], "float32")
_V = np.array([[[0.0, 1.0, 1.0], [2.0, 0.0, -1.0], [1.0, 1.0, 0.0], [-1.0, 0.5, 0.5]]], "float32")


def _softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("use_scale", [False, True])
def test_blind50_additive_attention_scale_per_feature(keras, use_scale):
    """AdditiveAttention(use_scale=True) has one trainable scale per feature (shape [dim], Keras 3.15); with the
    scale set to [1, 2, -1] its output is softmax(Σ_d scale_d · tanh(q_d + k_d)) · v (key = value), computed here in
    float64; without use_scale no weight and the scale is 1."""
    layer = keras.layers.AdditiveAttention(use_scale=use_scale)
    layer([_Q, _V])
    shapes = [tuple(w.shape) for w in layer.weights]
    assert shapes == ([(3,)] if use_scale else []), f"AdditiveAttention(use_scale={use_scale}) weights: expected " \
                                                    f"{[(3,)] if use_scale else []}, got {shapes}"
    scale = np.array([1.0, 2.0, -1.0]) if use_scale else np.ones(3)
    if use_scale:
        layer.set_weights([scale.astype("float32")])
    q, v = _Q.astype(np.float64), _V.astype(np.float64)
    scores = (scale * np.tanh(q[:, :, None, :] + v[:, None, :, :])).sum(-1)
    want = _softmax(scores) @ v
    got = np.asarray(_np(layer([_Q, _V])))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=f"AdditiveAttention(use_scale={use_scale})")


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("score_mode", ["dot", "concat"])
@pytest.mark.parametrize("use_scale", [False, True])
def test_blind50_attention_weights(keras, use_scale, score_mode):
    """Attention(use_scale, score_mode): a scalar scale (use_scale) and a scalar concat_score_weight ('concat'), in
    that order (Keras 3.15's build)."""
    layer = keras.layers.Attention(use_scale=use_scale, score_mode=score_mode)
    layer([_Q, _V])
    want = [()] * (int(use_scale) + int(score_mode == "concat"))
    got = [tuple(w.shape) for w in layer.weights]
    assert got == want, f"Attention(use_scale={use_scale}, score_mode={score_mode!r}) weights: expected {want}, got {got}"


# -- float16 losses ---------------------------------------------------------------------------------------------------------------
_F16_A = np.array([[0.25, 0.5], [0.75, 1.0]], "float16")
_F16_B = np.array([[0.5, 0.25], [0.5, 0.5]], "float16")
#: loss function -> the dtype of its per-sample value for float16 inputs (observed on TF 2.21: every one float16 but
#: mean_squared_logarithmic_error, whose log1p is float32 in Keras 3.15).
_F16_LOSSES = {"mse": "float16", "mae": "float16", "mape": "float16", "msle": "float32", "kld": "float16",
               "poisson": "float16", "log_cosh": "float16", "huber": "float16", "binary_crossentropy": "float16",
               "categorical_crossentropy": "float16", "hinge": "float16", "squared_hinge": "float16",
               "categorical_hinge": "float16", "cosine_similarity": "float16"}


@clause("keras.loss.dtype", ref="tf221")
@pytest.mark.parametrize("name", list(_F16_LOSSES))
def test_blind50_float16_losses_keep_float16(keras, name):
    """A loss function of float16 y_true and y_pred returns its per-sample values in float16 (Keras's ops.mean of
    float16 computes in float32 and casts back; observed on TF 2.21); MSE's and MAE's values are the NumPy means."""
    y = keras.losses.get(name)(_F16_A, _F16_B)
    got = str(y.dtype.name)
    assert got == _F16_LOSSES[name], f"{name} of float16 inputs: expected {_F16_LOSSES[name]}, got {got}"
    a, b = _F16_A.astype(np.float64), _F16_B.astype(np.float64)
    want = {"mse": ((a - b) ** 2).mean(-1), "mae": np.abs(a - b).mean(-1)}.get(name)
    if want is not None:
        np.testing.assert_allclose(np.asarray(_np(y), np.float64), want, rtol=1e-3, err_msg=f"{name} values")


# -- the metrics' thresholds, counts and reset --------------------------------------------------------------------------------
@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("kw", [{"num_thresholds": 3}, {"num_thresholds": 5}, {"thresholds": [0.3, 0.6]},
                                {"num_thresholds": 200}], ids=lambda kw: "-".join(f"{k}={v}" for k, v in kw.items()))
def test_blind50_auc_thresholds_include_the_end_points(keras, kw):
    """AUC.thresholds lists every threshold it counts at, the two end points included: [-epsilon] + the interior
    thresholds ((i + 1) / (n - 1) for i < n - 2, or those given) + [1 + epsilon] (Keras 3.15, epsilon 1e-7)."""
    if "thresholds" in kw:
        inner = list(kw["thresholds"])
    else:
        n = kw["num_thresholds"]
        inner = [(i + 1) / (n - 1) for i in range(n - 2)]
    want = [-1e-7] + inner + [1.0 + 1e-7]
    got = [float(t) for t in keras.metrics.AUC(**kw).thresholds]
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-9, err_msg=f"AUC({kw}).thresholds")


_CM_TRUE = np.array([0, 1, 0, 0, 1, 1], "float32")
_CM_PRED = np.array([0.9, 0.8, 0.7, 0.1, 0.4, 0.2], "float32")


@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("thresholds", [None, 0.5, [0.5], 0.3, [0.15, 0.5, 0.75]], ids=str)
@pytest.mark.parametrize("name", ["TruePositives", "FalsePositives", "TrueNegatives", "FalseNegatives"])
def test_blind50_confusion_counts_scalar_for_one_threshold(keras, name, thresholds):
    """TruePositives/FalsePositives/TrueNegatives/FalseNegatives count predictions above each threshold (default
    0.5): one threshold (none, a float or a list of one) gives a scalar, several a vector (Keras 3.15's result);
    counted here with NumPy."""
    ts = [0.5] if thresholds is None else thresholds if isinstance(thresholds, list) else [thresholds]
    counts = []
    for t in ts:
        p, y = _CM_PRED > t, _CM_TRUE > 0.5
        counts.append({"TruePositives": p & y, "FalsePositives": p & ~y, "TrueNegatives": ~p & ~y,
                       "FalseNegatives": ~p & y}[name].sum())
    m = getattr(keras.metrics, name)(thresholds=thresholds)
    m.update_state(_CM_TRUE, _CM_PRED)
    got = np.asarray(_np(m.result()))
    want = np.asarray(counts[0] if len(ts) == 1 else counts, np.float32)
    assert got.shape == want.shape and np.array_equal(got, want), \
        f"{name}(thresholds={thresholds}): expected {want!r} (shape {want.shape}), got {got!r} (shape {got.shape})"


def _iou(y_true, y_pred, num_classes, ids):
    cm = np.zeros((num_classes, num_classes))
    for t, p in zip(y_true, y_pred):
        cm[t, p] += 1
    tp = np.diag(cm)
    denom = cm.sum(0) + cm.sum(1) - tp
    vals = [tp[i] / denom[i] for i in ids if denom[i] > 0]
    return float(np.mean(vals)) if vals else 0.0


@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("sparse_y_pred", [True, False])
@pytest.mark.parametrize("sparse_y_true", [True, False])
def test_blind50_iou_sparse_flags(keras, sparse_y_true, sparse_y_pred):
    """IoU(num_classes=3, target_class_ids=[0, 1, 2], sparse_y_true, sparse_y_pred): a dense y_true/y_pred is
    arg-maxed on the last axis first, a sparse one taken as class ids; each flag acts on its own argument; the mean
    IoU is computed here from the confusion matrix."""
    t = np.array([0, 1, 1, 2, 0])
    probs = np.array([[0.9, 0.05, 0.05], [0.2, 0.7, 0.1], [0.6, 0.3, 0.1], [0.1, 0.1, 0.8], [0.3, 0.3, 0.4]],
                     "float32")
    p = probs.argmax(-1)
    y_true = t if sparse_y_true else np.eye(3, dtype="float32")[t]
    y_pred = p if sparse_y_pred else probs
    m = keras.metrics.IoU(num_classes=3, target_class_ids=[0, 1, 2], sparse_y_true=sparse_y_true,
                          sparse_y_pred=sparse_y_pred)
    m.update_state(y_true, y_pred)
    got = float(_np(m.result()))
    want = _iou(t, p, 3, [0, 1, 2])
    assert abs(got - want) < 1e-6, f"IoU(sparse_y_true={sparse_y_true}, sparse_y_pred={sparse_y_pred}): expected " \
                                   f"{want}, got {got}"


_BIN_T = np.array([[1, 0], [1, 0], [0, 1]], "float32")
_BIN_P = np.array([[0.9, 0.1], [0.2, 0.1], [0.6, 0.7]], "float32")
_BIN_T2 = np.array([[0, 1], [1, 0], [1, 1]], "float32")
_BIN_P2 = np.array([[0.9, 0.8], [0.7, 0.1], [0.3, 0.6]], "float32")
#: metric -> a constructor; each updated with (_BIN_T, _BIN_P), reset, updated with (_BIN_T2, _BIN_P2).
_RESET = {
    "FBetaScore-None": lambda k: k.metrics.FBetaScore(threshold=0.5),
    "FBetaScore-micro": lambda k: k.metrics.FBetaScore(average="micro", threshold=0.5),
    "FBetaScore-macro": lambda k: k.metrics.FBetaScore(average="macro", threshold=0.5, beta=2.0),
    "FBetaScore-weighted": lambda k: k.metrics.FBetaScore(average="weighted", threshold=0.5),
    "F1Score-weighted": lambda k: k.metrics.F1Score(average="weighted", threshold=0.5),
    "F1Score-None": lambda k: k.metrics.F1Score(),
    "AUC": lambda k: k.metrics.AUC(num_thresholds=7),
    "AUC-multi_label": lambda k: k.metrics.AUC(num_thresholds=7, multi_label=True),
    "Precision": lambda k: k.metrics.Precision(),
    "Recall-top_k": lambda k: k.metrics.Recall(top_k=1),
    "PrecisionAtRecall": lambda k: k.metrics.PrecisionAtRecall(0.5, num_thresholds=7),
    "R2Score": lambda k: k.metrics.R2Score(),
    "IoU": lambda k: k.metrics.BinaryIoU(target_class_ids=[0, 1]),
    "MeanSquaredError": lambda k: k.metrics.MeanSquaredError(),
    "RootMeanSquaredError": lambda k: k.metrics.RootMeanSquaredError(),
    "BinaryAccuracy": lambda k: k.metrics.BinaryAccuracy(),
    "PearsonCorrelation": lambda k: k.metrics.PearsonCorrelation(),
}


@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("name", list(_RESET))
def test_blind50_metric_reset_state_forgets_everything(keras, name):
    """After update_state(A), reset_state() and update_state(B), a metric's result equals a fresh metric's after
    update_state(B) alone, and every variable is back to a fresh metric's after the reset (Keras 3.15's reset_state
    zeroes every state variable, FBetaScore's weighted average's weights included)."""
    make = _RESET[name]
    used, fresh = make(keras), make(keras)
    used.update_state(_BIN_T, _BIN_P)
    used.reset_state()
    for a, b in zip(used.variables, fresh.variables):
        np.testing.assert_array_equal(np.asarray(_np(a)), np.asarray(_np(b)),
                                      err_msg=f"{name}: variable {a.name} after reset_state vs a fresh metric's")
    used.update_state(_BIN_T2, _BIN_P2)
    fresh.update_state(_BIN_T2, _BIN_P2)
    np.testing.assert_allclose(np.asarray(_np(used.result())), np.asarray(_np(fresh.result())), rtol=1e-6,
                               err_msg=f"{name}: result after update, reset, update vs a fresh metric's")


# -- optimizer options: RMSprop's centered, Adafactor's clip_threshold, Muon's two weight decays --------------------------
_GRADS = [np.array([0.5, -1.0, 0.25], "float32"), np.array([0.25, 1.0, -0.5], "float32"),
          np.array([-1.0, 0.5, 0.75], "float32")]
_START = np.array([1.0, 2.0, -0.5], "float32")


def _apply(keras, opt, start, grads):
    v = keras.Variable(start, name="w")
    for g in grads:
        opt.apply_gradients([(g, v)])
    return np.asarray(_np(v), np.float64)


@clause("optim.option-coverage", ref="tf221")
@pytest.mark.parametrize("momentum", [0.0, 0.5])
@pytest.mark.parametrize("centered", [False, True])
def test_blind50_rmsprop_centered_and_momentum(keras, centered, momentum):
    """RMSprop(0.1, rho=0.9, momentum, epsilon=1e-7, centered) over three steps, Keras 3.15's update_step in float64:
    v = ρv + (1 - ρ)g²; centered: a = ρa + (1 - ρ)g and the denominator v - a² + ε, else v + ε; increment
    lr · g / sqrt(denominator), through the momentum buffer when momentum > 0."""
    lr, rho, eps = 0.1, 0.9, 1e-7
    x, v, a, m = _START.astype(np.float64), 0.0, 0.0, 0.0
    for g in _GRADS:
        g = g.astype(np.float64)
        v = rho * v + (1 - rho) * g * g
        if centered:
            a = rho * a + (1 - rho) * g
            den = v - a * a + eps
        else:
            den = v + eps
        inc = lr * g / np.sqrt(den)
        if momentum > 0:
            m = momentum * m + inc
            x = x - m
        else:
            x = x - inc
    got = _apply(keras, keras.optimizers.RMSprop(lr, rho=rho, momentum=momentum, epsilon=eps, centered=centered),
                 _START, _GRADS)
    np.testing.assert_allclose(got, x, rtol=1e-5, atol=1e-6, err_msg=f"RMSprop(centered={centered}, momentum={momentum})")


def _adafactor(x, grads, lr, clip, relative_step=True, beta_2_decay=-0.8, eps1=1e-30, eps2=1e-3):
    """Keras 3.15's Adafactor.update_step, transcribed in float64 (a factored second moment for rank >= 2)."""
    rms = lambda t: np.sqrt(np.mean(t * t))   # noqa: E731
    x = x.astype(np.float64)
    r, c, v = np.zeros(x.shape[:-1]), np.zeros(x.shape[:-2] + x.shape[-1:]), np.zeros(x.shape)
    for step, g in enumerate(grads, start=1):
        g = g.astype(np.float64)
        rate = min(lr, 1 / np.sqrt(step)) if relative_step else lr
        alpha = max(eps2, rms(x)) * min(rate, 1 / np.sqrt(step))
        sq = g * g + eps1
        beta = 1 - step ** beta_2_decay
        if x.ndim >= 2:
            r = beta * r + (1 - beta) * sq.mean(-1)
            c = beta * c + (1 - beta) * sq.mean(-2)
            v = (r / r.mean(-1, keepdims=True))[..., None] * c[..., None, :]
        else:
            v = beta * v + (1 - beta) * sq
        u = g / np.sqrt(v)
        x = x - alpha * u / max(1.0, rms(u) / clip)
    return x


@clause("optim.option-coverage", ref="tf221")
@pytest.mark.parametrize("rank", [1, 2])
@pytest.mark.parametrize("clip_threshold", [1.0, 0.1, 10.0])
def test_blind50_adafactor_clip_threshold(keras, clip_threshold, rank):
    """Adafactor(0.5, clip_threshold) over three steps of a rank-1 and a rank-2 variable: the update u / max(1,
    rms(u) / clip_threshold) scaled by max(ε₂, rms(x)) · min(lr, 1/√t) (Keras 3.15's update_step, transcribed in
    float64 in _adafactor)."""
    start = _START if rank == 1 else np.array([[1.0, 2.0, -0.5], [0.5, -1.5, 3.0]], "float32")
    grads = _GRADS if rank == 1 else [np.stack([g, g[::-1] * 2]) for g in _GRADS]
    want = _adafactor(start, grads, 0.5, clip_threshold)
    got = _apply(keras, keras.optimizers.Adafactor(0.5, clip_threshold=clip_threshold), start, grads)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6,
                               err_msg=f"Adafactor(0.5, clip_threshold={clip_threshold}), rank {rank}")


@clause("optim.option-coverage", ref="tf221")
@pytest.mark.parametrize("decays", [(0.5, 0.0), (0.0, 0.5), (0.5, 0.25), (None, 0.1), (0.2, None)], ids=str)
def test_blind50_muon_weight_decay_by_path(keras, decays):
    """Muon(0.1, weight_decay, adam_weight_decay) with zero gradients changes each variable by its weight decay
    only: x(1 - wd · lr), adam_weight_decay for the AdamW path (a rank-1 variable), weight_decay for the Muon path
    (a rank-2 one); None: no decay (Keras 3.15's Muon._apply_weight_decay)."""
    wd, adam_wd = decays
    opt = keras.optimizers.Muon(learning_rate=0.1, weight_decay=wd, adam_weight_decay=adam_wd)
    vec = keras.Variable(np.array([1.0, 2.0], "float32"), name="bias")
    mat = keras.Variable(np.array([[1.0, 2.0], [-1.0, 0.5]], "float32"), name="kernel")
    opt.apply_gradients([(np.zeros(2, "float32"), vec), (np.zeros((2, 2), "float32"), mat)])
    for var, decay, start in ((vec, adam_wd, [1.0, 2.0]), (mat, wd, [[1.0, 2.0], [-1.0, 0.5]])):
        want = np.asarray(start) * (1 - (decay or 0.0) * 0.1)
        np.testing.assert_allclose(np.asarray(_np(var)), want, rtol=1e-6,
                                   err_msg=f"Muon(weight_decay={wd}, adam_weight_decay={adam_wd}), {var.name}")


# -- callbacks: the hooks each loop calls, LearningRateScheduler's messages, SwapEMAWeights around evaluate/predict ---------
_HOOKS = ["on_train_begin", "on_train_end", "on_epoch_begin", "on_epoch_end", "on_test_begin", "on_test_end",
          "on_predict_begin", "on_predict_end", "on_train_batch_begin", "on_train_batch_end", "on_test_batch_begin",
          "on_test_batch_end", "on_predict_batch_begin", "on_predict_batch_end"]


def _recorder(keras):
    class Recorder(keras.callbacks.Callback):
        def __init__(self):
            super().__init__()
            self.seen = []

    def hook(name):
        def f(self, *args, **kwargs):
            self.seen.append((name,) + tuple(a for a in args if isinstance(a, int)))
        return f
    for name in _HOOKS:
        setattr(Recorder, name, hook(name))
    return Recorder()


def _loop(what, batches):
    """The hooks Keras 3.15's loops call, in order: <what>_begin, then (batch_begin i, batch_end i) per batch, end."""
    out = [(f"on_{what}_begin",)]
    for i in range(batches):
        out += [(f"on_{what}_batch_begin", i), (f"on_{what}_batch_end", i)]
    return out + [(f"on_{what}_end",)]


@clause("keras.callback.option-coverage", ref="tf221")
@pytest.mark.parametrize("how", ["predict", "evaluate", "fit", "fit-validation"])
def test_blind50_each_loop_calls_its_own_hooks(keras, how):
    """predict calls the predict hooks only, evaluate the test hooks only, fit the train hooks around each epoch's
    train batches and, with validation data, the test hooks of the validation between the last batch and
    on_epoch_end (Keras 3.15's loops; two batches of two samples, one epoch)."""
    keras.utils.set_random_seed(1)
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    x, y = np.ones((4, 2), "float32"), np.zeros((4, 1), "float32")
    rec = _recorder(keras)
    if how == "predict":
        model.predict(x, batch_size=2, verbose=0, callbacks=[rec])
        want = _loop("predict", 2)
    elif how == "evaluate":
        model.evaluate(x, y, batch_size=2, verbose=0, callbacks=[rec])
        want = _loop("test", 2)
    else:
        model.fit(x, y, batch_size=2, epochs=1, verbose=0, callbacks=[rec],
                  validation_data=(x, y) if how == "fit-validation" else None)
        train = _loop("train", 2)
        want = [train[0], ("on_epoch_begin", 0)] + train[1:-1] + \
            (_loop("test", 2) if how == "fit-validation" else []) + [("on_epoch_end", 0), train[-1]]
    assert rec.seen == want, f"{how}: expected the hooks {want}, got {rec.seen}"


@clause("keras.callback.option-coverage", ref="tf221")
@pytest.mark.parametrize("verbose", [0, 1])
def test_blind50_learning_rate_scheduler_verbose(keras, verbose):
    """LearningRateScheduler(lambda epoch, lr: lr / 2, verbose) over two epochs: with verbose > 0 one message per
    epoch, "Epoch N: LearningRateScheduler setting learning rate to R." with R the halved float32 rate read back
    as a Python float; with verbose 0 none (Keras 3.15)."""
    import contextlib
    import io
    keras.utils.set_random_seed(1)
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        model.fit(np.ones((4, 2), "float32"), np.zeros((4, 1), "float32"), epochs=2, verbose=0,
                  callbacks=[keras.callbacks.LearningRateScheduler(lambda e, lr: lr / 2, verbose=verbose)])
    got = [line.strip() for line in buf.getvalue().splitlines() if line.strip()]
    want, lr = [], float(np.float32(0.1))
    for epoch in range(2):
        lr = lr / 2
        want.append(f"Epoch {epoch + 1}: LearningRateScheduler setting learning rate to {lr}.")
        lr = float(np.float32(lr))
    want = want if verbose else []
    assert got == want, f"LearningRateScheduler(verbose={verbose}): expected the lines {want}, got {got}"


@clause("keras.callbacks.swap-ema-weights", ref="tf221")
@pytest.mark.parametrize("what", ["evaluate", "predict", "evaluate-twice"])
def test_blind50_swap_ema_weights_around_evaluate_and_predict(keras, what):
    """SwapEMAWeights() passed to evaluate or predict: during the loop the model holds the optimizer's moving
    averages; after evaluate its own weights again (Keras 3.15's on_test_begin and on_test_end swap both ways), also
    when evaluate runs twice; after predict still the averages (Keras 3.15's on_predict_end swaps back only when
    the averages are *not* in the model, which after on_predict_begin never holds; observed on TF 2.21)."""
    keras.utils.set_random_seed(1)
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer=keras.optimizers.SGD(0.1, use_ema=True, ema_momentum=0.5), loss="mse")
    x, y = np.array([[1.0, 2.0], [0.5, -1.0], [2.0, 0.0], [1.0, 1.0]], "float32"), np.zeros((4, 1), "float32")
    model.fit(x, y, epochs=2, batch_size=2, verbose=0)
    model.train_on_batch(x, y)   # (fit ends with the averages written in: one more step makes them differ)
    own = np.asarray(_np(model.layers[0].kernel)).copy()
    ema = np.asarray(_np(model.optimizer._model_variables_moving_average[0])).copy()
    assert not np.allclose(own, ema), f"the weights {own.ravel()} equal their averages {ema.ravel()}: nothing to see"
    inside = []

    class Peek(keras.callbacks.Callback):
        def on_test_batch_end(self, batch, logs=None):
            inside.append(np.asarray(_np(model.layers[0].kernel)).copy())

        def on_predict_batch_end(self, batch, logs=None):
            inside.append(np.asarray(_np(model.layers[0].kernel)).copy())
    callbacks = [keras.callbacks.SwapEMAWeights(), Peek()]
    for _ in range(2 if what == "evaluate-twice" else 1):
        if what == "predict":
            model.predict(x, batch_size=4, verbose=0, callbacks=callbacks)
        else:
            model.evaluate(x, y, batch_size=4, verbose=0, callbacks=callbacks)
        after = np.asarray(_np(model.layers[0].kernel))
        np.testing.assert_allclose(inside[-1], ema, rtol=1e-6, err_msg=f"{what}: the kernel during the loop vs the EMA")
        np.testing.assert_allclose(after, ema if what == "predict" else own, rtol=1e-6,
                                   err_msg=f"{what}: the kernel after the loop vs {'the EMA' if what == 'predict' else 'before it'}")
