"""Gaps the fourteenth blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): behaviours and options no earlier suite test set or looked at closely
enough for a wrong implementation to fail (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here
with NumPy (or a Python transcription of TF's or Keras 3.15's rule), never with the backend's own
implementation of the same rule.
"""

from __future__ import annotations

import os
import tempfile

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)


def _f32(*shape, seed=0, lo=-1.0, hi=1.0):
    return np.random.default_rng(seed).uniform(lo, hi, shape).astype(np.float32)


def _dense_model(keras, w, b):
    """Sequential([Input((k,)), Dense(1)]) with kernel w (k, 1) and bias b (1,), compiled with SGD/mse."""
    model = keras.Sequential([keras.Input((w.shape[0],)), keras.layers.Dense(1)])
    model.layers[-1].set_weights([w, b])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    return model


# -- fit / evaluate / predict: a callback's stop flag ends the loop after the batch that set it ----------------
@clause("keras.fit.callback-hooks", ref="tf221")
def test_blind14_a_callbacks_stop_flag_ends_fit_evaluate_and_predict_after_its_batch(keras, budget):
    """A callback setting model.stop_training (fit), model.stop_evaluating (evaluate) or
    model.stop_predicting (predict) in a batch-end hook ends the loop after that batch: evaluate's
    results are the metrics over the batches run, predict returns the rows of the batches run, fit
    trains no further batch. The flags are reset when each loop starts."""
    x, y = _f32(10, 3, seed=1), _f32(10, 1, seed=2)
    w, b = _f32(3, 1, seed=3), np.array([0.25], np.float32)
    pred = x.astype(np.float64) @ w.astype(np.float64) + 0.25

    class Stop(keras.callbacks.Callback):
        def __init__(self, after, flag):
            super().__init__()
            self.after, self.flag, self.seen = after, flag, []

        def _end(self, batch):
            self.seen.append(batch)
            if batch == self.after:
                setattr(self.model, self.flag, True)

        def on_test_batch_end(self, batch, logs=None):
            if self.flag == "stop_evaluating":
                self._end(batch)

        def on_predict_batch_end(self, batch, logs=None):
            if self.flag == "stop_predicting":
                self._end(batch)

        def on_train_batch_end(self, batch, logs=None):
            if self.flag == "stop_training":
                self._end(batch)

    for after in budget([1, 0, 3]):
        model = _dense_model(keras, w, b)
        stop = Stop(after, "stop_evaluating")
        got = model.evaluate(x, y, batch_size=2, verbose=0, callbacks=[stop])
        n = 2 * (after + 1)
        want = float(np.mean((pred[:n] - y[:n]) ** 2))
        call = f"evaluate(10 rows, batch_size=2) with a callback setting stop_evaluating after batch {after}"
        assert_equal(stop.seen, list(range(after + 1)), call=call, what="test batches run")
        assert_close(got, want, call=call, what="loss (mean over the batches run)", tolerance=TOL32)
        again = model.evaluate(x, y, batch_size=2, verbose=0)
        assert_close(again, float(np.mean((pred - y) ** 2)), call="a second evaluate without the callback",
                     what="loss over all 10 rows (the flag reset)", tolerance=TOL32)

        stop = Stop(after, "stop_predicting")
        out = model.predict(x, batch_size=2, verbose=0, callbacks=[stop])
        call = f"predict(10 rows, batch_size=2) with a callback setting stop_predicting after batch {after}"
        assert_equal(stop.seen, list(range(after + 1)), call=call, what="predict batches run")
        assert_close(out, pred[:n], call=call, what="the rows predicted", tolerance=TOL32)

        stop = Stop(after, "stop_training")
        model.fit(x, y, batch_size=2, epochs=2, shuffle=False, verbose=0, callbacks=[stop])
        call = f"fit(10 rows, batch_size=2, epochs=2) with a callback setting stop_training after batch {after}"
        assert_equal(stop.seen, list(range(after + 1)), call=call, what="train batches run")
        assert_equal(int(model.optimizer.iterations.numpy()), after + 1, call=call, what="optimizer.iterations")


