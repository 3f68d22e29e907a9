"""Python and NumPy values to arrays of a TF dtype, as TF 2.21's eager conversion does them
(clause ops.conversion; the C++ is tensorflow/python/lib/core/py_seq_tensor.cc).

- NumPy arrays and scalars are cast with NumPy's rules (`astype`): floats truncate, integers
  wrap, as TF converts an ndarray.
- Python scalars and (nested) sequences are checked element by element:
  - a float (Python or NumPy floating) is refused for an integer or bool dtype, even 1.0
    (TypeError "Cannot convert [1.0] to EagerTensor of dtype int64");
  - a Python int wraps into the integer dtype (2**33 as int32 is 0, -1 as uint8 is 255), and
    in a sequence it must fit 64 bits (ValueError "... out-of-range integer ...");
  - eagerly, a Python int outside [0, 2**64) for uint64 is a SystemError: TF's converter
    (PyLong_AsUnsignedLongLong) leaves an OverflowError set and returns a tensor anyway, which
    Python reports on return from the EagerTensor constructor;
  - inside a tf.function (a graph's make_tensor_proto) a Python int in [-2**63, 2**64) wraps
    into any integer dtype (2**63 as int64 is -2**63), and one outside is OverflowError "Python
    int too large to convert to C long";
  - bools mixed with numbers, None or other objects in a sequence: ValueError "mixed types",
    unless a numeric dtype is requested: each element is then converted by that dtype's converter
    (`tf.constant([True, 0], tf.float16)` is [1, 0]); a dtype without a Python-bool converter
    infers from the first element and casts (`[0, True]` as int8 is [0, 1], `[True, 0]` "mixed
    types"); as bool, a first element that is not a bool is TypeError ([1, True]); with no dtype
    inside a tf.function (make_tensor_proto: NumPy's inference) a bool is an int ([True, 0] is int32);
  - a bool dtype takes only bools, a string dtype only str/bytes (TypeError);
  - a Python bool converts to bool, the floats but bfloat16, int32, int64, uint64 and complex128 only
    (TypeError; complex64 refuses it);
    inside a tf.function (a graph's make_tensor_proto, where a bool is a Python int) to every
    numeric dtype: `floormod(int16_tensor, True)` computes there;
  - with no dtype given, Python floats are float32 and must fit it: 1e40 is refused (TF's
    message speaks of "a double-precision float"); an explicit float32 makes it inf.
- a complex (Python or NumPy) first in a sequence makes it complex128 (numbers after it are
  converted); a complex after a number is "mixed types"; a complex dtype takes ints, floats and
  complex numbers, complex128 also bools (eagerly; complex64 refuses them); a complex is refused for a real dtype; inside a tf.function (NumPy's
  inference) `[1, 2j]` is complex128 (clause ops.complex).
- A dtype hint is tried first and dropped when the value does not convert to it (TF's
  `preferred_dtype`): 2.5 with an int32 hint is float32, a float64 array with a float32 hint is
  float32.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, scalar_cache, tensor_proto

__all__ = ["UINT64_PENDING", "to_array"]

# the smallest double that rounds to float32 infinity: FLT_MAX plus half its ulp (2**128 - 2**103)
_F32_HALF_PAST = 2.0 ** 128 - 2.0 ** 103
# dtypes a Python bool does not convert to (TF's py_seq_tensor.cc has bool converters only for bool,
# the floats, int32 and int64): TypeError "Cannot convert True to EagerTensor of dtype int8"
# and uint64, whose converter takes any Python int, bools included: `uint64 | True` computes;
# and complex128's, which takes a bool as 1 + 0j where complex64's refuses it: measured, fz7 ext seed 82 #12)
_NO_PYTHON_BOOL = frozenset({"int8", "uint8", "int16", "uint16", "uint32", "bfloat16", "complex64"})
_MIXED = "Can't convert Python sequence with mixed types to Tensor."
_INT_RANGE = "Can't convert Python sequence with out-of-range integer to Tensor."
INT_RANGE_TEXT = _INT_RANGE   # (the text, for the operators' own conversion: ops/math.py)
UINT64_PENDING = "<class 'tensorflow.python.framework.ops.EagerTensor'> returned a result with an exception set"
_FLOAT_RANGE = "Can't convert Python sequence with a value out of range for a double-precision float."


# TF's C++ DataTypeString names where they differ from the Python ones
_CPP_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def _cannot(value: Any, dt: dtypes.DType) -> TypeError:
    return TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {_CPP_NAMES.get(dt.name, dt.name)}")


def _unsupported(value: Any) -> ValueError:
    if type(value).__name__ == "RaggedTensor":
        # (TF 2.21's conversion of a RaggedTensor, which has no __len__, to a dense tensor: tf.convert_to_tensor,
        # and the ops TF does not dispatch for ragged arguments (boolean_mask, argmax, unstack); clause ops.ragged)
        return ValueError("TypeError: object of type 'RaggedTensor' has no len()\n")
    kind = _TF_CLASSES.get(type(value).__module__ + "." + type(value).__qualname__, repr(type(value)))
    return ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type ({kind}) to a Tensor.")


# TF 2.21's classes for simdist's composite values, as the conversion error names them
_TF_CLASSES = {"simdist.runtime.sparse_tensor.SparseTensor":
               "<class 'tensorflow.python.framework.sparse_tensor.SparseTensor'>"}


def _leaf_kind(x: Any) -> str:
    """'b' bool, 'i' int, 'f' float, 'c' complex, 's' text, '?' anything else."""
    if isinstance(x, (bool, np.bool_)):
        return "b"
    if isinstance(x, (int, np.integer)):
        return "i"
    if isinstance(x, (float, np.floating)):
        return "f"
    if isinstance(x, (complex, np.complexfloating)):
        return "c"
    if isinstance(x, (str, bytes, np.str_, np.bytes_)):
        return "s"
    return "?"


def _leaves(value: Any) -> tuple[np.ndarray, str]:
    """The value as an object array of its leaves, and the set of leaf kinds (sorted string)."""
    try:
        obj = np.array(value, dtype=object)
    except ValueError:
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") from None
    if obj.dtype == object and obj.ndim and any(isinstance(x, (list, tuple)) for x in obj.flat):
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.")
    if obj.dtype == object and any(isinstance(x, np.ndarray) for x in obj.flat):   # 0-d arrays: their scalar
        flat = np.empty(obj.size, dtype=object)
        flat[:] = [x[()] if isinstance(x, np.ndarray) and x.ndim == 0 else x for x in obj.flat]
        obj = flat.reshape(obj.shape)
    kinds = "".join(sorted({_leaf_kind(x) for x in obj.flat}))
    return obj, kinds


def _wrap_ints(obj: np.ndarray, dt: dtypes.DType) -> np.ndarray:
    """Python ints wrapped into dt's width (two's complement), as TF's C conversion casts them;
    each must fit 64 bits (the ranges and errors of the module's docstring)."""
    flat = [int(x) for x in obj.flat]
    if context.in_function():   # a graph's make_tensor_proto: NumPy through a C long, or unsigned long
        if any(not -(2**63) <= x < 2**64 for x in flat):
            raise OverflowError("Python int too large to convert to C long")
        # numpy_compat.np_array: NumPy's own inference, then astype (ints of int64's range beside ones
        # beyond it make float64, whose cast rounds: [0, 2**64 - 1] as uint64 is [0, 0])
        with np.errstate(all="ignore"):
            return np.array(flat).astype(dt.np).reshape(obj.shape)
    elif dt.np == np.uint64:
        if any(not 0 <= x < 2**64 for x in flat):
            raise SystemError(UINT64_PENDING)
    elif any(not -(2**63) <= x < 2**63 for x in flat):
        raise ValueError(_INT_RANGE)
    bits = dt.np.itemsize * 8
    mask = (1 << bits) - 1
    signed = dt.np.kind == "i"
    out = []
    for x in flat:
        x &= mask
        if signed and x >> (bits - 1):
            x -= 1 << bits
        out.append(x)
    return np.array(out, dtype=dt.np).reshape(obj.shape)


def _bools_as_ints(value: Any) -> Any:
    """value with every Python bool made an int (nested lists and tuples)."""
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, (list, tuple)):
        return [_bools_as_ints(v) for v in value]
    return value


