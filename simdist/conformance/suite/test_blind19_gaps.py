"""Gaps the nineteenth blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): behaviours and options no earlier suite test set or looked at closely
enough for a wrong implementation to fail (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here
with NumPy or the Python standard library (a transcription of TF's or Keras 3.15's rule, the random
layers' draws re-made with `keras.random` from a SeedGenerator of the layer's seed, in Keras's order),
never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import colorsys

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.suite import cutmix_draws
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-5)


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


# -- random image layers: every draw re-made in Keras's order, every formula transcribed -------------------------
def _bilinear(img: np.ndarray, ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """Bilinear samples of an [H, W, C] image at interior points (ys, xs) (float64)."""
    y0, x0 = np.floor(ys).astype(int), np.floor(xs).astype(int)
    dy, dx = (ys - y0)[..., None], (xs - x0)[..., None]
    h, w = img.shape[:2]

    def at(yy, xx):
        return img[np.clip(yy, 0, h - 1), np.clip(xx, 0, w - 1)]
    top = (1 - dx) * at(y0, x0) + dx * at(y0, x0 + 1)
    bottom = (1 - dx) * at(y0 + 1, x0) + dx * at(y0 + 1, x0 + 1)
    return (1 - dy) * top + dy * bottom


def _hues(pixels: np.ndarray) -> np.ndarray:
    """colorsys's HSV hue of each RGB pixel in [0, 255]."""
    return np.array([colorsys.rgb_to_hsv(*(p.astype(np.float64) / 255.0))[0] for p in pixels.reshape(-1, 3)])


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_blind19_random_image_layers_follow_their_seeded_draws(keras, budget):
    """A random image layer with seed s draws from SeedGenerator(s) in Keras 3.15's order, so its output
    follows from the same draws made here with keras.random: CutMix (alpha, a beta weight per image, the
    box's x starts then its y starts, the partner permutation; the box [x0, x0 + sqrt(1 - w) W) x
    [y0, y0 + sqrt(1 - w) H) in float32, labels mixed by the area kept), RandomHue (a sign per image, -1
    where uniform() > 0.5, then f in [factor]; the hue shifted by sign * f / 2: read back with colorsys)
    and RandomZoom (a height zoom, then a width zoom when width_factor is given; output pixel (y, x)
    samples (zh y + (H - 1)/2 (1 - zh), zw x + (W - 1)/2 (1 - zw)) bilinearly), on images that are not
    square so that x and y, height and width are not interchangeable."""
    f32 = np.float32
    b, h, w = 3, 5, 8
    x = np.arange(b * h * w * 2, dtype=f32).reshape(b, h, w, 2)
    y = np.eye(b, dtype=f32)
    moved = 0
    for seed in budget([2, 7, 11, 1]):
        out = keras.layers.CutMix(factor=1.0, seed=seed)({"images": x, "labels": y}, training=True)
        want, labels, perm, boxes = cutmix_draws.expected(keras, _np, x, y, seed)
        moved += sum(int(perm[i] != i and boxes[i].any()) for i in range(b))
        assert_equal(_np(out["images"]), want, call=f"CutMix(seed={seed})(3 images 5x8)", what="images")
        assert_close(_np(out["labels"]), labels, tolerance=TOL32, call=f"CutMix(seed={seed})", what="labels")
    assert_true(moved > 0, "no image took a box from another image: the check saw no mixing", call="CutMix")

    px = np.array([[[200., 40., 10.], [30., 160., 90.]], [[20., 60., 220.], [250., 200., 20.]]], f32)
    imgs = np.tile(px[None], (4, 1, 1, 1))
    for (lo, hi), seed in budget([((0.3, 0.6), 1), ((0.3, 0.6), 4), ((0.1, 0.1), 4)]):
        out = _np(keras.layers.RandomHue(factor=(lo, hi), seed=seed)(imgs, training=True))
        sg = keras.random.SeedGenerator(seed)
        sign = np.where(_np(keras.random.uniform((4,), seed=sg)) > 0.5, -1.0, 1.0)
        shift = sign * _np(keras.random.uniform((4,), minval=lo, maxval=hi, seed=sg)) * 0.5
        for i in range(4):
            d = (_hues(out[i]) - _hues(imgs[i]) - shift[i] + 0.5) % 1.0 - 0.5
            assert_true(bool(np.abs(d).max() < 1e-4),
                        f"image {i}: hue shifts {np.round(_hues(out[i]) - _hues(imgs[i]), 4).tolist()}, but should be "
                        f"{shift[i]:.4f} (mod 1)", call=f"RandomHue(factor=({lo}, {hi}), seed={seed})")

    for (h2, w2), hf, wf in budget([((3, 7), (-0.5, -0.2), None), ((6, 4), (-0.4, -0.1), (-0.6, -0.3)),
                                    ((3, 7), (-0.4, -0.1), (-0.6, -0.3))]):
        img = (np.arange(2 * h2 * w2 * 2, dtype=f32).reshape(2, h2, w2, 2) * 5 % 17).astype(f32)
        out = _np(keras.layers.RandomZoom(hf, wf, fill_mode="constant", seed=3)(img, training=True))
        sg = keras.random.SeedGenerator(3)
        zh = _np(keras.random.uniform((2, 1), 1.0 + hf[0], 1.0 + hf[1], seed=sg)).ravel().astype(np.float64)
        zw = zh if wf is None else _np(keras.random.uniform((2, 1), 1.0 + wf[0], 1.0 + wf[1], seed=sg)).ravel()
        yy, xx = np.meshgrid(np.arange(h2, dtype=np.float64), np.arange(w2, dtype=np.float64), indexing="ij")
        for i in range(2):
            want = _bilinear(img[i].astype(np.float64), zh[i] * yy + (h2 - 1) / 2.0 * (1 - zh[i]),
                             zw[i] * xx + (w2 - 1) / 2.0 * (1 - zw[i]))
            assert_close(out[i], want, tolerance=Tolerance(rtol=1e-5, atol=1e-4),
                         call=f"RandomZoom({hf}, {wf}, fill_mode='constant', seed=3)(images {h2}x{w2})[{i}]")


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_blind19_random_crop_at_and_above_its_target_size(keras, budget):
    """RandomCrop(th, tw) draws an offset only when the image is larger than the target in *both*
    dimensions (h_start, then w_start: int32(uniform((), 0, size - target + 1))); when one side equals
    the target it takes the centred window of the target's aspect ratio (here the target itself, no
    resize), whatever the seed."""
    for (h, w), seed in budget([((4, 6), 0), ((6, 4), 1), ((4, 6), 3), ((4, 4), 2), ((7, 9), 5), ((5, 8), 6)]):
        img = np.arange(2 * h * w, dtype=np.float32).reshape(2, h, w, 1)
        out = _np(keras.layers.RandomCrop(4, 4, seed=seed)(img, training=True))
        if h > 4 and w > 4:
            sg = keras.random.SeedGenerator(seed)
            h0 = int(_np(keras.random.uniform((), 0, float(h - 4 + 1), seed=sg)))
            w0 = int(_np(keras.random.uniform((), 0, float(w - 4 + 1), seed=sg)))
        else:
            ch, cw = max(min(h, int(w * 4 / 4)), 1), max(min(w, int(h * 4 / 4)), 1)
            h0, w0 = (h - ch) // 2, (w - cw) // 2
        assert_equal(out, img[:, h0:h0 + 4, w0:w0 + 4], call=f"RandomCrop(4, 4, seed={seed})(images {h}x{w})",
                     what=f"crop (window at ({h0}, {w0}))")


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_blind19_image_layers_at_the_ends_of_their_ranges_and_on_integer_images(keras, budget):
    """RandomSaturation multiplies the HSV saturation by f / (1 - f + epsilon): at f = 1 a gray pixel
    (saturation 0) stays gray and finite, a coloured one saturates; at f = 0.25 the saturation is
    divided by 3 (read back with colorsys). Resizing an integer image rounds its float result before
    the saturating cast back (the same layer on the float image, rounded and clipped)."""
    img = np.array([[[[100., 100., 100.], [30., 30., 30.]], [[200., 50., 10.], [20., 90., 180.]]]], np.float32)
    out = _np(keras.layers.RandomSaturation(factor=(1.0, 1.0), seed=1)(img, training=True))
    assert_true(bool(np.all(np.isfinite(out))), f"out={out.tolist()}, but should be finite",
                call="RandomSaturation(factor=(1.0, 1.0))(gray and coloured pixels)")
    assert_close(out[0, 0], img[0, 0], tolerance=TOL32, call="RandomSaturation(factor=(1.0, 1.0))", what="gray pixels")
    out = _np(keras.layers.RandomSaturation(factor=(0.25, 0.25), seed=1)(img, training=True))
    for p_in, p_out in zip(img[0, 1], out[0, 1]):
        s_in = colorsys.rgb_to_hsv(*(p_in.astype(np.float64) / 255))[1]
        s_out = colorsys.rgb_to_hsv(*(p_out.astype(np.float64) / 255))[1]
        assert_close(s_out, s_in * 0.25 / (0.75 + 1e-7), tolerance=Tolerance(rtol=1e-4, atol=1e-5),
                     call=f"RandomSaturation(factor=(0.25, 0.25))(pixel {p_in.tolist()})", what="saturation")
    ints = np.array([[[[0], [3], [250]], [[5], [8], [255]], [[1], [200], [7]]]], np.uint8)
    for interpolation, size in budget([("bilinear", (4, 5)), ("bicubic", (5, 4)), ("bilinear", (2, 2))]):
        layer = keras.layers.Resizing(*size, interpolation=interpolation)
        got = _np(layer(ints))
        ref = _np(layer(ints.astype(np.float32)))
        want = np.clip(np.round(ref), 0, 255).astype(np.uint8)
        assert_equal(got.dtype.name, "uint8", call=f"Resizing{size}(uint8 image)", what="dtype")
        assert_equal(got, want, call=f"Resizing{size}, interpolation={interpolation!r})(uint8 image)",
                     what="pixels (the float result rounded)")


