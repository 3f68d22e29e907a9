"""Ops' error paths against real TensorFlow 2.21: the same call on both backends raises the same
exception class with the same message (as TF's eager runtime prints it, less its decorations).

TF's kernel messages come as `{{function_node __wrapped__Op_device_...}} <text> [Op:Op] name: `
and dtype refusals add `\\n\\t; NodeDef: ...` details; both are compared by their `<text>` and
their `[Op:...]` tag (TF's oneDNN build names its einsum kernel `_MklEinsum` inside the text:
compared as `Einsum`). Needs the `tf` extra.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

# (id, clause, program): each program gets a `tf` module and is expected to raise.
CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # integer division
    ("floordiv-int-zero", "ops.integer-division", lambda tf: tf.constant([4, 2]) // tf.constant([2, 0])),
    ("floormod-int-zero", "ops.integer-division", lambda tf: tf.math.floormod(tf.constant([4]), tf.constant([0]))),
    # broadcasting and shapes
    ("add-incompatible", "ops.shape-errors", lambda tf: tf.constant([1.0, 2.0]) + tf.constant([1.0, 2.0, 3.0])),
    ("squared-difference-incompatible", "ops.shape-errors",
     lambda tf: tf.math.squared_difference(tf.ones([2, 3]), tf.ones([4]))),
    ("matmul-mismatch", "ops.shape-errors", lambda tf: tf.matmul(tf.ones([2, 3]), tf.ones([4, 2]))),
    ("batch-matmul-mismatch", "ops.shape-errors", lambda tf: tf.matmul(tf.ones([2, 2, 3]), tf.ones([2, 4, 2]))),
    ("batch-matmul-transposed", "ops.shape-errors",
     lambda tf: tf.matmul(tf.ones([2, 3, 2]), tf.ones([2, 4, 2]), transpose_a=True)),
    ("matmul-transposed", "ops.shape-errors", lambda tf: tf.matmul(tf.ones([3, 2]), tf.ones([4, 2]),
                                                                   transpose_a=True)),
    ("reshape-size", "ops.shape-errors", lambda tf: tf.reshape(tf.ones([2, 3]), [4, 2])),
    ("transpose-repeated-axis", "ops.shape-errors", lambda tf: tf.transpose(tf.ones([2, 3]), [0, 0])),
    ("transpose-perm-length", "ops.shape-errors", lambda tf: tf.transpose(tf.ones([2, 3]), [0])),
    ("transpose-perm-range", "ops.shape-errors", lambda tf: tf.transpose(tf.ones([2, 3]), [0, 2])),
    ("squeeze-not-one", "ops.shape-errors", lambda tf: tf.squeeze(tf.ones([2, 3]), axis=0)),
    ("squeeze-axis-range", "ops.shape-errors", lambda tf: tf.squeeze(tf.ones([2, 1]), axis=5)),
    ("squeeze-list-second", "ops.shape-errors", lambda tf: tf.squeeze(tf.ones([1, 2, 1]), axis=[0, 1])),
    ("where-not-broadcastable", "ops.shape-errors",
     lambda tf: tf.where(tf.constant([True, False, True]), tf.ones([2]), tf.zeros([2]))),
    ("concat-dims", "ops.shape-errors", lambda tf: tf.concat([tf.ones([2, 3]), tf.ones([3, 2])], 0)),
    ("clip-broadcasts-up", "ops.shape-errors", lambda tf: tf.clip_by_value(tf.ones([3]), tf.zeros([2, 3]), 2.0)),
    ("tile-length", "ops.shape-errors", lambda tf: tf.tile(tf.ones([2]), [2, 2])),
    ("tile-negative", "ops.shape-errors", lambda tf: tf.tile(tf.ones([2]), [-1])),
    ("pad-rank", "ops.shape-errors", lambda tf: tf.pad(tf.ones([2]), [[1, 0], [1, 1]])),
    ("pad-negative", "ops.shape-errors", lambda tf: tf.pad(tf.ones([2]), [[-1, 0]])),
    ("pad-reflect-too-wide", "ops.shape-errors", lambda tf: tf.pad(tf.ones([2]), [[2, 0]], mode="REFLECT")),
    ("pad-symmetric-too-wide", "ops.shape-errors", lambda tf: tf.pad(tf.ones([2]), [[0, 3]], mode="SYMMETRIC")),
    ("pad-mode", "ops.shape-errors", lambda tf: tf.pad(tf.ones([2]), [[1, 0]], mode="WRAP")),
    ("slice-begin", "ops.shape-errors", lambda tf: tf.slice(tf.ones([3]), [4], [0])),
    ("slice-size", "ops.shape-errors", lambda tf: tf.slice(tf.ones([2, 3]), [0, 2], [1, 2])),
    ("slice-rank", "ops.shape-errors", lambda tf: tf.slice(tf.ones([3]), [1, 0], [1, 1])),
    ("einsum-operands", "ops.shape-errors", lambda tf: tf.einsum("ij,jk->ik", tf.ones([2, 3]))),
    ("einsum-rank", "ops.shape-errors", lambda tf: tf.einsum("ij,jk->ik", tf.ones([2, 3, 1]), tf.ones([3, 2]))),
    ("einsum-dimension", "ops.shape-errors", lambda tf: tf.einsum("ij,jk->ik", tf.ones([2, 3]), tf.ones([4, 2]))),
    ("top-k-too-few", "ops.shape-errors", lambda tf: tf.math.top_k(tf.ones([4]), 5)),
    ("top-k-negative", "ops.shape-errors", lambda tf: tf.math.top_k(tf.ones([4]), -1)),
    ("top-k-scalar", "ops.shape-errors", lambda tf: tf.math.top_k(tf.constant(1.0), 1)),
    ("where-scalar", "ops.shape-errors", lambda tf: tf.where(tf.constant(True))),
    ("segment-sum-length", "ops.segment-ids", lambda tf: tf.math.segment_sum(tf.ones([2]), [0, 0, 1])),
    # axes
    ("reduce-axis", "ops.shape-errors", lambda tf: tf.reduce_prod(tf.ones([2, 3]), axis=2)),
    ("argmax-axis", "ops.argmax", lambda tf: tf.argmax(tf.ones([3]), axis=3)),
    ("argmax-empty", "ops.argmax", lambda tf: tf.argmax(tf.zeros([0]))),
    ("cumsum-axis", "ops.shape-errors", lambda tf: tf.cumsum(tf.ones([3]), axis=1)),
    ("one-hot-axis", "ops.one-hot", lambda tf: tf.one_hot([1, 2], 3, axis=3)),
    ("one-hot-depth", "ops.one-hot", lambda tf: tf.one_hot([1, 2], -1)),
    # indices out of range
    ("gather-index", "ops.index-errors", lambda tf: tf.gather(tf.ones([3, 2]), [0, 3])),
    ("getitem-index", "ops.index-errors", lambda tf: tf.ones([2, 3])[:, 3]),
    ("getitem-negative-index", "ops.index-errors", lambda tf: tf.ones([2, 3])[-3]),
    ("getitem-too-many", "ops.index-errors", lambda tf: tf.ones([2, 3])[0, 0, 0]),
    ("getitem-two-ellipses", "ops.index-errors", lambda tf: tf.ones([2, 3])[..., ...]),
    ("gather-nd-index", "ops.index-errors", lambda tf: tf.gather_nd(tf.ones([3, 4]), [[0, 1], [3, 3]])),
    ("gather-nd-negative", "ops.index-errors", lambda tf: tf.gather_nd(tf.ones([3, 4]), [[0, -1]])),
    ("gather-nd-depth", "ops.index-errors", lambda tf: tf.gather_nd(tf.ones([3, 4]), [[0, 1, 2]])),
    ("scatter-nd-index", "ops.index-errors", lambda tf: tf.scatter_nd([[1], [7]], [1.0, 2.0], [5])),
    ("scatter-nd-updates", "ops.index-errors", lambda tf: tf.scatter_nd([[1], [3]], [1.0, 2.0, 3.0], [5])),
    ("tensor-scatter-update-shape", "ops.index-errors",
     lambda tf: tf.tensor_scatter_nd_update(tf.ones([3, 4]), [[1]], [[9.0, 9.0, 9.0]])),
    ("tensor-scatter-add-negative", "ops.index-errors",
     lambda tf: tf.tensor_scatter_nd_add(tf.ones([3, 4]), [[-1, 1]], [9.0])),
    ("unsorted-segment-id", "ops.segment-ids",
     lambda tf: tf.math.unsorted_segment_sum(tf.ones([3]), [1, 5, 0], 2)),
    ("segment-ids-unsorted", "ops.segment-ids", lambda tf: tf.math.segment_sum(tf.ones([3]), [1, 0, 2])),
    ("segment-id-negative", "ops.segment-ids", lambda tf: tf.math.segment_sum(tf.ones([2]), [-1, 0])),
    ("segment-max-unsorted", "ops.segment-ids", lambda tf: tf.math.segment_max(tf.ones([3]), [1, 0, 0])),
    ("segment-mean-length", "ops.segment-ids", lambda tf: tf.math.segment_mean(tf.ones([3, 2]), [0, 1])),
    ("segment-min-negative", "ops.segment-ids", lambda tf: tf.math.segment_min(tf.ones([3]), [-1, 0, 0])),
    ("segment-prod-bool", "ops.segment-ids", lambda tf: tf.math.segment_prod(tf.constant([True, False]), [0, 1])),
    ("segment-max-float-ids", "ops.segment-ids", lambda tf: tf.math.segment_max(tf.ones([2]), [0.0, 1.0])),
    ("unsorted-segment-max-id", "ops.segment-ids",
     lambda tf: tf.math.unsorted_segment_max(tf.ones([3]), [0, 5, 1], 3)),
    ("unsorted-segment-prod-bool", "ops.segment-ids",
     lambda tf: tf.math.unsorted_segment_prod(tf.constant([True]), [0], 1)),
    ("unsorted-segment-sqrt-n-int", "ops.segment-ids",
     lambda tf: tf.math.unsorted_segment_sqrt_n(tf.constant([1, 2]), [0, 0], 1)),
    ("unsorted-segment-min-shape", "ops.segment-ids",
     lambda tf: tf.math.unsorted_segment_min(tf.ones([3, 2]), [0, 1], 2)),
    # dtypes TF refuses
    ("sqrt-int", "ops.dtype-refusal", lambda tf: tf.sqrt(tf.constant([1, 2]))),
    ("floor-int", "ops.dtype-refusal", lambda tf: tf.floor(tf.constant([1, 2]))),
    ("log1p-bool", "ops.dtype-refusal", lambda tf: tf.math.log1p(tf.constant([True]))),
    ("euclidean-norm-bool", "ops.dtype-refusal", lambda tf: tf.math.reduce_euclidean_norm(tf.constant([True]))),
    ("cumulative-logsumexp-int", "ops.dtype-refusal", lambda tf: tf.math.cumulative_logsumexp(tf.constant([1, 2]))),
    ("reverse-float-axis", "ops.dtype-refusal", lambda tf: tf.reverse(tf.ones([2, 3]), [0.5])),
    ("reverse-axis-twice", "ops.shape-errors", lambda tf: tf.reverse(tf.ones([2, 3]), [0, -2])),
    ("reverse-axis-range", "ops.shape-errors", lambda tf: tf.reverse(tf.ones([2, 3]), [2])),
    ("reverse-scalar-axis", "ops.shape-errors", lambda tf: tf.reverse(tf.ones([2, 3]), 1)),
    ("cumulative-logsumexp-axis", "ops.shape-errors", lambda tf: tf.math.cumulative_logsumexp(tf.ones([2]), 1)),
    ("reciprocal-int", "ops.dtype-refusal", lambda tf: tf.math.reciprocal(tf.constant([1, 2]))),
    ("is-nan-int", "ops.dtype-refusal", lambda tf: tf.math.is_nan(tf.constant([1, 2]))),
    ("reduce-sum-bool", "ops.dtype-refusal", lambda tf: tf.reduce_sum(tf.constant([True, False]))),
    ("reduce-max-bool", "ops.dtype-refusal", lambda tf: tf.reduce_max(tf.constant([True, False]))),
    ("reduce-any-float", "ops.dtype-refusal", lambda tf: tf.reduce_any(tf.constant([1.0]))),
    ("reduce-all-int", "ops.dtype-refusal", lambda tf: tf.reduce_all(tf.constant([1]))),
    ("logical-and-int", "ops.dtype-refusal", lambda tf: tf.logical_and(tf.constant([1]), tf.constant([1]))),
    ("logical-not-float", "ops.dtype-refusal", lambda tf: tf.logical_not(tf.constant([1.0]))),
    ("cumsum-bool", "ops.dtype-refusal", lambda tf: tf.cumsum(tf.constant([True]))),
    ("add-mixed", "ops.dtype-refusal", lambda tf: tf.constant([1.0]) + tf.constant([1])),
    ("add-python-float-to-int", "ops.dtype-refusal", lambda tf: tf.constant([1, 2]) + 1.0),
    ("mul-python-float-to-int", "ops.dtype-refusal", lambda tf: tf.constant([1, 2]) * 2.0),
    ("maximum-python-float-to-int", "ops.dtype-refusal", lambda tf: tf.maximum(tf.constant([1, 2]), 1.5)),
    ("truediv-mixed", "ops.dtype-refusal", lambda tf: tf.constant([1, 2]) / tf.constant([2.0, 1.0])),
    ("einsum-mixed", "ops.dtype-refusal",
     lambda tf: tf.einsum("ij,jk->ik", tf.ones([2, 3]), tf.ones([3, 2], tf.float64))),
    ("reduce-variance-int", "ops.dtype-refusal", lambda tf: tf.math.reduce_variance(tf.constant([1, 2]))),
    ("norm-int", "ops.dtype-refusal", lambda tf: tf.norm(tf.constant([3, 4]))),
    ("clip-by-value-float-bounds", "ops.dtype-refusal", lambda tf: tf.clip_by_value(tf.constant([1, 2]), 1.0, 2.0)),
    ("top-k-bool", "ops.dtype-refusal", lambda tf: tf.math.top_k(tf.constant([True, False]), 1)),
    ("one-hot-float-indices", "ops.dtype-refusal", lambda tf: tf.one_hot([1.0, 2.0], 3)),
    ("one-hot-int16-indices", "ops.dtype-refusal", lambda tf: tf.one_hot(tf.constant([1], tf.int16), 3)),
    ("one-hot-on-off", "ops.one-hot", lambda tf: tf.one_hot([1, 2], 3, on_value=5, off_value=0.0)),
    ("gather-nd-float-indices", "ops.dtype-refusal", lambda tf: tf.gather_nd(tf.ones([3]), [[0.0]])),
    ("tile-float-multiples", "ops.dtype-refusal", lambda tf: tf.tile(tf.ones([2]), [2.0])),
    # argument values
    ("sort-direction", "ops.sort", lambda tf: tf.sort(tf.ones([3]), direction="UP")),
    ("norm-ord", "ops.shape-errors", lambda tf: tf.norm(tf.ones([2]), ord=-1)),
    ("clip-global-norm-not-a-list", "ops.clip-global-norm", lambda tf: tf.clip_by_global_norm("abc", 1.0)),
    ("stateless-seed-shape", "ops.stateless-random",
     lambda tf: tf.random.stateless_normal([2], seed=[1, 2, 3])),
    ("stateless-seed-dtype", "ops.stateless-random", lambda tf: tf.random.stateless_normal([2], seed=[1.0, 2.0])),
    ("stateless-int-bounds", "ops.stateless-random",
     lambda tf: tf.random.stateless_uniform([2], seed=[1, 2], dtype=tf.int32)),
    ("stateless-int-range", "ops.stateless-random",
     lambda tf: tf.random.stateless_uniform([2], seed=[1, 2], minval=5, maxval=5, dtype=tf.int32)),
    ("stateless-bool", "ops.stateless-random",
     lambda tf: tf.random.stateless_uniform([2], seed=[1, 2], dtype=tf.bool)),
    ("categorical-logits-rank", "ops.stateless-random", lambda tf: tf.random.categorical([0.1, 0.9], 4)),
    ("normal-negative-dim", "ops.stateless-random", lambda tf: tf.random.normal([-1])),
]

_DECOR = re.compile(r"^\{\{function_node [^}]*\}\}\s*")
_OP = re.compile(r"\s*\[Op:(\w+)\](?: name: .*)?$", re.S)


def normalized(e: BaseException) -> dict[str, Any]:
    """An exception as compared: class name, first message line less TF's decorations, op tag."""
    msg = _DECOR.sub("", str(e)).replace("_MklEinsum", "Einsum")
    op = None
    m = _OP.search(msg)
    if m:
        op = m.group(1)
        msg = msg[:m.start()]
    first = msg.split("\n")[0].strip()
    m = _OP.search(first)
    if m:
        op, first = m.group(1), first[:m.start()]
    return {"class": type(e).__name__, "message": first, "op": op}


