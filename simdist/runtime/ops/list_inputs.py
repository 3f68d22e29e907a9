"""List inputs whose elements share one type attr (ConcatV2's and Pack's `N * T`) as TF 2.21
converts them, and ConcatV2's axis operand (clause ops.conversion).

Eagerly, the generated op's fast path (pywrap_tfe_src.cc `TFE_Py_FastPathExecute`) takes a list
whose every element is an EagerTensor, a resource variable, an ndarray or a Python number
(`CheckInputsOk`/`CheckOneInput`: `PyFloat_Check || PyLong_Check`, so bool and NumPy's float64 but
not NumPy's other scalars, not nested lists): the type attr is the dtype of the first tensor *or
variable* in the list (`MaybeGetDTypeForAttr`/`MaybeGetDType`), the other elements are converted
to it, and tensors and variables are taken as they are (a different dtype is the kernel's
InvalidArgumentError): `tf.concat([2.5, float64_variable], 0)` converts 2.5 to float64. Any other
list goes to the op's eager fallback (execute.args_to_matching_eager): the dtype of the first
EagerTensor (a variable does not count), else of the first element converted, and every element is
converted to it (a tensor or variable of another dtype is a ValueError): `tf.concat([[2.5],
float64_variable], 0)` is ValueError. Inside a tf.function op_def_library converts each element on
its own and refuses different dtypes (TypeError "Tensors in list ... don't all match").
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from simdist.runtime import context, convert, dtypes, errors
from simdist.runtime.ops.args import t as _t
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["matching_list", "concat_axis", "empty_list"]


def _variable(v: Any) -> bool:
    return not isinstance(v, Tensor) and hasattr(v, "_as_tensor") and hasattr(v, "dtype")


def _fast_path_element(v: Any) -> bool:
    """CheckOneInput: an EagerTensor, a resource variable, an ndarray or a Python int/float."""
    return isinstance(v, (Tensor, np.ndarray, int, float)) or _variable(v)


def matching_list(values: Sequence[Any], op: str, arg: str, fallback: bool = False) -> list[Tensor]:
    """The tensors of list input `arg` of `op` as TF converts them (module docstring). Lists of
    tensors and variables only are the kernel's to check. `fallback`: the eager call cannot take
    the fast path whatever the list holds (an attr the fast path cannot read: Pack's axis given as
    a tensor), so a list holding a variable is converted to its first tensor's dtype
    (args_to_matching_eager: ValueError for a variable of another dtype; fz4 seed 31 #146)."""
    eager_fallback = fallback and not context.in_function()
    if all(isinstance(v, Tensor) or hasattr(v, "_as_tensor") for v in values) and not (
            eager_fallback and not all(isinstance(v, Tensor) for v in values)):
        return [_t(v) for v in values]
    if not context.in_function() and not eager_fallback and all(_fast_path_element(v) for v in values):
        dt = next((v.dtype for v in values if isinstance(v, Tensor) or _variable(v)), None)
        out = []
        for v in values:
            if isinstance(v, Tensor) or _variable(v):
                out.append(_t(v))        # (as it is: ReadVariableOp of a variable)
                continue
            t = convert_to_tensor(v, dtype=dt)
            dt = t.dtype if dt is None else dt
            out.append(t)
        return out
    dt = next((v.dtype for v in values if isinstance(v, Tensor)), None)
    out = []
    for v in values:
        try:
            t = convert_to_tensor(v, dtype=dt)
        except (TypeError, ValueError):
            if not context.in_function():
                raise
            seen = []
            for w in values:
                try:
                    seen.append(convert_to_tensor(w).dtype.name)
                except (TypeError, ValueError):
                    seen.append("<NOT CONVERTIBLE TO TENSOR>")
            raise TypeError(f"Tensors in list passed to '{arg}' of '{op}' Op have types [{', '.join(seen)}] that "
                            "don't all match.") from None
        if not context.in_function():
            dt = t.dtype if dt is None else dt
        out.append(t)
    if context.in_function() and len({t.dtype for t in out}) > 1:
        # (op_def_library: with no tensor in the list, each element converts alone, a variable too,
        # then the type attr must agree: `tf.stack((int64_variable, [[-1, 3]]), axis=-1)` traced;
        # fz4 seed 34 #22)
        raise TypeError(f"Tensors in list passed to '{arg}' of '{op}' Op have types "
                        f"[{', '.join(t.dtype.name for t in out)}] that don't all match.")
    return out


def empty_list(op: str, arg: str, typed: bool, n_attr: str = "N", t_attr: str = "T", minimum: int = 1,
               other_attrs: str = "") -> Any:
    """The error of an empty list input `arg` of `op` whose number attr `n_attr` has a minimum (to
    raise). Eagerly the fast path builds the NodeDef with N=0 (an empty list, tuple, 1-d ndarray or
    tensor): with no element giving the type attr (`typed` False: no other input of it, no default)
    and a CPU kernel constraining it, the kernel lookup's "OpKernel 'DynamicStitch' has constraint on
    attr 'T' not in NodeDef '[N=0]'", else the NodeDef check's "Value for attr 'N' of 0 must be at
    least minimum 1" (both InvalidArgumentError); in a graph op_def_library's ValueError "List
    argument 'indices' to 'DynamicStitch' Op with length 0 shorter than minimum length 1."
    (fz29b, fourteenth generator seed 1420292902 #29). `other_attrs`: the NodeDef's other attrs as its
    text lists them ("axis=0" of Pack)."""
    from simdist.runtime.ops import raw_rules, trace_errors
    if not typed and raw_rules.kernel_constrains(op, t_attr):
        node = f"{n_attr}=0" + (f", {other_attrs}" if other_attrs else "")
        text = f"OpKernel '{op}' has constraint on attr '{t_attr}' not in NodeDef '[{node}]'"
    else:
        text = f"Value for attr '{n_attr}' of 0 must be at least minimum {minimum}"
    return trace_errors.static(errors.InvalidArgumentError(None, None, f"{text} [Op:{op}]"), ValueError,
                               f"List argument '{arg}' to '{op}' Op with length 0 shorter than minimum length "
                               f"{minimum}.")


def concat_axis(axis: Any, shapes: Sequence[Sequence[int]]) -> int:
    """ConcatV2's axis operand as an int. Its type attr Tidx is int32 or int64 (another dtype:
    InvalidArgumentError eagerly, "Value for attr 'Tidx' of float ..."); the kernel takes a scalar
    or a one-element vector (`axis=[0]`, concat_op.cc), else InvalidArgumentError "axis tensor
    should be a scalar integer, but got shape [2]"; inside a tf.function the shape function wants a
    scalar (ValueError "Shape must be rank 0 but is rank 1")."""
    if isinstance(axis, (int, np.integer)) and not isinstance(axis, bool):
        return int(axis)
    if isinstance(axis, (list, tuple)):   # (Tidx's default int32 as the conversion's hint: [] is an int32 [0])
        t = convert_to_tensor(axis, dtype_hint=dtypes.int32)
    elif isinstance(axis, np.ndarray) and axis.dtype.kind in "iu" and axis.dtype.name not in ("int32", "int64"):
        # (a NumPy integer array converts with Tidx's default int32 as the preferred dtype: a cast, not the attr's
        # refusal; clause ops.index-dtypes)
        t = convert_to_tensor(axis.astype(np.int32))
    else:
        t = axis if isinstance(axis, Tensor) else convert_to_tensor(axis._as_tensor() if _variable(axis) else axis)
    if t.dtype not in (dtypes.int32, dtypes.int64):
        if context.in_function():
            raise TypeError(f"Value passed to parameter 'axis' has DataType {t.dtype.name} not in list of allowed "
                            "values: int32, int64")
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'Tidx' of {t.dtype.name} is not in the list "
                                          "of allowed values: int32, int64 [Op:ConcatV2]")
    arr = np.asarray(t._v)
    if context.in_function() and arr.ndim != 0:
        dims = ", ".join(f"[{','.join(str(d) for d in s)}]" for s in list(shapes) + [arr.shape])
        raise ValueError(f"Shape must be rank 0 but is rank {arr.ndim} for '{{{{node concat}}}} = ConcatV2[N={len(shapes)}"
                         f"]' with input shapes: {dims}.")
    if arr.ndim == 0 or arr.shape == (1,):
        # (the kernel reads an int64 axis as int32: np.int64(2**40) is axis 0; fz43, observed on TF 2.21)
        return int(np.asarray(arr.reshape(-1)[0]).astype(np.int64).astype(np.int32))
    raise errors.InvalidArgumentError(None, None, "axis tensor should be a scalar integer, but got shape "
                                      f"[{','.join(str(d) for d in arr.shape)}] [Op:ConcatV2]")
