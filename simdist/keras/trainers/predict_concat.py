"""Keras 3.15's `potentially_ragged_concat` (keras/src/backend/tensorflow/trainer.py): how `Model.predict` joins
the outputs of its batches, transcribed with simdist's tf ops so that their values and errors are TF's (clause
keras.predict.order)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist import tf


def _is_scalar(x: Any) -> bool:
    return isinstance(x, (tf.Tensor, tf.Variable)) and x.shape.rank == 0


def potentially_ragged_concat(tensors: list[Any]) -> Any:
    """The batches' outputs along the first axis: one output as it is (a scalar stays a scalar); outputs whose
    non-batch shapes agree stacked when the first is a scalar, else concatenated (tf.concat: a later scalar is
    its InvalidArgumentError); outputs of differing non-batch shapes as one RaggedTensor."""
    if len(tensors) == 1:
        return tensors[0]
    if isinstance(tensors[0], tf.SparseTensor):
        return tf.sparse.concat(axis=0, sp_inputs=tensors)
    if isinstance(tensors[0], tf.RaggedTensor):
        return tf.concat(tensors, axis=0)
    non_batch_shapes = tf.stack([tf.shape(tensor)[1:] for tensor in tensors])
    constant_dims = tf.math.reduce_all(non_batch_shapes == non_batch_shapes[:1], axis=0)
    if bool(np.asarray(tf.math.reduce_all(constant_dims))):
        if _is_scalar(tensors[0]):
            return tf.stack(tensors, axis=0)
        return tf.concat(tensors, axis=0)
    constant_inner_dimensions = np.asarray(constant_dims).tolist()[::-1].index(False)
    inner_shape = None if constant_inner_dimensions == 0 else tensors[0].shape[-constant_inner_dimensions:]
    return tf.ragged.constant([np.asarray(t) for t in tensors], inner_shape=inner_shape).merge_dims(0, 1)


def convert_to_np_if_not_ragged(x: Any) -> Any:
    """Keras's predict result: a tensor as a NumPy array; a ragged or sparse tensor (or anything else) as it is."""
    if isinstance(x, (tf.RaggedTensor, tf.SparseTensor)):
        return x
    if isinstance(x, tf.Tensor):
        return x.numpy()
    return x
