"""`keras.models.clone_model` — clause keras.models.clone (TF 2.21 + Keras 3.15:
keras/src/models/cloning.py): a new model of the same architecture with new weights, compiled
like the original; clone_function, call_function, input_tensors, recursive."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises

clause = pytest.mark.clause
X = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)


def _sequential(keras):
    model = keras.Sequential([keras.Input((3,), name="inp"), keras.layers.Dense(4, activation="relu", name="d1"),
                              keras.layers.Dense(1, name="d2")], name="seqm")
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse", metrics=["mae"])
    return model


@clause("keras.models.clone", ref="tf221")
def test_clone_sequential_has_new_weights_and_the_compile_settings(keras):
    model = _sequential(keras)
    clone = keras.models.clone_model(model)
    assert_equal(type(clone).__name__, "Sequential", call="clone_model(Sequential)", what="class")
    assert_equal([layer.name for layer in clone.layers], ["d1", "d2"], call="clone_model(Sequential)",
                 what="layer names")
    assert_equal([w.shape for w in clone.get_weights()], [(3, 4), (4,), (4, 1), (1,)], call="clone_model(Sequential)",
                 what="weight shapes")
    assert_true(not np.array_equal(clone.get_weights()[0], model.get_weights()[0]),
                "the clone's kernel equals the original's: clone_model draws new weights", call="clone_model")
    assert_true(clone.optimizer is not model.optimizer and type(clone.optimizer).__name__ == "Adam",
                "the clone should be compiled with a new Adam (the original's compile config)", call="clone_model")
    assert_close(float(clone.optimizer.learning_rate.numpy() if hasattr(clone.optimizer.learning_rate, "numpy")
                       else clone.optimizer.learning_rate), 0.01, call="clone_model", what="optimizer learning_rate")
    clone.set_weights(model.get_weights())
    assert_close(clone.predict(X, verbose=0), model.predict(X, verbose=0), call="clone with the original's weights")
    logs = clone.fit(X, np.ones((2, 1), np.float32), epochs=1, verbose=0).history
    assert_equal(sorted(logs), ["loss", "mae"], call="clone.fit", what="logged metrics")


@clause("keras.models.clone", ref="tf221")
def test_clone_functional_with_clone_and_call_functions(keras):
    inp = keras.Input((3,), name="fi")
    out = keras.layers.Dense(2, name="fo")(keras.layers.Dense(4, name="fd")(inp))
    model = keras.Model(inp, out, name="fm")
    renamed = keras.models.clone_model(
        model, clone_function=lambda layer: layer.__class__.from_config({**layer.get_config(),
                                                                          "name": layer.name + "_c"}))
    assert_equal([layer.name for layer in renamed.layers], ["fi", "fd_c", "fo_c"],
                 call="clone_model(functional, clone_function=rename)", what="layer names")
    doubled = keras.models.clone_model(model, call_function=lambda layer, *a, **kw: layer(*a, **kw) * 2.0)
    doubled.set_weights(model.get_weights())
    w1, b1, w2, b2 = model.get_weights()
    want = 2.0 * ((2.0 * (X @ w1 + b1)) @ w2 + b2)
    assert_close(doubled.predict(X, verbose=0), want, call="clone_model(call_function=lambda l, *a: l(*a) * 2)")
    new_in = keras.Input((3,), name="other")
    rebased = keras.models.clone_model(model, input_tensors=new_in)
    assert_true(rebased.inputs[0] is new_in, "clone_model(input_tensors=t) should build on t", call="clone_model")


@clause("keras.models.clone", ref="tf221")
def test_clone_recursive_and_errors(keras):
    inner = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, name="inner_d")], name="inner")
    outer = keras.Sequential([keras.Input((3,)), inner, keras.layers.Dense(1, name="outer_d")], name="outer")
    flat = keras.models.clone_model(outer)
    deep = keras.models.clone_model(outer, recursive=True)
    assert_equal(type(flat.layers[0]).__name__, "Sequential", call="clone_model(nested)", what="inner class")
    assert_true(deep.layers[0] is not inner, "recursive=True should clone the nested model too",
                call="clone_model(recursive=True)")
    with raises(ValueError, match="`call_function` argument is not supported with Sequential",
                call="clone_model(Sequential, call_function=f)"):
        keras.models.clone_model(outer, call_function=lambda layer, *a: layer(*a))
    with raises(ValueError, match="Unexpected keyword argument", call="clone_model(model, foo=1)"):
        keras.models.clone_model(outer, foo=1)
