"""Gaps the forty-first blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is the
suite"): rules of the training layer (the trainer, gradients and the tape, tf.function, tf.data, checkpoints and
saving, distribution, random ops) that the suite stated for one spelling, one option value or one input only, or
never, so that a wrong implementation of the other case passed (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy or
plain Python (a transcription of TF's or Keras 3.15's rule), or is a relation TF's rule implies between two
spellings, never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest

from simdist.conformance.assertions import to_numpy as _np   # (an ndarray of any backend's value)

clause = pytest.mark.clause


# -- the trainer: a dataset of unknown cardinality learns its batch count in the first epoch -----------------------------
@clause("keras.fit.arguments", ref="tf221")
@pytest.mark.parametrize("samples", [6, 8])
@pytest.mark.parametrize("epochs", [1, 3])
def test_blind41_unknown_cardinality_epochs_warn_once(keras, tf, samples, epochs):
    """fit on a dataset whose cardinality is unknown (a filter) runs the whole dataset each epoch; Keras 3.15's epoch
    iterator learns the batch count from the first epoch's end (`_num_batches = _steps_seen`, the steps it started,
    one more than it ran: the step that found the end), so every later epoch also reaches the end and warns "Your
    input ran out of data" once per epoch; each epoch runs ceil(samples / 2) batches."""
    ds = tf.data.Dataset.from_tensor_slices((np.ones((samples, 2), "float32"), np.ones((samples, 1), "float32"))) \
        .filter(lambda x, y: True).batch(2)
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile("sgd", "mse")
    counts = []

    class Count(keras.callbacks.Callback):
        def on_epoch_begin(self, epoch, logs=None):
            counts.append(0)

        def on_train_batch_end(self, batch, logs=None):
            counts[-1] += 1

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.fit(ds, epochs=epochs, verbose=0, callbacks=[Count()])
    ran_out = sum("ran out of data" in str(w.message) for w in caught)
    want = [-(-samples // 2)] * epochs
    assert counts == want, f"batches per epoch: expected {want}, got {counts}"
    assert ran_out == epochs, f"'ran out of data' warnings: expected one per epoch ({epochs}), got {ran_out}"


# -- compile's loss_weights: a float, or a list, tuple or dict ------------------------------------------------------------
@clause("keras.fit.arguments", ref="tf221")
@pytest.mark.parametrize("weights", ["int 2", "float 2.0", "list", "tuple", "dict", "bool True", "str"])
def test_blind41_compile_loss_weights_types(keras, weights):
    """compile(loss_weights=w) (Keras 3.15 CompileLoss: `if loss_weights and not isinstance(loss_weights, (list,
    tuple, dict, float))`): a truthy value of another type — a Python int, True, a string — is ValueError "Expected
    `loss_weights` argument to be a float (single output case) or a list, tuple, or dict (multiple output case).";
    a float scales the single output's loss (evaluate: w * mse), a list, tuple or dict one weight per output."""
    value = {"int 2": 2, "float 2.0": 2.0, "list": [2.0], "tuple": (2.0,), "dict": {"out": 2.0}, "bool True": True,
             "str": "2"}[weights]
    i = keras.Input((2,))
    model = keras.Model(i, keras.layers.Dense(1, kernel_initializer="ones", name="out")(i))
    if weights in ("int 2", "bool True", "str"):
        with pytest.raises(ValueError, match="Expected `loss_weights` argument to be a float"):
            model.compile("sgd", "mse", loss_weights=value)
        return
    model.compile("sgd", "mse", loss_weights=value)
    x, y = np.ones((4, 2), "float32"), np.zeros((4, 1), "float32")
    got = model.evaluate(x, y, verbose=0)
    want = 2.0 * float(np.mean((x.sum(axis=1) - 0.0) ** 2))
    assert float(got) == pytest.approx(want, rel=1e-6), f"loss_weights={value!r}: expected loss {want}, got {got}"


# -- weighted metrics per output, and dict targets paired by output name ------------------------------------------------
@clause("keras.fit.arguments", ref="tf221")
@pytest.mark.parametrize("spelling", ["list of lists", "dict of lists", "dict of names"])
def test_blind41_weighted_metrics_per_output_use_the_sample_weights(keras, spelling):
    """weighted_metrics given per output (a list of lists, a dict of lists, a dict of names) are updated with each
    output's sample weights (Keras 3.15 MetricsList.update_state passes sample_weight to each metric): the weighted
    MAE of output a with weights [1, 0, 0, 0] is the first sample's error, of output b with [1, 2, 3, 4] the weighted
    mean; the losses are the mean squared errors weighted alike."""
    i = keras.Input((2,))
    a = keras.layers.Dense(1, kernel_initializer="ones", name="a")(i)
    b = keras.layers.Dense(1, kernel_initializer="zeros", name="b")(i)
    model = keras.Model(i, [a, b])
    wm = {"list of lists": [["mae"], ["mae"]], "dict of lists": {"a": ["mae"], "b": ["mae"]},
          "dict of names": {"a": "mae", "b": "mae"}}[spelling]
    model.compile("sgd", ["mse", "mse"], weighted_metrics=wm)
    x = np.arange(8, dtype="float32").reshape(4, 2)
    ya, yb = np.zeros((4, 1), "float32"), np.ones((4, 1), "float32")
    swa, swb = np.array([1, 0, 0, 0], "float32"), np.array([1, 2, 3, 4], "float32")
    got = model.evaluate(x, [ya, yb], sample_weight=[swa, swb], verbose=0, return_dict=True)
    pa, pb = x.sum(axis=1), np.zeros(4)
    wmean = lambda v, w: float(np.sum(v * w) / np.sum(w))
    want_mae = {"a_mae": wmean(np.abs(pa - ya[:, 0]), swa), "b_mae": wmean(np.abs(pb - yb[:, 0]), swb)}
    for k, v in want_mae.items():
        assert float(got[k]) == pytest.approx(v, rel=1e-6), f"{spelling}: {k} expected {v}, got {got[k]} (logs {got})"


@clause("keras.fit.arguments", ref="tf221")
@pytest.mark.parametrize("order", ["zz, aa", "aa, zz"])
def test_blind41_dict_targets_pair_with_the_output_names(keras, order):
    """A list-output model whose outputs are named out of alphabetical order, compiled with dict losses and metrics,
    takes dict targets by output name (Keras 3.15 CompileMetrics/CompileLoss read `y[name]` for each output name), not
    by sorted keys: each output's MAE and loss compare it with its own target."""
    i = keras.Input((2,))
    names = [n.strip() for n in order.split(",")]
    inits = {"zz": "ones", "aa": "zeros"}
    outs = [keras.layers.Dense(1, kernel_initializer=inits[n], name=n)(i) for n in names]
    model = keras.Model(i, outs)
    model.compile("sgd", {"zz": "mse", "aa": "mse"}, metrics={"zz": ["mae"], "aa": ["mae"]})
    x = np.ones((4, 2), "float32")
    targets = {"zz": np.full((4, 1), 2.0, "float32"), "aa": np.full((4, 1), 5.0, "float32")}
    preds = {"zz": x.sum(axis=1, keepdims=True), "aa": np.zeros((4, 1), "float32")}
    got = model.evaluate(x, targets, verbose=0, return_dict=True)
    for n in names:
        mae = float(np.mean(np.abs(preds[n] - targets[n])))
        mse = float(np.mean((preds[n] - targets[n]) ** 2))
        assert float(got[f"{n}_mae"]) == pytest.approx(mae), f"{order}: {n}_mae expected {mae}, got {got}"
        assert float(got[f"{n}_loss"]) == pytest.approx(mse), f"{order}: {n}_loss expected {mse}, got {got}"


# -- the arrays fit/evaluate/predict slice are cast to floatx -------------------------------------------------------------
@clause("keras.fit.arguments", ref="tf221")
@pytest.mark.parametrize("floatx", ["float32", "float64", "float16"])
@pytest.mark.parametrize("x_dtype", ["float64", "float32", "float16", "int32"])
def test_blind41_array_batches_are_cast_to_floatx(keras, floatx, x_dtype):
    """Keras 3.15's ArrayDataAdapter casts each float array whose dtype is not keras.config.floatx() to floatx
    (array_slicing.convert_to_sliceable, `is_non_floatx_float`), whatever floatx is; integer arrays keep their dtype:
    a predict_step returning its batch shows the dtype."""

    class Echo(keras.Model):
        def call(self, x):
            return x

        def predict_step(self, data):
            return data[0] if isinstance(data, tuple) else data

    old = keras.config.floatx()
    keras.config.set_floatx(floatx)
    try:
        got = Echo().predict(np.ones((2, 1), x_dtype), verbose=0)
    finally:
        keras.config.set_floatx(old)
    want = x_dtype if x_dtype == "int32" else floatx
    assert np.asarray(got).dtype.name == want, f"floatx {floatx}, x {x_dtype}: expected batches of {want}, got {np.asarray(got).dtype.name}"


# -- gradients -----------------------------------------------------------------------------------------------------------
@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("axis", [0, 1, -1, 2])
def test_blind41_unstack_gradient_stacks_along_the_axis(tf, axis):
    """The gradient of tf.unstack(x, axis=k) (Unpack) stacks the parts' upstream gradients along k: with part j
    weighted by j + 1, the gradient is j + 1 at every position whose index along k is j."""
    x = tf.constant(np.arange(24, dtype="float32").reshape(2, 3, 4))
    with tf.GradientTape() as tape:
        tape.watch(x)
        parts = tf.unstack(x, axis=axis)
        y = tf.add_n([p * float(j + 1) for j, p in enumerate(parts)])
    got = _np(tape.gradient(y, x))
    ax = axis % 3
    want = np.broadcast_to(np.arange(1, x.shape[ax] + 1, dtype="float32").reshape([-1 if d == ax else 1 for d in range(3)]), (2, 3, 4))
    np.testing.assert_array_equal(got, want, err_msg=f"d/dx of unstack(x, axis={axis}) parts weighted 1..n")


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("upstream", ["ones", "zero at the inf"])
def test_blind41_multiply_no_nan_gradients(tf, upstream):
    """MulNoNan's gradients (math_grad._MulNoNanGrad): d/dx = mul_no_nan(grad, y) and d/dy = mul_no_nan(x, grad),
    where mul_no_nan(a, b) is 0 where b is 0 (even for an infinite or NaN a) else a * b: an infinite x under a zero
    upstream gradient gives 0 for y, not NaN; a zero y gives 0 for x."""
    x = tf.constant([np.inf, 2.0, 3.0, 0.0])
    y = tf.constant([3.0, 0.0, 4.0, np.inf])
    g = np.array([1.0, 1.0, 1.0, 1.0], "float32") if upstream == "ones" else np.array([0.0, 1.0, 1.0, 0.0], "float32")
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, y])
        z = tf.math.multiply_no_nan(x, y)
    gx, gy = tape.gradient(z, [x, y], output_gradients=tf.constant(g))
    mnn = lambda a, b: np.where(b == 0, 0.0, a * b)
    with np.errstate(invalid="ignore"):
        want_x, want_y = mnn(g, _np(y)), mnn(_np(x), g)
    np.testing.assert_array_equal(_np(gx), want_x.astype("float32"), err_msg=f"d/dx, upstream {upstream}")
    np.testing.assert_array_equal(_np(gy), want_y.astype("float32"), err_msg=f"d/dy, upstream {upstream}")


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_blind41_elu_second_derivative(tf, dtype):
    """elu's second derivative through EluGrad's gradient (nn_grad._EluGradGrad: the gradient for the elu output is
    grad * dy where the output is < 0, else 0): exp(x) for x < 0, 0 for x >= 0 — 0 at x = 0 itself, where the
    output is exactly 0."""
    xs = np.array([0.0, -1.0, -0.5, 1.0, 2.0], dtype)
    x = tf.constant(xs)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = tf.nn.elu(x)
        g = t1.gradient(y, x)
    got = _np(t2.gradient(g, x))
    want = np.where(xs < 0, np.exp(xs), 0.0).astype(dtype)
    np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=f"elu'' at {xs.tolist()}")


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("data_format", ["NHWC", "NCHW", "N..C rank 3", "NC.. rank 3"])
def test_blind41_bias_add_gradient_sums_over_all_but_the_channels(tf, data_format):
    """BiasAdd's gradient for the bias (BiasAddGrad) sums the upstream gradient over every axis but the channels:
    the last axis for NHWC, axis 1 for NCHW, whatever the rank."""
    rank = 3 if "rank 3" in data_format else 4
    channels_first = data_format.startswith("NC")
    shape = (2, 3, 4) if rank == 3 else (1, 2, 3, 4)
    up = np.arange(np.prod(shape), dtype="float32").reshape(shape)
    c_axis = 1 if channels_first else rank - 1
    b = tf.constant(np.zeros(shape[c_axis], "float32"))
    with tf.GradientTape() as tape:
        tape.watch(b)
        y = tf.nn.bias_add(tf.zeros(shape), b, data_format="NCHW" if channels_first else "NHWC")
    got = _np(tape.gradient(y, b, output_gradients=tf.constant(up)))
    want = up.sum(axis=tuple(d for d in range(rank) if d != c_axis))
    np.testing.assert_array_equal(got, want, err_msg=f"d bias_add / d bias, {data_format}")


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("op", ["expm1", "exp", "log1p", "sin"])
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_blind41_complex_unary_gradients_conjugate(tf, op, dtype):
    """TF's gradients of holomorphic unary ops on complex inputs are grad * conj(f'(x)) (math_grad: Expm1
    `grad * exp(conj(x))`, Exp `grad * conj(y)`, Log1p `grad * reciprocal(1 + conj(x))`, Sin `grad * cos(conj(x))`):
    with an upstream gradient of 1 the gradient is the conjugate of the derivative."""
    xs = np.array([1.0 + 2.0j, -0.5 + 0.25j], dtype)
    deriv = {"expm1": np.exp, "exp": np.exp, "log1p": lambda v: 1 / (1 + v), "sin": np.cos}[op]
    x = tf.constant(xs)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = getattr(tf.math, op)(x)
    got = _np(tape.gradient(y, x))
    np.testing.assert_allclose(got, np.conj(deriv(xs)), rtol=1e-5, err_msg=f"d {op}(x) / dx of complex x")


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("mode", ["REFLECT", "SYMMETRIC", "reflect", "symmetric"])
@pytest.mark.parametrize("pads", [(2, 1), (1, 0), (0, 2)])
def test_blind41_mirror_pad_gradient_folds_the_borders_back(tf, mode, pads):
    """The gradient of tf.pad(x, mode=REFLECT or SYMMETRIC) (MirrorPadGrad) adds each padded entry's upstream gradient
    onto the entry it mirrors: REFLECT mirrors without the edge (padded i -> the edge's neighbours), SYMMETRIC with it;
    computed here by padding the indices with np.pad of the same mode and summing."""
    n = 4
    xs = tf.constant(np.arange(n, dtype="float32"))
    up = (10.0 ** np.arange(n + sum(pads))).astype("float64")
    with tf.GradientTape() as tape:
        tape.watch(xs)
        y = tf.pad(xs, [list(pads)], mode=mode)
    got = _np(tape.gradient(y, xs, output_gradients=tf.constant(up.astype("float32"))))
    src = np.pad(np.arange(n), pads, mode=mode.lower())
    want = np.zeros(n)
    np.add.at(want, src, up)
    np.testing.assert_allclose(got, want.astype("float32"), rtol=1e-6, err_msg=f"{mode} pad {pads}")


