"""Eager tensors backed by NumPy arrays, with TF's shapes, dtypes, printing and operator rules."""

from __future__ import annotations

import functools
import operator
import sys
from threading import get_ident as _thread_id
from typing import Any, Iterable, Iterator

import numpy as np

from simdist.runtime import conversion_registry as _conversion_registry
from simdist.runtime import convert, dtypes, execution, subnormals
from simdist.runtime.dimension import Dimension
from simdist.runtime import symbolic as _symbolic
from simdist.runtime import runtime_config as _runtime_config
from simdist.runtime import resource_handle as _resource_handle

_RESOURCE = dtypes.resource

_CPU0 = "/job:localhost/replica:0/task:0/device:CPU:0"

# The recorder of a tf.function call being recorded in the process (on any thread), else None:
# Tensor() counts the tensors made while it records, and notes those made by another thread
# (see runtime/graph/recording.py). Told by the execution context (execution.begin_recording); read here only.
_REC: Any = None
_SYM_DEPTH = _symbolic.DEPTH
_FRESH = _runtime_config.FRESH
_SYM_CHECK = _symbolic.check_tensor


def _recording(rec: Any) -> None:
    global _REC
    _REC = rec


execution.on_recording(_recording)
_current = execution._current

# id(tensor) -> (weak reference to it, one flag per dimension: True where the traced graph does not
# know it, and whether it does not know the rank): the marks of runtime/ops/static_shapes.py, kept
# here so that `shape` can answer user code as TF's graph tensors do (clause function.symbolic-tensors)
STATIC_UNKNOWN: dict[int, tuple[Any, tuple[bool, ...], bool]] = {}


def _graph_shape(t: Any, concrete: tuple) -> TensorShape:
    """t's shape for the code reading `t.shape` (two frames up): inside a running tf.function, user
    code sees the graph's static shape (None where the input_signature or an op's shape function
    leaves a dimension unknown, TensorShape(None) for an unknown rank); simdist's own code the
    concrete one."""
    entry = STATIC_UNKNOWN.get(id(t))
    if entry is None or entry[0]() is not t:
        return TensorShape._of_array(concrete)
    name = sys._getframe(2).f_globals.get("__name__", "")
    if name.startswith("simdist.") and not name.startswith("simdist.conformance.suite"):
        return TensorShape._of_array(concrete)
    if entry[2]:
        return TensorShape(None)
    return TensorShape([None if u else d for d, u in zip(concrete, entry[1])])


def user_reads(depth: int) -> bool:
    """Whether the code `depth` frames up is user code (not simdist's own, which reads concrete shapes:
    `_graph_shape`'s rule for the static shapes of composites, ops/composite_shapes.py)."""
    name = sys._getframe(depth + 1).f_globals.get("__name__", "")
    return not name.startswith("simdist.") or name.startswith("simdist.conformance.suite")


def _dimension(d: Any) -> int | None:
    """One dimension as TF's Dimension takes it: None, or an integer (anything with __index__) >= 0;
    a float or string is TypeError, a negative ValueError (`tf.TensorShape([1, -1])`; fz4 seed 11 #185)."""
    if d is None:
        return None
    inner = getattr(d, "value", d) if type(d).__name__ == "Dimension" else d
    if inner is None:
        return None
    try:
        v = operator.index(inner)
    except TypeError:
        raise TypeError(f"Dimension value must be integer or None or have an __index__ method, got value "
                        f"'{inner!r}' with type '{type(inner)!r}'") from None
    if v < 0:
        raise ValueError(f"Dimension {v} must be >= 0")
    return v


