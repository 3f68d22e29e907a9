"""The lookup-table find op (TF's LookupTableFindV2, lookup_table_op.cc): each key's value in a hash
table, the default value where the key is absent; the output has the keys' shape and the values'
dtype. TF reads the table through a resource handle; simdist passes the table's contents as two
1-D input tensors (keys, values) beside the query keys and the default, so a traced tf.function
captures them as constants, as TF's graph captures the table's handle (the contents of a
StaticHashTable never change after it is initialized). Not differentiable (TF registers no
gradient for it)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import args, dispatch
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.tensor import Tensor

__all__ = ["find", "FIND"]


def _key(v: Any) -> Any:
    """A dict key for one table key: bytes for strings, a Python int or float for numbers."""
    return v if isinstance(v, bytes) else v.item() if hasattr(v, "item") else v


def _find(keys: np.ndarray, table_keys: np.ndarray, table_values: np.ndarray, default: np.ndarray) -> np.ndarray:
    index = {_key(k): i for i, k in enumerate(table_keys.reshape(-1))}
    flat = keys.reshape(-1)
    out = np.empty(flat.shape, table_values.dtype)
    d = default.reshape(-1)[0]
    for j, k in enumerate(flat):
        i = index.get(_key(k))
        out[j] = d if i is None else table_values[i]
    return out.reshape(keys.shape)


def _rule(dts: Any, attrs: Any) -> dtypes.DType:
    if dts[0] != dts[1]:
        raise errors.InvalidArgumentError(None, None, f"Expected key dtype {dts[1].name} but got {dts[0].name} "
                                          "[Op:LookupTableFindV2]")
    if dts[2] != dts[3]:
        raise errors.InvalidArgumentError(None, None, f"Expected default value dtype {dts[2].name} but got "
                                          f"{dts[3].name} [Op:LookupTableFindV2]")
    return dts[2]


FIND = register("LookupTableFindV2", _find, _rule, args.zero_flops, kind="gather/scatter",
                fusion=lanes("a hash lookup per key in Python: no stacked form written"))
NotDifferentiable("LookupTableFindV2")


def find(keys: Tensor, table_keys: Tensor, table_values: Tensor, default_value: Tensor) -> Tensor:
    """Each of `keys`' values in the table (table_keys[i] -> table_values[i]), else `default_value`."""
    return dispatch.execute(FIND, (keys, table_keys, table_values, default_value), {})
