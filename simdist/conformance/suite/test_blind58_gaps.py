"""Blind batch 58's classes (fiftieth session, helper blind50a): the behaviour around each mutant of
tests/mutants.py TRAINING_BATCH58, over the modes, options and shapes of its API. Expected values are computed here
by a transcription of Keras 3.15's rule (NumPy), or are relations the rule implies (a config round trip,
compute_output_shape equal to the eager call's shape), or were observed on TF 2.21 (named so)."""

from __future__ import annotations

import os
import zipfile
from typing import Any

import numpy as np
import pytest


def _np(x: Any) -> np.ndarray:
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


def _weight(layer: Any, suffix: str) -> np.ndarray:
    """The value of the layer's weight whose path ends with `suffix` (e.g. "recurrent_kernel")."""
    found = [w for w in layer.weights if w.path.split("/")[-1] == suffix]
    assert len(found) == 1, f"{layer.name}: weights {[w.path for w in layer.weights]}, none (or several) named {suffix}"
    return _np(found[0])


# -- recurrent layers: defaults and the bias ------------------------------------------------------------

@pytest.mark.clause("keras.rnn.config")
@pytest.mark.parametrize("unit_forget_bias", [None, True, False])
@pytest.mark.parametrize("bias_initializer", ["zeros", "ones"])
def test_blind58_lstm_bias_initial_value(keras: Any, unit_forget_bias: Any, bias_initializer: str) -> None:
    """Keras's LSTMCell.build: with unit_forget_bias (default True) the bias is init(u), ones(u), init(2u) (gates
    i, f, c, o); without it init(4u)."""
    kw = {} if unit_forget_bias is None else {"unit_forget_bias": unit_forget_bias}
    layer = keras.layers.LSTM(3, bias_initializer=bias_initializer, **kw)
    layer.build((None, 2, 4))
    base = 0.0 if bias_initializer == "zeros" else 1.0
    want = np.full(12, base)
    if unit_forget_bias is not False:
        want[3:6] = 1.0
    np.testing.assert_allclose(_weight(layer, "bias"), want, err_msg=f"LSTM({kw}, bias_initializer={bias_initializer})")
    assert layer.get_config()["unit_forget_bias"] is (unit_forget_bias is not False)


@pytest.mark.clause("keras.rnn.config")
@pytest.mark.parametrize("reset_after", [None, True, False])
def test_blind58_gru_reset_after_bias_shape(keras: Any, reset_after: Any) -> None:
    """Keras 3's GRU: reset_after defaults to True; the bias is (2, 3u) with it, (3u,) without."""
    kw = {} if reset_after is None else {"reset_after": reset_after}
    layer = keras.layers.GRU(3, **kw)
    layer.build((None, 2, 4))
    after = reset_after is not False
    assert tuple(_weight(layer, "bias").shape) == ((2, 9) if after else (9,)), f"GRU({kw}) bias shape"
    assert layer.get_config()["reset_after"] is after


# -- regularization penalties: each regularizer on its own weight --------------------------------------

_RNN_REGS = {"kernel_regularizer": "kernel", "recurrent_regularizer": "recurrent_kernel", "bias_regularizer": "bias"}


@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("cls", ["SimpleRNN", "LSTM", "GRU"])
@pytest.mark.parametrize("arg", sorted(_RNN_REGS))
def test_blind58_rnn_regularizer_penalizes_its_own_weight(keras: Any, cls: str, arg: str) -> None:
    layer = getattr(keras.layers, cls)(2, bias_initializer="ones", **{arg: keras.regularizers.L2(0.1)})
    layer.build((None, 3, 4))
    want = 0.1 * np.sum(np.square(_weight(layer, _RNN_REGS[arg]).astype("float64")))
    got = [float(_np(x)) for x in layer.losses]
    assert len(got) == 1 and np.isclose(got[0], want, rtol=1e-5), f"{cls}({arg}=L2(0.1)): losses {got}, want [{want}]"