class TensorShape:
    """A possibly partially known shape; `dims is None` means unknown rank."""

    __slots__ = ("_dims",)

    @classmethod
    def _of_array(cls, shape: tuple[int, ...]) -> "TensorShape":
        """The shape of a NumPy array (a tuple of Python ints already): no per-dimension
        conversion, for the hot path of `Tensor.shape`."""
        s = cls.__new__(cls)
        s._dims = shape
        return s

    def __init__(self, dims: Iterable[int | None] | None) -> None:
        if dims is None:
            self._dims = None
        elif isinstance(dims, TensorShape):
            self._dims = dims._dims
        else:
            try:
                items = list(dims)
            except TypeError:   # (TF: a single dimension)
                items = [dims]
            self._dims = tuple(_dimension(d) for d in items)

    @property
    def dims(self) -> list[Dimension] | None:
        """The dimensions as Dimension objects (TF 2.21's `dims`; iteration and indexing give ints)."""
        return None if self._dims is None else [Dimension(d) for d in self._dims]

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

    def merge_with(self, other: Any) -> "TensorShape":
        """The shape both are (each dimension the known one); TF's ValueError when incompatible."""
        other = TensorShape(other)
        if self._dims is None:
            return other
        if other._dims is None:
            return self
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        return TensorShape([a if a is not None else b for a, b in zip(self._dims, other._dims)])

    def with_rank(self, rank: int) -> "TensorShape":
        """This shape if it has (or may have) `rank` dimensions; else TF's ValueError."""
        if self._dims is None:
            return TensorShape([None] * rank)
        if len(self._dims) != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")
        return self

    def with_rank_at_least(self, rank: int) -> "TensorShape":
        """This shape if it has (or may have) at least `rank` dimensions; else TF's ValueError."""
        if self._dims is not None and len(self._dims) < rank:
            raise ValueError(f"Shape {self} must have rank at least {rank}")
        return self

    def assert_has_rank(self, rank: int) -> None:
        """TF's TensorShape.assert_has_rank: ValueError unless the rank is `rank` or unknown."""
        if self._dims is not None and len(self._dims) != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")

    def assert_is_compatible_with(self, other: Any) -> None:
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are incompatible")

    def with_rank_at_most(self, rank: int) -> "TensorShape":
        """This shape if it has (or may have) at most `rank` dimensions; else TF's ValueError."""
        if self._dims is not None and len(self._dims) > rank:
            raise ValueError(f"Shape {self} must have rank at most {rank}")
        return self

    def assert_is_fully_defined(self) -> None:
        if not self.is_fully_defined():
            raise ValueError(f"Shape {self} is not fully defined")

    def assert_same_rank(self, other: Any) -> None:
        """ValueError unless both ranks are known and equal, or either is unknown."""
        other = TensorShape(other)
        if self._dims is not None and other._dims is not None and len(self._dims) != len(other._dims):
            raise ValueError(f"Shapes {self} and {other} must have the same rank")

    def most_specific_compatible_shape(self, other: Any) -> "TensorShape":
        """The most specific shape compatible with both: each dimension where they agree, None where
        they differ; unknown rank where the ranks differ or either is unknown."""
        other = TensorShape(other)
        if self._dims is None or other._dims is None or len(self._dims) != len(other._dims):
            return TensorShape(None)
        return TensorShape([a if a == b else None for a, b in zip(self._dims, other._dims)])

    def __bool__(self) -> bool:
        """TF's: whether the rank is known (a scalar's shape is True)."""
        return self._dims is not None

    def concatenate(self, other: Any) -> "TensorShape":
        other = TensorShape(other)
        if self._dims is None or other._dims is None:
            return TensorShape(None)
        return TensorShape(self._dims + other._dims)

    def __add__(self, other: Any) -> "TensorShape":
        # (TF: `shape + [3]` and `[1] + shape` concatenate; an int is a one-dimension shape)
        return self.concatenate([other] if isinstance(other, int) else other)

    def __radd__(self, other: Any) -> "TensorShape":
        return TensorShape([other] if isinstance(other, int) else other).concatenate(self)

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


def eager_undefined(name: str) -> property:
    """A graph-only attribute of TF's eager tensors (and variables): AttributeError "Tensor.<name> is
    undefined when eager execution is enabled." (TF's ops.py EagerTensor and BaseResourceVariable)."""
    def undefined(self: Any) -> Any:
        raise AttributeError(f"Tensor.{name} is undefined when eager execution is enabled.")
    return property(undefined)


