"""Gaps the thirty-fifth blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is
the suite"): rules of the training layer that the suite stated for one spelling, one option value or one input
only, or never, so that a wrong implementation of the other case passed (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy or
plain Python (a transcription of TF's or Keras 3.15's rule), or is a relation TF's rule implies between two
spellings, never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import to_numpy as _np   # (an ndarray of any backend's value)

clause = pytest.mark.clause


# -- GroupedQueryAttention: the causal mask spans the value's length, with or without other masks ----------------------
@clause("keras.layer.group-query-attention", ref="tf221")
@pytest.mark.parametrize("t, s", [(3, 5), (4, 2), (3, 3), (1, 4)])
def test_blind35_grouped_query_attention_causal_mask_spans_the_value_length(keras, t, s):
    """GroupQueryAttention(q, v, use_causal_mask=True) with a query of length T and a value of length S masks with
    the (T, S) lower triangle (Keras 3.15's _compute_causal_mask: cumsum(ones) over rows >= over columns), alone and
    and-ed with a value_mask or a query_mask: the same output as the explicit attention_mask."""
    layer = keras.layers.GroupQueryAttention(head_dim=2, num_query_heads=4, num_key_value_heads=2,
                                             kernel_initializer=keras.initializers.GlorotUniform(seed=5))
    q = np.linspace(-1, 1, 2 * t * 4).reshape(2, t, 4).astype("float32")
    v = np.linspace(1, -2, 2 * s * 4).reshape(2, s, 4).astype("float32")
    tril = np.tril(np.ones((t, s), bool))
    value_mask = np.array([[True] * s, [True] * (s - 1) + [False]])
    query_mask = np.array([[True] * t, [False] + [True] * (t - 1)])
    cases = (({}, np.broadcast_to(tril, (2, t, s))),
             ({"value_mask": value_mask}, tril[None] & value_mask[:, None, :]),
             ({"query_mask": query_mask}, tril[None] & query_mask[:, :, None]))
    for kwargs, full in cases:
        got = _np(layer(q, v, use_causal_mask=True, **kwargs))
        want = _np(layer(q, v, attention_mask=np.array(full)))
        call = f"GroupQueryAttention(2, 4, 2)(q of length {t}, v of length {s}, use_causal_mask=True, {sorted(kwargs)})"
        assert got.shape == want.shape and np.allclose(got, want, rtol=1e-5, atol=1e-6), (
            f"{call}: expected the output of attention_mask = tril(ones({t}, {s})) and the other masks; got shape "
            f"{got.shape} vs {want.shape}, largest difference "
            f"{np.max(np.abs(got - want)) if got.shape == want.shape else 'n/a'}")


# -- moments of 16-bit inputs are computed in float32 ------------------------------------------------------------------
@clause("keras.layer.batchnorm", ref="tf221")
@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("layer_name", ["BatchNormalization", "LayerNormalization", "GroupNormalization"])
def test_blind35_normalization_statistics_of_16_bit_inputs_are_float32(tf, keras, dtype, layer_name):
    """Keras 3.15's ops.moments on TF casts float16 and bfloat16 inputs to float32, takes the mean and variance
    there, and casts them back (clipped to float16's range): BatchNormalization (training), LayerNormalization and
    GroupNormalization of 16-bit inputs near 1000 with a spread of tens normalize with exact statistics. Computed
    in 16 bits, the mean of such values is off by several units (bfloat16 spaces 1000 by 8), which moves every
    output by a tenth or more. Expected value: (x - mean) / sqrt(var + eps) in float64 from the 16-bit inputs,
    within the output dtype's rounding."""
    rows = np.array([992.0, 1000.0, 1008.0, 1016.0, 1024.0, 1040.0, 1056.0, 1072.0])
    x = np.stack([rows, rows[::-1] + 16.0, rows * 0 + rows.mean() + np.arange(8) * 8.0], axis=-1)   # (8, 3)
    x16 = tf.cast(tf.constant(x.astype("float32")), dtype)
    exact = _np(tf.cast(x16, tf.float32)).astype(np.float64)
    if layer_name == "BatchNormalization":
        layer = keras.layers.BatchNormalization(dtype=dtype, epsilon=1e-3)
        out = layer(x16, training=True)
        axis, eps = 0, 1e-3
    elif layer_name == "LayerNormalization":
        exact, x16 = exact.T, tf.transpose(x16)      # (3, 8): normalize each row of 8
        layer = keras.layers.LayerNormalization(dtype=dtype, epsilon=1e-3)
        out = layer(x16)
        axis, eps = -1, 1e-3
    else:
        exact, x16 = exact.T, tf.transpose(x16)
        layer = keras.layers.GroupNormalization(groups=1, dtype=dtype, epsilon=1e-3)
        out = layer(x16)
        axis, eps = -1, 1e-3
    mean = exact.mean(axis=axis, keepdims=True)
    var = ((exact - mean) ** 2).mean(axis=axis, keepdims=True)
    want = (exact - mean) / np.sqrt(var + eps)
    got = _np(tf.cast(out, tf.float32)).astype(np.float64)
    tol = 0.02 + 0.01 * np.abs(want)
    call = f"{layer_name}(dtype={dtype!r}) of 16-bit inputs near 1000"
    assert got.shape == want.shape and np.all(np.abs(got - want) <= tol), (
        f"{call}: expected the normalization by float32 statistics {np.round(want, 3).tolist()}, got "
        f"{np.round(got, 3).tolist()} (largest difference {np.max(np.abs(got - want)):.3g})")


# -- Resizing: segmentation masks are resized by nearest neighbour whatever the images' interpolation ------------------
@clause("keras.layer.image-preprocessing", ref="tf221")
@pytest.mark.parametrize("interpolation", ["bilinear", "bicubic", "area", "nearest"])
@pytest.mark.parametrize("size", [(3, 3), (6, 5), (2, 7)])
def test_blind35_resizing_resizes_segmentation_masks_by_nearest_neighbour(keras, interpolation, size):
    """keras.layers.Resizing(h, w, interpolation=...) on {"images", "segmentation_masks"}: the images with the
    interpolation, the masks always with "nearest" (Keras 3.15's transform_segmentation_masks), so a mask keeps
    its class ids. Expected mask: TF's nearest resize with half-pixel centres, source index
    min(floor((i + 0.5) * in / out), in - 1) per axis (NumPy)."""
    h, w = size
    mask = (np.arange(4 * 4).reshape(1, 4, 4, 1) * 7 % 5).astype("float32")
    img = np.linspace(0, 1, 4 * 4 * 3).reshape(1, 4, 4, 3).astype("float32")
    out = keras.layers.Resizing(h, w, interpolation=interpolation)({"images": img, "segmentation_masks": mask})
    rows = np.minimum(np.floor((np.arange(h) + 0.5) * 4 / h).astype(int), 3)
    cols = np.minimum(np.floor((np.arange(w) + 0.5) * 4 / w).astype(int), 3)
    want = mask[:, rows][:, :, cols]
    got = _np(out["segmentation_masks"])
    assert got.shape == want.shape and np.array_equal(got, want), (
        f"Resizing({h}, {w}, interpolation={interpolation!r}) of a 4x4 mask: expected the nearest-neighbour mask "
        f"{want[0, :, :, 0].tolist()}, got {got.reshape(got.shape[1:3]).tolist() if got.size == h * w else got.shape}")


# -- a metric object's __call__ accumulates: update_state then result --------------------------------------------------
@clause("keras.metric.update-result-reset", ref="tf221")
@pytest.mark.parametrize("name", ["MeanAbsoluteError", "MeanSquaredError", "BinaryAccuracy", "Precision", "Mean"])
def test_blind35_calling_a_metric_accumulates_over_calls(keras, name):
    """metric(y_true, y_pred) is update_state then result (Keras 3.15's Metric.__call__): a second call returns the
    value over both batches, not the second batch's alone, and reset_state starts again. Expected values over the
    batches seen so far computed with NumPy."""
    batches = [(np.array([[1.0], [0.0]], "float32"), np.array([[0.8], [0.6]], "float32")),
               (np.array([[1.0], [1.0], [0.0]], "float32"), np.array([[0.2], [0.9], [0.1]], "float32"))]

    def expected(seen):
        yt = np.concatenate([b[0] for b in seen]).ravel().astype(np.float64)
        yp = np.concatenate([b[1] for b in seen]).ravel().astype(np.float64)
        if name == "MeanAbsoluteError":
            return np.mean(np.abs(yt - yp))
        if name == "MeanSquaredError":
            return np.mean((yt - yp) ** 2)
        if name == "BinaryAccuracy":
            return np.mean((yp > 0.5) == (yt > 0.5))
        if name == "Precision":
            pred = yp > 0.5
            return np.sum(pred & (yt > 0.5)) / np.sum(pred)
        return np.mean(yt)

    metric = getattr(keras.metrics, name)()
    call = (lambda b: metric(b[0])) if name == "Mean" else (lambda b: metric(*b))
    for round_ in ("fresh", "after reset_state"):
        first = float(_np(call(batches[0])))
        second = float(_np(call(batches[1])))
        assert np.isclose(first, expected(batches[:1]), rtol=1e-6), (
            f"{name}() ({round_}), first call: expected {expected(batches[:1])}, got {first}")
        assert np.isclose(second, expected(batches), rtol=1e-6), (
            f"{name}() ({round_}): a second call should return the value over both batches, {expected(batches)}; "
            f"got {second} (the second batch alone gives {expected(batches[1:])})")
        metric.reset_state()


# -- compile(loss="crossentropy") is resolved by the shapes, the one-column rule first ---------------------------------
@clause("keras.metric.accuracy-resolution", ref="tf221")
@pytest.mark.parametrize("spelling", ["crossentropy", "ce", "CrossEntropy"])
@pytest.mark.parametrize("case", ["binary-rank1-labels", "binary-column-labels", "sparse-rank1-labels",
                                  "sparse-column-labels", "categorical"])
def test_blind35_compile_crossentropy_is_resolved_by_the_shapes(keras, spelling, case):
    """compile(loss="crossentropy" or "ce", any case) picks the loss as compile's "accuracy" is picked (Keras 3.15's
    compile_utils.get_loss with is_binary_or_sparse_categorical): binary crossentropy when y_pred's last dim is 1
    (also for (batch,) labels, which have the lower rank), sparse categorical when y_true has the lower rank or a
    last dim of 1 beside a wider y_pred, else categorical. Expected loss computed with NumPy from the model's
    predictions (probabilities clipped to [1e-7, 1 - 1e-7])."""
    x = np.array([[0.1, -0.3], [0.5, 0.2], [-0.4, -0.1], [0.3, 0.3]], "float32")
    width = 1 if case.startswith("binary") else 3
    act = "sigmoid" if width == 1 else "softmax"
    kernel = np.array([[1.0, -0.5, 0.25], [0.5, 1.5, -1.0]], "float32")[:, :width]
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(width, activation=act, use_bias=False)])
    model.layers[0].set_weights([kernel])
    model.compile(loss=spelling)
    labels = np.array([1, 0, 2, 1]) if width == 3 else np.array([1, 1, 0, 1])
    y = {"binary-rank1-labels": labels.astype("float32"), "binary-column-labels": labels[:, None].astype("float32"),
         "sparse-rank1-labels": labels, "sparse-column-labels": labels[:, None],
         "categorical": np.eye(3, dtype="float32")[labels]}[case]
    p = np.clip(_np(model.predict(x, verbose=0)).astype(np.float64), 1e-7, 1 - 1e-7)
    if width == 1:
        t = labels.astype(np.float64)
        want = np.mean(-(t * np.log(p[:, 0]) + (1 - t) * np.log(1 - p[:, 0])))
    else:
        want = np.mean(-np.log(p[np.arange(4), labels]))
    got = float(model.evaluate(x, y, verbose=0))
    assert np.isclose(got, want, rtol=1e-4, atol=1e-6), (
        f"compile(loss={spelling!r}) with labels {np.shape(y)} and predictions (4, {width}): expected the "
        f"{'binary' if width == 1 else 'sparse/categorical'} crossentropy {want:.6f}, got {got:.6f}")


