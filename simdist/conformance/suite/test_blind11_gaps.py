"""Gaps the eleventh blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): behaviours and options no earlier suite test set or looked at closely
enough for a wrong implementation to fail (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug: which tied maximum a max-pooling
gradient feeds; gradients with respect to intermediate tensors; how many checkpoints a
CheckpointManager keeps; get_layer's bounds; rank matching of the regression losses and metrics;
fit's steps_per_epoch across epochs and the validation data's sample weights; tf.data's batch,
padded_batch, repeat, from_tensor_slices and shuffle(1)/seeds; hinge's label conversion; a masked
loss under each reduction; the on_batch_* callback hooks; clip_by_global_norm below the norm; the
Orthogonal initializer on wide and tall shapes; LSTM's gate blocks on both implementation paths;
activations by name (gelu, hard_sigmoid, hard_silu); freezing a nested model. Every expected value
is computed here with NumPy (or a Python transcription of TF's or Keras 3.15's rule), never with
the backend's own implementation of the same rule.
"""

from __future__ import annotations

import os
import tempfile

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises
from simdist.conformance.tolerances import Tolerance
from simdist.conformance.suite.values import grid as _grid

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)


# -- max pooling's gradient where a window holds tied maxima -------------------------------------------------
def _same_pads(size, k, s):
    """TF's SAME padding of one axis: (before, after), the odd one after."""
    out = -(-size // s)
    total = max((out - 1) * s + k - size, 0)
    return out, total // 2


def _max_pool_grad_first_max(x, k, s, padding, w):
    """d sum(w * max_pool(x)) / dx for NHWC x: each window's upstream gradient goes to the first of
    its maxima in row-major window order (TF's MaxPoolGrad), the padding never chosen."""
    n, h, wd, c = x.shape
    if padding == "SAME":
        (oh, pt), (ow, pl) = _same_pads(h, k, s), _same_pads(wd, k, s)
    else:
        oh, ow, pt, pl = (h - k) // s + 1, (wd - k) // s + 1, 0, 0
    g = np.zeros_like(x)
    for b in range(n):
        for ch in range(c):
            for i in range(oh):
                for j in range(ow):
                    cells = [(r, q) for r in range(i * s - pt, i * s - pt + k) for q in range(j * s - pl, j * s - pl + k)
                             if 0 <= r < h and 0 <= q < wd]
                    best = cells[0]
                    for r, q in cells[1:]:
                        if x[b, r, q, ch] > x[b, best[0], best[1], ch]:
                            best = (r, q)
                    g[b, best[0], best[1], ch] += w[b, i, j, ch]
    return g


# windows with ties: equal maxima in one window, a ReLU-like block of zeros, overlapping windows sharing a max
_TIES = np.array([[1.0, 3.0, 3.0, 0.0, 2.0], [3.0, 2.0, 0.0, 0.0, 2.0], [0.0, 0.0, 5.0, 5.0, 1.0],
                  [1.0, 5.0, 5.0, 2.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0]], np.float32)


def _max_pool2d_ties(tf, k, s, padding, layer):
    x = np.stack([_TIES, _TIES[::-1, ::-1]], axis=-1)[None]          # two channels, ties in other places
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        if layer:
            y = tf.keras.layers.MaxPooling2D(k, s, padding.lower())(xt)
        else:
            y = tf.nn.max_pool2d(xt, k, s, padding)
        w = np.arange(1, int(np.prod(y.shape)) + 1, dtype=np.float32).reshape(tuple(y.shape)) * np.float32(0.5)
        loss = tf.reduce_sum(tf.constant(w) * y)
    call = (f"d sum(w * {'MaxPooling2D' if layer else 'tf.nn.max_pool2d'}(x, {k}, {s}, {padding})) / dx, "
            "windows with tied maxima")
    assert_close(tape.gradient(loss, xt), _max_pool_grad_first_max(x, k, s, padding, w), call=call,
                 what="dx (each window's gradient on its first maximum)", tolerance=TOL32)


def _max_pool1d_ties(tf):
    x = np.array([2.0, 2.0, 1.0, 4.0, 4.0, 4.0, 0.0], np.float32).reshape(1, 7, 1)
    xt = tf.constant(x)
    w = np.array([1.0, 2.0, 3.0, 4.0, 5.0], np.float32).reshape(1, 5, 1)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        loss = tf.reduce_sum(tf.constant(w) * tf.nn.max_pool1d(xt, 3, 1, "VALID"))
    expected = np.zeros(7, np.float32)
    for j in range(5):
        win = x[0, j:j + 3, 0]
        expected[j + int(np.argmax(win))] += w[0, j, 0]
    assert_close(tape.gradient(loss, xt), expected.reshape(1, 7, 1), call="d sum(w * tf.nn.max_pool1d(x, 3, 1)) / dx",
                 what="dx (first maximum of each window)", tolerance=TOL32)


def _max_pool3d_ties(tf):
    """MaxPool3DGrad (TF 2.21's CPU kernel) differs: it feeds every input equal to its window's maximum."""
    x = np.zeros((1, 2, 4, 2, 1), np.float32)
    x[0, 0, 2, 1, 0] = 1.0
    x[0, 1, 3, 0, 0] = 1.0
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = tf.nn.max_pool3d(xt, 2, 2, "VALID")
        loss = tf.reduce_sum(tf.constant(np.array([2.0, 3.0], np.float32).reshape(1, 1, 2, 1, 1)) * y)
    expected = np.zeros_like(x)
    expected[0, :, 0:2, :, 0] = 2.0                   # the first window: all zeros, every one a maximum
    expected[0, 0, 2, 1, 0] = expected[0, 1, 3, 0, 0] = 3.0
    assert_close(tape.gradient(loss, xt), expected, call="d sum(w * tf.nn.max_pool3d(x, 2, 2)) / dx, tied maxima",
                 what="dx (every tied maximum of a window)", tolerance=TOL32)


@clause("autodiff.op-gradients", ref="tf221")
def test_blind11_max_pool_gradients_pick_the_tied_maximum_by_the_kernels_rule(tf, budget):
    cases = [dict(k=2, s=2, padding="VALID", layer=False), dict(k=2, s=1, padding="VALID", layer=False),
             dict(k=3, s=2, padding="SAME", layer=False), dict(k=2, s=1, padding="SAME", layer=True),
             dict(k=3, s=1, padding="SAME", layer=True)]
    for case in budget(cases):
        _max_pool2d_ties(tf, **case)
    for fn in budget([_max_pool1d_ties, _max_pool3d_ties]):
        fn(tf)


# -- tf.train.CheckpointManager: how many checkpoints it keeps -------------------------------------------------
def _checkpoint_manager_keeps(tf, max_to_keep, saves):
    """CheckpointManager(max_to_keep=k) keeps the k newest checkpoints (None: all), deletes the older
    ones' files, and each kept one restores the value it saved."""
    d = tempfile.mkdtemp()
    v = tf.Variable(0.0)
    ckpt = tf.train.Checkpoint(v=v)
    manager = tf.train.CheckpointManager(ckpt, d, max_to_keep=max_to_keep)
    paths = []
    for i in range(saves):
        v.assign(float(10 * i))
        paths.append(str(manager.save()))
    kept = paths if max_to_keep is None else paths[-max_to_keep:]
    call = f"CheckpointManager(max_to_keep={max_to_keep}), {saves} saves"
    assert_equal([os.path.basename(str(p)) for p in manager.checkpoints], [os.path.basename(p) for p in kept],
                 call=call, what="manager.checkpoints")
    assert_equal(str(manager.latest_checkpoint), paths[-1], call=call, what="manager.latest_checkpoint")
    assert_equal(str(tf.train.latest_checkpoint(d)), paths[-1], call=call, what="tf.train.latest_checkpoint(dir)")
    stems = sorted({f.split(".")[0] for f in os.listdir(d) if f != "checkpoint"})
    assert_equal(stems, sorted(os.path.basename(p) for p in kept), call=call,
                 what="the checkpoint files left in the directory (by prefix)")
    for p in kept:
        v.assign(-1.0)
        ckpt.restore(p)
        assert_close(float(v.numpy()), float(10 * paths.index(p)), call=call + f"; restore({os.path.basename(p)})",
                     what="v")


@clause("checkpoint.manager", ref="tf221")
def test_blind11_checkpoint_manager_keeps_the_newest_max_to_keep(tf, budget):
    for case in budget(_grid(("max_to_keep", [2, 1, 3, None]), ("saves", [4]))):
        _checkpoint_manager_keeps(tf, **case)


# -- Model.get_layer ---------------------------------------------------------------------------------------------
@clause("keras.model.errors", ref="tf221")
def test_blind11_get_layer_by_index_and_name_and_its_errors(keras):
    inp = keras.Input((2,), name="x")
    h = keras.layers.Dense(3, name="hidden")(inp)
    model = keras.Model(inp, keras.layers.Dense(1, name="out")(h))
    n = len(model.layers)
    assert_equal(n, 3, call="keras.Model(Input, Dense, Dense).layers", what="len (the InputLayer counts)")
    assert_equal([model.get_layer(index=i).name for i in range(n)], ["x", "hidden", "out"],
                 call="model.get_layer(index=i) for each i", what="names")
    assert_equal(model.get_layer("out").name, "out", call="model.get_layer('out')", what="name")
    for index in (n, n + 2):
        with raises(ValueError, match=f"index {index} but model only has {n} layers",
                    call=f"model.get_layer(index={index}) with {n} layers"):
            model.get_layer(index=index)
    with raises(ValueError, match="No such layer: missing", call="model.get_layer('missing')"):
        model.get_layer("missing")


# -- regression losses and metrics match a (n,) target to (n, 1) predictions ------------------------------------
_Y = np.array([1.0, -2.0, 0.5, 3.0], np.float32)
_P = np.array([0.5, -1.0, 2.0, 3.5], np.float32)


def _regression_rank_matching(keras, tf, name, y_shape, p_shape):
    y, p = _Y.reshape(y_shape), _P.reshape(p_shape)
    err = (_Y - _P).astype(np.float64)
    per_sample = {"mse": err ** 2, "mae": np.abs(err)}[name]
    if y_shape == p_shape == (4,):
        per_sample = per_sample.mean()      # rank 1: one sample of 4 values, averaged over the last axis
    fn = {"mse": keras.losses.mse, "mae": keras.losses.mae}[name]
    call = f"keras.losses.{name}(y_true {y_shape}, y_pred {p_shape})"
    assert_close(fn(tf.constant(y), tf.constant(p)), per_sample, call=call, what="per-sample values", tolerance=TOL32)
    metric = {"mse": keras.metrics.MeanSquaredError, "mae": keras.metrics.MeanAbsoluteError}[name]()
    metric.update_state(tf.constant(y), tf.constant(p))
    assert_close(float(metric.result()), per_sample.mean(), call=call.replace("keras.losses.", "metric "),
                 what="result", tolerance=TOL32)
    if name == "mse":
        rmse = keras.metrics.RootMeanSquaredError()
        rmse.update_state(tf.constant(y), tf.constant(p))
        assert_close(float(rmse.result()), np.sqrt(per_sample.mean()), call=f"RootMeanSquaredError {y_shape} vs {p_shape}",
                     what="result", tolerance=TOL32)


def _fit_mse_metric_with_flat_targets(keras, tf):
    """fit/evaluate with (n,) targets and a Dense(1) output: the "mse"/"mae" metrics are the per-sample
    means (no (n, n) broadcast)."""
    x = np.array([[1.0], [2.0], [-1.0], [0.5]], np.float32)
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, kernel_initializer="ones",
                                                                      bias_initializer="zeros")])
    model.compile(optimizer="sgd", loss="mse", metrics=["mse", "mae"])
    logs = model.evaluate(x, _Y, batch_size=4, verbose=0, return_dict=True)
    err = x[:, 0].astype(np.float64) - _Y
    call = "evaluate(x (4, 1), y (4,)) of Dense(1, ones) compiled with loss='mse', metrics=['mse', 'mae']"
    assert_close(logs["loss"], np.mean(err ** 2), call=call, what="loss", tolerance=TOL32)
    assert_close(logs["mse"], np.mean(err ** 2), call=call, what="mse", tolerance=TOL32)
    assert_close(logs["mae"], np.mean(np.abs(err)), call=call, what="mae", tolerance=TOL32)


