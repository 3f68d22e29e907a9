"""The classes around the sixty-second blind batch's mutants (tests/mutants.py TRAINING_BATCH62: Keras layers,
losses and metrics, optimizers and schedules, callbacks, saving), each checked as a class: every optimizer's
trajectory in float32 and float64 over enough steps for a bias correction's power or a default's last digit to
show, every schedule at each step, the common losses and metrics with their options and on sequence shapes, the
default configs of the losses, metrics and callbacks, the layers' shapes, dtypes and normalizations, the callback
hooks' indices, and weights loaded into sub-layers held in containers.

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program
on TF (`python -m simdist.conformance.suite.test_blind62_gaps --record`, which rewrites blind62_reference.json.gz).
Floats are compared by their bits (the hex of the IEEE value): the batch's numerically subtle mutants (a default
beta_2, a bias correction one step ahead, pow as exp(log), a truncated pi, a variance as E[x^2] - E[x]^2) move a
value by a few ulps, which any tolerance would hide."""

from __future__ import annotations

import contextlib
import gzip
import json
import os
import tempfile
from typing import Any, Callable

import numpy as np
import pytest

from simdist.conformance.suite.recorded_programs import (avx2_recording_cpu, avx2_without_onednn, emulating,
                                                          error as _error, plain as _plain)

PATH = os.path.join(os.path.dirname(__file__), "blind62_reference.json.gz")


def _bits(t: Any) -> list[Any]:
    """A tensor's (or array's) values: floats as the hex of their exact value, others as Python numbers."""
    a = np.asarray(t.numpy() if hasattr(t, "numpy") else t)
    if a.dtype.kind == "f":
        return [float(v).hex() for v in a.astype(np.float64).ravel()]
    return a.ravel().tolist()


PROGRAMS: dict[str, Callable[[Any], Any]] = {}


def _program(name: str, fn: Callable[[Any], Any]) -> None:
    PROGRAMS[name] = fn


# -- 1. optimizers: trajectories in float32 and float64, 30 steps (pow(beta, t) and exp(t log beta) part at t = 8) --
_OPTIMIZERS: dict[str, tuple[str, dict[str, Any]]] = {
    "adam": ("Adam", {"learning_rate": 0.01}),
    "adam-default": ("Adam", {}),
    "adam-betas": ("Adam", {"learning_rate": 0.01, "beta_1": 0.8, "beta_2": 0.99}),
    "adam-beta1-099": ("Adam", {"learning_rate": 0.01, "beta_1": 0.99}),
    "adam-amsgrad": ("Adam", {"learning_rate": 0.01, "amsgrad": True}),
    "adamw": ("AdamW", {"learning_rate": 0.01}),
    "adamax": ("Adamax", {"learning_rate": 0.01}),
    "nadam": ("Nadam", {"learning_rate": 0.01}),
    "lamb": ("Lamb", {"learning_rate": 0.01}),
    "rmsprop": ("RMSprop", {"learning_rate": 0.01}),
    "rmsprop-default": ("RMSprop", {}),
    "rmsprop-momentum": ("RMSprop", {"learning_rate": 0.01, "momentum": 0.5}),
    "rmsprop-centered": ("RMSprop", {"learning_rate": 0.01, "centered": True}),
    "sgd-momentum": ("SGD", {"learning_rate": 0.05, "momentum": 0.9}),
    "sgd-nesterov": ("SGD", {"learning_rate": 0.05, "momentum": 0.9, "nesterov": True}),
    "adagrad": ("Adagrad", {"learning_rate": 0.05}),
    "adadelta": ("Adadelta", {"learning_rate": 0.5}),
    "ftrl": ("Ftrl", {"learning_rate": 0.05}),
}


def _grad(step: int) -> np.ndarray:
    """Gradients that change sign and size from step to step, small enough for epsilon to weigh."""
    return np.array([0.01 * (step + 1), -0.3 + 0.05 * step, 1e-4 * (step + 1), 0.5 * (-1) ** step, 2e-3 / (step + 1)])


for _key, (_cls, _kw) in _OPTIMIZERS.items():
    for _dtype in ("float32", "float64"):
        def _run(tf: Any, cls: str = _cls, kw: dict = _kw, dtype: str = _dtype) -> Any:
            opt = getattr(tf.keras.optimizers, cls)(**kw)
            var = tf.Variable(np.array([0.0, -2.0, 0.0, 3.0, 0.0], dtype))   # (zeros: updates' last bits show)
            out = []
            for t in range(30):
                opt.apply_gradients([(tf.constant(_grad(t).astype(dtype)), var)])
                if t in (0, 1, 7, 8, 11, 20, 29):
                    out.append(_bits(var))
            config = {k: v for k, v in opt.get_config().items() if k != "name"}
            return {"steps": out, "config": _plain(config)}
        _program(f"opt-{_key}-{_dtype}", _run)


