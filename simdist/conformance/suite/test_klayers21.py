"""Keras 3.15's augmentation layers, audio layers, Pipeline, the STFT initializer and
SwapEMAWeights added in session 21 (TF 2.21 + Keras 3.15): values where the transform is fixed (a
degenerate factor range, a fixed bit count, a fixed sigma, scale 0), the structure of random ones
(a shear is one of two signed shears, an erased box is a rectangle of the fill value), training vs
inference, seeded repeatability, value ranges that do not start at 0, spectrograms against NumPy's
FFT, and the EMA swap around evaluate and predict.

Expected values come from NumPy transcriptions of keras/src/layers/preprocessing/ (and of TF's
kernels they call: rgb_to_grayscale's weights, the depthwise SAME convolution, nearest
ImageProjectiveTransformV3, the STFT as an rFFT), never from the backend.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close as _assert_close
from simdist.conformance.assertions import assert_equal, assert_true, raises, to_numpy
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=1e-5, atol=1e-3)   # float32 pixel arithmetic (values up to 255) against float64 NumPy
TOL_SPEC = Tolerance(rtol=1e-4, atol=1e-3)   # float32 FFTs and convolutions against NumPy's float64 FFT

IMAGES = ((np.arange(2 * 5 * 6 * 3, dtype=np.float32).reshape(2, 5, 6, 3) * 7 % 23) * 10.0 + 12.0).astype(np.float32)


def assert_close(got, expected, tolerance=TOL32, **kwargs):
    _assert_close(got, expected, tolerance=tolerance, **kwargs)


def _depthwise_same(images: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """A per-channel 2-D correlation with zero SAME padding (channels-last batch), float64."""
    kh, kw = kernel.shape
    ph, pw = kh // 2, kw // 2
    x = np.pad(images.astype(np.float64), ((0, 0), (ph, ph), (pw, pw), (0, 0)))
    out = np.zeros(images.shape, np.float64)
    for i in range(kh):
        for j in range(kw):
            out += kernel[i, j] * x[:, i:i + images.shape[1], j:j + images.shape[2]]
    return out


@clause("keras.layer.image-color-augment", ref="tf221")
def test_klayers21_color_layers_with_fixed_factors(keras):
    L = keras.layers
    lo, hi = 20.0, 200.0
    gray = (IMAGES.astype(np.float64) @ np.array([0.2989, 0.5870, 0.1140]))[..., None]
    want = np.clip(IMAGES + 0.4 * (gray - IMAGES), lo, hi)
    assert_close(L.RandomColorDegeneration((0.4, 0.4), value_range=(hi, lo), seed=1)(IMAGES), want,
                 call="RandomColorDegeneration((0.4, 0.4), value_range=(200, 20))(images)")
    # RandomPosterization: a fixed 3 bits, the images mapped from (10, 250) to [0, 255] and truncated to uint8
    scaled = ((IMAGES.astype(np.float64) - 10.0) / 240.0 * 255.0)
    kept = (np.trunc(np.clip(scaled, 0, 255)).astype(np.uint8) >> 5) << 5
    assert_close(L.RandomPosterization((3, 3), value_range=(10, 250), seed=1)(IMAGES),
                 kept.astype(np.float64) / 255.0 * 240.0 + 10.0,
                 call="RandomPosterization((3, 3), value_range=(10, 250))(images)")
    # RandomSharpness: f = 0.25 blends half way to the 1/13, 5/13 smoothing, clipped to (10, 240)
    kernel = np.full((3, 3), 1.0 / 13.0)
    kernel[1, 1] = 5.0 / 13.0
    smooth = _depthwise_same(IMAGES, kernel)
    assert_close(L.RandomSharpness((0.25, 0.25), value_range=(10, 240), seed=1)(IMAGES),
                 np.clip(IMAGES + 0.5 * (smooth - IMAGES), 10, 240),
                 call="RandomSharpness((0.25, 0.25), value_range=(10, 240))(images)")
    # RandomColorJitter with a fixed brightness only: delta 0.2 * (250 - 10), clipped to (10, 250)
    assert_close(L.RandomColorJitter(value_range=(10, 250), brightness_factor=(0.2, 0.2), seed=3)(IMAGES),
                 np.clip(IMAGES + 48.0, 10, 250),
                 call="RandomColorJitter(value_range=(10, 250), brightness_factor=(0.2, 0.2))(images)")
    for layer in (L.RandomColorDegeneration(0.5, seed=1), L.RandomPosterization(4, seed=1),
                  L.RandomSharpness(0.5, seed=1), L.RandomColorJitter(contrast_factor=0.5, seed=1)):
        assert_equal(layer(IMAGES, training=False), IMAGES, call=f"{type(layer).__name__}(...)(images, training=False)")


def _equalize(images: np.ndarray, value_range: tuple[float, float], bins: int) -> np.ndarray:
    """Keras's Equalization: per channel over the whole batch, in float32 as the layer computes."""
    lo, hi = value_range
    out = np.empty(images.shape, np.float64)
    for c in range(images.shape[-1]):
        ch = (images[..., c].astype(np.float64) - lo) * (255.0 / (hi - lo))
        idx = np.clip((ch * (bins - 1) / 255.0).astype(np.int32), 0, bins - 1)
        hist = np.bincount(idx.ravel(), minlength=bins)
        if np.count_nonzero(hist) <= 1:
            eq = ch
        else:
            cdf = np.cumsum(hist)
            cdf_min = cdf[np.nonzero(cdf)[0][0]]
            lut = np.clip(np.round((cdf - cdf_min) * 255.0 / (cdf[-1] - cdf_min)), 0, 255)
            eq = lut[np.clip(ch / 255.0 * (bins - 1), 0, bins - 1).astype(np.int32)]
        out[..., c] = eq * ((hi - lo) / 255.0) + lo
    return out