def _run(tf: Any, k: int) -> dict[str, Any]:
    try:
        out = CASES[k][2](tf)
    except Exception as e:  # noqa: BLE001 - the error is the result
        return normalized(e)
    return {"class": None, "message": f"returned {np.asarray(getattr(out, 'numpy', lambda: out)())!r}", "op": None}


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    return {k: _run(tf, k) for k in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


def _check(k: int, tf_results: dict[int, Any]) -> None:
    from simdist import tf
    want = tf_results[k]
    assert want["class"] is not None, f"TF 2.21 did not raise: {want['message']} [{CASES[k][0]}]"
    got = _run(tf, k)
    assert got["class"] == want["class"], \
        f"raised {got['class']}: {got['message']!r}, but TF 2.21 raises {want['class']}: {want['message']!r}"
    assert got["message"] == want["message"], f"message {got['message']!r}, but TF 2.21 says {want['message']!r}"
    if want["op"] is not None:
        assert got["op"] == want["op"], f"op tag [Op:{got['op']}], but TF 2.21 names [Op:{want['op']}]"


def _cases(cid: str) -> Any:
    ks = [k for k, (_, c, _) in enumerate(CASES) if c == cid]
    assert ks, f"no error case for clause {cid}"
    return pytest.mark.parametrize("k", ks, ids=[CASES[k][0] for k in ks])


def test_every_case_has_a_test() -> None:
    tested = set(TESTED)
    untested = sorted({c for _, c, _ in CASES} - tested)
    assert not untested, f"error cases of clauses {untested} have no test function below"


@clause("ops.integer-division")
@_cases("ops.integer-division")
def test_integer_division(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


@clause("ops.shape-errors")
@_cases("ops.shape-errors")
def test_shape_errors(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


@clause("ops.index-errors")
@_cases("ops.index-errors")
def test_index_errors(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


@clause("ops.dtype-refusal")
@_cases("ops.dtype-refusal")
def test_dtype_refusal(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


@clause("ops.argmax")
@_cases("ops.argmax")
def test_argmax(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


@clause("ops.one-hot")
@_cases("ops.one-hot")
def test_one_hot(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


@clause("ops.segment-ids")
@_cases("ops.segment-ids")
def test_segment_ids(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


@clause("ops.sort")
@_cases("ops.sort")
def test_sort(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


@clause("ops.clip-global-norm")
@_cases("ops.clip-global-norm")
def test_clip_global_norm(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


@clause("ops.stateless-random")
@_cases("ops.stateless-random")
def test_stateless_random(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


TESTED = ("ops.integer-division", "ops.shape-errors", "ops.index-errors", "ops.dtype-refusal", "ops.argmax", "ops.one-hot", "ops.segment-ids", "ops.sort", "ops.clip-global-norm", "ops.stateless-random")


if __name__ == "__main__":  # TF worker: python test_ops_errors_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(_tf_worker)