# -- 2. schedules: the value at each step 0..40 (float32 bits) ------------------------------------------------------
def _schedules(tf: Any) -> dict[str, Any]:
    S = tf.keras.optimizers.schedules
    return {
        "exponential": S.ExponentialDecay(0.1, 7, 0.5),
        "exponential-staircase": S.ExponentialDecay(0.1, 4, 0.5, staircase=True),
        "inverse-time-staircase": S.InverseTimeDecay(0.1, 4, 0.5, staircase=True),
        "polynomial-cycle": S.PolynomialDecay(0.1, 6, 0.01, power=2.0, cycle=True),
        "cosine": S.CosineDecay(0.1, 30),
        "cosine-alpha": S.CosineDecay(0.1, 13, alpha=0.1),
        "cosine-warmup": S.CosineDecay(0.0, 20, warmup_target=0.1, warmup_steps=5),
        "cosine-restarts": S.CosineDecayRestarts(0.1, 6),
        "cosine-restarts-t1": S.CosineDecayRestarts(0.1, 5, t_mul=1.0, m_mul=0.5),
        "piecewise": S.PiecewiseConstantDecay([3, 9], [0.1, 0.05, 0.01]),
    }


for _name in ("exponential", "exponential-staircase", "inverse-time-staircase", "polynomial-cycle", "cosine",
              "cosine-alpha", "cosine-warmup", "cosine-restarts", "cosine-restarts-t1", "piecewise"):
    _program(f"schedule-{_name}", lambda tf, n=_name: [_bits(_schedules(tf)[n](s))[0] for s in range(41)])


# -- 3. losses: the common losses with their options, on rank-2 and sequence (rank-3) shapes, weighted or not -------
def _loss_data(rank: int) -> tuple[np.ndarray, ...]:
    r = np.random.RandomState(62 + rank)
    shape = (4, 3) if rank == 2 else (4, 5, 3)
    logits = r.uniform(-3, 3, shape).astype("float32")
    probs = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
    labels = r.randint(0, 3, shape[:-1])
    onehot = np.eye(3, dtype="float32")[labels]
    binary = (r.rand(*shape) > 0.5).astype("float32")
    regress = r.uniform(-2, 2, shape).astype("float32")
    weights = r.uniform(0.1, 2.0, shape[:-1]).astype("float32")
    return logits, probs.astype("float32"), labels, onehot, binary, regress, weights


def _losses(tf: Any) -> dict[str, tuple[Any, str, str]]:
    L = tf.keras.losses
    return {   # name -> (loss, y_true kind, y_pred kind)
        "bce": (L.BinaryCrossentropy(), "binary", "sigmoid"),
        "bce-logits": (L.BinaryCrossentropy(from_logits=True), "binary", "logits"),
        "bce-smooth": (L.BinaryCrossentropy(label_smoothing=0.2), "binary", "sigmoid"),
        "cce": (L.CategoricalCrossentropy(), "onehot", "probs"),
        "cce-logits": (L.CategoricalCrossentropy(from_logits=True), "onehot", "logits"),
        "cce-smooth": (L.CategoricalCrossentropy(label_smoothing=0.1), "onehot", "probs"),
        "scce": (L.SparseCategoricalCrossentropy(), "labels", "probs"),
        "scce-logits": (L.SparseCategoricalCrossentropy(from_logits=True), "labels", "logits"),
        "scce-ignore": (L.SparseCategoricalCrossentropy(from_logits=True, ignore_class=1), "labels", "logits"),
        "mse": (L.MeanSquaredError(), "regress", "logits"),
        "mae": (L.MeanAbsoluteError(), "regress", "logits"),
        "mape": (L.MeanAbsolutePercentageError(), "regress", "logits"),
        "msle": (L.MeanSquaredLogarithmicError(), "binary", "sigmoid"),
        "huber": (L.Huber(), "regress", "logits"),
        "huber-delta": (L.Huber(delta=0.3), "regress", "logits"),
        "logcosh": (L.LogCosh(), "regress", "logits"),
        "cosine": (L.CosineSimilarity(axis=-1), "regress", "logits"),
        "kld": (L.KLDivergence(), "probs", "probs"),
        "poisson": (L.Poisson(), "binary", "sigmoid"),
        "hinge": (L.Hinge(), "binary", "logits"),
        "squared-hinge": (L.SquaredHinge(), "binary", "logits"),
        "bfce": (L.BinaryFocalCrossentropy(gamma=1.5), "binary", "sigmoid"),
        "bfce-logits-balanced": (L.BinaryFocalCrossentropy(apply_class_balancing=True, alpha=0.3, from_logits=True),
                                 "binary", "logits"),
        "cfce-logits": (L.CategoricalFocalCrossentropy(from_logits=True, gamma=1.0), "onehot", "logits"),
        "mse-sum": (L.MeanSquaredError(reduction="sum"), "regress", "logits"),
        "mse-none": (L.MeanSquaredError(reduction="none"), "regress", "logits"),
        "bce-mean-weights": (L.BinaryCrossentropy(reduction="mean_with_sample_weight"), "binary", "sigmoid"),
    }


