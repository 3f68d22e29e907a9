"""`tf.TypeSpec` and the specs of TF 2.21's other composite values: `tf.TensorArraySpec`,
`tf.IndexedSlicesSpec`, `tf.OptionalSpec`, `tf.NoneTensorSpec` (TF's framework/type_spec.py,
ops/tensor_array_ops.py, framework/indexed_slices.py, data/ops/optional_ops.py, framework/none_tensor.py).

A spec is its `_serialize()` tuple: equality and hashing compare the type and that tuple (dicts by sorted
keys), repr is `Name` + the tuple's repr, and the base `is_compatible_with` / `most_specific_common_supertype`
walk the tuples as TF's TypeSpec does (shapes by compatibility / common supertype, nested specs recursively,
anything else by equality). `tf.TensorSpec`, `tf.SparseTensorSpec` and `tf.RaggedTensorSpec` (simdist's own
classes) are registered as virtual subclasses, so `isinstance(spec, tf.TypeSpec)` holds for them as on TF.
"""

from __future__ import annotations

import abc
from typing import Any, Iterable

from simdist.runtime import dtypes
from simdist.runtime.spec import TensorSpec, most_specific_compatible_shape
from simdist.runtime.tensor import TensorShape


class TypeSpec(abc.ABC):
    """`tf.TypeSpec`: abstract (TF's message names its abstract methods)."""

    __slots__ = ()

    @property
    @abc.abstractmethod
    def value_type(self) -> Any:
        ...

    @abc.abstractmethod
    def _serialize(self) -> tuple:
        ...

    @abc.abstractmethod
    def _component_specs(self) -> Any:
        ...

    @abc.abstractmethod
    def _to_components(self, value: Any) -> Any:
        ...

    @abc.abstractmethod
    def _from_components(self, components: Any) -> Any:
        ...

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and _cmp_key(self._serialize()) == _cmp_key(other._serialize())

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((type(self).__name__, _cmp_key(self._serialize())))

    def __repr__(self) -> str:
        return f"{type(self).__name__}{self._serialize()!r}"

    def is_compatible_with(self, spec_or_value: Any) -> bool:
        other = spec_or_value if isinstance(spec_or_value, TypeSpec) else _spec_of(spec_or_value)
        return type(other) is type(self) and _compatible(self._serialize(), other._serialize())

    def is_subtype_of(self, other: Any) -> bool:
        return type(other) is type(self) and _subtype(self._serialize(), other._serialize())

    def most_specific_common_supertype(self, others: Iterable[Any]) -> Any:
        others = list(others)
        if any(type(o) is not type(self) for o in others):
            return None
        merged = self._serialize()
        for o in others:
            merged = _supertype(merged, o._serialize())
            if merged is _NONE:
                return None
        return type(self)(*merged)


_NONE = object()


def _as_shape(shape: Any) -> TensorShape:
    """TF's tensor_shape.as_shape: a TensorShape stays, anything else is TensorShape(shape)."""
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)


def _cmp_key(x: Any) -> Any:
    if isinstance(x, dict):
        return ("dict", tuple((k, _cmp_key(x[k])) for k in sorted(x)))
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, tuple(_cmp_key(v) for v in x))
    if isinstance(x, TensorShape):
        return ("shape", None if x.rank is None else tuple(x.as_list()))
    return x


