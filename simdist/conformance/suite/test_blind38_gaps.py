"""Gaps the thirty-eighth blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is
the suite"): rules of Keras's layers, losses, metrics, optimizers and callbacks that the suite stated for one
spelling, one option value or one input only, or never, so that a wrong implementation of the other case passed
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


# -- standardize_tuple: an int, or an iterable of exactly n ints, each > 0 (>= 0 for paddings) ----------------------
@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("name, kwargs, arg, n", [
    ("Conv2D", {"filters": 2, "kernel_size": (3,)}, "kernel_size", 2),
    ("Conv2D", {"filters": 2, "kernel_size": (3, 3, 3)}, "kernel_size", 2),
    ("Conv1D", {"filters": 2, "kernel_size": (3, 3)}, "kernel_size", 1),
    ("Conv3D", {"filters": 1, "kernel_size": (2, 2)}, "kernel_size", 3),
    ("Conv2D", {"filters": 2, "kernel_size": 3, "strides": (1,)}, "strides", 2),
    ("Conv2D", {"filters": 2, "kernel_size": 3, "dilation_rate": [1, 1, 1]}, "dilation_rate", 2),
    ("MaxPooling2D", {"pool_size": (2,)}, "pool_size", 2),
    ("AveragePooling1D", {"pool_size": (2, 2)}, "pool_size", 1),
    ("ZeroPadding1D", {"padding": (1,)}, "padding", 2),
    ("UpSampling2D", {"size": (2,)}, "size", 2)])
def test_blind38_tuple_arguments_need_exactly_n_entries(keras, name, kwargs, arg, n):
    """A layer's kernel_size/strides/dilation_rate/pool_size/padding/size given as an iterable must have exactly as
    many entries as the layer has spatial dims, fewer as well as more (Keras 3.15 `standardize_tuple`): ValueError
    "The `ARG` argument must be a tuple of N integers. Received ARG=VALUE"."""
    with pytest.raises(ValueError) as e:
        getattr(keras.layers, name)(**kwargs)
    want = f"The `{arg}` argument must be a tuple of {n} integers. Received {arg}={kwargs[arg]}"
    assert want in str(e.value), f"{name}({kwargs}): expected {want!r} in {str(e.value)!r}"


@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("name, kwargs, arg, want", [
    ("Conv2D", {"filters": 2, "kernel_size": (3, "a")}, "kernel_size",
     "Received kernel_size=(3, 'a')including element a of type <class 'str'>"),
    ("Conv2D", {"filters": 2, "kernel_size": (0, 3)}, "kernel_size",
     "Received kernel_size=(0, 3), including values {0} that do not satisfy `value > 0`"),
    ("ZeroPadding1D", {"padding": (-1, 2)}, "padding",
     "Received padding=(-1, 2), including values {-1} that do not satisfy `value >= 0`"),
    ("Conv2D", {"filters": 2, "kernel_size": [3, 2]}, "kernel_size", (3, 2)),
    ("ZeroPadding1D", {"padding": (0, 2)}, "padding", (0, 2)),
    ("MaxPooling2D", {"pool_size": 3}, "pool_size", (3, 3))])
def test_blind38_tuple_argument_entries(keras, name, kwargs, arg, want):
    """The entries of such an argument: a non-integer names the element and its type (Keras appends it with no
    separator), a value <= 0 (< 0 for a padding) is listed as a set; a valid list or int is kept as a tuple of n."""
    if isinstance(want, tuple):
        got = tuple(getattr(getattr(keras.layers, name)(**kwargs), arg))
        assert got == want, f"{name}({kwargs}).{arg}: expected {want}, got {got}"
        return
    with pytest.raises(ValueError) as e:
        getattr(keras.layers, name)(**kwargs)
    assert want in str(e.value), f"{name}({kwargs}): expected {want!r} in {str(e.value)!r}"


# -- data_format: "channels_first" / "channels_last" in any case ---------------------------------------------------
@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("name, kwargs", [
    ("Conv2D", {"filters": 2, "kernel_size": 3}), ("MaxPooling2D", {}), ("GlobalAveragePooling2D", {}),
    ("UpSampling2D", {}), ("Flatten", {}), ("ZeroPadding1D", {}), ("Cropping2D", {}),
    ("Conv1DTranspose", {"filters": 1, "kernel_size": 2}), ("SeparableConv2D", {"filters": 1, "kernel_size": 2}),
    ("AdaptiveAveragePooling2D", {"output_size": 2})])
@pytest.mark.parametrize("given", ["Channels_Last", "CHANNELS_FIRST", "channels_first", "channelslast", "NHWC"])
def test_blind38_data_format_in_any_case(keras, name, kwargs, given):
    """A layer's data_format is lower-cased before it is checked (Keras 3.15 `standardize_data_format`): any casing
    of channels_first/channels_last is accepted and stored lower-case; anything else is ValueError "The
    `data_format` argument must be one of {...}. Received: data_format=LOWERED". The adaptive pooling layers check
    the value as given: only the lower-case spellings pass ("Invalid data_format: GIVEN. Expected ...")."""
    lowered = given.lower()
    if name.startswith("Adaptive"):   # (Keras 3.15's adaptive pooling layers check the value as given)
        if given in ("channels_first", "channels_last"):
            assert getattr(keras.layers, name)(data_format=given, **kwargs).data_format == given
            return
        with pytest.raises(ValueError) as e:
            getattr(keras.layers, name)(data_format=given, **kwargs)
        want = f"Invalid data_format: {given}. Expected 'channels_first' or 'channels_last'."
        assert want in str(e.value), f"{name}(data_format={given!r}): expected {want!r} in {str(e.value)!r}"
        return
    if lowered in ("channels_first", "channels_last"):
        layer = getattr(keras.layers, name)(data_format=given, **kwargs)
        assert layer.data_format == lowered, f"{name}(data_format={given!r}): expected {lowered!r}, got " \
                                             f"{layer.data_format!r}"
        return
    with pytest.raises(ValueError) as e:
        getattr(keras.layers, name)(data_format=given, **kwargs)
    for part in ("The `data_format` argument must be one of", f"Received: data_format={lowered}"):
        assert part in str(e.value), f"{name}(data_format={given!r}): expected {part!r} in {str(e.value)!r}"


# -- a recurrent layer's output mask: the input mask with return_sequences, else None; one None per state ----------
@clause("keras.mask.propagation", ref="tf221")
@pytest.mark.parametrize("name, shape, n_states", [
    ("ConvLSTM1D", (1, 3, 4, 1), 2), ("ConvLSTM2D", (1, 3, 4, 4, 1), 2), ("LSTM", (1, 3, 2), 2),
    ("GRU", (1, 3, 2), 1), ("SimpleRNN", (1, 3, 2), 1)])
@pytest.mark.parametrize("return_sequences", [False, True])
@pytest.mark.parametrize("return_state", [False, True])
def test_blind38_recurrent_output_mask_follows_return_sequences(keras, name, shape, n_states, return_sequences,
                                                                return_state):
    """compute_mask(inputs, mask) of the recurrent layers, convolutional ones included (Keras 3.15 `RNN.compute_mask`,
    `ConvLSTM.compute_mask`): the input mask when return_sequences, else None; with return_state a list of that and
    one None per state (two for LSTM and ConvLSTM, one for GRU and SimpleRNN)."""
    kwargs = {"filters": 2, "kernel_size": 2} if name.startswith("Conv") else {"units": 2}
    layer = getattr(keras.layers, name)(return_sequences=return_sequences, return_state=return_state, **kwargs)
    mask = np.array([[True, False, True]])
    got = layer.compute_mask(np.ones(shape, "float32"), mask)
    out_mask = got[0] if return_state else got
    if return_sequences:
        assert out_mask is not None and _np(out_mask).tolist() == mask.tolist(), \
            f"{name}(return_sequences=True): expected the input mask {mask.tolist()}, got {out_mask}"
    else:
        assert out_mask is None, f"{name}(return_sequences=False): expected no output mask, got {out_mask}"
    if return_state:
        assert list(got[1:]) == [None] * n_states, f"{name}(return_state=True): expected {n_states} None state " \
                                                   f"masks, got {list(got[1:])}"


# -- a merge layer's compute_mask: masks and inputs lists of one length ---------------------------------------------
@clause("keras.mask.propagation", ref="tf221")
@pytest.mark.parametrize("name", ["Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Concatenate"])
@pytest.mark.parametrize("n_masks", [1, 3, 2])
def test_blind38_merge_mask_count_must_match_the_inputs(keras, name, n_masks):
    """Merge layers (Keras 3.15 `Merge.compute_mask`, `Concatenate.compute_mask`) refuse a list of masks of another
    length than the inputs, fewer as well as more: ValueError "The lists `inputs` and `mask` should have the same
    length. Received: ... of length 2, and mask=... of length K"; two masks give their elementwise OR (Concatenate:
    each input's mask broadcast over its last axis, concatenated and reduced with any() over it: the same OR here)."""
    a = np.ones((2, 3), "float32")
    masks = [np.array([True, False]), np.array([True, True]), np.array([False, True])][:n_masks]
    layer = getattr(keras.layers, name)()
    if n_masks != 2:
        with pytest.raises(ValueError) as e:
            layer.compute_mask([a, a], masks)
        for part in ("The lists `inputs` and `mask` should have the same length.", "of length 2, and mask=",
                     f"of length {n_masks}"):
            assert part in str(e.value), f"{name} with {n_masks} masks: expected {part!r} in {str(e.value)!r}"
        return
    got = _np(layer.compute_mask([a, a], masks)).tolist()
    want = np.logical_or(masks[0], masks[1]).tolist()
    assert got == want, f"{name}: expected the mask {want}, got {got}"


