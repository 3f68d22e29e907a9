"""Keras preprocessing layers with `sparse=True` or a `salt`, and tf.sparse.bincount of a RaggedTensor, on simdist vs
TF 2.21 + Keras 3.15: Hashing, StringLookup and IntegerLookup with a salt (SipHash; a pair, an int, string, int and
float inputs, a mask value, multi_hot, the configs and the errors); CategoryEncoding (one_hot, multi_hot, count; inputs of rank 0 to 3, a trailing 1, count_weights,
a negative index, RaggedTensor inputs), Discretization, Hashing, IntegerLookup and StringLookup (each output
mode, tf_idf of rank 1 and the GatherNd error of rank 2), HashedCrossing (one_hot, int), TextVectorization
(multi_hot, count, one_hot, tf_idf), and tf.sparse.bincount of a RaggedTensor along both axes, with weights,
binary output, min/max length and its errors; tf.math.bincount of a RaggedTensor with weights (both axes, ragged rank
2, the weights' checks). A SparseTensor result is compared by its indices, values, dtype
and dense shape. Clauses keras.layer.lookup and ops.sparse. Its golden (tests/goldens/) is stamped with this file.
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
from case_wrappers import error_class
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _layer(name: str, call: Callable[[Any], Any], **kw: Any) -> Callable[[Any], Any]:
    def f(tf: Any) -> Any:
        y = call(tf, getattr(tf.keras.layers, name)(**kw))
        if isinstance(y, tf.SparseTensor):
            return [y.indices, y.values, y.dense_shape]
        return y
    return f


def _on(value: Callable[[Any], Any], **call_kw: Any) -> Callable[[Any, Any], Any]:
    return lambda tf, layer: layer(value(tf), **{k: v(tf) for k, v in call_kw.items()})


def _bincount(values: Callable[[Any], Any], **kw: Any) -> Callable[[Any], Any]:
    def f(tf: Any) -> Any:
        y = tf.sparse.bincount(values(tf), **{k: v(tf) if callable(v) else v for k, v in kw.items()})
        return [y.indices, y.values, y.dense_shape]
    return f


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    ints = {"r2": lambda tf: tf.constant([[0, 1, 1, 3], [2, 2, 0, 9]]), "r1": lambda tf: tf.constant([0, 3, 3]),
            "r0": lambda tf: tf.constant(2), "r3": lambda tf: tf.constant([[[0, 1], [1, 1]], [[3, 2], [2, 2]]]),
            "r2c1": lambda tf: tf.constant([[1], [3]]), "ragged": lambda tf: tf.ragged.constant([[0, 3, 3], [1]])}
    for mode in ("one_hot", "multi_hot", "count"):
        for key, value in ints.items():
            c[f"ce/{mode}/{key}"] = (error_class if key == "ragged" and mode == "one_hot" else lambda f: f)(_layer("CategoryEncoding", _on(value), num_tokens=4, output_mode=mode, sparse=True))
        c[f"ce/{mode}/ragged_dense"] = _layer("CategoryEncoding", _on(ints["ragged"]), num_tokens=4, output_mode=mode)
    c["ce/count/weights"] = _layer("CategoryEncoding", _on(ints["r2"], count_weights=lambda tf: tf.constant(
        [[1.0, 2, 3, 4], [0.5, 0.5, 0.5, 0.5]])), num_tokens=4, output_mode="count", sparse=True)
    c["ce/count/negative"] = _layer("CategoryEncoding", _on(lambda tf: tf.constant([[0, -1], [2, 5]])), num_tokens=4,
                                    output_mode="count", sparse=True)
    floats = lambda tf: tf.constant([[-1.5, 0.2, 0.7, 3.0], [0.0, -0.0, 1.0, -9.0]])  # noqa: E731
    strings = lambda tf: tf.constant([["a", "b"], ["c", "a"]])  # noqa: E731
    for mode in ("one_hot", "multi_hot", "count", "int"):
        c[f"disc/{mode}"] = _layer("Discretization", _on(floats), bin_boundaries=[-1.0, 0.0, 1.0], output_mode=mode,
                                   sparse=True)
        c[f"hash/{mode}"] = _layer("Hashing", _on(strings), num_bins=3, output_mode=mode, sparse=True)
        c[f"intlookup/{mode}"] = _layer("IntegerLookup", _on(lambda tf: tf.constant([[1, 2], [3, 7]])),
                                        vocabulary=[1, 2, 3], output_mode=mode, sparse=True)
        c[f"strlookup/{mode}"] = _layer("StringLookup", _on(lambda tf: tf.constant(["a", "z", "b"])),
                                        vocabulary=["a", "b"], output_mode=mode, sparse=True)
    c["strlookup/tf_idf/rank2"] = _layer("StringLookup", _on(lambda tf: tf.constant([["a", "z", "b", "b"],
                                                                                     ["b", "b", "a", "a"]])),
                                         vocabulary=["a", "b"], idf_weights=[0.5, 2.0], output_mode="tf_idf",
                                         sparse=True)
    c["intlookup/tf_idf/rank1"] = _layer("IntegerLookup", _on(lambda tf: tf.constant([4, 4, 6])), vocabulary=[4, 5],
                                         idf_weights=[0.5, 2.0], output_mode="tf_idf", sparse=True)
    c["strlookup/one_hot/ragged"] = error_class(_layer("StringLookup", _on(lambda tf: tf.ragged.constant(
        [["a", "b"], ["z"]])), vocabulary=["a", "b"], output_mode="one_hot", sparse=True))
    c["strlookup/count/ragged"] = _layer("StringLookup", _on(lambda tf: tf.ragged.constant([["a", "b", "b"], ["z"]])),
                                         vocabulary=["a", "b"], output_mode="count", sparse=True)
    for mode in ("one_hot", "int"):
        c[f"hx/{mode}/r1"] = _layer("HashedCrossing", lambda tf, l: l([tf.constant([1, 2]), tf.constant([3, 4])]),
                                    num_bins=3, output_mode=mode, sparse=True)
        c[f"hx/{mode}/r2"] = _layer("HashedCrossing", lambda tf, l: l([tf.constant([[1], [2]]), tf.constant([[3], [4]])]),
                                    num_bins=3, output_mode=mode, sparse=True)
        c[f"hx/{mode}/r0"] = _layer("HashedCrossing", lambda tf, l: l([tf.constant(1), tf.constant(3)]), num_bins=3,
                                    output_mode=mode, sparse=True)
    text = lambda tf: tf.constant(["the cat the", "dog", ""])  # noqa: E731
    for mode in ("multi_hot", "count"):
        c[f"tv/{mode}"] = _layer("TextVectorization", _on(text), vocabulary=["the", "cat"], output_mode=mode,
                                 sparse=True)
    c["tv/one_hot"] = _layer("TextVectorization", _on(lambda tf: tf.constant(["the", "dog"])),
                             vocabulary=["the", "cat"], output_mode="one_hot", sparse=True)
    c["tv/tf_idf"] = _layer("TextVectorization", _on(text), vocabulary=["the", "cat"], idf_weights=[0.5, 1.5],
                            output_mode="tf_idf", sparse=True)
    r = lambda tf: tf.ragged.constant([[10, 20], [30, 20, 11, 101, 11, 10001], []], dtype=tf.int64)  # noqa: E731
    w = lambda tf: tf.ragged.constant([[1.0, 2.0], [3, 4, 5, 6, 7, 8], []])  # noqa: E731
    c["rb/rows"] = _bincount(r, axis=-1)
    c["rb/rows_minmax"] = _bincount(r, axis=-1, minlength=500, maxlength=500)
    c["rb/rows_binary"] = _bincount(r, axis=-1, binary_output=True)
    c["rb/rows_weights"] = _bincount(r, weights=w, axis=-1)
    c["rb/flat"] = _bincount(r, axis=0)
    c["rb/flat_weights"] = _bincount(r, weights=w, axis=0)
    c["rb/dense_weights"] = _bincount(r, weights=lambda tf: tf.constant([1.0, 2.0]), axis=-1)
    c["rb/other_splits"] = _bincount(r, weights=lambda tf: tf.ragged.constant([[1.0], [3, 4, 5, 6, 7, 8, 9], []]),
                                     axis=-1)
    rr = lambda tf: tf.ragged.constant([[1, 2, 2], [0], [3, 1]])  # noqa: E731
    rw = lambda tf: tf.ragged.constant([[0.5, 1.0, 2.0], [3.0], [1.5, 0.25]])  # noqa: E731
    c["rbm/flat_weights"] = lambda tf: tf.math.bincount(rr(tf), weights=rw(tf))
    c["rbm/rows_weights"] = lambda tf: tf.math.bincount(rr(tf), weights=rw(tf), axis=-1)
    c["rbm/rows_weights_maxlength"] = lambda tf: tf.math.bincount(rr(tf), weights=rw(tf), axis=-1, maxlength=2)
    c["rbm/rows_weights_dtype"] = lambda tf: tf.math.bincount(rr(tf), weights=rw(tf), axis=-1, dtype=tf.float64)
    c["rbm/int_weights"] = lambda tf: tf.math.bincount(rr(tf), weights=tf.ragged.constant([[1, 2, 3], [4], [5, 6]]))
    c["rbm/dense_weights"] = lambda tf: tf.math.bincount(rr(tf), weights=tf.constant([1.0, 2, 3, 4, 5, 6]))
    c["rbm/binary_and_weights"] = lambda tf: tf.math.bincount(rr(tf), weights=rw(tf), binary_output=True)
    c["rbm/other_splits"] = lambda tf: tf.math.bincount(rr(tf), weights=tf.ragged.constant(
        [[0.5, 1.0], [3.0, 2.0], [1.5, 0.25]]), axis=-1)
    r2 = lambda tf: tf.ragged.constant([[[1, 2], [2]], [[0, 3]]])  # noqa: E731
    c["rbm/ragged_rank_2_flat"] = lambda tf: tf.math.bincount(r2(tf))
    c["rbm/ragged_rank_2_rows"] = lambda tf: tf.math.bincount(r2(tf), axis=-1)
    c["rbm/ragged_rank_2_weights"] = lambda tf: tf.math.bincount(r2(tf), weights=tf.ragged.constant(
        [[[1.0, 2], [3]], [[4, 5]]]))
    c["rb/negative"] = _bincount(lambda tf: tf.ragged.constant([[1, -2], [3]]), axis=-1)
    words = lambda tf: tf.constant([["A", "B"], ["C", "D"], ["E", "F"]])  # noqa: E731
    c["salt/hash_pair"] = _layer("Hashing", _on(words), num_bins=3, salt=[133, 137])
    c["salt/hash_int"] = _layer("Hashing", _on(words), num_bins=3, salt=133)
    c["salt/hash_int_inputs"] = _layer("Hashing", _on(lambda tf: tf.constant([[1, 2], [3, -4]])), num_bins=5, salt=7)
    c["salt/hash_float_mask"] = _layer("Hashing", _on(lambda tf: tf.constant([[1.5, 2.0], [3.2, -4.0]])), num_bins=5,
                                       salt=7, mask_value=2.0)
    c["salt/hash_multi_hot"] = _layer("Hashing", _on(words), num_bins=4, salt=(1, 2), output_mode="multi_hot")
    c["salt/hash_bad"] = lambda tf: tf.keras.layers.Hashing(num_bins=3, salt="x")
    c["salt/hash_config"] = lambda tf: tf.keras.layers.Hashing(num_bins=3, salt=5).get_config()["salt"]
    c["salt/string_farmhash"] = _layer("StringLookup", _on(lambda tf: tf.constant(["a", "b", "zz", "q"])),
                                       vocabulary=["a"], num_oov_indices=3, salt=11, oov_method="farmhash")
    c["salt/string_floormod"] = _layer("StringLookup", _on(lambda tf: tf.constant(["a", "b", "zz", "q"])),
                                       vocabulary=["a"], num_oov_indices=3, salt=11)
    c["salt/integer_farmhash"] = _layer("IntegerLookup", _on(lambda tf: tf.constant([1, 2, 30, 400])), vocabulary=[1],
                                        num_oov_indices=3, salt=(4, 5), oov_method="farmhash")
    c["salt/integer_floormod"] = lambda tf: tf.keras.layers.IntegerLookup(vocabulary=[1], num_oov_indices=3, salt=4)
    c["salt/integer_bad"] = lambda tf: tf.keras.layers.IntegerLookup(vocabulary=[1], num_oov_indices=3,
                                                                     salt=[1, 2, 3], oov_method="farmhash")
    c["salt/string_config"] = lambda tf: tf.keras.layers.StringLookup(vocabulary=["a"], num_oov_indices=2,
                                                                      salt=9).get_config()["salt"]
    return c


CASES = _cases()
LABELS = sorted(CASES)
_AUTO_NAME = re.compile(r"\b(category_encoding|discretization|hashing|integer_lookup|string_lookup|hashed_crossing|"
                        r"text_vectorization)(_\d+)?\b")


def _run(tf: Any, label: str) -> Any:
    return case_results.run(tf, CASES[label], _AUTO_NAME)


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    return {i: _run(tf, LABELS[i]) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(LABELS))))


def _check(tf_results: dict[int, Any], prefixes: tuple[str, ...]) -> None:
    from simdist import tf
    bad = []
    labels = [(i, lab) for i, lab in enumerate(LABELS) if lab.startswith(prefixes)]
    assert labels, f"no cases with prefixes {prefixes}"
    for i, lab in labels:
        d = case_results.diff(_run(tf, lab), tf_results[i], lab)
        if d:
            bad.append(d)
    assert not bad, f"{len(bad)} of {len(labels)} cases differ from TF 2.21:\n" + "\n".join(bad)


@pytest.mark.clause("keras.layer.lookup")
def test_preprocessing_layers_sparse_outputs_match_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, ("ce/", "disc/", "hash/", "intlookup/", "strlookup/", "hx/", "tv/"))


@pytest.mark.clause("keras.layer.lookup")
def test_salted_hashing_matches_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, ("salt/",))


@pytest.mark.clause("ops.sparse")
def test_sparse_bincount_of_ragged_tensors_matches_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, ("rb/",))


@pytest.mark.clause("ops.strings-ragged")
def test_bincount_of_ragged_tensors_with_weights_matches_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, ("rbm/",))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
