"""`tf.keras.preprocessing` (Keras 3.15's legacy text and sequence preprocessing) on simdist vs TF 2.21 +
Keras 3.15: text_to_word_sequence (filters, lower, split), hashing_trick with md5, one_hot's range and
consistency (Python's hash differs between processes, so its values are not compared), the Tokenizer
(fit_on_texts with ties in first-seen order, num_words, oov_token, char_level, lists of words, lower=False, an
analyzer, texts_to_sequences and back, every matrix mode, fit_on_sequences with tfidf, the errors, get_config
and to_json/tokenizer_from_json), make_sampling_table, skipgrams (seeded shuffles, categorical labels, and
after keras.utils.set_random_seed the negative samples too), TimeseriesGenerator (windows, stride, sampling
rate, reverse, start/end, its errors, shuffled rows after set_random_seed, its broken get_config), and the
namespace's aliases of keras.utils. Clause keras.preprocessing.legacy. Its golden (tests/goldens/) is stamped
with this file.
"""

from __future__ import annotations

import json
import os
import re
import warnings
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

TEXTS = ["The cat sat on the mat.", "The dog, the cat!", "A bird; a BIRD", "", "mat mat cat"]


def _text(tf: Any) -> Any:
    return tf.keras.preprocessing.text


def _seq(tf: Any) -> Any:
    return tf.keras.preprocessing.sequence


def _tok(tf: Any, **kw: Any) -> Any:
    t = _text(tf).Tokenizer(**kw)
    t.fit_on_texts(TEXTS)
    return t


def _state(t: Any) -> Any:
    """A tokenizer's state, dict orders made canonical where Keras's own come from a set."""
    return (list(t.word_counts.items()), sorted(t.word_docs.items()), list(t.word_index.items()),
            sorted(t.index_word.items()), sorted(t.index_docs.items()), t.document_count)


