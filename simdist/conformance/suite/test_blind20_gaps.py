"""Gaps the twentieth blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): behaviours and options no earlier suite test set or looked at closely
enough for a wrong implementation to fail (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here
with NumPy or the Python standard library (a transcription of TF's or Keras 3.15's rule, the random
layers' draws re-made with `keras.random` from a SeedGenerator of the layer's seed, in Keras's order),
never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-5)
TOL_PIX = Tolerance(rtol=1e-5, atol=1e-3)   # float32 pixel arithmetic (values up to 255) against float64 NumPy


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


# -- random image layers: every draw re-made in Keras's order -----------------------------------------------------
@clause("keras.layer.image-preprocessing", ref="tf221")
def test_blind20_random_image_layers_follow_their_seeded_draws(keras, budget):
    """RandomErasing and RandomPosterization with a seed draw from SeedGenerator(seed) in Keras 3.15's
    order, so their outputs follow from the same draws made here: RandomErasing a (batch, 2) uniform in
    `scale` whose square roots are the width's (column 0) and height's (column 1) ratios, the box's x
    starts u * (W - crop_w) then its y starts, the probability in `factor` and the threshold (erased where
    threshold < probability), the box [x0, x0 + crop_w) x [y0, y0 + crop_h); RandomPosterization a uint8
    bit count per image in [lower, upper) (the upper end exclusive), the images truncated to uint8 and
    their low 8 - bits bits cleared. The images are not square and each layer runs with several seeds."""
    f32 = np.float32
    b, h, w = 4, 6, 9
    img = ((np.arange(b * h * w * 3, dtype=f32).reshape(b, h, w, 3) * 7.3) % 251).astype(f32)
    for seed in budget([5, 2, 9]):
        out = _np(keras.layers.RandomErasing(factor=(0.5, 1.0), scale=(0.1, 0.6), fill_value=3.0,
                                             seed=seed)(img, training=True))
        sg = keras.random.SeedGenerator(seed)
        ratio = np.sqrt(_np(keras.random.uniform((b, 2), 0.1, 0.6, dtype="float32", seed=sg)).astype(f32))
        cw, ch = (ratio[:, 0] * f32(w)).astype(f32), (ratio[:, 1] * f32(h)).astype(f32)
        x0 = _np(keras.random.uniform([b], 0, 1, dtype="float32", seed=sg)).astype(f32) * (f32(w) - cw)
        y0 = _np(keras.random.uniform([b], 0, 1, dtype="float32", seed=sg)).astype(f32) * (f32(h) - ch)
        prob = _np(keras.random.uniform((b,), 0.5, 1.0, seed=sg))
        thr = _np(keras.random.uniform((b,), 0.0, 1.0, seed=sg))
        gy, gx = np.meshgrid(np.arange(h, dtype=f32), np.arange(w, dtype=f32), indexing="ij")
        want = img.copy()
        for i in range(b):
            if thr[i] < prob[i]:
                box = (gx >= x0[i]) & (gx < x0[i] + cw[i]) & (gy >= y0[i]) & (gy < y0[i] + ch[i])
                want[i][box] = 3.0
        assert_close(out, want, tolerance=TOL_PIX,
                     call=f"RandomErasing(factor=(0.5, 1), scale=(0.1, 0.6), fill_value=3, seed={seed})(6x9 images)")
    for seed in budget([2, 4, 13]):
        out = _np(keras.layers.RandomPosterization(factor=(1, 5), seed=seed)(img, training=True))
        sg = keras.random.SeedGenerator(seed)
        bits = _np(keras.random.randint((b,), 1, 5, seed=sg, dtype="uint8")).astype(np.int64)
        shift = (8 - bits)[:, None, None, None]
        want = ((img.astype(np.uint8).astype(np.int64) >> shift) << shift).astype(f32)
        assert_equal(out, want, call=f"RandomPosterization(factor=(1, 5), seed={seed})(images): bits {bits.tolist()}")


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_blind20_equalization_of_one_and_two_valued_channels(keras, budget):
    """Keras 3.15's Equalization leaves a channel whose histogram has at most one non-empty bin unchanged
    (`where(count_nonzero(hist) <= 1, channel, equalized)`), and maps a two-valued channel to {0, 255}
    (cdf - cdf_min over the cdf's range); the other channels of the same image are equalized as usual."""
    h, w = 4, 5
    for const in budget([100.0, 0.0, 255.0]):
        img = np.zeros((1, h, w, 3), np.float32)
        img[..., 0] = const
        img[..., 1] = np.where(np.arange(h * w).reshape(h, w) % 3 == 0, 40.0, 90.0)
        img[..., 2] = (np.arange(h * w).reshape(h, w) * 13) % 256
        out = _np(keras.layers.Equalization()(img))
        assert_equal(out[..., 0], img[..., 0], call=f"Equalization()(a channel of one value {const}): unchanged")
        assert_equal(out[..., 1], np.where(img[..., 1] == 40.0, 0.0, 255.0).astype(np.float32),
                     call="Equalization()(a channel of two values 40 and 90): 0 and 255")


# -- losses at their epsilon guards ------------------------------------------------------------------------------
@clause("keras.loss.epsilon-clipping", ref="tf221")
def test_blind20_overlap_losses_of_empty_masks(keras, budget):
    """Dice and Tversky divide by a sum plus Keras's epsilon (1e-7): with y_true and y_pred all zero the
    loss is 1 - 0 / epsilon = 1 (not NaN), for the class and the function, over all axes or one."""
    z = np.zeros((2, 3, 4), np.float32)
    cases = [("Dice()", lambda: keras.losses.Dice()(z, z), 1.0),
             ("Dice(axis=(1, 2))", lambda: keras.losses.Dice(axis=(1, 2))(z, z), 1.0),
             ("Tversky()", lambda: keras.losses.Tversky()(z, z), 1.0),
             ("Tversky(alpha=0.7, beta=0.3)", lambda: keras.losses.Tversky(alpha=0.7, beta=0.3)(z, z), 1.0)]
    for name, fn, want in budget(cases):
        got = float(_np(fn()))
        assert_true(math.isfinite(got) and abs(got - want) < 1e-6,
                    f"{name}(zeros, zeros) = {got}, but should be {want}", call=f"{name}(zeros, zeros)")
    # and one empty sample beside a non-empty one, per sample (the function form)
    yt = np.array([[0., 0, 0], [1, 0, 1]], np.float32)
    yp = np.array([[0., 0, 0], [0.6, 0.2, 0.9]], np.float32)
    got = _np(keras.losses.dice(yt, yp, axis=-1))
    inter = (yt * yp).sum(-1)
    want = 1 - 2 * inter / (yt.sum(-1) + yp.sum(-1) + 1e-7)
    assert_close(got, want, tolerance=TOL32, call="keras.losses.dice(y_true, y_pred, axis=-1) with an empty row")


# -- tf.nn.isotonic_regression at ties ----------------------------------------------------------------------------
def _pav(row: np.ndarray, decreasing: bool) -> tuple[np.ndarray, np.ndarray]:
    """Pool-adjacent-violators as TF's kernel pools: a block merges with the one before it only while the
    earlier block's mean is strictly below (decreasing) the new one's; equal means stay apart."""
    v = row.astype(np.float64) if decreasing else -row.astype(np.float64)
    blocks: list[list[float]] = []   # [sum, count]
    for x in v:
        s, c = x, 1
        while blocks and blocks[-1][0] / blocks[-1][1] < s / c:
            ps, pc = blocks.pop()
            s, c = s + ps, c + pc
        blocks.append([s, c])
    out, seg = [], []
    for k, (s, c) in enumerate(blocks):
        out += [s / c] * c
        seg += [k] * c
    out = np.array(out)
    return (out if decreasing else -out), np.array(seg)


@clause("ops.nn-isotonic", ref="tf221")
def test_blind20_isotonic_regression_segments_at_ties(tf, budget):
    """tf.nn.isotonic_regression's second output numbers the pooled blocks; equal neighbouring values (or
    block means) are not pooled, so ties keep their own segments, in both directions and along axis 0."""
    rows = np.array([[3., 3., 1., 1., 2.], [1., 1., 1., 1., 1.], [2., 5., 5., 0., 0.], [4., 2., 2., 3., 1.]],
                    np.float32)
    for decreasing in budget([True, False]):
        y, s = tf.nn.isotonic_regression(rows, decreasing=decreasing)
        for i, row in enumerate(rows):
            want_y, want_s = _pav(row, decreasing)
            assert_close(_np(y)[i], want_y, tolerance=TOL32,
                         call=f"isotonic_regression({row.tolist()}, decreasing={decreasing})[0]")
            assert_equal(_np(s)[i], want_s.astype(np.int32),
                         call=f"isotonic_regression({row.tolist()}, decreasing={decreasing})[1] (segments)")
    y, s = tf.nn.isotonic_regression(rows.T, axis=0)
    assert_equal(_np(s).T, np.stack([_pav(r, True)[1] for r in rows]).astype(np.int32),
                 call="isotonic_regression(x, axis=0)[1]")


# -- tf.image: boxes drawn, MS-SSIM at odd sizes, padded NMS's score threshold ------------------------------------
def _draw(images: np.ndarray, boxes: np.ndarray, colors: np.ndarray) -> np.ndarray:
    """draw_bounding_box_op.cc: each edge at int(coordinate * (size - 1)) (toward zero), boxes inverted or
    wholly outside skipped, each side drawn when inside and clipped along its length; colours cycle."""
    out = images.copy()
    _, h, w, d = images.shape
    for b in range(boxes.shape[0]):
        for k, box in enumerate(boxes[b]):
            color = colors[k % len(colors)][:d]
            r0, r1 = int(np.float32(box[0]) * np.float32(h - 1)), int(np.float32(box[2]) * np.float32(h - 1))
            c0, c1 = int(np.float32(box[1]) * np.float32(w - 1)), int(np.float32(box[3]) * np.float32(w - 1))
            if r0 > r1 or c0 > c1 or r0 >= h or r1 < 0 or c0 >= w or c1 < 0:
                continue
            rr0, rr1, cc0, cc1 = max(r0, 0), min(r1, h - 1), max(c0, 0), min(c1, w - 1)
            if r0 >= 0:
                out[b, r0, cc0:cc1 + 1] = color
            if r1 < h:
                out[b, r1, cc0:cc1 + 1] = color
            if c0 >= 0:
                out[b, rr0:rr1 + 1, c0] = color
            if c1 < w:
                out[b, rr0:rr1 + 1, c1] = color
    return out


@clause("ops.image-boxes", ref="tf221")
def test_blind20_draw_bounding_boxes_edges_and_colours(tf, budget):
    """tf.image.draw_bounding_boxes on images that are not square: box edges at coordinate * (size - 1)
    truncated, a box partly outside drawn on its inside sides only, an inverted box skipped, colours cycled
    over the boxes, grayscale and RGB."""
    boxes = np.array([[[0.2, 0.2, 0.8, 0.8], [0.0, 0.5, 1.0, 1.3], [-0.3, -0.1, 0.4, 0.45],
                       [0.7, 0.7, 0.2, 0.9]],
                      [[0.1, 0.0, 0.55, 0.7], [0.5, 0.3, 0.95, 0.6], [0.0, 0.0, 1.0, 1.0], [1.2, 0.1, 1.5, 0.5]]],
                     np.float32)
    colors = np.array([[1., 0., 0., 1.], [0., 1., 0., 1.], [0.5, 0.25, 1., 1.]], np.float32)
    for depth, (h, w) in budget([(3, (7, 11)), (1, (9, 6))]):
        images = np.full((2, h, w, depth), 0.125, np.float32)
        got = _np(tf.image.draw_bounding_boxes(images, boxes, colors))
        assert_equal(got, _draw(images, boxes, colors),
                     call=f"draw_bounding_boxes(images [2, {h}, {w}, {depth}], 4 boxes per image, 3 colours)")


def _ssim_np(x: np.ndarray, y: np.ndarray, max_val: float, size: int, sigma: float, k1: float = 0.01,
             k2: float = 0.03) -> tuple[np.ndarray, np.ndarray]:
    """image_ops_impl._ssim_per_channel in float64: a softmax-normalised size x size Gaussian, VALID
    windows; (mean over the windows of luminance * cs, mean of cs) per image and channel."""
    coords = np.arange(size, dtype=np.float64) - (size - 1) / 2.0
    g = coords ** 2 * (-0.5 / sigma ** 2)
    g = g[None, :] + g[:, None]
    kern = np.exp(g - g.max())
    kern /= kern.sum()

    def reduce(a):
        n, hh, ww, c = a.shape
        o = np.zeros((n, hh - size + 1, ww - size + 1, c))
        for i in range(size):
            for j in range(size):
                o += kern[i, j] * a[:, i:i + hh - size + 1, j:j + ww - size + 1, :]
        return o
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    m0, m1 = reduce(x), reduce(y)
    num0, den0 = m0 * m1 * 2.0, m0 ** 2 + m1 ** 2
    lum = (num0 + c1) / (den0 + c1)
    cs = (reduce(x * y) * 2.0 - num0 + c2) / (reduce(x ** 2 + y ** 2) - den0 + c2)
    return (lum * cs).mean(axis=(1, 2)), cs.mean(axis=(1, 2))


def _ms_ssim_np(a: np.ndarray, b: np.ndarray, powers: tuple, size: int, sigma: float) -> np.ndarray:
    """image_ops_impl.ssim_multiscale: before each scale after the first, odd heights / widths padded
    by one SYMMETRIC row / column at the end, then a 2x2 VALID mean; relu'd cs of every scale but the
    last and the last scale's SSIM, raised to the power factors, multiplied, averaged over channels."""
    imgs, mcs, per = [a.astype(np.float64), b.astype(np.float64)], [], None
    for k in range(len(powers)):
        if k > 0:
            hh, ww = imgs[0].shape[1:3]
            imgs = [np.pad(x, ((0, 0), (0, hh % 2), (0, ww % 2), (0, 0)), mode="symmetric") for x in imgs]
            imgs = [(x[:, 0::2, 0::2] + x[:, 1::2, 0::2] + x[:, 0::2, 1::2] + x[:, 1::2, 1::2]) / 4.0 for x in imgs]
        per, cs = _ssim_np(imgs[0], imgs[1], 1.0, size, sigma)
        mcs.append(np.maximum(cs, 0))
    stacked = np.stack(mcs[:-1] + [np.maximum(per, 0)], axis=-1)
    return np.prod(stacked ** np.array(powers), axis=-1).mean(axis=-1)


@clause("ops.image", ref="tf221")
def test_blind20_ssim_multiscale_at_odd_sizes(tf, budget):
    """tf.image.ssim_multiscale on images whose heights and widths are odd at some scales (13 x 11 ->
    7 x 6 -> 4 x 3), so the end padding before each halving matters, with three power factors and a
    3 x 3 filter, two channels, against a float64 transcription."""
    rng_a = (np.arange(2 * 13 * 11 * 2, dtype=np.float64).reshape(2, 13, 11, 2) * 0.37) % 1.0
    noise = ((np.arange(2 * 13 * 11 * 2).reshape(2, 13, 11, 2) * 7) % 5) * 0.03
    cases = [((0.3, 0.3, 0.4), 1.5), ((0.5, 0.25, 0.25), 0.8)]
    for powers, sigma in budget(cases):
        a = rng_a.astype(np.float32)
        b = (rng_a * 0.8 + noise).astype(np.float32)
        got = _np(tf.image.ssim_multiscale(a, b, 1.0, power_factors=powers, filter_size=3, filter_sigma=sigma))
        assert_close(got, _ms_ssim_np(a, b, powers, 3, sigma), tolerance=Tolerance(rtol=1e-4, atol=1e-5),
                     call=f"ssim_multiscale(13x11 images, power_factors={powers}, filter_size=3, "
                          f"filter_sigma={sigma})")


# -- tf.signal.dct: the four types, both normalisations, n --------------------------------------------------------
def _dct_np(x: np.ndarray, kind: int, norm: str | None) -> np.ndarray:
    """dct_ops.py's definitions (SciPy's), in float64 over the last axis."""
    n_ = x.shape[-1]
    n, k = np.arange(n_)[None, :], np.arange(n_)[:, None]
    x = x.astype(np.float64)
    if kind == 1:
        mid = 2 * np.cos(np.pi * k * n / (n_ - 1))
        mid[:, 0], mid[:, -1] = 1.0, (-1.0) ** np.arange(n_)
        return x @ mid.T
    if kind == 2:
        out = x @ (2 * np.cos(np.pi * k * (2 * n + 1) / (2 * n_))).T
        if norm == "ortho":
            out = out * np.where(np.arange(n_) == 0, math.sqrt(1 / (4 * n_)), math.sqrt(1 / (2 * n_)))
        return out
    if kind == 3:
        basis = 2 * np.cos(np.pi * n * (2 * k + 1) / (2 * n_))
        basis[:, 0] = 1.0
        if norm == "ortho":
            basis = basis * np.where(np.arange(n_) == 0, math.sqrt(1 / n_), math.sqrt(1 / (2 * n_)))[None, :]
        return x @ basis.T
    out = x @ (2 * np.cos(np.pi * (2 * n + 1) * (2 * k + 1) / (4 * n_))).T
    return out * math.sqrt(1 / (2 * n_)) if norm == "ortho" else out


@clause("ops.signal-compositions", ref="tf221")
def test_blind20_dct_types_norms_and_lengths(tf, budget):
    """tf.signal.dct of types I-IV, unnormalised and orthonormal (type I has no ortho), at even and odd
    lengths and with n cropping or zero-padding the signal, against the documented sums; idct is the DCT
    of the inverse type (II <-> III), so idct(dct(x, ortho), ortho) gives x back."""
    x = ((np.arange(2 * 7, dtype=np.float64).reshape(2, 7) * 1.7) % 3.1 - 1.2).astype(np.float32)
    cases = [(4, "ortho", None), (4, None, None), (2, "ortho", None), (3, "ortho", None), (2, None, 5),
             (3, None, 9), (1, None, None), (4, "ortho", 6), (1, None, 4)]
    for kind, norm, n in budget(cases):
        got = _np(tf.signal.dct(x, type=kind, n=n, norm=norm))
        xs = x[..., :n] if n is not None and n <= 7 else (np.pad(x, ((0, 0), (0, n - 7))) if n else x)
        assert_close(got, _dct_np(xs, kind, norm), tolerance=Tolerance(rtol=1e-5, atol=2e-5),
                     call=f"tf.signal.dct(x [2, 7], type={kind}, n={n}, norm={norm!r})")
    for kind in budget([2, 3, 4]):
        back = _np(tf.signal.idct(tf.signal.dct(x, type=kind, norm="ortho"), type=kind, norm="ortho"))
        assert_close(back, x, tolerance=Tolerance(rtol=1e-5, atol=2e-5),
                     call=f"idct(dct(x, type={kind}, norm='ortho'), type={kind}, norm='ortho')")


@clause("ops.image-boxes", ref="tf221")
def test_blind20_nms_score_threshold_is_strict(tf, budget):
    """The NMS kernels keep a box only when its score is strictly above score_threshold: a score equal to
    the threshold is dropped by non_max_suppression_padded (padded or not), non_max_suppression and
    non_max_suppression_with_scores alike."""
    boxes = np.array([[0., 0, 1, 1], [2, 2, 3, 3], [4, 4, 5, 5], [6, 6, 7, 7]], np.float32)
    scores = np.array([0.9, 0.5, 0.3, 0.75], np.float32)
    for thr in budget([0.5, 0.75, 0.3]):
        want = [i for i in np.argsort(-scores, kind="stable") if scores[i] > thr]
        idx, n = tf.image.non_max_suppression_padded(boxes, scores, 4, score_threshold=thr, pad_to_max_output_size=True)
        got = _np(idx)[:int(_np(n))].tolist()
        assert_equal(got, want, call=f"non_max_suppression_padded(scores {scores.tolist()}, score_threshold={thr})")
        got = _np(tf.image.non_max_suppression(boxes, scores, 4, score_threshold=thr)).tolist()
        assert_equal(got, want, call=f"non_max_suppression(scores {scores.tolist()}, score_threshold={thr})")
        sel, sc = tf.image.non_max_suppression_with_scores(boxes, scores, 4, score_threshold=thr)
        assert_equal(_np(sel).tolist(), want, call=f"non_max_suppression_with_scores(..., score_threshold={thr})")


# -- keras.utils.*_dataset_from_directory: class discovery and the shuffle buffer ---------------------------------
def _png(h: int, w: int) -> bytes:
    """A minimal 8-bit grayscale PNG (the standard library's zlib and crc32)."""
    import struct
    import zlib

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + bytes((y * 7 + x) % 256 for x in range(w)) for y in range(h))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


