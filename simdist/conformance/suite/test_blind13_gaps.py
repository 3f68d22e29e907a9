"""Gaps the thirteenth blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): behaviours and options no earlier suite test set or looked at closely
enough for a wrong implementation to fail (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here
with NumPy (or a Python transcription of TF's or Keras 3.15's rule), never with the backend's own
implementation of the same rule.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)


def _f32(*shape, seed=0, lo=-1.0, hi=1.0):
    return np.random.default_rng(seed).uniform(lo, hi, shape).astype(np.float32)


# -- tf.data: cardinalities and element specs of range, enumerate, batch and unbatch ---------------------------
@clause("dataset.batching", ref="tf221")
def test_blind13_range_enumerate_and_unbatch_count_what_they_yield(tf, budget):
    """Dataset.range(start, stop, step) has len(range(start, stop, step)) elements (a step that does
    not divide the span rounds up; a negative step counts down); enumerate(start=k) numbers from k;
    unbatch of batches of a known size has batches * size elements. cardinality() says what
    iterating yields."""
    r = tf.data.Dataset.range
    cases = [("range(0, 10, 3)", lambda: r(0, 10, 3), list(range(0, 10, 3))),
             ("range(1, 8, 2)", lambda: r(1, 8, 2), list(range(1, 8, 2))),
             ("range(10, 0, -3)", lambda: r(10, 0, -3), list(range(10, 0, -3))),
             ("range(5, -4, -2)", lambda: r(5, -4, -2), list(range(5, -4, -2))),
             ("range(7, 2)", lambda: r(7, 2), []),
             ("range(0, 10, 5)", lambda: r(0, 10, 5), [0, 5])]
    for name, make, want in budget(cases):
        ds = make()
        assert_equal([int(v) for v in ds], want, call=name, what="elements")
        assert_equal(int(ds.cardinality()), len(want), call=f"{name}.cardinality()")
    for start in budget([3, 0, -2]):
        ds = r(10, 14).enumerate(start=start)
        got = [(int(i), int(v)) for i, v in ds]
        assert_equal(got, [(start + j, 10 + j) for j in range(4)], call=f"range(10, 14).enumerate(start={start})",
                     what="(index, element) pairs")
    for n, size, drop in budget([(10, 3, True), (12, 4, False), (10, 3, False)]):
        ds = r(n).batch(size, drop_remainder=drop).unbatch()
        name = f"range({n}).batch({size}, drop_remainder={drop}).unbatch()"
        want = list(range(n - n % size)) if drop else list(range(n))
        assert_equal([int(v) for v in ds], want, call=name, what="elements")
        card = int(ds.cardinality())
        # TF knows the count only when the batch dimension is static (drop_remainder=True); else UNKNOWN (-2)
        assert_equal(card, len(want) if drop else -2, call=f"{name}.cardinality()")


@clause("dataset.batching", ref="tf221")
def test_blind13_batch_element_spec_has_a_static_batch_only_with_drop_remainder(tf, budget):
    """Dataset.batch(k).element_spec has a None batch dimension (the last batch may be short);
    with drop_remainder=True it is k. The same for padded_batch; the inner dimensions stay."""
    base = tf.data.Dataset.from_tensor_slices((np.zeros((7, 3), np.float32), np.arange(7, dtype=np.int64)))
    for size, drop in budget([(2, False), (2, True), (7, False), (8, True)]):
        ds = base.batch(size, drop_remainder=drop)
        call = f"from_tensor_slices(((7, 3), (7,))).batch({size}, drop_remainder={drop}).element_spec"
        want = size if drop else None
        assert_equal(ds.element_spec[0].shape.as_list(), [want, 3], call=call, what="[0].shape")
        assert_equal(ds.element_spec[1].shape.as_list(), [want], call=call, what="[1].shape")
        mapped = base.map(lambda a, b: (a * 2.0, b)).batch(size, drop_remainder=drop)
        assert_equal(mapped.element_spec[0].shape.as_list(), [want, 3], call=call.replace(".batch", ".map(f).batch"),
                     what="[0].shape")
        padded = tf.data.Dataset.range(5).map(lambda v: tf.fill([v], v)).padded_batch(size, drop_remainder=drop)
        assert_equal(padded.element_spec.shape.as_list(), [want, None],
                     call=f"range(5).map(fill).padded_batch({size}, drop_remainder={drop}).element_spec.shape")


# -- learning-rate schedules with their options ----------------------------------------------------------------
def _polynomial(step, lr0, decay_steps, end, power, cycle):
    """Keras 3.15's PolynomialDecay, transcribed."""
    if cycle:
        mult = 1.0 if step == 0 else math.ceil(step / decay_steps)
        steps = decay_steps * mult
    else:
        step, steps = min(step, decay_steps), decay_steps
    return (lr0 - end) * (1 - step / steps) ** power + end


