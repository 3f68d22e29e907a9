"""Every tf.keras metric: update_state over two batches (with and without sample_weight, with its
thresholds/top_k/class_id/k options), result, reset_state, and the merge of updates made on two
replicas — clause keras.metric.option-coverage (TF 2.21 + Keras 3.15).

References in NumPy (float64), transcribed from keras-team/keras v3.15:
keras/src/metrics/reduction_metrics.py (`Sum`, `Mean`, `MeanMetricWrapper`: total += sum(v * w),
count += sum(w), the weight broadcast to the values and the values averaged per sample),
accuracy_metrics.py (`binary_accuracy`: y_pred > threshold; argmax comparisons; `in_top_k`),
regression_metrics.py (RootMeanSquaredError: the Mean of squared errors, then sqrt),
hinge_metrics.py (labels 0/1 mapped to -1/1), probabilistic_metrics.py (the losses' functions),
metrics_utils.py `update_confusion_matrix_variables` (y_pred > threshold strictly; top_k keeps the
k largest predictions; class_id one column; the weight of a sample counts for each of its labels)
and confusion_metrics.py / precision_recall.py (tp/(tp+fp), tp/(tp+fn), 0 where undefined).
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close
from simdist.conformance.repro import Program

clause = pytest.mark.clause

EPS = 1e-7
_rng = np.random.default_rng(2911)


def _f(shape, lo=0.0, hi=1.0):
    return _rng.uniform(lo, hi, size=shape).astype(np.float32)


B = 4   # samples per batch; two batches
BIN_T = [(_rng.uniform(size=(B, 3)) > 0.5).astype(np.float32) for _ in range(2)]
BIN_P = [_f((B, 3), 0.02, 0.98) for _ in range(2)]
CAT_Y = [np.array([0, 2, 1, 3]), np.array([3, 3, 0, 1])]
CAT_T = [np.eye(4, dtype=np.float32)[y] for y in CAT_Y]
CAT_P = [_f((B, 4), 0.05, 1.0) for _ in range(2)]
REG_T = [_f((B, 2), -2, 2) for _ in range(2)]
REG_P = [_f((B, 2), -2, 2) for _ in range(2)]
SIGN_P = [_f((B, 3), -2, 2) for _ in range(2)]
CAT_HINGE_P = [_f((B, 4), -2, 2) for _ in range(2)]
# probabilities that hit 0 and 1 exactly: where the first and last thresholds sit matters
BIN_P_EDGE = [p.copy() for p in BIN_P]
BIN_P_EDGE[0][0, 0] = BIN_P_EDGE[0][2, 1] = BIN_P_EDGE[1][3, 2] = 0.0
BIN_P_EDGE[0][1, 2] = BIN_P_EDGE[1][0, 1] = 1.0
W = [np.array([1.0, 0.0, 2.0, 0.5], np.float32), np.array([0.25, 1.5, 1.0, 3.0], np.float32)]


def _xent_b(t, p, from_logits=False, ls=0.0):
    t = t * (1 - ls) + 0.5 * ls
    if from_logits:
        return np.mean(np.maximum(p, 0) - p * t + np.log1p(np.exp(-np.abs(p))), axis=-1)
    p = np.clip(p, EPS, 1 - EPS)
    return np.mean(-(t * np.log(p) + (1 - t) * np.log(1 - p)), axis=-1)


def _xent_c(t, p, ls=0.0):
    t = t * (1 - ls) + ls / t.shape[-1]
    p = np.clip(p / p.sum(-1, keepdims=True), EPS, 1 - EPS)
    return -np.sum(t * np.log(p), axis=-1)


def _in_top_k(y, p, k):
    return np.array([float(np.sum(row > row[int(t)]) < k) for t, row in zip(y, p)])


def _hinge_t(t):
    return np.where(t == 1, 1.0, -1.0) if np.all((t == 0) | (t == 1)) else t


# per-sample functions of MeanMetricWrapper metrics: (class, kwargs, inputs (y_true, y_pred), fn)
WRAPPED = [
    ("BinaryAccuracy", {}, (BIN_T, BIN_P), lambda t, p: np.mean((p > 0.5) == t, -1)),
    ("BinaryAccuracy", {"threshold": 0.3}, (BIN_T, BIN_P), lambda t, p: np.mean((p > 0.3) == t, -1)),
    ("CategoricalAccuracy", {}, (CAT_T, CAT_P), lambda t, p: (np.argmax(t, -1) == np.argmax(p, -1)) * 1.0),
    ("SparseCategoricalAccuracy", {}, (CAT_Y, CAT_P), lambda y, p: (y == np.argmax(p, -1)) * 1.0),
    ("TopKCategoricalAccuracy", {"k": 2}, (CAT_T, CAT_P), lambda t, p: _in_top_k(np.argmax(t, -1), p, 2)),
    ("SparseTopKCategoricalAccuracy", {"k": 2}, (CAT_Y, CAT_P), lambda y, p: _in_top_k(y, p, 2)),
    ("SparseTopKCategoricalAccuracy", {"k": 3}, (CAT_Y, CAT_P), lambda y, p: _in_top_k(y, p, 3)),
    ("MeanSquaredError", {}, (REG_T, REG_P), lambda t, p: np.mean((t - p) ** 2, -1)),
    ("MeanAbsoluteError", {}, (REG_T, REG_P), lambda t, p: np.mean(np.abs(t - p), -1)),
    ("Hinge", {}, (BIN_T, SIGN_P), lambda t, p: np.mean(np.maximum(1 - _hinge_t(t) * p, 0), -1)),
    ("SquaredHinge", {}, (BIN_T, SIGN_P), lambda t, p: np.mean(np.maximum(1 - _hinge_t(t) * p, 0) ** 2, -1)),
    ("CategoricalHinge", {}, (CAT_T, CAT_HINGE_P),
     lambda t, p: np.maximum(np.max((1 - t) * p, -1) - np.sum(t * p, -1) + 1, 0)),
    ("BinaryCrossentropy", {}, (BIN_T, BIN_P), _xent_b),
    ("BinaryCrossentropy", {"from_logits": True}, (BIN_T, SIGN_P), lambda t, p: _xent_b(t, p, True)),
    ("BinaryCrossentropy", {"label_smoothing": 0.2}, (BIN_T, BIN_P), lambda t, p: _xent_b(t, p, False, 0.2)),
    ("CategoricalCrossentropy", {}, (CAT_T, CAT_P), _xent_c),
    ("CategoricalCrossentropy", {"label_smoothing": 0.1}, (CAT_T, CAT_P), lambda t, p: _xent_c(t, p, 0.1)),
    ("SparseCategoricalCrossentropy", {}, (CAT_Y, CAT_P), lambda y, p: _xent_c(np.eye(4)[y.astype(int)], p)),
]


def wrapped_reference(fn, ts, ps, ws):
    vals = np.concatenate([fn(np.asarray(t, np.float64), np.asarray(p, np.float64)) for t, p in zip(ts, ps)])
    w = np.ones_like(vals) if ws is None else np.concatenate(ws).astype(np.float64)
    return float(np.sum(vals * w) / np.sum(w))


UPDATES = """
m = getattr(tf.keras.metrics, cls)(**kw)
initial = m.result().numpy()
results = []
for i in range(2):
    if ws is None:
        m.update_state(ts[i], ps[i])
    else:
        m.update_state(ts[i], ps[i], sample_weight=ws[i])
    results.append(m.result().numpy())
