"""tf.keras losses and metrics — clauses keras.loss.* and keras.metric.* (TF 2.21 + Keras 3.15).

Every expected value is computed here in NumPy (float64) from Keras 3.15's formulas (its
source: keras/src/losses, keras/src/metrics and the TensorFlow backend's crossentropies), never
from the backend under test. Tolerances: float32 computations against float64 references.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, assert_type_name, raises
from simdist.conformance.repro import Program

clause = pytest.mark.clause

EPS = 1e-7

P = np.array([[0.1, 0.7, 0.2], [0.5, 0.3, 0.2], [0.25, 0.25, 0.5], [0.3, 0.4, 0.3]], dtype=np.float32)
Y = np.array([1, 1, 2, 0], dtype=np.int32)
W = np.array([1.0, 0.0, 2.0, 0.5], dtype=np.float32)
LOGITS = np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0], [2.0, 2.0, -2.0], [0.5, 0.0, 1.5]], dtype=np.float32)
YT_REG = np.array([[1.0, 2.0], [0.5, -1.0], [3.0, 0.0], [-2.0, 1.0]], dtype=np.float32)
YP_REG = np.array([[1.5, 1.0], [0.0, -0.5], [2.0, 0.5], [-1.0, 1.0]], dtype=np.float32)


def _scce(p: np.ndarray, y: np.ndarray) -> np.ndarray:
    p = np.clip(p.astype(np.float64), EPS, 1 - EPS)
    return -np.log(p[np.arange(len(y)), y])


def _close(got, expected, call, what):
    """Elementwise, relative to the largest magnitude of the expected array."""
    assert_close(got, expected, call=call, what=what, scale=float(np.max(np.abs(expected))))


def _run(backend, src: str, **params):
    return Program(backend, src, **params).run()


# -- keras.loss.reductions -------------------------------------------------------------------------------
@clause("keras.loss.reductions", ref="tf221")
@pytest.mark.parametrize("reduction", ["sum_over_batch_size", "sum", "none", "mean", "mean_with_sample_weight"])
def test_loss_reductions(backend, reduction):
    ns = _run(backend, """
loss = tf.keras.losses.SparseCategoricalCrossentropy(reduction=reduction)
plain = loss(y, p).numpy()
weighted = loss(y, p, sample_weight=w).numpy()
""", reduction=reduction, p=P, y=Y, w=W)
    per = _scce(P, Y)
    red = {"sum_over_batch_size": lambda v, w: v.sum() / len(v), "mean": lambda v, w: v.sum() / len(v),
           "sum": lambda v, w: v.sum(), "none": lambda v, w: v,
           "mean_with_sample_weight": lambda v, w: v.sum() / (w.sum() if w is not None else len(v))}[reduction]
    call = f"SparseCategoricalCrossentropy(reduction={reduction!r})(y, p[, sample_weight])"
    _close(ns["plain"], red(per, None), call, "the loss")
    _close(ns["weighted"], red(per * W, W.astype(np.float64)), call, "the weighted loss")


@clause("keras.loss.reductions", ref="tf221")
def test_unknown_reduction_is_refused(backend):
    with raises(ValueError, match="Invalid value for argument `reduction`", call="MeanSquaredError(reduction='auto')"):
        _run(backend, "tf.keras.losses.MeanSquaredError(reduction='auto')")


# -- keras.loss.sample-weight ------------------------------------------------------------------------------
@clause("keras.loss.sample-weight", ref="tf221")
def test_sample_weight_shapes(backend):
    ns = _run(backend, """
