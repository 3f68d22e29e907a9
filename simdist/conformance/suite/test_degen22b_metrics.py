"""Degeneracy audit 22 (area degen22b): threshold metrics with predictions on their thresholds
(Keras 3.15 on TF 2.21).

The suite's threshold metrics saw predictions that avoid the thresholds (sigmoid outputs against
0.5, random floats against AUC's 200-point grid) and sample weights of ones: there `>` and `>=`, a
bucket's ceil - 1 and floor, a weighted and an unweighted count agree. Here the predictions sit
exactly on the thresholds (0, 0.25, 0.5, 0.75, 1) and the weights are not all equal. Expected values
are NumPy transcriptions of Keras's metrics_utils rules: a prediction is positive above a threshold
(`y_pred > t`; BinaryIoU: `y_pred >= t`), AUC's thresholds are [0 - eps, i / (n - 1) ..., 1 + eps]
with the same strict rule, the ROC area is the trapezoid (interpolation), lower (minoring) or upper
(majoring) sum over the (fpr, tpr) points.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL = Tolerance(rtol=1e-5, atol=1e-6)
EPS = 1e-7

Y_TRUE = np.array([1, 0, 1, 0, 1, 1, 0, 0, 1, 0], np.float32)
Y_PRED = np.array([0.0, 0.25, 0.5, 0.5, 1.0, 0.25, 1.0, 0.75, 0.75, 0.0], np.float32)
WEIGHT = np.array([1.0, 2.0, 0.5, 1.5, 3.0, 1.0, 0.25, 2.0, 1.0, 0.5], np.float32)


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


def counts(thresholds: list[float], w: np.ndarray) -> dict[str, np.ndarray]:
    """Weighted tp, fp, tn, fn per threshold, a prediction positive when y_pred > t."""
    pos = Y_PRED[None, :].astype(np.float64) > np.asarray(thresholds, np.float64)[:, None]
    t = Y_TRUE[None, :] > 0
    return {"tp": (pos & t) @ w, "fp": (pos & ~t) @ w, "tn": (~pos & ~t) @ w, "fn": (~pos & t) @ w}


@clause("keras.metric.precision-recall", ref="tf221")
def test_degen22b_metrics_confusion_counts_with_predictions_on_the_thresholds(keras, budget):
    """Precision, Recall, TruePositives, FalsePositives, TrueNegatives and FalseNegatives with
    thresholds [0, 0.25, 0.5, 0.75] (and the default 0.5), predictions equal to them, with and without
    sample weights that differ: a prediction equal to a threshold is not positive."""
    ths = [0.0, 0.25, 0.5, 0.75]
    for w in budget([WEIGHT, None]):
        c = counts(ths, np.ones_like(WEIGHT, np.float64) if w is None else w.astype(np.float64))
        c5 = counts([0.5], np.ones_like(WEIGHT, np.float64) if w is None else w.astype(np.float64))
        want = {"Precision": c["tp"] / (c["tp"] + c["fp"]), "Recall": c["tp"] / (c["tp"] + c["fn"]),
                "TruePositives": c["tp"], "FalsePositives": c["fp"], "TrueNegatives": c["tn"],
                "FalseNegatives": c["fn"]}
        for name, value in want.items():
            for thresholds, expect in ((ths, value), (None, None)):
                m = getattr(keras.metrics, name)(thresholds=thresholds)
                m.update_state(Y_TRUE, Y_PRED, sample_weight=w)
                if expect is None:           # the default threshold 0.5
                    key = {"Precision": None, "Recall": None}.get(name, name)
                    expect = (c5["tp"] / (c5["tp"] + c5["fp"]) if name == "Precision" else
                              c5["tp"] / (c5["tp"] + c5["fn"]) if name == "Recall" else
                              c5[{"TruePositives": "tp", "FalsePositives": "fp", "TrueNegatives": "tn",
                                  "FalseNegatives": "fn"}[key]])
                call = (f"{name}(thresholds={thresholds}).update_state(y_true, y_pred on the thresholds, "
                        f"sample_weight={'unequal' if w is not None else None})")
                assert_close(_np(m.result()).astype(np.float64).reshape(-1), np.reshape(expect, -1), call=call,
                             tolerance=TOL)
    acc = keras.metrics.BinaryAccuracy(threshold=0.25)
    acc.update_state(Y_TRUE, Y_PRED, sample_weight=WEIGHT)
    hit = ((Y_PRED > 0.25).astype(np.float32) == Y_TRUE).astype(np.float64)
    assert_close(float(_np(acc.result())), float((hit * WEIGHT).sum() / WEIGHT.sum()),
                 call="BinaryAccuracy(threshold=0.25) with predictions equal to 0.25", tolerance=TOL)


def _roc(c: dict[str, np.ndarray], method: str) -> float:
    tpr = c["tp"] / (c["tp"] + c["fn"])
    fpr = c["fp"] / (c["fp"] + c["tn"])
    lo, hi = tpr[:-1], tpr[1:]
    heights = {"interpolation": (lo + hi) / 2, "minoring": np.minimum(lo, hi), "majoring": np.maximum(lo, hi)}[method]
    return float(np.sum((fpr[:-1] - fpr[1:]) * heights))


@clause("keras.metric.auc", ref="tf221")
def test_degen22b_metrics_auc_with_predictions_on_its_grid(keras, budget):
    """AUC(num_thresholds=5) (evenly spaced thresholds, Keras's bucketed update) and AUC with the
    same thresholds given as a list (the per-threshold update), predictions on the grid points 0, 0.25,
    ..., 1, unequal sample weights: the confusion variables and the ROC area by each summation method."""
    grid = [0.0 - EPS, 0.25, 0.5, 0.75, 1.0 + EPS]
    for w in budget([WEIGHT, None]):
        c = counts(grid, np.ones_like(WEIGHT, np.float64) if w is None else w.astype(np.float64))
        for method in ("interpolation", "minoring", "majoring"):
            for how, kwargs in (("num_thresholds=5", {"num_thresholds": 5}),
                                ("thresholds=[0.25, 0.5, 0.75]", {"thresholds": [0.25, 0.5, 0.75]})):
                m = keras.metrics.AUC(summation_method=method, **kwargs)
                m.update_state(Y_TRUE, Y_PRED, sample_weight=w)
                call = f"AUC({how}, summation_method={method!r}), predictions on the thresholds, weights={w is not None}"
                for var, key in (("true_positives", "tp"), ("false_positives", "fp"), ("true_negatives", "tn"),
                                 ("false_negatives", "fn")):
                    assert_close(_np(getattr(m, var)).astype(np.float64), c[key], call=call, what=var, tolerance=TOL)
                assert_close(float(_np(m.result())), _roc(c, method), call=call, what="result", tolerance=TOL)


@clause("keras.metric.iou", ref="tf221")
@clause("keras.metric.f-score", ref="tf221")
def test_degen22b_metrics_iou_and_f_score_thresholds_inclusive_and_strict(keras):
    """BinaryIoU(threshold=t) counts y_pred >= t as 1 (inclusive), FBetaScore(threshold=t) y_pred > t
    (strict): at predictions equal to t the two rules differ, each checked against its own. The IoU
    metrics' dtype is "int" (iou_metrics.py: `dtype or "int"`), so their sample weights are cast to int
    (truncated: 0.5 counts 0, 1.5 counts 1), which weights of ones would hide; a float weight array
    warns so ("You are passing weight as `float`, but dtype is `int`. ...")."""
    wint = WEIGHT.astype(np.int64)
    for t in (0.5, 0.25):
        pred = (Y_PRED >= t).astype(int)
        true = Y_TRUE.astype(int)
        ious = []
        for k in (0, 1):
            inter = np.sum(wint * ((pred == k) & (true == k)))
            union = np.sum(wint * (pred == k)) + np.sum(wint * (true == k)) - inter
            ious.append(inter / union)
        m = keras.metrics.BinaryIoU(threshold=t)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            m.update_state(Y_TRUE, Y_PRED, sample_weight=WEIGHT)
        said = [str(c.message) for c in caught if "weight as `float`, but dtype is `int`" in str(c.message)]
        assert_equal(len(said), 1, call=f"BinaryIoU(threshold={t}).update_state(..., float32 sample_weight)",
                     what="Keras's UserWarning 'You are passing weight as `float`, but dtype is `int`' (count)")
        assert_close(float(_np(m.result())), float(np.mean(ious)), call=f"BinaryIoU(threshold={t}) weighted",
                     tolerance=TOL)
        yt2 = np.stack([Y_TRUE, 1 - Y_TRUE], 1)
        yp2 = np.stack([Y_PRED, 1 - Y_PRED], 1)
        pos = yp2 > t
        tp = (pos & (yt2 > 0)).sum(0).astype(np.float64)
        fp = (pos & (yt2 == 0)).sum(0).astype(np.float64)
        fn = (~pos & (yt2 > 0)).sum(0).astype(np.float64)
        p, r = tp / (tp + fp), tp / (tp + fn)
        want = 2 * (p * r) / (p + r + EPS)
        f = keras.metrics.FBetaScore(threshold=t)
        f.update_state(yt2, yp2)
        assert_close(_np(f.result()).astype(np.float64), want, call=f"FBetaScore(threshold={t}) per class",
                     tolerance=TOL)
