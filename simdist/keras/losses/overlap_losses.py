"""Keras 3.15's overlap losses for segmentation (keras/src/losses/losses.py): dice and tversky,
and their Loss classes. With axis=None (the default) they sum over every entry of the batch and
give one scalar; an axis (e.g. (1, 2)) keeps one value per sample (clause keras.loss.functions)."""

from __future__ import annotations

from typing import Any

from simdist.keras import config
from simdist.keras.losses import _ops as ops
from simdist.keras.losses.loss import Loss
from simdist.keras.losses.losses import LossFunctionWrapper


def dice(y_true: Any, y_pred: Any, axis: Any = None) -> Any:
    """1 - 2·sum(y_true·y_pred) / (sum(y_true) + sum(y_pred) + epsilon), the sums over `axis`."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, y_pred.dtype)
    intersection = ops.sum(y_true * y_pred, axis=axis)
    # (Keras's order: `2.0 * intersection` before the denominator, so an int32 loss dtype is that product's
    # TypeError before the epsilon's AddV2 refusal; asweep65, fix65k)
    numerator = 2.0 * intersection
    denominator = ops.sum(y_true, axis=axis) + ops.sum(y_pred, axis=axis) + config.epsilon()
    return 1 - ops.divide(numerator, denominator)


def tversky(y_true: Any, y_pred: Any, alpha: float = 0.5, beta: float = 0.5, axis: Any = None) -> Any:
    """1 - TP / (TP + alpha·FP + beta·FN + epsilon) with TP = sum(y_true·y_pred),
    FP = sum((1 - y_pred)·y_true), FN = sum(y_pred·(1 - y_true)) over `axis` (Keras 3.15 names the
    terms so; alpha weighs the missed positives)."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, y_pred.dtype)
    intersection = ops.sum(y_true * y_pred, axis=axis)
    fp = ops.sum((1 - y_pred) * y_true, axis=axis)
    fn = ops.sum(y_pred * (1 - y_true), axis=axis)
    return 1 - ops.divide(intersection, intersection + fp * alpha + fn * beta + config.epsilon())


class Dice(LossFunctionWrapper):
    """`dice` over `axis`, then reduced."""

    def __init__(self, reduction: Any = "sum_over_batch_size", name: str = "dice", axis: Any = None,
                 dtype: Any = None) -> None:
        super().__init__(dice, name=name, reduction=reduction, dtype=dtype, axis=axis)
        self.axis = axis

    def get_config(self) -> dict[str, Any]:
        config_ = Loss.get_config(self)
        config_.update({"axis": self.axis})
        return config_


class Tversky(LossFunctionWrapper):
    """`tversky` with alpha, beta over `axis`, then reduced."""

    def __init__(self, alpha: float = 0.5, beta: float = 0.5, reduction: Any = "sum_over_batch_size",
                 name: str = "tversky", axis: Any = None, dtype: Any = None) -> None:
        super().__init__(tversky, name=name, reduction=reduction, dtype=dtype, alpha=alpha, beta=beta, axis=axis)
        self.alpha = alpha
        self.beta = beta
        self.axis = axis

    def get_config(self) -> dict[str, Any]:
        config_ = Loss.get_config(self)
        config_.update({"alpha": self.alpha, "beta": self.beta, "axis": self.axis})
        return config_

