"""Gaps the fifty-fourth blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is the
suite"): rules of Keras's layers, losses, metrics, optimizers, schedules and callbacks that the suite stated for one
spelling, one option value or one input only, or never, so that a wrong implementation of the other case passed
(TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy or
plain Python (a transcription of TF's or Keras 3.15's rule), or is a relation TF's rule implies between two
spellings, or (said so where it is) was observed on TF 2.21 — never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from simdist.conformance.assertions import to_numpy as _np   # (an ndarray of any backend's value)
from simdist.conformance.suite.outcomes import outcome as _outcome

clause = pytest.mark.clause


# -- the audio layers' output shapes -------------------------------------------------------------------------------------------
def _conv_len(n, k, s, padding):
    """Keras's compute_conv_output_shape along one axis (dilation 1)."""
    if n is None:
        return None
    return (n - k) // s + 1 if padding == "valid" else -(-n // s)


def _want_stft(shape, mode, fft, frame_length, step, padding, data_format, expand_dims):
    """Keras 3.15's STFTSpectrogram.compute_output_shape: fft // 2 + 1 frequencies (twice that in 'stft' mode), the
    frames a conv1d of kernel frame_length and stride frame_step gives; expand_dims splits the channels axis into
    (frequency, channel) — (time, freq, ch) channels_last, (ch, time, freq) channels_first."""
    last = data_format == "channels_last"
    channels, n = (shape[-1], shape[1]) if last else (shape[1], shape[2])
    freq = fft // 2 + 1
    if mode == "stft":
        freq *= 2
    t = _conv_len(n, frame_length, step, padding)
    if expand_dims:
        return (shape[0], t, freq, channels) if last else (shape[0], channels, t, freq)
    return (shape[0], t, freq * channels) if last else (shape[0], freq * channels, t)


_STFT = [(mode, padding, fmt, expand, shape)
         for mode in ["log", "magnitude", "psd", "real", "imag", "angle", "stft"]
         for padding in ["valid", "same"]
         for fmt, shape in [("channels_last", (None, 32, 2)), ("channels_first", (3, 2, 30))]
         for expand in [False, True]]


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("mode, padding, data_format, expand_dims, shape", _STFT, ids=str)
def test_blind54_stft_spectrogram_output_shape(keras, mode, padding, data_format, expand_dims, shape):
    """STFTSpectrogram's compute_output_shape over its seven modes, both paddings, both data formats and expand_dims
    (a transcription of Keras 3.15's rule, _want_stft); channels_last: the eager call's shape is the same."""
    kw = dict(mode=mode, frame_length=8, frame_step=3, fft_length=16, padding=padding, expand_dims=expand_dims,
              data_format=data_format)
    want = _want_stft(shape, mode, 16, 8, 3, padding, data_format, expand_dims)
    got = tuple(keras.layers.STFTSpectrogram(**kw).compute_output_shape(shape))
    assert got == want, f"STFTSpectrogram({kw}).compute_output_shape({shape}): expected {want}, got {got}"
    if data_format == "channels_last":
        x = np.linspace(-1.0, 1.0, 2 * 32 * 2, dtype="float32").reshape(2, 32, 2)
        y = keras.layers.STFTSpectrogram(**kw)(x)
        assert tuple(y.shape) == (2,) + want[1:], f"STFTSpectrogram({kw}) of {x.shape}: expected {(2,) + want[1:]}, " \
                                                  f"got {tuple(y.shape)}"


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("stride", [1, 2, 3, 4, 5, 8])
@pytest.mark.parametrize("shape", [(None, 16), (2, 20), (3, 17), (16,), (None,)], ids=str)
def test_blind54_mel_spectrogram_output_shape(keras, shape, stride):
    """MelSpectrogram.compute_output_shape: [batch, num_mel_bins, frames] ([num_mel_bins, frames] unbatched) with
    Keras 3.15's frame count (n + sequence_stride + 1) // sequence_stride (None for an unknown length) — Keras's own
    formula, which is not the eager call's 1 + n // stride: transcribed, and observed on TF 2.21."""
    layer = keras.layers.MelSpectrogram(fft_length=8, sequence_stride=stride, sequence_length=8, num_mel_bins=5)
    n = shape[-1]
    frames = None if n is None else (n + stride + 1) // stride
    want = [5, frames] if len(shape) == 1 else [shape[0], 5, frames]
    got = list(layer.compute_output_shape(shape))
    assert got == want, f"MelSpectrogram(sequence_stride={stride}).compute_output_shape({shape}): expected {want}, got {got}"


