"""tf.signal, tf.debugging, the tf initializers, tf.image's random and box ops and tf.math.sobol_sample
(issue 29's ninth session): each checked against values computed here independently (NumPy's FFT,
the window and framing formulas, SciPy's unscrambled Sobol' sequence, the boxes' overlaps) or
against TF 2.21's documented contract. The bit-level differential tests are tests/ops/test_signal_tf.py,
test_debugging_tf.py, test_tf_initializers_tf.py, test_image_random_tf.py, test_image_boxes_tf.py and
test_sobol_tf.py."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause

_FFT = Tolerance(rtol=1e-5, atol=1e-5)     # (float32 transforms of 7 points against NumPy's float64 FFT)
_TIGHT = Tolerance(rtol=0.0, atol=1e-6)
_EXACT = Tolerance(rtol=0.0, atol=0.0)
_X = np.array([0.5, -1.25, 2.0, 0.0, 3.5, -0.75, 1.0], np.float32)


@clause("ops.signal-fft", ref="tf221")
def test_fft_family_is_the_discrete_fourier_transform(backend):
    tf = backend.tf
    z = (_X + 1j * _X[::-1]).astype(np.complex64)
    assert_close(backend.to_numpy(tf.signal.fft(z)), np.fft.fft(z.astype(np.complex128)), tolerance=_FFT,
                 call="tf.signal.fft(z)", what="values")
    r = tf.signal.rfft(_X)
    got = (r.dtype.name, tuple(r.shape))
    assert got == ("complex64", (4,)), \
        f"tf.signal.rfft(float32 [7]) gave (dtype, shape) {got}, but should be ('complex64', (4,)): n // 2 + 1 bins"
    assert_close(backend.to_numpy(r), np.fft.rfft(_X.astype(np.float64)), tolerance=_FFT,
                 call="tf.signal.rfft(x)", what="values")
    assert_close(backend.to_numpy(tf.signal.rfft(_X, fft_length=[4])), np.fft.rfft(_X[:4].astype(np.float64)),
                 tolerance=_FFT, call="tf.signal.rfft(x, fft_length=[4])", what="values (x cropped to 4)")
    assert_close(backend.to_numpy(tf.signal.irfft(r, fft_length=[7])), _X, tolerance=_FFT,
                 call="tf.signal.irfft(tf.signal.rfft(x), fft_length=[7])", what="values (x back)")


@clause("ops.signal-compositions", ref="tf221")
def test_windows_and_frames_follow_their_formulas(backend):
    tf = backend.tf
    n = np.arange(4)
    assert_close(backend.to_numpy(tf.signal.hann_window(4)), 0.5 - 0.5 * np.cos(2 * np.pi * n / 4), tolerance=_TIGHT,
                 call="tf.signal.hann_window(4)", what="periodic Hann: 0.5 - 0.5 cos(2 pi n / N)")
    assert_close(backend.to_numpy(tf.signal.hann_window(4, periodic=False)), 0.5 - 0.5 * np.cos(2 * np.pi * n / 3),
                 tolerance=_TIGHT, call="tf.signal.hann_window(4, periodic=False)", what="symmetric Hann: N - 1 below")
    want = np.array([[0, 1, 2], [2, 3, 4], [4, 5, 6]])
    assert_equal(np.asarray(backend.to_numpy(tf.signal.frame(tf.range(7), 3, 2))).tolist(), want.tolist(),
                 call="tf.signal.frame(range(7), frame_length=3, frame_step=2)", what="frames")
    assert_equal(np.asarray(backend.to_numpy(tf.signal.overlap_and_add(tf.constant(want), 2))).tolist(),
                 [0, 1, 4, 3, 8, 5, 6], call="tf.signal.overlap_and_add(frames, 2)", what="sums of the overlaps")


@clause("ops.debugging-checks", ref="tf221")
def test_checks_raise_on_what_they_check(backend):
    tf = backend.tf
    ok = tf.debugging.check_numerics(tf.constant([1.0, 2.0]), "fine")
    assert_equal(np.asarray(backend.to_numpy(ok)).tolist(), [1.0, 2.0], call="check_numerics of finite values",
                 what="its input, unchanged")
    with raises(tf.errors.InvalidArgumentError, match="oops", call="check_numerics([1, nan], 'oops')"):
        backend.to_numpy(tf.debugging.check_numerics(tf.constant([1.0, np.nan]), "oops"))
    with raises(ValueError, match="rank at least 2", call="assert_rank_at_least(rank-1 tensor, 2)"):
        tf.debugging.assert_rank_at_least(tf.constant([1.0]), 2)
    with raises(TypeError, call="assert_integer(float32 tensor)"):
        tf.debugging.assert_integer(tf.constant([1.0]))


@clause("ops.initializers", ref="tf221")
def test_initializers_fill_as_named_and_repeat_with_a_seed(backend):
    tf = backend.tf
    assert_equal(np.asarray(backend.to_numpy(tf.zeros_initializer()([2, 3]))).tolist(), [[0.0] * 3] * 2,
                 call="tf.zeros_initializer()([2, 3])", what="values")
    assert_equal(np.asarray(backend.to_numpy(tf.constant_initializer(3.0)([2]))).tolist(), [3.0, 3.0],
                 call="tf.constant_initializer(3.0)([2])", what="values")
    init = tf.random_uniform_initializer(-1.0, 1.0, seed=4)
    a, b = (np.asarray(backend.to_numpy(init([50]))) for _ in range(2))
    assert_equal(a.tolist(), b.tolist(), call="random_uniform_initializer(seed=4) called twice",
                 what="values (a seeded initializer repeats its draws)")
    assert (a >= -1.0).all() and (a < 1.0).all() and len(set(a.tolist())) > 40, \
        f"random_uniform_initializer(-1, 1)([50]) = {a[:5]}..., but should be 50 distinct draws in [-1, 1)"


@clause("ops.image-random", ref="tf221")
def test_random_flips_give_the_image_or_its_mirror(backend):
    tf = backend.tf
    img = np.arange(2 * 3 * 1, dtype=np.float32).reshape(2, 3, 1)
    tf.random.set_seed(3)
    for _ in range(4):
        out = np.asarray(backend.to_numpy(tf.image.random_flip_left_right(img)))
        assert np.array_equal(out, img) or np.array_equal(out, img[:, ::-1]), \
            f"random_flip_left_right gave {out[..., 0].tolist()}, but should be {img[..., 0].tolist()} or its mirror"
        out = np.asarray(backend.to_numpy(tf.image.random_flip_up_down(img)))
        assert np.array_equal(out, img) or np.array_equal(out, img[::-1]), \
            f"random_flip_up_down gave {out[..., 0].tolist()}, but should be {img[..., 0].tolist()} or it upside down"


@clause("ops.image-boxes", ref="tf221")
def test_non_max_suppression_drops_boxes_that_overlap_a_better_one(backend):
    tf = backend.tf
    boxes = [[0.0, 0.0, 1.0, 1.0], [0.0, 0.1, 1.0, 1.1], [0.0, 2.0, 1.0, 3.0]]
    got = np.asarray(backend.to_numpy(tf.image.non_max_suppression(boxes, [0.9, 0.8, 0.7], 3, 0.5))).tolist()
    assert_equal(got, [0, 2], call="non_max_suppression(3 boxes, box 1 overlapping box 0 by IoU 0.82, threshold 0.5)",
                 what="kept indices")
    img = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
    crop = tf.image.crop_and_resize(img, [[0.0, 0.0, 1.0, 1.0]], [0], [4, 4])
    assert_close(backend.to_numpy(crop), img, tolerance=_TIGHT, call="crop_and_resize(the whole image, to its own size)",
                 what="the image itself")


@clause("ops.sobol", ref="tf221")
def test_sobol_sample_is_the_unscrambled_sobol_sequence_after_its_zero(backend):
    from scipy.stats import qmc
    tf = backend.tf
    want = qmc.Sobol(d=3, scramble=False).random_base2(3)[1:7]   # (the sequence's first point, 0, is skipped)
    assert_close(backend.to_numpy(tf.math.sobol_sample(3, 6)), want, tolerance=_EXACT,
                 call="tf.math.sobol_sample(dim=3, num_results=6)", what="points")