def _cosine(step, lr0, decay_steps, alpha, warmup_target=None, warmup_steps=0):
    """Keras 3.15's CosineDecay, transcribed (a linear warmup, then the cosine from warmup_target)."""
    def decay(s, frm):
        return frm * ((1 - alpha) * 0.5 * (1 + math.cos(math.pi * s / decay_steps)) + alpha)
    if warmup_target is None:
        return decay(min(step, decay_steps), lr0)
    step = min(step, decay_steps + warmup_steps)
    if step < warmup_steps:
        return (warmup_target - lr0) * step / warmup_steps + lr0
    return decay(step - warmup_steps, warmup_target)


def _restarts(step, lr0, first, t_mul, m_mul, alpha):
    """Keras 3.15's CosineDecayRestarts, transcribed: period i lasts first * t_mul**i steps."""
    frac = step / first
    if t_mul == 1.0:
        i = math.floor(frac)
        frac -= i
    else:
        i = math.floor(math.log(1 - frac * (1 - t_mul)) / math.log(t_mul))
        done = (1 - t_mul ** i) / (1 - t_mul)
        frac = (frac - done) / t_mul ** i
    return lr0 * ((1 - alpha) * 0.5 * m_mul ** i * (1 + math.cos(math.pi * frac)) + alpha)


@clause("optim.schedules", ref="tf221")
def test_blind13_schedules_apply_cycle_warmup_and_restart_options(keras, budget):
    """PolynomialDecay(cycle=True) stretches decay_steps to the next multiple past the step (no cap);
    CosineDecay with warmup_target rises linearly over warmup_steps, then decays from warmup_target
    over the steps after the warmup; CosineDecayRestarts scales each restart by m_mul ** i and
    lengthens it by t_mul ** i. Checked step by step, and through an optimizer's learning_rate."""
    sched = keras.optimizers.schedules
    cases = [("PolynomialDecay(cycle=True, power=2)", lambda: sched.PolynomialDecay(0.5, 4, 0.1, power=2.0, cycle=True),
              lambda s: _polynomial(s, 0.5, 4, 0.1, 2.0, True)),
             ("PolynomialDecay(power=0.5)", lambda: sched.PolynomialDecay(0.5, 4, 0.1, power=0.5),
              lambda s: _polynomial(s, 0.5, 4, 0.1, 0.5, False)),
             ("CosineDecay(warmup_target=1.0, warmup_steps=3, alpha=0.2)",
              lambda: sched.CosineDecay(0.1, 5, alpha=0.2, warmup_target=1.0, warmup_steps=3),
              lambda s: _cosine(s, 0.1, 5, 0.2, 1.0, 3)),
             ("CosineDecay(alpha=0.1)", lambda: sched.CosineDecay(0.4, 6, alpha=0.1),
              lambda s: _cosine(s, 0.4, 6, 0.1)),
             ("CosineDecayRestarts(t_mul=1, m_mul=0.5)",
              lambda: sched.CosineDecayRestarts(0.8, 3, t_mul=1.0, m_mul=0.5, alpha=0.1),
              lambda s: _restarts(s, 0.8, 3, 1.0, 0.5, 0.1)),
             ("CosineDecayRestarts(t_mul=2, m_mul=0.7)",
              lambda: sched.CosineDecayRestarts(0.8, 2, t_mul=2.0, m_mul=0.7),
              lambda s: _restarts(s, 0.8, 2, 2.0, 0.7, 0.0))]
    for name, make, ref in budget(cases):
        s = make()
        opt = keras.optimizers.SGD(learning_rate=s)
        for step in range(16):
            call = f"{name} at step {step}"
            assert_close(float(s(step)), ref(step), call=call, what="schedule(step)", tolerance=TOL32)
        for step in (0, 7, 13):
            opt.iterations.assign(step)
            assert_close(float(opt.learning_rate), ref(step), call=f"SGD({name}) at iterations={step}",
                         what="learning_rate", tolerance=TOL32)


# -- fit: validation options, History, the callbacks' logs ----------------------------------------------------------
class _Recorder:
    """Builds a keras Callback subclass recording which hooks ran (with their epoch and logs keys)."""

    def __new__(cls, keras):
        class Rec(keras.callbacks.Callback):
            def __init__(self):
                super().__init__()
                self.test_batches = 0
                self.epoch_logs = []

            def on_test_batch_end(self, batch, logs=None):
                self.test_batches += 1

            def on_epoch_end(self, epoch, logs=None):
                self.epoch_logs.append((epoch, sorted((logs or {}).keys())))
        return Rec()


