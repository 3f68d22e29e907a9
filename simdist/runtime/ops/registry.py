"""The op registry: one OpDef per TensorFlow op type simdist computes.

An OpDef holds what TF keeps in its op registry and gradient registry for one op type: the
forward computation (pure NumPy on arrays), the rule that gives the output dtype (and rejects
bad input dtypes), the FLOP formula the cost model charges, and the gradient function (or an
explicit "not differentiable"). Every op runs through `dispatch.execute`, the only place that
makes a Tensor from an op; the tape and the graph recorder are observers of that one place.

Gradient functions are registered as TF registers them (`@RegisterGradient("MatMul")`), next to
the op they differentiate, and written with the public ops, so the backward pass is itself made
of dispatched ops: it is counted by the FLOP tally, recorded by an outer tape (higher-order
gradients) and by the graph recorder (a scheduled train step replays its backward pass too).
"""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["OpDef", "OpCall", "register", "get", "RegisterGradient", "NotDifferentiable", "gradient_function",
           "NO_GRADIENT", "registered_ops"]


class _NoGradient:
    """The gradient of an op registered as not differentiable: None for every input."""

    def __repr__(self) -> str:
        return "NO_GRADIENT"


NO_GRADIENT: Any = _NoGradient()


class OpDef:
    """One op type.

    forward(*arrays, **attrs) -> array (or a tuple of arrays when `num_outputs != 1`);
    dtype(in_dtypes, attrs) -> the output DType (or a tuple); it raises TF's error for bad inputs;
    flops(arrays, out, attrs) -> FLOPs charged (None: one per output element; the old default);
    grad: the gradient function, NO_GRADIENT, or None (not registered yet: LookupError at backprop);
    stateful: the op has effects beyond its output (random draws): never folded, merged or dropped
      by the graph recorder's optimisations;
    none_grad_ok: indices of outputs whose missing upstream gradient is passed as None (not zeros),
      as TF's backprop does for a few ops (the second output of the cross-entropy ops).
    """

    __slots__ = ("name", "forward", "dtype", "flops", "grad", "num_outputs", "stateful", "none_grad_ok")

    def __init__(self, name: str, forward: Callable[..., Any], dtype: Callable[..., Any],
                 flops: Callable[..., float] | None = None, num_outputs: int = 1, stateful: bool = False,
                 none_grad_ok: tuple[int, ...] = ()) -> None:
        self.name = name
        self.forward = forward
        self.dtype = dtype
        self.flops = flops
        self.grad: Any = None
        self.num_outputs = num_outputs
        self.stateful = stateful
        self.none_grad_ok = none_grad_ok

    def __repr__(self) -> str:
        return f"<OpDef {self.name}>"


class OpCall:
    """One executed op, as a gradient function sees it (TF's `op` argument): `.type`, `.inputs`,
    `.outputs` and `.get_attr(name)`."""

    __slots__ = ("opdef", "inputs", "outputs", "attrs")

    def __init__(self, opdef: OpDef, inputs: tuple, outputs: tuple, attrs: dict | None) -> None:
        self.opdef = opdef
        self.inputs = inputs
        self.outputs = outputs
        self.attrs = attrs or {}

    @property
    def type(self) -> str:
        return self.opdef.name

    @property
    def name(self) -> str:
        return self.opdef.name

    def get_attr(self, name: str) -> Any:
        try:
            return self.attrs[name]
        except KeyError:
            raise ValueError(f"Operation {self.opdef.name!r} has no attr named {name!r}.") from None


_OPS: dict[str, OpDef] = {}
_PENDING_GRADS: dict[str, Any] = {}


def register(name: str, forward: Callable[..., Any], dtype: Callable[..., Any],
             flops: Callable[..., float] | None = None, **kw: Any) -> OpDef:
    """Define op type `name` (once)."""
    if name in _OPS:
        raise KeyError(f"op type {name!r} is registered twice")
    op = OpDef(name, forward, dtype, flops, **kw)
    if name in _PENDING_GRADS:
        op.grad = _PENDING_GRADS.pop(name)
    _OPS[name] = op
    return op


def get(name: str) -> OpDef:
    try:
        return _OPS[name]
    except KeyError:
        raise LookupError(f"simdist has no op type {name!r}") from None


def registered_ops() -> list[OpDef]:
    """Every registered op, in registration order (for the per-op test matrix)."""
    return list(_OPS.values())


class RegisterGradient:
    """`@RegisterGradient("OpType")`: the decorated `fn(op, *grads) -> input grads` is the gradient
    of OpType, as `tf.RegisterGradient` does. `op` has `.inputs`, `.outputs`, `.type` and
    `.get_attr(name)`; it returns one gradient (or None) per input."""

    def __init__(self, op_type: str) -> None:
        if not isinstance(op_type, str):
            raise TypeError(f"op_type must be a string, got {op_type!r}")
        self._op_type = op_type

    def __call__(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        op = _OPS.get(self._op_type)
        current = op.grad if op is not None else _PENDING_GRADS.get(self._op_type)
        if current is not None:
            raise KeyError(f"Registering two gradient with name '{self._op_type}'! (Previous registration "
                           f"was {current!r})")
        if op is None:
            _PENDING_GRADS[self._op_type] = fn
        else:
            op.grad = fn
        return fn


def NotDifferentiable(op_type: str) -> None:  # noqa: N802 - TF's name
    """Mark op_type as having no gradient (its inputs get None), as `tf.no_gradient` does."""
    op = _OPS.get(op_type)
    if op is None:
        _PENDING_GRADS[op_type] = NO_GRADIENT
    else:
        op.grad = NO_GRADIENT


def gradient_function(op: OpDef) -> Any:
    """The registered gradient of `op`, NO_GRADIENT, or LookupError as TF raises it."""
    g = op.grad
    if g is None:
        raise LookupError(f"No gradient defined for operation '{op.name}' (op type: {op.name}). In general every "
                          "operation must have an associated `@tf.RegisterGradient` for correct autodiff, which "
                          "this op is lacking. If you want to pretend this operation is a constant in your "
                          "program, you may insert `tf.stop_gradient`.")
    return g
