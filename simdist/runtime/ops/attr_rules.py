"""TF's conversion of op attributes, as its generated wrappers do it before the op runs (eager:
`_execute.make_bool`, `make_int`, `make_float`, `make_str`, `make_type`; a graph's op_def_library
the same rules): an attribute of the wrong Python kind is a TypeError naming the argument, in every
mode, before any input is converted or any kernel runs (clause ops.attr-types).

The rules: a bool attribute takes only `bool` (not 1, not np.bool_); an int attribute anything
`int()` takes except a string (2.5 is 2; an eager scalar tensor, not a tf.function's graph
tensor); a float attribute a real number (int, float, NumPy integer or floating scalar; not an
array, not a tensor); a string attribute str or bytes; a type attribute anything `as_dtype`
takes; a list attribute a list or tuple of those. The attribute types come from TF's op registry
(attr_types.py, generated); `check(op_type, **values)` applies them where a facade calls the op
with the user's values; `list_input` is the list inputs' rule.
"""

from __future__ import annotations

import numbers
import re
from typing import Any, Sequence

import numpy as np

from simdist.runtime.ops.attr_types import ATTR_TYPES

__all__ = ["check", "list_input", "list_items_fast", "check_one_input", "fast_path_takes", "default_group", "fallback_conversion", "fallback_matching",
           "sequence_attr_taken", "resource_variable",
           "make_bool", "opdef_default", "make_int", "make_float", "make_str", "make_type", "attr_type"]

_REAL = (numbers.Real, np.integer, np.floating)


def make_bool(v: Any, arg: str, op: str | None = None) -> bool:
    """execute.make_bool: a Python bool, else TypeError. With `op` (the TF op the attr belongs to),
    None is the attr's OpDef default, as the generated wrapper's `if little_endian is None:
    little_endian = True` and the eager fast path give it (fz25b: fourteenth generator seed
    1420262501 #249, extract_glimpse's centered=None)."""
    if v is None and op is not None:
        d = opdef_default(op, arg)
        if d is not None:
            return bool(d)
    if not isinstance(v, bool):
        raise TypeError(f"Expected bool for argument '{arg}' not {v!r}.")
    return v


def opdef_default(op: str, attr: str) -> Any:
    """The default value of attr `attr` of TF op `op` in TF 2.21's OpDefs, None when it has none."""
    from simdist.runtime.ops import raw_ops
    spec = raw_ops.opdefs()["ops"].get(op)
    for a in spec["args"] if spec is not None else ():
        if a.get("attr") == attr:
            return a.get("default")
    return None


def _graph_tensor(v: Any) -> bool:
    """v is a graph tensor of a running tf.function, whose int() TF refuses (runtime/symbolic.py)."""
    from simdist.runtime import symbolic
    return bool(symbolic.DEPTH[0]) and symbolic.is_graph(v)


def make_int(v: Any, arg: str) -> int:
    if isinstance(v, str) or _graph_tensor(v):
        raise TypeError(f"Expected int for argument '{arg}' not {v!r}.")
    try:
        return int(v)
    except (ValueError, TypeError):
        raise TypeError(f"Expected int for argument '{arg}' not {v!r}.") from None


def make_float(v: Any, arg: str) -> float:
    if not isinstance(v, _REAL):
        raise TypeError(f"Expected float for argument '{arg}' not {v!r}.")
    return float(v)


def make_str(v: Any, arg: str) -> Any:
    if not isinstance(v, (bytes, str)):
        raise TypeError(f"Expected string for argument '{arg}' not {v!r}.")
    return v


def make_type(v: Any, arg: str) -> Any:
    from simdist.runtime import dtypes
    try:
        return dtypes.as_dtype(v)
    except TypeError:
        raise TypeError(f"Expected DataType for argument '{arg}' not {v!r}.") from None


_MAKE = {"bool": make_bool, "int": make_int, "float": make_float, "string": make_str, "type": make_type}


