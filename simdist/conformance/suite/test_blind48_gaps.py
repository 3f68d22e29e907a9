"""Gaps the forty-eighth blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is the
suite"): rules of Keras's layers, losses, metrics, optimizers and callbacks that the suite stated for one spelling,
one option value or one input only, or never, so that a wrong implementation of the other case passed
(TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy or
plain Python (a transcription of TF's or Keras 3.15's rule), or is a relation TF's rule implies between two
spellings, or (said so where it is) was observed on TF 2.21 — never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import to_numpy as _np   # (an ndarray of any backend's value)
from simdist.conformance.suite.outcomes import outcome as _outcome

clause = pytest.mark.clause


def _mask(value):
    return None if value is None else np.asarray(_np(value)).tolist()


# -- which layers pass a mask on -----------------------------------------------------------------------------------------
_M1, _M2 = [[True, True, False]], [[True, False, True]]

#: layer -> (constructor kwargs, whether it takes two inputs, the mask it returns for _M1 (and _M2)); observed on
#: TF 2.21 (Keras 3.15: the pooling-to-one-vector layers and Dot drop the mask, the merge layers return the OR of their
#: inputs' masks, the element-wise layers keep it).
_MASKS = {
    "GlobalAveragePooling1D": ({}, False, None),
    "GlobalAveragePooling1D keepdims": ({"keepdims": True}, False, None),
    "GlobalMaxPooling1D": ({}, False, _M1),
    "Flatten": ({}, False, _M1),
    "Dense": ({"units": 2}, False, _M1),
    "Dropout": ({"rate": 0.5}, False, _M1),
    "LayerNormalization": ({}, False, _M1),
    "Dot": ({"axes": 2}, True, None),
    "Add": ({}, True, [[True, True, True]]),
    "Multiply": ({}, True, [[True, True, True]]),
    "Concatenate": ({}, True, [[True, True, True]]),
    "Average": ({}, True, [[True, True, True]]),
    "Maximum": ({}, True, [[True, True, True]]),
    "Subtract": ({}, True, [[True, True, True]]),
}


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("name", list(_MASKS))
def test_blind48_which_layers_pass_a_mask_on(keras, name):
    """compute_mask of a (1, 3, 2) input with the step mask [[T, T, F]] (and [[T, F, T]] for the second input of a
    two-input layer): GlobalAveragePooling1D (keepdims or not) and Dot return None; GlobalMaxPooling1D, Flatten and
    the element-wise layers return the mask as given; the merge layers the OR of the two (observed on TF 2.21)."""
    kwargs, two, want = _MASKS[name]
    layer = getattr(keras.layers, name.split()[0])(**kwargs)
    x = np.ones((1, 3, 2), "float32")
    if two:
        got = _mask(layer.compute_mask([x, x], [np.array(_M1), np.array(_M2)]))
        if name == "Dot":
            one = _mask(layer.compute_mask([x, x], [np.array(_M1), None]))
            assert one is None, f"Dot(axes=2).compute_mask with one mask: expected None, got {one}"
    else:
        got = _mask(layer.compute_mask(x, np.array(_M1)))
    assert got == want, f"{name}.compute_mask(mask={_M1}{', ' + str(_M2) if two else ''}): expected {want}, got {got}"


# -- the lookup layers' vocabulary and output shape in every output mode ----------------------------------------------
def _vocab(mode, mask):
    """Keras 3.15's IndexLookup.get_vocabulary for vocabulary ["a", "b"], one OOV index "[UNK]": the mask token
    holds index 0 in "int" mode only (the other modes have no mask slot); without special tokens, the tokens."""
    special = ([mask] if mask is not None and mode == "int" else []) + ["[UNK]"]
    return special + ["a", "b"], ["a", "b"], len(special) + 2


def _lookup_shape(mode, shape, depth):
    """Keras 3.15's IndexLookup.compute_output_shape: "int" keeps the input shape; "one_hot" appends depth (replacing
    a unit last axis of a rank > 1 input); the counting modes replace the last axis by depth."""
    if mode == "int":
        return tuple(shape)
    if mode == "one_hot":
        return (tuple(shape[:-1]) if len(shape) > 1 and shape[-1] == 1 else tuple(shape)) + (depth,)
    return tuple(shape[:-1]) + (depth,)


@clause("keras.layer.lookup", ref="tf221")
@pytest.mark.parametrize("mask", [None, ""])
@pytest.mark.parametrize("mode", ["int", "one_hot", "multi_hot", "count", "tf_idf"])
def test_blind48_lookup_vocabulary_and_output_shape_by_mode(keras, mode, mask):
    """StringLookup(vocabulary=["a", "b"], mask_token, output_mode): get_vocabulary() with and without the special
    tokens and vocabulary_size(); compute_output_shape of (None, 4) and (None, 1) and the eager call's shape, with
    pad_to_max_tokens=True (depth max_tokens = 6) and without (depth the vocabulary size)."""
    extra = {"idf_weights": [0.5, 0.25]} if mode == "tf_idf" else {}
    layer = keras.layers.StringLookup(vocabulary=["a", "b"], mask_token=mask, output_mode=mode, **extra)
    want_all, want_tokens, want_size = _vocab(mode, mask)
    got = ([str(t) for t in layer.get_vocabulary()], [str(t) for t in layer.get_vocabulary(include_special_tokens=False)],
           int(layer.vocabulary_size()))
    assert got == (want_all, want_tokens, want_size), \
        f"StringLookup(mask_token={mask!r}, output_mode={mode!r}): expected vocabulary {want_all}, tokens " \
        f"{want_tokens}, size {want_size}; got {got}"
    for pad, depth in [(True, 6), (False, want_size)]:
        kw = {"max_tokens": 6, "pad_to_max_tokens": True} if pad else {}
        layer = keras.layers.StringLookup(vocabulary=["a", "b"], mask_token=mask, output_mode=mode, **kw, **extra)
        for shape in [(None, 4), (None, 1)]:
            want = _lookup_shape(mode, shape, depth)
            got = tuple(layer.compute_output_shape(shape))
            assert got == want, f"StringLookup(output_mode={mode!r}, mask_token={mask!r}, pad_to_max_tokens={pad})" \
                                f".compute_output_shape({shape}): expected {want}, got {got}"
        got = tuple(layer(np.array([["a", "b", "c", "a"]])).shape)
        want = _lookup_shape(mode, (1, 4), depth)
        assert got == want, f"StringLookup(output_mode={mode!r}, mask_token={mask!r}, pad_to_max_tokens={pad}) of a " \
                            f"(1, 4) string batch: expected shape {want}, got {got}"


@clause("keras.layer.lookup", ref="tf221")
def test_blind48_lookup_vocabulary_special_tokens(keras):
    """IntegerLookup(num_oov_indices=2, mask_token=0, output_mode="multi_hot") lists its two OOV slots (-1) and no
    mask; an inverted StringLookup with mask_token="" lists the mask first (observed on TF 2.21)."""
    got = [int(t) for t in keras.layers.IntegerLookup(vocabulary=[5, 6], num_oov_indices=2, mask_token=0,
                                                      output_mode="multi_hot").get_vocabulary()]
    assert got == [-1, -1, 5, 6], f"IntegerLookup(num_oov_indices=2, mask_token=0, multi_hot).get_vocabulary(): " \
                                  f"expected [-1, -1, 5, 6], got {got}"
    got = [str(t) for t in keras.layers.StringLookup(vocabulary=["a", "b"], mask_token="", invert=True).get_vocabulary()]
    assert got == ["", "[UNK]", "a", "b"], f"StringLookup(mask_token='', invert=True).get_vocabulary(): expected " \
                                           f"['', '[UNK]', 'a', 'b'], got {got}"


# -- the symbolic output dtypes of the preprocessing layers -------------------------------------------------------------
#: (layer, kwargs, input shape, input dtype, a concrete input) -> (symbolic dtype, eager dtype), observed on TF 2.21.
_DTYPES = [
    ("Discretization", {"bin_boundaries": [0.0, 1.0]}, "float32", [[0.5, 2.0]], ("int32", "int32")),
    ("Discretization", {"bin_boundaries": [0.0, 1.0], "output_mode": "one_hot"}, "float32", [[0.5, 2.0]],
     ("float32", "float32")),
    ("Discretization", {"bin_boundaries": [0.0, 1.0], "output_mode": "multi_hot"}, "float32", [[0.5, 2.0]],
     ("float32", "float32")),
    ("Discretization", {"bin_boundaries": [0.0, 1.0], "output_mode": "count"}, "float32", [[0.5, 2.0]],
     ("float32", "float32")),
    ("Hashing", {"num_bins": 5}, "int64", [[1, 2]], ("int64", "int64")),
    ("Hashing", {"num_bins": 5, "output_mode": "multi_hot"}, "int64", [[1, 2]], ("float32", "float32")),
    ("IntegerLookup", {"vocabulary": [1, 2]}, "int64", [[1, 2]], ("int64", "int64")),
    ("StringLookup", {"vocabulary": ["a"], "output_mode": "count"}, "string", [["a", "b"]], ("float32", "int64")),
    ("CategoryEncoding", {"num_tokens": 4, "output_mode": "count"}, "int32", [[1, 2]], ("float32", "float32")),
]


@clause("keras.layer.lookup", ref="tf221")
@pytest.mark.parametrize("case", _DTYPES, ids=lambda c: f"{c[0]}-{c[1].get('output_mode', 'int')}")
def test_blind48_preprocessing_output_dtypes(keras, case):
    """The dtype of a preprocessing layer's output on a symbolic Input and on a concrete batch: Discretization's
    int mode int32 (its other modes float32), Hashing's and IntegerLookup's int modes int64, the counting modes
    float32 symbolically (StringLookup's eager count int64: Keras 3.15's spec and its call differ), observed on TF 2.21."""
    cls, kwargs, dtype, value, want = case
    layer = getattr(keras.layers, cls)(**kwargs)
    symbolic = layer(keras.Input((2,), dtype=dtype)).dtype
    eager = layer(np.array(value, dtype=object if dtype == "string" else dtype).astype(
        str if dtype == "string" else dtype)).dtype
    got = (str(getattr(symbolic, "name", symbolic)), str(getattr(eager, "name", eager)))
    assert got == want, f"{cls}({kwargs}): expected (symbolic, eager) dtypes {want}, got {got}"


# -- ConvLSTM: outputs, states and initial states in both data formats ------------------------------------------------
def _conv_len(n, k, padding):
    return n - k + 1 if padding == "valid" else n


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("return_state", [False, True])
@pytest.mark.parametrize("return_sequences", [False, True])
@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize("rank", [1, 2])
def test_blind48_conv_lstm_output_and_state_shapes(keras, rank, data_format, return_sequences, return_state):
    """ConvLSTM{1,2}D(2 filters, kernel 3, 'valid'): the output is (batch, [steps,] *spatial, 2) in channels_last and
    (batch, [steps,] 2, *spatial) in channels_first, each spatial size n - 2; with return_state the two states have
    the output's per-step shape (no steps axis, whatever return_sequences); get_initial_state of a built 'same' layer
    gives two zero states of the input's spatial sizes in the layer's data_format (Keras 3.15's ConvLSTM rules)."""
    spatial = (7,) if rank == 1 else (6, 5)
    cls = getattr(keras.layers, f"ConvLSTM{rank}D")
    shape = (None, 4) + ((*spatial, 3) if data_format == "channels_last" else (3, *spatial))
    out_spatial = tuple(_conv_len(n, 3, "valid") for n in spatial)
    step = (*out_spatial, 2) if data_format == "channels_last" else (2, *out_spatial)
    output = (None, 4, *step) if return_sequences else (None, *step)
    want = [output, (None, *step), (None, *step)] if return_state else output
    layer = cls(2, 3, padding="valid", data_format=data_format, return_sequences=return_sequences,
                return_state=return_state)
    got = layer.compute_output_shape(shape)
    got = [tuple(s) for s in got] if return_state else tuple(got)
    assert got == want, f"ConvLSTM{rank}D(data_format={data_format!r}, return_sequences={return_sequences}, " \
                        f"return_state={return_state}).compute_output_shape({shape}): expected {want}, got {got}"
    if not return_sequences and not return_state:
        layer = cls(2, 3, padding="same", data_format=data_format)
        layer.build(shape)
        states = layer.get_initial_state(batch_size=2)
        state = (2, *spatial, 2) if data_format == "channels_last" else (2, 2, *spatial)
        got = [tuple(s.shape) for s in states]
        assert got == [state, state], f"ConvLSTM{rank}D(padding='same', data_format={data_format!r})" \
                                      f".get_initial_state(2) built on {shape}: expected {[state, state]}, got {got}"
        assert all(not np.any(_np(s)) for s in states), "the initial states: expected zeros"


# -- the attention layers' output shape: the query's leading axes, the value's last ---------------------------------
@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("cls", ["Attention", "AdditiveAttention"])
def test_blind48_attention_output_takes_the_value_dim(keras, cls):
    """Attention and AdditiveAttention of a query (b, 2, 4), a value (b, 3, 5) and a key (b, 3, 4) (or no key:
    value as key, for compute_output_shape) give (b, 2, 5): the query's axes and the value's last dimension —
    compute_output_shape, a symbolic call and an eager call."""
    layer = getattr(keras.layers, cls)
    for shapes in ([(None, 2, 4), (None, 3, 5), (None, 3, 4)], [(None, 2, 4), (None, 3, 5)]):
        got = tuple(layer().compute_output_shape(shapes))
        assert got == (None, 2, 5), f"{cls}.compute_output_shape({shapes}): expected (None, 2, 5), got {got}"
    got = tuple(layer()([keras.Input((2, 4)), keras.Input((3, 5)), keras.Input((3, 4))]).shape)
    assert got == (None, 2, 5), f"{cls} of Inputs (2, 4), (3, 5), (3, 4): expected (None, 2, 5), got {got}"
    q, v, k = np.ones((1, 2, 4), "float32"), np.ones((1, 3, 5), "float32"), np.ones((1, 3, 4), "float32")
    got = tuple(layer()([q, v, k]).shape)
    assert got == (1, 2, 5), f"{cls} of (1, 2, 4), (1, 3, 5), (1, 3, 4): expected (1, 2, 5), got {got}"


#: (query, value, key) -> the outcome for GroupQueryAttention and MultiHeadAttention, observed on TF 2.21.
_MHA_SHAPES = [
    (((None, 2, 4), (None, 3, 6), None),
     ("ValueError", "The last dimension of `query_shape` and `value_shape` must be equal"), ("ok", (None, 2, 4))),
    (((None, 2, 4), (None, 3, 4), (None, 5, 4)),
     ("ValueError", "All dimensions of `value` and `key`, except the last one, must be equal"),
     ("ValueError", "All dimensions of `value` and `key`, except the last one, must be equal")),
    (((None, 2, 4), (None, 3, 4), (None, 3, 7)), ("ok", (None, 2, 4)), ("ok", (None, 2, 4))),
    (((None, 2, 4), (None, 3, 4), None), ("ok", (None, 2, 4)), ("ok", (None, 2, 4))),
]


@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("case", _MHA_SHAPES, ids=lambda c: "-".join(str(s) for s in c[0]))
def test_blind48_multi_head_attention_output_shape_checks(keras, case):
    """GroupQueryAttention(head_dim=2, 2 query heads, 1 key/value head) and MultiHeadAttention(2 heads, key_dim 2)
    .compute_output_shape: GroupQueryAttention refuses a value whose last dimension is not the query's
    (MultiHeadAttention takes it), both refuse a key whose inner axes are not the value's, both return the query's
    shape otherwise (observed on TF 2.21)."""
    (q, v, k), gqa, mha = case
    for name, layer, want in [
            ("GroupQueryAttention", keras.layers.GroupQueryAttention(head_dim=2, num_query_heads=2,
                                                                     num_key_value_heads=1), gqa),
            ("MultiHeadAttention", keras.layers.MultiHeadAttention(num_heads=2, key_dim=2), mha)]:
        cls, got = _outcome(lambda: tuple(layer.compute_output_shape(q, v, k)))
        if want[0] == "ok":
            assert (cls, got) == want, f"{name}.compute_output_shape({q}, {v}, {k}): expected {want[1]}, " \
                                       f"got {cls}: {got}"
        else:
            assert cls == want[0] and want[1] in got, f"{name}.compute_output_shape({q}, {v}, {k}): expected " \
                                                      f"{want[0]} with {want[1]!r}, got {cls}: {got}"


# -- RandomBrightness clips to its own value range --------------------------------------------------------------------
@clause("keras.layer.image-preprocessing", ref="tf221")
@pytest.mark.parametrize("factor", [0.5, -0.5])
@pytest.mark.parametrize("value_range", [(0.0, 1.0), (0.0, 255.0), (-1.0, 1.0), (0.0, 2.0)])
def test_blind48_random_brightness_clips_to_its_value_range(keras, value_range, factor):
    """RandomBrightness(factor=(f, f), value_range=(lo, hi)) in training adds f · (hi - lo) to every pixel and clips
    the result to [lo, hi] (Keras 3.15's rule; a fixed factor makes the draw exact): images at lo, the middle and hi."""
    lo, hi = value_range
    x = np.array([[[[lo], [0.5 * (lo + hi)], [hi]]]], "float32")
    want = np.clip(x + np.float32(factor * (hi - lo)), lo, hi)
    got = np.asarray(_np(keras.layers.RandomBrightness(factor=(factor, factor), value_range=value_range)(
        x, training=True)))
    np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=f"RandomBrightness(factor={factor}, "
                                                             f"value_range={value_range}) of {x.ravel().tolist()}")


