"""Gaps the second mechanical mutation sweep found (benchmarks/auto_mutants.py, seed 2, sixteenth
session): behaviours of the API around training that the suite executed but no test looked at
(docs/conformance.md, "Sixteenth session: automatic sweep, seed 2"; TF 2.21 + Keras 3.15).

Each test closes the class of behaviour a surviving mutant showed unchecked, not the one mutant.
Expected values are NumPy transcriptions of Keras 3.15's / TF 2.21's documented rules computed
here, or relations that must hold, never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises
from simdist.conformance.suite.event_files import read_tensors

clause = pytest.mark.clause

_X = np.linspace(-1, 1, 12, dtype=np.float32).reshape(6, 2)
_Y = (_X @ np.array([[0.5], [-1.0]], np.float32) + 0.25).astype(np.float32)


def _model(keras, lr=0.1):
    keras.backend.clear_session()
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")], name="amut15")
    model.compile(optimizer=keras.optimizers.SGD(lr), loss="mse")
    return model


# -- callbacks: TensorBoard's defaults and a log_dir that already exists ------------------------------------------
@clause("keras.callback.tensorboard", ref="tf221")
def test_amut15_tensorboard_defaults_write_the_model_and_reuse_an_existing_log_dir(keras, tmp_path):
    """TensorBoard(log_dir) with its defaults (write_graph=True) writes the model's config as the
    "keras" tensor of train/ at step 0 (Keras 3.15's `_write_keras_model_train_graph` summary);
    a second fit into the same, now existing, log_dir runs and writes one more event file."""
    pytest.importorskip("tensorboard")

    log_dir = str(tmp_path / "tb")
    call = "fit(epochs=1) with TensorBoard(log_dir) (defaults), then a second fit with a new TensorBoard(log_dir)"
    for _ in range(2):
        model = _model(keras)
        model.fit(_X, _Y, batch_size=3, epochs=1, verbose=0, callbacks=[keras.callbacks.TensorBoard(log_dir)])
    train = os.path.join(log_dir, "train")
    files = sorted(f for f in os.listdir(train) if f.startswith("events.out.tfevents."))
    assert_equal(len(files), 2, call=call, what=f"event files in train/ ({files})")
    tensors = read_tensors(os.path.join(train, files[0]))
    assert_true("keras" in tensors,
                f"{call}: train/ tags {sorted(tensors)} hold no 'keras' model tensor, but write_graph defaults to True")
    events = tensors["keras"]
    assert_equal([step for step, _ in events], [0], call=call, what="the 'keras' tensor's steps")
    config = json.loads(events[0][1].item())
    assert_equal(config.get("class_name"), "Sequential", call=call, what="the written model config's class_name")
    assert_equal(config.get("config", {}).get("name"), "amut15", call=call, what="the written model config's name")


# -- metrics: labels converted, then cast, to an integer dtype ----------------------------------------------------
@clause("keras.metric.top-k", ref="tf221")
def test_amut15_sparse_labels_given_as_python_floats_are_cast(keras):
    """Keras's `convert_to_tensor(x, dtype)` for an integer or bool dtype converts x as it is and
    then casts (TF's own conversion refuses Python floats for an integer dtype): sparse top-k
    accuracy takes labels given as a Python list of floats, truncating them as a cast does."""
    probs = np.array([[0.1, 0.6, 0.3], [0.5, 0.2, 0.3], [0.2, 0.3, 0.5], [0.7, 0.2, 0.1]], np.float32)
    labels = [1.0, 2.0, 2.9, 1.0]              # cast to int32: 1, 2, 2, 1
    ints = np.array(labels).astype(np.int32)
    for k in (1, 2):
        topk = np.argsort(-probs, axis=1)[:, :k]
        want = np.array([float(t in row) for t, row in zip(ints, topk)])
        call = f"keras.metrics.sparse_top_k_categorical_accuracy({labels}, probs, k={k})"
        got = keras.metrics.sparse_top_k_categorical_accuracy(labels, probs, k=k)
        assert_close(np.asarray(got), want, call=call, what="per-sample matches")
        m = keras.metrics.SparseTopKCategoricalAccuracy(k=k)
        m.update_state(labels, probs)
        assert_close(float(m.result()), float(want.mean()), call=call.replace("sparse_top_k_categorical_accuracy",
                                                                           "SparseTopKCategoricalAccuracy"),
                     what="result()")


# -- losses: circle against a separate reference set ----------------------------------------------------------
def _logsumexp_rows(x, mask):
    x = np.where(mask, x, -np.inf)
    m = np.max(x, axis=1, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    with np.errstate(divide="ignore"):
        return np.log(np.sum(np.exp(x - m), axis=1)) + m[:, 0]


def _circle(q_labels, q, r_labels, r, gamma, margin, remove_diagonal):
    """Keras 3.15's `circle` in float64: queries q against references r (cosine distances)."""
    d = np.maximum(1 - q @ r.T, 0.0)
    pos = q_labels[:, None] == r_labels[None, :]
    neg = ~pos
    if remove_diagonal:
        pos = pos & ~np.eye(len(q_labels), len(r_labels), dtype=bool)
    a_p = np.maximum((margin + d) * pos, 0.0)
    a_n = np.maximum((1 + margin - d) * neg, 0.0)
    z = _logsumexp_rows(-gamma * a_p * (margin - d), pos) + _logsumexp_rows(gamma * a_n * (1 - margin - d), neg)
    return np.logaddexp(0.0, z)


def _unit_rows(n, seed):
    x = np.random.default_rng(seed).uniform(-1, 1, (n, 4))
    return (0.9 * x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


@clause("keras.loss.functions", ref="tf221")
@pytest.mark.parametrize("remove_diagonal", [True, False])
def test_amut15_circle_compares_queries_with_the_given_reference_set(keras, remove_diagonal):
    """keras.losses.circle(y_true, y_pred, ref_labels=, ref_embeddings=): each query row's loss
    is taken over its pairs with the reference rows (labels cast to int32, float labels
    included), not with the other queries; remove_diagonal drops the pairs (i, i)."""
    q_labels = np.array([0, 1, 2, 1], np.int32)
    r_labels = np.array([1.0, 0.0, 1.0, 2.0, 0.0, 3.0], np.float32)   # float labels: cast to int32
    q, r = _unit_rows(4, 11), _unit_rows(6, 12)
    for gamma, margin in ((80.0, 0.4), (2.0, 0.25)):
        want = _circle(q_labels, q.astype(np.float64), r_labels.astype(np.int32), r.astype(np.float64),
                       gamma, margin, remove_diagonal)
        call = (f"keras.losses.circle(labels[4], x[4, 4], ref_labels=float labels[6], ref_embeddings=r[6, 4], "
                f"remove_diagonal={remove_diagonal}, gamma={gamma}, margin={margin})")
        got = keras.losses.circle(q_labels, q, ref_labels=r_labels, ref_embeddings=r, remove_diagonal=remove_diagonal,
                                  gamma=gamma, margin=margin)
        assert_close(np.asarray(got), want, call=call, what="per-query loss")


# -- metrics: the correlation metrics along their axis -------------------------------------------------------------
def _pearson(t, p, axis):
    tz = (t - t.mean(axis, keepdims=True)) / t.std(axis, keepdims=True)
    pz = (p - p.mean(axis, keepdims=True)) / p.std(axis, keepdims=True)
    return (tz * pz).mean(axis)


def _concordance(t, p, axis):
    tm, pm = t.mean(axis, keepdims=True), p.mean(axis, keepdims=True)
    norm = t.var(axis, keepdims=True) + p.var(axis, keepdims=True) + (tm - pm) ** 2
    return (2 * (t - pm) * (p - pm) / (norm + 1e-7)).mean(axis)    # Keras's covar: both minus mean(y_pred)


@clause("keras.metric.hinge-correlation", ref="tf221")
@pytest.mark.parametrize("axis", [0, -1, 1])
def test_amut15_correlation_metrics_correlate_along_their_axis(keras, axis):
    """pearson_correlation / concordance_correlation(axis=a) and the metric classes built with
    axis=a centre, scale and average along that axis only (one value per slice of the others)."""
    rng = np.random.default_rng(21)
    t = rng.uniform(-2, 2, (4, 5)).astype(np.float32)
    p = (0.6 * t + rng.uniform(-1, 1, (4, 5))).astype(np.float32)
    t64, p64 = t.astype(np.float64), p.astype(np.float64)
    for name, fn, cls, ref in (("pearson_correlation", keras.metrics.pearson_correlation,
                                keras.metrics.PearsonCorrelation, _pearson),
                               ("concordance_correlation", keras.metrics.concordance_correlation,
                                keras.metrics.ConcordanceCorrelation, _concordance)):
        want = ref(t64, p64, axis)
        call = f"keras.metrics.{name}(t[4, 5], p[4, 5], axis={axis})"
        assert_close(np.asarray(fn(t, p, axis=axis)), want, call=call, what="per-slice correlation")
        m = cls(axis=axis)
        m.update_state(t, p)
        assert_close(float(m.result()), float(want.mean()), call=f"{cls.__name__}(axis={axis}).update_state(t, p)",
                     what="result()")


# -- metrics: FBetaScore's argument checks at their boundaries ------------------------------------------------------
@clause("keras.metric.f-score", ref="tf221")
def test_amut15_fbeta_arguments_are_checked_at_their_boundaries(keras):
    """FBetaScore/F1Score refuse (ValueError) an unknown average, a non-float or non-positive
    beta, a non-float threshold and one outside (0, 1]; threshold=1.0 and the smallest positive
    threshold are accepted, and the metric then counts y_pred > threshold as positive."""
    bad = [dict(average="mean"), dict(beta=1), dict(beta=0.0), dict(beta=-0.5), dict(threshold=1),
           dict(threshold=0.0), dict(threshold=-0.25), dict(threshold=1.0000001)]
    for kw in bad:
        with raises(ValueError, call=f"keras.metrics.FBetaScore(**{kw})"):
            keras.metrics.FBetaScore(**kw)
    with raises(ValueError, call="keras.metrics.F1Score(threshold=0.0)"):
        keras.metrics.F1Score(threshold=0.0)
    y_true = np.array([[1, 0], [1, 1], [0, 1], [0, 0]], np.float32)
    y_pred = np.array([[1.0, 0.3], [0.9, 1.0], [0.0, 1.0], [1.0, 0.0]], np.float32)   # 1.0 is not > 1.0
    for threshold in (1.0, float(np.finfo(np.float32).tiny)):
        pos = y_pred > np.float32(threshold)
        tp = (pos * y_true).sum(0)
        fp = (pos * (1 - y_true)).sum(0)
        fn = ((1 - pos) * y_true).sum(0)
        p, r = tp / (tp + fp + 1e-7), tp / (tp + fn + 1e-7)
        want = 2 * p * r / (p + r + 1e-7)
        m = keras.metrics.F1Score(threshold=threshold)
        m.update_state(y_true, y_pred)
        assert_close(np.asarray(m.result()), want,
                     call=f"F1Score(threshold={threshold!r}).update_state(y_true, y_pred)",
                     what="per-class F1 (positive: y_pred > threshold)")


# -- models: model_from_json with custom objects; functional configs with dict call arguments --------------------
def _scale_layer_class(keras):
    class AmutScale(keras.layers.Layer):
        """y = x * factor (an unregistered custom layer: only custom_objects can name it)."""

        def __init__(self, factor=2.0, **kwargs):
            super().__init__(**kwargs)
            self.factor = factor

        def call(self, x):
            return x * self.factor

        def get_config(self):
            return {**super().get_config(), "factor": self.factor}

    return AmutScale


@clause("keras.saving.json-and-serialize", ref="tf221")
def test_amut15_model_from_json_resolves_custom_objects(keras):
    """keras.models.model_from_json(json, custom_objects={name: cls}) rebuilds a model holding an
    unregistered custom layer from `to_json()`, with the layer's config (factor) kept; without
    custom_objects the class cannot be found (TypeError)."""
    scale = _scale_layer_class(keras)
    keras.backend.clear_session()
    inp = keras.Input((2,))
    model = keras.Model(inp, scale(factor=-1.5, name="scale")(keras.layers.Dense(2, name="d")(inp)))
    text = model.to_json()
    call = "keras.models.model_from_json(model.to_json(), custom_objects={'AmutScale': AmutScale})"
    back = keras.models.model_from_json(text, custom_objects={"AmutScale": scale})
    layer = back.get_layer("scale")
    assert_equal(type(layer).__name__, "AmutScale", call=call, what="type of layer 'scale'")
    assert_equal(layer.factor, -1.5, call=call, what="layer 'scale'.factor")
    back.set_weights(model.get_weights())
    x = _X[:3]
    w, b = model.get_weights()
    want = (x.astype(np.float64) @ w + b) * -1.5
    # (a float32 Dense rounds relative to the magnitudes it sums, not to the result: the scale)
    mags = (np.abs(x.astype(np.float64)) @ np.abs(w) + np.abs(b)) * 1.5
    assert_close(np.asarray(back.predict(x, verbose=0)), want, call=call, what="predict of the rebuilt model",
                 scale=mags)
    with raises(TypeError, call="keras.models.model_from_json(json of an unregistered custom layer)"):
        keras.models.model_from_json(text)


@clause("keras.model.config", ref="tf221")
def test_amut15_functional_config_keeps_dict_and_nested_call_arguments(keras):
    """A functional model whose nodes take their tensors in a dict (an inner model with dict
    inputs) and in a nested list round-trips through get_config / from_config: the rebuilt
    model routes each tensor to the same key and position (same predictions)."""
    keras.backend.clear_session()
    a_in, b_in = keras.Input((2,), name="a"), keras.Input((2,), name="b")
    inner = keras.Model({"a": a_in, "b": b_in},
                        keras.layers.Subtract(name="sub")([keras.layers.Dense(2, name="da")(a_in), b_in]), name="inner")
    x1, x2 = keras.Input((2,), name="x1"), keras.Input((2,), name="x2")
    y = inner({"a": x1, "b": x2})
    z = keras.layers.Concatenate(name="cat")([y, keras.layers.Add(name="add")([x1, x2])])
    outer = keras.Model([x1, x2], z, name="outer")
    kernel = np.array([[1.0, -2.0], [0.5, 3.0]], np.float32)
    bias = np.array([0.25, -0.5], np.float32)
    inner.get_layer("da").set_weights([kernel, bias])
    u, v = _X[:3], (_X[:3] * np.float32(-2.0) + np.float32(1.0)).astype(np.float32)
    dense = u.astype(np.float64) @ kernel + bias
    want = np.concatenate([dense - v, u.astype(np.float64) + v], axis=1)
    call = "Model([x1, x2], concat([inner({'a': x1, 'b': x2}), add([x1, x2])])): from_config(get_config())"
    assert_close(np.asarray(outer.predict([u, v], verbose=0)), want, call=call.split(":")[0], what="predict")
    back = keras.Model.from_config(outer.get_config())
    back.set_weights(outer.get_weights())
    assert_close(np.asarray(back.predict([u, v], verbose=0)), want, call=call, what="predict of the rebuilt model")
    modules = {lc["name"]: (lc["module"], lc["class_name"]) for lc in outer.get_config()["layers"]}
    assert_equal(modules["inner"], ("keras.src.models.functional", "Functional"), call=call,
                 what="the nested model's (module, class_name) in the config")
    seq = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, name="ds")], name="seq")
    seq.get_layer("ds").set_weights([np.array([[2.0], [-1.0]], np.float32), np.array([0.5], np.float32)])
    s_in = keras.Input((2,))
    holder = keras.Model(s_in, seq(s_in))
    call = "Model(x, Sequential([Input, Dense(1)])(x)): from_config(get_config())"
    modules = {lc["name"]: (lc["module"], lc["class_name"]) for lc in holder.get_config()["layers"]}
    assert_equal(modules["seq"], ("keras", "Sequential"), call=call,
                 what="the nested Sequential's (module, class_name)")
    again = keras.Model.from_config(holder.get_config())
    again.set_weights(holder.get_weights())
    assert_close(np.asarray(again.predict(u, verbose=0)), u.astype(np.float64) @ np.array([[2.0], [-1.0]]) + 0.5,
                 call=call, what="predict of the rebuilt model")


