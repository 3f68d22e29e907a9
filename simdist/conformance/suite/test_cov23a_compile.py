"""compile()/fit() paths of the Keras training loop the suite never executed before the twenty-third
session (docs/conformance.md, "Twenty-third session: suite coverage of Keras"): `loss="crossentropy"`
resolved by the label and prediction shapes, a plain function or a callable object as a metric (its
snake-case name), a custom `train_step` whose logs are not the compiled metrics', the
`distribute_reduction_method` property (stored, not used) under MirroredStrategy, one `sample_weight` array for
a model with two outputs, and `class_weight` with one-hot labels from a tf.data.Dataset
(TF 2.21 + Keras 3.15).

Expected values are computed here with NumPy from Keras 3.15's formulas (keras/src/trainers/
compile_utils.py, trainer.py, data_adapters/, backend/tensorflow/trainer.py reduce_per_replica),
from the predictions the backend reports, never with the backend's implementation of the rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL = Tolerance(rtol=2e-5, atol=2e-6)

X = np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 1.0], [2.0, 1.0, -1.0], [-0.5, 0.5, 1.5]], dtype=np.float32)
W3 = np.array([[0.5, -0.25, 1.0], [-1.0, 0.5, 0.25], [0.75, 0.0, -0.5]], dtype=np.float32)
W1 = np.array([[0.5], [-1.0], [0.25]], dtype=np.float32)


def _dense_model(keras, w, activation):
    """Input(3) -> Dense(w.shape[1], activation) without bias, kernel set to `w`."""
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(w.shape[1], activation=activation,
                                                                       use_bias=False)])
    model.set_weights([w])
    return model


@clause("keras.loss.get", ref="tf221")
def test_cov23a_crossentropy_string_picks_the_loss_from_the_shapes(keras):
    """compile(loss="crossentropy") (or "ce") is resolved when the loss is built, from the shapes
    (compile_utils.get_loss + is_binary_or_sparse_categorical): a prediction with last dimension 1
    is binary crossentropy; labels of lower rank than the prediction, or with last dimension 1
    against a wider prediction, sparse categorical; labels shaped as the prediction, categorical."""
    labels = np.array([0, 2, 1, 2])
    cases = [
        ("binary: Dense(1, sigmoid), y (4, 1)", W1, "sigmoid", np.array([[1.0], [0.0], [1.0], [0.0]], np.float32),
         "crossentropy"),
        ("sparse: Dense(3, softmax), y (4,) ints", W3, "softmax", labels.astype(np.int32), "ce"),
        ("sparse: Dense(3, softmax), y (4, 1) ints", W3, "softmax", labels.reshape(4, 1).astype(np.int32),
         "crossentropy"),
        ("categorical: Dense(3, softmax), y one-hot (4, 3)", W3, "softmax", np.eye(3, dtype=np.float32)[labels],
         "CrossEntropy"),
    ]
    for call, w, act, y, name in cases:
        model = _dense_model(keras, w, act)
        model.compile(loss=name)
        got = model.evaluate(X, y, batch_size=4, verbose=0)
        p = np.asarray(model.predict(X, batch_size=4, verbose=0), np.float64)
        if w.shape[1] == 1:
            t = y.astype(np.float64)
            want = float(np.mean(-(t * np.log(p) + (1 - t) * np.log(1 - p))))
        else:
            want = float(np.mean(-np.log(p[np.arange(4), labels])))
        assert_close(got, want, tolerance=TOL, call=f"compile(loss={name!r}), {call}", what="evaluate loss")


def myAbsErr(y_true, y_pred):  # noqa: N802 - the camel-case name is the point: Keras snake-cases it
    return abs(y_true - y_pred)


class SquaredGap:
    """A callable metric object with no `name` (Keras names it after its class, snake-cased)."""

    def __call__(self, y_true, y_pred):
        return (y_true - y_pred) ** 2


@clause("keras.metric.get", ref="tf221")
def test_cov23a_function_and_callable_metrics_are_named_in_snake_case(keras):
    """A metric given as a plain function or a callable object is wrapped in MeanMetricWrapper and
    named by keras.src.utils.naming.get_object_name: its `name`, else to_snake_case(__name__), else
    to_snake_case of its class name ("myAbsErr" -> "my_abs_err", SquaredGap() -> "squared_gap");
    the value is the mean of the function over the examples."""
    y = np.array([[1.0], [0.0], [2.0], [-1.0]], dtype=np.float32)
    model = _dense_model(keras, W1, None)
    model.compile(loss="mse", metrics=[myAbsErr, SquaredGap()])
    got = model.evaluate(X, y, batch_size=4, verbose=0, return_dict=True)
    call = "compile(metrics=[myAbsErr, SquaredGap()]).evaluate(return_dict=True)"
    assert_equal(sorted(got), ["loss", "my_abs_err", "squared_gap"], call=call, what="logs keys")
    p = np.asarray(model.predict(X, verbose=0), np.float64)
    gap = y.astype(np.float64) - p
    assert_close(got["my_abs_err"], float(np.mean(np.abs(gap))), tolerance=TOL, call=call, what="my_abs_err")
    assert_close(got["squared_gap"], float(np.mean(gap ** 2)), tolerance=TOL, call=call, what="squared_gap")


@clause("keras.fit.logs", ref="tf221")
def test_cov23a_custom_train_step_logs_are_kept(keras, tf):
    """A train_step/test_step returning logs whose keys are not the compiled metrics' is left alone
    (Trainer._get_metrics_result_or_logs returns the step's logs unless their keys are exactly the
    metrics'): History and evaluate(return_dict=True) report the custom keys and values."""

    class Custom(keras.Model):
        def train_step(self, data):
            x, _ = data
            return {"rows": tf.cast(tf.shape(x)[0], "float32"), "total": tf.reduce_sum(x)}

        def test_step(self, data):
            x, _ = data
            return {"peak": tf.reduce_max(x)}

    inputs = keras.Input((3,))
    model = Custom(inputs, keras.layers.Dense(1)(inputs))
    model.compile(loss="mse")
    y = np.zeros((4, 1), np.float32)
    history = model.fit(X, y, batch_size=3, epochs=2, verbose=0, shuffle=False)
    call = "fit of a Model whose train_step returns {'rows', 'total'} (4 rows, batch 3)"
    assert_equal(sorted(history.history), ["rows", "total"], call=call, what="History keys")
    # the epoch's logs are the last step's: its batch has 1 row
    assert_close(history.history["rows"], [1.0, 1.0], call=call, what="History rows")
    assert_close(history.history["total"], [float(X[3].sum())] * 2, tolerance=TOL, call=call, what="History total")
    got = model.evaluate(X, y, batch_size=2, verbose=0, return_dict=True)
    assert_equal(sorted(got), ["peak"], call="evaluate(return_dict=True), test_step returns {'peak'}",
                 what="logs keys")
    assert_close(got["peak"], float(X[2:].max()), call="evaluate(batch_size=2, return_dict=True)",
                 what="peak (the last batch's)")


@clause("keras.fit.logs", ref="tf221")
def test_cov23a_distribute_reduction_method_is_stored_but_unused(backend, keras):
    """Keras 3.15's TF trainer has a `distribute_reduction_method` property whose attribute no
    constructor sets: reading it first is an AttributeError; once set it reads back (None reads
    "auto"). The train step reduces its per-replica logs with "auto" ("mean" off TPU) whatever is
    set (backend/tensorflow/trainer.py _make_function): with 4 examples in one batch of 4 on two
    replicas, the step's logged loss is the mean of the two replicas' loss results under
    "sum" and "first" too."""
    strategy = backend.make_strategy("mirrored", 2)
    y = np.array([[1.0], [0.0], [2.0], [-1.0]], dtype=np.float32)
    per_example = ((X.astype(np.float64) @ W1 - y) ** 2).ravel()
    r0, r1 = per_example[:2].mean(), per_example[2:].mean()
    unset = _dense_model(keras, W1, None)
    with pytest.raises(AttributeError, match="_distribute_reduction_method"):
        _ = unset.distribute_reduction_method
    unset.distribute_reduction_method = None
    assert_equal(unset.distribute_reduction_method, "auto", call="distribute_reduction_method = None",
                 what="distribute_reduction_method")
    for method in ["sum", "first"]:
        with strategy.scope():
            model = _dense_model(keras, W1, None)
            model.compile(optimizer=keras.optimizers.SGD(0.0), loss="mse")
        model.distribute_reduction_method = method
        records = []

        class Record(keras.callbacks.Callback):
            def on_train_batch_end(self, batch, logs=None):
                records.append(dict(logs or {}))

        history = model.fit(X, y, batch_size=4, epochs=1, verbose=0, shuffle=False, callbacks=[Record()])
        call = f"Mirrored(2) fit, distribute_reduction_method={method!r}"
        assert_equal(model.distribute_reduction_method, method, call=call, what="distribute_reduction_method")
        assert_close(records[-1]["loss"], (r0 + r1) / 2, tolerance=TOL, call=call, what="the step's logged loss")
        assert_close(history.history["loss"], [per_example.mean()], tolerance=TOL, call=call, what="History loss")


@clause("keras.fit.data", ref="tf221")
def test_cov23a_one_sample_weight_array_for_two_outputs(keras):
    """fit/evaluate of a model with two outputs and ONE sample_weight array (shape (n,) or (n, 1))
    use it for every output (array_data_adapter: the array is mapped over y's structure); a
    sample_weight of another rank is refused (ValueError, "one scalar score per sample")."""
    def two_outputs():
        inputs = keras.Input((3,))
        a = keras.layers.Dense(1, use_bias=False, name="a")(inputs)
        b = keras.layers.Dense(1, use_bias=False, name="b")(inputs)
        model = keras.Model(inputs, [a, b])
        model.set_weights([W1, W1[::-1].copy()])
        model.compile(loss=["mse", "mae"])
        return model

    ya = np.array([[1.0], [0.0], [2.0], [-1.0]], np.float32)
    yb = np.array([[0.5], [1.0], [-1.0], [0.0]], np.float32)
    sw = np.array([1.0, 0.0, 2.0, 0.5], np.float32)
    pa, pb = X.astype(np.float64) @ W1, X.astype(np.float64) @ W1[::-1]
    la = (pa - ya).ravel() ** 2
    lb = np.abs(pb - yb).ravel()
    # sum_over_batch_size: sum(w * l) / n per output, the total their sum
    want_a, want_b = float(np.sum(sw * la) / 4), float(np.sum(sw * lb) / 4)
    # (a new model per shape: TF 2.21 retraces evaluate's step for the second rank with a relaxed
    # signature of unknown rank, which Keras's sample-weight check cannot take the length of)
    for shape in [(4,), (4, 1)]:
        model = two_outputs()
        got = model.evaluate(X, [ya, yb], sample_weight=sw.reshape(shape), batch_size=4, verbose=0,
                             return_dict=True)
        call = f"two outputs, loss=['mse', 'mae'], one sample_weight of shape {shape}"
        assert_close(got["a_loss"], want_a, tolerance=TOL, call=call, what="a_loss")
        assert_close(got["b_loss"], want_b, tolerance=TOL, call=call, what="b_loss")
        assert_close(got["loss"], want_a + want_b, tolerance=TOL, call=call, what="loss")
    with pytest.raises(ValueError, match="one scalar score per sample"):
        two_outputs().evaluate(X, [ya, yb], sample_weight=np.ones((4, 2), np.float32), batch_size=4, verbose=0)


@clause("keras.fit.data", ref="tf221")
def test_cov23a_class_weight_with_one_hot_labels_from_a_dataset(keras, tf):
    """fit(dataset, class_weight=...) with one-hot labels (last dimension > 1) weighs each example
    by the class of its argmax over the last axis (data_adapter_utils.class_weight_to_sample_weights
    via TFDatasetAdapter's map); with an SGD step of learning rate 1 and a bias-free softmax layer
    the update is -grad of the class-weighted mean crossentropy, computed here in NumPy."""
    labels = np.array([0, 2, 1, 2])
    y = np.eye(3, dtype=np.float32)[labels]
    cw = {0: 2.0, 1: 0.5, 2: 3.0}
    model = _dense_model(keras, W3, "softmax")
    model.compile(optimizer=keras.optimizers.SGD(1.0), loss="categorical_crossentropy")
    ds = tf.data.Dataset.from_tensor_slices((X, y)).batch(4)
    model.fit(ds, epochs=1, verbose=0, class_weight=cw)
    x64 = X.astype(np.float64)
    logits = x64 @ W3.astype(np.float64)
    p = np.exp(logits - logits.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    w = np.array([cw[int(c)] for c in labels])
    grad = x64.T @ ((p - y) * w[:, None]) / 4
    want = W3 - grad
    assert_close(model.get_weights()[0], want, tolerance=Tolerance(rtol=1e-5, atol=1e-5),
                 call="fit(Dataset of one-hot labels, class_weight={0: 2, 1: 0.5, 2: 3}), SGD(1.0), one step",
                 what="kernel after the step")
