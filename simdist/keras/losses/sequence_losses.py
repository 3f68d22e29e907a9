"""Keras 3.15's CTC loss (keras/src/losses/losses.py `ctc`, keras/src/backend/tensorflow/nn.py
`ctc_loss`): batch-major logits, blank index 0, label lengths counted as the nonzero labels,
every sequence as long as the batch's time axis (clause keras.loss.functions)."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras import dtype_promotion
from simdist.keras.losses import _ops as ops
from simdist.keras.losses.loss import Loss
from simdist.keras.losses.losses import LossFunctionWrapper


def ctc(y_true: Any, y_pred: Any) -> Any:
    """tf.nn.ctc_loss of integer targets (batch, max_length; 0 pads) and logits (batch, time,
    classes), one value per sample; float64 logits are computed in float32 and cast back."""
    if len(ops.shape(y_true)) != 2:
        raise ValueError("Targets `y_true` are expected to be a tensor of shape `(batch_size, max_length)` in "
                         f"integer format. Received: y_true.shape={ops.shape(y_true)}")
    if len(ops.shape(y_pred)) != 3:
        raise ValueError("Logits `y_pred` are expected to be a tensor of shape `(batch_size, max_length, "
                         f"num_classes)`. Received: y_pred.shape={ops.shape(y_pred)}")
    output = ops.convert_to_tensor(y_pred)
    target = tf.cast(ops.convert_to_tensor(y_true), tf.int32)
    batch, steps = ops.shape(output)[0], ops.shape(output)[1]
    logit_length = steps * tf.ones((batch,), dtype=tf.int32)
    label_length = tf.cast(ops.sum(tf.not_equal(target, 0), axis=-1), tf.int32)
    result_dtype = dtype_promotion.result_type(output.dtype.name, "float32")
    compute_dtype = "float32" if result_dtype == "float64" else result_dtype
    loss = tf.nn.ctc_loss(labels=target, logits=tf.cast(output, compute_dtype), label_length=label_length,
                          logit_length=logit_length, blank_index=0, logits_time_major=False)
    return tf.cast(loss, result_dtype)


class CTC(LossFunctionWrapper):
    """`ctc` per sample, then reduced."""

    def __init__(self, reduction: Any = "sum_over_batch_size", name: str = "ctc", dtype: Any = None) -> None:
        super().__init__(ctc, name=name, reduction=reduction, dtype=dtype)

    def get_config(self) -> dict[str, Any]:
        return Loss.get_config(self)