m.reset_state()
after_reset = m.result().numpy()
"""


def _ids(table):
    return [f"{c}-{'-'.join(f'{k}={v}' for k, v in kw.items()) or 'defaults'}" for c, kw, *_ in table]


@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("cls,kw,data,fn", WRAPPED, ids=_ids(WRAPPED))
def test_mean_wrapped_metric(backend, cls, kw, data, fn, weighted):
    ts, ps = data
    ws = W if weighted else None
    ns = Program(backend, UPDATES, cls=cls, kw=kw, ts=list(ts), ps=list(ps), ws=ws).run()
    call = f"tf.keras.metrics.{cls}({kw}).update_state(y_true, y_pred{', sample_weight' if weighted else ''})"
    assert_close(ns["initial"], 0.0, call=call, what="result() before any update")
    for k in (1, 2):
        want = wrapped_reference(fn, ts[:k], ps[:k], None if ws is None else ws[:k])
        assert_close(ns["results"][k - 1], want, call=call, what=f"result() after {k} update_state calls")
    assert_close(ns["after_reset"], 0.0, call=call, what="result() after reset_state()")


VALUES = [np.array([1.5, -2.0, 0.25, 4.0], np.float32), np.array([[0.5, 1.0], [-1.0, 2.0], [3.0, 0.0], [1.0, 1.0]],
                                                                  np.float32)]


@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("cls", ["Mean", "Sum", "RootMeanSquaredError"])
def test_reduction_metrics(backend, cls, weighted):
    """Mean/Sum of values of shape (4,) then (4, 2) (averaged per sample for Mean, summed for
    Sum), RootMeanSquaredError of (y_true, y_pred)."""
    ws = W if weighted else None
    if cls == "RootMeanSquaredError":
        ts, ps = REG_T, REG_P
        src = UPDATES
    else:
        ts, ps = VALUES, VALUES
        src = UPDATES.replace("m.update_state(ts[i], ps[i])", "m.update_state(ps[i])").replace(
            "m.update_state(ts[i], ps[i], sample_weight=ws[i])", "m.update_state(ps[i], sample_weight=ws[i])")
    ns = Program(backend, src, cls=cls, kw={}, ts=list(ts), ps=list(ps), ws=ws).run()
    call = f"tf.keras.metrics.{cls}().update_state(...{', sample_weight' if weighted else ''})"
    for k in (1, 2):
        w = [np.ones(B) if ws is None else ws[i].astype(np.float64) for i in range(k)]
        if cls == "Sum":
            want = sum(float(np.sum(np.asarray(v, np.float64).reshape(B, -1) * wi[:, None])) for v, wi in zip(VALUES, w))
        elif cls == "Mean":
            per = [np.asarray(v, np.float64).reshape(B, -1).mean(-1) for v in VALUES[:k]]
            want = float(sum(np.sum(p * wi) for p, wi in zip(per, w)) / sum(np.sum(wi) for wi in w))
        else:
            per = [np.mean((REG_T[i].astype(np.float64) - REG_P[i]) ** 2, -1) for i in range(k)]
            want = float(np.sqrt(sum(np.sum(p * wi) for p, wi in zip(per, w)) / sum(np.sum(wi) for wi in w)))
        assert_close(ns["results"][k - 1], want, call=call, what=f"result() after {k} update_state calls")
    assert_close(ns["after_reset"], 0.0, call=call, what="result() after reset_state()")


def confusion(ts, ps, ws, thresholds, top_k=None, class_id=None):
    """(tp, fp, tn, fn) per threshold, summed over the batches."""
    out = np.zeros((4, len(thresholds)))
    for i, (t, p) in enumerate(zip(ts, ps)):
        t = np.asarray(t, np.float64)
        p = np.asarray(p, np.float64).copy()
        w = np.ones(len(t)) if ws is None else ws[i].astype(np.float64)
        w = np.broadcast_to(w[:, None], t.shape)
        if top_k is not None:
            kth = -np.sort(-p, axis=-1)[:, top_k - 1:top_k]
            p = np.where(p >= kth, p, -np.inf)
        if class_id is not None:
            t, p, w = t[:, class_id], p[:, class_id], w[:, class_id]
        for j, thr in enumerate(thresholds):
            pred = p > thr
            pos = t == 1
            out[:, j] += [np.sum(w * (pred & pos)), np.sum(w * (pred & ~pos)), np.sum(w * (~pred & ~pos)),
                          np.sum(w * (~pred & pos))]
    return out


def _div(a, b):
    return np.where(b > 0, a / np.where(b > 0, b, 1), 0.0)


CONF = [("Precision", {}), ("Precision", {"thresholds": [0.3, 0.6]}), ("Precision", {"top_k": 1}),
        ("Precision", {"class_id": 1}), ("Precision", {"class_id": 2, "thresholds": 0.2}),
        ("Recall", {}), ("Recall", {"thresholds": [0.3, 0.6]}), ("Recall", {"top_k": 2}),
        ("Recall", {"class_id": 0}),
        ("TruePositives", {}), ("FalsePositives", {"thresholds": [0.25, 0.75]}),
        ("TrueNegatives", {"thresholds": 0.4}), ("FalseNegatives", {"thresholds": [0.1, 0.5, 0.9]})]


def confusion_result(cls, kw, ts, ps, ws):
    thr = kw.get("thresholds", 0.5)
    thr = list(thr) if isinstance(thr, list) else [thr]
    if "top_k" in kw and "thresholds" not in kw:
        thr = [-np.inf]          # Keras's default threshold with top_k: NEG_INF
    tp, fp, tn, fn = confusion(ts, ps, ws, thr, kw.get("top_k"), kw.get("class_id"))
    res = {"Precision": _div(tp, tp + fp), "Recall": _div(tp, tp + fn), "TruePositives": tp,
           "FalsePositives": fp, "TrueNegatives": tn, "FalseNegatives": fn}[cls]
    return res[0] if not isinstance(kw.get("thresholds"), list) else res


@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("cls,kw", CONF, ids=_ids(CONF))
def test_confusion_metric(backend, cls, kw, weighted):
    ws = W if weighted else None
    ns = Program(backend, UPDATES, cls=cls, kw=kw, ts=list(BIN_T), ps=list(BIN_P), ws=ws).run()
    call = f"tf.keras.metrics.{cls}({kw}).update_state(y_true, y_pred{', sample_weight' if weighted else ''})"
    for k in (1, 2):
        want = confusion_result(cls, kw, BIN_T[:k], BIN_P[:k], None if ws is None else ws[:k])
        assert_close(ns["results"][k - 1], want, call=call, what=f"result() after {k} update_state calls")
    assert_close(ns["after_reset"], np.zeros_like(np.asarray(ns["after_reset"], np.float64)), call=call,
                 what="result() after reset_state()")


MERGED = [("Mean", {}), ("Sum", {}), ("SparseCategoricalAccuracy", {}), ("BinaryAccuracy", {"threshold": 0.3}),
          ("MeanSquaredError", {}), ("RootMeanSquaredError", {}), ("Precision", {"thresholds": [0.3, 0.6]}),
          ("Recall", {}), ("TruePositives", {}), ("CategoricalCrossentropy", {})]


@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("cls,kw", MERGED, ids=_ids(MERGED))
def test_metric_updated_on_two_replicas_merges(backend, cls, kw):
    """A metric made in MirroredStrategy(2)'s scope, updated inside strategy.run with each replica's
    half of a weighted batch: result() in cross-replica context is the whole batch's result."""
    data = {"Mean": (VALUES[0], VALUES[0]), "Sum": (VALUES[0], VALUES[0]), "SparseCategoricalAccuracy": (CAT_Y[0], CAT_P[0]),
            "BinaryAccuracy": (BIN_T[0], BIN_P[0]), "MeanSquaredError": (REG_T[0], REG_P[0]),
            "RootMeanSquaredError": (REG_T[0], REG_P[0]), "Precision": (BIN_T[0], BIN_P[0]),
            "Recall": (BIN_T[0], BIN_P[0]), "TruePositives": (BIN_T[0], BIN_P[0]),
            "CategoricalCrossentropy": (CAT_T[0], CAT_P[0])}[cls]
    t, p = (np.asarray(a) for a in data)
    unary = cls in ("Mean", "Sum")
    ns = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    m = getattr(tf.keras.metrics, cls)(**kw)