# -- declared output shapes: compute_output_shape and a symbolic call against the eager call's shape ------------
@clause("keras.layer.adaptive-pooling", ref="tf221")
def test_blind19_adaptive_pooling_declared_shapes_in_both_data_formats(keras, budget):
    """AdaptiveAverage/MaxPooling1D/2D/3D(n, data_format): the output is (batch, n..., channels) for
    channels_last and (batch, channels, n...) for channels_first; compute_output_shape and a symbolic
    call (keras.Input) declare the shape the eager call returns (the channels count differs from every
    spatial size here, so a shape read from the wrong axis fails)."""
    cases = [(c, r, f) for c, r in (("AdaptiveAveragePooling1D", 1), ("AdaptiveMaxPooling2D", 2),
                                    ("AdaptiveAveragePooling3D", 3), ("AdaptiveMaxPooling1D", 1),
                                    ("AdaptiveAveragePooling2D", 2), ("AdaptiveMaxPooling3D", 3))
             for f in ("channels_first", "channels_last")]
    for name, rank, fmt in budget(cases):
        spatial = (7, 5, 6)[:rank]
        shape = (2, 3) + spatial if fmt == "channels_first" else (2,) + spatial + (3,)
        want = (2, 3) + (2,) * rank if fmt == "channels_first" else (2,) + (2,) * rank + (3,)
        layer = getattr(keras.layers, name)(2, data_format=fmt)
        call = f"{name}(2, data_format={fmt!r}) on {shape}"
        assert_equal(tuple(_np(layer(np.ones(shape, np.float32))).shape), want, call=call, what="out.shape")
        assert_equal(tuple(layer.compute_output_shape(shape)), want, call=call, what="compute_output_shape")
        sym = getattr(keras.layers, name)(2, data_format=fmt)(keras.Input(shape[1:]))
        assert_equal(tuple(sym.shape), (None,) + want[1:], call=call, what="symbolic shape")


