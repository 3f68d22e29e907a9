"""The built-in models of training scenarios (``model.zoo``) and ``model.function`` models.

    mlp        Dense(h, relu) for each h in model.hidden (default [64]), then Dense(classes)
    cnn        per f in model.filters (default [16, 32]): Conv2D(f, 3x3, same, relu) and
               MaxPooling2D(2); then GlobalAveragePooling2D and Dense(classes)
    wide_deep  inputs (x, category id): deep = the MLP on concat(x, Embedding(buckets,
               embedding_dim)(id)); wide = Embedding(buckets, classes)(id) (a linear model of
               the one-hot id); logits = deep + wide. Under ParameterServerStrategy the
               scenario's partitioner splits the embedding tables over the ps tasks.

Every model outputs logits and is a `tf.keras` model (`simdist.keras`, Keras 3.15's layers),
built inside the strategy's scope, so its variables are the strategy's. Initial weights are
Keras's defaults (Glorot uniform kernels, zero biases, uniform(-0.05, 0.05) embeddings; the wide
part's embedding starts at zero), drawn from streams of the run's root seed, so the same seed
gives the same model. A ``model.function`` gets ``(input_shape, num_classes)`` and returns a
model that maps the inputs (x, or (x, category id) with ``data.categorical_buckets``) to logits.
"""

from __future__ import annotations

import importlib
from typing import Any, Callable

__all__ = ["ZOO", "build", "load_function"]

ZOO = ("mlp", "cnn", "wide_deep")


def load_function(spec: str) -> Callable[..., Any]:
    """The callable named by "module:function" (ImportError/AttributeError say which part is missing)."""
    module, _, name = spec.partition(":")
    mod = importlib.import_module(module)
    fn = getattr(mod, name, None)
    if not callable(fn):
        raise AttributeError(f"model.function {spec!r}: module {module!r} has no function {name!r}")
    return fn


def build(tf: Any, model_cfg: dict, input_shape: tuple[int, ...], num_classes: int, buckets: int) -> Any:
    """The scenario's model, built now (call it inside the strategy's scope)."""
    fn = model_cfg.get("function")
    if fn is not None:
        return load_function(fn)(input_shape, num_classes)
    kind = model_cfg["zoo"]
    keras = tf.keras
    layers = keras.layers
    hidden = list(model_cfg.get("hidden") or [64])
    if kind == "mlp":
        return keras.Sequential([keras.Input(shape=input_shape)] +
                                [layers.Dense(h, activation="relu", name=f"dense_{i}") for i, h in enumerate(hidden)] +
                                [layers.Dense(num_classes, name="logits")], name="mlp")
    if kind == "cnn":
        blocks: list[Any] = []
        for i, f in enumerate(model_cfg.get("filters") or [16, 32]):
            blocks += [layers.Conv2D(f, 3, padding="same", activation="relu", name=f"conv_{i}"),
                       layers.MaxPooling2D(2, padding="same", name=f"pool_{i}")]
        return keras.Sequential([keras.Input(shape=input_shape)] + blocks +
                                [layers.GlobalAveragePooling2D(name="gap"), layers.Dense(num_classes, name="logits")],
                                name="cnn")
    if kind == "wide_deep":
        dim = int(model_cfg.get("embedding_dim") or 8)
        x_in = keras.Input(shape=input_shape, name="features")
        ids = keras.Input(shape=(), dtype="int32", name="category")
        h = layers.Concatenate(name="deep_inputs")([x_in, layers.Embedding(buckets, dim, name="embedding")(ids)])
        for i, units in enumerate(hidden):
            h = layers.Dense(units, activation="relu", name=f"dense_{i}")(h)
        deep = layers.Dense(num_classes, name="deep_logits")(h)
        wide = layers.Embedding(buckets, num_classes, embeddings_initializer="zeros", name="wide")(ids)
        return keras.Model([x_in, ids], layers.Add(name="logits")([deep, wide]), name="wide_deep")
    raise ValueError(f"model.zoo {kind!r}: not one of {', '.join(ZOO)}")
