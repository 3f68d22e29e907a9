"""Gaps the fortieth blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is the
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
    assert want in str(e.value), f"{what}: expected {cls.__name__} with {want!r}, got {str(e.value)!r}"


# -- the closed ends of Keras's argument ranges ---------------------------------------------------------------------
_UNIT = "Expected a float value between 0 and 1. "


@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("name, arg, value, ok, want", [
    # 0 <= x <= 1, both ends accepted (Keras 3.15's Dropout, GaussianNoise, GaussianDropout)
    ("Dropout", "rate", 1.0, True, None), ("Dropout", "rate", 0.0, True, None),
    ("Dropout", "rate", 1.01, False, f"Invalid value received for argument `rate`. {_UNIT}Received: rate=1.01"),
    ("Dropout", "rate", -0.1, False, f"Invalid value received for argument `rate`. {_UNIT}Received: rate=-0.1"),
    ("GaussianNoise", "stddev", 1.0, True, None), ("GaussianNoise", "stddev", 0.0, True, None),
    ("GaussianNoise", "stddev", 1.5, False,
     f"Invalid value received for argument `stddev`. {_UNIT}Received: stddev=1.5"),
    ("GaussianDropout", "rate", 1.0, True, None),
    ("GaussianDropout", "rate", -0.5, False, f"Invalid value received for argument `rate`. {_UNIT}Received: rate=-0.5"),
    ("AlphaDropout", "rate", 1.0, True, None),
    ("AlphaDropout", "rate", 2.0, True, None),   # (tf.keras's is Keras's legacy AlphaDropout: rate unchecked)
    # ReLU: max_value / negative_slope / threshold >= 0, zero accepted
    ("ReLU", "max_value", 0.0, True, None), ("ReLU", "negative_slope", 0.0, True, None),
    ("ReLU", "threshold", 0.0, True, None),
    ("ReLU", "max_value", -1.0, False, "max_value of a ReLU layer cannot be a negative value. Received: max_value=-1.0"),
    ("ReLU", "negative_slope", -0.5, False,
     "negative_slope of a ReLU layer cannot be None or a negative value. Received: negative_slope=-0.5"),
    ("ReLU", "threshold", -0.5, False,
     "threshold of a ReLU layer cannot be None or a negative value. Received: threshold=-0.5"),
    ("LeakyReLU", "negative_slope", 0.0, True, None),
    # positive integers: 0 refused, 1 accepted
    ("UpSampling1D", "size", 1, True, None),
    ("UpSampling1D", "size", 0, False, "Argument `size` should be a positive integer. Received: size=0"),
    ("RepeatVector", "n", 1, True, None),
    ("RepeatVector", "n", 0, False, "Argument `n` should be a positive integer. Received: n=0"),
    ("Dense", "units", 1, True, None),
    ("Dense", "units", 0, False, "Received an invalid value for `units`, expected a positive integer. Received: units=0"),
    ("Dense", "units", -2, False,
     "Received an invalid value for `units`, expected a positive integer. Received: units=-2")])
def test_blind40_argument_ranges_at_their_ends(keras, name, arg, value, ok, want):
    """Keras 3.15's range checks at the closed ends: a rate or stddev in [0, 1] (0 and 1 accepted), a ReLU's
    max_value/negative_slope/threshold >= 0 (0 accepted), a size/n/units >= 1 (0 refused); outside, ValueError
    with Keras's text. An accepted value is kept as given."""
    if ok:
        layer = getattr(keras.layers, name)(**{arg: value})
        assert getattr(layer, arg) == value, f"{name}({arg}={value}).{arg}: got {getattr(layer, arg)!r}"
        return
    _raises(lambda: getattr(keras.layers, name)(**{arg: value}), ValueError, want, f"{name}({arg}={value})")


@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("x", [[-1.0, 0.0, 0.5, 2.0]])
@pytest.mark.parametrize("kwargs", [{"max_value": 0.0}, {"max_value": 1.0}, {"threshold": 0.0, "max_value": 0.5},
                                    {"negative_slope": 0.0, "max_value": 0.0}])
def test_blind40_relu_with_a_zero_bound(keras, x, kwargs):
    """ReLU(max_value=0) is all zeros: Keras's relu is min(max(x, threshold)... , max_value) with x < threshold
    scaled by negative_slope; computed here with NumPy."""
    t = kwargs.get("threshold", 0.0); s = kwargs.get("negative_slope", 0.0); m = kwargs.get("max_value")
    a = np.asarray(x, "float32")
    want = np.where(a >= t, a, s * (a - t))
    if m is not None:
        want = np.minimum(want, m)
    got = _np(keras.layers.ReLU(**kwargs)(np.asarray(x, "float32")))
    np.testing.assert_allclose(got, want, err_msg=f"ReLU({kwargs})({x})")


@clause("keras.layer.batchnorm", ref="tf221")
@pytest.mark.parametrize("clipping, want", [
    ({"dmax": 0}, None), ({"dmax": 0.0, "rmax": 1.0, "rmin": 1.0}, None), ({"rmax": 3.0, "rmin": 0.5}, None),
    ({"dmax": -1.0}, "dmax should be non-negative in the `renorm_clipping` argument."),
    ({"rmax": 0.5, "rmin": 1.0}, "rmax should be greater than rmin in the `renorm_clipping` argument."),
    ({"dmin": 1.0}, "Received invalid keys for `renorm_clipping` argument: {'dmin': 1.0}.")])
