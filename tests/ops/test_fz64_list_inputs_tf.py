"""List inputs given something the eager fast path does not iterate (clause ops.attr-types, fz64: fz62gen seed 64406
#5, `tf.shape_n(<scalar tensor>, out_type=tf.float64)`). TF 2.21's fast path (pywrap_tfe_src.cc) reads a list input
by PySequence_Fast and CheckOneInput per item: a list or tuple, a tensor or resource variable of rank >= 1 (its rows)
and a 1-d float64 ndarray (np.float64 items are Python floats) go through, so out_type's allowed list is the NodeDef's
InvalidArgumentError and a tensor of no rows is the N=0 error; a 0-d tensor or variable, a Python or NumPy scalar, a
string, None or a 1-d ndarray of another dtype fall to the generated eager fallback, whose `isinstance(input, (list,
tuple))` check is TypeError before any attribute's allowed values. simdist refused only NumPy values there, read
out_type first, and refused the float64 vector. Inside a tf.function op_def_library wants a list or tuple. Compared:
values, or the exception class."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_VALUES = ("tensor0_f32", "tensor0_int", "tensor0_bool", "tensor0_str", "tensor1", "tensor2", "tensor_empty",
           "var0", "var1", "np0_f64", "np1_f64", "np1_f32", "np1_i64", "np_f64_scalar", "py_float", "py_int", "str",
           "none", "list")
_OUT_TYPES = ("default", "int64", "float64", "int8")


def _value(tf: Any, which: str) -> Any:
    return {"tensor0_f32": lambda: tf.reshape(tf.constant([2.0]), []), "tensor0_int": lambda: tf.constant(3),
            "tensor0_bool": lambda: tf.constant(True), "tensor0_str": lambda: tf.constant("a"),
            "tensor1": lambda: tf.constant([1, 2]), "tensor2": lambda: tf.ones([2, 3]),
            "tensor_empty": lambda: tf.zeros([0]), "var0": lambda: tf.Variable(1.0),
            "var1": lambda: tf.Variable([1.0, 2.0]), "np0_f64": lambda: np.array(2.0),
            "np1_f64": lambda: np.array([1.0, 2.0]), "np1_f32": lambda: np.ones([2], np.float32),
            "np1_i64": lambda: np.arange(2), "np_f64_scalar": lambda: np.float64(2.0), "py_float": lambda: 2.0,
            "py_int": lambda: 3, "str": lambda: "ab", "none": lambda: None,
            "list": lambda: [tf.constant([1.0]), tf.ones([2, 2])]}[which]()


def _outcome(f: Callable[[], Any]) -> Any:
    try:
        r = f()
    except Exception as e:  # noqa: BLE001 - the class is the result compared
        return ["error", type(e).__name__]
    return [[x.dtype.name, list(x.shape), np.asarray(x.numpy()).ravel().tolist()] for x in r]


def _shape_n(which: str, out_type: str, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        v = _value(tf, which)
        kw = {} if out_type == "default" else {"out_type": getattr(tf, out_type)}
        if traced:
            return _outcome(lambda: tf.function(lambda: tf.shape_n(v, **kw), autograph=False)())
        return _outcome(lambda: tf.shape_n(v, **kw))
    return run


def _stitch(which: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        v = _value(tf, which)
        return _outcome(lambda: [tf.dynamic_stitch(v, [tf.constant([1.0])])])
    return run


_CASES: dict[str, Callable[[Any], Any]] = {}
for _w in _VALUES:
    for _o in _OUT_TYPES:
        _CASES[f"shape_n/{_w}/{_o}"] = _shape_n(_w, _o, False)
    for _o in ("default", "float64"):
        _CASES[f"shape_n_traced/{_w}/{_o}"] = _shape_n(_w, _o, True)
    _CASES[f"dynamic_stitch/{_w}"] = _stitch(_w)
TABLE = case_results.Table(__file__, _CASES, re.compile(r"(fz64_list_auto_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.attr-types")
def test_list_inputs_the_fast_path_does_not_iterate_are_the_fallbacks_type_error(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