class Tensor:
    """An immutable eager tensor: a NumPy array, a DType and the device it lives on."""

    # _sub: the value may hold subnormal floats (made outside an op, or moved by ops that keep them):
    # ops that compute read it with them flushed to zero, as TF's kernels do (runtime/ops/subnormals.py)
    # _slice_of: (variable, key) when the tensor is `variable[key]`, whose `.assign` writes the
    # slice back (variables.Variable._slice_assign); unset for every other tensor
    # _keras_mask, _keras_logits: what Keras hangs on a tensor with setattr (a layer's output mask,
    # the logits a softmax came from); unset unless Keras set them, so reading one is AttributeError
    # as on TF's EagerTensor (Keras's masking guide prints `output._keras_mask`)
    __slots__ = ("_v", "dtype", "_device", "_sub", "_slice_of", "_keras_mask", "_keras_logits", "__weakref__")
    # Make NumPy defer to our reflected operators (ndarray + Tensor -> Tensor.__radd__).
    __array_priority__ = 100

    def __init__(self, value: np.ndarray, dtype: dtypes.DType, device: str = _CPU0) -> None:
        self._v = value
        self.dtype = dtype
        self._device = device
        self._sub = False
        if _FRESH[0]:       # the first tensor initialises TF's runtime (runtime/runtime_config.py)
            _runtime_config.initialize()
        if _SYM_DEPTH[0]:   # (made while a tf.function's Python runs: a graph tensor there, runtime/symbolic.py)
            _symbolic.note(self)
        if _REC is not None:    # (a call being recorded: see runtime/graph/recording.py)
            _REC.created += 1
            if _REC.thread != _thread_id():
                _REC.other_thread()

    # --- introspection -------------------------------------------------------------------
    @property
    def shape(self) -> TensorShape:
        if _SYM_DEPTH[0] and STATIC_UNKNOWN and id(self) in STATIC_UNKNOWN:
            return _graph_shape(self, self._v.shape)
        return TensorShape._of_array(self._v.shape)

    @property
    def ndim(self) -> int:
        """The rank; inside a tf.function user code reads the graph's, -1 where it is unknown (TF 2.21's
        symbolic `Tensor.ndim` is the C API's rank, -1 for an unknown one: `x.ndim` of a TensorSpec(None)
        argument returned is the tensor -1; fz37b, fourth generator seed 3702 #174)."""
        if _SYM_DEPTH[0] and STATIC_UNKNOWN and id(self) in STATIC_UNKNOWN:
            rank = _graph_shape(self, self._v.shape).rank
            return -1 if rank is None else rank
        return self._v.ndim

    @property
    def device(self) -> str:
        return self._device

    def set_shape(self, shape: Any) -> None:
        """TF's `set_shape`: ValueError when `shape` is not compatible with the tensor's shape; in a
        traced function (a tf.function's or a tf.data function's graph) it refines the static shape:
        the dimensions `shape` knows become known (static_shapes.refine)."""
        shape = TensorShape(shape)
        own = self.get_shape()
        if not own.is_compatible_with(shape):
            raise ValueError(f"Tensor's shape {own} is not compatible with supplied shape {shape}.")
        if shape.rank is not None and (_SYM_DEPTH[0] or type(self) is _Traced):
            from simdist.runtime.ops import static_shapes   # (the graph's shapes live there)
            static_shapes.refine(self, shape.as_list())

    def get_shape(self) -> TensorShape:
        if _SYM_DEPTH[0] and STATIC_UNKNOWN and id(self) in STATIC_UNKNOWN:
            return _graph_shape(self, self._v.shape)
        return TensorShape._of_array(self._v.shape)

    def numpy(self) -> Any:
        """A copy of the value (TF's EagerTensor.numpy: `_numpy().copy()`, as tensors are
        immutable), or a NumPy scalar for a 0-d tensor: writing into it changes no tensor."""
        if _SYM_DEPTH[0]:
            _SYM_CHECK(self, "numpy")
        v = self._v
        if v.ndim == 0:
            if self.dtype is _RESOURCE:   # (a handle: runtime/resource_handle.py)
                raise _resource_handle.numpy_refusal()
            return v[()]
        return v.copy()

    def __dlpack__(self, stream: Any = None, **kwargs: Any) -> Any:
        """The DLPack protocol (TF's EagerTensor has it: `np.from_dlpack(tensor)`): the buffer's capsule."""
        return np.asarray(self.numpy(), order="C").__dlpack__()

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)   # (kDLCPU, device 0)

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        """TF's EagerTensor.__array__: its `_numpy()` (a NumPy scalar for a 0-d tensor), or
        `np.array(value, dtype)`. NumPy itself reads `__array_interface__` first."""
        if _SYM_DEPTH[0]:
            _SYM_CHECK(self, "array")
        v = self._v
        if v.dtype.hasobject and self.dtype is _RESOURCE:
            raise _resource_handle.numpy_refusal()
        if dtype is not None:
            return v.astype(dtype)
        return v[()] if v.ndim == 0 else v

    @property
    def __array_interface__(self) -> dict:
        """NumPy's view of the value (TF's EagerTensor gives NumPy its buffer, so `np.asarray` of a
        0-d tensor is a 0-d array although `__array__()` is a scalar); a dtype the buffer cannot
        describe (bfloat16, a user dtype) goes through `__array__`, so a 0-d one is NumPy's ValueError
        "object __array__ method not producing an array", as in TF 2.21."""
        if _SYM_DEPTH[0]:
            _SYM_CHECK(self, "array")
        v = self._v
        if v.dtype.isbuiltin != 1 or self.dtype is _RESOURCE:   # (a handle: __array__'s refusal)
            raise AttributeError("__array_interface__")
        face = v.__array_interface__
        if face.get("data") is not None:   # (read-only, as TF's buffer: np.asarray(t) cannot write into t)
            face["data"] = (face["data"][0], True)
        return face

    def _numpy_text(self, is_repr: bool) -> str:
        if self.dtype is _RESOURCE:   # (TF prints the handle's DebugString)
            return repr(self._v[()])
        v = self.numpy()
        if self.dtype is dtypes.string and self._v.ndim == 0:
            text = repr(v)
        elif self._v.ndim == 0:
            # TF's ops.numpy_text: repr of the scalar's .item(), str of the NumPy scalar itself
            # (a float32 0.1 prints 0.1, not the float64 0.10000000149011612)
            text = repr(v.item()) if is_repr else str(v)
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
        if _symbolic._MARKS:
            text = _symbolic.graph_text(self, True)
            if text is not None:
                return text
        # (a resource tensor's value is no NumPy value: TF prints `value=`)
        return f"<tf.Tensor: shape={self.shape}, dtype={self.dtype.name}, " \
            f"{'value' if self.dtype is _RESOURCE else 'numpy'}={self._numpy_text(True)}>"

    def __str__(self) -> str:
        if _symbolic._MARKS:
            text = _symbolic.graph_text(self, False)
            if text is not None:
                return text
        return f"tf.Tensor({self._numpy_text(False)}, shape={self.shape}, dtype={self.dtype.name})"

    def __format__(self, format_spec: str) -> str:
        """TF's EagerTensor.__format__: the NumPy value's own format, so `f"{loss:.4f}"` works on a
        scalar and `f"{x}"` of a float32 scalar prints the Python float (0.10000000149011612, not
        str's 0.1); an array takes only the empty spec. A graph tensor (a tf.function's trace)
        formats as object does: its str, any other spec TypeError. Clause tensor.printing."""
        if _symbolic._MARKS:
            text = _symbolic.graph_text(self, False)
            if text is not None:
                if format_spec:
                    raise TypeError("unsupported format string passed to SymbolicTensor.__format__")
                return text
        return self.numpy().__format__(format_spec)

    def __hash__(self) -> int:
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")

    def ref(self) -> "TensorRef":
        return TensorRef(self)

    experimental_ref = ref   # (TF's deprecated spelling of ref())

    # --- graph-only introspection, and TF's eager stand-ins (EagerTensor, ops.py _EagerTensorBase) ---
    @property
    def name(self) -> str:
        """A graph tensor's "x:0", "mul_1:0" (runtime/graph_names.py); an eager tensor has no name (TF's
        AttributeError)."""
        text = _symbolic.graph_text(self, True) if _symbolic._MARKS else None
        if text is not None:
            return text.split("'")[1]
        raise AttributeError("Tensor.name is undefined when eager execution is enabled.")

    op = eager_undefined("op")
    graph = eager_undefined("graph")
    value_index = eager_undefined("value_index")

    def consumers(self) -> Any:
        raise NotImplementedError("Tensor.consumers is undefined when eager execution is enabled.")

    def eval(self, feed_dict: Any = None, session: Any = None) -> Any:
        raise NotImplementedError("eval is not supported when eager execution is enabled, is .numpy() what you're "
                                  "looking for?")

    @property
    def backing_device(self) -> str:
        """The device holding the tensor's buffer (its `device` on a CPU host)."""
        return self._device

    @property
    def is_packed(self) -> bool:
        return False

    def cpu(self) -> "Tensor":
        """TF's deprecated copy to CPU:0 (tf.identity under a CPU device scope)."""
        return Tensor(self._v, self.dtype, _CPU0)

    def __copy__(self) -> "Tensor":
        return self   # (an immutable tensor: TF's copy.copy and copy.deepcopy give it back)

    def __deepcopy__(self, memo: Any) -> "Tensor":
        return self

    def __complex__(self) -> complex:
        if _SYM_DEPTH[0]:
            _SYM_CHECK(self, "complex")
        return complex(self._v)   # (NumPy's: "only 0-dimensional arrays can be converted to Python scalars")

    def __len__(self) -> int:
        if _SYM_DEPTH[0]:
            _SYM_CHECK(self, "len")
        if self._v.ndim == 0:
            raise TypeError("Scalar tensor has no `len()`")
        return self._v.shape[0]

    def __bool__(self) -> bool:
        if _SYM_DEPTH[0]:
            _SYM_CHECK(self, "bool")
            _symbolic.dry_truth()   # (a Python loop on a dry run's placeholder values may never end)
        if self._v.size != 1:   # (TF's __bool__: `bool(x.size > 0 and x)`, so an empty tensor is False)
            if self._v.size == 0:
                return False
            raise ValueError("The truth value of an array with more than one element is ambiguous. Use a.any() or "
                             "a.all()")
        return bool(self._v)

    def __float__(self) -> float:
        if _SYM_DEPTH[0]:
            _SYM_CHECK(self, "float")
        v = self._v
        return float(v[()] if v.ndim == 0 else v)   # (TF: float of the NumPy scalar; a complex one's real part)

    def __int__(self) -> int:
        if _SYM_DEPTH[0]:
            _SYM_CHECK(self, "int")
        v = self._v
        return int(v[()] if v.ndim == 0 else v)   # (TF: int of the NumPy scalar; a complex one's real part)

    def __index__(self) -> int:
        if _SYM_DEPTH[0]:
            _SYM_CHECK(self, "index")
        # (TF's EagerTensor.__index__ is `self._numpy().__index__()`: a tensor of rank >= 1 is NumPy's TypeError, a
        # float/bool/string scalar's NumPy item has no __index__ — AttributeError, as `fp * "0.5"` (str's
        # __rmul__ asking the tensor for an index) raises in Keras's Tversky; asweep65, fix65k)
        v = np.asarray(self._v)
        if v.ndim:
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return v[()].__index__()

    def __reduce__(self):
        return (Tensor, (self._v, self.dtype, self._device))

    def __round__(self, ndigits: Any = None) -> Any:
        # (TF's tensor __round__ is NumPy's, which asks the tensor for `astype`: AttributeError)
        raise AttributeError(f"{type(self).__name__} object has no attribute 'astype'. If you are looking for "
                             "numpy-related methods, please run the following: tf.experimental.numpy."
                             "experimental_enable_numpy_behavior()")

    def __getattr__(self, name: str) -> Any:
        # (only for attributes the class does not have) TF's `variable[key].assign(value)`: the
        # slice of a variable carries an `assign` (array_ops._SliceHelperVar); no other tensor does
        if name == "assign":
            try:
                var, key = Tensor._slice_of.__get__(self, Tensor)
            except AttributeError:
                pass
            else:
                return functools.partial(var._slice_assign, key)
        if name in _GRAPH_ONLY:   # (a property of the class raised: TF's eager text, not Python's)
            raise AttributeError(f"Tensor.{name} is undefined when eager execution is enabled.")
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")


