"""Type specifications (`tf.TensorSpec`, `PerReplicaSpec`) and tf.data's nested-structure rules.

tf.data's structures: tuples (including namedtuples) and dicts are structures; everything else,
Python lists included, is a leaf (a list is one tensor, as in `from_tensor_slices([[1, 2], [3, 4]])`).
Dicts flatten in sorted-key order and are rebuilt in their own key order, like TF's `nest`.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.tensor import Tensor, TensorShape


def _as_shape(shape: Any) -> TensorShape:
    """TF's shape conversion: None (unknown rank), an int, an iterable of ints/None, or a TensorShape."""
    if isinstance(shape, TensorShape):
        return shape
    if shape is None:
        return TensorShape(None)
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        return TensorShape([int(shape)])
    from simdist.runtime import symbolic
    if symbolic.is_graph(shape):
        # (TensorShape iterates the value; a graph tensor refuses iteration with a TypeError, so TF takes it as one
        # dimension, which as_dimension refuses: `tf.TensorSpec(shape=tf.shape(q))` in a tf.function, Keras's
        # nanquantile along an axis; fz51b seed 51104 #24)
        raise TypeError(f"Dimension value must be integer or None or have an __index__ method, got value '{shape!r}' "
                        f"with type '{type(shape)!r}'")
    try:
        dims = list(shape)
    except TypeError:
        raise TypeError(f"Failed to convert '{shape!r}' to a shape: A shape should either be single dimension "
                        "(e.g. 10), or an iterable of dimensions (e.g. [1, 10, None]).") from None
    out: list[int | None] = []
    for d in dims:
        if d is not None and not isinstance(d, (int, np.integer, bool)) and hasattr(d, "__index__"):
            try:
                d = d.__index__()   # (as_dimension: an eager integer scalar tensor is its value)
            except (TypeError, ValueError):
                pass
        if d is None or (isinstance(d, (int, np.integer)) and not isinstance(d, bool)):
            out.append(None if d is None or int(d) < 0 else int(d))
        else:
            raise TypeError(f"Failed to convert '{shape!r}' to a shape: '{d!r}' could not be converted to a "
                            "dimension. A shape should either be single dimension (e.g. 10), or an iterable "
                            "of dimensions (e.g. [1, 10, None]).")
    return TensorShape(out)


class TensorSpec:
    """`tf.TensorSpec(shape, dtype=tf.float32, name=None)`: the type of a dense tensor."""

    __slots__ = ("_shape", "_dtype", "_name")

    def __init__(self, shape: Any, dtype: Any = dtypes.float32, name: str | None = None) -> None:
        self._shape = _as_shape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._name = name

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def dtype(self) -> dtypes.DType:
        return self._dtype

    @property
    def name(self) -> str | None:
        return self._name

    @classmethod
    def from_tensor(cls, tensor: Any, name: str | None = None) -> "TensorSpec":
        """The spec of a tensor (its static shape and dtype)."""
        if isinstance(tensor, Tensor):
            return cls(tensor.shape, tensor.dtype, name)
        if hasattr(tensor, "_as_tensor"):
            t = tensor._as_tensor()
            return cls(t.shape, t.dtype, name)
        raise ValueError(f"`tensor` should be a tf.Tensor, but got type {type(tensor)}.")

    @classmethod
    def from_spec(cls, spec: "TensorSpec", name: str | None = None) -> "TensorSpec":
        return cls(spec.shape, spec.dtype, name if name is not None else spec.name)

    def is_compatible_with(self, spec_or_value: Any) -> bool:
        """True if `spec_or_value` (a TensorSpec or a Tensor) has this dtype and a compatible shape.

        Like TF, Python lists and NumPy arrays are not tensors and are never compatible.
        """
        if isinstance(spec_or_value, TensorSpec):
            other_shape, other_dtype = spec_or_value.shape, spec_or_value.dtype
        elif isinstance(spec_or_value, Tensor):
            other_shape, other_dtype = spec_or_value.shape, spec_or_value.dtype
        elif hasattr(spec_or_value, "_as_tensor"):
            t = spec_or_value._as_tensor()
            other_shape, other_dtype = t.shape, t.dtype
        else:
            return False
        return other_dtype == self._dtype and self._shape.is_compatible_with(other_shape)

    def most_specific_common_supertype(self, others: Iterable["TensorSpec"]) -> "TensorSpec | None":
        """The narrowest spec that every one of self and `others` satisfies (None if dtypes differ)."""
        shape = self._shape
        for o in others:
            if not isinstance(o, TensorSpec) or o.dtype != self._dtype:
                return None
            shape = most_specific_compatible_shape(shape, o.shape)
        return TensorSpec(shape, self._dtype)

    # TF's private batching helpers (used by tf.data and tf.distribute's spec arithmetic).
    def _batch(self, batch_size: int | None) -> "TensorSpec":
        return TensorSpec(TensorShape([batch_size]).concatenate(self._shape), self._dtype)

    def _unbatch(self) -> "TensorSpec":
        if self._shape.rank == 0:
            raise ValueError("Unbatching a tensor is only supported for rank >= 1")
        return TensorSpec(self._shape[1:], self._dtype)

    def __eq__(self, other: object) -> bool:
        return (type(other) is TensorSpec and other._shape == self._shape and other._dtype == self._dtype
                and other._name == self._name)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((self._shape, self._dtype.name, self._name))

    def __repr__(self) -> str:
        return f"TensorSpec(shape={self._shape}, dtype={self._dtype!r}, name={self._name!r})"

    def __reduce__(self):
        return (TensorSpec, (self._shape, self._dtype, self._name))