_LAYER_REGS = [("Dense", {"units": 2}, "kernel_regularizer", "kernel", (None, 3)),
               ("Dense", {"units": 2}, "bias_regularizer", "bias", (None, 3)),
               ("Embedding", {"input_dim": 4, "output_dim": 2}, "embeddings_regularizer", "embeddings", (None, 2)),
               ("Conv1D", {"filters": 2, "kernel_size": 2}, "kernel_regularizer", "kernel", (None, 4, 3)),
               ("Conv1D", {"filters": 2, "kernel_size": 2}, "bias_regularizer", "bias", (None, 4, 3)),
               ("Conv2D", {"filters": 2, "kernel_size": 2}, "kernel_regularizer", "kernel", (None, 4, 4, 3)),
               ("Conv2D", {"filters": 2, "kernel_size": 2}, "bias_regularizer", "bias", (None, 4, 4, 3)),
               ("Conv3D", {"filters": 2, "kernel_size": 2}, "kernel_regularizer", "kernel", (None, 3, 3, 3, 1)),
               ("Conv3D", {"filters": 2, "kernel_size": 2}, "bias_regularizer", "bias", (None, 3, 3, 3, 1)),
               ("Conv2DTranspose", {"filters": 2, "kernel_size": 2}, "kernel_regularizer", "kernel", (None, 4, 4, 3)),
               ("Conv2DTranspose", {"filters": 2, "kernel_size": 2}, "bias_regularizer", "bias", (None, 4, 4, 3))]


@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("cls,kw,arg,weight,shape", _LAYER_REGS,
                         ids=[f"{c}-{a}" for c, _, a, _, _ in _LAYER_REGS])
def test_blind58_layer_regularizer_penalizes_its_own_weight(keras: Any, cls: str, kw: dict, arg: str, weight: str,
                                                            shape: tuple) -> None:
    extra = {"bias_initializer": "ones"} if "bias" in arg else {}
    if cls == "Embedding":
        extra = {"embeddings_initializer": "ones"}
    layer = getattr(keras.layers, cls)(**kw, **extra, **{arg: keras.regularizers.L2(0.1)})
    layer.build(shape)
    want = 0.1 * np.sum(np.square(_weight(layer, weight).astype("float64")))
    got = [float(_np(x)) for x in layer.losses]
    assert len(got) == 1 and np.isclose(got[0], want, rtol=1e-5), f"{cls}({arg}=L2(0.1)): losses {got}, want [{want}]"


def _nested(keras: Any, how: str) -> Any:
    reg = keras.regularizers.L2(0.1)
    dense = keras.layers.Dense(2, kernel_initializer="ones", activity_regularizer=reg)
    if how == "sequential":
        return keras.Sequential([keras.Input((2,)), dense])
    if how == "functional":
        inp = keras.Input((2,))
        return keras.Model(inp, keras.layers.Dense(1, kernel_initializer="zeros")(dense(inp)))
    inner = keras.Sequential([keras.Input((2,)), dense])
    return keras.Sequential([keras.Input((2,)), inner])


@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("how", ["sequential", "functional", "nested"])
def test_blind58_sublayer_activity_loss_reaches_model_losses(keras: Any, how: str) -> None:
    """A sub-layer's activity regularizer penalty (Keras 3: regularizer(output), added by the layer's __call__) is in
    the outer model's `losses` after a call, however deep the layer sits."""
    model = _nested(keras, how)
    x = np.array([[1., 2.]], "float32")
    model(x)
    want = 0.1 * np.sum(np.square(x @ np.ones((2, 2))))
    got = [float(_np(v)) for v in model.losses]
    assert len(got) == 1 and np.isclose(got[0], want, rtol=1e-5), f"{how}: model.losses {got}, want [{want}]"


@pytest.mark.clause("keras.layer.option-coverage")
def test_blind58_sublayer_activity_loss_counts_in_fit(keras: Any) -> None:
    """fit's logged loss is the compiled loss plus the sub-layers' added losses (a zero-output model: mse is y**2)."""
    model = _nested(keras, "functional")
    model.compile(optimizer=keras.optimizers.SGD(0.0), loss="mse")
    x = np.array([[1., 2.]], "float32")
    y = np.array([[1.]], "float32")
    h = model.fit(x, y, epochs=1, verbose=0)
    want = 1.0 + 0.1 * np.sum(np.square(x @ np.ones((2, 2))))
    assert np.isclose(h.history["loss"][0], want, rtol=1e-5), f"fit loss {h.history['loss']}, want {want}"


# -- the convolutions' bias axis and output shapes ----------------------------------------------------

_CONV_BIAS = [("Conv1D", (1, 3, 2)), ("Conv2D", (1, 3, 2, 2)), ("Conv2D", (1, 3, 3, 3)), ("Conv3D", (1, 3, 2, 2, 2)),
              ("Conv2DTranspose", (1, 3, 2, 2)), ("DepthwiseConv2D", (1, 3, 2, 3)), ("SeparableConv2D", (1, 3, 2, 2))]