# -- the upsampling and padding layers' shapes with a zero-size or unknown axis ------------------------------------------------
_ZERO = [
    ("UpSampling1D", {"size": 3}, (None, 0, 2), (None, 0, 2)),
    ("UpSampling1D", {"size": 3}, (2, None, 2), (2, None, 2)),
    ("UpSampling1D", {"size": 2}, (0, 4, 2), (0, 8, 2)),
    ("UpSampling2D", {"size": (2, 3)}, (None, 0, 4, 2), (None, 0, 12, 2)),
    ("UpSampling2D", {"size": (2, 3)}, (None, 5, 0, 2), (None, 10, 0, 2)),
    ("UpSampling2D", {"size": (2, 3), "data_format": "channels_first"}, (None, 2, 0, 4), (None, 2, 0, 12)),
    ("UpSampling2D", {"size": (2, 3), "data_format": "channels_first"}, (None, 2, 4, None), (None, 2, 8, None)),
    ("UpSampling3D", {"size": (2, 1, 3)}, (None, 0, 4, 5, 1), (None, 0, 4, 15, 1)),
    ("UpSampling3D", {"size": (2, 1, 3)}, (None, 3, None, 0, 1), (None, 6, None, 0, 1)),
    ("ZeroPadding1D", {"padding": 2}, (None, 0, 3), (None, 4, 3)),
    ("ZeroPadding2D", {"padding": (1, 2)}, (None, 0, 0, 3), (None, 2, 4, 3)),
    ("Reshape", {"target_shape": (0, 3)}, (4, 0, 5), (4, 0, 3)),
]


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("name, kw, shape, want", _ZERO, ids=str)
def test_blind54_shapes_with_a_zero_size_axis(keras, name, kw, shape, want):
    """compute_output_shape of the upsampling, zero-padding and Reshape layers: a zero-size axis stays
    a (scaled) zero, an unknown one stays unknown (Keras 3.15's `size * d if d is not None else None`)."""
    got = tuple(getattr(keras.layers, name)(**kw).compute_output_shape(shape))
    assert got == want, f"{name}({kw}).compute_output_shape({shape}): expected {want}, got {got}"


# -- Reshape's static batch size ------------------------------------------------------------------------------------------------
_RESHAPE = [((6,), (4, 2, 3), (4, 6)), ((-1, 2), (5, 2, 3), (5, 3, 2)), ((3, -1), (None, 2, 3), (None, 3, 2)),
            ((2, 3), (1, 6), (1, 2, 3)), ((-1,), (7, None, 3), (7, None))]


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("target, shape, want", _RESHAPE, ids=str)
def test_blind54_reshape_keeps_the_batch_size(keras, target, shape, want):
    """Reshape(target_shape): the batch axis passes through (a static size stays), the -1 is inferred from the
    others (None when one is unknown): compute_output_shape and a symbolic call."""
    got = tuple(keras.layers.Reshape(target).compute_output_shape(shape))
    assert got == want, f"Reshape({target}).compute_output_shape({shape}): expected {want}, got {got}"
    sym = tuple(keras.layers.Reshape(target)(keras.Input(batch_shape=shape)).shape)
    assert sym == want, f"Reshape({target}) of a symbolic {shape}: expected {want}, got {sym}"


# -- Lambda's callable mask -----------------------------------------------------------------------------------------------------
@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("given_mask", [False, True])
def test_blind54_lambda_calls_its_mask_function_with_inputs_then_mask(keras, tf, given_mask):
    """Lambda(mask=fn) calls fn(inputs, mask) — the inputs first, the previous mask (None without one) second — and
    the eager output carries the result as its _keras_mask; compute_mask(inputs, mask) likewise (Keras 3.15)."""
    seen = []

    def fn(inputs, mask):
        seen.append((tuple(inputs.shape), None if mask is None else tuple(mask.shape)))
        keep = tf.not_equal(inputs, 0.0)
        return keep if mask is None else tf.logical_and(keep, mask)

    layer = keras.layers.Lambda(lambda x: x * 2.0, mask=fn)
    x = np.array([[0.0, 1.0, 2.0, 3.0]], "float32")
    prev = np.array([[True, True, False, True]]) if given_mask else None
    want = (x != 0) & (prev if given_mask else True)
    got = _np(layer.compute_mask(tf.constant(x), None if prev is None else tf.constant(prev)))
    assert got.tolist() == want.tolist(), f"compute_mask: expected {want.tolist()}, got {got.tolist()}"
    assert seen[-1] == ((1, 4), (1, 4) if given_mask else None), f"fn's arguments' shapes: {seen[-1]}"
    if not given_mask:
        y = layer(tf.constant(x))
        assert _np(y).tolist() == (x * 2).tolist()
        assert _np(y._keras_mask).tolist() == want.tolist(), f"the output's mask: expected {want.tolist()}"


# -- CategoryEncoding of scalars and vectors ------------------------------------------------------------------------------------
@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("value", [0, 2, 3])
@pytest.mark.parametrize("mode", ["one_hot", "multi_hot", "count"])
def test_blind54_category_encoding_of_a_scalar(keras, tf, mode, value):
    """CategoryEncoding(4) of a scalar: Keras expands it to a vector of one first, so one_hot gives (1, 4) and
    multi_hot/count (4,) (observed on TF 2.21); the values a one-hot row of `value`."""
    y = _np(keras.layers.CategoryEncoding(4, output_mode=mode)(tf.constant(value)))
    row = np.eye(4, dtype="float32")[value]
    want = row[None] if mode == "one_hot" else row
    assert y.shape == want.shape and y.tolist() == want.tolist(), \
        f"CategoryEncoding(4, {mode}) of {value}: expected {want.tolist()}, got {y.shape} {y.tolist()}"


# -- Normalization.adapt over the batch spellings of a dataset ------------------------------------------------------------------
_X = np.array([[1.0, 2.0], [3.0, 6.0], [5.0, 10.0], [7.0, 14.0]], "float32")


