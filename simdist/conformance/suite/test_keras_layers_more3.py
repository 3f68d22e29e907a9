"""More tf.keras layers (klayer3) — tf.lookup's hash tables, StringLookup and IntegerLookup: lookups,
OOV indices, masks, invert, output modes, adapt, vocabularies, config round trips and errors
(TF 2.21 + Keras 3.15).

Expected values come from Python/NumPy transcriptions of Keras's IndexLookup rules written here,
never from the layer under test (OOV hash buckets from tf.strings.to_hash_bucket_fast, itself
checked in test_keras_layers_more2).
"""

from __future__ import annotations

import collections

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close as _assert_close
from simdist.conformance.assertions import assert_equal, assert_true, raises
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause

TOL32 = Tolerance(rtol=1e-6, atol=1e-7)
# float32 attention (several contractions and a softmax) against a float64 NumPy reference
TOL_ATT = Tolerance(rtol=1e-5, atol=1e-6)
VOC = ["a", "b", "c", "d"]
WORDS = [["a", "c", "d"], ["d", "z", "b"]]


def assert_close(got, expected, **kwargs):
    _assert_close(got, expected, tolerance=TOL32, **kwargs)


def _index(words, vocab, start):
    """Keras's layout: vocabulary token i at index start + i; OOV (one index) at start - 1."""
    table = {t: start + i for i, t in enumerate(vocab)}
    return np.array([[table.get(w, start - 1) for w in row] for row in words], np.int64)


@clause("ops.lookup", ref="tf221")
def test_layers_more3_static_and_mutable_hash_tables(tf):
    init = tf.lookup.KeyValueTensorInitializer(["a", "b", "c"], [7, 8, 9], key_dtype=tf.string, value_dtype=tf.int64)
    table = tf.lookup.StaticHashTable(init, -1)
    keys = [["a", "q"], ["c", "b"]]
    want = np.array([[{"a": 7, "b": 8, "c": 9}.get(k, -1) for k in row] for row in keys], np.int64)
    got = table.lookup(tf.constant(keys))
    assert_equal(got, want, call="StaticHashTable.lookup([[a, q], [c, b]])")
    assert_equal(got.dtype, tf.int64, call="StaticHashTable.lookup(...).dtype")
    assert_equal(table.size(), np.int64(3), call="StaticHashTable.size()")
    exported = sorted(zip(*(np.asarray(t).tolist() for t in table.export())))
    assert_equal(exported, [(b"a", 7), (b"b", 8), (b"c", 9)], call="StaticHashTable.export() (sorted)")
    traced = tf.function(lambda x: table.lookup(x))
    assert_equal(traced(tf.constant(["c", "x"])), np.array([9, -1], np.int64), call="lookup in a tf.function")
    floats = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer([1, 2], [0.5, 1.5]), 0.0)
    assert_equal(floats.key_dtype, tf.int32, call="KeyValueTensorInitializer([1, 2], ...).key_dtype (int32)")
    assert_equal(floats.lookup(tf.constant([2, 5])), np.array([1.5, 0.0], np.float32), call="int32 -> float32 table")
    with raises(TypeError, match="Dtype of argument `keys`"):
        table.lookup(tf.constant([1, 2]))
    with raises(tf.errors.FailedPreconditionError, match="different value for same key"):
        tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a", "a"], [1, 2]), -1)
    with raises(tf.errors.InvalidArgumentError, match="Expected shape"):
        tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a", "b"], [1]), -1)

    m = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, 0)
    m.insert(tf.constant(["x", "y"]), tf.constant([3, 4], tf.int64))
    m.insert(tf.constant(["x"]), tf.constant([9], tf.int64))
    assert_equal(m.lookup(tf.constant(["x", "y", "q"])), np.array([9, 4, 0], np.int64),
                 call="MutableHashTable: insert overwrites, absent keys give the default")
    m.remove(tf.constant(["x", "absent"]))
    assert_equal(m.size(), np.int64(1), call="MutableHashTable.size() after remove([x, absent])")
    assert_equal(m.lookup(tf.constant(["x"])), np.array([0], np.int64), call="a removed key gives the default")
    with raises(tf.errors.InvalidArgumentError, match="Expected shape"):
        m.insert(tf.constant(["x"]), tf.constant([1, 2], tf.int64))