@clause("keras.layer.hashed-crossing", ref="tf221")
def test_blind19_hashed_crossing_declared_shapes(keras, budget):
    """HashedCrossing(num_bins, output_mode): inputs of shape (batch,) or (batch, 1) give (batch,) /
    (batch, 1) in "int" mode and (batch, num_bins) in "one_hot" mode (the unit axis replaced, not kept);
    compute_output_shape and a symbolic call declare what the eager call returns."""
    for mode, shape in budget([("one_hot", (3, 1)), ("one_hot", (3,)), ("int", (3, 1)), ("int", (3,))]):
        a = np.array([1, 2, 3]).reshape(shape)
        b = np.array([4, 5, 6]).reshape(shape)
        layer = keras.layers.HashedCrossing(5, output_mode=mode)
        got = tuple(_np(layer((a, b))).shape)
        want = (3, 5) if mode == "one_hot" else shape
        call = f"HashedCrossing(5, output_mode={mode!r}) on two {shape} inputs"
        assert_equal(got, want, call=call, what="out.shape")
        assert_equal(tuple(layer.compute_output_shape((shape, shape))), want, call=call, what="compute_output_shape")
        ins = (keras.Input(shape[1:], dtype="int64"), keras.Input(shape[1:], dtype="int64"))
        sym = keras.layers.HashedCrossing(5, output_mode=mode)(ins)
        assert_equal(tuple(sym.shape), (None,) + want[1:], call=call, what="symbolic shape")