def _adapt_data(tf, how):
    y = np.arange(4, dtype="float32").reshape(4, 1) * 100
    w = np.ones((4,), "float32")
    ds = tf.data.Dataset
    return {"array": _X, "tensor": tf.constant(_X), "batched": ds.from_tensor_slices(_X).batch(3),
            "x, y": ds.from_tensor_slices((_X, y)).batch(2), "x, y, w": ds.from_tensor_slices((_X, y, w)).batch(3),
            "list of arrays": [_X[:1], _X[1:]], "list of (x, y)": [(_X[:2], y[:2]), (_X[2:], y[2:])]}[how]


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("how", ["array", "tensor", "batched", "x, y", "x, y, w", "list of arrays", "list of (x, y)"])
def test_blind54_normalization_adapt_takes_the_x_of_each_batch(keras, tf, how):
    """Normalization().adapt learns the per-feature mean and variance of x whatever the spelling: an array, a tensor,
    a batched dataset, a dataset of (x, y) or (x, y, w) batches, a list of batches, a list of (x, y) batches."""
    layer = keras.layers.Normalization()
    layer.adapt(_adapt_data(tf, how))
    mean, var = _X.mean(axis=0), _X.var(axis=0)
    np.testing.assert_allclose(_np(layer.mean).reshape(-1), mean, rtol=1e-6, err_msg=f"mean after adapt({how})")
    np.testing.assert_allclose(_np(layer.variance).reshape(-1), var, rtol=1e-5, err_msg=f"variance after adapt({how})")


# -- the lookup layers without a vocabulary -------------------------------------------------------------------------------------
_NO_VOCAB = [(cls, mode, pad) for cls in ["StringLookup", "IntegerLookup"] for mode in ["int", "multi_hot", "count"]
             for pad in [False, True]]


@clause("keras.layer.lookup", ref="tf221")
@pytest.mark.parametrize("cls, mode, pad", _NO_VOCAB, ids=str)
def test_blind54_lookup_without_vocabulary(keras, tf, cls, mode, pad):
    """A lookup layer called before it has a vocabulary: in 'int' mode or with pad_to_max_tokens Keras goes on to
    the empty table (TF's FailedPreconditionError, the table not initialized); in a multi-hot mode without padding it
    refuses first (RuntimeError: set the vocabulary before calling it) — observed on TF 2.21."""
    kw = {"max_tokens": 5, "pad_to_max_tokens": True} if pad else {}
    layer = getattr(keras.layers, cls)(output_mode=mode, **kw)
    x = tf.constant([["a", "b"]]) if cls == "StringLookup" else tf.constant([[3, 4]], "int64")
    got, msg = _outcome(lambda: layer(x))
    want = "RuntimeError" if (mode != "int" and not pad) else "FailedPreconditionError"
    assert got == want, f"{cls}(output_mode={mode}, pad_to_max_tokens={pad}) without vocabulary: expected {want}, " \
                        f"got {got}: {msg}"


# -- TextVectorization's vocabulary ---------------------------------------------------------------------------------------------
@clause("keras.layer.lookup", ref="tf221")
@pytest.mark.parametrize("specials", [True, False])
@pytest.mark.parametrize("mode", ["int", "multi_hot", "count", "tf_idf"])
def test_blind54_text_vectorization_get_vocabulary(keras, mode, specials):
    """TextVectorization.get_vocabulary(include_special_tokens): the mask token '' (int mode only) and '[UNK]' lead
    unless left out; vocabulary_size counts them always (Keras 3.15's IndexLookup)."""
    extra = {"idf_weights": [0.5, 0.25, 0.125]} if mode == "tf_idf" else {}
    layer = keras.layers.TextVectorization(vocabulary=["c", "a", "b"], output_mode=mode, **extra)
    special = (["", "[UNK]"] if mode == "int" else ["[UNK]"])
    want = (special if specials else []) + ["c", "a", "b"]
    got = [str(t) for t in layer.get_vocabulary(include_special_tokens=specials)]
    assert got == want, f"get_vocabulary({specials}) in {mode} mode: expected {want}, got {got}"
    assert layer.vocabulary_size() == len(special) + 3


# -- a custom Metric's weights and reset ----------------------------------------------------------------------------------------
def _outer_metric(keras):
    class Outer(keras.metrics.Metric):
        def __init__(self):
            super().__init__(name="outer")
            self.inner = keras.metrics.Mean()
            self.n = self.add_weight(shape=(), initializer="zeros", name="n")
            self.k = self.add_weight(shape=(2,), initializer="ones", dtype="int32", name="k")

        def update_state(self, x):
            self.inner.update_state(x)
            self.n.assign_add(1.0)
            self.k.assign_add([1, 2])

        def result(self):
            return self.inner.result() * 10 + self.n
    return Outer()


@clause("keras.metric.option-coverage", ref="tf221")
def test_blind54_custom_metric_weights_and_reset(keras):
    """A Metric subclass: add_weight keeps its dtype, shape and initializer; `variables` lists its own then the
    tracked sub-metrics' ones; reset_state zeroes all of them (the sub-metrics' too: Keras 3.15's reset_state
    assigns zeros to every one of self.variables)."""
    m = _outer_metric(keras)
    assert str(m.k.dtype) in ("int32", "<dtype: 'int32'>") and tuple(m.k.shape) == (2,), (m.k.dtype, m.k.shape)
    assert _np(m.k).tolist() == [1, 1]
    assert str(getattr(m.n.dtype, "name", m.n.dtype)) == "float32"
    assert len(m.variables) == 4, [v.name for v in m.variables]
    m.update_state([1.0, 3.0])
    assert float(_np(m.result())) == 21.0
    m.reset_state()
    assert [_np(v).tolist() for v in m.variables] == [0.0, [0, 0], 0.0, 0.0], [_np(v).tolist() for v in m.variables]
    m.update_state([5.0])
    assert float(_np(m.result())) == 51.0, f"after reset_state and one update of [5.0]: expected 51.0, got {_np(m.result())}"
    assert _np(m.k).tolist() == [1, 2]


