"""The rest of tf.keras.losses (Huber, KLDivergence, CosineSimilarity, the hinges, MAPE, MSLE,
LogCosh, Poisson, the focal crossentropies, Dice, Tversky, CategoricalGeneralizedCrossEntropy, CTC,
Circle): value under every reduction, with and without
sample_weight, with the classes' options, and gradient w.r.t. y_pred; function forms, `get`,
get_config round trips, and compile(loss=..., metrics=[...]) by name — clauses
keras.loss.option-coverage, keras.loss.functions, keras.loss.get, keras.loss.focal (TF 2.21 +
Keras 3.15).

References in NumPy (float64), transcribed from keras-team/keras v3.15
keras/src/losses/losses.py (`huber`, `kl_divergence`, `cosine_similarity` with
keras/src/ops/nn.py `normalize`, `hinge`/`squared_hinge`/`convert_binary_labels_to_hinge`,
`categorical_hinge`, `mean_absolute_percentage_error`, `mean_squared_logarithmic_error`,
`log_cosh`, `poisson`, `binary_focal_crossentropy`, `categorical_focal_crossentropy`, `dice`,
`tversky`, `categorical_generalized_cross_entropy`, `circle` with numerical_utils.build_pos_neg_masks,
and `ctc`: the CTC forward algorithm, transcribed
from Graves et al. 2006 as tf.nn.ctc_loss computes it, blank 0) and
keras/src/losses/loss.py (the reductions). Gradients: central differences of the NumPy reference,
never the backend's; inputs keep away from every kink (Huber's delta, the hinges' 0, the clips).
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises
from simdist.conformance.repro import Program
from simdist.conformance.suite.test_train_cov_losses import numeric_grad

clause = pytest.mark.clause

EPS = 1e-7
REDUCTIONS = ("sum_over_batch_size", "sum", "none", "mean", "mean_with_sample_weight")
_rng = np.random.default_rng(2115)   # fixed inputs, drawn once from a fixed seed


def _arr(shape, lo, hi):
    return _rng.uniform(lo, hi, size=shape).astype(np.float32)


REG_T, REG_P = _arr((4, 3), -2, 2), _arr((4, 3), -2, 2)
POS_T, POS_P = _arr((4, 3), 0.1, 3), _arr((4, 3), 0.1, 3)
SIGNED_T = (np.sign(_arr((4, 3), -1, 1)) * _arr((4, 3), 0.5, 2)).astype(np.float32)   # |y_true| >= 0.5
PROB_T, PROB_P = _arr((4, 3), 0.05, 0.95), _arr((4, 3), 0.05, 0.95)
BIN_T = np.array([[1, 0, 1], [0, 0, 1], [1, 1, 0], [0, 1, 0]], dtype=np.float32)
PM_T = 2 * BIN_T - 1
PM0_T = PM_T * np.array([1, 0, 1], dtype=np.float32)   # -1/0/1: not binary, so kept as they are
LOGITS = _arr((4, 3), -3, 3)
CAT_T = np.eye(3, dtype=np.float32)[[1, 0, 2, 1]]
SEG_T, SEG_P = (_rng.uniform(size=(2, 3, 3)) > 0.5).astype(np.float32), _arr((2, 3, 3), 0.05, 0.95)
SPARSE_Y = np.array([2, 0, 1, 1], dtype=np.int32)
CTC_Y = np.array([[1, 2, 0], [3, 3, 1]], dtype=np.int32)     # 0 pads (and is the blank)
CTC_X = _arr((2, 6, 4), -2, 2)
W_VEC = np.array([1.0, 0.0, 2.0, 0.5], dtype=np.float32)
W_PAIR = np.array([1.0, 0.5], dtype=np.float32)
CIRCLE_Y = np.array([0, 1, 0, 2, 1, 3], dtype=np.int32)   # classes 2 and 3 have no positive pair
CIRCLE_X = _arr((6, 4), -1, 1)
CIRCLE_X = (0.9 * CIRCLE_X / np.linalg.norm(CIRCLE_X, axis=1, keepdims=True)).astype(np.float32)  # no zero distance
W_SIX = np.array([1.0, 0.5, 2.0, 1.0, 0.0, 1.0], dtype=np.float32)
W_COL = np.array([1.0, 0.5, 2.0], dtype=np.float32)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _softmax(x, axis):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _l2_normalize(x, axis):
    return x * np.minimum(1 / np.sqrt(np.sum(x * x, axis=axis, keepdims=True)), 1 / EPS)


def _hinge_labels(t):
    return 2 * t - 1 if np.all((t == 0) | (t == 1)) else t


def _ctc(labels: np.ndarray, logits: np.ndarray) -> float:
    """-log p(labels | logits) by the CTC forward algorithm (blank 0, every time step used)."""
    log_probs = logits - np.log(np.sum(np.exp(logits - logits.max(-1, keepdims=True)), -1, keepdims=True)) \
        - logits.max(-1, keepdims=True)
    ext = [0]
    for c in labels[labels != 0]:
        ext += [int(c), 0]
    alpha = np.full(len(ext), -np.inf)
    alpha[0] = log_probs[0, 0]
    if len(ext) > 1:
        alpha[1] = log_probs[0, ext[1]]
    for t in range(1, len(log_probs)):
        prev = alpha.copy()
        for s in range(len(ext)):
            terms = [prev[s]] + ([prev[s - 1]] if s >= 1 else []) + \
                ([prev[s - 2]] if s >= 2 and ext[s] != 0 and ext[s] != ext[s - 2] else [])
            alpha[s] = np.logaddexp.reduce(terms) + log_probs[t, ext[s]]
    return float(-np.logaddexp(alpha[-1], alpha[-2]) if len(ext) > 1 else -alpha[-1])


def _logsumexp_rows(x, mask):
    x = np.where(mask, x, -np.inf)
    m = np.max(x, axis=1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):
        return np.log(np.sum(np.exp(x - m), axis=1)) + m[:, 0]


def _circle(labels, x, gamma=80.0, margin=0.4, remove_diagonal=True):
    d = np.maximum(1 - x @ x.T, 0.0)
    pos = labels[:, None] == labels[None, :]
    neg = ~pos
    if remove_diagonal:
        pos = pos & ~np.eye(len(labels), dtype=bool)
    a_p = np.maximum((margin + d) * pos, 0.0)
    a_n = np.maximum((1 + margin - d) * neg, 0.0)
    z = _logsumexp_rows(-gamma * a_p * (margin - d), pos) + _logsumexp_rows(gamma * a_n * (1 - margin - d), neg)
    return np.logaddexp(0.0, z)                       # softplus; a row without positives gives 0


def per_sample(kind: str, kw: dict, yt: np.ndarray, yp: np.ndarray) -> np.ndarray:
    """Keras 3.15's function form of `kind` (one value per sample), in float64."""
    t, p = yt.astype(np.float64), yp.astype(np.float64)
    if kind == "Circle":
        return _circle(yt, p, **kw)
    axis = kw.get("axis", -1)
    if kind in ("Dice", "Tversky"):
        axis = kw.get("axis")
        tp = np.sum(t * p, axis=axis)
        if kind == "Dice":
            return 1 - 2 * tp / (np.sum(t, axis=axis) + np.sum(p, axis=axis) + EPS)
        fp, fn = np.sum((1 - p) * t, axis=axis), np.sum(p * (1 - t), axis=axis)
        return 1 - tp / (tp + kw.get("alpha", 0.5) * fp + kw.get("beta", 0.5) * fn + EPS)
    if kind == "CategoricalGeneralizedCrossEntropy":
        q = kw.get("q", 0.5)
        return (1 - p[np.arange(len(p)), yt.astype(np.int64)] ** q) / q
    if kind == "CTC":
        return np.array([_ctc(yt[i], p[i]) for i in range(len(p))])
    if kind == "Huber":
        d = kw.get("delta", 1.0)
        e = p - t
        return np.mean(np.where(np.abs(e) <= d, 0.5 * e * e, d * np.abs(e) - 0.5 * d * d), axis=-1)
    if kind == "KLDivergence":
        t, p = np.clip(t, EPS, 1), np.clip(p, EPS, 1)
        return np.sum(t * np.log(t / p), axis=-1)
    if kind == "CosineSimilarity":
        return -np.sum(_l2_normalize(t, axis) * _l2_normalize(p, axis), axis=axis)
    if kind == "Hinge":
        return np.mean(np.maximum(1 - _hinge_labels(t) * p, 0), axis=-1)
    if kind == "SquaredHinge":
        return np.mean(np.maximum(1 - _hinge_labels(t) * p, 0) ** 2, axis=-1)
    if kind == "CategoricalHinge":
        return np.maximum(np.max((1 - t) * p, axis=-1) - np.sum(t * p, axis=-1) + 1, 0)
    if kind == "MeanAbsolutePercentageError":
        return 100 * np.mean(np.abs((t - p) / np.maximum(np.abs(t), EPS)), axis=-1)
    if kind == "MeanSquaredLogarithmicError":
        return np.mean((np.log(np.maximum(p, EPS) + 1) - np.log(np.maximum(t, EPS) + 1)) ** 2, axis=-1)
    if kind == "LogCosh":
        return np.mean(np.log(np.cosh(p - t)), axis=-1)
    if kind == "Poisson":
        return np.mean(p - t * np.log(p + EPS), axis=-1)
    alpha, gamma, ls = kw.get("alpha", 0.25), kw.get("gamma", 2.0), kw.get("label_smoothing", 0.0)
    if kind == "BinaryFocalCrossentropy":
        t = t * (1 - ls) + 0.5 * ls
        if kw.get("from_logits"):
            prob = _sigmoid(p)
            bce = np.maximum(p, 0) - p * t + np.log1p(np.exp(-np.abs(p)))
        else:
            prob = p
            q = np.clip(p, EPS, 1 - EPS)
            bce = -(t * np.log(q) + (1 - t) * np.log(1 - q))
        p_t = t * prob + (1 - t) * (1 - prob)
        focal = (1 - p_t) ** gamma * bce
        if kw.get("apply_class_balancing"):
            focal = (t * alpha + (1 - t) * (1 - alpha)) * focal
        return np.mean(focal, axis=axis)
    assert kind == "CategoricalFocalCrossentropy", kind
    if ls:
        t = t * (1 - ls) + ls / t.shape[-1]
    prob = _softmax(p, axis) if kw.get("from_logits") else p
    out = np.clip(prob / np.sum(prob, axis=axis, keepdims=True), EPS, 1 - EPS)
    return np.sum(alpha * (1 - out) ** gamma * (-t * np.log(out)), axis=axis)


