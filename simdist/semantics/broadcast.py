"""TF 2.21's `extended.broadcast_to` and the cross-device ops' copies (cross_device_ops.py
`simple_broadcast`, cross_device_utils.py `copy_tensor_or_indexed_slices_to_device`; clause
extended.broadcast-to): a value copied onto each destination device by an identity there.

An identity keeps IndexedSlices (its values, indices and dense shape copied) and composite
values (a PerReplica's components, a SparseTensor) as they are; anything else is converted to a
tensor on the device (None is the conversion's ValueError). With several devices the copies are
regrouped into a Mirrored value; with one, the copy itself.
"""

from __future__ import annotations

from typing import Any, Sequence

from simdist.runtime.indexed_slices import IndexedSlices
from simdist.runtime.sparse_tensor import SparseTensor
from simdist.runtime.tensor import Tensor, convert_to_tensor
from simdist.runtime.values import Mirrored, PerReplica


def copy_to_device(value: Any, device: str | None = None) -> Any:
    """`array_ops.identity(value)` under `tf.device(device)` (None: the value's own device)."""
    if isinstance(value, IndexedSlices):
        return IndexedSlices(copy_to_device(value.values, device), copy_to_device(value.indices, device),
                             value.dense_shape if value.dense_shape is None else copy_to_device(value.dense_shape, device))
    if isinstance(value, SparseTensor):
        return value
    if isinstance(value, PerReplica):
        return PerReplica([copy_to_device(c, device) for c in value.values])
    t = convert_to_tensor(value)
    if type(t) is not Tensor:   # (a traced tensor: the graph's identity)
        return t
    return Tensor(t._v, t.dtype, device or t.device)


def simple_broadcast(value: Any, devices: Sequence[str]) -> Any:
    """A copy of `value` on each of `devices`, regrouped as a Mirrored value (one device: the copy)."""
    copies = [copy_to_device(value, d) for d in devices]
    return copies[0] if len(copies) == 1 else Mirrored(copies)


def check_destinations(destinations: Any) -> bool:
    """cross_device_ops.check_destinations: a tensor or variable names a device, else truthiness."""
    if isinstance(destinations, Tensor) or hasattr(destinations, "_as_tensor"):
        return bool(getattr(destinations, "device", ""))
    return bool(destinations)