def _numpy_inferred(value: Any) -> dtypes.DType:
    """A graph's make_tensor_proto of a list with no dtype: NumPy's inference (np.array), float64
    read as float32 and int64 as int32 when the values fit. Bool arrays beside float ones are
    float32 (`[np.array([True]), np.array([1.0])]`, whose shape [2, 1] the dense check then refuses),
    a NumPy bool beside a NumPy float16 float16 (NumPy's promotion; fz32b, measured on TF 2.21)."""
    arr = np.array(value)
    if arr.dtype == np.float64:
        return dtypes.float32
    if arr.dtype == np.int64 and np.array_equal(arr.astype(np.int32), arr):
        return dtypes.int32
    return dtypes.as_dtype(arr.dtype)


def _failed_elements(value: Any) -> TypeError:
    """make_tensor_proto's TypeError for values it cannot hold (NumPy objects, or a string array whose
    compat.as_bytes meets a number)."""
    return TypeError(f"Failed to convert elements of {value} to Tensor. Consider casting elements to a supported type. "
                     "See https://www.tensorflow.org/api_docs/python/tf/dtypes for supported TF dtypes.")


def _numpy_inferred_ints(obj: np.ndarray) -> tuple[np.ndarray, dtypes.DType] | None:
    """A graph's make_tensor_proto of Python ints with no dtype: NumPy's inference (np.array), so
    ints beyond int64 beside others are float64, made float32 (`[1, 2**64 - 1]` is float32 [1.0,
    1.8446744e19]), nonnegative ones from 2**63 alone uint64, and ints beyond uint64 NumPy objects,
    TypeError "Failed to convert elements of ..."; None where every int fits int64 (the usual
    int32/int64 rule applies). fz31b, fourteenth
    generator seed 1420313003 #190."""
    flat = [int(x) for x in obj.flat]
    if all(-(2**63) <= x < 2**63 for x in flat):
        return None
    try:
        arr = np.array(flat).reshape(obj.shape)
    except (OverflowError, ValueError):
        return None
    if arr.dtype == object:   # (beyond uint64: NumPy's objects, which make_tensor_proto refuses)
        raise _failed_elements(obj.tolist())
    if arr.dtype == np.float64:
        return arr.astype(np.float32), dtypes.float32
    if arr.dtype == np.uint64:
        return arr, dtypes.uint64
    return None