def reduced(kind, kw, reduction, yt, yp, sw):
    """The reduction as keras/src/losses/loss.py: Circle's zero entries carry a Keras mask, which
    weighs them 0 and the others total/valid under "sum_over_batch_size" and "mean"."""
    values = per_sample(kind, kw, yt, yp)
    w = None if sw is None else np.asarray(sw, np.float64)
    if kind == "Circle":
        mask = values > 0
        fm = mask.astype(np.float64)
        if reduction in ("mean", "sum_over_batch_size"):
            fm = np.where(mask, fm.size / fm.sum(), 0.0)
        w = fm if w is None else w * fm
    if w is not None:
        values = values * w
    sw = w
    if reduction == "none":
        return values
    total = np.sum(values)
    if reduction == "sum":
        return total
    if reduction == "mean_with_sample_weight" and sw is not None:
        return total / np.sum(np.asarray(sw, np.float64))
    return total / values.size


# (loss class, its options, y_true, y_pred, the weights to try besides None)
CASES = [
    ("Huber", {}, REG_T, REG_P, W_VEC),
    ("Huber", {"delta": 0.5}, REG_T, REG_P, W_VEC),
    ("Huber", {"delta": 2.5}, REG_T, 2 * REG_P, W_VEC),
    ("KLDivergence", {}, PROB_T, PROB_P, W_VEC),
    ("CosineSimilarity", {}, REG_T, REG_P, W_VEC),
    ("CosineSimilarity", {"axis": 0}, REG_T, REG_P, W_COL),
    ("Hinge", {}, BIN_T, LOGITS, W_VEC),
    ("Hinge", {}, SIGNED_T, LOGITS, W_VEC),
    ("Hinge", {}, PM0_T, LOGITS, W_VEC),
    ("SquaredHinge", {}, BIN_T, LOGITS, W_VEC),
    ("SquaredHinge", {}, PM_T, LOGITS, W_VEC),
    ("CategoricalHinge", {}, CAT_T, LOGITS, W_VEC),
    ("MeanAbsolutePercentageError", {}, SIGNED_T, REG_P, W_VEC),
    ("MeanSquaredLogarithmicError", {}, POS_T, POS_P, W_VEC),
    ("LogCosh", {}, REG_T, 2 * REG_P, W_VEC),
    ("Poisson", {}, POS_T, POS_P, W_VEC),
    ("BinaryFocalCrossentropy", {}, BIN_T, PROB_P, W_VEC),
    ("BinaryFocalCrossentropy", {"from_logits": True}, BIN_T, LOGITS, W_VEC),
    ("BinaryFocalCrossentropy", {"apply_class_balancing": True, "alpha": 0.4, "gamma": 1.5}, BIN_T, PROB_P, W_VEC),
    ("BinaryFocalCrossentropy", {"from_logits": True, "label_smoothing": 0.2, "gamma": 3.0}, BIN_T, LOGITS, W_VEC),
    ("BinaryFocalCrossentropy", {"axis": 0}, BIN_T, PROB_P, W_COL),
    ("CategoricalFocalCrossentropy", {}, CAT_T, PROB_P, W_VEC),
    ("CategoricalFocalCrossentropy", {"from_logits": True}, CAT_T, LOGITS, W_VEC),
    ("CategoricalFocalCrossentropy", {"alpha": 0.6, "gamma": 1.0, "label_smoothing": 0.1}, CAT_T, PROB_P, W_VEC),
    ("CategoricalFocalCrossentropy", {"from_logits": True, "axis": 0}, CAT_T, LOGITS, W_COL),
    ("Dice", {}, SEG_T, SEG_P, W_PAIR),
    ("Dice", {"axis": (1, 2)}, SEG_T, SEG_P, W_PAIR),
    ("Tversky", {}, SEG_T, SEG_P, W_PAIR),
    ("Tversky", {"alpha": 0.7, "beta": 0.3, "axis": (1, 2)}, SEG_T, SEG_P, W_PAIR),
    ("CategoricalGeneralizedCrossEntropy", {}, SPARSE_Y, PROB_P, W_VEC),
    ("CategoricalGeneralizedCrossEntropy", {"q": 0.2}, SPARSE_Y, PROB_P, W_VEC),
    ("CTC", {}, CTC_Y, CTC_X, W_PAIR),
    ("Circle", {}, CIRCLE_Y, CIRCLE_X, W_SIX),
    ("Circle", {"gamma": 2.0, "margin": 0.25}, CIRCLE_Y, CIRCLE_X, W_SIX),
    ("Circle", {"gamma": 4.0, "remove_diagonal": False}, CIRCLE_Y, CIRCLE_X, W_SIX),
]
PARAMS = [(c, w) for c in CASES for w in (False, True)]