@pytest.mark.clause("keras.layer.conv2d")
@pytest.mark.parametrize("cls,shape", _CONV_BIAS, ids=[f"{c}-{len(s)}d" for c, s in _CONV_BIAS])
def test_blind58_conv_bias_goes_on_the_channel_axis(keras: Any, cls: str, shape: tuple) -> None:
    """With a zero kernel the output is the bias along the (last) channel axis, also when another axis has the same
    size as the channels (3 filters, a first spatial size of 3). (channels_first convolutions are refused by TF's CPU
    kernels: not checked here.)"""
    data_format = "channels_last"
    kw: dict[str, Any] = {"kernel_size": 1, "data_format": data_format}
    bias = [1., 2., 3.]
    if cls == "DepthwiseConv2D":
        kw.update(depthwise_initializer="zeros")
    elif cls == "SeparableConv2D":
        kw.update(filters=3, depthwise_initializer="zeros", pointwise_initializer="zeros")
    else:
        kw.update(filters=3, kernel_initializer="zeros")
    layer = getattr(keras.layers, cls)(bias_initializer=keras.initializers.Constant(bias), **kw)
    x = np.ones(shape, "float32")
    y = _np(layer(x))
    axis = -1
    want_shape = [1] * y.ndim
    want_shape[axis] = 3
    want = np.broadcast_to(np.reshape(bias, want_shape), y.shape)
    np.testing.assert_allclose(y, want, err_msg=f"{cls}({data_format}) on {x.shape}: the bias on axis {axis}")


_SHAPES = [("Conv1D", {"filters": 2, "kernel_size": 3, "dilation_rate": 2}, (None, 11, 1)),
           ("Conv1D", {"filters": 2, "kernel_size": 3, "strides": 2, "padding": "same"}, (None, 11, 1)),
           ("Conv1D", {"filters": 2, "kernel_size": 3, "padding": "causal", "dilation_rate": 2}, (None, 11, 1)),
           ("Conv2D", {"filters": 2, "kernel_size": 3, "dilation_rate": 2}, (None, 10, 9, 1)),
           ("Conv2D", {"filters": 2, "kernel_size": (3, 2), "dilation_rate": (1, 3)}, (None, 10, 9, 1)),
           ("Conv2D", {"filters": 2, "kernel_size": 3, "strides": 2}, (None, 10, 9, 1)),
           ("Conv2D", {"filters": 2, "kernel_size": 3, "dilation_rate": 2, "padding": "same"}, (None, 10, 9, 1)),
           ("Conv3D", {"filters": 2, "kernel_size": 2, "dilation_rate": 2}, (None, 6, 5, 7, 1)),
           ("SeparableConv2D", {"filters": 2, "kernel_size": 3, "dilation_rate": 2}, (None, 10, 9, 1)),
           ("DepthwiseConv2D", {"kernel_size": 3, "dilation_rate": 2}, (None, 10, 9, 1)),
           ("MaxPooling1D", {}, (None, 7, 2)), ("MaxPooling2D", {}, (None, 7, 5, 2)),
           ("MaxPooling3D", {}, (None, 5, 7, 3, 2)), ("AveragePooling1D", {"pool_size": 2}, (None, 7, 2)),
           ("AveragePooling2D", {"pool_size": 2}, (None, 7, 5, 2)), ("MaxPooling2D", {"pool_size": 3}, (None, 7, 5, 2)),
           ("MaxPooling2D", {"strides": 1}, (None, 7, 5, 2))]


def _valid(n: int, k: int, s: int, d: int = 1) -> int:
    return (n - d * (k - 1) - 1) // s + 1


