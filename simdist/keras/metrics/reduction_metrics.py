"""Keras 3.15's reduction metrics (keras/src/metrics/reduction_metrics.py): Sum, Mean and
MeanMetricWrapper (the mean over samples of a per-sample function such as an accuracy)."""

from __future__ import annotations

from typing import Any, Callable

from simdist.keras import config, initializers
from simdist.keras.losses import _ops as ops
from simdist.keras.losses.loss import apply_mask, squeeze_or_expand_to_same_rank
from simdist.keras.metrics.metric import Metric
from simdist.keras.serialization import deserialize_function, function_objects, serialize_function
from simdist.keras.tensor_attributes import get_keras_mask


def reduce_to_samplewise_values(values: Any, sample_weight: Any, reduce_fn: Callable[..., Any],
                                dtype: Any) -> tuple[Any, Any]:
    """Per-sample values (axes past the weights' rank reduced with reduce_fn), weighted; and the
    weights, reduced to one per sample."""
    dtype = dtype or config.floatx()
    mask = get_keras_mask(values)
    values = ops.cast(values, dtype)
    if sample_weight is not None:
        sample_weight = ops.convert_to_tensor(sample_weight, dtype=dtype)
        if mask is not None:
            sample_weight = apply_mask(sample_weight, mask, dtype=dtype, reduction="sum")
        values, sample_weight = squeeze_or_expand_to_same_rank(values, sample_weight)
        weight_ndim = len(sample_weight.shape)
        values_ndim = len(values.shape)
        if values_ndim > weight_ndim:
            values = reduce_fn(values, axis=list(range(weight_ndim, values_ndim)))
        sample_weight = ops.broadcast_to(sample_weight, ops.shape(values))
        values = values * sample_weight
        if weight_ndim > 1:
            sample_weight = reduce_fn(sample_weight, axis=list(range(1, weight_ndim)))
    values_ndim = len(values.shape)
    if values_ndim > 1:
        values = reduce_fn(values, axis=list(range(1, values_ndim)))
    return values, sample_weight


class Sum(Metric):
    """The (weighted) sum of the values seen."""

    def __init__(self, name: str = "sum", dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(shape=(), initializer=initializers.Zeros(), dtype=self.dtype, name="total")

    def update_state(self, values: Any, sample_weight: Any = None) -> None:
        values, _ = reduce_to_samplewise_values(values, sample_weight, reduce_fn=ops.sum, dtype=self.dtype)
        self.total.assign_add(ops.sum(values))

    def reset_state(self) -> None:
        self.total.assign(0)

    def result(self) -> Any:
        return ops.cast(self.total, self.dtype)


class Mean(Metric):
    """The (weighted) mean of the values seen: total / count."""

    def __init__(self, name: str = "mean", dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(shape=(), initializer=initializers.Zeros(), dtype=self.dtype, name="total")
        self.count = self.add_variable(shape=(), initializer=initializers.Zeros(), dtype=self.dtype, name="count")

    def update_state(self, values: Any, sample_weight: Any = None) -> None:
        values, sample_weight = reduce_to_samplewise_values(values, sample_weight, reduce_fn=ops.mean,
                                                            dtype=self.dtype)
        self.total.assign_add(ops.sum(values))
        if sample_weight is not None:
            num_samples: Any = ops.sum(sample_weight)
        elif len(values.shape) >= 1:
            num_samples = ops.shape(values)[0]
        else:
            num_samples = 1
        self.count.assign_add(ops.cast(num_samples, self.dtype))

    def reset_state(self) -> None:
        self.total.assign(0)
        self.count.assign(0)

    def result(self) -> Any:
        return ops.divide_no_nan(self.total, ops.cast(self.count, self.dtype))


class MeanMetricWrapper(Mean):
    """The mean over all samples seen of fn(y_true, y_pred, **kwargs)."""

    def __init__(self, fn: Callable[..., Any], name: str | None = None, dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(name=name, dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs
        from simdist.keras import losses
        if fn in losses.ALL_OBJECTS or type(fn) in losses.ALL_OBJECTS:
            self._direction = "down"

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> None:
        mask = get_keras_mask(y_pred)
        values = self._fn(y_true, y_pred, **self._fn_kwargs)
        sample_weight = apply_mask(sample_weight, mask, dtype=self.dtype, reduction="sum")
        super().update_state(values, sample_weight=sample_weight)

    def get_config(self) -> dict[str, Any]:
        """Keras 3.15: the metric's config, `fn` serialized as a Keras function dict, then the kwargs."""
        config_ = super().get_config()
        config_.update({"fn": serialize_function(self._fn)})
        config_.update(self._fn_kwargs)
        return config_

    @classmethod
    def from_config(cls, config_: dict[str, Any]) -> "MeanMetricWrapper":
        from simdist.keras import losses, metrics
        config_ = dict(config_)
        if "fn" in config_:
            config_["fn"] = deserialize_function(config_["fn"], function_objects(losses, metrics))
        return cls(**config_)
