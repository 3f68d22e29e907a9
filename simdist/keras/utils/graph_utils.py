"""`keras.utils.get_source_inputs` (keras/src/ops/operation_utils.py) and `is_keras_tensor`
(keras_tensor.py's): questions about the functional graph's tensors."""

from __future__ import annotations

from typing import Any

from simdist.keras.keras_tensor import flatten, is_keras_tensor

__all__ = ["get_source_inputs", "is_keras_tensor"]


def get_source_inputs(tensor: Any) -> Any:
    """The Input tensors `tensor` was computed from, each once, in the order first reached (a
    tensor without history is returned as it is)."""
    if not hasattr(tensor, "_keras_history"):
        return tensor
    operation, node_index, _ = tensor._keras_history
    if not operation or not operation._inbound_nodes:
        return [tensor]
    node = operation._inbound_nodes[node_index]
    if node.is_input:
        return flatten(node.output_tensors)
    sources: list[Any] = []
    for x in node.input_tensors:
        for s in get_source_inputs(x):
            if all(s is not t for t in sources):
                sources.append(s)
    return sources