# -- count_params: every weight, trainable or not ----------------------------------------------------------------
@clause("keras.model.weights-order", ref="tf221")
def test_blind14_count_params_counts_trainable_and_non_trainable_weights(keras, budget):
    """Layer.count_params() and Model.count_params() count the scalars of every weight: the
    non-trainable ones (BatchNormalization's moving statistics) and those of frozen layers too."""
    cases = [("dense", 4, 3, False, False), ("batchnorm", 5, 2, True, False), ("frozen", 3, 6, True, True)]
    for name, k, units, bn, freeze in budget(cases):
        keras.backend.clear_session()
        layers = [keras.layers.Dense(units)]
        if bn:
            layers.append(keras.layers.BatchNormalization())
        model = keras.Sequential([keras.Input((k,))] + layers)
        if freeze:
            model.layers[0].trainable = False
        dense, bn_params = k * units + units, 4 * units if bn else 0
        call = f"Sequential([Input(({k},)), Dense({units})" + (", BatchNormalization()" if bn else "") + "])" + \
            (" with the Dense frozen" if freeze else "")
        assert_equal(model.layers[0].count_params(), dense, call=call, what="Dense.count_params()")
        if bn:
            assert_equal(model.layers[1].count_params(), bn_params, call=call,
                         what="BatchNormalization.count_params() (gamma, beta, moving mean and variance)")
        assert_equal(model.count_params(), dense + bn_params, call=call, what="model.count_params()")
        trainable = (0 if freeze else dense) + (2 * units if bn else 0)
        assert_equal(sum(int(np.prod(v.shape)) for v in model.trainable_weights), trainable, call=call,
                     what="scalars in model.trainable_weights")


# -- tf.data: cardinalities of shard, take, filter, concatenate and zip; options through several inputs -------
INFINITE, UNKNOWN = -1, -2


def _combined_card(cards, how):
    """TF 2.21's rule for concatenate (sum) and zip (min): INFINITE wins for concatenate, UNKNOWN
    wins for zip; otherwise an UNKNOWN input makes concatenate UNKNOWN and zip takes the known minimum."""
    if how == "concatenate":
        if INFINITE in cards:
            return INFINITE
        return UNKNOWN if UNKNOWN in cards else sum(cards)
    if UNKNOWN in cards:
        return UNKNOWN
    finite = [c for c in cards if c != INFINITE]
    return min(finite) if finite else INFINITE


