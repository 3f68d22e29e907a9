"""The built-in models of training scenarios (``model.zoo``) and ``model.function`` models.

    mlp        Dense(h, relu) for each h in model.hidden (default [64]), then Dense(classes)
    cnn        per f in model.filters (default [16, 32]): Conv2D(f, 3x3, same, relu) and
               MaxPooling2D(2); then GlobalAveragePooling2D and Dense(classes)
    transformer  a small encoder (ViT-style on rows): x (features) reshaped into model.tokens
               tokens (default 8: the digits' image rows) of features/tokens values;
               Dense(embedding_dim) token embedding plus a learned position embedding
               (`PositionEmbedding`, one vector per token); model.blocks (default 1) blocks of
               MultiHeadAttention(heads, embedding_dim // heads) + residual + LayerNormalization
               and Dense(ff_dim, relu) + Dense(embedding_dim) + residual + LayerNormalization;
               GlobalAveragePooling1D, then Dense(classes). Defaults: embedding_dim 32, heads 2,
               ff_dim 2 x embedding_dim.
    wide_deep  inputs (x, category id): deep = the MLP on concat(x, Embedding(buckets,
               embedding_dim)(id)); wide = Embedding(buckets, classes)(id) (a linear model of
               the one-hot id); logits = deep + wide. Under ParameterServerStrategy the
               scenario's partitioner splits the embedding tables over the ps tasks.

``model.mixed_precision`` ("mixed_float16" / "mixed_bfloat16") builds the model under that
Keras global policy (16-bit compute, float32 variables); its logits layer is float32, as the
Keras mixed-precision guide advises, so the loss is computed in float32.

Every model outputs logits and is a `tf.keras` model (`simdist.keras`, Keras 3.15's layers),
built inside the strategy's scope, so its variables are the strategy's. Initial weights are
Keras's defaults (Glorot uniform kernels, zero biases, uniform(-0.05, 0.05) embeddings; the wide
part's embedding starts at zero), drawn from streams of the run's root seed, so the same seed
gives the same model. A ``model.function`` gets ``(input_shape, num_classes)`` and returns a
model that maps the inputs (x, or (x, category id) with ``data.categorical_buckets``) to logits.
Validation builds it once and calls it on two examples (`probe_function`): what it does wrong
is a scenario error at ``model.function`` with the file:line of the user code
(`simdist.scenario.usercode`), before any run.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..usercode import UserCodeError, call_user, check_signature, describe, resolve

__all__ = ["ZOO", "build", "load_function", "probe_function", "KEY"]

KEY = "model.function"
_RULE = "rule: return a tf.keras Model built with `from simdist import tf`, mapping the inputs to logits"

ZOO = ("mlp", "cnn", "wide_deep", "transformer")
PRECISIONS = ("float32", "mixed_float16", "mixed_bfloat16")
TRANSFORMER_DEFAULTS = {"embedding_dim": 32, "heads": 2, "blocks": 1, "tokens": 8}


def load_function(spec: str, scenario_file: str | None = None) -> Callable[..., Any]:
    """The callable named by "module:function" (a UserCodeError at model.function says what is wrong)."""
    return resolve(spec, KEY, scenario_file)


def _call_function(tf: Any, spec: str, scenario_file: str | None, input_shape: tuple[int, ...],
                   num_classes: int) -> Any:
    fn = load_function(spec, scenario_file)
    check_signature(fn, (input_shape, num_classes), spec, KEY, "function(input_shape, num_classes)")
    model = call_user(fn, (input_shape, num_classes), spec, KEY)
    if not isinstance(model, tf.keras.Model):
        what = "None" if model is None else f"a {type(model).__module__}.{type(model).__name__}"
        hint = ""
        if isinstance(model, tf.keras.layers.Layer):
            hint = " (a layer: wrap it, e.g. tf.keras.Sequential([tf.keras.Input(shape=input_shape), layer]))"
        elif model is not None and not type(model).__module__.startswith("simdist"):
            hint = " (built outside simdist: use `from simdist import tf`, not `import tensorflow`)"
        raise UserCodeError(KEY, f"{spec!r} ({describe(fn)}) returned {what}, not a tf.keras Model{hint} ({_RULE})")
    return model


def probe_function(spec: str, scenario_file: str | None, x: np.ndarray, buckets: int, num_classes: int) -> int:
    """Build the model of ``spec`` and call it on the first two examples of ``x`` (with category
    ids 0 when ``buckets``); its parameter count. A UserCodeError says what the function or its
    model did wrong: not importable or callable, a wrong signature, a call that raises, a result
    that is not a Model, logits of another shape than (batch, num_classes)."""
    from simdist import tf
    sample = np.ascontiguousarray(x[:2].astype(np.float32))
    inputs: Any = (sample, np.zeros(len(sample), np.int32)) if buckets else sample
    input_shape = tuple(int(s) for s in x.shape[1:])
    tf.keras.backend.clear_session()
    try:
        model = _call_function(tf, spec, scenario_file, input_shape, num_classes)
        out = call_user(model, (inputs,), f"{spec} -> model", KEY, {"training": False})
        shape = tuple(getattr(out, "shape", ()) or ())
        want = (len(sample), num_classes)
        if tuple(int(d) if d is not None else -1 for d in shape) != want:
            got = f"{type(out).__name__} of shape {tuple(shape)}" if hasattr(out, "shape") else type(out).__name__
            raise UserCodeError(KEY, f"the model of {spec!r} maps a batch of {len(sample)} examples of shape "
                                     f"{input_shape} to {got}, not logits of shape {want} (rule: one logit per "
                                     f"class, num_classes = {num_classes})")
        return int(sum(int(np.prod(v.shape)) for v in model.variables))
    finally:
        tf.keras.backend.clear_session()


def build(tf: Any, model_cfg: dict, input_shape: tuple[int, ...], num_classes: int, buckets: int,
          scenario_file: str | None = None) -> Any:
    """The scenario's model, built now (call it inside the strategy's scope)."""
    fn = model_cfg.get("function")
    if fn is not None:
        return _call_function(tf, fn, scenario_file, input_shape, num_classes)
    kind = model_cfg["zoo"]
    keras = tf.keras
    layers = keras.layers
    hidden = list(model_cfg.get("hidden") or [64])
    if kind == "mlp":
        return keras.Sequential([keras.Input(shape=input_shape)] +
                                [layers.Dense(h, activation="relu", name=f"dense_{i}") for i, h in enumerate(hidden)] +
                                [layers.Dense(num_classes, name="logits", dtype="float32")], name="mlp")
    if kind == "cnn":
        blocks: list[Any] = []
        for i, f in enumerate(model_cfg.get("filters") or [16, 32]):
            blocks += [layers.Conv2D(f, 3, padding="same", activation="relu", name=f"conv_{i}"),
                       layers.MaxPooling2D(2, padding="same", name=f"pool_{i}")]
        return keras.Sequential([keras.Input(shape=input_shape)] + blocks +
                                [layers.GlobalAveragePooling2D(name="gap"),
                                 layers.Dense(num_classes, name="logits", dtype="float32")],
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
        return keras.Model([x_in, ids], layers.Add(name="logits", dtype="float32")([deep, wide]), name="wide_deep")
    if kind == "transformer":
        return transformer(tf, model_cfg, input_shape, num_classes)
    raise ValueError(f"model.zoo {kind!r}: not one of {', '.join(ZOO)}")


def transformer_options(model_cfg: dict) -> dict[str, int]:
    """The transformer's sizes, defaults filled: embedding_dim, heads, blocks, tokens, ff_dim."""
    o = {k: int(model_cfg.get(k) or v) for k, v in TRANSFORMER_DEFAULTS.items()}
    o["ff_dim"] = int(model_cfg.get("ff_dim") or 2 * o["embedding_dim"])
    return o


