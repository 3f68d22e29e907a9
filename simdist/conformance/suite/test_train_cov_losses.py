"""Every tf.keras loss × every reduction × its options, value and gradient — clause
keras.loss.option-coverage (TF 2.21 + Keras 3.15).

References in NumPy (float64), transcribed from keras-team/keras v3.15:
- keras/src/losses/losses.py: `mean_squared_error`, `mean_absolute_error`,
  `binary_crossentropy` (label smoothing towards 0.5, mean over `axis`),
  `categorical_crossentropy` (label smoothing over `shape[-1]` classes),
  `sparse_categorical_crossentropy` (`ignore_class`: zeroed entries and a Keras mask);
- keras/src/backend/tensorflow/nn.py: the crossentropies (probabilities renormalised over `axis`
  and clipped to [1e-7, 1 - 1e-7]; logits through the stable softmax/sigmoid forms);
- keras/src/losses/loss.py: `reduce_weighted_values`, `apply_mask` (a masked entry weighs 0, the
  others total/valid under "sum_over_batch_size" and "mean"), `reduce_values` (the divisor: the
  number of loss entries, or the sum of the weights for "mean_with_sample_weight").
Gradients with respect to y_pred: central differences of the NumPy reference (float64, h=1e-6),
never the backend's. Every input keeps away from the clip bounds and from MAE's kink.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close
from simdist.conformance.repro import Program

clause = pytest.mark.clause

EPS = 1e-7
REDUCTIONS = ("sum_over_batch_size", "sum", "none", "mean", "mean_with_sample_weight")
_rng = np.random.default_rng(29)   # fixed inputs, drawn once from a fixed seed


def _arr(shape, lo, hi):
    return _rng.uniform(lo, hi, size=shape).astype(np.float32)


REG_T, REG_P = _arr((4, 3), -2, 2), _arr((4, 3), -2, 2)
SEQ_T, SEQ_P = _arr((2, 3, 2), -2, 2), _arr((2, 3, 2), -2, 2)
BIN_T = np.array([[1, 0, 1], [0, 0, 1], [1, 1, 0], [0, 1, 0]], dtype=np.float32)
BIN_P, BIN_X = _arr((4, 3), 0.05, 0.95), _arr((4, 3), -3, 3)
BIN3_T, BIN3_P = (_rng.uniform(size=(2, 3, 2)) > 0.5).astype(np.float32), _arr((2, 3, 2), 0.05, 0.95)
CAT_T = np.eye(3, dtype=np.float32)[[1, 0, 2, 1]]
SOFT_T = np.array([[0.2, 0.7, 0.1], [0.5, 0.5, 0.0], [0.0, 0.1, 0.9], [1 / 3, 1 / 3, 1 / 3]], dtype=np.float32)
CAT_P, CAT_X = _arr((4, 3), 0.1, 0.9), _arr((4, 3), -3, 3)        # rows do not sum to 1
CAT3_T, CAT3_X = np.eye(3, dtype=np.float32)[[[0, 2, 1], [1, 1, 0]]], _arr((2, 3, 3), -3, 3)
SPARSE_Y = np.array([1, 0, 2, 1], dtype=np.int32)
SPARSE3_Y = np.array([[0, 2, 1], [1, 1, 0]], dtype=np.int32)
W_VEC = np.array([1.0, 0.0, 2.0, 0.5], dtype=np.float32)
W2_MAT = np.array([[1.0, 0.0, 2.0], [0.5, 1.5, 1.0]], dtype=np.float32)


# -- per-entry losses (before reduction) ---------------------------------------------------------------------
def _log_softmax(x, axis):
    m = np.max(x, axis=axis, keepdims=True)
    return x - m - np.log(np.sum(np.exp(x - m), axis=axis, keepdims=True))


def per_entry(kind: str, kw: dict, yt: np.ndarray, yp: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """(the loss of each entry, the Keras mask or None)."""
    yt = yt.astype(np.float64)
    yp = yp.astype(np.float64)
    axis = kw.get("axis", -1)
    ls = kw.get("label_smoothing", 0.0)
    logits = kw.get("from_logits", False)
    if kind == "MeanSquaredError":
        return np.mean((yt - yp) ** 2, axis=-1), None
    if kind == "MeanAbsoluteError":
        return np.mean(np.abs(yt - yp), axis=-1), None
    if kind == "BinaryCrossentropy":
        t = yt * (1 - ls) + 0.5 * ls
        if logits:
            e = np.maximum(yp, 0) - yp * t + np.log1p(np.exp(-np.abs(yp)))
        else:
            p = np.clip(yp, EPS, 1 - EPS)
            e = -(t * np.log(p) + (1 - t) * np.log(1 - p))
        return np.mean(e, axis=axis), None
    if kind == "CategoricalCrossentropy":
        t = yt * (1 - ls) + ls / yt.shape[-1] if ls else yt
        if logits:
            return -np.sum(t * _log_softmax(yp, axis), axis=axis), None
        p = np.clip(yp / np.sum(yp, axis=axis, keepdims=True), EPS, 1 - EPS)
        return -np.sum(t * np.log(p), axis=axis), None
    # SparseCategoricalCrossentropy
    y = yt.astype(np.int64)
    mask = None
    if kw.get("ignore_class") is not None:
        mask = y != kw["ignore_class"]
        y = np.where(mask, y, 0)
        yp = np.where(mask[..., None], yp, 0.0)
    lg = yp if logits else np.log(np.clip(yp, EPS, 1 - EPS))
    out = -np.take_along_axis(_log_softmax(lg, -1), y[..., None], axis=-1)[..., 0]
    if mask is not None:
        out = np.where(mask, out, 0.0)
    return out, mask


def reduced(kind, kw, reduction, yt, yp, sw):
    values, mask = per_entry(kind, kw, yt, yp)
    w = None if sw is None else np.asarray(sw, np.float64)
    if mask is not None:
        fm = mask.astype(np.float64)
        if reduction in ("mean", "sum_over_batch_size"):
            fm = np.where(mask, fm.size / fm.sum(), 0.0)
        w = fm if w is None else w * fm
    if w is not None:
        while w.ndim < values.ndim:
            w = w[..., None]
        values = values * w
    if reduction == "none":
        return values
    total = np.sum(values)
    if reduction == "sum":
        return total
    if reduction == "mean_with_sample_weight" and w is not None:
        return total / np.sum(w)
    return total / values.size


def numeric_grad(f, x: np.ndarray, h: float = 1e-6) -> np.ndarray:
    x = x.astype(np.float64)
    g = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += h
        down[i] -= h
        g[i] = (f(up) - f(down)) / (2 * h)
    return g


# (loss class, its options, y_true, y_pred, the weights to try besides None)
CASES = [
    ("MeanSquaredError", {}, REG_T, REG_P, W_VEC),
    ("MeanSquaredError", {}, SEQ_T, SEQ_P, W2_MAT),
    ("MeanAbsoluteError", {}, REG_T, REG_P, W_VEC),
    ("MeanAbsoluteError", {}, SEQ_T, SEQ_P, W2_MAT),
    ("BinaryCrossentropy", {}, BIN_T, BIN_P, W_VEC),
    ("BinaryCrossentropy", {"from_logits": True}, BIN_T, BIN_X, W_VEC),
    ("BinaryCrossentropy", {"label_smoothing": 0.2}, BIN_T, BIN_P, W_VEC),
    ("BinaryCrossentropy", {"from_logits": True, "label_smoothing": 0.3}, BIN_T, BIN_X, W_VEC),
    ("BinaryCrossentropy", {"axis": 0}, BIN_T, BIN_P, np.array([1.0, 0.5, 2.0], np.float32)),
    ("BinaryCrossentropy", {}, BIN3_T, BIN3_P, W2_MAT),
    ("CategoricalCrossentropy", {}, CAT_T, CAT_P, W_VEC),
    ("CategoricalCrossentropy", {}, SOFT_T, CAT_P, W_VEC),
    ("CategoricalCrossentropy", {"from_logits": True}, SOFT_T, CAT_X, W_VEC),
    ("CategoricalCrossentropy", {"label_smoothing": 0.1}, CAT_T, CAT_P, W_VEC),
    ("CategoricalCrossentropy", {"from_logits": True, "label_smoothing": 0.2}, CAT_T, CAT_X, W_VEC),
    ("CategoricalCrossentropy", {"axis": 0}, CAT_T, CAT_P, np.array([1.0, 0.5, 2.0], np.float32)),
    # targets summing to 1 along axis 0: TF's softmax_cross_entropy_with_logits differentiates as
    # softmax - labels, which is the derivative only where the labels sum to 1
    ("CategoricalCrossentropy", {"from_logits": True, "axis": 0}, SOFT_T / SOFT_T.sum(axis=0), CAT_X,
     np.array([1.0, 0.5, 2.0], np.float32)),
    ("CategoricalCrossentropy", {"from_logits": True}, CAT3_T, CAT3_X, W2_MAT),
    ("SparseCategoricalCrossentropy", {}, SPARSE_Y, CAT_P, W_VEC),
    ("SparseCategoricalCrossentropy", {"from_logits": True}, SPARSE_Y, CAT_X, W_VEC),
    ("SparseCategoricalCrossentropy", {"ignore_class": 1}, SPARSE_Y, CAT_P, W_VEC),
    ("SparseCategoricalCrossentropy", {"from_logits": True, "ignore_class": 2}, SPARSE_Y, CAT_X, W_VEC),
    ("SparseCategoricalCrossentropy", {"from_logits": True}, SPARSE3_Y, CAT3_X, W2_MAT),
]
PARAMS = [(c, w) for c in CASES for w in (False, True)]


def _id(case, weighted):
    kind, kw, yt, yp, _ = case
    opts = "-".join(f"{k}={v}" for k, v in kw.items()) or "defaults"
    return f"{kind}-{opts}-{'x'.join(map(str, yp.shape))}-{'weighted' if weighted else 'unweighted'}"


@clause("keras.loss.option-coverage", ref="tf221")
@pytest.mark.parametrize("case,weighted", PARAMS, ids=[_id(c, w) for c, w in PARAMS])
def test_loss_value_and_gradient(backend, case, weighted):
    """Each reduction of `kind(**kw)(y_true, y_pred[, sample_weight])` and d(sum(out * r))/d(y_pred)."""
    kind, kw, yt, yp, weights = case
    sw = weights if weighted else None
    shapes = {red: np.shape(reduced(kind, kw, red, yt, yp, sw)) for red in REDUCTIONS}
    rs = {red: np.arange(1.0, 1.0 + np.prod(s, dtype=int)).reshape(s).astype(np.float32) / 4 for red, s in shapes.items()}
    prog = Program(backend, """
