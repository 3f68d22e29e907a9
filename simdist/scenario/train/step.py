"""The training step of a scenario's custom loop, the same under every strategy (TF's custom
training loop tutorial): inside ``strategy.run``, a GradientTape around the model's forward pass
and the sparse softmax cross entropy of its logits, averaged over the global batch with
``tf.nn.compute_average_loss``; the gradients of the trainable variables applied by a
``tf.keras.optimizers`` optimizer (under mixed_float16 a LossScaleOptimizer: the loss is scaled
inside the tape, as Keras's mixed-precision guide writes a custom loop); and the count of
correct predictions of the batch.

Evaluation reads the model's current variables on the chief (held-out split, in batches); it is
what a sidecar evaluator sees and is not charged to the simulated cluster.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["make_optimizer", "train_variables", "replica_step", "evaluate", "all_variables", "tf_variable"]

EVAL_BATCH = 512


def make_optimizer(tf: Any, training: dict, precision: str = "float32") -> Any:
    """The [training] optimizer; under mixed_float16 wrapped in a LossScaleOptimizer (what Keras's
    compile does, and what its mixed-precision guide does in a custom loop)."""
    lr = float(training["learning_rate"])
    if training["optimizer"] == "adam":
        opt = tf.keras.optimizers.Adam(learning_rate=lr)
    else:
        opt = tf.keras.optimizers.SGD(learning_rate=lr)
    if precision == "mixed_float16":
        opt = tf.keras.mixed_precision.LossScaleOptimizer(opt)
    return opt


def tf_variable(v: Any) -> Any:
    """The tf.Variable (or ShardedVariable) behind a Keras variable; a tf.Variable itself."""
    inner = getattr(v, "value", None)
    return v if inner is None or callable(inner) else inner


def _flat(v: Any) -> list[Any]:
    """The variables to differentiate for a model variable: a ShardedVariable's shards (each gets
    its own gradient and optimizer slots, as TF's partitioned variables do), else itself."""
    base = tf_variable(v)
    if type(base).__name__ == "ShardedVariable":
        return list(base.variables)
    return [v]


def train_variables(model: Any) -> list[Any]:
    """What the tape differentiates and the optimizer updates."""
    return [s for v in model.trainable_variables for s in _flat(v)]


def all_variables(model: Any, optimizer: Any) -> list[Any]:
    """Every tf.Variable a checkpoint holds: the model's (shards) and the optimizer's (its slots
    and iteration count), in a fixed order."""
    out = [tf_variable(s) for v in model.variables for s in _flat(v)]
    return out + [tf_variable(v) for v in optimizer.variables]


def replica_step(tf: Any, model: Any, optimizer: Any, variables: list[Any], inputs: Any, labels: Any,
                 global_batch: int) -> tuple[Any, Any]:
    """One replica's step: (its share of the mean loss, its number of correct predictions)."""
    with tf.GradientTape() as tape:
        logits = model(inputs, training=True)
        per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=global_batch)
        scaled = optimizer.scale_loss(loss) if hasattr(optimizer, "dynamic_scale") else loss
    grads = tape.gradient(scaled, variables)
    optimizer.apply_gradients(zip(grads, variables))
    predicted = tf.cast(tf.argmax(logits, axis=1), labels.dtype)
    correct = tf.reduce_sum(tf.cast(tf.equal(predicted, labels), tf.float32))
    return loss, correct


def evaluate(tf: Any, model: Any, inputs: Any, labels: np.ndarray) -> tuple[float, float]:
    """(mean loss, accuracy) of the model on a split, from its current variables."""
    n = len(labels)
    loss_sum = 0.0
    correct = 0
    for a in range(0, n, EVAL_BATCH):
        b = min(n, a + EVAL_BATCH)
        part = tuple(x[a:b] for x in inputs) if isinstance(inputs, tuple) else inputs[a:b]
        logits = model(part, training=False)
        lab = labels[a:b]
        per = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant(lab), logits=logits)
        loss_sum += float(np.sum(np.asarray(per.numpy(), dtype=np.float64)))
        correct += int(np.sum(np.argmax(np.asarray(logits.numpy()), axis=1) == lab))
    return loss_sum / n, correct / n