# -- R2Score takes rank-2 inputs only -----------------------------------------------------------------------------------
@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("y_true, y_pred", [((3,), (3,)), ((3, 1, 1, 1), (3, 1)), ((3, 1), (3, 1, 1, 1)),
                                            ((3, 2, 2), (3, 2, 2))])
def test_blind48_r2_score_refuses_other_ranks(keras, y_true, y_pred):
    """R2Score.update_state with labels or predictions that are not rank 2 after Keras's rank matching (which
    squeezes or expands one axis of difference): ValueError "R2Score expects 2D inputs with shape (batch_size,
    output_dim)" naming both shapes (observed on TF 2.21), whichever of the two is the wrong one."""
    def run():
        m = keras.metrics.R2Score()
        m.update_state(np.ones(y_true, "float32"), np.ones(y_pred, "float32"))
        return float(_np(m.result()))
    cls, got = _outcome(run)
    want = f"Received input shapes: y_pred.shape={y_pred} and y_true.shape={y_true}."
    assert cls == "ValueError" and "R2Score expects 2D inputs" in got and want in got, \
        f"R2Score of y_true {y_true}, y_pred {y_pred}: expected ValueError 'R2Score expects 2D inputs ... {want}', " \
        f"got {cls}: {got}"


# -- the optimizers' variable names and scale_loss --------------------------------------------------------------------
#: optimizer -> its slots' suffixes (Keras 3.15: add_optimizer_variables(var_list, names)).
_SLOTS = {"SGD": [], "Adam": ["momentum", "velocity"], "RMSprop": ["velocity"]}