@clause("keras.dataset-from-directory", ref="tf221")
def test_blind20_dataset_from_directory_skips_hidden_subdirectories(keras, tmp_path, budget):
    """Keras's index_directory takes as classes the sorted subdirectories whose names do not start with
    '.' (a .ipynb_checkpoints or .git directory is not a class, its files not read), for text and image
    datasets, with labels the classes' indices."""
    for kind in budget(["text", "image"]):
        root = tmp_path / kind
        for c, n in (("b", 2), (".hidden", 3), ("a", 1), (".ipynb_checkpoints", 1), ("c", 2)):
            (root / c).mkdir(parents=True)
            for i in range(n):
                if kind == "text":
                    (root / c / f"f{i}.txt").write_text(f"{c}{i}")
                else:
                    (root / c / f"f{i}.png").write_bytes(_png(4, 5))
        if kind == "text":
            ds = keras.utils.text_dataset_from_directory(str(root), batch_size=None, shuffle=False, verbose=False)
        else:
            ds = keras.utils.image_dataset_from_directory(str(root), batch_size=None, image_size=(4, 5),
                                                          color_mode="grayscale", shuffle=False, verbose=False)
        assert_equal(list(ds.class_names), ["a", "b", "c"], call=f"{kind}_dataset_from_directory(...).class_names")
        labels = [int(_np(y)) for _, y in ds]
        assert_equal(labels, [0, 1, 1, 2, 2], call=f"{kind}_dataset_from_directory(shuffle=False): labels")