@pytest.mark.clause("keras.layer.conv-family.symbolic")
@pytest.mark.parametrize("cls,kw,shape", _SHAPES, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(_SHAPES)])
def test_blind58_compute_output_shape_matches_the_call(keras: Any, cls: str, kw: dict, shape: tuple) -> None:
    """compute_output_shape, the symbolic shape and the eager call agree (dilation, strides, padding and the pooling
    layers' default padding 'valid' with strides = pool_size)."""
    layer = getattr(keras.layers, cls)(**kw)
    x = np.ones((2, *shape[1:]), "float32")
    eager = tuple(_np(layer(x)).shape)[1:]
    assert tuple(layer.compute_output_shape(shape))[1:] == eager, f"{cls}({kw}).compute_output_shape({shape})"
    sym = layer(keras.Input(shape[1:]))
    assert tuple(sym.shape)[1:] == eager, f"{cls}({kw}) symbolic {tuple(sym.shape)}, eager {eager}"
    if cls.startswith(("MaxPooling", "AveragePooling")):
        p = kw.get("pool_size", 2)
        s = kw.get("strides", p)
        want = tuple(_valid(n, p, s) for n in shape[1:-1]) + (shape[-1],)
        assert eager == want, f"{cls}({kw}) on {shape}: {eager}, Keras's 'valid' pooling gives {want}"
        assert layer.get_config()["padding"] == "valid"
    elif "dilation_rate" in kw and kw.get("padding", "valid") == "valid":
        k = kw.get("kernel_size")
        ks = (k,) * (len(shape) - 2) if isinstance(k, int) else k
        d = kw["dilation_rate"]
        ds = (d,) * (len(shape) - 2) if isinstance(d, int) else d
        want_sp = tuple(_valid(n, kk, 1, dd) for n, kk, dd in zip(shape[1:-1], ks, ds))
        assert eager[:-1] == want_sp, f"{cls}({kw}) on {shape}: spatial {eager[:-1]}, the dilated kernel gives {want_sp}"


# -- get_config echoes the constructor; from_config rebuilds the same object ---------------------------

_CONFIGS = [
    ("layers", "BatchNormalization", {"momentum": 0.9, "epsilon": 0.01}, {}),
    ("layers", "BatchNormalization", {}, {"momentum": 0.99, "epsilon": 0.001}),
    ("layers", "LayerNormalization", {"epsilon": 0.01}, {}),
    ("layers", "GroupNormalization", {"groups": 2, "epsilon": 0.01}, {}),
    ("layers", "LeakyReLU", {"negative_slope": 0.2}, {}),
    ("layers", "ELU", {"alpha": 0.5}, {}),
    ("layers", "ActivityRegularization", {"l1": 0.1, "l2": 0.2}, {}),
    ("layers", "Dot", {"axes": 1, "normalize": True}, {}),
    ("layers", "Hashing", {"num_bins": 5, "salt": 7}, {"salt": [7, 7]}),   # (observed on TF 2.21: a pair)
    ("layers", "Hashing", {"num_bins": 5, "salt": [3, 4]}, {}),
    ("layers", "CategoryEncoding", {"num_tokens": 3, "output_mode": "one_hot"}, {}),
    ("layers", "CategoryEncoding", {"num_tokens": 3, "output_mode": "count"}, {}),
    ("metrics", "AUC", {"from_logits": True, "num_thresholds": 50, "curve": "PR"}, {}),
    ("metrics", "F1Score", {"threshold": 0.3, "average": "macro"}, {}),
    ("metrics", "FBetaScore", {"threshold": 0.4, "beta": 2.0}, {}),
    ("metrics", "Precision", {"thresholds": 0.3, "top_k": None}, {}),
    ("metrics", "SparseTopKCategoricalAccuracy", {"k": 3}, {}),
    ("losses", "SparseCategoricalCrossentropy", {"ignore_class": 0, "from_logits": True}, {}),
    ("losses", "CategoricalCrossentropy", {"label_smoothing": 0.1, "axis": -1}, {}),
    ("losses", "BinaryCrossentropy", {"label_smoothing": 0.2, "from_logits": True}, {}),
    ("optimizers", "RMSprop", {"centered": True, "rho": 0.8, "momentum": 0.5}, {}),
    ("optimizers", "SGD", {"momentum": 0.9, "nesterov": True}, {}),
    ("optimizers", "Adam", {"amsgrad": True, "beta_1": 0.8}, {}),
    ("schedules", "PiecewiseConstantDecay", {"boundaries": [10, 20], "values": [1.0, 0.5, 0.1]}, {}),
    ("schedules", "ExponentialDecay", {"initial_learning_rate": 0.1, "decay_steps": 5, "decay_rate": 0.5,
                                       "staircase": True}, {}),
    ("schedules", "InverseTimeDecay", {"initial_learning_rate": 0.1, "decay_steps": 5, "decay_rate": 0.5,
                                       "staircase": True}, {}),
]


def _cls(keras: Any, where: str, name: str) -> Any:
    if where == "schedules":
        return getattr(keras.optimizers.schedules, name)
    return getattr(getattr(keras, where), name)


