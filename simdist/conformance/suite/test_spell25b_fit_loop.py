"""spell25b (issue 29): the fit loop's rules through every spelling of the call — class_weight from arrays, a
tf.data.Dataset and a PyDataset, with int, float, (n, 1) and one-hot labels; evaluate's loss over batches that
leave a partial one, spelled as evaluate(arrays), evaluate(Dataset), fit(validation_data=...) and with sample
weights; validation_split beside the equivalent validation_data; compile's "accuracy"/"acc"/"crossentropy"
resolved by the labels' shape ((n,), (n, 1), one-hot; binary outputs).

Each spelling's figure is computed in NumPy (float64) from Keras 3.15's rules (keras/src/trainers/data_adapters/
data_adapter_utils.py class_weight_to_sample_weights and tf_dataset_adapter.make_class_weight_map_fn: one-hot
labels by argmax, a column squeezed, float labels ROUNDED to a class; trainer.py: the loss tracker weighs each
batch by its size; array_data_adapter.train_validation_split: the first floor(n * (1 - split)) samples train;
compile_utils.get_metric/get_loss: binary if the output's last dim is 1, sparse if the labels have a lower rank
or a last dim of 1 beside more classes). The model is a bias-free Dense layer with fixed weights trained with
SGD(0.0), so every reported loss is a plain function of the weights.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL = Tolerance(rtol=1e-5, atol=1e-6)

_RNG = np.random.default_rng(2525)
X6 = _RNG.integers(-4, 5, size=(6, 2)).astype(np.float32) / 2.0
#: float class labels, rounded by Keras to [0, 2, 2, 0, 1, 3] (truncation would give [0, 1, 2, 0, 1, 2])
FLOAT_LABELS = np.array([0.4, 1.6, 2.2, 0.0, 1.0, 2.6], np.float32)
INT_LABELS = np.array([0, 2, 1, 1, 0, 2], np.int64)
CLASS_WEIGHT = {0: 2.0, 1: 0.5, 2: 3.0, 3: 0.25}


def _zero_model(keras, units: int):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(units, use_bias=False, kernel_initializer="zeros")])
    model.compile(optimizer=keras.optimizers.SGD(0.0), loss="mse", run_eagerly=True)
    return model


def _class_of(y: np.ndarray) -> np.ndarray:
    """Keras's class of each label: argmax of one-hot rows, a column squeezed, floats rounded."""
    if y.ndim > 1:
        y = np.argmax(y, axis=-1) if y.shape[-1] != 1 else y[:, 0]
    return np.round(y).astype(np.int64)


#: label spelling -> (labels, output units)
LABELS = {
    "int (n,)": (INT_LABELS, 1),
    "float (n,)": (FLOAT_LABELS, 1),
    "int (n,1)": (INT_LABELS[:, None], 1),
    "float (n,1)": (FLOAT_LABELS[:, None], 1),
    "one-hot (n,3)": (np.eye(3, dtype=np.float32)[INT_LABELS], 3),
}


def _source(keras, tf, kind: str, y: np.ndarray):
    if kind == "arrays":
        return {"x": X6, "y": y, "batch_size": 4}
    if kind == "dataset":
        return {"x": tf.data.Dataset.from_tensor_slices((X6, y)).batch(4)}

    class Batches(keras.utils.PyDataset):
        def __init__(self):
            super().__init__()

        def __len__(self):
            return 2

        def __getitem__(self, i):
            return X6[i * 4:(i + 1) * 4].copy(), y[i * 4:(i + 1) * 4].copy()

    return {"x": Batches()}


