"""Eager tensors backed by NumPy arrays, with TF's shapes, dtypes, printing and operator rules."""

from __future__ import annotations

import sys
from typing import Any, Iterable, Iterator

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.context import current_device
from simdist.runtime.cost import tally

_CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"

# The graph recorder of the tf.function call running now (simdist.runtime.graph), else None,
# and the code objects it allows to read a recorded tensor's value.
_REC: Any = None
_PERMIT: set[Any] = set()


class TensorShape:
    """A possibly partially known shape; `dims is None` means unknown rank."""

    __slots__ = ("_dims",)

    def __init__(self, dims: Iterable[int | None] | None) -> None:
        if dims is None:
            self._dims = None
        elif isinstance(dims, TensorShape):
            self._dims = dims._dims
        else:
            self._dims = tuple(None if d is None else int(d) for d in dims)

    @property
    def dims(self) -> list[int | None] | None:
        return None if self._dims is None else list(self._dims)

    @property
    def rank(self) -> int | None:
        return None if self._dims is None else len(self._dims)

    ndims = rank

    def as_list(self) -> list[int | None]:
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    def is_fully_defined(self) -> bool:
        return self._dims is not None and all(d is not None for d in self._dims)

    def num_elements(self) -> int | None:
        if not self.is_fully_defined():
            return None
        return int(np.prod(self._dims, dtype=np.int64)) if self._dims else 1

    def is_compatible_with(self, other: Any) -> bool:
        other = TensorShape(other)
        if self._dims is None or other._dims is None:
            return True
        if len(self._dims) != len(other._dims):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self._dims, other._dims))

    def concatenate(self, other: Any) -> "TensorShape":
        other = TensorShape(other)
        if self._dims is None or other._dims is None:
            return TensorShape(None)
        return TensorShape(self._dims + other._dims)

    def __len__(self) -> int:
        if self._dims is None:
            raise ValueError("Cannot take the length of shape with unknown rank.")
        return len(self._dims)

    def __iter__(self) -> Iterator[int | None]:
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self._dims)

    def __getitem__(self, key: Any) -> Any:
        if self._dims is None:
            return None if not isinstance(key, slice) else TensorShape(None)
        if isinstance(key, slice):
            return TensorShape(self._dims[key])
        return self._dims[key]

    def __eq__(self, other: Any) -> bool:
        try:
            other = TensorShape(other)
        except (TypeError, ValueError):
            return NotImplemented
        return self._dims == other._dims

    def __hash__(self) -> int:
        return hash(self._dims)

    def __repr__(self) -> str:
        if self._dims is None:
            return "TensorShape(None)"
        return f"TensorShape({list(self._dims)})"

    def __str__(self) -> str:
        if self._dims is None:
            return "<unknown>"
        if len(self._dims) == 1:
            return f"({self._dims[0]},)"
        return "(" + ", ".join(str(d) for d in self._dims) + ")"

    def __reduce__(self):
        return (TensorShape, (self._dims,))