def _case_id(case, weighted):
    kind, kw, yt, _, _ = case
    opts = "-".join(f"{k}={v}" for k, v in kw.items()) or "defaults"
    labels = next(name for name, arr in (("reg", REG_T), ("pos", POS_T), ("signed", SIGNED_T), ("prob", PROB_T),
                                         ("binary", BIN_T), ("pm1", PM_T), ("pm1-and-0", PM0_T),
                                         ("onehot", CAT_T), ("mask", SEG_T), ("sparse", SPARSE_Y), ("ctc", CTC_Y),
                                         ("labels", CIRCLE_Y)) if arr is yt)
    return f"{kind}-{opts}-{labels}-{'weighted' if weighted else 'unweighted'}"


@clause("keras.loss.option-coverage", ref="tf221")
@pytest.mark.parametrize("case,weighted", PARAMS, ids=[_case_id(c, w) for c, w in PARAMS])
def test_more_loss_value_and_gradient(backend, case, weighted):
    """Each reduction of `kind(**kw)(y_true, y_pred[, sample_weight])` and d(sum(out * r))/d(y_pred)."""
    kind, kw, yt, yp, weights = case
    sw = weights if weighted else None
    shapes = {red: np.shape(reduced(kind, kw, red, yt, yp, sw)) for red in REDUCTIONS}
    rs = {red: np.arange(1.0, 1.0 + np.prod(s, dtype=int)).reshape(s).astype(np.float32) / 4
          for red, s in shapes.items()}
    ns = Program(backend, """
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
""", kind=kind, kw=kw, yt=yt, yp=yp, sw=sw, reductions=list(REDUCTIONS), rs=rs).run()
    for red in REDUCTIONS:
        call = f"tf.keras.losses.{kind}(reduction={red!r}, {kw})(y_true, y_pred{', sample_weight' if weighted else ''})"
        want = reduced(kind, kw, red, yt, yp, sw)
        assert_close(ns["out"][red], want, call=call, what="the loss", scale=float(np.max(np.abs(want))))
        r = rs[red].astype(np.float64)
        grad = numeric_grad(lambda p: float(np.sum(reduced(kind, kw, red, yt, p, sw) * r)), yp)
        assert_close(ns["grads"][red], grad, call=call, what="d(sum(loss * r))/d(y_pred)",
                     scale=float(np.max(np.abs(grad))))


