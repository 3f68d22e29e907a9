"""Keras 3.15's Circle loss (keras/src/losses/losses.py `circle`, Sun et al. 2020) for metric
learning: pairwise cosine distances between embeddings, positive pairs (same label, the
diagonal removed) and negative pairs weighted and pooled with logsumexp; samples whose loss is 0
are masked out of the reduction (clause keras.loss.functions)."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras.losses import _ops as ops
from simdist.keras.losses.loss import Loss
from simdist.keras.losses.losses import LossFunctionWrapper
from simdist.keras.tensor_attributes import set_keras_mask


def build_pos_neg_masks(query_labels: Any, key_labels: Any, remove_diagonal: bool = True) -> tuple[Any, Any]:
    """Keras's numerical_utils.build_pos_neg_masks: positive = same label (minus the diagonal when
    remove_diagonal), negative = different label."""
    if ops.ndim(query_labels) == 1:
        query_labels = tf.reshape(query_labels, (-1, 1))
    if ops.ndim(key_labels) == 1:
        key_labels = tf.reshape(key_labels, (-1, 1))
    positive_mask = tf.equal(query_labels, tf.transpose(key_labels))
    negative_mask = tf.logical_not(positive_mask)
    if remove_diagonal:
        n, m = int(tf.size(query_labels)), int(tf.size(key_labels))
        positive_mask = tf.logical_and(positive_mask, tf.logical_not(tf.cast(tf.eye(n, m), tf.bool)))
    return positive_mask, negative_mask


def circle(y_true: Any, y_pred: Any, ref_labels: Any = None, ref_embeddings: Any = None, remove_diagonal: bool = True,
           gamma: float = 80, margin: float = 0.4) -> Any:
    """softplus(logsumexp over positives of -gamma·a_p·(m - d) + logsumexp over negatives of
    gamma·a_n·(1 - m - d)), d the cosine distance max(1 - x·r, 0), a_p = max(m + d, 0),
    a_n = max(1 + m - d, 0); one value per query row, masked where it is 0."""
    y_pred = ops.convert_to_tensor(y_pred)
    y_true = ops.cast(y_true, "int32")
    ref_embeddings = y_pred if ref_embeddings is None else ops.convert_to_tensor(ref_embeddings)
    ref_labels = y_true if ref_labels is None else ops.cast(ref_labels, "int32")
    optim_pos, optim_neg = margin, 1 + margin
    delta_pos, delta_neg = margin, 1 - margin
    distances = ops.maximum(1 - tf.matmul(y_pred, tf.transpose(ref_embeddings)), 0.0)
    positive_mask, negative_mask = build_pos_neg_masks(y_true, ref_labels, remove_diagonal=remove_diagonal)
    pos_weights = ops.maximum((optim_pos + distances) * tf.cast(positive_mask, distances.dtype), 0.0)
    neg_weights = ops.maximum((optim_neg - distances) * tf.cast(negative_mask, distances.dtype), 0.0)
    pos_wdists = -1 * gamma * pos_weights * (delta_pos - distances)
    neg_wdists = gamma * neg_weights * (delta_neg - distances)
    minus_inf = tf.constant(float("-inf"), distances.dtype)
    p_loss = tf.reduce_logsumexp(tf.where(positive_mask, pos_wdists, minus_inf), axis=1)
    n_loss = tf.reduce_logsumexp(tf.where(negative_mask, neg_wdists, minus_inf), axis=1)
    circle_loss = tf.math.softplus(p_loss + n_loss)
    set_keras_mask(circle_loss, circle_loss > 0)
    return circle_loss


class Circle(LossFunctionWrapper):
    """`circle` with gamma, margin, remove_diagonal per sample, then reduced over the unmasked ones."""

    def __init__(self, gamma: float = 80.0, margin: float = 0.4, remove_diagonal: bool = True,
                 reduction: Any = "sum_over_batch_size", name: str = "circle", dtype: Any = None) -> None:
        super().__init__(circle, name=name, reduction=reduction, dtype=dtype, gamma=gamma, margin=margin,
                         remove_diagonal=remove_diagonal)
        self.gamma = gamma
        self.margin = margin
        self.remove_diagonal = remove_diagonal

    def get_config(self) -> dict[str, Any]:
        config_ = Loss.get_config(self)
        config_.update({"gamma": self.gamma, "margin": self.margin, "remove_diagonal": self.remove_diagonal})
        return config_
