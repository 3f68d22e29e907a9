"""Keras's image preprocessing and augmentation layers (tf.keras.layers Resizing, CenterCrop,
RandomCrop, RandomFlip, RandomRotation, RandomZoom, RandomTranslation, RandomContrast,
RandomBrightness, RandomHeight, RandomWidth, AutoContrast, RandomInvert, Solarization,
RandomGrayscale, RandomSaturation, MixUp, CutMix; TF 2.21 + Keras 3.15): values where the transform is
fixed (a degenerate factor range, a centred crop, a resize), the structure of random ones (a flip
is the image or its mirror; a crop a window; a brightness change one delta per image; a contrast
change one factor per image about the channel means), augmentation only in training, seeded layers
repeatable, `ds.map(layer)`, dict inputs with segmentation masks, configs and errors.

Expected values come from NumPy transcriptions of keras/src/layers/preprocessing/image_preprocessing/
and TF's bilinear kernel written here, never from the backend.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close as _assert_close
from simdist.conformance.assertions import assert_equal, assert_true, raises, to_numpy
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=1e-5, atol=1e-4)   # float32 sampling weights against float64 NumPy (values up to 255)

IMAGES = ((np.arange(2 * 6 * 6 * 3, dtype=np.float32).reshape(2, 6, 6, 3) * 7 % 23) * 11.0).astype(np.float32)


def assert_close(got, expected, **kwargs):
    _assert_close(got, expected, tolerance=TOL32, **kwargs)


def _bilinear_resize(img: np.ndarray, h: int, w: int) -> np.ndarray:
    """TF's ResizeBilinear with half-pixel centres (one channels-last image), in float64."""
    H, W = img.shape[:2]

    def taps(n_in: int, n_out: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        c = (np.arange(n_out) + 0.5) * (n_in / n_out) - 0.5
        lo = np.floor(c)
        frac = c - lo
        return np.clip(lo, 0, n_in - 1).astype(int), np.clip(lo + 1, 0, n_in - 1).astype(int), frac

    y0, y1, fy = taps(H, h)
    x0, x1, fx = taps(W, w)
    a = img.astype(np.float64)
    top = a[y0][:, x0] * (1 - fx)[None, :, None] + a[y0][:, x1] * fx[None, :, None]
    bottom = a[y1][:, x0] * (1 - fx)[None, :, None] + a[y1][:, x1] * fx[None, :, None]
    return top * (1 - fy)[:, None, None] + bottom * fy[:, None, None]


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_image_preprocessing_resizing_and_center_crop(keras):
    L = keras.layers
    want = np.stack([_bilinear_resize(im, 4, 5) for im in IMAGES])
    assert_close(L.Resizing(4, 5)(IMAGES), want, call="Resizing(4, 5)(images)")
    assert_close(L.Resizing(4, 5)(IMAGES[1]), want[1], call="Resizing(4, 5)(image)")
    nchw = np.ascontiguousarray(IMAGES.transpose(0, 3, 1, 2))
    assert_close(L.Resizing(4, 5, data_format="channels_first")(nchw), want.transpose(0, 3, 1, 2),
                 call='Resizing(4, 5, data_format="channels_first")(images)')
    assert_equal(L.CenterCrop(3, 4)(IMAGES), IMAGES[:, 1:4, 1:5], call="CenterCrop(3, 4)(images)")
    assert_equal(L.CenterCrop(3, 4)(IMAGES, training=False), IMAGES[:, 1:4, 1:5],
                 call="CenterCrop(3, 4)(images, training=False)")
    assert_equal(L.CenterCrop(3, 4, data_format="channels_first")(nchw), nchw[:, :, 1:4, 1:5],
                 call='CenterCrop(3, 4, data_format="channels_first")(images)')
    # taller than the image: the centred 6 x 3 window of aspect 8:4, resized
    assert_close(L.CenterCrop(8, 4)(IMAGES), np.stack([_bilinear_resize(im[:, 1:4], 8, 4) for im in IMAGES]),
                 call="CenterCrop(8, 4)(images)  (smart_resize)")
    assert_equal(tuple(L.Resizing(4, 5).compute_output_shape((None, 6, 6, 3))), (None, 4, 5, 3),
                 call="Resizing(4, 5).compute_output_shape((None, 6, 6, 3))")


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_image_preprocessing_flip_and_crop_structure(keras):
    L = keras.layers
    x = np.concatenate([IMAGES, IMAGES[:, ::-1]])
    for mode, flipped in (("horizontal", x[:, :, ::-1]), ("vertical", x[:, ::-1]),
                          ("horizontal_and_vertical", x[:, ::-1, ::-1])):
        out = to_numpy(L.RandomFlip(mode, seed=4)(x))
        for i in range(len(x)):
            assert_true(np.array_equal(out[i], x[i]) or np.array_equal(out[i], flipped[i]),
                        f"image {i} is neither the input nor its {mode} mirror", call=f"RandomFlip({mode!r})(x)")
        assert_equal(L.RandomFlip(mode, seed=4)(x, training=False), x, call=f"RandomFlip({mode!r})(x, training=False)")
    a, b = L.RandomFlip(seed=9), L.RandomFlip(seed=9)
    assert_equal(a(x), b(x), call="two RandomFlip(seed=9) layers: first calls")
    crop = L.RandomCrop(3, 4, seed=5)
    out = to_numpy(crop(IMAGES))
    windows = [(i, j) for i in range(4) for j in range(3) if np.array_equal(out, IMAGES[:, i:i + 3, j:j + 4])]
    assert_true(len(windows) >= 1, "RandomCrop's output is no 3 x 4 window of the batch (one offset for the batch)",
                call="RandomCrop(3, 4, seed=5)(images)")
    assert_equal(crop(IMAGES, training=False), IMAGES, call="RandomCrop(3, 4)(images, training=False): unchanged")


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_image_preprocessing_affine_layers_with_fixed_factors(keras):
    L = keras.layers
    # a quarter turn: output[y, x] = input[x, n - 1 - y] (Keras's matrix about the centre)
    rot = L.RandomRotation((0.25, 0.25), seed=1)
    assert_close(rot(IMAGES), np.rot90(IMAGES, 1, axes=(1, 2)), call="RandomRotation((0.25, 0.25))(images)")
    assert_equal(rot(IMAGES, training=False), IMAGES, call="RandomRotation(...)(images, training=False)")
    # zoom in by 2: sample at 0.5 * x + (n - 1) / 4, bilinear
    coords = 0.5 * np.arange(6) + 1.25
    lo = np.floor(coords).astype(int)
    f = coords - lo
    a = IMAGES.astype(np.float64)
    rows = a[:, lo] * (1 - f)[None, :, None, None] + a[:, lo + 1] * f[None, :, None, None]
    want = rows[:, :, lo] * (1 - f)[None, None, :, None] + rows[:, :, lo + 1] * f[None, None, :, None]
    assert_close(L.RandomZoom((-0.5, -0.5), seed=1)(IMAGES), want, call="RandomZoom((-0.5, -0.5))(images)")
    # a shift by whole pixels with a constant fill
    shift = L.RandomTranslation((1 / 3, 1 / 3), (0.5, 0.5), fill_mode="constant", fill_value=-1.0, seed=1)
    want = np.full_like(IMAGES, -1.0)
    want[:, 2:, 3:] = IMAGES[:, :4, :3]
    assert_close(shift(IMAGES), want, call="RandomTranslation((1/3, 1/3), (0.5, 0.5), fill_mode='constant')(images)")
    assert_close(shift(IMAGES[0]), want[0], call="RandomTranslation(...)(one image)")


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_image_preprocessing_color_layers_structure(keras):
    L = keras.layers
    out = to_numpy(L.RandomBrightness((0.1, 0.2), value_range=(0, 1000), seed=3)(IMAGES))
    for i in range(2):
        delta = out[i] - IMAGES[i]
        assert_true(np.ptp(delta) < 1e-3 and 100 - 1e-3 <= delta.mean() <= 200 + 1e-3,
                    f"image {i}: brightness deltas span {delta.min()}..{delta.max()}, but should be one value in "
                    "[100, 200]", call="RandomBrightness((0.1, 0.2), value_range=(0, 1000))(images)")
    out = to_numpy(L.RandomContrast((0.3, 0.5), value_range=(-1e4, 1e4), seed=3)(IMAGES))
    mean = IMAGES.astype(np.float64).mean(axis=(1, 2), keepdims=True)
    for i in range(2):
        factor = (out[i] - mean[i]) / np.where(IMAGES[i] == mean[i], np.nan, IMAGES[i] - mean[i])
        f = np.nanmedian(factor)
        assert_true(0.7 - 1e-4 <= f <= 1.5 + 1e-4, f"image {i}: contrast factor {f}, but should be in [0.7, 1.5]",
                    call="RandomContrast((0.3, 0.5))(images)")
        assert_close(out[i], (IMAGES[i] - mean[i]) * f + mean[i], call=f"RandomContrast: image {i} about its means")
    assert_equal(L.RandomContrast(0.5, seed=3)(IMAGES, training=False), IMAGES, call="RandomContrast(0.5)(x, training=False)")
    assert_equal(L.RandomBrightness(0.5, seed=3)(IMAGES, training=False), IMAGES,
                 call="RandomBrightness(0.5)(x, training=False)")
    clipped = to_numpy(L.RandomBrightness((0.9, 1.0), seed=3)(IMAGES))
    for i in range(2):
        below = clipped[i] < 255
        delta = float(np.median(clipped[i][below] - IMAGES[i][below]))
        assert_true(229.5 - 1e-3 <= delta <= 255, f"image {i}: delta {delta}, but should be in [229.5, 255]",
                    call="RandomBrightness((0.9, 1.0))(x)")
        assert_close(clipped[i], np.minimum(IMAGES[i] + delta, 255.0),
                     call=f"RandomBrightness((0.9, 1.0))(x): image {i} clipped to 255")


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_image_preprocessing_height_width_and_models(keras, tf):
    L = keras.layers
    h = to_numpy(L.RandomHeight((0.5, 0.5), seed=1)(IMAGES))
    assert_close(h, np.stack([_bilinear_resize(im, 9, 6) for im in IMAGES]), call="RandomHeight((0.5, 0.5))(images)")
    w = to_numpy(L.RandomWidth((-0.5, -0.5), seed=1)(IMAGES))
    assert_close(w, np.stack([_bilinear_resize(im, 6, 3) for im in IMAGES]), call="RandomWidth((-0.5, -0.5))(images)")
    assert_equal(L.RandomHeight(0.3)(IMAGES, training=False), IMAGES, call="RandomHeight(0.3)(x, training=False)")
    # in a model: augmentation in training calls only; predict passes the images through
    model = keras.Sequential([keras.Input((6, 6, 3)), L.RandomFlip(seed=2), L.RandomRotation(0.2, seed=2)])
    assert_close(model.predict(IMAGES, verbose=0), IMAGES, call="Sequential([RandomFlip, RandomRotation]).predict")
    # ds.map(layer): each element a flip of itself
    ds = tf.data.Dataset.from_tensor_slices(IMAGES).map(L.RandomFlip("horizontal", seed=3))
    for i, v in enumerate(ds):
        v = to_numpy(v)
        assert_true(np.array_equal(v, IMAGES[i]) or np.array_equal(v, IMAGES[i][:, ::-1]),
                    f"element {i} of ds.map(RandomFlip) is neither the image nor its mirror",
                    call="Dataset.map(RandomFlip('horizontal'))")
    # dict inputs: images and segmentation masks get the same flip, labels pass
    masks = IMAGES[..., :1] % 3
    out = L.RandomFlip("vertical", seed=7)({"images": IMAGES, "segmentation_masks": masks, "labels": np.eye(2)})
    for i in range(2):
        flipped = not np.array_equal(to_numpy(out["images"])[i], IMAGES[i])
        assert_equal(out["segmentation_masks"][i], masks[i, ::-1] if flipped else masks[i],
                     call=f"RandomFlip('vertical')(dict): mask {i} follows its image")
    assert_equal(out["labels"], np.eye(2), call="RandomFlip(dict)['labels']")


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_image_preprocessing_configs_and_errors(keras):
    L = keras.layers
    config = L.RandomRotation(0.2, fill_mode="constant", seed=4, name="rot").get_config()
    for key, want in (("factor", (-0.2, 0.2)), ("fill_mode", "constant"), ("interpolation", "bilinear"),
                      ("seed", 4), ("fill_value", 0.0), ("data_format", "channels_last"), ("name", "rot")):
        assert_equal(tuple(config[key]) if key == "factor" else config[key], want,
                     call=f"RandomRotation(0.2).get_config()[{key!r}]")
    again = L.RandomZoom.from_config(L.RandomZoom(0.2, 0.1, seed=2).get_config()).get_config()
    assert_equal((again["height_factor"], again["width_factor"], again["seed"]), (0.2, 0.1, 2),
                 call="RandomZoom.from_config(get_config())")
    assert_equal(L.RandomBrightness(0.1, value_range=(255, 0)).get_config()["value_range"], [0, 255],
                 call="RandomBrightness(value_range=(255, 0)).get_config()['value_range'] (sorted)")
    for call, make, err in (("RandomRotation(1.5)", lambda: L.RandomRotation(1.5), ValueError),
                            ("RandomZoom(-1.0)", lambda: L.RandomZoom(-1.0), ValueError),
                            ("RandomTranslation(0.1, 1.1)", lambda: L.RandomTranslation(0.1, 1.1), ValueError),
                            ("RandomContrast(-0.1)", lambda: L.RandomContrast(-0.1), ValueError),
                            ("RandomBrightness(0.2, value_range=255)",
                             lambda: L.RandomBrightness(0.2, value_range=255), ValueError),
                            ("RandomRotation(0.1, fill_mode='mirror')",
                             lambda: L.RandomRotation(0.1, fill_mode="mirror"), NotImplementedError),
                            ("RandomFlip(factor=0.2)", lambda: L.RandomFlip(factor=0.2), ValueError),
                            ("RandomHeight((0.3, 0.1))", lambda: L.RandomHeight((0.3, 0.1)), ValueError)):
        with raises(err, call=call):
            make()
    with raises(ValueError, call="RandomFlip()(rank-2 tensor)"):
        L.RandomFlip(seed=1)(np.zeros((4, 4), np.float32))


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_image_preprocessing_color_and_mixing_layers(keras):
    L = keras.layers
    x = IMAGES.astype(np.float64)
    # AutoContrast: each image and channel stretched to [0, 255] (not random; inference too)
    tinted = (IMAGES * np.array([1.0, 0.5, 0.8], np.float32) + np.array([0, 10, 20], np.float32)).astype(np.float32)
    t = tinted.astype(np.float64)
    low, high = t.min(axis=(1, 2), keepdims=True), t.max(axis=(1, 2), keepdims=True)
    want = np.clip((t - low) * (255.0 / (high - low)), 0, 255)
    assert_close(L.AutoContrast()(tinted), want, call="AutoContrast()(images with per-channel ranges)")
    assert_close(L.AutoContrast()(tinted, training=False), want, call="AutoContrast()(images, training=False)")
    # RandomInvert(factor=(1, 1)) always inverts; Solarization with a zero threshold inverts all
    assert_close(L.RandomInvert((1.0, 1.0), seed=2)(IMAGES), 255.0 - x, call="RandomInvert((1, 1))(images)")
    assert_equal(L.RandomInvert(1.0, seed=2)(IMAGES, training=False), IMAGES, call="RandomInvert(x, training=False)")
    assert_close(L.Solarization(threshold_factor=0.0, seed=2)(IMAGES), 255.0 - x,
                 call="Solarization(threshold_factor=0)(images)")
    # RandomGrayscale(factor=1): every image grey, TF's weights, broadcast over the channels
    grey = (x @ np.array([0.2989, 0.5870, 0.1140]))[..., None] * np.ones(3)
    assert_close(L.RandomGrayscale(1.0, seed=2)(IMAGES), grey, call="RandomGrayscale(1.0)(images)")
    assert_equal(L.RandomGrayscale(0.0, seed=2)(IMAGES), IMAGES, call="RandomGrayscale(0.0)(images)")
    # RandomSaturation((0, 0)): saturation factor 0 -> the HSV value in every channel
    assert_close(L.RandomSaturation((0.0, 0.0), value_range=(0, 1), seed=2)(IMAGES),
                 x.max(axis=-1, keepdims=True) * np.ones(3), call="RandomSaturation((0, 0))(images)")
    # MixUp: labels and images mixed with the same weight and partner; CutMix keeps pixels
    labels = np.eye(2, dtype=np.float32)
    out = L.MixUp(alpha=0.5, seed=4)({"images": IMAGES, "labels": labels})
    mixed_labels = to_numpy(out["labels"])
    for i in range(2):
        w = float(mixed_labels[i, i])   # w·1 + (1 − w)·0 with the other image as partner; 1 with itself
        partner = 1 - i if w < 1.0 - 1e-6 else i
        assert_true(np.isclose(mixed_labels[i].sum(), 1.0, atol=1e-5), f"MixUp label {i} sums to "
                    f"{mixed_labels[i].sum()}, but should sum to 1", call="MixUp(alpha=0.5)(dict)")
        assert_close(to_numpy(out["images"])[i], w * x[i] + (1 - w) * x[partner],
                     call=f"MixUp(alpha=0.5)(dict): image {i} mixed as its label")
    cut = to_numpy(L.CutMix(seed=4)(IMAGES))
    for i in range(2):
        from_partner = ~np.isclose(cut[i], IMAGES[i])
        assert_true(np.array_equal(cut[i][from_partner], IMAGES[1 - i][from_partner]),
                    f"CutMix image {i}: changed pixels are not its partner's", call="CutMix()(images)")
