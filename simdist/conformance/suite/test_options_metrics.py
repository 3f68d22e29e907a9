"""Metric options the suite never set before (benchmarks/suite_options.py, issue 29, second pass):
every metric's `dtype`, AUC's explicit thresholds, Accuracy's sample_weight, BinaryIoU's
target_class_ids, the IoU family's sparse_y_true/sparse_y_pred/axis/ignore_class, the X-at-Y
metrics' class_id, the crossentropy and correlation metrics' axis and from_logits, and the
`keras.metrics.*` functions' options (TF 2.21 + Keras 3.15).

Every expected value is a NumPy transcription of Keras 3.15's rule computed here, or a relation
that must hold (a float64 metric gives the float32 metric's value).
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_true
from simdist.conformance.tolerances import Tolerance
from simdist.conformance.suite.values import distinct_values as _x

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)
TOL64 = Tolerance(rtol=1e-10, atol=1e-12)
EPS = 1e-7


_P = (1 / (1 + np.exp(-_x((6, 3), 2.0).astype(np.float64))))            # probabilities in (0, 1)
_Y = np.array([[1, 0, 1], [0, 0, 1], [1, 1, 0], [0, 1, 1], [1, 0, 0], [0, 1, 0]], np.float64)
_LAB = np.array([2, 0, 1, 2, 1, 0])
_ONEHOT = np.eye(3)[_LAB]
_W = np.array([1.0, 0.5, 2.0, 0.0, 1.5, 1.0])


def _metric_table(k):
    """(name, make(**kw), y_true, y_pred, sample_weight) for every metric class."""
    M = k.metrics
    yreg = _x((6, 3), 1.5).astype(np.float64)
    return [
        ("AUC", lambda **o: M.AUC(num_thresholds=11, **o), _Y, _P, _W),
        ("Accuracy", lambda **o: M.Accuracy(**o), _LAB, np.array([2, 1, 1, 2, 0, 0]), _W),
        ("BinaryAccuracy", lambda **o: M.BinaryAccuracy(**o), _Y, _P, _W),
        ("BinaryCrossentropy", lambda **o: M.BinaryCrossentropy(**o), _Y, _P, _W),
        ("BinaryIoU", lambda **o: M.BinaryIoU(**o), _Y, _P, None),
        ("CategoricalAccuracy", lambda **o: M.CategoricalAccuracy(**o), _ONEHOT, _P, _W),
        ("CategoricalCrossentropy", lambda **o: M.CategoricalCrossentropy(**o), _ONEHOT, _P, _W),
        ("CategoricalHinge", lambda **o: M.CategoricalHinge(**o), _ONEHOT, _P, _W),
        ("ConcordanceCorrelation", lambda **o: M.ConcordanceCorrelation(**o), yreg, yreg[::-1] * 0.5 + 0.2, None),
        ("F1Score", lambda **o: M.F1Score(average="macro", threshold=0.5, **o), _Y, _P, None),
        ("FBetaScore", lambda **o: M.FBetaScore(average="micro", beta=2.0, threshold=0.5, **o), _Y, _P, None),
        ("FalseNegatives", lambda **o: M.FalseNegatives(**o), _Y, _P, _W[:, None]),
        ("FalsePositives", lambda **o: M.FalsePositives(**o), _Y, _P, _W[:, None]),
        ("Hinge", lambda **o: M.Hinge(**o), _Y, _P * 2 - 1, _W),
        ("IoU", lambda **o: M.IoU(3, [0, 2], **o), _LAB, np.array([2, 1, 1, 2, 0, 0]), _W),
        ("Mean", lambda **o: M.Mean(**o), None, yreg[:, 0], _W),
        ("MeanAbsoluteError", lambda **o: M.MeanAbsoluteError(**o), yreg, yreg[::-1], _W),
        ("MeanIoU", lambda **o: M.MeanIoU(3, **o), _LAB, np.array([2, 1, 1, 2, 0, 0]), _W),
        ("MeanSquaredError", lambda **o: M.MeanSquaredError(**o), yreg, yreg[::-1], _W),
        ("OneHotIoU", lambda **o: M.OneHotIoU(3, [1, 2], **o), _ONEHOT, _P, None),
        ("OneHotMeanIoU", lambda **o: M.OneHotMeanIoU(3, **o), _ONEHOT, _P, None),
        ("PearsonCorrelation", lambda **o: M.PearsonCorrelation(**o), yreg, yreg[::-1] * 0.5 + 0.2, None),
        ("Precision", lambda **o: M.Precision(**o), _Y, _P, _W[:, None]),
        ("PrecisionAtRecall", lambda **o: M.PrecisionAtRecall(0.5, num_thresholds=11, **o), _Y, _P, None),
        ("Recall", lambda **o: M.Recall(**o), _Y, _P, _W[:, None]),
        ("RecallAtPrecision", lambda **o: M.RecallAtPrecision(0.5, num_thresholds=11, **o), _Y, _P, None),
        ("RootMeanSquaredError", lambda **o: M.RootMeanSquaredError(**o), yreg, yreg[::-1], _W),
        ("SensitivityAtSpecificity", lambda **o: M.SensitivityAtSpecificity(0.5, num_thresholds=11, **o), _Y, _P,
         None),
        ("SparseCategoricalAccuracy", lambda **o: M.SparseCategoricalAccuracy(**o), _LAB, _P, _W),
        ("SparseCategoricalCrossentropy", lambda **o: M.SparseCategoricalCrossentropy(**o), _LAB, _P, _W),
        ("SparseTopKCategoricalAccuracy", lambda **o: M.SparseTopKCategoricalAccuracy(k=2, **o), _LAB, _P, _W),
        ("SpecificityAtSensitivity", lambda **o: M.SpecificityAtSensitivity(0.5, num_thresholds=11, **o), _Y, _P,
         None),
        ("SquaredHinge", lambda **o: M.SquaredHinge(**o), _Y, _P * 2 - 1, _W),
        ("Sum", lambda **o: M.Sum(**o), None, yreg[:, 0], _W),
        ("TopKCategoricalAccuracy", lambda **o: M.TopKCategoricalAccuracy(k=2, **o), _ONEHOT, _P, _W),
        ("TrueNegatives", lambda **o: M.TrueNegatives(**o), _Y, _P, _W[:, None]),
        ("TruePositives", lambda **o: M.TruePositives(**o), _Y, _P, _W[:, None]),
    ]


def _update(m, yt, yp, w):
    args = (yp,) if yt is None else (yt, yp)
    if w is None:
        m.update_state(*args)
    else:
        m.update_state(*args, sample_weight=w)


# Keras 3.15: the confusion-matrix metrics make their accumulators with dtype "float32" whatever
# the metric's dtype; the IoU family accumulates in the metric's dtype but its result divides
# float32 casts; the top-k accuracies hand float64 scores to in_top_k, which TF's kernel refuses.
_F32_STATE = frozenset({"AUC", "FalseNegatives", "FalsePositives", "TrueNegatives", "TruePositives", "Precision",
                        "Recall", "PrecisionAtRecall", "RecallAtPrecision", "SensitivityAtSpecificity",
                        "SpecificityAtSensitivity"})
_F32_RESULT = _F32_STATE | {"BinaryIoU", "IoU", "MeanIoU", "OneHotIoU", "OneHotMeanIoU"}
_REFUSED = frozenset({"SparseTopKCategoricalAccuracy", "TopKCategoricalAccuracy"})


@clause("keras.metric.option-coverage", ref="tf221")
def test_options_every_metric_takes_float64(tf, keras):
    """Metric(dtype='float64'): its variables and result are float64 (the confusion-matrix metrics
    keep float32 state and result, the IoU family a float32 result; the top-k accuracies raise
    InvalidArgumentError) and the result equals the float32 metric's on the same updates (two
    updates, the second half-weighted where the metric takes weights)."""
    for name, make, yt, yp, w in _metric_table(keras):
        if name in _REFUSED:
            m = make(dtype="float64")
            try:
                _update(m, yt, yp, w)
            except tf.errors.InvalidArgumentError:
                continue
            assert_true(False, f"{name}(dtype='float64').update_state ran, but TF 2.21's in_top_k refuses float64 "
                        "predictions (InvalidArgumentError)")
        results = {}
        for dtype in ("float32", "float64"):
            m = make(dtype=dtype)
            for scale in (1.0, 0.5):
                _update(m, yt, yp, None if w is None else w * scale)
            results[dtype] = m.result()
        got = results["float64"]
        want_var = "float32" if name in _F32_STATE else "float64"
        want_res = "float32" if name in _F32_RESULT else "float64"
        var_dtypes = sorted({str(v.dtype).replace("<dtype: '", "").rstrip("'>") for v in m.variables})
        assert_true(var_dtypes == [want_var], f"{name}(dtype='float64'): variables of dtypes {var_dtypes}, but "
                    f"should be [{want_var!r}]")
        assert_true(got.dtype.name == want_res, f"{name}(dtype='float64').result().dtype={got.dtype.name}, but "
                    f"should be {want_res}")
        assert_close(got, np.asarray(results["float32"], np.float64), call=f"{name}(dtype='float64') vs float32",
                     what="result()", tolerance=Tolerance(rtol=2e-5, atol=2e-6))


def _confusion(y, p, thresholds):
    """tp, fp, tn, fn per threshold (prediction > threshold), Keras's rule."""
    out = []
    for t in thresholds:
        pos = p > t
        out.append(((pos & (y == 1)).sum(), (pos & (y == 0)).sum(), (~pos & (y == 0)).sum(), (~pos & (y == 1)).sum()))
    return np.array(out, np.float64).T