def step(t, p, w):
    if unary:
        m.update_state(p, sample_weight=w)
    else:
        m.update_state(t, p, sample_weight=w)
    return tf.constant(0.0)
parts = lambda a: strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.constant(a[2 * ctx.replica_id_in_sync_group:2 * ctx.replica_id_in_sync_group + 2]))
strategy.run(step, args=(parts(t), parts(p), parts(w)))
merged = m.result().numpy()
""", cls=cls, kw=kw, t=t, p=p, w=W[0], unary=unary).run()
    call = f"MirroredStrategy(2): tf.keras.metrics.{cls}({kw}) updated in strategy.run with half a batch per replica"
    if cls in dict(CONF) or cls in ("Precision", "Recall", "TruePositives"):
        want = confusion_result(cls, kw, [t], [p], [W[0]])
    elif cls == "Sum":
        want = float(np.sum(t.astype(np.float64) * W[0]))
    elif cls == "Mean":
        want = float(np.sum(t.astype(np.float64) * W[0]) / np.sum(W[0]))
    elif cls == "RootMeanSquaredError":
        want = float(np.sqrt(wrapped_reference(lambda a, b: np.mean((a - b) ** 2, -1), [t], [p], [W[0]])))
    else:
        fn = [f for c, k, _, f in WRAPPED if c == cls and k == kw][0]
        want = wrapped_reference(fn, [t], [p], [W[0]])
    assert_close(ns["merged"], want, call=call, what="result() in cross-replica context")


# -- correlation metrics (correlation_metrics.py: per sample along axis -1, then mean-wrapped) -----------
def _pearson(t, p):
    tn, pn = t - t.mean(-1, keepdims=True), p - p.mean(-1, keepdims=True)
    tn, pn = tn / tn.std(-1, keepdims=True), pn / pn.std(-1, keepdims=True)
    return np.mean(tn * pn, -1)


def _concordance(t, p):
    """Keras 3.15's formula as written, covariance term (y_true - mean(y_pred)) included."""
    tm, pm = t.mean(-1, keepdims=True), p.mean(-1, keepdims=True)
    tv, pv = (t - tm).var(-1, keepdims=True), (p - pm).var(-1, keepdims=True)
    covar = (t - pm) * (p - pm)
    return np.mean(2 * covar / (tv + pv + (tm - pm) ** 2 + EPS), -1)


