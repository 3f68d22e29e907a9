"""Keras 3.15's losses (keras/src/losses/losses.py): the function forms, which return one value
per sample, and the `Loss` classes that wrap them (LossFunctionWrapper) and reduce."""

from __future__ import annotations

import warnings
from typing import Any, Callable

from simdist import tf
from simdist.keras.losses._ops import nn_ops
from simdist.keras.losses import _ops as ops
from simdist.keras.losses.loss import Loss, squeeze_or_expand_to_same_rank
from simdist.keras.serialization import deserialize_function, function_objects, serialize_function
from simdist.keras.tensor_attributes import set_keras_mask


class LossFunctionWrapper(Loss):
    """A Loss from a function fn(y_true, y_pred, **kwargs) returning per-sample values; the ranks
    of y_true and y_pred are matched first (a trailing dim of 1 squeezed or added)."""

    def __init__(self, fn: Callable[..., Any], reduction: Any = "sum_over_batch_size", name: str | None = None,
                 dtype: Any = None, **kwargs: Any) -> None:
        super().__init__(name=name, reduction=reduction, dtype=dtype)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true: Any, y_pred: Any) -> Any:
        y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self) -> dict[str, Any]:
        """Keras 3.15: the loss's config, `fn` serialized as a Keras function dict, then the kwargs."""
        config = super().get_config()
        config.update({"fn": serialize_function(self.fn)})
        config.update(self._fn_kwargs)
        return config

    @classmethod
    def from_config(cls, config_: dict[str, Any]) -> "LossFunctionWrapper":
        config_ = dict(config_)
        if "fn" in config_:
            from simdist.keras import losses
            config_["fn"] = deserialize_function(config_["fn"], function_objects(losses))
        return cls(**config_)

    def __repr__(self) -> str:
        return f"<LossFunctionWrapper({self.fn}, kwargs={self._fn_kwargs})>"


# ---------------------------------------------------------------------------------------------
# Function forms


def mean_squared_error(y_true: Any, y_pred: Any) -> Any:
    """mean(square(y_true - y_pred), axis=-1)."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    return ops.mean(tf.square(y_true - y_pred), axis=-1)


def mean_absolute_error(y_true: Any, y_pred: Any) -> Any:
    """mean(abs(y_true - y_pred), axis=-1)."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    return ops.mean(tf.abs(y_true - y_pred), axis=-1)


def categorical_crossentropy(y_true: Any, y_pred: Any, from_logits: bool = False, label_smoothing: float = 0.0,
                             axis: int = -1) -> Any:
    """Crossentropy of one-hot (or soft) targets; label smoothing mixes in a uniform target."""
    if isinstance(axis, bool):
        raise ValueError(f"`axis` must be of type `int`. Received: axis={axis} of type {type(axis)}")
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, y_pred.dtype)
    if y_pred.shape[-1] == 1:
        warnings.warn("In loss categorical_crossentropy, expected y_pred.shape to be (batch_size, num_classes) "
                      f"with num_classes > 1. Received: y_pred.shape={y_pred.shape}. Consider using "
                      "'binary_crossentropy' if you only have 2 classes.", SyntaxWarning, stacklevel=2)
    if label_smoothing:
        num_classes = ops.cast(ops.shape(y_true)[-1], y_pred.dtype)
        y_true = y_true * (1.0 - label_smoothing) + (label_smoothing / num_classes)
    return nn_ops().categorical_crossentropy(y_true, y_pred, from_logits=from_logits, axis=axis)


