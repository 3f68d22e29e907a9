"""`keras.losses.Loss` and Keras 3.15's reduction of per-sample losses (keras/src/losses/loss.py).

A loss call converts y_true and y_pred to the loss's dtype, computes per-sample values with
`call`, folds a Keras mask into the sample weights, weights the values, and reduces them:
"sum" adds them up; "sum_over_batch_size" and "mean" divide the sum by the number of values
(every element, weighted or not) and then, on the TensorFlow backend, by the current strategy's
`num_replicas_in_sync` (clause keras.loss.distribution-scaling); "mean_with_sample_weight"
divides by the sum of the weights; "none"/None keep the values. A scalar or an empty (0,)
result is returned as it is, unreduced and unscaled.
"""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras import config, dtype_policies, traced
from simdist.keras.losses import _ops as ops
from simdist.keras.naming import auto_name, name_scope
from simdist.keras.tensor_attributes import get_keras_mask
from simdist.keras.keras_saveable import KerasSaveable

REDUCTIONS = ("sum_over_batch_size", "sum", None, "none", "mean", "mean_with_sample_weight")


def _allowed_text() -> str:
    return "{" + ", ".join(repr(r) for r in REDUCTIONS) + "}"


def standardize_reduction(reduction: Any) -> Any:
    """`reduction` if Keras accepts it, else ValueError naming the allowed values."""
    if reduction not in REDUCTIONS:
        raise ValueError(f"Invalid value for argument `reduction`. Expected one of {_allowed_text()}. "
                         f"Received: reduction={reduction}")
    return reduction


class Loss(KerasSaveable):
    """Base class of Keras losses: subclasses implement `call(y_true, y_pred)` returning
    per-sample values; `__call__` weights and reduces them."""

    def __init__(self, name: str | None = None, reduction: Any = "sum_over_batch_size", dtype: Any = None) -> None:
        self.name = name or auto_name(type(self).__name__)
        self.reduction = standardize_reduction(reduction)
        self._dtype_policy = dtype_policies.get(dtype or config.floatx())
        self._dtype = self._dtype_policy.compute_dtype

    @property
    def dtype(self) -> str:
        return self._dtype

    def __call__(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        in_mask = get_keras_mask(y_pred)
        # (inside Keras's name scope of the loss's name, as Keras 3's Loss.__call__: in a tf.function its ops are
        # `binary_crossentropy/mul` ..., names Grappler sorts a commutative op's inputs by: an argument `a_true` sorts
        # before `binary_crossentropy/Log`, so of two NaNs the label's comes out; clause ops.packet-paths)
        with name_scope(self.name):
            # (a Python list is one array here; Keras 3 maps over lists as structures: clause
            # keras.loss.shapes)
            y_pred = ops.convert_to_tensor(y_pred, dtype=self.dtype)
            y_true = ops.convert_to_tensor(y_true, dtype=self.dtype)
            losses = self.call(y_true, y_pred)
            out_mask = get_keras_mask(losses)
            if in_mask is not None and out_mask is not None:
                mask = tf.logical_and(tf.cast(in_mask, tf.bool), tf.cast(out_mask, tf.bool))
            else:
                mask = in_mask if in_mask is not None else out_mask
            return reduce_weighted_values(losses, sample_weight=sample_weight, mask=mask, reduction=self.reduction,
                                          dtype=self.dtype)

    def call(self, y_true: Any, y_pred: Any) -> Any:
        raise NotImplementedError

    def get_config(self) -> dict[str, Any]:
        return {"name": self.name, "reduction": self.reduction}

    @classmethod
    def from_config(cls, config_: dict[str, Any]) -> "Loss":
        return cls(**config_)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name}>"


def _static_last_dim(x: Any) -> Any:
    """x's last dimension as Keras reads it, statically: a vector's only dimension is the batch's,
    unknown (None) inside a traced step over batches without a static size (traced.batch_dim_unknown;
    kfuzz41: Dice's scalar loss against sample weights of a replica batch of 1)."""
    if len(x.shape) == 1 and traced.batch_dim_unknown():
        return None
    return x.shape[-1]