def _loss_program(tf: Any, name: str, rank: int, weighted: bool) -> Any:
    logits, probs, labels, onehot, binary, regress, weights = _loss_data(rank)
    data = {"logits": logits, "probs": probs, "labels": labels, "onehot": onehot, "binary": binary,
            "regress": regress, "sigmoid": 1 / (1 + np.exp(-logits))}
    loss, yk, pk = _losses(tf)[name]
    kw = {"sample_weight": weights} if weighted else {}
    return {"value": _error(lambda: _bits(loss(data[yk], data[pk].astype("float32"), **kw))),
            "config": _plain(loss.get_config())}


_LOSS_NAMES = ["bce", "bce-logits", "bce-smooth", "cce", "cce-logits", "cce-smooth", "scce", "scce-logits",
               "scce-ignore", "mse", "mae", "mape", "msle", "huber", "huber-delta", "logcosh", "cosine", "kld",
               "poisson", "hinge", "squared-hinge", "bfce", "bfce-logits-balanced", "cfce-logits", "mse-sum",
               "mse-none", "bce-mean-weights"]
for _name in _LOSS_NAMES:
    for _rank in (2, 3):
        _program(f"loss-{_name}-rank{_rank}", lambda tf, n=_name, r=_rank: _loss_program(tf, n, r, False))
    _program(f"loss-{_name}-weighted", lambda tf, n=_name: _loss_program(tf, n, 2, True))


# -- 4. metrics: options, results, dtypes under a mixed policy, configs ---------------------------------------------
def _metrics(tf: Any) -> dict[str, tuple[Any, str, str]]:
    M = tf.keras.metrics
    return {
        "accuracy": (M.Accuracy(), "binary", "binary"),
        "binary-accuracy": (M.BinaryAccuracy(), "binary", "sigmoid"),
        "binary-accuracy-threshold": (M.BinaryAccuracy(threshold=0.8), "binary", "sigmoid"),
        "categorical-accuracy": (M.CategoricalAccuracy(), "onehot", "probs"),
        "sparse-categorical-accuracy": (M.SparseCategoricalAccuracy(), "labels", "probs"),
        "top-k": (M.TopKCategoricalAccuracy(k=2), "onehot", "probs"),
        "top-k-1": (M.TopKCategoricalAccuracy(k=1), "onehot", "probs"),
        "sparse-top-k": (M.SparseTopKCategoricalAccuracy(k=2), "labels", "probs"),
        "mse": (M.MeanSquaredError(), "regress", "logits"),
        "mae": (M.MeanAbsoluteError(), "regress", "logits"),
        "rmse": (M.RootMeanSquaredError(), "regress", "logits"),
        "cosine": (M.CosineSimilarity(), "regress", "logits"),
        "bce": (M.BinaryCrossentropy(from_logits=True, label_smoothing=0.1), "binary", "logits"),
        "cce": (M.CategoricalCrossentropy(from_logits=True), "onehot", "logits"),
        "scce": (M.SparseCategoricalCrossentropy(from_logits=True), "labels", "logits"),
        "true-positives": (M.TruePositives(), "binary", "sigmoid"),
        "false-positives": (M.FalsePositives(), "binary", "sigmoid"),
        "true-negatives": (M.TrueNegatives(), "binary", "sigmoid"),
        "false-negatives": (M.FalseNegatives(), "binary", "sigmoid"),
        "true-positives-list": (M.TruePositives(thresholds=[0.3, 0.6]), "binary", "sigmoid"),
        "false-positives-list": (M.FalsePositives(thresholds=[0.3, 0.6]), "binary", "sigmoid"),
        "precision": (M.Precision(), "binary", "sigmoid"),
        "recall": (M.Recall(thresholds=0.3), "binary", "sigmoid"),
        "auc": (M.AUC(), "binary", "sigmoid"),
    }


def _metric_program(tf: Any, name: str, weighted: bool) -> Any:
    logits, probs, labels, onehot, binary, regress, weights = _loss_data(2)
    data = {"logits": logits, "probs": probs, "labels": labels, "onehot": onehot, "binary": binary,
            "regress": regress, "sigmoid": 1 / (1 + np.exp(-logits))}
    metric, yk, pk = _metrics(tf)[name]
    kw = {"sample_weight": weights} if weighted else {}
    metric.update_state(data[yk], data[pk].astype("float32"), **kw)
    metric.update_state(data[yk][:2], data[pk][:2].astype("float32"))
    result = metric.result()
    return {"result": _bits(result), "shape": list(np.shape(np.asarray(result))),
            "variables": [list(v.shape) for v in metric.variables], "config": _plain(metric.get_config())}