@clause("dataset.batching", ref="tf221")
def test_blind14_combinators_report_the_cardinality_they_yield(tf, budget):
    """shard(k, i) has len(range(i, n, k)) elements; take(m) min(n, m) (m of an infinite input); a
    filter is UNKNOWN (-2) whatever its input; concatenate is INFINITE (-1) if an input is, else
    UNKNOWN if one is, else the sum; zip is UNKNOWN if an input is, else the known minimum. Where
    the count is finite, iterating yields that many elements."""
    r = tf.data.Dataset.range

    def evens(n):
        return r(n).filter(lambda v: v % 2 == 0)

    for n, k in budget([(10, 3), (9, 4), (2, 3), (8, 4)]):
        for i in range(k):
            ds = r(n).shard(k, i)
            want = list(range(i, n, k))
            assert_equal(int(ds.cardinality()), len(want), call=f"range({n}).shard({k}, {i}).cardinality()")
            assert_equal([int(v) for v in ds], want, call=f"range({n}).shard({k}, {i})", what="elements")
    takes = [("range(3).take(5)", lambda: r(3).take(5), 3), ("range(3).take(2)", lambda: r(3).take(2), 2),
             ("range(4).take(-1)", lambda: r(4).take(-1), 4), ("range(3).repeat().take(4)", lambda: r(3).repeat().take(4), 4),
             ("evens(6).take(3)", lambda: evens(6).take(3), UNKNOWN)]
    for name, make, want in budget(takes):
        ds = make()
        assert_equal(int(ds.cardinality()), want, call=f"{name}.cardinality()")
        if want >= 0:
            assert_equal(len(list(ds)), want, call=name, what="elements yielded")
    filters = [("range(6).filter(even)", lambda: evens(6)), ("range(3).repeat().filter(v > 0)",
                                                             lambda: r(3).repeat().filter(lambda v: v > 0)),
               ("range(0).filter(v > 0)", lambda: r(0).filter(lambda v: v > 0))]
    for name, make in budget(filters):
        assert_equal(int(make().cardinality()), UNKNOWN, call=f"{name}.cardinality()")
    parts = {"range(3)": (lambda: r(3), 3), "range(4)": (lambda: r(4), 4), "evens(4)": (lambda: evens(4), UNKNOWN),
             "range(2).repeat()": (lambda: r(2).repeat(), INFINITE)}
    combos = [("evens(4)", "range(2).repeat()"), ("range(2).repeat()", "evens(4)"), ("range(3)", "evens(4)"),
              ("range(3)", "range(4)"), ("range(4)", "range(2).repeat()")]
    for a, b in budget(combos):
        cards = [parts[a][1], parts[b][1]]
        cat = parts[a][0]().concatenate(parts[b][0]())
        assert_equal(int(cat.cardinality()), _combined_card(cards, "concatenate"),
                     call=f"{a}.concatenate({b}).cardinality()")
        zipped = tf.data.Dataset.zip((parts[a][0](), parts[b][0]()))
        want = _combined_card(cards, "zip")
        assert_equal(int(zipped.cardinality()), want, call=f"zip(({a}, {b})).cardinality()")
        if want >= 0:
            assert_equal(len(list(zipped)), want, call=f"zip(({a}, {b}))", what="elements yielded")


@clause("dataset.api-surface", ref="tf221")
def test_blind14_options_of_every_input_reach_a_zip_or_concatenate(tf, budget):
    """ds.options() of a zip or concatenate merges the options set on each input, in input order
    (a later input's setting of the same option wins), then the dataset's own with_options."""
    r = tf.data.Dataset.range

    def opts(**kw):
        o = tf.data.Options()
        for k, v in kw.items():
            setattr(o, k, v)
        return o

    plain, slack = r(3), r(3).with_options(opts(deterministic=False, experimental_slack=True))
    det = r(3).with_options(opts(deterministic=True))
    cases = [("zip((plain, slack))", lambda: tf.data.Dataset.zip((plain, slack)), False, True),
             ("zip((slack, plain))", lambda: tf.data.Dataset.zip((slack, plain)), False, True),
             ("plain.concatenate(slack)", lambda: plain.concatenate(slack), False, True),
             ("zip((det, slack))", lambda: tf.data.Dataset.zip((det, slack)), False, True),
             ("zip((slack, det))", lambda: tf.data.Dataset.zip((slack, det)), True, True),
             ("zip((plain, slack)).with_options(deterministic=True)",
              lambda: tf.data.Dataset.zip((plain, slack)).with_options(opts(deterministic=True)), True, True)]
    for name, make, want_det, want_slack in budget(cases):
        o = make().options()
        assert_equal(o.deterministic, want_det, call=f"{name}.options()", what="deterministic")
        assert_equal(o.experimental_slack, want_slack, call=f"{name}.options()", what="experimental_slack")