def position_embedding_class(tf: Any) -> Any:
    """A Keras layer adding one learned vector per position (weight "embeddings", (tokens, dim),
    uniform(-0.05, 0.05) as Embedding's): keras_hub's PositionEmbedding, for sequences of a fixed
    length."""
    keras = tf.keras

    class PositionEmbedding(keras.layers.Layer):
        def build(self, input_shape: Any) -> None:
            self.embeddings = self.add_weight(name="embeddings", shape=(int(input_shape[-2]), int(input_shape[-1])),
                                              initializer=keras.initializers.RandomUniform(-0.05, 0.05))

        def call(self, inputs: Any) -> Any:
            return inputs + tf.cast(self.embeddings, inputs.dtype)

        def compute_output_shape(self, input_shape: Any) -> Any:
            return input_shape

    return PositionEmbedding


def transformer(tf: Any, model_cfg: dict, input_shape: tuple[int, ...], num_classes: int) -> Any:
    """The zoo's transformer encoder classifier (see the module's docstring)."""
    keras, layers = tf.keras, tf.keras.layers
    o = transformer_options(model_cfg)
    features = int(np.prod(input_shape))
    tokens, dim = o["tokens"], o["embedding_dim"]
    x_in = keras.Input(shape=input_shape, name="features")
    h = layers.Reshape((tokens, features // tokens), name="tokens")(x_in)
    h = layers.Dense(dim, name="token_embedding")(h)
    h = position_embedding_class(tf)(name="position_embedding")(h)
    for i in range(o["blocks"]):
        a = layers.MultiHeadAttention(o["heads"], max(1, dim // o["heads"]), name=f"attention_{i}")(h, h)
        h = layers.LayerNormalization(epsilon=1e-6, name=f"norm_{i}a")(layers.Add(name=f"residual_{i}a")([h, a]))
        f = layers.Dense(o["ff_dim"], activation="relu", name=f"ffn_{i}_1")(h)
        f = layers.Dense(dim, name=f"ffn_{i}_2")(f)
        h = layers.LayerNormalization(epsilon=1e-6, name=f"norm_{i}b")(layers.Add(name=f"residual_{i}b")([h, f]))
    h = layers.GlobalAveragePooling1D(name="pool")(h)
    return keras.Model(x_in, layers.Dense(num_classes, name="logits", dtype="float32")(h), name="transformer")