def _spec_of(value: Any) -> Any:
    """TF's `type_spec_from_value`: None's NoneTensorSpec, a TensorArray's, IndexedSlices' and Optional's
    specs, a SparseTensor's and RaggedTensor's, else the TensorSpec of the value converted to a tensor."""
    from simdist.runtime.data import Optional
    from simdist.runtime.indexed_slices import IndexedSlices
    from simdist.runtime.ops.tensor_array import TensorArray
    from simdist.runtime.ragged_tensor import RaggedTensor, RaggedTensorSpec
    from simdist.runtime.sparse_tensor import SparseTensor
    from simdist.runtime.tensor import Tensor, convert_to_tensor
    if value is None:
        return NoneTensorSpec()
    if isinstance(value, TensorArray):
        return TensorArraySpec.from_value(value)
    if isinstance(value, Optional):
        return OptionalSpec.from_value(value)
    from simdist.runtime.data.iterators import OwnedIterator
    if isinstance(value, OwnedIterator):
        return IteratorSpec.from_value(value)
    if isinstance(value, IndexedSlices):
        if value.dense_shape is not None:
            shape = TensorShape([int(d) for d in value.dense_shape.numpy()])
        else:
            shape = TensorShape([None]).concatenate(value.values.shape[1:])
        return IndexedSlicesSpec(shape, value.values.dtype, value.indices.dtype,
                                 None if value.dense_shape is None else value.dense_shape.dtype, value.indices.shape)
    if isinstance(value, SparseTensor):
        return value._type_spec
    if isinstance(value, RaggedTensor):
        return RaggedTensorSpec.from_value(value)
    t = value if isinstance(value, Tensor) else convert_to_tensor(value)
    return TensorSpec(t.shape, t.dtype)


type_spec_from_value = _spec_of


def _walk(a: Any, b: Any, on_shape: Any, on_spec: Any) -> Any:
    if isinstance(a, TensorShape) and isinstance(b, TensorShape):
        return on_shape(a, b)
    if isinstance(a, (TypeSpec, TensorSpec)) or isinstance(b, (TypeSpec, TensorSpec)):
        return on_spec(a, b)
    if isinstance(a, dict) and isinstance(b, dict):
        if sorted(a) != sorted(b):
            return None
        return {k: _walk(a[k], b[k], on_shape, on_spec) for k in a}
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if type(a) is not type(b) or len(a) != len(b):
            return None
        return type(a)(_walk(x, y, on_shape, on_spec) for x, y in zip(a, b))
    return a == b


def _flat_ok(x: Any) -> bool:
    if isinstance(x, dict):
        return x is not None and all(_flat_ok(v) for v in x.values())
    if isinstance(x, (list, tuple)):
        return all(_flat_ok(v) for v in x)
    return x is True


def _compatible(a: Any, b: Any) -> bool:
    return _flat_ok(_walk(a, b, lambda x, y: x.is_compatible_with(y),
                          lambda x, y: type(x) is type(y) and x.is_compatible_with(y)))


def _subtype(a: Any, b: Any) -> bool:
    def shape_sub(x: TensorShape, y: TensorShape) -> bool:
        if y.rank is None:
            return True
        return x.rank == y.rank and all(d2 is None or d1 == d2 for d1, d2 in zip(x.as_list(), y.as_list()))

    def spec_sub(x: Any, y: Any) -> bool:
        if type(x) is not type(y):
            return False
        if isinstance(x, TensorSpec):
            return x.dtype == y.dtype and shape_sub(x.shape, y.shape)
        return x.is_subtype_of(y)
    return _flat_ok(_walk(a, b, shape_sub, spec_sub))


def _supertype(a: Any, b: Any) -> Any:
    if isinstance(a, TensorShape) and isinstance(b, TensorShape):
        return most_specific_compatible_shape(a, b)
    if isinstance(a, (TypeSpec, TensorSpec)) or isinstance(b, (TypeSpec, TensorSpec)):
        if type(a) is not type(b):
            return _NONE
        s = a.most_specific_common_supertype([b])
        return _NONE if s is None else s
    if isinstance(a, dict) and isinstance(b, dict):
        if sorted(a) != sorted(b):
            return _NONE
        out = {k: _supertype(a[k], b[k]) for k in a}
        return _NONE if any(v is _NONE for v in out.values()) else out
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if type(a) is not type(b) or len(a) != len(b):
            return _NONE
        parts = [_supertype(x, y) for x, y in zip(a, b)]
        return _NONE if any(v is _NONE for v in parts) else type(a)(parts)
    return a if a == b else _NONE