_GRAPH_ONLY = frozenset({"name", "op", "graph", "value_index"})


class _Traced(Tensor):
    """A tensor made by a recorded op (see simdist.runtime.graph). While its call is being
    recorded, any read of its value other than by a recorded op (which read it through
    `dispatch.raw`) means the call depends on values the graph would not see again (`numpy()`,
    `bool()`, printing, code reading `_v`), and the recording is abandoned, unless the value
    is the same in every replay (a constant, or computed from constants and shapes only)."""

    __slots__ = ("_a",)

    @property   # type: ignore[override]
    def _v(self) -> np.ndarray:
        rec = _current.ctx.recorder
        if rec is not None and rec.live and not rec.is_constant(self):
            f = sys._getframe(1)
            rec.invalidate(f"it reads a tensor's value in {f.f_code.co_name} ({f.f_code.co_filename}:{f.f_lineno})")
        return self._a

    @_v.setter
    def _v(self, value: np.ndarray) -> None:
        self._a = value

    # (a traced graph knows its static shapes too)
    @property
    def shape(self) -> TensorShape:
        if _SYM_DEPTH[0] and STATIC_UNKNOWN and id(self) in STATIC_UNKNOWN:
            return _graph_shape(self, self._a.shape)
        return TensorShape._of_array(self._a.shape)

    @property
    def ndim(self) -> int:
        if _SYM_DEPTH[0] and STATIC_UNKNOWN and id(self) in STATIC_UNKNOWN:   # (Tensor.ndim's rule)
            rank = _graph_shape(self, self._a.shape).rank
            return -1 if rank is None else rank
        return self._a.ndim

    def __len__(self) -> int:
        if _SYM_DEPTH[0]:
            _SYM_CHECK(self, "len")
        if self._a.ndim == 0:
            raise TypeError("Scalar tensor has no `len()`")
        return self._a.shape[0]