def _numpy_bool_in(value: Any) -> bool:
    """Whether a (nested) sequence holds a NumPy bool: an np.bool_ or a bool ndarray (0-d too)."""
    if isinstance(value, (list, tuple)):
        return any(_numpy_bool_in(v) for v in value)
    return isinstance(value, np.bool_) or (isinstance(value, np.ndarray) and value.dtype == np.bool_)


def _numpy_bools(value: Any, kinds: str, dt: dtypes.DType | None) -> None:
    """Eagerly py_seq_tensor reads an ndarray inside a sequence element by element as NumPy scalars,
    and no converter but the bool one takes a NumPy bool (the int and float converters take a
    Python bool as an int, not np.bool_): NumPy bools beside numbers are ValueError "mixed types"
    whatever the dtype asked for (`[int64 array, bool array, [3, 2]]`, `[1.5, np.bool_(True)]` as
    float32); bools only, a NumPy one among them, convert to bool and no other dtype (TypeError
    "Cannot convert ... to EagerTensor of dtype float"; a dtype hint is then dropped). fz31b, fz14
    seed 1420313002 #182 (ctc_greedy_decoder's inputs), measured on TF 2.21."""
    if "?" in kinds or "s" in kinds or "b" not in kinds or not _numpy_bool_in(value):
        return
    if kinds != "b":
        raise ValueError(_MIXED)
    if dt is not None and not dt.is_bool:
        raise _cannot(value, dt)