mse = tf.keras.losses.MeanSquaredError()
per_sample = mse(yt, yp, sample_weight=w).numpy()
column = mse(yt, yp, sample_weight=w.reshape(-1, 1)).numpy()
scalar = mse(yt, yp, sample_weight=0.5).numpy()
""", yt=YT_REG, yp=YP_REG, w=W)
    per = ((YT_REG.astype(np.float64) - YP_REG) ** 2).mean(axis=1)
    call = "MeanSquaredError()(y_true, y_pred, sample_weight)"
    _close(ns["per_sample"], (per * W).sum() / len(per), call, "weights of shape (B,)")
    _close(ns["column"], (per * W).sum() / len(per), call, "weights of shape (B, 1)")
    _close(ns["scalar"], (per * 0.5).sum() / len(per), call, "a scalar weight")


# -- keras.loss.distribution-scaling -------------------------------------------------------------------------
@clause("keras.loss.distribution-scaling", ref="tf221")
def test_mean_losses_divide_by_replicas(backend):
    ns = _run(backend, """
strategy = backend.make_strategy("mirrored", 2)
mse = tf.keras.losses.MeanSquaredError()
summed = tf.keras.losses.MeanSquaredError(reduction="sum")
def step():
    r = tf.distribute.get_replica_context().replica_id_in_sync_group
    yt_r = tf.gather(tf.constant(yt), [2 * r, 2 * r + 1])
    yp_r = tf.gather(tf.constant(yp), [2 * r, 2 * r + 1])
    return mse(yt_r, yp_r), summed(yt_r, yp_r)
means, sums = strategy.run(step)
means = [float(x.numpy()) for x in strategy.experimental_local_results(means)]
sums = [float(x.numpy()) for x in strategy.experimental_local_results(sums)]
with strategy.scope():
    in_scope = float(mse(yt, yp).numpy())
outside = float(mse(yt, yp).numpy())
""", yt=YT_REG, yp=YP_REG)
    per = ((YT_REG.astype(np.float64) - YP_REG) ** 2).mean(axis=1)
    call = "MirroredStrategy(2): MeanSquaredError() inside strategy.run (2 samples per replica) and in the scope"
    _close(ns["means"], [per[:2].mean() / 2, per[2:].mean() / 2], call, "each replica's loss (local mean / 2)")
    _close(ns["sums"], [per[:2].sum(), per[2:].sum()], call, "each replica's reduction='sum' loss (unscaled)")
    _close(ns["in_scope"], per.mean() / 2, call, "the loss in the scope, outside run (also / 2)")
    _close(ns["outside"], per.mean(), call, "the loss outside any scope")


# -- keras.loss.dtype ----------------------------------------------------------------------------------------
@clause("keras.loss.dtype", ref="tf221")
def test_loss_dtype(backend):
    ns = _run(backend, """
default = tf.keras.losses.MeanAbsoluteError()(yt, tf.constant(yp.astype(np.float64)))
wide = tf.keras.losses.MeanAbsoluteError(dtype="float64")(yt, yp)
""", yt=YT_REG, yp=YP_REG)
    call = "MeanAbsoluteError() of float64 predictions; MeanAbsoluteError(dtype='float64')"
    assert_equal(ns["default"].dtype.name, "float32", call=call, what="the default loss dtype")
    assert_equal(ns["wide"].dtype.name, "float64", call=call, what="dtype='float64'")
    _close(ns["wide"].numpy(), np.abs(YT_REG.astype(np.float64) - YP_REG).mean(), call, "the float64 loss")


# -- keras.loss.from-logits ---------------------------------------------------------------------------------
@clause("keras.loss.from-logits", ref="tf221")
def test_crossentropies_from_logits(backend):
    ns = _run(backend, """