@clause("autodiff.watch", ref="tf221")
@pytest.mark.parametrize("dtype", ["int32", "int64", "bool", "float32"])
def test_blind41_a_tape_records_no_op_of_a_non_trainable_dtype(tf, dtype):
    """A tape records only ops whose watched inputs have a trainable dtype (floating or complex: TF's tape
    ShouldRecord): a watched integer (or bool) tensor and the ops on it are not recorded, so the gradient of a
    result with respect to it is None, even through a cast to float; a float tensor's is the derivative."""
    x = tf.constant(np.array([1, 0], dtype))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            same = x * tf.constant(np.array([3, 1], dtype)) if dtype != "bool" else tf.logical_not(x)
            y = tf.cast(same, tf.float32) * 2.0
    for target, what in ((same, "the op's own output"), (y, "a cast of it")):
        g = tape.gradient(target, x)
        if dtype == "float32":
            if target is y:
                np.testing.assert_array_equal(_np(g), np.array([6.0, 2.0], "float32"), err_msg="float32 source")
        else:
            assert g is None, f"{dtype} source, gradient of {what}: expected None, got {g!r}"


# -- tf.function: input_signature shapes ----------------------------------------------------------------------------------
@clause("function.input-signature", ref="tf221")
@pytest.mark.parametrize("given", [[3], [2], [1], [2, 1], [None]])
def test_blind41_input_signature_refuses_an_incompatible_shape(tf, given):
    """A tf.function with input_signature=[TensorSpec([2])] binds an argument of a compatible shape and refuses any
    other — another size of the same rank as much as another rank — with TypeError "Binding inputs to tf.function
    failed due to `Can not cast TensorSpec(shape=(3,), ...) to TensorSpec(shape=(2,), ...)`"."""
    f = tf.function(lambda v: v * 2.0, input_signature=[tf.TensorSpec([2], tf.float32)])
    if given == [None]:
        g = tf.function(lambda v: v * 2.0, input_signature=[tf.TensorSpec([None], tf.float32)])
        np.testing.assert_array_equal(_np(g(tf.constant([1.0, 2.0, 3.0]))), [2.0, 4.0, 6.0])
        return
    value = tf.constant(np.ones(given, "float32"))
    if given == [2]:
        np.testing.assert_array_equal(_np(f(value)), [2.0, 2.0])
        return
    with pytest.raises(TypeError, match="Binding inputs to tf.function failed due to `Can not cast"):
        f(value)


