"""`tf.raw_ops` against real TensorFlow 2.21 (clause ops.raw-ops): every raw op in simdist's
namespace called with valid inputs (TF's own calls, recorded from the per-op test matrix and the
differential modules into raw_op_cases.json by scripts/record_raw_op_cases.py; for ops no program
called, plain 2x2 inputs TF's raw op accepts), eagerly; a sample
inside tf.function and under a GradientTape (the op's registered gradient); and the argument
errors (positional arguments, a missing or unknown keyword, a wrong attr type, a list attr given a
scalar, an op simdist does not implement) with their classes and TypeError texts. Needs the `tf`
extra; live only (the values of oneDNN kernels differ on hosts without it: tolerance below).

The comparison is within 1e-5 relative (float16 1e-3, bfloat16 1e-2): this module checks that a
raw call reaches the op with TF's arguments; the kernels' bits are the per-op modules' business.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, pytest.mark.skipif(not tf_workers.HAS_TF, reason="needs real TensorFlow 2.21")]
clause = pytest.mark.clause

RECORDED: dict[str, dict[str, Any]] = json.loads((Path(__file__).with_name("raw_op_cases.json")).read_text())


def decode(tf: Any, v: Any) -> Any:
    """A recorded argument as `tf`'s value: arrays as tensors of their dtype, dtypes as DTypes."""
    if isinstance(v, list):
        return [decode(tf, x) for x in v]
    if isinstance(v, dict) and "dtype_name" in v:
        return tf.as_dtype(v["dtype_name"])
    if isinstance(v, dict) and "values" in v:
        dt, shape, values = v["dtype"], v["shape"], v["values"]
        if dt == "string":
            return tf.constant(np.array([s.encode("latin-1") for s in values], dtype=object).reshape(shape))
        if dt.startswith("complex"):
            a = np.array([complex(re, im) for re, im in values], dtype=dt).reshape(shape)
            return tf.constant(a, dtype=tf.as_dtype(dt))
        if dt == "bfloat16":
            return tf.cast(tf.constant(np.array(values, np.float32).reshape(shape)), tf.bfloat16)
        return tf.constant(np.array(values, dtype=dt).reshape(shape), dtype=tf.as_dtype(dt))
    return v


# outputs whose vectors' signs are the solver's choice (LAPACK's in simdist, Eigen's in TF): compared as |v|
_SIGN_FREE = {"SelfAdjointEigV2": (1,), "Svd": (1, 2), "Qr": (0, 1), "Eig": (1,)}
# kernels simdist computes another way than TF (clause ops.linalg-sqrtm and its neighbours): this relative tolerance
_LOOSE = {"MatrixSquareRoot": 1e-4, "MatrixLogarithm": 1e-4, "MatrixExponential": 1e-4}
# contractions simdist sums in BLAS's order, not the order of TF's GEMM blocking (which follows the CPU: AVX-512 or
# AVX2 packets): an output that is a cancellation of terms of order 1 differs by their rounding, about
# eps * sum|terms| ~ 1e-6 absolute, not relative to itself (observed: 0.00198079 against TF's 0.00198085 on an
# AMD EPYC host, where the Intel Xeon's TF agreed within 1e-5): an absolute floor of rtol * this ratio
_ABS_RATIO = {"FusedResizeAndPadConv2D": 0.1, "FusedPadConv2D": 0.1}


