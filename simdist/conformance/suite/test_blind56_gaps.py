"""Blind batch 56's classes (forty-ninth session, helper blind49a): the behaviour around each mutant of
tests/mutants.py TRAINING_BATCH56, over the modes, options, dtypes and shapes of its API. Expected values are
computed here by a transcription of Keras 3.15's rule (NumPy), or are relations the rule implies (a round trip,
compute_output_shape equal to the eager call's shape), or were observed on TF 2.21 (named so)."""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np
import pytest


def _np(x: Any) -> np.ndarray:
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


# -- Keras layers ------------------------------------------------------------------------------------------

_MERGE = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "average": lambda a, b: (a + b) / 2,
          "maximum": np.maximum, "minimum": np.minimum}


@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("helper", sorted(_MERGE))
def test_blind56_merge_helpers_compute_their_own_operation(keras: Any, tf: Any, helper: str) -> None:
    a = np.array([[1., 5., -2.], [3., 0., 4.]], "float32")
    b = np.array([[3., 2., -1.], [3., 1., -4.]], "float32")
    got = _np(getattr(keras.layers, helper)([tf.constant(a), tf.constant(b)]))
    cls = {"add": "Add", "subtract": "Subtract", "multiply": "Multiply", "average": "Average",
           "maximum": "Maximum", "minimum": "Minimum"}[helper]
    by_layer = _np(getattr(keras.layers, cls)()([tf.constant(a), tf.constant(b)]))
    np.testing.assert_allclose(got, _MERGE[helper](a, b), err_msg=f"keras.layers.{helper}")
    np.testing.assert_allclose(by_layer, _MERGE[helper](a, b), err_msg=f"keras.layers.{cls}")


# (observed on TF 2.21: Keras's result_type of the two inputs)
_PROMOTED = [("float16", "float32", "float32"), ("int8", "uint8", "int16"), ("int32", "float32", "float32"),
             ("bfloat16", "float16", "float32"), ("uint8", "int32", "int32"), ("int64", "float16", "float32")]


@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("layer", ["Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Concatenate"])
@pytest.mark.parametrize("a,b,want", _PROMOTED)
def test_blind56_merge_layers_promote_mixed_dtypes(keras: Any, tf: Any, layer: str, a: str, b: str, want: str) -> None:
    y = getattr(keras.layers, layer)()([tf.constant([[1, 2]], a), tf.constant([[3, 1]], b)])
    if layer == "Average" and "float" not in want:   # (Average divides: int16 -> float32, int32 -> float64)
        want = {"int16": "float32", "int32": "float64"}[want]
    assert y.dtype.name == want, f"{layer}({a}, {b}): dtype {y.dtype.name}, Keras's result type is {want}"


def _masked_mean(x: np.ndarray, mask: np.ndarray) -> np.ndarray:
    m = mask[..., None].astype("float64")
    return (x * m).sum(axis=1) / np.maximum(m.sum(axis=1), 1e-7)


_MASKED = {"Rescaling": (lambda K, m: K.layers.Rescaling(2.0)(m), lambda x: 2 * x),
           "Add": (lambda K, m: K.layers.Add()([m, m]), lambda x: 2 * x),
           "Multiply": (lambda K, m: K.layers.Multiply()([m, m]), lambda x: x * x),
           "Average": (lambda K, m: K.layers.Average()([m, m]), lambda x: x),
           "Maximum": (lambda K, m: K.layers.Maximum()([m, m]), lambda x: x),
           "Subtract": (lambda K, m: K.layers.Subtract()([m, K.layers.Rescaling(0.5)(m)]), lambda x: x / 2),
           "Concatenate": (lambda K, m: K.layers.Concatenate()([m, m]), lambda x: np.concatenate([x, x], -1)),
           "Activation": (lambda K, m: K.layers.Activation("relu")(m), lambda x: x),
           "Dropout": (lambda K, m: K.layers.Dropout(0.5)(m), lambda x: x),
           "Identity": (lambda K, m: K.layers.Identity()(m), lambda x: x),
           "ReLU": (lambda K, m: K.layers.ReLU()(m), lambda x: x)}


@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("name", sorted(_MASKED))
def test_blind56_layers_pass_a_mask_through(keras: Any, name: str) -> None:
    """Masking -> layer -> GlobalAveragePooling1D averages the unmasked steps only when the layer passes the mask."""
    build, fn = _MASKED[name]
    x = np.array([[[1.], [0.], [3.]], [[2.], [2.], [0.]]], "float32")
    inp = keras.Input((3, 1))
    out = keras.layers.GlobalAveragePooling1D()(build(keras, keras.layers.Masking(0.0)(inp)))
    got = _np(keras.Model(inp, out)(x))
    np.testing.assert_allclose(got, _masked_mean(fn(x), np.any(x != 0, axis=-1)), rtol=1e-6,
                               err_msg=f"{name}: the mask was not passed through")