@clause("keras.loss.shapes", ref="tf221")
def test_blind11_regression_losses_and_metrics_match_target_and_prediction_ranks(keras, tf, budget):
    for case in budget(_grid(("name", ["mse", "mae"]), ("y_shape", [(4,), (4, 1)]), ("p_shape", [(4, 1), (4,)]))):
        _regression_rank_matching(keras, tf, **case)
    _fit_mse_metric_with_flat_targets(keras, tf)


# -- fit: steps_per_epoch continues the data across epochs --------------------------------------------------------
def _fit_steps_per_epoch_batches(keras, tf, source, steps, epochs):
    seen: list[list[int]] = []

    class Record(keras.layers.Layer):
        def compute_output_shape(self, input_shape):
            return input_shape

        def call(self, x):
            if hasattr(x, "numpy"):
                seen.append(np.asarray(x)[:, 0].astype(int).tolist())
            return x

    inp = keras.Input((1,))
    model = keras.Model(inp, keras.layers.Dense(1)(Record()(inp)))
    model.compile("sgd", "mse", run_eagerly=True)
    if source == "dataset9":
        x = np.arange(9, dtype="float32").reshape(9, 1)
        data, kw, batches = tf.data.Dataset.from_tensor_slices((x, x)).batch(1), {}, [[i] for i in range(9)]
        expected = batches[:steps * epochs]
    elif source == "repeated6":
        x = np.arange(6, dtype="float32").reshape(6, 1)
        data, kw = tf.data.Dataset.from_tensor_slices((x, x)).batch(1).repeat(), {}
        expected = [[i % 6] for i in range(steps * epochs)]
    else:   # arrays of 10 samples in batches of 2: the epochs continue until the 5 batches are used up
        x = np.arange(10, dtype="float32").reshape(10, 1)
        data, kw = (x, x), {"batch_size": 2, "shuffle": False}
        expected = [[2 * i, 2 * i + 1] for i in range(5)][:steps * epochs]
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")    # "Your input ran out of data" where steps * epochs exceeds the data
        if isinstance(data, tuple):
            model.fit(*data, steps_per_epoch=steps, epochs=epochs, verbose=0, **kw)
        else:
            model.fit(data, steps_per_epoch=steps, epochs=epochs, verbose=0, **kw)
    call = f"fit({source}, steps_per_epoch={steps}, epochs={epochs}, run_eagerly=True)"
    assert_equal(seen, expected, call=call, what="the batches, epoch after epoch (each epoch continues the data)")


