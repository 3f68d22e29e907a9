"""The rest of tf.keras.metrics (MeanAbsolutePercentageError, MeanSquaredLogarithmicError,
CosineSimilarity, LogCoshError, KLDivergence, Poisson, R2Score): update_state over two batches
(the second weighted), result, reset_state, names, get and get_config — clauses
keras.metric.option-coverage, keras.metric.r2-score, keras.metric.get (TF 2.21 + Keras 3.15).

References in NumPy (float64), transcribed from keras-team/keras v3.15
keras/src/metrics/regression_metrics.py (the wrappers, the metric's own positive
`cosine_similarity`, R2Score.update_state/result), keras/src/metrics/probabilistic_metrics.py and
keras/src/losses/losses.py (the per-sample functions); a MeanMetricWrapper's result is
sum(w * value) / sum(w) over every sample seen.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises
from simdist.conformance.repro import Program

clause = pytest.mark.clause

EPS = 1e-7
_rng = np.random.default_rng(3115)   # fixed inputs, drawn once from a fixed seed


def _arr(shape, lo, hi):
    return _rng.uniform(lo, hi, size=shape).astype(np.float32)


# two batches of (y_true, y_pred); the second comes with sample weights
REG = [(_arr((4, 3), -2, 2), _arr((4, 3), -2, 2)), (_arr((3, 3), -2, 2), _arr((3, 3), -2, 2))]
POS = [(_arr((4, 3), 0.1, 3), _arr((4, 3), 0.1, 3)), (_arr((3, 3), 0.1, 3), _arr((3, 3), 0.1, 3))]
PROB = [(_arr((4, 3), 0.05, 0.95), _arr((4, 3), 0.05, 0.95)), (_arr((3, 3), 0.05, 0.95), _arr((3, 3), 0.05, 0.95))]
SIGNED = [((np.sign(_arr((4, 3), -1, 1)) * _arr((4, 3), 0.5, 2)).astype(np.float32), _arr((4, 3), -2, 2)),
          ((np.sign(_arr((3, 3), -1, 1)) * _arr((3, 3), 0.5, 2)).astype(np.float32), _arr((3, 3), -2, 2))]
W2 = np.array([0.5, 0.0, 2.0], dtype=np.float32)


def _l2_normalize(x, axis):
    return x * np.minimum(1 / np.sqrt(np.sum(x * x, axis=axis, keepdims=True)), 1 / EPS)


def per_sample(kind: str, kw: dict, yt: np.ndarray, yp: np.ndarray) -> np.ndarray:
    t, p = yt.astype(np.float64), yp.astype(np.float64)
    if kind == "MeanAbsolutePercentageError":
        return 100 * np.mean(np.abs((t - p) / np.maximum(np.abs(t), EPS)), axis=-1)
    if kind == "MeanSquaredLogarithmicError":
        return np.mean((np.log(np.maximum(p, EPS) + 1) - np.log(np.maximum(t, EPS) + 1)) ** 2, axis=-1)
    if kind == "CosineSimilarity":
        axis = kw.get("axis", -1)
        return np.sum(_l2_normalize(t, axis) * _l2_normalize(p, axis), axis=axis)
    if kind == "LogCoshError":
        return np.mean(np.log(np.cosh(p - t)), axis=-1)
    if kind == "KLDivergence":
        t, p = np.clip(t, EPS, 1), np.clip(p, EPS, 1)
        return np.sum(t * np.log(t / p), axis=-1)
    assert kind == "Poisson", kind
    return np.mean(p - t * np.log(p + EPS), axis=-1)


# (metric class, options, batches, its default name as observed on TF 2.21)
METRICS = [
    ("MeanAbsolutePercentageError", {}, SIGNED, "mean_absolute_percentage_error"),
    ("MeanSquaredLogarithmicError", {}, POS, "mean_squared_logarithmic_error"),
    ("CosineSimilarity", {}, REG, "cosine_similarity"),
    ("LogCoshError", {}, REG, "logcosh"),
    ("KLDivergence", {}, PROB, "kl_divergence"),
    ("Poisson", {}, POS, "poisson"),
]


@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("case", METRICS, ids=[m[0] for m in METRICS])
def test_more_metric_accumulates_and_resets(backend, case):
    kind, kw, batches, name = case
    (t1, p1), (t2, p2) = batches
    ns = Program(backend, """