# -- FusedBatchNorm's inference gradient in both layouts ---------------------------------------------------------------
@clause("ops.fused-batch-norm", ref="tf221")
@pytest.mark.parametrize("data_format", ["NHWC", "NCHW"])
@pytest.mark.parametrize("shape", [(2, 3, 2, 4), (1, 2, 5, 3), (2, 4, 4, 4)])
def test_blind35_fused_batch_norm_inference_gradient_in_both_layouts(tf, data_format, shape):
    """tf.compat.v1.nn.fused_batch_norm(..., is_training=False) differentiates as TF's _BaseFusedBatchNormGrad
    (the NCHW input transposed to NHWC for the kernel and dx transposed back): with r = rsqrt(variance + eps) per
    channel, dx = dy * scale * r, dscale = sum(dy * (x - mean) * r), doffset = sum(dy) over the other axes, in
    the input's own layout. Shapes whose height, width and channels differ (and one cube). NumPy expected values."""
    rng = np.random.RandomState(3)
    c = shape[1] if data_format == "NCHW" else shape[3]
    caxis = 1 if data_format == "NCHW" else 3
    others = tuple(a for a in range(4) if a != caxis)
    x_np = rng.uniform(-2, 2, shape).astype("float32")
    dy = rng.uniform(-1, 1, shape).astype("float32")
    scale_np = np.linspace(0.5, 2.0, c).astype("float32")
    offset_np = np.linspace(-0.2, 0.3, c).astype("float32")
    mean_np = np.linspace(-0.5, 0.5, c).astype("float32")
    var_np = np.linspace(0.5, 3.0, c).astype("float32")
    x, scale, offset = tf.constant(x_np), tf.constant(scale_np), tf.constant(offset_np)
    with tf.GradientTape() as tape:
        tape.watch([x, scale, offset])
        y = tf.compat.v1.nn.fused_batch_norm(x, scale, offset, tf.constant(mean_np), tf.constant(var_np),
                                             epsilon=0.001, data_format=data_format, is_training=False)[0]
        s = tf.reduce_sum(y * tf.constant(dy))
    dx, dscale, doffset = (_np(g).astype(np.float64) for g in tape.gradient(s, [x, scale, offset]))
    bshape = [1, 1, 1, 1]; bshape[caxis] = c
    r = 1.0 / np.sqrt(var_np.astype(np.float64) + 0.001)
    want_dx = dy * (scale_np * r).reshape(bshape)
    want_dscale = np.sum(dy * (x_np - mean_np.reshape(bshape)) * r.reshape(bshape), axis=others)
    want_doffset = np.sum(dy.astype(np.float64), axis=others)
    call = f"fused_batch_norm(x of shape {shape}, data_format={data_format!r}, is_training=False)"
    for name, got, want in (("dx", dx, want_dx), ("dscale", dscale, want_dscale), ("doffset", doffset, want_doffset)):
        assert got.shape == want.shape and np.allclose(got, want, rtol=1e-4, atol=1e-5), (
            f"{call}: {name} expected {np.round(want, 4).ravel()[:8].tolist()}..., got "
            f"{np.round(got, 4).ravel()[:8].tolist()}... (shapes {got.shape} vs {want.shape})")