@clause("keras.fit.data", ref="tf221")
def test_blind11_steps_per_epoch_continues_the_data_across_epochs(keras, tf, budget):
    cases = [dict(source="dataset9", steps=3, epochs=3), dict(source="repeated6", steps=4, epochs=2),
             dict(source="arrays10", steps=2, epochs=3), dict(source="dataset9", steps=4, epochs=3)]
    for case in budget(cases):
        _fit_steps_per_epoch_batches(keras, tf, **case)


# -- fit: the sample weights of the validation data ------------------------------------------------------------
def _fit_validation_sample_weights(keras, tf, how):
    """Validation with sample weights: val_loss = sum(w * e^2) / n (sum_over_batch_size counts every
    value), a weighted metric takes sum(w * v) / sum(w), an unweighted one the plain mean. The model
    does not change (SGD with learning rate 0), so the expected values come from its fixed weights."""
    x = np.array([[1.0], [2.0], [-1.0], [0.5], [3.0], [-2.0], [1.5], [0.0]], np.float32)
    y = np.array([[0.0], [1.0], [1.0], [2.0], [2.5], [-1.0], [0.0], [1.0]], np.float32)
    sw = np.array([1.0, 0.5, 2.0, 0.0, 3.0, 1.0, 0.25, 2.0], np.float32)
    inp = keras.Input((1,))
    model = keras.Model(inp, keras.layers.Dense(1, kernel_initializer="ones", bias_initializer="zeros")(inp))
    model.compile(keras.optimizers.SGD(0.0), "mse", metrics=["mae"], weighted_metrics=["mse"])
    if how == "validation_data":
        vx, vy, vw = x[4:], y[4:], sw[4:]
        model.fit(x[:4], y[:4], batch_size=4, epochs=1, verbose=0, validation_data=(vx, vy, vw))
        hist = model.history.history
    elif how == "validation_dataset":
        vx, vy, vw = x[4:], y[4:], sw[4:]
        vds = tf.data.Dataset.from_tensor_slices((vx, vy, vw)).batch(4)
        hist = model.fit(x[:4], y[:4], batch_size=4, epochs=1, verbose=0, validation_data=vds).history
    else:   # validation_split holds out the last quarter, sample weights included
        vx, vy, vw = x[6:], y[6:], sw[6:]
        hist = model.fit(x, y, sample_weight=sw, batch_size=8, epochs=1, verbose=0, validation_split=0.25,
                         shuffle=False).history
    e2 = (vx[:, 0].astype(np.float64) - vy[:, 0]) ** 2
    w = vw.astype(np.float64)
    call = f"fit(..., {how} with sample weights) of Dense(1, ones), SGD(0), weighted_metrics=['mse'], metrics=['mae']"
    assert_close(hist["val_loss"][0], np.sum(w * e2) / len(e2), call=call, what="val_loss (sum(w e^2) / n)",
                 tolerance=TOL32)
    assert_close(hist["val_mse"][0], np.sum(w * e2) / np.sum(w), call=call, what="val_mse (weighted metric)",
                 tolerance=TOL32)
    assert_close(hist["val_mae"][0], np.mean(np.abs(vx[:, 0] - vy[:, 0])), call=call,
                 what="val_mae (unweighted metric)", tolerance=TOL32)