@clause("keras.dataset-from-directory", ref="tf221")
def test_blind20_text_dataset_shuffle_buffer_is_eight_batches(tf, keras, tmp_path, budget):
    """text_dataset_from_directory(shuffle=True, seed=s) lists the files (classes sorted, files sorted),
    shuffles the list with np.random.RandomState(s), then shuffles the dataset with a buffer of
    8 * batch_size and seed s before batching: the batches' texts follow from that composition."""
    files = []
    for c in ("a", "b", "c"):
        (tmp_path / c).mkdir()
        for i in range(12):
            (tmp_path / c / f"t{i:02d}.txt").write_text(f"{c}{i:02d}")
            files.append(f"{c}{i:02d}")
    for batch, seed in budget([(2, 7), (3, 11), (1, 5)]):
        order = list(files)
        np.random.RandomState(seed).shuffle(order)
        want_ds = tf.data.Dataset.from_tensor_slices(order).shuffle(8 * batch, seed=seed).batch(batch)
        want = [[v.decode() for v in _np(b).tolist()] for b in want_ds]
        ds = keras.utils.text_dataset_from_directory(str(tmp_path), batch_size=batch, seed=seed, verbose=False)
        got = [[v.decode() for v in _np(x).tolist()] for x, _ in ds]
        assert_equal(got, want, call=f"text_dataset_from_directory(batch_size={batch}, seed={seed}): the texts' order")


