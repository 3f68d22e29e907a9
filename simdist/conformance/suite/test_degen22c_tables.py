"""degen22c (issue 29, session 22): tf.lookup's vocabulary table off its degenerate points: values that
are not 0..n-1 (where "size + bucket" and "largest id + 1 + bucket" differ), several OOV buckets,
integer keys looked up as another integer dtype, no initializer. The expected ids are computed in the
test from TF 2.21's rule (tensorflow/python/ops/lookup_ops.py StaticVocabularyTable.lookup, transcribed:
the table's value, else table.size() + to_hash_bucket_fast(as_string(key), num_oov_buckets), the
hash by the backend's own tf.strings.to_hash_bucket_fast, clause ops.string-hash-bucket)."""

from __future__ import annotations

import os
import tempfile

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, raises

clause = pytest.mark.clause


def _np(x) -> np.ndarray:
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


@clause("ops.lookup", ref="tf221")
def test_degen22c_static_vocabulary_table_oov_buckets(tf, budget):
    """StaticVocabularyTable(initializer, num_oov_buckets): a key in the table gets its value; any other key
    table.size() + its hash bucket (the entry count, not the largest id: ids may collide with values);
    size() is entries + buckets; integer tables cast int32 keys (lookup_key_dtype) to int64 and hash their
    decimal strings; without an initializer every string key is hashed. num_oov_buckets <= 0 is
    ValueError, a value dtype other than int64 TypeError, keys of another dtype TypeError."""
    d = tempfile.mkdtemp()
    vocab_file = os.path.join(d, "vocab.txt")
    with open(vocab_file, "w", encoding="utf-8") as f:
        f.write("x\ny\nz\n")
    cases = ["strings, values 5/9/2, 3 buckets", "int64 keys looked up as int32, 4 buckets",
             "no initializer, 5 buckets", "text file, 2 buckets"]
    for name in budget(cases):
        if name.startswith("strings"):
            keys, vals, n = ["a", "b", "c"], [5, 9, 2], 3
            table = tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(
                tf.constant(keys), tf.constant(vals, dtype=tf.int64)), num_oov_buckets=n)
            x = np.array(["a", "zz", "c", "q", "b", "hello"])
            query = tf.constant(x)
        elif name.startswith("int64"):
            keys, vals, n = [10, 20], [0, 1], 4
            table = tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(
                tf.constant(keys, dtype=tf.int64), tf.constant(vals, dtype=tf.int64)), num_oov_buckets=n,
                lookup_key_dtype=tf.int32)
            x = np.array([10, 7, 20, 11, -3], dtype=np.int32)
            query = tf.constant(x)
        elif name.startswith("no initializer"):
            keys, vals, n = [], [], 5
            table = tf.lookup.StaticVocabularyTable(None, num_oov_buckets=n)
            x = np.array(["a", "b", "zz"])
            query = tf.constant(x)
        else:
            keys, vals, n = ["x", "y", "z"], [0, 1, 2], 2
            table = tf.lookup.StaticVocabularyTable(tf.lookup.TextFileInitializer(
                vocab_file, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
                tf.lookup.TextFileIndex.LINE_NUMBER), num_oov_buckets=n)
            x = np.array(["z", "w", "x", "y", "xx"])
            query = tf.constant(x)
        text = [str(v) for v in x.tolist()]
        buckets = _np(tf.strings.to_hash_bucket_fast(tf.constant(text), n)).tolist()
        index = dict(zip([str(k) for k in keys], vals))
        want = [index[t] if t in index else len(keys) + b for t, b in zip(text, buckets)]
        got = _np(table.lookup(query)).tolist()
        assert_equal(str(got), str(want), what="ids", call=f"StaticVocabularyTable ({name}).lookup({x.tolist()})")
        assert_equal(int(table.size()), len(keys) + n, what="size()", call=f"StaticVocabularyTable ({name})")
    init = tf.lookup.KeyValueTensorInitializer(tf.constant(["a"]), tf.constant([0], dtype=tf.int64))
    with raises(ValueError, match="num_oov_buckets", call="StaticVocabularyTable(num_oov_buckets=0)"):
        tf.lookup.StaticVocabularyTable(init, 0)
    with raises(TypeError, match="value_dtype", call="StaticVocabularyTable of int32 values"):
        tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(
            tf.constant(["a"]), tf.constant([1], dtype=tf.int32)), 1)
    with raises(TypeError, match="Dtype of argument `keys`", call="StaticVocabularyTable of strings .lookup(int64)"):
        tf.lookup.StaticVocabularyTable(init, 2).lookup(tf.constant([1], dtype=tf.int64))