def _snake(op_type: str) -> str:
    """The Python name of an op's generated wrapper, as TF's GenerateLowerCaseOpName makes it (a
    joiner before an upper-case letter after a lower-case one, or before one followed by a
    lower-case one): Conv3D -> conv3d, MatMul -> mat_mul, LRN -> lrn."""
    out = []
    last = len(op_type) - 1
    for i, c in enumerate(op_type):
        if c.isupper() and i > 0 and (op_type[i - 1].islower() or (i < last and op_type[i + 1].islower())):
            out.append("_")
        out.append(c.lower())
    return "".join(out)


def attr_type(op_type: str, attr: str) -> tuple[str, bool]:
    """TF's registry type of attribute `attr` of `op_type` ("bool", "int", "list(int)", ...) and
    whether it has a default."""
    for name, kind, has_default in ATTR_TYPES.get(op_type, ()):
        if name == attr:
            return kind, has_default
    raise KeyError(f"op type {op_type!r} has no attribute {attr!r} of a converted type in TF 2.21's registry")


def list_input(op_type: str, arg: str, value: Any, number_attr: str = "N", fast: bool = True) -> None:
    """A list input of the op def (N tensors: ShapeN's input, DynamicStitch's indices and data)
    given something else than a list or tuple. Inside a tf.function op_def_library's TypeError (a
    tensor is not a list). Eagerly TF's fast path iterates a tensor (`shape_n(t)` computes), refuses
    an ndarray of rank 2 or more itself (ValueError "expected a sequence for attr N, got an ndarray
    with rank 2 instead") and hands a NumPy scalar or vector to the fallback, whose list check is the
    TypeError (fz14 seed 1420261219 #159, #171); other values are not modelled there. `fast` False:
    another argument the fast path cannot read (a type attr given as a string: pywrap_tfe_src.cc
    ParseTypeValue takes an int or an object with _type_enum) sends the call to the fallback, whose
    list check refuses a tensor too (fz14 seed 1420262201 #43). An empty vector has no element
    for the fast path to refuse: it is a list of none (list_inputs.empty_list)."""
    from simdist.runtime import context
    if context.in_function() or not fast:
        if not isinstance(value, (list, tuple)):
            raise TypeError(f"Expected list for '{arg}' argument to '{_snake(op_type)}' Op, not {value!r}.")
        return
    if isinstance(value, np.ndarray) and value.ndim >= 2:
        raise ValueError(f"expected a sequence for attr {number_attr}, got an ndarray with rank {value.ndim} instead")
    if isinstance(value, np.ndarray) and value.shape == (0,):
        return   # (no element for CheckOneInput to refuse: the fast path takes it as N=0; fz29b)
    if not _fast_path_iterates(value):
        raise TypeError(f"Expected list for '{arg}' argument to '{_snake(op_type)}' Op, not {value!r}.")


def _fast_path_iterates(value: Any) -> bool:
    """Whether TF's eager fast path reads `value` as a list input (pywrap_tfe_src.cc: PySequence_Fast, then
    CheckOneInput per item): a list or tuple, a tensor or resource variable of rank >= 1 (its rows), a 1-d float64
    ndarray (its np.float64 items are Python floats). A 0-d tensor or variable, a Python or NumPy scalar, a string,
    None or a 1-d ndarray of another dtype go to the op's eager fallback, whose list check is the TypeError before
    any attribute's allowed values are read: `shape_n(scalar_tensor, out_type=tf.float64)` is TypeError, not
    the NodeDef's out_type error (fz64, fz62gen seed 64406 #5; observed on TF 2.21)."""
    from simdist.runtime.tensor import Tensor
    if isinstance(value, (list, tuple)):
        return True
    if isinstance(value, Tensor) or _resource_variable(value):
        return value.shape.rank is None or value.shape.rank >= 1
    if isinstance(value, np.ndarray):
        return value.ndim == 1 and value.dtype == np.float64
    return False


def list_items_fast(*values: Any) -> bool:
    """Whether the eager fast path takes the list inputs `values` (pywrap_tfe_src.cc CheckInputsOk:
    each item of a list or tuple passes CheckOneInput, so no Python list or tuple and no NumPy
    scalar other than np.float64 among them; a tensor given for a list is iterated and passes).
    Otherwise the op's eager fallback runs, whose `isinstance(x, (list, tuple))` checks refuse a
    tensor for the other list input: `dynamic_stitch([[2]], data=tensor)` is TypeError "Expected
    list for 'data' argument to 'dynamic_stitch' Op" (fz26b, fz14 seed 1420262601 #135)."""
    return all(not isinstance(v, (list, tuple)) or all(check_one_input(x) for x in v) for v in values)