class TensorRef:
    """Hashable reference to a tensor or variable (`x.ref()`, TF's `Reference`)."""

    __slots__ = ("_t",)

    def __init__(self, t: Tensor) -> None:
        self._t = t

    def deref(self) -> Tensor:
        return self._t

    def __hash__(self) -> int:
        return id(self._t)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TensorRef) and other._t is self._t

    def __repr__(self) -> str:
        return f"<Reference wrapping {self._t!r}>"


def variable_conversion(v: Any, dtype: dtypes.DType) -> None:
    """A variable converted to `dtype` (convert_to_tensor with a dtype, an op's eager fallback): another
    dtype is its conversion function's ValueError, before any read (resource_variable_ops.py
    _dense_var_to_tensor; values.py's for distributed variables: the same text). Clause ops.conversion."""
    from simdist.runtime.variables import Variable
    if isinstance(v, Variable) and v.dtype != dtype:
        raise ValueError(f"Incompatible type conversion requested to type {dtype.name} for `tf.Variable of "
                         f"type {v.dtype.name}. (Variable: {v!r})")


def convert_to_tensor(value: Any, dtype: Any = None, dtype_hint: Any = None, name: str | None = None) -> Tensor:
    """TF's `convert_to_tensor`: Python floats become float32, ints int32, arrays keep their dtype."""
    if isinstance(value, Tensor):
        if dtype_hint is not None:   # (tensor_conversion_registry.convert reads the preferred dtype first: a hint that
            dtypes.as_dtype(dtype_hint)   # is no dtype is as_dtype's TypeError, whatever the value; fz62, seed 62402)
        if dtype is not None and dtypes.as_dtype(dtype) != value.dtype:
            if _current.ctx.recorder is not None and execution.eager_tensor(value):
                # (EagerTensor.__tf_tensor__ inside a function graph captures the tensor and returns
                # the capture, before convert() would check the dtype: ops.py; observed on TF 2.21,
                # `tf.convert_to_tensor(float32 tensor, dtype=tf.int32)` in a tf.function is that
                # float32 tensor. Clause ops.conversion)
                return value
            # (tensor_conversion_registry's _add_error_prefix: a given name leads the message)
            raise ValueError(("" if name is None else f"{name}: ") +
                             f"Tensor conversion requested dtype {dtypes.as_dtype(dtype).name} for Tensor with "
                             f"dtype {value.dtype.name}: {value!r}")
        return value
    conv = getattr(value, "_as_tensor", None)
    if conv is not None:
        if dtype is not None:
            variable_conversion(value, dtypes.as_dtype(dtype))
        return convert_to_tensor(conv(), dtype=dtype)
    tf_tensor = getattr(type(value), "__tf_tensor__", None)
    if tf_tensor is not None:   # (TF's protocol, before the registry: runtime/conversion_registry.py)
        return value.__tf_tensor__(dtype, name)
    dist = getattr(type(value), "_distributed_to_tensor", None)
    if dist is not None:   # (TF's registered functions of PerReplica and Mirrored: runtime/values.py)
        return value._distributed_to_tensor(dtype, dtype_hint, name)
    if _conversion_registry.registered() and not isinstance(value, _conversion_registry._builtin()):
        # (tf.register_tensor_conversion_function's functions for the value's type: names44)
        converted = _conversion_registry.convert(value, dtype, name, dtype_hint)
        if converted is not None:
            return converted
    if type(value).__name__ == "TensorProto" and _in_function():
        return graph_tensor_proto(value, dtype, dtype_hint, name)
    if (dtype is _RESOURCE or dtype is dtypes.variant) and not (isinstance(value, (list, tuple)) and any(
            isinstance(v, Tensor) for v in value)):   # (no value but a handle is one: constant_op's TypeError)
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
    if type(value) is Dimension:   # (constant_op._dimension_tensor_conversion_function)
        if value.value is None:
            raise ValueError(f"Cannot convert unknown Dimension {value} to a Tensor.")
        if dtype is not None and dtypes.as_dtype(dtype) not in (dtypes.int32, dtypes.int64):
            raise TypeError(f"Cannot convert Dimension {value} to dtype <dtype: '{dtypes.as_dtype(dtype).name}'>. Allowed dtypes "
                            "are tf.int32 and tf.int64.")
        value, dtype = value.value, dtype or dtypes.int32
    if type(value) is TensorShape:
        value, dtype = _shape_as_list(value, dtype)
    if name is not None:   # (a Const node of that name in a graph: constant_op)
        from simdist.runtime.ops import trace_errors
        trace_errors.const_node_name(name)
    if isinstance(value, (list, tuple)) and (any(isinstance(v, Tensor) or hasattr(v, "_as_tensor") for v in value)
                                             or _first_tensor_dtype(value) is not None):
        from simdist.runtime.ops import array
        # TF's autopacking: the list's dtype is its first tensor's and Python values convert to
        # it (ops.conversion)
        packed = _first_tensor_dtype(value)
        if dtype is None and dtype_hint is not None and dtypes.as_dtype(dtype_hint) != packed:
            try:   # TF's preferred_dtype: autopacking with the hint as its dtype, dropped on TypeError/ValueError
                return _autopack_cast(value, dtypes.as_dtype(dtype_hint))
            except (TypeError, ValueError):
                pass
            except Exception as e:  # noqa: BLE001 - an OpError is re-raised unless marked below
                # (in a graph the Pack's shape function raises ValueError, which drops the hint too:
                # `[bool tensor [1], 1]` with an int hint goes on to the bool conversion's TypeError;
                # fz31b, fz4 seed 3101 #161)
                from simdist.runtime import context
                from simdist.runtime.ops import trace_errors
                from simdist.runtime import errors
                if not isinstance(e, errors.OpError) or not context.in_function() or \
                        not isinstance(trace_errors.at_trace(e), (TypeError, ValueError)):
                    raise
        if dtype is None or dtypes.as_dtype(dtype) == packed:
            return _autopack(value, packed)
        return _autopack_cast(value, dtypes.as_dtype(dtype))
    arr, dt = convert.to_array(value, None if dtype is None else dtypes.as_dtype(dtype),
                               None if dtype_hint is None else dtypes.as_dtype(dtype_hint))
    # (placed as tf.constant places it: TF's convert_to_eager_tensor makes `EagerTensor(value, ctx.device_name)`,
    # the innermost device scope's device, else the context's default (a chief's CPU once a cluster is connected);
    # kfuzz51: simdist put every converted value on localhost's CPU:0. Clause ops.conversion)
    t = Tensor(arr, dt, _converted_device())
    if arr.dtype in subnormals.FLUSHED_TYPES or arr.dtype.kind == "c":
        subnormals.mark_made(t)   # (TF's kernels will read its subnormals as zeros)
    rec = _current.ctx.recorder
    if rec is not None:    # a Const node of the call being recorded
        return rec.constant(t)
    return t


