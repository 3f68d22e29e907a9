"""`compile(steps_per_execution=...)` beyond its range and predict of no batch — clause keras.fit.arguments
(forty-ninth session, helper open49). Keras 3.15 checks nothing at compile: the value is stored as given and the
trainer's own Python meets it later (read in keras/src/trainers/epoch_iterator.py and backend/tensorflow/trainer.py,
and observed on TF 2.21): 0 is the epoch iterator's `range(0, steps, 0)` ValueError; a negative value makes the
epoch iterator yield no execution, so fit trains nothing (an empty history), evaluate returns [] and predict
reaches its end with `batch_outputs` unbound (UnboundLocalError), as train_on_batch does with `outputs` (its
`zip(range(steps_per_execution), ...)` runs no step); True is 1; a non-number fails as `range()` or predict's
`steps_per_execution > 1` refuses it (TypeError). A predict over an empty input is the same UnboundLocalError.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises

clause = pytest.mark.clause

X = (np.arange(24, dtype=np.float32).reshape(12, 2) / 10)
Y = (X[:, :1] * 2 + 1).astype(np.float32)


def _model(keras, spe):
    keras.utils.set_random_seed(1)
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    m.compile("sgd", "mse", steps_per_execution=spe)
    return m


@clause("keras.fit.arguments", ref="tf221")
def test_open49_compile_keeps_any_steps_per_execution(tf, keras):
    for spe in [0, -1, -3, 2.5, None, "a"]:
        assert_equal(_model(keras, spe).steps_per_execution, spe, call=f"compile(steps_per_execution={spe!r})",
                     what="model.steps_per_execution")
    m = _model(keras, 0)
    for name, call in [("fit", lambda: m.fit(X, Y, batch_size=4, verbose=0)),
                       ("evaluate", lambda: m.evaluate(X, Y, batch_size=4, verbose=0)),
                       ("predict", lambda: m.predict(X, batch_size=4, verbose=0)),
                       ("fit of a dataset", lambda: m.fit(tf.data.Dataset.from_tensor_slices((X, Y)).batch(4),
                                                          verbose=0))]:
        with raises(ValueError, match=r"range\(\) arg 3 must not be zero", call=f"steps_per_execution=0: {name}"):
            call()
    with raises(UnboundLocalError, match="'outputs'", call="steps_per_execution=0: train_on_batch"):
        m.train_on_batch(X[:4], Y[:4])


@clause("keras.fit.arguments", ref="tf221")
def test_open49_negative_steps_per_execution_runs_no_step(tf, keras):
    for spe in [-1, -3]:
        m = _model(keras, spe)
        before = [w.copy() for w in m.get_weights()]
        h = m.fit(X, Y, batch_size=4, epochs=2, verbose=0)
        assert_equal(h.history, {}, call=f"steps_per_execution={spe}: fit", what="history")
        assert_equal(int(m.optimizer.iterations.numpy()), 0, call=f"steps_per_execution={spe}: fit",
                     what="optimizer.iterations")
        for w, b in zip(m.get_weights(), before):
            assert_equal(w.tolist(), b.tolist(), call=f"steps_per_execution={spe}: fit", what="weights")
        h = m.fit(tf.data.Dataset.from_tensor_slices((X, Y)).batch(4), verbose=0)
        assert_equal(h.history, {}, call=f"steps_per_execution={spe}: fit of a dataset", what="history")
        assert_equal(m.evaluate(X, Y, batch_size=4, verbose=0), [], call=f"steps_per_execution={spe}: evaluate")
        with raises(UnboundLocalError, match="'batch_outputs'", call=f"steps_per_execution={spe}: predict"):
            m.predict(X, batch_size=4, verbose=0)
        with raises(UnboundLocalError, match="'outputs'", call=f"steps_per_execution={spe}: train_on_batch"):
            m.train_on_batch(X[:4], Y[:4])


@clause("keras.fit.arguments", ref="tf221")
def test_open49_steps_per_execution_true_and_non_numbers(tf, keras):
    one, true = _model(keras, 1), _model(keras, True)
    h1 = one.fit(X, Y, batch_size=4, epochs=2, verbose=0).history
    ht = true.fit(X, Y, batch_size=4, epochs=2, verbose=0).history
    assert_close(ht["loss"], h1["loss"], call="steps_per_execution=True: fit", what="losses (as steps_per_execution=1)")
    assert_equal(int(true.optimizer.iterations.numpy()), 6, call="steps_per_execution=True: fit", what="iterations")
    assert_close(true.predict(X, batch_size=4, verbose=0), one.predict(X, batch_size=4, verbose=0),
                 call="steps_per_execution=True: predict")
    for spe in [None, "a"]:
        m = _model(keras, spe)
        kind = type(spe).__name__
        for name, call, match in [
                ("fit", lambda: m.fit(X, Y, batch_size=4, verbose=0), f"'{kind}' object cannot be interpreted"),
                ("evaluate", lambda: m.evaluate(X, Y, batch_size=4, verbose=0), f"'{kind}' object cannot be interpreted"),
                ("predict", lambda: m.predict(X, batch_size=4, verbose=0), "'>' not supported"),
                ("train_on_batch", lambda: m.train_on_batch(X[:4], Y[:4]), f"'{kind}' object cannot be interpreted")]:
            with raises(TypeError, match=match, call=f"steps_per_execution={spe!r}: {name}"):
                call()


@clause("keras.fit.arguments", ref="tf221")
def test_open49_predict_of_no_batch(tf, keras):
    m = _model(keras, 1)
    empty = np.zeros((0, 2), np.float32)
    for name, call in [("an empty array", lambda: m.predict(empty, verbose=0)),
                       ("an empty dataset", lambda: m.predict(tf.data.Dataset.from_tensor_slices(empty).batch(2),
                                                               verbose=0))]:
        with raises(UnboundLocalError, match="'batch_outputs'", call=f"predict of {name}"):
            call()