def test_blind40_batch_norm_renorm_clipping(keras, clipping, want):
    """BatchNormalization(renorm=True, renorm_clipping=...) (Keras 3.15): keys among rmax/rmin/dmax; rmax >= rmin
    (equal accepted); dmax >= 0 (0 accepted); otherwise ValueError with Keras's text."""
    if want is None:
        layer = keras.layers.BatchNormalization(renorm=True, renorm_clipping=clipping)
        assert layer.renorm_clipping == clipping, f"renorm_clipping={clipping}: kept {layer.renorm_clipping}"
        return
    _raises(lambda: keras.layers.BatchNormalization(renorm=True, renorm_clipping=clipping), ValueError, want,
            f"BatchNormalization(renorm_clipping={clipping})")


@clause("optim.option-coverage", ref="tf221")
@pytest.mark.parametrize("momentum, ok", [(0.0, True), (1.0, True), (0.5, True), (1, False), (0, False),
                                          (1.5, False), (-0.1, False), (np.float64(0.5), True)])
def test_blind40_sgd_momentum_is_a_float_in_zero_one(keras, momentum, ok):
    """SGD(momentum=m) (Keras 3.15): m must be a Python float (np.float64 is one) in [0, 1], ends included; an int
    (0 or 1 too) or a value outside is ValueError "`momentum` must be a float between [0, 1].\""""
    if ok:
        assert keras.optimizers.SGD(momentum=momentum).momentum == momentum
        return
    _raises(lambda: keras.optimizers.SGD(momentum=momentum), ValueError, "`momentum` must be a float between [0, 1].",
            f"SGD(momentum={momentum!r})")


@clause("optim.schedules", ref="tf221")
@pytest.mark.parametrize("name, args, arg", [
    ("ExponentialDecay", {"initial_learning_rate": 0.1, "decay_rate": 0.5}, "decay_steps"),
    ("PolynomialDecay", {"initial_learning_rate": 0.1}, "decay_steps"),
    ("InverseTimeDecay", {"initial_learning_rate": 0.1, "decay_rate": 0.5}, "decay_steps"),
    ("CosineDecay", {"initial_learning_rate": 0.1}, "decay_steps"),
    ("CosineDecayRestarts", {"initial_learning_rate": 0.1}, "first_decay_steps")])
@pytest.mark.parametrize("steps", [0, -3, 1])
def test_blind40_schedule_steps_must_be_positive(keras, name, args, arg, steps):
    """Every decaying schedule refuses decay_steps (first_decay_steps) <= 0 when made (Keras 3.15): ValueError
    "Argument `ARG` must be > 0. Received: ARG=V"; 1 is accepted."""
    make = lambda: getattr(keras.optimizers.schedules, name)(**args, **{arg: steps})   # noqa: E731
    if steps > 0:
        assert getattr(make(), arg) == steps
        return
    _raises(make, ValueError, f"Argument `{arg}` must be > 0. Received: {arg}={steps}", f"{name}({arg}={steps})")


# -- shapes at their edges ------------------------------------------------------------------------------------------
@clause("keras.layer.upsampling-padding", ref="tf221")
@pytest.mark.parametrize("name, cropping, shape, ok", [
    ("Cropping1D", (2, 3), (None, 5, 4), False), ("Cropping1D", (2, 2), (None, 5, 4), True),
    ("Cropping1D", (0, 5), (None, 5, 4), False), ("Cropping1D", 3, (None, 5, 4), False),
    ("Cropping1D", (1, 1), (None, None, 4), True),
    ("Cropping2D", ((1, 2), (0, 0)), (None, 3, 4, 2), False), ("Cropping2D", ((1, 1), (0, 3)), (None, 3, 4, 2), True),
    ("Cropping2D", ((0, 0), (2, 2)), (None, 3, 4, 2), False),
    ("Cropping3D", ((1, 1), (0, 0), (0, 0)), (None, 2, 3, 3, 1), False),
    ("Cropping3D", ((0, 0), (1, 1), (1, 0)), (None, 2, 3, 3, 1), True)])
def test_blind40_cropping_must_leave_a_step(keras, name, cropping, shape, ok):
    """The cropping layers' compute_output_shape (channels_last) refuses a cropping whose sum reaches a known spatial
    length, the whole length included (ValueError); a smaller one leaves length - sum, an unknown length stays
    None (Keras 3.15 cropping1d/2d/3d.py)."""
    layer = getattr(keras.layers, name)(cropping)
    if not ok:
        with pytest.raises(ValueError):
            layer.compute_output_shape(shape)
        return
    crops = [cropping] if name == "Cropping1D" else list(cropping)
    crops = [c if isinstance(c, tuple) else (c, c) for c in crops]
    want = (shape[0],) + tuple(None if d is None else d - sum(c) for d, c in zip(shape[1:-1], crops)) + (shape[-1],)
    got = tuple(layer.compute_output_shape(shape))
    assert got == want, f"{name}({cropping}).compute_output_shape({shape}): expected {want}, got {got}"