@clause("keras.layer.image-color-augment", ref="tf221")
def test_klayers21_equalization(keras):
    L = keras.layers
    assert_close(L.Equalization(value_range=(250, 10), bins=32)(IMAGES), _equalize(IMAGES, (10, 250), 32),
                 call="Equalization(value_range=(250, 10), bins=32)(images)")
    assert_close(L.Equalization()(IMAGES), _equalize(IMAGES, (0, 255), 256), call="Equalization()(images)")
    assert_equal(L.Equalization()(IMAGES, training=False), IMAGES, call="Equalization()(images, training=False)")
    config = L.Equalization(value_range=(250, 10), bins=32).get_config()
    assert_equal(config["bins"], 32, call="Equalization(bins=32).get_config()['bins']")
    assert_equal(np.asarray(config["value_range"], np.float64), np.array([10.0, 250.0]),
                 call="Equalization(value_range=(250, 10)).get_config()['value_range'] (sorted)")


@clause("keras.layer.image-color-augment", ref="tf221")
def test_klayers21_clahe(keras):
    L = keras.layers
    layer = L.ContrastLimitedAdaptiveHistogramEqualization(value_range=(10, 250), tile_grid_size=(2, 3), clip_limit=2.0)
    out = to_numpy(layer(IMAGES))
    assert_true(out.min() >= 10 - 1e-3 and out.max() <= 250 + 1e-3, f"values {out.min()}..{out.max()} outside (10, 250)",
                call="ContrastLimitedAdaptiveHistogramEqualization(value_range=(10, 250))(images)")
    assert_equal(layer(IMAGES, training=False), out, call="CLAHE(...)(images, training=False)  (not random: applied)")
    assert_equal(layer(IMAGES[1]), out[1], call="CLAHE(...)(one image)  (per image)")
    nchw = np.ascontiguousarray(IMAGES.transpose(0, 3, 1, 2))
    first = L.ContrastLimitedAdaptiveHistogramEqualization(value_range=(10, 250), tile_grid_size=(2, 3), clip_limit=2.0,
                                                           data_format="channels_first")
    assert_equal(first(nchw), out.transpose(0, 3, 1, 2), call='CLAHE(data_format="channels_first")(images)')
    # a constant image: Keras's cdf minimum is over all 256 bins (0 below the value), so every
    # tile's table maps the value to (count - 0) * 255 / (count - 0) = 255
    flat = np.full((1, 4, 4, 1), 100.0, np.float32)
    assert_equal(L.ContrastLimitedAdaptiveHistogramEqualization(tile_grid_size=(2, 2), clip_limit=0.0)(flat),
                 np.full_like(flat, 255.0), call="CLAHE(clip_limit=0)(constant image)")