sparse = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")(y, logits).numpy()
onehot = tf.keras.losses.CategoricalCrossentropy(from_logits=True, reduction="none")(np.eye(3)[y], logits).numpy()
binary = tf.keras.losses.BinaryCrossentropy(from_logits=True, reduction="none")(bt, logits).numpy()
""", y=Y, logits=LOGITS, bt=(LOGITS > 0.7).astype(np.float32))
    z = LOGITS.astype(np.float64)
    lse = np.log(np.exp(z).sum(axis=1))
    ce = lse - z[np.arange(4), Y]
    t = (LOGITS > 0.7).astype(np.float64)
    bce = (np.maximum(z, 0) - z * t + np.log1p(np.exp(-np.abs(z)))).mean(axis=1)
    call = "crossentropy losses with from_logits=True, reduction='none'"
    _close(ns["sparse"], ce, call, "SparseCategoricalCrossentropy")
    _close(ns["onehot"], ce, call, "CategoricalCrossentropy")
    _close(ns["binary"], bce, call, "BinaryCrossentropy (mean over the last axis)")


# -- keras.loss.epsilon-clipping ------------------------------------------------------------------------------
@clause("keras.loss.epsilon-clipping", ref="tf221")
def test_probabilities_are_clipped(backend):
    ns = _run(backend, """
p = tf.constant([[0.0, 1.0], [0.5, 0.5]])
with tf.GradientTape() as tape:
    tape.watch(p)
    loss = tf.keras.losses.BinaryCrossentropy(reduction="none")(tf.constant([[1.0, 1.0], [1.0, 0.0]]), p)
grad = tape.gradient(loss, p).numpy()
loss = loss.numpy()
""")
    clipped = -np.log(EPS) / 2        # -log(eps) for the 0 predicted for a 1, 0 for the 1 predicted for a 1
    call = "BinaryCrossentropy(reduction='none') of probabilities [[0, 1], [0.5, 0.5]]"
    assert_close(ns["loss"], [clipped - np.log(1 - EPS) / 2, np.log(2.0)], call=call, what="the losses",
                 scale=20.0)
    assert_close(ns["grad"][0], [0.0, 0.0], call=call, what="the gradient at the clipped entries")
    assert_close(ns["grad"][1], [-1.0, 1.0], call=call, what="the gradient at 0.5 (-t/p + (1-t)/(1-p), / 2)",
                 scale=4.0)


# -- keras.loss.logits-shortcut -------------------------------------------------------------------------------
@clause("keras.loss.logits-shortcut", ref="tf221")
def test_softmax_output_carries_its_logits(backend):
    ns = _run(backend, """
logits = tf.constant([[0.0, 60.0], [1.0, 0.0]])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(logits)
    probs = tf.keras.activations.softmax(logits)
    tape.watch(probs)
    loss = tf.keras.losses.SparseCategoricalCrossentropy(reduction="none")(np.array([0, 0]), probs)
grad_probs = tape.gradient(loss, probs)
loss = loss.numpy()
""")
    call = "SparseCategoricalCrossentropy()(labels, keras.activations.softmax(logits)), a probability of 1e-26"
    # from the logits: 60 + log(1 + e^-60) for the first row; from clipped probabilities it would be 16.1
    assert_close(ns["loss"], [60.0, np.log1p(np.exp(-1.0))], call=call, what="the losses (computed from the logits)",
                 scale=60.0)
    assert_true(ns["grad_probs"] is None, f"{call}: the gradient w.r.t. the softmax output is "
                f"{ns['grad_probs']!r}, but should be None (the loss used the logits)", call=call)


@clause("keras.loss.logits-shortcut", ref="tf221")
def test_raw_softmax_and_sigmoid_in_a_function_give_their_logits(backend):
    """Inside a tf.function Keras's crossentropies look at y_pred's producing op: a raw Softmax (tf.nn.softmax,
    tf.math.softmax over the last axis) or Sigmoid (tf.sigmoid, tf.nn.sigmoid, tf.math.sigmoid) gives its input as
    the logits (keras/src/backend/tensorflow/nn.py `_get_logits`). TF 2.21, observed: logits [[100, -100], [-100,
    100]] against the other class cost 200 (categorical, sparse, the Loss class with or without from_logits) and
    100 (binary) where clipped probabilities give -log(1e-7) = 16.118095; a softmax over axis 0 (TF transposes
    around the op), `s * 1.0` and `tf.identity(s)` are no Softmax: 16.118095. Eagerly no tensor has an op."""
    ns = _run(backend, """