# -- padded_batch: a padded shape equal to or larger than the element's, from any source -------------------------------
@clause("dataset.batching", ref="tf221")
@pytest.mark.parametrize("source", ["from_tensor_slices", "map"])
@pytest.mark.parametrize("padded", [[3], [5], [None], [-1], (3,)])
def test_blind35_padded_batch_pads_to_an_equal_or_larger_padded_shape(tf, source, padded):
    """Dataset.padded_batch(2, padded_shapes=p) of rows of 3: a padded dimension equal to the row's (3) is
    accepted and pads nothing, a larger one (5) pads every row with zeros to 5, None and -1 pad to the batch's
    longest row (TF's _is_padded_shape_compatible_with refuses only a smaller known dimension), whether the rows
    come from from_tensor_slices or from a map. Expected batches built with NumPy."""
    rows = np.arange(12, dtype=np.int64).reshape(4, 3)
    ds = tf.data.Dataset.from_tensor_slices(rows)
    if source == "map":
        ds = tf.data.Dataset.range(4).map(lambda i: tf.gather(tf.constant(rows), i))
    width = 5 if padded == [5] else 3
    want = [np.pad(rows[i:i + 2], ((0, 0), (0, width - 3))) for i in (0, 2)]
    got = [_np(b) for b in ds.padded_batch(2, padded_shapes=padded)]
    assert len(got) == 2 and all(g.shape == w.shape and np.array_equal(g, w) for g, w in zip(got, want)), (
        f"{source} rows of 3 .padded_batch(2, padded_shapes={padded}): expected {[w.tolist() for w in want]}, got "
        f"{[g.tolist() for g in got]}")