# -- the padding and cropping layers with channels_first pad/crop the spatial axes, not the channels ---------------
@clause("keras.layer.upsampling-padding", ref="tf221")
@pytest.mark.parametrize("name, kwargs, shape, pads", [
    ("ZeroPadding1D", {"padding": (1, 2)}, (1, 3, 5), [(1, 2)]),
    ("ZeroPadding2D", {"padding": ((1, 0), (2, 1))}, (1, 2, 3, 4), [(1, 0), (2, 1)]),
    ("ZeroPadding3D", {"padding": ((1, 0), (0, 2), (1, 1))}, (1, 2, 2, 3, 2), [(1, 0), (0, 2), (1, 1)]),
    ("Cropping2D", {"cropping": ((1, 0), (0, 1))}, (1, 2, 3, 4), [(-1, 0), (0, -1)])])
@pytest.mark.parametrize("data_format", ["channels_first", "channels_last"])
def test_blind38_padding_layers_pad_the_spatial_axes_in_both_formats(keras, name, kwargs, shape, pads, data_format):
    """ZeroPadding1D/2D/3D and Cropping2D with data_format="channels_first" pad (crop) the axes after the channels
    axis, with channels_last the axes between batch and channels (Keras 3.15): compute_output_shape and the called
    layer's output agree with np.pad of the input over those axes (a negative pad: a crop), every value kept."""
    layer = getattr(keras.layers, name)(data_format=data_format, **kwargs)
    # the input in the layer's format: the same spatial sizes either way
    spatial = shape[1:]
    x = np.arange(1, np.prod(shape) + 1, dtype="float32").reshape(shape)
    first = 2 if data_format == "channels_first" else 1
    width = [(0, 0)] * len(shape)
    for i, p in enumerate(pads):
        width[first + i] = p
    want = x
    for axis, (lo, hi) in enumerate(width):
        if lo < 0 or hi < 0:
            want = np.take(want, range(-min(lo, 0), want.shape[axis] + min(hi, 0)), axis=axis)
        elif lo or hi:
            w = [(0, 0)] * len(shape)
            w[axis] = (lo, hi)
            want = np.pad(want, w)
    got_shape = tuple(layer.compute_output_shape((None,) + tuple(spatial)))
    assert got_shape == (None,) + want.shape[1:], f"{name}({data_format}).compute_output_shape: expected " \
                                                  f"{(None,) + want.shape[1:]}, got {got_shape}"
    got = _np(layer(x))
    assert got.shape == want.shape and np.array_equal(got, want), \
        f"{name}({data_format}): expected {want.shape} {want.ravel()[:8]}, got {got.shape} {got.ravel()[:8]}"