m = getattr(tf.keras.metrics, kind)(**kw)
m.update_state(t1, p1)
first = m.result().numpy()
m.update_state(t2, p2, sample_weight=w2)
second = m.result().numpy()
m.reset_state()
after_reset = m.result().numpy()
m.update_state(t2, p2)
fresh = m.result().numpy()
name = m.name
config = m.get_config()
again = type(m).from_config(config).get_config()
""", kind=kind, kw=kw, t1=t1, p1=p1, t2=t2, p2=p2, w2=W2).run()
    call = f"tf.keras.metrics.{kind}({kw}): update_state(batch 1), update_state(batch 2, sample_weight)"
    v1, v2 = per_sample(kind, kw, t1, p1), per_sample(kind, kw, t2, p2)
    w = W2.astype(np.float64)
    assert_close(ns["first"], v1.mean(), call=call, what="result() after batch 1")
    assert_close(ns["second"], (v1.sum() + (v2 * w).sum()) / (len(v1) + w.sum()), call=call,
                 what="result() after both batches")
    assert_close(ns["after_reset"], 0.0, call=call, what="result() after reset_state()")
    assert_close(ns["fresh"], v2.mean(), call=call, what="result() after reset_state() and batch 2 unweighted")
    assert_equal(ns["name"], name, call=call, what="the metric's default name")
    assert_equal(ns["again"], ns["config"], call=call, what="from_config(get_config()).get_config()")


@clause("keras.metric.option-coverage", ref="tf221")
def test_cosine_similarity_metric_axis(backend):
    (t1, p1), _ = REG
    ns = Program(backend, """
m = tf.keras.metrics.CosineSimilarity(axis=0)
m.update_state(t1, p1)
value = m.result().numpy()
config = m.get_config()
""", t1=t1, p1=p1).run()
    call = "tf.keras.metrics.CosineSimilarity(axis=0).update_state(y_true, y_pred)"
    assert_close(ns["value"], per_sample("CosineSimilarity", {"axis": 0}, t1, p1).mean(), call=call,
                 what="the mean over columns of the column similarities")
    assert_equal(sorted(ns["config"]), ["dtype", "name"], call=call, what="get_config()'s keys (axis dropped)")


def _r2_reference(batches, weights, aggregation, num_regressors):
    """Keras 3.15's R2Score over the batches: per-column weighted sums, then 1 - SS_res/SS_tot."""
    cols = batches[0][0].shape[1]
    s = sq = res = cnt = np.zeros(cols)
    n = 0
    for (t, p), w in zip(batches, weights):
        t, p = t.astype(np.float64), p.astype(np.float64)
        w = np.ones_like(t) if w is None else np.broadcast_to(np.asarray(w, np.float64)[:, None], t.shape)
        s, sq = s + np.sum(t * w, axis=0), sq + np.sum(t * t * w, axis=0)
        res, cnt = res + np.sum((t - p) ** 2 * w, axis=0), cnt + np.sum(w, axis=0)
        n += t.size
    total = sq - s * (s / cnt)
    raw = 1 - res / total
    raw = np.where(np.isinf(raw), 0.0, raw)
    r2 = {"uniform_average": np.mean(raw), "variance_weighted_average": np.sum(total * raw) / np.sum(total),
          None: raw}[aggregation]
    if num_regressors and num_regressors < n - 1:
        r2 = 1 - (1 - r2) * (n - 1) / (n - num_regressors - 1)
    return r2


R2_CASES = [
    ({}, None), ({"class_aggregation": "variance_weighted_average"}, None), ({"class_aggregation": None}, None),
    ({"num_regressors": 2}, None), ({}, W2), ({"class_aggregation": None, "num_regressors": 3}, W2),
]


@clause("keras.metric.r2-score", ref="tf221")
@pytest.mark.parametrize("kw,w2", R2_CASES, ids=[f"{kw}-{'weighted' if w is not None else 'unweighted'}"
                                                 for kw, w in R2_CASES])
def test_r2_score(backend, kw, w2):
    (t1, p1), (t2, p2) = REG
    ns = Program(backend, """
m = tf.keras.metrics.R2Score(**kw)
m.update_state(t1, p1)
first = m.result().numpy()
m.update_state(t2, p2, sample_weight=w2)
second = m.result().numpy()
m.reset_state()
m.update_state(t2, p2)
fresh = m.result().numpy()
config = m.get_config()
""", kw=kw, t1=t1, p1=p1, t2=t2, p2=p2, w2=w2).run()
    agg = kw.get("class_aggregation", "uniform_average")
    nr = kw.get("num_regressors", 0)
    call = f"tf.keras.metrics.R2Score({kw}): update_state(batch 1), update_state(batch 2{', sample_weight' if w2 is not None else ''})"
    assert_close(ns["first"], _r2_reference(REG[:1], [None], agg, nr), call=call, what="result() after batch 1")
    assert_close(ns["second"], _r2_reference(REG, [None, w2], agg, nr), call=call, what="result() after both batches")
    assert_close(ns["fresh"], _r2_reference(REG[1:], [None], agg, nr), call=call,
                 what="result() after reset_state() and batch 2 unweighted")
    assert_equal({k: ns["config"][k] for k in ("name", "class_aggregation", "num_regressors")},
                 {"name": "r2_score", "class_aggregation": agg, "num_regressors": nr}, call=call, what="get_config()")