# -- callbacks' params: verbose, epochs and the number of batches per epoch ------------------------------------
@clause("keras.fit.callbacks", ref="tf221")
def test_blind14_callback_params_give_the_batches_per_epoch(keras, tf, budget):
    """Callbacks see params = {'verbose', 'epochs', 'steps'}: steps is the number of batches an
    epoch runs, ceil(n / batch_size) for arrays, steps_per_epoch when given, the cardinality of a
    batched dataset; evaluate and predict have epochs=1 and their own batch count (steps= when
    given); fit's validation pass reuses fit's CallbackList, so its params are fit's."""
    x, y = _f32(10, 3, seed=4), _f32(10, 1, seed=5)

    class Params(keras.callbacks.Callback):
        def __init__(self):
            super().__init__()
            self.got = []

        def on_train_begin(self, logs=None):
            self.got.append(("train", dict(self.params)))

        def on_test_begin(self, logs=None):
            self.got.append(("test", dict(self.params)))

        def on_predict_begin(self, logs=None):
            self.got.append(("predict", dict(self.params)))

    def want(kind, epochs, steps):
        return (kind, {"verbose": 0, "epochs": epochs, "steps": steps})

    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(3)
    cases = [("fit(batch_size=4, epochs=2)", lambda cb: model.fit(x, y, batch_size=4, epochs=2, verbose=0, callbacks=[cb]),
              [want("train", 2, 3)]),
             ("fit(batch_size=3, steps_per_epoch=2, epochs=2)",
              lambda cb: model.fit(x, y, batch_size=3, steps_per_epoch=2, epochs=2, verbose=0, callbacks=[cb]),
              [want("train", 2, 2)]),
             ("fit(dataset.batch(3), epochs=3)", lambda cb: model.fit(ds, epochs=3, verbose=0, shuffle=False, callbacks=[cb]),
              [want("train", 3, 4)]),
             ("fit(batch_size=4, epochs=1, validation_data)",
              lambda cb: model.fit(x, y, batch_size=4, epochs=1, verbose=0, validation_data=(x[:5], y[:5]),
                                   callbacks=[cb]), [want("train", 1, 3), want("test", 1, 3)]),
             ("evaluate(batch_size=4)", lambda cb: model.evaluate(x, y, batch_size=4, verbose=0, callbacks=[cb]),
              [want("test", 1, 3)]),
             ("evaluate(batch_size=4, steps=2)",
              lambda cb: model.evaluate(x, y, batch_size=4, steps=2, verbose=0, callbacks=[cb]), [want("test", 1, 2)]),
             ("predict(batch_size=3)", lambda cb: model.predict(x, batch_size=3, verbose=0, callbacks=[cb]),
              [want("predict", 1, 4)])]
    for name, run, expected in budget(cases):
        cb = Params()
        run(cb)
        assert_equal(cb.got, expected, call=name, what="(hook, callback.params) at each *_begin")


def _base(path):
    """The file name of a checkpoint path, None for None."""
    return None if path is None else os.path.basename(path)


# -- CheckpointManager: a checkpoint number saved again moves to the end of the kept list ----------------------
@clause("checkpoint.manager", ref="tf221")
def test_blind14_manager_resaving_a_number_moves_it_to_the_newest(tf, budget):
    """CheckpointManager.save(checkpoint_number=n) for an n it already keeps overwrites that
    checkpoint and moves it to the end of `checkpoints` (listed once, the latest); rotation by
    max_to_keep then deletes the oldest other one, and a new manager on the directory and a
    restore see the same list and values."""
    for max_to_keep in budget([2, 3]):
        d = tempfile.mkdtemp()
        ck = tf.train.Checkpoint(v=tf.Variable(1.0))
        m = tf.train.CheckpointManager(ck, d, max_to_keep=max_to_keep)

        def names(manager):
            return [os.path.basename(c) for c in manager.checkpoints]

        m.save(checkpoint_number=1)
        ck.v.assign(2.0)
        m.save(checkpoint_number=2)
        ck.v.assign(5.0)
        m.save(checkpoint_number=1)
        call = f"CheckpointManager(max_to_keep={max_to_keep}): save(1), save(2), save(1) again"
        assert_equal(names(m), ["ckpt-2", "ckpt-1"], call=call, what="checkpoints")
        assert_equal(_base(m.latest_checkpoint), "ckpt-1", call=call, what="latest_checkpoint")
        assert_equal(_base(tf.train.latest_checkpoint(d)), "ckpt-1", call=call,
                     what="tf.train.latest_checkpoint(directory)")
        assert_equal(int(ck.save_counter), 3, call=call, what="save_counter")
        ck.v.assign(3.0)
        m.save(checkpoint_number=3)
        want = ["ckpt-1", "ckpt-3"] if max_to_keep == 2 else ["ckpt-2", "ckpt-1", "ckpt-3"]
        call += ", then save(3)"
        assert_equal(names(m), want, call=call, what="checkpoints")
        assert_equal(names(tf.train.CheckpointManager(ck, d, max_to_keep=max_to_keep)), want, call=call,
                     what="checkpoints of a new manager on the directory")
        ck.restore(m.checkpoints[want.index("ckpt-1")])
        assert_close(float(ck.v.numpy()), 5.0, call=call, what="v restored from ckpt-1 (the second save of 1)")