@clause("keras.layer.lookup", ref="tf221")
def test_layers_more3_string_lookup_modes(tf, keras):
    L = keras.layers
    x = tf.constant(WORDS)
    assert_equal(L.StringLookup(vocabulary=VOC)(x), _index(WORDS, VOC, 1), call="StringLookup(vocabulary)(words)")
    masked = [["a", "", "d"], ["", "z", "b"]]
    want = np.where(np.array(masked) == "", 0, _index(masked, VOC, 2))
    assert_equal(L.StringLookup(vocabulary=VOC, mask_token="")(tf.constant(masked)), want,
                 call="StringLookup(mask_token=''): 0 for the mask, OOV 1, tokens from 2")
    oov = ["x", "yy", "a", "zzz"]
    buckets = np.asarray(tf.strings.to_hash_bucket_fast(oov, 3))
    want = np.array([buckets[i] if w not in VOC else 3 + VOC.index(w) for i, w in enumerate(oov)], np.int64)
    assert_equal(L.StringLookup(vocabulary=VOC, num_oov_indices=3)(tf.constant(oov)), want,
                 call="StringLookup(num_oov_indices=3): FarmHash buckets 0..2 for OOV strings")
    inv = L.StringLookup(vocabulary=VOC, invert=True)(tf.constant([[1, 3, 0], [4, 9, 2]]))
    assert_equal(inv, np.array([[b"a", b"c", b"[UNK]"], [b"d", b"[UNK]", b"b"]], object),
                 call="StringLookup(invert=True): index -> token, '[UNK]' for OOV and unknown indices")
    idx = _index(WORDS, VOC, 1)
    depth = len(VOC) + 1
    multi = np.zeros((2, depth), np.int64)
    count = np.zeros((2, depth), np.int64)
    for r, row in enumerate(idx):
        for i in row:
            multi[r, i] = 1
            count[r, i] += 1
    assert_equal(L.StringLookup(vocabulary=VOC, output_mode="multi_hot")(x), multi, call="output_mode='multi_hot'")
    assert_equal(L.StringLookup(vocabulary=VOC, output_mode="count")(x), count, call="output_mode='count'")
    one_hot = L.StringLookup(vocabulary=VOC, output_mode="one_hot")(tf.constant(["b", "q"]))
    assert_equal(one_hot, np.eye(depth, dtype=np.int64)[[2, 0]], call="output_mode='one_hot'")
    padded = L.StringLookup(vocabulary=VOC, output_mode="count", max_tokens=8, pad_to_max_tokens=True)(x)
    assert_equal(padded, np.pad(count, ((0, 0), (0, 3))), call="pad_to_max_tokens=True, max_tokens=8")
    idf = np.array([0.25, 0.75, 0.6, 0.4], np.float32)
    weights = np.concatenate([[idf.mean()], idf])
    got = L.StringLookup(vocabulary=VOC, output_mode="tf_idf", idf_weights=idf)(x)
    assert_close(got, count * weights, call="tf_idf: counts times idf weights (OOV weight: their mean)")
    layer = L.StringLookup(vocabulary=VOC, mask_token="[M]", num_oov_indices=2)
    assert_equal(layer.get_vocabulary(), ["[M]", "[UNK]", "[UNK]"] + VOC, call="get_vocabulary()")
    assert_equal(layer.vocabulary_size(), 7, call="vocabulary_size()")
    again = L.StringLookup.from_config(layer.get_config())
    assert_equal(again(tf.constant(["a", "[M]"])), np.array([3, 0], np.int64), call="from_config(get_config())")
    sym = L.StringLookup(vocabulary=VOC, output_mode="multi_hot")(keras.Input(shape=(3,), dtype="string"))
    assert_equal(tuple(sym.shape), (None, depth), call="symbolic multi_hot output shape")
    with raises(tf.errors.InvalidArgumentError, match="num_oov_indices=0"):
        L.StringLookup(vocabulary=VOC, num_oov_indices=0)(tf.constant(["zz"]))
    with raises(ValueError, match="repeated term"):
        L.StringLookup(vocabulary=["a", "b", "a"])
    with raises(ValueError, match="larger than the maximum vocab size"):
        L.StringLookup(vocabulary=VOC, max_tokens=3)
    with raises(RuntimeError, match="you must set the layer's vocabulary"):
        L.StringLookup(output_mode="one_hot")(tf.constant(["a"]))
    with raises(ValueError, match="must be `'int'` when `invert` is true"):
        L.StringLookup(invert=True, output_mode="count")


def _adapted_vocab(tokens, reserved=()):
    """Keras's adapt order: by count, ties by the token, both descending."""
    counts = collections.Counter(t for t in tokens if t not in reserved)
    return [t for t, _ in sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)]