for _name in ("accuracy", "binary-accuracy", "binary-accuracy-threshold", "categorical-accuracy",
              "sparse-categorical-accuracy", "top-k", "top-k-1", "sparse-top-k", "mse", "mae", "rmse", "cosine", "bce",
              "cce", "scce", "true-positives", "false-positives", "true-negatives", "false-negatives",
              "true-positives-list", "false-positives-list", "precision", "recall", "auc"):
    _program(f"metric-{_name}", lambda tf, n=_name: _metric_program(tf, n, False))
    _program(f"metric-{_name}-weighted", lambda tf, n=_name: _metric_program(tf, n, True))


def _metric_dtypes(tf: Any) -> Any:
    """Each metric's dtype and result dtype made with dtype='mixed_float16' (the policy's compute dtype)."""
    M = tf.keras.metrics
    out = {}
    for cls in ("Mean", "Sum", "Accuracy", "BinaryAccuracy", "MeanSquaredError", "AUC", "Precision"):
        m = getattr(M, cls)(dtype="mixed_float16")
        out[cls] = [m.dtype, [v.dtype.name if hasattr(v.dtype, "name") else str(v.dtype) for v in m.variables]]
    return out


_program("metric-dtypes-mixed", _metric_dtypes)


def _reduction_metric_dtypes(tf: Any) -> Any:
    """Sum and Mean in float64, float32 and float16 over values whose float64 sum has more digits than float32's:
    the result keeps the metric's dtype."""
    out = {}
    values = np.array([0.1, 0.2, 1e-9, 1.0 / 3.0])
    for cls in ("Sum", "Mean"):
        for dtype in ("float64", "float32", "float16"):
            m = getattr(tf.keras.metrics, cls)(dtype=dtype)
            m.update_state(values)
            m.update_state(values[:2], sample_weight=[0.5, 2.0])
            r = m.result()
            out[f"{cls}-{dtype}"] = [r.dtype.name, _bits(r)]
    return out


_program("metric-reduction-dtypes", _reduction_metric_dtypes)


def _monitor_directions(tf: Any) -> Any:
    """The direction EarlyStopping's auto mode takes for each compiled metric (from the metric's direction)."""
    tf.keras.utils.set_random_seed(5)
    m = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(2, activation="softmax")])
    names = ["categorical_accuracy", "accuracy", "mse", "mae", "auc", "precision", "recall",
             "top_k_categorical_accuracy", "cosine_similarity", "root_mean_squared_error"]
    m.compile("sgd", "categorical_crossentropy",
              metrics=["categorical_accuracy", "accuracy", "mse", "mae", tf.keras.metrics.AUC(name="auc"),
                       tf.keras.metrics.Precision(name="precision"), tf.keras.metrics.Recall(name="recall"),
                       tf.keras.metrics.TopKCategoricalAccuracy(), tf.keras.metrics.CosineSimilarity(),
                       tf.keras.metrics.RootMeanSquaredError()])
    x = np.array([[0., 1.], [1., 0.], [1., 1.], [0., 0.]], "float32"); y = np.eye(2, dtype="float32")[[0, 1, 0, 1]]
    cbs = {n: tf.keras.callbacks.EarlyStopping(monitor=n, patience=5) for n in names}
    cbs["val_categorical_accuracy"] = tf.keras.callbacks.EarlyStopping(monitor="val_categorical_accuracy", patience=5)
    m.fit(x, y, epochs=1, verbose=0, callbacks=list(cbs.values()), validation_data=(x, y))
    return {n: getattr(cb.monitor_op, "__name__", str(cb.monitor_op)) for n, cb in cbs.items()}


_program("metric-monitor-directions", _monitor_directions)


# -- 5. losses' and metrics' default configs -----------------------------------------------------------------------
def _default_configs(tf: Any) -> Any:
    out = {}
    for cls in ("BinaryCrossentropy", "CategoricalCrossentropy", "SparseCategoricalCrossentropy", "MeanSquaredError",
                "MeanAbsoluteError", "MeanAbsolutePercentageError", "MeanSquaredLogarithmicError", "Huber", "LogCosh",
                "CosineSimilarity", "KLDivergence", "Poisson", "Hinge", "SquaredHinge", "CategoricalHinge",
                "BinaryFocalCrossentropy", "CategoricalFocalCrossentropy"):
        out[f"loss.{cls}"] = _plain(getattr(tf.keras.losses, cls)().get_config())
    for cls in ("TruePositives", "FalsePositives", "TrueNegatives", "FalseNegatives", "Precision", "Recall",
                "BinaryAccuracy", "TopKCategoricalAccuracy", "AUC", "MeanSquaredError", "Hinge", "SquaredHinge"):
        out[f"metric.{cls}"] = _plain(getattr(tf.keras.metrics, cls)().get_config())
    for cls in ("EarlyStopping", "ReduceLROnPlateau"):
        cb = getattr(tf.keras.callbacks, cls)()
        out[f"callback.{cls}"] = _plain({k: getattr(cb, k) for k in ("monitor", "patience", "min_delta", "factor",
                                                                     "cooldown", "min_lr", "baseline", "mode",
                                                                     "restore_best_weights", "start_from_epoch")
                                         if hasattr(cb, k)})
    return out