class PerReplicaSpec:
    """The type of a PerReplica value: one spec per replica (TF's `values.PerReplicaSpec`)."""

    __slots__ = ("_value_specs",)

    def __init__(self, *value_specs: Any) -> None:
        self._value_specs = tuple(value_specs)

    @property
    def value_specs(self) -> tuple[Any, ...]:
        return self._value_specs

    def __eq__(self, other: object) -> bool:
        return type(other) is PerReplicaSpec and other._value_specs == self._value_specs

    def __hash__(self) -> int:
        return hash(self._value_specs)

    def __repr__(self) -> str:
        return "PerReplicaSpec(%s)" % ", ".join(repr(s) for s in self._value_specs)


def most_specific_compatible_shape(a: TensorShape, b: TensorShape) -> TensorShape:
    """Dims equal in both stay, others become None; different ranks give unknown rank."""
    if a.rank is None or b.rank is None or a.rank != b.rank:
        return TensorShape(None)
    return TensorShape([x if x == y else None for x, y in zip(a.as_list(), b.as_list())])


def is_fully_static(structure: Any) -> bool:
    """True if every TensorSpec in a nested structure has a fully defined shape."""
    return all(s.shape.is_fully_defined() for s in flatten(structure))


# --- tf.data nest ---------------------------------------------------------------------------------
def is_structure(x: Any) -> bool:
    """Tuples (incl. namedtuples) and dicts are structures for tf.data; lists are leaves."""
    return isinstance(x, (tuple, dict))


def _sorted_keys(d: dict) -> list[Any]:
    try:
        return sorted(d)
    except TypeError:
        raise TypeError(f"nest only supports dicts with sortable keys, got keys {list(d)!r}") from None


def flatten(structure: Any) -> list[Any]:
    """Leaves of a structure, depth first; dict entries in sorted-key order."""
    if isinstance(structure, dict):
        return [leaf for k in _sorted_keys(structure) for leaf in flatten(structure[k])]
    if isinstance(structure, tuple):
        return [leaf for item in structure for leaf in flatten(item)]
    return [structure]


def pack_as(structure: Any, leaves: list[Any]) -> Any:
    """Rebuild `structure` with `leaves` (in `flatten` order)."""
    it = iter(leaves)
    out = _pack(structure, it)
    rest = list(it)
    if rest:
        raise ValueError(f"pack_as: {len(rest)} leaves left over for structure {structure!r}")
    return out


def _pack(structure: Any, it: Any) -> Any:
    if isinstance(structure, dict):
        packed = {k: _pack(structure[k], it) for k in _sorted_keys(structure)}
        items = [(k, packed[k]) for k in structure]
        return type(structure)(items) if type(structure) is not dict else dict(items)
    if isinstance(structure, tuple):
        parts = [_pack(item, it) for item in structure]
        return type(structure)(*parts) if hasattr(structure, "_fields") else type(structure)(parts)
    try:
        return next(it)
    except StopIteration:
        raise ValueError("pack_as: not enough leaves for the structure") from None


def map_structure(fn: Callable[[Any], Any], structure: Any) -> Any:
    """Apply `fn` to every leaf, keeping the structure."""
    return pack_as(structure, [fn(leaf) for leaf in flatten(structure)])


def assert_same_structure(a: Any, b: Any) -> None:
    """Raise ValueError if two structures differ (kinds, lengths or dict keys)."""
    if isinstance(a, dict) != isinstance(b, dict) or isinstance(a, tuple) != isinstance(b, tuple):
        raise ValueError(f"The two structures don't have the same nested structure: {a!r} vs {b!r}")
    if isinstance(a, dict):
        if _sorted_keys(a) != _sorted_keys(b):
            raise ValueError(f"The two dictionaries don't have the same set of keys: {list(a)} vs {list(b)}")
        for k in a:
            assert_same_structure(a[k], b[k])
    elif isinstance(a, tuple):
        if len(a) != len(b):
            raise ValueError(f"The two structures don't have the same sequence length: {len(a)} vs {len(b)}")
        for x, y in zip(a, b):
            assert_same_structure(x, y)