class Tensor:
    """An immutable eager tensor: a NumPy array, a DType and the device it lives on."""

    __slots__ = ("_v", "dtype", "_device", "__weakref__")
    # Make NumPy defer to our reflected operators (ndarray + Tensor -> Tensor.__radd__).
    __array_priority__ = 100

    def __init__(self, value: np.ndarray, dtype: dtypes.DType, device: str = _CPU0) -> None:
        self._v = value
        self.dtype = dtype
        self._device = device
        if _REC is not None:
            _REC.created += 1

    # --- introspection -------------------------------------------------------------------
    @property
    def shape(self) -> TensorShape:
        return TensorShape(self._v.shape)

    @property
    def ndim(self) -> int:
        return self._v.ndim

    @property
    def device(self) -> str:
        return self._device

    def get_shape(self) -> TensorShape:
        return self.shape

    def numpy(self) -> Any:
        v = self._v
        if v.ndim == 0:
            return v[()]
        return v

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self._v if dtype is None else self._v.astype(dtype)

    def _numpy_text(self, is_repr: bool) -> str:
        v = self.numpy()
        if self.dtype is dtypes.string and self._v.ndim == 0:
            text = repr(v)
        elif self._v.ndim == 0:
            text = repr(v.item()) if is_repr else str(v.item())
            if self.dtype.is_floating and is_repr:
                text = repr(float(v))
            if self.dtype is dtypes.bool_:
                text = str(bool(v))
        else:
            text = repr(v) if is_repr else str(v)
        if "\n" in text:
            text = "\n" + text
        return text

    def __repr__(self) -> str:
        return f"<tf.Tensor: shape={self.shape}, dtype={self.dtype.name}, numpy={self._numpy_text(True)}>"

    def __str__(self) -> str:
        return f"tf.Tensor({self._numpy_text(False)}, shape={self.shape}, dtype={self.dtype.name})"

    def __hash__(self) -> int:
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")

    def ref(self) -> "TensorRef":
        return TensorRef(self)

    def __len__(self) -> int:
        if self._v.ndim == 0:
            raise TypeError("Scalar tensor has no `len()`")
        return self._v.shape[0]

    def __iter__(self) -> Iterator["Tensor"]:
        if self._v.ndim == 0:
            raise TypeError("Cannot iterate over a scalar tensor.")
        for row in self._v:
            yield Tensor(np.asarray(row), self.dtype, self._device)

    def __bool__(self) -> bool:
        if self._v.size != 1:
            raise ValueError("The truth value of an array with more than one element is ambiguous.")
        return bool(self._v)

    def __float__(self) -> float:
        return float(self._v)

    def __int__(self) -> int:
        return int(self._v)

    def __index__(self) -> int:
        if not self.dtype.is_integer:
            raise TypeError(f"Only integer tensors can be used as an index, got {self.dtype.name}")
        return int(self._v)

    def __getitem__(self, key: Any) -> "Tensor":
        if isinstance(key, Tensor):
            key = key._v[()] if key._v.ndim == 0 else key._v
        try:
            out = self._v[key]
        except IndexError as e:
            raise errors.InvalidArgumentError(None, None, f"{e} [Op:StridedSlice]") from None
        return Tensor(np.asarray(out), self.dtype, self._device)

    # --- arithmetic ------------------------------------------------------------------------
    def _bin(self, other: Any, fn: Any, opname: str, reflected: bool = False) -> "Tensor":
        dt = self.dtype
        o = _operand(other, dt, opname)
        try:
            out = fn(o, self._v) if reflected else fn(self._v, o)
        except ValueError:
            a, b = (o, self._v) if reflected else (self._v, o)
            sa, sb = list(np.shape(a)), list(np.shape(b))
            raise errors.InvalidArgumentError(
                None, None, f"Incompatible shapes: {sa} vs. {sb} [Op:{opname}]") from None
        if type(out) is not np.ndarray:
            out = np.asarray(out)   # a NumPy scalar from a 0-d op
        # (NumPy's builtin dtypes are singletons: the identity test skips a rich comparison)
        if out.dtype is not dt._np and out.dtype != dt._np and dt is not dtypes.string:
            out = out.astype(dt._np, copy=False)
        tally.flops += out.size
        if _REC is not None:
            return _REC.binop(Tensor(out, dt, current_device()), self, other, o, fn, reflected)
        return Tensor(out, dt, current_device())

    def __add__(self, o: Any) -> "Tensor":
        return self._bin(o, np.add, "AddV2")

    def __radd__(self, o: Any) -> "Tensor":
        return self._bin(o, np.add, "AddV2", True)

    def __sub__(self, o: Any) -> "Tensor":
        return self._bin(o, np.subtract, "Sub")

    def __rsub__(self, o: Any) -> "Tensor":
        return self._bin(o, np.subtract, "Sub", True)

    def __mul__(self, o: Any) -> "Tensor":
        return self._bin(o, np.multiply, "Mul")

    def __rmul__(self, o: Any) -> "Tensor":
        return self._bin(o, np.multiply, "Mul", True)

    def __floordiv__(self, o: Any) -> "Tensor":
        return self._bin(o, np.floor_divide, "FloorDiv")

    def __rfloordiv__(self, o: Any) -> "Tensor":
        return self._bin(o, np.floor_divide, "FloorDiv", True)

    def __mod__(self, o: Any) -> "Tensor":
        return self._bin(o, np.mod, "FloorMod")

    def __rmod__(self, o: Any) -> "Tensor":
        return self._bin(o, np.mod, "FloorMod", True)

    def __pow__(self, o: Any) -> "Tensor":
        return self._bin(o, np.power, "Pow")

    def __rpow__(self, o: Any) -> "Tensor":
        return self._bin(o, np.power, "Pow", True)

    def __truediv__(self, o: Any) -> "Tensor":
        return truediv(self, o)

    def __rtruediv__(self, o: Any) -> "Tensor":
        return truediv(convert_to_tensor(o, dtype_hint=self.dtype), self)

    def __matmul__(self, o: Any) -> "Tensor":
        from simdist.runtime import ops
        return ops.matmul(self, o)

    def __neg__(self) -> "Tensor":
        tally.flops += self._v.size
        return Tensor(np.negative(self._v), self.dtype, current_device())

    def __abs__(self) -> "Tensor":
        tally.flops += self._v.size
        return Tensor(np.abs(self._v), self.dtype, current_device())

    def _cmp(self, other: Any, fn: Any, opname: str) -> "Tensor":
        o = _operand(other, self.dtype, opname)
        out = np.asarray(fn(self._v, o))
        return Tensor(out, dtypes.bool_, current_device())

    def __lt__(self, o: Any) -> "Tensor":
        return self._cmp(o, np.less, "Less")

    def __le__(self, o: Any) -> "Tensor":
        return self._cmp(o, np.less_equal, "LessEqual")

    def __gt__(self, o: Any) -> "Tensor":
        return self._cmp(o, np.greater, "Greater")

    def __ge__(self, o: Any) -> "Tensor":
        return self._cmp(o, np.greater_equal, "GreaterEqual")

    def __eq__(self, o: Any) -> Any:  # type: ignore[override]
        if o is None:
            return False
        try:
            return self._cmp(o, np.equal, "Equal")
        except (TypeError, errors.InvalidArgumentError):
            return False

    def __ne__(self, o: Any) -> Any:  # type: ignore[override]
        if o is None:
            return True
        try:
            return self._cmp(o, np.not_equal, "NotEqual")
        except (TypeError, errors.InvalidArgumentError):
            return True

    def __reduce__(self):
        return (Tensor, (self._v, self.dtype, self._device))