@clause("keras.layer.lookup", ref="tf221")
def test_layers_more3_lookup_adapt(tf, keras):
    L = keras.layers
    data = [["a", "b", "b"], ["c", "c", "c"], ["d", "e", "a"], ["b", "z", "y"]]
    flat = [t for row in data for t in row]
    layer = L.StringLookup()
    layer.adapt(np.array(data))
    vocab = _adapted_vocab(flat)
    assert_equal(layer.get_vocabulary(), ["[UNK]"] + vocab, call="StringLookup.adapt(ndarray).get_vocabulary()")
    capped = L.StringLookup(max_tokens=4)
    capped.adapt(tf.data.Dataset.from_tensor_slices(data).batch(3))
    assert_equal(capped.get_vocabulary(), ["[UNK]"] + vocab[:3], call="adapt(Dataset) with max_tokens=4")
    assert_equal(capped(tf.constant([vocab[0], vocab[3]])), np.array([1, 0], np.int64),
                 call="a token cut by max_tokens is OOV")
    tfidf = L.StringLookup(output_mode="tf_idf")
    tfidf.adapt(np.array(data))
    docs = [set(row) for row in data]
    idf = np.array([np.log(1 + len(docs) / (1 + sum(t in d for d in docs))) for t in vocab], np.float32)
    assert_close(tfidf.idf_weights, np.concatenate([[idf.mean()], idf]),
                 call="adapted idf weights: log(1 + documents / (1 + document count)), OOV their mean")
    ints = L.IntegerLookup(mask_token=0)
    idata = [[0, 5, 5], [0, -1, 7], [9, 9, 9]]
    ints.adapt(np.array(idata))
    ivocab = _adapted_vocab([t for row in idata for t in row], reserved=(0, -1))
    assert_equal(ints.get_vocabulary(), [0, -1] + ivocab,
                 call="IntegerLookup(mask_token=0).adapt: mask and OOV tokens are not counted")
    with raises(ValueError, match="Cannot adapt layer"):
        L.StringLookup(vocabulary=VOC).adapt(["a"])


@clause("keras.layer.lookup", ref="tf221")
def test_layers_more3_integer_lookup(tf, keras):
    L = keras.layers
    vocab = [12, 36, 1138, 42]
    x = [[12, 1001, 42], [42, 1000, -7]]
    assert_equal(L.IntegerLookup(vocabulary=vocab)(tf.constant(x)), _index(x, vocab, 1), call="IntegerLookup(vocab)")
    table = {t: 3 + i for i, t in enumerate(vocab)}
    want = np.array([[table.get(v, v % 3) for v in row] for row in x], np.int64)
    assert_equal(L.IntegerLookup(vocabulary=vocab, num_oov_indices=3)(tf.constant(x)), want,
                 call="IntegerLookup(num_oov_indices=3): floormod(x, 3) for OOV integers")
    masked = [[12, 0, 42]]
    assert_equal(L.IntegerLookup(vocabulary=vocab, mask_token=0)(tf.constant(masked)),
                 np.array([[2, 0, 5]], np.int64), call="IntegerLookup(mask_token=0)")
    inv = L.IntegerLookup(vocabulary=vocab, invert=True)(tf.constant([1, 0, 4, 9]))
    assert_equal(inv, np.array([12, -1, 42, -1], np.int64), call="IntegerLookup(invert=True): -1 for OOV")
    cfg = L.IntegerLookup(vocabulary=np.array([3, 5]), mask_token=0).get_config()
    assert_true(cfg["vocabulary"] == [3, 5] and cfg["mask_token"] == 0 and cfg["oov_token"] == -1,
                f"config vocabulary={cfg['vocabulary']}, mask_token={cfg['mask_token']}, oov_token={cfg['oov_token']}, "
                "but should be [3, 5], 0, -1", call="IntegerLookup.get_config()")
    inp = keras.Input(shape=(3,), dtype="int64")
    model = keras.Model(inp, L.IntegerLookup(vocabulary=vocab, output_mode="count")(inp))
    want = np.zeros((2, 5), np.int64)
    for r, row in enumerate(_index(x, vocab, 1)):
        for i in row:
            want[r, i] += 1
    got = model.predict(np.array(x, np.int64), verbose=0)
    assert_equal(got, want, call="Model(IntegerLookup(output_mode='count')).predict")
    with raises(ValueError, match="vocabulary_dtype='int64'"):
        L.IntegerLookup(vocabulary_dtype="int32")
    assert_equal(L.IntegerLookup(vocabulary=vocab).vocabulary_size(), 5, call="IntegerLookup.vocabulary_size()")


_M64 = (1 << 64) - 1
_KMUL = 0xC6A4A7935BD1E995