def _keras_thresholds(n):
    return [0.0 - EPS] + [(i + 1) * 1.0 / (n - 1) for i in range(n - 2)] + [1.0 + EPS]


@clause("keras.metric.option-coverage", ref="tf221")
def test_options_threshold_class_and_target_options_of_metrics(tf, keras):
    """AUC(thresholds=[...]) uses 0 − ε, the given thresholds, 1 + ε (ROC by trapezoids);
    Accuracy.update_state(sample_weight) is the weighted mean; BinaryIoU(target_class_ids=[1])
    averages class 1's IoU only; PrecisionAtRecall/SpecificityAtSensitivity(class_id=1) read
    column 1 only (the best precision among thresholds whose recall ≥ 0.5; the best specificity
    among those whose sensitivity ≥ 0.5)."""
    M = keras.metrics
    y, p = _Y, _P
    given = [0.3, 0.45, 0.6, 0.8]
    m = M.AUC(thresholds=given)
    m.update_state(y, p)
    tp, fp, tn, fn = _confusion(y.ravel(), p.ravel(), [0.0 - EPS] + given + [1.0 + EPS])
    tpr, fpr = tp / (tp + fn), fp / (fp + tn)
    want = ((fpr[:-1] - fpr[1:]) * (tpr[:-1] + tpr[1:]) / 2).sum()
    assert_close(m.result(), want, call=f"AUC(thresholds={given})", what="result()", tolerance=TOL32)
    m = M.Accuracy()
    yp = np.array([2, 1, 1, 2, 0, 0])
    m.update_state(_LAB, yp, sample_weight=_W)
    assert_close(m.result(), (_W * (yp == _LAB)).sum() / _W.sum(), call="Accuracy().update_state(y, p, "
                 "sample_weight=w)", what="result()", tolerance=TOL32)
    for ids in ([1], [0]):
        m = M.BinaryIoU(target_class_ids=ids, threshold=0.5)
        m.update_state(y, p)
        yb, pb = y.ravel() == 1, p.ravel() > 0.5       # BinaryIoU: class 1 where prediction >= threshold
        pb = p.ravel() >= 0.5
        cls = ids[0] == 1
        inter = ((yb == cls) & (pb == cls)).sum()
        union = ((yb == cls) | (pb == cls)).sum()
        assert_close(m.result(), inter / union, call=f"BinaryIoU(target_class_ids={ids})", what="result()",
                     tolerance=TOL32)
    th = _keras_thresholds(11)
    tp, fp, tn, fn = _confusion(y[:, 1], p[:, 1], th)
    m = M.PrecisionAtRecall(0.5, num_thresholds=11, class_id=1)
    m.update_state(y, p)
    rec = tp / (tp + fn)
    prec = np.divide(tp, tp + fp, out=np.zeros_like(tp), where=(tp + fp) > 0)
    assert_close(m.result(), prec[rec >= 0.5].max(), call="PrecisionAtRecall(0.5, num_thresholds=11, class_id=1)",
                 what="result()", tolerance=TOL32)
    m = M.SpecificityAtSensitivity(0.5, num_thresholds=11, class_id=1)
    m.update_state(y, p)
    spec = tn / (tn + fp)
    assert_close(m.result(), spec[rec >= 0.5].max(), call="SpecificityAtSensitivity(0.5, num_thresholds=11, "
                 "class_id=1)", what="result()", tolerance=TOL32)


