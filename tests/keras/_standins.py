"""Stand-ins used by the trainer's tests until the real pieces are merged: Keras 3.15's Mean,
accuracy metrics and MeanMetricWrapper (keras/src/metrics, written the same way, on
simdist.keras.Variable with aggregation "sum" and synchronization "on_read", as Keras's metric
variables are), and a small `Model(Trainer, Layer)` of Dense layers.

`install()` makes `simdist.keras.metrics` importable when it does not exist yet (K2's branch);
`StandinMLP` is used when `simdist.keras.Sequential` does not exist yet (K1's branch)."""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

from simdist import tf


def _metrics_module() -> types.ModuleType:
    from simdist.keras import initializers
    from simdist.keras.variables import Variable

    class Metric:
        def __init__(self, name: str | None = None, dtype: Any = None) -> None:
            self.name = name or type(self).__name__.lower()
            self.dtype = dtype or "float32"
            self._variables: list[Any] = []

        def add_variable(self, shape: Any, initializer: Any, dtype: Any = None, aggregation: str = "sum",
                         name: str | None = None) -> Any:
            v = Variable(initializer=initializers.get(initializer), shape=shape, dtype=dtype or self.dtype,
                         trainable=False, aggregation=aggregation, synchronization="on_read", name=name)
            self._variables.append(v)
            return v

        @property
        def variables(self) -> list[Any]:
            return list(self._variables)

        def reset_state(self) -> None:
            for v in self._variables:
                v.assign(tf.zeros(v.shape, dtype=v.dtype))

    def _samplewise(values: Any, sample_weight: Any, dtype: str) -> tuple[Any, Any]:
        values = tf.cast(values, dtype)
        if sample_weight is not None:
            sample_weight = tf.cast(tf.convert_to_tensor(sample_weight), dtype)
            if len(values.shape) == len(sample_weight.shape) + 1 and values.shape[-1] == 1:
                values = tf.squeeze(values, -1)
            if len(values.shape) > len(sample_weight.shape):
                values = tf.reduce_mean(values, axis=list(range(len(sample_weight.shape), len(values.shape))))
            sample_weight = tf.broadcast_to(sample_weight, tf.shape(values))
            values = values * sample_weight
        if len(values.shape) > 1:
            values = tf.reduce_mean(values, axis=list(range(1, len(values.shape))))
        return values, sample_weight

    class Mean(Metric):
        def __init__(self, name: str = "mean", dtype: Any = None) -> None:
            super().__init__(name=name, dtype=dtype)
            self.total = self.add_variable((), "zeros", name="total")
            self.count = self.add_variable((), "zeros", name="count")

        def update_state(self, values: Any, sample_weight: Any = None) -> None:
            values, sample_weight = _samplewise(values, sample_weight, self.dtype)
            self.total.assign_add(tf.reduce_sum(values))
            if sample_weight is not None:
                n = tf.reduce_sum(sample_weight)
            elif len(values.shape) >= 1:
                n = tf.shape(values)[0]
            else:
                n = 1
            self.count.assign_add(tf.cast(n, self.dtype))

        def result(self) -> Any:
            return tf.math.divide_no_nan(tf.convert_to_tensor(self.total), tf.cast(self.count, self.dtype))

    class MeanMetricWrapper(Mean):
        def __init__(self, fn: Any, name: str | None = None, dtype: Any = None, **kwargs: Any) -> None:
            super().__init__(name=name or getattr(fn, "__name__", "mean_metric_wrapper"), dtype=dtype)
            self._fn, self._fn_kwargs = fn, kwargs

        def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
            super().update_state(self._fn(y_true, y_pred, **self._fn_kwargs), sample_weight=sample_weight)

    def sparse_categorical_accuracy(y_true: Any, y_pred: Any) -> Any:
        y_pred = tf.convert_to_tensor(y_pred)
        y_true = tf.cast(tf.convert_to_tensor(y_true), y_pred.dtype)
        org_shape = tf.shape(y_true)
        reshape = False
        if len(y_true.shape) == len(y_pred.shape):
            y_true = tf.squeeze(y_true, -1)
            reshape = True
        pred = tf.cast(tf.argmax(y_pred, axis=-1), y_true.dtype)
        matches = tf.cast(tf.equal(y_true, pred), "float32")
        if reshape:
            matches = tf.reshape(matches, org_shape)
        if len(matches.shape) > 1 and matches.shape[-1] == 1:
            matches = tf.squeeze(matches, -1)
        return matches

    def categorical_accuracy(y_true: Any, y_pred: Any) -> Any:
        return sparse_categorical_accuracy(tf.argmax(y_true, axis=-1), y_pred)

    def binary_accuracy(y_true: Any, y_pred: Any, threshold: float = 0.5) -> Any:
        y_pred = tf.convert_to_tensor(y_pred)
        y_true = tf.cast(y_true, y_pred.dtype)
        pred = tf.cast(y_pred > threshold, y_true.dtype)
        return tf.reduce_mean(tf.cast(tf.equal(y_true, pred), "float32"), axis=-1)

    def _acc(fn: Any, default: str) -> type:
        class Acc(MeanMetricWrapper):
            _direction = "up"

            def __init__(self, name: str = default, dtype: Any = None) -> None:
                super().__init__(fn, name=name, dtype=dtype)
        return Acc

    mod = types.ModuleType("simdist.keras.metrics")
    mod.Metric, mod.Mean, mod.MeanMetricWrapper = Metric, Mean, MeanMetricWrapper
    mod.SparseCategoricalAccuracy = _acc(sparse_categorical_accuracy, "sparse_categorical_accuracy")
    mod.CategoricalAccuracy = _acc(categorical_accuracy, "categorical_accuracy")
    mod.BinaryAccuracy = _acc(binary_accuracy, "binary_accuracy")

    def get(identifier: Any) -> Any:
        if isinstance(identifier, Metric) or callable(identifier):
            return identifier
        table = {"sparse_categorical_accuracy": mod.SparseCategoricalAccuracy,
                 "categorical_accuracy": mod.CategoricalAccuracy, "binary_accuracy": mod.BinaryAccuracy}
        if identifier in table:
            return table[identifier]()
        raise ValueError(f"Could not interpret metric identifier: {identifier}")

    mod.get = get
    mod.__stand_in__ = True
    return mod


def install() -> bool:
    """Provide `simdist.keras.metrics` if the real one is missing; True if a stand-in was installed."""
    try:
        importlib.import_module("simdist.keras.metrics")
        return False
    except ImportError:
        mod = _metrics_module()
        sys.modules["simdist.keras.metrics"] = mod
        import simdist.keras
        simdist.keras.metrics = mod
        return True


def standin_mlp(tf_mod: Any, sizes: list[int], activation: str = "relu") -> Any:
    """A Dense stack as a Model(Trainer, Layer), for a backend without keras.Sequential."""
    from simdist.keras.layers import Dense, Layer
    from simdist.keras.trainers.trainer import Trainer

    class StandinMLP(Trainer, Layer):
        def __init__(self) -> None:
            Trainer.__init__(self)
            Layer.__init__(self, name="sequential")
            self.hidden = [Dense(n, activation=activation) for n in sizes[1:-1]]
            self.out = Dense(sizes[-1])

        def call(self, x: Any) -> Any:
            for layer in self.hidden:
                x = layer(x)
            return self.out(x)

    m = StandinMLP()
    m(tf_mod.zeros([1, sizes[0]]))  # build
    return m
