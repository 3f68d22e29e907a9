"""The built-in models of training scenarios (``model.zoo``) and ``model.function`` models.

    mlp        Dense(h, relu) for each h in model.hidden (default [64]), then Dense(classes)
    cnn        per f in model.filters (default [16, 32]): Conv2D(f, 3x3, same, relu) and
               MaxPooling2D(2); then GlobalAveragePooling2D and Dense(classes)
    wide_deep  inputs (x, category id): deep = the MLP on concat(x, Embedding(buckets,
               embedding_dim)(id)); wide = Embedding(buckets, classes)(id) (a linear model of
               the one-hot id); logits = deep + wide. Under ParameterServerStrategy the
               scenario's partitioner splits the embedding tables over the ps tasks.

Every model outputs logits. A model is anything with ``__call__(inputs, training=False)``,
``trainable_variables`` and ``variables`` (a Keras model has them); built inside the strategy's
scope, so its variables are the strategy's. Initial weights are deterministic: Glorot uniform
kernels from the stream ``model/init`` of the run's root seed, zero biases.
"""

from __future__ import annotations

import importlib
import math
from typing import Any, Callable

import numpy as np

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


def build(tf: Any, model_cfg: dict, input_shape: tuple[int, ...], num_classes: int, buckets: int,
          rng: np.random.Generator) -> Any:
    """The scenario's model, built now (call it inside the strategy's scope)."""
    fn = model_cfg.get("function")
    if fn is not None:
        return load_function(fn)(input_shape, num_classes)
    kind = model_cfg["zoo"]
    hidden = list(model_cfg.get("hidden") or [64])
    init = _Init(rng)
    if kind == "mlp":
        return _MLP(tf, init, input_shape[-1], hidden, num_classes)
    if kind == "cnn":
        return _CNN(tf, init, input_shape, list(model_cfg.get("filters") or [16, 32]), num_classes)
    if kind == "wide_deep":
        return _WideDeep(tf, init, input_shape[-1], hidden, num_classes, buckets,
                         int(model_cfg.get("embedding_dim") or 8))
    raise ValueError(f"model.zoo {kind!r}: not one of {', '.join(ZOO)}")


class _Init:
    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng

    def glorot(self, shape: tuple[int, ...], fan_in: int, fan_out: int) -> np.ndarray:
        limit = math.sqrt(6.0 / (fan_in + fan_out))
        return self.rng.uniform(-limit, limit, size=shape).astype(np.float32)

    def uniform(self, shape: tuple[int, ...], limit: float) -> np.ndarray:
        return self.rng.uniform(-limit, limit, size=shape).astype(np.float32)


class _Base:
    name = "model"

    def __init__(self) -> None:
        self._vars: list[Any] = []

    def _var(self, tf: Any, value: np.ndarray, name: str) -> Any:
        v = tf.Variable(value, name=f"{self.name}/{name}")
        self._vars.append(v)
        return v

    @property
    def variables(self) -> list[Any]:
        return list(self._vars)

    @property
    def trainable_variables(self) -> list[Any]:
        return list(self._vars)

    def count_params(self) -> int:
        return int(sum(math.prod(v.shape) for v in self._vars))


class _Dense:
    def __init__(self, owner: _Base, tf: Any, init: _Init, n_in: int, n_out: int, name: str, relu: bool) -> None:
        self.tf, self.relu = tf, relu
        self.kernel = owner._var(tf, init.glorot((n_in, n_out), n_in, n_out), f"{name}/kernel")
        self.bias = owner._var(tf, np.zeros(n_out, np.float32), f"{name}/bias")

    def __call__(self, x: Any) -> Any:
        y = self.tf.matmul(x, self.kernel) + self.bias
        return self.tf.nn.relu(y) if self.relu else y


class _MLP(_Base):
    name = "mlp"

    def __init__(self, tf: Any, init: _Init, n_in: int, hidden: list[int], classes: int) -> None:
        super().__init__()
        self.layers = []
        for i, h in enumerate(hidden):
            self.layers.append(_Dense(self, tf, init, n_in, h, f"dense_{i}", True))
            n_in = h
        self.layers.append(_Dense(self, tf, init, n_in, classes, "logits", False))

    def __call__(self, x: Any, training: bool = False) -> Any:
        for layer in self.layers:
            x = layer(x)
        return x


class _CNN(_Base):
    name = "cnn"

    def __init__(self, tf: Any, init: _Init, input_shape: tuple[int, ...], filters: list[int], classes: int) -> None:
        super().__init__()
        self.tf = tf
        c = input_shape[-1]
        self.convs = []
        for i, f in enumerate(filters):
            k = self._var(tf, init.glorot((3, 3, c, f), 9 * c, 9 * f), f"conv_{i}/kernel")
            b = self._var(tf, np.zeros(f, np.float32), f"conv_{i}/bias")
            self.convs.append((k, b))
            c = f
        self.head = _Dense(self, tf, init, c, classes, "logits", False)

    def __call__(self, x: Any, training: bool = False) -> Any:
        tf = self.tf
        for k, b in self.convs:
            x = tf.nn.relu(tf.nn.conv2d(x, k, strides=1, padding="SAME") + b)
            x = tf.nn.max_pool2d(x, ksize=2, strides=2, padding="SAME")
        return self.head(tf.reduce_mean(x, axis=[1, 2]))


class _WideDeep(_Base):
    name = "wide_deep"

    def __init__(self, tf: Any, init: _Init, n_in: int, hidden: list[int], classes: int, buckets: int,
                 dim: int) -> None:
        super().__init__()
        self.tf = tf
        self.embedding = self._var(tf, init.uniform((buckets, dim), 0.05), "embedding/embeddings")
        self.wide = self._var(tf, np.zeros((buckets, classes), np.float32), "wide/embeddings")
        self.layers = []
        n = n_in + dim
        for i, h in enumerate(hidden):
            self.layers.append(_Dense(self, tf, init, n, h, f"dense_{i}", True))
            n = h
        self.layers.append(_Dense(self, tf, init, n, classes, "logits", False))

    def __call__(self, inputs: Any, training: bool = False) -> Any:
        tf = self.tf
        x, ids = inputs
        h = tf.concat([x, tf.nn.embedding_lookup(self.embedding, ids)], axis=1)
        for layer in self.layers:
            h = layer(h)
        return h + tf.nn.embedding_lookup(self.wide, ids)
