"""Gaps the thirty-fourth blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is
the suite"): rules of the training layer that the suite stated for one spelling, one option value or one input
only, or never, so that a wrong implementation of the other case passed (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy or
plain Python (a transcription of TF's or Keras 3.15's rule), is a dtype observed on TF 2.21, or is a relation TF's
rule implies between two spellings, never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, to_numpy as _np   # (an ndarray of any backend's value)

clause = pytest.mark.clause


# -- Normalization: a given mean and variance of lower rank sit on the last kept axes -----------------------------------------
@clause("keras.layer.normalization-adapt", ref="tf221")
@pytest.mark.parametrize("shape, axis, stats_shape", [
    ((2, 2, 3), (1, 2), (3,)), ((2, 2, 3), (1, 2), (2, 3)), ((2, 2, 3), (1, 2), ()),
    ((2, 2, 3, 4), (1, 3), (4,)), ((2, 2, 3, 4), (1, 3), (2, 4)), ((2, 2, 3, 4), (-3, -1), (4,)),
    ((2, 3, 4), (-1,), (4,)), ((2, 3, 4), (1,), (3,)),
])
def test_blind34_normalization_given_statistics_of_lower_rank_align_on_the_last_kept_axes(keras, shape, axis,
                                                                                        stats_shape):
    """keras.layers.Normalization(axis, mean, variance) with statistics of fewer dimensions than kept axes places
    their i-th last dimension on the i-th last kept axis (Keras 3.15's build: `expanded[keep_axis[-i]] =
    mean.shape[-i]`), the other axes broadcast: out = (x - mean) / max(sqrt(variance), 1e-7)."""
    n = int(np.prod(stats_shape)) if stats_shape else 1
    mean = np.linspace(-1.0, 2.0, n).reshape(stats_shape).astype("float32")
    variance = np.linspace(0.5, 4.0, n).reshape(stats_shape).astype("float32")
    x = np.linspace(-3.0, 5.0, int(np.prod(shape))).reshape(shape).astype("float32")
    keep = sorted(a % len(shape) for a in axis)
    expanded = [1] * len(shape)
    for i in range(1, len(stats_shape) + 1):
        expanded[keep[-i]] = stats_shape[-i]
    m, v = mean.reshape(expanded), variance.reshape(expanded)
    want = (x - m) / np.maximum(np.sqrt(v), np.float32(1e-7))
    layer = keras.layers.Normalization(axis=axis, mean=mean.tolist(), variance=variance.tolist())
    call = f"Normalization(axis={axis}, mean of shape {stats_shape})(x of shape {shape})"
    got = _np(layer(x))
    assert got.shape == x.shape and np.allclose(got, want, rtol=1e-6, atol=1e-6), (
        f"{call}: expected (x - mean) / sqrt(variance) with the statistics on the last kept axes {expanded}, "
        f"got {got.tolist()} (expected {want.tolist()})")


# -- MelSpectrogram: mag_exp is the power of the magnitude --------------------------------------------------------------------
@clause("keras.layer.audio", ref="tf221")
@pytest.mark.parametrize("mag_exp", [1.0, 2.0, 0.5, 3.0])
@pytest.mark.parametrize("power_to_db", [False, True])
def test_blind34_mel_spectrogram_raises_the_magnitude_to_mag_exp(keras, mag_exp, power_to_db):
    """keras.layers.MelSpectrogram(mag_exp=p): the centred STFT's magnitude sqrt(re^2 + im^2) raised to p (1.0 is an
    amplitude spectrogram, 2.0 the default power one), then the mel filter bank, then (power_to_db) 10 log10 of
    max(x, min_power) floored at the maximum minus top_db. Expected value computed with NumPy from keras.ops.stft
    (the same window and frames) and the layer's own filter bank: the relation checked is the exponent and the
    order of the steps."""
    fft, stride, bins, rate = 64, 16, 8, 8000
    x = (np.sin(np.arange(192) * 0.3) + 0.5 * np.cos(np.arange(192) * 1.1)).astype("float32")[None]
    layer = keras.layers.MelSpectrogram(fft_length=fft, sequence_stride=stride, num_mel_bins=bins, sampling_rate=rate,
                                        mag_exp=mag_exp, power_to_db=power_to_db)
    real, imag = keras.ops.stft(x, sequence_length=fft, sequence_stride=stride, fft_length=fft, window="hann",
                                center=True)
    mag = np.sqrt(_np(real).astype(np.float64) ** 2 + _np(imag).astype(np.float64) ** 2) ** mag_exp
    weights = _np(layer.linear_to_mel_weight_matrix(num_mel_bins=bins, num_spectrogram_bins=fft // 2 + 1,
                                                    sampling_rate=rate, lower_edge_hertz=20.0,
                                                    upper_edge_hertz=rate // 2)).astype(np.float64)
    want = np.tensordot(mag, weights, axes=1)
    if power_to_db:
        want = 10.0 * np.log10(np.maximum(want, 1e-10))
        want = np.maximum(want, want.max() - 80.0)
    want = np.swapaxes(want, -1, -2)
    got = _np(layer(x)).astype(np.float64)
    call = f"MelSpectrogram(fft_length={fft}, sequence_stride={stride}, mag_exp={mag_exp}, power_to_db={power_to_db})"
    assert got.shape == want.shape, f"{call}: shape {got.shape}, expected {want.shape}"
    scale = np.abs(want).max()
    assert np.allclose(got, want, rtol=1e-4, atol=1e-4 * scale), (
        f"{call}: expected mel(|STFT|^{mag_exp}); the largest difference is {np.max(np.abs(got - want)):.3g} "
        f"(values up to {scale:.3g})")


# -- MultiHeadAttention's causal mask over a value of another length ---------------------------------------------------------
@clause("keras.mha.masks", ref="tf221")
@pytest.mark.parametrize("t, s", [(3, 5), (4, 2), (3, 3), (1, 4)])
def test_blind34_multi_head_attention_causal_mask_spans_the_value_length(keras, t, s):
    """MultiHeadAttention(q, v, use_causal_mask=True) with a query of length T and a value of length S masks with
    the (T, S) lower triangle (Keras 3.15's _compute_causal_mask: cumsum(ones) over rows >= over columns, i.e.
    key j is seen by query i when j <= i): the same output as attention_mask = tril(ones(T, S)); with a
    value_mask too, their and."""
    layer = keras.layers.MultiHeadAttention(num_heads=2, key_dim=2,
                                            kernel_initializer=keras.initializers.GlorotUniform(seed=3))
    q = np.linspace(-1, 1, 2 * t * 4).reshape(2, t, 4).astype("float32")
    v = np.linspace(1, -2, 2 * s * 4).reshape(2, s, 4).astype("float32")
    tril = np.tril(np.ones((t, s), bool))
    value_mask = np.array([[True] * s, [True] * (s - 1) + [False]])
    for kwargs, full in (({}, np.broadcast_to(tril, (2, t, s))),
                         ({"value_mask": value_mask}, tril[None] & value_mask[:, None, :])):
        got = _np(layer(q, v, use_causal_mask=True, **kwargs))
        want = _np(layer(q, v, attention_mask=np.array(full)))
        call = f"MultiHeadAttention(2, 2)(q of length {t}, v of length {s}, use_causal_mask=True{', value_mask' * bool(kwargs)})"
        assert got.shape == want.shape and np.allclose(got, want, rtol=1e-5, atol=1e-6), (
            f"{call}: expected the output of attention_mask = tril(ones({t}, {s})){' and value_mask' * bool(kwargs)}; "
            f"got shape {got.shape} vs {want.shape}")


# -- MultiOptimizer: every inner optimizer gets the loss_scale_factor ----------------------------------------------------------
@clause("optim.multi-optimizer", ref="tf221")
@pytest.mark.parametrize("factor", [None, 4.0, 0.5])
def test_blind34_multi_optimizer_gives_every_inner_optimizer_its_loss_scale_factor(tf, keras, factor):
    """MultiOptimizer(OptimizerMap(default, {pattern: opt}), loss_scale_factor=s) sets s on each inner optimizer, the
    mapped ones and the default (Keras 3.15's constructor), so each unscales the gradients of its own variables:
    apply(g) moves every variable by -lr * g / s (s None: -lr * g)."""
    a = keras.Variable(np.array([1.0, 2.0], "float32"), name="a")
    b = keras.Variable(np.array([-1.0, 0.5], "float32"), name="b")
    mapped, default = keras.optimizers.SGD(0.1), keras.optimizers.SGD(0.2)
    opt = keras.optimizers.MultiOptimizer(keras.optimizers.OptimizerMap(default, {"a": mapped}),
                                          loss_scale_factor=factor)
    call = f"MultiOptimizer(OptimizerMap(SGD(0.2), {{'a': SGD(0.1)}}), loss_scale_factor={factor})"
    for name, inner in (("the mapped optimizer", mapped), ("the default optimizer", default)):
        assert_equal(inner.loss_scale_factor, factor, call=call, what=f"{name}'s loss_scale_factor")
    g = np.array([4.0, -8.0], "float32")
    opt.apply([tf.constant(g), tf.constant(g)], [a, b])
    s = np.float32(1.0 if factor is None else factor)
    for v, v0, lr, name in ((a, [1.0, 2.0], 0.1, "a (mapped)"), (b, [-1.0, 0.5], 0.2, "b (default)")):
        want = np.array(v0, "float32") - np.float32(lr) * (g / s)
        assert np.allclose(_np(v.value), want, rtol=1e-6, atol=1e-7), (
            f"{call}.apply(g={g.tolist()}): variable {name}: expected v - {lr} * g / {factor} = {want.tolist()}, "
            f"got {_np(v.value).tolist()}")


# -- load_weights(skip_mismatch=True) of a .keras file skips the layers that do not fit -------------------------------------
@clause("keras.saving.keras-file", ref="tf221")
@pytest.mark.parametrize("suffix", [".keras", ".weights.h5"])
def test_blind34_load_weights_skip_mismatch_skips_the_layers_that_do_not_fit(keras, tmp_path, suffix):
    """model.load_weights(path, skip_mismatch=True) of a `.keras` file or a `.weights.h5` file loads every layer whose
    variables fit and leaves a layer of other shapes as it was (Keras 3.15 warns); without skip_mismatch the same
    call is a ValueError."""
    keras.utils.set_random_seed(2)
    src = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, name="d1"), keras.layers.Dense(4, name="d2")])
    path = str(tmp_path / f"m{suffix}")
    (src.save if suffix == ".keras" else src.save_weights)(path)

    def fresh():
        return keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, name="d1", kernel_initializer="zeros"),
                                 keras.layers.Dense(5, name="d2", kernel_initializer="ones")])
    dst = fresh()
    own = [w.copy() for w in dst.layers[1].get_weights()]
    dst.load_weights(path, skip_mismatch=True)
    call = f"model.load_weights('m{suffix}', skip_mismatch=True) (Dense(4) saved, Dense(5) loading)"
    for got, want, what in zip(dst.layers[0].get_weights(), src.layers[0].get_weights(), ("kernel", "bias")):
        assert np.array_equal(got, want), f"{call}: the fitting layer's {what} was not loaded: {got.tolist()}"
    for got, want, what in zip(dst.layers[1].get_weights(), own, ("kernel", "bias")):
        assert np.array_equal(got, want), f"{call}: the mismatched layer's {what} changed: {got.tolist()}"
    with pytest.raises(ValueError):
        fresh().load_weights(path)


# -- predict concatenates per-batch scalar outputs -------------------------------------------------------------------------------
@clause("keras.predict.order", ref="tf221")
@pytest.mark.parametrize("spe, n", [(1, 6), (1, 2), (2, 4), (2, 8), (2, 12)])
def test_blind34_predict_stacks_scalar_outputs_of_each_batch(tf, keras, spe, n):
    """Model.predict of a model whose call returns a scalar (here the batch's sum) gives one value per batch, in
    order: the scalars are stacked, also when steps_per_execution groups batches (Keras's concat of scalars is a
    stack); a single batch's output is returned as it is, a scalar (potentially_ragged_concat of one value).
    Expected: NumPy's sums of the batches of 2 rows."""
    class Summed(keras.Model):
        def call(self, x):
            return tf.reduce_sum(x)
    m = Summed()
    m.compile(steps_per_execution=spe)
    x = np.arange(2 * n, dtype="float32").reshape(n, 2)
    got = _np(m.predict(x, batch_size=2, verbose=0))
    want = x.reshape(-1, 4).sum(axis=1)
    want = want[0] if len(want) == 1 else want
    assert_equal(got, want, call=f"predict of sum(x) per batch, {n} rows, batch_size=2, steps_per_execution={spe}",
                 what="outputs")


@clause("keras.predict.order", ref="tf221")
def test_blind34_predict_joins_batch_outputs_as_keras_potentially_ragged_concat(tf, keras):
    """Model.predict joins the batches' outputs by Keras 3.15's potentially_ragged_concat: each output of a dict
    separately (a scalar per batch stacked, a tensor concatenated); outputs whose non-batch shape differs from batch
    to batch become one RaggedTensor of all rows; a scalar after a stacked group (steps_per_execution=2 and an odd
    number of batches) cannot be concatenated: InvalidArgumentError, as tf.concat of a vector and a scalar."""
    class Both(keras.Model):
        def call(self, x):
            return {"total": tf.reduce_sum(x), "rows": x * 2.0}

    class Varying(keras.Model):
        def call(self, x):
            width = tf.cast(tf.reduce_sum(x[0]) % 3.0, tf.int32) + 1
            return tf.ones((tf.shape(x)[0], width))
    x = np.arange(8, dtype="float32").reshape(4, 2)
    out = Both().predict(x, batch_size=2, verbose=0)
    assert_equal(sorted(out), ["rows", "total"], call="predict of a dict output", what="keys")
    assert_equal(_np(out["total"]), x.reshape(-1, 4).sum(axis=1), call="predict of a dict output", what="['total']")
    assert_equal(_np(out["rows"]), x * 2.0, call="predict of a dict output", what="['rows']")
    xs = np.arange(12, dtype="float32").reshape(6, 2)
    ragged = Varying().predict(xs, batch_size=2, verbose=0)
    widths = [int(xs[i].sum() % 3) + 1 for i in (0, 2, 4)]
    want = [[1.0] * w for w in widths for _ in range(2)]
    assert isinstance(ragged, tf.RaggedTensor), f"predict of outputs of widths {widths}: a {type(ragged).__name__}"
    assert_equal(ragged.to_list(), want, call=f"predict of outputs of widths {widths}", what="rows")

    class Summed(keras.Model):
        def call(self, x):
            return tf.reduce_sum(x)
    m = Summed()
    m.compile(steps_per_execution=2)
    with pytest.raises(tf.errors.InvalidArgumentError):
        m.predict(xs, batch_size=2, verbose=0)


# -- MatrixSetDiagV3's gradient of the diagonals honours align ----------------------------------------------------------------
def _diagonals(w: np.ndarray, k: tuple[int, int], align: str) -> np.ndarray:
    """TF's matrix_diag_part(w, k, align) with zero padding: one row per diagonal from k[1] down to k[0], each as
    long as the longest; superdiagonals (d > 0) padded by align's first word, subdiagonals by its second."""
    m, n = w.shape
    lengths = {d: min(m + min(0, d), n - max(0, d)) for d in range(k[0], k[1] + 1)}
    width = max(lengths.values())
    rows = []
    for d in range(k[1], k[0] - 1, -1):
        vals = [w[i - min(0, d), i + max(0, d)] for i in range(lengths[d])]
        word = align.split("_")[0] if d > 0 else align.split("_")[1] if d < 0 else "LEFT"
        pad = [0.0] * (width - len(vals))
        rows.append(vals + pad if word == "LEFT" else pad + vals)
    return np.array(rows, "float32")


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("align", ["LEFT_LEFT", "RIGHT_RIGHT", "LEFT_RIGHT", "RIGHT_LEFT"])
@pytest.mark.parametrize("shape, k", [((3, 4), (-1, 1)), ((4, 3), (-2, 0)), ((3, 5), (0, 2)), ((4, 4), (-1, 2))])
def test_blind34_set_diag_gradient_reads_the_band_with_its_align(tf, align, shape, k):
    """The gradient of tf.linalg.set_diag(x, diagonals, k, align) with respect to the diagonals is the band of the
    upstream gradient read with the same k and align (TF's _MatrixSetDiagGradV3: matrix_diag_part(grad, k, align));
    with respect to x it is the upstream gradient with the band zeroed."""
    m, n = shape
    w = (np.arange(m * n, dtype="float32").reshape(m, n) + 1.0)
    want_d = _diagonals(w, k, align)
    x = tf.zeros(shape)
    d = tf.constant(np.ones(want_d.shape, "float32"))
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(d)
        tape.watch(x)
        y = tf.reduce_sum(tf.linalg.set_diag(x, d, k=k, align=align) * w)
    call = f"d/d(diagonals) sum(set_diag(zeros{shape}, diagonals, k={k}, align={align!r}) * w)"
    assert_equal(_np(tape.gradient(y, d)), want_d, call=call, what="gradient")
    band = np.zeros(shape, bool)
    for i in range(m):
        for j in range(n):
            band[i, j] = k[0] <= j - i <= k[1]
    assert_equal(_np(tape.gradient(y, x)), np.where(band, 0.0, w).astype("float32"),
                 call=call.replace("(diagonals)", "x"), what="gradient")


# -- shuffle(reshuffle_each_iteration=True): each epoch has its own order -----------------------------------------------------
@clause("dataset.shuffle", ref="tf221")
@pytest.mark.parametrize("size, buffer, seed", [(8, 8, 3), (10, 4, 0), (16, 16, 7)])
def test_blind34_reshuffling_shuffle_gives_each_epoch_its_own_order(tf, size, buffer, seed):
    """Dataset.shuffle(buffer, seed) reshuffles each iteration by drawing each epoch's seeds from one seed generator
    that moves on (TF 2.21's RandomSeedGenerator): over 8 epochs every order is a permutation and no two epochs
    repeat one another; with reshuffle_each_iteration=False every epoch repeats the first."""
    ds = tf.data.Dataset.range(size).shuffle(buffer, seed=seed)
    orders = [[int(_np(v)) for v in ds] for _ in range(8)]
    call = f"Dataset.range({size}).shuffle({buffer}, seed={seed}) iterated 8 times"
    for e, order in enumerate(orders):
        assert_equal(sorted(order), list(range(size)), call=call, what=f"epoch {e}'s elements")
    repeats = [(a, b) for a in range(8) for b in range(a + 1, 8) if orders[a] == orders[b]]
    assert not repeats, f"{call}: epochs {repeats} have the same order {orders[repeats[0][0]]}"
    fixed = tf.data.Dataset.range(size).shuffle(buffer, seed=seed, reshuffle_each_iteration=False)
    first = [int(_np(v)) for v in fixed]
    for e in range(1, 4):
        assert_equal([int(_np(v)) for v in fixed], first, call=call + " with reshuffle_each_iteration=False",
                     what=f"epoch {e}'s order")
