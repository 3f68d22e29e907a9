"""Keras's LoRA (low-rank adaptation) of a layer's main weight, as Dense, EinsumDense and Embedding have it
(keras/src/layers/core/dense.py, einsum_dense.py, embedding.py `enable_lora`, the `kernel`/`embeddings` property,
`save_own_variables`/`load_own_variables`).

`enable_lora(rank)` on a built layer adds two float32 weights, A (the weight's shape with its last axis replaced by
`rank`; he_uniform) and B (`(rank, last axis)`; zeros), and freezes the base weight (`trainable = False`); the layer
then computes with `cast(base + (lora_alpha / lora_rank) * A @ B, compute_dtype)`, so its output is the plain
layer's until B moves. A `.weights.h5`/`.keras` file holds that merged weight under the base weight's index (and
nothing of A or B); loading assigns it to the base weight and zeroes A and B. Dense and Embedding enable LoRA at build
with `enable_lora(lora_rank)`, so a `lora_alpha` given to their constructor is replaced by the rank (Keras 3.15);
EinsumDense passes it on.
"""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras import dtype_promotion, initializers


def enable(layer: Any, rank: int, lora_alpha: Any, a_initializer: Any, b_initializer: Any, *, base: str,
           names: tuple[str, str], constraint: Any, refusal: str, regularizer: Any) -> None:
    """Keras's enable_lora on `layer`: its checks, the A and B weights named `names`, the base weight (attribute
    `base`) frozen. `refusal` is Keras's text for a layer with a constraint on the base weight."""
    if constraint:
        raise ValueError(refusal)
    if not layer.built:
        raise ValueError("Cannot enable lora on a layer that isn't yet built.")
    if layer.lora_enabled:
        raise ValueError("lora is already enabled. This can only be done once per layer.")
    weight = getattr(layer, base)
    shape = tuple(weight.shape.as_list()) if hasattr(weight.shape, "as_list") else tuple(weight.shape)
    layer._tracker.unlock()
    a = layer.add_weight(name=names[0], shape=shape[:-1] + (rank,), initializer=initializers.get(a_initializer),
                         dtype="float32", regularizer=regularizer)
    b = layer.add_weight(name=names[1], shape=(rank, shape[-1]), initializer=initializers.get(b_initializer),
                         dtype="float32", regularizer=regularizer)
    setattr(layer, names[0], a)
    setattr(layer, names[1], b)
    weight.trainable = False
    layer._tracker.lock()
    layer.lora_enabled = True
    layer.lora_rank = rank
    layer.lora_alpha = lora_alpha if lora_alpha is not None else rank


def merged(layer: Any, weight: Any, a: Any, b: Any) -> Any:
    """Keras's `ops.cast(ops.add(weight, (lora_alpha / lora_rank) * ops.matmul(a, b)), compute_dtype)`: the product
    by tensordot over A's last axis when A has more than two axes (Keras's matmul of a rank-2 B), the sum in the two
    operands' result type."""
    a, b = tf.convert_to_tensor(a), tf.convert_to_tensor(b)
    product = tf.matmul(a, b) if len(a.shape) == 2 else tf.tensordot(a, b, axes=[[-1], [0]])
    delta = (layer.lora_alpha / layer.lora_rank) * product
    w = tf.convert_to_tensor(weight)
    result = dtype_promotion.result_type(w.dtype, delta.dtype)
    total = tf.add(dtype_promotion.convert_to(w, result), dtype_promotion.convert_to(delta, result))
    return tf.cast(total, layer.compute_dtype)


def save(store: Any, weights: list[Any]) -> None:
    """Keras's save_own_variables of an unquantized layer: each weight (the merged one first) under its index."""
    for i, w in enumerate(weights):
        store[str(i)] = w


def load(store: Any, variables: list[Any], a: Any, b: Any) -> None:
    """Keras's load_own_variables with LoRA enabled: the variables assigned from the store by index (no count check),
    then A and B zeroed (the file's weight already holds their product)."""
    for i, v in enumerate(variables):
        v.assign(store[str(i)])
    a.assign(tf.zeros(a.shape, a.dtype))
    b.assign(tf.zeros(b.shape, b.dtype))
