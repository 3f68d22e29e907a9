"""How an op's `tf.raw_ops` call maps onto its OpDef (clause ops.raw-ops).

TF's raw op `tf.raw_ops.X` takes the OpDef's inputs and attrs by name. simdist's op X runs as
`forward(*tensors, **attrs)`; by default its tensors are the OpDef's inputs in order and its attrs
the OpDef's non-type attrs under their own names (runtime/ops/raw_ops.py). An op whose forward
takes them otherwise declares it on itself: `OP.raw_args = RawArgs(...)` beside its registration.
This module is only the declaration (no imports beyond typing), so op modules can use it freely.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

__all__ = ["RawArgs", "NO_EFFECT"]

# OpDef attrs that only steer TF's choice of a GPU kernel (or a gradient's sparsity hint): the CPU
# result does not depend on them, so a raw call accepts and checks them, and the op ignores them.
NO_EFFECT = frozenset({"use_cudnn_on_gpu", "grad_a", "grad_b", "grad_x", "grad_y", "data_format_unused"})


class RawArgs:
    """An op's raw-call mapping.

    inputs: the OpDef input names whose tensors the forward takes positionally, in its order
      (None: every input, in the OpDef's order);
    attrs: the forward's attr name -> the OpDef argument it comes from (an attr's or an input's
      name: an input named here is read as a Python value, as the public function reads it), or a
      function fn(args) -> value of `args`, every OpDef argument by name (inputs as Tensors);
      None: the default (the non-type attrs by their own names);
    check: fn(args) -> None, raising TF's error for arguments the op's own rules do not see;
    via: fn(**args) -> the raw op's result, for an op whose raw form is a function of its module
      that checks its arguments itself (it calls dispatch.execute with the op); None: the raw call
      executes the op with `inputs` and `attrs`."""

    __slots__ = ("inputs", "attrs", "check", "via")

    def __init__(self, inputs: tuple[str, ...] | None = None,
                 attrs: Mapping[str, str | Callable[[dict[str, Any]], Any]] | None = None,
                 check: Callable[[dict[str, Any]], None] | None = None,
                 via: Callable[..., Any] | None = None) -> None:
        self.inputs = inputs
        self.attrs = dict(attrs) if attrs is not None else None
        self.check = check
        self.via = via

    def __repr__(self) -> str:
        return f"RawArgs(inputs={self.inputs!r}, attrs={sorted(self.attrs) if self.attrs is not None else None})"