_RESETTABLE = {
    "SensitivityAtSpecificity": lambda k: k.metrics.SensitivityAtSpecificity(0.5, num_thresholds=5),
    "SpecificityAtSensitivity": lambda k: k.metrics.SpecificityAtSensitivity(0.5, num_thresholds=5),
    "PrecisionAtRecall": lambda k: k.metrics.PrecisionAtRecall(0.5, num_thresholds=5),
    "RecallAtPrecision": lambda k: k.metrics.RecallAtPrecision(0.5, num_thresholds=5),
    "AUC": lambda k: k.metrics.AUC(num_thresholds=5),
    "AUC-PR": lambda k: k.metrics.AUC(num_thresholds=5, curve="PR"),
    "RootMeanSquaredError": lambda k: k.metrics.RootMeanSquaredError(),
    "Sum": lambda k: k.metrics.Sum(),
    "IoU": lambda k: k.metrics.IoU(2, [0, 1]),
}


@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("name", list(_RESETTABLE))
def test_blind54_metric_reset_then_update_equals_a_fresh_metric(keras, name):
    """Every state variable returns to zero in reset_state: after update(a), reset, update(b) a metric's variables
    and result are a fresh metric's after update(b) alone."""
    a = ([1, 1, 1, 0], [0.1, 0.2, 0.3, 0.9])
    b = ([1, 0, 1, 0], [0.8, 0.2, 0.7, 0.4])
    if name == "IoU":
        a, b = ([1, 1, 1, 0], [0, 0, 1, 1]), ([1, 0, 1, 0], [1, 0, 0, 0])
    m, fresh = _RESETTABLE[name](keras), _RESETTABLE[name](keras)
    m.update_state(*a) if name != "Sum" else m.update_state(a[1])
    m.reset_state()
    for x in (m, fresh):
        x.update_state(*b) if name != "Sum" else x.update_state(b[1])
    got, want = [_np(v).tolist() for v in m.variables], [_np(v).tolist() for v in fresh.variables]
    assert got == want, f"{name}: variables after update, reset, update {got}; a fresh metric's {want}"
    assert _np(m.result()).tolist() == _np(fresh.result()).tolist()


def _auc_want(y, p, thresholds, curve):
    """Keras 3.15's AUC (summation_method='interpolation'): the confusion counts at thresholds
    [-eps, i/(n-1) ..., 1+eps] (pred > threshold); ROC: the trapezoid of recall over fpr; PR: Davis & Goadrich's
    interpolation."""
    y, p = np.asarray(y, bool), np.asarray(p, np.float64)
    eps = 1e-7
    t = np.array([0 - eps] + [(i + 1) / (thresholds - 1) for i in range(thresholds - 2)] + [1 + eps], np.float32)
    pred = p[None, :] > t[:, None]
    tp = (pred & y).sum(1).astype(np.float64)
    fp = (pred & ~y).sum(1).astype(np.float64)
    fn = (~pred & y).sum(1).astype(np.float64)
    tn = (~pred & ~y).sum(1).astype(np.float64)
    if curve == "ROC":
        rec = np.divide(tp, tp + fn, out=np.zeros_like(tp), where=(tp + fn) > 0)
        fpr = np.divide(fp, fp + tn, out=np.zeros_like(fp), where=(fp + tn) > 0)
        return float(np.sum((fpr[:-1] - fpr[1:]) * (rec[:-1] + rec[1:]) / 2))
    dtp = tp[:-1] - tp[1:]
    p_ = tp + fp
    dp = p_[:-1] - p_[1:]
    prec_slope = np.divide(dtp, dp, out=np.zeros_like(dtp), where=dp > 0)
    intercept = tp[1:] - prec_slope * p_[1:]
    safe_p_ratio = np.where((p_[:-1] > 0) & (p_[1:] > 0), np.divide(p_[:-1], np.maximum(p_[1:], 0), out=np.ones_like(dtp),
                                                                       where=p_[1:] > 0), np.ones_like(p_[1:]))
    pr_auc_increment = np.divide(prec_slope * (dtp + intercept * np.log(safe_p_ratio)), np.maximum(tp[1:] + fn[1:], 0),
                                 out=np.zeros_like(dtp), where=(tp[1:] + fn[1:]) > 0)
    return float(np.sum(pr_auc_increment))


@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("curve", ["ROC", "PR"])
@pytest.mark.parametrize("case", range(3))
def test_blind54_auc_values(keras, curve, case):
    """AUC(num_thresholds=5) ROC and PR values over three label/prediction sets against a transcription of Keras
    3.15's interpolation (_auc_want)."""
    y, p = [([0, 1, 1, 0, 1, 0], [0.1, 0.8, 0.4, 0.6, 0.9, 0.3]), ([1, 1, 0, 0], [0.9, 0.2, 0.7, 0.1]),
            ([0, 0, 1, 1, 1], [0.35, 0.55, 0.15, 0.95, 0.65])][case]
    m = keras.metrics.AUC(num_thresholds=5, curve=curve)
    m.update_state(y, p)
    want = _auc_want(y, p, 5, curve)
    np.testing.assert_allclose(float(_np(m.result())), want, rtol=1e-5, atol=1e-6, err_msg=f"AUC {curve} of {y}, {p}")