@clause("keras.fit.validation", ref="tf221")
def test_blind13_validation_runs_on_its_epochs_in_its_batch_size(keras, budget):
    """fit validates after epoch e (1-based) when validation_freq is an int dividing e or a list
    holding e; each validation pass runs ceil(n_val / validation_batch_size) test batches
    (batch_size when validation_batch_size is None)."""
    x, y = _f32(10, 2, seed=4), _f32(10, 1, seed=5)
    vx, vy = _f32(7, 2, seed=6), _f32(7, 1, seed=7)
    cases = [(2, 3, None), ([1, 3], 4, 2), ([2], 5, 7), (1, 2, 3), (3, 5, None)]
    for freq, batch, vbatch in budget(cases):
        keras.backend.clear_session()
        model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
        model.compile(optimizer="sgd", loss="mse")
        rec = _Recorder(keras)
        hist = model.fit(x, y, batch_size=batch, epochs=4, verbose=0, shuffle=False, validation_data=(vx, vy),
                         validation_freq=freq, validation_batch_size=vbatch, callbacks=[rec])
        validated = [e + 1 for e in range(4) if (e + 1) in freq] if isinstance(freq, list) else \
            [e + 1 for e in range(4) if (e + 1) % freq == 0]
        call = f"fit(epochs=4, batch_size={batch}, validation_freq={freq}, validation_batch_size={vbatch})"
        got = [e + 1 for e, keys in rec.epoch_logs if "val_loss" in keys]
        assert_equal(got, validated, call=call, what="epochs (1-based) whose logs have val_loss")
        assert_equal(len(hist.history.get("val_loss", [])), len(validated), call=call, what="len(history['val_loss'])")
        per_pass = math.ceil(7 / (vbatch or batch))
        assert_equal(rec.test_batches, per_pass * len(validated), call=call,
                     what="on_test_batch_end calls (validation batches)")


@clause("keras.fit.callbacks", ref="tf221")
def test_blind13_a_history_in_callbacks_is_the_one_fit_returns(keras):
    """A History among fit's callbacks is used as the model's History: fit returns it and
    model.history is it (no second History is added); without one fit makes its own."""
    x, y = _f32(6, 2, seed=8), _f32(6, 1, seed=9)
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    mine = keras.callbacks.History()
    got = model.fit(x, y, batch_size=3, epochs=2, verbose=0, callbacks=[mine])
    call = "fit(callbacks=[History()])"
    assert_true(got is mine, f"fit returned another {type(got).__name__} (history keys "
                f"{sorted(getattr(got, 'history', {}))}), but should return the History passed", call=call)
    assert_true(model.history is mine, "model.history is another object, but should be the History passed",
                call=call)
    assert_equal(len(mine.history["loss"]), 2, call=call, what="len(History.history['loss'])")
    other = model.fit(x, y, batch_size=3, epochs=1, verbose=0)
    assert_true(other is not mine and model.history is other, "fit returned the earlier History or did not set "
                "model.history, but should make a new History and set it as model.history",
                call="a second fit without callbacks")


@clause("keras.callback.reduce-lr-on-plateau", ref="tf221")
def test_blind13_learning_rate_callbacks_log_the_epochs_learning_rate(keras, budget):
    """ReduceLROnPlateau and LearningRateScheduler write the optimizer's learning_rate into every
    epoch's logs (so into History): ReduceLROnPlateau the rate the epoch trained with (read before
    a reduction), LearningRateScheduler the scheduled rate."""
    x, y = _f32(8, 2, seed=10), _f32(8, 1, seed=11)
    for kind in budget(["plateau", "scheduler"]):
        keras.backend.clear_session()
        model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
        model.compile(optimizer=keras.optimizers.SGD(0.5), loss="mse")
        if kind == "plateau":
            # min_delta so large that no epoch improves: a reduction after every `patience` epochs
            cb = keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1, min_delta=1e9)
            want = [0.5, 0.5, 0.25, 0.125]
        else:
            cb = keras.callbacks.LearningRateScheduler(lambda epoch, lr: 0.5 / (epoch + 1))
            want = [0.5 / (e + 1) for e in range(4)]
        hist = model.fit(x, y, batch_size=4, epochs=4, verbose=0, shuffle=False, callbacks=[cb])
        call = f"fit(epochs=4) with {type(cb).__name__}"
        assert_true("learning_rate" in hist.history, f"History keys {sorted(hist.history)}, but should include "
                    "'learning_rate'", call=call)
        assert_close(hist.history["learning_rate"], want, call=call, what="History['learning_rate']",
                     tolerance=TOL32)


@clause("keras.fit.logs", ref="tf221")
def test_blind13_evaluate_lists_results_in_the_models_metrics_order(keras, budget):
    """evaluate (and test_on_batch, train_on_batch) without return_dict list the loss, then the
    compiled metrics in compile order (not sorted by name); return_dict=True gives the same values
    by name."""
    x, y = _f32(8, 2, seed=12), _f32(8, 1, seed=13)
    kinds = {"b_mse": "MeanSquaredError", "a_mae": "MeanAbsoluteError", "c_msle": "MeanSquaredLogarithmicError"}
    orders = [["b_mse", "a_mae"], ["a_mae", "b_mse"], ["c_msle", "a_mae", "b_mse"]]
    for names in budget(orders):
        keras.backend.clear_session()
        model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
        model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse",
                      metrics=[getattr(keras.metrics, kinds[n])(name=n) for n in names])
        as_dict = model.evaluate(x, y, batch_size=8, verbose=0, return_dict=True)
        as_list = model.evaluate(x, y, batch_size=8, verbose=0)
        call = f"compile(metrics={names}).evaluate(...)"
        assert_equal(sorted(as_dict), sorted(["loss"] + names), call=call, what="return_dict keys")
        assert_equal(len(as_list), len(names) + 1, call=call, what="len(results)")
        by_order = [as_dict["loss"]] + [as_dict[k] for k in names]
        assert_close(as_list, by_order, call=call, what="results vs [loss] + metrics in compile order",
                     tolerance=TOL32)
        tb = model.test_on_batch(x, y)
        assert_close(tb, by_order, call=call.replace("evaluate", "test_on_batch"), what="results", tolerance=TOL32)


