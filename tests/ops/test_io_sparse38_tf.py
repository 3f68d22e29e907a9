"""tf.io.serialize_sparse, serialize_many_sparse, deserialize_many_sparse and decode_json_example (TF 2.21's
wrappers over SerializeSparse, SerializeManySparse, DeserializeManySparse and DecodeJSONExample) on simdist vs
TF 2.21: the bytes, a round trip with and without `rank` (set_shape of the indices and dense shape, a wrong rank's
ValueError), a dense input's TypeError, inside a tf.function. Clause ops.sparse. Its golden (tests/goldens/) is
stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
from case_wrappers import error_class
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _st(tf: Any) -> Any:
    return tf.sparse.SparseTensor([[0, 1], [1, 0], [1, 2]], [1.0, 2.0, 3.0], [2, 3])


def _parts(sp: Any) -> list:
    return [sp.indices, sp.values, sp.dense_shape, sp.indices.shape.as_list(), sp.dense_shape.shape.as_list()]


def _in_function(tf: Any) -> Any:
    st = _st(tf)

    @tf.function
    def f() -> Any:
        sp = tf.io.deserialize_many_sparse(tf.io.serialize_many_sparse(st), tf.float32, rank=2)
        return sp.indices, sp.values, sp.dense_shape
    return list(f())


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    c["serialize"] = lambda tf: tf.io.serialize_sparse(_st(tf))
    c["serialize_int"] = lambda tf: tf.io.serialize_sparse(tf.sparse.SparseTensor([[2]], [7], [5]))
    c["serialize_many"] = lambda tf: tf.io.serialize_many_sparse(_st(tf))
    c["roundtrip"] = lambda tf: _parts(tf.io.deserialize_many_sparse(tf.io.serialize_many_sparse(_st(tf)), tf.float32))
    c["roundtrip_rank"] = lambda tf: _parts(tf.io.deserialize_many_sparse(tf.io.serialize_many_sparse(_st(tf)),
                                                                          tf.float32, rank=2))
    c["roundtrip_bad_rank"] = lambda tf: tf.io.deserialize_many_sparse(tf.io.serialize_many_sparse(_st(tf)),
                                                                       tf.float32, rank=3)
    c["roundtrip_bad_dtype"] = lambda tf: tf.io.deserialize_many_sparse(tf.io.serialize_many_sparse(_st(tf)), tf.int32)
    c["dense_input"] = lambda tf: tf.io.serialize_sparse(tf.constant([1.0]))
    c["dense_input_many"] = lambda tf: tf.io.serialize_many_sparse([1.0])
    c["json"] = lambda tf: tf.io.decode_json_example(
        ['{"features": {"feature": {"a": {"int64List": {"value": ["3"]}}}}}', '{}'])
    # (the text of a malformed record is protobuf's C++ JSON parser's, which simdist does not reproduce)
    c["json_bad"] = error_class(lambda tf: tf.io.decode_json_example(['{"features": 3}']))
    c["function"] = _in_function
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(io_sparse_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.sparse")
def test_io_sparse_wrappers_match_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