@clause("keras.fit.validation", ref="tf221")
def test_blind11_validation_data_carries_its_sample_weights(keras, tf, budget):
    for how in budget(["validation_data", "validation_dataset", "validation_split"]):
        _fit_validation_sample_weights(keras, tf, how)


# -- tf.data: batch, padded_batch, repeat, from_tensor_slices, shuffle ------------------------------------------
def _rows(ds):
    return [np.asarray(b).tolist() for b in ds]


def _padded_batch_pads_to_the_longest(tf, padded_shapes, padding_values, drop_remainder):
    """padded_batch pads every element of a batch to the batch's longest (or to padded_shapes), with
    padding_values (default 0), whichever element of the batch is the longest."""
    lengths = [1, 4, 2, 3, 5]
    ds = tf.data.Dataset.from_tensor_slices(tf.constant(lengths, tf.int64)).map(lambda n: tf.range(n) + 1)
    kw = {}
    if padded_shapes is not None:
        kw["padded_shapes"] = padded_shapes
    if padding_values is not None:
        kw["padding_values"] = tf.constant(padding_values, tf.int64)
    got = _rows(ds.padded_batch(2, drop_remainder=drop_remainder, **kw))
    pad = 0 if padding_values is None else padding_values
    expected = []
    elems = [list(range(1, n + 1)) for n in lengths]
    for i in range(0, len(elems), 2):
        batch = elems[i:i + 2]
        if drop_remainder and len(batch) < 2:
            break
        width = padded_shapes[0] if padded_shapes is not None else max(len(e) for e in batch)
        expected.append([e + [pad] * (width - len(e)) for e in batch])
    assert_equal(got, expected, call=f"Dataset of int64 vectors of lengths {lengths}.padded_batch(2, "
                 f"padded_shapes={padded_shapes}, padding_values={padding_values}, drop_remainder={drop_remainder})",
                 what="batches")


def _batch_drop_remainder_after_transforms(tf, transform):
    """batch(3, drop_remainder=True) drops the short last batch whatever produced the elements."""
    ds = tf.data.Dataset.range(8)
    if transform == "map":
        ds, kept = ds.map(lambda x: x * 2), [2 * i for i in range(8)]
    elif transform == "filter":
        ds, kept = ds.filter(lambda x: x % 3 != 0), [i for i in range(8) if i % 3 != 0]
    elif transform == "repeat":
        ds, kept = ds.take(4).repeat(2), list(range(4)) * 2
    else:
        ds, kept = ds, list(range(8))
    got = _rows(ds.batch(3, drop_remainder=True))
    expected = [kept[i:i + 3] for i in range(0, len(kept) - len(kept) % 3, 3)]
    assert_equal(got, expected, call=f"Dataset.range(8).{transform}(...).batch(3, drop_remainder=True)", what="batches")
    got = _rows(ds.batch(3))
    expected = [kept[i:i + 3] for i in range(0, len(kept), 3)]
    assert_equal(got, expected, call=f"Dataset.range(8).{transform}(...).batch(3)", what="batches (short last kept)")