out, grads = {}, {}
for red in reductions:
    loss = getattr(tf.keras.losses, kind)(reduction=red, **kw)
    x = tf.constant(yp)
    with tf.GradientTape() as tape:
        tape.watch(x)
        value = loss(yt, x) if sw is None else loss(yt, x, sample_weight=sw)
        objective = tf.reduce_sum(value * tf.constant(rs[red]))
    out[red] = value.numpy()
    grads[red] = tape.gradient(objective, x).numpy()
""", kind=kind, kw=kw, yt=yt, yp=yp, sw=sw, reductions=list(REDUCTIONS), rs=rs)
    ns = prog.run()
    for red in REDUCTIONS:
        call = f"tf.keras.losses.{kind}(reduction={red!r}, {kw})(y_true, y_pred{', sample_weight' if weighted else ''})"
        want = reduced(kind, kw, red, yt, yp, sw)
        assert_close(ns["out"][red], want, call=call, what="the loss")
        r = rs[red].astype(np.float64)
        grad = numeric_grad(lambda p: float(np.sum(reduced(kind, kw, red, yt, p, sw) * r)), yp)
        assert_close(ns["grads"][red], grad, call=call, what="d(sum(loss * r))/d(y_pred)",
                     scale=float(np.max(np.abs(grad))))
