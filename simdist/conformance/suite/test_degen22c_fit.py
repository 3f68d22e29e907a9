"""degen22c (issue 29, session 22): fit's data options off their degenerate points. The earlier programs
used validation_split fractions whose training part is a whole number of rows (0.2 of 10), and class
weights equal across classes or one class per batch. A model that does not learn (SGD with learning rate
0, fixed weights) makes History's loss and val_loss the exact means over the rows fit used, computed here
with NumPy: the training rows are the first floor(n (1 - validation_split)) (Keras 3.15's
train_validation_split), the loss weighted by class_weight[round(y)] and divided by the sample count
(sum_over_batch_size, batches weighted by their size in the epoch's mean)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL = Tolerance(rtol=2e-6, atol=1e-7)
W = np.array([[0.5], [-1.0], [0.25]], dtype=np.float32)
B = np.array([0.75], dtype=np.float32)


def _model(keras):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    model.layers[-1].set_weights([W, B])
    model.compile(optimizer=keras.optimizers.SGD(learning_rate=0.0), loss="mse")
    return model


def _data(n: int) -> tuple[np.ndarray, np.ndarray]:
    x = (np.arange(n * 3, dtype=np.float32).reshape(n, 3) % 7 - 3.0) / 4.0
    y = (np.arange(n, dtype=np.float32) % 3)[:, None]
    return x, y


def _sq(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    pred = x.astype(np.float64) @ W.astype(np.float64) + B.astype(np.float64)
    return ((pred - y) ** 2)[:, 0]


@clause("keras.fit.validation", ref="tf221")
def test_degen22c_validation_split_with_a_fractional_row_count(keras, budget):
    """fit(validation_split=s) trains on the first floor(n (1 - s)) rows and validates on the rest, with
    n (1 - s) not a whole number (7.5, 5.5, 3.5, 6.5 rows) as well as whole (8): loss and val_loss are the
    means over those rows."""
    for n, split, batch in budget([(10, 0.25, 4), (10, 0.45, 10), (7, 0.5, 2), (10, 0.35, 3), (10, 0.2, 5)]):
        x, y = _data(n)
        hist = _model(keras).fit(x, y, validation_split=split, batch_size=batch, epochs=1, shuffle=False, verbose=0)
        cut = int(math.floor(n * (1.0 - split)))
        call = f"fit(validation_split={split}) of {n} rows, batch_size {batch}: {cut} training rows"
        assert_close(hist.history["loss"][0], _sq(x[:cut], y[:cut]).mean(), tolerance=TOL, what="loss", call=call)
        assert_close(hist.history["val_loss"][0], _sq(x[cut:], y[cut:]).mean(), tolerance=TOL, what="val_loss",
                     call=call)


@clause("keras.fit.data", ref="tf221")
def test_degen22c_class_weight_over_unequal_classes(keras, tf, budget):
    """fit(class_weight) with distinct weights and classes of unequal counts (arrays and a Dataset, several
    batches, a class without a weight counting 1.0): loss = sum(class_weight[round(y)] * l) / n."""
    cases = [("arrays", {0: 1.0, 1: 2.5, 2: 0.5}, 4), ("dataset", {0: 0.25, 1: 3.0, 2: 1.5}, 3),
             ("arrays, class 2 unweighted", {0: 2.0, 1: 0.5}, 8)]
    for name, weights, batch in budget(cases):
        x, y = _data(8)
        y = y.copy()
        y[:3] = 1.0          # classes 1, 1, 1, 0, 1, 2, 0, 1: unequal counts
        model = _model(keras)
        if name == "dataset":
            ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(batch)
            hist = model.fit(ds, class_weight=weights, epochs=1, shuffle=False, verbose=0)
        else:
            hist = model.fit(x, y, class_weight=weights, batch_size=batch, epochs=1, shuffle=False, verbose=0)
        w = np.array([weights.get(int(round(float(v))), 1.0) for v in y[:, 0]])
        assert_close(hist.history["loss"][0], (w * _sq(x, y)).sum() / len(y), tolerance=TOL, what="loss",
                     call=f"fit({name}, class_weight={weights}, batch_size={batch}) over classes {y[:, 0].tolist()}")