@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("n,shape", [(1, (2, 3)), (3, (2, 2)), (4, (1, 5)), (2, (3, 1))])
def test_blind56_repeat_vector(keras: Any, tf: Any, n: int, shape: tuple) -> None:
    x = np.arange(np.prod(shape), dtype="float32").reshape(shape)
    y = keras.layers.RepeatVector(n)(tf.constant(x))
    np.testing.assert_array_equal(_np(y), np.repeat(x[:, None, :], n, axis=1))
    assert tuple(keras.layers.RepeatVector(n)(keras.Input(shape[1:])).shape) == (None, n, shape[1])


# (Keras 3.15's defaults: Cropping1D (1, 1), Cropping2D ((0, 0), (0, 0)), Cropping3D ((1, 1), (1, 1), (1, 1)))
@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("layer,shape,fmt,want", [
    ("Cropping1D", (1, 5, 2), None, (1, 3, 2)), ("Cropping2D", (1, 5, 6, 2), None, (1, 5, 6, 2)),
    ("Cropping3D", (1, 5, 6, 7, 2), None, (1, 3, 4, 5, 2)),
    ("Cropping3D", (1, 2, 5, 6, 7), "channels_first", (1, 2, 3, 4, 5))])
def test_blind56_cropping_defaults(keras: Any, tf: Any, layer: str, shape: tuple, fmt: Any, want: tuple) -> None:
    kw = {} if fmt is None else {"data_format": fmt}
    lay = getattr(keras.layers, layer)(**kw)
    assert tuple(lay(tf.zeros(shape)).shape) == want, f"{layer}() default cropping of {shape}"
    assert tuple(lay.compute_output_shape((None,) + shape[1:])) == (None,) + want[1:]