# -- Discretization's output shape: the bins (boundaries + 1, or num_bins) in the encoded modes ----------------------
def _discretization_shape(mode: str, shape: tuple, depth: int) -> tuple:
    """Keras 3.15 `Discretization.compute_output_shape`, transcribed."""
    if mode == "int":
        return shape
    if mode == "one_hot":
        if len(shape) > 1 and shape[-1] == 1:
            return shape[:-1] + (depth,)
        return shape + (depth,)
    return (shape[0],) + shape[2:] + (depth,) if len(shape) >= 2 else (depth,)


@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("mode", ["int", "one_hot", "multi_hot", "count"])
@pytest.mark.parametrize("shape", [(None, 1), (None, 3), (4,), (None, 2, 3)])
@pytest.mark.parametrize("bins", [{"bin_boundaries": [0.0, 1.0, 2.0]}, {"num_bins": 5}])
def test_blind38_discretization_output_shape_counts_the_bins(keras, mode, shape, bins):
    """Discretization's symbolic shape: its depth is len(bin_boundaries) + 1 (or num_bins), last in every mode but
    "int" (the input shape); one_hot replaces a trailing 1 (or appends), multi_hot and count drop the second axis."""
    depth = len(bins["bin_boundaries"]) + 1 if "bin_boundaries" in bins else bins["num_bins"]
    want = _discretization_shape(mode, shape, depth)
    got = tuple(keras.layers.Discretization(output_mode=mode, **bins).compute_output_shape(shape))
    assert got == want, f"Discretization({bins}, output_mode={mode!r}).compute_output_shape({shape}): expected " \
                        f"{want}, got {got}"


