"""`tf.keras.preprocessing.text` / `.sequence` — clause keras.preprocessing.legacy (TF 2.21 + Keras 3.15:
keras/src/legacy/preprocessing/text.py and sequence.py). Expected values are written here from Keras's
rules: words lower-cased and split on the filter characters, indices by count with ties in first-seen order
after the oov token, num_words applied when converting, tfidf (1 + log c) · log(1 + docs / (1 + df)),
skip-gram pairs within the window, windows of TimeseriesGenerator ending before their target."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises

clause = pytest.mark.clause

TEXTS = ["The cat sat on the mat.", "The dog, the cat!"]


@clause("keras.preprocessing.legacy", ref="tf221")
def test_keras_tokenizer_indexes_by_count_then_first_seen(keras):
    text = keras.preprocessing.text
    assert_equal(repr(text.text_to_word_sequence("The dog, the CAT!")), repr(["the", "dog", "the", "cat"]),
                 call="text_to_word_sequence('The dog, the CAT!')", what="words")
    t = text.Tokenizer(num_words=4, oov_token="<u>")
    t.fit_on_texts(TEXTS)
    # counts: the 4, cat 2, sat/on/mat/dog 1 (first seen in that order)
    want = {"<u>": 1, "the": 2, "cat": 3, "sat": 4, "on": 5, "mat": 6, "dog": 7}
    assert_equal(repr(t.word_index), repr(want), call="Tokenizer(num_words=4, oov_token='<u>').fit_on_texts(...)",
                 what="word_index")
    assert_equal(repr(t.texts_to_sequences(["the cat sat on a dog"])), repr([[2, 3, 1, 1, 1, 1]]),
                 call="texts_to_sequences(['the cat sat on a dog'])", what="indices (>= num_words and unknown: oov)")
    m = t.texts_to_matrix(["the the cat"], mode="tfidf")
    docs = 2
    want_row = np.zeros(4)
    want_row[2] = (1 + math.log(2)) * math.log(1 + docs / (1 + 2))   # 'the' twice, in both documents
    want_row[3] = (1 + math.log(1)) * math.log(1 + docs / (1 + 2))   # 'cat' once, in both documents
    assert_close(m[0], want_row, call="texts_to_matrix(['the the cat'], mode='tfidf')", what="row")
    back = text.tokenizer_from_json(t.to_json())
    assert_equal(repr(back.texts_to_sequences(TEXTS)), repr(t.texts_to_sequences(TEXTS)),
                 call="tokenizer_from_json(t.to_json()).texts_to_sequences(...)", what="the same sequences")
    with raises(ValueError, call="Tokenizer().sequences_to_matrix([[1]]) before fitting"):
        text.Tokenizer().sequences_to_matrix([[1]])


@clause("keras.preprocessing.legacy", ref="tf221")
def test_keras_skipgrams_and_timeseries_generator(keras):
    seq = keras.preprocessing.sequence
    couples, labels = seq.skipgrams([1, 2, 0, 3], 5, window_size=1, negative_samples=0.0, shuffle=False)
    assert_equal(repr((couples, labels)), repr(([[1, 2], [2, 1]], [1, 1])),
                 call="skipgrams([1, 2, 0, 3], 5, window_size=1, negative_samples=0, shuffle=False)",
                 what="pairs within the window, index 0 skipped")
    shuffled, _ = seq.skipgrams([1, 2, 3, 4], 5, window_size=1, negative_samples=0.0, seed=3)
    assert_equal(sorted(map(tuple, shuffled)), [(1, 2), (2, 1), (2, 3), (3, 2), (3, 4), (4, 3)],
                 call="skipgrams([1, 2, 3, 4], 5, window_size=1, negative_samples=0, seed=3)", what="the pairs")
    data = np.arange(20).reshape(10, 2)
    g = seq.TimeseriesGenerator(data, np.arange(10) * 10, length=3, stride=2, batch_size=2)
    assert_equal(len(g), 2, call="TimeseriesGenerator(10 steps, length=3, stride=2, batch_size=2)", what="len")
    x, y = g[0]
    assert_equal(x, np.stack([data[0:3], data[2:5]]), call="g[0]", what="windows ending before rows 3 and 5")
    assert_equal(y, np.array([30, 50]), call="g[0]", what="targets at rows 3 and 5")
    with raises(ValueError, match="same length", call="TimeseriesGenerator(data, targets[:5], length=2)"):
        seq.TimeseriesGenerator(data, np.arange(5), length=2)