@clause("keras.layer.conv-family.arguments", ref="tf221")
@pytest.mark.parametrize("name, kwargs, ok", [
    ("Conv2D", {"strides": (1, 2), "dilation_rate": (2, 1)}, False),
    ("Conv2D", {"strides": (2, 1), "dilation_rate": (1, 2)}, False),
    ("Conv2D", {"strides": (2, 1), "dilation_rate": (2, 1)}, False),
    ("Conv2D", {"strides": (1, 1), "dilation_rate": (2, 3)}, True),
    ("Conv2D", {"strides": (2, 3), "dilation_rate": (1, 1)}, True),
    ("Conv1D", {"strides": 2, "dilation_rate": 2}, False),
    ("Conv3D", {"strides": (1, 1, 2), "dilation_rate": (2, 1, 1)}, False),
    ("Conv2DTranspose", {"strides": (1, 2), "dilation_rate": (2, 1)}, False),
    ("SeparableConv2D", {"strides": (1, 2), "dilation_rate": (2, 1)}, True),
    ("DepthwiseConv2D", {"strides": (1, 2), "dilation_rate": (2, 1)}, True)])
def test_blind40_strides_with_dilation_on_any_axes(keras, name, kwargs, ok):
    """A convolution refuses strides > 1 on any axis together with dilation_rate > 1 on any axis, not only the same
    one (Keras 3.15 BaseConv: `max(strides) > 1 and max(dilation_rate) > 1`): ValueError "`strides > 1` not
    supported in conjunction with `dilation_rate > 1`. Received: strides=S and dilation_rate=D" (Conv1D/2D/3D and the
    transposed convolutions). SeparableConv2D and DepthwiseConv2D have their own base without that check and accept
    both (TF 2.21 observed)."""
    args = {} if name == "DepthwiseConv2D" else {"filters": 2}
    make = lambda: getattr(keras.layers, name)(kernel_size=2, **args, **kwargs)   # noqa: E731
    if ok:
        layer = make()
        assert tuple(layer.strides) == tuple(np.broadcast_to(kwargs["strides"], len(layer.strides)))
        return
    layer_rank = len(np.atleast_1d(kwargs["strides"]))
    s = tuple(np.broadcast_to(kwargs["strides"], layer_rank).tolist())
    d = tuple(np.broadcast_to(kwargs["dilation_rate"], layer_rank).tolist())
    _raises(make, ValueError, f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
            f"strides={s} and dilation_rate={d}", f"{name}({kwargs})")


def _grouped_conv_numpy(x, k, groups):
    """channels_last, stride 1, 'valid': each group of in/groups channels convolved with its filters/groups."""
    n, *sp, cin = x.shape
    *ks, cg, f = k.shape
    fg = f // groups
    out_sp = [s - kk + 1 for s, kk in zip(sp, ks)]
    out = np.zeros([n, *out_sp, f], "float64")
    for idx in np.ndindex(*out_sp):
        win = x[(slice(None),) + tuple(slice(i, i + kk) for i, kk in zip(idx, ks))]   # n, *ks, cin
        for g in range(groups):
            xs = win[..., g * cg:(g + 1) * cg].reshape(n, -1)
            ws = k[..., g * fg:(g + 1) * fg].reshape(-1, fg)
            out[(slice(None),) + idx + (slice(g * fg, (g + 1) * fg),)] = xs @ ws
    return out


@clause("keras.layer.conv-family.arguments", ref="tf221")
@pytest.mark.parametrize("name, shape, kernel_size", [("Conv1D", (2, 5, 4), 2), ("Conv2D", (1, 4, 3, 4), (2, 2)),
                                                      ("Conv2D", (1, 3, 3, 6), 1)])
@pytest.mark.parametrize("groups", [1, 2])
def test_blind40_grouped_convolution_kernel_and_values(keras, name, shape, kernel_size, groups):
    """Conv(groups=g)'s kernel has shape kernel_size + (in_channels // g, filters) and each group of in/g channels
    is convolved with its filters/g filters (NumPy's per-group product here)."""
    filters = 4
    layer = getattr(keras.layers, name)(filters, kernel_size, groups=groups, use_bias=False)
    x = (np.arange(np.prod(shape)).reshape(shape) % 7 - 3).astype("float32")
    y = _np(layer(x))
    ks = tuple(np.broadcast_to(kernel_size, len(shape) - 2).tolist())
    want_shape = ks + (shape[-1] // groups, filters)
    k = _np(layer.kernel)
    assert k.shape == want_shape, f"{name}(groups={groups}) on {shape}: kernel {k.shape}, expected {want_shape}"
    np.testing.assert_allclose(y, _grouped_conv_numpy(x.astype("float64"), k.astype("float64"), groups),
                               rtol=1e-5, atol=1e-5, err_msg=f"{name}(groups={groups}) values")


@clause("keras.layer.pooling.window", ref="tf221")
@pytest.mark.parametrize("name, pool_size", [("MaxPooling2D", (0, 2)), ("AveragePooling2D", (2, 0)),
                                             ("MaxPooling1D", 0), ("AveragePooling3D", (1, 0, 1)),
                                             ("MaxPooling3D", 0)])
def test_blind40_pool_size_must_be_positive(keras, name, pool_size):
    """A pooling layer's pool_size entries must be > 0 (Keras 3.15 standardize_tuple without allow_zero): ValueError
    naming the values that do not satisfy `value > 0`."""
    n = int(name[-2])
    given = pool_size if isinstance(pool_size, tuple) else (pool_size,) * n
    with pytest.raises(ValueError) as e:
        getattr(keras.layers, name)(pool_size=pool_size)
    want = f"The `pool_size` argument must be a tuple of {n} integers. Received pool_size={pool_size}"
    if isinstance(pool_size, tuple):
        want += ", including values {0} that do not satisfy `value > 0`"
    assert want in str(e.value), f"{name}(pool_size={pool_size}): expected {want!r} in {str(e.value)!r}"
    assert given   # (the tuple Keras reports is the argument as given)


@clause("keras.layer.pooling.global", ref="tf221")
@pytest.mark.parametrize("name, shape", [("GlobalMaxPooling1D", (2, 3, 4)), ("GlobalAveragePooling1D", (2, 3, 4)),
                                         ("GlobalMaxPooling2D", (2, 3, 2, 4)), ("GlobalAveragePooling2D", (2, 3, 2, 4)),
                                         ("GlobalMaxPooling3D", (1, 2, 3, 2, 4)),
                                         ("GlobalAveragePooling3D", (1, 2, 3, 2, 4))])
@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
@pytest.mark.parametrize("keepdims", [False, True])
def test_blind40_global_pooling_keepdims_called_and_shape(keras, name, shape, data_format, keepdims):
    """Global pooling over the spatial axes (1..n channels_last, 2..n+1 channels_first), keeping them as 1s with
    keepdims=True: the called value equals NumPy's max/mean and compute_output_shape equals its shape."""
    x = (np.arange(np.prod(shape)).reshape(shape) % 11 - 5).astype("float32")
    axes = tuple(range(1, len(shape) - 1)) if data_format == "channels_last" else tuple(range(2, len(shape)))
    want = (np.max if "Max" in name else np.mean)(x, axis=axes, keepdims=keepdims)
    layer = getattr(keras.layers, name)(data_format=data_format, keepdims=keepdims)
    got = _np(layer(x))
    assert got.shape == want.shape, f"{name}({data_format}, keepdims={keepdims}): shape {got.shape}, want {want.shape}"
    np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=f"{name}({data_format}, keepdims={keepdims})")
    sym = tuple(layer.compute_output_shape((None,) + shape[1:]))
    assert sym == (None,) + want.shape[1:], f"{name}.compute_output_shape: {sym}, expected {(None,) + want.shape[1:]}"


