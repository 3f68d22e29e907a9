"""sweep24b (issue 29): Keras losses under every reduction with sample weights of EACH rank, and Mean metrics
over several update_state calls with such weights — as TF 2.21 + Keras 3.15 compute them.

The suite's loss and metric tests mostly weigh values with weights of the values' own rank, so the rank
matching of keras/src/losses/loss.py (squeeze_or_expand_to_same_rank: a trailing axis of 1 squeezed, a
rank-1 side expanded) and of reduction_metrics.reduce_to_samplewise_values never decides a result. Here
per-sample values of rank 2 (batch 4, steps 3) and rank 1 meet weights of shape (4, 3), (4, 3, 1), (4, 1),
(1, 3), () and (4,), (4, 1), signed and with zeros, under "none", "sum", "sum_over_batch_size" and
"mean_with_sample_weight" (whose divisor is the sum of the weights as matched, not broadcast), in float32
and float64; categorical crossentropy with label smoothing on axis=1 (Keras counts the classes on the LAST
axis whatever `axis` is). Expected values are NumPy float64 transcriptions of Keras 3.15's rules
(keras/src/losses/loss.py reduce_weighted_values / reduce_values; losses.py; reduction_metrics.py).
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL = {"float32": Tolerance(rtol=2e-5, atol=2e-6), "float64": Tolerance(rtol=1e-12, atol=1e-13)}

_RNG = np.random.default_rng(2424)
Y3_TRUE = _RNG.integers(-8, 9, size=(4, 3, 2)) / 4.0          # rank-2 values (4, 3) from (4, 3, 2) inputs
Y3_PRED = _RNG.integers(-8, 9, size=(4, 3, 2)) / 4.0
B3_TRUE = (_RNG.integers(0, 2, size=(4, 3, 2))).astype(np.float64)
C_TRUE = np.eye(5)[_RNG.integers(0, 5, size=(4, 3))].transpose(0, 2, 1)   # (4, 5, 3): classes on axis 1
C_LOGITS = _RNG.integers(-8, 9, size=(4, 5, 3)) / 4.0
Y1_TRUE, Y1_PRED = Y3_TRUE[:, 0, :], Y3_PRED[:, 0, :]                   # rank-1 values (4,) from (4, 2)
B1_TRUE = B3_TRUE[:, 0, :]


def _log_sigmoid_xent(z: np.ndarray, x: np.ndarray) -> np.ndarray:
    return np.maximum(x, 0) - x * z + np.log1p(np.exp(-np.abs(x)))


def _log_softmax(x: np.ndarray, axis: int) -> np.ndarray:
    m = x.max(axis=axis, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=axis, keepdims=True))


#: name -> (constructor name, kwargs, y_true, y_pred, per-sample values in NumPy float64)
LOSSES = {
    "mse": ("MeanSquaredError", {}, Y3_TRUE, Y3_PRED, ((Y3_TRUE - Y3_PRED) ** 2).mean(-1)),
    "mae": ("MeanAbsoluteError", {}, Y3_TRUE, Y3_PRED, np.abs(Y3_TRUE - Y3_PRED).mean(-1)),
    "bce-logits-smooth": ("BinaryCrossentropy", {"from_logits": True, "label_smoothing": 0.25}, B3_TRUE, Y3_PRED,
                          _log_sigmoid_xent(B3_TRUE * 0.75 + 0.125, Y3_PRED).mean(-1)),
    # label smoothing counts the classes on the last axis (3), not on axis=1 (5)
    "cce-logits-smooth-axis1": ("CategoricalCrossentropy", {"from_logits": True, "label_smoothing": 0.3, "axis": 1},
                                C_TRUE, C_LOGITS, -((C_TRUE * 0.7 + 0.3 / 3) * _log_softmax(C_LOGITS, 1)).sum(1)),
    "mse-rank1": ("MeanSquaredError", {}, Y1_TRUE, Y1_PRED, ((Y1_TRUE - Y1_PRED) ** 2).mean(-1)),
    "bce-logits-rank1": ("BinaryCrossentropy", {"from_logits": True}, B1_TRUE, Y1_PRED,
                         _log_sigmoid_xent(B1_TRUE, Y1_PRED).mean(-1)),
}
_W = _RNG.integers(-1, 5, size=(4, 3)) / 2.0                    # signed, with zeros
WEIGHTS = {                                                    # for rank-2 values (4, 3)
    2: {"w(4,3)": _W, "w(4,3,1)": _W[..., None], "w(4,1)": _W[:, :1], "w(1,3)": _W[:1], "w()": np.array(1.5)},
    1: {"w(4,)": _W[:, 0], "w(4,1)": _W[:, :1], "w()": np.array(-0.5)},   # for rank-1 values (4,)
}
REDUCTIONS = ("none", "sum", "sum_over_batch_size", "mean_with_sample_weight")


def match_ranks(x1: np.ndarray, x2: np.ndarray, expand_rank_1: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Keras 3.15's squeeze_or_expand_to_same_rank, transcribed."""
    r1, r2 = x1.ndim, x2.ndim
    if r1 == r2 + 1 and x1.shape[-1] == 1:
        if r2 == 1 and expand_rank_1:
            x2 = x2[..., None]
        else:
            x1 = x1[..., 0]
    if r2 == r1 + 1 and x2.shape[-1] == 1:
        if r1 == 1 and expand_rank_1:
            x1 = x1[..., None]
        else:
            x2 = x2[..., 0]
    return x1, x2