@clause("keras.fit.data", ref="tf221")
@pytest.mark.parametrize("source", ["arrays", "dataset", "pydataset"])
def test_spell25b_class_weight_every_label_spelling(keras, tf, source):
    """fit(class_weight=...) weighs each sample by the class of its label whatever the labels' spelling and the
    input's: the loss fit reports (SGD(0.0), zero kernel: per-sample mse = mean of the squared label row) is
    sum_i cw[class_i] * l_i / n, the class from argmax (one-hot), a squeezed column, or a rounded float."""
    for name, (y, units) in LABELS.items():
        model = _zero_model(keras, units)
        hist = model.fit(**_source(keras, tf, source, y), epochs=1, verbose=0, shuffle=False,
                         class_weight=CLASS_WEIGHT)
        per_sample = (y.astype(np.float64).reshape(len(y), -1) ** 2).mean(axis=1)
        w = np.array([CLASS_WEIGHT[c] for c in _class_of(y)])
        expected = (w * per_sample).sum() / len(y)
        assert_close(hist.history["loss"][0], expected, tolerance=TOL,
                     call=f"fit({source}, labels {name}, class_weight={CLASS_WEIGHT}) with SGD(0.0), zero kernel",
                     what="history['loss'][0] (classes " + str(_class_of(y).tolist()) + ")")


X5 = _RNG.integers(-4, 5, size=(5, 2)).astype(np.float32) / 2.0
Y5 = _RNG.integers(-4, 5, size=(5, 1)).astype(np.float32) / 2.0
SW5 = np.array([1.0, 0.5, 2.0, 0.0, 3.0], np.float32)
KERNEL = np.array([[0.5], [-1.0]], np.float32)


@clause("keras.fit.evaluate-inference", ref="tf221")
def test_spell25b_evaluate_loss_over_a_partial_batch_every_spelling(keras, tf):
    """Five samples in batches of 2 (2, 2, 1) or 3 (3, 2): evaluate's loss is the mean over SAMPLES (each
    batch's loss weighed by its size), however the data is spelled — evaluate(arrays), evaluate(Dataset),
    fit(validation_data=arrays / Dataset)'s val_loss (in three validation batches: validation_batch_size=2 beside
    fit's batch_size=5, or the Dataset's own batches), evaluate with sample weights (sum of sw * l / n)."""
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, use_bias=False)])
    model.compile(optimizer=keras.optimizers.SGD(0.0), loss="mse", metrics=["mae"], run_eagerly=True)
    model.set_weights([KERNEL])
    err = X5.astype(np.float64) @ KERNEL.astype(np.float64) - Y5
    mse, mae = (err[:, 0] ** 2).mean(), np.abs(err[:, 0]).mean()
    weighted = (SW5 * err[:, 0] ** 2).sum() / 5
    got = {
        "evaluate(arrays, batch_size=2)": model.evaluate(X5, Y5, batch_size=2, verbose=0),
        "evaluate(Dataset.batch(2))": model.evaluate(tf.data.Dataset.from_tensor_slices((X5, Y5)).batch(2),
                                                     verbose=0),
        "evaluate(Dataset.batch(3))": model.evaluate(tf.data.Dataset.from_tensor_slices((X5, Y5)).batch(3),
                                                     verbose=0),
    }
    for call, (loss, got_mae) in got.items():
        assert_close(loss, mse, tolerance=TOL, call=call, what="loss (the mean over the 5 samples)")
        assert_close(got_mae, mae, tolerance=TOL, call=call, what="mae")
    loss, _ = model.evaluate(X5, Y5, sample_weight=SW5, batch_size=2, verbose=0)
    assert_close(loss, weighted, tolerance=TOL, call="evaluate(arrays, sample_weight, batch_size=2)",
                 what="loss (sum of sw * l over the samples / 5)")
    for call, val in {"fit(validation_data=(x, y), validation_batch_size=2)": (X5, Y5),
                      "fit(validation_data=Dataset.batch(2))": tf.data.Dataset.from_tensor_slices((X5, Y5)).batch(2)
                      }.items():
        kw = {"validation_batch_size": 2} if isinstance(val, tuple) else {}
        seen: list = []
        counter = keras.callbacks.LambdaCallback(on_test_batch_end=lambda batch, logs=None: seen.append(batch))
        hist = model.fit(X5, Y5, batch_size=5, epochs=1, verbose=0, validation_data=val, callbacks=[counter], **kw)
        assert_equal(len(seen), 3, call=call, what="validation batches (on_test_batch_end calls: 2, 2, 1 samples)")
        assert_close(hist.history["val_loss"][0], mse, tolerance=TOL, call=call, what="val_loss")
        assert_close(hist.history["loss"][0], mse, tolerance=TOL, call=call, what="loss (one batch of 5)")


