"""Classes the fourth generator (tests/fuzz62/fz62_gen.py, fz62: ops no other generator calls, dtypes and arguments
past their validity, operand conversion) found at seeds 62401-62403, each fixed at the root; TF 2.21's answers by
/work/wt/fz62_logs/q/q_spmin2.py, q_g4.py, q_cth.py. Compared: values as bit patterns, or the exception class.

- sparse_tie: SparseSparseMaximum/Minimum keep the first operand's value on a tie (Eigen's maxi/mini): the maximum
  of -0.0 and an implicit 0.0 is -0.0, of an implicit 0.0 and -0.0 is 0.0 (sparse_math.py `_nan_max`, `_nan_min`;
  simdist took the second's). Clause ops.sparse.
- sdp: tf.ragged.stack_dynamic_partitions as ragged_array_ops builds it: partitions' shape compatible with data's
  leading dimensions (ValueError), higher-rank partitions taken apart into ragged rows (simdist failed on every
  2-D partitions tensor: "object too deep"), a float one Shape's out_type error (ragged_functions.py). Clause
  ops.ragged.
- crop: stateless_random_crop draws its offsets (the seed's conversion) before Slice's error eagerly, so seed=None is
  ValueError where a one-element size also mismatches the rank (image_basic.py `crop_at`). Clause ops.image-random.
- sam: tf.sparse.sampled_addmm converts every input with its dtype, tensors too, so a tensor of another dtype is
  convert_to_tensor's ValueError (sparse_api.py `sampled_addmm`; simdist passed tensors through to the kernels'
  InvalidArgumentError; seeds 62404-62408). Clause ops.sparse.
- sseg: SparseSegmentSum/Mean/SqrtN given indices or segment_ids of a dtype other than int32/int64: eagerly the
  attr's InvalidArgumentError (Tidx, Tsegmentids), op_def_library's TypeError in a graph (sparse_segments.py `_rule`;
  simdist raised the TypeError eagerly too; seeds 62404-62408). Clause ops.sparse-segments.
- dfl: DynamicPartition's partitions and DynamicStitch's indices are int32 only: a tensor of another dtype is
  eagerly the execution's InvalidArgumentError "cannot compute ... as input #k(zero-based) was expected to be a int32
  tensor" (num_partitions 0 too; a negative one: the fallback's conversion ValueError), op_def_library's TypeError in a
  graph (data_flow.py; simdist partitioned by float ids and stitched into NumPy's IndexError; seed 62403). Clause
  ops.dtype-refusal.
- arank: assert_rank / assert_rank_at_least / assert_rank_in take the message's prefix (its truth) before their
  checks, so a message tensor of several elements is ValueError whether the rank holds or not (tf/debugging.py;
  simdist read it only to fail, after the rank's own TypeError; seed 62401 #7). Clause ops.debugging-checks.
- bds: tf.broadcast_dynamic_shape of operands that are not vectors: the kernel's InvalidArgumentError "In[0] must be
  a vector." eagerly, BroadcastArgs' shape function's ValueError in a graph (array_more.py; simdist failed in
  Python with TypeError; seed 62404). Clause ops.shape-errors.
- hint: tf.convert_to_tensor of a tensor reads its dtype_hint first: a hint that is no dtype is TypeError
  (tensor.py `convert_to_tensor`). Clause ops.conversion.

Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_VALS = [float("nan"), 1.0, -1.0, 0.0, -0.0, float("inf")]


def _outcome(tf: Any, f: Callable[[], Any]) -> Any:
    try:
        r = f()
    except Exception as e:  # noqa: BLE001 - the class is compared
        return ["error", type(e).__name__]
    if type(r).__name__ == "RaggedTensor":
        return ["ragged", r.to_list(), r.row_splits.dtype.name, str(r.shape)]
    if hasattr(r, "dtype") and hasattr(r, "numpy"):
        return ["tensor", r.dtype.name, list(r.shape)]
    return ["other", type(r).__name__]


def _sparse_tie(op: str, dtype: str, x: float, y: float, implicit: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        f = getattr(tf.sparse, op)
        ai = [[0], [1]] if implicit != 0 else [[0], [1]]
        a = tf.sparse.SparseTensor(ai if implicit != 1 else [[1]], tf.constant([x, 1.0] if implicit != 1 else [1.0],
                                                                                dtype), [2])
        b = tf.sparse.SparseTensor(ai if implicit != 2 else [[1]], tf.constant([y, 1.0] if implicit != 2 else [1.0],
                                                                                dtype), [2])
        r = f(a, b)
        return [r.indices.numpy().tolist(), np.asarray(r.values.numpy(), np.float64).view(np.uint64).tolist()]
    return run


def _sdp(parts: Any, data: Any, n: int, pdtype: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        return _outcome(tf, lambda: tf.ragged.stack_dynamic_partitions(tf.constant(data), tf.constant(parts, pdtype), n))
    return run


def _sdp_ragged(parts: Any) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        rt = tf.ragged.constant([[1, 2], [3]])
        p = tf.ragged.constant(parts) if isinstance(parts[0], list) else tf.constant(parts)
        return _outcome(tf, lambda: tf.ragged.stack_dynamic_partitions(rt, p, 2))
    return run


def _crop(size: Any, seed: Any) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        x = tf.reshape(tf.constant([1.0, 0.5, 2, 1.0, 1.0, -0.0, 3.0, 4.0, 5.0], tf.float32), [3, 3])
        return _outcome(tf, lambda: tf.image.stateless_random_crop(x, size, seed))
    return run


def _hint(hint: str, value: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        h = {"tensor": lambda: tf.constant([1.0]), "bogus": lambda: "bogus", "list": lambda: [1], "float": lambda: 1.5,
             "name": lambda: "float32", "dtype": lambda: tf.float16, "np": lambda: np.float64}[hint]()
        v = {"tensor": lambda: tf.constant([1, 2]), "list": lambda: [1, 2], "float": lambda: 3.5}[value]()
        return _outcome(tf, lambda: tf.convert_to_tensor(v, dtype_hint=h))
    return run


def _sam(form: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        ind = tf.constant([[0, 0], [1, 1]], tf.int64)
        m1, m2 = tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([[1.0, 0.5], [2.0, 1.0]])
        v = tf.constant([1.0, 2.0])
        args = {"ok": (ind, v, [2, 2], m1, m2), "vals_f64": (ind, tf.cast(v, tf.float64), [2, 2], m1, m2),
                "vals_c64": (ind, tf.complex(v, v), [2, 2], m1, m2),
                "shape_i64": (ind, v, tf.constant([2, 2], tf.int64), m1, m2),
                "m1_i32": (ind, v, [2, 2], tf.constant([[1, 2], [3, 4]]), m2),
                "m2_f16": (ind, v, [2, 2], m1, tf.cast(m2, tf.float16)), "bad_shape": (ind, v, [3, 2], m1, m2),
                "rank1": (ind, v, [2], tf.constant([1.0, 2.0]), m2)}[form]
        got = _outcome(tf, lambda: tf.sparse.sampled_addmm(*args))
        if got[0] == "other":   # (a tuple: its values compared)
            got = _outcome(tf, lambda: tf.sparse.sampled_addmm(*args)[1]) + [
                tf.sparse.sampled_addmm(*args)[1].numpy().tolist()]
        return got
    return run


def _sseg(fn: str, idx_dt: str, seg_dt: str, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        d = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
        idx = tf.cast(tf.constant([0, 1, 2]), idx_dt)
        seg = tf.cast(tf.constant([0, 0, 1]), seg_dt)
        f = lambda a, b, c: getattr(tf.sparse, fn)(a, b, c)   # noqa: E731
        got = _outcome(tf, lambda: (tf.function(f) if traced else f)(d, idx, seg))
        return got
    return run


def _dfl(form: str, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        d = tf.constant([1, 2, 3])
        p = {"f32": tf.constant([0.0, 1.0, 0.0]), "i64": tf.constant([0, 1, 0], tf.int64),
             "i32": tf.constant([0, 1, 0]), "u8": tf.constant([0, 1, 0], tf.uint8)}
        f = {"dp": lambda q: tf.dynamic_partition(d, q, 2), "dp_neg": lambda q: tf.dynamic_partition(d, q, -1),
             "dp_zero": lambda q: tf.dynamic_partition(d, q, 0),
             "ds": lambda q: tf.dynamic_stitch([q], [tf.constant([1.0, 2.0, 3.0])]),
             "ds_rows": lambda q: tf.dynamic_stitch(tf.reshape(q, [1, 3]), tf.constant([[1.0, 2.0, 3.0]]))}
        kind, dt = form.split("/")
        g = f[kind]
        return _outcome(tf, lambda: (tf.function(g) if traced else g)(p[dt]))
    return run


def _arank(fn: str, k: int, m: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        x = tf.constant(0, tf.uint8)
        arg = [0, 1, tf.constant([[1.0]]), 2, [0, 1], [1, 2]][k]
        msg = [None, "m", tf.constant([1j, 2j]), tf.constant([[1j]]), tf.constant([1.0, 2.0, 3.0])][m]
        return _outcome(tf, lambda: getattr(tf.debugging, fn)(x, arg, message=msg))
    return run


def _bds(k: int, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        a, b = [([[2, 3]], [1, 3]), ([2, 3], [[1, 3]]), (5, [1, 3]), ([2, 3], 3), ([[2, 3]], [[1, 3]]),
                ([2, 1], [1, 3]), ([2, 1], [4, 3])][k]
        f = lambda p, q: tf.broadcast_dynamic_shape(p, q)   # noqa: E731
        got = _outcome(tf, lambda: (tf.function(f) if traced else f)(tf.constant(a), tf.constant(b)))
        if got[0] == "tensor":
            got.append((tf.function(f) if traced else f)(tf.constant(a), tf.constant(b)).numpy().tolist())
        return got
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    out: dict[str, Callable[[Any], Any]] = {}
    for k in range(7):
        for traced in (False, True):
            out[f"bds/{k}/{traced}"] = _bds(k, traced)
    for fn, ks in (("assert_rank", (0, 1, 2)), ("assert_rank_at_least", (0, 3)), ("assert_rank_in", (4, 5))):
        for k in ks:
            for m in range(5):
                out[f"arank/{fn}/{k}/{m}"] = _arank(fn, k, m)
    for kind in ("dp", "dp_neg", "dp_zero", "ds", "ds_rows"):
        for dt in ("f32", "i64", "i32", "u8"):
            for traced in (False, True):
                out[f"dfl/{kind}/{dt}/{traced}"] = _dfl(f"{kind}/{dt}", traced)
    for fn in ("segment_sum", "segment_mean", "segment_sqrt_n"):
        for idx_dt, seg_dt in (("int32", "int32"), ("float32", "int32"), ("int32", "float32"), ("int32", "uint16"),
                               ("uint16", "int32"), ("int64", "int32"), ("int32", "complex64"), ("int16", "int32")):
            for traced in (False, True):
                out[f"sseg/{fn}/{idx_dt}/{seg_dt}/{traced}"] = _sseg(fn, idx_dt, seg_dt, traced)
    for form in ("ok", "vals_f64", "vals_c64", "shape_i64", "m1_i32", "m2_f16", "bad_shape", "rank1"):
        out[f"sam/{form}"] = _sam(form)
    for op in ("minimum", "maximum"):
        for dt in ("float32", "float64", "float16"):
            for i, x in enumerate(_VALS):
                for j, y in enumerate(_VALS):
                    out[f"sparse_tie/{op}/{dt}/{i}/{j}"] = _sparse_tie(op, dt, x, y, 0)
            for implicit in (1, 2):
                for x in (0.0, -0.0, -1.0, 1.0):
                    out[f"sparse_tie/{op}/{dt}/implicit{implicit}/{x}"] = _sparse_tie(op, dt, x, x, implicit)
    sdp = [([3, 0, 2, 2, 3], ["a", "b", "c", "d", "e"]), ([[0, 1], [1, 1]], [[1.0, 2.0], [3.0, 4.0]]), (2, [1, 2]),
           ([[0, 1]], [[[1, 2], [3, 4]]]), ([1, 0], [[1, 2], [3, 4]]), ([[0, 1, 0], [1, 1, 0]], [[1.0, 0.5, 2.0],
                                                                                               [1.0, 1.0, -0.0]])]
    for k, (parts, data) in enumerate(sdp):
        for n in (2, 3):
            for pdt in ("int32", "int64", "float64"):
                out[f"sdp/{k}/{n}/{pdt}"] = _sdp(parts, data, n, pdt)
    out["sdp/empty_rows/int32"] = lambda tf: _outcome(tf, lambda: tf.ragged.stack_dynamic_partitions(
        tf.ones([2, 3]), tf.reshape(tf.constant([], tf.int32), [0, 3]), 4))
    for parts in ([[0, 1], [1]], [1, 0]):
        out[f"sdp/ragged/{parts}"] = _sdp_ragged(parts)
    for size in (2, [2, 2], [1], [4, 4], [2, 2, 1]):
        for seed in (None, [1, 2], [1]):
            out[f"crop/{size}/{seed}"] = _crop(size, seed)
    for hint in ("tensor", "bogus", "list", "float", "name", "dtype", "np"):
        for value in ("tensor", "list", "float"):
            out[f"hint/{hint}/{value}"] = _hint(hint, value)
    return out


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz62_gen4_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.sparse")
def test_sparse_min_max_ties_keep_the_first_operand_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("sparse_tie/"))


@pytest.mark.clause("ops.sparse")
def test_sampled_addmm_converts_each_input_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("sam/"))


@pytest.mark.clause("ops.sparse-segments")
def test_sparse_segment_index_dtypes_refused_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("sseg/"))


@pytest.mark.clause("ops.dtype-refusal")
def test_partition_and_stitch_index_dtypes_refused_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("dfl/"))


@pytest.mark.clause("ops.debugging-checks")
def test_rank_assertions_read_their_message_first_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("arank/"))


@pytest.mark.clause("ops.shape-errors")
def test_broadcast_dynamic_shape_of_non_vectors_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("bds/"))


@pytest.mark.clause("ops.ragged")
def test_stack_dynamic_partitions_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("sdp/"))


@pytest.mark.clause("ops.image-random")
def test_stateless_random_crop_draws_before_slice_fails_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("crop/"))


@pytest.mark.clause("ops.conversion")
def test_convert_to_tensor_reads_its_dtype_hint_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("hint/"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