def _call(op: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        out = getattr(tf.raw_ops, op)(**{k: decode(tf, v) for k, v in RECORDED[op].items()})
        if op in _SIGN_FREE:
            out = [tf.abs(o) if i in _SIGN_FREE[op] else o for i, o in enumerate(out)]
        return out
    return run


def _in_function(op: str) -> Callable[[Any], Any]:
    """The call inside a tf.function (traced once, its inputs made outside)."""
    def run(tf: Any) -> Any:
        kw = {k: decode(tf, v) for k, v in RECORDED[op].items()}
        return tf.function(lambda: getattr(tf.raw_ops, op)(**kw), autograph=False)()
    return run


def _gradient(op: str, wrt: str) -> Callable[[Any], Any]:
    """d sum(output 0) / d input `wrt`, through the op's registered gradient."""
    def run(tf: Any) -> Any:
        kw = {k: decode(tf, v) for k, v in RECORDED[op].items()}
        with tf.GradientTape() as tape:
            tape.watch(kw[wrt])
            out = getattr(tf.raw_ops, op)(**kw)
            first = out[0] if isinstance(out, (list, tuple)) else out
            y = tf.reduce_sum(first)
        return tape.gradient(y, kw[wrt])
    return run


def _message(program: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """The error's class and text as a string tensor (for TypeErrors, whose texts are Python's)."""
    def run(tf: Any) -> Any:
        try:
            program(tf)
        except TypeError as e:
            return tf.constant(f"TypeError: {e}")
        return tf.constant("no error")
    return run


_M = lambda tf: tf.constant([[1.0, 2.0], [3.0, 4.0]])  # noqa: E731

_TRACED = ("MatMul", "Cumsum", "Sum", "ConcatV2", "Transpose", "Relu", "Softmax", "TopKV2", "Unique", "Cast",
           "Pack", "Reshape", "StridedSlice", "GatherV2", "Conv2D", "MaxPool", "OneHot", "Tile")
_GRADIENTS = (("MatMul", "a"), ("Cumsum", "x"), ("Sum", "input"), ("Mul", "x"), ("Exp", "x"), ("Tanh", "x"),
              ("Softmax", "logits"), ("Relu", "features"), ("Conv2D", "input"), ("Transpose", "x"),
              ("Mean", "input"), ("Sigmoid", "x"), ("Log1p", "x"), ("Square", "x"), ("Max", "input"))

_ERRORS: list[tuple[str, Callable[[Any], Any]]] = [
    ("positional", _message(lambda tf: tf.raw_ops.MatMul(_M(tf), _M(tf)))),
    ("missing-required", _message(lambda tf: tf.raw_ops.MatMul(a=_M(tf)))),
    ("unknown-keyword", _message(lambda tf: tf.raw_ops.MatMul(a=_M(tf), b=_M(tf), foo=1))),
    ("bool-attr-str", _message(lambda tf: tf.raw_ops.MatMul(a=_M(tf), b=_M(tf), transpose_a="x"))),
    ("bool-attr-int", _message(lambda tf: tf.raw_ops.MatMul(a=_M(tf), b=_M(tf), transpose_a=1))),
    ("type-attr", _message(lambda tf: tf.raw_ops.Cast(x=_M(tf), DstT="int3"))),
    ("float-attr", _message(lambda tf: tf.raw_ops.LeakyRelu(features=_M(tf), alpha="a"))),
    ("int-attr", _message(lambda tf: tf.raw_ops.Unpack(value=_M(tf), num="2"))),
    ("list-attr-scalar", _message(lambda tf: tf.raw_ops.MaxPool(input=tf.ones([1, 2, 2, 1]), ksize=1,
                                                                strides=[1, 1, 1, 1], padding="SAME"))),
    ("list-input-scalar", _message(lambda tf: tf.raw_ops.ConcatV2(values=_M(tf), axis=0))),
    ("string-attr-int", _message(lambda tf: tf.raw_ops.MaxPool(input=tf.ones([1, 2, 2, 1]), ksize=[1, 1, 1, 1],
                                                               strides=[1, 1, 1, 1], padding=1))),
    ("string-attr-unknown", lambda tf: tf.raw_ops.MaxPool(input=tf.ones([1, 2, 2, 1]), ksize=[1, 1, 1, 1],
                                                          strides=[1, 1, 1, 1], padding="SAM")),
    ("input-dtype-mismatch", lambda tf: tf.raw_ops.AddV2(x=tf.constant(1.0), y=tf.constant(1))),
    ("python-inputs", lambda tf: tf.raw_ops.AddV2(x=[1.0, 2.0], y=3.0)),
    ("python-int-inputs", lambda tf: tf.raw_ops.Sum(input=[[1, 2], [3, 4]], axis=1, keep_dims=True)),
    ("type-attr-given", lambda tf: tf.raw_ops.Cast(x=_M(tf), DstT=tf.int32, Truncate=False)),
    ("multi-output-fields", lambda tf: [tf.constant(list(type(tf.raw_ops.Unique(x=[3, 1, 3]))._fields))]),
    ("list-output", lambda tf: tf.raw_ops.Unpack(value=_M(tf), num=2, axis=1)),
    ("not-a-raw-op", lambda tf: tf.raw_ops.NoSuchOp),
    # (session 28's raw forms: the kernels' own checks and edge results)
    ("ngrams-first-split", lambda tf: tf.raw_ops.StringNGrams(
        data=["a", "b"], data_splits=tf.constant([1, 2], tf.int64), separator=" ", ngram_widths=[1], left_pad="",
        right_pad="", pad_width=0, preserve_short_sequences=False)),
    ("ngrams-split-range", lambda tf: tf.raw_ops.StringNGrams(
        data=["a", "b"], data_splits=tf.constant([0, 3, 2], tf.int64), separator=" ", ngram_widths=[1], left_pad="",
        right_pad="", pad_width=0, preserve_short_sequences=False)),
    ("ngrams-no-splits", lambda tf: list(tf.raw_ops.StringNGrams(
        data=["a", "b"], data_splits=tf.constant([], tf.int64), separator=" ", ngram_widths=[2], left_pad="",
        right_pad="", pad_width=0, preserve_short_sequences=False))),
    ("string-split-matrix", lambda tf: tf.raw_ops.StringSplit(input=[["a b"]], delimiter=" ", skip_empty=True)),
    ("string-split-delimiters", lambda tf: tf.raw_ops.StringSplit(input=["a b", ""], delimiter=[" "],
                                                                  skip_empty=True)),
    ("string-split-bytes", lambda tf: list(tf.raw_ops.StringSplit(input=["ab c", "", ","], delimiter="",
                                                                  skip_empty=True))),
    ("sparse-cross-internal-type", lambda tf: tf.raw_ops.SparseCross(
        indices=[], values=[], shapes=[], dense_inputs=[tf.constant([[1], [2]], tf.int64)], hashed_output=True,
        num_buckets=10, hash_key=1, out_type=tf.int64, internal_type=tf.string)),
    ("sparse-cross-string-out", lambda tf: list(tf.raw_ops.SparseCross(
        indices=[], values=[], shapes=[], dense_inputs=[tf.constant([[1], [2]], tf.int64), tf.constant([["a"], ["b"]])],
        hashed_output=True, num_buckets=10, hash_key=1, out_type=tf.string, internal_type=tf.int64))),
    ("parse-example-counts", lambda tf: tf.raw_ops.ParseExampleV2(
        serialized=[b""], names=[], sparse_keys=["a", "b"], dense_keys=[], ragged_keys=[], dense_defaults=[],
        num_sparse=1, sparse_types=[tf.int64], ragged_value_types=[], ragged_split_types=[], dense_shapes=[])),
    ("parse-example-matrix", lambda tf: tf.raw_ops.ParseExampleV2(
        serialized=[[b""]], names=[], sparse_keys=["a"], dense_keys=[], ragged_keys=[], dense_defaults=[],
        num_sparse=1, sparse_types=[tf.int64], ragged_value_types=[], ragged_split_types=[], dense_shapes=[])),
    ("parse-example-empty", lambda tf: [x for part in tf.raw_ops.ParseExampleV2(
        serialized=[b"", b""], names=["x", "y"], sparse_keys=["a"], dense_keys=[], ragged_keys=["r"],
        dense_defaults=[], num_sparse=1, sparse_types=[tf.float32], ragged_value_types=[tf.string],
        ragged_split_types=[tf.int64], dense_shapes=[]) for x in part]),
    ("parse-sequence-example-counts", lambda tf: tf.raw_ops.ParseSequenceExampleV2(
        serialized=[b""], debug_name=tf.constant([], tf.string), context_sparse_keys=["c"], context_dense_keys=[],
        context_ragged_keys=tf.constant([], tf.string), feature_list_sparse_keys=[], feature_list_dense_keys=["f"],
        feature_list_ragged_keys=tf.constant([], tf.string), feature_list_dense_missing_assumed_empty=[True, False],
        context_dense_defaults=[], Ncontext_sparse=1, context_sparse_types=[tf.int64], context_ragged_value_types=[],
        context_ragged_split_types=[], context_dense_shapes=[], Nfeature_list_sparse=0, Nfeature_list_dense=1,
        feature_list_dense_types=[tf.float32], feature_list_sparse_types=[], feature_list_ragged_value_types=[],
        feature_list_ragged_split_types=[], feature_list_dense_shapes=[[2]])),
    ("parse-sequence-example-required", lambda tf: tf.raw_ops.ParseSequenceExampleV2(
        serialized=[b""], debug_name=tf.constant([], tf.string), context_sparse_keys=tf.constant([], tf.string),
        context_dense_keys=tf.constant([], tf.string), context_ragged_keys=tf.constant([], tf.string),
        feature_list_sparse_keys=tf.constant([], tf.string), feature_list_dense_keys=["f"],
        feature_list_ragged_keys=tf.constant([], tf.string), feature_list_dense_missing_assumed_empty=[False],
        context_dense_defaults=[], Ncontext_sparse=0, context_sparse_types=[], context_ragged_value_types=[],
        context_ragged_split_types=[], context_dense_shapes=[], Nfeature_list_sparse=0, Nfeature_list_dense=1,
        feature_list_dense_types=[tf.int64], feature_list_sparse_types=[], feature_list_ragged_value_types=[],
        feature_list_ragged_split_types=[], feature_list_dense_shapes=[[]])),
    # (a shape attr as a Python list on the eager fast path: -1 unknown, below -1 the NodeDef's error)
    ("shape-attr-minus-one", lambda tf: tf.raw_ops.EnsureShape(input=tf.ones([3, 2]), shape=[-1, 2])),
    ("shape-attr-minus-one-tuple", lambda tf: tf.raw_ops.EnsureShape(input=tf.ones([3, 2]), shape=(3, -1))),
    ("shape-attr-minus-two", lambda tf: tf.raw_ops.EnsureShape(input=tf.ones([3, 2]), shape=[-2, 2])),
    ("shape-attr-minus-one-rank", lambda tf: tf.raw_ops.EnsureShape(input=tf.ones([3, 2]), shape=[-1])),
    ("shape-attr-minus-one-traced", lambda tf: tf.function(lambda: tf.raw_ops.EnsureShape(
        input=tf.ones([3, 2]), shape=[-1, 2]), autograph=False)()),
    ("sparse-split-pieces", lambda tf: [x for part in tf.raw_ops.SparseSplit(
        split_dim=0, indices=tf.constant([[0, 0], [2, 1]], tf.int64), values=[1.0, 2.0],
        shape=tf.constant([3, 2], tf.int64), num_split=3) for x in part]),
]

CASES: list[tuple[str, str, Callable[[Any], Any]]] = (
    [(f"eager[{op}]", "eager", _call(op)) for op in sorted(RECORDED)]
    + [(f"function[{op}]", "function", _in_function(op)) for op in _TRACED if op in RECORDED]
    + [(f"gradient[{op}:{w}]", "gradient", _gradient(op, w)) for op, w in _GRADIENTS if op in RECORDED]
    + [(n, "errors", f) for n, f in _ERRORS])


def _agree(case: tuple) -> Any:
    op = case[0].partition("[")[2].rstrip("]").partition(":")[0]
    return complex_parts(edge_compare.within(_LOOSE.get(op, 1e-5), floors={"float16": 1e-3, "bfloat16": 1e-2},
                                             atol_ratio=_ABS_RATIO.get(op, 1e-3)))


def complex_parts(agree: Any) -> Any:
    """`agree` of a complex value's real and imaginary parts each (edge_compare.within compares
    complex values bit for bit; Eig's and MatrixLogarithm's are LAPACK's against Eigen's)."""
    def parts(got: np.ndarray, want: np.ndarray) -> np.ndarray:
        if got.dtype.kind == "c" and want.dtype.kind == "c":
            return agree(got.real.copy(), want.real.copy()) & agree(got.imag.copy(), want.imag.copy())
        return agree(got, want)
    return parts


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.raw-ops")
@EDGES.parametrize("eager")
def test_raw_op_eager(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.raw-ops")
@EDGES.parametrize("function")
def test_raw_op_in_function(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.raw-ops")
@EDGES.parametrize("gradient")
def test_raw_op_gradient(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.raw-ops")
@EDGES.parametrize("errors")
def test_raw_op_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.raw-ops")
def test_every_raw_op_has_a_case() -> None:
    """Every raw op in simdist's namespace is called by some eager case (but those every call of which
    TF 2.21 refuses, whose errors tests/ops/test_raw_legacy_tf.py checks, and the file ops, whose calls
    need files: tests/ops/test_raw_file_ops_tf.py, and those of a tensor attr, which TF 2.21 refuses eagerly:
    raw_ops.eager_refused, and the function-calling ops, whose func attrs are concrete functions no JSON
    records: tests/ops/test_rawops39_tf.py, and the ops over resource handles, whose handles name variables no JSON
    records: tests/ops/test_res40_tf.py)."""
    from simdist.runtime.ops import raw_functional, raw_legacy, raw_ops, raw_resource_ops
    from test_raw_file_ops_tf import FILE_OPS
    # (DecodeJxl: no JPEG XL encoder or decoder among the dependencies makes a valid input; its header errors are
    # compared with TF's in tests/ops/test_fz56b_codecs_tf.py)
    no_valid_input = {"DecodeJxl"}
    missing = sorted(set(raw_ops.bound_names()) - set(RECORDED) - set(raw_legacy.REFUSED) - set(FILE_OPS)
                     - set(raw_ops.eager_refused()) - set(raw_functional.NAMES) - set(raw_resource_ops.NAMES)
                     - no_valid_input)
    assert not missing, f"raw ops with no recorded call: {missing}; run scripts/record_raw_op_cases.py"
    stale = sorted(set(RECORDED) - set(raw_ops.bound_names()))
    assert not stale, f"recorded calls of raw ops simdist's namespace lacks: {stale}"


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_raw_ops_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