# tf.keras.losses attribute -> (the class whose function it is, options, y_true, y_pred)
FUNCTIONS = {
    "huber": ("Huber", {}, REG_T, REG_P), "kld": ("KLDivergence", {}, PROB_T, PROB_P),
    "KLD": ("KLDivergence", {}, PROB_T, PROB_P),
    "kullback_leibler_divergence": ("KLDivergence", {}, PROB_T, PROB_P),
    "cosine_similarity": ("CosineSimilarity", {}, REG_T, REG_P), "hinge": ("Hinge", {}, BIN_T, LOGITS),
    "squared_hinge": ("SquaredHinge", {}, BIN_T, LOGITS), "categorical_hinge": ("CategoricalHinge", {}, CAT_T, LOGITS),
    "mape": ("MeanAbsolutePercentageError", {}, SIGNED_T, REG_P),
    "MAPE": ("MeanAbsolutePercentageError", {}, SIGNED_T, REG_P),
    "msle": ("MeanSquaredLogarithmicError", {}, POS_T, POS_P),
    "MSLE": ("MeanSquaredLogarithmicError", {}, POS_T, POS_P),
    "logcosh": ("LogCosh", {}, REG_T, REG_P), "poisson": ("Poisson", {}, POS_T, POS_P),
    "binary_focal_crossentropy": ("BinaryFocalCrossentropy", {}, BIN_T, PROB_P),
    "categorical_focal_crossentropy": ("CategoricalFocalCrossentropy", {}, CAT_T, PROB_P),
    "dice": ("Dice", {}, SEG_T, SEG_P), "tversky": ("Tversky", {}, SEG_T, SEG_P), "ctc": ("CTC", {}, CTC_Y, CTC_X),
    "circle": ("Circle", {}, CIRCLE_Y, CIRCLE_X),
}