def _repeat_counts(tf, count, mapped):
    ds = tf.data.Dataset.range(3)
    if mapped:
        ds = ds.map(lambda x: x + 10)
    base = [i + (10 if mapped else 0) for i in range(3)]
    rep = ds.repeat(count)
    call = f"Dataset.range(3){'.map(+10)' if mapped else ''}.repeat({count})"
    assert_equal([int(v) for v in rep], base * count, call=call, what="elements")
    assert_equal(int(rep.cardinality()), 3 * count, call=call, what="cardinality")
    assert_equal([int(v) for v in rep.take(3 * count + 2)], base * count, call=call + ".take(more)", what="elements")


@clause("dataset.batching", ref="tf221")
def test_blind11_padded_batch_pads_each_batch_to_its_longest_element(tf, budget):
    cases = [dict(padded_shapes=None, padding_values=None, drop_remainder=False),
             dict(padded_shapes=None, padding_values=-1, drop_remainder=True),
             dict(padded_shapes=[6], padding_values=None, drop_remainder=False)]
    for case in budget(cases):
        _padded_batch_pads_to_the_longest(tf, **case)


@clause("dataset.batching", ref="tf221")
def test_blind11_batch_and_repeat_count_whatever_feeds_them(tf, budget):
    for transform in budget(["map", "filter", "repeat", "slices"]):
        _batch_drop_remainder_after_transforms(tf, transform)
    for case in budget(_grid(("count", [1, 2, 3]), ("mapped", [False, True]))):
        _repeat_counts(tf, **case)


@clause("dataset.batching", ref="tf221")
def test_blind11_from_tensor_slices_refuses_components_of_different_lengths(tf, budget):
    cases = [((np.zeros(4), np.zeros(3)), "4 and 3"), ((np.zeros(3), np.zeros(4)), "3 and 4"),
             ({"a": np.zeros(3), "b": np.zeros(5)}, "3 and 5"), ((np.zeros((3, 2)), np.zeros((2, 3))), "3 and 2")]
    for tensors, dims in budget(cases):
        shapes = tf.nest.map_structure(lambda a: a.shape, tensors)
        with raises(ValueError, match=f"Dimensions {dims} are not compatible",
                    call=f"Dataset.from_tensor_slices(components of shapes {shapes})"):
            tf.data.Dataset.from_tensor_slices(tensors)


@clause("dataset.shuffle", ref="tf221")
def test_blind11_shuffle_buffer_of_one_keeps_the_order_and_seeds_differ(tf):
    for n in (5, 8):
        got = [int(v) for v in tf.data.Dataset.range(n).shuffle(1, seed=3)]
        assert_equal(got, list(range(n)), call=f"Dataset.range({n}).shuffle(buffer_size=1, seed=3)",
                     what="order (a buffer of one element cannot reorder)")
    orders = {s: [int(v) for v in tf.data.Dataset.range(10).shuffle(10, seed=s)] for s in (1, 2, 3)}
    for s, order in orders.items():
        assert_equal(sorted(order), list(range(10)), call=f"Dataset.range(10).shuffle(10, seed={s})",
                     what="the elements")
        again = [int(v) for v in tf.data.Dataset.range(10).shuffle(10, seed=s)]
        assert_equal(again, order, call=f"Dataset.range(10).shuffle(10, seed={s}) made twice", what="first pass")
    assert_true(len({tuple(o) for o in orders.values()}) == 3,
                f"seeds 1, 2, 3 give the orders {orders}, but different seeds should give different permutations",
                call="Dataset.range(10).shuffle(10, seed=s) for s in 1, 2, 3")


# -- hinge metrics: 0/1 labels become -1/1 only when every label is 0 or 1 ----------------------------------------
def _hinge_label_conversion(keras, tf, labels):
    y = {"binary": np.array([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]]), "signed": np.array([[-1.0, 1.0, 1.0], [1.0, -1.0, 1.0]]),
         "mixed": np.array([[-1.0, 0.0, 1.0], [1.0, 1.0, 0.0]])}[labels].astype(np.float32)
    p = np.array([[0.5, -0.3, 0.8], [-1.2, 0.4, 2.0]], np.float32)
    t = y.astype(np.float64)
    if np.all((t == 0) | (t == 1)):
        t = 2 * t - 1                        # the whole batch is binary: mapped to -1/1
    margin = np.maximum(1 - t * p, 0)
    call = f"keras.metrics.hinge / squared_hinge / Hinge of {labels} labels {y.tolist()}"
    assert_close(keras.metrics.hinge(tf.constant(y), tf.constant(p)), margin.mean(-1), call=call, what="hinge",
                 tolerance=TOL32)
    assert_close(keras.metrics.squared_hinge(tf.constant(y), tf.constant(p)), (margin ** 2).mean(-1), call=call,
                 what="squared_hinge", tolerance=TOL32)
    m = keras.metrics.Hinge()
    m.update_state(tf.constant(y), tf.constant(p))
    assert_close(float(m.result()), margin.mean(), call=call, what="Hinge().result()", tolerance=TOL32)


@clause("keras.metric.hinge-correlation", ref="tf221")
def test_blind11_hinge_maps_labels_to_signs_only_for_a_wholly_binary_batch(keras, tf, budget):
    for labels in budget(["mixed", "binary", "signed"]):
        _hinge_label_conversion(keras, tf, labels)