# -- CSVLogger's columns --------------------------------------------------------------------------------------
@clause("keras.callback.csv-logger", ref="tf221")
def test_blind14_csv_logger_columns_are_the_sorted_log_names(keras, budget):
    """CSVLogger's header is 'epoch' then the first epoch's log names sorted (not in the logs'
    order: loss, then the compiled metrics, then learning_rate), with a val_ copy of each added
    when that epoch has no validation logs."""
    x = np.linspace(-1, 1, 8, dtype=np.float32).reshape(8, 1)
    cases = [(["mse", "mae"], False, False), (["mse", "mae"], True, False), (["mse"], False, True)]
    for metrics, validate, plateau in budget(cases):
        keras.backend.clear_session()
        model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
        model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse", metrics=metrics)
        names = ["loss"] + metrics + (["learning_rate"] if plateau else [])
        want = ["epoch"] + sorted(names) + sorted(f"val_{n}" for n in names)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "log.csv")
            cbs = [keras.callbacks.CSVLogger(path)]
            if plateau:
                cbs.insert(0, keras.callbacks.ReduceLROnPlateau(monitor="loss"))
            model.fit(x, 2 * x, batch_size=4, epochs=2, verbose=0, callbacks=cbs,
                      validation_data=(x, 2 * x) if validate else None)
            with open(path) as f:
                lines = f.read().splitlines()
        call = f"fit(compile(metrics={metrics}), validation={validate}, callbacks=[" + \
            ("ReduceLROnPlateau, " if plateau else "") + "CSVLogger(path)])"
        assert_equal(lines[0].split(","), want, call=call, what="the header's fields")
        assert_equal(len(lines), 3, call=call, what="lines (header and two epochs)")


# -- KLDivergence clips both distributions -----------------------------------------------------------------------
@clause("keras.loss.epsilon-clipping", ref="tf221")
def test_blind14_kl_divergence_clips_targets_and_predictions(keras, budget):
    """kl_divergence(y_true, y_pred) = sum(t * log(t / p), axis=-1) with both t and p clipped to
    [epsilon, 1] (epsilon = 1e-7): zero targets (one-hot labels) contribute ~0, not NaN, and zero
    predictions a large finite value. The same for the KLDivergence loss (sum_over_batch_size) and
    metric (mean over samples)."""
    eps = 1e-7
    one_hot = np.eye(3, dtype=np.float32)[[0, 2, 1, 2]]
    soft = _f32(4, 3, seed=6, lo=0.0, hi=1.0)
    soft /= soft.sum(-1, keepdims=True)
    with_zero = soft.copy()
    with_zero[1, 0] = 0.0
    cases = [("one-hot targets", one_hot, soft), ("zero prediction", soft, with_zero),
             ("both", one_hot, with_zero)]

    def kld(t, p):
        t, p = np.clip(t.astype(np.float64), eps, 1), np.clip(p.astype(np.float64), eps, 1)
        return (t * np.log(t / p)).sum(-1)

    for name, t, p in budget(cases):
        want = kld(t, p)
        call = f"KLDivergence(reduction=None)({name})"
        got = keras.losses.KLDivergence(reduction=None)(t, p)
        assert_close(got, want, call=call, what="per-sample values", tolerance=Tolerance(rtol=1e-4, atol=1e-5))
        assert_close(keras.losses.KLDivergence()(t, p), want.mean(), call=f"KLDivergence()({name})",
                     tolerance=Tolerance(rtol=1e-4, atol=1e-5))
        metric = keras.metrics.KLDivergence()
        metric.update_state(t, p)
        assert_close(metric.result(), want.mean(), call=f"metrics.KLDivergence().update_state({name})",
                     tolerance=Tolerance(rtol=1e-4, atol=1e-5))