class _Traced(Tensor):
    """A tensor made by a recorded op (see simdist.runtime.graph). While its call is being
    recorded, a read of its value by code other than a recorded op means the call depends on
    values the graph would not see again, and the recording is abandoned."""

    __slots__ = ("_a",)

    @property   # type: ignore[override]
    def _v(self) -> np.ndarray:
        rec = _REC
        if rec is not None and rec.live:
            f = sys._getframe(1)
            code = f.f_code
            if code not in _PERMIT and not (code is _operand.__code__ and f.f_back is not None
                                            and f.f_back.f_code is Tensor._bin.__code__):
                rec.invalidate(f"it reads a tensor's value in {code.co_name} ({code.co_filename}:{f.f_lineno})")
        return self._a

    @_v.setter
    def _v(self, value: np.ndarray) -> None:
        self._a = value


class TensorRef:
    """Hashable reference to a tensor (`tensor.ref()`)."""

    __slots__ = ("_t",)

    def __init__(self, t: Tensor) -> None:
        self._t = t

    def deref(self) -> Tensor:
        return self._t

    def __hash__(self) -> int:
        return id(self._t)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TensorRef) and other._t is self._t


def _operand(other: Any, dtype: dtypes.DType, opname: str) -> np.ndarray:
    """The NumPy operand for a binary op with a tensor of `dtype`, with TF's dtype check."""
    if not isinstance(other, Tensor):
        t = type(other)
        if (t is float and dtype._np.kind == "f") or (t is int and dtype._np.kind in "fiu"):
            return np.asarray(other, dtype=dtype._np)   # what convert_to_tensor gives, without its checks
        conv = getattr(other, "_as_tensor", None)
        if conv is None:
            return convert_to_tensor(other, dtype=dtype)._v
        other = conv()   # a variable: its value
        if not isinstance(other, Tensor):
            return _operand(other, dtype, opname)
    if other.dtype is not dtype and other.dtype != dtype:
        raise errors.InvalidArgumentError(
            None, None,
            f"cannot compute {opname} as input #1(zero-based) was expected to be a "
            f"{dtype.name} tensor but is a {other.dtype.name} tensor [Op:{opname}]")
    return other._v