# -- tf.data --------------------------------------------------------------------------------------------------------------
@clause("dataset.experimental-extras", ref="tf221")
@pytest.mark.parametrize("source", ["range", "filter", "repeat", "flat_map"])
@pytest.mark.parametrize("expected", [0, 3, 5])
def test_blind41_assert_cardinality_states_its_cardinality(tf, source, expected):
    """assert_cardinality(n)'s dataset has cardinality n whatever its input's (known, unknown or infinite): the
    transformation states it; reading the elements then checks it (FailedPreconditionError when the count differs)."""
    base = tf.data.Dataset.range(5)
    ds = {"range": base, "filter": base.filter(lambda v: True), "repeat": base.repeat(),
          "flat_map": base.flat_map(lambda v: tf.data.Dataset.from_tensors(v))}[source]
    got = int(ds.apply(tf.data.experimental.assert_cardinality(expected)).cardinality())
    assert got == expected, f"{source}.apply(assert_cardinality({expected})).cardinality(): expected {expected}, got {got}"


@clause("dataset.experimental-extras", ref="tf221")
@pytest.mark.parametrize("pipeline", ["filter.take", "range.filter", "repeat", "range.take"])
def test_blind41_random_access_needs_a_known_cardinality(tf, pipeline):
    """tf.data.experimental.at(ds, i) asks each node for the element, from the dataset up its inputs: a node with
    random access whose cardinality is unknown or infinite is FailedPreconditionError ("has unknown cardinality" /
    "has infinite cardinality"), checked before its input (a filter is UnimplementedError only when reached); a
    known one gives the element. (A batch of a filter is TF's OutOfRangeError "Index out of range [0, -2):1", which
    simdist does not model yet: docs/conformance.md, forty-first blind batch, noticed.)"""
    r = tf.data.Dataset.range(10)
    ds = {"filter.take": r.filter(lambda v: v > 2).take(3), "range.filter": r.filter(lambda v: v > 2),
          "repeat": r.repeat(), "range.take": r.take(4)}[pipeline]
    if pipeline == "range.take":
        assert int(tf.data.experimental.at(ds, 2)) == 2
        return
    if pipeline == "range.filter":
        with pytest.raises(tf.errors.UnimplementedError, match="Random access is not implemented"):
            tf.data.experimental.at(ds, 1)
        return
    which = "infinite" if pipeline == "repeat" else "unknown"
    with pytest.raises(tf.errors.FailedPreconditionError, match=f"has {which} cardinality"):
        tf.data.experimental.at(ds, 1)


