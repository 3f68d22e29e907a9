"""Gaps the tenth mechanical mutation sweep found (benchmarks/auto_mutants.py, seed 10, over 50 training-layer files
seeds 1-9 never sampled; thirty-third session): behaviours the suite executed but no test looked at
(docs/conformance.md, "Thirty-third session: automatic sweep, seed 10 (amut33)"; TF 2.21 + Keras 3.15).

Each test closes the class of behaviour a surviving mutant showed unchecked, not the one mutant. Expected values are
rules transcribed here, or observations of TF 2.21 / Keras 3.15 named in each test.
"""

from __future__ import annotations

import logging
import re
import sys

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, raises, to_numpy
from simdist.conformance.suite.log_records import LogRecords

clause = pytest.mark.clause


# -- *_dataset_from_directory: labels / class_names / label_mode refused before the directory is read ----------------
_LABEL_MODE_MSG = ('`label_mode` argument must be one of "int", "categorical", "binary", or None. Received: '
                   "label_mode={}")


@clause("keras.dataset-from-directory", ref="tf221")
@pytest.mark.parametrize("kwargs, msg", [
    ({"label_mode": "bogus"}, _LABEL_MODE_MSG.format("bogus")),
    ({"labels": None, "label_mode": "Int"}, _LABEL_MODE_MSG.format("Int")),
    ({"labels": [0, 1], "label_mode": "bogus"}, _LABEL_MODE_MSG.format("bogus")),
    ({"labels": "inferred", "class_names": ["a"], "label_mode": "sparse"}, _LABEL_MODE_MSG.format("sparse")),
    ({"labels": [0, 1], "class_names": ["a", "b"]},
     "You can only pass `class_names` if `labels=\"inferred\"`. Received: labels=[0, 1], and class_names=['a', 'b']"),
], ids=["mode", "mode-no-labels", "mode-listed-labels", "mode-inferred-with-names", "names-with-listed-labels"])
@pytest.mark.parametrize("fn", ["audio_dataset_from_directory", "image_dataset_from_directory",
                                "text_dataset_from_directory"])
def test_amut33_dataset_from_directory_checks_labels_and_label_mode(keras, tmp_path, fn, kwargs, msg):
    """Keras 3.15's {audio,image,text}_dataset_from_directory check `labels`, then `class_names` beside listed labels,
    then `label_mode` (one of "int", "categorical", "binary", None, case-sensitive) before listing the directory:
    each bad argument is its own ValueError whatever the others (observed on TF 2.21 for an empty class folder)."""
    (tmp_path / "a").mkdir()
    with raises(ValueError, match="^" + re.escape(msg) + "$", call=f"keras.utils.{fn}(dir, **{kwargs})"):
        getattr(keras.utils, fn)(str(tmp_path), **kwargs)


# -- tf.config's deprecated aliases: the notice names the caller's line -----------------------------------------------
@clause("function.run-eagerly", ref="tf221")
def test_amut33_deprecated_run_eagerly_aliases_name_the_calling_line(tf):
    """TF's @deprecated (warn_once) logs WARNING on the "tensorflow" logger at a function's first call in the process,
    "From FILE:LINE: NAME (from tensorflow.python.eager.polymorphic_function.eager_function_run) is deprecated ...",
    FILE:LINE being the line that called the deprecated function (observed on TF 2.21); later calls log nothing. The
    notice is once per process, so this checks every notice this test's calls caused (none when an earlier test of
    the process called the alias first)."""
    handler = LogRecords()
    logger = logging.getLogger("tensorflow")
    logger.addHandler(handler)
    here = __file__
    try:
        line_run = sys._getframe().f_lineno + 1
        tf.config.experimental_run_functions_eagerly(False)
        tf.config.experimental_run_functions_eagerly(False)
        line_read = sys._getframe().f_lineno + 1
        tf.config.experimental_functions_run_eagerly()
    finally:
        logger.removeHandler(handler)
    notices = [m for m in handler.messages if "is deprecated" in m]
    for name, line in (("experimental_run_functions_eagerly", line_run),
                       ("experimental_functions_run_eagerly", line_read)):
        mine = [m for m in notices if f": {name} (from " in m]
        assert len(mine) <= 1, f"{name} called twice here logged {len(mine)} notices, but should log at most one"
        if mine:
            want = (f"From {here}:{line}: {name} (from tensorflow.python.eager.polymorphic_function."
                    "eager_function_run) is deprecated and will be removed in a future version.")
            assert mine[0].startswith(want), f"the notice of {name} was {mine[0]!r}, but should begin {want!r}"