# -- optimizers: every optimizer's constructor defaults ------------------------------------------------------------
# Keras 3.15's signatures (keras/src/optimizers/<name>.py); SGD, Adam, AdamW, RMSprop and Adagrad are
# test_blind6_gaps.py's.
OPTIMIZER_DEFAULTS = {
    "Adadelta": {"learning_rate": 0.001, "rho": 0.95, "epsilon": 1e-07},
    "Adamax": {"learning_rate": 0.001, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07},
    "Nadam": {"learning_rate": 0.001, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07},
    "Ftrl": {"learning_rate": 0.001, "learning_rate_power": -0.5, "initial_accumulator_value": 0.1,
             "l1_regularization_strength": 0.0, "l2_regularization_strength": 0.0,
             "l2_shrinkage_regularization_strength": 0.0, "beta": 0.0},
    "Lion": {"learning_rate": 0.001, "beta_1": 0.9, "beta_2": 0.99},
    "Lamb": {"learning_rate": 0.001, "beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-07},
    "Adafactor": {"learning_rate": 0.001, "beta_2_decay": -0.8, "epsilon_1": 1e-30, "epsilon_2": 0.001,
                  "clip_threshold": 1.0, "relative_step": True},
    "Muon": {"learning_rate": 0.001, "weight_decay": 0.004, "adam_beta_1": 0.9, "adam_beta_2": 0.999,
             "epsilon": 1e-07, "exclude_embeddings": True, "momentum": 0.95, "ns_steps": 5, "nesterov": True},
}
COMMON_DEFAULTS = {"weight_decay": None, "clipnorm": None, "global_clipnorm": None, "clipvalue": None,
                   "use_ema": False, "ema_momentum": 0.99, "ema_overwrite_frequency": None,
                   "loss_scale_factor": None, "gradient_accumulation_steps": None}


@clause("optim.option-coverage", ref="tf221")
@pytest.mark.parametrize("name", list(OPTIMIZER_DEFAULTS))
def test_amut15_every_optimizer_has_keras_defaults(keras, name):
    """Every optimizer built without arguments has its Keras 3.15 signature's defaults, and its
    config (learning_rate included) says so."""
    config = getattr(keras.optimizers, name)().get_config()
    want = {**COMMON_DEFAULTS, **OPTIMIZER_DEFAULTS[name]}
    got = {k: config.get(k, "<missing>") for k in want}

    def same(g, w):
        if w is None or isinstance(w, bool):
            return g is w or (isinstance(w, bool) and isinstance(g, (bool, np.bool_)) and bool(g) == w)
        return isinstance(g, (int, float, np.floating, np.integer)) and bool(np.isclose(float(g), w, rtol=1e-6))
    wrong = {k: got[k] for k in want if not same(got[k], want[k])}
    assert_true(not wrong, f"{name}().get_config() has {wrong}, but should have {({k: want[k] for k in wrong})}",
                call=f"keras.optimizers.{name}().get_config()")


@clause("keras.saving.json-and-serialize", ref="tf221")
def test_amut15_a_registered_layer_comes_back_by_its_registered_name(keras):
    """A layer registered with `register_keras_serializable(package, name)` under a name unlike
    its class name is written with registered_name "package>name" and found by it again
    (get_config/from_config and to_json/model_from_json, no custom_objects)."""
    @keras.utils.register_keras_serializable(package="amut15", name="NamedScale")
    class AmutRegisteredScale(keras.layers.Layer):
        def __init__(self, factor=2.0, **kwargs):
            super().__init__(**kwargs)
            self.factor = factor

        def call(self, x):
            return x * self.factor

        def get_config(self):
            return {**super().get_config(), "factor": self.factor}

    keras.backend.clear_session()
    inp = keras.Input((2,))
    model = keras.Model(inp, AmutRegisteredScale(factor=0.5, name="scale")(inp))
    entry = [lc for lc in model.get_config()["layers"] if lc["name"] == "scale"][0]
    call = "Model with a layer registered as 'amut15>NamedScale'"
    assert_equal((entry["class_name"], entry["registered_name"]), ("AmutRegisteredScale", "amut15>NamedScale"),
                 call=call, what="the layer's (class_name, registered_name) in get_config()")
    x = _X[:3]
    for how, back in (("Model.from_config(get_config())", lambda: keras.Model.from_config(model.get_config())),
                      ("model_from_json(to_json())", lambda: keras.models.model_from_json(model.to_json()))):
        rebuilt = back()
        layer = rebuilt.get_layer("scale")
        assert_equal((type(layer).__name__, layer.factor), ("AmutRegisteredScale", 0.5), call=f"{call}: {how}",
                     what="the rebuilt layer's (class, factor)")
        assert_close(np.asarray(rebuilt.predict(x, verbose=0)), x.astype(np.float64) * 0.5, call=f"{call}: {how}",
                     what="predict")


# -- callbacks: EarlyStopping's bookkeeping ------------------------------------------------------------------------
@clause("keras.fit.callbacks", ref="tf221")
def test_amut15_early_stopping_bookkeeping_starts_at_zero_and_records_the_stop(keras, capsys):
    """EarlyStopping's public counters (wait, stopped_epoch; best_epoch from on_train_begin) start
    at 0 and are reset by each fit (the callback can be reused): a fit whose loss stalls (learning rate 0) stops
    after `patience` epochs past the best, stopped_epoch is that epoch and "Epoch
    <stopped_epoch + 1>: early stopping" is printed (verbose=1); a later fit that never stalls
    leaves stopped_epoch 0 and prints nothing."""
    cb = keras.callbacks.EarlyStopping(monitor="loss", patience=1, verbose=1)
    assert_equal((cb.wait, cb.stopped_epoch), (0, 0), call="EarlyStopping(monitor='loss')",
                 what="(wait, stopped_epoch) before any fit (Keras sets best_epoch at on_train_begin only)")
    capsys.readouterr()
    stalled = _model(keras, lr=0.0).fit(_X, _Y, batch_size=6, epochs=5, verbose=0, shuffle=False, callbacks=[cb])
    call = "fit(epochs=5, SGD(0.0): the loss never improves) with EarlyStopping(monitor='loss', patience=1, verbose=1)"
    printed = capsys.readouterr().out
    assert_equal((len(stalled.history["loss"]), cb.stopped_epoch, cb.best_epoch), (2, 1, 0), call=call,
                 what="(epochs run, stopped_epoch, best_epoch)")
    assert_true("Epoch 2: early stopping" in printed, f"{call}: printed {printed!r}, but should print "
                "'Epoch 2: early stopping'")
    improving = _model(keras, lr=0.05).fit(_X, _Y, batch_size=6, epochs=3, verbose=0, shuffle=False, callbacks=[cb])
    losses = improving.history["loss"]
    call = "the same callback in fit(epochs=3, SGD(0.05): the loss falls every epoch)"
    assert_true(all(b < a for a, b in zip(losses, losses[1:])), f"test precondition: the losses {losses} fall")
    printed = capsys.readouterr().out
    assert_equal((len(losses), cb.stopped_epoch, cb.wait, cb.best_epoch), (3, 0, 0, 2), call=call,
                 what="(epochs run, stopped_epoch, wait, best_epoch)")
    assert_true("early stopping" not in printed, f"{call}: printed {printed!r}, but training did not stop early")


@clause("keras.fit.progress-bar", ref="tf221")
@pytest.mark.parametrize("verbose", [1, 2])
def test_amut15_epoch_headers_only_for_more_than_one_epoch(keras, capsys, verbose):
    """fit's ProgbarLogger prints "Epoch k/n" before each epoch only when n > 1: fit(epochs=1)
    prints no epoch header, fit(epochs=3) prints "Epoch 1/3" .. "Epoch 3/3" in order."""
    model = _model(keras)
    capsys.readouterr()
    model.fit(_X, _Y, batch_size=3, epochs=1, verbose=verbose, shuffle=False)
    one = capsys.readouterr().out
    assert_true("Epoch 1/1" not in one, f"fit(epochs=1, verbose={verbose}) printed {one!r}, but Keras prints no "
                "epoch header for a single epoch")
    model.fit(_X, _Y, batch_size=3, epochs=3, verbose=verbose, shuffle=False)
    three = capsys.readouterr().out
    where = [three.find(f"Epoch {k}/3") for k in (1, 2, 3)]
    assert_true(all(w >= 0 for w in where) and where == sorted(where),
                f"fit(epochs=3, verbose={verbose}) printed {three!r}, but should print 'Epoch 1/3', 'Epoch 2/3', "
                "'Epoch 3/3' in order")


@clause("keras.fit.python-inputs", ref="tf221")
def test_amut15_a_py_dataset_batch_is_a_tuple_a_dict_or_a_numpy_array(tf, keras):
    """PyDataset.__getitem__ returns a tuple/list of 1-3 elements, a dict, or a bare NumPy array
    (an input-only batch, as predict takes it); anything else (a bare tensor) is refused with
    Keras's ValueError "PyDataset.__getitem__() must return a tuple or a dict"."""
    x = _X[:4]

    class Batches(keras.utils.PyDataset):
        def __init__(self, make):
            super().__init__()
            self.make = make

        def __len__(self):
            return 2

        def __getitem__(self, i):
            return self.make(x[2 * i:2 * i + 2])

    model = _model(keras)
    want = x.astype(np.float64) @ np.ones((2, 1)) + 0.0
    for how, make in (("a NumPy array", lambda b: b), ("a 1-tuple", lambda b: (b,)), ("a list", lambda b: [b])):
        got = model.predict(Batches(make), verbose=0)
        assert_close(np.asarray(got), want, call=f"predict(PyDataset whose batches are {how})", what="predictions")
    with raises(ValueError, match="must return a tuple or a dict",
                call="predict(PyDataset whose batches are tf.constant tensors)"):
        model.predict(Batches(lambda b: tf.constant(b)), verbose=0)
