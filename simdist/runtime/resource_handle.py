"""Resource handles: `v.handle`, the eager tensor of dtype resource that names a variable (clause
ops.resource-handles).

A handle tensor is a scalar Tensor of dtype `tf.resource` whose value is a 0-d object array holding one
ResourceHandle: the variable itself (its identity, not a copy of its value), and the name, device,
container, dtype and shape TF 2.21 prints for it (ResourceHandle::DebugString, observed):

    <tf.Tensor: shape=(), dtype=resource, value=<ResourceHandle(name="Variable/0", device="/job:localhost/
    replica:0/task:0/device:CPU:0", container="Anonymous", type="tensorflow::Var", dtype and shapes : "[ DType
    enum: 1, Shape: [2] ]")>>

An eager variable's handle is anonymous (container "Anonymous", name "<variable name>/<n>", n TF's process-wide
count of anonymous resources: simdist counts the handles it has made). A VarHandleOp's handle names
(container, shared_name) in the resource manager of runtime/ops/resource_variable_kernels.py; it holds no
variable until AssignVariableOp makes one. Every conversion of the value to NumPy or a Python scalar is TF's
InvalidArgumentError "Cannot convert a Tensor of dtype resource to a NumPy array." (tensor.py asks
`refuse_numpy`; the handle object's own __bool__/__float__/__int__ raise it for NumPy's scalar conversions).
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from simdist.runtime import dtypes

__all__ = ["ResourceHandle", "handle_of", "handle_tensor", "numpy_refusal", "handle_in"]

_ANONYMOUS = itertools.count()   # (TF's ResourceHandle::GenerateUniqueId: one count for the process)


def numpy_refusal() -> Exception:
    from simdist.runtime import errors
    return errors.InvalidArgumentError(None, None, "Cannot convert a Tensor of dtype resource to a NumPy array.")


class ResourceHandle:
    """What a resource tensor holds: the variable it names (None for a VarHandleOp's handle, found by
    (container, name) in the resource manager) and TF's printed fields."""

    __slots__ = ("var", "name", "device", "container", "dtype", "shape", "__weakref__")

    def __init__(self, var: Any, name: str, device: str, container: str, dtype: dtypes.DType,
                 shape: list[int | None] | None) -> None:
        self.var = var
        self.name = name
        self.device = device
        self.container = container
        self.dtype = dtype
        self.shape = shape

    def __repr__(self) -> str:
        if self.shape is None:
            shape = "<unknown>"
        else:
            shape = "[" + ",".join("?" if d is None else str(d) for d in self.shape) + "]"
        return (f'<ResourceHandle(name="{self.name}", device="{self.device}", container="{self.container}", '
                f'type="tensorflow::Var", dtype and shapes : "[ DType enum: {self.dtype.as_datatype_enum}, '
                f'Shape: {shape} ]")>')

    # (NumPy's scalar conversions of the 0-d object array ask the object: TF refuses them all)
    def __bool__(self) -> bool:
        raise numpy_refusal()

    def __float__(self) -> float:
        raise numpy_refusal()

    def __int__(self) -> int:
        raise numpy_refusal()

    def __index__(self) -> int:
        raise numpy_refusal()

    def __complex__(self) -> complex:
        raise numpy_refusal()


def handle_tensor(h: ResourceHandle, eager: bool = False) -> Any:
    """The scalar tensor of dtype resource holding `h` (`eager`: an eager tensor even while a tf.function's Python
    runs, as a variable's handle is, made when the variable was: not a graph tensor of the function)."""
    from simdist.runtime.tensor import Tensor
    arr = np.empty((), dtype=object)
    arr[()] = h
    if not eager:
        return Tensor(arr, dtypes.resource, h.device)
    t = Tensor.__new__(Tensor)
    t._v, t.dtype, t._device, t._sub = arr, dtypes.resource, h.device, False
    return t


def handle_of(var: Any) -> Any:
    """`var.handle` of a simdist ResourceVariable: made once, on first use, and kept (the same tensor on
    every read, as TF's variable keeps its handle)."""
    t = var.__dict__.get("_handle_t")
    if t is None:
        shape = var.shape.as_list() if var.shape.rank is not None else None
        h = ResourceHandle(var, f"{var._name}/{next(_ANONYMOUS)}", var.device, "Anonymous", var.dtype, shape)
        t = var._handle_t = handle_tensor(h, eager=True)
    return t


def handle_in(t: Any) -> ResourceHandle:
    """The ResourceHandle a resource tensor holds (its value read as an op's input)."""
    from simdist.runtime.ops import dispatch
    arr = dispatch.raw(t)
    if arr.ndim == 0:
        return arr[()]
    if arr.size == 0:   # (HandleFromInput's flat(0) of no handle)
        from simdist.runtime import errors
        raise errors.InvalidArgumentError(None, None, "resource handle input holds no handle")
    return arr.reshape(-1)[0]   # (a packed [h]: the kernel reads the first handle, as TF's flat(0))