@clause("keras.layer.layernorm", ref="tf221")
@pytest.mark.parametrize("name", ["LayerNormalization", "BatchNormalization"])
@pytest.mark.parametrize("axis, ok", [(3, False), (2, True), (-3, True), (-4, False), (5, False), (0, True)])
def test_blind40_normalization_axis_within_the_rank(keras, name, axis, ok):
    """LayerNormalization / BatchNormalization .compute_output_shape(shape) of rank r accepts -r <= axis < r and
    returns the shape; an axis equal to r (or beyond, or below -r) is ValueError "Axis A is out of bounds for input
    shape S. Received: axis=A" (Keras 3.15)."""
    shape = (2, 3, 4)
    layer = getattr(keras.layers, name)(axis=axis)
    if ok:
        assert tuple(layer.compute_output_shape(shape)) == shape
        return
    _raises(lambda: layer.compute_output_shape(shape), ValueError,
            f"Axis {axis} is out of bounds for input shape {shape}. Received: axis={axis}", f"{name}(axis={axis})")


# -- Bidirectional: the two layers must agree; the states of both are listed ------------------------------------
@clause("keras.rnn.bidirectional", ref="tf221")
@pytest.mark.parametrize("attr", ["return_state", "return_sequences", "stateful"])
@pytest.mark.parametrize("cell", ["LSTM", "GRU", "SimpleRNN"])
def test_blind40_bidirectional_layers_must_agree(keras, attr, cell):
    """Bidirectional(forward, backward_layer=backward) refuses layers whose stateful / return_sequences /
    return_state differ (Keras 3.15 `_verify_layer_config`): ValueError 'Forward layer and backward layer are
    expected to have the same value for attribute "ATTR", got "F" for forward layer and "B" for backward layer'."""
    fwd = getattr(keras.layers, cell)(3, **{attr: True})
    bwd = getattr(keras.layers, cell)(3, go_backwards=True, **{attr: False})
    want = (f'Forward layer and backward layer are expected to have the same value for attribute "{attr}", got '
            '"True" for forward layer and "False" for backward layer')
    _raises(lambda: keras.layers.Bidirectional(fwd, backward_layer=bwd), ValueError, want, f"{cell} {attr}")
    same = getattr(keras.layers, cell)(3, go_backwards=True, **{attr: True})
    assert keras.layers.Bidirectional(fwd, backward_layer=same).backward_layer is not None