def _python_to(value: Any, dt: dtypes.DType | None) -> tuple[np.ndarray, dtypes.DType]:
    sequence = isinstance(value, (list, tuple))
    obj, kinds = _leaves(value)
    if sequence and not context.in_function():
        _numpy_bools(value, kinds, dt)
    mixed_bools = "b" in kinds and kinds != "b"
    if mixed_bools and dt is not None and "?" not in kinds and "s" not in kinds and dt is not dtypes.string:
        first_bool = isinstance(obj.flat[0], (bool, np.bool_))
        if dt.is_bool and not first_bool:
            raise _cannot(value, dt)   # the bool converter refuses a first non-bool: [1, True] as bool
        # a numeric dtype converts each element ([True, 0] as float16 is [1, 0]); one without a
        # Python-bool converter infers from the first element and casts ([0, True] as int8 is
        # [0, 1], [True, 0] is "mixed types")
        mixed_bools = dt.is_bool or (first_bool and dt.name in _NO_PYTHON_BOOL)
        if mixed_bools and not dt.is_bool and context.in_function():
            # (a graph's make_tensor_proto: _AssertCompatible takes a bool as a number of any numeric
            # dtype and np.array converts it, `tf.constant([True, 0], tf.int8)` and a dtype_hint of
            # int8 are int8 [1, 0]; fz30b, fz4 seed 3001 #58)
            mixed_bools = False
    if mixed_bools and dt is None and context.in_function() and "?" not in kinds and "s" not in kinds:
        # a graph's make_tensor_proto: NumPy's inference, where a bool is an int ([True, 0] is int32 [1, 0],
        # [True, 2.5] float32)
        mixed_bools = False
        dt = _numpy_inferred(value)
    elif dt is None and sequence and context.in_function() and "?" not in kinds and "s" not in kinds and \
            any(isinstance(x, np.generic) for x in obj.flat):
        # a graph's make_tensor_proto: NumPy's promotion of NumPy scalars, float64 read as float32 and int64 as int32
        # when the values fit (`[np.int64(1), 3, np.uint64(1)]` is float32, `[np.int8(1), np.uint8(1)]` int16;
        # eagerly the first element's inference, int32; fz34b, fz14 seed 1420343002 #74)
        dt = _numpy_inferred(value)
    python_bools_after = mixed_bools and "?" not in kinds and "s" not in kinds and \
        not isinstance(obj.flat[0], (bool, np.bool_)) and not any(isinstance(x, np.bool_) for x in obj.flat)
    if python_bools_after and dt is dtypes.string and not context.in_function():
        raise _cannot(value, dt)   # (the inference below converts it: the string converter's TypeError)
    if python_bools_after and dt is None:
        # (eagerly py_seq_tensor infers from the first leaf: a number's converter takes the Python bools
        # after it, `[1, True]` is int32 [1, 1], `[1.5, True]` float32, `[2j, True]` complex128; a bool
        # first, or a NumPy bool anywhere (`[1, np.bool_(True)]`), is "mixed types"; fz28a, measured on TF 2.21)
        mixed_bools = False
        dt = dtypes.infer_dtype(_bools_as_ints(value))
    if "c" in kinds and dt is not None and dt is not dtypes.complex128 and not context.in_function() and \
            "?" not in kinds and "s" not in kinds and obj.size and _leaf_kind(obj.flat[0]) != "c":
        # (only complex128 has a converter of its own that takes a complex: for any other dtype
        # asked for, py_seq_tensor infers from the first leaf, a number, whose converter meets the
        # complex: `tf.constant([1, 2j], tf.complex64)` and `[1.5, 2j]` as float32 are "mixed types";
        # inside a tf.function NumPy's inference converts or refuses them; fz28a, measured on TF 2.21)
        raise ValueError(_MIXED)
    if "?" in kinds and context.in_function():
        # (a graph's make_tensor_proto: an object it cannot hold; np.array of a dict with a numeric
        # or bool dtype is NumPy's TypeError or its truth value)
        if value is None:
            raise ValueError("None values not supported.")
        arr = tensor_proto.graph_unsupported(value, dt)
        return arr, dt
    if "s" in kinds and kinds != "s" and "?" not in kinds and dt is None and context.in_function():
        # (a graph's make_tensor_proto: NumPy infers a string array of strings beside numbers or bools, and
        # compat.as_bytes of a number or bool in it is TypeError "Failed to convert elements of ['a', 1] to
        # Tensor.", where eagerly py_seq_tensor's "mixed types" is ValueError; fz44)
        raise _failed_elements(value)
    if "?" in kinds or mixed_bools or ("s" in kinds and kinds != "s"):
        if not sequence:
            raise _unsupported(value)
        if obj.size and _leaf_kind(obj.flat[0]) == "?":
            # (py_seq_tensor infers the type from the first element: one it cannot convert is named)
            raise _unsupported(obj.flat[0])
        raise ValueError(_MIXED)
    inferred = dt is None
    if dt is None and kinds == "i" and context.in_function():   # (a scalar too: 2**64 - 1 is uint64; fz44)
        wide = _numpy_inferred_ints(obj)
        if wide is not None:
            return wide
    if dt is None:
        dt = dtypes.infer_dtype(value)
        if "c" in kinds and not dt.is_complex:   # a number first, a complex later: [1.0, 2j]
            if not context.in_function():
                raise ValueError(_MIXED)
            dt = dtypes.complex128   # (a graph's make_tensor_proto: NumPy's inference)
    return _converted(value, obj, kinds, dt, inferred, sequence), dt