def _seeded(seed: int, fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        tf.keras.utils.set_random_seed(seed)
        return fn(tf)
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    for i, kw in enumerate(({}, {"lower": False}, {"filters": "", "split": " "}, {"split": ","},
                            {"filters": "aeiou"})):
        c[f"words/{i} {sorted(kw)}"] = lambda tf, kw=kw: [_text(tf).text_to_word_sequence(t, **kw) for t in TEXTS]
    c["hashing/md5"] = lambda tf: [_text(tf).hashing_trick(t, 7, hash_function="md5") for t in TEXTS]
    c["hashing/md5 analyzer"] = lambda tf: _text(tf).hashing_trick("ab cd", 5, hash_function="md5",
                                                                   analyzer=lambda s: list(s))
    c["hashing/custom"] = lambda tf: _text(tf).hashing_trick("a bb ccc", 4, hash_function=len)

    def one_hot_properties(tf: Any) -> Any:
        out = _text(tf).one_hot("x y x z y x", 50)
        return (len(out), all(1 <= v < 50 for v in out), out[0] == out[2] == out[5], out[1] == out[4])
    c["hashing/one_hot"] = one_hot_properties
    for label, kw in (("default", {}), ("num_words", {"num_words": 4}), ("oov", {"oov_token": "<oov>"}),
                      ("num_words oov", {"num_words": 4, "oov_token": "<oov>"}), ("char", {"char_level": True}),
                      ("lower False", {"lower": False}), ("analyzer", {"analyzer": lambda s: s.split("t")})):
        c[f"tokenizer/{label}/state"] = lambda tf, kw=kw: _state(_tok(tf, **kw))
        c[f"tokenizer/{label}/sequences"] = lambda tf, kw=kw: (
            _tok(tf, **kw).texts_to_sequences(TEXTS + ["unknown cat words"]),
            _tok(tf, **kw).sequences_to_texts([[1, 2, 3], [4, 99, 2], []]))
        for mode in ("binary", "count", "freq", "tfidf"):
            c[f"tokenizer/{label}/matrix {mode}"] = lambda tf, kw=kw, mode=mode: _tok(tf, **kw).texts_to_matrix(
                TEXTS, mode=mode)
    c["tokenizer/lists of words"] = lambda tf: (lambda t: (t.fit_on_texts([["Ab", "cd"], ["cd"]]), _state(t),
                                                           t.texts_to_sequences([["cd", "ab", "x"]])))(
        _text(tf).Tokenizer())
    c["tokenizer/fit_on_sequences tfidf"] = lambda tf: (lambda t: (t.fit_on_sequences([[1, 2, 2], [2, 3]]),
                                                                   t.sequences_to_matrix([[1, 2, 2], [3, 5]],
                                                                                         mode="tfidf")))(
        _text(tf).Tokenizer(num_words=5))
    c["tokenizer/matrix unfitted"] = lambda tf: _text(tf).Tokenizer().sequences_to_matrix([[1]])
    c["tokenizer/tfidf unfitted"] = lambda tf: _text(tf).Tokenizer(num_words=3).sequences_to_matrix([[1]],
                                                                                                   mode="tfidf")
    c["tokenizer/bad mode"] = lambda tf: _tok(tf).texts_to_matrix(TEXTS, mode="tf")
    c["tokenizer/unknown kwarg"] = lambda tf: _text(tf).Tokenizer(foo=1)

    def nb_words(tf: Any) -> Any:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            t = _text(tf).Tokenizer(nb_words=3)
        return (t.num_words, [str(x.message) for x in w])
    c["tokenizer/nb_words"] = nb_words

    def config(tf: Any) -> Any:
        t = _tok(tf, num_words=5, oov_token="?")
        cfg = t.get_config()
        parsed = {k: (sorted(json.loads(v).items()) if k in ("word_docs", "index_docs") else
                      json.loads(v) if isinstance(v, str) and v[:1] == "{" else v) for k, v in cfg.items()}
        back = _text(tf).tokenizer_from_json(t.to_json())
        return (sorted(parsed.items(), key=lambda kv: kv[0]), _state(back), back.texts_to_sequences(TEXTS),
                json.loads(t.to_json())["class_name"])
    c["tokenizer/config and json"] = config
    c["sequence/make_sampling_table"] = lambda tf: _seq(tf).make_sampling_table(12, sampling_factor=0.05)
    c["sequence/make_sampling_table default"] = lambda tf: _seq(tf).make_sampling_table(5)
    c["sequence/pad_sequences is keras.utils'"] = lambda tf: (
        _seq(tf).pad_sequences is tf.keras.utils.pad_sequences,
        tf.keras.preprocessing.image_dataset_from_directory is tf.keras.utils.image_dataset_from_directory,
        tf.keras.preprocessing.text_dataset_from_directory is tf.keras.utils.text_dataset_from_directory,
        tf.keras.preprocessing.timeseries_dataset_from_array is tf.keras.utils.timeseries_dataset_from_array,
        tf.keras.preprocessing.image.load_img is tf.keras.utils.load_img)
    for label, kw in (("seeded", {"negative_samples": 0.0, "seed": 7}),
                      ("seeded categorical", {"negative_samples": 0.0, "seed": 3, "categorical": True}),
                      ("unshuffled", {"negative_samples": 0.0, "shuffle": False, "window_size": 2})):
        c[f"skipgrams/{label}"] = lambda tf, kw=kw: _seq(tf).skipgrams([1, 2, 0, 3, 4, 2], 6, **kw)
    c["skipgrams/after set_random_seed"] = _seeded(5, lambda tf: _seq(tf).skipgrams([1, 2, 3, 4, 5], 9,
                                                                                     window_size=2))
    c["skipgrams/sampling table after set_random_seed"] = _seeded(2, lambda tf: _seq(tf).skipgrams(
        [1, 2, 3, 4, 5, 1, 2], 9, sampling_table=_seq(tf).make_sampling_table(9, 0.3), negative_samples=0.5))
    data = np.arange(40, dtype=np.float32).reshape(20, 2)
    targets = np.arange(20) * 10
    for label, kw in (("default", {"length": 3}), ("batch 4", {"length": 3, "batch_size": 4}),
                      ("stride sampling", {"length": 6, "sampling_rate": 2, "stride": 3, "batch_size": 2}),
                      ("start end reverse", {"length": 2, "start_index": 3, "end_index": 12, "reverse": True,
                                             "batch_size": 4})):
        def gen(tf: Any, kw: dict = kw) -> Any:
            g = _seq(tf).TimeseriesGenerator(data, targets, **kw)
            return (len(g), [g[i] for i in range(len(g))])
        c[f"timeseries/{label}"] = gen
    c["timeseries/lengths differ"] = lambda tf: _seq(tf).TimeseriesGenerator(data, targets[:5], length=2)
    c["timeseries/nothing left"] = lambda tf: _seq(tf).TimeseriesGenerator(data, targets, length=5, start_index=10,
                                                                           end_index=12)
    c["timeseries/shuffle after set_random_seed"] = _seeded(11, lambda tf: _seq(tf).TimeseriesGenerator(
        data, targets, length=2, shuffle=True, batch_size=5)[0])
    c["timeseries/get_config"] = lambda tf: _seq(tf).TimeseriesGenerator(data, targets, length=2).get_config()
    c["timeseries/fit"] = _seeded(1, lambda tf: _fit_generator(tf, data, targets))
    return c


def _fit_generator(tf: Any, data: np.ndarray, targets: np.ndarray) -> Any:
    keras = tf.keras
    model = keras.Sequential([keras.Input((3, 2)), keras.layers.Flatten(),
                              keras.layers.Dense(1, kernel_initializer="zeros")])
    model.compile(keras.optimizers.SGD(1e-4), "mse")
    h = model.fit(_seq(tf).TimeseriesGenerator(data, targets.astype(np.float32), length=3, batch_size=8),
                  epochs=2, verbose=0)
    return len(h.history["loss"]), int(model.optimizer.iterations.numpy())


_AUTO_NAME = re.compile(r"\b(sequential|dense|flatten|input_layer)(_\d+)?\b")
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("keras.preprocessing.legacy")
@pytest.mark.parametrize("prefix", sorted({lab.split("/")[0] for lab in TABLE.labels}))
def test_keras_preprocessing_matches_tf(tf_results: dict[int, Any], prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.split("/")[0] == prefix)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
