"""Keras models beyond the core — clauses keras.model.functional-subclass,
keras.functional.training-override, keras.saving.keras-file (TF 2.21 + Keras 3.15).

Expected values are NumPy references computed here (x @ kernel + bias, BatchNormalization's
moving-mean update) or the rules of the clauses (docs/spec.md); the values of the Keras guides on
TF 2.21 are in tests/test_examples.py and tests/keras/test_keras_files_tf.py.
"""

from __future__ import annotations

import os
import tempfile
import zipfile

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause

#: a float32 matmul's sum rounds in an order of the backend's choosing
MATMUL = Tolerance(rtol=1e-5, atol=1e-6)


def _set(model, seed: int) -> list:
    rng = np.random.default_rng(seed)
    ws = [(rng.standard_normal(tuple(w.shape)) * 0.5).astype("float32") for w in model.weights]
    model.set_weights(ws)
    return ws


@clause("keras.model.functional-subclass", ref="tf221")
def test_a_subclass_called_with_inputs_and_outputs_is_functional(keras):
    calls: list[str] = []

    class CustomModel(keras.Model):
        def train_step(self, data):
            calls.append("train")
            return super().train_step(data)

        def test_step(self, data):
            calls.append("test")
            return super().test_step(data)

    inputs = keras.Input((3,))
    dense = keras.layers.Dense(1)
    model = CustomModel(inputs, dense(inputs))
    bases = [b.__name__ for b in CustomModel.__bases__]
    assert_equal(bases, ["Functional"], call="CustomModel(inputs, outputs)", what="CustomModel.__bases__")
    assert_true(type(model) is CustomModel, f"type(model)={type(model).__name__}, but should be CustomModel",
                call="CustomModel(inputs, outputs)")
    kernel, bias = _set(model, 3)
    x = np.arange(12, dtype="float32").reshape(4, 3)
    assert_close(model(x), x @ kernel + bias, call="model(x)", what="x @ kernel + bias", tolerance=MATMUL)
    model.compile(optimizer="sgd", loss="mse", run_eagerly=True)
    y = np.ones((4, 1), "float32")
    model.fit(x, y, batch_size=2, epochs=1, verbose=0, shuffle=False)
    model.evaluate(x, y, batch_size=2, verbose=0)
    assert_equal(calls, ["train", "train", "test", "test"], call="fit(4 samples, batch 2); evaluate(...)",
                 what="the overridden steps run")


@clause("keras.functional.training-override", ref="tf221")
def test_outer_training_overrides_a_recorded_training_false(keras):
    inner_in = keras.Input((2,))
    bn = keras.layers.BatchNormalization()
    base = keras.Model(inner_in, bn(inner_in))
    outer_in = keras.Input((2,))
    model = keras.Model(outer_in, base(outer_in, training=False))
    x = np.array([[1.0, 2.0], [3.0, 6.0]], "float32")
    momentum = bn.momentum
    model(x, training=True)
    mean = np.asarray(bn.moving_mean)
    assert_close(mean, (1 - momentum) * x.mean(axis=0), call="model(x, training=True) over base(..., training=False)",
                 what="moving_mean (momentum * 0 + (1 - momentum) * batch mean)")
    base.trainable = False
    model(x * 10, training=True)
    assert_close(np.asarray(bn.moving_mean), mean, call="frozen base; model(10x, training=True)", what="moving_mean")
    base.trainable = True
    model(x * 10, training=None)
    assert_close(np.asarray(bn.moving_mean), mean, call="model(10x, training=None)", what="moving_mean")


@clause("keras.saving.keras-file", ref="tf221")
def test_keras_file_is_a_zip_that_load_model_remakes(keras):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"), keras.layers.Dense(2)])
    _set(model, 7)
    model.compile(optimizer="adam", loss="mse")
    x = np.arange(6, dtype="float32").reshape(2, 3)
    model.fit(x, np.ones((2, 2), "float32"), epochs=1, verbose=0)  # builds the optimizer: its state is saved
    ws = model.get_weights()
    want = np.maximum(x @ ws[0] + ws[1], 0) @ ws[2] + ws[3]
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m.keras")
        model.save(path)
        with zipfile.ZipFile(path) as z:
            names = sorted(z.namelist())
        assert_equal(names, ["config.json", "metadata.json", "model.weights.h5"], call="model.save('m.keras')",
                     what="the zip's entries")
        loaded = keras.models.load_model(path)
        assert_equal(type(loaded).__name__, "Sequential", call="load_model('m.keras')", what="type")
        for got, w in zip(loaded.get_weights(), ws):
            assert_close(got, w, call="load_model('m.keras')", what="weights")
        assert_close(loaded(x), want, call="load_model('m.keras')(x)", tolerance=MATMUL)
        assert_equal(type(loaded.optimizer).__name__, "Adam", call="load_model('m.keras')", what="optimizer")
        with raises(ValueError, match="Invalid filepath extension for saving", call="model.save('m.txt')"):
            model.save(os.path.join(d, "m.txt"))
        with raises(ValueError, match="File not found", call="load_model('missing.keras')"):
            keras.models.load_model(os.path.join(d, "missing.keras"))


@clause("keras.saving.keras-file", ref="tf221")
def test_copies_and_pickles_are_keras_file_round_trips(keras):
    """copy.copy, copy.deepcopy and pickle of Keras objects are `.keras` archives written and read
    back (Keras's KerasSaveable): new objects with the original's config and saved state."""
    import copy
    import pickle
    d = keras.layers.Dense(2, kernel_initializer="ones")
    d.build((None, 3))
    c = copy.copy(d)
    assert_true(c is not d and c.kernel is not d.kernel and c.name == d.name,
                f"copy.copy(dense): new object {c is not d}, new kernel {c.kernel is not d.kernel}, same name "
                f"{c.name == d.name}, but all should hold", call="copy.copy(Dense)")
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, kernel_initializer="ones")])
    m.compile(keras.optimizers.Adam(0.1), "mse")
    x = np.arange(12, dtype=np.float32).reshape(4, 3) / 10.0
    m.fit(x, np.zeros((4, 2), np.float32), verbose=0, epochs=2, batch_size=2, shuffle=False)
    for how, cp in (("copy.deepcopy", copy.deepcopy), ("pickle", lambda o: pickle.loads(pickle.dumps(o)))):
        m2 = cp(m)
        assert_equal([m2 is m, bool(m2.compiled), int(m2.optimizer.iterations.numpy()),
                      len(m2.optimizer.variables)], [False, True, 4, len(m.optimizer.variables)],
                     call=f"{how}(fitted model): identity, compiled, optimizer iterations and variable count")
        assert_close(m2.predict(x, verbose=0), m.predict(x, verbose=0), call=f"{how}(fitted model).predict")
    mt = keras.metrics.Mean()
    mt.update_state([1.0, 2.0, 6.0])
    mc = copy.deepcopy(mt)
    mc.update_state([7.0])
    assert_equal([float(mc.result()), float(mt.result())], [7.0, 3.0],
                 call="copy.deepcopy(Mean over [1, 2, 6]) then update_state([7]): the copy's state starts empty (a "
                      "carried state would read 4.0)")