# -- a masked loss under each reduction -------------------------------------------------------------------------
def _masked_loss_reductions(keras, tf, reduction, weighted):
    """SparseCategoricalCrossentropy(ignore_class=1): the ignored entries give 0 and are masked; the
    mask is folded into the sample weights, rescaled by total/valid for the mean reductions only."""
    yt = np.array([0, 1, 2, 1, 0], np.int32)
    yp = np.array([[0.7, 0.2, 0.1], [0.3, 0.4, 0.3], [0.1, 0.1, 0.8], [0.2, 0.5, 0.3], [0.5, 0.25, 0.25]], np.float32)
    sw = np.array([1.0, 2.0, 0.5, 3.0, 2.0], np.float32) if weighted else None
    valid = yt != 1
    per = np.where(valid, -np.log(yp[np.arange(5), np.where(valid, yt, 0)].astype(np.float64)), 0.0)
    w = np.ones(5) if sw is None else sw.astype(np.float64)
    if reduction in (None, "none"):
        expected = per * w * valid
    elif reduction == "sum":
        expected = np.sum(per * w * valid)
    elif reduction == "mean_with_sample_weight":    # the mask is a weight: divided by sum(w * mask)
        expected = np.sum(per * w * valid) / np.sum(w * valid)
    else:                                           # "sum_over_batch_size", "mean": the mean over valid entries
        expected = np.sum(per * w * valid) / valid.sum()
    loss = keras.losses.SparseCategoricalCrossentropy(ignore_class=1, reduction=reduction)
    got = loss(tf.constant(yt), tf.constant(yp), sample_weight=None if sw is None else tf.constant(sw))
    assert_close(got, expected, call=f"SparseCategoricalCrossentropy(ignore_class=1, reduction={reduction!r})"
                 f"(y_true {yt.tolist()}, probabilities, sample_weight={None if sw is None else sw.tolist()})",
                 what="loss", tolerance=TOL32)


@clause("keras.loss.ignore-class", ref="tf221")
def test_blind11_masked_loss_folds_its_mask_into_each_reduction(keras, tf, budget):
    cases = _grid(("reduction", ["sum", "sum_over_batch_size", "mean", "mean_with_sample_weight", "none"]),
                  ("weighted", [False, True]))
    for case in budget(cases):
        _masked_loss_reductions(keras, tf, **case)


# -- a callback's on_batch_begin/end are fit's batch hooks ---------------------------------------------------------
@clause("keras.fit.callback-hooks", ref="tf221")
def test_blind11_on_batch_hooks_are_the_training_batch_hooks(keras):
    calls = []

    class Hooks(keras.callbacks.Callback):
        def on_batch_begin(self, batch, logs=None):
            calls.append(("begin", batch))

        def on_batch_end(self, batch, logs=None):
            calls.append(("end", batch, sorted(logs or {})))

    inp = keras.Input((1,))
    model = keras.Model(inp, keras.layers.Dense(1)(inp))
    model.compile("sgd", "mse", metrics=["mae"])
    x = np.zeros((6, 1), np.float32)
    model.fit(x, x, batch_size=2, epochs=2, verbose=0, callbacks=[Hooks()])
    expected = [c for _ in range(2) for b in range(3) for c in (("begin", b), ("end", b, ["loss", "mae"]))]
    assert_equal(calls, expected, call="fit(6 samples, batch_size=2, epochs=2) with a callback overriding "
                 "on_batch_begin/on_batch_end", what="calls (Callback.on_train_batch_* call on_batch_*)")
    calls.clear()
    model.evaluate(x, x, batch_size=2, verbose=0, callbacks=[Hooks()])
    model.predict(x, batch_size=2, verbose=0, callbacks=[Hooks()])
    assert_equal(calls, [], call="evaluate and predict with the same callback", what="calls (training hooks only)")


# -- tf.clip_by_global_norm: a list below the clip norm is unchanged ------------------------------------------------
def _clip_by_global_norm(tf, clip_norm, with_none, with_slices):
    a = np.array([0.3, -0.4, 1.2], np.float32)
    b = np.array([[1.2, 0.5], [-2.0, 0.25]], np.float32)
    ts = [tf.constant(a), tf.constant(b)]
    values = [a, b]
    if with_slices:
        ts.append(tf.IndexedSlices(tf.constant([[1.0, -1.0], [0.5, 2.0]]), tf.constant([0, 2]), tf.constant([3, 2])))
        values.append(np.array([[1.0, -1.0], [0.5, 2.0]], np.float32))
    if with_none:
        ts.insert(1, None)
    norm = np.sqrt(sum(float(np.sum(v.astype(np.float64) ** 2)) for v in values))
    scale = clip_norm / max(norm, clip_norm)
    out, got_norm = tf.clip_by_global_norm(ts, clip_norm)
    call = f"tf.clip_by_global_norm(tensors of global norm {norm:.4f}, clip_norm={clip_norm}), None: {with_none}"
    assert_close(got_norm, norm, call=call, what="global_norm", tolerance=TOL32)
    if with_none:
        assert_true(out[1] is None, f"out[1]={out[1]!r}, but a None entry should stay None", call=call)
        out = out[:1] + out[2:]
    for i, (o, v) in enumerate(zip(out, values)):
        got = o.values if hasattr(o, "indices") else o
        assert_close(got, v * scale, call=call, what=f"out[{i}] (scaled by clip_norm / max(norm, clip_norm))",
                     tolerance=TOL32)


