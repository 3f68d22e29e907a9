"""tf.lookup.experimental.DenseHashTable on simdist vs TF 2.21: the bucket matrices export() gives after inserts,
removes (deleted buckets), a re-insert past a deleted bucket (stored twice, as TF), growth (re-bucketing at the 0.8
load factor), int32 keys (sign-extended hashes), string keys (tsl::Hash64), vector keys (Hash64Combine) and vector
values, lookups, sizes, the kernel's refusals (the empty and deleted keys, bucket counts, equal special keys, value
shapes, a key dtype without a kernel) and the ops inside a tf.function. Exports are read at once: TF's exported
tensors alias the table's buckets until it re-buckets (not modelled). Clause ops.lookup. Its golden (tests/goldens/)
is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
from case_wrappers import error_class
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _table(tf: Any, n: int = 8, **kw: Any) -> Any:
    args = dict(key_dtype=tf.int64, value_dtype=tf.int64, default_value=-1, empty_key=0, deleted_key=-1)
    args.update(kw)
    return tf.lookup.experimental.DenseHashTable(initial_num_buckets=n, **args)


def _snap(d: Any) -> list:
    """export() and size() read now (the exported tensors alias TF's buckets)."""
    keys, values = d.export()
    return [keys.numpy().copy(), values.numpy().copy(), d.size().numpy()]


def _sequence(tf: Any) -> Any:
    d = _table(tf)
    i64 = lambda v: tf.constant(v, tf.int64)  # noqa: E731
    out = []
    d.insert(i64([5, 13, 21, 3]), i64([50, 130, 210, 30]))
    out += _snap(d)
    d.remove(i64([13, 99]))
    out += _snap(d)
    d.insert(i64([29, 37, 45]), i64([1, 2, 3]))
    out += _snap(d) + [d.lookup(i64([5, 13, 45, 7])).numpy()]
    d.insert(i64([6, 7]), i64([6, 7]))
    out += _snap(d)
    d.insert(i64([21]), i64([-5]))
    return out + _snap(d) + [d.lookup(i64([21])).numpy()]


def _duplicate(tf: Any) -> Any:
    d = _table(tf)
    d.insert(tf.constant([5, 13], tf.int64), tf.constant([1, 2], tf.int64))
    d.remove(tf.constant([5], tf.int64))
    d.insert(tf.constant([13], tf.int64), tf.constant([9], tf.int64))
    return _snap(d) + [d.lookup(tf.constant([13], tf.int64)).numpy()]


def _grow(tf: Any) -> Any:
    d = _table(tf, 4)
    out = []
    for i in range(1, 12):
        d.insert(tf.constant([i * 7], tf.int64), tf.constant([i], tf.int64))
        out.append(_snap(d))
    return out


def _strings(tf: Any) -> Any:
    d = tf.lookup.experimental.DenseHashTable(tf.string, tf.float32, default_value=0.5, empty_key="", deleted_key="$",
                                              initial_num_buckets=16)
    d.insert(tf.constant(["a", "b", "c", "hello", "a longer key of many bytes"]), tf.constant([1., 2., 3., 4., 5.]))
    return _snap(d) + [d.lookup(tf.constant(["a", "zz", "hello"])).numpy()]


def _int32_vectors(tf: Any) -> Any:
    d = tf.lookup.experimental.DenseHashTable(tf.int32, tf.float32, default_value=[0., 0.], empty_key=-7,
                                              deleted_key=-8, initial_num_buckets=4)
    d.insert(tf.constant([1, -3, 2], tf.int32), tf.constant([[1., 1.], [2., 2.], [3., 3.]]))
    return _snap(d) + [d.lookup(tf.constant([-3, 9])).numpy()]


def _vector_keys(tf: Any) -> Any:
    d = _table(tf, empty_key=[0, 0], deleted_key=[-1, -1])
    d.insert(tf.constant([[1, 2], [3, 4], [2, 1]], tf.int64), tf.constant([12, 34, 21], tf.int64))
    return _snap(d) + [d.lookup(tf.constant([[2, 1], [9, 9]], tf.int64)).numpy()]


def _extremes(tf: Any) -> Any:
    """int64 extremes as keys (the smallest the deleted key), bool values."""
    import numpy as np
    big = [np.iinfo(np.int64).max, np.iinfo(np.int64).min + 2, -5, 2 ** 40 + 3, 7]
    d = _table(tf, value_dtype=tf.bool, default_value=False, deleted_key=np.iinfo(np.int64).min)
    d.insert(tf.constant(big, tf.int64), tf.constant([True, False, True, True, False]))
    return _snap(d) + [d.lookup(tf.constant(big + [1], tf.int64)).numpy()]


def _edge_values(tf: Any) -> Any:
    """int32 extremes, -0.0, inf and a subnormal stored bit for bit, a NaN default, an empty lookup and remove."""
    d = tf.lookup.experimental.DenseHashTable(tf.int32, tf.float64, float("nan"), 0, -1, initial_num_buckets=4)
    d.insert(tf.constant([2 ** 31 - 1, -2 ** 31, -2], tf.int32), tf.constant([-0.0, float("inf"), 1e-310], tf.float64))
    keys, values = d.export()
    s = tf.lookup.experimental.DenseHashTable(tf.string, tf.int64, -1, "", "$", initial_num_buckets=4)
    return [keys.numpy(), repr(values.numpy().tolist()), repr(d.lookup(tf.constant([5, -2], tf.int32)).numpy().tolist()),
            s.lookup(tf.constant([], tf.string)), s.remove(tf.constant(["q"])) is None, s.size()]


def _in_function(tf: Any) -> Any:
    d = _table(tf)

    @tf.function
    def f(k: Any) -> Any:
        d.insert(k, k * 10)
        return d.lookup(k + 1), d.size()
    return [f(tf.constant([1, 2], tf.int64)), f(tf.constant([3], tf.int64)), _snap(d)]


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {"values/sequence": _sequence, "values/duplicate": _duplicate,
                                          "values/grow": _grow, "values/strings": _strings,
                                          "values/int32_vectors": _int32_vectors, "values/vector_keys": _vector_keys,
                                          "values/in_function": _in_function, "values/extremes": _extremes,
                                          "values/edge_values": _edge_values}
    i64 = lambda tf, v: tf.constant(v, tf.int64)  # noqa: E731
    c["errors/empty_lookup"] = lambda tf: _table(tf).lookup(i64(tf, [0]))
    c["errors/deleted_lookup"] = lambda tf: _table(tf).lookup(i64(tf, [-1]))
    c["errors/empty_insert"] = lambda tf: _table(tf).insert(i64(tf, [0]), i64(tf, [1]))
    c["errors/deleted_remove"] = lambda tf: _table(tf).remove(i64(tf, [-1]))
    c["errors/equal_special_keys"] = lambda tf: _table(tf, deleted_key=0)
    c["errors/buckets6"] = lambda tf: _table(tf, 6)
    c["errors/buckets2"] = lambda tf: _table(tf, 2)
    c["errors/value_shape"] = lambda tf: _table(tf, value_dtype=tf.float32, default_value=[0., 0.]).insert(
        i64(tf, [1]), tf.constant([1.]))
    c["errors/key_shape"] = lambda tf: _table(tf, value_dtype=tf.float32, default_value=0., empty_key=[0, 0],
                                              deleted_key=[1, 1]).insert(i64(tf, [1, 2]), tf.constant([1., 2.]))
    c["errors/lookup_matrix"] = lambda tf: _table(tf).lookup(i64(tf, [[1, 2], [3, 4]]))
    vec = lambda tf: _table(tf, empty_key=[0, 0], deleted_key=[-1, -1])  # noqa: E731
    for k in ([1, 2, 3], [[1, 2, 3]], 5):
        c[f"errors/key_shape_insert_{k}"] = lambda tf, k=k: vec(tf).insert(i64(tf, k), i64(tf, 1))
        c[f"errors/key_shape_lookup_{k}"] = lambda tf, k=k: vec(tf).lookup(i64(tf, k))
        c[f"errors/key_shape_remove_{k}"] = lambda tf, k=k: vec(tf).remove(i64(tf, k))
    c["values/vector_key_batches"] = lambda tf: (lambda d: [d.insert(i64(tf, [[[1, 2]]]), i64(tf, [[7]])), d.size(),
                                                            d.lookup(i64(tf, [[[1, 2]], [[3, 3]]]))][1:])(vec(tf))
    c["errors/erase_dtype"] = lambda tf: _table(tf).erase(tf.constant([1]))
    c["errors/lookup_int32_keys"] = lambda tf: _table(tf).lookup(tf.constant([1]))
    c["errors/insert_int32_values"] = lambda tf: _table(tf).insert(i64(tf, [1]), tf.constant([1]))
    c["errors/mutable_lookup_int32_keys"] = lambda tf: tf.lookup.experimental.MutableHashTable(
        tf.int64, tf.float32, 0.).lookup(tf.constant([1]))
    c["errors/float_keys"] = error_class(lambda tf: _table(tf, key_dtype=tf.float32, empty_key=0.0, deleted_key=-1.0))
    c["errors/string_values"] = error_class(lambda tf: _table(tf, value_dtype=tf.string, default_value=""))
    c["errors/convert_name_prefix"] = lambda tf: tf.convert_to_tensor(tf.constant([1]), tf.int64, name="foo")
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(dense_table_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.lookup")
@pytest.mark.parametrize("prefix", ["values/", "errors/"])
def test_dense_hash_table_matches_tf(tf_results: dict[int, Any], prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
