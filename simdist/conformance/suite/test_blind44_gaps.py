"""Gaps the forty-fourth blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is the
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
from simdist.conformance.suite.outcomes import check as _check, outcome as _outcome

clause = pytest.mark.clause


# -- CategoryEncoding's output shape over modes and input ranks -------------------------------------------------------
def _category_shape(mode, shape, num_tokens):
    """Keras 3.15 CategoryEncoding.compute_output_shape, transcribed."""
    if len(shape) == 0:
        return (num_tokens,)
    if mode == "one_hot":
        if shape[-1] != 1 or len(shape) == 1:
            return tuple(shape) + (num_tokens,)
        return tuple(shape[:-1]) + (num_tokens,)
    return tuple(shape[:-1]) + (num_tokens,)


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("mode", ["one_hot", "multi_hot", "count"])
@pytest.mark.parametrize("shape", [(), (1,), (3,), (None,), (2, 1), (1, 1), (None, 1), (2, 3), (1, 3), (2, 3, 1)])
def test_blind44_category_encoding_output_shape(keras, mode, shape):
    """CategoryEncoding.compute_output_shape: a scalar gives (num_tokens,); one_hot appends the token axis unless the
    last axis is a unit axis of a rank >= 2 shape (then it replaces it) — a rank-1 (1,) keeps its axis;
    multi_hot and count replace the last axis. For concrete rank-1 and rank-2 inputs the eager call's shape is the
    same."""
    layer = keras.layers.CategoryEncoding(4, output_mode=mode)
    want = _category_shape(mode, shape, 4)
    got = tuple(layer.compute_output_shape(shape))
    assert got == want, f"CategoryEncoding(4, {mode!r}).compute_output_shape({shape}): expected {want}, got {got}"
    if shape and None not in shape and len(shape) <= 2:
        y = keras.layers.CategoryEncoding(4, output_mode=mode)(np.zeros(shape, "int32"))
        assert tuple(y.shape) == want, f"CategoryEncoding(4, {mode!r}) of int32{list(shape)}: expected shape {want}, " \
                                       f"got {tuple(y.shape)}"


# -- constructor argument checks: the edges of each range ---------------------------------------------------------------
_SCORE = "Invalid value for argument score_mode"
_SLIDING = "`sliding_window` must be `None` or a positive integer"
_UNITS = "Received an invalid value for argument `units`, expected a positive integer"
_STATE = "state_size must be an integer, or a list/tuple of integers"


@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("num_bins, want", [(0, "ok"), (1, "ok"), (3, "ok"), (-1, "ValueError")])
def test_blind44_discretization_num_bins(keras, num_bins, want):
    """Discretization(num_bins=n): Keras 3.15 refuses only n < 0 (0 bins is accepted at construction)."""
    _check(f"Discretization(num_bins={num_bins})", lambda: keras.layers.Discretization(num_bins=num_bins).num_bins,
           want, "`num_bins` must be greater than or equal to 0", num_bins if want == "ok" else None)


@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("window, want", [(None, "ok"), (1, "ok"), (3, "ok"), (True, "ok"), (0, "ValueError"),
                                          (-1, "ValueError"), (1.5, "ValueError"), (2.0, "ValueError")])
def test_blind44_group_query_attention_sliding_window(keras, window, want):
    """GroupQueryAttention(sliding_window=w): None or an int > 0 (a bool is an int to `isinstance`); 0, negatives
    and floats are ValueError."""
    _check(f"GroupQueryAttention(sliding_window={window!r})",
           lambda: keras.layers.GroupQueryAttention(head_dim=2, num_query_heads=2, num_key_value_heads=1,
                                                    sliding_window=window).sliding_window,
           want, _SLIDING)


@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("mode, want", [("dot", "ok"), ("concat", "ok"), ("DOT", "ValueError"),
                                        ("Concat", "ValueError"), ("add", "ValueError"), ("additive", "ValueError")])
def test_blind44_attention_score_mode_exact(keras, mode, want):
    """Attention(score_mode=...): exactly 'dot' or 'concat', case-sensitive (Keras 3.15 compares the string as
    given), else ValueError."""
    _check(f"Attention(score_mode={mode!r})", lambda: keras.layers.Attention(score_mode=mode).score_mode, want,
           _SCORE, mode if want == "ok" else None)


@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("axis, want", [(-1, -1), (1, 1), ([1, 2], [1, 2]), ((1,), [1]), ("x", "TypeError"),
                                        (1.0, "TypeError"), (None, "TypeError")])
@pytest.mark.parametrize("cls, text", [
    ("LayerNormalization", "Expected an int or a list/tuple of ints for the argument 'axis'"),
    ("UnitNormalization", "Invalid value for `axis` argument: expected an int or a list/tuple of ints")])
def test_blind44_normalization_axis_types(keras, cls, text, axis, want):
    """LayerNormalization's and UnitNormalization's axis: an int kept, a list or tuple kept as a list, anything
    else TypeError (not ValueError) with each layer's own text."""
    fn = lambda: getattr(keras.layers, cls)(axis=axis).axis  # noqa: E731
    if want == "TypeError":
        _check(f"{cls}(axis={axis!r})", fn, "TypeError", text)
    else:
        _check(f"{cls}(axis={axis!r})", fn, "ok", want_value=want)