@clause("ops.clip-global-norm", ref="tf221")
def test_blind11_clip_by_global_norm_only_shrinks(tf, budget):
    for case in budget(_grid(("clip_norm", [10.0, 1.0, 2.9]), ("with_none", [True, False]),
                             ("with_slices", [False, True]))):
        _clip_by_global_norm(tf, **case)


# -- keras.initializers.Orthogonal: orthonormal rows of a wide matrix, columns of a tall one -----------------------
def _orthogonal(keras, shape, gain):
    w = np.asarray(keras.initializers.Orthogonal(gain=gain, seed=3)(shape)).astype(np.float64)
    m = w.reshape(-1, shape[-1])
    rows, cols = m.shape
    gram = m @ m.T if rows < cols else m.T @ m
    call = f"keras.initializers.Orthogonal(gain={gain}, seed=3)({shape})"
    assert_equal(tuple(w.shape), tuple(shape), call=call, what="shape")
    assert_close(gram, gain ** 2 * np.eye(min(rows, cols)), call=call,
                 what=f"{'W W^T' if rows < cols else 'W^T W'} of the (prod(shape[:-1]), shape[-1]) matrix",
                 tolerance=Tolerance(rtol=1e-5, atol=1e-5))


@clause("keras.init.distributions", ref="tf221")
def test_blind11_orthogonal_initializer_is_orthonormal_along_the_short_side(keras, tf, budget):
    cases = [dict(shape=(3, 12), gain=1.0), dict(shape=(8, 3), gain=2.0), dict(shape=(4, 4), gain=0.5),
             dict(shape=(2, 3, 4), gain=1.5), dict(shape=(2, 1, 10), gain=1.0)]
    for case in budget(cases):
        _orthogonal(keras, **case)
    inp = keras.Input((2, 3))
    lstm = keras.layers.LSTM(4, seed=1)
    lstm(inp)
    rk = np.asarray(lstm.cell.recurrent_kernel).astype(np.float64)
    assert_close(rk @ rk.T, np.eye(4), call="LSTM(4) on 3 features: recurrent_kernel (4, 16), Orthogonal by default",
                 what="W W^T", tolerance=Tolerance(rtol=1e-5, atol=1e-5))


# -- LSTM: the per-gate path (recurrent_dropout, inference) gives the fused path's values --------------------------
def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def _lstm_np(x, k, rk, b, return_sequences):
    """Keras's LSTM (tanh, sigmoid): z = x W + h U + b split into i, f, c, o; c' = f c + i tanh(z_c);
    h' = o tanh(c')."""
    u = rk.shape[0]
    h = np.zeros((x.shape[0], u))
    c = np.zeros((x.shape[0], u))
    outs = []
    for t in range(x.shape[1]):
        z = x[:, t].astype(np.float64) @ k + h @ rk + (0 if b is None else b)
        i, f, g, o = _sigmoid(z[:, :u]), _sigmoid(z[:, u:2 * u]), np.tanh(z[:, 2 * u:3 * u]), _sigmoid(z[:, 3 * u:])
        c = f * c + i * g
        h = o * np.tanh(c)
        outs.append(h)
    return np.stack(outs, 1) if return_sequences else h


def _lstm_gate_paths(keras, recurrent_dropout, use_bias, return_sequences):
    units, feats = 3, 2
    rng = np.random.RandomState(7)
    x = rng.uniform(-1, 1, (2, 4, feats)).astype(np.float32)
    k = rng.uniform(-0.8, 0.8, (feats, 4 * units)).astype(np.float32)
    rk = rng.uniform(-0.8, 0.8, (units, 4 * units)).astype(np.float32)     # every gate's block different
    b = rng.uniform(-0.5, 0.5, (4 * units,)).astype(np.float32)
    layer = keras.layers.LSTM(units, recurrent_dropout=recurrent_dropout, use_bias=use_bias,
                              return_sequences=return_sequences)
    layer(x)
    layer.set_weights([k, rk, b] if use_bias else [k, rk])
    assert_close(layer(x, training=False), _lstm_np(x, k, rk, b if use_bias else None, return_sequences),
                 call=f"LSTM({units}, recurrent_dropout={recurrent_dropout}, use_bias={use_bias}, "
                 f"return_sequences={return_sequences})(x, training=False)", tolerance=TOL32)


@clause("keras.rnn.layers", ref="tf221")
def test_blind11_lstm_gates_take_their_own_kernel_blocks_on_both_paths(keras, budget):
    for case in budget(_grid(("recurrent_dropout", [0.4, 0.0]), ("use_bias", [True, False]),
                             ("return_sequences", [True, False]))):
        _lstm_gate_paths(keras, **case)


