"""Keras's thresholded and top-k metrics and the CSVLogger / ReduceLROnPlateau / TerminateOnNaN
callbacks — clauses keras.metric.precision-recall, keras.metric.top-k, keras.metric.f-score and
keras.callback.* (TF 2.21 + Keras 3.15).

Expected values are computed here in NumPy (float64) from Keras 3.15's rules (its source:
keras/src/metrics/confusion_metrics.py, accuracy_metrics.py, f_score_metrics.py and
keras/src/callbacks/), never from the backend under test.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises

clause = pytest.mark.clause

YT = np.array([[1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 0], [0, 0, 0, 1], [1, 0, 0, 1]], dtype=np.float32)
YP = np.array([[0.9, 0.2, 0.6, 0.3], [0.1, 0.8, 0.4, 0.7], [0.55, 0.45, 0.2, 0.1], [0.3, 0.6, 0.2, 0.25],
               [0.7, 0.1, 0.35, 0.8]], dtype=np.float32)
W = np.array([1.0, 0.5, 2.0, 0.0, 1.5], dtype=np.float32)
LABELS = np.array([0, 1, 0, 3, 3], dtype=np.int32)


def _counts(yt: np.ndarray, yp: np.ndarray, t: float, w: np.ndarray | None = None) -> dict[str, float]:
    """Weighted tp/fp/fn/tn of every element (predicted positive: p > t)."""
    ww = np.ones_like(yt, dtype=np.float64) if w is None else np.broadcast_to(w[:, None], yt.shape)
    pos, pred = yt > 0, yp > t
    return {"tp": float((ww * (pos & pred)).sum()), "fp": float((ww * (~pos & pred)).sum()),
            "fn": float((ww * (pos & ~pred)).sum()), "tn": float((ww * (~pos & ~pred)).sum())}


def _top_k_mask(yp: np.ndarray, k: int) -> np.ndarray:
    """Each row's k largest entries (ties: the lower index, as top_k)."""
    order = np.argsort(-yp, axis=1, kind="stable")[:, :k]
    mask = np.zeros(yp.shape, dtype=bool)
    np.put_along_axis(mask, order, True, axis=1)
    return mask


@clause("keras.metric.precision-recall", ref="tf221")
def test_precision_and_recall_thresholds_top_k_class_id(backend, keras):
    m = keras.metrics
    strategy = backend.make_strategy("mirrored", 2)
    with strategy.scope():
        prec, rec = m.Precision(), m.Recall(thresholds=[0.3, 0.5, 0.75])
        prec_top2, rec_cls = m.Precision(top_k=2), m.Recall(class_id=1)
        tp = m.TruePositives()
    for metric in (prec, rec, prec_top2, rec_cls, tp):
        metric.update_state(YT, YP, sample_weight=W)
    c = _counts(YT, YP, 0.5, W)
    call = "Precision/Recall/TruePositives.update_state(y_true, y_pred, sample_weight) (MirroredStrategy scope)"
    assert_close(float(prec.result().numpy()), c["tp"] / (c["tp"] + c["fp"]), call=call, what="Precision()")
    want = [_counts(YT, YP, t, W) for t in (0.3, 0.5, 0.75)]
    assert_close(rec.result().numpy(), [x["tp"] / (x["tp"] + x["fn"]) for x in want], call=call,
                 what="Recall(thresholds=[0.3, 0.5, 0.75]) (one value per threshold)")
    kept = _top_k_mask(YP, 2)
    ww = np.broadcast_to(W[:, None], YT.shape).astype(np.float64)
    tp2, fp2 = (ww * (kept & (YT > 0))).sum(), (ww * (kept & (YT == 0))).sum()
    assert_close(float(prec_top2.result().numpy()), tp2 / (tp2 + fp2), call=call,
                 what="Precision(top_k=2) (every kept prediction counts as positive)")
    c1 = _counts(YT[:, 1:2], YP[:, 1:2], 0.5, W)
    assert_close(float(rec_cls.result().numpy()), c1["tp"] / (c1["tp"] + c1["fn"]), call=call,
                 what="Recall(class_id=1)")
    assert_close(float(tp.result().numpy()), c["tp"], call=call, what="TruePositives()")
    with raises(ValueError, match="Threshold values must be in", call="Precision(thresholds=[0.5, 1.5])"):
        m.Precision(thresholds=[0.5, 1.5])