# -- SwapEMAWeights(swap_on_epoch=True) after fit ------------------------------------------------------------------
@clause("keras.callbacks.swap-ema-weights", ref="tf221")
def test_blind20_swap_ema_on_epoch_leaves_the_averages_in_the_model(keras, budget):
    """With SwapEMAWeights(swap_on_epoch=True) fit ends with the moving averages in the model and, after
    the last epoch, the averages set to them: the weights are the EMA of the SGD trajectory (Keras's rule,
    average = var after the first step, then m * average + (1 - m) * var), and an evaluate or predict
    with the same callback afterwards swaps nothing away (the weights stay bit for bit)."""
    x = np.array([[1., 2.], [3., -1.], [0.5, 0.25], [-2., 1.5]], np.float32)
    y = np.array([[1.], [2.], [-1.], [0.5]], np.float32)
    for epochs, momentum in budget([(3, 0.5), (2, 0.8)]):
        model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(
            1, kernel_initializer=keras.initializers.Constant(0.5), bias_initializer="zeros")])
        model.compile(optimizer=keras.optimizers.SGD(0.05, use_ema=True, ema_momentum=momentum), loss="mse")
        cb = keras.callbacks.SwapEMAWeights(swap_on_epoch=True)
        model.fit(x, y, epochs=epochs, batch_size=2, shuffle=False, verbose=0, callbacks=[cb])
        w, b = np.full((2, 1), 0.5), np.zeros(1)
        aw, ab, step = None, None, 0
        for _ in range(epochs):
            for s in (slice(0, 2), slice(2, 4)):
                err = x[s].astype(np.float64) @ w + b - y[s]
                w, b = w - 0.05 * (2 / 2) * x[s].T @ err / 1.0, b - 0.05 * (2 / 2) * err.sum(0) / 1.0
                m = momentum if step else 0.0
                aw = w.copy() if aw is None else m * aw + (1 - m) * w
                ab = b.copy() if ab is None else m * ab + (1 - m) * b
                step += 1
        after_fit = [_np(v) for v in model.get_weights()]
        assert_close(after_fit[0], aw, tolerance=Tolerance(rtol=1e-5, atol=1e-6),
                     call=f"SwapEMAWeights(swap_on_epoch=True), fit(epochs={epochs}): kernel = EMA")
        assert_close(after_fit[1], ab, tolerance=Tolerance(rtol=1e-5, atol=1e-6),
                     call=f"SwapEMAWeights(swap_on_epoch=True), fit(epochs={epochs}): bias = EMA")
        model.evaluate(x, y, verbose=0, callbacks=[cb])
        model.predict(x, verbose=0, callbacks=[cb])
        for got, want, name in zip(model.get_weights(), after_fit, ("kernel", "bias")):
            assert_equal(_np(got), want, call=f"evaluate and predict with the same SwapEMAWeights after fit: {name}")