@clause("keras.layer.image-erase-blur", ref="tf221")
def test_klayers21_erasing_and_blur(keras):
    L = keras.layers
    out = to_numpy(L.RandomErasing(factor=(1.0, 1.0), scale=(0.2, 0.5), fill_value=77.0, value_range=(10, 200), seed=5)(
        IMAGES))
    for i in range(len(IMAGES)):
        changed = np.any(out[i] != IMAGES[i], axis=-1)
        rows, cols = np.nonzero(changed)
        assert_true(rows.size > 0, f"image {i}: nothing erased with factor (1, 1)", call="RandomErasing(factor=(1, 1))")
        box = np.zeros_like(changed)
        box[rows.min():rows.max() + 1, cols.min():cols.max() + 1] = True
        assert_true(np.array_equal(box, changed) or np.all(out[i][box] == 77.0),
                    f"image {i}: the erased pixels are not one rectangle", call="RandomErasing(factor=1.0)")
        assert_true(np.all(out[i][box] == 77.0), f"image {i}: the box holds {np.unique(out[i][box])}, not 77",
                    call="RandomErasing(fill_value=77.0)")
    assert_equal(L.RandomErasing(factor=0.0, seed=5)(IMAGES), IMAGES, call="RandomErasing(factor=0.0)(images)")
    # RandomGaussianBlur: factor (1, 1) blurs every image (a number f means (0, f)), sigma fixed at 0.5 (+1e-6), clipped to (20, 200)
    sigma = 0.5 + 1e-6
    g = np.exp(-0.5 * (np.array([-1.0, 0.0, 1.0]) / sigma) ** 2)
    g /= g.sum()
    assert_close(L.RandomGaussianBlur(factor=(1.0, 1.0), sigma=(0.5, 0.5), value_range=(20, 200), seed=2)(IMAGES),
                 np.clip(_depthwise_same(IMAGES, np.outer(g, g)), 20, 200),
                 call="RandomGaussianBlur(factor=(1, 1), sigma=(0.5, 0.5), value_range=(20, 200))(images)")
    with raises(ValueError, call="RandomGaussianBlur(kernel_size=4)"):
        L.RandomGaussianBlur(kernel_size=4)


def _shear_nearest(image: np.ndarray, sx: float, fill: float) -> np.ndarray:
    """ImageProjectiveTransformV3 nearest, constant fill, rows [1, sx, 0, 0, 1, 0, 0, 0]."""
    h, w = image.shape[:2]
    out = np.full(image.shape, fill, np.float64)
    for y in range(h):
        for x in range(w):
            xi = int(np.floor(x + sx * y + 0.5))
            if 0 <= xi < w:
                out[y, x] = image[y, xi]
    return out


@clause("keras.layer.image-geometric-augment", ref="tf221")
def test_klayers21_geometric_layers(keras):
    L = keras.layers
    out = to_numpy(L.RandomShear(x_factor=(0.3, 0.3), fill_mode="constant", fill_value=5.0, interpolation="nearest",
                                 seed=3)(IMAGES))
    for i in range(len(IMAGES)):
        options = [_shear_nearest(IMAGES[i], s, 5.0) for s in (0.3, -0.3)]
        assert_true(any(np.array_equal(out[i], o) for o in options),
                    f"image {i} is neither shear by +0.3 nor by -0.3", call="RandomShear(x_factor=(0.3, 0.3))")
    assert_equal(L.RandomShear(0.5, seed=3)(IMAGES, training=False), IMAGES, call="RandomShear(...)(training=False)")
    assert_close(L.RandomPerspective(factor=1.0, scale=0.0, seed=4)(IMAGES), IMAGES,
                 call="RandomPerspective(scale=0.0)(images)  (corners do not move)")
    assert_equal(L.RandomElasticTransform(scale=0.0, seed=4)(IMAGES), IMAGES,
                 call="RandomElasticTransform(scale=0.0)(images)")
    out = to_numpy(L.RandomElasticTransform(factor=1.0, scale=0.8, value_range=(30, 150), seed=4)(IMAGES))
    assert_true(out.min() >= 30 and out.max() <= 150, f"values {out.min()}..{out.max()} outside (30, 150)",
                call="RandomElasticTransform(value_range=(30, 150))(images)")
    a = to_numpy(L.RandomPerspective(scale=0.7, seed=9)(IMAGES))
    b = to_numpy(L.RandomPerspective(scale=0.7, seed=9)(IMAGES))
    assert_equal(a, b, call="RandomPerspective(scale=0.7, seed=9) twice")


@clause("keras.layer.image-augment-policies", ref="tf221")
def test_klayers21_rand_augment_and_aug_mix(keras):
    import random
    L = keras.layers
    for make in (lambda: L.RandAugment(value_range=(10, 250), num_ops=3, factor=(0.2, 0.6), seed=7),
                 lambda: L.AugMix(value_range=(10, 250), num_chains=2, chain_depth=2, seed=7)):
        random.seed(3)
        a = to_numpy(make()(IMAGES))
        random.seed(3)
        b = to_numpy(make()(IMAGES))
        name = type(make()).__name__
        assert_equal(a, b, call=f"{name}(seed=7) twice (Python's random seeded alike)")
        assert_equal(a.shape, IMAGES.shape, call=f"{name}(...)(images).shape")
        assert_equal(make()(IMAGES, training=False), IMAGES, call=f"{name}(...)(images, training=False)")
    out = to_numpy(L.AugMix(value_range=(10, 250), seed=2)(IMAGES))
    assert_true(out.min() >= 10 and out.max() <= 250, f"AugMix values {out.min()}..{out.max()} outside (10, 250)",
                call="AugMix(value_range=(10, 250))(images)")
    # num_ops=0: no op is applied
    assert_equal(L.RandAugment(num_ops=0, seed=1)(IMAGES), IMAGES, call="RandAugment(num_ops=0)(images)")