_program("defaults-losses-metrics-callbacks", _default_configs)


# -- 6. layers: shapes, dtypes, normalization statistics, regularizer losses, default initializers -----------------
def _dense_shapes(tf: Any) -> Any:
    out = []
    for shape in ((3,), (5, 3), (2, 5, 3)):
        inp = tf.keras.Input(shape)
        sym = tf.keras.layers.Dense(4)(inp)
        out.append([list(sym.shape), list(tf.keras.layers.Dense(2).compute_output_shape((None,) + shape)),
                    list(tf.keras.layers.Dense(2)(np.ones((1,) + shape, "float32")).shape)])
    return out


_program("layer-dense-shapes", _dense_shapes)


def _merge_shapes(tf: Any) -> Any:
    out = {}
    for axis in (0, 1, -2, 2, -1):
        a = np.ones((2, 2, 3), "float32"); b = np.zeros((2, 2, 3), "float32")
        out[str(axis)] = _error(lambda: list(tf.keras.layers.Concatenate(axis=axis)([a, b]).shape))
    x = [np.full((1, 4), v, "float32") for v in (1e8, 1.0, -1e8, 3.0)]
    out["add-order"] = _bits(tf.keras.layers.Add()(x))
    return out


_program("layer-merge", _merge_shapes)


def _dropout_patterns(tf: Any) -> Any:
    out = {}
    for ns in (None, (None, 1), (1, 6), (None, 1, 3)):
        shape = (4, 5, 3) if ns is not None and len(ns) == 3 else (4, 6)
        d = tf.keras.layers.Dropout(0.5, noise_shape=ns, seed=7)
        y = d(np.ones(shape, "float32"), training=True).numpy()
        keep = (y != 0)
        out[str(ns)] = {"shape": list(y.shape), "kept": int(keep.sum()),
                        "constant_along": [bool(np.all(keep == keep.take([0], axis=a))) for a in range(keep.ndim)]}
    return out


_program("layer-dropout-noise-shape", _dropout_patterns)


def _normalizations(tf: Any) -> Any:
    r = np.random.RandomState(9)
    out = {}
    for offset in (0.0, 10.0, 1000.0):
        x = (r.rand(7, 5) * 3 + offset).astype("float32")
        for name, layer in (("bn", tf.keras.layers.BatchNormalization()),
                            ("bn-eps", tf.keras.layers.BatchNormalization(epsilon=0.25, momentum=0.5)),
                            ("ln", tf.keras.layers.LayerNormalization()),
                            ("ln-eps", tf.keras.layers.LayerNormalization(epsilon=0.1))):
            y = layer(x, training=True)
            item = {"train": _bits(y)}
            if name.startswith("bn"):
                item["moving"] = [_bits(layer.moving_mean), _bits(layer.moving_variance)]
                item["infer"] = _bits(layer(x, training=False))
            out[f"{name}-{offset}"] = item
    seq = (r.rand(3, 4, 5) * 2 + 5).astype("float32")
    bn = tf.keras.layers.BatchNormalization(axis=1, epsilon=0.01)
    out["bn-axis1"] = _bits(bn(seq, training=True))
    return out


_program("layer-normalization", _normalizations)


def _layer_dtypes(tf: Any) -> Any:
    out = {}
    ids = np.array([[1, 2, 0], [3, 4, 1]])
    for policy in ("float32", "mixed_float16", "mixed_bfloat16", "float64"):
        e = tf.keras.layers.Embedding(5, 2, dtype=policy)
        d = tf.keras.layers.Dense(2, dtype=policy)
        out[policy] = [e(ids).dtype.name, e.embeddings.dtype.name if hasattr(e.embeddings.dtype, "name")
                       else str(e.embeddings.dtype), d(np.ones((1, 3), "float32")).dtype.name]
    return out


_program("layer-dtypes", _layer_dtypes)