def _to_numpy(value: Any, dtype: dtypes.DType | None) -> np.ndarray:
    if dtype is dtypes.string:
        arr = np.asarray(value, dtype=object)
        return np.vectorize(lambda s: s.encode() if isinstance(s, str) else s, otypes=[object])(arr) \
            if arr.size else arr
    if dtype is None:
        return np.asarray(value)
    if isinstance(value, (float, int)) and not isinstance(value, bool) and dtype.is_integer:
        if isinstance(value, float) and value != int(value):
            raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
    return np.asarray(value, dtype=dtype.np)


def convert_to_tensor(value: Any, dtype: Any = None, dtype_hint: Any = None, name: str | None = None) -> Tensor:
    """TF's `convert_to_tensor`: Python floats become float32, ints int32, arrays keep their dtype."""
    if isinstance(value, Tensor):
        if dtype is not None and dtypes.as_dtype(dtype) != value.dtype:
            raise ValueError(
                f"Tensor conversion requested dtype {dtypes.as_dtype(dtype).name} for Tensor with "
                f"dtype {value.dtype.name}: {value!r}")
        return value
    conv = getattr(value, "_as_tensor", None)
    if conv is not None:
        return convert_to_tensor(conv(), dtype=dtype)
    if isinstance(value, (list, tuple)) and any(isinstance(v, Tensor) or hasattr(v, "_as_tensor") for v in value):
        parts = [convert_to_tensor(v, dtype=dtype, dtype_hint=dtype_hint) for v in value]
        dt = parts[0].dtype
        return Tensor(np.stack([p._v for p in parts]), dt)
    if dtype is not None:
        dt = dtypes.as_dtype(dtype)
    elif isinstance(value, (np.ndarray, np.generic)):
        dt = dtypes.as_dtype(value.dtype)
    else:
        dt = dtypes.infer_dtype(value)
        if dtype_hint is not None:
            hint = dtypes.as_dtype(dtype_hint)
            if (hint.is_floating and dt in (dtypes.int32, dtypes.float32)) or hint == dt:
                dt = hint
    arr = _to_numpy(value, dt)
    if arr.dtype.kind in "US":
        dt = dtypes.string
        arr = _to_numpy(arr.tolist(), dt)
    return Tensor(arr, dt)


def truediv(x: Any, y: Any) -> Tensor:
    """TF's truediv: int8/16 and uint8/16 divide in float32, int32/int64 in float64."""
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, dtype=x.dtype) if not isinstance(y, Tensor) else y
    if y.dtype != x.dtype:
        raise TypeError(f"x and y must have the same dtype, got {x.dtype!r} != {y.dtype!r}")
    if x.dtype in (dtypes.int8, dtypes.int16, dtypes.uint8, dtypes.uint16):
        out_dt = dtypes.float32
    elif x.dtype in (dtypes.int32, dtypes.int64):
        out_dt = dtypes.float64
    else:
        out_dt = x.dtype
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.true_divide(x._v.astype(out_dt.np, copy=False), y._v.astype(out_dt.np, copy=False))
    tally.flops += np.size(out)
    return Tensor(np.asarray(out, dtype=out_dt.np), out_dt, current_device())


def as_numpy(value: Any) -> np.ndarray:
    """The NumPy array of a tensor, variable or array-like (no copy for tensors)."""
    if isinstance(value, Tensor):
        return value._v
    conv = getattr(value, "_as_tensor", None)
    if conv is not None:
        return conv()._v
    return np.asarray(value)
