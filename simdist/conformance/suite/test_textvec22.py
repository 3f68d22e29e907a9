"""keras.layers.TextVectorization (textvec22): standardize, split, ngrams, the vocabulary adapt learns
(by count, ties by the token, both descending; max_tokens below the vocabulary), output modes,
output_sequence_length above and below the documents' lengths, a string-Input model and a tf.data map
(TF 2.21 + Keras 3.15).

Expected values come from the Python transcription of Keras's rules written here (_tokens, _vocab,
_int_rows, _encode), never from the layer under test: tf.strings.lower lowers ASCII letters only, the
punctuation stripped is Keras's DEFAULT_STRIP_REGEX class, whitespace splitting is Python's
bytes.split(), n-grams of each width in the order given joined by " ", index 0 the mask "", 1 the
OOV "[UNK]", idf = log(1 + documents / (1 + document count)) with the OOV slot their mean.
"""

from __future__ import annotations

import collections
import math

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause

TOL32 = Tolerance(rtol=1e-6, atol=1e-7)
PUNCT = set('!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\'')
# ties: "b" and "a" both 3 times, "d" and "c" twice; "Ünïcode"'s Ü stays (ASCII-only lowering)
CORPUS = ["B a, b!  a", "c d... b a", "Ünïcode D? c", "", "e"]
QUERY = ["a b c d e f", "ünïcode Ünïcode", "", "d d"]


def _standardize(s: str) -> str:
    lowered = "".join(ch.lower() if "A" <= ch <= "Z" else ch for ch in s)
    return "".join(ch for ch in lowered if ch not in PUNCT)


def _tokens(s: str, ngrams: tuple[int, ...] | None = None) -> list[str]:
    words = [w.decode("utf-8") for w in _standardize(s).encode("utf-8").split()]
    if ngrams is None:
        return words
    return [" ".join(words[i:i + n]) for n in ngrams for i in range(len(words) - n + 1)]


def _vocab(corpus: list[str], max_tokens: int | None = None, ngrams: tuple[int, ...] | None = None,
           specials: int = 2) -> list[str]:
    counts = collections.Counter(t for s in corpus for t in _tokens(s, ngrams))
    order = sorted(counts, key=lambda t: (counts[t], t.encode("utf-8")), reverse=True)
    return order[:max_tokens - specials] if max_tokens else order


def _int_rows(docs: list[str], vocab: list[str], length: int | None = None,
              ngrams: tuple[int, ...] | None = None) -> np.ndarray:
    index = {t: i + 2 for i, t in enumerate(vocab)}
    rows = [[index.get(t, 1) for t in _tokens(s, ngrams)] for s in docs]
    width = max(len(r) for r in rows) if length is None else length
    return np.array([(r + [0] * width)[:width] for r in rows], np.int64)


def _encode(docs: list[str], vocab: list[str], mode: str, idf: np.ndarray | None = None) -> np.ndarray:
    index = {t: i + 1 for i, t in enumerate(vocab)}
    out = np.zeros((len(docs), len(vocab) + 1), np.float64)
    for r, s in enumerate(docs):
        for t in _tokens(s):
            out[r, index.get(t, 0)] += 1
    if mode == "multi_hot":
        return np.minimum(out, 1).astype(np.int64)
    if mode == "count":
        return out.astype(np.int64)
    return (out * idf).astype(np.float32)


@clause("keras.layer.text-vectorization", ref="tf221")
def test_textvec22_adapt_orders_by_count_then_token(tf, keras):
    layer = keras.layers.TextVectorization()
    layer.adapt(CORPUS)
    want = ["", "[UNK]"] + _vocab(CORPUS)
    assert_equal(layer.get_vocabulary(), want, call="adapt(CORPUS).get_vocabulary(): by count, ties by token, desc")
    assert_equal(layer.vocabulary_size(), len(want), call="vocabulary_size()")
    assert_equal(layer(tf.constant(QUERY)), _int_rows(QUERY, want[2:]), call="int output, padded to the longest")
    small = keras.layers.TextVectorization(max_tokens=5)
    small.adapt(CORPUS)
    assert_equal(small.get_vocabulary(), ["", "[UNK]"] + _vocab(CORPUS, max_tokens=5),
                 call="max_tokens=5 keeps the three most frequent tokens")
    assert_equal(small.get_vocabulary(include_special_tokens=False), _vocab(CORPUS, max_tokens=5),
                 call="get_vocabulary(include_special_tokens=False)")


@clause("keras.layer.text-vectorization", ref="tf221")
def test_textvec22_output_sequence_length_pads_and_cuts(tf, keras):
    vocab = _vocab(CORPUS)
    for length in (2, 8):
        layer = keras.layers.TextVectorization(vocabulary=vocab, output_sequence_length=length)
        assert_equal(layer(tf.constant(QUERY)), _int_rows(QUERY, vocab, length),
                     call=f"output_sequence_length={length}")
    ragged = keras.layers.TextVectorization(vocabulary=vocab, ragged=True, output_sequence_length=3)
    assert_equal([list(r) for r in ragged(tf.constant(QUERY)).to_list()],
                 [[v for v in row if v][:3] for row in _int_rows(QUERY, vocab).tolist()],
                 call="ragged=True cuts rows to output_sequence_length, pads none")