def _convs(tf: Any) -> Any:
    out = {}
    x1 = np.arange(20, dtype="float32").reshape(1, 10, 2)
    # (integer inputs and kernels: every sum is exact, so the check is of the windows, not of a summation order)
    x2 = (np.arange(2 * 9 * 9) % 7).astype("float32").reshape(1, 9, 9, 2)
    for name, layer, x in (
            ("c1-s2", tf.keras.layers.Conv1D(2, 3, strides=2, kernel_initializer="ones"), x1),
            ("c1-s3-same", tf.keras.layers.Conv1D(1, 2, strides=3, padding="same", kernel_initializer="ones"), x1),
            ("c1-d2", tf.keras.layers.Conv1D(1, 3, dilation_rate=2, kernel_initializer="ones"), x1),
            ("c2-s2", tf.keras.layers.Conv2D(1, 3, strides=2, kernel_initializer="ones"), x2),
            ("c2-s12", tf.keras.layers.Conv2D(1, 2, strides=(1, 2), kernel_initializer="ones"), x2),
            ("c2-d2", tf.keras.layers.Conv2D(1, 3, dilation_rate=2, kernel_initializer="ones"), x2)):
        out[name] = _bits(layer(x))
    return out


_program("layer-conv-strides-dilation", _convs)


def _regularizer_losses(tf: Any) -> Any:
    out = {}
    R = tf.keras.regularizers
    x = np.ones((1, 3, 2), "float32")
    for cls in ("SimpleRNN", "GRU", "LSTM"):
        for which in ("kernel", "recurrent", "bias"):
            kw = {f"{which}_regularizer": R.L2(0.5)}
            layer = getattr(tf.keras.layers, cls)(2, kernel_initializer="ones", recurrent_initializer="ones",
                                                   bias_initializer="ones", **kw)
            layer(x)
            out[f"{cls}-{which}"] = [_bits(v)[0] for v in layer.losses]
    d = tf.keras.layers.Dense(2, kernel_initializer="ones", bias_initializer="ones",
                              kernel_regularizer=R.L1(0.1), bias_regularizer=R.L2(0.2))
    d(np.ones((1, 3), "float32"))
    out["dense"] = [_bits(v)[0] for v in d.losses]
    return out


_program("layer-regularizer-losses", _regularizer_losses)


def _default_initializers(tf: Any) -> Any:
    """add_weight without an initializer: glorot_uniform for floats (drawn: the statistics here), zeros for ints."""
    class L(tf.keras.layers.Layer):
        def build(self, shape: Any) -> None:
            self.w = self.add_weight(shape=(40, 30))
            self.i = self.add_weight(shape=(3,), dtype="int32", trainable=False)
    layer = L()
    layer.build((3,))
    w = np.asarray(layer.w.numpy())
    limit = np.sqrt(6 / 70)
    return {"zeros": bool(np.all(w == 0)), "within": bool(np.all(np.abs(w) <= limit)),
            "spread": bool(np.abs(w).max() > 0.8 * limit and w.std() > 0.4 * limit), "int": _bits(layer.i)}


_program("layer-add-weight-defaults", _default_initializers)


# -- 7. callbacks: the batch hooks' indices, ReduceLROnPlateau's and EarlyStopping's counting, SwapEMAWeights ------
def _hook_indices(tf: Any) -> Any:
    seen: dict[str, list[Any]] = {}

    class C(tf.keras.callbacks.Callback):
        pass
    for hook in ("on_train_batch_begin", "on_train_batch_end", "on_test_batch_begin", "on_test_batch_end",
                 "on_predict_batch_begin", "on_predict_batch_end", "on_epoch_begin", "on_epoch_end"):
        setattr(C, hook, lambda self, i, logs=None, h=hook: seen.setdefault(h, []).append(i))
    m = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    m.compile("sgd", "mse")
    x = np.ones((6, 2), "float32"); y = np.ones((6, 1), "float32")
    m.fit(x, y, batch_size=2, epochs=2, verbose=0, callbacks=[C()], validation_data=(x[:4], y[:4]))
    m.evaluate(x, y, batch_size=4, verbose=0, callbacks=[C()])
    m.predict(x, batch_size=5, verbose=0, callbacks=[C()])
    return seen


_program("callback-hook-indices", _hook_indices)


def _plateau(tf: Any) -> Any:
    """ReduceLROnPlateau and EarlyStopping fed a sequence of losses (improvements of 5e-5, 2e-4, none) directly."""
    out = {}
    losses = [1.0, 0.99995, 0.99990, 0.9997, 0.9997, 0.9997, 0.99969, 0.99969, 0.9996]
    for name, kw in (("default", {}), ("patience1", {"patience": 1}), ("patience2-cool1", {"patience": 2, "cooldown": 1}),
                     ("min-delta0", {"patience": 1, "min_delta": 0.0})):
        m = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
        m.compile(tf.keras.optimizers.SGD(0.1), "mse")
        cb = tf.keras.callbacks.ReduceLROnPlateau(monitor="loss", **kw)
        cb.set_model(m)
        cb.on_train_begin()
        lrs = []
        for e, v in enumerate(losses):
            logs = {"loss": v}
            cb.on_epoch_end(e, logs)
            lrs.append(float(np.asarray(m.optimizer.learning_rate)).hex())
        out[f"plateau-{name}"] = lrs
    for name, kw in (("default", {}), ("patience2", {"patience": 2}), ("min-delta", {"min_delta": 1e-4, "patience": 1})):
        m = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
        cb = tf.keras.callbacks.EarlyStopping(monitor="loss", **kw)
        cb.set_model(m)
        cb.on_train_begin()
        stops = []
        for e, v in enumerate(losses):
            m.stop_training = False
            cb.on_epoch_end(e, {"loss": v})
            stops.append(bool(m.stop_training))
        out[f"early-{name}"] = [stops, cb.wait, cb.stopped_epoch]
    return out


