"""`compile(jit_compile=...)` as Keras 3.15 on TF 2.21 keeps it — clause keras.fit.arguments (forty-ninth session,
helper open49; read in keras/src/trainers/trainer.py: compile, the jit_compile property and setter,
_resolve_auto_jit_compile, model_supports_jit). "auto" resolves at compile: False when run eagerly, on a machine
whose only devices are CPUs, or for a model made under a strategy; another value is kept as given (1 stays 1) unless
run_eagerly is set (a warning, then False) or a layer has `supports_jit = False` (a warning, then False). On this
CPU host the step's values are those without XLA. Not checked here: XLA's refusal of an op it has no kernel for
(InvalidArgumentError on TF when the step runs; simdist runs the step).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises

clause = pytest.mark.clause

X = (np.arange(24, dtype=np.float32).reshape(12, 2) / 10)
Y = (X[:, :1] * 2 + 1).astype(np.float32)


def _compiled(keras, jit, run_eagerly=False, layer=None):
    keras.utils.set_random_seed(1)
    layers = [keras.Input((2,))] + ([layer] if layer is not None else []) + [keras.layers.Dense(1)]
    m = keras.Sequential(layers)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        m.compile("sgd", "mse", jit_compile=jit, run_eagerly=run_eagerly)
    return m, [str(x.message) for x in w if "jit_compile" in str(x.message)]


@clause("keras.fit.arguments", ref="tf221")
def test_open49_jit_compile_is_kept_as_keras_resolves_it(tf, keras):
    base, _ = _compiled(keras, False)
    want = base.fit(X, Y, batch_size=4, epochs=2, verbose=0).history["loss"]
    for jit, run_eagerly, expected, warned in [
            (True, False, True, []), (1, False, 1, []), ("x", False, "x", []), ("auto", False, False, []),
            (None, False, False, []), (False, False, False, []), ("auto", True, False, []),
            (True, True, False, ["If `run_eagerly` is True, then `jit_compile` cannot also be True. Disabling "
                                 "`jit_compile`."])]:
        call = f"compile(jit_compile={jit!r}, run_eagerly={run_eagerly})"
        m, w = _compiled(keras, jit, run_eagerly)
        assert_equal(m.jit_compile, expected, call=call, what="model.jit_compile")
        assert_equal(w, warned, call=call, what="warnings")
        got = m.fit(X, Y, batch_size=4, epochs=2, verbose=0).history["loss"]
        assert_close(got, want, call=call + "; fit", what="losses (as jit_compile=False)")
        assert_equal(m.jit_compile, expected, call=call + "; fit", what="model.jit_compile after fit")
    m, _ = _compiled(keras, False)
    m.jit_compile = True
    assert_equal(m.jit_compile, True, call="model.jit_compile = True", what="model.jit_compile")


@clause("keras.fit.arguments", ref="tf221")
def test_open49_jit_compile_refused_by_a_layer(tf, keras):
    class NoJit(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.supports_jit = False

        def call(self, x):
            return x

    m, w = _compiled(keras, True, layer=NoJit())
    assert_equal(m.jit_compile, False, call="compile(jit_compile=True) with a supports_jit=False layer",
                 what="model.jit_compile")
    assert_equal(w, ["Model doesn't support `jit_compile=True`. Proceeding with `jit_compile=False`."],
                 call="compile(jit_compile=True) with a supports_jit=False layer", what="warnings")


@clause("keras.fit.arguments", ref="tf221")
def test_open49_jit_compile_under_two_mirrored_replicas(tf, keras, backend):
    """jit_compile=True under a MirroredStrategy of 2 replicas: Keras compiles the train and test step (strategy.run
    over both replicas) as one XLA cluster, which fails reading the second replica's variable
    (InvalidArgumentError "Trying to access resource ... located in device ... from device ..."); predict, whose
    jit function is per replica, and a one-replica strategy run."""
    strategy = backend.make_strategy("mirrored", 2)

    def compiled():
        with strategy.scope():
            keras.utils.set_random_seed(1)
            m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
            m.compile("sgd", "mse", jit_compile=True)
        return m

    for name, call, first in [("fit", lambda m: m.fit(X, Y, batch_size=4, verbose=0), "Graph execution error:"),
                              ("evaluate", lambda m: m.evaluate(X, Y, batch_size=4, verbose=0),
                               "Graph execution error:"),
                              ("train_on_batch", lambda m: m.train_on_batch(X[:4], Y[:4]), "Trying to access resource")]:
        m = compiled()
        with raises(tf.errors.InvalidArgumentError, match="Trying to access resource .* located in device",
                    call=f"MirroredStrategy(2 replicas), compile(jit_compile=True): {name}") as info:
            call(m)
        assert_equal(str(info["value"]).split("\n")[0][:len(first)], first,
                     call=f"MirroredStrategy(2 replicas), compile(jit_compile=True): {name}", what="first line")
    assert_equal(compiled().predict(X, batch_size=4, verbose=0).shape, (12, 1),
                 call="MirroredStrategy(2 replicas), compile(jit_compile=True): predict", what="shape")