# -- the binomial's BTRS acceptance uses Stirling's tail correction ---------------------------------------------------
@clause("ops.random-generator", ref="tf221")
@pytest.mark.parametrize("seed, n, at, total, value", [
    ([66, 7], 240, 229, 2873, 15), ([45, 7], 360, 355, 4329, 11), ([11, 7], 950, 941, 11405, 15)])
def test_amut33_binomial_btrs_draws_near_the_acceptance_bound(tf, seed, n, at, total, value):
    """random_binomial_op.cc's BTRS (count * p >= 10) accepts a candidate k by comparing against a bound that carries
    Stirling's tail stirling_approx_tail(k) = (1/12 - (1/360 - 1/1260/(k+1)^2)/(k+1)^2)/(k+1) for k > 9. These seeds
    put one candidate close to that bound (found by search): stateless_binomial(counts=30, probs=0.4) draws TF
    2.21's values there (the sum and the draw at `at` observed on TF 2.21)."""
    x = to_numpy(tf.random.stateless_binomial([n], seed=seed, counts=30.0, probs=0.4, output_dtype=tf.int32))
    call = f"tf.random.stateless_binomial([{n}], seed={seed}, counts=30., probs=0.4)"
    assert_equal(int(x[at]), value, call=call, what=f"draw {at}")
    assert_equal(int(x.astype(np.int64).sum()), total, call=call, what="sum of the draws")


# -- tf.math.confusion_matrix squeezes a trailing 1 on either side ----------------------------------------------------
@clause("ops.nn-more", ref="tf221")
@pytest.mark.parametrize("lshape, pshape", [((4, 1), (4,)), ((4,), (4, 1)), ((4,), (4,))])
def test_amut33_confusion_matrix_squeezes_either_operand(tf, lshape, pshape):
    """confusion_matrix's remove_squeezable_dimensions squeezes the last dimension of 1 from labels when labels have
    one dimension more than predictions, and from predictions when they have one more: [[0],[1],[2],[1]] against
    [0,2,2,1] either way is [[1,0,0],[0,1,1],[0,0,1]] (observed on TF 2.21)."""
    labels = tf.reshape(tf.constant([0, 1, 2, 1]), lshape)
    preds = tf.reshape(tf.constant([0, 2, 2, 1]), pshape)
    got = to_numpy(tf.math.confusion_matrix(labels, preds))
    assert_equal(got.tolist(), [[1, 0, 0], [0, 1, 1], [0, 0, 1]],
                 call=f"tf.math.confusion_matrix(labels {lshape}, predictions {pshape})", what="matrix")


# -- tf.image.random_flip_*: the draw is uniform [0, 1) under the op seed ---------------------------------------------
@clause("ops.image-random", ref="tf221")
@pytest.mark.parametrize("fn", ["random_flip_up_down", "random_flip_left_right"])
def test_amut33_random_flips_draw_under_their_op_seed(tf, fn):
    """tf.image.random_flip_up_down / random_flip_left_right flip image i of a batch where
    tf.random.uniform([n], 0, 1.0, seed=seed) < 0.5 (a single image: one scalar draw): after
    tf.random.set_seed(3), eight images flipped with seed=5, then with no seed, then one image after set_seed(3)
    again, are TF 2.21's (observed) -- the op seed, the range and the global seed all enter the draw."""
    base = tf.reshape(tf.range(16, dtype=tf.float32), [8, 2, 1, 1])
    img = base if fn == "random_flip_up_down" else tf.reshape(base, [8, 1, 2, 1])
    flip = getattr(tf.image, fn)
    tf.random.set_seed(3)
    seeded = to_numpy(flip(img, seed=5)).reshape(8, 2)[:, 0].tolist()
    unseeded = to_numpy(flip(img)).reshape(8, 2)[:, 0].tolist()
    tf.random.set_seed(3)
    single = to_numpy(flip(img[0])).reshape(2).tolist()
    assert_equal(seeded, [0.0, 3.0, 4.0, 7.0, 9.0, 11.0, 13.0, 15.0], call=f"set_seed(3); {fn}(8 images, seed=5)",
                 what="first pixel of each image")
    assert_equal(unseeded, [0.0, 3.0, 4.0, 6.0, 9.0, 11.0, 12.0, 14.0], call=f"then {fn}(8 images)",
                 what="first pixel of each image")
    assert_equal(single, [1.0, 0.0], call=f"set_seed(3); {fn}(one image)", what="pixels")