logits = tf.constant([[100.0, -100.0], [-100.0, 100.0]])
t = tf.constant([[0.0, 1.0], [1.0, 0.0]])
@tf.function
def f(l):
    s = tf.nn.softmax(l)
    return dict(
        cce=tf.keras.losses.categorical_crossentropy(t, s),
        cce_math=tf.keras.losses.categorical_crossentropy(t, tf.math.softmax(l)),
        scce=tf.keras.losses.sparse_categorical_crossentropy(tf.constant([1, 0]), s),
        cls=tf.keras.losses.CategoricalCrossentropy()(t, s),
        bce=tf.keras.losses.binary_crossentropy(t, tf.sigmoid(l)),
        bce_nn=tf.keras.losses.binary_crossentropy(t, tf.nn.sigmoid(l)),
        bce_math=tf.keras.losses.binary_crossentropy(t, tf.math.sigmoid(l)),
        axis0=tf.keras.losses.categorical_crossentropy(t, tf.nn.softmax(l, axis=0), axis=0),
        times_one=tf.keras.losses.categorical_crossentropy(t, s * 1.0),
        identity=tf.keras.losses.categorical_crossentropy(t, tf.identity(s)))
got = {k: v.numpy() for k, v in f(logits).items()}
eager = tf.keras.losses.categorical_crossentropy(t, tf.nn.softmax(logits)).numpy()
""")
    clipped = float(-np.log(np.float32(1e-7)))
    want = {"cce": 200.0, "cce_math": 200.0, "scce": 200.0, "cls": 200.0, "bce": 100.0, "bce_nn": 100.0,
            "bce_math": 100.0, "axis0": clipped, "times_one": clipped, "identity": clipped}
    for key, value in want.items():
        assert_close(ns["got"][key], np.full(() if key == "cls" else (2,), value, np.float32),
                     call=f"a crossentropy of a raw op's output in a tf.function ({key})",
                     what="the loss (200/100: from the logits; 16.118: from clipped probabilities)", scale=200.0)
    assert_close(ns["eager"], np.full((2,), clipped, np.float32), scale=200.0,
                 call="categorical_crossentropy(t, tf.nn.softmax(logits)) eagerly", what="the loss (clipped)")


# -- keras.loss.shapes ------------------------------------------------------------------------------------------
@clause("keras.loss.shapes", ref="tf221")
def test_label_shapes_and_shape_errors(backend):
    ns = _run(backend, """
flat = tf.keras.losses.SparseCategoricalCrossentropy()(y, p).numpy()
column = tf.keras.losses.SparseCategoricalCrossentropy()(y.reshape(-1, 1), p).numpy()
""", y=Y, p=P)
    call = "SparseCategoricalCrossentropy() with labels of shape (B,) and (B, 1)"
    _close(ns["flat"], _scce(P, Y).mean(), call, "labels (B,)")
    _close(ns["column"], _scce(P, Y).mean(), call, "labels (B, 1)")
    with raises(ValueError, match="must have the same rank", call="categorical_crossentropy of ranks 1 and 2"):
        _run(backend, "tf.keras.losses.categorical_crossentropy(tf.constant([0.0, 1.0, 0.0]), tf.constant(p))", p=P)


# -- keras.loss.ignore-class -------------------------------------------------------------------------------------
@clause("keras.loss.ignore-class", ref="tf221")
def test_ignored_class_is_masked_out(backend):
    ns = _run(backend, """
mean = tf.keras.losses.SparseCategoricalCrossentropy(ignore_class=1)(y, p).numpy()
none = tf.keras.losses.SparseCategoricalCrossentropy(ignore_class=1, reduction="none")(y, p).numpy()
""", y=Y, p=P)
    per = _scce(P, Y)
    keep = Y != 1
    call = "SparseCategoricalCrossentropy(ignore_class=1)"
    _close(ns["none"], np.where(keep, per, 0.0), call, "reduction='none' (0 for the ignored labels)")
    _close(ns["mean"], per[keep].mean(), call, "the mean over the other entries")


# -- keras.loss.label-smoothing -----------------------------------------------------------------------------------
@clause("keras.loss.label-smoothing", ref="tf221")
def test_label_smoothing(backend):
    ns = _run(backend, """