def sized_list(v: Any) -> None:
    """The eager fast path's reading of a list attribute (pywrap_tfe_src.cc SetOpAttrList): a
    value PySequence_Check takes is sized by PySequence_Size, which is -1 for a 0-d ndarray, and
    the C++ array of -1 values is std::bad_alloc, MemoryError in Python, before the fallback could
    refuse it: `to_hash_bucket_strong(t, 2, key=np.array(1))` (fz27b, fz14 seed 1420272701 #279).
    A scalar tensor too (a Tensor has __getitem__, its len() raises): `fractional_avg_pool(x,
    tf.constant(1.5))`, `MaxPool(ksize=tf.constant(2), ...)` (fz32b, fz14 seed 1420323001 #140),
    and a resource variable of any shape (it has __getitem__ and no __len__; observed on TF 2.21).
    The caller asks only where the fast path reads the attribute (eagerly, inputs it takes)."""
    from simdist.runtime.tensor import Tensor
    if (isinstance(v, (np.ndarray, Tensor)) and len(v.shape) == 0) or _resource_variable(v):
        raise MemoryError("std::bad_alloc")


def fast_uint64(v: Any, dt: Any, read_after: bool = False) -> Any:
    """The eager fast path's conversion of a Python int operand to a uint64 T fixed by a tensor
    (ConvertToEagerTensor, PyLong_AsUnsignedLongLong): outside [0, 2**64) it leaves its
    OverflowError set, which pybind11 raises on return ("can't convert negative int to unsigned",
    "int too big to convert"): `tf.linalg.cholesky_solve(uint64 tensor, rhs=-1)`, `tf.maximum(uint64,
    -1)` (fz32b, fz14 seed 1420323002 #53; measured on TF 2.21). Converted in Python instead
    (`tf.constant(-1, tf.uint64)`, a list `[-1]`, math_ops.add's own conversion) it is
    convert.py's SystemError. The caller asks on the fast path only. Not modelled: TF's scalar cache
    keeps the tensor of that first conversion, so a later conversion of the same int to uint64 in
    the process raises nothing (tf.constant's and the fast path's hold 2**64 - 1, math_ops.add's the
    wrapped value; measured, not analysed further); simdist raises each time.
    `read_after`: a resource variable comes later among the op's inputs; the fast path reads it (a
    call into Python) after this conversion, which drops the pending OverflowError, and the operand
    is PyLong_AsUnsignedLongLong's error value 2**64 - 1 whatever the int: `tf.bitwise.right_shift(-1,
    uint64 variable)` computes (fz33b, second generator seed 3304 #186; `tf.maximum(uint64 variable, -1)`
    still raises; measured on TF 2.21). Returns the operand to convert."""
    if type(v) is int and getattr(dt, "name", None) == "uint64" and not 0 <= v < 2**64:
        if read_after:
            return 2**64 - 1
        raise OverflowError("can't convert negative int to unsigned" if v < 0 else "int too big to convert")
    return v


def check_one_input(v: Any) -> bool:
    """pywrap_tfe_src.cc CheckOneInput: an eager tensor, a resource variable, an ndarray or a
    Python number (IsNumberType: PyFloat_Check or PyLong_Check, so a bool and np.float64 too, not
    another NumPy scalar nor a complex). Anything else (a list, a string, None, a TensorShape:
    `extract_glimpse(int32 image, size=TensorShape([1, 2, 2]), ...)`; fz26b, fz14 seed 1420262602
    #285) sends the call to the op's eager fallback."""
    from simdist.runtime.tensor import Tensor
    return isinstance(v, (Tensor, np.ndarray, int, float)) or _resource_variable(v)


