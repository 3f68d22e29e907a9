"""A Python value beside a tensor that fixes a shared index attr (clause ops.index-dtypes, fz66: fz62gen seed 66403 #0,
`tf.scatter_nd(<bool [3, 4] indices>, x, [3, 1])`: TF TypeError "Cannot convert [3, 1] to EagerTensor of dtype bool",
simdist InvalidArgumentError). Eagerly the fast path takes Tindices (ScatterNd's indices and shape) and Index
(StridedSlice's begin, end and strides) from the first tensor and converts the Python values beside it to that dtype
before the OpDef's allowed list is read: a bool or string first tensor makes a Python list's conversion the TypeError, a
NumPy array to string ValueError, int32 indices wrap a Python 2**31 ("Dimension -2147483648 must be >= 0"); a float or
uint8 first tensor beside an int32 tensor on the fallback is convert_to_tensor's ValueError. StridedSlice's
`strides=None` is ones_like(begin): of a string begin the constant 1's TypeError. simdist checked the allowed list first
for every dtype but int32/int64 (scatter.py `scatter_nd`, slicing.py `_eager_index_match`). Traced, op_def_library checks
begin's Index before end's type. Compared: value, or error class (the messages of the OpDef's allowed list hold its NodeDef dump in TF's text)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_classes
import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_IDX = {"bool": "tf.constant([[True]])", "uint8": "tf.constant([[1]], tf.uint8)", "float": "tf.constant([[1.5]])",
        "string": "tf.constant([['a']])", "complex": "tf.constant([[1+1j]])", "int8": "tf.constant([[1]], tf.int8)",
        "int32": "tf.constant([[1]])", "int64": "tf.constant([[1]], tf.int64)"}
_SHAPE = {"[3]": "[3]", "[-1]": "[-1]", "np[3]": "np.array([3])", "[3.5]": "[3.5]", "[0]": "[0]", "t[3]": "tf.constant([3])",
          "[2**31]": "[2**31]", "(3,)": "(3,)"}
_BEGIN = {"bool": "tf.constant([True, False])", "string": "tf.constant(['a', 'b'])", "float": "tf.constant([1.5, 0.5])",
          "int16": "tf.constant([1, 0], tf.int16)", "uint8": "tf.constant([1, 0], tf.uint8)",
          "int64": "tf.constant([0, 0], tf.int64)"}
_END = {"[1, 1]": "[1, 1]", "np[1, 1]": "np.array([1, 1])", "[1.5, 1]": "[1.5, 1]", "[-1, 1]": "[-1, 1]",
        "t[1, 1]": "tf.constant([1, 1])"}
_STRIDES = {"none": None, "[1, 1]": "[1, 1]", "np[1, 1]": "np.array([1, 1])"}


def _scatter(idx: str, shape: str, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        import numpy as np  # noqa: F401 - read by the evaluated text
        f = lambda: tf.scatter_nd(eval(_IDX[idx]), tf.constant([1.0]), eval(_SHAPE[shape]))  # noqa: E731
        return tf.function(f, autograph=False)() if traced else f()
    return run


def _strided(begin: str, end: str, strides: str, end_first: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        import numpy as np  # noqa: F401 - read by the evaluated text
        x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        b, e = eval(_BEGIN[begin]), eval(_END[end])
        st = None if _STRIDES[strides] is None else eval(_STRIDES[strides])
        return tf.strided_slice(x, e, b, st) if end_first else tf.strided_slice(x, b, e, st)
    return run


def _strided_traced(begin: str, end: str, strides: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        f = lambda: tf.strided_slice(x, eval(_BEGIN[begin]), eval(_END[end]), [1, 1] if strides else None)  # noqa: E731
        return tf.function(f, autograph=False)()
    return run


_CASES: dict[str, Callable[[Any], Any]] = {}
for _i in _IDX:
    for _s in _SHAPE:
        if _s == "[2**31]" and _i in ("int64", "float", "complex"):
            continue   # (an allocation of 2**31 floats: not the rule)
        _CASES[f"scatter_nd/{_i}/{_s}/eager"] = _scatter(_i, _s, False)
        if _i in ("bool", "string", "int32"):
            _CASES[f"scatter_nd/{_i}/{_s}/traced"] = _scatter(_i, _s, True)
for _b in _BEGIN:
    for _e in _END:
        for _st in _STRIDES:
            _CASES[f"strided_slice/{_b}/{_e}/{_st}/begin-first"] = _strided(_b, _e, _st, False)
            _CASES[f"strided_slice/{_b}/{_e}/{_st}/end-first"] = _strided(_b, _e, _st, True)
for _b in ("bool", "string"):   # (traced int16: TF 2.21 aborts the process, a CHECK failure in its tensor.cc)
    for _e in ("[1, 1]", "t[1, 1]"):
        for _st in (False, True):
            _CASES[f"strided_slice/{_b}/{_e}/{'strides' if _st else 'none'}/traced"] = _strided_traced(_b, _e, _st)
TABLE = case_results.Table(__file__, _CASES, re.compile(r"(fz66_index_auto_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.index-dtypes")
def test_scatter_nd_shape_converted_to_indices_dtype_as_tf(tf_results: dict[int, Any]) -> None:
    case_classes.check_classes(TABLE, tf_results, lambda lab: lab.startswith("scatter_nd/"))


@pytest.mark.clause("ops.index-dtypes")
def test_strided_slice_values_converted_to_first_tensor_dtype_as_tf(tf_results: dict[int, Any]) -> None:
    case_classes.check_classes(TABLE, tf_results, lambda lab: lab.startswith("strided_slice/"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