@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("where,name,kw,observed", _CONFIGS, ids=[f"{n}-{i}" for i, (_, n, _, _) in enumerate(_CONFIGS)])
def test_blind58_config_echoes_constructor_and_round_trips(keras: Any, where: str, name: str, kw: dict,
                                                           observed: dict) -> None:
    cls = _cls(keras, where, name)
    obj = cls(**kw)
    cfg = obj.get_config()
    for k, v in {**kw, **observed}.items():
        if k in observed:
            v = observed[k]
        assert k in cfg, f"{name}({kw}).get_config() has no {k!r}: {sorted(cfg)}"
        got = cfg[k]
        if isinstance(v, float):
            assert np.isclose(float(got), v), f"{name}({kw}).get_config()[{k!r}] = {got}, want {v}"
        else:
            assert (list(got) if isinstance(got, tuple) else got) == v, f"{name}.get_config()[{k!r}] = {got}, want {v}"
    again = cls.from_config(cfg).get_config()
    assert sorted(again) == sorted(cfg), f"{name}: from_config(get_config()) keys {sorted(again)} != {sorted(cfg)}"
    for k in kw:
        assert str(again[k]) == str(cfg[k]), f"{name}: from_config(get_config())[{k!r}] {again[k]} != {cfg[k]}"


@pytest.mark.clause("keras.saving.keras-file")
@pytest.mark.parametrize("kw", [{}, {"momentum": 0.5, "epsilon": 0.1}, {"center": False, "scale": False}])
def test_blind58_batchnorm_saved_and_loaded_normalizes_the_same(keras: Any, tmp_path: Any, kw: dict) -> None:
    model = keras.Sequential([keras.Input((3,)), keras.layers.BatchNormalization(**kw)])
    x = np.array([[1., 2., 3.], [0., -1., 4.]], "float32")
    bn = model.layers[0]
    bn.moving_mean.assign([0.5, 0.5, 0.5])
    bn.moving_variance.assign([2.0, 0.5, 1.0])
    path = os.path.join(str(tmp_path), "bn.keras")
    model.save(path)
    loaded = keras.models.load_model(path)
    lb = loaded.layers[0]
    eps = kw.get("epsilon", 1e-3)
    assert np.isclose(lb.epsilon, eps) and np.isclose(lb.momentum, kw.get("momentum", 0.99)), \
        f"loaded BatchNormalization({kw}): momentum {lb.momentum}, epsilon {lb.epsilon}"
    want = (x - 0.5) / np.sqrt(np.array([2.0, 0.5, 1.0]) + eps)
    np.testing.assert_allclose(_np(loaded(x)), want, rtol=1e-5, err_msg=f"loaded BatchNormalization({kw}) inference")


# -- metrics: which way is better, default names, precision and recall ----------------------------------

# Keras 3.15's _direction of the compiled metrics (a metric the rule calls an error goes down)
_DIRECTIONS = [("mae", "mae", "down"), ("mse", "mse", "down"), ("MeanAbsoluteError", "mean_absolute_error", "down"),
               ("MeanSquaredError", "mean_squared_error", "down"),
               ("MeanAbsolutePercentageError", "mean_absolute_percentage_error", "down"),
               ("MeanSquaredLogarithmicError", "mean_squared_logarithmic_error", "down"),
               ("RootMeanSquaredError", "root_mean_squared_error", "down"),
               ("LogCoshError", "logcosh", "down"), ("CosineSimilarity", "cosine_similarity", "up"),
               ("R2Score", "r2_score", "up")]


@pytest.mark.clause("keras.callback.monitor")
@pytest.mark.parametrize("metric,name,direction", _DIRECTIONS, ids=[d[1] for d in _DIRECTIONS])
@pytest.mark.parametrize("callback", ["EarlyStopping", "ModelCheckpoint"])
def test_blind58_monitor_auto_mode_follows_metric_direction(keras: Any, tmp_path: Any, metric: str, name: str,
                                                            direction: str, callback: str) -> None:
    """mode='auto' keeps the lowest value of an error metric and the highest of a score (the history is read back)."""
    m = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, kernel_initializer="zeros")])
    mobj = metric if metric in ("mae", "mse") else getattr(keras.metrics, metric)()
    m.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse", metrics=[mobj])
    x = np.array([[1.], [2.], [3.], [4.]], "float32")
    if callback == "EarlyStopping":
        cb = keras.callbacks.EarlyStopping(monitor=name, patience=10)
    else:
        cb = keras.callbacks.ModelCheckpoint(os.path.join(str(tmp_path), "m.keras"), monitor=name, save_best_only=True)
    h = m.fit(x, 2 * x + 1, epochs=4, batch_size=4, verbose=0, callbacks=[cb])
    seen = h.history[name]
    want = min(seen) if direction == "down" else max(seen)
    assert np.isclose(float(cb.best), want, rtol=1e-5), f"{callback}(monitor={name!r}): best {cb.best}, history {seen}"