# -- Keras's argument checks at their boundaries ----------------------------------------------------------------
@clause("keras.layer.arguments", ref="tf221")
def test_blind19_input_spec_ndim_bounds_are_inclusive(keras, budget):
    """A layer's InputSpec(ndim / min_ndim / max_ndim) accepts an input of exactly the bound's rank and
    refuses one beyond it with ValueError, as Keras 3.15's assert_input_compatibility does.
    keras.config.set_image_data_format lower-cases its argument ("Channels_First" is channels_first)
    and refuses another value with ValueError."""
    class Spec(keras.layers.Layer):
        def __init__(self, **spec):
            super().__init__()
            self.input_spec = keras.layers.InputSpec(**spec)

        def call(self, x):
            return x

    for spec, lo, hi in budget([({"max_ndim": 2}, 1, 2), ({"min_ndim": 2}, 2, 4), ({"ndim": 2}, 2, 2),
                                ({"min_ndim": 2, "max_ndim": 3}, 2, 3)]):
        for nd in range(1, 5):
            try:
                Spec(**spec)(np.ones((2,) * nd, np.float32))
                got = "accepted"
            except ValueError:
                got = "ValueError"
            want = "accepted" if lo <= nd <= hi else "ValueError"
            assert_equal(got, want, call=f"a layer with InputSpec({spec}) called on a rank-{nd} input", what="result")
    old = keras.config.image_data_format()
    try:
        for value, want in (("Channels_First", "channels_first"), ("CHANNELS_LAST", "channels_last"),
                            ("channels_first", "channels_first")):
            keras.config.set_image_data_format(value)
            assert_equal(keras.config.image_data_format(), want, call=f"set_image_data_format({value!r})",
                         what="image_data_format()")
        with pytest.raises(ValueError):
            keras.config.set_image_data_format("channels_middle")
    finally:
        keras.config.set_image_data_format(old)


# -- tf.sets with a sparse operand on either side ---------------------------------------------------------------
@clause("ops.sets", ref="tf221")
def test_blind19_set_operations_with_a_sparse_operand_on_either_side(tf, budget):
    """tf.sets.intersection / union / difference (aminusb both ways) of two [2, n] groups of sets, dense
    or sparse on either side (TF swaps a sparse first operand with a dense second one and flips
    aminusb back): each row of the result is the sorted Python set operation of the rows."""
    rows_a, rows_b = [[1, 2, 3, 7], [4, 5, 9, 6]], [[2, 5, 7], [9, 8, 1]]
    a_sets = [set(r) for r in rows_a]
    b_sets = [set(r) for r in rows_b]
    ops = {"intersection": (lambda a, b: tf.sets.intersection(a, b), lambda x, y: x & y),
           "union": (lambda a, b: tf.sets.union(a, b), lambda x, y: x | y),
           "difference": (lambda a, b: tf.sets.difference(a, b), lambda x, y: x - y),
           "difference(aminusb=False)": (lambda a, b: tf.sets.difference(a, b, aminusb=False), lambda x, y: y - x)}
    forms = [(fa, fb) for fa in ("dense", "sparse") for fb in ("dense", "sparse")]
    cases = [(o, f) for f in forms[::-1] for o in ops.items()]
    cases.sort(key=lambda c: (c[1] != ("sparse", "dense"), c[0][0] != "difference"))   # (the swapped form first)
    for (name, (op, py)), (fa, fb) in budget(cases):
        a = tf.constant(rows_a, tf.int64)
        b = tf.constant(rows_b, tf.int64)
        a = tf.sparse.from_dense(a) if fa == "sparse" else a
        b = tf.sparse.from_dense(b) if fb == "sparse" else b
        out = op(a, b)
        idx, vals = _np(out.indices), _np(out.values)
        got = [[int(v) for i, v in zip(idx, vals) if i[0] == r] for r in range(2)]
        want = [sorted(py(x, y)) for x, y in zip(a_sets, b_sets)]
        assert_equal(got, want, call=f"tf.sets.{name}({fa} a, {fb} b)", what="rows")