@clause("optim.option-coverage", ref="tf221")
@pytest.mark.parametrize("use_ema", [False, True])
@pytest.mark.parametrize("cls", list(_SLOTS))
def test_blind48_optimizer_variable_names(keras, cls, use_ema):
    """An optimizer built on a variable named "w" holds "iteration", "learning_rate", with use_ema the average
    "w_average", and its slots "w_<slot>" (Keras 3.15's names)."""
    v = keras.Variable(np.array([1.0, 2.0], "float32"), name="w")
    opt = getattr(keras.optimizers, cls)(0.1, use_ema=use_ema)
    opt.build([v])
    got = sorted(x.name for x in opt.variables)
    want = sorted(["iteration", "learning_rate"] + (["w_average"] if use_ema else []) +
                  [f"w_{s}" for s in _SLOTS[cls]])
    assert got == want, f"{cls}(use_ema={use_ema}) built on 'w': expected variables {want}, got {got}"


@clause("optim.option-coverage", ref="tf221")
@pytest.mark.parametrize("factor", [None, 4.0, 0.5])
@pytest.mark.parametrize("cls", ["SGD", "Adam"])
def test_blind48_scale_loss_multiplies(keras, tf, cls, factor):
    """Optimizer.scale_loss(loss) is loss · loss_scale_factor (Keras 3.15), the loss itself without a factor."""
    opt = getattr(keras.optimizers, cls)(0.1, loss_scale_factor=factor)
    got = float(_np(opt.scale_loss(tf.constant(3.0))))
    want = 3.0 * (factor if factor is not None else 1.0)
    assert got == want, f"{cls}(loss_scale_factor={factor}).scale_loss(3.0): expected {want}, got {got}"