# -- keras activations by name: their Keras 3 definitions and defaults ---------------------------------------------
def _activation_by_name(keras, tf, name, via):
    import math
    x = np.array([[-4.0, -2.5, -1.0, -0.3], [0.0, 0.4, 1.7, 3.5]], np.float32)
    xd = x.astype(np.float64)
    hs = np.clip(xd + 3.0, 0.0, 6.0) / 6.0
    expected = {"gelu": xd * 0.5 * (1.0 + np.vectorize(math.erf)(xd / math.sqrt(2.0))),   # exact: approximate=False
                "hard_sigmoid": hs, "hard_silu": xd * hs}[name]
    if via == "function":
        got, call = getattr(keras.activations, name)(tf.constant(x)), f"keras.activations.{name}(x)"
    elif via == "layer":
        got, call = keras.layers.Activation(name)(tf.constant(x)), f"keras.layers.Activation({name!r})(x)"
    else:
        dense = keras.layers.Dense(4, activation=name, kernel_initializer="identity", bias_initializer="zeros")
        got, call = dense(tf.constant(x)), f"Dense(4, activation={name!r}, identity kernel)(x)"
    assert_close(got, expected, call=call, tolerance=TOL32)


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_blind11_activations_by_name_follow_keras3_definitions(keras, tf, budget):
    for case in budget(_grid(("name", ["gelu", "hard_sigmoid", "hard_silu"]), ("via", ["function", "layer", "dense"]))):
        _activation_by_name(keras, tf, **case)


# -- GradientTape: gradients with respect to intermediate results -----------------------------------------------
def _intermediate_sources(tf, persistent):
    """tape.gradient(y, [x, h, z]) with h and z computed from x on the tape: each source gets the
    gradient of y through it (an intermediate's own, not only what it passes on)."""
    xv = np.array([0.5, -1.0, 2.0])
    x = tf.Variable(xv)
    with tf.GradientTape(persistent=persistent) as tape:
        h = x * 3.0
        z = tf.sin(h)
        y = tf.reduce_sum(z * h) + tf.reduce_sum(h)
    gx, gh, gz = tape.gradient(y, [x, h, z])
    hv = 3.0 * xv
    dh = np.sin(hv) + hv * np.cos(hv) + 1.0
    call = "y = sum(sin(h) * h) + sum(h), h = 3x: tape.gradient(y, [x, h, sin(h)])"
    assert_close(gh, dh, call=call, what="dy/dh (h an intermediate source)", tolerance=TOL32)
    assert_close(gz, hv, call=call, what="dy/dz (z = sin(h))", tolerance=TOL32)
    assert_close(gx, 3.0 * dh, call=call, what="dy/dx", tolerance=TOL32)
    if persistent:
        (gh2,) = tape.gradient(y, [h])
        assert_close(gh2, dh, call=call + ", then tape.gradient(y, [h]) again", what="dy/dh", tolerance=TOL32)
        del tape


@clause("autodiff.targets", ref="tf221")
def test_blind11_intermediate_tensors_as_sources_get_their_gradient(tf, budget):
    for persistent in budget([False, True]):
        _intermediate_sources(tf, persistent)


# -- freezing a nested model freezes every layer in it ------------------------------------------------------------
def _frozen_base_model(keras, tf, nest):
    """base.trainable = False on a nested model (Sequential or functional) sets every sub-layer's
    trainable (and its variables') to False: fit leaves the base's kernels and BatchNormalization's
    moving statistics alone (a frozen BatchNormalization runs in inference mode) and trains the head."""
    keras.utils.set_random_seed(4)
    layers = [keras.layers.Dense(3, name="base_dense"), keras.layers.BatchNormalization(name="base_bn")]
    if nest == "sequential":
        base = keras.Sequential([keras.Input((2,))] + layers, name="base")
    else:
        bin_ = keras.Input((2,))
        base = keras.Model(bin_, layers[1](layers[0](bin_)), name="base")
    inp = keras.Input((2,))
    model = keras.Model(inp, keras.layers.Dense(1, name="head")(base(inp)))
    base.trainable = False
    call = f"a {nest} base (Dense, BatchNormalization) with base.trainable = False inside a functional model"
    assert_equal([l.trainable for l in layers], [False, False], call=call, what="the base's layers' trainable")
    names = sorted(v.path if hasattr(v, "path") else v.name for v in model.trainable_weights)
    assert_equal(len(model.trainable_weights), 2, call=call, what=f"len(model.trainable_weights) ({names})")
    before = [np.asarray(w) for w in base.get_weights()]
    head_before = [np.asarray(w) for w in model.get_layer("head").get_weights()]
    x = np.array([[1.0, 2.0], [-1.0, 0.5], [3.0, -2.0], [0.0, 1.0]], np.float32)
    model.compile(keras.optimizers.SGD(0.1), "mse")
    model.fit(x, np.ones((4, 1), np.float32), batch_size=2, epochs=2, verbose=0)
    for i, (b, a) in enumerate(zip(before, base.get_weights())):
        assert_close(np.asarray(a), b, call=call + "; fit 2 epochs", what=f"base weight {i} (unchanged)")
    moved = max(float(np.abs(np.asarray(a) - b).max()) for a, b in zip(model.get_layer("head").get_weights(),
                                                                         head_before))
    assert_true(moved > 1e-4, f"the head's weights moved by {moved}, but the head is trainable", call=call)
    base.trainable = True
    assert_equal([l.trainable for l in layers], [True, True], call=call + "; base.trainable = True",
                 what="the base's layers' trainable")
    assert_equal(len(model.trainable_weights), 6, call=call + "; base.trainable = True",
                 what="len(model.trainable_weights) (dense 2, gamma/beta 2, head 2)")


@clause("keras.layer.tracking", ref="tf221")
def test_blind11_freezing_a_nested_model_freezes_its_layers(keras, tf, budget):
    for nest in budget(["sequential", "functional"]):
        _frozen_base_model(keras, tf, nest)
