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


def load(layer: Any, store: Any, variables: list[Any], names: tuple[str, str]) -> None:
    """Keras's load_own_variables of a layer with a LoRA surface: without LoRA, the layer's count check first
    (Keras's _check_load_own_variables: ValueError), nothing more for a layer not built; then the variables assigned
    from the store by index and, with LoRA, A and B (attributes `names`) zeroed (the file's weight already holds
    their product). Clause keras.model.weights-order."""
    if not layer.lora_enabled:
        layer._check_load_own_variables(store)
    if not layer.built:
        return
    for i, v in enumerate(variables):
        v.assign(store[str(i)])
    if layer.lora_enabled:
        for name in names:
            w = getattr(layer, name)
            w.assign(tf.zeros(w.shape, w.dtype))


class KernelLoRA:
    """The LoRA surface of a layer whose main weight is `_kernel` (Dense, EinsumDense, the convolutions): its `kernel`
    property, `enable_lora` (lora_kernel_a, lora_kernel_b) and, with LoRA enabled, Keras's save/load of the merged
    kernel and the bias. The layer sets `lora_rank`, `lora_alpha` and `lora_enabled` in its constructor."""

    @property
    def kernel(self) -> Any:
        """The kernel variable, or with LoRA the merged kernel."""
        if not self.built:
            raise AttributeError("You must build the layer before accessing `kernel`.")
        if self.lora_enabled:
            return merged(self, self._kernel, self.lora_kernel_a, self.lora_kernel_b)
        return self._kernel

    def enable_lora(self, rank: int, lora_alpha: Any = None, a_initializer: Any = "he_uniform",
                    b_initializer: Any = "zeros") -> None:
        """Keras's enable_lora: trainable lora_kernel_a (the kernel's shape but its last axis, rank) and lora_kernel_b
        (rank, the kernel's last axis), the kernel frozen."""
        enable(self, rank, lora_alpha, a_initializer, b_initializer, base="_kernel",
               names=("lora_kernel_a", "lora_kernel_b"), constraint=self.kernel_constraint,
               refusal="Lora is incompatible with kernel constraints. In order to enable lora on this layer, remove "
                       "the `kernel_constraint` argument.", regularizer=self.kernel_regularizer)

    @property
    def _saves_own_variables(self) -> bool:
        """With LoRA the layer writes its variables itself (the merged kernel, the bias)."""
        return self.lora_enabled

    def save_own_variables(self, store: Any) -> None:
        save(store, [self.kernel] + ([] if self.bias is None else [self.bias]))

    def load_own_variables(self, store: Any) -> None:
        if not self.built:   # (Keras: the count check, then nothing for a layer not built)
            load(self, store, [], ("lora_kernel_a", "lora_kernel_b"))
            return
        load(self, store, [self._kernel] + ([] if self.bias is None else [self.bias]), ("lora_kernel_a", "lora_kernel_b"))
