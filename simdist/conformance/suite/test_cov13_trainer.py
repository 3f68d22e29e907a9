"""compile/fit/evaluate/predict options the suite never executed before the fourteenth session
(docs/conformance.md, "Fourteenth session: suite coverage of Keras models, trainers, optimizers"):
per-output losses, loss weights and metrics given as lists and dicts, duplicate metric names,
weighted metrics named beside unweighted ones, predict of several outputs over a partial last
batch, validation_freq, and the trainer's argument errors (TF 2.21 + Keras 3.15).

Expected values are computed here with NumPy from the weights the backend reports, following
Keras 3.15's trainers/compile_utils.py and trainer.py, never with the backend's implementation.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)


def _f32(*shape, seed=0):
    return np.random.default_rng(seed).uniform(-1.0, 1.0, shape).astype(np.float32)


def _two_output_model(keras, as_dict=False):
    inp = keras.Input((3,), name="x")
    a = keras.layers.Dense(1, name="a")(inp)
    b = keras.layers.Dense(2, name="b")(inp)
    return keras.Model(inp, {"a": a, "b": b} if as_dict else [a, b])


def _outputs(model, x):
    wa, ba = (np.asarray(w, np.float64) for w in model.get_layer("a").get_weights())
    wb, bb = (np.asarray(w, np.float64) for w in model.get_layer("b").get_weights())
    return x @ wa + ba, x @ wb + bb


def _mse(t, p, sw=None):
    per = np.mean((t - p) ** 2, axis=-1)
    return float(np.mean(per)) if sw is None else float(np.sum(per * sw) / np.sum(sw))


def _mae(t, p, sw=None):
    per = np.mean(np.abs(t - p), axis=-1)
    return float(np.mean(per)) if sw is None else float(np.sum(per * sw) / np.sum(sw))


def _data(n=8):
    x = _f32(n, 3, seed=1)
    return x, _f32(n, 1, seed=2), _f32(n, 2, seed=3)


# -- several outputs: lists ------------------------------------------------------------------------------------
@clause("keras.compile.loss-weights", ref="tf221")
def test_cov13_list_losses_weights_and_metrics_per_output(keras):
    """loss, loss_weights and metrics as lists (one entry per output): the loss is the weighted
    sum of the outputs' losses, each output's loss is logged as `<output>_loss`, each metric as
    `<output>_<metric>`, and a metric name repeated in one output gets `_1`."""
    model = _two_output_model(keras)
    model.compile(optimizer="sgd", loss=["mse", "mae"], loss_weights=[0.5, 2.0],
                  metrics=[["mae"], ["mse", "mse"]])
    x, ya, yb = _data()
    logs = model.evaluate(x, [ya, yb], batch_size=8, verbose=0, return_dict=True)
    pa, pb = _outputs(model, x)
    call = "compile(loss=['mse','mae'], loss_weights=[0.5, 2.0], metrics=[['mae'], ['mse','mse']]).evaluate"
    expected = {"loss": 0.5 * _mse(ya, pa) + 2.0 * _mae(yb, pb), "a_loss": _mse(ya, pa), "b_loss": _mae(yb, pb),
                "a_mae": _mae(ya, pa), "b_mse": _mse(yb, pb), "b_mse_1": _mse(yb, pb)}
    assert_equal(sorted(logs), sorted(expected), call=call, what="log keys")
    for k, v in expected.items():
        assert_close(logs[k], v, call=call, what=f"logs[{k!r}]", tolerance=TOL32)
    with raises(ValueError, match="metrics", call="compile(metrics=[['mae']] for 2 outputs).evaluate"):
        model.compile(optimizer="sgd", loss="mse", metrics=[["mae"], ["mse"], ["mae"]])
        model.evaluate(x, [ya, yb], batch_size=8, verbose=0)


# -- several outputs: dicts ------------------------------------------------------------------------------------
@clause("keras.compile.loss-weights", ref="tf221")
def test_cov13_dict_losses_weights_and_metrics_by_output_name(keras):
    """A model with dict outputs takes loss, loss_weights and metrics as dicts keyed by output
    name (a missing metrics key: that output has none); y as a dict; logs per output name."""
    model = _two_output_model(keras, as_dict=True)
    model.compile(optimizer="sgd", loss={"a": "mae", "b": "mse"}, loss_weights={"a": 3.0, "b": 0.25},
                  metrics={"b": ["mae"]})
    x, ya, yb = _data()
    logs = model.evaluate(x, {"a": ya, "b": yb}, batch_size=8, verbose=0, return_dict=True)
    pa, pb = _outputs(model, x)
    call = "dict outputs, compile(loss={a: mae, b: mse}, loss_weights={a: 3, b: 0.25}, metrics={b: [mae]})"
    expected = {"loss": 3.0 * _mae(ya, pa) + 0.25 * _mse(yb, pb), "a_loss": _mae(ya, pa), "b_loss": _mse(yb, pb),
                "b_mae": _mae(yb, pb)}
    assert_equal(sorted(logs), sorted(expected), call=call, what="log keys")
    for k, v in expected.items():
        assert_close(logs[k], v, call=call, what=f"logs[{k!r}]", tolerance=TOL32)


@clause("keras.compile.loss-weights", ref="tf221")
def test_cov13_list_model_takes_dicts_keyed_by_output_layer_names(keras):
    """A functional model with list outputs takes loss, loss_weights and metrics dicts keyed by
    its output layers' names (Keras's output_names) and y as a dict of those names."""
    model = _two_output_model(keras)
    model.compile(optimizer="sgd", loss={"b": "mae", "a": "mse"}, loss_weights={"a": 2.0, "b": 0.5},
                  metrics={"a": ["mse"]})
    x, ya, yb = _data()
    pa, pb = _outputs(model, x)
    call = "list outputs [a, b], compile(loss={b: mae, a: mse}, loss_weights={a: 2, b: 0.5}, metrics={a: [mse]})"
    expected = {"loss": 2.0 * _mse(ya, pa) + 0.5 * _mae(yb, pb), "a_loss": _mse(ya, pa), "b_loss": _mae(yb, pb),
                "a_mse": _mse(ya, pa)}
    for what, y in [("y=[ya, yb]", [ya, yb]), ("y={'a': ya, 'b': yb}", {"a": ya, "b": yb})]:
        logs = model.evaluate(x, y, batch_size=8, verbose=0, return_dict=True)
        assert_equal(sorted(logs), sorted(expected), call=f"{call}, {what}", what="log keys")
        for k, v in expected.items():
            assert_close(logs[k], v, call=f"{call}, {what}", what=f"logs[{k!r}]", tolerance=TOL32)
    with raises(ValueError, match="loss", call="compile(loss={'a': 'mse', 'zz': 'mae'}).evaluate"):
        model.compile(optimizer="sgd", loss={"a": "mse", "zz": "mae"})
        model.evaluate(x, [ya, yb], batch_size=8, verbose=0)


# -- weighted metrics named beside the unweighted ones ---------------------------------------------------------
@clause("keras.metric.sample-weight", ref="tf221")
def test_cov13_weighted_metric_of_the_same_name_is_logged_as_weighted(keras):
    """A metric in both `metrics` and `weighted_metrics` is logged twice: `mae` (sample weights
    ignored) and `weighted_mae` (sample weights applied); a second weighted one gets `_1`."""
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, name="a")])
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"], weighted_metrics=["mae", "mae"])
    x, ya, _ = _data()
    sw = np.array([1, 0, 2, 1, 0.5, 3, 1, 0], np.float32)
    logs = model.evaluate(x, ya, sample_weight=sw, batch_size=8, verbose=0, return_dict=True)
    w, b = (np.asarray(v, np.float64) for v in model.get_layer("a").get_weights())
    p = x @ w + b
    call = "compile(metrics=['mae'], weighted_metrics=['mae', 'mae']).evaluate(sample_weight=sw)"
    per = np.mean((ya - p) ** 2, axis=-1)
    expected = {"loss": float(np.sum(per * sw) / len(sw)), "mae": _mae(ya, p), "weighted_mae": _mae(ya, p, sw),
                "weighted_mae_1": _mae(ya, p, sw)}
    assert_equal(sorted(logs), sorted(expected), call=call, what="log keys")
    for k, v in expected.items():
        assert_close(logs[k], v, call=call, what=f"logs[{k!r}]", tolerance=TOL32)


# -- predict with several outputs ------------------------------------------------------------------------------
@clause("keras.predict.order", ref="tf221")
def test_cov13_predict_of_list_and_dict_outputs_over_a_partial_last_batch(keras):
    """predict gives the model's output structure (a list, or a dict by name), each output the
    batches concatenated in order, the partial last batch included."""
    x = _f32(10, 3, seed=4)
    for as_dict in (False, True):
        keras.backend.clear_session()
        model = _two_output_model(keras, as_dict=as_dict)
        out = model.predict(x, batch_size=4, verbose=0)
        pa, pb = _outputs(model, x)
        call = f"predict(10 examples, batch_size=4) of a model with {'dict' if as_dict else 'list'} outputs"
        if as_dict:
            assert_equal(sorted(out), ["a", "b"], call=call, what="output keys")
            got_a, got_b = out["a"], out["b"]
        else:
            assert_equal(len(out), 2, call=call, what="len(outputs)")
            got_a, got_b = out
        assert_close(np.asarray(got_a), pa, call=call, what="output a", tolerance=TOL32)
        assert_close(np.asarray(got_b), pb, call=call, what="output b", tolerance=TOL32)


@clause("keras.predict.order", ref="tf221")
def test_cov13_on_batch_methods(keras):
    """predict_on_batch runs one batch; test_on_batch with return_dict gives the compiled metrics
    by name; train_on_batch without it a list (loss first), the loss at the weights before the
    step."""
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, name="a")])
    x = _f32(10, 3, seed=5)
    w, b = (np.asarray(v, np.float64) for v in model.get_layer("a").get_weights())
    out = model.predict_on_batch(x[:3])
    assert_close(np.asarray(out), x[:3] @ w + b, call="predict_on_batch(3 examples)", tolerance=TOL32)
    model.compile(optimizer=keras.optimizers.SGD(0.0), loss="mse", metrics=["mae"])
    y = _f32(10, 2, seed=6)
    logs = model.test_on_batch(x[:4], y[:4], return_dict=True)
    p = x[:4] @ w + b
    call = "test_on_batch(4 examples, return_dict=True)"
    assert_equal(sorted(logs), ["loss", "mae"], call=call, what="keys")
    assert_close(logs["loss"], _mse(y[:4], p), call=call, what="loss", tolerance=TOL32)
    assert_close(logs["mae"], _mae(y[:4], p), call=call, what="mae", tolerance=TOL32)
    values = model.train_on_batch(x[:4], y[:4])
    assert_equal(len(values), 2, call="train_on_batch without return_dict", what="len(result)")
    assert_close(values[0], _mse(y[:4], p), call="train_on_batch (SGD(0))", what="loss", tolerance=TOL32)


# -- validation_freq -------------------------------------------------------------------------------------------
@clause("keras.fit.validation", ref="tf221")
def test_cov13_validation_freq_int_list_and_bad_type(keras):
    """validation_freq=k validates after every k-th epoch (1-based), a list after the epochs it
    names; validation logs appear only for those epochs; another type is a ValueError."""
    x, ya, _ = _data()
    for freq, epochs_validated in [(2, [2, 4]), ([1, 4], [1, 4])]:
        keras.backend.clear_session()
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
        model.compile(optimizer=keras.optimizers.SGD(0.05), loss="mse")
        seen = []
        cb = keras.callbacks.LambdaCallback(on_epoch_end=lambda epoch, logs: seen.append(
            (epoch + 1, "val_loss" in logs)))
        hist = model.fit(x, ya, batch_size=4, epochs=4, verbose=0, shuffle=False, validation_data=(x, ya),
                         validation_freq=freq, callbacks=[cb])
        call = f"fit(epochs=4, validation_freq={freq!r})"
        assert_equal([e for e, has in seen if has], epochs_validated, call=call, what="epochs with val_loss")
        assert_equal(len(hist.history["val_loss"]), len(epochs_validated), call=call, what="len(history['val_loss'])")
        assert_equal(len(hist.history["loss"]), 4, call=call, what="len(history['loss'])")
    with raises(ValueError, match="validation_freq", call="fit(validation_freq='2')"):
        model.fit(x, ya, batch_size=4, epochs=2, verbose=0, validation_data=(x, ya), validation_freq="2")


# -- argument errors -------------------------------------------------------------------------------------------
@clause("keras.model.errors", ref="tf221")
def test_cov13_trainer_argument_errors(keras):
    """Keras 3.15's trainer refuses: metrics or weighted_metrics that are not a list/tuple/dict,
    loss_weights of another type, sample_weight together with class_weight, unknown evaluate
    keyword arguments, and a model compiled without a loss when it trains."""
    x, ya, _ = _data()
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    with raises(ValueError, match="metrics", call="compile(metrics='mae')"):
        model.compile(optimizer="sgd", loss="mse", metrics="mae")
    with raises(ValueError, match="weighted_metrics", call="compile(weighted_metrics='mae')"):
        model.compile(optimizer="sgd", loss="mse", weighted_metrics="mae")
    with raises(ValueError, match="loss_weights", call="compile(loss_weights='a')"):
        model.compile(optimizer="sgd", loss="mse", loss_weights="a")
    model.compile(optimizer="sgd", loss="mse")
    with raises(ValueError, match="class_weight", call="fit(sample_weight=..., class_weight=...)"):
        model.fit(x, ya, sample_weight=np.ones(8, np.float32), class_weight={0: 1.0}, verbose=0)
    with raises(ValueError, match="not recognized", call="evaluate(foo=1)"):
        model.evaluate(x, ya, verbose=0, foo=1)
    fresh = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    fresh.compile(optimizer="sgd")
    with raises(ValueError, match="No loss to compute", call="compile(optimizer='sgd') without loss, then fit"):
        fresh.fit(x, ya, batch_size=8, epochs=1, verbose=0)