@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("cls, arg", [("RecallAtPrecision", "precision"), ("PrecisionAtRecall", "recall"),
                                      ("SensitivityAtSpecificity", "specificity"),
                                      ("SpecificityAtSensitivity", "sensitivity")])
@pytest.mark.parametrize("value, want", [(-0.1, "ValueError"), (0.0, "ok"), (0.5, "ok"), (1.0, "ok"),
                                         (1.5, "ValueError"), (1.0001, "ValueError")])
def test_blind44_constrained_metrics_value_in_unit_interval(keras, cls, arg, value, want):
    """The four metrics at a constraint take its value in the closed interval [0, 1]; outside it ValueError
    "Argument `<name>` must be in the range [0, 1]"; the value is in get_config under its own name."""
    def make():
        return getattr(keras.metrics, cls)(value).get_config()[arg]
    _check(f"{cls}({value})", make, want, f"Argument `{arg}` must be in the range [0, 1]",
           value if want == "ok" else None)


@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("kwargs, want", [
    ({"num_regressors": -1}, "ValueError"), ({"num_regressors": -5}, "ValueError"), ({"num_regressors": 0}, "ok"),
    ({"num_regressors": 3}, "ok"), ({"class_aggregation": None}, "ok"), ({"class_aggregation": "uniform_average"}, "ok"),
    ({"class_aggregation": "variance_weighted_average"}, "ok"), ({"class_aggregation": "mean"}, "ValueError"),
    ({"class_aggregation": "raw_values"}, "ValueError")])
def test_blind44_r2_score_arguments(keras, kwargs, want):
    """R2Score: num_regressors >= 0 ("Expected a value >= 0"); class_aggregation one of None, 'uniform_average',
    'variance_weighted_average' (scikit-learn's 'raw_values' is not one)."""
    (key, value), = kwargs.items()
    text = "Expected a value >= 0" if key == "num_regressors" else "Invalid value for argument `class_aggregation`"
    _check(f"R2Score({key}={value!r})", lambda: getattr(keras.metrics.R2Score(**kwargs), key), want, text,
           value if want == "ok" and value is not None else None)


@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("value, want", [(1, "ok"), (0, "ValueError"), (-1, "ValueError"), (True, "ValueError"),
                                         (2.0, "ValueError")])
@pytest.mark.parametrize("which", ["input_dim", "output_dim"])
def test_blind44_embedding_dims_positive_ints(keras, which, value, want):
    """Embedding(input_dim, output_dim): each a positive int; 0, negatives, a bool and a float are ValueError
    naming the argument and the value's type."""
    args = (value, 3) if which == "input_dim" else (3, value)
    _check(f"Embedding{args}", lambda: getattr(keras.layers.Embedding(*args), which), want,
           f"`{which}` must be a positive integer. Received: {which}={value} (of type {type(value).__name__})",
           value if want == "ok" else None)


@clause("keras.rnn.arguments", ref="tf221")
@pytest.mark.parametrize("cls", ["SimpleRNNCell", "LSTMCell", "GRUCell", "SimpleRNN", "LSTM", "GRU"])
@pytest.mark.parametrize("units", [0, -1, 1, True, 2.0])
def test_blind44_recurrent_units(keras, cls, units):
    """The recurrent cells compare `units <= 0` only (Keras 3.15): 0 and negatives are ValueError, True and 2.0 are
    accepted by the cells; the layers build their cell, and the RNN base then refuses a state_size that is neither an
    int nor a list/tuple: SimpleRNN(2.0) and GRU(2.0) (state_size = units) are ValueError, LSTM(2.0) (state_size =
    [units, units]) is accepted."""
    fn = lambda: getattr(keras.layers, cls)(units).units  # noqa: E731
    if units in (0, -1) and not isinstance(units, bool):
        _check(f"{cls}({units!r})", fn, "ValueError", _UNITS)
    elif isinstance(units, float) and cls in ("SimpleRNN", "GRU"):
        _check(f"{cls}({units!r})", fn, "ValueError", _STATE)
    else:
        _check(f"{cls}({units!r})", fn, "ok", want_value=units)