@clause("keras.rnn.bidirectional", ref="tf221")
@pytest.mark.parametrize("cell, n_states", [("LSTM", 2), ("GRU", 1), ("SimpleRNN", 1)])
@pytest.mark.parametrize("merge_mode", ["concat", "sum", "mul", "ave", None])
@pytest.mark.parametrize("return_state", [True, False])
@pytest.mark.parametrize("return_sequences", [True, False])
def test_blind40_bidirectional_output_shape_matches_its_call(keras, cell, n_states, merge_mode, return_state,
                                                             return_sequences):
    """Bidirectional.compute_output_shape lists the merged output (two outputs with merge_mode=None), then the
    forward layer's states and the backward layer's states (2 x n_states with return_state), and equals the shapes
    of the called outputs (units 3, 'concat' doubling the last axis)."""
    x = (np.arange(2 * 5 * 2).reshape(2, 5, 2) % 5 / 5.0).astype("float32")
    layer = keras.layers.Bidirectional(getattr(keras.layers, cell)(3, return_state=return_state,
                                                                   return_sequences=return_sequences),
                                       merge_mode=merge_mode)
    out = layer(x)
    called = [tuple(_np(t).shape) for t in (out if isinstance(out, (list, tuple)) else [out])]
    units = 6 if merge_mode == "concat" else 3
    merged = (2, 5, units) if return_sequences else (2, units)
    want = [merged] * (2 if merge_mode is None else 1) + [(2, 3)] * (2 * n_states if return_state else 0)
    assert called == want, f"called {cell} merge_mode={merge_mode} return_state={return_state}: {called}, want {want}"
    shape = layer.compute_output_shape((2, 5, 2))
    listed = [tuple(s) for s in shape] if isinstance(shape[0], (tuple, list)) else [tuple(shape)]
    assert listed == want, f"compute_output_shape {cell} merge_mode={merge_mode} return_state={return_state}: " \
                           f"{listed}, want {want}"


# -- Attention masks and merge input counts -------------------------------------------------------------------------
@clause("keras.mask.propagation", ref="tf221")
@pytest.mark.parametrize("name", ["Attention", "AdditiveAttention"])
@pytest.mark.parametrize("n_masks", [1, 4, 2, 3])
def test_blind40_attention_mask_list_of_two_or_three(keras, name, n_masks):
    """Attention/AdditiveAttention take a mask list of 2 or 3 entries (query, value[, key]); 1 or 4 is ValueError
    "NAME layer accepts mask list of length 2 or 3." (Keras 3.15 `_validate_inputs`). With 2 or 3 masks, a
    masked value step gets no weight: the output for the query rows equals the output with that step dropped."""
    q = (np.arange(6).reshape(1, 2, 3) / 6.0).astype("float32")
    v = (np.arange(12).reshape(1, 4, 3) % 5 / 5.0).astype("float32")
    masks = [np.array([[True, True]]), np.array([[True, True, False, True]])]
    if n_masks == 3:
        masks.append(np.array([[True, True, False, True]]))
    if n_masks in (1, 4):
        given = masks[:1] if n_masks == 1 else masks + [masks[1], masks[1]]
        _raises(lambda: getattr(keras.layers, name)()([q, v], mask=given), ValueError,
                f"{name} layer accepts mask list of length 2 or 3.", f"{name} with {n_masks} masks")
        return
    inputs = [q, v] if n_masks == 2 else [q, v, v]
    layer = getattr(keras.layers, name)()
    got = _np(layer(inputs, mask=masks))
    kept = np.delete(v, 2, axis=1)
    want = _np(layer([q, kept] if n_masks == 2 else [q, kept, kept]))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6, err_msg=f"{name} with a masked value step")


@clause("keras.mask.propagation", ref="tf221")
@pytest.mark.parametrize("n", [1, 3])
def test_blind40_subtract_takes_exactly_two_inputs(keras, n):
    """Subtract refuses any number of inputs but 2 when built from shapes, symbolically and when called
    (Keras 3.15: ValueError "A `Subtract` layer should be called on exactly 2 inputs")."""
    want = "A `Subtract` layer should be called on exactly 2 inputs"
    _raises(lambda: keras.layers.Subtract().build([(None, 2)] * n), ValueError, want, f"build with {n} shapes")
    _raises(lambda: keras.layers.Subtract()([keras.Input((2,)) for _ in range(n)]), ValueError, want,
            f"symbolic call with {n} inputs")
    _raises(lambda: keras.layers.Subtract()([np.ones((1, 2), "float32")] * n), ValueError, want,
            f"eager call with {n} inputs")
    got = _np(keras.layers.Subtract()([np.full((1, 2), 5.0, "float32"), np.ones((1, 2), "float32")]))
    np.testing.assert_array_equal(got, np.full((1, 2), 4.0, "float32"))


# -- losses' and metrics' options reach their functions ----------------------------------------------------------
_YT = np.array([[[1.0, 0.0], [0.5, 1.0], [2.0, 1.0]], [[0.0, 1.0], [1.0, 1.0], [3.0, -1.0]]], "float32")
_YP = np.array([[[1.0, 2.0], [3.0, 1.0], [0.0, 1.0]], [[2.0, 1.0], [-1.0, 0.5], [1.0, 1.0]]], "float32")


def _cos(a, b, axis):
    na = a / np.maximum(np.linalg.norm(a, axis=axis, keepdims=True), 1e-12)
    nb = b / np.maximum(np.linalg.norm(b, axis=axis, keepdims=True), 1e-12)
    return np.sum(na * nb, axis=axis)


@clause("keras.loss.option-coverage", ref="tf221")
@pytest.mark.parametrize("axis", [-1, 1, 2, 0])
def test_blind40_cosine_similarity_axis(keras, axis):
    """keras.losses.CosineSimilarity(axis=a), keras.losses.cosine_similarity(..., axis=a) and
    keras.metrics.CosineSimilarity(axis=a) all normalize and sum along axis a (the loss is the negative mean, the
    metric the positive mean); NumPy's l2-normalized product here."""
    c = _cos(_YT.astype("float64"), _YP.astype("float64"), axis)
    loss = float(_np(keras.losses.CosineSimilarity(axis=axis)(_YT, _YP)))
    np.testing.assert_allclose(loss, -np.mean(c), rtol=1e-5, err_msg=f"losses.CosineSimilarity(axis={axis})")
    fn = _np(keras.losses.cosine_similarity(_YT, _YP, axis=axis))
    np.testing.assert_allclose(fn, -c, rtol=1e-5, err_msg=f"losses.cosine_similarity(axis={axis})")
    m = keras.metrics.CosineSimilarity(axis=axis)
    m.update_state(_YT, _YP)
    np.testing.assert_allclose(float(_np(m.result())), np.mean(c), rtol=1e-5,
                               err_msg=f"metrics.CosineSimilarity(axis={axis})")