def _iou(t, pr, num, ids, w=None):
    w = np.ones(len(t)) if w is None else w
    cm = np.zeros((num, num))
    for a, b, ww in zip(t, pr, w):
        cm[a, b] += ww
    inter = np.diag(cm)
    union = cm.sum(0) + cm.sum(1) - inter
    vals = [inter[i] / union[i] for i in ids if union[i] > 0]
    return sum(vals) / len(vals)


@clause("keras.metric.option-coverage", ref="tf221")
def test_options_iou_family_sparsity_axis_and_ignore_class(tf, keras):
    """IoU/MeanIoU(sparse_y_true=False, sparse_y_pred=False, axis=0) take the argmax of one-hot
    labels and probabilities along axis 0; OneHotIoU/OneHotMeanIoU(sparse_y_pred=True) take class
    ids as predictions, axis=0 reads classes along axis 0, ignore_class drops the samples of that
    true class."""
    M = keras.metrics
    t, pr = _LAB, _P.argmax(-1)
    for name, make, ids in (("IoU", lambda **o: M.IoU(3, [0, 2], **o), [0, 2]),
                            ("MeanIoU", lambda **o: M.MeanIoU(3, **o), [0, 1, 2])):
        m = make(sparse_y_true=False, sparse_y_pred=False, axis=0)
        m.update_state(_ONEHOT.T, _P.T)
        assert_close(m.result(), _iou(t, pr, 3, ids), call=f"{name}(sparse_y_true=False, sparse_y_pred=False, "
                     "axis=0)(onehot.T, probs.T)", what="result()", tolerance=TOL32)
    for name, make, ids in (("OneHotIoU", lambda **o: M.OneHotIoU(3, [1, 2], **o), [1, 2]),
                            ("OneHotMeanIoU", lambda **o: M.OneHotMeanIoU(3, **o), [0, 1, 2])):
        m = make(sparse_y_pred=True)
        m.update_state(_ONEHOT, pr)
        assert_close(m.result(), _iou(t, pr, 3, ids), call=f"{name}(sparse_y_pred=True)", what="result()",
                     tolerance=TOL32)
        m = make(axis=0)
        m.update_state(_ONEHOT.T, _P.T)
        assert_close(m.result(), _iou(t, pr, 3, ids), call=f"{name}(axis=0)(onehot.T, probs.T)", what="result()",
                     tolerance=TOL32)
        m = make(ignore_class=0, axis=-1)
        m.update_state(_ONEHOT, _P)
        keep = t != 0
        assert_close(m.result(), _iou(t[keep], pr[keep], 3, ids), call=f"{name}(ignore_class=0)", what="result()",
                     tolerance=TOL32)