def _fast_path_ints(v: Any) -> bool:
    """Eagerly TF's fast path takes any Python sequence of Python ints for a list(int) attribute
    (PySequence_Check, then PyLong_Check per item: a TensorShape, a range, an empty ndarray); a
    NumPy array's np.int64 items send the call to the fallback, whose make_int list check refuses
    anything but a list or tuple. Inside a tf.function op_def_library wants a list or tuple."""
    from simdist.runtime import context
    if context.in_function() or isinstance(v, (str, bytes, dict)) or not hasattr(v, "__len__") \
            or not hasattr(v, "__getitem__"):
        return False
    try:
        items = [v[i] for i in range(len(v))]
    except Exception:  # noqa: BLE001 - not a sequence TF's fast path could read: the fallback's TypeError
        return False
    return all(type(x) is int for x in items)


def sequence_attr_taken(v: Any, inputs: tuple = ()) -> bool:
    """Whether an eager call reads `v`, a sequence that is not a list or tuple (a TensorShape, a
    range, an empty ndarray), for a list(int) attribute: only TF's fast path does
    (`_fast_path_ints`), and only when no input sends the call to the op's eager fallback (a list
    or tuple, a NumPy scalar other than np.float64: `fast_path_takes`), whose make_int list check
    refuses it ("Expected list for 'strides' argument to 'conv' Op, not TensorShape([2, 3]).";
    fz20: fz14 seed 1420262001 #51, #131)."""
    if not _fast_path_ints(v):
        return False
    return all(check_one_input(x) for x in inputs)


def _fast_path_value(kind: str, v: Any) -> bool:
    """Whether pywrap_tfe_src.cc's SetOpAttrs reads `v` for an attribute of `kind` (ParseIntValue:
    PyLong_Check, so a bool too but no NumPy integer or tensor; a float attr: a Python float only
    (np.float64 being one; observed, fz39b), in a list(float) too; ParseBoolValue: PyBool; strings: str/bytes; ParseTypeValue: a
    Python int or an object with `_type_enum`, a tf.DType, so no NumPy type and no dtype name: with
    `out_type=np.int64` the fallback runs, fz30b)."""
    if kind == "list(int)" and not isinstance(v, (list, tuple)):
        return _fast_path_ints(v)   # (a TensorShape, a range, an empty ndarray: PySequence_Check)
    if kind == "list(float)":
        # (each item a Python float, np.float64 too: a Python int or bool among them sends the call to
        # the fallback, observed on TF 2.21: `sample_distorted_bounding_box(..., area_range=[1, 0])`
        # beside complex64 boxes is the fallback's ValueError, `[1.0, 0.0]` the kernel's
        # InvalidArgumentError; fz36b, fourteenth generator seed 1420363002 #6)
        return isinstance(v, (list, tuple)) and all(isinstance(x, float) for x in v)
    if kind.startswith("list("):
        return isinstance(v, (list, tuple)) and all(_fast_path_value(kind[5:-1], x) for x in v)
    if kind == "int":
        return isinstance(v, int)
    if kind == "float":
        # (a Python float only, np.float64 being one: an int or a bool sends the call to the fallback, as the
        # raw ops' `_fast_path_refuses`; observed on TF 2.21: `crop_and_resize(..., extrapolation_value=0)` beside
        # a bfloat16 box_indices is the fallback's ValueError, `0.0` the kernel's InvalidArgumentError; fz39b,
        # fourteenth generator seed 1420393002 #112)
        return isinstance(v, float)
    if kind == "bool":
        return isinstance(v, bool)
    if kind == "string":
        return isinstance(v, (str, bytes))
    if kind == "type":
        from simdist.runtime.dtypes import DType
        return isinstance(v, (int, DType)) or hasattr(v, "_type_enum")
    return True


def fast_ints(v: Any) -> bool:
    """Whether nn_ops._get_sequence's value for a list(int) attr holds Python ints only (it keeps
    the elements given; an int becomes [1, v, v, 1]), which the fast path reads."""
    return v is None or type(v) is int or (isinstance(v, (list, tuple)) and all(fast_ints(x) and x is not None
                                                                               for x in v))