def _cat64(fp1, fp2):
    """TF's FingerprintCat64 (tensorflow/core/platform/fingerprint.h), transcribed."""
    def mix(v):
        return v ^ (v >> 47)
    r = fp1 ^ _KMUL
    r ^= (mix((fp2 * _KMUL) & _M64) * _KMUL) & _M64
    r = (r * _KMUL) & _M64
    r = (mix(r) * _KMUL) & _M64
    return mix(r)


def _cross_ints(rows, num_bins, key=0xDECAFCAFFE):
    out = []
    for row in rows:
        h = key
        for v in row:
            h = _cat64(h, int(v) & _M64)
        out.append(h % num_bins)
    return np.array(out, np.int64)


@clause("keras.layer.hashed-crossing", ref="tf221")
def test_layers_more3_hashed_crossing(tf, keras):
    a = np.array([3, -7, 12, 3], np.int64)
    b = np.array([5, 5, 0, 5], np.int64)
    want = _cross_ints(zip(a, b), 11)
    got = keras.layers.HashedCrossing(11)((a, b))
    assert_equal(got, want, call="HashedCrossing(11)((int64, int64)): FingerprintCat64 chain from 0xDECAFCAFFE")
    assert_equal(got.dtype, tf.int64, call="HashedCrossing(11)(...).dtype")
    c = np.array([1, 2, 3, 4], np.int32)
    got3 = keras.layers.HashedCrossing(1000)([a[:, None], b[:, None], c[:, None]])
    assert_equal(got3, _cross_ints(zip(a, b, c), 1000)[:, None], call="three (batch, 1) inputs, int32 cast to int64")
    sp = tf.sparse.cross_hashed([tf.constant([[1, 2], [3, 4]], tf.int64), tf.constant([[9], [8]], tf.int64)],
                                num_buckets=97, hash_key=5)
    assert_equal(sp.values, _cross_ints([(1, 9), (2, 9), (3, 8), (4, 8)], 97, key=5),
                 call="tf.sparse.cross_hashed(hash_key=5): every combination per row")
    assert_equal(sp.dense_shape, np.array([2, 2], np.int64), call="cross_hashed dense_shape")
    one_hot = keras.layers.HashedCrossing(11, output_mode="one_hot")((a, b))
    assert_equal(one_hot, np.eye(11, dtype=np.float32)[want], call="HashedCrossing(output_mode='one_hot')")
    words = keras.layers.HashedCrossing(5)((np.array(["x", "y", "x"]), np.array([1, 2, 1])))
    w = np.asarray(words)
    assert_true(w[0] == w[2] and 0 <= w.min() and w.max() < 5, f"string crosses {w.tolist()}: equal features must "
                "share a bin in [0, 5)", call="HashedCrossing(5)((strings, ints))")
    cfg = keras.layers.HashedCrossing(9, name="hc").get_config()
    assert_equal(keras.layers.HashedCrossing.from_config(cfg)((a, b)), _cross_ints(zip(a, b), 9),
                 call="from_config(get_config())")
    with raises(ValueError, match="at least two inputs"):
        keras.layers.HashedCrossing(7)([a])
    with raises(ValueError, match="integer or string dtype"):
        keras.layers.HashedCrossing(7)([a.astype(np.float32), b])


def _adaptive_ref(x, out, reduce):
    """Adaptive pooling of each spatial axis (channels_last) over windows floor(i*L/n) ..
    ceil((i+1)*L/n), as Keras's TF backend gathers them."""
    y = x.astype(np.float64)
    for axis, n in enumerate(out, start=1):
        length = y.shape[axis]
        parts = []
        for i in range(n):
            lo, hi = (i * length) // n, -((-(i + 1) * length) // n)
            parts.append(reduce(np.take(y, range(lo, hi), axis=axis), axis=axis, keepdims=True))
        y = np.concatenate(parts, axis=axis)
    return y