# -- losses.Reduction ------------------------------------------------------------------------------------------------------------
@clause("keras.loss.option-coverage", ref="tf221")
@pytest.mark.parametrize("key", ["auto", "none", "sum", "sum_over_batch_size", "mean", "SUM", None])
def test_blind54_losses_reduction_validate(keras, key):
    """tf.keras.losses.Reduction (Keras's legacy class): all() lists the four keys; validate(key) returns None for
    one of them and raises ValueError 'Invalid Reduction Key: ...' for anything else (Keras 3.15)."""
    r = keras.losses.Reduction
    assert tuple(r.all()) == ("auto", "none", "sum", "sum_over_batch_size")
    got, msg = _outcome(lambda: r.validate(key))
    if key in r.all():
        assert got == "ok", f"validate({key!r}): expected None, got {got}: {msg}"
    else:
        assert got == "ValueError" and f"Invalid Reduction Key: {key}" in str(msg), \
            f"validate({key!r}): expected ValueError, got {got}: {msg}"


# -- the optimizer's apply_gradients result and variables list ----------------------------------------------------------------
@clause("optim.option-coverage", ref="tf221")
@pytest.mark.parametrize("name", ["SGD", "Adam", "RMSprop", "Adagrad"])
def test_blind54_apply_gradients_returns_iterations_and_variables_is_a_copy(keras, tf, name):
    """Optimizer.apply_gradients returns the iterations variable (its value the steps taken so far); `variables` is
    a new list each time: a caller's append or clear leaves the optimizer's list as it was (Keras 3.15)."""
    v = tf.Variable([1.0, 2.0])
    opt = getattr(keras.optimizers, name)(0.1)
    for step in (1, 2):
        r = opt.apply_gradients([(tf.constant([1.0, 1.0]), v)])
        assert r is not None and int(_np(r)) == step, f"apply_gradients' result at step {step}: {r!r}"
        assert r is opt.iterations or getattr(r, "path", 1) == getattr(opt.iterations, "path", 2), \
            f"apply_gradients returns {r!r}, not the iterations variable"
    n = len(opt.variables)
    lst = opt.variables
    lst.append("x")
    lst.clear()
    assert len(opt.variables) == n, f"{name}.variables changed by a caller's edit of the list: {len(opt.variables)} != {n}"


@clause("optim.option-coverage", ref="tf221")
@pytest.mark.parametrize("momentum", [0.5, 0.9])
@pytest.mark.parametrize("frequency", [1, 2, 3])
def test_blind54_ema_overwrite_writes_the_moving_average(keras, tf, frequency, momentum):
    """SGD(lr, use_ema=True, ema_momentum, ema_overwrite_frequency): each step updates var -= lr * g, then the
    average (= var at the first step, m * avg + (1 - m) * var after), and every `frequency` steps the variable takes
    the average (Keras 3.15's BaseOptimizer; computed here)."""
    lr, g = 0.5, np.array([1.0, -1.0], np.float32)
    v = tf.Variable([1.0, 2.0])
    opt = keras.optimizers.SGD(lr, use_ema=True, ema_momentum=momentum, ema_overwrite_frequency=frequency)
    var, avg = np.array([1.0, 2.0], np.float32), None
    for step in range(5):
        opt.apply_gradients([(tf.constant(g), v)])
        var = var - np.float32(lr) * g
        avg = var.copy() if avg is None else np.float32(momentum) * avg + np.float32(1 - momentum) * var
        if (step + 1) % frequency == 0:
            var = avg.copy()
        np.testing.assert_allclose(_np(v), var, rtol=1e-6, err_msg=f"step {step + 1}")


# -- the schedules' serialization ---------------------------------------------------------------------------------------------
@clause("optim.config-round-trip", ref="tf221")
@pytest.mark.parametrize("custom", [True, False])
def test_blind54_schedules_deserialize_takes_custom_objects(keras, custom):
    """schedules.serialize(schedule) gives {'module', 'class_name', 'config', 'registered_name'}; deserialize with
    custom_objects naming the class rebuilds it from its config; without them a class Keras does not know comes back
    as its name, a str (observed on TF 2.21)."""
    class Halving(keras.optimizers.schedules.LearningRateSchedule):
        def __init__(self, rate):
            self.rate = rate

        def __call__(self, step):
            return self.rate / 2

        def get_config(self):
            return {"rate": self.rate}

    d = keras.optimizers.schedules.serialize(Halving(0.25))
    assert d["class_name"] == "Halving" and d["config"] == {"rate": 0.25}, d
    s = keras.optimizers.schedules.deserialize(d, custom_objects={"Halving": Halving} if custom else None)
    if custom:
        assert type(s) is Halving and s.rate == 0.25, f"deserialize with custom_objects: {s!r}"
    else:
        assert s == "Halving", f"deserialize of an unknown class without custom_objects: {s!r}"
    e = keras.optimizers.schedules.deserialize(keras.optimizers.schedules.serialize(
        keras.optimizers.schedules.ExponentialDecay(0.5, 3, 0.25)), custom_objects={"Halving": Halving})
    assert type(e).__name__ == "ExponentialDecay" and e.get_config()["decay_rate"] == 0.25