@clause("keras.loss.functions", ref="tf221")
def test_more_function_forms_are_per_sample(backend):
    ns = Program(backend, """
out = {name: getattr(tf.keras.losses, name)(yt, yp).numpy() for name, (yt, yp) in inputs.items()}
with_options = {
    "huber(delta=0.5)": tf.keras.losses.huber(reg_t, reg_p, delta=0.5).numpy(),
    "cosine_similarity(axis=0)": tf.keras.losses.cosine_similarity(reg_t, reg_p, axis=0).numpy(),
    "categorical_generalized_cross_entropy(q=0.3)":
        tf.keras.losses.categorical_generalized_cross_entropy(sparse_y, prob_p, q=0.3).numpy(),
    "tversky(alpha=0.8, beta=0.2, axis=-1)": tf.keras.losses.tversky(seg_t, seg_p, alpha=0.8, beta=0.2, axis=-1).numpy(),
}
""", inputs={k: (v[2], v[3]) for k, v in FUNCTIONS.items()}, reg_t=REG_T, reg_p=REG_P, sparse_y=SPARSE_Y,
                 prob_p=PROB_P, seg_t=SEG_T, seg_p=SEG_P).run()
    for name, (kind, kw, yt, yp) in FUNCTIONS.items():
        assert_close(ns["out"][name], per_sample(kind, kw, yt, yp), call=f"tf.keras.losses.{name}(y_true, y_pred)",
                     what="one value per sample")
    assert_close(ns["with_options"]["huber(delta=0.5)"], per_sample("Huber", {"delta": 0.5}, REG_T, REG_P),
                 call="tf.keras.losses.huber(y_true, y_pred, delta=0.5)", what="one value per sample")
    assert_close(ns["with_options"]["cosine_similarity(axis=0)"],
                 per_sample("CosineSimilarity", {"axis": 0}, REG_T, REG_P),
                 call="tf.keras.losses.cosine_similarity(y_true, y_pred, axis=0)", what="one value per column")
    assert_close(ns["with_options"]["categorical_generalized_cross_entropy(q=0.3)"],
                 per_sample("CategoricalGeneralizedCrossEntropy", {"q": 0.3}, SPARSE_Y, PROB_P),
                 call="tf.keras.losses.categorical_generalized_cross_entropy(labels, probs, q=0.3)",
                 what="one value per sample")
    assert_close(ns["with_options"]["tversky(alpha=0.8, beta=0.2, axis=-1)"],
                 per_sample("Tversky", {"alpha": 0.8, "beta": 0.2, "axis": -1}, SEG_T, SEG_P),
                 call="tf.keras.losses.tversky(y_true, y_pred, alpha=0.8, beta=0.2, axis=-1)",
                 what="one value per row")