@clause("dataset.sparse-batch", ref="tf221")
@pytest.mark.parametrize("n", [4, 5, 1, 0])
@pytest.mark.parametrize("batch", [2, 3])
def test_blind41_dense_to_sparse_batch_cardinality_counts_the_partial_batch(tf, n, batch):
    """dense_to_sparse_batch(b, shape) of n elements yields ceil(n / b) batches, the last one partial, and its
    cardinality says so (the batch's rule without drop_remainder)."""
    ds = tf.data.Dataset.from_tensor_slices(np.ones((n, 2), "int64")).apply(
        tf.data.experimental.dense_to_sparse_batch(batch, [2]))
    want = -(-n // batch)
    assert int(ds.cardinality()) == want, f"cardinality of {n} elements in sparse batches of {batch}: expected {want}"
    assert len(list(ds)) == want


@clause("dataset.shuffle", ref="tf221")
@pytest.mark.parametrize("buffer_size", [0, -1, -3, 1, 2])
def test_blind41_shuffle_buffer_size_must_be_positive(tf, buffer_size):
    """Dataset.shuffle(buffer_size) refuses 0 and negative sizes but UNKNOWN_CARDINALITY (-2) with
    InvalidArgumentError "buffer_size must be greater than zero or UNKNOWN_CARDINALITY"; shuffle(1) keeps the order,
    a larger buffer gives a permutation of the elements."""
    ds = tf.data.Dataset.range(5)
    if buffer_size <= 0:
        with pytest.raises(tf.errors.InvalidArgumentError, match="buffer_size must be greater than zero"):
            list(ds.shuffle(buffer_size, seed=1))
        return
    got = [int(v) for v in ds.shuffle(buffer_size, seed=1)]
    if buffer_size == 1:
        assert got == [0, 1, 2, 3, 4], f"shuffle(1) keeps the order, got {got}"
    assert sorted(got) == [0, 1, 2, 3, 4], f"shuffle({buffer_size}) is a permutation, got {got}"


@clause("dataset.api-surface", ref="tf221")
@pytest.mark.parametrize("count", [-1, -2, -5, 0, 2, 9])
def test_blind41_take_of_a_negative_count_takes_everything(tf, count):
    """Dataset.take(count): a negative count (any, not only -1) takes every element (TakeDataset's kernel: `count < 0`
    reads the whole input); 0 none; a positive count the first ones. The cardinality is the input's for -1 and
    min(n, count) otherwise (TF returns another negative count as it is)."""
    got = [int(v) for v in tf.data.Dataset.range(4).take(count)]
    want = list(range(4)) if count < 0 else list(range(min(4, count)))
    assert got == want, f"range(4).take({count}): expected {want}, got {got}"


# -- checkpoints and saving -----------------------------------------------------------------------------------------------
@clause("checkpoint.restore-status", ref="tf221")
@pytest.mark.parametrize("case", ["exact", "unused value", "missing object", "both"])
def test_blind41_restore_status_assertions(tf, tmp_path, case):
    """A restore's status (TF 2.21 CheckpointLoadStatus): assert_consumed raises AssertionError when the checkpoint
    holds a value no object took ("Unresolved object in checkpoint") or an object found no value;
    assert_existing_objects_matched only for the objects of the program without a value; both pass on an exact match."""
    saved = {"a": tf.Variable(1.0)}
    if case in ("unused value", "both"):
        saved["b"] = tf.Variable(2.0)
    path = tf.train.Checkpoint(**saved).save(str(tmp_path / "c"))
    target = {"a": tf.Variable(0.0)}
    if case in ("missing object", "both"):
        target["c"] = tf.Variable(0.0)
    ckpt = tf.train.Checkpoint(**target)
    ckpt.save_counter   # (made before the restore: the checkpoint's own counter is matched)
    status = ckpt.restore(path)
    if case == "exact":
        status.assert_consumed()
    else:
        with pytest.raises(AssertionError):
            status.assert_consumed()
    if case in ("missing object", "both"):
        with pytest.raises(AssertionError):
            status.assert_existing_objects_matched()
    else:
        status.assert_existing_objects_matched()
    assert float(_np(target["a"])) == 1.0


@clause("checkpoint.options", ref="tf221")
@pytest.mark.parametrize("params", [0, 1, 2, "varargs"])
def test_blind41_write_callbacks_take_at_most_one_parameter(tf, tmp_path, params):
    """CheckpointOptions(experimental_write_callbacks=[...]) asserts each callback takes at most one parameter
    (AssertionError when the options are made); a one-parameter callback (`*args` counts as one) is called with the
    path written, a callback without parameters without it."""
    calls = []
    cb = {0: lambda: calls.append(()), 1: lambda p: calls.append((p,)), 2: lambda p, q: calls.append((p, q)),
          "varargs": lambda *a: calls.append(a)}[params]
    if params == 2:
        with pytest.raises(AssertionError):
            tf.train.CheckpointOptions(experimental_write_callbacks=[cb])
        return
    options = tf.train.CheckpointOptions(experimental_write_callbacks=[cb])
    path = tf.train.Checkpoint(v=tf.Variable(1.0)).write(str(tmp_path / "w"), options=options)
    want = [()] if params == 0 else [(path,)]
    assert calls == want, f"{params}-parameter callback: expected calls {want}, got {calls}"


@clause("checkpoint.manager", ref="tf221")
@pytest.mark.parametrize("saves", [1, 2, 4])
@pytest.mark.parametrize("max_to_keep", [1, 3])
def test_blind41_manager_latest_checkpoint_is_the_newest(tf, tmp_path, saves, max_to_keep):
    """CheckpointManager.latest_checkpoint is the newest checkpoint saved (ckpt-<saves>) and `checkpoints` the kept
    ones, oldest first (the last max_to_keep); tf.train.latest_checkpoint of the directory agrees."""
    manager = tf.train.CheckpointManager(tf.train.Checkpoint(v=tf.Variable(1.0)), str(tmp_path), max_to_keep=max_to_keep)
    for _ in range(saves):
        manager.save()
    names = [os.path.basename(p) for p in manager.checkpoints]
    want = [f"ckpt-{i}" for i in range(max(1, saves - max_to_keep + 1), saves + 1)]
    assert names == want, f"{saves} saves, max_to_keep={max_to_keep}: expected checkpoints {want}, got {names}"
    assert os.path.basename(manager.latest_checkpoint) == f"ckpt-{saves}"
    assert tf.train.latest_checkpoint(str(tmp_path)) == manager.latest_checkpoint


@clause("keras.saving.keras-file", ref="tf221")
@pytest.mark.parametrize("name,save_format", [("m.keras", "keras"), ("m.keras", "tf"), ("m.keras", "h5"),
                                              ("m.weights", "keras"), ("m", "tf")])
def test_blind41_save_format_is_deprecated_but_accepted_for_a_keras_path(keras, tmp_path, name, save_format):
    """model.save(path, save_format=...) (Keras 3.15 saving_api.save_model): for a path ending in .keras (or .h5,
    .hdf5) the argument only warns and the file is written; any other path is ValueError "The `save_format` argument
    is deprecated in Keras 3. Please remove this argument and pass a file path with either `.keras` or `.h5`
    extension."."""
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    path = str(tmp_path / name)
    if not name.endswith(".keras"):
        with pytest.raises(ValueError, match="The `save_format` argument is deprecated in Keras 3"):
            model.save(path, save_format=save_format)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.save(path, save_format=save_format)
    assert os.path.exists(path), f"save({name!r}, save_format={save_format!r}) wrote no file"


# -- distribution ---------------------------------------------------------------------------------------------------------
@clause("extended.cross-device-ops", ref="tf221")
@pytest.mark.parametrize("ops", ["ReductionToOneDevice", "HierarchicalCopyAllReduce", "NcclAllReduce"])
@pytest.mark.parametrize("op", ["SUM", "MEAN"])
def test_blind41_cross_device_reduce_of_one_value_lands_on_the_destination(tf, backend, ops, op):
    """A CrossDeviceOps' reduce of a value that is not distributed (one component) onto another device returns it,
    unchanged, on the destination's device (TF 2.21: the one-value shortcut applies only when the value already sits
    on the destinations; otherwise the reduction runs and its result is broadcast there)."""
    backend.make_strategy("mirrored", 2)   # (the backend's devices made)
    devices = backend.device_names(2, "CPU")
    with tf.device(devices[0]):
        v = tf.constant([1.0, 2.0])
    cross = getattr(tf.distribute, ops)()
    out = cross.reduce(getattr(tf.distribute.ReduceOp, op), v, devices[1])
    assert out.device.endswith("CPU:1"), f"{ops}.reduce onto {devices[1]}: expected the result there, got {out.device}"
    np.testing.assert_array_equal(_np(out), [1.0, 2.0])


@clause("extended.cross-device-ops", ref="tf221")
@pytest.mark.parametrize("ops", ["HierarchicalCopyAllReduce", "NcclAllReduce", "ReductionToOneDevice"])
def test_blind41_batch_reduce_honours_each_destination(tf, backend, ops):
    """batch_reduce of per-replica values onto a device that is not theirs gives one value on that device (TF 2.21
    AllReduceCrossDeviceOps: an all-reduce only when every value's devices are its destinations'); onto the values'
    own devices a Mirrored value, one copy per device; the sum is 1 + 2."""
    strategy = backend.make_strategy("mirrored", 2)
    devices = backend.device_names(3, "CPU")
    pr = strategy.run(lambda: tf.constant(1.0) + tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group,
                                                          tf.float32))
    cross = getattr(tf.distribute, ops)()
    elsewhere, home = cross.batch_reduce(tf.distribute.ReduceOp.SUM, [(pr, devices[2]), (pr, pr)])
    parts = getattr(elsewhere, "values", (elsewhere,))
    assert [p.device.split(":")[-1] for p in parts] == ["2"], f"{ops} onto {devices[2]}: got {[p.device for p in parts]}"
    assert float(_np(parts[0])) == 3.0
    homes = getattr(home, "values", (home,))
    assert sorted(p.device.split(":")[-1] for p in homes) == ["0", "1"], f"{ops} onto the replicas: {[p.device for p in homes]}"
    assert [float(_np(p)) for p in homes] == [3.0, 3.0]