def _converted(value: Any, obj: np.ndarray, kinds: str, dt: dtypes.DType, inferred: bool,
               sequence: bool) -> np.ndarray:
    if dt is dtypes.string:
        if kinds not in ("s", ""):
            if not context.in_function():
                # (the string converter gives up and py_seq_tensor infers the value's dtype to cast it:
                # that inference's ValueError comes first, `[0, 1j]` "mixed types"; fz25b, seed
                # 1420262501 #165)
                try:
                    _python_to(value, None)
                except ValueError as e:
                    if str(e) in (_MIXED, _INT_RANGE):
                        raise
            raise _cannot(value, dt)
        return np.vectorize(lambda s: s.encode() if isinstance(s, str) else bytes(s), otypes=[object])(obj) \
            if obj.size else obj
    if kinds == "s" or (kinds == "b" and dt.name in _NO_PYTHON_BOOL and not context.in_function()):
        raise _cannot(value, dt)
    if dt.is_bool:
        if kinds not in ("b", ""):
            if not context.in_function():
                # (as the string converter: the bool one gives up and py_seq_tensor infers the value's dtype,
                # whose ValueError comes first: an int beyond int64, `tf.constant(2**63, tf.bool)`, `bool
                # tensor - 2**63`; fz37b, fz14 seed 1420373004 #115)
                try:
                    _python_to(value, None)
                except ValueError as e:
                    if str(e) in (_MIXED, _INT_RANGE):
                        raise
            raise _cannot(value, dt)
        return obj.astype(np.bool_)
    if "i" in kinds and not context.in_function() and dt.name in _INFERRED_FIRST:
        _ints_before_float(obj)
    if dt.is_integer:
        if "f" in kinds or "c" in kinds:
            raise _cannot(value, dt)
        return _wrap_ints(obj, dt) if "i" in kinds else obj.astype(dt.np)
    if "i" in kinds and sequence and inferred and not dt.is_complex:
        # (inferring the dtype, py_seq_tensor reads the leaves in order as int64 until the first float:
        # an int beyond int64 before it is ValueError, `[2**64, 1.5]`; after it, or with a float dtype
        # asked for, the int converts as a double, `[1.5, 2**64]`, `tf.constant([2**64], tf.float64)`,
        # `float_tensor - [2**64 - 1, 3]`: fz14 seed 1420261218 #70; a complex dtype takes any int)
        for x in obj.flat:
            if isinstance(x, float):
                break
            if isinstance(x, int) and not isinstance(x, bool) and not -(2**63) <= x < 2**63:
                raise ValueError(_INT_RANGE)
    if dt.is_floating and "c" in kinds:
        raise _cannot(value, dt)
    if dt is dtypes.bfloat16 and "f" in kinds and not context.in_function():
        return _bfloat16_of_python(obj)
    if dt is dtypes.complex64 and ("f" in kinds or "c" in kinds) and not context.in_function():
        return _complex64_of_python(obj)
    with np.errstate(over="ignore"):   # 1e5 as float16 is inf, silently as in TF
        arr = obj.astype(dt.np)
    if dt.np == np.float32 and "f" in kinds and not context.in_function():   # (a graph gives inf)
        wide = obj.astype(np.float64)   # (a finite value whose float32 rounding overflows: 3.4028235e38
        if np.any(np.isfinite(wide) & np.isinf(arr)):   # rounds to FLT_MAX and converts; fz19)
            if inferred:
                raise ValueError(_FLOAT_RANGE)
            # (float32 asked for: the float converter gives up and the doubles are cast on the device, under
            # flush-to-zero, so the list's subnormals are zeros: `tf.constant([1e300, 1e-40], 'float32')` is
            # [inf, 0] eagerly, [inf, 1e-40] without the 1e300; fz34b, fz14 seed 1420343002 #43)
            return _ftz_float32(wide)
    return arr