# Observed on TF 2.21 + Keras 3.15: what losses.get makes of each name (class -> instance's
# class name, function -> its __name__), and the names it refuses although tf.keras.losses has
# them as attributes (its table knows the functions' own names, log_cosh and kl_divergence).
GET_NAMES = {
    "Huber": "Huber", "huber": "huber", "KLDivergence": "KLDivergence", "kld": "kl_divergence",
    "KLD": "kl_divergence", "kl_divergence": "kl_divergence", "log_cosh": "log_cosh", "LogCosh": "LogCosh",
    "mape": "mean_absolute_percentage_error", "MAPE": "mean_absolute_percentage_error",
    "mean_absolute_percentage_error": "mean_absolute_percentage_error",
    "msle": "mean_squared_logarithmic_error", "MSLE": "mean_squared_logarithmic_error", "poisson": "poisson",
    "Poisson": "Poisson", "cosine_similarity": "cosine_similarity", "CosineSimilarity": "CosineSimilarity",
    "hinge": "hinge", "SquaredHinge": "SquaredHinge", "categorical_hinge": "categorical_hinge",
    "binary_focal_crossentropy": "binary_focal_crossentropy",
    "CategoricalFocalCrossentropy": "CategoricalFocalCrossentropy", "dice": "dice", "Dice": "Dice",
    "tversky": "tversky", "Tversky": "Tversky", "ctc": "ctc", "CTC": "CTC", "circle": "circle", "Circle": "Circle",
}
GET_REFUSED = ("logcosh", "kullback_leibler_divergence", "huber_loss", "CategoricalGeneralizedCrossEntropy",
               "categorical_generalized_cross_entropy")


@clause("keras.loss.get", ref="tf221")
def test_more_losses_get(backend):
    ns = Program(backend, """
got = {}
for name in names:
    obj = tf.keras.losses.get(name)
    got[name] = type(obj).__name__ if isinstance(obj, tf.keras.losses.Loss) else obj.__name__
value = tf.keras.losses.get("huber")(reg_t, reg_p).numpy()
""", names=list(GET_NAMES), reg_t=REG_T, reg_p=REG_P).run()
    assert_equal(ns["got"], GET_NAMES, call="tf.keras.losses.get(name)", what="the class or function of each name")
    assert_close(ns["value"], per_sample("Huber", {}, REG_T, REG_P), call="tf.keras.losses.get('huber')(yt, yp)",
                 what="the huber function's values")
    for name in GET_REFUSED:
        with raises(ValueError, match="Could not interpret loss identifier", call=f"tf.keras.losses.get({name!r})"):
            Program(backend, "tf.keras.losses.get(name)", name=name).run()