def _converted_device() -> str:
    """The device a converted Python or NumPy value is placed on: context.current_device()."""
    from simdist.runtime import context
    return context.current_device()


def _in_function() -> bool:
    from simdist.runtime import context
    return context.in_function()


def _constant_tensor_conversion_function(v: Any, dtype: Any = None, name: Any = None, as_ref: bool = False) -> Any:
    """TF's conversion function of any Python object (constant_op.py), named in the RuntimeError of a TensorProto
    converted to another dtype (graph_tensor_proto)."""
    return convert_to_tensor(v, dtype=dtype, name=name)


def graph_tensor_proto(value: Any, dtype: Any, dtype_hint: Any, name: Any) -> Tensor:
    """A TensorProto converted inside a tf.function: a graph's make_tensor_proto returns a TensorProto as it is, so
    the Const node holds its value and dtype (constant_op._constant_impl), whatever dtype was asked; then
    tensor_conversion_registry.convert refuses a dtype or a preferred dtype (dtype_hint, an op's other input's
    dtype) other than the proto's with RuntimeError "... returned incompatible dtype: requested = float64,
    actual = float32" (prefixed by the input's name). Eagerly the EagerTensor conversion refuses any TensorProto
    (ValueError "Attempt to convert a value ... with an unsupported type"). Observed on TF 2.21 (fz50, fz14 seed
    1420503001 #183: `tf.linalg.l2_normalize(tf.make_tensor_proto(...))` in a tf.function computes). Clause
    ops.tensor-proto."""
    from simdist.runtime.tensor_proto_message import make_ndarray
    dt = dtypes.as_dtype(value.dtype)
    for want in (dtype, None if dtype is not None else dtype_hint):
        if want is not None and dtypes.as_dtype(want).base_dtype != dt:
            raise RuntimeError(("" if name is None else f"{name}: ") +
                               f"Conversion function {_constant_tensor_conversion_function!r} for type <class "
                               f"'object'> returned incompatible dtype: requested = {dtypes.as_dtype(want).name}, "
                               f"actual = {dt.name}")
    arr = make_ndarray(value)
    t = Tensor(arr if dt is dtypes.string else arr.astype(dt._np, copy=False), dt)
    if arr.dtype in subnormals.FLUSHED_TYPES or arr.dtype.kind == "c":
        subnormals.mark_made(t)
    rec = _current.ctx.recorder
    return rec.constant(t) if rec is not None else t