@clause("keras.metric.precision-recall", ref="tf221")
def test_operating_point_metrics(backend, keras):
    m = keras.metrics
    yt, yp = YT[:, 0], YP[:, 0]
    metrics = {"precision_at_recall": m.PrecisionAtRecall(0.5, num_thresholds=11),
               "recall_at_precision": m.RecallAtPrecision(0.9, num_thresholds=11),
               "sensitivity_at_specificity": m.SensitivityAtSpecificity(0.5, num_thresholds=11),
               "specificity_at_sensitivity": m.SpecificityAtSensitivity(0.7, num_thresholds=11)}
    for metric in metrics.values():
        metric.update_state(yt, yp)
    thresholds = [0.0] + [(i + 1) / 10 for i in range(9)] + [1.0]
    rows = [_counts(yt[:, None], yp[:, None], t) for t in thresholds]

    def rate(a: float, b: float) -> float:
        return a / b if b else 0.0

    rec = [rate(r["tp"], r["tp"] + r["fn"]) for r in rows]
    prec = [rate(r["tp"], r["tp"] + r["fp"]) for r in rows]
    spec = [rate(r["tn"], r["tn"] + r["fp"]) for r in rows]

    def best(constrained: list, dependent: list, value: float) -> float:
        return max([d for c_, d in zip(constrained, dependent) if c_ >= value] + [0.0])

    want = {"precision_at_recall": best(rec, prec, 0.5), "recall_at_precision": best(prec, rec, 0.9),
            "sensitivity_at_specificity": best(spec, rec, 0.5), "specificity_at_sensitivity": best(rec, spec, 0.7)}
    for name, metric in metrics.items():
        assert_close(float(metric.result().numpy()), want[name], call=f"{type(metric).__name__}(..., num_thresholds=11)",
                     what="the best dependent rate where the constraint holds")


@clause("keras.metric.top-k", ref="tf221")
def test_top_k_categorical_accuracies(backend, keras):
    m = keras.metrics
    strategy = backend.make_strategy("mirrored", 2)
    with strategy.scope():
        sparse, onehot = m.SparseTopKCategoricalAccuracy(k=2), m.TopKCategoricalAccuracy(k=1)
    yp = YP.copy()
    yp[2] = [0.3, 0.3, 0.3, 0.1]       # label 0 tied with two others: ties count for the label
    sparse.update_state(LABELS, yp, sample_weight=W)
    onehot.update_state(np.eye(4, dtype=np.float32)[LABELS], yp)
    above = (yp > yp[np.arange(5), LABELS][:, None]).sum(axis=1)
    call = "SparseTopKCategoricalAccuracy(k=2) / TopKCategoricalAccuracy(k=1), a three-way tie in row 2"
    hits2, hits1 = (above < 2).astype(np.float64), (above < 1).astype(np.float64)
    assert_close(float(sparse.result().numpy()), (hits2 * W).sum() / W.sum(), call=call, what="sparse top-2 accuracy")
    assert_close(float(onehot.result().numpy()), hits1.mean(), call=call, what="top-1 accuracy (one-hot labels)")