# the default names (observed on TF 2.21)
_NAMES = {"Accuracy": "accuracy", "BinaryAccuracy": "binary_accuracy", "CategoricalAccuracy": "categorical_accuracy",
          "SparseCategoricalAccuracy": "sparse_categorical_accuracy",
          "TopKCategoricalAccuracy": "top_k_categorical_accuracy",
          "SparseTopKCategoricalAccuracy": "sparse_top_k_categorical_accuracy", "AUC": "auc",
          "Precision": "precision", "Recall": "recall", "MeanSquaredError": "mean_squared_error",
          "MeanAbsoluteError": "mean_absolute_error", "RootMeanSquaredError": "root_mean_squared_error",
          "BinaryCrossentropy": "binary_crossentropy", "CategoricalCrossentropy": "categorical_crossentropy",
          "SparseCategoricalCrossentropy": "sparse_categorical_crossentropy", "Mean": "mean", "Sum": "sum",
          "CosineSimilarity": "cosine_similarity", "LogCoshError": "logcosh", "Hinge": "hinge",
          "KLDivergence": "kl_divergence", "Poisson": "poisson", "R2Score": "r2_score"}


@pytest.mark.clause("keras.metric.option-coverage")
@pytest.mark.parametrize("cls", sorted(_NAMES))
def test_blind58_metric_default_names(keras: Any, cls: str) -> None:
    assert getattr(keras.metrics, cls)().name == _NAMES[cls], f"{cls}().name"


@pytest.mark.clause("keras.metric.option-coverage")
def test_blind58_metric_objects_name_fit_logs(keras: Any) -> None:
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(3)])
    m.compile(optimizer="sgd", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
              metrics=[keras.metrics.SparseCategoricalAccuracy(), keras.metrics.SparseTopKCategoricalAccuracy(k=2)])
    h = m.fit(np.ones((4, 2), "float32"), np.array([0, 1, 2, 1]), epochs=1, verbose=0,
              validation_data=(np.ones((2, 2), "float32"), np.array([0, 1])))
    want = {"loss", "sparse_categorical_accuracy", "sparse_top_k_categorical_accuracy", "val_loss",
            "val_sparse_categorical_accuracy", "val_sparse_top_k_categorical_accuracy"}
    assert set(h.history) == want, f"fit's logs {sorted(h.history)}, want {sorted(want)}"


def _confusion(y: np.ndarray, p: np.ndarray, t: float) -> tuple[float, float, float]:
    pred = p > t
    return float(np.sum(pred & (y == 1))), float(np.sum(pred & (y == 0))), float(np.sum(~pred & (y == 1)))


@pytest.mark.clause("keras.metric.precision-recall")
@pytest.mark.parametrize("thresholds", [None, 0.3, [0.2, 0.6]])
@pytest.mark.parametrize("which", ["Precision", "Recall"])
def test_blind58_precision_recall_from_the_confusion_counts(keras: Any, thresholds: Any, which: str) -> None:
    y = np.array([1, 0, 1, 1, 0, 0, 1, 0], "float32")
    p = np.array([0.9, 0.7, 0.4, 0.1, 0.2, 0.55, 0.65, 0.35], "float32")
    m = getattr(keras.metrics, which)(thresholds=thresholds)
    m.update_state(y[:4], p[:4])
    m.update_state(y[4:], p[4:])
    ts = [0.5] if thresholds is None else ([thresholds] if isinstance(thresholds, float) else thresholds)
    want = []
    for t in ts:
        tp, fp, fn = _confusion(y, p, t)
        want.append(tp / (tp + fp) if which == "Precision" else tp / (tp + fn))
    got = np.atleast_1d(_np(m.result()))
    np.testing.assert_allclose(got, want, rtol=1e-5, err_msg=f"{which}(thresholds={thresholds})")


# -- callbacks: the epoch and batch indices the hooks receive -------------------------------------------