def _shape_text(s: TensorShape) -> str:
    """A TensorShape as TF's str prints it: "(2, 3)", "(2,)", "<unknown>"."""
    if s.dims is None:
        return "<unknown>"
    dims = s.as_list()
    return "(" + ", ".join(str(d) for d in dims) + ("," if len(dims) == 1 else "") + ")"


def _shape_as_list(s: TensorShape, dtype: Any) -> tuple[list[int], Any]:
    """constant_op._tensor_shape_tensor_conversion_function: a fully known TensorShape converts to
    its dimensions, int32 unless one needs int64 (ops.conversion); a partially known one is
    ValueError, a dtype other than int32/int64 TypeError."""
    if not s.is_fully_defined():
        raise ValueError(f"Cannot convert a partially known TensorShape {_shape_text(s)} to a Tensor.")
    dims = s.as_list()
    wide = any(d >= 2 ** 31 for d in dims)
    if dtype is None:
        return dims, dtypes.int64 if wide else dtypes.int32
    dt = dtypes.as_dtype(dtype)
    if dt not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"Cannot convert TensorShape {_shape_text(s)} to dtype <dtype: '{dt.name}'>. Allowed dtypes "
                        "are tf.int32 and tf.int64.")
    if dt == dtypes.int32 and wide:
        raise ValueError(f"Cannot convert TensorShape {_shape_text(s)} to dtype int32; a dimension is too large. "
                         "Consider using tf.int64.")
    return dims, dt


def _tensor_like(v: Any) -> bool:
    """A tensor or a variable (TF's core.Tensor, which a variable is too)."""
    return isinstance(v, Tensor) or (hasattr(v, "_as_tensor") and hasattr(v, "dtype"))