_program("callback-plateau-and-early-stopping", _plateau)


def _swap_ema(tf: Any) -> Any:
    tf.keras.utils.set_random_seed(2)
    m = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, kernel_initializer="ones")])
    m.compile(tf.keras.optimizers.SGD(0.1, use_ema=True, ema_momentum=0.5), "mse")
    x = np.array([[1., 2.], [3., 4.], [0., 1.], [2., 2.]], "float32"); y = np.array([[1.], [0.], [2.], [1.]], "float32")
    h = m.fit(x, y, epochs=3, batch_size=2, verbose=0, validation_data=(x, y), shuffle=False,
              callbacks=[tf.keras.callbacks.SwapEMAWeights(swap_on_epoch=True)])
    return {"kernel": _bits(m.layers[0].kernel), "history": {k: [float(v).hex() for v in vs]
                                                            for k, vs in sorted(h.history.items())}}


_program("callback-swap-ema-weights", _swap_ema)


# -- 8. saving: sub-layers held in a list, a tuple, a dict, nested, restored by load_weights and load_model ---------
def _containers(tf: Any) -> Any:
    @tf.keras.utils.register_keras_serializable(package="blind62")
    class Holder(tf.keras.layers.Layer):
        def __init__(self, **kw: Any) -> None:
            super().__init__(**kw)
            self.in_list = [tf.keras.layers.Dense(2, name="l0")]
            self.in_dict = {"a": tf.keras.layers.Dense(2, name="d0"), "b": [tf.keras.layers.Dense(2, name="d1")]}
            self.in_tuple = (tf.keras.layers.Dense(2, name="t0"),)

        def call(self, x: Any) -> Any:
            return (self.in_list[0](x) + self.in_dict["a"](x) + self.in_dict["b"][0](x) + self.in_tuple[0](x))

    def make() -> Any:
        return tf.keras.Sequential([tf.keras.Input((3,)), Holder(name="holder")])
    m = make()
    h = m.layers[0]
    for i, layer in enumerate([h.in_list[0], h.in_dict["a"], h.in_dict["b"][0], h.in_tuple[0]]):
        layer.kernel.assign(np.arange(6, dtype="float32").reshape(3, 2) * (i + 1))
        layer.bias.assign(np.full(2, i + 0.5, "float32"))
    with tempfile.TemporaryDirectory() as wd:
        path = os.path.join(wd, "h.weights.h5")
        m.save_weights(path)
        m2 = make()
        m2.load_weights(path)
        h2 = m2.layers[0]
        got = [_bits(l.kernel) + _bits(l.bias) for l in (h2.in_list[0], h2.in_dict["a"], h2.in_dict["b"][0],
                                                         h2.in_tuple[0])]
        x = np.ones((1, 3), "float32")
        return {"weights": got, "predict": _bits(m2(x))}


_program("saving-container-sublayers", _containers)


# -- the tests -------------------------------------------------------------------------------------------------------
def _reference() -> dict[str, Any]:
    with gzip.open(PATH, "rt") as f:
        return json.load(f)


_REF: dict[str, Any] = {}


#: programs whose TF 2.21 bits depend on the CPU's kernels (clause ops.host-cpu): cosine similarity's l2_normalize
#: (Eigen's rsqrt packets) and the focal cross-entropy of logits (softmax) round otherwise on an AVX-512 CPU with
#: oneDNN on (simdist's reference model gives other last bits there; the reference was recorded on AVX2, oneDNN off);
#: so does the SwapEMAWeights fit's Dense kernel (an ulp in the kernel and the last val_loss under the AVX-512 models,
#: seen on an AVX-512 Xeon 2026-12-06: the default run's slice had not run the module on one)
HOST_DEPENDENT = ("loss-cosine-", "loss-cfce-logits-", "callback-swap-ema-")