@pytest.mark.clause("keras.callback.option-coverage")
@pytest.mark.parametrize("initial_epoch", [0, 1])
def test_blind58_hooks_receive_zero_based_indices(keras: Any, initial_epoch: int) -> None:
    seen: list[tuple[str, int]] = []
    hooks = {h: (lambda name: lambda i, logs=None: seen.append((name, i)))(h)
             for h in ("on_epoch_begin", "on_epoch_end", "on_train_batch_begin", "on_train_batch_end",
                       "on_test_batch_begin", "on_test_batch_end", "on_predict_batch_begin", "on_predict_batch_end")}
    cb = keras.callbacks.LambdaCallback(**{k: v for k, v in hooks.items()
                                           if k in ("on_epoch_begin", "on_epoch_end", "on_train_batch_begin",
                                                    "on_train_batch_end")})

    class Rec(keras.callbacks.Callback):
        pass
    rec = Rec()
    for k in ("on_test_batch_begin", "on_test_batch_end", "on_predict_batch_begin", "on_predict_batch_end"):
        setattr(rec, k, hooks[k])
    m = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    m.compile(optimizer="sgd", loss="mse")
    x = np.ones((4, 1), "float32")
    m.fit(x, x, batch_size=2, epochs=initial_epoch + 2, initial_epoch=initial_epoch, verbose=0, callbacks=[cb])
    want: list[tuple[str, int]] = []
    for e in range(initial_epoch, initial_epoch + 2):
        want += [("on_epoch_begin", e)]
        for b in range(2):
            want += [("on_train_batch_begin", b), ("on_train_batch_end", b)]
        want += [("on_epoch_end", e)]
    assert seen == want, f"fit(initial_epoch={initial_epoch}) hooks {seen}, want {want}"
    seen.clear()
    m.evaluate(x, x, batch_size=2, verbose=0, callbacks=[rec])
    m.predict(x, batch_size=2, verbose=0, callbacks=[rec])
    want = [("on_test_batch_begin", 0), ("on_test_batch_end", 0), ("on_test_batch_begin", 1), ("on_test_batch_end", 1),
            ("on_predict_batch_begin", 0), ("on_predict_batch_end", 0), ("on_predict_batch_begin", 1),
            ("on_predict_batch_end", 1)]
    assert seen == want, f"evaluate/predict hooks {seen}, want {want}"


# -- saving: compile=False, a damaged archive; set_weights ----------------------------------------------

@pytest.mark.clause("keras.saving.keras-file")
@pytest.mark.parametrize("compile_", [None, True, False])
def test_blind58_load_model_compile_argument(keras: Any, tmp_path: Any, compile_: Any) -> None:
    m = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    m.compile(optimizer="adam", loss="mse", metrics=["mae"])
    path = os.path.join(str(tmp_path), "m.keras")
    m.save(path)
    kw = {} if compile_ is None else {"compile": compile_}
    loaded = keras.models.load_model(path, **kw)
    compiled = compile_ is not False
    assert (getattr(loaded, "optimizer", None) is not None) is compiled, f"load_model({kw}).optimizer"
    assert bool(getattr(loaded, "compiled", False)) is compiled, f"load_model({kw}).compiled"
    if compiled:
        loaded.evaluate(np.ones((2, 1), "float32"), np.ones((2, 1), "float32"), verbose=0)


@pytest.mark.clause("keras.saving.keras-file")
@pytest.mark.parametrize("drop,error", [("model.weights.h5", ValueError), ("config.json", KeyError)])
def test_blind58_load_model_of_an_archive_missing_an_entry(keras: Any, tmp_path: Any, drop: str, error: type) -> None:
    """(observed on TF 2.21: ValueError for a missing weights file; KeyError, zipfile's "There is no item named
    'config.json' in the archive", for a missing config.json: Keras opens it first)"""
    m = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    full = os.path.join(str(tmp_path), "full.keras")
    m.save(full)
    part = os.path.join(str(tmp_path), "part.keras")
    with zipfile.ZipFile(full) as zi, zipfile.ZipFile(part, "w") as zo:
        for n in zi.namelist():
            if n != drop:
                zo.writestr(n, zi.read(n))
    with pytest.raises(error):
        keras.models.load_model(part)


