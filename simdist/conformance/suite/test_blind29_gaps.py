"""Gaps the twenty-ninth blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): rules of the training layer that the suite stated for one spelling, one option value or
one input only (keras.ops.stft with a window as long as the FFT but never a shorter one, keras.ops.norm's
vector orders but not ord=-inf, tf.keras.backend's functions by name but not their values, TimeseriesGenerator's
batches but not the last window, ...), so that a wrong implementation of the other case passed (TF 2.21 +
Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy
(a transcription of TF's or Keras 3.15's rule) or is a relation TF's rule implies between two spellings, never
the backend's own implementation of the same rule.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises, to_numpy
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
EXACT = Tolerance(rtol=0.0, atol=0.0)
TOL32 = Tolerance(rtol=2e-5, atol=2e-5)
TOL_FFT = Tolerance(rtol=1e-4, atol=1e-4)


def _np(x):
    return np.asarray(to_numpy(x))


def _rng(name: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(name.encode()))


# -- keras.ops: stft with a window shorter than the FFT ---------------------------------------------------------------
def _stft_reference(x: np.ndarray, sequence_length: int, sequence_stride: int, fft_length: int, window: str,
                    center: bool) -> tuple[np.ndarray, np.ndarray]:
    """Keras 3.15's stft (keras/src/backend/tensorflow/math.py): a periodic window of sequence_length padded to
    fft_length with (fft_length - sequence_length) // 2 zeros before it and the rest after it, frames of fft_length
    every sequence_stride samples (the signal reflect-padded by fft_length // 2 on both sides when center), rfft.
    The window is tf.signal's periodic hann/hamming window, which is the symmetric one for an odd length."""
    if center:
        x = np.pad(x, [(0, 0)] * (x.ndim - 1) + [(fft_length // 2, fft_length // 2)], mode="reflect")
    n = np.arange(sequence_length)
    a = 0.5 if window == "hann" else 0.54
    period = sequence_length if sequence_length % 2 == 0 else sequence_length - 1   # (tf.signal's periodic
    win = a - (1 - a) * np.cos(2 * np.pi * n / period)                                 # window: odd lengths symmetric)
    l_pad = (fft_length - sequence_length) // 2
    win = np.pad(win, (l_pad, fft_length - sequence_length - l_pad))
    frames = 1 + (x.shape[-1] - fft_length) // sequence_stride
    spec = np.stack([np.fft.rfft(x[..., i * sequence_stride:i * sequence_stride + fft_length] * win)
                     for i in range(frames)], axis=-2)
    return spec.real, spec.imag


@clause("keras.ops", ref="tf221")
@pytest.mark.parametrize("sequence_length,fft_length", [(5, 8), (6, 9), (3, 8), (8, 8)])
@pytest.mark.parametrize("window", ["hann", "hamming"])
def test_blind29_stft_centres_a_window_shorter_than_the_fft(tf, sequence_length, fft_length, window):
    """keras.ops.stft pads a window shorter than fft_length on both sides, the smaller half first (an odd
    difference puts the extra zero after the window), with and without center."""
    keras = tf.keras
    x = np.round(_rng(f"blind29-stft-{sequence_length}-{fft_length}").uniform(-1, 1, (2, 29)), 3).astype(np.float32)
    for center in (False, True):
        re, im = keras.ops.stft(tf.constant(x), sequence_length=sequence_length, sequence_stride=3,
                                fft_length=fft_length, window=window, center=center)
        want_re, want_im = _stft_reference(x.astype(np.float64), sequence_length, 3, fft_length, window, center)
        call = (f"keras.ops.stft(x, sequence_length={sequence_length}, sequence_stride=3, fft_length={fft_length}, "
                f"window={window!r}, center={center})")
        assert_close(re, want_re, tolerance=TOL_FFT, what="real part", call=call)
        assert_close(im, want_im, tolerance=TOL_FFT, what="imaginary part", call=call)


# -- keras.ops: every vector order of norm ----------------------------------------------------------------------------
@clause("keras.ops", ref="tf221")
@pytest.mark.parametrize("ord_", [np.inf, -np.inf, 1, 2, 3, 0.5, -1, 0])
def test_blind29_norm_of_vectors_for_every_order(tf, ord_):
    """keras.ops.norm(x, ord, axis) of vectors is NumPy's vector norm: max |x| (inf), min |x| (-inf), the count of
    non-zeros (0), (sum |x|^p)^(1/p) otherwise, along any one axis, keepdims or not."""
    keras = tf.keras
    x = np.round(_rng("blind29-norm").uniform(-3, 3, (3, 4)), 2).astype(np.float32)
    x[1, 2] = 0.0 if ord_ == 0 else x[1, 2]
    for axis in (0, 1, -1):
        for keepdims in (False, True):
            got = keras.ops.norm(tf.constant(x), ord=ord_, axis=axis, keepdims=keepdims)
            want = np.linalg.norm(x.astype(np.float64), ord=ord_, axis=axis, keepdims=keepdims)
            assert_close(got, want, tolerance=Tolerance(rtol=1e-5, atol=1e-6), what="norm",
                         call=f"keras.ops.norm(x of shape {x.shape}, ord={ord_}, axis={axis}, keepdims={keepdims})")


# -- tf.keras.backend: the values of the legacy functions -------------------------------------------------------------
@clause("keras.backend.legacy", ref="tf221")
@pytest.mark.parametrize("momentum", [0.9, 0.5, 0.99])
def test_blind29_legacy_moving_average_update_keeps_momentum_of_the_old_value(tf, momentum):
    """tf.keras.backend.moving_average_update(x, value, momentum) assigns momentum * x + (1 - momentum) * value
    (x.assign_sub((x - value) * (1 - momentum))), twice in a row."""
    K = tf.keras.backend
    start = np.array([1.0, 2.0, -4.0], np.float32)
    value = np.array([3.0, 3.0, 0.5], np.float32)
    v = tf.Variable(start)
    want = start.astype(np.float64)
    for step in range(2):
        K.moving_average_update(v, tf.constant(value), momentum)
        want = momentum * want + (1 - momentum) * value
        assert_close(v, want, tolerance=TOL32, what=f"x after update {step + 1}",
                     call=f"tf.keras.backend.moving_average_update(x, {value.tolist()}, momentum={momentum})")


@clause("keras.backend.legacy", ref="tf221")
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_blind29_legacy_categorical_crossentropy_along_its_axis(tf, axis):
    """tf.keras.backend.categorical_crossentropy(target, output, axis=k) of probabilities: output renormalised to
    sum 1 along axis k, clipped to [1e-7, 1 - 1e-7], then -sum(target * log(output)) along k; from_logits: the
    softmax cross entropy along k."""
    K = tf.keras.backend
    rng = _rng(f"blind29-legacy-cce-{axis}")
    out = np.round(rng.uniform(0.05, 1.0, (3, 4)), 3).astype(np.float32)
    tgt = np.round(rng.uniform(0.0, 1.0, (3, 4)), 3).astype(np.float32)
    o = out.astype(np.float64) / out.astype(np.float64).sum(axis=axis, keepdims=True)
    want = -np.sum(tgt * np.log(np.clip(o, 1e-7, 1 - 1e-7)), axis=axis)
    assert_close(K.categorical_crossentropy(tf.constant(tgt), tf.constant(out), axis=axis), want, tolerance=TOL32,
                 what="loss", call=f"tf.keras.backend.categorical_crossentropy(target, output, axis={axis})")
    logits = np.log(out.astype(np.float64))
    soft = np.exp(logits - logits.max(axis=axis, keepdims=True))
    soft = soft / soft.sum(axis=axis, keepdims=True)
    want_logits = -np.sum(tgt * np.log(soft), axis=axis)
    assert_close(K.categorical_crossentropy(tf.constant(tgt), tf.constant(np.log(out)), from_logits=True, axis=axis),
                 want_logits, tolerance=TOL32, what="loss",
                 call=f"tf.keras.backend.categorical_crossentropy(target, logits, from_logits=True, axis={axis})")


# -- Keras preprocessing: TimeseriesGenerator's windows up to end_index, make_sampling_table --------------------------
@clause("keras.preprocessing.legacy", ref="tf221")
@pytest.mark.parametrize("length,sampling_rate,stride,start_index,end_index,batch_size",
                         [(3, 1, 1, 0, None, 4), (4, 2, 1, 1, 17, 5), (2, 1, 3, 0, 19, 2), (5, 1, 2, 2, None, 3)])
def test_blind29_timeseries_generator_windows_end_at_every_row_up_to_end_index(tf, length, sampling_rate, stride,
                                                                              start_index, end_index, batch_size):
    """tf.keras.preprocessing.sequence.TimeseriesGenerator's batches, read in order, are the windows ending at rows
    start_index + length, + stride, ... up to end_index inclusive (default len(data) - 1): samples
    data[row - length:row:sampling_rate], target targets[row]; len() is the number of batches."""
    data = np.arange(20 * 2).reshape(20, 2)
    targets = np.arange(100, 120)
    gen = tf.keras.preprocessing.sequence.TimeseriesGenerator(
        data, targets, length=length, sampling_rate=sampling_rate, stride=stride, start_index=start_index,
        end_index=end_index, batch_size=batch_size)
    last = 19 if end_index is None else end_index
    rows = np.arange(start_index + length, last + 1, stride)
    call = (f"TimeseriesGenerator(length={length}, sampling_rate={sampling_rate}, stride={stride}, "
            f"start_index={start_index}, end_index={end_index}, batch_size={batch_size})")
    assert_equal(len(gen), -(-len(rows) // batch_size), what="len(generator)", call=call)
    xs, ys = zip(*(gen[i] for i in range(len(gen))))
    assert_equal(np.concatenate(ys), targets[rows], what="the targets of all batches", call=call)
    assert_equal(np.concatenate(xs), np.stack([data[r - length:r:sampling_rate] for r in rows]),
                 what="the samples of all batches", call=call)


@clause("keras.preprocessing.legacy", ref="tf221")
@pytest.mark.parametrize("size,sampling_factor", [(6, 0.05), (10, 1e-5), (40, 0.001)])
def test_blind29_make_sampling_table_is_the_zipf_keep_probability(tf, size, sampling_factor):
    """make_sampling_table(size, sampling_factor)[i] = min(1, sqrt(sampling_factor * inv_fq(i))) with Zipf's
    inverse frequency inv_fq(r) = r (log r + 0.577) + 1/2 - 1/(12 r), rank 0 counted as rank 1 (Keras 1's rule)."""
    rank = np.arange(size).astype(np.float64)
    rank[0] = 1
    f = sampling_factor * (rank * (np.log(rank) + 0.577) + 0.5 - 1.0 / (12.0 * rank))
    got = tf.keras.preprocessing.sequence.make_sampling_table(size, sampling_factor=sampling_factor)
    assert_close(got, np.minimum(1.0, np.sqrt(f)), tolerance=Tolerance(rtol=1e-12, atol=1e-15), what="table",
                 call=f"make_sampling_table({size}, sampling_factor={sampling_factor})")


# -- the fit loop: steps_per_execution under a one-replica MirroredStrategy -------------------------------------------
def _fit_losses(tf, strategy, steps_per_execution):
    keras = tf.keras
    with strategy.scope():
        model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
        model.compile(optimizer=keras.optimizers.SGD(0.01), loss="mse", steps_per_execution=steps_per_execution)
    x = np.arange(16, dtype=np.float32).reshape(8, 2) / 10
    y = np.ones((8, 1), np.float32)
    h = model.fit(x, y, batch_size=2, epochs=2, verbose=0, shuffle=False)
    return np.array(h.history["loss"]), _np(model.get_weights()[0])


@clause("keras.fit.spe-mirrored", ref="tf221")
@pytest.mark.parametrize("steps_per_execution", [2, 3])
def test_blind29_one_replica_mirrored_fit_with_steps_per_execution_trains(backend, tf, steps_per_execution):
    """TF 2.21's failure of multi-step fit under MirroredStrategy needs two or more replicas: with one replica
    fit(steps_per_execution=k) trains, to the same losses and weights as the default strategy one step at a
    time."""
    want_loss, want_w = _fit_losses(tf, tf.distribute.get_strategy(), 1)
    strategy = backend.make_strategy("mirrored", 1)
    got_loss, got_w = _fit_losses(tf, strategy, steps_per_execution)
    call = f"MirroredStrategy(1 replica): fit(steps_per_execution={steps_per_execution}) vs the default strategy"
    assert_close(got_loss, want_loss, tolerance=TOL32, what="history['loss']", call=call)
    assert_close(got_w, want_w, tolerance=TOL32, what="kernel", call=call)


# -- op gradients: ImageProjectiveTransformV3 under each interpolation ------------------------------------------------
@clause("ops.image-projective-transform", ref="tf221")
@pytest.mark.parametrize("interpolation", ["BILINEAR", "NEAREST"])
@pytest.mark.parametrize("fill_mode", ["CONSTANT", "REFLECT"])
def test_blind29_projective_transform_gradient_samples_as_the_forward(tf, interpolation, fill_mode):
    """ImageProjectiveTransformV3's gradient (image_grad.py _image_projective_transform_v3_grad) is the same op on
    the upstream gradient with the inverted transforms (the 3x3 matrix inverted and scaled to a unit last entry,
    computed here with NumPy), the forward's interpolation and fill_mode, fill_value 0: not the exact adjoint, so
    a gradient that samples with another interpolation differs."""
    h, w, c = 4, 5, 2
    rng = _rng(f"blind29-projective-{interpolation}-{fill_mode}")
    a = np.array([0.9, 0.15, 0.4, -0.1, 1.1, 0.3, 0.0, 0.0])
    m = np.linalg.inv(np.append(a, 1.0).reshape(3, 3))
    inverse = (m / m[2, 2]).reshape(9)[:8]

    def transform(images, t):
        return tf.raw_ops.ImageProjectiveTransformV3(images=images, transforms=tf.constant([t], tf.float32),
                                                     output_shape=[h, w], fill_value=0.0,
                                                     interpolation=interpolation, fill_mode=fill_mode)
    x = tf.constant(np.round(rng.uniform(-1, 1, (1, h, w, c)), 3), tf.float32)
    R = np.round(rng.uniform(-2.0, 2.0, (1, h, w, c)), 2).astype(np.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = transform(x, a)
    g = tape.gradient(out, x, output_gradients=tf.constant(R))
    want = _np(transform(tf.constant(R), inverse))
    assert_close(g, want, tolerance=TOL32, what="the gradient",
                 call=f"tape.gradient(sum(R * ImageProjectiveTransformV3(x, interpolation={interpolation!r}, "
                      f"fill_mode={fill_mode!r})), x) vs the op on R with the inverted transforms")


# -- op gradients: CTCLoss passes the upstream gradient on ------------------------------------------------------------
@clause("ops.nn-ctc", ref="tf221")
@pytest.mark.parametrize("spelling", ["compat.v1.nn.ctc_loss", "nn.ctc_loss(SparseTensor labels)"])
def test_blind29_ctc_loss_gradient_scales_with_the_upstream_gradient(tf, spelling):
    """The CTC loss of example b depends on its logits [:, b, :] only, and its gradient is the upstream gradient
    of b times the kernel's gradient (ctc_ops._CTCLossGrad): with output_gradients w the gradient is w_b times
    the gradient for w = 1, for w with zero and negative entries, through both spellings of the sparse-label
    CTCLoss kernel."""
    rng = _rng("blind29-ctc-upstream")
    x = tf.constant(np.round(rng.uniform(-1, 1, (5, 3, 4)), 3), tf.float32)
    labels = tf.SparseTensor(indices=[[0, 0], [0, 1], [1, 0], [2, 0], [2, 1]], values=[1, 2, 0, 2, 2],
                             dense_shape=[3, 2])

    def loss():
        if spelling.startswith("compat"):
            return tf.compat.v1.nn.ctc_loss(labels, x, sequence_length=[5, 4, 5])
        return tf.nn.ctc_loss(labels, x, label_length=None, logit_length=[5, 4, 5], blank_index=-1)
    w = np.array([2.5, 0.0, -1.5], np.float32)
    grads = []
    for upstream in (np.ones(3, np.float32), w):
        with tf.GradientTape() as tape:
            tape.watch(x)
            out = loss()
        grads.append(_np(tape.gradient(out, x, output_gradients=tf.constant(upstream))).astype(np.float64))
    assert_true(np.abs(grads[0]).max() > 0.01, f"expected a non-zero CTC gradient, got {grads[0].tolist()} "
                                               f"[tf.{spelling}]")
    assert_close(grads[1], grads[0] * w[None, :, None], tolerance=TOL32, what="the gradient",
                 call=f"tape.gradient(tf.{spelling}(...), x, output_gradients={w.tolist()}) vs w_b * the gradient "
                      "for ones")


# -- control flow: compat.v1.while_loop's maximum_iterations ----------------------------------------------------------
@clause("ops.compat-v1", ref="tf221")
@pytest.mark.parametrize("maximum_iterations", [0, 1, 3, 20])
def test_blind29_v1_while_loop_stops_at_maximum_iterations(tf, maximum_iterations):
    """tf.compat.v1.while_loop(cond, body, loop_vars, maximum_iterations=k) runs the body at most k times (and
    until cond is false), with one loop variable (a bare result, also when k = 0 and the body never runs: TF
    loops over (counter, loop_vars[0]) and returns the second) or several, eagerly and in a tf.function."""
    natural = 10
    want = min(natural, maximum_iterations)

    def single():
        return tf.compat.v1.while_loop(lambda i: i < natural, lambda i: i + 1, [tf.constant(0)],
                                       maximum_iterations=maximum_iterations)

    def pair():
        return tf.compat.v1.while_loop(lambda i, s: i < natural, lambda i, s: (i + 1, s + 2.0 * tf.cast(i, tf.float32)),
                                       (tf.constant(0), tf.constant(0.0)), maximum_iterations=maximum_iterations)
    for label, fn in (("eager", single), ("tf.function", tf.function(single))):
        assert_equal(_np(fn()), np.array(want, np.int32), what="the loop variable",
                     call=f"tf.compat.v1.while_loop(i < {natural}, i + 1, [0], maximum_iterations="
                          f"{maximum_iterations}) {label}")
    for label, fn in (("eager", pair), ("tf.function", tf.function(pair))):
        i, s = fn()
        assert_equal(_np(i), np.array(want, np.int32), what="i", call=f"v1.while_loop of (i, s) {label}")
        assert_close(s, float(sum(2 * k for k in range(want))), tolerance=EXACT, what="s",
                     call=f"v1.while_loop of (i, s), maximum_iterations={maximum_iterations} {label}")


# -- tf.nn: the greedy CTC decoder's repeats and blanks ---------------------------------------------------------------
@clause("ops.nn-ctc", ref="tf221")
@pytest.mark.parametrize("merge_repeated", [True, False])
def test_blind29_ctc_greedy_decoder_blank_separates_repeats(tf, merge_repeated):
    """tf.nn.ctc_greedy_decoder takes each frame's most likely class; it emits a class unless it is the blank (the
    last class) or, with merge_repeated, the previous frame's class, and every frame (a blank too) becomes the
    previous one: a label repeated across a blank is emitted twice. log_probability is minus the sum of the
    frames' maxima."""
    paths = [[1, 1, 3, 1, 2, 2, 3, 3, 2, 0], [0, 3, 0, 0, 3, 3, 0, 1, 1, 1], [2, 3, 2, 3, 2, 2, 1, 3, 3, 1]]
    lengths = [10, 8, 10]
    rng = _rng(f"blind29-ctc-greedy-{merge_repeated}")
    x = np.round(rng.uniform(-2.0, 0.0, (10, 3, 4)), 3).astype(np.float32)
    for b, path in enumerate(paths):
        for t, c in enumerate(path):
            x[t, b, c] = np.float32(0.5 + 0.01 * t)
    (decoded,), log_prob = tf.nn.ctc_greedy_decoder(tf.constant(x), lengths, merge_repeated=merge_repeated)
    want = []
    for b, path in enumerate(paths):
        out, prev = [], -1
        for c in path[:lengths[b]]:
            if c != 3 and not (merge_repeated and c == prev):
                out.append(c)
            prev = c
        want.append(out)
    dense = _np(tf.sparse.to_dense(decoded, default_value=-1))
    got = [[int(v) for v in row if v >= 0] for row in dense]
    call = f"tf.nn.ctc_greedy_decoder(x, {lengths}, merge_repeated={merge_repeated})"
    assert_equal(got, want, what="the decoded labels", call=call)
    assert_close(log_prob, -np.array([[sum(float(x[t, b].max()) for t in range(lengths[b]))] for b in range(3)]),
                 tolerance=TOL32, what="log_probability", call=call)


# -- random ops: sample_distorted_bounding_box accepts a crop covering exactly min_object_covered ---------------------
@clause("ops.image-random", ref="tf221")
@pytest.mark.parametrize("covered,just_below", [(1.0, 0.999), (0.5, 0.49), (0.25, 0.24)])
def test_blind29_distorted_box_accepts_coverage_equal_to_the_minimum(tf, covered, just_below):
    """sample_distorted_bounding_box accepts a crop that covers at least min_object_covered of a box. The box
    [0.4, 0.4, 0.6, 0.6] of a 20x20 image is 4x4 pixels, so a crop covers k/16 of it: no coverage lies in
    [just_below, covered), and the two minima must give the same crop for every seed; the crop covers at least
    `covered` of the box, and with min_object_covered=1.0 not every seed falls back to the whole image."""
    boxes = tf.constant([[[0.4, 0.4, 0.6, 0.6]]])
    whole = 0
    seeds = [[1, 2], [3, 4], [5, 6], [7, 8], [11, 12], [21, 22]]
    for seed in seeds:
        outs = [tf.image.stateless_sample_distorted_bounding_box([20, 20, 3], bounding_boxes=boxes, seed=seed,
                                                                  min_object_covered=c) for c in (covered, just_below)]
        (b0, s0, _), (b1, s1, _) = [[_np(v) for v in o] for o in outs]
        call = f"stateless_sample_distorted_bounding_box(seed={seed}, min_object_covered={covered} vs {just_below})"
        assert_equal(np.concatenate([b0, s0]), np.concatenate([b1, s1]), what="begin and size", call=call)
        y0, x0, h, w = int(b0[0]), int(b0[1]), int(s0[0]), int(s0[1])
        inter = max(0, min(y0 + h, 12) - max(y0, 8)) * max(0, min(x0 + w, 12) - max(x0, 8))
        assert_true(inter / 16 >= covered, f"expected a crop covering at least {covered} of the box, got begin "
                                           f"{b0.tolist()}, size {s0.tolist()} (covers {inter}/16) [{call}]")
        whole += (h, w) == (20, 20)
    if covered == 1.0:
        assert_true(whole < len(seeds), f"expected some seed to find a crop containing the box, got the whole image "
                                        f"for all {len(seeds)} seeds [min_object_covered=1.0]")


# -- random ops: index_shuffle is a permutation -----------------------------------------------------------------------
@clause("ops.random-generator", ref="tf221")
@pytest.mark.parametrize("max_index", [1, 9, 100, 1000])
def test_blind29_index_shuffle_permutes_zero_to_max_index(tf, max_index):
    """tf.random.experimental.index_shuffle(i, seed, max_index) over i = 0..max_index is a permutation of
    0..max_index (every value, max_index included, exactly once) for every seed, int64 and int32 indices alike."""
    for seed in ([1, 2], [7, 11], [123, 0]):
        for dtype in (tf.int64, tf.int32):
            idx = tf.range(max_index + 1, dtype=dtype)
            got = _np(tf.random.experimental.index_shuffle(idx, seed=seed, max_index=tf.constant(max_index, dtype)))
            assert_equal(np.sort(got), np.arange(max_index + 1), what="the sorted values",
                         call=f"index_shuffle(range({max_index + 1}), seed={seed}, max_index={max_index}, {dtype.name})")


# -- random ops: the binomial above p = 0.5 is the count minus the mirrored draw -------------------------------------
@clause("ops.random-generator", ref="tf221")
@pytest.mark.parametrize("p", [0.75, 0.875, 0.625])
def test_blind29_binomial_above_one_half_mirrors_the_draw_below(tf, p):
    """random_binomial_op.cc draws p > 0.5 as count - X(count, 1 - p), choosing BTRS or inversion by
    count * (1 - p) >= 10, from the same generator offsets as a draw with probability 1 - p: with one seed,
    stateless_binomial(counts, p) == counts - stateless_binomial(counts, 1 - p) sample for sample (1 - p exact in
    float32), for counts on both sides of the BTRS threshold."""
    counts = tf.constant([20.0, 100.0, 7.0, 60.0], tf.float32)
    for seed in ([1, 2], [5, 9]):
        hi = _np(tf.random.stateless_binomial([6, 4], seed=seed, counts=counts, probs=tf.constant(p, tf.float32)))
        lo = _np(tf.random.stateless_binomial([6, 4], seed=seed, counts=counts,
                                              probs=tf.constant(1.0 - p, tf.float32)))
        assert_equal(hi, (_np(counts).astype(np.int32) - lo), what="the draws",
                     call=f"stateless_binomial(seed={seed}, counts={_np(counts).ravel().tolist()}, probs={p}) vs "
                          f"counts - the draws with probs={1 - p}")