@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("mode", ["one_hot", "multi_hot", "count"])
def test_blind38_discretization_call_matches_its_output_shape(keras, mode):
    """Called on 4 values of shape (4, 1) with three boundaries, every encoded mode gives (4, 4): one column per
    bin, the value's bin (np.digitize) set."""
    layer = keras.layers.Discretization(bin_boundaries=[0.0, 1.0, 2.0], output_mode=mode)
    x = np.array([[-1.0], [0.5], [1.5], [3.0]], "float32")
    got = _np(layer(x))
    want = np.eye(4, dtype="float32")[np.digitize(x[:, 0], [0.0, 1.0, 2.0])]
    assert got.shape == tuple(layer.compute_output_shape((4, 1))) == (4, 4), \
        f"Discretization({mode}): call {got.shape}, compute_output_shape {layer.compute_output_shape((4, 1))}"
    np.testing.assert_array_equal(got, want, err_msg=f"Discretization({mode}) of {x.ravel()}")


# -- Flatten's output shape: the product of the non-batch dims, None if any is unknown -----------------------------
@clause("keras.layer.symbolic", ref="tf221")
@pytest.mark.parametrize("shape", [(None, None, 3), (None, 3, None), (None, None, None), (None, 2, 3), (None,),
                                   (None, 4), (5, 2, None, 2)])
def test_blind38_flatten_output_shape(keras, shape):
    """Flatten.compute_output_shape (Keras 3.15): (batch, prod(non-batch dims)); the product is None when any of
    them is unknown (one as well as all), 1 for a rank-1 input; a symbolic Input gives the same."""
    rest = shape[1:]
    want = (shape[0], None if any(d is None for d in rest) else int(np.prod(rest)) if rest else 1)
    got = tuple(keras.layers.Flatten().compute_output_shape(shape))
    assert got == want, f"Flatten().compute_output_shape({shape}): expected {want}, got {got}"
    if shape[0] is None and len(shape) > 1:
        sym = tuple(keras.layers.Flatten()(keras.Input(shape[1:])).shape)
        assert sym == want, f"Flatten()(Input({shape[1:]})).shape: expected {want}, got {sym}"