# -- tf.signal: odd lengths -------------------------------------------------------------------------------------
@clause("ops.signal-compositions", ref="tf221")
def test_blind19_signal_shifts_and_windows_at_odd_lengths(tf, budget):
    """fftshift rolls each axis by floor(n / 2) and ifftshift by -floor(n / 2) (they differ for odd n:
    NumPy's np.fft.fftshift / ifftshift); hann_window / hamming_window(L, periodic) are
    a - b cos(2 pi k / N) with N = L - 1 + (1 if periodic and L even else 0) (window_ops.py: periodic
    only extends an even length), for odd and even L."""
    for shape, axes in budget([((5,), None), ((4,), None), ((3, 5), None), ((3, 5), 1), ((3, 5), [0]), ((7, 2), (0, 1))]):
        x = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
        for name, ref in (("fftshift", np.fft.fftshift), ("ifftshift", np.fft.ifftshift)):
            got = _np(getattr(tf.signal, name)(tf.constant(x), axes=axes))
            assert_equal(got, ref(x, axes=axes), call=f"tf.signal.{name}(x of shape {shape}, axes={axes})")
    for length, periodic in budget([(5, True), (5, False), (4, True), (4, False), (7, True), (2, True), (3, True)]):
        n = length - 1 + (1 if periodic and length % 2 == 0 else 0)
        k = np.arange(length, dtype=np.float64)
        for name, a, b in (("hann_window", 0.5, 0.5), ("hamming_window", 0.54, 0.46)):
            got = _np(getattr(tf.signal, name)(length, periodic=periodic))
            assert_close(got, a - b * np.cos(2 * np.pi * k / n), tolerance=Tolerance(rtol=1e-5, atol=1e-6),
                         call=f"tf.signal.{name}({length}, periodic={periodic})")


# -- tf.lookup: line-number columns with an offset --------------------------------------------------------------
@clause("ops.lookup", ref="tf221")
def test_blind19_text_file_initializer_line_numbers_with_an_offset(tf, tmp_path, budget):
    """TextFileInitializer(..., value_index_offset=o): a LINE_NUMBER column is the 0-based line number
    plus o, as the value (keyed by a field or by the whole line) and as the key."""
    path = tmp_path / "vocab.txt"
    path.write_text("a\tx\nb\ty\nc\tz\n")
    line, whole = tf.lookup.TextFileIndex.LINE_NUMBER, tf.lookup.TextFileIndex.WHOLE_LINE
    for off in budget([3, 0, 10]):
        table = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
            str(path), tf.string, 0, tf.int64, line, delimiter="\t", value_index_offset=off), -1)
        assert_equal(_np(table.lookup(tf.constant(["a", "b", "c", "q"]))).tolist(), [off, off + 1, off + 2, -1],
                     call=f"TextFileInitializer(key column 0, value LINE_NUMBER, value_index_offset={off})")
        table = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
            str(path), tf.string, whole, tf.int64, line, delimiter=" ", value_index_offset=off), -1)
        assert_equal(_np(table.lookup(tf.constant(["a\tx", "c\tz"]))).tolist(), [off, off + 2],
                     call=f"TextFileInitializer(WHOLE_LINE keys, LINE_NUMBER values, value_index_offset={off})")
        table = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
            str(path), tf.int64, line, tf.string, 1, delimiter="\t", value_index_offset=off), "?")
        got = [v.decode() for v in _np(table.lookup(tf.constant([off, off + 1, off + 2, off + 3], tf.int64))).tolist()]
        assert_equal(got, ["x", "y", "z", "?"],
                     call=f"TextFileInitializer(LINE_NUMBER keys, value column 1, value_index_offset={off})")
