"""Gaps the forty-second blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is the
suite"): rules of Keras's layers, losses, metrics, optimizers and callbacks that the suite stated for one spelling,
one option value or one input only, or never, so that a wrong implementation of the other case passed
(TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy or
plain Python (a transcription of TF's or Keras 3.15's rule), or is a relation TF's rule implies between two
spellings, never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import to_numpy as _np   # (an ndarray of any backend's value)

clause = pytest.mark.clause


def _raises(fn, cls, want, what):
    with pytest.raises(cls) as e:
        fn()
    assert want in str(e.value), f"{what}: expected {cls.__name__} with {want!r}, got {type(e.value).__name__} " \
                                 f"{str(e.value)!r}"


# -- Hashing's salt: the strong (keyed SipHash-2-4) hash, an int salt keying both halves ----------------------------
_M64 = (1 << 64) - 1


def _rotl(x, b):
    return ((x << b) | (x >> (64 - b))) & _M64


def _siphash24(k0, k1, data: bytes) -> int:
    """SipHash-2-4 of `data` under the 128-bit key (k0, k1) (TF's StringToHashBucketStrong: the key's two uint64
    halves), transcribed from the reference algorithm."""
    v = [k0 ^ 0x736F6D6570736575, k1 ^ 0x646F72616E646F6D, k0 ^ 0x6C7967656E657261, k1 ^ 0x7465646279746573]

    def sipround():
        v[0] = (v[0] + v[1]) & _M64; v[1] = _rotl(v[1], 13) ^ v[0]; v[0] = _rotl(v[0], 32)
        v[2] = (v[2] + v[3]) & _M64; v[3] = _rotl(v[3], 16) ^ v[2]
        v[0] = (v[0] + v[3]) & _M64; v[3] = _rotl(v[3], 21) ^ v[0]
        v[2] = (v[2] + v[1]) & _M64; v[1] = _rotl(v[1], 17) ^ v[2]; v[2] = _rotl(v[2], 32)

    n = len(data) // 8 * 8
    for i in range(0, n, 8):
        m = int.from_bytes(data[i:i + 8], "little")
        v[3] ^= m; sipround(); sipround(); v[0] ^= m
    last = ((len(data) & 0xFF) << 56) | int.from_bytes(data[n:], "little")
    v[3] ^= last; sipround(); sipround(); v[0] ^= last
    v[2] ^= 0xFF
    for _ in range(4):
        sipround()
    return v[0] ^ v[1] ^ v[2] ^ v[3]


_WORDS = ["a", "b", "hello", "", "a longer string of bytes!"]


@clause("keras.layer.lookup", ref="tf221")
@pytest.mark.parametrize("salt, key", [(7, (7, 7)), ([7, 7], (7, 7)), ((3, 11), (3, 11)), ([3, 11], (3, 11)),
                                       (0, (0, 0)), ([0, 5], (0, 5)), (123456789, (123456789, 123456789))])
@pytest.mark.parametrize("num_bins", [1000, 7])
def test_blind42_hashing_salt_keys_the_strong_hash(keras, salt, key, num_bins):
    """Hashing(salt=...) hashes with TF's keyed strong hash (SipHash-2-4 under the key's two uint64 halves), bucket =
    hash % num_bins; Keras 3.15 turns an int salt into [salt, salt] (both halves), a pair is the key as given, and
    salt=0 is a key too (strong hashing is `salt is not None`). Expected values from a SipHash transcription."""
    x = np.array([[w] for w in _WORDS])
    got = _np(keras.layers.Hashing(num_bins=num_bins, salt=salt)(x)).ravel().tolist()
    want = [_siphash24(key[0], key[1], w.encode()) % num_bins for w in _WORDS]
    assert got == want, f"Hashing(num_bins={num_bins}, salt={salt!r}) of {_WORDS}: expected {want}, got {got}"


@clause("keras.layer.lookup", ref="tf221")
@pytest.mark.parametrize("salt, key", [(5, (5, 5)), ((2, 9), (2, 9))])
def test_blind42_hashing_salt_with_mask_modes_and_ints(keras, salt, key):
    """The salt applies on every path: with mask_value the mask hashes to 0 and the others to 1 + hash % (bins - 1);
    one_hot/count outputs one-hot the salted bucket; integer inputs are hashed as their decimal strings. The salt is
    kept as a list of two (get_config too); other salts are ValueError with Keras's text."""
    h = lambda w: _siphash24(key[0], key[1], w.encode())   # noqa: E731
    words = np.array([["a"], ["b"], ["hello"], [""]])
    got = _np(keras.layers.Hashing(num_bins=10, salt=salt, mask_value="")(words)).ravel().tolist()
    want = [0 if w == "" else 1 + h(w) % 9 for w in ["a", "b", "hello", ""]]
    assert got == want, f"Hashing(10, salt={salt!r}, mask_value='') : expected {want}, got {got}"
    got = _np(keras.layers.Hashing(num_bins=4, salt=salt, output_mode="one_hot")(np.array(["a", "b", "hello"])))
    want = np.eye(4, dtype="float32")[[h(w) % 4 for w in ["a", "b", "hello"]]]
    np.testing.assert_array_equal(got, want, err_msg=f"Hashing(4, salt={salt!r}, output_mode='one_hot')")
    got = _np(keras.layers.Hashing(num_bins=1000, salt=salt)(np.array([[1], [22], [-3]]))).ravel().tolist()
    want = [h(str(i)) % 1000 for i in (1, 22, -3)]
    assert got == want, f"Hashing(1000, salt={salt!r}) of ints 1, 22, -3: expected {want}, got {got}"
    layer = keras.layers.Hashing(num_bins=3, salt=salt)
    assert list(layer.salt) == list(key), f"Hashing(salt={salt!r}).salt: expected {list(key)}, got {layer.salt!r}"
    assert list(layer.get_config()["salt"]) == list(key), f"get_config()['salt']: {layer.get_config()['salt']!r}"
    assert keras.layers.Hashing(num_bins=3).salt is None, "Hashing() without a salt: salt is None"
    for bad in ([1, 2, 3], "ab", 1.5):
        _raises(lambda: keras.layers.Hashing(num_bins=3, salt=bad), ValueError,
                "The `salt` argument for `Hashing` can only be a tuple of size 2 integers, or a single integer. "
                f"Received: salt={bad}.", f"Hashing(salt={bad!r})")


