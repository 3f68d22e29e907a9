"""`tf.keras.preprocessing.image.ImageDataGenerator` — clause keras.preprocessing.image-generator (TF 2.21 + Keras
3.15: keras/src/legacy/preprocessing/image.py). Expected values are written here from Keras's rules: a seeded
iterator re-seeds NumPy's global generator with seed + total_batches_seen before each batch, keeps the sample
order without `shuffle` and permutes it with one draw at the first batch with it; each image draws its flips (and
every other configured transform) in Keras's order; `standardize` applies rescale, then sample-wise centring and
scaling; `fit` keeps the per-channel mean and std over batch, rows and columns."""

from __future__ import annotations

import numpy as np

import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises

clause = pytest.mark.clause


def _images(n: int = 6) -> np.ndarray:
    return (np.arange(n * 3 * 4 * 3, dtype=np.float32).reshape(n, 3, 4, 3) * 7.0) % 251.0


@clause("keras.preprocessing.image-generator", ref="tf221")
def test_image_generator_flips_follow_the_reseeded_draws(keras):
    x = _images()
    y = np.arange(6)
    gen = keras.preprocessing.image.ImageDataGenerator(horizontal_flip=True, vertical_flip=True, rescale=0.5)
    it = gen.flow(x, y, batch_size=4, shuffle=False, seed=11)
    for batch, idx in [(0, [0, 1, 2, 3]), (1, [4, 5])]:
        bx, by = it[batch]
        rng = np.random.RandomState(11 + batch)      # seed + total_batches_seen (one batch seen before the second)
        want = []
        for i in idx:
            flip_h, flip_v = rng.random_sample() < 0.5, rng.random_sample() < 0.5
            img = x[i]
            if flip_h:
                img = img[:, ::-1, :]
            if flip_v:
                img = img[::-1, :, :]
            want.append(img * 0.5)
        assert_close(bx, np.stack(want), call=f"flow(shuffle=False, seed=11, batch_size=4)[{batch}]",
                     what="images (horizontal then vertical flip draw per image, then rescale)")
        assert_equal(by.tolist(), idx, call=f"flow(...)[{batch}]", what="labels in the samples' order")
    assert_equal(len(it), 2, call="len(flow(6 images, batch_size=4))", what="batches (rounded up)")
    with raises(ValueError, call="flow(6 images, batch_size=4)[2]"):
        it[2]


@clause("keras.preprocessing.image-generator", ref="tf221")
def test_image_generator_shuffles_once_per_epoch_and_standardizes(keras):
    x = _images()
    x[2] = 40.0     # a flat image: centred to zeros, divided by 0 + 1e-6
    gen = keras.preprocessing.image.ImageDataGenerator(samplewise_center=True, samplewise_std_normalization=True)
    it = gen.flow(x, np.arange(6), batch_size=6, shuffle=True, seed=5)
    bx, by = next(it)
    rng = np.random.RandomState(5)
    order = rng.permutation(6)
    assert_equal(by.tolist(), order.tolist(), call="next(flow(shuffle=True, seed=5))",
                 what="labels (np.random.permutation after seeding with 5)")
    want = []
    for i in order:
        img = x[i].copy()
        img -= np.mean(img, keepdims=True)
        img /= np.std(img, keepdims=True) + 1e-6
        want.append(img)
    assert_close(bx, np.stack(want), call="next(flow(samplewise_center, std))",
                 what="each image centred and scaled by its own mean and std + 1e-6")


@clause("keras.preprocessing.image-generator", ref="tf221")
def test_image_generator_fit_keeps_per_channel_statistics(keras):
    x = _images()
    gen = keras.preprocessing.image.ImageDataGenerator(featurewise_center=True, featurewise_std_normalization=True)
    gen.fit(x)
    mean = x.mean(axis=(0, 1, 2)).reshape(1, 1, 3)
    std = (x - mean).std(axis=(0, 1, 2)).reshape(1, 1, 3)
    assert_close(np.asarray(gen.mean), mean, call="ImageDataGenerator(featurewise_center).fit(x)",
                 what="mean (per channel, shape (1, 1, channels))")
    assert_close(np.asarray(gen.std), std, call="ImageDataGenerator(featurewise_std).fit(x)",
                 what="std of the centred images (per channel)")
    bx = gen.flow(x, batch_size=6, shuffle=False)[0]
    assert_close(bx, (x - mean) / (std + 1e-6), call="flow(x) after fit",
                 what="images standardized feature-wise")
    with raises(ValueError, call="ImageDataGenerator().fit(a rank-3 array)"):
        gen.fit(x[0])