@clause("keras.callback.monitor", ref="tf221")
def test_blind13_auto_mode_minimises_error_metrics_and_maximises_similarity(keras, budget):
    """mode="auto" takes each compiled metric's direction: the error metrics (mse, mae, mape, msle,
    rmse, logcosh) are minimised, cosine similarity maximised; EarlyStopping(patience=0) on a
    monitor that moves the metric's good way does not stop, the bad way stops."""
    x, y = _f32(8, 2, seed=14), _f32(8, 1, seed=15, lo=0.5, hi=1.5)
    metrics = [("mean_absolute_percentage_error", "down"), ("mean_squared_logarithmic_error", "down"),
               ("mean_squared_error", "down"), ("mean_absolute_error", "down"), ("root_mean_squared_error", "down"),
               ("logcosh", "down"), ("cosine_similarity", "up")]
    for name, direction in budget(metrics):
        keras.backend.clear_session()
        model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
        metric = {"root_mean_squared_error": keras.metrics.RootMeanSquaredError,
                  "logcosh": keras.metrics.LogCoshError}.get(name)
        model.compile(optimizer="sgd", loss="mse", metrics=[metric() if metric else name])
        model.fit(x, y, batch_size=8, epochs=1, verbose=0)   # builds the compiled metrics
        monitor = f"val_{model.metrics[-1].metrics[0].name}" if hasattr(model.metrics[-1], "metrics") else None
        monitor = monitor or f"val_{name}"
        for moving in ("down", "up"):
            es = keras.callbacks.EarlyStopping(monitor=monitor, patience=0, mode="auto")
            es.set_model(model)
            model.stop_training = False
            es.on_train_begin()
            values = [1.0, 0.5] if moving == "down" else [0.5, 1.0]
            for epoch, v in enumerate(values):
                es.on_epoch_end(epoch, {monitor: v})
            call = f"EarlyStopping(monitor={monitor!r}, mode='auto', patience=0) fed {values}"
            assert_equal(bool(model.stop_training), moving != direction, call=call, what="model.stop_training")


# -- configs: options survive get_config / from_config ---------------------------------------------------------------
@clause("keras.loss.option-coverage", ref="tf221")
def test_blind13_crossentropy_losses_keep_their_options_through_get_config(keras, budget):
    """A crossentropy loss rebuilt with from_config(get_config()) (and through keras.losses
    serialize/deserialize) computes the same values: from_logits, label_smoothing, axis and
    ignore_class all travel in the config."""
    logits = _f32(4, 3, seed=16, lo=-3.0, hi=3.0)
    onehot = np.eye(3, dtype=np.float32)[[0, 2, 1, 2]]
    binary = (np.arange(12).reshape(4, 3) % 2).astype(np.float32)
    L = keras.losses
    cases = [("BinaryCrossentropy(from_logits=True, label_smoothing=0.2)",
              lambda: L.BinaryCrossentropy(from_logits=True, label_smoothing=0.2), binary),
             ("CategoricalCrossentropy(from_logits=True, label_smoothing=0.1)",
              lambda: L.CategoricalCrossentropy(from_logits=True, label_smoothing=0.1), onehot),
             ("CategoricalCrossentropy(from_logits=True, axis=0)",
              lambda: L.CategoricalCrossentropy(from_logits=True, axis=0), onehot),
             ("SparseCategoricalCrossentropy(from_logits=True, ignore_class=2)",
              lambda: L.SparseCategoricalCrossentropy(from_logits=True, ignore_class=2),
              np.array([0, 2, 1, 2], np.int64)),
             ("BinaryFocalCrossentropy(from_logits=True, gamma=3.0)",
              lambda: L.BinaryFocalCrossentropy(from_logits=True, gamma=3.0), binary)]
    for name, make, y in budget(cases):
        loss = make()
        want = float(loss(y, logits))
        again = type(loss).from_config(loss.get_config())
        assert_close(float(again(y, logits)), want, call=f"{name}: from_config(get_config())(y, logits)",
                     tolerance=TOL32)
        cfg = loss.get_config()
        if "from_logits" in cfg or hasattr(loss, "from_logits"):
            assert_equal(cfg.get("from_logits"), True, call=f"{name}.get_config()", what="['from_logits']")
        back = L.deserialize(L.serialize(loss))
        assert_close(float(back(y, logits)), want, call=f"{name}: deserialize(serialize(loss))(y, logits)",
                     tolerance=TOL32)


