"""tf.image's box ops against real TensorFlow 2.21 (clause ops.image-boxes):
non_max_suppression (NonMaxSuppressionV3), non_max_suppression_with_scores (V5, soft-NMS),
non_max_suppression_overlaps, non_max_suppression_padded (TF's tiled Python algorithm;
combined_non_max_suppression; with the
one-element-list axis of expand_dims it uses), crop_and_resize (bilinear and nearest, extrapolation, one-pixel
crops, integer images) with its image and box gradients, and draw_bounding_boxes: values bit for
bit, dtypes, shapes and error classes. Needs the `tf` extra (golden-backed otherwise)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_R = np.random.default_rng(2908)
BOXES = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11], [0, 10.1, 1, 11.1],
                  [0, 100, 1, 101], [1, 1, 0, 0], [0.5, 0.5, 0.5, 0.5]], np.float32)
SCORES = np.array([0.9, 0.75, 0.6, 0.95, 0.5, 0.3, 0.9, 0.8], np.float32)
RB = np.sort(_R.uniform(0, 1, (40, 2, 2)), axis=1).reshape(40, 4)[:, [0, 2, 1, 3]].astype(np.float32)
RS = _R.uniform(0, 1, 40).astype(np.float32)
IMG = _R.uniform(0, 1, (2, 7, 8, 3)).astype(np.float32)
U8 = _R.integers(0, 256, (2, 5, 6, 2)).astype(np.uint8)
CB = np.array([[0.1, 0.2, 0.8, 0.9], [-0.2, 0.0, 1.1, 0.5], [0.5, 0.5, 0.5, 0.5], [0.9, 0.8, 0.1, 0.3],
               [0.0, 0.0, 1.0, 1.0]], np.float32)
CI = np.array([0, 1, 1, 0, 1], np.int32)
CBX = np.sort(_R.uniform(-0.2, 1.2, (2, 30, 3, 2, 2)), axis=3).reshape(2, 30, 3, 4)[..., [0, 2, 1, 3]].astype(np.float32)
CSC = _R.uniform(0, 1, (2, 30, 3)).astype(np.float32)
TIED = (_R.integers(1, 4, (1, 12, 1)) / 4).astype(np.float32)        # equal scores: the heap's and the sort's order


def _grads(method: str, crop: list[int], image: np.ndarray = IMG) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        v, b = tf.Variable(image), tf.Variable(CB)
        with tf.GradientTape() as tape:
            y = tf.image.crop_and_resize(v, b, CI, crop, method=method)
            w = tf.reshape(tf.cast(tf.range(tf.size(y)), y.dtype), tf.shape(y)) / 50.0
            loss = tf.reduce_sum(y * w)
        return [y, *tape.gradient(loss, [v, b])]
    return run


def _int_image_grad(tf: Any) -> Any:
    b = tf.Variable(CB)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.image.crop_and_resize(tf.constant(U8), b, CI, [3, 3]))
    return tape.gradient(loss, b)


def _nms_grad(tf: Any) -> Any:
    s = tf.Variable(SCORES)
    with tf.GradientTape() as tape:
        _, sc = tf.image.non_max_suppression_with_scores(BOXES, s, 5, 0.5, soft_nms_sigma=0.5)
        loss = tf.reduce_sum(sc)
    return tape.gradient(loss, s)


CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    ("nms", "nms", lambda tf: tf.image.non_max_suppression(BOXES, SCORES, 5, 0.5)),
    ("nms-all", "nms", lambda tf: tf.image.non_max_suppression(BOXES, SCORES, 20, 0.0)),
    ("nms-iou-1", "nms", lambda tf: tf.image.non_max_suppression(BOXES, SCORES, 20, 1.0)),
    ("nms-score-threshold", "nms", lambda tf: tf.image.non_max_suppression(BOXES, SCORES, 20, 0.5, 0.7)),
    ("nms-random", "nms", lambda tf: tf.image.non_max_suppression(RB, RS, 25, 0.3)),
    ("nms-float16", "nms", lambda tf: tf.image.non_max_suppression(tf.constant(RB, tf.float16),
                                                                   tf.constant(RS, tf.float16), 25, 0.3)),
    ("nms-ties", "nms", lambda tf: tf.image.non_max_suppression(RB[:6], np.full(6, 0.5, np.float32), 6, 0.2)),
    ("nms-zero-size", "nms", lambda tf: tf.image.non_max_suppression(BOXES, SCORES, 0)),
    ("nms-no-boxes", "nms", lambda tf: tf.image.non_max_suppression(np.zeros((0, 4), np.float32),
                                                                    np.zeros(0, np.float32), 3)),
    ("nms-numpy-float64-scores", "nms", lambda tf: tf.image.non_max_suppression(tf.constant(BOXES),
                                                                                SCORES.astype(np.float64), 4)),
    ("nms-in-function", "nms", lambda tf: tf.function(lambda b, s: tf.image.non_max_suppression(b, s, 4, 0.4))(
        tf.constant(RB), tf.constant(RS))),
    ("nms-iou-error", "nms", lambda tf: tf.image.non_max_suppression(BOXES, SCORES, 3, 1.5)),
    ("nms-negative-size", "nms", lambda tf: tf.image.non_max_suppression(BOXES, SCORES, -1)),
    ("nms-box-columns", "nms", lambda tf: tf.image.non_max_suppression(BOXES[:, :3], SCORES, 3)),
    ("nms-score-count", "nms", lambda tf: tf.image.non_max_suppression(BOXES, SCORES[:3], 3)),
    ("nms-float64", "nms", lambda tf: tf.image.non_max_suppression(tf.constant(BOXES, tf.float64),
                                                                   tf.constant(SCORES, tf.float64), 3)),
    ("nms-mixed-dtypes", "nms", lambda tf: tf.image.non_max_suppression(tf.constant(BOXES, tf.float16),
                                                                        tf.constant(SCORES), 3)),
    ("nms-int-boxes", "nms", lambda tf: tf.image.non_max_suppression(tf.constant([[0, 0, 1, 1]]),
                                                                     tf.constant([0.5]), 3)),
    ("soft-nms", "nms", lambda tf: tf.image.non_max_suppression_with_scores(BOXES, SCORES, 8, 0.5,
                                                                            soft_nms_sigma=0.5)),
    ("soft-nms-threshold", "nms", lambda tf: tf.image.non_max_suppression_with_scores(RB, RS, 30, 0.5, 0.2,
                                                                                      soft_nms_sigma=0.3)),
    ("nms-with-scores-hard", "nms", lambda tf: tf.image.non_max_suppression_with_scores(RB, RS, 30, 0.4)),
    ("soft-nms-float16", "nms", lambda tf: tf.image.non_max_suppression_with_scores(
        tf.constant(RB, tf.float16), tf.constant(RS, tf.float16), 30, 0.5, soft_nms_sigma=0.5)),
    ("soft-nms-negative-sigma", "nms", lambda tf: tf.image.non_max_suppression_with_scores(
        BOXES, SCORES, 3, soft_nms_sigma=-0.5)),
    ("nms-overlaps", "nms", lambda tf: tf.image.non_max_suppression_overlaps(
        (RB[:10, :1] * RB[:10, 1:2].T).astype(np.float32), RS[:10], 6, 0.3, 0.1)),
    ("nms-gradient-lookup-error", "nms", _nms_grad),
    ("padded", "padded", lambda tf: tf.image.non_max_suppression_padded(BOXES, SCORES, 6, 0.5,
                                                                        pad_to_max_output_size=True)),
    ("padded-cut", "padded", lambda tf: tf.image.non_max_suppression_padded(tf.constant(RB), tf.constant(RS), 12, 0.3)),
    ("padded-small-tiles", "padded", lambda tf: tf.image.non_max_suppression_padded(
        tf.constant(RB), tf.constant(RS), 15, 0.3, pad_to_max_output_size=True, tile_size=8)),
    ("padded-score-threshold", "padded", lambda tf: tf.image.non_max_suppression_padded(
        tf.constant(RB), tf.constant(RS), 10, 0.4, score_threshold=0.5, pad_to_max_output_size=True)),
    ("padded-batched", "padded", lambda tf: tf.image.non_max_suppression_padded(
        tf.constant(RB.reshape(2, 20, 4)), tf.constant(RS.reshape(2, 20)), 7, 0.3, pad_to_max_output_size=True,
        tile_size=4)),
    ("padded-flipped-corners", "padded", lambda tf: tf.image.non_max_suppression_padded(
        tf.constant(RB[:, [2, 3, 0, 1]]), tf.constant(RS), 8, 0.3, pad_to_max_output_size=True)),
    ("padded-sorted-input", "padded", lambda tf: tf.image.non_max_suppression_padded(
        tf.constant(RB), tf.constant(np.sort(RS)[::-1].copy()), 8, 0.3, pad_to_max_output_size=True,
        sorted_input=True, canonicalized_coordinates=True)),
    ("padded-batched-unpadded-error", "padded", lambda tf: tf.image.non_max_suppression_padded(
        tf.constant(RB.reshape(2, 20, 4)), tf.constant(RS.reshape(2, 20)), 7)),
    ("padded-in-function", "padded", lambda tf: [tf.function(
        lambda b, s: tf.image.non_max_suppression_padded(b, s, 9, 0.3, pad_to_max_output_size=True, tile_size=8))(
            tf.constant(x), tf.constant(y)) for x, y in ((RB, RS), (RB[::-1].copy(), RS))]),
    ("expand-dims-list-axis", "padded", lambda tf: [tf.expand_dims(tf.ones([2, 3]), [1]),
                                                    tf.expand_dims(tf.ones([2, 3]), tf.constant([[2]]))]),
    ("expand-dims-two-axes-error", "padded", lambda tf: tf.expand_dims(tf.ones([2, 3]), [1, 2])),
    ("combined", "combined", lambda tf: tf.image.combined_non_max_suppression(CBX, CSC, 4, 9, 0.3)),
    ("combined-pad-per-class", "combined", lambda tf: tf.image.combined_non_max_suppression(
        CBX, CSC, 2, 20, 0.3, pad_per_class=True)),
    ("combined-no-clip-threshold", "combined", lambda tf: tf.image.combined_non_max_suppression(
        CBX, CSC, 5, 12, 0.4, score_threshold=0.5, clip_boxes=False)),
    ("combined-shared-boxes", "combined", lambda tf: tf.image.combined_non_max_suppression(
        CBX[:, :, :1], CSC, 40, 100, 0.4)),
    ("combined-tied-scores", "combined", lambda tf: tf.image.combined_non_max_suppression(
        CBX[:1, :12, :1], TIED, 12, 12, 0.9)),
    ("combined-in-function", "combined", lambda tf: tf.function(
        lambda b, s: tf.image.combined_non_max_suppression(b, s, 3, 6, 0.5))(tf.constant(CBX), tf.constant(CSC))),
    ("combined-bad-q", "combined", lambda tf: tf.image.combined_non_max_suppression(CBX[:, :, :2], CSC, 3, 6)),
    ("combined-zero-per-class", "combined", lambda tf: tf.image.combined_non_max_suppression(CBX, CSC, 0, 6)),
    ("combined-iou-error", "combined", lambda tf: tf.image.combined_non_max_suppression(CBX, CSC, 3, 6, 1.5)),
    ("combined-float64", "combined", lambda tf: tf.image.combined_non_max_suppression(
        tf.constant(CBX, tf.float64), tf.constant(CSC, tf.float64), 3, 6)),
    ("combined-int64-total", "combined", lambda tf: tf.image.combined_non_max_suppression(CBX, CSC, 3, 2**40)),
    ("crop-bilinear", "crop", lambda tf: tf.image.crop_and_resize(IMG, CB, CI, [4, 5])),
    ("crop-nearest", "crop", lambda tf: tf.image.crop_and_resize(IMG, CB, CI, [4, 5], method="nearest")),
    ("crop-extrapolation", "crop", lambda tf: tf.image.crop_and_resize(IMG, CB, CI, [3, 3],
                                                                       extrapolation_value=-1.5)),
    ("crop-one-pixel", "crop", lambda tf: [tf.image.crop_and_resize(IMG, CB, CI, [1, 1]),
                                           tf.image.crop_and_resize(IMG, CB, CI, [1, 4]),
                                           tf.image.crop_and_resize(IMG, CB, CI, [3, 1], method="nearest")]),
    ("crop-uint8", "crop", lambda tf: tf.image.crop_and_resize(U8, CB, CI, [3, 4])),
    ("crop-float64", "crop", lambda tf: tf.image.crop_and_resize(IMG.astype(np.float64), CB, CI, [2, 3])),
    ("crop-no-boxes", "crop", lambda tf: tf.image.crop_and_resize(IMG, np.zeros((0, 4), np.float32),
                                                                  np.zeros(0, np.int32), [2, 2])),
    ("crop-bad-index", "crop", lambda tf: tf.image.crop_and_resize(IMG, CB, [0, 1, 2, 0, 1], [2, 2])),
    ("crop-bad-size", "crop", lambda tf: tf.image.crop_and_resize(IMG, CB, CI, [0, 2])),
    ("crop-bad-rank", "crop", lambda tf: tf.image.crop_and_resize(IMG[0], CB, CI, [2, 2])),
    ("crop-nan-box", "crop", lambda tf: tf.image.crop_and_resize(IMG, np.array([[0, 0, np.nan, 1]], np.float32),
                                                                 [0], [2, 2])),
    ("crop-bad-method", "crop", lambda tf: tf.image.crop_and_resize(IMG, CB, CI, [2, 2], method="bicubic")),
    ("crop-in-function", "crop", lambda tf: tf.function(lambda a: tf.image.crop_and_resize(a, CB, CI, [3, 2]))(
        tf.constant(IMG))),
    ("crop-grad-bilinear", "crop-grad", _grads("bilinear", [4, 5])),
    ("crop-grad-nearest", "crop-grad", _grads("nearest", [3, 4])),
    ("crop-grad-one-pixel", "crop-grad", _grads("bilinear", [1, 1])),
    ("crop-grad-float64", "crop-grad", _grads("bilinear", [3, 3], IMG.astype(np.float64))),
    ("crop-grad-uint8-boxes-only", "crop-grad", _int_image_grad),
    ("draw", "draw", lambda tf: tf.image.draw_bounding_boxes(IMG[:, :, :, :3], np.stack([CB[:4], CB[1:]]),
                                                             [[1.0, 0.0, 0.0], [0.0, 0.5, 1.0]])),
    ("draw-default-colors", "draw", lambda tf: tf.image.draw_bounding_boxes(
        np.zeros((1, 6, 6, 1), np.float32), [[[0.1, 0.1, 0.9, 0.9], [0.3, -0.2, 0.6, 1.3], [-1, -1, -0.5, -0.5],
                                              [0.8, 0.8, 0.2, 0.2]]], np.zeros((0, 4), np.float32))),
    ("draw-rgba-float16", "draw", lambda tf: tf.image.draw_bounding_boxes(
        tf.zeros([2, 5, 7, 4], tf.float16), np.stack([CB[:2], CB[2:4]]), np.zeros((0, 4), np.float32))),
    ("draw-two-channels", "draw", lambda tf: tf.image.draw_bounding_boxes(np.zeros((1, 4, 4, 2), np.float32),
                                                                          [[[0, 0, 1, 1]]], [[1.0, 1.0]])),
    ("draw-few-color-channels", "draw", lambda tf: tf.image.draw_bounding_boxes(np.zeros((1, 4, 4, 3), np.float32),
                                                                                [[[0, 0, 1, 1]]], [[1.0, 1.0]])),
    ("draw-uint8", "draw", lambda tf: tf.image.draw_bounding_boxes(U8[:, :, :, :1], [[[0, 0, 1, 1]]] * 2, [[1.0]])),
    ("draw-batch-mismatch", "draw", lambda tf: tf.image.draw_bounding_boxes(IMG, [[[0, 0, 1, 1]]], [[1.0] * 3])),
]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.image-boxes")
@EDGES.parametrize("nms")
def test_non_max_suppression(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.image-boxes")
@EDGES.parametrize("padded")
def test_non_max_suppression_padded(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.image-boxes")
@EDGES.parametrize("combined")
def test_combined_non_max_suppression(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.image-boxes")
@EDGES.parametrize("crop")
def test_crop_and_resize(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.image-boxes")
@EDGES.parametrize("crop-grad")
def test_crop_and_resize_gradients(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.image-boxes")
@EDGES.parametrize("draw")
def test_draw_bounding_boxes(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_image_boxes_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