# -- CallbackList: an end needs its begin ------------------------------------------------------------------------------
@clause("keras.callback.option-coverage", ref="tf221")
@pytest.mark.parametrize("what", ["train", "test", "predict"])
def test_blind48_callback_list_end_needs_a_begin(keras, what):
    """CallbackList().on_<what>_end() without on_<what>_begin, or a second end after a begin/end pair: ValueError
    "`on_xxx_end` called without corresponding `on_xxx_begin`" (Keras 3.15); nested begin/end pairs are fine."""
    text = "`on_xxx_end` called without corresponding `on_xxx_begin`"
    cls, got = _outcome(lambda: getattr(keras.callbacks.CallbackList(), f"on_{what}_end")())
    assert cls == "ValueError" and text in got, f"CallbackList().on_{what}_end(): expected ValueError {text!r}, " \
                                                f"got {cls}: {got}"
    cbl = keras.callbacks.CallbackList()
    getattr(cbl, f"on_{what}_begin")()
    getattr(cbl, f"on_{what}_end")()
    cls, got = _outcome(lambda: getattr(cbl, f"on_{what}_end")())
    assert cls == "ValueError" and text in got, f"a second on_{what}_end: expected ValueError {text!r}, got {cls}: {got}"
    cbl = keras.callbacks.CallbackList()
    cbl.on_train_begin()
    getattr(cbl, f"on_{what}_begin")()
    getattr(cbl, f"on_{what}_end")()
    cls, got = _outcome(cbl.on_train_end)
    assert cls == "ok", f"nested train/{what} begin and end: expected to be accepted, got {cls}: {got}"