@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("change", ["fewer", "more", "shape"])
@pytest.mark.parametrize("what", ["Dense", "LSTM", "BatchNormalization", "model"])
def test_blind58_set_weights_refuses_a_mismatch(keras: Any, change: str, what: str) -> None:
    layer = {"Dense": lambda: keras.layers.Dense(2), "LSTM": lambda: keras.layers.LSTM(2),
             "BatchNormalization": lambda: keras.layers.BatchNormalization(),
             "model": lambda: keras.Sequential([keras.Input((3,)), keras.layers.Dense(2), keras.layers.Dense(1)])}[what]()
    if what != "model":
        layer.build((None, 4, 3) if what == "LSTM" else (None, 3))
    ws = [_np(w) for w in layer.get_weights()]
    before = [w.copy() for w in ws]
    if change == "fewer":
        bad = [w + 1 for w in ws[:-1]]
    elif change == "more":
        bad = [w + 1 for w in ws] + [np.ones(2, "float32")]
    else:
        bad = [w + 1 for w in ws[:-1]] + [np.ones(ws[-1].shape[:-1] + (ws[-1].shape[-1] + 1,), "float32")]
    with pytest.raises(ValueError):
        layer.set_weights(bad)
    if change != "shape":   # (the count is checked before any assignment)
        for w, b in zip(layer.get_weights(), before):
            np.testing.assert_array_equal(_np(w), b, err_msg=f"{what}.set_weights({change}) changed a weight")
    layer.set_weights([w + 1 for w in ws])
    for w, b in zip(layer.get_weights(), before):
        np.testing.assert_allclose(_np(w), b + 1, err_msg=f"{what}.set_weights of matching arrays")


# -- the rest: frozen recurrent layers, lookups' OOV indices, axis checks ---------------------------------

@pytest.mark.clause("keras.rnn.config")
@pytest.mark.parametrize("cls", ["SimpleRNN", "LSTM", "GRU"])
def test_blind58_frozen_rnn_has_no_trainable_weights(keras: Any, cls: str) -> None:
    layer = getattr(keras.layers, cls)(2, trainable=False)
    layer.build((None, 3, 4))
    assert layer.trainable_weights == [] and layer.cell.trainable is False, \
        f"{cls}(trainable=False): {len(layer.trainable_weights)} trainable weights, cell.trainable {layer.cell.trainable}"
    assert len(layer.non_trainable_weights) == len(layer.weights)
    model = keras.Sequential([keras.Input((3, 4)), layer, keras.layers.Dense(1)])
    assert len(model.trainable_weights) == 2


@pytest.mark.clause("keras.layer.lookup")
@pytest.mark.parametrize("num_oov", [0, 1, 2, 3])
@pytest.mark.parametrize("mask", [None, ""])
def test_blind58_string_lookup_vocabulary_starts_after_the_oov_indices(keras: Any, num_oov: int, mask: Any) -> None:
    """Keras's IndexLookup: the mask token (if any) is 0, then num_oov_indices OOV indices, then the vocabulary."""
    layer = keras.layers.StringLookup(vocabulary=["a", "b", "c"], num_oov_indices=num_oov, mask_token=mask)
    start = (1 if mask is not None else 0) + num_oov
    got = _np(layer(["c", "a", "b"])).tolist()
    assert got == [start + 2, start, start + 1], f"StringLookup(num_oov_indices={num_oov}, mask_token={mask!r})"
    assert layer.vocabulary_size() == start + 3
    inv = keras.layers.StringLookup(vocabulary=["a", "b", "c"], num_oov_indices=num_oov, mask_token=mask, invert=True)
    assert [v.decode() if isinstance(v, bytes) else v for v in _np(inv([start, start + 2])).tolist()] == ["a", "c"]


@pytest.mark.clause("keras.layer.lookup")
@pytest.mark.parametrize("num_oov", [1, 2])
def test_blind58_integer_lookup_vocabulary_starts_after_the_oov_indices(keras: Any, num_oov: int) -> None:
    layer = keras.layers.IntegerLookup(vocabulary=[7, 3, 9], num_oov_indices=num_oov)
    assert _np(layer([9, 7, 3])).tolist() == [num_oov + 2, num_oov, num_oov + 1], f"IntegerLookup({num_oov})"


@pytest.mark.clause("keras.layer.groupnorm")
@pytest.mark.parametrize("cls,kw", [("GroupNormalization", {"groups": 1, "axis": 3}),
                                    ("GroupNormalization", {"groups": 1, "axis": -4}),
                                    ("LayerNormalization", {"axis": 3}), ("UnitNormalization", {"axis": 3})])
def test_blind58_normalization_output_shape_refuses_an_axis_out_of_range(keras: Any, cls: str, kw: dict) -> None:
    """(observed on TF 2.21: ValueError from compute_output_shape for an axis beyond the input's rank)"""
    layer = getattr(keras.layers, cls)(**kw)
    with pytest.raises(ValueError):
        layer.compute_output_shape((None, 4, 2))