CORR_T = [_f((B, 5), -2, 2) for _ in range(2)]
CORR_P = [_f((B, 5), -2, 2) for _ in range(2)]
CORR = [("PearsonCorrelation", {}, (CORR_T, CORR_P), _pearson),
        ("ConcordanceCorrelation", {}, (CORR_T, CORR_P), _concordance)]


@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("cls,kw,data,fn", CORR, ids=_ids(CORR))
def test_correlation_metric(backend, cls, kw, data, fn, weighted):
    test_mean_wrapped_metric(backend, cls, kw, data, fn, weighted)


# -- F-scores (f_score_metrics.py) ---------------------------------------------------------------------------
def fbeta(ts, ps, ws, beta=1.0, average=None, threshold=None):
    tp = fp = fn = iw = 0.0
    for i, (t, p) in enumerate(zip(ts, ps)):
        t = np.asarray(t, np.float64)
        p = np.asarray(p, np.float64)
        if threshold is None:
            pred = ((p >= p.max(-1, keepdims=True)) & (np.abs(p) > 1e-9)).astype(np.float64)
        else:
            pred = (p > threshold).astype(np.float64)
        w = np.ones((len(t), 1)) if ws is None else ws[i].astype(np.float64)[:, None]
        axis = None if average == "micro" else 0
        tp = tp + np.sum(pred * t * w, axis=axis)
        fp = fp + np.sum(pred * (1 - t) * w, axis=axis)
        fn = fn + np.sum((1 - pred) * t * w, axis=axis)
        iw = iw + np.sum(t * w, axis=axis)
    precision = tp / (tp + fp + EPS)
    recall = tp / (tp + fn + EPS)
    f = precision * recall / (beta ** 2 * precision + recall + EPS) * (1 + beta ** 2)
    if average == "weighted":
        return np.sum(f * iw / (np.sum(iw) + EPS))
    if average is not None:
        return np.mean(f)
    return f