@clause("dataset.batching", ref="tf221")
@pytest.mark.parametrize("spelling", ["int", "numpy", "tensor", "tuple"])
def test_blind35_padded_batch_reads_a_scalar_padded_shape_as_one_dimension(tf, spelling):
    """padded_batch(2, padded_shapes=n) with n a scalar integer (a Python or NumPy int, or a scalar int64 tensor) pads
    rows to the singleton shape [n], as padded_batch_op._padded_shape_to_tensor reads it through tf.TensorShape(n);
    a nested structure takes scalars per component too; a negative scalar is ValueError. Expected batches built
    with NumPy."""
    rows = np.arange(12, dtype=np.int64).reshape(4, 3)
    ds = tf.data.Dataset.from_tensor_slices(rows)
    n = {"int": 5, "numpy": np.int64(5), "tensor": tf.constant(5, tf.int64), "tuple": (5,)}[spelling]
    got = [_np(b) for b in ds.padded_batch(2, padded_shapes=n)]
    want = [np.pad(rows[i:i + 2], ((0, 0), (0, 2))) for i in (0, 2)]
    assert len(got) == 2 and all(g.shape == w.shape and np.array_equal(g, w) for g, w in zip(got, want)), (
        f"padded_batch(2, padded_shapes={spelling} 5) of rows of 3: expected rows padded to 5, "
        f"{[w.tolist() for w in want]}, got {[g.tolist() for g in got]}")
    pairs = tf.data.Dataset.from_tensor_slices((rows, np.arange(4)))
    first = next(iter(pairs.padded_batch(2, padded_shapes=(4, []))))
    assert _np(first[0]).shape == (2, 4) and _np(first[1]).tolist() == [0, 1], (
        f"padded_batch(2, padded_shapes=(4, [])) of (rows of 3, scalars): expected shapes (2, 4) and (2,), got "
        f"{_np(first[0]).shape} and {_np(first[1]).shape}")
    with pytest.raises(ValueError, match="must be a `tf.int64` vector tensor"):
        ds.padded_batch(2, padded_shapes=-1)


