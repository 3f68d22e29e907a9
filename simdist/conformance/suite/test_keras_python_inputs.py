"""fit/evaluate/predict on Python inputs — a generator of batches and a `keras.utils.PyDataset`
(alias `Sequence`) — clause keras.fit.python-inputs (TF 2.21 + Keras 3.15: keras/src/trainers/
data_adapters/generator_data_adapter.py and py_dataset_adapter.py).

Expected weights come from a NumPy transcription of SGD on a linear model with the MSE loss,
written here, never from the backend.
"""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises

clause = pytest.mark.clause

X = (np.arange(40, dtype=np.float32).reshape(20, 2) / 10).astype(np.float32)
Y = (X[:, :1] * 2 - X[:, 1:]).astype(np.float32)
LR = 0.01


def _sgd(batches, w=None, b=None):
    """Dense(1, kernel 'ones', bias 0) trained by SGD(0.01) on MSE over `batches`, in order:
    (kernel, bias, the batch-size-weighted mean of the batch losses before each step)."""
    w = np.ones((2, 1), np.float32) if w is None else w.copy()
    b = np.zeros((1,), np.float32) if b is None else b.copy()
    losses, sizes = [], []
    for xb, yb in batches:
        err = xb @ w + b - yb
        losses.append(float(np.mean(err ** 2)))
        sizes.append(len(xb))
        g = np.float32(2.0 / err.size) * err
        w = (w - np.float32(LR) * (xb.T @ g)).astype(np.float32)
        b = (b - np.float32(LR) * g.sum(axis=0)).astype(np.float32)
    mean_loss = float(np.dot(losses, sizes) / np.sum(sizes)) if sizes else float("nan")
    return w, b, mean_loss


def _model(keras):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer=keras.optimizers.SGD(LR), loss="mse")
    return model


def _gen(size):
    # copies: TF 2.21 was seen to write into a yielded NumPy batch (Y's sum moved from 36.0 to 36.1 in
    # two of four runs of this module), so the backend never gets a view of the module's arrays
    for i in range(0, len(X), size):
        yield X[i:i + size].copy(), Y[i:i + size].copy()


def _batches(size, order=None):
    parts = [(X[i:i + size], Y[i:i + size]) for i in range(0, len(X), size)]
    return [parts[i] for i in (order if order is not None else range(len(parts)))]


def _make_pydataset(keras, size=5, log=None):
    class Batches(keras.utils.PyDataset):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.begins = self.ends = 0

        def __len__(self):
            return len(X) // size

        def __getitem__(self, index):
            if log is not None:
                log.append(index)
            return X[index * size:(index + 1) * size].copy(), Y[index * size:(index + 1) * size].copy()

        def on_epoch_begin(self):
            self.begins += 1

        def on_epoch_end(self):
            self.ends += 1

    return Batches()


@clause("keras.fit.python-inputs", ref="tf221")
def test_fit_on_a_generator_trains_on_its_batches_in_order(keras):
    model = _model(keras)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        history = model.fit(_gen(6), epochs=1, verbose=0)   # fit's default shuffle=True: warned, ignored
    w, b, loss = _sgd(_batches(6))
    assert_close(model.get_weights()[0], w, call="fit(generator of 4 batches of 6, 6, 6, 2)", what="kernel")
    assert_close(model.get_weights()[1], b, call="fit(generator)", what="bias")
    assert_close(history.history["loss"][0], loss, call="fit(generator)", what="history['loss'][0]")
    texts = [str(c.message) for c in caught]
    assert_true(any("will be ignored since the data `x` was provided as a generator" in t for t in texts),
                f"fit(generator, shuffle=True) should warn that shuffle is ignored; warnings: {texts}",
                call="fit(generator)")


@clause("keras.fit.python-inputs", ref="tf221")
def test_a_generator_is_read_once_across_epochs(keras):
    """Keras peeks two batches for the signature and chains them back: a second epoch over an
    exhausted generator sees those two peeked batches only."""
    model = _model(keras)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        history = model.fit(_gen(6), epochs=2, verbose=0, shuffle=False)
    w, b, loss1 = _sgd(_batches(6))
    w, b, loss2 = _sgd(_batches(6)[:2], w, b)
    assert_close(model.get_weights()[0], w, call="fit(generator, epochs=2)", what="kernel")
    assert_close(history.history["loss"], [loss1, loss2], call="fit(generator, epochs=2)", what="history['loss']")