# -- tf.signal windows of lengths 0 to 3 ------------------------------------------------------------------------------
_WINDOWS = {   # observed on TF 2.21 (float32); kaiser_window(0) is Range's InvalidArgumentError
    "kaiser_window": {1: [1.0], 2: [5.2773448260268196e-05] * 2,
                      3: [5.2773448260268196e-05, 1.0, 5.2773448260268196e-05]},
    "hann_window": {0: [], 1: [1.0], 2: [0.0, 1.0], 3: [0.0, 1.0, 0.0]},
    "hamming_window": {0: [], 1: [1.0], 2: [0.08000001311302185, 1.0],
                       3: [0.08000001311302185, 1.0, 0.08000001311302185]},
    "vorbis_window": {0: [], 1: [1.0], 2: [0.7071067690849304] * 2, 3: [0.3826834559440613, 1.0, 0.38268351554870605]},
    "kaiser_bessel_derived_window": {0: [], 1: [], 2: [0.7071067690849304] * 2, 3: [0.7071067690849304] * 2},
}


@clause("ops.signal-compositions", ref="tf221")
@pytest.mark.parametrize("fn", sorted(_WINDOWS))
def test_amut33_signal_windows_of_short_lengths(tf, fn):
    """tf.signal's window functions at lengths 0-3 (window_ops.py: a window of length 1 is [1.] for the Kaiser, Hann,
    Hamming and Vorbis windows, the Kaiser-Bessel-derived window has length // 2 * 2 points, kaiser_window(0) is
    Range's InvalidArgumentError): shapes and values as observed on TF 2.21. The Kaiser window's edge values are
    compared within 1e-6 relative (simdist's float32 bessel_i0e is the correctly rounded value, TF's Eigen
    Chebyshev form is one ulp lower at 12: a documented difference, docs/conformance.md amut33)."""
    make = getattr(tf.signal, fn)
    if fn == "kaiser_window":
        with raises(tf.errors.InvalidArgumentError, match="Requires start <= limit when delta > 0",
                    call="tf.signal.kaiser_window(0)"):
            make(0)
    for n, want in _WINDOWS[fn].items():
        got = to_numpy(make(n))
        assert_equal(list(got.shape), [len(want)], call=f"tf.signal.{fn}({n})", what="shape")
        if fn == "kaiser_window":
            np.testing.assert_allclose(got, np.float32(want), rtol=1e-6, err_msg=f"tf.signal.{fn}({n})")
        else:
            assert_equal(got.tolist(), want, call=f"tf.signal.{fn}({n})", what="values")


# -- a graph constant of an object NumPy cannot convert: its NumPy leaves are not tensors -----------------------------
@clause("ops.conversion", ref="tf221")
@pytest.mark.parametrize("value, shown", [
    (lambda: {"a": np.array([1.0])}, "{'a': array([1.])}"),
    (lambda: {"a": np.int64(3)}, "{'a': np.int64(3)}"),
    (lambda: {1, 2}, "{1, 2}"),
], ids=["dict-of-ndarray", "dict-of-numpy-scalar", "set"])
def test_amut33_graph_constant_of_an_object_with_numpy_leaves(tf, value, shown):
    """Inside a tf.function, tf.constant of a dict or set is make_tensor_proto's object array, refused with TypeError
    "Failed to convert elements of VALUE to Tensor. ..." -- NumPy arrays and scalars among its leaves are values, not
    tensors (only a tensor leaf is "Expected any non-tensor type"; observed on TF 2.21)."""
    with raises(TypeError, match=re.escape(f"Failed to convert elements of {shown} to Tensor. Consider casting"),
                call=f"tf.function(lambda: tf.constant({shown}))()"):
        tf.function(lambda: tf.constant(value()))()


@clause("keras.dataset-from-directory", ref="tf221")
def test_amut33_audio_dataset_ragged_beside_a_sequence_length(keras, tmp_path):
    """audio_dataset_from_directory refuses ragged=True beside output_sequence_length ("Cannot set both `ragged` and
    `output_sequence_length`"), after the label checks (a bad label_mode is named first; observed on TF 2.21)."""
    (tmp_path / "a").mkdir()
    f = keras.utils.audio_dataset_from_directory
    with raises(ValueError, match="^Cannot set both `ragged` and `output_sequence_length`$",
                call="audio_dataset_from_directory(dir, ragged=True, output_sequence_length=10)"):
        f(str(tmp_path), ragged=True, output_sequence_length=10)
    with raises(ValueError, match="^" + re.escape(_LABEL_MODE_MSG.format("x")) + "$",
                call="audio_dataset_from_directory(dir, ragged=True, output_sequence_length=10, label_mode='x')"):
        f(str(tmp_path), ragged=True, output_sequence_length=10, label_mode="x")