# -- Bidirectional's sublayer names -------------------------------------------------------------------------------------
@clause("keras.rnn.bidirectional", ref="tf221")
@pytest.mark.parametrize("name", ["x", "forward_x", "backward_x", "forward_backward_x", "backward_forward_x"])
@pytest.mark.parametrize("cls", ["LSTM", "GRU", "SimpleRNN"])
def test_blind44_bidirectional_sublayer_names(keras, cls, name):
    """Bidirectional names its copies f"forward_{name without a leading 'forward_'}" and
    f"backward_{name without a leading 'backward_'}" (Keras 3.15 removeprefix, each its own prefix); a given
    backward_layer keeps its own name."""
    layer = getattr(keras.layers, cls)(2, name=name)
    b = keras.layers.Bidirectional(layer)
    want_f = "forward_" + (name[len("forward_"):] if name.startswith("forward_") else name)
    want_b = "backward_" + (name[len("backward_"):] if name.startswith("backward_") else name)
    assert (b.forward_layer.name, b.backward_layer.name) == (want_f, want_b), \
        f"Bidirectional({cls}(name={name!r})): expected ({want_f!r}, {want_b!r}), got " \
        f"({b.forward_layer.name!r}, {b.backward_layer.name!r})"
    back = getattr(keras.layers, cls)(2, name=f"mine_{name}", go_backwards=True)
    b2 = keras.layers.Bidirectional(getattr(keras.layers, cls)(2, name=name), backward_layer=back)
    assert b2.backward_layer.name == f"mine_{name}", f"Bidirectional(backward_layer named 'mine_{name}'): got " \
                                                     f"{b2.backward_layer.name!r}"


# -- the lookup layers' mask token in every output mode ---------------------------------------------------------------
def _lookup_expected(vocab, mask, mode, data, oov):
    """Keras 3.15 IndexLookup with one OOV index: the mask token takes index 0 in output_mode 'int' only (the OOV
    index and the tokens shift by one); in the other modes the mask token encodes as nothing (an all-zero one_hot
    row, not counted by multi_hot/count) and has no index."""
    oov_start = 1 if mask is not None and mode == "int" else 0
    start = oov_start + 1
    depth = len(vocab) + start

    def index(t):
        if mask is not None and t == mask:
            return None if mode != "int" else 0
        return start + vocab.index(t) if t in vocab else oov_start

    idx = [index(t) for t in data]
    if mode == "int":
        out = idx
    elif mode == "one_hot":
        out = [[1 if i == j else 0 for j in range(depth)] for i in idx]
    else:
        counts = [sum(1 for i in idx if i == j) for j in range(depth)]
        out = [[min(c, 1) for c in counts]] if mode == "multi_hot" else [counts]
    vocabulary = ([mask] if mask is not None and mode == "int" else []) + [oov] + list(vocab)
    return out, depth, vocabulary


@clause("keras.layer.lookup", ref="tf221")
@pytest.mark.parametrize("mode", ["int", "one_hot", "multi_hot", "count"])
@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize("cls", ["StringLookup", "IntegerLookup"])
def test_blind44_lookup_mask_token_in_every_output_mode(keras, cls, masked, mode):
    """StringLookup/IntegerLookup(vocabulary, mask_token, output_mode): the outputs, vocabulary_size() and
    get_vocabulary() of a batch with a known token, another, an OOV token and the mask token (expected values from
    the transcription of IndexLookup's index rule above)."""
    if cls == "StringLookup":
        vocab, mask, data, oov = ["a", "b"], ("" if masked else None), ["a", "b", "z", ""], "[UNK]"
    else:
        vocab, mask, data, oov = [5, 6], (0 if masked else None), [5, 6, 9, 0], -1
    layer = getattr(keras.layers, cls)(vocabulary=vocab, mask_token=mask, output_mode=mode)
    x = np.array(data) if mode in ("int", "one_hot") else np.array([data])
    want, size, vocabulary = _lookup_expected(vocab, mask, mode, data, oov)
    got = _np(layer(x)).tolist()
    assert got == want, f"{cls}(vocabulary={vocab}, mask_token={mask!r}, output_mode={mode!r}) of {data}: " \
                        f"expected {want}, got {got}"
    assert layer.vocabulary_size() == size, f"{cls}(mask_token={mask!r}, output_mode={mode!r}).vocabulary_size(): " \
                                            f"expected {size}, got {layer.vocabulary_size()}"
    got_vocab = [v.decode() if isinstance(v, bytes) else (v.item() if hasattr(v, "item") else v)
                 for v in layer.get_vocabulary()]
    assert got_vocab == vocabulary, f"{cls}(mask_token={mask!r}, output_mode={mode!r}).get_vocabulary(): " \
                                    f"expected {vocabulary}, got {got_vocab}"


