"""spell25b (issue 29): Keras metrics through every spelling of their use — a stateful metric fed in one
update_state call, in several, after reset_state, and through evaluate() with a partial batch; and a metric's
direction (what mode="auto" callbacks maximise) when the metric is spelled as a class, a string, a loss
function or a Loss instance.

Expected values: NumPy float64 transcriptions of Keras 3.15 (keras/src/metrics/r2_score.py: 1 - SS_res / SS_tot
per output from running sums, averaged; iou_metrics.py: a running confusion matrix, per-class
tp / (row + col - tp), the mean over the classes seen); the directions follow keras/src/metrics (each class's
`_direction`; reduction_metrics.MeanMetricWrapper: "down" for a wrapped Keras loss, function or instance) as
observed on TF 2.21 + Keras 3.15, read through the public callback API (EarlyStopping.best after two epochs'
logs).
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL = Tolerance(rtol=1e-5, atol=1e-6)

_RNG = np.random.default_rng(25251)
X7 = _RNG.integers(-4, 5, size=(7, 2)).astype(np.float32) / 2.0
K22 = np.array([[1.0, -0.5], [0.25, 0.75]], np.float32)
Y7 = (X7.astype(np.float64) @ K22 + _RNG.integers(-2, 3, size=(7, 2)) / 4.0).astype(np.float32)


def _r2(y: np.ndarray, p: np.ndarray) -> float:
    y, p = y.astype(np.float64), p.astype(np.float64)
    ss_res = ((y - p) ** 2).sum(axis=0)
    ss_tot = ((y - y.mean(axis=0)) ** 2).sum(axis=0)
    return float((1.0 - ss_res / ss_tot).mean())


def _mean_iou(t: np.ndarray, p: np.ndarray, n: int) -> float:
    cm = np.zeros((n, n))
    for a, b in zip(t, p):
        cm[a, b] += 1
    tp = np.diag(cm)
    den = cm.sum(axis=0) + cm.sum(axis=1) - tp
    return float((tp[den > 0] / den[den > 0]).mean())


def _feeds(metric, y, p, sw=None) -> dict:
    """The metric's result fed four ways: one call, calls of 3 then 4 rows, 1 + 6 rows, after a reset."""
    out = {}
    metric.reset_state()
    metric.update_state(y, p)
    out["one update_state"] = float(np.asarray(metric.result()))
    for cut in (3, 1):
        metric.reset_state()
        metric.update_state(y[:cut], p[:cut])
        metric.update_state(y[cut:], p[cut:])
        out[f"update_state(rows :{cut}), update_state(rows {cut}:)"] = float(np.asarray(metric.result()))
    metric.update_state(y[::-1], p[::-1])    # stale state that reset_state must drop
    metric.reset_state()
    metric.update_state(y, p)
    out["reset_state after other updates, one update_state"] = float(np.asarray(metric.result()))
    return out


@clause("keras.metric.r2-score", ref="tf221")
def test_spell25b_r2_score_over_any_split_of_the_updates(keras, tf):
    """R2Score of 7 rows of 2 outputs is the same whether the rows come in one update_state, in two, after a
    reset, or through evaluate(batch_size=3) (batches 3, 3, 1): 1 - SS_res/SS_tot per output, averaged."""
    pred = X7.astype(np.float64) @ K22
    expected = _r2(Y7, pred)
    for how, got in _feeds(keras.metrics.R2Score(), Y7, pred.astype(np.float32)).items():
        assert_close(got, expected, tolerance=TOL, call=f"R2Score: {how}", what="result()")
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(2, use_bias=False)])
    model.compile(optimizer="sgd", loss="mse", metrics=[keras.metrics.R2Score()], run_eagerly=True)
    model.set_weights([K22])
    out = model.evaluate(X7, Y7, batch_size=3, verbose=0, return_dict=True)
    assert_close(out["r2_score"], expected, tolerance=TOL, call="compile(metrics=[R2Score()]).evaluate(batch_size=3)",
                 what="r2_score")


T7 = np.array([0, 1, 1, 2, 0, 2, 1], np.int64)
P7 = np.array([0, 1, 2, 2, 1, 2, 1], np.int64)
K23 = np.array([[1.0, -0.5, 0.25], [-0.75, 0.5, 1.25]], np.float32)