# -- AUC(from_logits=True) -------------------------------------------------------------------------------------------
def _roc_auc(y, p, thresholds):
    """Keras's AUC(curve='ROC', summation_method='interpolation'): TP/FP/TN/FN at
    [-eps] + thresholds + [1 + eps] (a prediction counts as positive above a threshold),
    recall and false-positive rate, then trapezoids over consecutive thresholds."""
    ts = [-1e-7] + list(thresholds) + [1 + 1e-7]
    y = y.astype(bool)
    tpr, fpr = [], []
    for t in ts:
        pos = p > t
        tp, fp = np.sum(pos & y), np.sum(pos & ~y)
        fn, tn = np.sum(~pos & y), np.sum(~pos & ~y)
        tpr.append(tp / (tp + fn) if tp + fn else 0.0)
        fpr.append(fp / (fp + tn) if fp + tn else 0.0)
    tpr, fpr = np.array(tpr), np.array(fpr)
    return float(np.sum((fpr[:-1] - fpr[1:]) * (tpr[:-1] + tpr[1:]) / 2))


@clause("keras.metric.auc", ref="tf221")
def test_blind14_auc_from_logits_thresholds_the_sigmoid(keras, budget):
    """AUC(from_logits=True) applies the sigmoid before thresholding, single- and multi-label
    (multi_label=True averages the labels' AUCs): the result is the ROC AUC of sigmoid(logits)."""
    logits = _f32(12, 2, seed=7, lo=-3.0, hi=3.0)
    labels = (np.random.default_rng(8).uniform(size=(12, 2)) < 0.5).astype(np.float32)
    labels[0], labels[1] = [1, 1], [0, 0]
    probs = 1 / (1 + np.exp(-logits.astype(np.float64)))
    cases = [("thresholds=[0.3, 0.5, 0.7]", {"thresholds": [0.3, 0.5, 0.7]}, [0.3, 0.5, 0.7]),
             ("num_thresholds=5", {"num_thresholds": 5}, [0.25, 0.5, 0.75]),
             ("thresholds=[0.1, 0.4, 0.6, 0.9]", {"thresholds": [0.1, 0.4, 0.6, 0.9]}, [0.1, 0.4, 0.6, 0.9])]
    for name, kw, ts in budget(cases):
        single = keras.metrics.AUC(from_logits=True, **kw)
        single.update_state(labels[:, 0], logits[:, 0])
        assert_close(single.result(), _roc_auc(labels[:, 0], probs[:, 0], ts),
                     call=f"AUC(from_logits=True, {name}).update_state(labels, logits)", tolerance=TOL32)
        multi = keras.metrics.AUC(from_logits=True, multi_label=True, **kw)
        multi.update_state(labels, logits)
        want = np.mean([_roc_auc(labels[:, j], probs[:, j], ts) for j in range(2)])
        assert_close(multi.result(), want, call=f"AUC(from_logits=True, multi_label=True, {name})", tolerance=TOL32)