def sparse_categorical_crossentropy(y_true: Any, y_pred: Any, from_logits: bool = False, ignore_class: Any = None,
                                    axis: int = -1) -> Any:
    """Crossentropy of integer targets; entries labelled `ignore_class` give 0 and are masked
    out of the reduction (the loss tensor carries a Keras mask)."""
    y_true = ops.convert_to_tensor(y_true)
    y_pred = y_pred if ops.is_tensor(y_pred) else ops.convert_to_tensor(y_pred)
    if len(y_true.shape) == len(y_pred.shape) and y_true.shape[axis] == 1:
        y_true = ops.squeeze(y_true, axis)
    valid_mask = None
    if ignore_class is not None:
        rank = len(y_pred.shape)
        class_axis = axis % rank
        res_shape = [d for i, d in enumerate(ops.shape(y_pred)) if i != class_axis]
        valid_mask = tf.not_equal(y_true, ops.cast(ignore_class, y_pred.dtype) if y_true.dtype.is_floating
                                  else ops.cast(ignore_class, y_true.dtype))
        y_true = tf.where(valid_mask, y_true, tf.zeros_like(y_true))
        y_pred = tf.where(tf.expand_dims(valid_mask, axis), y_pred, tf.zeros_like(y_pred))
    res = nn_ops().sparse_categorical_crossentropy(y_true, y_pred, from_logits=from_logits, axis=axis)
    if valid_mask is not None:
        valid_mask = tf.reshape(valid_mask, res_shape)
        res = tf.where(valid_mask, res, tf.zeros_like(res))
        set_keras_mask(res, valid_mask)
    return res


def binary_crossentropy(y_true: Any, y_pred: Any, from_logits: bool = False, label_smoothing: float = 0.0,
                        axis: int = -1) -> Any:
    """Mean over `axis` of the elementwise binary crossentropy; label smoothing squeezes the
    targets towards 0.5."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, y_pred.dtype)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    return ops.mean(nn_ops().binary_crossentropy(y_true, y_pred, from_logits=from_logits), axis=axis)


# ---------------------------------------------------------------------------------------------
# Classes


class MeanSquaredError(LossFunctionWrapper):
    """mean(square(y_true - y_pred)) per sample, then reduced."""

    def __init__(self, reduction: Any = "sum_over_batch_size", name: str = "mean_squared_error",
                 dtype: Any = None) -> None:
        super().__init__(mean_squared_error, name=name, reduction=reduction, dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        return Loss.get_config(self)


class MeanAbsoluteError(LossFunctionWrapper):
    """mean(abs(y_true - y_pred)) per sample, then reduced."""

    def __init__(self, reduction: Any = "sum_over_batch_size", name: str = "mean_absolute_error",
                 dtype: Any = None) -> None:
        super().__init__(mean_absolute_error, name=name, reduction=reduction, dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        return Loss.get_config(self)


class BinaryCrossentropy(LossFunctionWrapper):
    """Binary crossentropy of 0/1 targets and probabilities (or logits with from_logits=True)."""

    def __init__(self, from_logits: bool = False, label_smoothing: float = 0.0, axis: int = -1,
                 reduction: Any = "sum_over_batch_size", name: str = "binary_crossentropy",
                 dtype: Any = None) -> None:
        super().__init__(binary_crossentropy, name=name, reduction=reduction, dtype=dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis

    def get_config(self) -> dict[str, Any]:
        config = Loss.get_config(self)
        config.update({"from_logits": self.from_logits, "label_smoothing": self.label_smoothing, "axis": self.axis})
        return config


class CategoricalCrossentropy(LossFunctionWrapper):
    """Crossentropy of one-hot targets and class probabilities (or logits)."""

    def __init__(self, from_logits: bool = False, label_smoothing: float = 0.0, axis: int = -1,
                 reduction: Any = "sum_over_batch_size", name: str = "categorical_crossentropy",
                 dtype: Any = None) -> None:
        super().__init__(categorical_crossentropy, name=name, reduction=reduction, dtype=dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis

    def get_config(self) -> dict[str, Any]:
        config = Loss.get_config(self)
        config.update({"from_logits": self.from_logits, "label_smoothing": self.label_smoothing, "axis": self.axis})
        return config


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    """Crossentropy of integer targets and class probabilities (or logits)."""

    def __init__(self, from_logits: bool = False, ignore_class: Any = None, reduction: Any = "sum_over_batch_size",
                 axis: int = -1, name: str = "sparse_categorical_crossentropy", dtype: Any = None) -> None:
        super().__init__(sparse_categorical_crossentropy, name=name, reduction=reduction, dtype=dtype,
                         from_logits=from_logits, ignore_class=ignore_class, axis=axis)
        self.from_logits = from_logits
        self.ignore_class = ignore_class

    def get_config(self) -> dict[str, Any]:
        config = Loss.get_config(self)
        config.update({"from_logits": self.from_logits, "ignore_class": self.ignore_class})
        return config