# (class, constructor options): get_config must hold what Keras 3.15's get_config holds
ROUND_TRIPS = [
    ("Huber", {"delta": 0.5, "reduction": "sum", "name": "h"}),
    ("CosineSimilarity", {"axis": 0}),
    ("KLDivergence", {}), ("Poisson", {"reduction": "none"}), ("LogCosh", {}), ("Hinge", {}), ("SquaredHinge", {}),
    ("CategoricalHinge", {}), ("MeanAbsolutePercentageError", {}), ("MeanSquaredLogarithmicError", {}),
    ("BinaryFocalCrossentropy", {"apply_class_balancing": True, "alpha": 0.4, "gamma": 1.5, "from_logits": True,
                                 "label_smoothing": 0.1, "axis": 0}),
    ("CategoricalFocalCrossentropy", {"alpha": 0.6, "gamma": 1.0, "from_logits": True, "label_smoothing": 0.1}),
    ("Dice", {"axis": (1, 2)}), ("Tversky", {"alpha": 0.7, "beta": 0.3}), ("CTC", {}),
    ("CategoricalGeneralizedCrossEntropy", {"q": 0.3}), ("Circle", {"gamma": 2.0, "margin": 0.3, "remove_diagonal": False}),
]


@clause("keras.loss.get", ref="tf221")
def test_more_losses_config_round_trip(backend):
    """from_config(get_config()) gives the same config, and the same values as the original."""
    ns = Program(backend, """
configs, same = {}, {}
for kind, kw in cases:
    loss = getattr(tf.keras.losses, kind)(**kw)
    config = loss.get_config()
    again = type(loss).from_config(config)
    via_get = (tf.keras.losses.get({"class_name": kind, "config": config})
               if kind != "CategoricalGeneralizedCrossEntropy" else again)   # not in get's table
    configs[kind] = (config, again.get_config(), via_get.get_config())
    args = inputs.get(kind, (yt, yp))
    same[kind] = (np.asarray(loss(*args)).tolist(), np.asarray(again(*args)).tolist())
""", cases=ROUND_TRIPS, yt=BIN_T, yp=PROB_P, np=np,
                 inputs={"Dice": (SEG_T, SEG_P), "Tversky": (SEG_T, SEG_P), "CTC": (CTC_Y, CTC_X),
                         "CategoricalGeneralizedCrossEntropy": (SPARSE_Y, PROB_P), "Circle": (CIRCLE_Y, CIRCLE_X)}).run()
    for kind, kw in ROUND_TRIPS:
        config, again, via_get = ns["configs"][kind]
        call = f"tf.keras.losses.{kind}({kw}).get_config() round trip"
        assert_equal(again, config, call=call, what="from_config(config).get_config()")
        assert_equal(via_get, config, call=call, what="get({'class_name', 'config'}).get_config()")
        kept = {k: v for k, v in kw.items() if k in config}
        expected_kept = {k: v for k, v in kw.items() if not (kind in ("Huber", "CosineSimilarity")
                                                              and k in ("delta", "axis"))}
        assert_equal(kept, expected_kept, call=call, what="the options get_config keeps (Huber and "
                     "CosineSimilarity drop delta/axis, as Keras 3.15)")
        before, after = ns["same"][kind]
        if kind not in ("Huber", "CosineSimilarity"):
            assert_close(np.asarray(after), np.asarray(before), call=call, what="the restored loss's value")