# dtypes py_seq_tensor.cc has no converter of their own for (bfloat16, complex64, the narrow
# integers: the value's dtype is inferred, then cast) or whose converter reads the leaves in order
# (int32, int64): an int beyond int64 before the first float is ValueError "... out-of-range
# integer ..." there (`tf.constant([2**63, 1.5], tf.int8)`, `bfloat16_tensor >= 2**64 - 1`; fz25b:
# seed 1420262501 #134); after a float it is the float's TypeError for an integer dtype, a double
# for bfloat16 and complex64 (`[1.5, 2**63]`). float16/32/64, complex128 and uint64 convert each
# int themselves.
_INFERRED_FIRST = frozenset({"bfloat16", "complex64", "int8", "uint8", "int16", "uint16", "uint32", "int32",
                             "int64"})


def _ints_before_float(obj: np.ndarray) -> None:
    """ValueError for an int beyond int64 among the leaves before the first float (bools and
    complex numbers end the scan as a float does)."""
    try:   # (every leaf within int64, the common case, in one C pass: no int to refuse anywhere)
        obj.astype(np.int64)
        return
    except (OverflowError, TypeError, ValueError):
        pass
    for x in obj.flat:
        if not isinstance(x, (int, np.integer)) or isinstance(x, (bool, np.bool_)):
            return
        if not -(2**63) <= int(x) < 2**63:
            raise ValueError(_INT_RANGE)


# float32's smallest normal number less half a unit in the last place below it (2**-126 - 2**-151):
# a double under it in magnitude is tiny after rounding to float32's precision
_F32_TINY_AFTER_ROUNDING = 2.0 ** -126 - 2.0 ** -151


def _bfloat16_of_python(obj: np.ndarray) -> np.ndarray:
    """Python floats as eager TF converts them to bfloat16 (clause ops.subnormals): each double is
    cast to float32 with the thread's flush-to-zero set, which x86 applies when the result is tiny
    after rounding (so 1e-39 and 1.1754943e-38 become zeros of their sign, 1.17549435e-38 becomes
    2**-126), then rounded to bfloat16."""
    wide = obj.astype(np.float64)
    with np.errstate(over="ignore"):
        f32 = wide.astype(np.float32)
    tiny = (np.abs(wide) < _F32_TINY_AFTER_ROUNDING) & (wide != 0)
    if tiny.any():
        f32 = np.where(tiny, np.copysign(np.float32(0), f32), f32)
    return f32.astype(dtypes.bfloat16.np)


bfloat16_of_python = _bfloat16_of_python   # (binary ops' Python operands, ops/math.py `_operand`)


def _ftz_float32(wide: np.ndarray) -> np.ndarray:
    """Doubles cast to float32 with the thread's flush-to-zero set: a result tiny after rounding is
    a zero of its sign."""
    with np.errstate(over="ignore"):
        f32 = wide.astype(np.float32)
    tiny = (np.abs(wide) < _F32_TINY_AFTER_ROUNDING) & (wide != 0)
    return np.where(tiny, np.copysign(np.float32(0), f32), f32) if tiny.any() else f32