@clause("extended.broadcast-to", ref="tf221")
@pytest.mark.parametrize("destinations", ["tuple", "list", "None", "device"])
def test_blind41_broadcast_to_refuses_a_sequence_of_destinations(tf, backend, destinations):
    """extended.broadcast_to(tensor, destinations): None, a list or a tuple of destinations is AssertionError (TF
    2.21 StrategyExtendedV1.broadcast_to asserts `not isinstance(destinations, (list, tuple))`); a device name gives
    the value there."""
    strategy = backend.make_strategy("mirrored", 2)
    devices = backend.device_names(2, "CPU")
    dest = {"tuple": (devices[0],), "list": [devices[0]], "None": None, "device": devices[1]}[destinations]
    if destinations != "device":
        with pytest.raises(AssertionError):
            strategy.extended.broadcast_to(tf.constant(1.0), dest)
        return
    out = strategy.extended.broadcast_to(tf.constant(1.0), dest)
    assert float(_np(out)) == 1.0


# -- random ops -----------------------------------------------------------------------------------------------------------
@clause("ops.stateless-random", ref="tf221")
@pytest.mark.parametrize("dtype", ["uint32", "uint64", "int32", "int64"])
@pytest.mark.parametrize("bounds", ["both", "none"])
def test_blind41_stateless_uniform_unsigned_dtypes_take_no_bounds(tf, dtype, bounds):
    """tf.random.stateless_uniform of an unsigned dtype draws the full range only: with minval/maxval given it is
    ValueError "Argument `dtype` got invalid value <dtype: 'uint32'> when argument `minval` is not None. Please don't
    use unsigned integers in this case."; signed integers take bounds (values in [minval, maxval)) or none."""
    kw = {"minval": 0, "maxval": 10} if bounds == "both" else {"minval": None, "maxval": None}
    if dtype.startswith("u") and bounds == "both":
        with pytest.raises(ValueError, match=f"got invalid value <dtype: '{dtype}'> when argument `minval` is not None"):
            tf.random.stateless_uniform([4], seed=[1, 2], dtype=getattr(tf, dtype), **kw)
        return
    got = _np(tf.random.stateless_uniform([4], seed=[1, 2], dtype=getattr(tf, dtype), **kw))
    assert got.dtype.name == dtype
    if bounds == "both":
        assert ((got >= 0) & (got < 10)).all(), f"{dtype} draws in [0, 10): got {got}"