# -- SwapEMAWeights through a LossScaleOptimizer ----------------------------------------------------------------------
def _swap_fit(keras, wrap, swap):
    keras.utils.set_random_seed(1)
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones", use_bias=False)])
    opt = keras.optimizers.SGD(0.1, use_ema=True, ema_momentum=0.5)
    model.compile(keras.optimizers.LossScaleOptimizer(opt) if wrap else opt, "mse")
    x = np.array([[1.0, 2.0], [0.5, -1.0], [2.0, 0.0], [1.0, 1.0]], "float32")
    y = np.array([[1.0], [0.0], [2.0], [-1.0]], "float32")
    history = model.fit(x, y, batch_size=2, epochs=2, verbose=0, validation_data=(x, y),
                        callbacks=[keras.callbacks.SwapEMAWeights()] if swap else [])
    return history.history["val_loss"], np.asarray(_np(model.get_weights()[0]))


@clause("keras.callbacks.swap-ema-weights", ref="tf221")
def test_blind48_swap_ema_weights_looks_inside_a_loss_scale_optimizer(keras):
    """SwapEMAWeights with a LossScaleOptimizer(SGD(use_ema=True)) swaps the inner optimizer's averages in for
    validation as with the bare SGD: the same validation losses and weights (a relation Keras 3.15's unwrapping of
    `inner_optimizer` implies); and the validation losses differ from a fit without the callback (the swap is seen)."""
    bare = _swap_fit(keras, wrap=False, swap=True)
    cls, wrapped = _outcome(lambda: _swap_fit(keras, wrap=True, swap=True))
    assert cls == "ok", f"fit with SwapEMAWeights and LossScaleOptimizer(SGD(use_ema=True)): expected to run, got " \
                        f"{cls}: {wrapped}"
    np.testing.assert_allclose(wrapped[0], bare[0], rtol=1e-6, err_msg="validation losses, wrapped vs bare")
    np.testing.assert_allclose(wrapped[1], bare[1], rtol=1e-6, err_msg="weights after fit, wrapped vs bare")
    plain = _swap_fit(keras, wrap=False, swap=False)
    assert not np.allclose(plain[0], bare[0]), f"validation losses without SwapEMAWeights {plain[0]} equal those " \
                                               f"with it {bare[0]}: the swap is not seen"