# -- MultiHeadAttention: negative attention_axes count from the input's rank -----------------------------------------
def _mha(keras, axes, x):
    layer = keras.layers.MultiHeadAttention(num_heads=2, key_dim=2, attention_axes=axes)
    layer.build(x.shape, x.shape)
    for w in layer.weights:   # fixed weights: sin(0), sin(1), ... in each variable's shape (exact inputs)
        w.assign(np.sin(np.arange(int(np.prod(w.shape)), dtype=np.float64)).astype("float32").reshape(w.shape))
    y, s = layer(x, x, return_attention_scores=True)
    return _np(y), tuple(_np(s).shape)


# (not ((1, 2, 3, 2, 4), (-2,), (3,)): its scores are rank 6, whose Softmax oneDNN's kernel refuses, AbortedError
# "Input dims must be <= 5 and >=1", where the CPU runs float32 through oneDNN and TF's own kernel computes elsewhere:
# a host-dependent case, clause ops.host-cpu)
@clause("keras.mha.arguments", ref="tf221")
@pytest.mark.parametrize("shape, negative, positive", [
    ((2, 2, 3, 4), (-2,), (2,)), ((2, 2, 3, 4), (-3,), (1,)), ((2, 2, 3, 4), (-3, -2), (1, 2)),
    ((2, 2, 3, 4), -2, 2), ((1, 2, 3, 2, 4), (-4, -2), (1, 3)),
    ((1, 2, 3, 2, 4), (-3, 3), (2, 3)), ((2, 5, 4), (-2,), (1,))])
def test_blind42_mha_negative_attention_axes(keras, shape, negative, positive):
    """MultiHeadAttention(attention_axes=a) with a < 0 means axis rank(query) + a of the query (Keras 3.15:
    `(rank - 1) + a` over the projected rank, which has one more axis, the heads'); so the layer with the negative
    axes gives the same values as with the positive ones, and scores of shape (B, *other axes, heads, *attended
    query axes, *attended key axes)."""
    x = ((np.arange(int(np.prod(shape))) % 7).reshape(shape) / 7.0).astype("float32")
    y_neg, s_neg = _mha(keras, negative, x)
    y_pos, s_pos = _mha(keras, positive, x)
    pos = (positive,) if isinstance(positive, int) else positive
    others = [shape[i] for i in range(1, len(shape) - 1) if i not in pos]
    want = (shape[0], *others, 2, *[shape[i] for i in pos], *[shape[i] for i in pos])
    assert s_neg == want, f"attention_axes={negative} on {shape}: scores shape expected {want}, got {s_neg}"
    assert s_pos == want, f"attention_axes={positive} on {shape}: scores shape expected {want}, got {s_pos}"
    np.testing.assert_allclose(y_neg, y_pos, rtol=1e-6, atol=1e-6,
                               err_msg=f"attention_axes={negative} and {positive} on {shape} differ")