# -- CSVLogger's file ---------------------------------------------------------------------------------------------------------------
def _tiny(keras):
    keras.utils.set_random_seed(1)
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
    m.compile("sgd", "mse")
    return m


@clause("keras.callback.option-coverage", ref="tf221")
@pytest.mark.parametrize("append", [False, True])
def test_blind54_csv_logger_closes_its_file_and_reopens_it(keras, tmp_path, append):
    """CSVLogger closes its file at the end of every fit (csv_file.closed) and opens it again at the next: two fits
    of 1 and 2 epochs write 1 + 1 lines ('w': the second fit's 2 rows and its header) or 1 + 3 (append: one header,
    3 rows); without validation Keras 3.15 still names val_loss in the header and writes NA."""
    path = os.path.join(str(tmp_path), "log.csv")
    cb = keras.callbacks.CSVLogger(path, append=append)
    m = _tiny(keras)
    x, y = np.ones((4, 2), "float32"), np.zeros((4, 1), "float32")
    m.fit(x, y, epochs=1, verbose=0, callbacks=[cb])
    assert cb.csv_file.closed, "CSVLogger's file is open after fit"
    m.fit(x, y, epochs=2, verbose=0, callbacks=[cb])
    assert cb.csv_file.closed, "CSVLogger's file is open after the second fit"
    lines = open(path).read().strip().splitlines()
    assert lines[0] == "epoch,loss,val_loss" and len(lines) == (4 if append else 3), lines
    assert [ln.split(",")[0] for ln in lines[1:]] == (["0", "0", "1"] if append else ["0", "1"]), lines
    assert all(ln.endswith(",NA") for ln in lines[1:]), lines


# -- CallbackList's hooks ------------------------------------------------------------------------------------------------------------
def _recorder(keras):
    class Rec(keras.callbacks.Callback):
        def __init__(self):
            super().__init__()
            self.calls = []

        def on_batch_begin(self, batch, logs=None):
            self.calls.append(("batch_begin", batch))

        def on_batch_end(self, batch, logs=None):
            self.calls.append(("batch_end", batch))
    return Rec()


@clause("keras.callback.option-coverage", ref="tf221")
@pytest.mark.parametrize("loop", ["fit", "evaluate", "predict", "fit+validation"])
def test_blind54_batch_aliases_fire_in_training_only(keras, loop):
    """Callback.on_batch_begin/on_batch_end are the aliases of on_train_batch_begin/end only: evaluate and predict
    never call them, fit once per training batch (validation batches not), and fit with validation_data ends its
    nested begin/end blocks cleanly (Keras 3.15)."""
    m, c = _tiny(keras), _recorder(keras)
    x, y = np.ones((4, 2), "float32"), np.zeros((4, 1), "float32")
    if loop == "evaluate":
        m.evaluate(x, y, batch_size=2, verbose=0, callbacks=[c])
    elif loop == "predict":
        m.predict(x, batch_size=2, verbose=0, callbacks=[c])
    else:
        m.fit(x, y, batch_size=2, epochs=2, verbose=0, callbacks=[c],
              **({"validation_data": (x, y)} if loop == "fit+validation" else {}))
    want = [] if loop in ("evaluate", "predict") else [(k, b) for _ in range(2) for b in (0, 1)
                                                       for k in ("batch_begin", "batch_end")]
    assert c.calls == want, f"{loop}: expected {want}, got {c.calls}"


@clause("keras.callback.option-coverage", ref="tf221")
def test_blind54_callback_list_nested_begin_end_blocks(keras):
    """CallbackList counts nested begin/end blocks: train begin, test begin, test end, train end is fine; one end
    more than the begins is Keras's ValueError '`on_xxx_end` called without corresponding `on_xxx_begin`'."""
    cbl = keras.callbacks.CallbackList([])
    cbl.on_train_begin()
    cbl.on_test_begin()
    cbl.on_predict_begin()
    cbl.on_predict_end()
    cbl.on_test_end()
    cbl.on_train_end()
    got, msg = _outcome(cbl.on_test_end)
    assert got == "ValueError" and "called without corresponding" in str(msg), f"{got}: {msg}"


# -- the merge layers' static shape checks ------------------------------------------------------------------------------------------
_CONCAT = [((None, 4, 3), (2, None, 5), -1, "ok", (None, 4, 8)), ((2, None, 3), (None, 4, 5), -1, "ok", (2, None, 8)),
           ((None, 4, 3), (None, 5, 5), -1, "ValueError", None), ((None, 4, 3), (None, None, 3), 1, "ok", (None, None, 3)),
           ((None, 4, 3), (None, 2, 3), 1, "ok", (None, 6, 3)), ((None, 4, 3), (None, 2, 4), 1, "ValueError", None)]


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("a, b, axis, want_cls, want", _CONCAT, ids=str)
def test_blind54_concatenate_unknown_dimensions_agree_with_any(keras, a, b, axis, want_cls, want):
    """Concatenate(axis) of two symbolic inputs: outside the concatenation axis an unknown (None) size agrees with
    any, two known different ones are refused (ValueError); the output's concatenated axis is the sum (None if one
    is unknown), the others the first input's (observed on TF 2.21)."""
    got_cls, got = _outcome(lambda: tuple(keras.layers.Concatenate(axis=axis)(
        [keras.Input(batch_shape=a), keras.Input(batch_shape=b)]).shape))
    assert got_cls == want_cls, f"Concatenate(axis={axis}) of {a} and {b}: expected {want_cls}, got {got_cls}: {got}"
    if want_cls == "ok":
        assert got == want, f"Concatenate(axis={axis}) of {a} and {b}: expected {want}, got {got}"