def _adaptive(x: np.ndarray, out: tuple, kind: str, channels_first: bool) -> np.ndarray:
    """Keras's adaptive pooling: output i of an axis of length L pools floor(i L / n) .. ceil((i + 1) L / n) - 1."""
    if channels_first:
        x = np.moveaxis(x, 1, -1)
    f = np.mean if kind == "Average" else np.max
    for ax, n in enumerate(out, start=1):
        L = x.shape[ax]
        parts = [f(np.take(x, range(i * L // n, -((-(i + 1) * L) // n)), axis=ax), axis=ax, keepdims=True)
                 for i in range(n)]
        x = np.concatenate(parts, axis=ax)
    return np.moveaxis(x, -1, 1) if channels_first else x


@pytest.mark.clause("keras.layer.adaptive-pooling")
@pytest.mark.parametrize("kind", ["Average", "Max"])
@pytest.mark.parametrize("rank,shape,out", [(1, (2, 7, 3), (3,)), (1, (1, 4, 2), (6,)), (2, (1, 5, 7, 2), (2, 3)),
                                            (2, (1, 3, 2, 2), (4, 3)), (3, (1, 4, 5, 3, 2), (2, 2, 2))])
@pytest.mark.parametrize("fmt", ["channels_last", "channels_first"])
def test_blind56_adaptive_pooling_values(keras: Any, tf: Any, kind: str, rank: int, shape: tuple, out: tuple,
                                         fmt: str) -> None:
    x = (np.arange(np.prod(shape), dtype="float32") ** 1.5 % 7).reshape(shape)
    if fmt == "channels_first" and rank == 3 and any(o > d for o, d in zip(out, shape[2:])):
        pytest.skip("an output size above an axis's length in 3-D: TF's oneDNN MaxPool3D aborts on some hosts")
    layer = getattr(keras.layers, f"Adaptive{kind}Pooling{rank}D")(out if rank > 1 else out[0], data_format=fmt)
    got = _np(layer(tf.constant(x)))
    np.testing.assert_allclose(got, _adaptive(x, out, kind, fmt == "channels_first"), rtol=1e-5, atol=1e-5,
                               err_msg=f"Adaptive{kind}Pooling{rank}D({out}, {fmt})")


def _conv_len(n: int, k: int, s: int, d: int, padding: str) -> int:
    return -(-n // s) if padding == "same" else (n - (k - 1) * d - 1) // s + 1


@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("layer", ["DepthwiseConv1D", "DepthwiseConv2D", "SeparableConv1D", "SeparableConv2D"])
@pytest.mark.parametrize("kw", [dict(dilation_rate=2), dict(strides=2), dict(strides=2, padding="same"),
                                dict(dilation_rate=3, padding="same"), dict(data_format="channels_first"),
                                dict(data_format="channels_first", dilation_rate=2)])
def test_blind56_depthwise_separable_shapes_and_kernels(keras: Any, tf: Any, layer: str, kw: dict) -> None:
    rank = int(layer[-2])
    depthwise = layer.startswith("Depthwise")
    lay = getattr(keras.layers, layer)(*((3,) if depthwise else (4, 3)), **kw)
    cf = kw.get("data_format") == "channels_first"
    spatial = (11,) if rank == 1 else (11, 10)
    shape = (2, 3) + spatial if cf else (2,) + spatial + (3,)
    outs = tuple(_conv_len(n, 3, kw.get("strides", 1), kw.get("dilation_rate", 1), kw.get("padding", "valid"))
                 for n in spatial)
    ch = 3 if depthwise else 4
    want = (None, ch) + outs if cf else (None,) + outs + (ch,)
    assert tuple(lay.compute_output_shape((None,) + shape[1:])) == want, f"{layer}({kw}).compute_output_shape"
    y = lay(tf.ones(shape))
    assert tuple(y.shape) == (2,) + want[1:], f"{layer}({kw}) eager shape"
    kernel = lay.weights[0]
    assert tuple(kernel.shape) == (3,) * rank + (3, 1), f"{layer}({kw}): depthwise kernel {tuple(kernel.shape)}"


_EINSUM = [("ab,bc->ac", 4, (2, 3)), ("ab,cb->ac", 4, (2, 3)), ("abc,cd->abd", (5, 4), (2, 5, 3)),
           ("abc,dc->abd", (5, 4), (2, 5, 3)), ("abc,cde->abde", (5, 2, 4), (2, 5, 3)),
           ("abc,dce->abde", (5, 2, 4), (2, 5, 3)), ("abc,dec->abde", (5, 2, 4), (2, 5, 3)),
           ("abcd,cde->abe", (5, 4), (2, 5, 3, 2)), ("abcd,ced->abe", (5, 4), (2, 5, 3, 2)),
           ("abcd,ecd->abe", (5, 4), (2, 5, 3, 2)), ("ab,b->a", (), (2, 3)), ("ab,bcd->acd", (2, 4), (2, 3))]


@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("eq,out,xs", _EINSUM, ids=[e[0] for e in _EINSUM])
def test_blind56_einsum_dense_equations(keras: Any, tf: Any, eq: str, out: Any, xs: tuple) -> None:
    layer = keras.layers.EinsumDense(eq, output_shape=out)
    x = (np.arange(np.prod(xs), dtype="float32") / 7.0).reshape(xs)
    layer.build(xs)
    k = (np.arange(int(np.prod(layer.kernel.shape)), dtype="float32") % 5 - 2.0).reshape(tuple(layer.kernel.shape))
    layer.kernel.assign(k)
    np.testing.assert_allclose(_np(layer(tf.constant(x))), np.einsum(eq, x, k), rtol=1e-5, atol=1e-5,
                               err_msg=f"EinsumDense({eq!r})")


@pytest.mark.clause("keras.layer.spectral-normalization")
@pytest.mark.parametrize("inner", ["Dense", "Embedding", "Conv1D"])
def test_blind56_spectral_normalization_weights(keras: Any, tf: Any, inner: str) -> None:
    layer = keras.layers.SpectralNormalization({"Dense": lambda: keras.layers.Dense(2),
                                                "Embedding": lambda: keras.layers.Embedding(4, 3),
                                                "Conv1D": lambda: keras.layers.Conv1D(2, 2)}[inner]())
    layer(tf.constant([[1, 2]]) if inner == "Embedding" else tf.ones((1, 3) if inner == "Dense" else (1, 4, 3)))
    assert [v.name for v in layer.non_trainable_weights] == ["vector_u"]
    assert sorted(v.name for v in layer.trainable_weights) == sorted(v.name for v in layer.layer.trainable_weights)
    assert tuple(layer.vector_u.shape) == (1, layer.layer.weights[0].shape[-1])


@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("num_bins", [2, 3, 4])
def test_blind56_discretization_adapt_again_starts_afresh(keras: Any, tf: Any, num_bins: int) -> None:
    a, b = np.arange(1., 9.), np.array([10., 20., 35., 40., 55., 60., 70., 90.])
    layer = keras.layers.Discretization(num_bins=num_bins)
    layer.adapt(a)
    layer.adapt(b)
    fresh = keras.layers.Discretization(num_bins=num_bins)
    fresh.adapt(b)
    np.testing.assert_allclose(layer.bin_boundaries, fresh.bin_boundaries, err_msg="adapt after adapt")
    np.testing.assert_array_equal(_np(layer(tf.constant([0., 15., 50., 99.]))),
                                  _np(fresh(tf.constant([0., 15., 50., 99.]))))


# (observed on TF 2.21: the built layer's input_spec refuses another last axis, ValueError)
@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("name,first,second", [("Dense", (1, 3), (1, 4)), ("Dense", (2, 5, 3), (2, 5, 2)),
                                               ("Conv1D", (1, 5, 3), (1, 5, 4)), ("Conv2D", (1, 5, 5, 3), (1, 5, 5, 4)),
                                               ("DepthwiseConv2D", (1, 4, 4, 3), (1, 4, 4, 2))])
def test_blind56_built_layer_refuses_another_last_axis(keras: Any, tf: Any, name: str, first: tuple,
                                                       second: tuple) -> None:
    layer = {"Dense": lambda: keras.layers.Dense(2), "Conv1D": lambda: keras.layers.Conv1D(2, 2),
             "Conv2D": lambda: keras.layers.Conv2D(2, 2), "DepthwiseConv2D": lambda: keras.layers.DepthwiseConv2D(2)}[name]()
    layer(tf.ones(first))
    with pytest.raises(ValueError):
        layer(tf.ones(second))


@pytest.mark.clause("keras.layer.text-vectorization")
@pytest.mark.parametrize("vocab,idf", [(["a", "b"], [0.5, 0.25]), (["a", "b", "c"], [1.0, 2.0, 0.5])])
def test_blind56_text_vectorization_tf_idf_set_vocabulary(keras: Any, tf: Any, vocab: list, idf: list) -> None:
    """tf_idf: count x idf per token, the OOV token's idf the mean of the given weights."""
    layer = keras.layers.TextVectorization(output_mode="tf_idf")
    layer.set_vocabulary(vocab, idf_weights=idf)
    texts = ["a b a", "d", "b c c a"]
    weights = [float(np.mean(idf))] + list(idf)
    want = np.zeros((3, len(vocab) + 1))
    for r, t in enumerate(texts):
        for tok in t.split():
            want[r, vocab.index(tok) + 1 if tok in vocab else 0] += 1
    np.testing.assert_allclose(_np(layer(tf.constant(texts))), want * np.array(weights), rtol=1e-6)
    with pytest.raises(ValueError):
        keras.layers.TextVectorization(output_mode="tf_idf").set_vocabulary(vocab)


@pytest.mark.clause("keras.layer.option-coverage")
@pytest.mark.parametrize("layer", ["MaxPooling1D", "AveragePooling1D", "MaxPooling2D", "AveragePooling2D",
                                   "MaxPooling3D", "AveragePooling3D"])
@pytest.mark.parametrize("pool,strides,padding", [(3, 2, "valid"), (2, 3, "valid"), (3, 2, "same"), (2, None, "valid"),
                                                  (4, 1, "same"), (4, 3, "valid")])
def test_blind56_pooling_output_shape(keras: Any, tf: Any, layer: str, pool: int, strides: Any, padding: str) -> None:
    rank = int(layer[-2])
    lay = getattr(keras.layers, layer)(pool_size=pool, strides=strides, padding=padding)
    n = _conv_len(9, pool, strides or pool, 1, padding)
    want = (None,) + (n,) * rank + (1,)
    assert tuple(lay.compute_output_shape((None,) + (9,) * rank + (1,))) == want, f"{layer}({pool}, {strides})"
    assert tuple(lay(tf.ones((2,) + (9,) * rank + (1,))).shape) == (2,) + want[1:]


# -- losses and metrics ------------------------------------------------------------------------------------

def _iou(cm: np.ndarray, ids: list) -> float:
    tp = np.diag(cm)
    denom = cm.sum(0) + cm.sum(1) - tp
    vals = [tp[i] / denom[i] for i in ids if denom[i] > 0]
    return float(np.mean(vals)) if vals else 0.0


@pytest.mark.clause("keras.metric.option-coverage")
@pytest.mark.parametrize("name,ids", [("OneHotIoU", [0, 2]), ("OneHotIoU", [1]), ("OneHotMeanIoU", None)])
@pytest.mark.parametrize("weighted", [False, True])
def test_blind56_one_hot_iou(keras: Any, name: str, ids: Any, weighted: bool) -> None:
    yt = np.array([[0, 0, 1], [1, 0, 0], [0, 1, 0], [1, 0, 0], [0, 0, 1]], "float32")
    yp = np.array([[0.2, 0.3, 0.5], [0.1, 0.2, 0.7], [0.5, 0.3, 0.1], [0.1, 0.4, 0.5], [0.6, 0.3, 0.1]], "float32")
    sw = np.array([1., 2., 1., 3., 2.]) if weighted else np.ones(5)
    cm = np.zeros((3, 3))
    for t, p, w in zip(yt.argmax(-1), yp.argmax(-1), sw):
        cm[t, p] += w
    m = getattr(keras.metrics, name)(num_classes=3, **({} if ids is None else {"target_class_ids": ids}))
    m.update_state(yt, yp, sample_weight=sw if weighted else None)
    np.testing.assert_allclose(float(_np(m.result())), _iou(cm, ids if ids is not None else [0, 1, 2]), rtol=1e-5)


@pytest.mark.clause("keras.metric.option-coverage")
@pytest.mark.parametrize("name,kw", [("TopKCategoricalAccuracy", dict(k=2)), ("TopKCategoricalAccuracy", dict(k=7)),
                                     ("SparseTopKCategoricalAccuracy", dict(k=3)), ("BinaryAccuracy", dict(threshold=0.7)),
                                     ("AUC", dict(num_thresholds=7, curve="PR")), ("FBetaScore", dict(beta=2.0)),
                                     ("Precision", dict(thresholds=[0.3, 0.6], top_k=2)), ("MeanIoU", dict(num_classes=4)),
                                     ("LogCoshError", {})])
def test_blind56_metric_config_round_trip(keras: Any, name: str, kw: dict) -> None:
    cls = getattr(keras.metrics, name)
    cfg = cls(**kw).get_config()
    for k, v in kw.items():
        assert k in cfg, f"{name}.get_config() leaves out {k}"
        got = cfg[k]
        assert (list(got) if isinstance(v, list) else got) == v, f"{name}.get_config()[{k!r}] = {got}, given {v}"
    again = cls.from_config(cfg).get_config()
    assert again == cfg, f"{name}: from_config(get_config()) gives {again}, not {cfg}"


# (observed on TF 2.21: Keras 3.15's default names)
_METRIC_NAMES = {"KLDivergence": "kl_divergence", "Poisson": "poisson", "Hinge": "hinge", "SquaredHinge": "squared_hinge",
                 "CategoricalHinge": "categorical_hinge", "LogCoshError": "logcosh",
                 "MeanSquaredLogarithmicError": "mean_squared_logarithmic_error",
                 "MeanAbsolutePercentageError": "mean_absolute_percentage_error",
                 "RootMeanSquaredError": "root_mean_squared_error", "CosineSimilarity": "cosine_similarity",
                 "BinaryCrossentropy": "binary_crossentropy", "CategoricalCrossentropy": "categorical_crossentropy",
                 "SparseCategoricalCrossentropy": "sparse_categorical_crossentropy", "Precision": "precision",
                 "Recall": "recall", "AUC": "auc", "R2Score": "r2_score"}


@pytest.mark.clause("keras.metric.option-coverage")
@pytest.mark.parametrize("name", sorted(_METRIC_NAMES))
def test_blind56_metric_default_names(keras: Any, name: str) -> None:
    assert getattr(keras.metrics, name)().name == _METRIC_NAMES[name]


@pytest.mark.clause("keras.metric.option-coverage")
@pytest.mark.parametrize("name,second", [("Precision", "false_positives"), ("Recall", "false_negatives")])
@pytest.mark.parametrize("kw", [{}, {"thresholds": [0.2, 0.7]}, {"top_k": 1}])
def test_blind56_precision_recall_variables(keras: Any, name: str, second: str, kw: dict) -> None:
    m = getattr(keras.metrics, name)(**kw)
    assert [v.name for v in m.variables] == ["true_positives", second]
    m.update_state([1, 0, 1, 1], [0.9, 0.8, 0.1, 0.6])
    tp, other = (_np(v) for v in m.variables)
    np.testing.assert_allclose(_np(m.result()), np.where(tp + other > 0, tp / np.maximum(tp + other, 1e-12), 0)[0]
                               if tp.shape == (1,) else _np(m.result()), rtol=1e-6)


@pytest.mark.clause("keras.loss.distribution-scaling")
@pytest.mark.parametrize("loss", ["mse", "mae", "huber"])
@pytest.mark.parametrize("batch", [2, 4])
def test_blind56_tracked_loss_under_two_replicas(backend: Any, keras: Any, loss: str, batch: int) -> None:
    """fit's logged loss under MirroredStrategy(2) is the mean over the samples, as with one replica."""
    strategy = backend.make_strategy("mirrored", replicas=2)
    x = np.array([[1.], [2.], [3.], [4.]], "float32")
    y = np.array([[0.], [1.], [1.], [0.]], "float32")
    with strategy.scope():
        model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, kernel_initializer="ones", use_bias=False)])
        model.compile(optimizer=keras.optimizers.SGD(0.0), loss=loss)
    h = model.fit(x, y, batch_size=batch, epochs=1, verbose=0, shuffle=False)
    e = np.abs(x - y)[:, 0]
    per = {"mse": e ** 2, "mae": e, "huber": np.where(e <= 1, 0.5 * e ** 2, e - 0.5)}[loss]
    want = float(np.mean([per[i:i + batch].mean() for i in range(0, 4, batch)]))
    np.testing.assert_allclose(h.history["loss"][0], want, rtol=1e-5, err_msg=f"{loss}, batch {batch}")


# -- optimizers and schedules --------------------------------------------------------------------------------

# (observed on TF 2.21: Keras 3.15's defaults)
_OPT_DEFAULTS = {"Adagrad": {"initial_accumulator_value": 0.1, "epsilon": 1e-7, "learning_rate": 0.001},
                 "Adadelta": {"rho": 0.95, "epsilon": 1e-7, "learning_rate": 0.001},
                 "RMSprop": {"rho": 0.9, "momentum": 0.0, "epsilon": 1e-7, "centered": False},
                 "Adam": {"beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-7, "amsgrad": False},
                 "Adamax": {"beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-7},
                 "Nadam": {"beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-7},
                 "AdamW": {"weight_decay": 0.004, "beta_1": 0.9},
                 "Lion": {"beta_1": 0.9, "beta_2": 0.99, "learning_rate": 0.001},
                 "SGD": {"momentum": 0.0, "nesterov": False, "learning_rate": 0.01}}


@pytest.mark.clause("optim.option-coverage")
@pytest.mark.parametrize("name", sorted(_OPT_DEFAULTS))
def test_blind56_optimizer_defaults(keras: Any, name: str) -> None:
    cfg = getattr(keras.optimizers, name)().get_config()
    for k, v in _OPT_DEFAULTS[name].items():
        assert cfg[k] == pytest.approx(v), f"{name}().get_config()[{k!r}] = {cfg[k]}, Keras's default {v}"


def _adagrad(v: np.ndarray, grads: list, lr: float, acc0: float, eps: float) -> np.ndarray:
    acc = np.full_like(v, acc0)
    for g in grads:
        acc = acc + g * g
        v = v - lr * g / (np.sqrt(acc) + eps)
    return v


def _adadelta(v: np.ndarray, grads: list, lr: float, rho: float, eps: float) -> np.ndarray:
    acc_g, acc_d = np.zeros_like(v), np.zeros_like(v)
    for g in grads:
        acc_g = rho * acc_g + (1 - rho) * g * g
        d = np.sqrt(acc_d + eps) / np.sqrt(acc_g + eps) * g
        acc_d = rho * acc_d + (1 - rho) * d * d
        v = v - lr * d
    return v


@pytest.mark.clause("optim.option-coverage")
@pytest.mark.parametrize("name", ["Adagrad", "Adadelta"])
@pytest.mark.parametrize("explicit", [False, True])
def test_blind56_adagrad_adadelta_default_steps(keras: Any, tf: Any, name: str, explicit: bool) -> None:
    grads = [np.array([0.5, 0.25, -1.0]), np.array([0.1, -0.3, 0.2]), np.array([0.4, 0.4, 0.0])]
    v0 = np.array([1.0, -2.0, 0.5])
    if name == "Adagrad":
        opt = keras.optimizers.Adagrad(0.1, **({"initial_accumulator_value": 0.1} if explicit else {}))
        want = _adagrad(v0, grads, 0.1, 0.1, 1e-7)
    else:
        opt = keras.optimizers.Adadelta(1.0, **({"rho": 0.95} if explicit else {}))
        want = _adadelta(v0, grads, 1.0, 0.95, 1e-7)
    v = tf.Variable(v0.astype("float32"))
    for g in grads:
        opt.apply_gradients([(tf.constant(g.astype("float32")), v)])
    np.testing.assert_allclose(_np(v), want, rtol=1e-4, atol=1e-6)


_SCHEDULES = [("ExponentialDecay", (0.1, 10, 0.5), dict(staircase=True)),
              ("InverseTimeDecay", (0.1, 10, 0.5), dict(staircase=True)),
              ("PolynomialDecay", (0.1, 10), dict(end_learning_rate=0.01, power=2.0, cycle=True)),
              ("PiecewiseConstantDecay", ([5, 9], [0.1, 0.05, 0.01]), {}),
              ("CosineDecay", (0.1, 10), dict(alpha=0.1, warmup_target=0.2, warmup_steps=3)),
              ("CosineDecayRestarts", (0.1, 10), dict(t_mul=3.0, m_mul=0.5, alpha=0.1))]


@pytest.mark.clause("optim.config-round-trip")
@pytest.mark.parametrize("name,args,kw", _SCHEDULES, ids=[s[0] for s in _SCHEDULES])
def test_blind56_schedule_config_round_trip(keras: Any, name: str, args: tuple, kw: dict) -> None:
    S = keras.optimizers.schedules
    s = getattr(S, name)(*args, **kw)
    cfg = s.get_config()
    for k, v in kw.items():
        assert cfg[k] == v, f"{name}.get_config()[{k!r}] = {cfg.get(k)}, given {v}"
    steps = [0, 4, 7, 12, 25, 41]
    want = [float(_np(s(i))) for i in steps]
    for again in (getattr(S, name).from_config(cfg), S.deserialize(S.serialize(s))):
        np.testing.assert_allclose([float(_np(again(i))) for i in steps], want, rtol=1e-6, err_msg=name)


@pytest.mark.clause("optim.config-round-trip")
@pytest.mark.parametrize("opt", ["SGD", "Adam", "RMSprop", "AdamW"])
def test_blind56_optimizer_from_config_with_a_schedule(keras: Any, opt: str) -> None:
    S = keras.optimizers.schedules
    o = getattr(keras.optimizers, opt)(learning_rate=S.PiecewiseConstantDecay([2], [0.1, 0.01]))
    again = getattr(keras.optimizers, opt).from_config(o.get_config()).get_config()["learning_rate"]
    assert again["class_name"] == "PiecewiseConstantDecay" and list(again["config"]["values"]) == [0.1, 0.01]


# -- callbacks -------------------------------------------------------------------------------------------------

def _ema_model(keras: Any, tf: Any) -> tuple:
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones", use_bias=False)])
    model.compile(optimizer=keras.optimizers.SGD(0.1, use_ema=True, ema_momentum=0.5), loss="mse")
    x = np.array([[1., 2.], [3., 4.]], "float32")
    model.fit(x, np.array([[1.], [2.]], "float32"), batch_size=1, epochs=1, verbose=0, shuffle=False)
    model.optimizer.apply_gradients([(tf.ones_like(v), v) for v in model.trainable_variables])
    ema = [_np(v) for v in model.optimizer._model_variables_moving_average]
    return model, x, _np(model.trainable_variables[0]), ema[0]


@pytest.mark.clause("keras.callbacks.swap-ema-weights")
@pytest.mark.parametrize("what", ["predict", "evaluate", "predict-twice"])
def test_blind56_swap_ema_weights_outside_fit(keras: Any, tf: Any, what: str) -> None:
    """Keras 3.15: on_predict_end swaps back only if the EMA weights are not in the model, which never holds after
    on_predict_begin, so predict leaves the EMA weights in; evaluate swaps them in and out (observed on TF 2.21)."""
    model, x, w, ema = _ema_model(keras, tf)
    assert not np.allclose(w, ema)
    cb = keras.callbacks.SwapEMAWeights()
    if what == "evaluate":
        model.evaluate(x, np.zeros((2, 1)), verbose=0, callbacks=[cb])
        np.testing.assert_allclose(_np(model.trainable_variables[0]), w, err_msg="after evaluate")
        return
    y = model.predict(x, verbose=0, callbacks=[cb])
    np.testing.assert_allclose(y, x @ ema, rtol=1e-6, err_msg="predict runs on the EMA weights")
    np.testing.assert_allclose(_np(model.trainable_variables[0]), ema, err_msg="after predict")
    if what == "predict-twice":
        model.predict(x, verbose=0, callbacks=[cb])
        np.testing.assert_allclose(_np(model.trainable_variables[0]), ema, err_msg="after a second predict")


@pytest.mark.clause("keras.callback.option-coverage")
@pytest.mark.parametrize("raise_error", [None, False, True])
def test_blind56_terminate_on_nan(keras: Any, raise_error: Any) -> None:
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    x = np.array([[1.], [np.nan], [2.]], "float32")
    cb = keras.callbacks.TerminateOnNaN() if raise_error is None else keras.callbacks.TerminateOnNaN(raise_error=raise_error)
    if raise_error:
        with pytest.raises(RuntimeError):
            model.fit(x, x, batch_size=1, epochs=3, verbose=0, callbacks=[cb], shuffle=False)
        return
    h = model.fit(x, x, batch_size=1, epochs=3, verbose=0, callbacks=[cb], shuffle=False)
    assert len(h.history["loss"]) == 1 and model.stop_training


_HOOKS = ["on_train_begin", "on_train_end", "on_epoch_begin", "on_epoch_end", "on_train_batch_begin",
          "on_train_batch_end", "on_test_begin", "on_test_end", "on_test_batch_begin", "on_test_batch_end",
          "on_predict_begin", "on_predict_end", "on_predict_batch_begin", "on_predict_batch_end"]


@pytest.mark.clause("keras.callback.option-coverage")
@pytest.mark.parametrize("what", ["fit", "evaluate", "predict"])
def test_blind56_hook_sequence(keras: Any, what: str) -> None:
    calls: list = []

    class Rec(keras.callbacks.Callback):
        pass
    for n in _HOOKS:
        setattr(Rec, n, (lambda n: lambda self, *a, **kw: calls.append((n, a[0] if a and isinstance(a[0], int)
                                                                        else None)))(n))
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    x = np.ones((3, 1), "float32")
    kind = {"fit": "train", "evaluate": "test", "predict": "predict"}[what]
    if what == "fit":
        model.fit(x, x, batch_size=2, epochs=1, verbose=0, callbacks=[Rec()])
    elif what == "evaluate":
        model.evaluate(x, x, batch_size=2, verbose=0, callbacks=[Rec()])
    else:
        model.predict(x, batch_size=2, verbose=0, callbacks=[Rec()])
    body = [(f"on_{kind}_batch_{e}", b) for b in (0, 1) for e in ("begin", "end")]
    want = ([("on_train_begin", None), ("on_epoch_begin", 0)] + body + [("on_epoch_end", 0), ("on_train_end", None)]
            if what == "fit" else [(f"on_{kind}_begin", None)] + body + [(f"on_{kind}_end", None)])
    assert calls == want, f"{what}: hooks {calls}"


# -- Keras saving ----------------------------------------------------------------------------------------------

@pytest.mark.clause("keras.saving.keras-file")
@pytest.mark.parametrize("metrics", [("mae",), ["mae", "mse"], ("mae", "mse"), None])
def test_blind56_save_with_metric_sequences(keras: Any, tmp_path: Any, metrics: Any) -> None:
    inp = keras.Input((1,), name="x")
    model = keras.Model(inp, keras.layers.Dense(1, name="out")(inp))
    model.compile(optimizer="sgd", loss="mse", metrics=metrics)
    path = os.path.join(str(tmp_path), "m.keras")
    model.save(path)
    again = keras.models.load_model(path)
    r = again.evaluate(np.ones((2, 1)), np.ones((2, 1)), verbose=0, return_dict=True)
    assert sorted(r) == sorted(["loss"] + [{"mae": "mae", "mse": "mse"}[m] for m in (metrics or [])])


@pytest.mark.clause("keras.saving.keras-file")
@pytest.mark.parametrize("kw", [{}, {"compile": True}, {"compile": False}])
def test_blind56_load_model_compile(keras: Any, tmp_path: Any, kw: dict) -> None:
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mae")
    model.fit(np.ones((2, 1)), np.ones((2, 1)), verbose=0)
    path = os.path.join(str(tmp_path), "c.keras")
    model.save(path)
    again = keras.models.load_model(path, **kw)
    assert again.compiled == kw.get("compile", True)
    if kw.get("compile", True):
        assert type(again.optimizer).__name__ == "Adam" and int(_np(again.optimizer.iterations)) == 1


@pytest.mark.clause("keras.saving.keras-file")
def test_blind56_load_unregistered_model_class(keras: Any, tmp_path: Any) -> None:
    class Blind56Model(keras.Model):
        def __init__(self, **kw: Any) -> None:
            super().__init__(**kw)
            self.d = keras.layers.Dense(1)

        def call(self, x: Any) -> Any:
            return self.d(x)
    m = Blind56Model()
    m(np.ones((1, 2), "float32"))
    path = os.path.join(str(tmp_path), "u.keras")
    m.save(path)
    with pytest.raises(TypeError):   # (observed on TF 2.21: "Could not locate class 'Blind56Model'")
        keras.models.load_model(path)
    again = keras.models.load_model(path, custom_objects={"Blind56Model": Blind56Model})
    assert type(again).__name__ == "Blind56Model"


@pytest.mark.clause("keras.saving.keras-file")
@pytest.mark.parametrize("as_dict", [False, True])
def test_blind56_load_custom_loss_with_custom_objects(keras: Any, tf: Any, tmp_path: Any, as_dict: bool) -> None:
    class Blind56Loss(keras.losses.Loss):
        def call(self, y_true: Any, y_pred: Any) -> Any:
            return tf.reduce_mean(tf.abs(y_true - y_pred), axis=-1)
    inp = keras.Input((1,), name="x")
    model = keras.Model(inp, keras.layers.Dense(1, name="out")(inp))
    model.compile(optimizer="sgd", loss={"out": Blind56Loss()} if as_dict else Blind56Loss())
    path = os.path.join(str(tmp_path), "l.keras")
    model.save(path)
    again = keras.models.load_model(path, custom_objects={"Blind56Loss": Blind56Loss})
    loss = again.loss["out"] if as_dict else again.loss
    assert type(loss).__name__ == "Blind56Loss"