def fast_path_takes(op_type: str, inputs: tuple = (), **values: Any) -> bool:
    """Whether an eager call of generated op `op_type` stays on TF's fast path
    (TFE_Py_FastPathExecute): every attribute value of the kind its parser reads
    (`_fast_path_value`) and every input passing CheckOneInput (`check_one_input`). Otherwise the op's `_eager_fallback` runs, which converts each
    input with `convert_to_tensor(x, dtype)`: a tensor of another dtype for an input of fixed type
    is its ValueError there (`fallback_conversion`), where the fast path leaves it to the kernel
    ("cannot compute ... as input #0"). Inside a tf.function: False (op_def_library)."""
    from simdist.runtime import context
    if context.in_function():
        return False
    if not all(check_one_input(v) for v in inputs):
        return False
    for attr, v in values.items():
        if v is None:
            continue
        kind, _ = attr_type(op_type, attr)
        if kind.startswith("list("):
            sized_list(v)
        if not _fast_path_value(kind, v):
            return False
    return True


def fallback_conversion(x: Any, dtype: Any) -> None:
    """The eager fallback's `convert_to_tensor(x, dtype)` of a tensor `x` for an input of fixed
    dtype: ValueError when its dtype differs (ops.attr-types). A variable converts through its
    conversion function: "Incompatible type conversion requested to type string for `tf.Variable of
    type int32." (resource_variable_ops' _dense_var_to_tensor; fz26b, fz14 seed 1420262601 #34)."""
    from simdist.runtime.tensor import Tensor
    if not isinstance(x, Tensor) and hasattr(x, "_as_tensor"):
        from simdist.runtime.ops.math import distributed_variable_conversion
        distributed_variable_conversion(x, dtype)
        return
    if x.dtype != dtype:
        raise ValueError(f"Tensor conversion requested dtype {dtype.name} for Tensor with dtype {x.dtype.name}: "
                         f"{x!r}")


def fallback_matching(values: list) -> None:
    """The eager fallback's `args_to_matching_eager` over the inputs that share one type attr, for an
    op that converts its inputs itself afterwards: when every one is a tensor they pass as they are
    (the kernel judges them); else the first tensor's dtype is T and each value converts to it in
    order, so a tensor of another dtype is ValueError "Tensor conversion requested dtype int8 for
    Tensor with dtype float32" and a Python value that does not fit is convert_to_tensor's TypeError
    (fz20: fz14 seed 1420262001 #166). With no tensor the op's own conversion decides (its allowed
    dtypes and default: `fallback_args_to_matching`)."""
    from simdist.runtime.tensor import Tensor
    if any(isinstance(v, Tensor) for v in values):
        fallback_args_to_matching(values)


def fallback_args_to_matching(values: Sequence[Any], allowed: Sequence[Any] = (), default: Any = None) -> list:
    """An op's eager fallback converting the inputs that share one type attr (execute.py
    `args_to_matching_eager`): when every one is an eager tensor they pass as they are (the kernel
    judges them); else the first eager tensor's dtype is T — a variable is not an eager tensor —, or,
    with none, the first value's own conversion (kept when `allowed` holds its dtype, else converted
    again preferring `default`), and every other value converts to T in order: a variable of another
    dtype is its conversion's ValueError ("Incompatible type conversion requested to type float32 for
    `tf.Variable of type float64."), a tensor's "Tensor conversion requested dtype ...", a Python
    value that does not fit TypeError ("Cannot convert [3.0] to EagerTensor of dtype int32"), a NumPy
    value is cast. `betainc(1.0, [2.0, 3.0, 4.0], float64_variable)` is that ValueError (fz14 seed
    1420282804 #31). Clause ops.conversion."""
    from simdist.runtime.tensor import Tensor, convert_to_tensor
    if all(isinstance(v, Tensor) for v in values):
        return list(values)
    dt = next((v.dtype for v in values if isinstance(v, Tensor)), None)
    if dt is not None:
        return [convert_to_tensor(v, dtype=dt) for v in values]
    out = []
    for v in values:
        x = None
        if dt is None and allowed:
            x = convert_to_tensor(v)
            if x.dtype not in allowed:
                x = None
        if x is None:
            x = convert_to_tensor(v, dtype=dt, dtype_hint=default if dt is None else None)
        out.append(x)
        dt = x.dtype if dt is None else dt
    return out