def reduce_weighted(values: np.ndarray, w: np.ndarray, reduction: str) -> np.ndarray:
    """Keras 3.15's reduce_weighted_values then reduce_values (one replica)."""
    v, w = match_ranks(values, w)
    prod = v * w
    if reduction == "none":
        return prod
    if reduction == "sum":
        return np.asarray(prod.sum())
    divisor = w.sum() if reduction == "mean_with_sample_weight" else prod.size
    return np.asarray(prod.sum() / divisor if divisor != 0 else 0.0)


def _loss_cases() -> list[tuple[str, str, str, str]]:
    out = []
    for dtype in ("float32", "float64"):
        for name, (_, _, _, _, vals) in LOSSES.items():
            for wname in WEIGHTS[vals.ndim]:
                out += [(name, wname, r, dtype) for r in REDUCTIONS]
    # the cases that matter first (`--profile ci` runs one): rank-2 values, weights with a trailing 1, none
    first = ("mse", "w(4,3,1)", "none", "float32")
    return [first] + [c for c in out if c != first]


@clause("keras.loss.sample-weight", ref="tf221")
@clause("keras.loss.reductions", ref="tf221")
@clause("keras.loss.label-smoothing", ref="tf221")
def test_sweep24b_loss_reductions_with_weights_of_each_rank(tf, budget):
    """Each (loss, weight shape, reduction, dtype): the result's shape and values equal Keras's rule — the
    weights' rank matched to the values' (squeezed or, for rank-1 values, the values expanded: "none" then
    has shape (4, 1)), broadcast, and reduced (mean_with_sample_weight divides by the matched weights' sum)."""
    failures = []
    for name, wname, reduction, dtype in budget(_loss_cases()):
        cls, kwargs, yt, yp, vals = LOSSES[name]
        w = WEIGHTS[vals.ndim][wname]
        label = f"[{cls}({kwargs}) {wname} reduction={reduction} {dtype}]"
        want = reduce_weighted(vals, w, reduction)
        try:
            loss = getattr(tf.keras.losses, cls)(reduction=reduction, dtype=dtype, **kwargs)
            got = loss(tf.constant(yt.astype(dtype)), tf.constant(yp.astype(dtype)),
                       sample_weight=tf.constant(w.astype(dtype)))
            assert_equal(tuple(got.shape), want.shape, what="loss shape", call=label)
            assert_close(got.numpy(), want, tolerance=TOL[dtype], what="loss", call=label)
        except AssertionError as e:
            failures.append(str(e))
    assert not failures, f"{len(failures)} case(s) differ:\n" + "\n".join(failures[:8])


def mean_metric_steps(batches: list[tuple[np.ndarray, np.ndarray | None]]) -> float:
    """Keras 3.15's Mean.update_state over `batches` of (per-sample values, weights), transcribed from
    reduce_to_samplewise_values: values past the weights' rank averaged, weights broadcast to the values and
    averaged per sample (a scalar weight makes the whole batch one sample)."""
    total = count = 0.0
    for values, w in batches:
        if w is None:
            v = values.mean(axis=tuple(range(1, values.ndim))) if values.ndim > 1 else values
            total, count = total + v.sum(), count + v.shape[0]
            continue
        values, w = match_ranks(values, w)
        wn, vn = w.ndim, values.ndim
        if vn > wn:
            values = values.mean(axis=tuple(range(wn, vn)))
        wb = np.broadcast_to(w, values.shape)
        values = values * wb
        if wn > 1:
            wb = wb.mean(axis=tuple(range(1, wn)))
        if values.ndim > 1:
            values = values.mean(axis=tuple(range(1, values.ndim)))
        total, count = total + values.sum(), count + wb.sum()
    return total / count if count else 0.0


#: three update_state calls of MeanSquaredError (values (4, 3), or (4,) from rank-2 inputs), weights of different
#: ranks each time
METRIC_PROFILES = {
    "w(4,3)|w(4,)|w(4,3,1)": [_W, np.abs(_W[:, 1]), np.abs(_W[..., None]) + 0.5],
    "w(4,1)|w()|None": [np.abs(_W[:, :1]) + 0.25, np.array(2.0), None],
    "w(1,3)|w(4,3)|w()": [np.abs(_W[:1]), np.abs(_W) + 1.0, np.array(0.5)],
    "rank-1 values: w(4,)|w()|w(4,1)": [np.abs(_W[:, 0]) + 0.5, np.array(3.0), np.abs(_W[:, 1:2])],
}


