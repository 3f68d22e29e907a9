"""Gaps the thirty-seventh blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is
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


# -- Dropout's noise_shape: every entry a positive integer or None ---------------------------------------------------
@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("noise_shape, error", [
    ((0, 2), "Expected all dimensions to be positive integers or None. Received negative or zero value at index 0: 0"),
    ((None, 0), "Received negative or zero value at index 1: 0"),
    ((2, -1), "Received negative or zero value at index 1: -1"),
    ((2, 1.5), "Expected all elements to be integers or None. Received element at index 1: 1.5"),
    ("2,1", "Expected a tuple or list of integers. Received: noise_shape=2,1"),
    (3, "Expected an iterable of integers"),
    ((None, 1), None), ([4, None], None), (None, None)])
def test_blind37_dropout_noise_shape_entries_must_be_positive(keras, noise_shape, error):
    """Dropout(rate, noise_shape) validates noise_shape when built from its arguments (Keras 3.15
    `Dropout._validate_noise_shape`): a string or a non-iterable, an entry that is not an int or None, and an entry
    <= 0 are ValueError naming the index; None entries and positive ints are kept (as a tuple)."""
    if error is None:
        layer = keras.layers.Dropout(0.5, noise_shape=noise_shape)
        want = None if noise_shape is None else tuple(noise_shape)
        got = None if layer.noise_shape is None else tuple(layer.noise_shape)
        assert got == want, f"noise_shape={noise_shape!r}: expected {want}, got {got}"
        return
    with pytest.raises(ValueError) as e:
        keras.layers.Dropout(0.5, noise_shape=noise_shape)
    assert error in str(e.value), f"noise_shape={noise_shape!r}: expected {error!r} in {str(e.value)!r}"


# -- the confusion metrics' thresholds: in [0, 1], a single float as well as a list ---------------------------------
@clause("keras.metric.precision-recall", ref="tf221")
@pytest.mark.parametrize("name", ["Precision", "Recall", "TruePositives", "FalseNegatives"])
@pytest.mark.parametrize("thresholds, bad", [(1.5, [1.5]), (-0.25, [-0.25]), ([0.5, 1.25], [1.25]),
                                             ([-1.0, 0.3, 2.0], [-1.0, 2.0]), (0.0, None), (1.0, None),
                                             ([0.0, 0.5, 1.0], None)])
def test_blind37_confusion_metric_thresholds_in_the_unit_interval(keras, name, thresholds, bad):
    """Precision, Recall and the confusion counts check their thresholds (Keras 3.15 `parse_init_thresholds` ->
    `assert_thresholds_range`): a single float is checked as a one-element list, and any value outside [0, 1] is
    ValueError "Threshold values must be in [0, 1]. Received: [the bad values]"; 0 and 1 themselves are accepted and
    kept (one per threshold)."""
    cls = getattr(keras.metrics, name)
    if bad is not None:
        with pytest.raises(ValueError) as e:
            cls(thresholds=thresholds)
        want = f"Threshold values must be in [0, 1]. Received: {bad}"
        assert want in str(e.value), f"{name}(thresholds={thresholds!r}): expected {want!r} in {str(e.value)!r}"
        return
    m = cls(thresholds=thresholds)
    want = thresholds if isinstance(thresholds, list) else [thresholds]
    assert list(m.thresholds) == want, f"{name}(thresholds={thresholds!r}): thresholds {list(m.thresholds)}, want {want}"
    m.update_state(np.array([1.0, 0.0, 1.0]), np.array([0.9, 0.2, 0.6]))
    got = _np(m.result())
    assert got.shape == (() if not isinstance(thresholds, list) else (len(thresholds),)), \
        f"{name}(thresholds={thresholds!r}): result shape {got.shape}"


# -- a Python generator's later batches must fit the signature of its first two ------------------------------------
@clause("keras.fit.data", ref="tf221")
@pytest.mark.parametrize("shapes, spec", [
    ([(2, 3), (2, 3), (2, 4, 1)], "(None, 3)"),
    ([(2, 3), (3, 3), (2, 4)], "(None, 3)"),
    ([(2, 3), (2, 5), (2, 4, 1)], "(None, None)"),
    ([(2, 3), (3, 3), (1, 3)], None)])
def test_blind37_generator_batches_fit_the_first_batches_signature(tf, keras, shapes, spec):
    """predict(generator): Keras 3.15 reads the signature from the first two batches (a dimension that differs
    between them is None) and checks every later batch against it in the tf.data generator (`convert_to_tf`): a
    batch that does not fit is TF's InvalidArgumentError carrying "TypeError: Generator yielded an element of shape S
    where an element of shape SPEC was expected"; batches that fit are predicted in order."""
    model = keras.Sequential([keras.Input((None,)), keras.layers.Activation("linear")])
    batches = [np.arange(np.prod(s), dtype="float32").reshape(s) + i for i, s in enumerate(shapes)]

    def gen():
        for b in batches:
            yield (b,)
    if spec is None:
        out = _np(model.predict(gen(), steps=len(batches), verbose=0))
        want = np.concatenate(batches)
        np.testing.assert_allclose(out, want, err_msg=f"batches {shapes}: predict vs the batches concatenated")
        return
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        model.predict(gen(), steps=len(batches), verbose=0)
    bad = next(s for s in shapes[2:])
    want = f"TypeError: Generator yielded an element of shape {bad} where an element of shape {spec} was expected"
    assert want in str(e.value), f"batches {shapes}: expected {want!r} in {str(e.value)[:400]!r}"


