"""BinaryIoU / OneHotMeanIoU, the hinge and correlation metrics, and the TensorBoard callback's
event files — clauses keras.metric.iou, keras.metric.hinge-correlation and
keras.callback.tensorboard (TF 2.21 + Keras 3.15).

Expected values are computed here in NumPy (float64) from Keras 3.15's rules (its source:
keras/src/metrics/iou_metrics.py, hinge_metrics.py, correlation_metrics.py, losses/losses.py and
keras/src/callbacks/tensorboard.py), never from the backend under test.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal
from simdist.conformance.suite.event_files import read_tensors

clause = pytest.mark.clause

YT = np.array([[1, 0, 1, 0], [0, 1, 1, 0], [1, 1, 0, 0], [0, 0, 0, 1]], dtype=np.float32)
YP = np.array([[0.9, -0.2, 0.6, 0.3], [0.1, 0.8, -0.4, 0.7], [0.55, 0.45, 0.2, -1.5], [0.3, 0.6, 0.2, 0.25]],
              dtype=np.float32)
R = np.array([[0.5, -1.0, 2.0, 0.25], [1.5, 0.0, -0.5, 1.0], [-2.0, 0.75, 0.5, 1.25]], dtype=np.float32)
RP = np.array([[0.4, -0.5, 1.0, 1.0], [2.0, -0.25, -0.5, 0.5], [-1.0, 1.0, 0.0, 2.0]], dtype=np.float32)


def _iou(cm: np.ndarray, targets: list[int]) -> float:
    tp = np.diag(cm)
    den = (cm.sum(axis=0) + cm.sum(axis=1) - tp)[targets]
    valid = den > 1e-9
    return float(np.where(valid, tp[targets] / (den + 1e-7), 0).sum() / (valid.sum() + 1e-7))


@clause("keras.metric.iou", ref="tf221")
def test_binary_and_one_hot_iou(backend, keras):
    m = keras.metrics
    cm = np.zeros((2, 2))
    for t, p in zip(YT.ravel().astype(int), (YP.ravel() >= 0.3).astype(int)):
        cm[t, p] += 1
    b = m.BinaryIoU(target_class_ids=[0, 1], threshold=0.3)
    b.update_state(YT, YP)
    assert_close(float(b.result().numpy()), _iou(cm, [0, 1]), call="BinaryIoU([0, 1], threshold=0.3)",
                 what="IoU of y_pred >= 0.3")
    cm4 = np.zeros((4, 4))
    for t, p in zip(YT.argmax(axis=1), YP.argmax(axis=1)):
        cm4[t, p] += 1
    o = m.OneHotMeanIoU(num_classes=4)
    o.update_state(YT, YP)
    assert_close(float(o.result().numpy()), _iou(cm4, [0, 1, 2, 3]), call="OneHotMeanIoU(4)",
                 what="mean IoU of the argmaxes")


@clause("keras.metric.hinge-correlation", ref="tf221")
def test_hinge_and_correlation_values(backend, keras):
    m = keras.metrics
    y = 2.0 * YT.astype(np.float64) - 1.0
    cases = [
        (m.Hinge(), YT, YP, np.maximum(1 - y * YP, 0).mean(axis=-1), "Hinge (0/1 labels as -1/1)"),
        (m.SquaredHinge(), R, RP, np.square(np.maximum(1 - R * RP.astype(np.float64), 0)).mean(axis=-1),
         "SquaredHinge (real labels kept)"),
        (m.CategoricalHinge(), YT, YP,
         np.maximum(((1 - YT) * YP).max(axis=-1) - (YT * YP).sum(axis=-1) + 1, 0), "CategoricalHinge"),
    ]
    t, p = R.astype(np.float64), RP.astype(np.float64)
    tz, pz = t - t.mean(-1, keepdims=True), p - p.mean(-1, keepdims=True)
    pearson = ((tz / tz.std(-1, keepdims=True)) * (pz / pz.std(-1, keepdims=True))).mean(-1)
    tm, pm = t.mean(-1, keepdims=True), p.mean(-1, keepdims=True)
    norm = tz.var(-1, keepdims=True) + pz.var(-1, keepdims=True) + (tm - pm) ** 2
    concordance = (2 * (t - pm) * (p - pm) / (norm + 1e-7)).mean(-1)   # (Keras's covar: both minus mean(y_pred))
    cases += [(m.PearsonCorrelation(), R, RP, pearson, "PearsonCorrelation"),
              (m.ConcordanceCorrelation(), R, RP, concordance, "ConcordanceCorrelation")]
    for metric, yt, yp, per_sample, call in cases:
        metric.update_state(yt, yp)
        assert_close(float(metric.result().numpy()), float(per_sample.mean()), call=call, what="mean over samples")


@clause("keras.callback.tensorboard", ref="tf221")
def test_tensorboard_scalars_and_record_if(backend, keras, tmp_path):
    pytest.importorskip("tensorboard")
    rng = np.random.default_rng(5)
    x, y = rng.standard_normal((24, 3)).astype(np.float32), rng.standard_normal((24, 1)).astype(np.float32)

    def fit(log_dir: str, update_freq: object) -> dict:
        keras.backend.clear_session()
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
        # 18 training rows in batches of 8: 3 batches an epoch; 6 validation rows: 1 batch
        history = model.fit(x, y, epochs=2, batch_size=8, validation_split=0.25, shuffle=False, verbose=0,
                            callbacks=[keras.callbacks.TensorBoard(log_dir, update_freq=update_freq)])
        out: dict = {"history": history.history}
        for run in ("train", "validation"):
            out[run] = {tag: [(step, float(v)) for step, v in events]
                        for tag, events in read_tensors(os.path.join(log_dir, run)).items() if tag != "keras"}
        return out

    every = fit(str(tmp_path / "batch"), "batch")
    call = "fit(epochs=2, 3 batches an epoch, validation_split) with TensorBoard(update_freq='batch')"
    assert_equal(sorted(every["train"]), ["batch_loss", "epoch_learning_rate", "epoch_loss"], call=call,
                 what="train/ tags")
    assert_equal([s for s, _ in every["train"]["batch_loss"]], [1, 2, 3, 4, 5, 6], call=call,
                 what="batch_loss steps (global batch, from 1)")
    assert_close([v for _, v in every["train"]["epoch_loss"]], every["history"]["loss"], call=call,
                 what="epoch_loss values (History's loss)")
    assert_close([v for _, v in every["validation"]["epoch_loss"]], every["history"]["val_loss"], call=call,
                 what="validation/epoch_loss values (History's val_loss)")
    assert_equal([s for s, _ in every["validation"]["evaluation_loss_vs_iterations"]], [3, 6], call=call,
                 what="evaluation_loss_vs_iterations steps (optimizer.iterations)")
    assert_close([v for _, v in every["train"]["epoch_learning_rate"]], [0.05, 0.05], call=call,
                 what="epoch_learning_rate")

    gated = fit(str(tmp_path / "two"), 2)
    call = "the same fit with TensorBoard(update_freq=2)"
    assert_equal([s for s, _ in gated["train"]["batch_loss"]], [2, 4, 6], call=call, what="batch_loss steps")
    # record_if(step % 2 == 0) with the last batch begun: epoch 0 ends after batch 3 (not
    # recorded), epoch 1 after batch 6; the validation batches are 1 and 2.
    assert_equal([s for s, _ in gated["train"]["epoch_loss"]], [1], call=call, what="epoch_loss steps")
    assert_equal([s for s, _ in gated["validation"]["epoch_loss"]], [1], call=call,
                 what="validation/epoch_loss steps")
    assert_equal([s for s, _ in gated["validation"]["evaluation_loss_vs_iterations"]], [6], call=call,
                 what="evaluation_loss_vs_iterations steps")