# -- HashedCrossing: inputs of one shape ----------------------------------------------------------------------------
@clause("keras.layer.hashed-crossing", ref="tf221")
@pytest.mark.parametrize("a, b", [([1, 2], [1, 2, 3]), ([[1], [2]], [1, 2]), ([[1], [2]], [[1], [2], [3]]),
                                  (1, [1, 2]), ([1, 2], [3, 4]), ([[1], [2]], [[3], [4]])])
def test_blind38_hashed_crossing_inputs_of_equal_shape(tf, keras, a, b):
    """HashedCrossing compares its inputs' whole shapes (Keras 3.15 `_check_input_shape_and_type`): a different
    length or rank is ValueError "All `HashedCrossing` inputs should have equal shape"; equal shapes give one
    bin per row, in [0, num_bins), in the inputs' shape."""
    layer = keras.layers.HashedCrossing(num_bins=5)
    if np.shape(a) != np.shape(b):
        with pytest.raises(ValueError) as e:
            layer([tf.constant(a), tf.constant(b)])
        assert "All `HashedCrossing` inputs should have equal shape" in str(e.value), \
            f"HashedCrossing of shapes {np.shape(a)} and {np.shape(b)}: got {str(e.value)[:200]!r}"
        return
    got = _np(layer([tf.constant(a), tf.constant(b)]))
    assert got.shape == np.shape(a) and ((got >= 0) & (got < 5)).all(), \
        f"HashedCrossing of shape {np.shape(a)}: expected bins in [0, 5) of that shape, got {got!r}"


# -- accuracy's argmax: -0.0 is smaller than 0.0 --------------------------------------------------------------------
@clause("keras.metric.accuracy", ref="tf221")
@pytest.mark.parametrize("dtype", ["float32", "float16", "float64"])
def test_blind38_accuracy_argmax_orders_negative_zero_below_zero(keras, dtype):
    """Keras 3.15's argmax (ops.argmax, used by the categorical accuracies) counts -0.0 as smaller than 0.0
    (its fix of flush-to-zero), whichever comes first: [-0.0, 0.0] -> 1 and [0.0, -0.0] -> 0, so the one-hot,
    sparse and stateful accuracies count both rows as hits."""
    p = np.array([[-0.0, 0.0], [0.0, -0.0]], dtype)
    assert _np(keras.ops.argmax(p, axis=-1)).tolist() == [1, 0], f"ops.argmax({p.tolist()}) ({dtype})"
    got = _np(keras.metrics.categorical_accuracy(np.array([[0.0, 1.0], [1.0, 0.0]], dtype), p)).tolist()
    assert got == [1.0, 1.0], f"categorical_accuracy with signed zeros ({dtype}): expected [1.0, 1.0], got {got}"
    got = _np(keras.metrics.sparse_categorical_accuracy(np.array([1, 0]), p)).tolist()
    assert got == [1.0, 1.0], f"sparse_categorical_accuracy with signed zeros ({dtype}): expected [1.0, 1.0], got {got}"
    m = keras.metrics.CategoricalAccuracy()
    m.update_state(np.array([[0.0, 1.0], [1.0, 0.0]], dtype), p)
    assert float(_np(m.result())) == 1.0, f"CategoricalAccuracy with signed zeros ({dtype}): got {_np(m.result())}"


# -- a loss's reduction: one of Keras's values exactly, case included -----------------------------------------------
@clause("keras.loss.reductions", ref="tf221")
@pytest.mark.parametrize("loss", ["MeanSquaredError", "CategoricalCrossentropy", "Huber"])
@pytest.mark.parametrize("reduction", ["SUM", "Sum", "None", "auto", "MEAN", "Sum_Over_Batch_Size",
                                       "none", "mean", None, "sum_over_batch_size", "sum", "mean_with_sample_weight"])