# -- the image layers' output dtype for integer images, in training and inference --------------------------------------
#: layer, kwargs -> (inference dtype, training dtype) of an int32 (2, 4, 4, 3) batch, observed on TF 2.21 (Keras 3.15:
#: RandomFlip, RandomRotation, RandomZoom, RandomTranslation and CenterCrop cast to the compute dtype before they
#: look at `training`; RandomCrop casts in training only; RandomContrast, RandomBrightness, Resizing, RandomGrayscale
#: keep an int32 input in inference, RandomHue too).
_IMAGE_DTYPES = {
    "RandomFlip": ({}, ("float32", "float32")),
    "RandomRotation": ({"factor": 0.1}, ("float32", "float32")),
    "RandomZoom": ({"height_factor": 0.1}, ("float32", "float32")),
    "RandomTranslation": ({"height_factor": 0.1, "width_factor": 0.1}, ("float32", "float32")),
    "CenterCrop": ({"height": 2, "width": 2}, ("float32", "float32")),
    "RandomCrop": ({"height": 2, "width": 2}, ("int32", "float32")),
    "RandomBrightness": ({"factor": 0.1}, ("int32", "int32")),
    "Resizing": ({"height": 2, "width": 2}, ("int32", "int32")),
    "RandomGrayscale": ({}, ("int32", "int32")),
    "RandomHue": ({"factor": 0.1, "value_range": (0, 255)}, ("int32", "float32")),
    "RandomContrast": ({"factor": 0.1}, ("int32", None)),
}


