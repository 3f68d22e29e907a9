"""LayerNormalization(rms_scaling=True) (deprecated, Keras 3.15: x / sqrt(var + eps) * gamma, no beta, its warnings;
float32, float16, mixed_float16, several axes) and LoRA of keras.layers.Dense, EinsumDense, Embedding and the convolutions (Conv1D, Conv2D) on simdist vs TF 2.21 + Keras 3.15: `lora_rank` at
construction (the weights, trainable and frozen weights, the first output, the config; Dense's and Embedding's
lora_alpha replaced by the rank at build, EinsumDense's kept), `enable_lora` on a built layer and its errors (not
built, twice, a kernel or embeddings constraint), three epochs of Adam then a .weights.h5 round trip into a model
trained with SGD (the merged kernel saved, A and B zeroed on load), a .keras file, gradients with respect to bias, A
and B, and mixed_float16. Clause keras.layer.forward-and-gradients. Its golden (tests/goldens/) is stamped with this file.
"""

from __future__ import annotations

import os
import re
import tempfile
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

X = np.linspace(-1, 1, 12).reshape(3, 4).astype("float32")
IDS = np.array([[0, 1, 2], [3, 4, 0], [1, 1, 4]], dtype="int32")


def _names(ws: list[Any]) -> list[str]:
    return [w.name for w in ws]


def _built(**kw: Any) -> Callable[[Any], Any]:
    def f(tf: Any) -> Any:
        tf.keras.utils.set_random_seed(7)
        layer = tf.keras.layers.Dense(3, **kw)
        y = layer(X)
        return [_names(layer.weights), _names(layer.trainable_weights), _names(layer.non_trainable_weights), y,
                layer.lora_alpha, {k: v for k, v in layer.get_config().items() if "lora" in k}]
    return f


def _fit(tf: Any, make: Callable[[], Any], x: np.ndarray, optimizer: str) -> Any:
    tf.keras.utils.set_random_seed(11)
    keras = tf.keras
    model = keras.Sequential([keras.Input(x.shape[1:], dtype=x.dtype), make(), keras.layers.Flatten(),
                              keras.layers.Dense(1)])
    model.compile(optimizer=optimizer, loss="mse")
    model.fit(x, np.arange(x.shape[0], dtype="float32").reshape(-1, 1), epochs=3, batch_size=2, verbose=0,
              shuffle=False)
    return model


def _trained(make: Callable[[Any], Any], x: np.ndarray) -> Callable[[Any], Any]:
    """Adam for three epochs; its weights saved, loaded into an SGD-trained twin: both layers' weights, predictions."""
    def f(tf: Any) -> Any:
        model = _fit(tf, lambda: make(tf), x, "adam")
        path = os.path.join(tempfile.mkdtemp(), "w.weights.h5")
        model.save_weights(path)
        twin = _fit(tf, lambda: make(tf), x, "sgd")
        twin.load_weights(path)
        return [list(model.layers[0].weights), list(twin.layers[0].weights), model.predict(x, verbose=0),
                twin.predict(x, verbose=0)]
    return f


def _keras_file(tf: Any) -> Any:
    model = _fit(tf, lambda: tf.keras.layers.Dense(3, lora_rank=2, lora_alpha=5), X, "adam")
    path = os.path.join(tempfile.mkdtemp(), "m.keras")
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    layer = loaded.layers[0]
    return [_names(layer.weights), list(layer.weights), layer.lora_alpha, loaded.predict(X, verbose=0)]


def _enable_after(tf: Any) -> Any:
    tf.keras.utils.set_random_seed(3)
    layer = tf.keras.layers.Dense(2)
    layer.build((None, 4))
    layer.enable_lora(3, lora_alpha=1.5)
    return [_names(layer.trainable_weights), layer.lora_alpha, layer.lora_kernel_a, layer(X)]


def _twice(tf: Any) -> Any:
    layer = tf.keras.layers.Dense(2, lora_rank=1)
    layer.build((None, 4))
    layer.enable_lora(2)


def _gradients(tf: Any) -> Any:
    tf.keras.utils.set_random_seed(5)
    layer = tf.keras.layers.Dense(2, lora_rank=2)
    layer.build((None, 4))
    layer.lora_kernel_b.assign(np.ones((2, 2), "float32"))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(layer(tf.constant(X)) ** 2)
    return [tape.gradient(y, layer.trainable_weights), layer.kernel]