# -- Dot's axes argument --------------------------------------------------------------------------------------------
@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("axes, cls, want", [
    ([1], ValueError, "Invalid format for argument `axes`: it should contain two elements. Received: axes=[1]"),
    ((1,), ValueError, "Invalid format for argument `axes`: it should contain two elements. Received: axes=(1,)"),
    ([], ValueError, "Invalid format for argument `axes`: it should contain two elements. Received: axes=[]"),
    ([1, 2, 1], ValueError,
     "Invalid format for argument `axes`: it should contain two elements. Received: axes=[1, 2, 1]"),
    ([1, 1.0], ValueError,
     "Invalid format for argument `axes`: list elements should be integers. Received: axes=[1, 1.0]"),
    ([1, "a"], ValueError,
     "Invalid format for argument `axes`: list elements should be integers. Received: axes=[1, 'a']"),
    ("1", TypeError, "Invalid type for argument `axes`: it should be a list or an int. Received: axes=1"),
    (1.5, TypeError, "Invalid type for argument `axes`: it should be a list or an int. Received: axes=1.5"),
    (None, TypeError, "Invalid type for argument `axes`: it should be a list or an int. Received: axes=None"),
    ((1, 2), None, None), ([2, 1], None, None), (1, None, None), (-1, None, None)])
def test_blind42_dot_axes_argument(keras, axes, cls, want):
    """Keras 3.15's Dot(axes): an int, or a list/tuple of exactly two ints (TypeError for another type, ValueError
    for another length or a non-int element, with Keras's texts); an accepted value is kept as given."""
    if cls is None:
        assert keras.layers.Dot(axes=axes).axes == axes, f"Dot(axes={axes!r}).axes"
        return
    _raises(lambda: keras.layers.Dot(axes=axes), cls, want, f"Dot(axes={axes!r})")


# -- fit/evaluate/predict's callbacks: any nesting of lists and tuples is flattened ---------------------------------
@clause("keras.fit.callbacks", ref="tf221")
@pytest.mark.parametrize("spelling", ["tuple", "nested", "list", "tuple_in_list", "single"])
def test_blind42_callbacks_nesting_is_flattened(keras, spelling):
    """Keras's CallbackList flattens its callbacks (keras.tree.flatten): a tuple, a list, lists and tuples nested
    in each other, or one callback; each callback is called once per hook, in the flattened order. evaluate and
    predict take a tuple too."""
    seen = []

    def cb(tag):
        return keras.callbacks.LambdaCallback(on_train_begin=lambda logs: seen.append((tag, "begin")),
                                              on_epoch_end=lambda epoch, logs: seen.append((tag, epoch)))
    a, b, c = cb("a"), cb("b"), cb("c")
    callbacks = {"tuple": (a, b, c), "nested": [a, [b, [c]]], "list": [a, b, c], "tuple_in_list": [a, (b, c)],
                 "single": a}[spelling]
    tags = ["a"] if spelling == "single" else ["a", "b", "c"]
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    x, y = np.ones((4, 2), "float32"), np.ones((4, 1), "float32")
    model.fit(x, y, epochs=2, verbose=0, callbacks=callbacks)
    want = [(t, "begin") for t in tags] + [(t, e) for e in (0, 1) for t in tags]
    assert seen == want, f"fit(callbacks={spelling}): expected the calls {want}, got {seen}"
    other = []
    test_cb = keras.callbacks.LambdaCallback(on_test_begin=lambda logs: other.append("test"))
    predict_cb = keras.callbacks.LambdaCallback(on_predict_begin=lambda logs: other.append("predict"))
    model.evaluate(x, y, verbose=0, callbacks=(test_cb, predict_cb))
    model.predict(x, verbose=0, callbacks=(predict_cb,))
    assert other == ["test", "predict"], f"evaluate/predict with tuples of callbacks: got {other}"
    cl = keras.callbacks.CallbackList((keras.callbacks.History(), [keras.callbacks.History()]))
    assert [type(c).__name__ for c in cl.callbacks] == ["History", "History"], \
        f"CallbackList((History(), [History()])).callbacks: {cl.callbacks}"


# -- transposed convolutions: output_padding strictly below strides on every axis ------------------------------------
@clause("keras.layer.conv-family.arguments", ref="tf221")
@pytest.mark.parametrize("name, rank", [("Conv1DTranspose", 1), ("Conv2DTranspose", 2), ("Conv3DTranspose", 3)])
@pytest.mark.parametrize("strides, output_padding", [(2, 2), (2, 1), (2, 0), (1, 1), (1, 0), (3, 2), (3, 3),
                                                     ("last", "last")])