@clause("keras.layer.text-vectorization", ref="tf221")
def test_textvec22_ngrams(tf, keras):
    for arg, widths in ((2, (1, 2)), ((1, 3), (1, 3))):
        layer = keras.layers.TextVectorization(ngrams=arg)
        layer.adapt(CORPUS)
        vocab = _vocab(CORPUS, ngrams=widths)
        assert_equal(layer.get_vocabulary(), ["", "[UNK]"] + vocab, call=f"ngrams={arg!r}: adapted vocabulary")
        assert_equal(layer(tf.constant(QUERY)), _int_rows(QUERY, vocab, ngrams=widths), call=f"ngrams={arg!r}")


@clause("keras.layer.text-vectorization", ref="tf221")
def test_textvec22_multi_hot_count_tf_idf(tf, keras):
    vocab = _vocab(CORPUS, max_tokens=6, specials=1)
    for mode in ("multi_hot", "count"):
        layer = keras.layers.TextVectorization(max_tokens=6, output_mode=mode)
        layer.adapt(CORPUS)
        assert_equal(layer.get_vocabulary(), ["[UNK]"] + vocab, call=f"output_mode={mode!r}: no mask slot")
        assert_equal(layer(tf.constant(QUERY)), _encode(QUERY, vocab, mode), call=f"output_mode={mode!r}")
    layer = keras.layers.TextVectorization(max_tokens=6, output_mode="tf_idf")
    layer.adapt(CORPUS)
    df = collections.Counter(t for s in CORPUS for t in set(_tokens(s)))
    idf = np.array([math.log(1 + len(CORPUS) / (1 + df[t])) for t in vocab], np.float32)
    idf = np.concatenate([[idf.mean()], idf])
    assert_close(layer(tf.constant(QUERY)), _encode(QUERY, vocab, "tf_idf", idf), tolerance=TOL32,
                 call="output_mode='tf_idf': counts x log(1 + docs / (1 + doc count))")


@clause("keras.layer.text-vectorization", ref="tf221")
def test_textvec22_model_and_dataset_map(tf, keras):
    vocab = _vocab(CORPUS)
    layer = keras.layers.TextVectorization(vocabulary=vocab, output_sequence_length=4)
    inp = keras.Input(shape=(1,), dtype="string")
    model = keras.Model(inp, layer(inp))
    assert_equal(model(tf.constant([[q] for q in QUERY])), _int_rows(QUERY, vocab, 4),
                 call="Model(Input(shape=(1,), dtype='string'), TextVectorization)")
    ds = tf.data.Dataset.from_tensor_slices(QUERY).batch(3).map(layer)
    assert_equal(np.concatenate([np.asarray(b) for b in ds]), _int_rows(QUERY, vocab, 4),
                 call="Dataset.batch(3).map(layer)")


@clause("keras.layer.text-vectorization", ref="tf221")
def test_textvec22_errors(tf, keras):
    L = keras.layers
    with raises(ValueError, match="Unknown value for `standardize` argument of TextVectorization"):
        L.TextVectorization(standardize="upper")
    with raises(ValueError, match="Unknown value for `split` argument"):
        L.TextVectorization(split="comma")
    with raises(ValueError, match="`ngrams` must be None, an integer, or a tuple of integers"):
        L.TextVectorization(ngrams=[1, 2])
    with raises(ValueError, match="`output_sequence_length` must not be set if `output_mode` is not 'int'"):
        L.TextVectorization(output_mode="count", output_sequence_length=3)
    with raises(ValueError, match="the input rank must be 1 or the last shape dimension must be 1"):
        L.TextVectorization(vocabulary=["a"])(tf.constant([["a b", "c"]]))
    with raises(ValueError, match="Cannot adapt layer"):
        L.TextVectorization(vocabulary=["a"]).adapt(["a b"])


@clause("keras.utils.feature-space", ref="tf221")
def test_textvec22_feature_space_concat_and_dict(tf, keras):
    FS = keras.utils.FeatureSpace
    data = {"size": [1.0, 2.0, 3.0, 4.0], "color": ["red", "blue", "red", "green"], "n": [5, 7, 5, 5]}
    fs = FS(features={"size": FS.float_rescaled(scale=0.5, offset=1.0), "color": "string_categorical",
                      "n": FS.integer_categorical(num_oov_indices=0)}, output_mode="concat")
    fs.adapt(tf.data.Dataset.from_tensor_slices(data).batch(3))
    # by name: color (OOV + tokens by count desc), n (tokens by count desc, no OOV), size
    colors = ["[UNK]", "red", "green", "blue"]
    ns = [5, 7]
    want = np.array([[float(c == colors[i]) for i in range(4)] + [float(n == ns[j]) for j in range(2)] + [s * 0.5 + 1]
                     for c, n, s in zip(data["color"], data["n"], data["size"])], np.float32)
    assert_close(fs(data), want, tolerance=TOL32, call="FeatureSpace(...)(data): color, n one-hot, size rescaled")
    assert_close(fs({k: v[2] for k, v in data.items()}), want[2], tolerance=TOL32,
                 call="a scalar example: the batch axis squeezed back")
    assert_equal(tuple(fs.get_encoded_features().shape), (None, 7), call="get_encoded_features().shape")
    assert_equal(sorted(fs.get_inputs()), ["color", "n", "size"], call="get_inputs() names")
    fsd = FS(features={"color": FS.string_categorical(output_mode="int"), "size": "float"}, output_mode="dict")
    fsd.adapt(data)
    out = fsd({"color": data["color"], "size": data["size"]})
    assert_equal(np.asarray(out["color"]).ravel().tolist(), [colors.index(c) for c in data["color"]],
                 call="dict mode: an int feature stays its lookup index")
    with raises(ValueError, match="Invalid feature type"):
        FS(features={"a": "foo"})
    with raises(ValueError, match="You need to call `.adapt"):
        FS(features={"a": "string_categorical"}).get_inputs()