FSCORES = [("F1Score", {}), ("F1Score", {"average": "micro"}), ("F1Score", {"average": "macro", "threshold": 0.4}),
           ("F1Score", {"average": "weighted", "threshold": 0.5}),
           ("FBetaScore", {"beta": 2.0, "threshold": 0.3}), ("FBetaScore", {"beta": 0.5, "average": "macro"})]


@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("cls,kw", FSCORES, ids=_ids(FSCORES))
def test_f_score_metric(backend, cls, kw, weighted):
    """F1Score/FBetaScore on multi-label targets: threshold None keeps each row's maximum, else
    predictions strictly above it; average None (per class), micro, macro, weighted."""
    ws = W if weighted else None
    ns = Program(backend, UPDATES.replace("initial = m.result().numpy()\n", ""), cls=cls, kw=kw,
                 ts=list(BIN_T), ps=list(BIN_P), ws=ws).run()
    call = f"tf.keras.metrics.{cls}({kw}).update_state(y_true, y_pred{', sample_weight' if weighted else ''})"
    for k in (1, 2):
        want = fbeta(BIN_T[:k], BIN_P[:k], None if ws is None else ws[:k], kw.get("beta", 1.0), kw.get("average"),
                     kw.get("threshold"))
        assert_close(ns["results"][k - 1], want, call=call, what=f"result() after {k} update_state calls")
    assert_close(ns["after_reset"], np.zeros(np.shape(ns["after_reset"])), call=call, what="result() after reset_state()")