def test_blind42_conv_transpose_output_padding_below_strides(keras, name, rank, strides, output_padding):
    """Keras 3.15's BaseConvTranspose: each entry of output_padding must be strictly less than the strides' entry on
    the same axis (equal is ValueError naming the first such axis); 0 is accepted. ("last": strides 2 on every axis,
    output_padding 1 except 2 on the last axis.)"""
    if strides == "last":
        strides, output_padding = (2,) * rank, (1,) * (rank - 1) + (2,)
    s = (strides,) * rank if isinstance(strides, int) else strides
    op = (output_padding,) * rank if isinstance(output_padding, int) else output_padding
    make = lambda: getattr(keras.layers, name)(2, 3, strides=strides, output_padding=output_padding)   # noqa: E731
    bad = [i for i in range(rank) if op[i] >= s[i]]
    if not bad:
        assert tuple(make().output_padding) == op, f"{name}(strides={strides}, output_padding={output_padding})"
        return
    i = bad[0]
    _raises(make, ValueError, f"`output_padding` must be strictly less than `strides` for all dimensions. At "
            f"dimension {i}, `output_padding` is {op[i]} but `strides` is {s[i]}. Received: output_padding={op}, "
            f"strides={s}", f"{name}(strides={strides}, output_padding={output_padding})")


# -- GroupNormalization's groups, wrappers of a non-layer, AUC's spellings, the generalized cross-entropy's q ---------
_GROUPS = ("Received an invalid value for argument `groups`, expected a positive integer (or `-1` for instance "
           "normalization). Received: groups=")


@clause("keras.layer.groupnorm", ref="tf221")
@pytest.mark.parametrize("groups, ok", [(0, False), (-1, True), (-2, False), (1, True), (3, True), (2.0, False)])
def test_blind42_group_normalization_groups_argument(keras, groups, ok):
    """Keras 3.15's GroupNormalization(groups): a positive int or -1 (instance normalization); 0, other negatives and
    floats are ValueError with Keras's text."""
    if ok:
        assert keras.layers.GroupNormalization(groups=groups).groups == groups, f"GroupNormalization(groups={groups})"
        return
    _raises(lambda: keras.layers.GroupNormalization(groups=groups), ValueError, _GROUPS + str(groups),
            f"GroupNormalization(groups={groups})")


@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("wrapper", ["TimeDistributed", "Bidirectional", "Wrapper"])
@pytest.mark.parametrize("arg", ["dense", None, 3, "function"])
def test_blind42_wrappers_refuse_a_non_layer(keras, wrapper, arg):
    """A wrapper of something that is not a Layer is ValueError (Keras 3.15: TimeDistributed's and Bidirectional's
    own check, else Wrapper's), with Keras's text."""
    value = (lambda x: x) if arg == "function" else arg
    want = (f"Layer {value} supplied to Wrapper isn't a supported layer type." if wrapper == "Wrapper" else
            f"Please initialize `{wrapper}` layer with a `keras.layers.Layer` instance. Received: {value}")
    _raises(lambda: getattr(keras.layers, wrapper)(value), ValueError, want, f"{wrapper}({arg})")


@clause("keras.metric.auc", ref="tf221")
@pytest.mark.parametrize("kind, value, want", [
    ("curve", "pr", "PR"), ("curve", "PR", "PR"), ("curve", "roc", "ROC"), ("curve", "ROC", "ROC"),
    ("curve", "prgain", "PRGAIN"), ("curve", "PRGAIN", "PRGAIN"), ("curve", "Pr", None), ("curve", "roC", None),
    ("curve", "auc", None), ("summation_method", "interpolation", "INTERPOLATION"),
    ("summation_method", "minoring", "MINORING"), ("summation_method", "majoring", "MAJORING"),
    ("summation_method", "Interpolation", "INTERPOLATION"), ("summation_method", "MAJORING", None),
    ("summation_method", "careful", None)])
def test_blind42_auc_curve_and_summation_spellings(keras, kind, value, want):
    """Keras 3.15's AUCCurve.from_str takes each curve in lower or upper case only ('pr'/'PR', 'roc'/'ROC',
    'prgain'/'PRGAIN'); AUCSummationMethod.from_str takes 'interpolation'/'Interpolation', 'majoring',
    'minoring' only; anything else is ValueError with Keras's text."""
    if want is None:
        text = (f'Invalid AUC curve value: "{value}". Expected values are ["PR", "ROC", "PRGAIN"]' if kind == "curve"
                else f'Invalid AUC summation method value: "{value}". Expected values are ["interpolation", '
                     '"majoring", "minoring"]')
        _raises(lambda: keras.metrics.AUC(**{kind: value}), ValueError, text, f"AUC({kind}={value!r})")
        return
    got = str(getattr(keras.metrics.AUC(**{kind: value}), kind)).split(".")[-1]
    assert got == want, f"AUC({kind}={value!r}).{kind}: expected {want}, got {got}"


