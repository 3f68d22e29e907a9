"""What TF 2.21's `batch_reduce_to` does with the leaves of a replica-context all-reduce before
any value is combined (clause reduce.same-object-leaves).

`ReplicaContext.all_reduce` merges the replicas' leaves with `regroup`, which gives back a leaf
that every replica passed as the same object (a tensor captured from outside `run`, the same
Python number) as that object, not as a PerReplica. `CrossDeviceOps.batch_reduce` wraps such a
value in a one-value PerReplica and its shortcut returns it unreduced; MirroredStrategy's
`_batch_reduce_to` first asks `_get_cross_device_ops(value)` of every leaf, which reads
`value.dtype` and gives int32 values a ReductionToOneDevice of their own.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from simdist.runtime.indexed_slices import IndexedSlices
from simdist.runtime.tensor import Tensor
from simdist.runtime.values import DistributedValues, PerReplica

# (TF 2.21's texts, observed)
_INT32_SPLIT = "Inputs to batch_reduce_to must be either all on the host or all on the compute devices."
_BAD_DESTINATIONS = ("destinations must be one of a `DistributedValues` object, a tf.Variable object, or a "
                     "device string.")


def is_python_number(v: Any) -> bool:
    """A Python bool, int, float or complex (not a NumPy scalar, which has a dtype)."""
    return isinstance(v, (bool, int, float, complex)) and not isinstance(v, np.generic)


def check_leaves(leaves: Sequence[Any], python_error: str | None, int32_split: bool, eager: bool) -> None:
    """The leaves' checks, in TF's leaf order. Eagerly, a Python number is MirroredStrategy's
    AttributeError (`python_error` "dtype": it reads `.dtype`) or CentralStorageStrategy's
    destination ValueError ("destinations"); traced, TF has made it a tensor first (a Python int
    is int32). With `int32_split` (MirroredStrategy), each int32 leaf gets a new
    ReductionToOneDevice and every leaf must share the first leaf's cross-device ops, so two or
    more leaves with an int32 among them are ValueError (a lone int32 leaf is reduced)."""
    first_int32 = False
    for i, v in enumerate(leaves):
        python = is_python_number(v)
        if v is None and eager and python_error == "dtype":
            raise AttributeError("'NoneType' object has no attribute 'dtype'")
        if python and eager and python_error is not None:
            if python_error == "dtype":
                raise AttributeError(f"'{type(v).__name__}' object has no attribute 'dtype'")
            raise ValueError(_BAD_DESTINATIONS)
        if not int32_split:
            continue
        if python:
            is_int32 = isinstance(v, int) and not isinstance(v, bool)
        else:
            dt = getattr(v, "dtype", None)
            is_int32 = getattr(dt, "name", None) == "int32"
        if i == 0:
            first_int32 = is_int32
        elif is_int32 or first_int32:
            raise ValueError(_INT32_SPLIT)


def check_traced_destinations(leaves: Sequence[Any], num_replicas: int, batch_reduces: bool) -> None:
    """A replica-context all-reduce in a tf.function with one replica, on a strategy whose
    all-reduce is `batch_reduce_to` (`batch_reduces`: MirroredStrategy, CentralStorageStrategy):
    each leaf is its own destination (`_batch_reduce_destination`: a tensor's device), and TF's
    custom gradient has read a variable leaf with `value()`, whose read carries no device in a
    graph (`colocate_with(None, ignore_existing=True)`): validate_destinations' ValueError."""
    if num_replicas != 1 or not batch_reduces:
        return
    from simdist.runtime.variables import Variable
    if any(isinstance(v, Variable) for v in leaves):
        raise ValueError("destinations can not be empty")


def check_eager_destinations(payloads: Sequence[Sequence[Any]], batch_reduces: bool) -> None:
    """Eagerly, on a strategy whose all-reduce is `batch_reduce_to` (`batch_reduces`), a leaf that
    regroup gives back as itself (every replica's same object, or the one replica's leaf) is its
    own destination (`_batch_reduce_destination`): anything but a tensor, variable, distributed
    value or device string (a NumPy value) is validate_destinations' ValueError."""
    if not batch_reduces:
        return
    first = payloads[0]
    for k, v in enumerate(first):
        if all(p[k] is v for p in payloads[1:]):
            validate_destinations(v)


def normalize_pairs(pairs: Any, convert: Any) -> list[tuple[Any, Any]]:
    """CrossDeviceOps.batch_reduce's pairs (clause extended.reduce-to): kept when every value is a
    PerReplica in a tuple; else each pair must be a 2-tuple and each value that is not distributed
    becomes a one-value PerReplica of `convert(value)` (convert_to_tensor: graph conversion in a
    tf.function; an IndexedSlices kept as it is, as TF's `_make_tensor_into_per_replica` wraps any value with a
    device: blind55). An empty batch is TF's IndexError when its shortcut reads the first pair."""
    pairs = list(pairs)
    if pairs and all(isinstance(p, tuple) and isinstance(p[0], PerReplica) for p in pairs):
        return pairs
    out = []
    for p in pairs:
        if not isinstance(p, tuple):
            raise ValueError("Each element of `value_destination_pairs` should be a tuple.")
        if len(p) != 2:
            raise ValueError("Each element of `value_destination_pairs` should be a tuple of size 2.")
        v = p[0] if isinstance(p[0], DistributedValues) else \
            PerReplica([p[0] if isinstance(p[0], IndexedSlices) else convert(p[0])])
        out.append((v, p[1]))
    if not out:
        raise IndexError("list index out of range")
    return out


def validate_destinations(d: Any) -> None:
    """cross_device_ops.validate_destinations: a distributed value, tensor, variable or device
    string, and not empty (a tensor or variable without a device is empty)."""
    from simdist.runtime.variables import Variable
    if not isinstance(d, (DistributedValues, Tensor, IndexedSlices, Variable, str)):
        raise ValueError(_BAD_DESTINATIONS)
    if not (d.device if isinstance(d, (Tensor, Variable)) else d):
        raise ValueError("destinations can not be empty")


def devices_of(x: Any, canonical: Any) -> tuple[str, ...]:
    """cross_device_ops.get_devices_from: a distributed value's components' devices, a device
    string or a value's device, canonical."""
    if isinstance(x, DistributedValues):
        return tuple(canonical(getattr(c, "device", "") or "") for c in x.values)
    return (canonical(x if isinstance(x, str) else (getattr(x, "device", "") or "")),)


def same_object_leaves(payloads: Sequence[Sequence[Any]], rule: str | None, eager: bool) -> list[bool]:
    """Per leaf, whether every replica passed the same object (not a distributed variable, which
    regroup keeps distributed; traced, only a tensor: TF's custom gradient has made a Python
    number or a variable a new tensor in each replica, a captured tensor stays one placeholder;
    with one replica every leaf), under `rule` (StrategyExtended._same_leaf_reduce):
    "per_leaf" marks each such leaf, "all_or_nothing" (CollectiveAllReduce's batch) marks them
    when every leaf is such and is TF's IndexError when only some are, None marks none."""
    n_leaves = len(payloads[0])
    if rule is None:
        return [False] * n_leaves
    first = payloads[0]
    if len(payloads) == 1:   # (one value: CrossDeviceOps' one-value shortcut, whatever it is)
        return [True] * n_leaves
    same = [not isinstance(first[k], DistributedValues) and all(p[k] is first[k] for p in payloads[1:])
            and (eager or isinstance(first[k], Tensor)) for k in range(n_leaves)]
    if rule == "all_or_nothing" and any(same) and not all(same):
        raise IndexError("tuple index out of range")
    return same


def check_traced_packs(leaves: Sequence[Any], bytes_per_pack: int) -> None:
    """CollectiveAllReduce in a tf.function: the dense leaves, reversed (backprop order), are
    grouped by `bytes_per_pack` (0: one pack) and each pack is concatenated into one tensor, so a
    pack mixing dtypes is ConcatV2's TypeError, naming the pack's dtypes in that reversed order.
    (Eagerly each leaf is all-reduced alone.)"""
    dense = [v for v in leaves if hasattr(v, "dtype") and hasattr(v, "shape") and not isinstance(v, IndexedSlices)]
    dense.reverse()
    if bytes_per_pack == 0:
        packs = [dense]
    else:   # (cross_device_utils.group_by_size: a new pack once the last one exceeds bytes_per_pack)
        packs, last = [], 0
        for v in dense:
            if not packs or last > bytes_per_pack:
                packs.append([])
                last = 0
            packs[-1].append(v)
            last += int(np.prod(v.shape.as_list() if hasattr(v.shape, "as_list") else v.shape)) * v.dtype.size
    for pack in packs:
        names = [v.dtype.name for v in pack]
        if len(set(names)) > 1:
            raise TypeError(f"Tensors in list passed to 'values' of 'ConcatV2' Op have types [{', '.join(names)}] "
                            "that don't all match.")