def _autopack(value: Any, dtype: Any) -> Any:
    """array_ops._autopacking_helper of a list holding a tensor, `dtype` its first tensor's: eagerly a
    list of tensors (and variables) only goes to Pack as it is (the kernel's InvalidArgumentError for
    mixed dtypes); otherwise, and always in a graph, each tensor, in order and before any Python
    value is converted, must have `dtype`: TypeError "Cannot convert a list containing a tensor of
    dtype <dtype: 'float32'> to <dtype: 'bfloat16'>" (fz30b: ctc_greedy_decoder([0.5, bfloat16
    tensor, float32 tensor]), fz14 seed 1420303001 #62); a nested list packs by the same rule
    (`[[bf16, bf16], [f32, f32]]` is two Packs, then the outer Pack's error), and the Python values
    are converted with `dtype` last. A nested list holding no tensor comes back as it is.
    Clause ops.conversion."""
    from simdist.runtime import context
    from simdist.runtime import errors as _errors
    from simdist.runtime.ops import array

    def tensor(v: Any) -> Tensor:
        return v if isinstance(v, Tensor) else v._as_tensor()
    if not context.in_function() and all(_tensor_like(v) for v in value):
        try:
            return array.pack(list(value))   # (as they are: a distributed variable sends Pack to its fallback)
        except _errors.InvalidArgumentError as e:   # (the op is named "packed": _autopacking_conversion_function;
            #   TF 2.21 eagerly: "... but is a float tensor [Op:Pack] name: packed", kfuzz42)
            if str(e.message).endswith("[Op:Pack]"):
                raise _errors.InvalidArgumentError(e.node_def, e.op, f"{e.message} name: packed") from None
            raise
    parts, must_pack = [], False
    for v in value:
        if _tensor_like(v):
            if v.dtype != dtype:
                raise TypeError(f"Cannot convert a list containing a tensor of dtype {v.dtype} to {dtype} "
                                f"(Tensor is: {v!r})")
            parts.append(tensor(v))
            must_pack = True
        elif isinstance(v, (list, tuple)):
            parts.append(_autopack(v, dtype))
            must_pack = must_pack or isinstance(parts[-1], Tensor)
        else:
            parts.append(v)
    if not must_pack:
        return parts
    return array.pack([p if isinstance(p, Tensor) else convert_to_tensor(p, dtype=dtype) for p in parts])


def _autopack_cast(value: Any, dtype: Any) -> Tensor:
    """TF's _autopacking_conversion_function with a dtype other than the list's: every tensor (or
    variable) in the nested lists is cast to it (_cast_nested_seqs_to_dtype: `convert_to_tensor([x,
    x], dtype=tf.int16)` of float32 tensors is int16), Python values converted to it, then packed."""
    from simdist.runtime.ops import array, math
    cast: dict[int, Any] = {}

    def cast_all(v: Any) -> None:
        # (nest.map_structure(_cast_nested_seqs_to_dtype): every tensor of the nested lists is cast,
        # in order, before _autopacking_helper converts the Python values: a Cast's error comes
        # first, `[np.float32(1e300), bfloat16 tensor]` to string is Cast's UnimplementedError;
        # fz14 seed 1420261218 #146)
        for u in v:
            if isinstance(u, Tensor) or (hasattr(u, "_as_tensor") and hasattr(u, "dtype")):
                t = u if isinstance(u, Tensor) else u._as_tensor()
                cast[id(u)] = t if t.dtype == dtype else math.cast(t, dtype)
            elif isinstance(u, (list, tuple)):
                cast_all(u)

    def leaf(v: Any) -> Any:
        if id(v) in cast:
            return cast[id(v)]
        if isinstance(v, (list, tuple)) and _first_tensor_dtype(v) is not None:
            return array.pack([leaf(u) for u in v])
        return convert_to_tensor(v, dtype=dtype)
    cast_all(value)
    return array.pack([leaf(v) for v in value])


def _first_tensor_dtype(value: Any) -> Any:
    """The dtype of the first tensor (or variable) in a nested list, depth first (TF's
    _get_dtype_from_nested_lists), or None."""
    for v in value:
        if isinstance(v, Tensor):
            return v.dtype
        if hasattr(v, "_as_tensor") and hasattr(v, "dtype"):
            return v.dtype
        if isinstance(v, (list, tuple)):
            d = _first_tensor_dtype(v)
            if d is not None:
                return d
    return None


def as_numpy(value: Any) -> np.ndarray:
    """The NumPy array of a tensor, variable or array-like (no copy for tensors)."""
    if isinstance(value, Tensor):
        return value._v
    conv = getattr(value, "_as_tensor", None)
    if conv is not None:
        return conv()._v
    return np.asarray(value)