@clause("keras.loss.focal", ref="tf221")
def test_focal_weighting(backend):
    """gamma=0 without class balancing is the plain crossentropy; each unit of gamma multiplies an
    entry by (1 - p_t); class balancing weighs positives alpha and negatives 1 - alpha."""
    ns = Program(backend, """
bce = tf.keras.losses.binary_crossentropy(yt, yp).numpy()
bfc0 = tf.keras.losses.binary_focal_crossentropy(yt, yp, gamma=0.0).numpy()
cce = tf.keras.losses.categorical_crossentropy(cat, yp).numpy()
cfc0 = tf.keras.losses.categorical_focal_crossentropy(cat, yp, gamma=0.0, alpha=1.0).numpy()
bal = tf.keras.losses.binary_focal_crossentropy(yt, yp, gamma=0.0, apply_class_balancing=True, alpha=0.8).numpy()
ratio = (tf.keras.losses.BinaryFocalCrossentropy(gamma=1.0, reduction="none")(yt[:, :1], yp[:, :1])
         / tf.keras.losses.BinaryFocalCrossentropy(gamma=0.0, reduction="none")(yt[:, :1], yp[:, :1])).numpy()
""", yt=BIN_T, yp=PROB_P, cat=CAT_T).run()
    call = "the focal crossentropies"
    assert_close(ns["bfc0"], ns["bce"], call=call, what="binary_focal_crossentropy(gamma=0) vs binary_crossentropy")
    assert_close(ns["cfc0"], ns["cce"], call=call,
                 what="categorical_focal_crossentropy(gamma=0, alpha=1) vs categorical_crossentropy")
    t, p = BIN_T.astype(np.float64), PROB_P.astype(np.float64)
    bce = -(t * np.log(p) + (1 - t) * np.log(1 - p))
    assert_close(ns["bal"], np.mean((t * 0.8 + (1 - t) * 0.2) * bce, axis=-1), call=call,
                 what="apply_class_balancing=True, alpha=0.8, gamma=0")
    p_t = t[:, 0] * p[:, 0] + (1 - t[:, 0]) * (1 - p[:, 0])
    assert_close(ns["ratio"], 1 - p_t, call=call, what="loss(gamma=1) / loss(gamma=0) per sample (1 - p_t)")


def _huber_fit_reference(x, y, lr, epochs):
    """Full-batch SGD on Dense(1) from zeros under the Huber loss; each epoch's logs are the
    pre-update loss and the metrics of the pre-update predictions, under the names compile was given."""
    w, b = np.zeros((x.shape[1], 1)), 0.0
    logs = []
    for _ in range(epochs):
        pred = x @ w + b
        e = pred - y
        loss = float(np.mean(np.where(np.abs(e) <= 1, 0.5 * e * e, np.abs(e) - 0.5)))
        mape = float(100 * np.mean(np.abs((y - pred) / np.maximum(np.abs(y), EPS))))
        msle = float(np.mean((np.log(np.maximum(pred, EPS) + 1) - np.log(np.maximum(y, EPS) + 1)) ** 2))
        r2 = float(1 - np.sum(e ** 2) / np.sum((y - y.mean()) ** 2))
        logs.append({"loss": loss, "mape": mape, "msle": msle, "r2_score": r2})   # named as written
        g = np.clip(e, -1, 1) / len(y)
        w, b = w - lr * (x.T @ g), b - lr * float(np.sum(g))
    return logs


@clause("keras.loss.get", ref="tf221")
def test_compile_by_name_and_fit(backend):
    x = _arr((8, 2), -1, 1)
    y = (1.5 + x @ np.array([[2.0], [-1.0]], np.float32)).astype(np.float32)
    ns = Program(backend, """
model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, kernel_initializer="zeros")])
model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="huber", metrics=["mape", "msle", "r2_score"])
history = model.fit(x, y, batch_size=8, epochs=3, shuffle=False, verbose=0).history
""", x=x, y=y).run()
    want = _huber_fit_reference(x.astype(np.float64), y.astype(np.float64), 0.5, 3)
    call = "compile(loss='huber', metrics=['mape', 'msle', 'r2_score']) then fit, 3 full-batch epochs"
    assert_equal(sorted(ns["history"]), sorted(want[0]), call=call, what="the history's keys")
    for key in want[0]:
        assert_close(np.asarray(ns["history"][key]), np.array([e[key] for e in want]), call=call,
                     what=f"history[{key!r}]")