@clause("keras.loss.option-coverage", ref="tf221")
@pytest.mark.parametrize("delta", [0.5, 1.0, 2.5, 0.1])
def test_blind40_huber_delta(keras, delta):
    """keras.losses.Huber(delta=d) and keras.losses.huber(..., delta=d): the mean over the last axis of 0.5 e^2
    where |e| <= d, else d |e| - 0.5 d^2 (e = y_pred - y_true), then the batch mean (NumPy here)."""
    e = np.abs(_YP.astype("float64") - _YT.astype("float64"))
    per = np.mean(np.where(e <= delta, 0.5 * e ** 2, delta * e - 0.5 * delta ** 2), axis=-1)
    np.testing.assert_allclose(float(_np(keras.losses.Huber(delta=delta)(_YT, _YP))), np.mean(per), rtol=1e-5,
                               err_msg=f"losses.Huber(delta={delta})")
    np.testing.assert_allclose(_np(keras.losses.huber(_YT, _YP, delta=delta)), per, rtol=1e-5,
                               err_msg=f"losses.huber(delta={delta})")


@clause("keras.metric.top-k", ref="tf221")
@pytest.mark.parametrize("k", [1, 2, 3, 5])
def test_blind40_top_k_accuracy_k(keras, k):
    """TopKCategoricalAccuracy(k) / SparseTopKCategoricalAccuracy(k): the share of rows whose label is among the
    k highest predictions (distinct scores here; NumPy's argsort)."""
    pred = np.array([[0.1, 0.5, 0.4, 0.0], [0.2, 0.7, 0.05, 0.05 + 1e-3], [0.3, 0.1, 0.2, 0.4],
                     [0.25, 0.35, 0.3, 0.1]], "float32")
    labels = np.array([2, 3, 1, 0])
    top = np.argsort(-pred, axis=1)[:, :k]
    want = float(np.mean([labels[i] in top[i] for i in range(len(labels))]))
    m = keras.metrics.TopKCategoricalAccuracy(k=k)
    m.update_state(np.eye(4, dtype="float32")[labels], pred)
    assert float(_np(m.result())) == pytest.approx(want), f"TopKCategoricalAccuracy(k={k})"
    s = keras.metrics.SparseTopKCategoricalAccuracy(k=k)
    s.update_state(labels, pred)
    assert float(_np(s.result())) == pytest.approx(want), f"SparseTopKCategoricalAccuracy(k={k})"


@clause("keras.metric.update-result-reset", ref="tf221")
@pytest.mark.parametrize("name, args", [("Mean", ()), ("Sum", ()), ("MeanSquaredError", ()),
                                        ("MeanAbsoluteError", ()), ("RootMeanSquaredError", ()), ("Accuracy", ()),
                                        ("BinaryCrossentropy", ()), ("MeanMetricWrapper", ("mse",))])
def test_blind40_reduction_metrics_before_any_update_are_zero(keras, name, args):
    """A mean metric's result with nothing counted (before any update, after reset_state, or with all sample
    weights 0) is 0.0, not NaN (Keras 3.15 Mean.result: divide_no_nan(total, count))."""
    if name == "MeanMetricWrapper":
        m = keras.metrics.MeanMetricWrapper(fn=keras.losses.get(args[0]))
    else:
        m = getattr(keras.metrics, name)(*args)
    assert float(_np(m.result())) == 0.0, f"{name}: result before any update {float(_np(m.result()))}"
    if name in ("Mean", "Sum"):
        m.update_state([1.0, 3.0])
        m.reset_state()
        m.update_state([2.0, 4.0], sample_weight=[0.0, 0.0])
    else:
        m.update_state([[1.0], [0.0]], [[0.5], [0.25]])
        m.reset_state()
        m.update_state([[1.0], [0.0]], [[0.5], [0.25]], sample_weight=[0.0, 0.0])
    assert float(_np(m.result())) == 0.0, f"{name}: result with zero weights {float(_np(m.result()))}"


def _iou_numpy(t, p, n, ids):
    cm = np.zeros((n, n))
    for a, b in zip(t, p):
        cm[a, b] += 1
    tp = np.diag(cm); row = cm.sum(axis=1); col = cm.sum(axis=0)
    den = (row + col - tp)[ids]
    iou = np.where(den > 0, tp[ids] / np.where(den > 0, den, 1), 0.0)
    valid = np.sum(den != 0)
    return float(np.sum(iou) / valid) if valid else 0.0