SIGNAL = ((((np.arange(2 * 300, dtype=np.float32).reshape(2, 300) * 37) % 101) / 50.0) - 1.0).astype(np.float32)


def _frames(x: np.ndarray, length: int, step: int) -> np.ndarray:
    n = 1 + (x.shape[-1] - length) // step
    return np.stack([x[..., i * step:i * step + length] for i in range(n)], axis=-2)


@clause("keras.layer.audio", ref="tf221")
def test_klayers21_stft_spectrogram_and_initializer(keras):
    from scipy import signal
    L = keras.layers
    x = SIGNAL[..., None]
    frames = _frames(SIGNAL.astype(np.float64), 16, 8)                 # (batch, frames, 16)
    spec = np.fft.rfft(frames, n=16)                                    # (batch, frames, 9)
    assert_close(L.STFTSpectrogram(mode="real", frame_length=16, frame_step=8, window=None, scaling=None)(x),
                 spec.real, tolerance=TOL_SPEC, call='STFTSpectrogram(mode="real", window=None)(signal)')
    assert_close(L.STFTSpectrogram(mode="imag", frame_length=16, frame_step=8, window=None, scaling=None)(x),
                 spec.imag, tolerance=TOL_SPEC, call='STFTSpectrogram(mode="imag", window=None)(signal)')
    w = signal.get_window("hann", 16, False)
    mag = np.abs(np.fft.rfft(frames * w, n=32)) / np.sqrt(np.sum(w ** 2))
    assert_close(L.STFTSpectrogram(mode="magnitude", frame_length=16, frame_step=8, fft_length=32)(x),
                 np.sqrt(np.maximum(mag ** 2, 1e-7)), tolerance=TOL_SPEC,
                 call='STFTSpectrogram(mode="magnitude", fft_length=32)(signal)')
    shape = L.STFTSpectrogram(mode="stft", frame_length=16, frame_step=8, expand_dims=True).compute_output_shape(
        (2, 300, 1))
    assert_equal(tuple(shape), (2, 36, 18, 1), call='STFTSpectrogram(mode="stft", expand_dims=True).compute_output_shape')
    kernel = to_numpy(keras.initializers.STFT("imag", window=None, scaling=None)((8, 1, 5)))
    t, f = np.arange(8)[:, None, None], np.arange(5)[None, None, :]
    assert_close(kernel, np.sin(-2.0 * np.pi * t * f / 8.0), call='keras.initializers.STFT("imag", window=None)((8, 1, 5))')
    with raises(ValueError, call='STFTSpectrogram(mode="phase")'):
        L.STFTSpectrogram(mode="phase")


def _mel_matrix(n_mels: int, n_bins: int, rate: float, lo: float, hi: float) -> np.ndarray:
    def mel(f: np.ndarray) -> np.ndarray:
        return 1127.0 * np.log(1.0 + f / 700.0)
    freqs = mel(np.linspace(0.0, rate / 2.0, n_bins)[1:])[:, None]
    edges = np.linspace(mel(np.float64(lo)), mel(np.float64(hi)), n_mels + 2)
    lower, center, upper = edges[:-2][None], edges[1:-1][None], edges[2:][None]
    m = np.maximum(0.0, np.minimum((freqs - lower) / (center - lower), (upper - freqs) / (upper - center)))
    return np.pad(m, [[1, 0], [0, 0]])