# -- the weights file walks a layer's public attributes before its private ones ----------------------------------------
@clause("keras.model.save-weights", ref="tf221")
@pytest.mark.parametrize("private, public", [("_inner", "alias"), ("_alpha", "zeta"), ("_a", "b_layer")])
def test_blind35_weights_file_stores_a_shared_sublayer_under_its_public_attribute(keras, tmp_path, private, public):
    """save_weights walks a layer's attributes in Keras 3.15's saving_lib order, sorted with private names ("_x")
    after public ones (the key "~_x"), and stores a sublayer once, under the first path that reaches it: a Dense
    held as both self.<private> and self.<public> is written under <public>, whatever the plain sort order of the
    two names; loading the file into a fresh copy restores it."""
    h5py = pytest.importorskip("h5py")

    class Holder(keras.layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            setattr(self, private, keras.layers.Dense(2, name="d"))
            setattr(self, public, getattr(self, private))

        def call(self, x):
            return getattr(self, private)(x)

    def build():
        return keras.Sequential([keras.Input((3,)), Holder(name="holder")])
    model = build()
    model.layers[0].set_weights([np.arange(6, dtype="float32").reshape(3, 2), np.array([0.5, -0.5], "float32")])
    path = str(tmp_path / "m.weights.h5")
    model.save_weights(path)
    keys: list[str] = []
    with h5py.File(path, "r") as f:
        f.visit(lambda n: keys.append(n) if isinstance(f[n], h5py.Dataset) else None)
    want = [f"layers/holder/{public}/vars/0", f"layers/holder/{public}/vars/1"]
    assert sorted(keys) == want, (
        f"save_weights of a layer holding one Dense as self.{private} and self.{public}: expected the datasets "
        f"{want} (public attributes first), got {sorted(keys)}")
    fresh = build()
    fresh.load_weights(path)
    assert np.array_equal(_np(fresh.layers[0].get_weights()[0]), np.arange(6, dtype="float32").reshape(3, 2)), (
        "load_weights of that file into a fresh model should restore the shared Dense's kernel")


# -- predict_on_batch takes a model's inputs as predict does -----------------------------------------------------------
@clause("keras.fit.arguments", ref="tf221")
@pytest.mark.parametrize("structure", ["list", "tuple", "dict", "single"])
def test_blind35_predict_on_batch_takes_a_structure_of_inputs_as_x(keras, structure):
    """model.predict_on_batch(x) treats x whole as the model's inputs (Keras 3.15 wraps it as the batch (x,)), so a
    list, tuple or dict of two inputs of a two-input model is not unpacked as (x, y): the same values as predict(x)
    and as the NumPy computation a - 2 b."""
    a_in = keras.Input((2,), name="a"); b_in = keras.Input((2,), name="b")
    if structure == "single":
        x_in = keras.Input((2,)); model = keras.Model(x_in, keras.layers.Rescaling(3.0)(x_in))
        x = np.array([[1.0, 2.0], [-1.0, 0.5]], "float32")
        want = 3.0 * x
    else:
        model = keras.Model([a_in, b_in], keras.layers.Subtract()([a_in, keras.layers.Rescaling(2.0)(b_in)]))
        a = np.array([[1.0, 2.0], [-1.0, 0.5]], "float32"); b = np.array([[5.0, 1.0], [0.25, -2.0]], "float32")
        x = {"list": [a, b], "tuple": (a, b), "dict": {"a": a, "b": b}}[structure]
        want = a - 2.0 * b
    got = _np(model.predict_on_batch(x))
    also = _np(model.predict(x, verbose=0))
    assert got.shape == want.shape and np.allclose(got, want) and np.allclose(also, want), (
        f"predict_on_batch of a {structure} of inputs: expected {want.tolist()}, got {got.tolist()} "
        f"(predict gives {also.tolist()})")


# -- compute_loss is told whether it is training -----------------------------------------------------------------------
@clause("keras.fit.evaluate-inference", ref="tf221")
@pytest.mark.parametrize("run_eagerly", [True, False])
def test_blind35_compute_loss_override_is_told_whether_it_trains(keras, run_eagerly):
    """A Model whose compute_loss takes a `training` argument gets training=True from fit and train_on_batch and
    training=False from evaluate, fit's validation pass and test_on_batch (Keras 3.15's Trainer._compute_loss
    passes the step's flag); the returned loss is used as given (here the compiled loss plus 10 when training)."""
    seen: list[bool] = []

    class M(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = keras.layers.Dense(1, kernel_initializer="zeros", use_bias=False)

        def call(self, x):
            return self.d(x)

        def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
            seen.append(bool(training))
            loss = super().compute_loss(x, y, y_pred, sample_weight, training=training)
            return loss + 10.0 if training else loss

    x, y = np.ones((2, 1), "float32"), np.full((2, 1), 2.0, "float32")
    model = M()
    model.compile(optimizer=keras.optimizers.SGD(0.0), loss="mse", run_eagerly=run_eagerly)
    hist = model.fit(x, y, epochs=1, verbose=0, validation_data=(x, y), batch_size=2)
    evaluated = float(model.evaluate(x, y, verbose=0))
    on_batch = [float(np.ravel(model.train_on_batch(x, y))[0]), float(np.ravel(model.test_on_batch(x, y))[0])]
    flags = sorted(set(seen))
    assert flags == [False, True], f"compute_loss(training=...) saw {seen}; expected both True (fit) and False"
    assert np.isclose(hist.history["loss"][0], 14.0) and np.isclose(hist.history["val_loss"][0], 4.0), (
        f"fit: expected loss 4 + 10 (training) and val_loss 4 (inference), got {hist.history}")
    assert np.isclose(evaluated, 4.0) and np.allclose(on_batch, [14.0, 4.0]), (
        f"evaluate: expected 4 (training=False), got {evaluated}; train_on_batch / test_on_batch expected [14, 4], "
        f"got {on_batch}")


# -- Dataset.unique compares whole elements: shape and values ----------------------------------------------------------
@clause("dataset.scan-take-while-unique", ref="tf221")
@pytest.mark.parametrize("dtype", ["int32", "int64", "string"])
def test_blind35_unique_tells_elements_of_other_shapes_apart(tf, dtype):
    """Dataset.unique() keeps the first of each distinct element in order; elements are compared whole (TF's
    UniqueDatasetOp hashes and compares the tensors: shape and values), so [1, 2], [[1], [2]] and [[1, 2]] are three
    elements and a scalar 1 is not [1]. Expected: first occurrences by (shape, values) in plain Python."""
    def conv(v):
        a = np.array(v)
        return a.astype(np.bytes_) if dtype == "string" else a.astype(dtype)
    elements = [[1, 2], [[1], [2]], [1, 2], [[1, 2]], 1, [1], [[1], [2]], 1, [2, 1]]
    arrays = [conv(e) for e in elements]

    def gen():
        yield from arrays
    tf_dtype = {"int32": tf.int32, "int64": tf.int64, "string": tf.string}[dtype]
    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec(None, tf_dtype)).unique()
    got = [(tuple(_np(e).shape), _np(e).ravel().tolist()) for e in ds]
    want, seen = [], set()
    for a in arrays:
        key = (a.shape, tuple(a.ravel().tolist()))
        if key not in seen:
            seen.add(key)
            want.append((tuple(a.shape), a.ravel().tolist()))
    assert got == want, (f"Dataset.unique() of {dtype} elements {elements}: expected the first of each (shape, "
                         f"values) {want}, got {got}")