# -- IoU family (iou_metrics.py) -------------------------------------------------------------------------------
def iou(ts, ps, ws, num_classes, target_ids, ignore_class=None):
    cm = np.zeros((num_classes, num_classes))
    for i, (t, p) in enumerate(zip(ts, ps)):
        t = np.asarray(t).reshape(-1).astype(int)
        p = np.asarray(p).reshape(-1).astype(int)
        # the IoU metrics' dtype defaults to "int32": float weights are truncated (Keras warns)
        w = np.ones(len(t)) if ws is None else np.broadcast_to(np.trunc(ws[i].astype(np.float64)).reshape(-1), t.shape)
        for a, b, wi in zip(t, p, w):
            if 0 <= a < num_classes and 0 <= b < num_classes and a != ignore_class:
                cm[a, b] += wi
    tp = np.diag(cm)
    denom = cm.sum(0) + cm.sum(1) - tp
    tp, denom = tp[list(target_ids)], denom[list(target_ids)]
    valid = denom > 1e-9
    vals = np.where(valid, tp / (denom + EPS), 0.0)
    return float(np.sum(vals) / (np.sum(valid) + EPS))


SEG_T = [np.array([0, 1, 2, 2]), np.array([1, 1, 0, 2])]
SEG_P = [np.array([0, 2, 2, 1]), np.array([1, 0, 0, 2])]
IOUS = [("IoU", {"num_classes": 3, "target_class_ids": [0, 2]}), ("MeanIoU", {"num_classes": 3}),
        ("MeanIoU", {"num_classes": 3, "ignore_class": 1}), ("BinaryIoU", {"target_class_ids": [0, 1], "threshold": 0.4}),
        ("OneHotIoU", {"num_classes": 3, "target_class_ids": [1]}), ("OneHotMeanIoU", {"num_classes": 3})]


@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("cls,kw", IOUS, ids=_ids(IOUS))
def test_iou_metric(backend, cls, kw, weighted):
    """The confusion matrix (rows: true classes) accumulated with weights (truncated to integers: the
    metrics' default dtype is int32); IoU = tp / (tp + fp + fn) over the target classes whose
    denominator is positive (ignore_class: those entries weigh 0)."""
    ws = W if weighted else None
    if cls == "BinaryIoU":
        ts, ps = [t[:, 0] for t in BIN_T], [p[:, 0] for p in BIN_P]
        ref_ps = [(p >= kw["threshold"]).astype(int) for p in ps]
    elif cls.startswith("OneHot"):
        ts, ps = [np.eye(3, dtype=np.float32)[t] for t in SEG_T], [CAT_P[i][:, :3] for i in range(2)]
        ref_ps = [np.argmax(p, -1) for p in ps]
    else:
        ts, ps = SEG_T, SEG_P
        ref_ps = ps
    ref_ts = [np.argmax(t, -1) for t in ts] if cls.startswith("OneHot") else [np.asarray(t).astype(int) for t in ts]
    n = kw.get("num_classes", 2)
    targets = kw.get("target_class_ids", range(n))
    ns = Program(backend, UPDATES, cls=cls, kw=kw, ts=list(ts), ps=list(ps), ws=ws).run()
    call = f"tf.keras.metrics.{cls}({kw}).update_state(y_true, y_pred{', sample_weight' if weighted else ''})"
    for k in (1, 2):
        want = iou(ref_ts[:k], ref_ps[:k], None if ws is None else ws[:k], n, targets, kw.get("ignore_class"))
        assert_close(ns["results"][k - 1], want, call=call, what=f"result() after {k} update_state calls")
    assert_close(ns["after_reset"], 0.0, call=call, what="result() after reset_state()")


