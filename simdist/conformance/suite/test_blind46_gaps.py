"""Gaps the forty-sixth blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is the
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


# -- the fixed-size image layers' output shapes: height and width in their own axes --------------------------------------
def _crop_shape(shape, height, width, data_format):
    """Keras 3.15's RandomCrop/CenterCrop/Resizing output shape, transcribed: the height and width axes (-3, -2 in
    channels_last, -2, -1 in channels_first) become (height, width); every other axis is kept."""
    out = list(shape)
    h, w = (-3, -2) if data_format == "channels_last" else (-2, -1)
    out[h], out[w] = height, width
    return tuple(out)


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("cls", ["RandomCrop", "CenterCrop", "Resizing"])
@pytest.mark.parametrize("data_format, shape", [
    ("channels_last", (None, 5, 6, 3)), ("channels_last", (2, 5, 6, 1)), ("channels_last", (5, 6, 3)),
    ("channels_first", (None, 3, 5, 6)), ("channels_first", (2, 1, 5, 6)), ("channels_first", (3, 5, 6))])
def test_blind46_fixed_size_image_layers_output_shape(keras, cls, data_format, shape):
    """RandomCrop(2, 3), CenterCrop(2, 3) and Resizing(2, 3) give height 2 and width 3 (not swapped) in the axes of
    their data_format, batched or not: compute_output_shape, and the eager call of a concrete image (RandomCrop's in
    training; in inference Keras 3.15's RandomCrop returns its input as it is, observed on TF 2.21)."""
    layer = getattr(keras.layers, cls)(2, 3, data_format=data_format)
    want = _crop_shape(shape, 2, 3, data_format)
    got = tuple(layer.compute_output_shape(shape))
    assert got == want, f"{cls}(2, 3, data_format={data_format!r}).compute_output_shape({shape}): expected {want}, " \
                        f"got {got}"
    if None not in shape:
        x = np.arange(int(np.prod(shape)), dtype="float32").reshape(shape)
        if cls == "RandomCrop":
            y = keras.layers.RandomCrop(2, 3, data_format=data_format, seed=1)(x, training=True)
            same = keras.layers.RandomCrop(2, 3, data_format=data_format, seed=1)(x, training=False)
            assert tuple(same.shape) == shape, f"RandomCrop(2, 3, data_format={data_format!r}) of float32" \
                                               f"{list(shape)} in inference: expected the input's shape {shape}, " \
                                               f"got {tuple(same.shape)}"
        else:
            y = getattr(keras.layers, cls)(2, 3, data_format=data_format)(x)
        assert tuple(y.shape) == want, f"{cls}(2, 3, data_format={data_format!r}) of float32{list(shape)}: " \
                                       f"expected shape {want}, got {tuple(y.shape)}"


# -- the cropping and zero-padding layers' arguments: zero, negative, ints and pairs ------------------------------------
_RANK = {"Cropping1D": 1, "Cropping2D": 2, "Cropping3D": 3, "ZeroPadding1D": 1, "ZeroPadding2D": 2, "ZeroPadding3D": 3}
_VALUES = [0, 1, 2, -1, (0, 0), (0, 1), (2, 0), ((0, 0), (0, 1)), ((1, 2), 0), (0, 0, 0), (1, 0, 2),
           ((1, 0), (0, 2), (0, 0)), ((0, 0), (0, 0), (0, 0))]


def _pairs(cls, value):
    """Keras 3.15's constructors, transcribed: the 1-D layers take an int n >= 0 as (n, n) or a pair of ints >= 0;
    the 2-D and 3-D ones an int as (n, n) per axis — negative refused by Cropping2D/3D only, ZeroPadding2D/3D keep
    it — or one entry per axis, each an int n >= 0 (as (n, n)) or a pair; any other length is a ValueError."""
    rank = _RANK[cls]
    if rank == 1:
        if isinstance(value, int):
            return (value, value) if value >= 0 else "ValueError"
        if len(value) == 2 and all(isinstance(v, int) and v >= 0 for v in value):
            return tuple(value)
        return "ValueError"
    if isinstance(value, int):
        return "ValueError" if value < 0 and cls.startswith("Cropping") else ((value, value),) * rank
    if len(value) != rank:
        return "ValueError"
    return tuple((v, v) if isinstance(v, int) else tuple(v) for v in value)


@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("value", _VALUES, ids=repr)
@pytest.mark.parametrize("cls", sorted(_RANK))
def test_blind46_cropping_and_padding_arguments(keras, cls, value):
    """Cropping1D/2D/3D(cropping) and ZeroPadding1D/2D/3D(padding): a zero int is accepted (nothing cropped or
    padded) as zero pairs, a positive int is both sides of every axis, a tuple per axis of ints or pairs; a negative
    int is refused by the croppings and by ZeroPadding1D, kept by ZeroPadding2D/3D; a wrong count is ValueError."""
    attr = "cropping" if cls.startswith("Cropping") else "padding"
    want = _pairs(cls, value)
    fn = lambda: tuple(getattr(getattr(keras.layers, cls)(value), attr))  # noqa: E731
    if want == "ValueError":
        _check(f"{cls}({value!r})", fn, "ValueError")
    else:
        _check(f"{cls}({value!r})", fn, "ok", want_value=want)


@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("cls", ["Cropping1D", "Cropping2D", "Cropping3D", "ZeroPadding1D", "ZeroPadding2D",
                                 "ZeroPadding3D"])
def test_blind46_zero_cropping_and_padding_keep_the_input(keras, cls):
    """A zero int crops or pads nothing: the call returns the input unchanged, in shape and values."""
    rank = _RANK[cls]
    shape = (2,) + (3, 4, 5)[:rank] + (2,)
    x = np.arange(int(np.prod(shape)), dtype="float32").reshape(shape)
    y = _np(getattr(keras.layers, cls)(0)(x))
    assert y.shape == shape and np.array_equal(y, x), f"{cls}(0) of float32{list(shape)}: expected the input back, " \
                                                      f"got shape {y.shape}"


# -- the merge layers' output shape: the batch size any input knows ------------------------------------------------------
def _merge_shape(cls, shapes):
    """Keras 3.15, transcribed. The elementwise merges broadcast the non-batch axes (a 1 takes the other's size) and
    take the batch size when exactly one size is known among the inputs (None if none or several). Concatenate
    keeps the first input's axes and sums the last (None if any is unknown)."""
    if cls == "Concatenate":
        out = list(shapes[0])
        for s in shapes[1:]:
            out[-1] = None if out[-1] is None or s[-1] is None else out[-1] + s[-1]
        return tuple(out)
    rest = list(shapes[0][1:])
    for s in shapes[1:]:
        rest = [b if a == 1 else a for a, b in zip(rest, s[1:])]
    batches = {s[0] for s in shapes} - {None}
    return (next(iter(batches)) if len(batches) == 1 else None,) + tuple(rest)


_MERGE_SHAPES = [[(None, 3), (4, 3)], [(4, 3), (None, 3)], [(None, 3), (None, 3)], [(2, 3), (2, 3)],
                 [(None, 1, 3), (5, 2, 3)], [(None, 3), (None, 3), (6, 3)], [(2, 3), (5, 3)]]


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("shapes", _MERGE_SHAPES, ids=str)
@pytest.mark.parametrize("cls", ["Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Concatenate"])
def test_blind46_merge_output_shape_batch(keras, cls, shapes):
    """The merge layers' compute_output_shape for inputs whose batch sizes differ: the elementwise merges take the
    batch size any single input knows, wherever it stands (first, last, one of three); two different known sizes
    give None. Concatenate keeps the first input's batch axis."""
    if cls == "Subtract" and len(shapes) != 2:
        pytest.skip("Subtract takes two inputs")
    want = _merge_shape(cls, shapes)
    got = tuple(getattr(keras.layers, cls)().compute_output_shape(shapes))
    assert got == want, f"{cls}().compute_output_shape({shapes}): expected {want}, got {got}"


# -- attention masks of rank 3 broadcast over the heads ---------------------------------------------------------------
_MASK = np.array([[[1, 1, 0, 0], [1, 0, 1, 0], [0, 1, 1, 1]],
                  [[1, 1, 1, 1], [0, 0, 0, 1], [1, 0, 0, 1]]], dtype=bool)


def _attention_layer(keras, cls, heads):
    if cls == "GroupQueryAttention":
        return keras.layers.GroupQueryAttention(head_dim=2, num_query_heads=heads, num_key_value_heads=1,
                                                kernel_initializer=keras.initializers.GlorotUniform(seed=1))
    return keras.layers.MultiHeadAttention(num_heads=heads, key_dim=2,
                                           kernel_initializer=keras.initializers.GlorotUniform(seed=1))


@clause("keras.layer.option-coverage", ref="tf221")
@pytest.mark.parametrize("heads", [1, 2, 4])
@pytest.mark.parametrize("cls", ["GroupQueryAttention", "MultiHeadAttention"])
def test_blind46_attention_mask_broadcasts_over_the_heads(keras, cls, heads):
    """A (batch, target, source) attention_mask applies to every head: with return_attention_scores each head's scores
    are the unmasked scores renormalised over the allowed positions (the masked softmax of the same logits), zero
    where the mask is False; and the output without return_attention_scores (Keras's fused path) is the same."""
    layer = _attention_layer(keras, cls, heads)
    q = (np.arange(2 * 3 * 2, dtype="float32").reshape(2, 3, 2) - 5.0) / 8.0
    v = (np.arange(2 * 4 * 2, dtype="float32").reshape(2, 4, 2)[:, ::-1] - 7.0) / 9.0
    _, full = layer(q, v, return_attention_scores=True)
    out, scores = layer(q, v, attention_mask=_MASK, return_attention_scores=True)
    full, scores = _np(full).astype(np.float64), _np(scores).astype(np.float64)
    assert scores.shape == (2, heads, 3, 4), f"{cls}(heads={heads}) scores: expected shape (2, {heads}, 3, 4), " \
                                              f"got {scores.shape}"
    m = _MASK[:, None, :, :]
    want = full * m / np.sum(full * m, axis=-1, keepdims=True)
    np.testing.assert_allclose(scores, want, rtol=1e-5, atol=1e-6,
                               err_msg=f"{cls}(heads={heads}): masked scores are not the unmasked ones renormalised "
                                       "over the mask's allowed positions")
    fused = _np(layer(q, v, attention_mask=_MASK))
    np.testing.assert_allclose(fused, _np(out), rtol=1e-5, atol=1e-6,
                               err_msg=f"{cls}(heads={heads}): the output without return_attention_scores differs "
                                       "from the output with it")


# -- optimizer variables take floatx unless told otherwise ------------------------------------------------------------
@clause("optim.option-coverage", ref="tf221")
@pytest.mark.parametrize("floatx", ["float64", "float16", "float32"])
@pytest.mark.parametrize("cls", ["SGD", "Adam", "RMSprop"])
def test_blind46_optimizer_variables_default_to_floatx(keras, tf, cls, floatx):
    """Keras 3.15's Optimizer.add_variable without a dtype makes a variable of floatx (backend.Variable's default),
    whatever the initializer; an explicit dtype is kept; add_variable_from_reference takes the reference's dtype;
    the iterations counter is int64 and the learning rate floatx; the slots of a model variable take its dtype."""
    old = keras.config.floatx()
    keras.config.set_floatx(floatx)
    try:
        opt = getattr(keras.optimizers, cls)()
        ones = opt.add_variable((2,), initializer="ones", name="b")
        got = {"zeros": str(opt.add_variable((2,), name="a").dtype),
               "ones": str(ones.dtype),
               "explicit float32": str(opt.add_variable((2,), dtype="float32", name="c").dtype),
               "from a float32 reference": str(opt.add_variable_from_reference(
                   tf.Variable(np.zeros(2, "float32")), name="m").dtype),
               "iterations": str(opt.iterations.dtype),
               "learning_rate": tf.convert_to_tensor(opt.learning_rate).dtype.name}
        want = {"zeros": floatx, "ones": floatx, "explicit float32": "float32", "from a float32 reference": "float32",
                "iterations": "int64", "learning_rate": floatx}
        got = {k: v.replace("<dtype: '", "").replace("'>", "") for k, v in got.items()}
        assert got == want, f"{cls} under floatx {floatx}: expected dtypes {want}, got {got}"
        ones = np.asarray(_np(ones))
        assert ones.tolist() == [1.0, 1.0], f"{cls}.add_variable(initializer='ones'): expected [1, 1], got {ones}"
    finally:
        keras.config.set_floatx(old)


# -- the progress bar's verbose="auto" is verbose=1 -------------------------------------------------------------------
def _normalised(text):
    """The progress output without its timings (which differ run to run) and the backspaces and padding spaces whose
    count follows the previous line's width (so its timings)."""
    import re
    text = re.sub(r"\d+(\.\d+)?(ms|us|s)(/step)?", "T", text)
    text = re.sub(r"loss: [-\d.e+]+", "loss: L", text).replace("\x08", "")
    return re.sub(r" +(?=[\r\n]|$)", "", re.sub(r" {2,}", " ", text))


@clause("keras.callback.option-coverage", ref="tf221")
@pytest.mark.parametrize("method", ["fit", "evaluate", "predict"])
def test_blind46_verbose_auto_is_the_progress_bar(keras, capsys, method):
    """fit/evaluate/predict(verbose="auto"): Keras 3.15's ProgbarLogger reads "auto" as 1 — the progress bar (with its
    '━' bar) — not 2 (one line per epoch, without a bar); 0 prints nothing. Compared after removing the timings."""
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer=keras.optimizers.SGD(0.01), loss="mse")
    x, y = np.ones((4, 2), "float32"), np.zeros((4, 1), "float32")
    outputs = {}
    for verbose in ["auto", 1, 2, 0]:
        capsys.readouterr()
        if method == "fit":
            model.fit(x, y, batch_size=2, epochs=1, verbose=verbose)
        elif method == "evaluate":
            model.evaluate(x, y, batch_size=2, verbose=verbose)
        else:
            model.predict(x, batch_size=2, verbose=verbose)
        outputs[verbose] = _normalised(capsys.readouterr().out)
    assert outputs[0] == "", f"{method}(verbose=0): expected no output, got {outputs[0]!r}"
    assert "━" in outputs[1] and "━" not in outputs[2], f"{method}: expected a bar with verbose=1 and none with " \
                                                      f"verbose=2, got {outputs[1]!r} and {outputs[2]!r}"
    assert outputs["auto"] == outputs[1], f"{method}(verbose='auto'): expected verbose=1's output {outputs[1]!r}, " \
                                          f"got {outputs['auto']!r}"