_DOT = [((1, 2), (3, 4), (5, 3), "ok", (None, 4, 5)), ((2, 1), (3, 4), (4, 2), "ok", (None, 3, 2)),
        ((1, 1), (3, 4), (3, 2), "ok", (None, 4, 2)), ((2, 2), (3, 4), (5, 4), "ok", (None, 3, 5)),
        ((1, 2), (3, 4), (3, 5), "ValueError", None), ((2, 1), (3, 4), (2, 4), "ValueError", None)]


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("axes, a, b, want_cls, want", _DOT, ids=str)
def test_blind54_dot_checks_the_axes_it_contracts(keras, axes, a, b, want_cls, want):
    """Dot(axes=(i, j)) compares the first input's axis i with the second's axis j (ValueError 'Incompatible input
    shapes' when they differ) and contracts them: the output is the other axes, first input's then second's."""
    got_cls, got = _outcome(lambda: tuple(keras.layers.Dot(axes=axes)([keras.Input(a), keras.Input(b)]).shape))
    assert got_cls == want_cls, f"Dot(axes={axes}) of {a} and {b}: expected {want_cls}, got {got_cls}: {got}"
    if want_cls == "ok":
        assert got == want, f"Dot(axes={axes}) of {a} and {b}: expected {want}, got {got}"


# -- the spatial dropout layers drop whole feature maps -------------------------------------------------------------------------------
_SPATIAL = [("SpatialDropout1D", {}, (2, 6, 8), (1,)), ("SpatialDropout2D", {}, (2, 5, 6, 8), (1, 2)),
            ("SpatialDropout2D", {"data_format": "channels_first"}, (2, 8, 5, 6), (2, 3)),
            ("SpatialDropout3D", {}, (2, 3, 4, 5, 8), (1, 2, 3)),
            ("SpatialDropout3D", {"data_format": "channels_first"}, (2, 8, 3, 4, 5), (2, 3, 4))]


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("name, kw, shape, spatial", _SPATIAL, ids=str)
def test_blind54_spatial_dropout_drops_whole_feature_maps(keras, name, kw, shape, spatial):
    """SpatialDropoutND(0.5) in training: each (sample, channel) feature map is either all zeros or all 1 / (1 - 0.5)
    = 2 (the noise shape is 1 along the spatial axes), some of each over 16 channels x 2 samples; in inference the
    input comes back."""
    x = np.ones(shape, "float32")
    layer = getattr(keras.layers, name)(0.5, seed=3, **kw)
    y = _np(layer(x, training=True))
    first = y[tuple(slice(None) if i not in spatial else slice(0, 1) for i in range(len(shape)))]
    assert (y == first).all(), f"{name}({kw}): values vary along the spatial axes {spatial}"
    assert set(np.unique(y).tolist()) == {0.0, 2.0}, f"{name}({kw}): values {np.unique(y).tolist()}"
    assert _np(layer(x, training=False)).tolist() == x.tolist()


# -- the transposed convolutions' output_padding in the call ------------------------------------------------------------------------
_CT = [("Conv1DTranspose", (1, 5, 1), 2, 1), ("Conv2DTranspose", (1, 4, 4, 1), 2, 1),
       ("Conv2DTranspose", (1, 4, 3, 1), 3, 2), ("Conv2DTranspose", (1, 4, 4, 1), 2, None),
       ("Conv3DTranspose", (1, 3, 3, 3, 1), 2, 1)]


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("padding", ["valid", "same"])
@pytest.mark.parametrize("name, shape, strides, output_padding", _CT, ids=str)
def test_blind54_conv_transpose_call_honours_output_padding(keras, name, shape, strides, output_padding, padding):
    """A transposed convolution's eager output has the shape compute_output_shape gives, output_padding included
    (Keras's deconv_output_length: valid (n - 1) * s + k, same (n - 1) * s + 1 ... plus output_padding, computed
    here); with a ones kernel and input the output sums the overlapping windows, so every value is a whole number >= 0."""
    k = 3
    layer = getattr(keras.layers, name)(2, k, strides=strides, output_padding=output_padding, padding=padding,
                                        kernel_initializer="ones", use_bias=False)
    y = layer(np.ones(shape, "float32"))

    def length(n):
        if output_padding is None:
            return n * strides + max(k - strides, 0) if padding == "valid" else n * strides
        pad = k // 2
        return (n - 1) * strides + k - 2 * (pad if padding == "same" else 0) + output_padding
    want = (shape[0],) + tuple(length(n) for n in shape[1:-1]) + (2,)
    assert tuple(y.shape) == want, f"{name}(strides={strides}, output_padding={output_padding}, {padding}) of {shape}: " \
                                   f"expected {want}, got {tuple(y.shape)}"
    assert tuple(layer.compute_output_shape(shape)) == want


