"""The crossentropies of Keras 3.15's TensorFlow backend (keras/src/backend/tensorflow/nn.py),
on `simdist.tf`: shape checks with Keras's messages, the logits shortcut, and probabilities
clipped to [epsilon, 1 - epsilon] before the log.

Logits shortcut: when `output` carries `_keras_logits` (Keras's softmax/sigmoid activations set
it), the loss is computed from those logits with the fused TF op, whatever `from_logits` says
(with a warning if from_logits=True). TF also takes the shortcut for a graph tensor made by a raw
`tf.nn.softmax`/`tf.sigmoid` op (inside a tf.function, e.g. Keras's compiled train step);
simdist runs functions eagerly and has no producing op to look at (clause keras.loss.logits-shortcut).
"""

from __future__ import annotations

import warnings
from typing import Any

from simdist import tf
from simdist.keras import config
from simdist.keras.tensor_attributes import get_keras_logits


def _get_logits(output: Any, from_logits: bool, op_type: str, fn_name: str) -> tuple[Any, bool]:
    logits = get_keras_logits(output)
    if logits is None:
        return output, from_logits
    if from_logits:
        warnings.warn(f'"`{fn_name}` received `from_logits=True`, but the `output` argument was produced by a '
                      f"{op_type} activation and thus does not represent logits. Was this intended?", stacklevel=3)
    return logits, True


def _same_shape(target: Any, output: Any) -> None:
    if len(target.shape) != len(output.shape):
        raise ValueError("Arguments `target` and `output` must have the same rank (ndim). Received: "
                         f"target.shape={target.shape}, output.shape={output.shape}")
    for e1, e2 in zip(target.shape, output.shape):
        if e1 is not None and e2 is not None and e1 != e2:
            raise ValueError("Arguments `target` and `output` must have the same shape. Received: "
                             f"target.shape={target.shape}, output.shape={output.shape}")


def categorical_crossentropy(target: Any, output: Any, from_logits: bool = False, axis: int = -1) -> Any:
    """-sum(target * log(p)) over `axis`; p = output normalised to sum 1 and clipped, or the
    fused softmax_cross_entropy_with_logits when the output is logits."""
    target = tf.convert_to_tensor(target)
    output_t = tf.convert_to_tensor(output)
    if len(target.shape) < 1:
        raise ValueError("Arguments `target` and `output` must be at least rank 1. Received: "
                         f"target.shape={target.shape}, output.shape={output_t.shape}")
    _same_shape(target, output_t)
    output, from_logits = _get_logits(output, from_logits, "Softmax", "categorical_crossentropy")
    output = tf.convert_to_tensor(output)
    if from_logits:
        return tf.nn.softmax_cross_entropy_with_logits(labels=target, logits=output, axis=axis)
    output = output / tf.reduce_sum(output, axis, keepdims=True)
    eps = config.epsilon()
    output = tf.clip_by_value(output, eps, 1.0 - eps)
    return -tf.reduce_sum(target * tf.math.log(output), axis)


def sparse_categorical_crossentropy(target: Any, output: Any, from_logits: bool = False, axis: int = -1) -> Any:
    """Integer targets (cast to int64): sparse_softmax_cross_entropy_with_logits of the logits,
    or of log(clip(output, eps, 1 - eps)) for probabilities."""
    output_t = tf.convert_to_tensor(output)
    if axis != -1 and axis != len(output_t.shape) - 1:
        raise ValueError(f"Only axis=-1 is currently supported. Received: axis={axis}")
    output, from_logits = _get_logits(output, from_logits, "Softmax", "sparse_categorical_crossentropy")
    target = tf.cast(tf.convert_to_tensor(target), tf.int64)
    output = tf.convert_to_tensor(output)
    if len(target.shape) == len(output.shape) and target.shape[-1] == 1:
        target = tf.squeeze(target, axis=-1)
    if len(output.shape) < 1:
        raise ValueError(f"Argument `output` must be at least rank 1. Received: output.shape={output.shape}")
    if len(target.shape) != len(output.shape[:-1]):
        raise ValueError("Argument `output` must have rank (ndim) `target.ndim - 1`. Received: "
                         f"target.shape={target.shape}, output.shape={output.shape}")
    for e1, e2 in zip(target.shape, output.shape[:-1]):
        if e1 is not None and e2 is not None and e1 != e2:
            raise ValueError("Arguments `target` and `output` must have the same shape up until the last "
                             f"dimension: target.shape={target.shape}, output.shape={output.shape}")
    if not from_logits:
        eps = config.epsilon()
        output = tf.math.log(tf.clip_by_value(output, eps, 1 - eps))
    return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)


def binary_crossentropy(target: Any, output: Any, from_logits: bool = False) -> Any:
    """Elementwise: sigmoid_cross_entropy_with_logits for logits, else
    -(t log p + (1 - t) log(1 - p)) with p clipped to [eps, 1 - eps]."""
    target = tf.convert_to_tensor(target)
    output_t = tf.convert_to_tensor(output)
    _same_shape(target, output_t)
    output, from_logits = _get_logits(output, from_logits, "Sigmoid", "binary_crossentropy")
    output = tf.convert_to_tensor(output)
    if from_logits:
        return tf.nn.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    eps = config.epsilon()
    output = tf.clip_by_value(output, eps, 1.0 - eps)
    bce = target * tf.math.log(output)
    bce += (1 - target) * tf.math.log(1 - output)
    return -bce