@clause("keras.layer.lookup", ref="tf221")
@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize("cls", ["StringLookup", "IntegerLookup"])
def test_blind44_lookup_invert_with_and_without_mask(keras, cls, masked):
    """invert=True maps indices back: with a mask token index 0 is the mask and 1 the OOV token; without, 0 is the OOV
    token; an index past the vocabulary is the OOV token."""
    if cls == "StringLookup":
        vocab, mask, oov = ["a", "b"], ("" if masked else None), "[UNK]"
    else:
        vocab, mask, oov = [5, 6], (0 if masked else None), -1
    table = ([mask] if masked else []) + [oov] + vocab
    want = [table[i] if i < len(table) else oov for i in range(4)]
    layer = getattr(keras.layers, cls)(vocabulary=vocab, mask_token=mask, invert=True)
    got = [v.decode() if isinstance(v, bytes) else int(v) for v in _np(layer(np.array([0, 1, 2, 3]))).tolist()]
    assert got == want, f"{cls}(mask_token={mask!r}, invert=True) of [0, 1, 2, 3]: expected {want}, got {got}"
    assert layer.vocabulary_size() == len(table), f"{cls}(mask_token={mask!r}, invert=True).vocabulary_size(): " \
                                                  f"expected {len(table)}, got {layer.vocabulary_size()}"


# -- categorical accuracies: the labels' shape decides the result's ---------------------------------------------------
@clause("keras.metric.accuracy", ref="tf221")
@pytest.mark.parametrize("yt_shape, yp_shape", [((2, 1, 3), (2, 3)), ((2, 3), (2, 3)), ((2, 2, 3), (2, 2, 3)),
                                                ((2, 1, 3), (2, 1, 3)), ((3, 1, 3), (3, 3))])