@clause("keras.metric.r2-score", ref="tf221")
def test_r2_score_bad_input(backend):
    (t1, p1), _ = REG
    with raises(ValueError, match="R2Score expects 2D inputs", call="R2Score().update_state(1-D y_true, 1-D y_pred)"):
        Program(backend, "tf.keras.metrics.R2Score().update_state(t, p)", t=t1[:, 0], p=p1[:, 0]).run()
    with raises(ValueError, match="Invalid value for argument `class_aggregation`",
                call="R2Score(class_aggregation='macro')"):
        Program(backend, "tf.keras.metrics.R2Score(class_aggregation='macro')").run()
    ns = Program(backend, """
import warnings
m = tf.keras.metrics.R2Score(num_regressors=20)
m.update_state(t, p)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    value = m.result().numpy()
messages = [str(w.message) for w in caught]
""", t=t1, p=p1).run()
    call = "R2Score(num_regressors=20) after 12 entries"
    assert_close(ns["value"], _r2_reference(REG[:1], [None], "uniform_average", 0), call=call,
                 what="the unadjusted score")
    assert_equal(any("More independent predictors than datapoints" in m for m in ns["messages"]), True, call=call,
                 what="a warning 'More independent predictors than datapoints'")


# Observed on TF 2.21 + Keras 3.15: metrics.get(name) -> (class, instance name)
GET_NAMES = {
    "mape": ("MeanAbsolutePercentageError", "mean_absolute_percentage_error"),
    "MAPE": ("MeanAbsolutePercentageError", "mean_absolute_percentage_error"),
    "mean_absolute_percentage_error": ("MeanAbsolutePercentageError", "mean_absolute_percentage_error"),
    "msle": ("MeanSquaredLogarithmicError", "mean_squared_logarithmic_error"),
    "MSLE": ("MeanSquaredLogarithmicError", "mean_squared_logarithmic_error"),
    "kl_divergence": ("KLDivergence", "kl_divergence"), "KLDivergence": ("KLDivergence", "kl_divergence"),
    "log_cosh_error": ("LogCoshError", "logcosh"), "LogCoshError": ("LogCoshError", "logcosh"),
    "poisson": ("Poisson", "poisson"), "cosine_similarity": ("CosineSimilarity", "cosine_similarity"),
    "r2_score": ("R2Score", "r2_score"), "R2Score": ("R2Score", "r2_score"),
}
GET_REFUSED = ("huber", "kld", "KLD", "logcosh", "log_cosh", "kullback_leibler_divergence",
               "binary_focal_crossentropy")


@clause("keras.metric.get", ref="tf221")
def test_more_metrics_get(backend):
    ns = Program(backend, """
got = {name: (type(tf.keras.metrics.get(name)).__name__, tf.keras.metrics.get(name).name) for name in names}
functions = {name: getattr(tf.keras.metrics, name).__name__ for name in fn_names}
""", names=list(GET_NAMES), fn_names=["huber", "kld", "KLD", "kullback_leibler_divergence", "logcosh", "mape",
                                       "msle", "poisson", "binary_focal_crossentropy",
                                       "categorical_focal_crossentropy"]).run()
    assert_equal(ns["got"], GET_NAMES, call="tf.keras.metrics.get(name)", what="(class, name) of each name's metric")
    assert_equal(ns["functions"], {"huber": "huber", "kld": "kl_divergence", "KLD": "kl_divergence",
                                   "kullback_leibler_divergence": "kl_divergence", "logcosh": "log_cosh",
                                   "mape": "mean_absolute_percentage_error", "msle": "mean_squared_logarithmic_error",
                                   "poisson": "poisson", "binary_focal_crossentropy": "binary_focal_crossentropy",
                                   "categorical_focal_crossentropy": "categorical_focal_crossentropy"},
                 call="tf.keras.metrics.<name>.__name__", what="the functions tf.keras.metrics exports")
    for name in GET_REFUSED:
        with raises(ValueError, match="Could not interpret metric identifier", call=f"tf.keras.metrics.get({name!r})"):
            Program(backend, "tf.keras.metrics.get(name)", name=name).run()