# -- dict batches of a generator: the same keys, in any order --------------------------------------------------------
@clause("keras.fit.data", ref="tf221")
@pytest.mark.parametrize("orders", [("ab", "ba", "ab"), ("ba", "ab", "ba"), ("ab", "ab", "ab")])
def test_blind37_generator_dict_batches_match_by_key(keras, orders):
    """A generator yielding ({"a": ..., "b": ...},) batches: Keras 3.15 maps the batches' structures by key
    (tree.map_structure over dicts is by sorted key), so the order in which a batch lists its keys does not matter;
    the model's inputs are matched by name. Expected: a - b per batch, with NumPy."""
    a, b = keras.Input((1,), name="a"), keras.Input((1,), name="b")
    model = keras.Model({"a": a, "b": b}, keras.layers.Subtract()([a, b]))
    rng = np.random.RandomState(5)
    data = [(rng.rand(2, 1).astype("float32"), rng.rand(2, 1).astype("float32")) for _ in orders]

    def gen():
        for order, (xa, xb) in zip(orders, data):
            parts = {"a": xa, "b": xb}
            yield ({k: parts[k] for k in order},)
    out = _np(model.predict(gen(), steps=len(orders), verbose=0))
    want = np.concatenate([xa - xb for xa, xb in data])
    np.testing.assert_allclose(out, want, rtol=1e-6, err_msg=f"key orders {orders}: predict vs a - b")


# -- y and sample_weight: the same structure, list and tuple apart ----------------------------------------------------
@clause("keras.fit.data", ref="tf221")
@pytest.mark.parametrize("y_kind, w_kind", [(list, tuple), (tuple, list), (list, list), (tuple, tuple)])
def test_blind37_sample_weight_structure_matches_y(keras, y_kind, w_kind):
    """evaluate(x, y, sample_weight) of a two-output model: Keras 3.15's array adapter asserts that sample_weight has
    y's structure (tree.assert_same_structure: a list and a tuple differ), else ValueError "You should provide one
    `sample_weight` array per output in `y`"; with matching structures each output's mse is weighted by its array
    (expected with NumPy: sum(w * e^2) / n per output, the loss their sum)."""
    inp = keras.Input((2,))
    model = keras.Model(inp, [keras.layers.Dense(1, kernel_initializer="ones")(inp),
                              keras.layers.Dense(1, kernel_initializer="zeros")(inp)])
    model.compile(loss=["mse", "mse"])
    x = np.arange(8, dtype="float32").reshape(4, 2) / 8
    ys = [np.ones((4, 1), "float32"), np.full((4, 1), 2.0, "float32")]
    ws = [np.array([1, 0, 2, 1], "float32"), np.array([0.5, 0.5, 0, 1], "float32")]
    if y_kind is not w_kind:
        with pytest.raises(ValueError, match="You should provide one `sample_weight` array per output in `y`"):
            model.evaluate(x, y_kind(ys), sample_weight=w_kind(ws), verbose=0)
        return
    got = model.evaluate(x, y_kind(ys), sample_weight=w_kind(ws), verbose=0)
    preds = [x.sum(axis=1, keepdims=True), np.zeros((4, 1))]
    per = [float(np.sum(w * ((p - y) ** 2)[:, 0]) / 4) for p, y, w in zip(preds, ys, ws)]
    np.testing.assert_allclose(got[0], sum(per), rtol=1e-5, err_msg=f"{y_kind.__name__} y: weighted loss")


# -- predict of outputs whose non-batch shapes differ between batches: one RaggedTensor ------------------------------
@clause("keras.predict.order", ref="tf221")
@pytest.mark.parametrize("shapes", [
    [(2, 3, 2), (2, 5, 2)],
    [(1, 4, 3), (2, 2, 3), (1, 1, 3)],
    [(2, 3, 2, 2), (1, 1, 2, 2)],
    [(2, 3), (2, 1)]])