@clause("keras.layer.option-coverage", ref="tf221")
def test_blind13_embedding_keeps_mask_zero_through_its_config_and_a_model_clone(keras):
    """Embedding(mask_zero=True).get_config() holds mask_zero: a layer from that config (and a model
    rebuilt from the model's config) still masks index 0 and passes the mask on."""
    ids = np.array([[3, 0, 1, 0], [0, 2, 2, 4]], np.int32)
    layer = keras.layers.Embedding(5, 2, mask_zero=True)
    layer.build((None, 4))
    assert_equal(layer.get_config().get("mask_zero"), True, call="Embedding(5, 2, mask_zero=True).get_config()",
                 what="['mask_zero']")
    again = keras.layers.Embedding.from_config(layer.get_config())
    assert_equal(np.asarray(again.compute_mask(ids)).tolist(), (ids != 0).tolist(),
                 call="Embedding.from_config(cfg).compute_mask(ids)")
    inp = keras.Input((None,), dtype="int32")
    model = keras.Model(inp, keras.layers.LSTM(3)(keras.layers.Embedding(5, 2, mask_zero=True)(inp)))
    clone = keras.Model.from_config(model.get_config())
    clone.set_weights(model.get_weights())
    ids2 = np.array([[3, 1, 0, 0], [3, 1, 2, 4]], np.int32)
    out = np.asarray(clone(ids2))
    ref = np.asarray(model(ids2))
    assert_close(out, ref, call="Model.from_config(model.get_config()) with Embedding(mask_zero=True) -> LSTM",
                 tolerance=TOL32)
    # the masked row equals the same row cut before its padding (the LSTM skips masked steps)
    short = np.asarray(clone(ids2[:1, :2]))
    assert_close(out[0], short[0], call="masked LSTM output of [3, 1, 0, 0] vs of [3, 1]", tolerance=TOL32)


# -- regression losses and metrics with their options, shapes and weights ----------------------------------------------
@clause("keras.loss.functions", ref="tf221")
def test_blind13_regression_losses_and_metrics_follow_their_formulas(keras, budget):
    """Huber with delta: 0.5 e^2 inside |e| <= delta, delta |e| - 0.5 delta^2 outside; mape divides
    by |y_true| (floored at epsilon); RootMeanSquaredError matches (n,) targets to (n, 1)
    predictions before squaring (with sample weights too)."""
    yt = np.array([[0.5, -2.0, 3.0], [1.0, 0.2, -4.0]], np.float32)
    yp = np.array([[2.0, -1.5, -1.0], [1.3, 4.0, -0.5]], np.float32)
    e = (yp - yt).astype(np.float64)
    for delta in budget([2.5, 1.0, 0.7]):
        a = np.abs(e)
        want = np.where(a <= delta, 0.5 * e ** 2, delta * a - 0.5 * delta ** 2).mean(axis=-1)
        assert_close(np.asarray(keras.losses.huber(yt, yp, delta=delta)), want, call=f"keras.losses.huber(delta={delta})",
                     tolerance=TOL32)
        assert_close(float(keras.losses.Huber(delta=delta)(yt, yp)), want.mean(),
                     call=f"keras.losses.Huber(delta={delta})", tolerance=TOL32)
    mape = 100.0 * (np.abs(e) / np.maximum(np.abs(yt), 1e-7)).mean(axis=-1)
    assert_close(np.asarray(keras.losses.mape(yt, yp)), mape, call="tf.keras.losses.mape", tolerance=TOL32)
    m = keras.metrics.MeanAbsolutePercentageError()
    m.update_state(yt, yp)
    assert_close(float(m.result()), mape.mean(), call="MeanAbsolutePercentageError", tolerance=TOL32)
    t = np.array([1.0, -2.0, 0.5, 3.0], np.float32)
    p = np.array([[1.5], [0.0], [0.5], [2.0]], np.float32)
    w = np.array([1.0, 0.5, 2.0, 0.0], np.float32)
    sq = (p[:, 0].astype(np.float64) - t) ** 2
    for sw in budget([None, w]):
        m = keras.metrics.RootMeanSquaredError()
        m.update_state(t, p, sample_weight=sw)
        want = np.sqrt(sq.mean()) if sw is None else np.sqrt((sq * w).sum() / w.sum())
        assert_close(float(m.result()), want, call=f"RootMeanSquaredError((4,) targets, (4, 1) predictions, "
                     f"sample_weight={'None' if sw is None else 'w'})", tolerance=TOL32)