@clause("keras.metric.f-score", ref="tf221")
@pytest.mark.parametrize("average", [None, "micro", "macro", "weighted"])
def test_f_scores(backend, keras, average):
    m = keras.metrics
    f1 = m.F1Score(average=average, threshold=0.5)
    f2 = m.FBetaScore(average=average, beta=2.0)
    f1.update_state(YT, YP)
    f2.update_state(YT, YP)
    eps = 1e-7

    def score(pred: np.ndarray, beta: float) -> np.ndarray:
        axis = None if average == "micro" else 0
        tp = (pred * YT).sum(axis=axis)
        fp = (pred * (1 - YT)).sum(axis=axis)
        fn = ((1 - pred) * YT).sum(axis=axis)
        p, r = tp / (tp + fp + eps), tp / (tp + fn + eps)
        f = (1 + beta ** 2) * (p * r) / (beta ** 2 * p + r + eps)
        if average == "weighted":
            support = YT.sum(axis=0)
            return np.asarray((f * support / (support.sum() + eps)).sum())
        return np.asarray(f.mean()) if average else f

    by_threshold = (YP > 0.5).astype(np.float64)
    by_max = ((YP >= YP.max(axis=1, keepdims=True)) & (np.abs(YP) > 1e-9)).astype(np.float64)
    call = f"F1Score(average={average!r}, threshold=0.5) / FBetaScore(average={average!r}, beta=2.0)"
    assert_close(f1.result().numpy(), score(by_threshold, 1.0), call=call, what="F1 (y_pred > 0.5)")
    assert_close(f2.result().numpy(), score(by_max, 2.0), call=call, what="F2 (each row's maximum)")


@clause("keras.metric.iou", ref="tf221")
def test_mean_iou_and_iou(backend, keras):
    m = keras.metrics
    yt = np.array([0, 1, 2, 2, 1, 3, -1, 0], dtype=np.int32)
    yp = np.array([0, 2, 2, 1, 1, 0, 2, 0], dtype=np.int32)
    w = np.array([1.0, 0.5, 2.0, 1.0, 1.0, 1.0, 3.0, 2.7], dtype=np.float32)
    mean_iou, iou = m.MeanIoU(num_classes=4), m.IoU(num_classes=4, target_class_ids=[1, 2], ignore_class=0)
    mean_iou.update_state(yt, yp, sample_weight=w)
    iou.update_state(yt, yp)
    strategy = backend.make_strategy("mirrored", 2)
    with strategy.scope():
        mirrored = m.MeanIoU(num_classes=4)
    mirrored.update_state(yt, yp, sample_weight=w)     # cross-replica: each int64 copy gets cm // 2

    def expected(weights: np.ndarray, targets: list[int], ignore: int | None, halves: bool = False) -> float:
        cm = np.zeros((4, 4))
        for t, p_, w_ in zip(yt, yp, weights):
            if 0 <= t < 4 and 0 <= p_ < 4 and t != ignore:
                cm[t, p_] += w_
        if halves:
            cm = np.floor(cm / 2) * 2
        tp = np.diag(cm)
        den = (cm.sum(axis=0) + cm.sum(axis=1) - tp)[targets]
        valid = den > 1e-9
        return float(np.where(valid, tp[targets] / (den + 1e-7), 0).sum() / (valid.sum() + 1e-7))

    call = "MeanIoU(num_classes=4) with float weights (int64 matrix) / IoU(4, [1, 2], ignore_class=0)"
    assert_close(float(mean_iou.result().numpy()), expected(np.trunc(w), [0, 1, 2, 3], None), call=call,
                 what="MeanIoU (weights truncated to integers, label -1 skipped)")
    assert_close(float(iou.result().numpy()), expected(np.ones(8), [1, 2], 0), call=call, what="IoU of classes 1, 2")
    assert_close(float(mirrored.result().numpy()), expected(np.trunc(w), [0, 1, 2, 3], None, halves=True),
                 call="MeanIoU made in MirroredStrategy(2)'s scope, update_state in cross-replica context",
                 what="MeanIoU (a SUM sync-on-read int64 variable assigned cross-replica: each copy gets value // 2)")
    with raises(ValueError, match="out of range", call="IoU(num_classes=2, target_class_ids=[2])"):
        m.IoU(num_classes=2, target_class_ids=[2])


