"""Keras 3.15's further probabilistic losses (keras/src/losses/losses.py): kl_divergence,
poisson, binary_focal_crossentropy, categorical_focal_crossentropy, and their Loss classes
(clauses keras.loss.functions, keras.loss.focal)."""

from __future__ import annotations

import warnings
from typing import Any

from simdist import tf
from simdist.keras import activations, config
from simdist.keras.losses._ops import nn_ops
from simdist.keras.losses import _ops as ops
from simdist.keras.losses.loss import Loss
from simdist.keras.losses.losses import LossFunctionWrapper


def kl_divergence(y_true: Any, y_pred: Any) -> Any:
    """sum(y_true * log(y_true / y_pred), axis=-1), both clipped to [epsilon, 1]."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, y_pred.dtype)
    y_true = ops.clip(y_true, config.epsilon(), 1)
    y_pred = ops.clip(y_pred, config.epsilon(), 1)
    return tf.reduce_sum(y_true * tf.math.log(y_true / y_pred), axis=-1)


def poisson(y_true: Any, y_pred: Any) -> Any:
    """mean(y_pred - y_true * log(y_pred + epsilon), axis=-1)."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.convert_to_tensor(y_true, dtype=y_pred.dtype)
    epsilon = ops.convert_to_tensor(config.epsilon(), dtype=y_pred.dtype)
    return ops.mean(y_pred - y_true * tf.math.log(y_pred + epsilon), axis=-1)