@clause("keras.fit.python-inputs", ref="tf221")
def test_fit_on_a_pydataset_calls_the_epoch_hooks(keras):
    model = _model(keras)
    data = _make_pydataset(keras)
    history = model.fit(data, epochs=2, verbose=0, shuffle=False)
    w, b, loss1 = _sgd(_batches(5))
    w, b, loss2 = _sgd(_batches(5), w, b)
    assert_close(model.get_weights()[0], w, call="fit(PyDataset of 4 batches, epochs=2)", what="kernel")
    assert_close(history.history["loss"], [loss1, loss2], call="fit(PyDataset, epochs=2)", what="history['loss']")
    assert_equal(data.begins, 2, call="fit(PyDataset, epochs=2)", what="on_epoch_begin calls")
    # Keras's epoch iterator ends every epoch and resets once more when fit returns
    assert_equal(data.ends, 3, call="fit(PyDataset, epochs=2)", what="on_epoch_end calls")
    assert_equal(keras.utils.Sequence is keras.utils.PyDataset, True, call="keras.utils.Sequence",
                 what="is PyDataset")


@clause("keras.fit.python-inputs", ref="tf221")
def test_pydataset_shuffle_permutes_batches_with_pythons_random(keras):
    """shuffle=True: each epoch's batch order is `random.shuffle(list(range(len)))` on Python's
    global stream, which keras.utils.set_random_seed seeds."""
    seen: list[int] = []
    keras.utils.set_random_seed(5)
    model = _model(keras)   # 'ones' kernel, zero bias: no draw from Python's random
    data = _make_pydataset(keras, log=seen)
    model.fit(data, epochs=3, verbose=0, shuffle=True)
    rng, orders = random.Random(5), []
    for _ in range(3):
        order = list(range(4))
        rng.shuffle(order)
        orders.append(order)
    # the first two reads are the signature's peek (batches 0 and 1)
    assert_equal(seen, [0, 1] + [i for o in orders for i in o], call="set_random_seed(5); fit(PyDataset, "
                 "epochs=3, shuffle=True)", what="batch indices read")
    w = b = None
    for order in orders:
        w, b, _ = _sgd(_batches(5, order), w, b)
    assert_close(model.get_weights()[0], w, call="fit(PyDataset, shuffle=True)", what="kernel")


@clause("keras.fit.python-inputs", ref="tf221")
def test_infinite_pydataset_with_steps_per_epoch_continues_across_epochs(keras):
    class Endless(keras.utils.PyDataset):
        def __init__(self):
            super().__init__()

        @property
        def num_batches(self):
            return None

        def __getitem__(self, index):
            j = index % 4
            return X[j * 5:(j + 1) * 5].copy(), Y[j * 5:(j + 1) * 5].copy()

    model = _model(keras)
    history = model.fit(Endless(), epochs=2, steps_per_epoch=3, verbose=0, shuffle=False)
    parts = _batches(5)
    w, b, loss1 = _sgd([parts[0], parts[1], parts[2]])
    w, b, loss2 = _sgd([parts[3], parts[0], parts[1]], w, b)
    assert_close(model.get_weights()[0], w, call="fit(infinite PyDataset, epochs=2, steps_per_epoch=3)",
                 what="kernel")
    assert_close(history.history["loss"], [loss1, loss2], call="fit(infinite PyDataset, steps_per_epoch=3)",
                 what="history['loss']")


@clause("keras.fit.python-inputs", ref="tf221")
def test_evaluate_and_predict_on_python_inputs(keras):
    model = _model(keras)
    w = np.ones((2, 1), np.float32)
    want = float(np.mean((X @ w - Y) ** 2))
    assert_close(model.evaluate(_make_pydataset(keras), verbose=0), want, call="evaluate(PyDataset)")
    assert_close(model.evaluate(_gen(6), verbose=0), want, call="evaluate(generator)")
    out = model.predict(_make_pydataset(keras), verbose=0)
    assert_close(out, X @ w, call="predict(PyDataset)")
    out = model.predict(((X[i:i + 8].copy(),) for i in range(0, 20, 8)), verbose=0)
    assert_close(out, X @ w, call="predict(generator of (x,) batches 8, 8, 4)")


