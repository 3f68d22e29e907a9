"""TextVectorization (Keras 3.15) on the code paths a coverage run of the suite on simdist found unrun (forty-sixth
session: 13 of 143 lines, 13 branches): the "binary" and "tf-idf" spellings, the constructor's checks, the output
shape of each mode, set_vocabulary (idf weights too), callable standardize and split, character splits, pre-split
(split=None) rows with output_sequence_length, ragged outputs cut to a length, ngrams, the rank rule of the input,
get_config/from_config and .keras round trips (clause keras.layer.lookup).

Expected values were observed on TF 2.21 + Keras 3.15 (the layer's tokens are ordered by count, ties by Keras's
rule; the values are small integers or Keras's idf weights, so they are given as observed)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from simdist.conformance.assertions import to_numpy as _np
from simdist.conformance.suite.outcomes import check

clause = pytest.mark.clause

DOCS = ["the cat sat", "the dog ran far", "a cat ran"]


def _v(x):
    if hasattr(x, "to_list"):
        return x.to_list()
    return np.asarray(_np(x)).tolist()


#: name -> (constructor kwargs, adapt on DOCS?, input rows, expected output); observed on TF 2.21 + Keras 3.15
_CALLS = {
    "output_mode='binary' is multi_hot": ({"output_mode": "binary", "max_tokens": 6}, True,
                                          ["the cat ran away", "dog"], [[1, 1, 1, 1, 0, 0], [1, 0, 0, 0, 0, 0]]),
    "callable standardize": ({"standardize": "upper"}, True, ["The CAT"], [[2, 4]]),
    "callable split": ({"split": "on_a"}, True, ["the cat ran"], [[3, 5, 9]]),
    "character split": ({"split": "character", "max_tokens": 8}, True, ["cat", "at"], [[1, 2, 4], [2, 4, 0]]),
    "split=None rows cut to output_sequence_length": ({"split": None, "output_sequence_length": 2}, True,
                                                      [["cat", "dog", "the"]], [[1, 1]]),
    "split=None rows padded to output_sequence_length": ({"split": None, "output_sequence_length": 5}, True,
                                                         [["cat", "dog", "the"]], [[1, 1, 1, 0, 0]]),
    "ragged=True cut to output_sequence_length": ({"ragged": True, "output_sequence_length": 2}, True,
                                                  ["the cat ran away", "dog"], [[2, 4], [7]]),
    "ragged=True": ({"ragged": True}, True, ["the cat ran away", "dog"], [[2, 4, 3, 1], [7]]),
    "output_sequence_length pads": ({"output_sequence_length": 6}, True, ["the cat ran away", "dog"],
                                    [[2, 4, 3, 1, 0, 0], [7, 0, 0, 0, 0, 0]]),
    "bigrams": ({"ngrams": 2}, True, ["the cat sat"], [[2, 4, 7, 6, 12]]),
    "a column of strings": ({}, True, [["the cat"], ["dog"]], [[2, 4], [7, 0]]),
}


def _layer(keras, tf, kwargs):
    kwargs = dict(kwargs)
    if kwargs.get("standardize") == "upper":
        kwargs["standardize"] = lambda s: tf.strings.upper(s)
    if kwargs.get("split") == "on_a":
        kwargs["split"] = lambda s: tf.strings.split(s, sep="a")
    return keras.layers.TextVectorization(**kwargs)


@clause("keras.layer.lookup", ref="tf221")
@pytest.mark.parametrize("name", sorted(_CALLS))
def test_text_vectorization_modes_and_splits(keras, tf, name):
    kwargs, adapt, rows, want = _CALLS[name]

    def run():
        layer = _layer(keras, tf, kwargs)
        if adapt:
            layer.adapt(np.array(DOCS))
        return _v(layer(tf.constant(rows)))
    check(f"TextVectorization({kwargs}) adapted on {DOCS}, called on {rows} [{name}]", run, "ok", want_value=want)


@clause("keras.layer.lookup", ref="tf221")
def test_text_vectorization_checks_shapes_and_vocabularies(keras, tf):
    """The constructor's refusals, compute_output_shape by mode and split, set_vocabulary with and without idf
    weights, the 'tf-idf' spelling, the ngram vocabulary and the input rank rule (observed on TF 2.21)."""
    TV = keras.layers.TextVectorization
    for kwargs, text in [({"output_sequence_length": 2.5}, "must be either None or an integer"),
                         ({"output_mode": "multi_hot", "output_sequence_length": 3}, "must not be set if `output_mode`"),
                         ({"output_mode": "multi_hot", "ragged": True}, "`ragged` must not be true"),
                         ({"ngrams": [1, 2]}, "`ngrams` must be None, an integer, or a tuple of integers")]:
        check(f"TextVectorization({kwargs})", lambda: TV(**kwargs), "ValueError", text)

    def adapted(**kw):
        layer = TV(**kw)
        layer.adapt(np.array(DOCS))
        return layer
    for kwargs, shape, want in [({"output_mode": "multi_hot"}, (None,), [None, 8]),
                                ({"output_mode": "multi_hot", "split": None}, (None,), [None, 4]),
                                ({"output_mode": "multi_hot", "split": None}, (None, 3), [None, 4]),
                                ({"output_sequence_length": 4}, (None,), [None, 4])]:
        check(f"TextVectorization({kwargs}).compute_output_shape({shape})",
              lambda: list(adapted(**kwargs).compute_output_shape(shape)), "ok", want_value=want)
    x = tf.constant(["the cat ran away", "dog"])

    def set_vocab(mode, idf=None):
        layer = TV(output_mode=mode)
        layer.set_vocabulary(["cat", "dog"], idf_weights=idf)
        return _v(layer(x))
    check("TextVectorization().set_vocabulary(['cat', 'dog'])", lambda: set_vocab("int"), "ok",
          want_value=[[1, 2, 1, 1], [3, 0, 0, 0]])
    check("TextVectorization(output_mode='tf_idf').set_vocabulary(['cat', 'dog'], idf_weights=[0.5, 2.0])",
          lambda: set_vocab("tf_idf", [0.5, 2.0]), "ok", want_value=[[3.75, 0.5, 0.0], [0.0, 0.0, 2.0]])
    got = np.asarray(_np(adapted(output_mode="tf-idf", max_tokens=6)(x)))
    want = np.array([[0.7824046015739441, 0.6931471824645996, 0.6931471824645996, 0.6931471824645996, 0, 0],
                     [0.7824046015739441, 0, 0, 0, 0, 0]])
    assert np.allclose(got, want, rtol=1e-6), f"TextVectorization(output_mode='tf-idf') gave {got.tolist()}, but " \
                                              f"should be {want.tolist()} (the tf_idf mode)"
    check("TextVectorization(ngrams=(1, 3), max_tokens=8).get_vocabulary()",
          lambda: adapted(ngrams=(1, 3), max_tokens=8).get_vocabulary(), "ok",
          want_value=["", "[UNK]", "the", "ran", "cat", "the dog ran", "the cat sat", "sat"])
    check("TextVectorization()(a [1, 2] matrix of strings)", lambda: adapted()(tf.constant([["the cat", "dog"]])),
          "ValueError", "the input rank must be 1 or the last shape dimension must be 1")


@clause("keras.layer.lookup", ref="tf221")
def test_text_vectorization_config_and_keras_round_trips(keras, tf, tmp_path):
    """get_config through JSON and from_config keep ngrams as a tuple (in the dict given too) and the sequence length; an adapted int layer
    and an adapted tf_idf layer inside a model come back from a .keras file with their vocabulary and outputs."""
    TV = keras.layers.TextVectorization

    def config():
        c = json.loads(json.dumps(TV(ngrams=(1, 2), max_tokens=10, output_sequence_length=3).get_config()))
        back = TV.from_config(c).get_config()
        return [c["ngrams"], back["ngrams"], back["output_sequence_length"]]
    # (Keras 3.15's from_config rewrites the dict it is given: its ngrams list becomes a tuple there too)
    check("TextVectorization.from_config(json(get_config()))", config, "ok", want_value=[(1, 2), (1, 2), 3])

    def round_trip(mode):
        inp = keras.Input((1,), dtype="string")
        layer = TV(output_mode=mode, max_tokens=7)
        layer.adapt(np.array(DOCS))
        model = keras.Model(inp, layer(inp))
        path = os.path.join(str(tmp_path), mode + ".keras")
        model.save(path)
        back = keras.models.load_model(path)
        x = np.array([["the cat ran away"], ["dog"]])
        return np.asarray(_np(model(x))), np.asarray(_np(back(x))), back.layers[1].get_vocabulary()
    vocab = ["", "[UNK]", "the", "ran", "cat", "sat", "far"]   # (observed on TF 2.21)
    check("an int TextVectorization's .keras round trip",
          lambda: (lambda r: [r[0].tolist(), r[1].tolist(), r[2]])(round_trip("int")), "ok",
          want_value=[[[2, 4, 3, 1], [1, 0, 0, 0]], [[2, 4, 3, 1], [1, 0, 0, 0]], vocab])
    before, after, got_vocab = round_trip("tf_idf")
    want_vocab = ["[UNK]", "the", "ran", "cat", "sat", "far", "dog"]   # (observed on TF 2.21)
    assert got_vocab == want_vocab, f"tf_idf vocabulary after a .keras round trip {got_vocab}, but should be {want_vocab}"
    assert np.array_equal(before, after), f"tf_idf outputs before {before.tolist()} and after {after.tolist()} the " \
                                          ".keras round trip, but should be equal"
    assert np.allclose(before[0, :4], [0.8047189712524414, 0.6931471824645996, 0.6931471824645996, 0.6931471824645996],
                       rtol=1e-6), f"tf_idf of 'the cat ran away' {before[0].tolist()}, observed on TF 2.21 " \
                                   "[0.8047, 0.6931, 0.6931, 0.6931, 0, 0, 0]"