# -- AUC (confusion_metrics.py AUC: thresholds, result, interpolate_pr_auc) ------------------------------------
def auc(ts, ps, ws, num_thresholds=200, curve="ROC", summation_method="interpolation", multi_label=False,
        label_weights=None, from_logits=False):
    n = num_thresholds
    thr = np.array([0.0 - EPS] + [(i + 1) / (n - 1) for i in range(n - 2)] + [1.0 + EPS])
    tp = np.zeros((n, 3))
    fp, tn, fn = tp.copy(), tp.copy(), tp.copy()
    for i, (t, p) in enumerate(zip(ts, ps)):
        t = np.asarray(t, np.float64)
        p = np.asarray(p, np.float64)
        if from_logits:
            p = 1 / (1 + np.exp(-p))
        w = np.ones_like(t) if ws is None else np.broadcast_to(ws[i].astype(np.float64)[:, None], t.shape)
        if label_weights is not None and not multi_label:
            w = w * np.asarray(label_weights, np.float64)
        for j, th in enumerate(thr):
            pred = p > th
            tp[j] += np.sum(w * (pred & (t == 1)), 0)
            fp[j] += np.sum(w * (pred & (t == 0)), 0)
            tn[j] += np.sum(w * (~pred & (t == 0)), 0)
            fn[j] += np.sum(w * (~pred & (t == 1)), 0)
    if not multi_label:
        tp, fp, tn, fn = (a.sum(1) for a in (tp, fp, tn, fn))

    def div(a, b):
        return np.where(b != 0, a / np.where(b != 0, b, 1), 0.0)

    def by_label(v):
        if not multi_label:
            return float(np.sum(v))
        per = np.sum(v, axis=0)
        if label_weights is None:
            return float(np.mean(per))
        lw = np.asarray(label_weights, np.float64)
        return float(np.sum(per * lw) / np.sum(lw))
    if curve == "PR" and summation_method == "interpolation":
        dtp = tp[:n - 1] - tp[1:]
        pp = tp + fp
        dp = pp[:n - 1] - pp[1:]
        slope = div(dtp, np.maximum(dp, 0))
        intercept = tp[1:] - slope * pp[1:]
        ok = (pp[:n - 1] > 0) & (pp[1:] > 0)
        ratio = np.where(ok, div(pp[:n - 1], np.maximum(pp[1:], 0)), 1.0)
        return by_label(div(slope * (dtp + intercept * np.log(ratio)), np.maximum(tp[1:] + fn[1:], 0)))
    recall = div(tp, tp + fn)
    x, y = (div(fp, fp + tn), recall) if curve == "ROC" else (recall, div(tp, tp + fp))
    heights = {"interpolation": (y[:n - 1] + y[1:]) / 2, "minoring": np.minimum(y[:n - 1], y[1:]),
               "majoring": np.maximum(y[:n - 1], y[1:])}[summation_method]
    return by_label((x[:n - 1] - x[1:]) * heights)


AUCS = [{"num_thresholds": 7}, {"num_thresholds": 7, "summation_method": "minoring"},
        {"num_thresholds": 9, "summation_method": "majoring"}, {"num_thresholds": 7, "curve": "PR"},
        {"num_thresholds": 8, "curve": "PR", "summation_method": "majoring"},
        {"num_thresholds": 7, "multi_label": True}, {"num_thresholds": 7, "curve": "PR", "multi_label": True,
                                                     "label_weights": [1.0, 0.5, 2.0]},
        {"num_thresholds": 7, "label_weights": [1.0, 0.0, 2.0]}, {"num_thresholds": 7, "from_logits": True}]