def test_blind38_loss_reduction_is_case_sensitive(keras, loss, reduction):
    """A loss's reduction must be one of None, "none", "sum", "sum_over_batch_size", "mean",
    "mean_with_sample_weight" as written (Keras 3.15 `standardize_reduction`): another casing and "auto" are
    ValueError "Invalid value for argument `reduction`. ... Received: reduction=R"; the valid ones are kept."""
    allowed = (None, "none", "sum", "sum_over_batch_size", "mean", "mean_with_sample_weight")
    if reduction in allowed:
        assert getattr(keras.losses, loss)(reduction=reduction).reduction == reduction
        return
    with pytest.raises(ValueError) as e:
        getattr(keras.losses, loss)(reduction=reduction)
    for part in ("Invalid value for argument `reduction`.", f"Received: reduction={reduction}"):
        assert part in str(e.value), f"{loss}(reduction={reduction!r}): expected {part!r} in {str(e.value)!r}"


# -- the crossentropies: target and output of one shape, no broadcasting --------------------------------------------
@clause("keras.loss.shapes", ref="tf221")
@pytest.mark.parametrize("fn", ["ops.binary_crossentropy", "ops.categorical_crossentropy",
                                "losses.binary_crossentropy", "losses.categorical_crossentropy",
                                "losses.BinaryCrossentropy", "losses.CategoricalCrossentropy"])
@pytest.mark.parametrize("target, output", [((2, 1), (2, 3)), ((2, 3), (2, 1)), ((2, 3), (2, 4)), ((1, 3), (2, 3)),
                                            ((2, 3), (3,)), ((2, 3), (2, 3))])
def test_blind38_crossentropy_shapes_must_match(keras, fn, target, output):
    """The crossentropies (keras.ops.binary/categorical_crossentropy, the keras.losses functions and their Loss
    classes; Keras 3.15's TF backend) compare the shapes before computing: another rank is ValueError "... must have
    the same rank (ndim)" (the classes first align the ranks), a differing dimension, a 1 against n as well,
    "Arguments `target` and `output` must have the same shape"; equal shapes compute."""
    module, name = fn.split(".")
    f = getattr(getattr(keras, module), name)
    if name[0].isupper():
        if len(target) != len(output):
            return   # (a Loss class squeezes or expands the ranks first: not this rule)
        f = f()
    t, o = np.full(target, 0.5, "float32"), np.full(output, 0.5, "float32")
    if target == output:
        got = _np(f(t, o))
        want = () if name[0].isupper() else target if fn == "ops.binary_crossentropy" else target[:-1]
        assert got.shape == want, f"{fn} of {target}: expected shape {want}, got {got.shape}"
        return
    with pytest.raises(ValueError) as e:
        f(t, o)
    want = "must have the same rank (ndim)" if len(target) != len(output) else \
        "Arguments `target` and `output` must have the same shape"
    assert want in str(e.value), f"{fn}({target}, {output}): expected {want!r} in {str(e.value)!r}"


# -- Optimizer.set_weights: every weight of its variable's exact shape ----------------------------------------------
@clause("optim.state-round-trip", ref="tf221")
@pytest.mark.parametrize("name, kwargs", [("Adam", {}), ("SGD", {"momentum": 0.5}), ("RMSprop", {"momentum": 0.5})])
@pytest.mark.parametrize("bad", [(3,), (1, 2), ()])
def test_blind38_optimizer_set_weights_checks_each_shape(tf, keras, name, kwargs, bad):
    """Optimizer.set_weights (Keras 3.15 `BaseOptimizer.set_weights`) compares each weight's shape with its
    variable's before assigning it: another size of the same rank, another rank or a scalar are ValueError
    "Optimizer variable ... has shape (2,) not compatible with provided weight shape S." and leave that variable
    unchanged; weights of the right shapes are assigned in the order of `variables`."""
    v = tf.Variable([1.0, 2.0])
    opt = getattr(keras.optimizers, name)(**kwargs)
    opt.build([v])
    weights = [_np(x) for x in opt.variables]
    last = len(weights) - 1
    before = weights[last].copy()
    weights[last] = np.zeros(bad, "float32")
    with pytest.raises(ValueError) as e:
        opt.set_weights(weights)
    want = f"has shape (2,) not compatible with provided weight shape {bad}."
    assert want in str(e.value), f"{name}.set_weights with a {bad} weight: expected {want!r} in {str(e.value)!r}"
    np.testing.assert_array_equal(_np(opt.variables[last]), before, err_msg=f"{name}: the refused variable changed")
    good = [_np(x) + 1 for x in opt.variables]
    opt.set_weights(good)
    for i, (x, g) in enumerate(zip(opt.variables, good)):
        np.testing.assert_allclose(_np(x), g, err_msg=f"{name}.set_weights: variable {i}")