@clause("keras.layer.adaptive-pooling", ref="tf221")
def test_layers_more3_adaptive_pooling(tf, keras):
    L = keras.layers
    rng = np.random.default_rng(33)
    x1 = rng.standard_normal((2, 7, 3)).astype(np.float32)
    x2 = rng.standard_normal((2, 7, 5, 3)).astype(np.float32)
    x3 = rng.standard_normal((1, 5, 6, 7, 2)).astype(np.float32)
    for name, x, size, out in (("1D", x1, 3, (3,)), ("1D", x1, 9, (9,)), ("2D", x2, (3, 2), (3, 2)),
                               ("2D", x2, 4, (4, 4)), ("3D", x3, (2, 3, 4), (2, 3, 4))):
        for kind, reduce in (("Average", np.mean), ("Max", np.max)):
            layer = getattr(L, f"Adaptive{kind}Pooling{name}")
            call = f"Adaptive{kind}Pooling{name}({size})"
            assert_close(layer(size)(x), _adaptive_ref(x, out, reduce), call=call)
            moved = np.moveaxis(x, -1, 1)
            got = layer(size, data_format="channels_first")(moved)
            assert_close(got, np.moveaxis(_adaptive_ref(x, out, reduce), -1, 1), call=call + " channels_first")
    v = tf.Variable(x2)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(L.AdaptiveAveragePooling2D((3, 2))(v))
    grad = np.zeros(x2.shape)
    for i in range(3):
        lo_h, hi_h = (i * 7) // 3, -((-(i + 1) * 7) // 3)
        for j in range(2):
            lo_w, hi_w = (j * 5) // 2, -((-(j + 1) * 5) // 2)
            grad[:, lo_h:hi_h, lo_w:hi_w, :] += 1.0 / ((hi_h - lo_h) * (hi_w - lo_w))
    assert_close(tape.gradient(y, v), grad, call="gradient of sum(AdaptiveAveragePooling2D((3, 2))(x))")
    sym = L.AdaptiveMaxPooling2D((3, 2))(keras.Input(shape=(7, 5, 3)))
    assert_equal(tuple(sym.shape), (None, 3, 2, 3), call="symbolic AdaptiveMaxPooling2D((3, 2)) shape")
    cfg = L.AdaptiveAveragePooling3D(2, name="ap").get_config()
    assert_equal(tuple(cfg["output_size"]), (2, 2, 2), call="AdaptiveAveragePooling3D(2).get_config()['output_size']")
    with raises(ValueError, match="must have length 1"):
        L.AdaptiveAveragePooling1D((1, 2))
    with raises(TypeError, match=r"\(height, width\) tuple"):
        L.AdaptiveMaxPooling2D((1, 2, 3))
    with raises(ValueError, match="Invalid data_format"):
        L.AdaptiveAveragePooling2D(2, data_format="nhwc")


@clause("keras.layer.stacked-rnn-cells", ref="tf221")
def test_layers_more3_stacked_rnn_cells(tf, keras):
    L = keras.layers
    rng = np.random.default_rng(5)
    x = rng.standard_normal((2, 4, 3)).astype(np.float32)
    layer = L.RNN([L.SimpleRNNCell(4), L.SimpleRNNCell(2)], return_sequences=True, return_state=True)
    out, s1, s2 = layer(x)
    k1, r1, b1, k2, r2, b2 = (np.asarray(w, np.float64) for w in layer.get_weights())
    h1, h2, seq = np.zeros((2, 4)), np.zeros((2, 2)), []
    for t in range(4):
        h1 = np.tanh(x[:, t].astype(np.float64) @ k1 + h1 @ r1 + b1)
        h2 = np.tanh(h1 @ k2 + h2 @ r2 + b2)
        seq.append(h2)
    assert_close(out, np.stack(seq, axis=1), call="RNN([SimpleRNNCell(4), SimpleRNNCell(2)]) sequences")
    # (SimpleRNNCell's get_initial_state gives a list [h]: each cell's state comes back as that list)
    assert_close(s1[0], h1, call="returned state of the first cell ([h])")
    assert_close(s2[0], h2, call="returned state of the second cell ([h])")
    cells = L.StackedRNNCells([L.LSTMCell(3), L.GRUCell(2)])
    assert_true(cells.state_size == [[3, 3], 2] and cells.output_size == 2,
                f"state_size={cells.state_size}, output_size={cells.output_size}, but should be [[3, 3], 2], 2",
                call="StackedRNNCells([LSTMCell(3), GRUCell(2)])")
    lstm_gru = L.RNN(cells, return_state=True)
    got = lstm_gru(x)
    assert_equal([tuple(np.shape(t)) for t in (got[0], got[1][0], got[1][1], got[2][0])],
                 [(2, 2), (2, 3), (2, 3), (2, 2)], call="RNN(StackedRNNCells) return_state: output, [h, c], [h]")
    init = [[np.ones((2, 3), np.float32), np.zeros((2, 3), np.float32)], np.ones((2, 2), np.float32)]
    with_init = lstm_gru(x, initial_state=init)
    assert_true(not np.allclose(np.asarray(with_init[0]), np.asarray(got[0])),
                "the output did not change with a nested initial_state", call="RNN(StackedRNNCells)(initial_state)")
    masked = layer(x, mask=np.array([[True, True, False, False], [True, True, True, True]]))
    assert_close(masked[1][0][:1], layer(x[:1, :2])[1][0], call="a masked step keeps every cell's state")
    again = L.RNN.from_config(layer.get_config())
    again(x)
    again.set_weights(layer.get_weights())
    assert_close(again(x)[0], out, call="RNN.from_config(get_config()) with the same weights")
    with raises(ValueError, match="state_size"):
        L.StackedRNNCells([L.Dense(2)])


