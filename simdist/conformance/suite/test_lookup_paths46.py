"""StringLookup and IntegerLookup (Keras 3.15's IndexLookup) on the code paths the suite had not run (a coverage
run of the whole suite on simdist, forty-sixth session: 71 of 414 lines of the lookup layer never executed): a
vocabulary file (plain, inverted, with a mask token, integer), the checks of a given vocabulary and of idf weights,
`salt` and `oov_method="farmhash"` hashing of out-of-vocabulary tokens, sparse, ragged and scalar inputs, adapt on a
scalar, a vector (one document), ragged and sparse data, a vocabulary that grows after a call, and a .keras round trip
of adapted layers (clause keras.layer.lookup).

Expected strings and indices were observed on TF 2.21 + Keras 3.15 (said so at each table); tf_idf values are
computed here from Keras's rule: count x log(1 + documents / (1 + documents holding the token)).
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from simdist.conformance.assertions import to_numpy as _np
from simdist.conformance.suite.outcomes import check, outcome

clause = pytest.mark.clause


def _v(x):
    return np.asarray(_np(x)).tolist()


def _strs(x):
    return [b.decode() if isinstance(b, bytes) else b for b in np.asarray(_np(x)).ravel().tolist()]


@clause("keras.layer.lookup", ref="tf221")
def test_lookup_vocabulary_files(keras, tf, tmp_path):
    """A vocabulary given as a text file's path: one token a line, indices after the OOV (and mask) indices;
    inverted, indices to tokens; IntegerLookup reads integers; a missing file and tf_idf refused (observed on TF 2.21)."""
    path, ipath = tmp_path / "vocab.txt", tmp_path / "ivocab.txt"
    path.write_text("a\nb\nc\n")
    ipath.write_text("7\n3\n9\n")
    S, I = keras.layers.StringLookup, keras.layers.IntegerLookup
    check("StringLookup(vocabulary=file)(['a', 'c', 'z'])", lambda: _v(S(vocabulary=str(path))(tf.constant([["a", "c", "z"]]))),
          "ok", want_value=[[1, 3, 0]])
    check("StringLookup(vocabulary=file).get_vocabulary()", lambda: S(vocabulary=str(path)).get_vocabulary(), "ok",
          want_value=["[UNK]", "a", "b", "c"])
    check("StringLookup(vocabulary=file, invert=True)([1, 3, 0, 7])",
          lambda: _strs(S(vocabulary=str(path), invert=True)(tf.constant([[1, 3, 0, 7]]))), "ok",
          want_value=["a", "c", "[UNK]", "[UNK]"])
    check("StringLookup(vocabulary=file, mask_token='')(['a', '', 'c', 'q'])",
          lambda: _v(S(vocabulary=str(path), mask_token="")(tf.constant([["a", "", "c", "q"]]))), "ok",
          want_value=[[2, 0, 4, 1]])
    check("IntegerLookup(vocabulary=file)([3, 9, 5])", lambda: _v(I(vocabulary=str(ipath))(tf.constant([[3, 9, 5]]))),
          "ok", want_value=[[2, 3, 0]])
    check("StringLookup(vocabulary=<missing file>)", lambda: S(vocabulary=str(tmp_path / "nope.txt")), "ValueError",
          "does not exist")
    check("StringLookup(vocabulary=file, output_mode='tf_idf', idf_weights=...)",
          lambda: S(vocabulary=str(path), output_mode="tf_idf", idf_weights=[1.0, 2, 3, 4]), "ValueError",
          "does not support loading a vocabulary from file")


#: a given vocabulary's checks: name -> (constructor kwargs, expected class, message fragment or the vocabulary);
#: observed on TF 2.21 + Keras 3.15
_VOCABULARY_CHECKS = {
    "a repeated token": ({"vocabulary": ["a", "b", "a"]}, "ValueError", "at least one repeated term"),
    "the mask token inside": ({"vocabulary": ["a", "", "b"], "mask_token": ""}, "ValueError", "reserved mask token"),
    "the OOV token inside, inverted": ({"vocabulary": ["a", "[UNK]", "b"], "invert": True}, "ValueError",
                                       "reserved OOV token"),
    "the OOV token inside": ({"vocabulary": ["a", "[UNK]", "b"]}, "ok", ["[UNK]", "a", "[UNK]", "b"]),
    "the special tokens first": ({"vocabulary": ["", "[UNK]", "a", "b"], "mask_token": ""}, "ok", ["", "[UNK]", "a", "b"]),
    "more than max_tokens": ({"vocabulary": ["a", "b", "c"], "max_tokens": 3}, "ValueError",
                             "Received vocabulary size is 4; `max_tokens` is 3"),
    "an empty vocabulary": ({"vocabulary": []}, "ValueError", "Cannot set an empty vocabulary"),
    "idf weights without tf_idf": ({"vocabulary": ["a"], "idf_weights": [1.0]}, "ValueError",
                                   "should only be set if `output_mode` is `'tf_idf'`"),
    "tf_idf without idf weights": ({"vocabulary": ["a"], "output_mode": "tf_idf"}, "ValueError",
                                   "the `idf_weights` argument must also be provided"),
    "idf weights of another length": ({"vocabulary": ["a", "b"], "output_mode": "tf_idf", "idf_weights": [1.0]},
                                      "ValueError", "len(idf_weights) is 1; len(vocabulary) is 2"),
    "salt with IntegerLookup's floormod": ({"vocabulary": [1, 2], "salt": 3, "integer": True}, "ValueError",
                                           "`salt` can only be used when `oov_method='farmhash'`"),
    "a salt that is a string": ({"vocabulary": ["a"], "salt": "x", "num_oov_indices": 2}, "ValueError",
                                "can only be a tuple of 2 integers, or a single integer"),
    "a salt of three integers": ({"vocabulary": ["a"], "salt": (1, 2, 3), "num_oov_indices": 2}, "ValueError",
                                 "can only be a tuple of 2 integers, or a single integer"),
}


@clause("keras.layer.lookup", ref="tf221")
@pytest.mark.parametrize("name", sorted(_VOCABULARY_CHECKS))
def test_lookup_vocabulary_and_option_checks(keras, name):
    kwargs, want_cls, want = _VOCABULARY_CHECKS[name]
    kwargs = dict(kwargs)
    cls = keras.layers.IntegerLookup if kwargs.pop("integer", False) else keras.layers.StringLookup
    call = f"{cls.__name__}({kwargs})"
    if want_cls == "ok":
        check(f"{call}.get_vocabulary() [{name}]", lambda: cls(**kwargs).get_vocabulary(), "ok", want_value=want)
    else:
        check(f"{call} [{name}]", lambda: cls(**kwargs), want_cls, want)
    if name == "the special tokens first":
        check(f"{call}.get_vocabulary(include_special_tokens=False)",
              lambda: cls(**kwargs).get_vocabulary(include_special_tokens=False), "ok", want_value=["a", "b"])


@clause("keras.layer.lookup", ref="tf221")
def test_lookup_oov_hashing(keras, tf):
    """Several OOV indices: IntegerLookup takes the token modulo their number (floormod, a negative token too), or
    farmhash of its decimal text; StringLookup farmhash, or SipHash keyed by `salt` (one integer used twice, or a
    pair). Indices observed on TF 2.21 + Keras 3.15."""
    S, I = keras.layers.StringLookup, keras.layers.IntegerLookup
    words = tf.constant([["q", "r", "s", "t", "a"]])
    ints = tf.constant([[5, 6, 7, 8, 1]])
    for what, layer, x, want in [
        ("StringLookup(num_oov_indices=3)", S(vocabulary=["a"], num_oov_indices=3), words, [[2, 1, 1, 1, 3]]),
        ("StringLookup(num_oov_indices=3, salt=7)", S(vocabulary=["a"], salt=7, num_oov_indices=3), words,
         [[0, 1, 0, 2, 3]]),
        ("StringLookup(num_oov_indices=3, salt=(7, 11))", S(vocabulary=["a"], salt=(7, 11), num_oov_indices=3), words,
         [[0, 1, 2, 2, 3]]),
        ("IntegerLookup(num_oov_indices=3)", I(vocabulary=[1], num_oov_indices=3), tf.constant([[5, 6, 7, -8, 1]]),
         [[2, 0, 1, 1, 3]]),
        ("IntegerLookup(num_oov_indices=3, oov_method='farmhash')",
         I(vocabulary=[1], num_oov_indices=3, oov_method="farmhash"), ints, [[1, 2, 1, 1, 3]]),
        ("IntegerLookup(num_oov_indices=3, oov_method='farmhash', salt=5)",
         I(vocabulary=[1], num_oov_indices=3, oov_method="farmhash", salt=5), ints, [[0, 2, 1, 2, 3]]),
    ]:
        check(f"{what}({_v(x)})", lambda: _v(layer(x)), "ok", want_value=want)


@clause("keras.layer.lookup", ref="tf221")
def test_lookup_sparse_ragged_and_scalar_inputs(keras, tf):
    """A SparseTensor is looked up value by value (int mode: a SparseTensor back; multi_hot: dense rows), a
    RaggedTensor row by row, a scalar gives a scalar index (one_hot: one row) (observed on TF 2.21)."""
    S = keras.layers.StringLookup
    sp = tf.SparseTensor([[0, 0], [1, 2]], ["b", "z"], [2, 3])

    def sparse_int():
        out = S(vocabulary=["a", "b"])(sp)
        return [_v(out.indices), _v(out.values), _v(out.dense_shape)]
    check("StringLookup()(SparseTensor)", sparse_int, "ok", want_value=[[[0, 0], [1, 2]], [2, 0], [2, 3]])
    check("StringLookup(output_mode='multi_hot')(SparseTensor)",
          lambda: _v(S(vocabulary=["a", "b"], output_mode="multi_hot")(sp)), "ok", want_value=[[0, 0, 1], [1, 0, 0]])
    check("StringLookup()(ragged [['a', 'z'], ['b']])",
          lambda: S(vocabulary=["a", "b"])(tf.ragged.constant([["a", "z"], ["b"]])).to_list(), "ok",
          want_value=[[1, 0], [2]])
    check("StringLookup(output_mode='count')(ragged)",
          lambda: _v(S(vocabulary=["a", "b"], output_mode="count")(tf.ragged.constant([["a", "a", "z"], ["b"]]))),
          "ok", want_value=[[1, 2, 0], [0, 0, 1]])
    check("StringLookup()('b')", lambda: _v(S(vocabulary=["a", "b"])(tf.constant("b"))), "ok", want_value=2)
    check("StringLookup(output_mode='one_hot')('b')",
          lambda: _v(S(vocabulary=["a", "b"], output_mode="one_hot")(tf.constant("b"))), "ok", want_value=[[0, 0, 1]])
    check("StringLookup(output_mode='one_hot')(['b', 'q'])",
          lambda: _v(S(vocabulary=["a", "b"], output_mode="one_hot")(tf.constant(["b", "q"]))), "ok",
          want_value=[[0, 0, 1], [1, 0, 0]])
    check("StringLookup(vocabulary=<tensor>).get_vocabulary()",
          lambda: S(vocabulary=tf.constant(["x", "y"])).get_vocabulary(), "ok", want_value=["[UNK]", "x", "y"])


def _idf(docs: list[list[str]], vocab: list[str]) -> np.ndarray:
    n = len(docs)
    w = np.array([np.log(1 + n / (1 + sum(t in d for d in docs))) for t in vocab])
    return np.concatenate([[w.mean()], w])   # (the OOV index takes the average weight)


@clause("keras.layer.lookup", ref="tf221")
def test_lookup_adapt_shapes_and_tf_idf(keras, tf):
    """adapt: a vector is a column (a document per token), a matrix a document per row, a ragged tensor one per row, a SparseTensor's values
    counted; tokens ordered by count (ties by first appearance: observed); tf_idf weights from Keras's rule."""
    S = keras.layers.StringLookup

    def adapt(mode, data, x):
        layer = S(output_mode=mode)
        layer.adapt(data)
        return layer.get_vocabulary(), np.asarray(_np(layer(x)), np.float64)

    cases = [
        ("a vector", np.array(["a", "b", "a", "c", "a"]), [["a"], ["b"], ["a"], ["c"], ["a"]]),   # (adapt: a column)
        ("a matrix", np.array([["a", "b"], ["a", "a"], ["c", "a"]]), [["a", "b"], ["a", "a"], ["c", "a"]]),
        ("a ragged tensor", tf.ragged.constant([["a", "b", "a"], ["c"], ["a", "c"]]), [["a", "b", "a"], ["c"], ["a", "c"]]),
    ]
    vocabularies = {"a vector": ["[UNK]", "a", "c", "b"], "a matrix": ["[UNK]", "a", "c", "b"],
                    "a ragged tensor": ["[UNK]", "a", "c", "b"]}   # (observed on TF 2.21)
    x = tf.constant([["a", "c", "b", "z"]])
    for what, data, docs in cases:
        cls, got = outcome(lambda: adapt("tf_idf", data, x))
        assert cls == "ok", f"StringLookup(output_mode='tf_idf').adapt({what}): {cls}: {got}"
        vocab, out = got
        assert vocab == vocabularies[what], f"adapt({what}): vocabulary {vocab}, but should be {vocabularies[what]}"
        w = _idf(docs, vocab[1:])
        want = np.array([[w[0], w[1], w[2], w[3]]])   # one 'z' (OOV), 'a', 'c', 'b' each once
        assert np.allclose(out, want, rtol=1e-6), f"tf_idf after adapt({what}): {out.tolist()}, but should be {want.tolist()}"
    check("StringLookup().adapt('a') then (['a', 'b'])", lambda: [v for v in adapt("int", tf.constant("a"), tf.constant(["a", "b"]))[0]],
          "ok", want_value=["[UNK]", "a"])
    sp = tf.SparseTensor([[0, 0], [1, 1], [1, 2]], ["b", "b", "a"], [2, 3])
    check("StringLookup(output_mode='count').adapt(SparseTensor)",
          lambda: (lambda r: [r[0], r[1].tolist()])(adapt("count", sp, tf.constant([["a", "b", "b"]]))), "ok",
          want_value=[["[UNK]", "b", "a"], [[0.0, 2.0, 1.0]]])