@clause("keras.layer.audio", ref="tf221")
def test_klayers21_mel_spectrogram(keras):
    from scipy import signal
    L = keras.layers
    fft, step = 64, 16
    padded = np.pad(SIGNAL.astype(np.float64), [[0, 0], [fft // 2, fft // 2]], mode="reflect")
    frames = _frames(padded, fft, step) * signal.get_window("hann", fft)
    power = np.abs(np.fft.rfft(frames, n=fft)) ** 2                     # (batch, frames, 33)
    mel = power @ _mel_matrix(10, fft // 2 + 1, 8000.0, 100.0, 3000.0)
    layer = L.MelSpectrogram(fft_length=fft, sequence_stride=step, sampling_rate=8000, num_mel_bins=10, min_freq=100.0,
                             max_freq=3000.0, power_to_db=False)
    assert_close(layer(SIGNAL), np.swapaxes(mel, -1, -2), tolerance=TOL_SPEC,
                 call="MelSpectrogram(fft_length=64, min_freq=100, max_freq=3000, power_to_db=False)(signal)")
    db = 10.0 * np.log10(np.maximum(mel, 1e-10)) - 10.0 * np.log10(2.0)
    db = np.maximum(db, db.max() - 30.0)
    layer = L.MelSpectrogram(fft_length=fft, sequence_stride=step, sampling_rate=8000, num_mel_bins=10, min_freq=100.0,
                             max_freq=3000.0, top_db=30.0, ref_power=2.0)
    assert_close(layer(SIGNAL), np.swapaxes(db, -1, -2), tolerance=TOL_SPEC,
                 call="MelSpectrogram(..., top_db=30, ref_power=2)(signal)")
    assert_equal(list(layer.compute_output_shape((2, 300))), [2, 10, 19], call="MelSpectrogram.compute_output_shape")


@clause("keras.layer.pipeline", ref="tf221")
def test_klayers21_pipeline(keras):
    L = keras.layers
    pipe = L.Pipeline([L.Rescaling(2.0, offset=1.0), L.RandomFlip("horizontal", seed=2), L.Rescaling(0.5)])
    x = IMAGES
    out = to_numpy(pipe(x, training=False))
    assert_close(out, (2.0 * x + 1.0) * 0.5, call="Pipeline([Rescaling(2, 1), RandomFlip, Rescaling(0.5)])(x, training=False)")
    out = to_numpy(pipe(x))
    want = (2.0 * x + 1.0) * 0.5
    for i in range(len(x)):
        assert_true(np.allclose(out[i], want[i]) or np.allclose(out[i], want[i][:, ::-1]),
                    f"image {i} is neither the rescaled image nor its mirror", call="Pipeline(...)(x)")
    again = L.Pipeline.from_config(pipe.get_config())
    assert_equal([type(layer).__name__ for layer in again.layers], ["Rescaling", "RandomFlip", "Rescaling"],
                 call="Pipeline.from_config(pipeline.get_config()).layers")


@clause("keras.callbacks.swap-ema-weights", ref="tf221")
def test_klayers21_swap_ema_weights(keras):
    x = (np.arange(24, dtype=np.float32).reshape(12, 2) % 7 - 3.0) / 4.0
    y = (np.arange(12) % 3 == 0).astype(np.float32).reshape(12, 1)
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.set_weights([np.array([[0.5], [-0.25]], np.float32), np.zeros(1, np.float32)])
    model.compile(optimizer=keras.optimizers.SGD(0.1, use_ema=True, ema_momentum=0.5), loss="mse")
    cb = keras.callbacks.SwapEMAWeights()
    model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False, callbacks=[cb])
    averages = np.concatenate([to_numpy(v).ravel() for v in model.optimizer._model_variables_moving_average])
    # fit ends by writing the averages into the model (finalize_variable_values)
    assert_close(np.concatenate([w.ravel() for w in model.get_weights()]), averages,
                 call="the weights after fit with use_ema (the averages written in)")
    other = [np.array([[1.5], [0.75]], np.float32), np.array([0.25], np.float32)]
    model.set_weights(other)
    mine = np.concatenate([w.ravel() for w in other])
    loss = float(np.asarray(model.evaluate(x, y, verbose=0, callbacks=[cb])))
    w_avg, b_avg = averages[:2].reshape(2, 1), averages[2:]
    assert_close(loss, float(np.mean((x @ w_avg + b_avg - y) ** 2)), call="evaluate with SwapEMAWeights (on the averages)")
    assert_close(np.concatenate([w.ravel() for w in model.get_weights()]), mine,
                 call="the weights after evaluate (swapped back)")
    assert_close(np.concatenate([to_numpy(v).ravel() for v in model.optimizer._model_variables_moving_average]),
                 averages, call="the averages after evaluate (swapped back)")
    model.predict(x[:2], verbose=0, callbacks=[cb])
    assert_close(np.concatenate([w.ravel() for w in model.get_weights()]), averages,
                 call="the weights after predict (Keras leaves the averages in)")
    plain = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    plain.compile(optimizer="sgd", loss="mse")
    with raises(ValueError, call="evaluate(callbacks=[SwapEMAWeights()]) without use_ema"):
        plain.evaluate(x, y, verbose=0, callbacks=[keras.callbacks.SwapEMAWeights()])