def _gqa_ref(q, v, w, heads, kv_heads, head_dim, mask=None):
    """GroupQueryAttention in NumPy (float64): projections, key/value heads repeated, softmax of the
    scaled scores (masked positions out), output projection."""
    qk, qb, kk, kb, vk, vb, ok, ob = (np.asarray(t, np.float64) for t in w)
    qp = np.einsum("bqm,muh->bquh", q, qk) + qb
    kp = np.repeat(np.einsum("bkm,mvh->bkvh", v, kk) + kb, heads // kv_heads, axis=2)
    vp = np.repeat(np.einsum("bkm,mvh->bkvh", v, vk) + vb, heads // kv_heads, axis=2)
    scores = np.einsum("bquh,bkuh->buqk", qp / np.sqrt(head_dim), kp)
    if mask is not None:
        scores = np.where(mask[:, None], scores, -1e9)
    scores = np.exp(scores - scores.max(-1, keepdims=True))
    scores /= scores.sum(-1, keepdims=True)
    out = np.einsum("buqk,bkuh->bquh", scores, vp)
    return np.einsum("bquh,uhm->bqm", out, ok) + ob, scores


@clause("keras.layer.group-query-attention", ref="tf221")
def test_layers_more3_group_query_attention(tf, keras):
    rng = np.random.default_rng(8)
    q = rng.standard_normal((2, 4, 6)).astype(np.float32)
    v = rng.standard_normal((2, 5, 6)).astype(np.float32)
    layer = keras.layers.GroupQueryAttention(head_dim=3, num_query_heads=4, num_key_value_heads=2)
    out, scores = layer(q, v, return_attention_scores=True)
    want, want_scores = _gqa_ref(q.astype(np.float64), v.astype(np.float64), layer.get_weights(), 4, 2, 3)
    _assert_close(out, want, tolerance=TOL_ATT,
                  call="GroupQueryAttention(3, 4, 2)(q, v) (einsum path, scores returned)")
    _assert_close(scores, want_scores, tolerance=TOL_ATT, call="its attention scores (batch, heads, T, S)")
    _assert_close(layer(q, v), want, tolerance=TOL_ATT,
                  call="GroupQueryAttention(3, 4, 2)(q, v) (dot_product_attention path)")
    causal = np.tril(np.ones((4, 4), bool))[None].repeat(2, axis=0)
    want_causal, _ = _gqa_ref(q.astype(np.float64), q.astype(np.float64), layer.get_weights(), 4, 2, 3, mask=causal)
    _assert_close(layer(q, q, use_causal_mask=True), want_causal, tolerance=TOL_ATT, call="use_causal_mask=True")
    band = causal & (np.abs(np.arange(4)[:, None] - np.arange(4)[None]) < 2)[None]
    windowed = keras.layers.GroupQueryAttention(3, 4, 2, sliding_window=2)
    got = windowed(q, q, use_causal_mask=True)
    want_band, _ = _gqa_ref(q.astype(np.float64), q.astype(np.float64), windowed.get_weights(), 4, 2, 3, mask=band)
    _assert_close(got, want_band, tolerance=TOL_ATT, call="sliding_window=2 with the causal mask")
    assert_equal([tuple(w.shape) for w in layer.weights], [(6, 4, 3), (4, 3), (6, 2, 3), (2, 3), (6, 2, 3), (2, 3),
                                                            (4, 3, 6), (6,)], call="GroupQueryAttention weights")
    cfg = layer.get_config()
    assert_equal((cfg["head_dim"], cfg["num_query_heads"], cfg["num_key_value_heads"]), (3, 4, 2),
                 call="GroupQueryAttention.get_config()")
    with raises(ValueError, match="divisible"):
        keras.layers.GroupQueryAttention(3, 4, 3)


@clause("keras.layer.spectral-normalization", ref="tf221")
def test_layers_more3_spectral_normalization(tf, keras):
    rng = np.random.default_rng(4)
    x = rng.standard_normal((3, 4)).astype(np.float32)
    layer = keras.layers.SpectralNormalization(keras.layers.Dense(3), power_iterations=2)
    inference = layer(x)
    kernel, bias = (np.asarray(w, np.float64) for w in layer.layer.get_weights())
    u = np.asarray(layer.vector_u, np.float64)
    assert_close(inference, x.astype(np.float64) @ kernel + bias, call="SpectralNormalization(Dense) at inference")
    for _ in range(2):
        v = u @ kernel.T
        v = v / np.sqrt((v * v).sum())
        u = v @ kernel
        u = u / np.sqrt((u * u).sum())
    sigma = (v @ kernel @ u.T).item()
    trained = layer(x, training=True)
    assert_close(layer.layer.kernel, kernel / sigma, call="the kernel after a training call: kernel / sigma")
    assert_close(layer.vector_u, u, call="vector_u after two power iterations")
    assert_close(trained, x.astype(np.float64) @ (kernel / sigma) + bias, call="the training call's output")
    # (the wrapper tracks the kernel as its own `kernel`, then vector_u, then the wrapped layer's bias)
    assert_equal([w.trainable for w in layer.weights], [True, False, True],
                 call="weights: kernel (trainable), vector_u (not), bias (trainable)")
    with raises(ValueError, match="power_iterations"):
        keras.layers.SpectralNormalization(keras.layers.Dense(2), power_iterations=0)


@clause("keras.layer.reversible-embedding", ref="tf221")
def test_layers_more3_reversible_embedding(tf, keras):
    ids = np.array([[1, 4, 0], [2, 0, 0]])
    h = np.random.default_rng(6).standard_normal((2, 2, 3)).astype(np.float32)
    layer = keras.layers.ReversibleEmbedding(6, 3, mask_zero=True)
    out = layer(ids)
    table = np.asarray(layer.embeddings, np.float64)
    assert_close(out, table[ids], call="ReversibleEmbedding(6, 3)(ids): the embedding rows")
    assert_equal(np.asarray(out._keras_mask), ids != 0, call="mask_zero mask on the forward output")
    assert_close(layer(h, reverse=True), h.astype(np.float64) @ table.T, call="reverse=True: hidden @ embeddings^T")
    capped = keras.layers.ReversibleEmbedding(6, 3, tie_weights=False, logit_soft_cap=2.0)
    capped(ids)
    rev = np.asarray(capped.reverse_embeddings, np.float64)
    assert_equal(rev.shape, (3, 6), call="untied reverse_embeddings shape (output_dim, input_dim)")
    assert_close(capped(h * 10, reverse=True), np.tanh((h.astype(np.float64) * 10 @ rev) / 2.0) * 2.0,
                 call="untied, logit_soft_cap=2: tanh(logits / 2) * 2")
    assert_equal(tuple(layer.compute_output_shape((2, 5, 3), reverse=True)), (2, 5, 6),
                 call="compute_output_shape(reverse=True)")


@clause("keras.saving.json-and-serialize", ref="tf221")
def test_layers_more3_serialize_and_json(tf, keras):
    layer = keras.layers.Conv1D(3, 2, name="c")
    layer.build((None, 5, 2))
    config = keras.layers.serialize(layer)
    got = (config["module"], config["class_name"], list(config["build_config"]["input_shape"]))
    assert_true(got == ("keras.layers", "Conv1D", [None, 5, 2]),
                f"(module, class_name, build input_shape)={got}, but should be ('keras.layers', 'Conv1D', [None, 5, 2])",
                call="keras.layers.serialize(built Conv1D)")
    again = keras.layers.deserialize(config)
    assert_true(type(again).__name__ == "Conv1D" and again.built and again.get_config() == layer.get_config(),
                f"deserialized {type(again).__name__} built={again.built}", call="keras.layers.deserialize")
    with raises(ValueError, match="not a `keras.layers.Layer`"):
        keras.layers.deserialize("Conv1D")
    with raises(TypeError, match="Could not locate class"):
        keras.layers.deserialize({"class_name": "NoSuchLayer", "config": {}})
    x = np.random.default_rng(9).standard_normal((2, 5, 2)).astype(np.float32)
    model = keras.Sequential([keras.Input((5, 2)), keras.layers.Conv1D(3, 2), keras.layers.GlobalAveragePooling1D()])
    text = model.to_json()
    rebuilt = keras.models.model_from_json(text)
    rebuilt.set_weights(model.get_weights())
    assert_close(rebuilt(x), model(x), call="model_from_json(model.to_json()) with the same weights")
    assert_true(keras.initializers.OrthogonalInitializer is keras.initializers.Orthogonal
                and keras.initializers.IdentityInitializer is keras.initializers.Identity,
                "IdentityInitializer/OrthogonalInitializer are not Identity/Orthogonal",
                call="keras.initializers class names")


def _conv1d_same_free(x, w, b=None):
    """VALID 1-D convolution, NumPy: x (batch, length, in), w (k, in, out)."""
    k = w.shape[0]
    out = np.stack([np.einsum("bki,kio->bo", x[:, i:i + k], w) for i in range(x.shape[1] - k + 1)], axis=1)
    return out if b is None else out + b


def _conv1d_same(x, w):
    """SAME 1-D convolution with stride 1 (TF's padding: the extra zero after)."""
    k = w.shape[0]
    pad = k - 1
    x = np.pad(x, ((0, 0), (pad // 2, pad - pad // 2), (0, 0)))
    return _conv1d_same_free(x, w)


@clause("keras.layer.conv-lstm", ref="tf221")
def test_layers_more3_conv_lstm1d(tf, keras):
    rng = np.random.default_rng(10)
    x = rng.standard_normal((2, 3, 6, 2)).astype(np.float32)
    layer = keras.layers.ConvLSTM1D(3, 2, return_sequences=True)
    out = layer(x)
    k, rk, b = (np.asarray(w, np.float64) for w in layer.get_weights())
    shapes = (k.shape, rk.shape, b.shape)
    assert_true(shapes == ((2, 2, 12), (2, 3, 12), (12,)), f"weight shapes {shapes}, but should be ((2, 2, 12), "
                "(2, 3, 12), (12,))", call="ConvLSTM1D(3, 2) weights: kernel, recurrent_kernel, bias")
    assert_close(b, np.concatenate([np.zeros(3), np.ones(3), np.zeros(6)]), call="unit_forget_bias")

    def sigmoid(z):
        return 1 / (1 + np.exp(-z))
    h = np.zeros((2, 5, 3))
    c = np.zeros((2, 5, 3))
    seq = []
    for t in range(3):
        xt = x[:, t].astype(np.float64)
        gates = [_conv1d_same_free(xt, k[..., g * 3:(g + 1) * 3], b[g * 3:(g + 1) * 3])
                 + _conv1d_same(h, rk[..., g * 3:(g + 1) * 3]) for g in range(4)]
        i, f, o = sigmoid(gates[0]), sigmoid(gates[1]), sigmoid(gates[3])
        c = f * c + i * np.tanh(gates[2])
        h = o * np.tanh(c)
        seq.append(h)
    _assert_close(out, np.stack(seq, axis=1), tolerance=TOL_ATT, call="ConvLSTM1D(3, 2) sequences vs NumPy")
    assert_equal(tuple(keras.layers.ConvLSTM2D(2, 3, padding="same").compute_output_shape((None, 4, 5, 6, 1))),
                 (None, 5, 6, 2), call="ConvLSTM2D(2, 3, padding='same').compute_output_shape")
    with raises(ValueError, match="strides > 1"):
        keras.layers.ConvLSTM2D(2, 2, strides=2, dilation_rate=2)


@clause("keras.saving.json-and-serialize", ref="tf221")
def test_layers_more3_utils_serialize_keras_object(tf, keras):
    U = keras.utils
    init = keras.initializers.GlorotUniform(seed=1)
    config = U.serialize_keras_object(init)
    want = {"module": "keras.initializers", "class_name": "GlorotUniform", "registered_name": None}
    assert_true({k: config[k] for k in want} == want and config["config"]["seed"] == 1,
                f"serialize_keras_object(GlorotUniform(seed=1)) = {config}", call="keras.utils.serialize_keras_object")
    again = U.deserialize_keras_object(config)
    assert_close(again((3, 2)), init((3, 2)), call="deserialize_keras_object(...)((3, 2)) draws as the original")
    act = U.serialize_keras_object(keras.activations.relu)
    assert_true(act == {"module": "builtins", "class_name": "function", "config": "relu",
                        "registered_name": "function"}, f"serialize_keras_object(relu) = {act}",
                call="keras.utils.serialize_keras_object(relu)")
    assert_true(U.deserialize_keras_object(act) is keras.activations.relu, "relu did not come back",
                call="keras.utils.deserialize_keras_object(relu's config)")
    plain = U.serialize_keras_object({"a": (1, 2), "b": [None, "x"]})
    assert_true(plain == {"a": (1, 2), "b": [None, "x"]} and isinstance(plain["a"], tuple),
                f"serialize_keras_object of plain values = {plain!r}: they should come back as they are (a tuple "
                "stays a tuple)", call="serialize_keras_object(dict)")
    with raises(ValueError, match="KerasSaveable"):
        U.deserialize_keras_object({"class_name": "Nope", "config": {}, "module": "keras.layers"})