@clause("keras.metric.iou", ref="tf221")
@pytest.mark.parametrize("n", [2, 3, 4])
def test_blind40_mean_iou_counts_every_class(keras, n):
    """MeanIoU(num_classes=n) averages the IoU of every class 0 .. n-1 whose union is not empty (Keras 3.15: the
    confusion matrix's tp / (row + col - tp) over the classes with a non-zero denominator); IoU(target_class_ids=
    all) equals it (NumPy's confusion matrix here)."""
    t = np.array([0, 1, 2, 2, 1, 0, 3, 3])[: 2 * n] % n
    p = np.array([0, 1, 1, 2, 0, 0, 3, 2])[: 2 * n] % n
    want = _iou_numpy(t, p, n, list(range(n)))
    m = keras.metrics.MeanIoU(num_classes=n)
    m.update_state(t, p)
    assert float(_np(m.result())) == pytest.approx(want, rel=1e-6), f"MeanIoU({n})"
    i = keras.metrics.IoU(num_classes=n, target_class_ids=list(range(n)))
    i.update_state(t, p)
    assert float(_np(i.result())) == pytest.approx(want, rel=1e-6), f"IoU({n}, all ids)"
    last = keras.metrics.IoU(num_classes=n, target_class_ids=[n - 1])
    last.update_state(t, p)
    assert float(_np(last.result())) == pytest.approx(_iou_numpy(t, p, n, [n - 1]), rel=1e-6), f"IoU({n}, [{n - 1}])"


@clause("keras.metric.iou", ref="tf221")
@pytest.mark.parametrize("axis", [0, -1])
@pytest.mark.parametrize("name", ["OneHotIoU", "OneHotMeanIoU"])
def test_blind40_one_hot_iou_axis(keras, axis, name):
    """OneHotIoU / OneHotMeanIoU(axis=a) take the argmax of y_true and y_pred along axis a (the class axis), then
    score them as IoU of classes [0, 1] (NumPy's argmax and confusion matrix here). (axis=1 of a 2-D batch is
    InvalidArgumentError on TF 2.21: Keras's update_state reduces the argmaxed labels along the same axis.)"""
    yt = np.array([[1, 0, 1], [0, 1, 0]], "float32")
    yp = np.array([[0.9, 0.2, 0.3], [0.1, 0.8, 0.7]], "float32")
    if axis != 0:
        yt, yp = yt.T.copy(), yp.T.copy()
    t = np.argmax(yt, axis=axis); p = np.argmax(yp, axis=axis)
    want = _iou_numpy(t, p, 2, [0, 1])
    kw = {"target_class_ids": [0, 1]} if name == "OneHotIoU" else {}
    m = getattr(keras.metrics, name)(num_classes=2, axis=axis, **kw)
    m.update_state(yt, yp)
    assert float(_np(m.result())) == pytest.approx(want, rel=1e-6), f"{name}(axis={axis})"


# -- optimizers: the slots' initial values and dtypes ---------------------------------------------------------------
def _slots(opt, word):
    return [v for v in opt.variables if word in v.name]


@clause("optim.update-rules", ref="tf221")
@pytest.mark.parametrize("init", [0.1, 0.5, 2.0])
@pytest.mark.parametrize("power", [-0.5, -1.0])
def test_blind40_ftrl_slots_start_and_one_step(tf, keras, init, power):
    """Ftrl's accumulators start at initial_accumulator_value and its linear slots at 0 (Keras 3.15 build), and one
    step follows Keras's update_step (l1 = l2 = shrinkage = beta = 0): new_accum = accum + g^2, linear += g -
    (new_accum^-p - accum^-p) / lr * var, var = (clip(linear, 0, 0) - linear) / (new_accum^-p / lr)."""
    var = tf.Variable([1.0, -2.0, 0.5])
    opt = keras.optimizers.Ftrl(learning_rate=0.1, initial_accumulator_value=init, learning_rate_power=power)
    opt.build([var])
    np.testing.assert_allclose(_np(_slots(opt, "accumulator")[0]), [init] * 3, err_msg="accumulators at build")
    np.testing.assert_allclose(_np(_slots(opt, "linear")[0]), [0.0] * 3, err_msg="linear slots at build")
    g = np.array([0.5, -0.25, 1.0])
    opt.apply_gradients([(tf.constant(g, "float32"), var)])
    v0 = np.array([1.0, -2.0, 0.5]); lr = 0.1; p = power
    new_acc = init + g ** 2
    linear = g - (new_acc ** -p - init ** -p) / lr * v0
    want = (0.0 - linear) / (new_acc ** -p / lr)
    np.testing.assert_allclose(_np(var), want, rtol=1e-5, err_msg=f"Ftrl(init={init}, power={power}) one step")
    np.testing.assert_allclose(_np(_slots(opt, "accumulator")[0]), new_acc, rtol=1e-6, err_msg="accumulators")
    np.testing.assert_allclose(_np(_slots(opt, "linear")[0]), linear, rtol=1e-5, err_msg="linear slots")


@clause("optim.update-rules", ref="tf221")
@pytest.mark.parametrize("name, kwargs", [("Nadam", {}), ("Adam", {}), ("Adam", {"amsgrad": True}), ("Adamax", {}),
                                          ("Lion", {}), ("Ftrl", {}), ("Adagrad", {}), ("RMSprop", {"momentum": 0.5}),
                                          ("Adadelta", {}), ("Lamb", {}), ("SGD", {"momentum": 0.5})])
