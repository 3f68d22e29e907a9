"""keras.ops on tf.SparseTensor and tf.IndexedSlices inputs, on simdist vs TF 2.21 + Keras 3.15: every function Keras's
TF backend decorates for sparse inputs (the elementwise unary ones keep the sparsity, `exp`-like ones densify; the
binary ones take the union or the intersection of the indices, dividing by a sparse tensor densifies), with sparse,
dense and IndexedSlices operands; and the functions with their own sparse branch (matmul: sparse-dense, dense-sparse,
sparse-sparse through TF's CSR SparseMatrix ops, batched; mean (refused, as TF refuses it), relu, sum, concatenate,
reshape, expand_dims, squeeze, transpose, digitize, bincount(sparse=True), cast, convert_to_numpy). A sparse result is
compared by its indices, values, dtype and dense shape; the result's kind (sparse, dense, IndexedSlices) is part of
it. Clause keras.ops. Its golden (tests/goldens/) is stamped with this file.
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
from case_wrappers import error_class
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

UNARY = ("absolute", "arcsin", "arcsinh", "arctan", "arctanh", "ceil", "conjugate", "copy", "cos", "cosh", "exp",
         "exp2", "expm1", "floor", "imag", "isfinite", "log", "log10", "log1p", "log2", "negative", "real",
         "reciprocal", "round", "sign", "signbit", "sin", "sinh", "sqrt", "square", "tan", "tanh", "arccos",
         "arccosh")
BINARY = ("add", "subtract", "multiply", "maximum", "minimum", "divide")


def _sp(tf: Any) -> Any:
    return tf.SparseTensor(indices=[[0, 0], [0, 2], [1, 1], [2, 3]], values=[0.5, -0.25, 0.75, -1.0], dense_shape=[3, 4])


def _sp2(tf: Any) -> Any:
    return tf.SparseTensor(indices=[[0, 2], [1, 0], [2, 3]], values=[2.0, -3.0, 0.5], dense_shape=[3, 4])


def _dense(tf: Any) -> Any:
    return tf.constant(np.linspace(-1.0, 1.5, 12).reshape(3, 4).astype("float32"))


def _slices(tf: Any, rows: list[int]) -> Any:
    values = tf.constant(np.arange(1, 1 + 4 * len(rows), dtype="float32").reshape(len(rows), 4) / 4.0)
    return tf.IndexedSlices(values, tf.constant(rows, dtype=tf.int64), tf.constant([5, 4], dtype=tf.int64))


def _nan_split(v: Any) -> list[Any]:
    """A float array as (where it is NaN, its values with NaN as 0): case_results compares floats by allclose, which
    takes NaN for unequal."""
    a = np.asarray(v)
    if a.dtype.kind != "f":
        return [a]
    return [np.isnan(a), np.where(np.isnan(a), 0, a).astype(a.dtype)]


def _out(tf: Any, y: Any) -> Any:
    if isinstance(y, tf.SparseTensor):
        return ["sparse", y.indices, *_nan_split(y.values), y.dense_shape]
    if isinstance(y, tf.IndexedSlices):
        return ["slices", y.indices, *_nan_split(y.values), y.dense_shape]
    return ["numpy" if isinstance(y, np.ndarray) else "dense", *_nan_split(y)]


def _op(name: str, *args: Callable[[Any], Any], **kw: Any) -> Callable[[Any], Any]:
    def f(tf: Any) -> Any:
        fn = tf.keras.ops
        for part in name.split("."):
            fn = getattr(fn, part)
        return _out(tf, fn(*[a(tf) for a in args], **kw))
    return f


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    for name in UNARY:
        c[f"unary/{name}"] = _op(name, _sp)
    operands = {"sp_sp": (_sp, _sp2), "sp_dense": (_sp, _dense), "dense_sp": (_dense, _sp), "sp_same": (_sp, _sp),
                "sl_sl": (lambda tf: _slices(tf, [0, 3]), lambda tf: _slices(tf, [3, 4])),
                "sl_dense": (lambda tf: _slices(tf, [1, 2]), lambda tf: tf.ones((5, 4)))}
    for name in BINARY:
        for key, (a, b) in operands.items():
            c[f"binary/{name}/{key}"] = _op(name, a, b)
    c["special/matmul_sp_dense"] = _op("matmul", _sp, lambda tf: tf.constant(np.arange(8, dtype="float32").reshape(4, 2)))
    c["special/matmul_dense_sp"] = _op("matmul", lambda tf: tf.constant(np.arange(6, dtype="float32").reshape(2, 3)), _sp)
    c["special/matmul_sp_sp"] = _op("matmul", _sp, lambda tf: tf.sparse.transpose(_sp2(tf)))
    for axis in (None, 0, 1):
        c[f"special/sum_{axis}"] = _op("sum", _sp, axis=axis)
        c[f"special/mean_{axis}"] = error_class(_op("mean", _sp, axis=axis))
    c["special/sum_keepdims"] = _op("sum", _sp, axis=1, keepdims=True)
    c["special/mean_slices"] = _op("mean", lambda tf: _slices(tf, [0, 3]), axis=0)
    c["special/concatenate_sp_sp"] = lambda tf: _out(tf, tf.keras.ops.concatenate([_sp(tf), _sp2(tf)], axis=1))
    c["special/concatenate_sp_dense"] = lambda tf: _out(tf, tf.keras.ops.concatenate([_sp(tf), _dense(tf)], axis=0))
    c["special/reshape"] = _op("reshape", _sp, (2, 6))
    c["special/reshape_minus1"] = _op("reshape", _sp, (-1,))
    c["special/expand_dims"] = _op("expand_dims", _sp, 1)
    c["special/squeeze"] = _op("squeeze", lambda tf: tf.sparse.expand_dims(_sp(tf), 0), 0)
    c["special/transpose"] = _op("transpose", _sp)
    c["special/digitize"] = _op("digitize", _sp, [-0.5, 0.0, 0.6])
    c["special/bincount_sparse"] = _op("bincount", lambda tf: tf.constant([[0, 1, 1], [2, 2, 0]]), sparse=True)
    c["special/cast"] = _op("cast", _sp, "float16")
    c["special/cast_int"] = _op("cast", _sp, "int32")
    c["special/convert_to_numpy"] = _op("convert_to_numpy", _sp)
    c["special/relu"] = error_class(_op("relu", _sp))
    c["special/matmul_batched_sp_sp"] = _op("matmul", lambda tf: tf.sparse.expand_dims(_sp(tf), 0),
                                            lambda tf: tf.sparse.expand_dims(tf.sparse.transpose(_sp2(tf)), 0))
    return c


CASES = _cases()
LABELS = sorted(CASES)
_NO_NAMES = re.compile(r"(?!)(x)")   # (no auto-named objects in these messages; one group for sub)


def _run(tf: Any, label: str) -> Any:
    return case_results.run(tf, CASES[label], _NO_NAMES)


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    return {i: _run(tf, LABELS[i]) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(LABELS))))


@pytest.mark.clause("keras.ops")
def test_keras_ops_on_sparse_inputs_match_tf(tf_results: dict[int, Any]) -> None:
    from simdist import tf
    bad = [d for i, lab in enumerate(LABELS) if (d := case_results.diff(_run(tf, lab), tf_results[i], lab))]
    assert not bad, f"{len(bad)} of {len(LABELS)} cases differ from TF 2.21:\n" + "\n".join(bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