cce = tf.keras.losses.CategoricalCrossentropy(label_smoothing=0.3, reduction="none")(np.eye(3)[y], p).numpy()
bce = tf.keras.losses.BinaryCrossentropy(label_smoothing=0.3, reduction="none")(bt, p).numpy()
""", y=Y, p=P, bt=(P > 0.25).astype(np.float32))
    p = np.clip(P.astype(np.float64), EPS, 1 - EPS)
    t = np.eye(3)[Y] * 0.7 + 0.1
    tb = (P > 0.25).astype(np.float64) * 0.7 + 0.15
    call = "label_smoothing=0.3"
    _close(ns["cce"], -(t * np.log(p)).sum(axis=1), call, "CategoricalCrossentropy")
    _close(ns["bce"], -(tb * np.log(p) + (1 - tb) * np.log(1 - p)).mean(axis=1), call, "BinaryCrossentropy")


# -- keras.loss.functions / keras.loss.get --------------------------------------------------------------------------
@clause("keras.loss.functions", ref="tf221")
def test_function_forms_are_per_sample(backend):
    ns = _run(backend, """
sparse = tf.keras.losses.sparse_categorical_crossentropy(y, p).numpy()
mse = tf.keras.losses.mse(yt, yp).numpy()
mae = tf.keras.losses.mae(yt, yp).numpy()
""", y=Y, p=P, yt=YT_REG, yp=YP_REG)
    call = "the function forms"
    _close(ns["sparse"], _scce(P, Y), call, "sparse_categorical_crossentropy (one value per sample)")
    _close(ns["mse"], ((YT_REG.astype(np.float64) - YP_REG) ** 2).mean(axis=1), call, "mse")
    _close(ns["mae"], np.abs(YT_REG.astype(np.float64) - YP_REG).mean(axis=1), call, "mae")


@clause("keras.loss.get", ref="tf221")
def test_losses_get(backend):
    ns = _run(backend, """
cls = type(tf.keras.losses.get("SparseCategoricalCrossentropy")).__name__
fn = tf.keras.losses.get("mse")(yt, yp).numpy()
has_long_name = hasattr(tf.keras.losses, "mean_squared_error")
""", yt=YT_REG, yp=YP_REG)
    call = "tf.keras.losses.get"
    assert_equal(ns["cls"], "SparseCategoricalCrossentropy", call=call, what="get('SparseCategoricalCrossentropy')")
    _close(ns["fn"], ((YT_REG.astype(np.float64) - YP_REG) ** 2).mean(axis=1), call, "get('mse')(y_true, y_pred)")
    assert_equal(ns["has_long_name"], False, call=call, what="hasattr(tf.keras.losses, 'mean_squared_error')")


# -- metrics ------------------------------------------------------------------------------------------------------
@clause("keras.metric.update-result-reset", ref="tf221")
def test_mean_update_result_reset(backend):
    ns = _run(backend, """
m = tf.keras.metrics.Mean()
m.update_state([1.0, 3.0])
first = float(m.result().numpy())
m.update_state([5.0])
second = float(m.result().numpy())
m.reset_state()
after_reset = float(m.result().numpy())
called = float(m([2.0, 4.0]).numpy())
name = m.name
paths = [v.path for v in m.variables]
""")
    call = "keras.metrics.Mean(): update [1, 3], update [5], reset, m([2, 4])"
    assert_close([ns["first"], ns["second"], ns["after_reset"], ns["called"]], [2.0, 3.0, 0.0, 3.0], call=call,
                 what="results")
    assert_equal(ns["name"], "mean", call=call, what="the name")
    assert_equal(ns["paths"], ["mean/total", "mean/count"], call=call, what="the variables' paths")


@clause("keras.metric.sample-weight", ref="tf221")
def test_weighted_mean_and_accuracy(backend):
    ns = _run(backend, """