# -- the optimizers' argument ranges: the boundary values Keras accepts ---------------------------------------------
@clause("optim.option-coverage", ref="tf221")
@pytest.mark.parametrize("power, ok", [(0.0, True), (-0.5, True), (-2.0, True), (0.1, False), (1.0, False)])
def test_blind38_ftrl_learning_rate_power_negative_or_zero(keras, power, ok):
    """Ftrl(learning_rate_power=p) (Keras 3.15): p <= 0 is accepted and kept, 0 itself included; p > 0 is
    ValueError "`learning_rate_power` needs to be negative or zero. Received: learning_rate_power=P."."""
    if ok:
        assert keras.optimizers.Ftrl(learning_rate_power=power).learning_rate_power == power
        return
    with pytest.raises(ValueError) as e:
        keras.optimizers.Ftrl(learning_rate_power=power)
    want = f"`learning_rate_power` needs to be negative or zero. Received: learning_rate_power={power}."
    assert want in str(e.value), f"Ftrl(learning_rate_power={power}): expected {want!r} in {str(e.value)!r}"


@clause("optim.option-coverage", ref="tf221")
@pytest.mark.parametrize("beta_1, ok", [(1.0, True), (0.5, True), (1e-6, True), (0.0, False), (-0.1, False),
                                        (1.01, False)])
def test_blind38_lion_beta_1_in_zero_one(keras, beta_1, ok):
    """Lion(beta_1=b) (Keras 3.15): 0 < b <= 1 is accepted, 1 itself included; b <= 0 or b > 1 is ValueError
    "Argument `beta_1` must be in the [0, 1] range. ... Received: beta_1=B."."""
    if ok:
        assert keras.optimizers.Lion(beta_1=beta_1).beta_1 == beta_1
        return
    with pytest.raises(ValueError) as e:
        keras.optimizers.Lion(beta_1=beta_1)
    for part in ("Argument `beta_1` must be in the [0, 1] range.", f"Received: beta_1={beta_1}."):
        assert part in str(e.value), f"Lion(beta_1={beta_1}): expected {part!r} in {str(e.value)!r}"


# -- PiecewiseConstantDecay: exactly one more value than boundaries -------------------------------------------------
@clause("optim.schedules", ref="tf221")
@pytest.mark.parametrize("boundaries, values", [([1], [1.0, 2.0, 3.0]), ([1, 2], [1.0]), ([1, 2], [1.0, 2.0]),
                                                ([1], [1.0, 2.0]), ([1, 3], [1.0, 2.0, 3.0])])
def test_blind38_piecewise_constant_decay_lengths(keras, boundaries, values):
    """PiecewiseConstantDecay(boundaries, values) (Keras 3.15) needs len(values) == len(boundaries) + 1: more
    values as well as fewer are ValueError "The length of boundaries should be 1 less than the length of values.
    Received: boundaries=B of length n, and values=V of length m."; otherwise values[i] applies while
    boundaries[i-1] < step <= boundaries[i]."""
    if len(values) != len(boundaries) + 1:
        with pytest.raises(ValueError) as e:
            keras.optimizers.schedules.PiecewiseConstantDecay(boundaries, values)
        want = (f"The length of boundaries should be 1 less than the length of values. Received: boundaries="
                f"{boundaries} of length {len(boundaries)}, and values={values} of length {len(values)}.")
        assert want in str(e.value), f"expected {want!r} in {str(e.value)!r}"
        return
    schedule = keras.optimizers.schedules.PiecewiseConstantDecay(boundaries, values)
    for step in (0, 1, 2, 3, 5):
        want = values[sum(step > b for b in boundaries)]
        assert float(_np(schedule(step))) == want, f"PiecewiseConstantDecay({boundaries}, {values})({step}): " \
                                                   f"expected {want}, got {_np(schedule(step))}"