# -- stateful RNN state variables ----------------------------------------------------------------------------------------------------
@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("policy", ["float32", "mixed_float16", "float64"])
@pytest.mark.parametrize("name", ["SimpleRNN", "GRU", "LSTM"])
def test_blind54_stateful_rnn_states_dtype_and_reset(keras, name, policy):
    """A stateful RNN's state variables: one per state (LSTM two), non-trainable, in the layer's variable dtype
    (float32 under mixed_float16); after a call they hold the last states (non-zero here), and reset_state zeroes
    every one of them (Keras 3.15)."""
    layer = getattr(keras.layers, name)(2, stateful=True, dtype=policy, kernel_initializer="ones",
                                        recurrent_initializer="ones")
    x = np.ones((3, 4, 2), "float16" if policy == "mixed_float16" else policy)
    layer(x)
    want_dtype = "float32" if policy == "mixed_float16" else policy
    assert len(layer.states) == (2 if name == "LSTM" else 1)
    assert [str(getattr(v.dtype, "name", v.dtype)) for v in layer.states] == [want_dtype] * len(layer.states)
    assert all(np.abs(_np(v)).sum() > 0 for v in layer.states), "the states after a call are zero"
    layer.reset_state()
    assert [np.abs(_np(v)).sum() for v in layer.states] == [0.0] * len(layer.states), \
        f"{name}: states after reset_state: {[_np(v).tolist() for v in layer.states]}"


# -- Bidirectional.build ------------------------------------------------------------------------------------------------------------
@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("prebuilt", ["none", "forward", "both"])
@pytest.mark.parametrize("name", ["LSTM", "GRU", "SimpleRNN"])
def test_blind54_bidirectional_build_builds_both_directions(keras, name, prebuilt):
    """Bidirectional(layer).build(shape) builds each direction that is not built yet: afterwards both are, with
    twice one direction's weights (3 each: kernel, recurrent kernel, bias)."""
    b = keras.layers.Bidirectional(getattr(keras.layers, name)(2))
    if prebuilt in ("forward", "both"):
        b.forward_layer.build((None, 3, 4))
    if prebuilt == "both":
        b.backward_layer.build((None, 3, 4))
    b.build((None, 3, 4))
    assert b.forward_layer.built and b.backward_layer.built, (b.forward_layer.built, b.backward_layer.built)
    assert len(b.weights) == 2 * len(b.forward_layer.weights) == 6


# -- pooling channels_first -----------------------------------------------------------------------------------------------------------
def _pool_ref(x, pool, mode):
    """Valid pooling of a channels_last array with strides = pool (NumPy)."""
    nsp = x.ndim - 2
    out_sp = [x.shape[1 + i] // pool for i in range(nsp)]
    out = np.zeros((x.shape[0], *out_sp, x.shape[-1]), x.dtype)
    for idx in np.ndindex(*out_sp):
        win = x[(slice(None),) + tuple(slice(i * pool, i * pool + pool) for i in idx) + (slice(None),)]
        out[(slice(None),) + idx + (slice(None),)] = win.max(axis=tuple(range(1, 1 + nsp))) if mode == "max" \
            else win.mean(axis=tuple(range(1, 1 + nsp)))
    return out


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("name", ["MaxPooling1D", "AveragePooling1D", "MaxPooling2D", "AveragePooling2D",
                                  "MaxPooling3D", "AveragePooling3D"])
def test_blind54_pooling_channels_first_values(keras, name):
    """A pooling layer with data_format='channels_first' on a (batch, channels, spatial...) input gives the
    channels_first transpose of the channels_last result (computed with NumPy), same shape as compute_output_shape."""
    nsp = int(name[-2])
    shape_last = (1,) + (4,) * nsp + (3,)
    xl = np.arange(np.prod(shape_last), dtype="float32").reshape(shape_last) % 7
    xf = np.moveaxis(xl, -1, 1)
    layer = getattr(keras.layers, name)(2, data_format="channels_first")
    y = _np(layer(xf))
    want = np.moveaxis(_pool_ref(xl, 2, "max" if name.startswith("Max") else "avg"), -1, 1)
    assert y.shape == want.shape, f"{name} channels_first of {xf.shape}: expected {want.shape}, got {y.shape}"
    np.testing.assert_allclose(y, want, rtol=1e-6)
    assert tuple(layer.compute_output_shape(xf.shape)) == want.shape


# -- RootMeanSquaredError ---------------------------------------------------------------------------------------------------------
@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("weighted", [False, True])
def test_blind54_root_mean_squared_error_is_the_root_of_the_weighted_mean(keras, weighted):
    """RootMeanSquaredError: sqrt(sum(w * (y - p)^2) / sum(w)) over all updates (computed here)."""
    y, p = np.array([[1.0], [2.0], [3.0]], "float32"), np.array([[2.0], [4.0], [3.0]], "float32")
    w = np.array([1.0, 2.0, 0.5], "float32") if weighted else np.ones(3, "float32")
    m = keras.metrics.RootMeanSquaredError()
    m.update_state(y[:2], p[:2], sample_weight=w[:2] if weighted else None)
    m.update_state(y[2:], p[2:], sample_weight=w[2:] if weighted else None)
    want = np.sqrt(np.sum(w * (y - p)[:, 0] ** 2) / np.sum(w))
    np.testing.assert_allclose(float(_np(m.result())), want, rtol=1e-6)