@clause("ops.random-arguments", ref="tf221")
@pytest.mark.parametrize("fn", ["uniform", "normal", "truncated_normal"])
@pytest.mark.parametrize("dim", [-1, -2, 0])
def test_blind41_random_shapes_refuse_negative_dimensions(tf, fn, dim):
    """The stateful random ops refuse a negative dimension (-1 included: it is no wildcard here) with
    InvalidArgumentError "Dimension -1 must be >= 0"; a 0 dimension gives an empty draw."""
    draw = getattr(tf.random, fn)
    if dim < 0:
        with pytest.raises(tf.errors.InvalidArgumentError, match=f"Dimension {dim} must be >= 0"):
            draw([dim, 2], seed=1)
        return
    assert tuple(draw([dim, 2], seed=1).shape) == (0, 2)


@clause("ops.random-arguments", ref="tf221")
@pytest.mark.parametrize("fn", ["normal", "truncated_normal"])
@pytest.mark.parametrize("dtype", ["complex64", "complex128", "float16", "float64"])
def test_blind41_normal_draws_take_float_dtypes_only(tf, fn, dtype):
    """tf.random.normal and truncated_normal take half, bfloat16, float and double: a complex dtype is the op's
    InvalidArgumentError "Value for attr 'dtype' of complex64 is not in the list of allowed values: half, bfloat16,
    float, double"; a float dtype gives draws of it."""
    draw = getattr(tf.random, fn)
    if dtype.startswith("complex"):
        with pytest.raises(tf.errors.InvalidArgumentError, match=f"Value for attr 'dtype' of {dtype} is not in the list"):
            draw([2], dtype=getattr(tf, dtype), seed=1)
        return
    assert _np(draw([2], dtype=getattr(tf, dtype), seed=1)).dtype.name == dtype
