"""The dtype an op's integer argument may have, by its OpDef (clause ops.index-dtypes; vsweep62, fix62a).

An axis, index, depth, begin or num_segments argument is an input of the TF op the public function builds, typed
by the op's OpDef (raw_opdefs.json, recorded from TF 2.21): a fixed dtype (OneHot's depth and MatrixDiagV3's k:
int32) or a type attr with its allowed list (Sum's Tidx, ExpandDims' Tdim, Slice's Index, UnsortedSegmentSum's
Tnumsegments: int32/int64; StridedSlice's Index also int16). TF converts the argument before its kernel runs, one
rule for every op (observed on TF 2.21; tests/ops/test_index_dtypes_tf.py):

- a tensor of a dtype the type attr does not allow: eagerly the attr's InvalidArgumentError ("Value for attr 'Tidx'
  of int8 is not in the list of allowed values: int32, int64"), inside a tf.function op_def_library's TypeError
  ("Value passed to parameter 'reduction_indices' has DataType int8 not in list of allowed values: int32, int64");
- a tensor of another dtype than a fixed one: eagerly the fast path's ValueError ("Tensor conversion requested
  dtype int32 for Tensor with dtype int64"), traced op_def_library's TypeError ("Input 'depth' of 'OneHot' Op has
  type int64 that does not match expected type of int32.");
- a NumPy array or scalar: converted to the attr's default dtype when it has one (Tidx, Tdim, Tnumsegments: int32;
  the fast path casts any NumPy value, float and bool ones too (FORCECAST), op_def_library's preferred dtype the same
  through make_tensor_proto's astype: `scatter`'s `scalar`), to the fixed dtype of a fixed
  input; to its own dtype where the attr has no default (Slice's and StridedSlice's Index, GatherV2's Taxis), which
  the attr then refuses as it refuses a tensor of that dtype: `tf.slice(x, np.array([0, 1], np.uint8), ...)` is
  refused, `tf.reduce_sum(x, np.uint8(1))` computes;
- a Python int or list: the default (or int32), never refused here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops import trace_errors
from simdist.runtime.tensor import Tensor

__all__ = ["attr", "check", "eager_mixed_bools", "scalar"]

_C_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def _spec(op: str, param: str) -> tuple[dict[str, Any], dict[str, Any]] | None:
    from simdist.runtime.ops import raw_ops
    spec = raw_ops.opdefs()["ops"].get(op)
    if spec is None:
        return None
    arg = next((a for a in spec["args"] if a.get("input") == param), None)
    return None if arg is None else (spec, arg)


def _given_dtype(value: Any, default: Any) -> dtypes.DType | None:
    """The dtype TF gives `value` when it converts it for an input whose type attr has `default` (None: none)."""
    if isinstance(value, Tensor):
        return value.dtype
    if isinstance(value, (np.ndarray, np.generic)) and value.dtype.kind in "iu" and default is None:
        return dtypes.as_dtype(value.dtype)
    return None


def check(op: str, param: str, value: Any, inputs: tuple | None = None) -> None:
    """Raise TF 2.21's error when `value`, given for input `param` of TF op `op`, has a dtype the op's OpDef does not
    take there (the module's rule); nothing when it takes it or the OpDef does not type it. `inputs`: the op's inputs
    as given, which decide (for an input of fixed dtype) whether an eager call stays on TF's fast path, where the
    tensor reaches the op and its kernel's InvalidArgumentError ("cannot compute OneHot as input #1(zero-based) was
    expected to be a int32 tensor but is a int8 tensor"), or takes the op's eager fallback, whose convert_to_tensor
    raises ValueError."""
    found = _spec(op, param)
    if found is None:
        return
    spec, arg = found
    want = arg.get("dtype")
    if want is not None:
        if isinstance(value, Tensor) and value.dtype.name != want:
            got = value.dtype.name
            if context.in_function():
                raise TypeError(f"Input '{param}' of '{op}' Op has type {got} that does not match expected type of "
                                f"{want}.")
            from simdist.runtime.ops import args, attr_rules
            if inputs is not None and attr_rules.fast_path_takes(op, inputs):
                index = [a["input"] for a in spec["args"] if "input" in a].index(param)
                raise args.dtype_error(op, index, dtypes.as_dtype(want), value.dtype)
            raise ValueError(f"Tensor conversion requested dtype {want} for Tensor with dtype {got}: {value!r}")
        return
    attr = arg.get("type_attr")
    info = spec.get("inferred", {}).get(attr or "", {})
    allowed = info.get("allowed")
    if not allowed:
        return
    _refuse(op, attr, param, _given_dtype(value, info.get("default")), allowed)


def attr(op: str, attr_name: str, got: dtypes.DType | None) -> None:
    """Raise TF 2.21's error when type attr `attr_name` of op `op`, inferred as `got` from the inputs it binds (Slice's
    and StridedSlice's Index: the first tensor's dtype eagerly, begin's in a graph), is outside the OpDef's allowed
    list; op_def_library's TypeError names the attr's first input."""
    from simdist.runtime.ops import raw_ops
    spec = raw_ops.opdefs()["ops"].get(op) or {}
    allowed = spec.get("inferred", {}).get(attr_name, {}).get("allowed")
    if allowed:
        param = next((a["input"] for a in spec["args"] if a.get("type_attr") == attr_name), attr_name)
        _refuse(op, attr_name, param, got, allowed)


def _refuse(op: str, attr: str, param: str, got_dt: dtypes.DType | None, allowed: list[str]) -> None:
    if got_dt is None or got_dt.name in allowed:
        return
    c_list = ", ".join(_C_NAMES.get(n, n) for n in allowed)
    err = errors.InvalidArgumentError(None, None, f"Value for attr '{attr}' of {_C_NAMES.get(got_dt.name, got_dt.name)}"
                                                  f" is not in the list of allowed values: {c_list} [Op:{op}]")
    raise trace_errors.static(err, TypeError, f"Value passed to parameter '{param}' has DataType {got_dt.name} not in "
                                              f"list of allowed values: {', '.join(allowed)}")


def eager_mixed_bools(value: Any) -> None:
    """Eagerly, a Python list or tuple that mixes bools (Python or NumPy) with numbers is the EagerTensor conversion's
    ValueError ("Can't convert Python sequence with mixed types to Tensor.") before any op sees it, whatever dtype the
    op asks for; in a graph the constant's np.array takes it (a bool beside integers is an integer). TF 2.21 observed
    for the shape of the random ops, tf.fill's dims and tf.broadcast_to's shape (lsweep63)."""
    if context.in_function() or type(value) not in (list, tuple) or any(isinstance(x, Tensor) for x in value):
        return
    flags = [isinstance(x, (bool, np.bool_)) for x in value]
    if any(flags) and not all(flags):
        raise ValueError("Can't convert Python sequence with mixed types to Tensor.")


def scalar(value: Any) -> Any:
    """A NumPy scalar or 0-d array as the Python int TF reads from it; anything else as it is. TF converts a NumPy
    value for an integer input by casting it (ConvertToEagerTensor turns a NumPy scalar into a 0-d array and converts
    it with NPY_ARRAY_FORCECAST to the input's dtype; a graph's make_tensor_proto `values.astype(dtype)`): an axis
    np.array(1, np.int32) is axis 1, and so are np.float64(1.5), np.array(1.7) and np.bool_(True) (TF 2.21 observed
    eagerly and traced; npsweep67), where a Python float is refused."""
    if isinstance(value, (np.ndarray, np.generic)) and np.ndim(value) == 0 and value.dtype.kind in "iufb":
        return int(value)
    return value
