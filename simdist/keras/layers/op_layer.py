"""Operations on KerasTensors outside layers (`x + y`, `x[:, 0]`, a float input cast to a layer's
dtype): each is an `Operation` node in the functional graph, as Keras's `keras.ops` are; it is
not a layer (a model's `layers` do not list it) and has no weights."""

from __future__ import annotations

from typing import Any, Callable

from simdist.keras.keras_tensor import Node, any_symbolic_tensors, compute_output_spec
from simdist.keras.naming import auto_name

__all__ = ["Operation", "symbolic_op"]


class Operation:
    """A stateless operation: `fn` applied to tensors, or recorded as a node on KerasTensors."""

    def __init__(self, fn: Callable[..., Any], name: str) -> None:
        self.fn = fn
        self.name = auto_name(name)
        self._inbound_nodes: list[Node] = []
        self._outbound_nodes: list[Node] = []
        self._layers: list[Any] = []
        self._build_shapes_dict = None
        self._call_context_args: set = set()

    def compute_output_spec(self, *args: Any, **kwargs: Any) -> Any:
        return compute_output_spec(self.fn, *args, **kwargs)

    def record(self, args: tuple, outputs: Any, kwargs: dict | None = None) -> Any:
        """Record a node of this operation on symbolic `args` (and keyword tensors `kwargs`) whose output
        spec is `outputs`."""
        Node(self, call_args=args, call_kwargs=kwargs or {}, outputs=outputs)
        return outputs

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if any_symbolic_tensors(args, kwargs):
            outputs = compute_output_spec(self.fn, *args, **kwargs)
            Node(self, call_args=args, call_kwargs=kwargs, outputs=outputs)
            return outputs
        return self.fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<Operation name={self.name}>"


def symbolic_op(name: str, fn: Callable[..., Any], *args: Any) -> Any:
    """Record `fn(*args)` on KerasTensor arguments as a new operation node."""
    return Operation(fn, name)(*args)