def _fit_model(keras, lr: float):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, use_bias=False)])
    model.set_weights([np.array([[0.5], [-1.0], [2.0]], np.float32)])
    model.compile(optimizer=keras.optimizers.SGD(lr), loss="mse")
    return model


X = np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 1.0], [2.0, 1.0, -1.0], [-0.5, 0.5, 1.5]], dtype=np.float32)
Y = np.array([[1.0], [0.0], [2.0], [-1.0]], dtype=np.float32)


@clause("keras.callback.csv-logger", ref="tf221")
def test_csv_logger_file(backend, keras, tmp_path):
    model = _fit_model(keras, 0.0)                 # lr 0: every epoch's loss is the initial one
    path = tmp_path / "log.csv"
    model.fit(X, Y, batch_size=4, epochs=2, verbose=0, callbacks=[keras.callbacks.CSVLogger(str(path), ";")])
    loss = float(np.float32(((X.astype(np.float64) @ [[0.5], [-1.0], [2.0]] - Y) ** 2).mean()))
    text = path.read_bytes()
    rows = text.split(b"\r\n")
    call = "fit(epochs=2, callbacks=[CSVLogger(path, separator=';')])"
    assert_equal(rows[0], b"epoch;loss;val_loss", call=call, what="the header (sorted keys, val_ columns added)")
    assert_equal([r.split(b";")[0] for r in rows[1:3]] + rows[3:], [b"0", b"1", b""], call=call,
                 what="the epoch column and the CRLF line ends")
    for r in rows[1:3]:
        cells = r.split(b";")
        assert_close(float(cells[1]), loss, call=call, what="the logged loss")
        assert_equal(cells[2], b"NA", call=call, what="a missing val_loss")
    model.fit(X, Y, batch_size=4, epochs=1, verbose=0,
              callbacks=[keras.callbacks.CSVLogger(str(path), ";", append=True)])
    again = path.read_bytes().split(b"\r\n")
    assert_equal((len(again), again[0], again[3].split(b";")[0]), (5, b"epoch;loss;val_loss", b"0"), call=call,
                 what="append=True: one more row, no second header")


@clause("keras.callback.reduce-lr-on-plateau", ref="tf221")
def test_reduce_lr_on_plateau_sequence(backend, keras):
    model = _fit_model(keras, 0.8)
    zeros = np.zeros_like(X)                        # zero inputs: no gradient, a constant loss
    cb = keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=2, cooldown=1, min_lr=0.15)
    history = model.fit(zeros, Y, batch_size=4, epochs=9, verbose=0, callbacks=[cb])
    # epoch 0 sets best; epochs 1, 2 wait 1, 2 -> 0.4 at the end of epoch 2 (cooldown 1). Epoch 3: the
    # cooldown counter drops to 0 first, so the same epoch already counts (wait 1); epoch 4 wait 2 ->
    # 0.2; epoch 5 cooldown + wait 1, epoch 6 -> max(0.1, 0.15) = 0.15; epochs 7, 8 cannot go lower.
    # Logged: each epoch's rate before its own reduction.
    lrs = [0.8, 0.8, 0.8, 0.4, 0.4, 0.2, 0.2, 0.15, 0.15]
    call = "ReduceLROnPlateau(monitor='loss', factor=0.5, patience=2, cooldown=1, min_lr=0.15), 9 flat epochs"
    assert_close(np.float32(history.history["learning_rate"]), np.float32(lrs), call=call,
                 what="learning_rate logged per epoch (the float32 variable's values)")
    assert_close(np.float32(model.optimizer.learning_rate), np.float32(0.15), call=call,
                 what="the final learning rate")
    with raises(ValueError, match="does not support a factor >= 1.0", call="ReduceLROnPlateau(factor=1.0)"):
        keras.callbacks.ReduceLROnPlateau(factor=1.0)