@clause("keras.layer.image-preprocessing", ref="tf221")
@pytest.mark.parametrize("name", list(_IMAGE_DTYPES))
def test_blind48_image_layers_output_dtype_of_integer_images(keras, name):
    """The dtype an image layer returns for an int32 batch, in inference and in training (observed on TF 2.21): the
    layers that cast first give float32 either way, the others keep int32 in inference (RandomContrast's training
    call of int32 images is not compared: TF fails in a Sub of int32 and float32)."""
    kwargs, want = _IMAGE_DTYPES[name]
    images = np.arange(2 * 4 * 4 * 3, dtype="int32").reshape(2, 4, 4, 3) % 200
    for training, dtype in zip([False, True], want):
        if dtype is None:
            continue
        y = getattr(keras.layers, name)(**kwargs)(images, training=training)
        got = str(getattr(y.dtype, "name", y.dtype))
        assert got == dtype, f"{name}({kwargs}) of int32 images, training={training}: expected {dtype}, got {got}"


# -- Reshape checks its target shape when it is made ----------------------------------------------------------------------
@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("target, want", [
    ((-1, -1), ("ValueError", "There must be at most one unknown dimension (-1) in `target_shape`")),
    ((2, -2), ("ValueError", "Each dimension in `target_shape` must be a non-negative integer, or `-1`")),
    ((0, 3), ("ok", (0, 3))), ((2, 3), ("ok", (2, 3))), ((-1, 3), ("ok", (-1, 3)))])
def test_blind48_reshape_checks_its_target_shape_when_made(keras, target, want):
    """Reshape(target_shape) refuses two -1 entries or a negative entry other than -1 in its constructor (ValueError,
    Keras 3.15's messages), before any call; zero and one -1 are accepted (observed on TF 2.21)."""
    cls, got = _outcome(lambda: tuple(keras.layers.Reshape(target).target_shape))
    if want[0] == "ok":
        assert (cls, got) == want, f"Reshape({target}): expected target_shape {want[1]}, got {cls}: {got}"
    else:
        assert cls == want[0] and want[1] in got, f"Reshape({target}): expected {want[0]} with {want[1]!r}, got " \
                                                  f"{cls}: {got}"