@clause("keras.loss.option-coverage", ref="tf221")
@pytest.mark.parametrize("q, ok", [(0.0, False), (1.0, False), (0.5, True), (0.999, True), (1e-6, True),
                                   (-0.1, False), (1.5, False)])
def test_blind42_generalized_cross_entropy_q_in_the_open_interval(keras, q, ok):
    """Keras 3.15's CategoricalGeneralizedCrossEntropy(q): 0 < q < 1, both ends refused (ValueError)."""
    if ok:
        assert keras.losses.CategoricalGeneralizedCrossEntropy(q=q).q == q, f"CategoricalGeneralizedCrossEntropy(q={q})"
        return
    _raises(lambda: keras.losses.CategoricalGeneralizedCrossEntropy(q=q), ValueError,
            "q must be in the interval (0, 1)", f"CategoricalGeneralizedCrossEntropy(q={q})")


# -- the regression loss functions match y_true's and y_pred's ranks -----------------------------------------------
def _same_rank(a, b):
    """Keras 3.15's squeeze_or_expand_to_same_rank (expand_rank_1=True): ranks that differ by one with a last
    dimension of 1 on the longer: a rank-1 other is expanded, else the longer squeezed."""
    if a.ndim == b.ndim + 1 and a.shape[-1] == 1:
        return (a, b[..., None]) if b.ndim == 1 else (a[..., 0], b)
    if b.ndim == a.ndim + 1 and b.shape[-1] == 1:
        return (a[..., None], b) if a.ndim == 1 else (a, b[..., 0])
    return a, b


def _l2n(x):
    return x / np.sqrt(np.maximum(np.sum(x * x, axis=-1, keepdims=True), 1e-12))


_EPS = 1e-7
_REGRESSION = {
    "huber": lambda t, p: np.mean(np.where(np.abs(p - t) <= 1.0, 0.5 * (p - t) ** 2, np.abs(p - t) - 0.5), axis=-1),
    "logcosh": lambda t, p: np.mean(np.log(np.cosh(p - t)), axis=-1),
    "mape": lambda t, p: 100.0 * np.mean(np.abs(t - p) / np.maximum(np.abs(t), _EPS), axis=-1),
    "msle": lambda t, p: np.mean((np.log(np.maximum(p, _EPS) + 1) - np.log(np.maximum(t, _EPS) + 1)) ** 2, axis=-1),
    "cosine_similarity": lambda t, p: -np.sum(_l2n(t) * _l2n(p), axis=-1),
}


@clause("keras.loss.shapes", ref="tf221")
@pytest.mark.parametrize("name", ["huber", "logcosh", "mape", "msle", "cosine_similarity", "MAPE", "MSLE"])
@pytest.mark.parametrize("spelling", ["labels_flat", "predictions_flat", "both_columns", "both_flat"])
def test_blind42_regression_loss_functions_match_ranks(keras, name, spelling):
    """keras.losses' regression functions (huber, logcosh, mape/MAPE, msle/MSLE, cosine_similarity) bring y_true and
    y_pred to the same rank first (Keras's squeeze_or_expand_to_same_rank: labels (N,) against predictions (N, 1)
    give per-sample losses of shape (N,), not an (N, N) broadcast), then reduce the last axis. Expected values from
    the formulas in float64 after the same rank rule."""
    t = np.array([1.0, 2.0, 3.0], "float32")
    p = np.array([[1.5], [2.5], [2.0]], "float32")
    y_true, y_pred = {"labels_flat": (t, p), "predictions_flat": (p, t), "both_columns": (t[:, None], p),
                      "both_flat": (t, p[:, 0])}[spelling]
    got = _np(getattr(keras.losses, name)(y_true, y_pred))
    a, b = _same_rank(y_true.astype(np.float64), y_pred.astype(np.float64))
    want = _REGRESSION[name.lower()](a, b)
    assert got.shape == want.shape, f"{name}{y_true.shape, y_pred.shape}: expected shape {want.shape}, got {got.shape}"
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6,
                               err_msg=f"{name} of y_true {y_true.shape} and y_pred {y_pred.shape}")