@clause("keras.layer.lookup", ref="tf221")
def test_lookup_vocabulary_growth_after_a_call_and_keras_round_trip(keras, tf, tmp_path):
    """multi_hot without pad_to_max_tokens: set_vocabulary to a larger vocabulary after a call is RuntimeError (with
    pad_to_max_tokens it is accepted); an adapted tf_idf layer and an adapted int layer with a mask and two OOV indices
    come back from a .keras file with their vocabulary and outputs (observed on TF 2.21)."""
    S = keras.layers.StringLookup

    def grow(**kw):
        layer = S(vocabulary=["a"], output_mode="multi_hot", **kw)
        layer(tf.constant([["a"]]))
        layer.set_vocabulary(["a", "b"])
        return _v(layer(tf.constant([["b"]])))
    check("multi_hot StringLookup: set_vocabulary(['a', 'b']) after a call", grow, "RuntimeError",
          "the vocabulary size cannot be changed after the layer is called. Old vocab size is 2, new vocab size is 3")
    check("multi_hot StringLookup(max_tokens=4, pad_to_max_tokens=True): set_vocabulary after a call",
          lambda: grow(max_tokens=4, pad_to_max_tokens=True), "ok", want_value=[[0, 0, 1, 0]])

    def round_trip(layer, data, x, name):
        inp = keras.Input((3,), dtype="string")
        layer.adapt(data)
        model = keras.Model(inp, layer(inp))
        before = np.asarray(_np(model(x))).tolist()
        path = os.path.join(str(tmp_path), name)
        model.save(path)
        back = keras.models.load_model(path)
        return [before, np.asarray(_np(back(x))).tolist(), back.layers[1].get_vocabulary()]
    docs = np.array([["a", "b", "a"], ["c", "a", "b"]])
    cls, got = outcome(lambda: round_trip(S(output_mode="tf_idf"), docs, np.array([["a", "c", "z"]]), "tfidf.keras"))
    assert cls == "ok", f"a tf_idf StringLookup's .keras round trip: {cls}: {got}"
    before, after, vocab = got
    assert vocab == ["[UNK]", "a", "b", "c"], f"vocabulary after load {vocab}, but should be ['[UNK]', 'a', 'b', 'c']"
    w = _idf([list(d) for d in docs], vocab[1:])
    want = [[w[0], w[1], 0.0, w[3]]]
    assert np.allclose(after, want, rtol=1e-6) and np.allclose(before, want, rtol=1e-6), (
        f"tf_idf before {before} and after {after} the round trip, but both should be {want}")
    check("an int StringLookup(mask_token='', num_oov_indices=2)'s .keras round trip",
          lambda: round_trip(S(num_oov_indices=2, mask_token=""), np.array([["a", "b", "a"], ["c", "a", ""]]),
                             np.array([["a", "", "z"]]), "int.keras"), "ok",
          want_value=[[[3, 0, 2]], [[3, 0, 2]], ["", "[UNK]", "[UNK]", "a", "c", "b"]])