def _resource_variable(v: Any) -> bool:
    """A variable the fast path reads as a tensor (CheckResourceVariable): not a distributed one,
    which converts through its conversion function like any other value."""
    from simdist.runtime.ops.math import _distributed_variable
    from simdist.runtime.tensor import Tensor
    return hasattr(v, "_as_tensor") and hasattr(v, "dtype") and not isinstance(v, Tensor) \
        and not _distributed_variable(v)


resource_variable = _resource_variable   # (args.matching's fast path: a variable read after an operand)


def eager_group(values: list, fast: bool, allowed: tuple | None = None) -> list:
    """An eager generated op's inputs that share one type attr, as TF converts them. On the fast
    path (TFE_Py_FastPathExecute, `fast`) the first EagerTensor or resource variable fixes T
    (MaybeGetDTypeForAttr), tensors and variables pass as they are (the kernel judges them: "cannot
    compute ... as input #2") and other values convert to T. On the op's eager fallback
    (args_to_matching_eager) only an EagerTensor fixes T, else the first value's own conversion
    (kept if its dtype is allowed), and every other value converts to T: a variable of another
    dtype is its conversion's ValueError (fz14 seed 1420262201 #88, #205). Values already tensors
    are returned as they are; a variable on the fast path is read."""
    from simdist.runtime.tensor import Tensor, convert_to_tensor
    counts = (lambda v: isinstance(v, Tensor) or _resource_variable(v)) if fast else \
        (lambda v: isinstance(v, Tensor))
    dt = next((v.dtype for v in values if counts(v)), None)
    out = []
    for i, v in enumerate(values):
        if isinstance(v, Tensor):
            out.append(v)
        elif fast and _resource_variable(v):
            out.append(convert_to_tensor(v))
        elif dt is not None:
            if hasattr(v, "_as_tensor"):   # (a variable: its conversion function's ValueError)
                fallback_conversion(v, dt)
            if fast:
                v = fast_uint64(v, dt, any(_resource_variable(w) for w in values[i + 1:]))
            out.append(convert_to_tensor(v, dtype=dt))
        else:
            t = convert_to_tensor(v)
            dt = t.dtype
            out.append(t)
    return out


def default_group(values: list, default: Any, allowed: tuple, fast: bool) -> list:
    """An eager generated op's inputs that share a type attr with a default dtype (InvertPermutation's
    T, Transpose's Tperm, UnravelIndex's Tidx: int32), as TF converts them. On the fast path
    (`fast`: attr_rules.fast_path_takes, no Python list among the op's inputs) the first EagerTensor
    or variable fixes T, else the attr's default (MaybeGetDTypeForAttr), and every other value
    converts to it: a NumPy value is cast (NPY_ARRAY_FORCECAST: np.float64(0.5) and an int64 array
    become int32), a Python number must convert ("Cannot convert 0.5 to EagerTensor of dtype int32"
    TypeError). On the eager fallback (args_to_matching_eager) an EagerTensor fixes T, else the first
    value's own conversion when `allowed` holds its dtype, else its conversion preferring the default
    (a float list stays float32: the op's allowed list refuses it), and the others convert to that
    dtype. Observed on InvertPermutation, Transpose, UnravelIndex (fz14 seeds 1420262401 #128, #296,
    1420262402 #154). TF's first eager call of an op in a process takes the fallback once; simdist
    models the steady state."""
    from simdist.runtime import dtypes
    from simdist.runtime.tensor import Tensor, convert_to_tensor
    want = dtypes.as_dtype(default)
    if fast:
        dt = next((dtypes.as_dtype(v.dtype) for v in values if isinstance(v, Tensor) or _resource_variable(v)), want)
        out = []
        for v in values:
            if isinstance(v, Tensor) or hasattr(v, "_as_tensor"):
                out.append(convert_to_tensor(v))
            elif isinstance(v, (np.ndarray, np.generic)) and np.asarray(v).dtype.kind in "biuf":
                out.append(convert_to_tensor(np.asarray(v).astype(dt.np)))
            elif isinstance(v, complex):   # (observed: a Python complex keeps complex128, which T refuses)
                out.append(convert_to_tensor(v))
            else:
                out.append(convert_to_tensor(v, dtype=dt))
        return out
    dt = next((dtypes.as_dtype(v.dtype) for v in values if isinstance(v, Tensor)), None)
    out = []
    for v in values:
        if dt is not None:
            out.append(convert_to_tensor(v, dtype=dt))
            continue
        t = convert_to_tensor(v)
        if t.dtype.name not in allowed:
            try:
                t = convert_to_tensor(v, dtype=want)
            except (TypeError, ValueError):
                pass
        dt = t.dtype
        out.append(t)
    return out