@clause("keras.fit.python-inputs", ref="tf221")
def test_class_weight_on_a_pydataset_weights_the_samples(keras):
    yc = np.array([0, 1, 1, 0, 1, 0, 0, 1], np.float32).reshape(8, 1)
    xc = np.linspace(-1, 1, 16, dtype=np.float32).reshape(8, 2)

    class Two(keras.utils.PyDataset):
        def __init__(self):
            super().__init__()

        def __len__(self):
            return 2

        def __getitem__(self, i):
            return xc[i * 4:(i + 1) * 4].copy(), yc[i * 4:(i + 1) * 4].copy()

    model = _model(keras)
    model.fit(Two(), epochs=1, verbose=0, shuffle=False, class_weight={0: 1.0, 1: 3.0})
    w, b = np.ones((2, 1), np.float32), np.zeros((1,), np.float32)
    for i in range(2):
        xb, yb = xc[i * 4:(i + 1) * 4], yc[i * 4:(i + 1) * 4]
        sw = np.where(yb[:, 0] == 1, 3.0, 1.0).astype(np.float32)
        err = xb @ w + b - yb
        # mean over the batch of sw * per-sample loss (sum_over_batch_size)
        g = (2.0 * sw[:, None] * err / len(xb)).astype(np.float32)
        w = (w - np.float32(LR) * (xb.T @ g)).astype(np.float32)
        b = (b - np.float32(LR) * g.sum(axis=0)).astype(np.float32)
    assert_close(model.get_weights()[0], w, call="fit(PyDataset, class_weight={0: 1, 1: 3})", what="kernel")


@clause("keras.fit.python-inputs", ref="tf221")
def test_python_input_errors(tf, keras):
    model = _model(keras)
    with raises(ValueError, match="`y` should not be passed", call="fit(generator, y)"):
        model.fit(_gen(5), Y.copy(), verbose=0)
    with raises(ValueError, match="class_weight` is not supported for Python generator",
                call="fit(generator, class_weight=...)"):
        model.fit(_gen(5), class_weight={0: 1.0}, verbose=0)
    with raises(ValueError, match="must yield at least one batch", call="fit(empty generator)"):
        model.fit((b for b in []), verbose=0)
    with raises(ValueError, match="must return a tuple", call="fit(generator of lists)"):
        model.fit(([X[:4].copy(), Y[:4].copy()] for _ in range(2)), verbose=0)

    def varying():
        yield X[:4].copy(), Y[:4].copy()
        yield X[4:8].copy(), Y[4:8].copy()
        yield X[:4, :1].copy(), Y[:4].copy()

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # Keras's TypeError is raised inside tf.data's PyFunc, which makes it InvalidArgumentError
        with raises(tf.errors.InvalidArgumentError, match="TypeError: Generator yielded an element of shape",
                    call="fit(generator whose 3rd batch has another feature size)"):
            model.fit(varying(), verbose=0, shuffle=False)

    class Bad(keras.utils.PyDataset):
        def __init__(self):
            super().__init__()

        def __len__(self):
            return 2

        def __getitem__(self, i):
            return X[:4].copy(), Y[:4].copy(), None, None

    with raises(ValueError, match="must return a tuple or a dict", call="fit(PyDataset returning a 4-tuple)"):
        model.fit(Bad(), verbose=0)
    with raises(ValueError, match="`y` should not be passed", call="fit(PyDataset, y)"):
        model.fit(_make_pydataset(keras), Y.copy(), verbose=0)


@clause("keras.fit.python-inputs", ref="tf221")
def test_fit_on_a_generator_under_mirrored_strategy(backend, tf, keras):
    """TF 2.21, observed: the generator's dataset has no batch op to split, and each replica's
    iterator calls the adapter's generator function again, which replays the two peeked batches
    before the shared rest: both replicas train on batch 0, then both on batch 1 (each step is
    then one device's step on that batch), and the epoch ends there."""
    strategy = backend.make_strategy("mirrored", 2)
    with strategy.scope():
        model = _model(keras)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        history = model.fit(_gen(6), epochs=1, verbose=0, shuffle=False)
    w, b, loss = _sgd(_batches(6)[:2])
    assert_close(model.get_weights()[0], w, call="MirroredStrategy(2): fit(generator of batches 6, 6, 6, 2)",
                 what="kernel")
    assert_close(model.get_weights()[1], b, call="MirroredStrategy(2): fit(generator)", what="bias")
    # both steps' batches hold 6 samples: the logged loss is their plain mean
    assert_close(history.history["loss"][0], loss, call="MirroredStrategy(2): fit(generator)",
                 what="history['loss'][0]")
