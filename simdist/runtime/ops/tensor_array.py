"""`tf.TensorArray`: TF 2.21's eager TensorArray (tensor_array_ops.py `_EagerTensorArray`, read):
a list of tensors of one dtype with TF's checks.

- `write(i, v)`/`read(i)`/`stack()`/`unstack(v)`/`gather(ix)`/`scatter(ix, v)`/`concat()`/
  `split(v, lengths)`/`size()`/`close()`; the mutating methods return the TensorArray itself
  (TF returns its parent, the same object eagerly).
- A write of another dtype is InvalidArgumentError, a shape incompatible with `element_shape`
  (merged with each write when `infer_shape`) ValueError, an index < 0 or beyond a static size
  OutOfRangeError; `dynamic_size=True` grows the list. An unwritten slot reads as zeros of the
  element shape. With `clear_after_read` (the default) a read empties the slot and a second
  read of it is InvalidArgumentError (eagerly: an array made inside a tf.function is TF's
  TensorList there, whose reads keep the slot).
- Inside a tf.function simdist runs this same Python on the traced tensors (TF builds TensorList
  ops there, with the same values); reading an index given as a tensor reads its value.

Gradients flow through the ops it is made of (stack, unstack, concat, split, gather)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.context import in_function
from simdist.runtime.tensor import Tensor, TensorShape, convert_to_tensor

__all__ = ["TensorArray"]


def _index(i: Any) -> int:
    if isinstance(i, Tensor):
        return int(i.numpy())
    return int(i)


def _graph_bounds(what: str, index: int, size: int) -> None:
    """Inside a tf.function TF's TensorArray is a TensorList: a read (write) at an index outside [0, size) is the
    TensorListGetItem (SetItem) kernel's InvalidArgumentError, not the eager array's OutOfRangeError (fz52b)."""
    from simdist.runtime import context
    if context.in_function() and not 0 <= index < size:
        raise errors.InvalidArgumentError(None, None, f"Trying to {what} element {index} in a list with {size} "
                                          "elements.")


def _rows(value: Tensor) -> list[Tensor]:
    """value's rows, as TensorListFromTensor / TensorListScatter take them: their count read from the value, so a
    first dimension a traced graph does not know (an input_signature's None) is fine (tf.unstack without `num`
    refuses it; fz52b)."""
    from simdist.runtime.ops.array import unstack
    if value.ndim == 0:
        return unstack(value)   # (a scalar: unstack's own error)
    return unstack(value, num=int(value.shape[0]))


class TensorArray:
    """A dynamic-sized array of tensors of one dtype (eager semantics)."""

    def __init__(self, dtype: Any, size: Any = None, dynamic_size: bool | None = None,
                 clear_after_read: bool | None = None, tensor_array_name: str | None = None, handle: Any = None,
                 flow: Any = None, infer_shape: bool = True, element_shape: Any = None,
                 colocate_with_first_write_call: bool = True, name: str | None = None) -> None:
        if handle is not None:
            raise ValueError("TensorArray handles are not supported when eager execution is enabled.")
        if size is None:
            raise ValueError("Size must be declared for TensorArrays when eager execution is enabled.")
        self._flow = convert_to_tensor(0, dtype=dtypes.int32)
        self._infer_shape = infer_shape
        self._element_shape = TensorShape(element_shape) if not isinstance(element_shape, TensorShape) \
            else element_shape
        self._dtype = dtypes.as_dtype(dtype)
        self._dynamic_size = dynamic_size or False
        # (inside a tf.function TF builds a TensorList, whose reads keep the slot: clear_after_read is the eager
        # array's only)
        self._clear_after_read = (True if clear_after_read is None else clear_after_read) and not in_function()
        self._previously_read_indices: list[int] = []
        self._tensor_array: list[Tensor | None] = [None for _ in range(_index(size))]
        # (a graph's TensorList knows its length only from a size tensor_util.constant_value reads: `stack`)
        from simdist.runtime.ops import graph_constants
        self._known_size = not self._dynamic_size and graph_constants.python_constant(size)

    @property
    def flow(self) -> Tensor:
        """For compatibility; flows are not meaningful eagerly."""
        return self._flow

    @property
    def dtype(self) -> dtypes.DType:
        return self._dtype

    @property
    def handle(self) -> None:
        return None

    @property
    def element_shape(self) -> TensorShape:
        return self._element_shape

    @property
    def dynamic_size(self) -> bool:
        return self._dynamic_size

    def identity(self) -> "TensorArray":
        return self

    def read(self, index: Any, name: str | None = None) -> Tensor:
        index = _index(index)
        _graph_bounds("access", index, len(self._tensor_array))
        if index < 0:
            raise errors.OutOfRangeError(None, None, f"Reading from negative indices (index {index}) is not allowed.")
        if index >= len(self._tensor_array):
            raise errors.OutOfRangeError(None, None, f"Tried to read from index {index} but array size is: "
                                         f"{len(self._tensor_array)} ")
        tensor = self._tensor_array[index]
        if tensor is None:
            if index in self._previously_read_indices:
                raise errors.InvalidArgumentError(None, None, f"Could not read index {index} twice because it was "
                                                  "cleared after a previous read (perhaps try setting "
                                                  "clear_after_read = false?)")
            tensor = self._maybe_zero(index)
        if self._clear_after_read:
            self._tensor_array[index] = None
            self._previously_read_indices.append(index)
        return tensor

    def _write(self, index: Any, value: Any) -> None:
        index = _index(index)
        size = len(self._tensor_array)
        if index < 0 or not self._dynamic_size:
            _graph_bounds("modify", index, size)
        if index < 0:
            raise errors.OutOfRangeError(None, None, f"Writing to negative indices (index {index}) is not allowed.")
        if index >= size:
            if not self._dynamic_size:
                raise errors.OutOfRangeError(None, None, f"Tried to write to index {index} but array is not "
                                             f"resizeable and size is: {size} ")
            self._tensor_array.extend(None for _ in range(index - size + 1))
        if not isinstance(value, Tensor):
            value = convert_to_tensor(value, dtype_hint=self._dtype)
        if self._dtype != value.dtype:
            raise errors.InvalidArgumentError(None, None, f"TensorArray dtype is {self._dtype.name} but Op is trying "
                                              f"to write dtype {value.dtype.name} ")
        if not self._element_shape.is_compatible_with(value.shape):
            raise ValueError(f"Incompatible shape for value ({value.shape}), expected ({self._element_shape})")
        if self._infer_shape:
            self._element_shape = self._element_shape.merge_with(value.shape)
        self._tensor_array[index] = value

    def write(self, index: Any, value: Any, name: str | None = None) -> "TensorArray":
        self._write(index, value)
        return self

    def _maybe_zero(self, ix: int) -> Tensor:
        from simdist.runtime.ops.array import zeros
        val = self._tensor_array[ix]
        if val is None:
            if not self._element_shape.is_fully_defined():   # (TF's zeros(shape=element_shape) refuses it)
                raise ValueError(f"Cannot convert a partially known TensorShape {self._element_shape} to a Tensor.")
            val = self._tensor_array[ix] = zeros(shape=self._element_shape.as_list(), dtype=self._dtype)
        return val

    def stack(self, name: str | None = None) -> Tensor:
        """The elements stacked; inside a tf.function its first dimension is unknown to the graph unless the
        array's size is static (TF 2.21 _GraphTensorArrayV2.stack: TensorListStack's num_elements is
        constant_value(size) when not dynamic_size, else -1: `dynamic_size=True` or `size=x` give [None, ...])."""
        out = self._stacked()
        if in_function() and not self._known_size and out.ndim:
            from simdist.runtime.ops import static_shapes
            static_shapes.mark_dim(out, 0)
        return out

    def _stacked(self) -> Tensor:
        for ix in range(len(self._tensor_array)):
            self._maybe_zero(ix)
        if not self._tensor_array and self._element_shape.is_fully_defined():
            return convert_to_tensor(np.ndarray([0] + self._element_shape.as_list(), dtype=self._dtype.as_numpy_dtype),
                                     dtype=self._dtype)
        if not self._tensor_array:
            return convert_to_tensor([], dtype=self._dtype)
        # (TF's convert_to_tensor(list, dtype=self._dtype): elements of another dtype than the first one's, which an
        # unstack of Python values or a tensor of another dtype leaves, are cast to the array's dtype when the first
        # one's differs from it, else Pack refuses them; ops.tensor-array)
        return convert_to_tensor(self._tensor_array, dtype=self._dtype)

    def gather(self, indices: Any, name: str | None = None) -> Tensor:
        from simdist.runtime.ops.array import stack
        idx = indices.numpy() if isinstance(indices, Tensor) else indices
        from simdist.runtime import context
        if context.in_function():
            for i in np.asarray(idx).reshape(-1):
                if int(i) >= len(self._tensor_array):   # (TensorListGather's kernel; its message's typo is TF's)
                    raise errors.InvalidArgumentError(None, None, f"Index {int(i)} out o range; list only has "
                                                      f"{len(self._tensor_array)} elements.")
        return stack([self._maybe_zero(int(i)) for i in idx])

    def concat(self, name: str | None = None) -> Tensor:
        from simdist.runtime.ops.array import concat
        items = [self._maybe_zero(ix) for ix in range(len(self._tensor_array))]
        ndims = [t.shape.rank for t in items]
        if 0 in ndims:
            raise errors.InvalidArgumentError(None, None, f"Concat saw a scalar shape at index {ndims.index(0)} but "
                                              "requires at least vectors.")
        return concat(items, 0)

    def unstack(self, value: Any, name: str | None = None) -> "TensorArray":
        tensors = _rows(convert_to_tensor(value))
        if len(tensors) > len(self._tensor_array) and not self._dynamic_size:
            raise ValueError(f"Cannot unstack {len(tensors)} tensors into a TensorArray of static size "
                             f"{len(self._tensor_array)} ")
        self._tensor_array = list(tensors)
        return self

    def scatter(self, indices: Any, value: Any, name: str | None = None) -> "TensorArray":
        idx = indices.numpy() if isinstance(indices, Tensor) else indices
        for index, val in zip(idx, _rows(convert_to_tensor(value))):
            self._write(int(index), val)
        return self

    def split(self, value: Any, lengths: Any, name: str | None = None) -> "TensorArray":
        from simdist.runtime.ops.array import split
        value = convert_to_tensor(value, dtype_hint=self._dtype)
        if value.dtype != self._dtype:
            raise errors.InvalidArgumentError(None, None, f"TensorArray dtype is {self._dtype.name} but Op is trying "
                                              f"to write dtype {value.dtype.name} ")
        lengths = convert_to_tensor(lengths)
        if lengths.shape.rank != 1:
            raise errors.InvalidArgumentError(None, None, "Expected lengths to be a vector, received shape: "
                                              f"{lengths.shape.as_list()} ")
        if value.shape.rank == 0:
            raise errors.InvalidArgumentError(None, None, "Expected value to be at least a vector, but received "
                                              f"shape: {value.shape.as_list()} ")
        total = int(np.sum(lengths.numpy()))
        if total != value.shape.as_list()[0]:
            raise errors.InvalidArgumentError(None, None, "Expected sum of lengths to be equal to values.shape[0], "
                                              f"but sum of lengths is {total} and value's shape is: "
                                              f"{value.shape.as_list()} ")
        if not self._dynamic_size and lengths.shape[0] != len(self._tensor_array):
            raise errors.InvalidArgumentError(None, None, "TensorArray's size is not equal to the size of lengths "
                                              f"({len(self._tensor_array)} vs. {lengths.shape[0]}), and the "
                                              "TensorArray is not marked as dynamically resizeable.")
        self._tensor_array = list(split(value, lengths))
        return self

    def size(self, name: str | None = None) -> Tensor:
        return convert_to_tensor(len(self._tensor_array), dtype=dtypes.int32)

    def close(self, name: str | None = None) -> None:
        del self._tensor_array[:]