@clause("keras.metric.sample-weight", ref="tf221")
def test_blind13_mean_metrics_weigh_per_step_values_by_per_step_weights(keras, budget):
    """Mean-style metrics given per-step values and (n, steps) sample weights: each sample's
    weighted values and its weights are averaged over the steps, so the result is
    sum_n mean_t(v w) / sum_n mean_t(w) (Keras 3.15's reduce_to_samplewise_values)."""
    v = _f32(3, 4, seed=17, lo=0.0, hi=2.0).astype(np.float64)
    w = np.array([[1, 1, 0, 0], [1, 0, 0, 0], [0.5, 0.5, 0.5, 2.0]], np.float64)
    want = (v * w).mean(axis=1).sum() / w.mean(axis=1).sum()
    m = keras.metrics.Mean()
    m.update_state(v.astype(np.float32), sample_weight=w.astype(np.float32))
    assert_close(float(m.result()), want, call="Mean().update_state(values (3, 4), sample_weight (3, 4))",
                 tolerance=TOL32)
    yt = _f32(3, 4, 1, seed=18)
    yp = _f32(3, 4, 1, seed=19)
    per_step = np.abs(yt - yp)[..., 0].astype(np.float64)
    for cls, vals in budget([("MeanAbsoluteError", per_step), ("MeanSquaredError", per_step ** 2)]):
        m = getattr(keras.metrics, cls)()
        m.update_state(yt, yp, sample_weight=w.astype(np.float32))
        want = (vals * w).mean(axis=1).sum() / w.mean(axis=1).sum()
        assert_close(float(m.result()), want, call=f"{cls}() on (3, 4, 1) values with (3, 4) sample weights",
                     tolerance=TOL32)


# -- gradients: pow of a non-positive base, ties of minimum and maximum -------------------------------------------
@clause("autodiff.op-gradients", ref="tf221")
def test_blind13_pow_and_minimum_maximum_gradients_at_their_edges(tf, budget):
    """d(x**y)/dy = x**y log x where x > 0 and 0 elsewhere (TF masks the log: no NaN at x <= 0);
    d/dx = y x**(y-1). tf.minimum and tf.maximum give a tie's gradient to x (the first operand),
    broadcast operands summing theirs."""
    x = np.array([-2.0, -0.5, 0.0, 1.5, 2.0], np.float32)
    y = np.array([2.0, 3.0, 2.0, 0.5, -1.0], np.float32)
    xt, yt = tf.constant(x), tf.constant(y)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([xt, yt])
        z = tf.pow(xt, yt)
    gx, gy = tape.gradient(z, [xt, yt])
    x64, y64 = x.astype(np.float64), y.astype(np.float64)
    zz = x64 ** y64
    want_gy = np.where(x64 > 0, zz * np.log(np.where(x64 > 0, x64, 1.0)), 0.0)
    assert_close(np.asarray(gy), want_gy, call="d tf.pow(x, y) / dy, x = [-2, -0.5, 0, 1.5, 2]", tolerance=TOL32)
    assert_close(np.asarray(gx), y64 * x64 ** (y64 - 1), call="d tf.pow(x, y) / dx", tolerance=TOL32)
    a = np.array([[1.0, 2.0, 3.0], [0.0, 5.0, -1.0]], np.float32)
    cases = [("minimum", np.array([1.0, 5.0, 0.0], np.float32), lambda p, q: p <= q),
             ("maximum", np.array([1.0, 5.0, 0.0], np.float32), lambda p, q: p >= q),
             ("minimum", np.array([[2.0]], np.float32), lambda p, q: p <= q),
             ("maximum", np.array([[3.0]], np.float32), lambda p, q: p >= q)]
    for op, b, to_x in budget(cases):
        at, bt = tf.constant(a), tf.constant(b)
        with tf.GradientTape() as tape:
            tape.watch([at, bt])
            out = getattr(tf, op)(at, bt) * tf.constant([[1.0, 2.0, 3.0]])
        ga, gb = tape.gradient(out, [at, bt])
        up = np.broadcast_to(np.array([[1.0, 2.0, 3.0]]), (2, 3))
        sel = to_x(a, np.broadcast_to(b, a.shape))
        want_a = np.where(sel, up, 0.0)
        want_b = np.where(sel, 0.0, up)
        want_b = want_b.sum(axis=tuple(range(want_b.ndim - b.ndim))).reshape(b.shape) if b.ndim < 2 else \
            want_b.sum(axis=tuple(i for i, d in enumerate(b.shape) if d == 1), keepdims=True)
        call = f"tf.{op}(a (2, 3), b {b.shape}) with ties"
        assert_close(np.asarray(ga), want_a, call=call, what="grad a")
        assert_close(np.asarray(gb), want_b, call=call, what="grad b")


# -- layers: spatial dropout per channel, transposed convolutions' default output padding, renorm's moving stats ----
@clause("keras.layer.dropout", ref="tf221")
def test_blind13_spatial_dropout_drops_whole_channels_in_either_format(keras, budget):
    """SpatialDropout1D/2D/3D in training keep or drop each (example, channel) map whole, along the
    channel axis of their data_format, and scale what they keep by 1 / (1 - rate)."""
    rate = 0.5
    cases = [("SpatialDropout2D", "channels_first", (4, 6, 5, 3)), ("SpatialDropout2D", "channels_last", (4, 5, 3, 6)),
             ("SpatialDropout3D", "channels_first", (3, 6, 2, 3, 4)),
             ("SpatialDropout3D", "channels_last", (3, 2, 3, 4, 6)), ("SpatialDropout1D", None, (4, 7, 6))]
    for name, fmt, shape in budget(cases):
        kwargs = {} if fmt is None else {"data_format": fmt}
        layer = getattr(keras.layers, name)(rate, seed=3, **kwargs)
        x = np.ones(shape, np.float32)
        out = np.asarray(layer(x, training=True))
        call = f"{name}({rate}, data_format={fmt!r})(ones{shape}, training=True)"
        assert_true(set(np.unique(out).tolist()) <= {0.0, 1.0 / (1 - rate)},
                    f"values {sorted(set(np.unique(out).tolist()))}, but should be 0 or {1.0 / (1 - rate)}", call=call)
        ch = 1 if fmt == "channels_first" else out.ndim - 1
        kept = np.moveaxis(out != 0, ch, 1).reshape(shape[0], shape[ch], -1)
        same = np.all(kept == kept[:, :, :1], axis=2)
        assert_true(bool(same.all()), f"{int((~same).sum())} (example, channel) maps partly dropped, but each "
                    "should be kept or dropped whole", call=call)
        assert_close(np.asarray(layer(x, training=False)), x, call=call.replace("True", "False"))