class TensorArraySpec(TypeSpec):
    """`tf.TensorArraySpec(element_shape=None, dtype=tf.float32, dynamic_size=False, infer_shape=True)`."""

    __slots__ = ("_element_shape", "_dtype", "_dynamic_size", "_infer_shape")

    def __init__(self, element_shape: Any = None, dtype: Any = dtypes.float32, dynamic_size: Any = False,
                 infer_shape: Any = True) -> None:
        self._element_shape = _as_shape(element_shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._dynamic_size = dynamic_size
        self._infer_shape = infer_shape

    @property
    def value_type(self) -> Any:
        from simdist.runtime.ops.tensor_array import TensorArray
        return TensorArray

    @staticmethod
    def from_value(value: Any) -> "TensorArraySpec":
        from simdist.runtime.ops.tensor_array import TensorArray
        if not isinstance(value, TensorArray):
            raise TypeError(f"Expected value to be a TensorArray, but got: `{type(value)}`")
        return TensorArraySpec(value.element_shape, value.dtype, value.dynamic_size, value._infer_shape)

    def _serialize(self) -> tuple:
        return (self._element_shape, self._dtype, self._dynamic_size, self._infer_shape)

    def _component_specs(self) -> Any:
        return [TensorSpec([], dtypes.variant)]

    def _to_components(self, value: Any) -> Any:
        raise NotImplementedError("simdist's TensorArray has no variant components")

    def _from_components(self, components: Any) -> Any:
        raise NotImplementedError("simdist's TensorArray has no variant components")

    def is_subtype_of(self, other: Any) -> bool:
        return isinstance(other, TensorArraySpec) and self._dtype == other._dtype \
            and self._dynamic_size == other._dynamic_size

    def most_specific_common_supertype(self, others: Iterable[Any]) -> Any:
        # (TF 2.21 returns False, not None, when one of `others` is not a TensorArraySpec)
        others = list(others)
        if not all(isinstance(o, TensorArraySpec) for o in others):
            return False
        # TF 2.21 hands TensorShape.most_specific_common_supertype a generator, which its first check
        # consumes: the common element shape is self's (unknown rank stays unknown), whatever the others'
        shape = self._element_shape
        if not all(self._dtype == o._dtype for o in others):
            return None
        if not all(self._dynamic_size == o._dynamic_size for o in others):
            return None
        infer = self._infer_shape and all(o._infer_shape for o in others)
        return TensorArraySpec(shape, self._dtype, self._dynamic_size, infer)

    def is_compatible_with(self, other: Any) -> bool:
        # (TF leaves infer_shape out of the check)
        if not isinstance(other, TypeSpec):
            other = _spec_of(other)
        return isinstance(other, TensorArraySpec) and self._dtype == other._dtype \
            and self._element_shape.is_compatible_with(other._element_shape) \
            and self._dynamic_size == other._dynamic_size


class IndexedSlicesSpec(TypeSpec):
    """`tf.IndexedSlicesSpec(shape=None, dtype=tf.float32, indices_dtype=tf.int64, dense_shape_dtype=None,
    indices_shape=None)`."""

    __slots__ = ("_shape", "_values_dtype", "_indices_dtype", "_dense_shape_dtype", "_indices_shape")

    def __init__(self, shape: Any = None, dtype: Any = dtypes.float32, indices_dtype: Any = dtypes.int64,
                 dense_shape_dtype: Any = None, indices_shape: Any = None) -> None:
        self._shape = _as_shape(shape)
        self._values_dtype = dtypes.as_dtype(dtype)
        self._indices_dtype = dtypes.as_dtype(indices_dtype)
        self._dense_shape_dtype = None if dense_shape_dtype is None else dtypes.as_dtype(dense_shape_dtype)
        self._indices_shape = _as_shape(indices_shape).with_rank(1)

    @property
    def value_type(self) -> Any:
        from simdist.runtime.indexed_slices import IndexedSlices
        return IndexedSlices

    def _serialize(self) -> tuple:
        return (self._shape, self._values_dtype, self._indices_dtype, self._dense_shape_dtype, self._indices_shape)

    def _component_specs(self) -> Any:
        value_shape = self._indices_shape.concatenate(self._shape[1:] if self._shape.rank is not None
                                                      else TensorShape(None))
        specs = [TensorSpec(value_shape, self._values_dtype), TensorSpec(self._indices_shape, self._indices_dtype)]
        if self._dense_shape_dtype is not None:
            specs.append(TensorSpec([self._shape.rank], self._dense_shape_dtype))
        return tuple(specs)

    def _to_components(self, value: Any) -> Any:
        if value.dense_shape is None:
            return (value.values, value.indices)
        return (value.values, value.indices, value.dense_shape)

    def _from_components(self, components: Any) -> Any:
        from simdist.runtime.indexed_slices import IndexedSlices
        return IndexedSlices(*components)


class OptionalSpec(TypeSpec):
    """`tf.OptionalSpec(element_spec)`: the type of a `tf.experimental.Optional`."""

    __slots__ = ("_element_spec",)

    def __init__(self, element_spec: Any) -> None:
        self._element_spec = element_spec

    @property
    def value_type(self) -> Any:
        from simdist.runtime.data import Optional
        return Optional

    @staticmethod
    def from_value(value: Any) -> "OptionalSpec":
        return OptionalSpec(value.element_spec)

    def _serialize(self) -> tuple:
        return (self._element_spec,)

    def _component_specs(self) -> Any:
        return [TensorSpec((), dtypes.variant)]

    def _to_components(self, value: Any) -> Any:
        raise NotImplementedError("simdist's Optional has no variant components")

    def _from_components(self, components: Any) -> Any:
        raise NotImplementedError("simdist's Optional has no variant components")


class IteratorSpec(TypeSpec):
    """`tf.data.IteratorSpec(element_spec)`: the type of a tf.data iterator (TF 2.21's data/ops/iterator_ops.py;
    names44). Its one field is the element spec (it has no `element_spec` attribute: TF keeps `_element_spec`)."""

    __slots__ = ("_element_spec",)

    def __init__(self, element_spec: Any) -> None:
        self._element_spec = element_spec

    @property
    def value_type(self) -> Any:
        from simdist.runtime.data.iterators import OwnedIterator
        return OwnedIterator

    @staticmethod
    def from_value(value: Any) -> "IteratorSpec":
        return IteratorSpec(value.element_spec)

    def _serialize(self) -> tuple:
        return (self._element_spec,)

    def _component_specs(self) -> Any:
        return (TensorSpec([], dtypes.resource),)

    def _to_components(self, value: Any) -> Any:
        raise NotImplementedError("simdist's iterator has no resource components")

    def _from_components(self, components: Any) -> Any:
        raise NotImplementedError("simdist's iterator has no resource components")


class NoneTensor:
    """TF's NoneTensor: the composite value standing for None."""

    __slots__ = ()

    @property
    def _type_spec(self) -> "NoneTensorSpec":
        return NoneTensorSpec()


class NoneTensorSpec(TypeSpec):
    """`tf.NoneTensorSpec()`: the type of None inside composite structures."""

    __slots__ = ()

    @property
    def value_type(self) -> Any:
        return NoneTensor

    @staticmethod
    def from_value(value: Any) -> "NoneTensorSpec":
        return NoneTensorSpec()

    def _serialize(self) -> tuple:
        return ()

    def _component_specs(self) -> Any:
        return []

    def _to_components(self, value: Any) -> Any:
        return []

    def _from_components(self, components: Any) -> Any:
        return None

    def _batch(self, batch_size: Any) -> "NoneTensorSpec":
        return NoneTensorSpec()

    def _unbatch(self) -> "NoneTensorSpec":
        return NoneTensorSpec()


def register_virtual(*classes: type) -> None:
    """Make simdist's own spec classes (TensorSpec, SparseTensorSpec, RaggedTensorSpec) tf.TypeSpecs."""
    for c in classes:
        TypeSpec.register(c)