def test_blind40_optimizer_state_of_a_float64_variable_is_float64(tf, keras, name, kwargs):
    """An optimizer built on a float64 variable makes every per-variable state float64, the variable's dtype
    (Nadam's u_product scalar included: Keras 3.15 makes it in var_list[0].dtype), its iterations int64 and its
    learning rate float32; one step keeps the variable float64."""
    var = tf.Variable(np.array([1.0, 2.0]), dtype=tf.float64)
    opt = getattr(keras.optimizers, name)(learning_rate=0.1, **kwargs)
    opt.apply_gradients([(tf.constant([0.5, -0.5], tf.float64), var)])
    for v in opt.variables:
        dtype = v.dtype if isinstance(v.dtype, str) else v.dtype.name
        want = {"iteration": "int64", "learning_rate": "float32"}.get(v.name, "float64")
        assert dtype == want, f"{name}{kwargs}: variable {v.name!r} is {dtype}, expected {want}"
    assert (var.dtype if isinstance(var.dtype, str) else var.dtype.name) == "float64"


# -- callbacks ------------------------------------------------------------------------------------------------------
@clause("keras.callback.csv-logger", ref="tf221")
@pytest.mark.parametrize("value, text", [([1, 2], '"""[1, 2]"""'), ((0.5, 3), '"""[0.5, 3]"""'),
                                         (np.array([1.5, 2.0]), '"""[1.5, 2.0]"""'), ([], '"""[]"""'),
                                         (np.array(2.5), "2.5"), ("word", "word"), (0.25, "0.25")])
def test_blind40_csv_logger_writes_each_kind_of_value(keras, tmp_path, value, text):
    """CSVLogger's row values (Keras 3.15 handle_value): a string as is; an iterable (not a 0-d array) as
    "[a, b]" (", " between the str() of its items), which the csv module quotes with its quotes doubled; anything
    else as the csv module writes it; a key missing from the first epoch's logs is "NA"."""
    path = tmp_path / "log.csv"
    cb = keras.callbacks.CSVLogger(str(path))
    cb.on_train_begin()
    cb.on_epoch_end(0, {"a": value, "b": 1.0})
    cb.on_train_end()
    want = f"epoch,a,b,val_a,val_b\r\n0,{text},1.0,NA,NA\r\n"
    got = path.read_bytes().decode()
    assert got == want, f"CSVLogger row of {value!r}: expected {want!r}, got {got!r}"


@clause("keras.backup-and-restore.resume", ref="tf221")
@pytest.mark.parametrize("double", [True, False])
@pytest.mark.parametrize("epochs", [1, 2, 3])
def test_blind40_backup_double_checkpoint_keeps_the_previous_pair(keras, tmp_path, double, epochs):
    """BackupAndRestore(double_checkpoint=True, delete_checkpoint=False) keeps, beside latest.weights.h5 and
    training_metadata.json ({"epoch": e, "batch": 0} after epoch e), the previous epoch's pair as
    "<name>.bkp" (from the second save on); without double_checkpoint only the latest pair is written."""
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile("sgd", "mse")
    cb = keras.callbacks.BackupAndRestore(str(tmp_path), double_checkpoint=double, delete_checkpoint=False)
    model.fit(np.ones((4, 2), "float32"), np.ones((4, 1), "float32"), epochs=epochs, batch_size=2, callbacks=[cb],
              verbose=0)
    names = ["latest.weights.h5", "training_metadata.json"]
    want = sorted(names + ([n + ".bkp" for n in names] if double and epochs > 1 else []))
    assert sorted(p.name for p in tmp_path.iterdir()) == want
    import json
    assert json.loads((tmp_path / "training_metadata.json").read_text()) == {"epoch": epochs, "batch": 0}
    if double and epochs > 1:
        prev = json.loads((tmp_path / "training_metadata.json.bkp").read_text())
        assert prev == {"epoch": epochs - 1, "batch": 0}, f"the previous metadata: {prev}"


@clause("keras.callbacks.swap-ema-weights", ref="tf221")
@pytest.mark.parametrize("momentum", [0.5, 0.9])
def test_blind40_swap_ema_weights_exchanges_exactly(keras, momentum):
    """SwapEMAWeights() around evaluate/predict: inside, the model holds the EMA averages (the loss and predictions
    are those of the averages), afterwards the model weights and the averages are both back as they were (an exact
    exchange: NumPy's prediction x @ average here)."""
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, use_bias=False, kernel_initializer="ones")])
    model.compile(keras.optimizers.SGD(0.1, use_ema=True, ema_momentum=momentum), "mse")
    x = np.array([[1.0, 2.0], [0.5, -1.0]], "float32"); y = np.array([[0.0], [1.0]], "float32")
    model.fit(x, y, epochs=3, batch_size=2, verbose=0)
    w = _np(model.get_weights()[0]).copy()
    avg = _np([v for v in model.optimizer.variables if "average" in v.name][0]).copy()
    pred = _np(model.predict(x, verbose=0, callbacks=[keras.callbacks.SwapEMAWeights()]))
    np.testing.assert_allclose(pred, x @ avg, rtol=1e-5, err_msg="predictions inside the swap: x @ average")
    loss = model.evaluate(x, y, verbose=0, callbacks=[keras.callbacks.SwapEMAWeights()])
    np.testing.assert_allclose(loss, np.mean((x @ avg - y) ** 2), rtol=1e-5, err_msg="evaluate inside the swap")
    np.testing.assert_allclose(_np(model.get_weights()[0]), w, rtol=1e-6, err_msg="the weights after the swaps")
    avg_after = _np([v for v in model.optimizer.variables if "average" in v.name][0])
    np.testing.assert_allclose(avg_after, avg, rtol=1e-6, err_msg="the averages after the swaps")