def fixed_inputs(op_type: str, specs: list, fast: bool, first: int = 0, earlier: Sequence[Any] = ()) -> list:
    """Inputs of fixed dtypes (value, dtype, OpDef name), in OpDef order. Off the eager fast path
    trace_errors.fixed_operand's rule for each (the fallback's ValueError for a tensor of another
    dtype, op_def_library's TypeError in a graph). On it a tensor passes as it is and a value
    converts to its dtype; then EagerExecute checks the inputs in order: InvalidArgumentError "cannot
    compute ExtractGlimpseV2 as input #2(zero-based) was expected to be a float tensor but is a int8
    tensor" (fz14 seed 1420262201 #185), after the NodeDef's type attrs that the inputs before them
    (`earlier`, tensors in OpDef order) fixed (type_attr_first.earlier_refusal). `first`: the OpDef
    index of the first of them."""
    from simdist.runtime import context
    from simdist.runtime.ops import args, trace_errors
    from simdist.runtime.tensor import Tensor, convert_to_tensor
    if not fast:   # (in a graph a variable is typed as a tensor: op_def_library's TypeError)
        return [trace_errors.fixed_operand(convert_to_tensor(v) if context.in_function() and _resource_variable(v)
                                           else v, dt, op_type, arg) for v, dt, arg in specs]
    out = [v if isinstance(v, Tensor) else convert_to_tensor(v) if _resource_variable(v) else
           convert_to_tensor(v, dtype=dt) for v, dt, _ in specs]
    for i, (t, (_, dt, _)) in enumerate(zip(out, specs)):
        if t.dtype != dt:
            from simdist.runtime.ops import type_attr_first
            err = type_attr_first.earlier_refusal(op_type, [e.dtype for e in earlier])
            raise err if err is not None else args.dtype_error(op_type, first + i, dt, t.dtype)
    return out


def check(op_type: str, inputs_: tuple | None = None, **values: Any) -> None:
    """Raise TF's TypeError when a value given for an attribute of `op_type` is not of the
    attribute's type (values in the order given, as the wrapper converts them). None stands for
    the default of an attribute that has one (TF's wrappers put the default in its place); for
    one without a default it is the wrong kind like any other value. `inputs_`, the op's inputs
    as given: a list input sends an eager call to the fallback, whose make_int refuses a
    TensorShape for a list(int) attr (`sequence_attr_taken`; fz23b: fz14 seed 1420262301 #278). Eagerly the fast
    path reads the list attributes first where it takes the call (`fast_path_takes`): a 0-d tensor or ndarray, or a
    variable, for one is SetOpAttrList's MemoryError (`sized_list`) before any TypeError here
    (`extract_volume_patches(x, <int32 scalar>, ...)`; fz66, fz62gen seed 66404 #0). Asked only where the caller
    gives `inputs_`: an input the fast path refuses (a Python list seed of stateless_sample_distorted_bounding_box)
    sends the call to the fallback first, whose TypeError it is (fz62gen seed 66408 #6)."""
    if inputs_ is not None:
        fast_path_takes(op_type, inputs_, **values)
    for attr, v in values.items():
        kind, has_default = attr_type(op_type, attr)
        if v is None and has_default:
            continue
        if kind.startswith("list("):
            if not isinstance(v, (list, tuple)):
                if kind == "list(int)" and (_fast_path_ints(v) if inputs_ is None else sequence_attr_taken(v, inputs_)):
                    continue
                raise TypeError(f"Expected list for '{attr}' argument to '{_snake(op_type)}' Op, not {v!r}.")
            make = _MAKE.get(kind[5:-1])
            if make is not None:
                for x in v:
                    make(x, attr)
            continue
        make = _MAKE.get(kind)
        if make is not None:
            make(v, attr)
