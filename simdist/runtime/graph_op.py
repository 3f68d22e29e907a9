"""The Operation a graph-building call without outputs returns inside a tf.function (TF's Assert,
NoOp and the check_ops assertions built on them; eagerly they return None): a value a program can
put in tf.control_dependencies or tf.group, but not convert to a tensor ("can't convert Operation
'<name>' to Tensor", TypeError) nor return from the function (func_graph's TypeError "found return
value of type Operation"). Clause function.operation-results."""

from __future__ import annotations

from typing import Any


class GraphOperation:
    """A stand-in for a tf.Operation of type `type` named `name` in the graph being traced."""

    def __init__(self, name: str, type: str, inputs: tuple = ()) -> None:  # noqa: A002 - TF's attribute name
        self.name = name
        self.type = type
        self.inputs = list(inputs)   # (the tensors it read, in order: TF's Operation.inputs)

    def _as_tensor(self) -> Any:
        """ops.Operation.__tf_tensor__: an operation has no tensor value."""
        raise TypeError(f"can't convert Operation '{self.name}' to Tensor")

    def __repr__(self) -> str:
        return f"<tf.Operation '{self.name}' type={self.type}>"


def op_result(name: str, type: str) -> GraphOperation | None:  # noqa: A002
    """What an output-less op call returns: None executing eagerly, a GraphOperation in a tf.function."""
    from simdist.runtime import context
    return GraphOperation(name, type) if context.in_function() else None