# -- RMSprop's slots: momentum ones only for momentum > 0, average gradients only when centered ---------------------
@clause("optim.option-coverage", ref="tf221")
@pytest.mark.parametrize("momentum, centered", [(0.0, False), (0.5, False), (0.0, True), (0.5, True)])
def test_blind38_rmsprop_builds_the_slots_its_options_need(tf, keras, momentum, centered):
    """RMSprop.build (Keras 3.15): a velocity per variable always, a momentum per variable only when momentum > 0,
    an average_gradient per variable only when centered, after iteration and learning_rate in that order."""
    v = tf.Variable([1.0, 2.0])
    opt = keras.optimizers.RMSprop(momentum=momentum, centered=centered)
    opt.build([v])
    got = [x.path.split("/")[-1] for x in opt.variables]
    want = ["iteration", "learning_rate", "Variable_0_velocity"] + (["Variable_0_momentum"] if momentum > 0 else []) \
        + (["Variable_0_average_gradient"] if centered else [])
    assert got == want, f"RMSprop(momentum={momentum}, centered={centered}) variables: expected {want}, got {got}"


# -- EarlyStopping's missing-metric warning ---------------------------------------------------------------------------
@clause("keras.callback.early-stopping", ref="tf221")
@pytest.mark.parametrize("logs", [{"loss": 1.0, "mae": 2.0}, {"loss": 1.0}, {}, None, {"foo": 3.0}])
def test_blind38_early_stopping_names_the_available_metrics(keras, logs):
    """EarlyStopping.get_monitor_value(logs) (Keras 3.15): the monitored value, or None with a UserWarning
    "Early stopping conditioned on metric `M` which is not available. Available metrics are: K1,K2" (the keys joined
    by a bare comma; empty for no logs)."""
    import warnings
    es = keras.callbacks.EarlyStopping(monitor="foo")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = es.get_monitor_value(logs)
    messages = [str(w.message) for w in caught if "Early stopping conditioned" in str(w.message)]
    if logs and "foo" in logs:
        assert got == logs["foo"] and not messages, f"logs {logs}: expected {logs['foo']} and no warning, got {got}, " \
                                                    f"{messages}"
        return
    want = ("Early stopping conditioned on metric `foo` which is not available. Available metrics are: "
            + ",".join(logs or {}))
    assert got is None and messages == [want], f"logs {logs}: expected None and [{want!r}], got {got}, {messages}"


# -- BackupAndRestore's save_freq: "epoch" or an int (a bool is an int) -----------------------------------------------
@clause("keras.backup-and-restore.resume", ref="tf221")
@pytest.mark.parametrize("save_freq, ok", [(False, True), (True, True), (0, True), (5, True), ("epoch", True),
                                           ("batch", False), (1.5, False)])
def test_blind38_backup_and_restore_save_freq_values(keras, tmp_path, save_freq, ok):
    """BackupAndRestore(backup_dir, save_freq) (Keras 3.15) accepts "epoch" and any int, bools included (False, as
    its docstring offers, and True pass the isinstance(int) check) and keeps the value; anything else is
    ValueError "Invalid value for argument `save_freq`. Received: save_freq=S. Expected either 'epoch' or an
    integer value."."""
    if ok:
        cb = keras.callbacks.BackupAndRestore(str(tmp_path / "bk"), save_freq=save_freq)
        assert cb.save_freq is save_freq or cb.save_freq == save_freq, f"save_freq={save_freq!r}: got {cb.save_freq!r}"
        return
    with pytest.raises(ValueError) as e:
        keras.callbacks.BackupAndRestore(str(tmp_path / "bk"), save_freq=save_freq)
    want = (f"Invalid value for argument `save_freq`. Received: save_freq={save_freq}. Expected either 'epoch' or an "
            "integer value.")
    assert want in str(e.value), f"save_freq={save_freq!r}: expected {want!r} in {str(e.value)!r}"