@clause("keras.metric.sample-weight", ref="tf221")
@clause("keras.metric.update-result-reset", ref="tf221")
def test_sweep24b_mean_metric_state_over_calls_with_weights_of_each_rank(tf, budget):
    """MeanSquaredError (a MeanMetricWrapper) over three update_state calls, each with weights of another
    rank (a scalar weight makes the whole batch one sample, for rank-1 values too): result() after each call is
    Keras's weighted mean; after reset_state one more call starts over."""
    for profile in budget(list(METRIC_PROFILES)):
        for dtype in ("float32", "float64"):
            m = tf.keras.metrics.MeanSquaredError(dtype=dtype)
            seen = []
            y_true, y_pred = (Y1_TRUE, Y1_PRED) if profile.startswith("rank-1") else (Y3_TRUE, Y3_PRED)
            for step, w in enumerate(METRIC_PROFILES[profile]):
                shift = step * 0.25
                yt, yp = y_true + shift, y_pred - shift
                m.update_state(tf.constant(yt.astype(dtype)), tf.constant(yp.astype(dtype)),
                               sample_weight=None if w is None else tf.constant(w.astype(dtype)))
                seen.append((((yt - yp) ** 2).mean(-1), w))
                assert_close(m.result().numpy(), mean_metric_steps(seen), tolerance=TOL[dtype], what="result",
                             call=f"[MeanSquaredError {profile} {dtype}] after update {step + 1}")
            m.reset_state()
            w = METRIC_PROFILES[profile][0]
            m.update_state(tf.constant(y_true.astype(dtype)), tf.constant(y_pred.astype(dtype)),
                           sample_weight=tf.constant(w.astype(dtype)))
            want = mean_metric_steps([(((y_true - y_pred) ** 2).mean(-1), w)])
            assert_close(m.result().numpy(), want, tolerance=TOL[dtype], what="result",
                         call=f"[MeanSquaredError {profile} {dtype}] reset_state, then one update")


#: predictions exactly AT the thresholds 0.25, 0.5, 0.75 and on both sides of them
P_AT = np.array([[0.25, 0.5, 0.75], [0.2, 0.5, 0.8], [0.75, 0.25, 0.0], [1.0, 0.5, 0.3]])
T_AT = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 1, 0]], np.float64)
THRESHOLDS = [0.25, 0.5, 0.75]


@clause("keras.metric.precision-recall", ref="tf221")
@clause("keras.metric.sample-weight", ref="tf221")
def test_sweep24b_confusion_metrics_at_the_thresholds_with_weights_of_each_rank(tf, budget):
    """TruePositives/FalsePositives/FalseNegatives/Precision/Recall at thresholds the predictions hit exactly
    (a prediction equal to a threshold is NOT above it), weights of shape (4,), (4, 3), (4, 1), over two
    update_state calls (the second with the predictions reversed along the batch)."""
    weights = {"w(4,)": np.array([1.0, 0.5, 2.0, 0.0]), "w(4,3)": np.abs(_W), "w(4,1)": np.array([[2.0], [1.0],
                                                                                                  [0.5], [1.5]])}
    for wname in budget(list(weights)):
        w = weights[wname]
        wb = np.broadcast_to(w[:, None] if w.ndim == 1 else w, P_AT.shape)
        for cls in ("TruePositives", "FalsePositives", "FalseNegatives", "Precision", "Recall"):
            m = getattr(tf.keras.metrics, cls)(thresholds=THRESHOLDS)
            tp = fp = fn = np.zeros(3)
            for step in range(2):
                p, y, ww = (P_AT, T_AT, wb) if step == 0 else (P_AT[::-1], T_AT, wb)
                pos = p[None] > np.array(THRESHOLDS)[:, None, None]
                tp = tp + (ww * (pos & (y[None] == 1))).sum((1, 2))
                fp = fp + (ww * (pos & (y[None] == 0))).sum((1, 2))
                fn = fn + (ww * (~pos & (y[None] == 1))).sum((1, 2))
                m.update_state(tf.constant(y), tf.constant(p), sample_weight=tf.constant(w))
            with np.errstate(invalid="ignore", divide="ignore"):
                want = {"TruePositives": tp, "FalsePositives": fp, "FalseNegatives": fn,
                        "Precision": np.nan_to_num(tp / (tp + fp)), "Recall": np.nan_to_num(tp / (tp + fn))}[cls]
            assert_close(m.result().numpy(), want, tolerance=TOL["float32"], what="result",
                         call=f"[{cls}(thresholds={THRESHOLDS}) {wname}] predictions at the thresholds, 2 updates")