m = tf.keras.metrics.Mean()
m.update_state(x, sample_weight=w)
mean = float(m.result().numpy())
a = tf.keras.metrics.SparseCategoricalAccuracy()
a.update_state(y, p, sample_weight=w)
acc = float(a.result().numpy())
""", x=np.array([1.0, 2.0, 3.0, 4.0], np.float32), w=W, y=Y, p=P)
    hits = (np.argmax(P, axis=1) == Y).astype(np.float64)
    call = "Mean and SparseCategoricalAccuracy with sample_weight [1, 0, 2, 0.5]"
    assert_close(ns["mean"], (np.array([1, 2, 3, 4]) * W).sum() / W.sum(), call=call, what="Mean")
    assert_close(ns["acc"], (hits * W).sum() / W.sum(), call=call, what="SparseCategoricalAccuracy")


@clause("keras.metric.central-storage", ref="tf221")
def test_central_storage_metric_merges_by_sum(backend):
    ns = _run(backend, """
strategy = backend.make_strategy("central_storage", 2)
with strategy.scope():
    m = tf.keras.metrics.Mean()
def step(x):
    m.update_state(x)
for xs in batches:
    x = strategy.experimental_distribute_values_from_function(lambda ctx: tf.constant(xs[ctx.replica_id_in_sync_group]))
    strategy.run(step, args=(x,))
total = float(m.total.numpy())
count = float(m.count.numpy())
result = float(m.result().numpy())
""", batches=[[np.array([1.0, 2.0], np.float32), np.array([3.0], np.float32)],
              [np.array([4.0], np.float32), np.array([5.0, 6.0], np.float32)]])
    # each replica assigns total + x_r; the AggregatingVariable adds the two assigns
    t1, c1 = 6.0, 3.0
    t2, c2 = 2 * t1 + 15.0, 2 * c1 + 3.0
    call = "CentralStorageStrategy(2): keras Mean updated in strategy.run, 2 steps"
    assert_close([ns["total"], ns["count"], ns["result"]], [t2, c2, t2 / c2], call=call,
                 what="total, count, result (n*old + new sums)")


@clause("keras.metric.accuracy", ref="tf221")
def test_accuracy_metrics(backend):
    ns = _run(backend, """
def res(m, *args):
    m.update_state(*args)
    return float(m.result().numpy())
sparse = res(tf.keras.metrics.SparseCategoricalAccuracy(), y, p)
categorical = res(tf.keras.metrics.CategoricalAccuracy(), np.eye(3)[y], p)
binary = res(tf.keras.metrics.BinaryAccuracy(threshold=0.3), bt, p)
exact = res(tf.keras.metrics.Accuracy(), [1, 2, 3, 4], [1, 2, 0, 4])
""", y=Y, p=P, bt=(P > 0.2).astype(np.float32))
    call = "accuracy metrics"
    hits = (np.argmax(P, axis=1) == Y).mean()
    assert_close(ns["sparse"], hits, call=call, what="SparseCategoricalAccuracy")
    assert_close(ns["categorical"], hits, call=call, what="CategoricalAccuracy")
    assert_close(ns["binary"], ((P > 0.3) == (P > 0.2)).mean(), call=call, what="BinaryAccuracy(threshold=0.3)")
    assert_close(ns["exact"], 0.75, call=call, what="Accuracy")


def _auc_reference(y: np.ndarray, p: np.ndarray, w: np.ndarray, n: int) -> float:
    t = np.array([-EPS] + [(i + 1) / (n - 1) for i in range(n - 2)] + [1 + EPS])
    pos = (p[None, :] > t[:, None])
    tp = (pos * (y * w)[None, :]).sum(axis=1)
    fp = (pos * ((1 - y) * w)[None, :]).sum(axis=1)
    fn = (y * w).sum() - tp
    tn = ((1 - y) * w).sum() - fp
    tpr = np.divide(tp, tp + fn, out=np.zeros_like(tp), where=(tp + fn) > 0)
    fpr = np.divide(fp, fp + tn, out=np.zeros_like(fp), where=(fp + tn) > 0)
    return float(((fpr[:-1] - fpr[1:]) * (tpr[:-1] + tpr[1:]) / 2).sum())


@clause("keras.metric.auc", ref="tf221")
@pytest.mark.parametrize("num_thresholds", [200, 7])
def test_roc_auc(backend, num_thresholds):
    rng = np.random.default_rng(num_thresholds)
    y = rng.integers(0, 2, 30).astype(np.float32)
    p = np.clip(rng.random(30) * 0.6 + y * 0.3, 0.0, 1.0).astype(np.float32)
    p = (np.round(p * 997) / 997 + 1 / 3000).astype(np.float32)   # (away from the thresholds)
    w = rng.uniform(0.5, 2.0, 30).astype(np.float32)
    ns = _run(backend, """