def _complex64_of_python(obj: np.ndarray) -> np.ndarray:
    """Python numbers as eager TF converts them to complex64: each part a double cast to float32
    under flush-to-zero, as for bfloat16 (`[1e-40 + 1j]` is 1j; inside a tf.function NumPy's cast
    keeps the subnormal; issue 29's fz10, third fuzzer ext seed 93 #63)."""
    wide = obj.astype(np.complex128)
    out = np.empty(wide.shape, np.complex64)
    out.real, out.imag = _ftz_float32(wide.real), _ftz_float32(wide.imag)
    return out


def to_array(value: Any, dt: dtypes.DType | None, hint: dtypes.DType | None = None) -> tuple[np.ndarray, dtypes.DType]:
    """`value` (not a tensor or variable) as an array of TF dtype `dt` (inferred when None, the
    hint tried first), with the DType it has."""
    if dt is None and hint is not None:
        try:
            return to_array(value, hint)
        except (TypeError, ValueError):
            pass
    key = scalar_cache.key_of(value, None if dt is None else dt.name)
    if key is not None:    # TF's eager cache of Python scalars: an equal zero converted before stands for it
        out = _to_array(scalar_cache.lookup(key, value), dt)
        scalar_cache.insert(key, value)
        return out
    return _to_array(value, dt)


def _listed(value: np.ndarray, dt: dtypes.DType | None) -> tuple[np.ndarray, dtypes.DType]:
    """A text or object ndarray converted through its Python list (the string converter's walk), keeping
    the array's shape where it has no elements, which the list does not hold past its first empty
    dimension (an empty [1, 0, 3, 1] object array is a [1, 0, 3, 1] string tensor in TF 2.21, not [1, 0]:
    fz36a, tape seed 3620261203 #157, StringNGrams' empty result)."""
    arr, out_dt = _python_to(value.tolist(), dt)
    if value.size == 0 and np.size(arr) == 0 and np.shape(arr) != value.shape:
        arr = np.asarray(arr).reshape(value.shape)
    return arr, out_dt


def _empty_by_first(value: Any) -> tuple[int, ...] | None:
    """The shape of an eager sequence whose elements py_seq_tensor never reads: its InferShapeAndType follows the
    first element of each sequence (a list, a tuple, an ndarray by its first axis; a 0-d array is its scalar, text
    ends the walk) and stops at an empty one, whose dimension 0 leaves no element to convert, so the rest of the
    sequence is not looked at: `[[], [1, 2]]` and `[np.zeros((2, 0)), np.zeros(0), 2]` convert to empty tensors
    of shapes [2, 0] and [3, 2, 0], float32 or the dtype asked for (an ndarray's own dtype is not read); None when
    the walk ends at a scalar (the usual conversion decides). fz43, fourteenth generator seed 1420433001 #189,
    observed on TF 2.21."""
    shape: list[int] = []
    x = value
    while True:
        if isinstance(x, np.ndarray) and x.ndim == 0:
            x = x[()]
        if isinstance(x, (str, bytes, np.str_, np.bytes_)):
            return None
        if isinstance(x, (list, tuple, np.ndarray)):
            n = len(x)
            shape.append(n)
            if n == 0:
                return tuple(shape)
            x = x[0]
            continue
        return None


def _walk_depth(value: Any) -> int:
    """How many dimensions InferShapeAndType's walk of first elements finds (text is a leaf)."""
    depth = 0
    x = value
    while True:
        if isinstance(x, np.ndarray) and x.ndim == 0:
            x = x[()]
        if isinstance(x, (str, bytes, np.str_, np.bytes_)) or not isinstance(x, (list, tuple, np.ndarray)) or not len(x):
            return depth
        depth += 1
        x = x[0]