X10 = _RNG.integers(-4, 5, size=(10, 2)).astype(np.float32) / 2.0
Y10 = _RNG.integers(-6, 7, size=(10, 1)).astype(np.float32) / 2.0


@clause("keras.fit.validation", ref="tf221")
@pytest.mark.parametrize("split", [0.25, 0.35])
def test_spell25b_validation_split_is_validation_data_of_the_last_samples(keras, split):
    """fit(validation_split=s) trains on the first floor(10 * (1 - s)) samples and validates on the rest, as
    fit(validation_data=(those samples)) does: both spellings' loss and val_loss equal NumPy's means."""
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, use_bias=False)])
    model.compile(optimizer=keras.optimizers.SGD(0.0), loss="mse", run_eagerly=True)
    model.set_weights([KERNEL])
    cut = int(np.floor(10 * (1.0 - split)))
    sq = ((X10.astype(np.float64) @ KERNEL - Y10)[:, 0]) ** 2
    spellings = {
        f"fit(validation_split={split})": model.fit(X10, Y10, validation_split=split, epochs=1, verbose=0,
                                                    shuffle=False),
        f"fit(x[:{cut}], validation_data=x[{cut}:])": model.fit(X10[:cut], Y10[:cut],
                                                               validation_data=(X10[cut:], Y10[cut:]), epochs=1,
                                                               verbose=0, shuffle=False),
    }
    for call, hist in spellings.items():
        assert_close(hist.history["loss"][0], sq[:cut].mean(), tolerance=TOL, call=call,
                     what=f"loss (mean over the first {cut} samples)")
        assert_close(hist.history["val_loss"][0], sq[cut:].mean(), tolerance=TOL, call=call,
                     what=f"val_loss (mean over the last {10 - cut} samples)")


X8 = _RNG.integers(-4, 5, size=(8, 2)).astype(np.float32) / 2.0
K3 = np.array([[1.0, -0.5, 0.25], [-0.75, 0.5, 1.25]], np.float32)
K1 = np.array([[1.0], [-0.75]], np.float32)


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@clause("keras.metric.accuracy-resolution", ref="tf221")
def test_spell25b_accuracy_and_crossentropy_strings_follow_the_label_spelling(keras):
    """compile(loss="crossentropy", metrics=["accuracy", "acc"]) on a softmax output of 3 classes: integer labels
    of shape (n,) or (n, 1) (int or float) are sparse, one-hot labels categorical; on a sigmoid output of 1 the
    labels (n,) or (n, 1) are binary. Each spelling's accuracy and loss equal NumPy's."""
    z3 = X8.astype(np.float64) @ K3
    p3 = _softmax(z3)
    cls = np.argmax(_softmax(X8.astype(np.float64) @ K3[:, ::-1]), axis=-1)    # labels not always the prediction
    acc3 = (np.argmax(p3, axis=-1) == cls).mean()
    ce3 = -np.log(p3[np.arange(8), cls]).mean()
    p1 = 1.0 / (1.0 + np.exp(-(X8.astype(np.float64) @ K1)[:, 0]))
    yb = (X8[:, 0] > 0).astype(np.float32)
    acc1 = ((p1 > 0.5) == (yb == 1)).mean()
    bce1 = -(yb * np.log(p1) + (1 - yb) * np.log(1 - p1)).mean()
    cases = {
        "softmax, float labels (n,1)": (3, "softmax", K3, cls[:, None].astype(np.float32), acc3, ce3),
        "softmax, one-hot labels (n,3)": (3, "softmax", K3, np.eye(3, dtype=np.float32)[cls], acc3, ce3),
        "sigmoid, labels (n,1)": (1, "sigmoid", K1, yb[:, None], acc1, bce1),
    }
    for name, (units, act, kernel, y, acc, ce) in cases.items():
        model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(units, activation=act, use_bias=False)])
        model.compile(optimizer="sgd", loss="crossentropy", metrics=["accuracy", "acc"], run_eagerly=True)
        model.set_weights([kernel])
        out = model.evaluate(X8, y, verbose=0, return_dict=True)
        call = f"compile(loss='crossentropy', metrics=['accuracy', 'acc']).evaluate({name})"
        assert_close(out["accuracy"], acc, tolerance=TOL, call=call, what="accuracy")
        assert_close(out["acc"], acc, tolerance=TOL, call=call, what="acc")
        assert_close(out["loss"], ce, tolerance=TOL, call=call, what="loss")