# -- grouped convolutions ---------------------------------------------------------------------------------------
def _grouped_conv_np(x, k, groups, stride):
    """channels_last 'valid' convolution of x (n, *spatial, cin) with k (*window, cin/groups, cout):
    group g reads input channels [g*ci, (g+1)*ci) and writes filters [g*co, (g+1)*co)."""
    x, k = x.astype(np.float64), k.astype(np.float64)
    window, ci, cout = k.shape[:-2], k.shape[-2], k.shape[-1]
    co = cout // groups
    out_sp = [(s - w) // stride + 1 for s, w in zip(x.shape[1:-1], window)]
    out = np.zeros((x.shape[0], *out_sp, cout))
    for pos in np.ndindex(*out_sp):
        sl = tuple(slice(p * stride, p * stride + w) for p, w in zip(pos, window))
        patch = x[(slice(None),) + sl]                      # (n, *window, cin)
        for g in range(groups):
            part = patch[..., g * ci:(g + 1) * ci].reshape(x.shape[0], -1)
            out[(slice(None),) + pos + (slice(g * co, (g + 1) * co),)] = \
                part @ k[..., g * co:(g + 1) * co].reshape(-1, co)
    return out


@clause("keras.layer.conv2d", ref="tf221")
def test_blind14_grouped_convolutions_give_each_group_its_own_channel_block(keras, tf, budget):
    """Conv1D/Conv2D(groups=g): the input channels are split into g contiguous blocks, block g
    convolved with its (window, cin/g, cout/g) kernel slice into the g-th block of filters; the
    gradients (input and kernel) are those of that map."""
    cases = [("Conv2D", 2, (1, 5, 5, 4), 2, 4, 1), ("Conv2D", 4, (2, 4, 4, 8), 2, 8, 1),
             ("Conv1D", 3, (2, 7, 6), 3, 6, 2), ("Conv2D", 2, (1, 6, 6, 4), 3, 6, 2)]
    for layer_name, groups, shape, ksize, filters, stride in budget(cases):
        x = _f32(*shape, seed=10 + groups)
        layer = getattr(keras.layers, layer_name)(filters, ksize, strides=stride, groups=groups, use_bias=False)
        layer.build(shape)
        rank = len(shape) - 2
        kernel = _f32(*([ksize] * rank), shape[-1] // groups, filters, seed=20 + groups)
        layer.set_weights([kernel])
        want = _grouped_conv_np(x, kernel, groups, stride)
        call = f"{layer_name}({filters}, {ksize}, strides={stride}, groups={groups})(x of shape {shape})"
        xt = tf.constant(x)
        up = _f32(*want.shape, seed=30 + groups)
        with tf.GradientTape() as tape:
            tape.watch(xt)
            out = layer(xt)
            loss = tf.reduce_sum(out * tf.constant(up))
        gx, gk = tape.gradient(loss, [xt, layer.kernel])
        assert_close(out, want, call=call, what="output", tolerance=TOL32)
        # the map is linear: each gradient entry is the change of sum(out * up) along a unit step
        num_k = np.zeros(kernel.shape)
        for idx in np.ndindex(*kernel.shape):
            d = np.zeros(kernel.shape, np.float32)
            d[idx] = 1.0
            num_k[idx] = np.sum(_grouped_conv_np(x, d, groups, stride) * up)
        assert_close(gk, num_k, call=call, what="d sum(out * up) / d kernel", tolerance=TOL32)
        num_x = np.zeros(x.shape)
        for idx in np.ndindex(*x.shape):
            d = np.zeros(x.shape, np.float32)
            d[idx] = 1.0
            num_x[idx] = np.sum(_grouped_conv_np(d, kernel, groups, stride) * up)
        assert_close(gx, num_x, call=call, what="d sum(out * up) / d x", tolerance=TOL32)