auc = tf.keras.metrics.AUC(num_thresholds=n)
auc.update_state(y[:12], p[:12], sample_weight=w[:12])
auc.update_state(y[12:], p[12:], sample_weight=w[12:])
result = float(auc.result().numpy())
shape = tuple(auc.true_positives.shape)
""", n=num_thresholds, y=y, p=p, w=w)
    call = f"AUC(num_thresholds={num_thresholds}) over 2 weighted updates"
    assert_close(ns["result"], _auc_reference(y.astype(np.float64), p.astype(np.float64), w.astype(np.float64),
                                              num_thresholds), call=call, what="the ROC AUC", scale=8.0)
    assert_equal(ns["shape"], (num_thresholds,), call=call, what="true_positives.shape")


@clause("keras.metric.get", ref="tf221")
def test_metrics_get(backend):
    ns = _run(backend, """
names = {k: type(tf.keras.metrics.get(k)).__name__
         for k in ("sparse_categorical_accuracy", "mse", "accuracy", "auc", "BinaryAccuracy")}
""")
    assert_equal(ns["names"], {"sparse_categorical_accuracy": "SparseCategoricalAccuracy", "mse": "MeanSquaredError",
                               "accuracy": "Accuracy", "auc": "AUC", "BinaryAccuracy": "BinaryAccuracy"},
                 call="tf.keras.metrics.get(name)", what="the classes")


@clause("keras.metric.accuracy-resolution", ref="tf221")
@pytest.mark.parametrize("variant", ["binary", "sparse", "categorical"])
def test_compiled_accuracy_follows_the_shapes(backend, variant):
    # (binary: p > 0.5 and "argmax == label" disagree on these, so the variant shows in the value)
    preds = {"binary": P[:, 1:2], "sparse": P, "categorical": P}[variant]
    labels = {"binary": (Y == 1).astype(np.float32), "sparse": Y, "categorical": np.eye(3, dtype=np.float32)[Y]}[variant]
    loss = {"binary": "mse", "sparse": "sparse_categorical_crossentropy", "categorical": "categorical_crossentropy"}
    ns = _run(backend, """
model = tf.keras.Sequential([tf.keras.layers.Activation("linear")])
model.compile(loss=loss, metrics=["accuracy"])
loss_value, accuracy = model.evaluate(preds, labels, verbose=0)
""", loss=loss[variant], preds=preds, labels=labels)
    expected = {"binary": ((P[:, 1] > 0.5) == (Y == 1)).mean(),
                "sparse": (np.argmax(P, axis=1) == Y).mean(),
                "categorical": (np.argmax(P, axis=1) == Y).mean()}[variant]
    call = f"compile(metrics=['accuracy']) then evaluate, y_true {labels.shape}, y_pred {preds.shape}"
    assert_close(ns["accuracy"], expected, call=call, what="the accuracy")
    assert_type_name(ns["model"], ("Sequential", "Model"), call=call, what="model")