@pytest.mark.parametrize("fn", ["categorical_accuracy", "top_k_categorical_accuracy"])
def test_blind44_categorical_accuracies_take_the_labels_shape(keras, fn, yt_shape, yp_shape):
    """categorical_accuracy and top_k_categorical_accuracy (k=2) compare argmax(y_true) with argmax(y_pred) (or the
    k largest): when argmax(y_true) has y_pred's rank (one-hot labels (N, 1, C) against (N, C) predictions) its unit
    axis is squeezed for the comparison and the matches are reshaped back to argmax(y_true)'s shape; the
    CategoricalAccuracy metric is their mean. Expected values with NumPy (predictions without ties)."""
    n = int(np.prod(yt_shape))
    yt = np.zeros(yt_shape, "float32")
    np.put_along_axis(yt, (np.arange(n // 3).reshape(yt_shape[:-1] + (1,)) * 2) % 3, 1.0, axis=-1)
    yp = ((np.arange(int(np.prod(yp_shape))).reshape(yp_shape) * 7) % 5).astype("float32")
    labels = np.argmax(yt, axis=-1)
    flat_labels = labels.reshape(yp.shape[:-1])
    if fn == "categorical_accuracy":
        match = flat_labels == np.argmax(yp, axis=-1)
    else:
        order = np.argsort(-yp, axis=-1)[..., :2]
        match = (order == flat_labels[..., None]).any(axis=-1)
    want = match.astype("float32").reshape(labels.shape)
    got = getattr(keras.metrics, fn)(yt, yp, **({} if fn == "categorical_accuracy" else {"k": 2}))
    assert tuple(got.shape) == want.shape, f"{fn}(labels {yt_shape}, predictions {yp_shape}): expected shape " \
                                           f"{want.shape}, got {tuple(got.shape)}"
    np.testing.assert_array_equal(_np(got), want, err_msg=f"{fn}(labels {yt_shape}, predictions {yp_shape})")
    if fn == "categorical_accuracy":
        m = keras.metrics.CategoricalAccuracy()
        m.update_state(yt, yp)
        assert abs(float(_np(m.result())) - float(want.mean())) < 1e-6, \
            f"CategoricalAccuracy(labels {yt_shape}, predictions {yp_shape}): expected {want.mean()}, got {m.result()}"


# -- LossScaleOptimizer's variables: its own, then the inner optimizer's ----------------------------------------------
_INNER = {"SGD": (lambda k: k.optimizers.SGD(momentum=0.9), ["iteration", "learning_rate", "w_momentum"]),
          "SGD-plain": (lambda k: k.optimizers.SGD(), ["iteration", "learning_rate"]),
          "Adam": (lambda k: k.optimizers.Adam(), ["iteration", "learning_rate", "w_momentum", "w_velocity"]),
          "RMSprop": (lambda k: k.optimizers.RMSprop(), ["iteration", "learning_rate", "w_velocity"])}


@clause("optim.option-coverage", ref="tf221")
@pytest.mark.parametrize("inner", list(_INNER))
def test_blind44_loss_scale_optimizer_variables_include_the_inner(keras, tf, inner):
    """LossScaleOptimizer.variables (Keras 3.15: `self._variables[:] + self.inner_optimizer.variables`): its own
    iteration, learning_rate, step_counter and dynamic_scale, then every variable of the inner optimizer (its
    iteration, learning_rate and slots), the same list after a step."""
    make, inner_names = _INNER[inner]
    opt = make(keras)
    lso = keras.optimizers.LossScaleOptimizer(opt)
    v = keras.Variable(np.ones((2,), "float32"), name="w")
    lso.build([v])
    want = ["iteration", "learning_rate", "step_counter", "dynamic_scale"] + inner_names
    for when in ("built", "after a step"):
        got = [x.path.split("/")[-1] for x in lso.variables]
        assert got == want, f"LossScaleOptimizer({inner}).variables {when}: expected {want}, got {got}"
        inner_paths = [x.path for x in opt.variables]
        assert [x.path for x in lso.variables][4:] == inner_paths, \
            f"LossScaleOptimizer({inner}).variables {when}: the inner optimizer's variables should follow its own"
        lso.apply_gradients([(tf.constant([1.0, 2.0]), v)])


@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("q, kv", [(4, 2), (2, 2), (3, 2), (2, 4), (6, 3), (1, 1)])
def test_blind44_group_query_attention_heads_divide(keras, q, kv):
    """GroupQueryAttention(num_query_heads=q, num_key_value_heads=kv): q % kv must be 0 (ValueError "`num_query_heads`
    must be divisible by `num_key_value_heads`."), and then each key/value head serves num_repeats = q // kv."""
    fn = lambda: keras.layers.GroupQueryAttention(head_dim=2, num_query_heads=q,  # noqa: E731
                                                  num_key_value_heads=kv).num_repeats
    if q % kv:
        _check(f"GroupQueryAttention(num_query_heads={q}, num_key_value_heads={kv})", fn, "ValueError",
               "`num_query_heads` must be divisible by `num_key_value_heads`.")
    else:
        _check(f"GroupQueryAttention(num_query_heads={q}, num_key_value_heads={kv}).num_repeats", fn, "ok",
               want_value=q // kv)


@clause("keras.rnn.bidirectional", ref="tf221")
@pytest.mark.parametrize("mode, ok", [("sum", True), ("mul", True), ("ave", True), ("concat", True), (None, True),
                                      ("SUM", False), ("add", False), ("avg", False), ("Concat", False)])
def test_blind44_bidirectional_merge_mode_exact(keras, mode, ok):
    """Bidirectional(merge_mode=...): exactly one of 'sum', 'mul', 'ave', 'concat' or None (case-sensitive), else
    ValueError "Invalid merge mode"."""
    fn = lambda: keras.layers.Bidirectional(keras.layers.LSTM(2), merge_mode=mode).merge_mode  # noqa: E731
    if ok:
        cls, got = _outcome(fn)
        assert cls == "ok" and got == mode, f"Bidirectional(merge_mode={mode!r}): expected it kept, got {cls}: {got!r}"
    else:
        _check(f"Bidirectional(merge_mode={mode!r})", fn, "ValueError", f"Invalid merge mode. Received: {mode}.")