def binary_focal_crossentropy(y_true: Any, y_pred: Any, apply_class_balancing: bool = False, alpha: float = 0.25,
                              gamma: float = 2.0, from_logits: bool = False, label_smoothing: float = 0.0,
                              axis: int = -1) -> Any:
    """mean over `axis` of (1 - p_t)**gamma * bce, p_t = y_true*p + (1-y_true)*(1-p); with class
    balancing also times alpha (positives) or 1 - alpha (negatives). Logits go through Keras's
    sigmoid, so the bce is the fused logits form (clause keras.loss.focal)."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, y_pred.dtype)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    if from_logits:
        y_pred = activations.sigmoid(y_pred)
    bce = nn_ops().binary_crossentropy(y_true, y_pred, from_logits=False)
    p_t = y_true * y_pred + (1 - y_true) * (1 - y_pred)
    focal_bce = ops.power(1.0 - p_t, gamma) * bce
    if apply_class_balancing:
        weight = y_true * alpha + (1 - y_true) * (1 - alpha)
        focal_bce = weight * focal_bce
    return ops.mean(focal_bce, axis=axis)


def categorical_focal_crossentropy(y_true: Any, y_pred: Any, alpha: float = 0.25, gamma: float = 2.0,
                                   from_logits: bool = False, label_smoothing: float = 0.0, axis: int = -1) -> Any:
    """sum over `axis` of alpha * (1 - p)**gamma * (-y_true * log(p)), p = y_pred normalised to
    sum 1 (softmax first for logits) and clipped to [eps, 1 - eps] (clause keras.loss.focal)."""
    if isinstance(axis, bool):
        raise ValueError(f"`axis` must be of type `int`. Received: axis={axis} of type {type(axis)}")
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, y_pred.dtype)
    if y_pred.shape[-1] == 1:
        warnings.warn("In loss categorical_focal_crossentropy, expected y_pred.shape to be (batch_size, "
                      f"num_classes) with num_classes > 1. Received: y_pred.shape={y_pred.shape}. Consider using "
                      "'binary_crossentropy' if you only have 2 classes.", SyntaxWarning, stacklevel=2)
    if label_smoothing:
        num_classes = ops.cast(ops.shape(y_true)[-1], y_pred.dtype)
        y_true = y_true * (1.0 - label_smoothing) + label_smoothing / num_classes
    if from_logits:
        y_pred = activations.softmax(y_pred, axis=axis)
    output = y_pred / tf.reduce_sum(y_pred, axis=axis, keepdims=True)
    eps = config.epsilon()
    output = ops.clip(output, eps, 1.0 - eps)
    cce = -y_true * tf.math.log(output)
    weighting_factor = ops.power(1.0 - output, gamma) * alpha
    return tf.reduce_sum(weighting_factor * cce, axis=axis)


class KLDivergence(LossFunctionWrapper):
    """`kl_divergence` per sample, then reduced."""

    def __init__(self, reduction: Any = "sum_over_batch_size", name: str = "kl_divergence", dtype: Any = None) -> None:
        super().__init__(kl_divergence, name=name, reduction=reduction, dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        return Loss.get_config(self)


class Poisson(LossFunctionWrapper):
    """`poisson` per sample, then reduced."""

    def __init__(self, reduction: Any = "sum_over_batch_size", name: str = "poisson", dtype: Any = None) -> None:
        super().__init__(poisson, name=name, reduction=reduction, dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        return Loss.get_config(self)


class BinaryFocalCrossentropy(LossFunctionWrapper):
    """`binary_focal_crossentropy` with the class's options per sample, then reduced."""

    def __init__(self, apply_class_balancing: bool = False, alpha: float = 0.25, gamma: float = 2.0,
                 from_logits: bool = False, label_smoothing: float = 0.0, axis: int = -1,
                 reduction: Any = "sum_over_batch_size", name: str = "binary_focal_crossentropy",
                 dtype: Any = None) -> None:
        super().__init__(binary_focal_crossentropy, name=name, reduction=reduction, dtype=dtype,
                         apply_class_balancing=apply_class_balancing, alpha=alpha, gamma=gamma,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis
        self.apply_class_balancing = apply_class_balancing
        self.alpha = alpha
        self.gamma = gamma

    def get_config(self) -> dict[str, Any]:
        config_ = Loss.get_config(self)
        config_.update({"from_logits": self.from_logits, "label_smoothing": self.label_smoothing, "axis": self.axis,
                        "apply_class_balancing": self.apply_class_balancing, "alpha": self.alpha,
                        "gamma": self.gamma})
        return config_


class CategoricalFocalCrossentropy(LossFunctionWrapper):
    """`categorical_focal_crossentropy` with the class's options per sample, then reduced."""

    def __init__(self, alpha: float = 0.25, gamma: float = 2.0, from_logits: bool = False,
                 label_smoothing: float = 0.0, axis: int = -1, reduction: Any = "sum_over_batch_size",
                 name: str = "categorical_focal_crossentropy", dtype: Any = None) -> None:
        super().__init__(categorical_focal_crossentropy, name=name, reduction=reduction, dtype=dtype, alpha=alpha,
                         gamma=gamma, from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis
        self.alpha = alpha
        self.gamma = gamma

    def get_config(self) -> dict[str, Any]:
        config_ = Loss.get_config(self)
        config_.update({"from_logits": self.from_logits, "label_smoothing": self.label_smoothing, "axis": self.axis,
                        "alpha": self.alpha, "gamma": self.gamma})
        return config_


def categorical_generalized_cross_entropy(y_true: Any, y_pred: Any, q: float) -> Any:
    """(1 - p**q) / q with p = y_pred at the integer label y_true (Zhang & Sabuncu's generalized
    crossentropy: MAE as q -> 1, crossentropy as q -> 0); y_pred holds probabilities."""
    y_pred = ops.convert_to_tensor(y_pred)
    labels = ops.cast(y_true, "int64")
    one_hot = tf.cast(tf.one_hot(labels, depth=ops.shape(y_pred)[-1], dtype=tf.float32), y_pred.dtype)
    p = tf.reduce_sum(y_pred * one_hot, axis=-1)
    return (1 - ops.power(p, q)) / q


class CategoricalGeneralizedCrossEntropy(LossFunctionWrapper):
    """`categorical_generalized_cross_entropy` with q in (0, 1) per sample, then reduced."""

    def __init__(self, q: float = 0.5, reduction: Any = "sum_over_batch_size",
                 name: str = "categorical_generalized_cross_entropy", dtype: Any = None) -> None:
        if not 0 < q < 1:
            raise ValueError("q must be in the interval (0, 1)")
        super().__init__(categorical_generalized_cross_entropy, name=name, reduction=reduction, dtype=dtype, q=q)
        self.q = q

    def get_config(self) -> dict[str, Any]:
        config_ = Loss.get_config(self)
        config_.update({"q": self.q})
        return config_