# -- LayerNormalization(rms_scaling) and RMSNormalization's epsilon -----------------------------------------------------
_ROWS = np.array([[1.0, 2.0, 4.0], [-1.0, 0.5, 3.0]], "float32")


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("epsilon", [0.5, 1e-3])
@pytest.mark.parametrize("rms_scaling", [False, True])
def test_blind48_layer_normalization_rms_scaling(keras, rms_scaling, epsilon):
    """LayerNormalization(rms_scaling, epsilon) with its initial gamma (ones) and beta (zeros): Keras 3.15's
    ops.layer_normalization divides by sqrt(var + epsilon) over the last axis and, with rms_scaling, does not centre
    (x · rsqrt(var + eps)), else (x - mean) · rsqrt(var + eps); computed here in float64."""
    x = _ROWS.astype(np.float64)
    var = x.var(axis=-1, keepdims=True)
    want = (x if rms_scaling else x - x.mean(axis=-1, keepdims=True)) / np.sqrt(var + epsilon)
    got = np.asarray(_np(keras.layers.LayerNormalization(rms_scaling=rms_scaling, epsilon=epsilon)(_ROWS)))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6,
                               err_msg=f"LayerNormalization(rms_scaling={rms_scaling}, epsilon={epsilon})")


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("epsilon", [None, 1.0, 0.25])
def test_blind48_rms_normalization_epsilon(keras, epsilon):
    """RMSNormalization(epsilon) (default 1e-6) with its initial scale (ones): x · rsqrt(mean(x²) + epsilon) over
    the last axis (Keras 3.15's ops.rms_normalization), computed here in float64."""
    eps = 1e-6 if epsilon is None else epsilon
    x = _ROWS.astype(np.float64)
    want = x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + eps)
    layer = keras.layers.RMSNormalization() if epsilon is None else keras.layers.RMSNormalization(epsilon=epsilon)
    got = np.asarray(_np(layer(_ROWS)))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=f"RMSNormalization(epsilon={epsilon})")


# -- the progress bar's count of steps, known or unknown ----------------------------------------------------------------
def _progress_lines(text):
    """The output's lines without ANSI colours, timings, loss values and padding (which differ run to run)."""
    import re
    text = re.sub(r"\x1b\[[0-9;]*m", "", text).replace("\x08", "")
    text = re.sub(r"\d+(\.\d+)?(ms|us|s)(/step)?", "T", text)
    text = re.sub(r"(loss|val_loss): [-\d.e+]+", r"\1: L", text)
    return [ln.strip() for ln in re.split(r"[\r\n]", re.sub(r" {2,}", " ", text)) if ln.strip()]


@clause("keras.callback.option-coverage", ref="tf221")
@pytest.mark.parametrize("unknown", [False, True])
@pytest.mark.parametrize("method", ["fit", "fit with validation", "evaluate", "predict"])
def test_blind48_progress_bar_counts_every_step(keras, tf, capsys, method, unknown):
    """verbose=1 over 3 batches of a dataset (5 rows, batch 2), its cardinality known or unknown (a filter): the last
    line is the finalized bar "3/3 ━━━━…" (ProgbarLogger counts batch + 1 steps; an unknown target becomes the steps
    seen), each of fit's 2 epochs has an "Epoch i/2" line, and only fit with validation data prints val_loss, once per
    epoch (Keras 3.15; the intermediate lines depend on the time between updates and are not compared)."""
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer=keras.optimizers.SGD(0.01), loss="mse")
    x, y = np.ones((5, 2), "float32"), np.ones((5, 1), "float32")
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(2)
    if unknown:
        ds = ds.filter(lambda a, b: True)
    capsys.readouterr()
    if method.startswith("fit"):
        model.fit(ds, epochs=2, verbose=1, validation_data=ds if "validation" in method else None)
    elif method == "evaluate":
        model.evaluate(ds, verbose=1)
    else:
        model.predict(ds.map(lambda a, b: a), verbose=1)
    lines = _progress_lines(capsys.readouterr().out)
    epochs = 2 if method.startswith("fit") else 0
    assert lines and lines[-1].startswith("3/3 ━"), f"{method} (unknown cardinality {unknown}): expected the last " \
                                                   f"line to be the finalized bar '3/3 ━…', got {lines[-1:]}"
    got = (sum(ln.startswith("Epoch ") for ln in lines), sum("val_loss" in ln for ln in lines))
    want = (epochs, epochs if "validation" in method else 0)
    assert got == want, f"{method} (unknown cardinality {unknown}): expected (Epoch lines, val_loss lines) {want}, " \
                        f"got {got} in {lines}"