@clause("keras.callback.terminate-on-nan", ref="tf221")
def test_terminate_on_nan_stops_after_the_batch(backend, keras):
    import contextlib
    import io

    model = _fit_model(keras, 0.01)
    x = X.copy()
    x[2, 0] = np.nan                                # the second batch of two has a NaN loss
    seen: list[tuple[int, int]] = []
    epoch = [0]
    rec = keras.callbacks.LambdaCallback(on_epoch_begin=lambda e, logs: epoch.__setitem__(0, e),
                                         on_train_batch_end=lambda b, logs: seen.append((epoch[0], b)))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        history = model.fit(x, Y, batch_size=2, epochs=3, verbose=0, shuffle=False,
                            callbacks=[rec, keras.callbacks.TerminateOnNaN()])
    call = "fit(4 examples, batch 2, epochs=3, a NaN in the second batch, TerminateOnNaN())"
    assert_equal(seen, [(0, 0), (0, 1)], call=call, what="the (epoch, batch) pairs trained")
    assert_equal(list(history.epoch), [0], call=call, what="the epochs History records")
    assert_equal(out.getvalue().strip(), "Batch 1: Invalid loss, terminating training", call=call, what="the message")


_PSS_METRICS_PROGRAM = """
cluster = backend.make_ps_cluster(workers=2, ps=1) if kind == "pss" else None
strategy = tf.distribute.get_strategy() if cluster is None else cluster.strategy
with strategy.scope():
    metrics = [tf.keras.metrics.Precision(), tf.keras.metrics.Recall(),
               tf.keras.metrics.SparseTopKCategoricalAccuracy(k=2)]
places = [[getattr(v, "device", None) or v.value.device for v in m.variables] for m in metrics]

@tf.function
def update(yt, yp, yc, pc):
    def replica(yt, yp, yc, pc):
        metrics[0].update_state(yt, yp)
        metrics[1].update_state(yt, yp)
        metrics[2].update_state(yc, pc)
        return tf.constant(0.0)
    return strategy.run(replica, args=(yt, yp, yc, pc))

for k in range(0, 8, 4):
    args = (tf.constant(yt[k:k + 4]), tf.constant(yp[k:k + 4]), tf.constant(yc[k:k + 4]), tf.constant(pc[k:k + 4]))
    if cluster is None:
        update(*args)
    else:
        cluster.coordinator.schedule(update, args=args)
        cluster.coordinator.join()
results = [float(m.result()) for m in metrics]
for m in metrics:
    m.reset_state()
after_reset = [float(m.result()) for m in metrics]
"""


@clause("keras.metric.pss", ref="tf221")
@pytest.mark.requires("multi_worker")
def test_metrics_under_pss_follow_the_default_strategy(backend):
    """Precision, Recall and SparseTopKCategoricalAccuracy made in a ParameterServerStrategy's scope
    (variables on the ps), updated in functions a ClusterCoordinator schedules, give the default
    strategy's results; reset_state clears them."""
    from simdist.conformance.repro import Program
    rng = np.random.default_rng(11)
    data = dict(yt=(rng.random((8, 3)) > 0.5).astype(np.float32), yp=rng.random((8, 3)).astype(np.float32),
                yc=rng.integers(0, 4, size=(8,)).astype(np.int32), pc=rng.random((8, 4)).astype(np.float32))
    one = Program(backend, _PSS_METRICS_PROGRAM, kind="default", **data).run()
    ps = Program(backend, _PSS_METRICS_PROGRAM, kind="pss", **data).run()
    call = "Precision/Recall/SparseTopKCategoricalAccuracy(k=2) updated in 2 scheduled steps under PSS (2 workers, 1 ps)"
    assert_close(np.float32(ps["results"]), np.float32(one["results"]), call=call,
                 what="result() after the steps (the default strategy's as reference)")
    assert_equal(ps["after_reset"], [0.0, 0.0, 0.0], call=call, what="result() after reset_state()")
    assert all("ps" in d for ds in ps["places"] for d in ds), (
        f"metric variables placed on {ps['places']}, but should be on /job:ps [{call}]")