@clause("keras.metric.iou", ref="tf221")
def test_spell25b_mean_iou_over_any_split_of_the_updates(keras, tf):
    """MeanIoU(num_classes=3) keeps a running confusion matrix: one update_state, two, after a reset, or
    evaluate(batch_size=3) with sparse_y_pred=False (argmax of the outputs) give NumPy's mean IoU of all rows."""
    expected = _mean_iou(T7, P7, 3)
    for how, got in _feeds(keras.metrics.MeanIoU(num_classes=3), T7, P7).items():
        assert_close(got, expected, tolerance=TOL, call=f"MeanIoU(num_classes=3): {how}", what="result()")
    iou = keras.metrics.IoU(num_classes=3, target_class_ids=[1, 2])
    cm = np.zeros((3, 3))
    for a, b in zip(T7, P7):
        cm[a, b] += 1
    per = np.diag(cm) / (cm.sum(0) + cm.sum(1) - np.diag(cm))
    for how, got in _feeds(iou, T7, P7).items():
        assert_close(got, per[[1, 2]].mean(), tolerance=TOL, call=f"IoU(num_classes=3, target_class_ids=[1, 2]): {how}",
                     what="result()")
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(3, use_bias=False)])
    model.compile(optimizer="sgd", loss="sparse_categorical_crossentropy", run_eagerly=True,
                  metrics=[keras.metrics.MeanIoU(num_classes=3, sparse_y_pred=False, name="miou")])
    model.set_weights([K23])
    pred = np.argmax(X7.astype(np.float64) @ K23, axis=-1)
    out = model.evaluate(X7, T7, batch_size=3, verbose=0, return_dict=True)
    assert_close(out["miou"], _mean_iou(T7, pred, 3), tolerance=TOL,
                 call="compile(metrics=[MeanIoU(3, sparse_y_pred=False)]).evaluate(batch_size=3)", what="miou")


def _spellings(keras) -> list[tuple[str, list, dict]]:
    """(what, the metrics given to compile, {logged name: direction observed on TF 2.21})."""
    return [
        ("metric classes", [keras.metrics.CosineSimilarity(), keras.metrics.MeanSquaredError(),
                            keras.metrics.R2Score(), keras.metrics.LogCoshError(), keras.metrics.PearsonCorrelation(),
                            keras.metrics.MeanAbsolutePercentageError()],
         {"cosine_similarity": "up", "mean_squared_error": "down", "r2_score": "up", "logcosh": "down",
          "pearson_correlation": "up", "mean_absolute_percentage_error": "down"}),
        ("metric strings", ["cosine_similarity", "mse", "mae", "msle", "r2_score"],
         {"cosine_similarity": "up", "mse": "down", "mae": "down", "msle": "down", "r2_score": "up"}),
        ("Loss instances", [keras.losses.MeanSquaredError(name="mse_loss"), keras.losses.Huber(name="huber_loss"),
                            keras.losses.CosineSimilarity(name="cos_loss"), keras.losses.LogCosh(name="lc_loss")],
         {"mse_loss": "down", "huber_loss": "down", "cos_loss": "down", "lc_loss": "down"}),
        ("loss functions", [keras.losses.mse, keras.losses.cosine_similarity, keras.losses.huber],
         {"mean_squared_error": "down", "cosine_similarity": "down", "huber": "down"}),
    ]


@clause("keras.callback.monitor", ref="tf221")
def test_spell25b_auto_mode_direction_of_each_metric_spelling(keras):
    """mode="auto" takes a monitored metric's direction from the compiled metric of that name, however the
    metric was spelled in compile(): a class or its string keeps the class's direction (CosineSimilarity,
    R2Score, PearsonCorrelation up; errors down), a Keras loss given as a metric — function or Loss instance,
    cosine similarity included — is minimised. After logs of 1.0 then 2.0, EarlyStopping.best is 2.0 for "up"
    and 1.0 for "down", for the metric and its "val_" twin."""
    x = X7
    y = np.abs(Y7) + 0.5      # positive targets: msle/mape defined
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(2, use_bias=False)])
    model.set_weights([K22])
    for what, metrics, directions in _spellings(keras):
        model.compile(optimizer="sgd", loss="mse", metrics=metrics, run_eagerly=True)   # (a recompile: all new)
        logged = model.evaluate(x, y, verbose=0, return_dict=True)     # builds the compiled metrics
        assert_equal(sorted(k for k in logged if k != "loss"), sorted(directions),
                     call=f"compile(metrics=<{what}>).evaluate", what="the logged metric names")
        for name, direction in directions.items():
            for monitor in (name, "val_" + name):
                es = keras.callbacks.EarlyStopping(monitor=monitor, mode="auto", patience=5)
                es.set_model(model)
                es.on_train_begin()
                es.on_epoch_end(0, {monitor: 1.0})
                es.on_epoch_end(1, {monitor: 2.0})
                assert_close(float(es.best), 2.0 if direction == "up" else 1.0, tolerance=TOL,
                             call=f"EarlyStopping(monitor={monitor!r}, mode='auto'), metric given as {what}, "
                                  "logs 1.0 then 2.0",
                             what=f"best (direction {direction!r})")