def squeeze_or_expand_to_same_rank(x1: Any, x2: Any, expand_rank_1: bool = True) -> tuple[Any, Any]:
    """Squeeze (or, for a rank-1 other side, expand) a trailing dim of 1 when ranks differ by one
    (Keras compares static shapes: `_static_last_dim`)."""
    r1, r2 = len(x1.shape), len(x2.shape)
    if r1 == r2:
        return x1, x2
    if r1 == r2 + 1 and _static_last_dim(x1) == 1:
        if r2 == 1 and expand_rank_1:
            x2 = ops.expand_dims(x2, -1)
        else:
            x1 = ops.squeeze(x1, -1)
    if r2 == r1 + 1 and _static_last_dim(x2) == 1:
        if r1 == 1 and expand_rank_1:
            x1 = ops.expand_dims(x1, -1)
        else:
            x2 = ops.squeeze(x2, -1)
    return x1, x2


def reduce_values(values: Any, sample_weight: Any = None, reduction: Any = "sum_over_batch_size") -> Any:
    """Reduce weighted per-sample values by `reduction` (see the module docstring)."""
    dims = tuple(values.shape.as_list())
    # (An empty batch's static shape is (0,) only eagerly; in fit's traced step it is unknown.)
    if reduction is None or reduction == "none" or dims == () or (dims == (0,) and not traced.batch_dim_unknown()):
        return values
    loss = ops.sum(values)
    if reduction in ("sum_over_batch_size", "mean", "mean_with_sample_weight"):
        if reduction == "mean_with_sample_weight" and sample_weight is not None:
            divisor = ops.cast(ops.sum(sample_weight), loss.dtype)
        else:
            divisor = ops.prod_of_shape(values, loss.dtype)
        loss = ops.divide_no_nan(loss, divisor)
        loss = scale_loss_for_distribution(loss)
    return loss


def reduce_weighted_values(values: Any, sample_weight: Any = None, mask: Any = None,
                           reduction: Any = "sum_over_batch_size", dtype: Any = None) -> Any:
    """Fold the mask into the weights, weight the values (ranks matched), then reduce."""
    reduction = standardize_reduction(reduction)
    values = ops.convert_to_tensor(values, dtype=dtype)
    if sample_weight is not None:
        sample_weight = ops.convert_to_tensor(sample_weight, dtype=dtype)
    if mask is not None:
        mask = ops.convert_to_tensor(mask, dtype=dtype)
    sample_weight = apply_mask(sample_weight, mask, dtype=values.dtype, reduction=reduction)
    if sample_weight is not None:
        sample_weight = ops.cast(sample_weight, values.dtype)
        values, sample_weight = squeeze_or_expand_to_same_rank(values, sample_weight)
        values = values * sample_weight
    return reduce_values(values, sample_weight, reduction)


def apply_mask(sample_weight: Any, mask: Any, dtype: Any, reduction: Any) -> Any:
    """Merge a Keras mask into the sample weights. For the mean reductions a valid entry weighs
    total/valid, so the mean over the batch is the mean over the valid entries."""
    if mask is None:
        return sample_weight
    if reduction in ("mean", "sum_over_batch_size"):
        total = ops.prod_of_shape(mask, dtype)
        valid = ops.sum(ops.cast(mask, dtype))
        mask_weight = ops.divide_no_nan(total, valid)
        float_mask = tf.where(ops.cast(mask, tf.bool), mask_weight, tf.zeros_like(mask_weight))
    else:
        float_mask = ops.cast(mask, dtype)
    if sample_weight is not None:
        sample_weight = ops.cast(sample_weight, dtype)
        float_mask, sample_weight = squeeze_or_expand_to_same_rank(float_mask, sample_weight)
        sample_weight = sample_weight * float_mask
    else:
        sample_weight = float_mask
    return sample_weight


def scale_loss_for_distribution(value: Any) -> Any:
    """value / num_replicas_in_sync of the current strategy (replica context or scope), as
    Keras's TF backend does, so that summing the replicas' losses gives the global mean."""
    n = tf.distribute.get_strategy().num_replicas_in_sync
    if n > 1:
        value = value * ops.cast(1.0 / n, value.dtype)
    return value


def unscale_loss_for_distribution(value: Any) -> Any:
    """value * num_replicas_in_sync (the inverse of scale_loss_for_distribution)."""
    n = tf.distribute.get_strategy().num_replicas_in_sync
    if n > 1:
        value = value * ops.cast(n, value.dtype)
    return value