def _mixed(tf: Any) -> Any:
    tf.keras.utils.set_random_seed(5)
    layer = tf.keras.layers.Dense(2, lora_rank=2, dtype="mixed_float16")
    layer.build((None, 4))
    layer.lora_kernel_b.assign(np.full((2, 2), 0.3, "float32"))
    return [layer(X), layer.kernel]


def _rms(dtype: str = "float32", **kw: Any) -> Callable[[Any], Any]:
    def f(tf: Any) -> Any:
        import warnings
        tf.keras.utils.set_random_seed(1)
        x = np.linspace(-2, 3, 24).reshape(2, 3, 4).astype("float16" if dtype == "float16" else "float32")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            layer = tf.keras.layers.LayerNormalization(rms_scaling=True, dtype=dtype, **kw)
            y = layer(x)
        return [y, _names(layer.weights), layer.get_config()["rms_scaling"],
                sum("rms_scaling" in str(w.message) for w in caught)]
    return f


CASES: dict[str, Callable[[Any], Any]] = {
    "ln/rms": _rms(),
    "ln/rms_axes": _rms(axis=[1, 2], gamma_initializer="random_normal"),
    "ln/rms_no_center_no_scale": _rms(center=False, scale=False),
    "ln/rms_float16": _rms("float16"),
    "ln/rms_mixed_float16": _rms("mixed_float16"),
    "dense/rank2": _built(lora_rank=2),
    "dense/rank2_alpha8": _built(lora_rank=2, lora_alpha=8),
    "dense/trained": _trained(lambda tf: tf.keras.layers.Dense(3, lora_rank=2), X),
    "dense/keras_file": _keras_file,
    "dense/enable_after_build": _enable_after,
    "dense/enable_unbuilt": lambda tf: tf.keras.layers.Dense(2).enable_lora(2),
    "dense/enable_twice": _twice,
    "dense/constraint": lambda tf: tf.keras.layers.Dense(2, lora_rank=1, kernel_constraint="non_neg")(X),
    "dense/gradients": _gradients,
    "dense/mixed_float16": _mixed,
    "einsum/trained": _trained(lambda tf: tf.keras.layers.EinsumDense("ab,bc->ac", output_shape=3, bias_axes="c",
                                                                      lora_rank=1, lora_alpha=4), X),
    "einsum/trained_rank3_kernel": _trained(lambda tf: tf.keras.layers.EinsumDense(
        "abc,cde->abde", output_shape=(2, 2, 2), lora_rank=2), X.reshape(3, 2, 2)),
    "conv2d/trained": _trained(lambda tf: tf.keras.layers.Conv2D(2, 2, lora_rank=2, lora_alpha=3),
                               X.reshape(3, 2, 2, 1)),
    "conv1d/trained_no_bias": _trained(lambda tf: tf.keras.layers.Conv1D(2, 2, use_bias=False, lora_rank=1),
                                       X.reshape(3, 4, 1)),
    "embedding/trained": _trained(lambda tf: tf.keras.layers.Embedding(5, 2, lora_rank=2, lora_alpha=6), IDS),
    "embedding/constraint": lambda tf: tf.keras.layers.Embedding(5, 2, lora_rank=1,
                                                                 embeddings_constraint="non_neg")(IDS),
}
LABELS = sorted(CASES)
_AUTO_NAME = re.compile(r"\b(dense|einsum_dense|embedding|sequential|flatten|conv1d|conv2d|layer_normalization)(_\d+)?\b")


def _run(tf: Any, label: str) -> Any:
    return case_results.run(tf, CASES[label], _AUTO_NAME)


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    return {i: _run(tf, LABELS[i]) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(LABELS))))


def _check(tf_results: dict[int, Any], prefixes: tuple[str, ...]) -> None:
    from simdist import tf
    labels = [(i, lab) for i, lab in enumerate(LABELS) if lab.startswith(prefixes)]
    bad = [d for i, lab in labels if (d := case_results.diff(_run(tf, lab), tf_results[i], lab))]
    assert not bad, f"{len(bad)} of {len(labels)} cases differ from TF 2.21:\n" + "\n".join(bad)


@pytest.mark.clause("keras.layer.forward-and-gradients")
def test_lora_layers_match_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, ("dense/", "einsum/", "conv1d/", "conv2d/", "embedding/"))


@pytest.mark.clause("keras.layer.layernorm")
def test_layer_normalization_rms_scaling_matches_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, ("ln/",))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