def _log_softmax(z, axis=-1):
    m = z.max(axis=axis, keepdims=True)
    return z - m - np.log(np.exp(z - m).sum(axis=axis, keepdims=True))


def _pearson(a, b, axis):
    an, bn = a - a.mean(axis, keepdims=True), b - b.mean(axis, keepdims=True)
    return (an / an.std(axis, keepdims=True) * bn / bn.std(axis, keepdims=True)).mean(axis)


def _concordance(t, p, axis):
    tm, pm = t.mean(axis, keepdims=True), p.mean(axis, keepdims=True)
    tv, pv = (t - tm).var(axis, keepdims=True), (p - pm).var(axis, keepdims=True)
    covar = (t - pm) * (p - pm)                       # Keras 3.15: y_true minus y_pred's mean
    return (2 * covar / (tv + pv + (tm - pm) ** 2 + EPS)).mean(axis)


def _bce(y, p):
    p = np.clip(p, EPS, 1 - EPS)
    return -(y * np.log(p) + (1 - y) * np.log(1 - p))


@clause("keras.metric.option-coverage", ref="tf221")
def test_options_metric_functions_and_axis_options(tf, keras):
    """keras.metrics functions with their options — binary_accuracy(threshold) (per entry: Keras
    3.15 does not average the last axis), binary/categorical
    crossentropy(from_logits, label_smoothing, axis), sparse_categorical_crossentropy(from_logits,
    ignore_class), top_k/sparse_top_k(k, from_sorted_ids), pearson/concordance_correlation(axis) —
    and the metric classes CategoricalCrossentropy(from_logits, axis), Pearson/ConcordanceCorrelation
    (axis) (the mean of the function's values); SparseCategoricalCrossentropy(axis=0) and the
    function with axis=0 are refused (ValueError) as the loss is; BinaryCrossentropy(dtype='float64')
    computes in float64."""
    M = keras.metrics
    z = _x((6, 3), 2.0).astype(np.float64)
    p, y = _P, _Y
    assert_close(M.binary_accuracy(y, p, threshold=0.7), ((p > 0.7) == y).astype(float),
                 call="binary_accuracy(threshold=0.7)", tolerance=TOL32)
    for s in (0.0, 0.2):
        ys = y * (1 - s) + 0.5 * s
        bce = np.maximum(z, 0) - z * ys + np.log1p(np.exp(-np.abs(z)))
        assert_close(M.binary_crossentropy(y, z, from_logits=True, label_smoothing=s, axis=0), bce.mean(0),
                     call=f"binary_crossentropy(from_logits=True, label_smoothing={s}, axis=0)", tolerance=TOL32)
        oh = _ONEHOT.T * (1 - s) + s / 6
        assert_close(M.categorical_crossentropy(_ONEHOT.T, z.T, from_logits=True, label_smoothing=s, axis=0),
                     -(oh * _log_softmax(z.T, 0)).sum(0),
                     call=f"categorical_crossentropy(from_logits=True, label_smoothing={s}, axis=0)", tolerance=TOL32)
    ce = -_log_softmax(z)[np.arange(6), _LAB]
    assert_close(M.sparse_categorical_crossentropy(_LAB, z, from_logits=True, ignore_class=1, axis=-1),
                 np.where(_LAB == 1, 0.0, ce), call="sparse_categorical_crossentropy(from_logits=True, ignore_class=1)",
                 tolerance=TOL32)
    p32 = p.astype(np.float32)                    # in_top_k takes float32 scores only
    assert_close(M.top_k_categorical_accuracy(_ONEHOT, p32, k=1), (p.argmax(-1) == _LAB).astype(float),
                 call="top_k_categorical_accuracy(k=1)", tolerance=TOL32)
    order = np.argsort(-p, axis=-1, kind="stable")
    for k in (1, 2):
        want = np.array([_LAB[i] in order[i, :k] for i in range(6)], float)
        assert_close(M.sparse_top_k_categorical_accuracy(_LAB, p32, k=k), want,
                     call=f"sparse_top_k_categorical_accuracy(k={k})", tolerance=TOL32)
        assert_close(M.sparse_top_k_categorical_accuracy(_LAB, order.astype(np.int32), k=k, from_sorted_ids=True),
                     want, call=f"sparse_top_k_categorical_accuracy(k={k}, from_sorted_ids=True)", tolerance=TOL32)
    a = _x((6, 3), 1.5).astype(np.float64)
    b = a[::-1] * 0.5 + 0.2 + _x((6, 3), 0.3)
    for axis in (0, -1):
        assert_close(M.pearson_correlation(a, b, axis=axis), _pearson(a, b, axis),
                     call=f"pearson_correlation(axis={axis})", tolerance=Tolerance(rtol=1e-4, atol=1e-5))
        assert_close(M.concordance_correlation(a, b, axis=axis), _concordance(a, b, axis),
                     call=f"concordance_correlation(axis={axis})", tolerance=Tolerance(rtol=1e-4, atol=1e-5))
        for name, fn in (("PearsonCorrelation", _pearson), ("ConcordanceCorrelation", _concordance)):
            m = getattr(M, name)(axis=axis)
            m.update_state(a, b)
            assert_close(m.result(), fn(a, b, axis).mean(), call=f"{name}(axis={axis})", what="result()",
                         tolerance=Tolerance(rtol=1e-4, atol=1e-5))
    m = M.CategoricalCrossentropy(from_logits=True, axis=0)
    m.update_state(_ONEHOT.T, z.T)
    assert_close(m.result(), -(_ONEHOT.T * _log_softmax(z.T, 0)).sum(0).mean(),
                 call="CategoricalCrossentropy(from_logits=True, axis=0)", what="result()", tolerance=TOL32)
    m = M.SparseCategoricalCrossentropy(from_logits=True, axis=0)
    for what, fn in (("SparseCategoricalCrossentropy(axis=0).update_state", lambda: m.update_state(_LAB[None], z.T)),
                     ("keras.metrics.sparse_categorical_crossentropy(axis=0)",
                      lambda: M.sparse_categorical_crossentropy(_LAB[None], z.T, from_logits=True, axis=0))):
        try:
            fn()
        except ValueError:
            pass
        else:
            assert_true(False, f"{what} ran, but TF 2.21 raises ValueError ('Only axis=-1 is currently supported')")
    loss = keras.losses.BinaryCrossentropy(from_logits=True, dtype="float64")(y, z)
    assert_true(loss.dtype == tf.float64, f"BinaryCrossentropy(dtype='float64')(...).dtype={loss.dtype}")
    assert_close(loss, (np.maximum(z, 0) - z * y + np.log1p(np.exp(-np.abs(z)))).mean(),
                 call="BinaryCrossentropy(from_logits=True, dtype='float64')", what="loss", tolerance=TOL64)