def _conv_transpose_ref(x, k, strides, out_size):
    """NumPy transposed convolution (channels_last, 'valid'): each input pixel adds x * kernel at
    its strided position; kernel (kh, kw, filters, in)."""
    n, h, w, _ = x.shape
    kh, kw, f, _ = k.shape
    out = np.zeros((n, out_size[0], out_size[1], f))
    for i in range(h):
        for j in range(w):
            out[:, i * strides[0]:i * strides[0] + kh, j * strides[1]:j * strides[1] + kw, :] += np.einsum(
                "nc,abfc->nabf", x[:, i, j, :].astype(np.float64), k.astype(np.float64))
    return out


@clause("keras.layer.option-coverage", ref="tf221")
def test_blind13_valid_transposed_convolution_pads_to_the_stride(keras, budget):
    """Conv2DTranspose(padding='valid') without output_padding: each axis's output is
    (n - 1) * stride + kernel + max(kernel, stride) - kernel, so a stride larger than the kernel
    ends in zero rows; with output_padding p it is (n - 1) * stride + kernel + p."""
    x = _f32(2, 3, 2, 2, seed=20)
    for kernel, strides, opad in budget([((2, 3), (3, 2), None), ((1, 2), (2, 3), None), ((2, 2), (3, 3), (1, 2)),
                                         ((3, 3), (1, 1), None)]):
        keras.backend.clear_session()
        layer = keras.layers.Conv2DTranspose(2, kernel, strides=strides, padding="valid", output_padding=opad,
                                             use_bias=False)
        layer.build(x.shape)
        k = _f32(kernel[0], kernel[1], 2, 2, seed=21)
        layer.set_weights([k])
        pads = [max(kk, s) - kk for kk, s in zip(kernel, strides)] if opad is None else list(opad)
        size = [(n - 1) * s + kk + p for n, s, kk, p in zip(x.shape[1:3], strides, kernel, pads)]
        out = np.asarray(layer(x))
        call = f"Conv2DTranspose(2, {kernel}, strides={strides}, padding='valid', output_padding={opad})(x {x.shape})"
        assert_equal(list(out.shape), [2, size[0], size[1], 2], call=call, what="out.shape")
        assert_close(out, _conv_transpose_ref(x, k, strides, size), call=call, tolerance=TOL32)
        assert_equal(list(layer.compute_output_shape(x.shape)), [2, size[0], size[1], 2], call=call,
                     what="compute_output_shape")


@clause("keras.layer.batchnorm", ref="tf221")
def test_blind13_batch_renormalization_moves_its_statistics(keras, budget):
    """BatchNormalization(renorm=True) in training moves moving_mean like plain batch norm, keeps a
    moving stddev (moving = m * moving + (1 - m) * sqrt(var + eps)) and sets moving_variance to
    max(moving_stddev^2 - eps, 0); inference then normalises by the moving statistics."""
    x = _f32(8, 3, seed=22, lo=-2.0, hi=3.0)
    for momentum, eps in budget([(0.5, 1e-3), (0.9, 0.5)]):
        keras.backend.clear_session()
        bn = keras.layers.BatchNormalization(renorm=True, momentum=momentum, epsilon=eps, renorm_momentum=0.7)
        bn(x, training=True)
        x64 = x.astype(np.float64)
        mean, var = x64.mean(axis=0), x64.var(axis=0)
        mm = (1 - momentum) * mean
        sd = momentum * 1.0 + (1 - momentum) * np.sqrt(var + eps)
        mv = np.maximum(sd ** 2 - eps, 0.0)
        call = f"BatchNormalization(renorm=True, momentum={momentum}, epsilon={eps})(x, training=True)"
        assert_close(np.asarray(bn.moving_mean), mm, call=call, what="moving_mean", tolerance=TOL32)
        assert_close(np.asarray(bn.moving_variance), mv, call=call, what="moving_variance", tolerance=TOL32)
        y = _f32(4, 3, seed=23)
        assert_close(np.asarray(bn(y, training=False)), (y - mm) / np.sqrt(mv + eps),
                     call=call + " then bn(y, training=False)", tolerance=TOL32)