# -- copy_to_device / prefetch_to_device place elements as the eager placer does --------------------------------------
@clause("dataset.copy-to-device", ref="tf221")
@pytest.mark.parametrize("fn", ["copy_to_device", "prefetch_to_device"])
@pytest.mark.parametrize("device", ["/gpu:0", "/device:GPU:1", "cpu:0", "/job:localhost/cpu:0", "/CPU:0"])
def test_amut33_dataset_to_device_places_by_soft_placement(tf, fn, device):
    """tf.data.experimental.copy_to_device and prefetch_to_device resolve the target as the eager placer does, soft
    placement included: on a host without a GPU, a GPU or a partial CPU name puts the elements on
    /job:localhost/replica:0/task:0/device:CPU:0 (observed on TF 2.21)."""
    ds = tf.data.Dataset.range(2).apply(getattr(tf.data.experimental, fn)(device))
    assert_equal(sorted({x.device for x in ds}), ["/job:localhost/replica:0/task:0/device:CPU:0"],
                 call=f"Dataset.range(2).apply({fn}({device!r}))", what="element devices")


# -- non-max suppression stops at max_output_size, in every form -----------------------------------------------------
_NMS_BOXES = [[0, 0, 1, 1], [2, 2, 3, 3], [4, 4, 5, 5], [6, 6, 7, 7], [0, 0, 1, 1.1]]
_NMS_SCORES = [0.9, 0.8, 0.7, 0.6, 0.95]
_NMS_WANT = {0: [], 1: [4], 2: [4, 1], 3: [4, 1, 2]}   # observed on TF 2.21 (box 0 overlaps box 4: IoU 0.91)


@clause("ops.image-boxes", ref="tf221")
@pytest.mark.parametrize("k", sorted(_NMS_WANT))
def test_amut33_non_max_suppression_stops_at_max_output_size(tf, k):
    """tf.image.non_max_suppression, non_max_suppression_with_scores (soft-NMS, sigma 0.5) and
    non_max_suppression_padded (pad_to_max_output_size, boxes given as (y1, x1, y2, x2) and with each box's corners
    swapped, which canonicalized_coordinates=False puts in order) select at most max_output_size boxes, highest score
    first, dropping the box that overlaps a selected one (observed on TF 2.21)."""
    boxes = tf.constant(_NMS_BOXES, tf.float32)
    flipped = tf.constant([[b[2], b[3], b[0], b[1]] for b in _NMS_BOXES], tf.float32)
    scores = tf.constant(_NMS_SCORES)
    want = _NMS_WANT[k]
    got = to_numpy(tf.image.non_max_suppression(boxes, scores, k, 0.5)).tolist()
    assert_equal(got, want, call=f"non_max_suppression(boxes, scores, {k}, 0.5)", what="indices")
    idx, sc = tf.image.non_max_suppression_with_scores(boxes, scores, k, 0.5, soft_nms_sigma=0.5)
    assert_equal(to_numpy(idx).tolist(), want, call=f"non_max_suppression_with_scores(..., {k}, sigma=0.5)",
                 what="indices")
    assert_equal(to_numpy(sc).tolist(), [float(np.float32(_NMS_SCORES[i])) for i in want],
                 call=f"non_max_suppression_with_scores(..., {k}, sigma=0.5)", what="scores")
    for name, b in (("boxes", boxes), ("boxes with swapped corners", flipped)):
        idx, n = tf.image.non_max_suppression_padded(b, scores, k, 0.5, pad_to_max_output_size=True)
        call = f"non_max_suppression_padded({name}, scores, {k}, 0.5, pad_to_max_output_size=True)"
        assert_equal(to_numpy(idx).tolist(), want, call=call, what="indices")
        assert_equal(int(n), len(want), call=call, what="valid count")


# -- tf.while_loop stops at maximum_iterations, eagerly and traced ----------------------------------------------------
@clause("function.traced-while-loop", ref="tf221")
@pytest.mark.parametrize("limit, want", [(0, [0, 1]), (1, [1, 2]), (3, [3, 8]), (20, [10, 1024])])
def test_amut33_while_loop_stops_at_maximum_iterations(tf, limit, want):
    """tf.while_loop runs the body while the condition holds and at most maximum_iterations times (0 runs none, a
    limit above what the condition allows changes nothing), eagerly and inside a tf.function (observed on TF 2.21)."""
    def loop():
        return tf.while_loop(lambda i, s: i < 10, lambda i, s: (i + 1, s * 2), (tf.constant(0), tf.constant(1)),
                             maximum_iterations=limit)
    for mode, run in (("eagerly", loop), ("in a tf.function", tf.function(loop))):
        assert_equal([int(v) for v in run()], want, what="(i, s)",
                     call=f"while_loop(i < 10, (i + 1, s * 2), (0, 1), maximum_iterations={limit}) {mode}")