X8F = _RNG.integers(-4, 5, size=(8, 2)).astype(np.float32) / 2.0
Y8F = _RNG.integers(-4, 5, size=(8, 1)).astype(np.float32) / 2.0


@clause("keras.fit.data", ref="tf221")
def test_spell25b_shuffle_batch_keeps_each_batchs_samples(keras):
    """fit(shuffle="batch") shuffles only WITHIN each batch of batch_size consecutive samples, so an epoch of SGD
    (each step's gradient a mean over its batch) ends where shuffle=False ends: NumPy's SGD over the batches
    [0:4], [4:8]."""
    w = KERNEL.astype(np.float64)
    for b in (slice(0, 4), slice(4, 8)):
        xb, yb = X8F[b].astype(np.float64), Y8F[b].astype(np.float64)
        w = w - 0.1 * (2.0 / 4.0) * xb.T @ (xb @ w - yb)
    for seed, shuffle in ((1, "batch"), (3, "batch"), (1, False)):
        keras.utils.set_random_seed(seed)
        model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, use_bias=False)])
        model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse", run_eagerly=True)
        model.set_weights([KERNEL])
        model.fit(X8F, Y8F, batch_size=4, epochs=1, verbose=0, shuffle=shuffle)
        assert_close(model.get_weights()[0], w, tolerance=TOL,
                     call=f"set_random_seed({seed}); fit(8 samples, batch_size=4, shuffle={shuffle!r}), SGD(0.1), one "
                          "epoch", what="kernel")


@clause("keras.fit.evaluate-inference", ref="tf221")
def test_spell25b_a_second_compile_replaces_the_loss_and_metrics_of_evaluate(keras):
    """compile(loss="mse", metrics=["mae"]); evaluate; compile(loss="mae", metrics=["mse"]); evaluate gives what a
    model compiled only the second way gives (the first compile's traced steps are dropped), in NumPy's figures."""
    err = (X5.astype(np.float64) @ KERNEL - Y5)[:, 0]
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, use_bias=False)])
    model.set_weights([KERNEL])
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    first = model.evaluate(X5, Y5, batch_size=2, verbose=0, return_dict=True)
    model.compile(optimizer="sgd", loss="mae", metrics=["mse"])
    second = model.evaluate(X5, Y5, batch_size=2, verbose=0, return_dict=True)
    for call, out, (loss, metric_name, metric) in (
            ("compile(loss='mse', metrics=['mae']).evaluate", first, ((err ** 2).mean(), "mae", np.abs(err).mean())),
            ("then compile(loss='mae', metrics=['mse']).evaluate", second, (np.abs(err).mean(), "mse",
                                                                            (err ** 2).mean()))):
        assert_close(out["loss"], loss, tolerance=TOL, call=call, what="loss")
        assert_close(out[metric_name], metric, tolerance=TOL, call=call, what=metric_name)