def _text_as_sequences(value: Any, depth: int) -> Any:
    """py_seq_tensor's fill reads every object where the inferred shape wants a dimension with PySequence_Fast, and
    a Python str is a sequence of its characters (bytes of its ints): `[['a'], 'b']` is the string tensor
    [[b'a'], [b'b']], `[['a', 'c'], 'bc']` [[b'a', b'c'], [b'b', b'c']], `[['a', 'c'], b'bc']` "mixed types" (the
    ints), `[['a'], 'bc']` non-rectangular. The text found at such a place becomes that list (fz43, observed on
    TF 2.21); elsewhere the value is unchanged."""
    if depth <= 0:
        return value
    if isinstance(value, (str, np.str_)):
        return [_text_as_sequences(c, depth - 1) for c in str(value)]
    if isinstance(value, (bytes, np.bytes_)):
        return list(bytes(value))
    if isinstance(value, (list, tuple)):
        if not any(isinstance(v, (str, bytes, np.str_, np.bytes_, list, tuple)) for v in value):
            return value
        items = [_text_as_sequences(v, depth - 1) for v in value]
        if all(a is b for a, b in zip(items, value)):
            return value   # (nothing read as a sequence: the value itself)
        return type(value)(items)
    return value


def _to_array(value: Any, dt: dtypes.DType | None) -> tuple[np.ndarray, dtypes.DType]:
    numpy_value = isinstance(value, (np.ndarray, np.generic))
    if numpy_value:
        if dt is None:
            dt = dtypes.as_dtype(value.dtype)
            if dt is dtypes.string:
                return _listed(value, dt)
            return np.array(value), dt   # (a private copy: TF copies the array into the tensor)
        if dt is dtypes.string and value.dtype.kind not in "USO" and value.size and not context.in_function():
            # (eagerly TF's ndarray conversion to a string tensor: the first element's Python type;
            # a graph's make_tensor_proto is TypeError, as _python_to's)
            first = np.asarray(value).reshape(-1)[0].item()
            raise ValueError(f"Failed to convert a NumPy array to a Tensor (Unsupported object type "
                             f"{type(first).__name__}).")
        if value.dtype.kind in "US" and dt is not dtypes.string:
            # (TF casts a NumPy text array to a numeric dtype with NumPy's astype, eagerly and in
            # make_tensor_proto: '1.5' is 1.5, 'a' NumPy's ValueError "could not convert string to
            # float"; fz21, `tf.where(c, str_array, float32_variable)`)
            return np.asarray(value).astype(dt.np), dt
        if dt is dtypes.string or value.dtype.kind in "USO":
            return _listed(value, dt)
        with np.errstate(all="ignore"):
            return np.asarray(value).astype(dt.np), dt   # (a copy, as above)
    if dt is not None and dt.kind == "n" and value is not None:   # (a narrow dtype: runtime/narrow.py)
        from simdist.runtime import narrow
        return narrow.python_to(value, dt, lambda v, d: _to_array(v, d)[0]), dt
    if dt is not None and value is not None and context.in_function():
        # (a graph constant: make_tensor_proto's check, after its ValueError for None)
        tensor_proto.assert_compatible(value, dt)
    tp = type(value)
    if tp is float and (dt is None or dt.is_floating):       # the common scalars, without the walk
        if dt is None:
            if value - value == 0 and abs(value) >= _F32_HALF_PAST and not context.in_function():   # finite,
                # rounding beyond float32 (3.4028235e38 rounds to its largest: converts)
                raise ValueError(_FLOAT_RANGE)
            dt = dtypes.float32
        if dt is dtypes.bfloat16 and not context.in_function():
            return _bfloat16_of_python(np.asarray(value, dtype=object)), dt
        with np.errstate(over="ignore"):
            return np.asarray(value, dtype=dt.np), dt
    if tp is int and dt is None and -(2**31) <= value < 2**31:
        return np.asarray(value, dtype=np.int32), dtypes.int32
    if (tp is list or tp is tuple) and not context.in_function():
        empty = _empty_by_first(value)
        if empty is not None:
            dt = dt or dtypes.float32
            return (np.empty(empty, dtype=object) if dt is dtypes.string else np.zeros(empty, dtype=dt.np)), dt
        value = _text_as_sequences(value, _walk_depth(value))
    out = _python_to(value, dt)
    if (tp is list or tp is tuple) and context.in_function():
        tensor_proto.assert_dense(value, out[0].shape)   # (a graph's make_tensor_proto)
    return out