# -- optimizers: where epsilon goes, seen with small gradients ----------------------------------------------------------
def _rmsprop(g_steps, w0, lr, rho, eps, momentum, centered):
    """Keras 3.15's RMSprop, transcribed (float64)."""
    w, v, mom, avg = w0.astype(np.float64), 0.0, 0.0, 0.0
    for g in g_steps:
        v = rho * v + (1 - rho) * g ** 2
        if centered:
            avg = rho * avg + (1 - rho) * g
            denom = v - avg ** 2 + eps
        else:
            denom = v + eps
        inc = lr * g / np.sqrt(denom)
        if momentum > 0:
            mom = momentum * mom + inc
            w = w - mom
        else:
            w = w - inc
    return w


@clause("optim.update-rules", ref="tf221")
def test_blind13_epsilon_sits_inside_the_square_root_for_rmsprop_and_adagrad(keras, tf, budget):
    """RMSprop divides by sqrt(v + epsilon) (centered: sqrt(v - mean^2 + epsilon)) and Adagrad by
    sqrt(accumulator + epsilon): with gradients of 1e-4 the placement of epsilon dominates."""
    w0 = np.array([0.5, -0.25, 1.0], np.float32)
    grads = [np.array([1e-4, -3e-4, 2e-5], np.float32), np.array([-2e-4, 1e-4, 5e-5], np.float32),
             np.array([3e-4, 2e-4, -1e-5], np.float32)]
    g64 = [g.astype(np.float64) for g in grads]
    cases = [("RMSprop(epsilon=1e-7)", lambda: keras.optimizers.RMSprop(0.01),
              lambda: _rmsprop(g64, w0, 0.01, 0.9, 1e-7, 0.0, False)),
             ("RMSprop(epsilon=1e-4, rho=0.8)", lambda: keras.optimizers.RMSprop(0.01, rho=0.8, epsilon=1e-4),
              lambda: _rmsprop(g64, w0, 0.01, 0.8, 1e-4, 0.0, False)),
             ("RMSprop(momentum=0.5)", lambda: keras.optimizers.RMSprop(0.01, momentum=0.5),
              lambda: _rmsprop(g64, w0, 0.01, 0.9, 1e-7, 0.5, False)),
             ("RMSprop(centered=True)", lambda: keras.optimizers.RMSprop(0.01, centered=True),
              lambda: _rmsprop(g64, w0, 0.01, 0.9, 1e-7, 0.0, True))]
    acc, w_ada = np.full(3, 0.1), w0.astype(np.float64)
    for g in g64:
        acc = acc + g ** 2
        w_ada = w_ada - 0.5 * g / np.sqrt(acc + 1e-3)
    cases.append(("Adagrad(0.5, initial_accumulator_value=0.1, epsilon=1e-3)",
                  lambda: keras.optimizers.Adagrad(0.5, initial_accumulator_value=0.1, epsilon=1e-3), lambda: w_ada))
    for name, make, ref in budget(cases):
        v = keras.Variable(w0)
        opt = make()
        for g in grads:
            opt.apply_gradients([(tf.constant(g), v)])
        assert_close(np.asarray(v), ref(), call=f"{name}: 3 steps with gradients ~1e-4", tolerance=TOL32)


# -- MultiWorkerMirrored predict with several replicas per worker ---------------------------------------------------
_MWMS_PREDICT = """
keras = tf.keras
X = np.arange(2 * ROWS, dtype="float32").reshape(ROWS, 2)
with strategy.scope():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(
        1, kernel_initializer=keras.initializers.Constant([[1.0], [0.0]]), bias_initializer="zeros")])
    model.compile(optimizer="sgd", loss="mse")
result = [strategy.num_replicas_in_sync,
          [float(v) for v in np.ravel(model.predict(X, batch_size=BATCH, verbose=0))]]
"""


@pytest.mark.requires("multi_client", "gpus")
@clause("mwms.keras")
def test_blind13_mwms_predict_keeps_the_row_order_with_several_replicas_per_worker(backend, budget):
    """predict under MultiWorkerMirroredStrategy with 2 GPUs per worker (4 replicas) gives every
    worker the predictions of all rows in input order: Keras's _multi_worker_concat puts the
    gathered replicas in (local replica, worker) order. The model reads each row's first feature
    (2 · row), so the order is visible. (No TF reference here: TF's clients are CPU-only, one
    replica per worker, where the reordering is the identity.)"""
    for rows, batch in budget([(8, 8), (16, 8), (12, 4)]):
        program = _MWMS_PREDICT.replace("ROWS", str(rows)).replace("BATCH", str(batch))
        outs = backend.run_multi_worker(program, 2, gpus_per_worker=2)
        for i, (replicas, got) in enumerate(outs):
            call = f"MWMS(2 workers x 2 GPUs): predict({rows} rows, batch_size={batch}), worker {i}"
            assert_equal(replicas, 4, call=call, what="num_replicas_in_sync")
            assert_close(got, [2.0 * r for r in range(rows)], call=call, what="predictions (2 * row)")
