"""Model-building and compile paths the suite never executed before the twenty-third session
(docs/conformance.md, "Twenty-third session: suite coverage of Keras"): the Keras-2 style
`Dense(..., input_shape=...)` first layer of a Sequential, a None entry in a loss list, a scalar
`loss_weights`, `non_trainable_variables`, `get_compile_config`, jit_compile with run_eagerly, a
functional model's optional inputs and its input-count, connectivity and unique-name errors
(TF 2.21 + Keras 3.15).

Expected values are computed here with NumPy from Keras 3.15's rules (keras/src/layers/layer.py,
models/sequential.py, models/functional.py, layers/input_spec.py, trainers/compile_utils.py,
trainers/trainer.py), never with the backend's implementation.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL = Tolerance(rtol=2e-5, atol=2e-6)
X = np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 1.0], [2.0, 1.0, -1.0], [-0.5, 0.5, 1.5]], dtype=np.float32)


@clause("keras.model.weights-order", ref="tf221")
def test_cov23a_sequential_first_layer_with_input_shape(keras):
    """`Dense(4, input_shape=(3,))` (or `input_dim=3`) as a Sequential's first layer warns ("Do not
    pass an `input_shape`/`input_dim` argument to a layer") and makes the Sequential add an
    InputLayer of that shape first, so the model is built at once: input/output shapes, weights."""
    for call, first in [("Dense(4, input_shape=(3,))", lambda: keras.layers.Dense(4, input_shape=(3,))),
                        ("Dense(4, input_dim=3)", lambda: keras.layers.Dense(4, input_dim=3))]:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            layer = first()
        msgs = [str(w.message)[:80] for w in caught]
        assert_true(any("Do not pass an `input_shape`/`input_dim`" in m for m in msgs),
                    f"no warning 'Do not pass an `input_shape`/`input_dim` argument', but {msgs}", call=call)
        model = keras.Sequential([layer, keras.layers.Dense(2)])
        call = f"Sequential([{call}, Dense(2)])"
        assert_equal(bool(model.built), True, call=call, what="built")
        assert_equal([tuple(model.input_shape), tuple(model.output_shape)], [(None, 3), (None, 2)], call=call,
                     what="input_shape, output_shape")
        assert_equal([tuple(int(d) for d in w.shape) for w in model.weights], [(3, 4), (4,), (4, 2), (2,)],
                     call=call, what="weight shapes")
        w = [np.asarray(v, np.float64) for v in model.get_weights()]
        assert_close(model(X), (X @ w[0] + w[1]) @ w[2] + w[3], tolerance=TOL, call=call, what="model(x)")


@clause("keras.compile.loss-weights", ref="tf221")
def test_cov23a_loss_list_with_none_and_scalar_loss_weights(keras):
    """compile(loss=[fn, None]) trains and evaluates the first output only (no per-output loss
    entries; the second output's target is ignored); compile(loss="mse", loss_weights=2.0) for one
    output scales its loss by 2."""
    inputs = keras.Input((3,))
    a = keras.layers.Dense(1, use_bias=False, name="a")(inputs)
    b = keras.layers.Dense(1, use_bias=False, name="b")(inputs)
    model = keras.Model(inputs, [a, b])
    wa, wb = np.array([[0.5], [-1.0], [0.25]], np.float32), np.array([[1.0], [0.5], [-0.5]], np.float32)
    model.set_weights([wa, wb])
    model.compile(loss=["mse", None])
    ya = np.array([[1.0], [0.0], [2.0], [-1.0]], np.float32)
    got = model.evaluate(X, [ya, np.full((4, 1), 100.0, np.float32)], batch_size=4, verbose=0, return_dict=True)
    want = float(np.mean((X.astype(np.float64) @ wa - ya) ** 2))
    call = "two outputs, compile(loss=['mse', None]).evaluate"
    assert_equal(sorted(got), ["loss"], call=call, what="logs keys")
    assert_close(got["loss"], want, tolerance=TOL, call=call, what="loss (first output only)")

    single = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, use_bias=False)])
    single.set_weights([wa])
    single.compile(loss="mse", loss_weights=2.0)
    got = single.evaluate(X, ya, batch_size=4, verbose=0)
    assert_close(got, 2.0 * want, tolerance=TOL, call="compile(loss='mse', loss_weights=2.0).evaluate",
                 what="loss")


@clause("keras.model.config", ref="tf221")
def test_cov23a_compile_config_and_jit_with_run_eagerly(keras):
    """get_compile_config() is {} before compile and names compile's arguments after;
    compile(jit_compile=True, run_eagerly=True) warns and turns jit_compile off."""
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    assert_equal(model.get_compile_config(), {}, call="get_compile_config() before compile", what="config")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        model.compile(loss="mse", optimizer="sgd", metrics=["mae"], jit_compile=True, run_eagerly=True)
    call = "compile(loss='mse', optimizer='sgd', metrics=['mae'], jit_compile=True, run_eagerly=True)"
    msgs = [str(w.message)[:80] for w in caught]
    assert_true(any("`jit_compile` cannot also be True" in m for m in msgs),
                f"no warning '... `jit_compile` cannot also be True', but {msgs}", call=call)
    assert_equal([bool(model.jit_compile), bool(model.run_eagerly)], [False, True], call=call,
                 what="jit_compile, run_eagerly")
    assert_equal(sorted(model.get_compile_config()),
                 ["jit_compile", "loss", "loss_weights", "metrics", "optimizer", "run_eagerly",
                  "steps_per_execution", "weighted_metrics"], call=call, what="get_compile_config() keys")


@clause("keras.layer.tracking", ref="tf221")
def test_cov23a_non_trainable_variables(keras):
    """`non_trainable_variables` (the alias of non_trainable_weights): a BatchNormalization's moving
    statistics; every variable once the layer is frozen, in the layer's variable order."""
    layer = keras.layers.BatchNormalization()
    layer.build((None, 3))
    names = lambda vs: [v.name for v in vs]  # noqa: E731
    assert_equal(names(layer.non_trainable_variables), ["moving_mean", "moving_variance"],
                 call="BatchNormalization().build((None, 3))", what="non_trainable_variables")
    layer.trainable = False
    assert_equal(names(layer.non_trainable_variables), ["gamma", "beta", "moving_mean", "moving_variance"],
                 call="BatchNormalization, trainable=False", what="non_trainable_variables")


@clause("keras.model.errors", ref="tf221")
def test_cov23a_functional_optional_inputs_and_input_errors(keras, tf):
    """A functional model with an `Input(optional=True)` accepts None for it (the layer sees None);
    None for a required input is a ValueError ("is not optional"); three tensors for two named inputs
    are refused with Keras's named-inputs message; an output not computed from the inputs and two
    layers of one name are ValueErrors when the model is made."""

    class AddOptional(keras.layers.Layer):
        def call(self, x, y=None):
            return x if y is None else x + y

    a, b = keras.Input((3,), name="a"), keras.Input((3,), name="b", optional=True)
    model = keras.Model([a, b], AddOptional()(a, b))
    assert_close(model([X, None]), X, call="Model([a, b optional])([x, None])", what="out")
    assert_close(model([X, 2 * X]), 3 * X, call="Model([a, b optional])([x, 2x])", what="out")

    c, d = keras.Input((3,), name="c"), keras.Input((3,), name="d")
    both = keras.Model([c, d], keras.layers.Add()([c, d]))
    with raises(ValueError, match="The input 'd' is not optional, but None was passed",
                call="Model([c, d])([x, None])"):
        both([X, None])
    with raises(ValueError, match=r"expects 2 named input\(s\) with keys \['c', 'd'\], but it received 3 input",
                call="Model([c, d])([x, x, x])"):
        both([X, X, X])
    e = keras.Input((3,), name="e")
    with raises(ValueError, match="is not connected to `inputs`", call="Model(c, Add()([c, e]))"):
        keras.Model(c, keras.layers.Add()([c, e]))
    h = keras.layers.Dense(2, name="twin")(c)
    with raises(ValueError, match='The name "twin" is used 2 times in the model',
                call="Model(c, Dense(name='twin')(Dense(name='twin')(c)))"):
        keras.Model(c, keras.layers.Dense(2, name="twin")(h))
    dict_model = keras.Model(c, {"o": keras.layers.Dense(2, name="head")(c)})
    assert_equal([sorted(dict_model.output), [op.name for op in dict_model.operations]], [["o"], ["c", "head"]],
                 call="Model(c, {'o': Dense(name='head')(c)})", what="output keys, operations")