def _check(backend: Any, name: str) -> None:
    if not _REF:
        _REF.update(_reference())
    tf = backend.tf
    where = emulating(tf, avx2_without_onednn, avx2_recording_cpu) if name.startswith(HOST_DEPENDENT) else None
    if name.startswith(HOST_DEPENDENT) and where is None:
        pytest.skip(f"{name}: TF 2.21's bits depend on the CPU (ops.host-cpu); recorded on AVX2 without AVX-512, "
                    f"oneDNN off, and the backend's CPU is not such a CPU")
    tf.keras.backend.clear_session()
    with where or contextlib.nullcontext():
        got = json.loads(json.dumps(PROGRAMS[name](tf)))
    want = _REF[name]
    assert got == want, f"{name}: TF 2.21 gives {str(want)[:900]}\n got {str(got)[:900]}"


def _ids(prefix: str) -> list[str]:
    return [n for n in PROGRAMS if n.startswith(prefix)]


@pytest.mark.clause("optim.update-rules")
@pytest.mark.parametrize("name", _ids("opt-"))
def test_blind62_optimizer_trajectories_bit_for_bit(backend: Any, name: str) -> None:
    """18 optimizer configurations (defaults included) over 30 steps in float32 and float64, from a variable with zeros
    (whose small updates keep their last bits): the variable after steps 1, 2, 8, 9, 12, 21 and 30 and the config, bit
    for bit (a beta_2 default, a bias correction one step ahead, pow(beta, t)
    computed as exp(t log beta), a Python float cast to float64 exactly instead of through float32 all show)."""
    _check(backend, name)


@pytest.mark.clause("optim.schedules")
@pytest.mark.parametrize("name", _ids("schedule-"))
def test_blind62_schedule_values_bit_for_bit(backend: Any, name: str) -> None:
    """Every schedule (staircases, cycles, warmup, restarts) at steps 0..40, float32 bits."""
    _check(backend, name)


@pytest.mark.clause("keras.loss.functions")
@pytest.mark.parametrize("name", _ids("loss-"))
def test_blind62_loss_values_bit_for_bit(backend: Any, name: str) -> None:
    """27 loss configurations (options, reductions) on rank-2 and sequence (rank-3) inputs and with sample weights:
    the value and the config, bit for bit (an option dropped or a mean over the batch only shows)."""
    _check(backend, name)


@pytest.mark.clause("keras.metric.option-coverage")
@pytest.mark.parametrize("name", _ids("metric-"))
def test_blind62_metric_results_dtypes_and_directions(backend: Any, name: str) -> None:
    """24 metric configurations updated twice (weighted and not): result, its shape, the state's shapes and the
    config; the metrics' dtypes under mixed_float16; the direction a monitor's auto mode takes for each."""
    _check(backend, name)


@pytest.mark.clause("keras.callback.option-coverage")
@pytest.mark.parametrize("name", _ids("defaults-"))
def test_blind62_default_configs(backend: Any, name: str) -> None:
    """The default configs of 17 losses, 12 metrics, EarlyStopping and ReduceLROnPlateau."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("name", _ids("layer-"))
def test_blind62_layer_shapes_dtypes_and_statistics(backend: Any, name: str) -> None:
    """Dense's shapes for inputs of rank 2 to 4, Concatenate's axes and Add's order, Dropout's noise shapes,
    Batch/LayerNormalization on data with large means (variance rounding) and given epsilons, Embedding and Dense
    output dtypes under four policies, convolution strides and dilations, the recurrent layers' regularizer losses,
    add_weight's default initializers."""
    _check(backend, name)


@pytest.mark.clause("keras.fit.callback-hooks")
@pytest.mark.parametrize("name", _ids("callback-"))
def test_blind62_callback_hooks_and_counting(backend: Any, name: str) -> None:
    """The batch and epoch hooks' indices in fit/evaluate/predict; ReduceLROnPlateau's and EarlyStopping's counting
    over small improvements (min_delta 1e-4 by default for the first, 0 for the second); SwapEMAWeights' swap."""
    _check(backend, name)


@pytest.mark.clause("keras.saving.keras-file")
@pytest.mark.parametrize("name", _ids("saving-"))
def test_blind62_weights_of_sublayers_in_containers_load(backend: Any, name: str) -> None:
    """Sub-layers kept in a list, a tuple, a dict and a list in a dict: save_weights then load_weights restores each."""
    _check(backend, name)


def _record(only: list[str]) -> None:
    """Run every program (or those named) on TF 2.21 and write blind62_reference.json.gz."""
    import tensorflow as tf
    out = _reference() if only else {}
    for name, fn in PROGRAMS.items():
        if only and name not in only:
            continue
        tf.keras.backend.clear_session()
        out[name] = json.loads(json.dumps(fn(tf)))
    with gzip.open(PATH, "wt") as f:
        json.dump(out, f, sort_keys=True)
    print(f"wrote {PATH}: {len(out)} programs")


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        _record([a for a in sys.argv[1:] if a != "--record"])
