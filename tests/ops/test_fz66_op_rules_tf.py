"""Fresh-seed fuzzer classes of single ops' rules (fz66; each test names its clause and seed). `tf.as_dtype(None)` is
TypeError and `tf.float64 == None` False (DType.__eq__), so safe_embedding_lookup_sparse converts float16 weights to a
float64 sparse_weights' dtype, ValueError, before reading sp_ids.dense_shape (fz62gen 66406 #4; simdist's as_dtype took
NumPy's np.dtype(None), float64). required_space_to_batch_paddings converts its operands with dtype int32: a float32 or
int64 tensor is convert_to_tensor's ValueError (66401 #2). saturate_cast reads DType.min of both dtypes: a string one is
TypeError (66409 #4). count_nonzero compares with zeros([], dtype): a string tensor counts its non-empty strings (66409
#6). tf.sparse.reduce_sum/max take `if output_is_sparse:` first: a graph tensor is OperatorNotAllowedInGraphError
(66407 #6). BroadcastArgs (broadcast_dynamic_shape) takes negative dimensions as BCast does, equal or beside a 1
(66408 #3). In a graph op_def_library converts a Python first operand alone: an int beyond uint64 beside a float16
tensor is make_tensor_proto's TypeError where eagerly the fast path converts it to float16 (66409 #3). Compared:
value, or error class and message."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_classes
import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _f(text: str, traced: bool = False) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        import numpy as np
        env = {"tf": tf, "np": np}
        if traced:
            return tf.function(lambda: eval(text, env), autograph=False)()
        return eval(text, env)
    return run


_DTYPE_NONE = {
    "eq": "[tf.float64 == None, tf.float64 != None, None == tf.int32, tf.float64 in (None, tf.float32)]",
    "as_dtype": "tf.as_dtype(None)",
    "dtypes.as_dtype": "tf.dtypes.as_dtype(None)",
    "cast-none": "tf.cast(tf.constant([1.5]), None)",
    "zeros-none": "tf.zeros([2], dtype=None)",
    "safe-lookup f16/f64": "tf.nn.safe_embedding_lookup_sparse(tf.zeros([4, 2], tf.float16), tf.zeros([3, 2]), "
                           "sparse_weights=tf.constant([0.5, 1.0], tf.float64))",
    "safe-lookup f32/f64 fast": "tf.nn.safe_embedding_lookup_sparse(tf.zeros([4, 2]), tf.zeros([3, 2]), sparse_weights="
                                "tf.constant([0.5], tf.float64), allow_fast_lookup=tf.constant([1.0]))",
    "safe-lookup f32/none": "tf.nn.safe_embedding_lookup_sparse(tf.zeros([4, 2]), tf.zeros([3, 2]))",
    "safe-lookup var/f64": "tf.nn.safe_embedding_lookup_sparse(tf.Variable(tf.zeros([4, 2])), tf.zeros([3, 2]), "
                           "sparse_weights=tf.constant([0.5], tf.float64))",
}
_RSTBP = {f"{i}/{b}": f"tf.required_space_to_batch_paddings({i}, {b})"
          for i in ("tf.constant([4., 4.])", "tf.constant([4, 4], tf.int64)", "tf.constant([4, 5])",
                    "np.array([4, 5], np.int64)", "[4, 5]")
          for b in ("[2, 3]", "tf.constant([2, 3], tf.int64)", "tf.constant([2., 3.])")}
_RSTBP["base-f32"] = "tf.required_space_to_batch_paddings([4, 4], [2, 3], tf.zeros([2, 2]))"
_RSTBP["base-i64"] = "tf.required_space_to_batch_paddings([4, 4], [2, 3], tf.zeros([2, 2], tf.int64))"
_SATURATE = {f"{src}->{dst}": f"tf.saturate_cast({src}, tf.{dst})"
             for src in ("tf.constant([-4, 1])", "tf.constant(['a'])", "tf.constant([1.5])", "tf.constant([True])")
             for dst in ("string", "int32", "bool", "uint8")}
_COUNT = {
    "strings": "tf.math.count_nonzero(tf.constant(['ZZ', '-3', '', '-3']))",
    "strings axis keepdims": "tf.math.count_nonzero(tf.constant([['ZZ', ''], ['', '']]), axis=1, keepdims=True, "
                             "dtype=tf.int32)",
    "empty strings": "tf.math.count_nonzero(tf.constant([], tf.string))",
    "floats": "tf.math.count_nonzero(tf.constant([0.0, -0.0, float('nan'), 2.0]))",
    "complex": "tf.math.count_nonzero(tf.constant([0j, 1j]))",
    "bools": "tf.math.count_nonzero(tf.constant([True, False]))",
}
_SPARSE = {f"{op}/{flag}": f"tf.sparse.{op}(tf.sparse.SparseTensor([[1, 1]], tf.constant([2.0]), [3, 4]), "
                           f"output_is_sparse={flag})"
           for op in ("reduce_sum", "reduce_max")
           for flag in ("tf.constant(0, tf.uint64)", "tf.constant(True)", "False")}
_BCAST = {f"{a} {b}": f"tf.broadcast_dynamic_shape(tf.constant({a}), tf.constant({b}))"
          for a, b in (("[-4, 4, 2, 4]", "[-4, 4, 2, 4]"), ("[-4, 3]", "[1, 3]"), ("[-4, 3]", "[2, 3]"), ("[-1]", "[-1]"),
                       ("[-1]", "[1]"), ("[-1]", "[-2]"), ("[0]", "[-2]"), ("[1, -3]", "[-3]"), ("[-2, 1, 4]", "[4]"))}
_FIRST = {f"{op}({x}, f16)": f"tf.math.{op}({x}, tf.constant([0.5, 1.0], tf.float16))"
          for op in ("maximum", "add", "subtract", "multiply", "atan2", "equal")
          for x in ("2**64", "-2**63-1", "2**63", "[2**64, 1]", "1e300")}

_CASES: dict[str, Callable[[Any], Any]] = {}
for _k, _t in _DTYPE_NONE.items():
    _CASES[f"dtype-none/{_k}"] = _f(_t)
for _k, _t in _RSTBP.items():
    _CASES[f"space-batch/{_k}/eager"] = _f(_t)
    _CASES[f"space-batch/{_k}/traced"] = _f(_t, True)
for _k, _t in _SATURATE.items():
    _CASES[f"saturate/{_k}"] = _f(_t)
for _k, _t in _COUNT.items():
    _CASES[f"count/{_k}/eager"] = _f(_t)
    _CASES[f"count/{_k}/traced"] = _f(_t, True)
for _k, _t in _SPARSE.items():
    _CASES[f"sparse-flag/{_k}/eager"] = _f(_t)
    _CASES[f"sparse-flag/{_k}/traced"] = _f(_t, True)
for _k, _t in _BCAST.items():
    _CASES[f"bcast/{_k}/eager"] = _f(_t)
for _k, _t in _FIRST.items():
    _CASES[f"first-operand/{_k}/eager"] = _f(_t)
    _CASES[f"first-operand/{_k}/traced"] = _f(_t, True)
TABLE = case_results.Table(__file__, _CASES, re.compile(r"(fz66_rules_auto_)\d+"))
# (TF's message renders the graph's tensors by node name, or names the EagerTensor class; the class is the rule)
_CLASS_ONLY = re.compile(r"^(space-batch|first-operand|sparse-flag)/.*/traced$|^dtype-none/safe-lookup f32/none$")


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


def _check(tf_results: dict[int, Any], prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix) and not _CLASS_ONLY.search(lab))
    traced = [lab for lab in TABLE.labels if lab.startswith(prefix) and _CLASS_ONLY.search(lab)]
    if traced:
        case_classes.check_classes(TABLE, tf_results, lambda lab: lab in traced)


@pytest.mark.clause("ops.conversion")
def test_dtype_none_refused_as_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, "dtype-none/")


@pytest.mark.clause("ops.space-batch")
def test_required_space_to_batch_paddings_int32_operands_as_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, "space-batch/")


@pytest.mark.clause("ops.dtype-refusal")
def test_saturate_cast_dtype_limits_as_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, "saturate/")


@pytest.mark.clause("ops.counting")
def test_count_nonzero_zero_of_the_dtype_as_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, "count/")


@pytest.mark.clause("function.symbolic-tensors")
def test_sparse_reduce_output_is_sparse_truth_as_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, "sparse-flag/")


@pytest.mark.clause("ops.argument-errors")
def test_broadcast_dynamic_shape_negative_dims_as_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, "bcast/")


@pytest.mark.clause("ops.conversion")
def test_graph_first_operand_conversion_as_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, "first-operand/")


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