@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("kw", AUCS, ids=[_ids([("AUC", k)])[0] for k in AUCS])
def test_auc_options(backend, kw, weighted):
    """AUC's curve (ROC, PR), summation_method (interpolation: PR's Davis-Goadrich form; minoring,
    majoring), multi_label with label_weights, label_weights pooled, from_logits."""
    ws = W if weighted else None
    ps = SIGN_P if kw.get("from_logits") else BIN_P_EDGE
    # (a multi_label AUC builds its variables on the first update: no result() before it)
    ns = Program(backend, UPDATES.replace("initial = m.result().numpy()\n", ""), cls="AUC", kw=kw, ts=list(BIN_T),
                 ps=list(ps), ws=ws).run()
    call = f"tf.keras.metrics.AUC({kw}).update_state(y_true, y_pred{', sample_weight' if weighted else ''})"
    for k in (1, 2):
        want = auc(BIN_T[:k], ps[:k], None if ws is None else ws[:k], **kw)
        assert_close(ns["results"][k - 1], want, call=call, what=f"result() after {k} update_state calls")
    assert_close(ns["after_reset"], 0.0, call=call, what="result() after reset_state()")


# -- X at Y metrics (confusion_metrics.py SensitivitySpecificityBase: thresholds 0, i/(n-1), 1) -------------
def at_constraint(cls, value, ts, ps, ws, num_thresholds=200, class_id=None):
    n = num_thresholds
    thr = [0.0] + [(i + 1) / (n - 1) for i in range(n - 2)] + [1.0]
    tp, fp, tn, fn = confusion(ts, ps, ws, thr, None, class_id)

    def div(a, b):
        return np.where(b != 0, a / np.where(b != 0, b, 1), 0.0)
    sens, spec = div(tp, tp + fn), div(tn, tn + fp)
    prec = div(tp, tp + fp)
    constrained, dependent = {"SensitivityAtSpecificity": (spec, sens), "SpecificityAtSensitivity": (sens, spec),
                              "PrecisionAtRecall": (sens, prec), "RecallAtPrecision": (prec, sens)}[cls]
    return float(np.max(np.where(constrained >= value, dependent, 0.0), initial=0.0))


AT = [("SensitivityAtSpecificity", {"specificity": 0.5, "num_thresholds": 11}),
      ("SpecificityAtSensitivity", {"sensitivity": 0.6, "num_thresholds": 11}),
      ("PrecisionAtRecall", {"recall": 0.5, "num_thresholds": 11}),
      ("RecallAtPrecision", {"precision": 0.6, "num_thresholds": 11}),
      ("SensitivityAtSpecificity", {"specificity": 0.7, "num_thresholds": 6, "class_id": 1}),
      ("RecallAtPrecision", {"precision": 0.5, "num_thresholds": 9, "class_id": 2})]


@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize("cls,kw", AT, ids=_ids(AT))
def test_metric_at_constraint(backend, cls, kw, weighted):
    """The best dependent rate among the thresholds whose constrained rate is >= the value."""
    ws = W if weighted else None
    ns = Program(backend, UPDATES, cls=cls, kw=kw, ts=list(BIN_T), ps=list(BIN_P_EDGE), ws=ws).run()
    call = f"tf.keras.metrics.{cls}({kw}).update_state(y_true, y_pred{', sample_weight' if weighted else ''})"
    value = [v for k, v in kw.items() if k in ("specificity", "sensitivity", "recall", "precision")][0]
    for k in (1, 2):
        want = at_constraint(cls, value, BIN_T[:k], BIN_P_EDGE[:k], None if ws is None else ws[:k], kw["num_thresholds"],
                             kw.get("class_id"))
        assert_close(ns["results"][k - 1], want, call=call, what=f"result() after {k} update_state calls")
    assert_close(ns["after_reset"], 0.0, call=call, what="result() after reset_state()")