def test_blind37_predict_ragged_outputs_keep_the_constant_inner_dims(tf, keras, shapes):
    """predict over batches whose outputs differ in a non-batch dimension: Keras 3.15's potentially_ragged_concat
    returns one RaggedTensor whose trailing dimensions that agree in every batch stay uniform (inner_shape = the
    constant dims counted from the back), the batch rows concatenated: ragged_rank 1 when only the dimension after
    the batch varies, flat_values of shape (total rows * that size, *inner dims). Expected values: the batches' rows
    in order (NumPy)."""
    rank = len(shapes[0])
    model = keras.Sequential([keras.Input((None,) * (rank - 1)), keras.layers.Activation("linear")])
    rng = np.random.RandomState(9)
    batches = [rng.rand(*s).astype("float32") for s in shapes]
    spec = tf.TensorSpec((None,) * rank, tf.float32)
    ds = tf.data.Dataset.from_generator(lambda: iter(batches), output_signature=spec)
    out = model.predict(ds, verbose=0)
    assert isinstance(out, tf.RaggedTensor), f"shapes {shapes}: expected a RaggedTensor, got {type(out).__name__}"
    rows = [row for b in batches for row in b.tolist()]
    assert out.to_list() == rows or np.allclose(np.concatenate([np.ravel(r) for r in out.to_list()]),
                                                np.concatenate([np.ravel(r) for r in rows])), \
        f"shapes {shapes}: the ragged rows differ from the batches' rows"
    inner = tuple(shapes[0][2:])
    assert out.ragged_rank == 1, f"shapes {shapes}: ragged_rank {out.ragged_rank}, expected 1"
    want_flat = (sum(s[0] * s[1] for s in shapes), *inner)
    assert tuple(out.flat_values.shape) == want_flat, \
        f"shapes {shapes}: flat_values shape {tuple(out.flat_values.shape)}, expected {want_flat}"


# -- the weighted metrics are the model's metrics too: callbacks can monitor them --------------------------------------
@clause("keras.callback.monitor", ref="tf221")
@pytest.mark.parametrize("monitor", ["mse", "mae", "val_mse", "accuracy"])
@pytest.mark.parametrize("callback", ["EarlyStopping", "ReduceLROnPlateau"])
def test_blind37_callbacks_monitor_weighted_metrics(keras, monitor, callback):
    """compile(metrics=["mae"], weighted_metrics=["mse", "accuracy"]): Keras 3.15's CompileMetrics lists the plain
    and the weighted metrics, and a MonitorCallback with mode="auto" takes the direction of the metric it finds
    there (MeanSquaredError and MeanAbsoluteError down, Accuracy up), so monitoring a weighted metric (or its val_
    twin) runs; the history holds every metric."""
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"], weighted_metrics=["mse", "accuracy"])
    x, y = np.ones((4, 2), "float32"), np.arange(4, dtype="float32").reshape(4, 1)
    w = np.array([1.0, 0.0, 2.0, 1.0], "float32")
    cb = getattr(keras.callbacks, callback)(monitor=monitor, patience=5)
    h = model.fit(x, y, sample_weight=w, epochs=2, verbose=0, callbacks=[cb], validation_data=(x, y, w))
    want = {"loss", "mae", "mse", "accuracy", "val_loss", "val_mae", "val_mse", "val_accuracy"}
    assert want <= set(h.history), f"{callback}({monitor!r}): history keys {sorted(h.history)}"


# -- weights of an unbuilt model: neither saved nor loaded ----------------------------------------------------------
@clause("keras.model.save-weights", ref="tf221")
@pytest.mark.parametrize("suffix", [".keras", ".weights.h5"])
def test_blind37_unbuilt_models_refuse_weight_files(keras, tmp_path, suffix):
    """Keras 3.15: load_weights of a `.keras` or `.weights.h5` file into a model that is not built is ValueError "You
    are loading weights into a model that has not yet been built", and save_weights of an unbuilt model is ValueError
    "You are saving a model that has not yet been built"; once built (here by calling it), the weights load and
    equal the saved ones."""
    src = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, kernel_initializer="glorot_uniform")])
    path = str(tmp_path / f"m{suffix}")
    if suffix == ".keras":
        src.save(path)
    else:
        src.save_weights(path)
    unbuilt = keras.Sequential([keras.layers.Dense(2)])
    with pytest.raises(ValueError, match="You are loading weights into a model that has not yet been built"):
        unbuilt.load_weights(path)
    with pytest.raises(ValueError, match="You are saving a model that has not yet been built"):
        unbuilt.save_weights(str(tmp_path / "unbuilt.weights.h5"))
    unbuilt(np.zeros((1, 3), "float32"))
    unbuilt.load_weights(path)
    for got, want in zip(unbuilt.get_weights(), src.get_weights()):
        np.testing.assert_array_equal(got, want, err_msg=f"{suffix}: loaded weights vs saved")
