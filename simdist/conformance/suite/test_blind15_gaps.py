"""Gaps the fifteenth blind batch of planted training bugs found (issue 29, docs/conformance.md "How
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
INFINITE, UNKNOWN = -1, -2


def _f32(*shape, seed=0, lo=-1.0, hi=1.0):
    return np.random.default_rng(seed).uniform(lo, hi, shape).astype(np.float32)


def _dense_model(keras, w, b, loss="mse"):
    """Sequential([Input((k,)), Dense(1)]) with kernel w (k, 1) and bias b (1,), compiled with SGD(0.1)."""
    model = keras.Sequential([keras.Input((w.shape[0],)), keras.layers.Dense(1)])
    model.layers[-1].set_weights([w, b])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss=loss)
    return model


# -- tf.data: repeat and batch count what they yield, empty inputs and drop_remainder included ------------------
def _batch_card(n, size, drop):
    """TF's BatchDataset cardinality for a known n >= 0: n // size full batches, plus the partial one
    unless drop_remainder."""
    return n // size + (0 if n % size == 0 or drop else 1)


@clause("dataset.batching", ref="tf221")
def test_blind15_repeat_and_batch_cardinalities_count_what_they_yield(tf, budget):
    """repeat(c) of n elements has n * c (0 when n or c is 0; repeat() of a non-empty input is
    INFINITE (-1), of an empty one 0); batch(k) and padded_batch(k) have n // k batches plus the
    partial one unless drop_remainder. Where the count is finite, iterating yields that many."""
    r = tf.data.Dataset.range
    repeats = [(3, 2), (0, None), (0, 3), (4, 0), (2, None), (1, 5)]
    for n, count in budget(repeats):
        ds = r(n).repeat() if count is None else r(n).repeat(count)
        want = (INFINITE if n else 0) if count is None else n * count
        name = f"range({n}).repeat({'' if count is None else count})"
        assert_equal(int(ds.cardinality()), want, call=f"{name}.cardinality()")
        if want >= 0:
            assert_equal(len(list(ds)), want, call=name, what="elements yielded")
    batches = [(10, 3, True), (10, 3, False), (9, 3, True), (2, 3, True), (2, 3, False), (0, 2, False)]
    for n, k, drop in budget(batches):
        want = _batch_card(n, k, drop)
        ds = r(n).batch(k, drop_remainder=drop)
        name = f"range({n}).batch({k}, drop_remainder={drop})"
        assert_equal(int(ds.cardinality()), want, call=f"{name}.cardinality()")
        assert_equal(len(list(ds)), want, call=name, what="batches yielded")
        padded = r(n).map(lambda v: tf.fill([v % 3], v)).padded_batch(k, drop_remainder=drop)
        name = f"range({n}).map(fill([v % 3], v)).padded_batch({k}, drop_remainder={drop})"
        assert_equal(int(padded.cardinality()), want, call=f"{name}.cardinality()")
        assert_equal(len(list(padded)), want, call=name, what="batches yielded")
    assert_equal(int(r(5).repeat(2).batch(4, drop_remainder=True).cardinality()), 2,
                 call="range(5).repeat(2).batch(4, drop_remainder=True).cardinality()")


@clause("dataset.api-surface", ref="tf221")
def test_blind15_nested_options_merge_field_by_field(tf, budget):
    """ds.options() merges the with_options calls along the chain field by field, nested groups
    (threading, experimental_optimization, experimental_distribute, autotune) included: a later
    with_options that sets one field of a group keeps the fields an earlier one set in that group,
    and a later setting of the same field wins."""
    r = tf.data.Dataset.range

    def opts(**kw):
        o = tf.data.Options()
        for path, v in kw.items():
            group, field = path.split("__")
            setattr(getattr(o, group), field, v)
        return o

    cases = [
        ("threading", dict(threading__private_threadpool_size=2), dict(threading__max_intra_op_parallelism=1),
         {"private_threadpool_size": 2, "max_intra_op_parallelism": 1}),
        ("threading", dict(threading__private_threadpool_size=2), dict(threading__private_threadpool_size=4),
         {"private_threadpool_size": 4, "max_intra_op_parallelism": None}),
        ("experimental_optimization", dict(experimental_optimization__map_parallelization=False),
         dict(experimental_optimization__noop_elimination=False),
         {"map_parallelization": False, "noop_elimination": False, "parallel_batch": None}),
        ("autotune", dict(autotune__enabled=False), dict(autotune__cpu_budget=3),
         {"enabled": False, "cpu_budget": 3}),
        ("experimental_distribute",
         dict(experimental_distribute__auto_shard_policy=tf.data.experimental.AutoShardPolicy.DATA),
         dict(experimental_distribute__num_devices=2),
         {"auto_shard_policy": tf.data.experimental.AutoShardPolicy.DATA, "num_devices": 2}),
    ]
    for group, first, second, want in budget(cases):
        o = r(3).with_options(opts(**first)).with_options(opts(**second)).options()
        for field, value in want.items():
            got = getattr(getattr(o, group), field)
            assert_equal(got, value, call=f"range(3).with_options({first}).with_options({second}).options()",
                         what=f"{group}.{field}")
        merged = opts(**first).merge(opts(**second))
        for field, value in want.items():
            assert_equal(getattr(getattr(merged, group), field), value,
                         call=f"Options({first}).merge(Options({second}))", what=f"{group}.{field}")


@clause("dataset.api-surface", ref="tf221")
def test_blind15_enumerate_counts_in_int64_from_start(tf, budget):
    """enumerate(start) pairs each element with an int64 index counting from `start` (its spec's
    dtype is int64 whatever the elements' dtype); its cardinality is the input's."""
    for start, n, dtype in budget([(0, 3, "int64"), (5, 2, "int32"), (-2, 4, "float32")]):
        ds = tf.data.Dataset.from_tensor_slices(np.arange(n).astype(dtype)).enumerate(start=start)
        call = f"from_tensor_slices(arange({n}, {dtype})).enumerate(start={start})"
        assert_equal(ds.element_spec[0].dtype.name, "int64", call=call, what="element_spec[0].dtype")
        assert_equal(ds.element_spec[1].dtype.name, dtype, call=call, what="element_spec[1].dtype")
        items = list(ds)
        assert_equal([it[0].dtype.name for it in items], ["int64"] * n, call=call, what="index dtypes")
        assert_equal([int(it[0]) for it in items], list(range(start, start + n)), call=call, what="indices")
        assert_equal(int(ds.cardinality()), n, call=f"{call}.cardinality()")


def _range_card(start, stop, step):
    """TF 2.21's RangeCardinality, transcribed: INFINITE when stop is int64's maximum (enumerate's
    counter), else 0 when the int64 difference stop - start (wrapped around) and step differ in
    sign, else ceil(|stop - start| / |step|)."""
    wrap = lambda v: (v + 2 ** 63) % 2 ** 64 - 2 ** 63   # noqa: E731
    if stop >= 2 ** 63 - 1:
        return INFINITE
    diff = wrap(stop - start)
    if diff == 0 or (diff > 0) != (step > 0):
        return 0
    return (abs(diff) - 1) // abs(step) + 1


@clause("dataset.api-surface", ref="tf221")
def test_blind15_range_cardinality_follows_int64_arithmetic(tf, budget):
    """range(start, stop, step).cardinality() is TF's int64 count: INFINITE (-1) when stop is
    int64's maximum, 0 for an empty range (a difference that wraps around int64 counts with its
    wrapped sign), else the number of elements a small range yields."""
    big = 2 ** 63 - 1
    cases = [(0, big, 1), (-2, big, 1), (-5, big, 2), (-big, big, 1), (big - 1, -big, -1), (5, -big - 1, -1),
             (-big - 1, big - 1, 1), (-big - 1, big - 1, 3), (0, 10, 3), (10, 0, -3), (5, 5, 1), (0, -3, 1),
             (-4, -1, 1), (7, 1, -2)]
    for start, stop, step in budget(cases):
        want = _range_card(start, stop, step)
        call = f"Dataset.range({start}, {stop}, {step}).cardinality()"
        ds = tf.data.Dataset.range(start, stop, step)
        assert_equal(int(ds.cardinality()), want, call=call)
        if abs(stop - start) < 100:
            assert_equal(len(list(ds)), want, call=f"Dataset.range({start}, {stop}, {step})", what="elements yielded")


# -- callbacks: the logs each hook gets, and what the built-in callbacks write ----------------------------------
@clause("keras.fit.callback-hooks", ref="tf221")
def test_blind15_train_end_and_history_see_the_epochs_logs(keras, budget):
    """on_train_end gets fit's logs of the last epoch (val_ entries included, when there is
    validation; not what callbacks added to their copy); History runs after the callbacks the user passed, so what they add to an epoch's logs
    (ReduceLROnPlateau's and LearningRateScheduler's learning_rate, or a user callback's own entry)
    is in history."""
    x, y = _f32(10, 3, seed=1), _f32(10, 1, seed=2)
    w, b = _f32(3, 1, seed=3), np.array([0.25], np.float32)

    class Rec(keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            logs["extra"] = float(epoch) * 10.0
            self.last_epoch_logs = dict(logs)

        def on_train_end(self, logs=None):
            self.train_end_logs = dict(logs or {})

    cases = [("validation", dict(validation_data=(x, y))), ("no validation", {}),
             ("validation_split", dict(validation_split=0.3))]
    for name, kw in budget(cases):
        model = _dense_model(keras, w, b)
        rec = Rec()
        hist = model.fit(x, y, batch_size=4, epochs=2, verbose=0, callbacks=[rec], **kw)
        call = f"fit(epochs=2, {name}) with a callback that adds logs['extra'] at each epoch's end"
        want_keys = sorted(["loss"] + (["val_loss"] if kw else []))   # (fit's own epoch logs: a callback's
        # additions reach the other callbacks of that hook, History among them, not fit's copy)
        assert_equal(sorted(rec.train_end_logs), want_keys, call=call, what="on_train_end logs' keys")
        for k in ("loss", "val_loss"):
            if k in rec.last_epoch_logs:
                assert_close(rec.train_end_logs[k], rec.last_epoch_logs[k], call=call,
                             what=f"on_train_end logs[{k!r}] (the last epoch's)", tolerance=TOL32)
        assert_equal(hist.history.get("extra"), [0.0, 10.0], call=call, what="history['extra']")
    for name, cb in budget([("ReduceLROnPlateau(monitor='loss', patience=0, factor=0.5)",
                             lambda: keras.callbacks.ReduceLROnPlateau(monitor="loss", patience=0, factor=0.5,
                                                                       min_delta=10.0)),
                            ("LearningRateScheduler(lambda e: 0.1 / (e + 1))",
                             lambda: keras.callbacks.LearningRateScheduler(lambda e: 0.1 / (e + 1)))]):
        model = _dense_model(keras, w, b)
        hist = model.fit(x, y, batch_size=4, epochs=3, verbose=0, callbacks=[cb()])
        # (ReduceLROnPlateau logs the rate before it reduces it: the first epoch improves on None, each
        # later one misses min_delta=10 and halves the rate after logging it)
        want = [0.1, 0.1, 0.05] if name.startswith("Reduce") else [0.1, 0.05, 0.1 / 3]
        assert_close(hist.history.get("learning_rate"), want, call=f"fit(epochs=3) with {name}",
                     what="history['learning_rate']", tolerance=TOL32)


@clause("keras.callback.model-checkpoint", ref="tf221")
def test_blind15_model_checkpoint_numbers_epochs_and_batches_from_one(keras, budget):
    """ModelCheckpoint(save_freq=n) saves after every n-th batch (counted across epochs) and formats
    {epoch} and {batch} 1-based: the file of the n-th batch of the first epoch is ...-1-n."""
    x, y = _f32(10, 3, seed=1), _f32(10, 1, seed=2)
    w, b = _f32(3, 1, seed=3), np.array([0.25], np.float32)
    for freq, epochs in budget([(2, 1), (1, 2), (3, 2)]):
        with tempfile.TemporaryDirectory() as d:
            model = _dense_model(keras, w, b)
            cb = keras.callbacks.ModelCheckpoint(os.path.join(d, "m-{epoch}-{batch}.weights.h5"),
                                                 save_weights_only=True, save_freq=freq)
            model.fit(x, y, batch_size=4, epochs=epochs, verbose=0, callbacks=[cb])
            want, seen = set(), 0
            for e in range(epochs):
                for bt in range(3):   # 10 rows in batches of 4: 3 batches per epoch
                    seen += 1
                    if seen % freq == 0:
                        want.add(f"m-{e + 1}-{bt + 1}.weights.h5")
            assert_equal(sorted(os.listdir(d)), sorted(want),
                         call=f"fit(10 rows, batch_size=4, epochs={epochs}) with ModelCheckpoint('m-{{epoch}}-{{batch}}"
                              f".weights.h5', save_freq={freq})", what="files written")


@clause("keras.callback.option-coverage", ref="tf221")
def test_blind15_backup_and_restore_cleans_up_after_a_finished_fit(keras, budget):
    """BackupAndRestore(delete_checkpoint=True) removes its whole backup directory when training
    finishes, so the next fit with a new callback on the same directory trains every epoch again;
    with delete_checkpoint=False the backup stays and the next fit resumes after the last epoch
    (it trains none)."""
    x, y = _f32(10, 3, seed=1), _f32(10, 1, seed=2)
    w, b = _f32(3, 1, seed=3), np.array([0.25], np.float32)
    for delete in budget([True, False]):
        with tempfile.TemporaryDirectory() as d:
            bd = os.path.join(d, "backup")
            model = _dense_model(keras, w, b)
            model.fit(x, y, batch_size=4, epochs=2, verbose=0,
                      callbacks=[keras.callbacks.BackupAndRestore(bd, delete_checkpoint=delete)])
            call = f"fit(epochs=2) with BackupAndRestore(dir, delete_checkpoint={delete})"
            assert_equal(os.path.exists(bd), not delete, call=call, what="backup directory exists after fit")
            kernel = model.layers[-1].get_weights()[0]
            hist = model.fit(x, y, batch_size=4, epochs=2, verbose=0,
                             callbacks=[keras.callbacks.BackupAndRestore(bd, delete_checkpoint=delete)])
            assert_equal(list(hist.epoch), [0, 1] if delete else [], call=f"a second {call}",
                         what="epochs trained")
            if not delete:
                assert_close(model.layers[-1].get_weights()[0], kernel, call=f"a second {call}",
                             what="kernel (restored, not trained)", tolerance=TOL32)


# -- model bookkeeping: metrics order, optimizer variables, configs, summary ------------------------------------
@clause("keras.fit.logs", ref="tf221")
def test_blind15_model_metrics_list_the_loss_then_compiled_metrics_then_output_losses(keras, budget):
    """model.metrics (and metrics_names) of a compiled model are the loss tracker, the compiled
    metrics container, then each output's loss tracker; evaluate's list starts with the total
    loss and each output's loss, then the compiled metrics' values."""
    x = _f32(8, 3, seed=1)
    y1, y2 = _f32(8, 2, seed=2), _f32(8, 1, seed=3)
    for metrics in budget([[["mae"], ["mse"]], [["mse", "mae"], []], [[], ["mae"]]]):
        keras.utils.set_random_seed(1)
        inp = keras.Input((3,))
        model = keras.Model(inp, [keras.layers.Dense(2, name="a")(inp), keras.layers.Dense(1, name="b")(inp)])
        model.compile(optimizer="sgd", loss=["mse", "mae"], metrics=metrics)
        model.fit(x, [y1, y2], epochs=1, verbose=0)
        call = f"Model(two outputs a, b).compile(loss=['mse', 'mae'], metrics={metrics})"
        assert_equal(model.metrics_names, ["loss", "compile_metrics", "a_loss", "b_loss"], call=call,
                     what="metrics_names")
        got = model.evaluate(x, [y1, y2], verbose=0)
        d = model.evaluate(x, [y1, y2], verbose=0, return_dict=True)
        order = ["loss", "a_loss", "b_loss"]
        rest = sorted(d[f"{o}_{m}"] for o, ms in zip("ab", metrics) for m in ms)
        assert_close(got[:3], [d[k] for k in order], call=f"{call}; evaluate()", what=f"list[:3] ({order})",
                     tolerance=TOL32)
        assert_close(sorted(got[3:]), rest, call=f"{call}; evaluate()", what="list[3:] (the metrics, sorted)",
                     tolerance=TOL32)


@clause("optim.state-round-trip", ref="tf221")
def test_blind15_optimizer_variables_interleave_each_variables_slots(keras, budget):
    """optimizer.variables is [iteration, learning_rate, then per model variable (in the model's
    order) its slots in the optimizer's order] (Adam: momentum, velocity; with amsgrad the
    velocity_hats follow all of them; Adadelta: accumulated_grad, accumulated_delta_var)."""
    x, y = _f32(6, 3, seed=1), _f32(6, 2, seed=2)
    cases = [("Adam", lambda: keras.optimizers.Adam(0.1), ["momentum", "velocity"], []),
             ("Adam(amsgrad=True)", lambda: keras.optimizers.Adam(0.1, amsgrad=True), ["momentum", "velocity"],
              ["velocity_hat"]),
             ("Adadelta", lambda: keras.optimizers.Adadelta(1.0), ["accumulated_grad", "accumulated_delta_var"], []),
             ("RMSprop(momentum=0.5, centered=True)", lambda: keras.optimizers.RMSprop(0.1, momentum=0.5, centered=True),
              ["velocity"], ["momentum", "average_gradient"])]
    for name, make, slots, after in budget(cases):
        keras.utils.set_random_seed(1)
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, name="d1"), keras.layers.Dense(2, name="d2")])
        model.compile(optimizer=make(), loss="mse")
        model.fit(x, y, epochs=1, verbose=0)
        prefixes = [w.path.replace("/", "_") for w in model.trainable_weights]
        names = [v.name for v in model.optimizer.variables]
        want = ["iteration", "learning_rate"] + [f"{p}_{s}" for p in prefixes for s in slots] \
            + [f"{p}_{s}" for s in after for p in prefixes]
        assert_equal(names[:2], want[:2], call=f"{name}: optimizer.variables after fit", what="first names")
        assert_equal(names[2:], want[2:],
                     call=f"{name}: optimizer.variables after fit", what="slot names in order")


@clause("keras.model.config", ref="tf221")
def test_blind15_layer_configs_keep_each_weights_own_regularizer_and_constraint(keras, budget):
    """get_config of Dense, Conv1D and EinsumDense keeps each weight's own regularizer and
    constraint (kernel vs bias); a layer rebuilt from the config adds the same penalties."""
    cases = [("Dense", lambda kw: keras.layers.Dense(2, **kw), (3,)),
             ("Conv1D", lambda kw: keras.layers.Conv1D(2, 2, **kw), (4, 3)),
             ("EinsumDense", lambda kw: keras.layers.EinsumDense("ab,bc->ac", output_shape=2, bias_axes="c", **kw),
              (3,))]
    kw = dict(kernel_regularizer=keras.regularizers.L2(0.1), bias_regularizer=keras.regularizers.L1(0.3),
              kernel_constraint=keras.constraints.NonNeg(), bias_constraint=keras.constraints.MaxNorm(2.0),
              bias_initializer="ones")
    for name, make, shape in budget(cases):
        layer = make(kw)
        config = layer.get_config()
        call = f"{name}(kernel_regularizer=L2(0.1), bias_regularizer=L1(0.3), kernel_constraint=NonNeg(), " \
               "bias_constraint=MaxNorm(2)).get_config()"
        for key, cls in (("kernel_regularizer", "L2"), ("bias_regularizer", "L1"), ("kernel_constraint", "NonNeg"),
                         ("bias_constraint", "MaxNorm")):
            assert_equal((config.get(key) or {}).get("class_name"), cls, call=call, what=f"config[{key!r}] class")
        clone = type(layer).from_config(config)
        clone(np.zeros((1,) + shape, np.float32))
        kernel, bias = (np.asarray(v) for v in clone.get_weights())
        want = 0.1 * float(np.sum(kernel.astype(np.float64) ** 2)) + 0.3 * float(np.sum(np.abs(bias)))
        assert_close(float(sum(np.asarray(v) for v in clone.losses)), want, call=f"{name}.from_config(config).losses",
                     what="sum of the weight penalties", tolerance=TOL32)


@clause("keras.model.summary", ref="tf221")
def test_blind15_summary_reports_weight_memory_in_bytes(keras, budget):
    """model.summary()'s Total/Trainable/Non-trainable lines give the parameter counts and their
    memory in bytes (4 per float32 parameter, 2 per float16), shown as Keras's readable size."""
    def readable(size):
        for unit in ["B", "KB", "MB", "GB"]:
            if size / 1024 < 1:
                return f"{size:.2f} {unit}"
            size /= 1024
        return f"{size:.2f} TB"

    cases = [("float32", 3, 5), ("float32", 40, 30), ("float16", 3, 5)]
    for dtype, k, units in budget(cases):
        model = keras.Sequential([keras.Input((k,)), keras.layers.Dense(units, dtype=dtype),
                                  keras.layers.BatchNormalization(dtype=dtype)])
        lines = []
        model.summary(print_fn=lambda line, *a, **kw: lines.append(line))
        text = "\n".join(lines)
        size = 2 if dtype == "float16" else 4
        trainable, frozen = k * units + units + 2 * units, 2 * units
        call = f"Sequential([Input(({k},)), Dense({units}, dtype={dtype}), BatchNormalization()]).summary()"
        for label, n in (("Total params", trainable + frozen), ("Trainable params", trainable),
                         ("Non-trainable params", frozen)):
            want = f"{label}: {n:,} ({readable(n * size)})"
            assert_true(want in text, f"summary has no line '{want}':\n{text}", call=call)


# -- losses and metrics: each option on its own term ------------------------------------------------------------
def _tversky_np(yt, yp, alpha, beta):
    """Keras 3.15's tversky over all entries: 1 - TP / (TP + alpha * sum((1 - p) y) + beta * sum(p (1 - y)) + eps)."""
    yt, yp = yt.astype(np.float64).ravel(), yp.astype(np.float64).ravel()
    tp = np.sum(yt * yp)
    return 1.0 - tp / (tp + alpha * np.sum((1 - yp) * yt) + beta * np.sum(yp * (1 - yt)) + 1e-7)


@clause("keras.loss.option-coverage", ref="tf221")
def test_blind15_overlap_and_count_losses_weigh_each_term_by_its_own_option(keras, budget):
    """Tversky(alpha, beta) weighs the missed positives, sum((1 - y_pred) * y_true), by alpha and the
    false alarms, sum(y_pred * (1 - y_true)), by beta (Keras 3.15's naming), over the whole batch;
    Poisson is the mean over the last axis of y_pred - y_true * log(y_pred + eps);
    CategoricalFocalCrossentropy(label_smoothing=s) smooths towards 1 / num_classes."""
    yt = (_f32(4, 5, seed=1, lo=0, hi=1) > 0.5).astype(np.float32)
    yp = _f32(4, 5, seed=2, lo=0.05, hi=0.95)
    for alpha, beta in budget([(0.7, 0.3), (0.2, 0.9), (0.5, 0.5)]):
        got = keras.losses.Tversky(alpha=alpha, beta=beta)(yt, yp)
        assert_close(got, _tversky_np(yt, yp, alpha, beta), call=f"Tversky(alpha={alpha}, beta={beta})(y, p)",
                     tolerance=TOL32)
    counts = _f32(3, 4, seed=3, lo=0, hi=4).round()
    rate = _f32(3, 4, seed=4, lo=0.1, hi=3)
    per = np.mean(rate - counts * np.log(rate.astype(np.float64) + 1e-7), axis=-1)
    assert_close(keras.losses.Poisson(reduction=None)(counts, rate), per, call="Poisson(reduction=None)(y, p)",
                 tolerance=TOL32)
    assert_close(keras.losses.poisson(counts, rate), per, call="poisson(y, p)", tolerance=TOL32)
    m = keras.metrics.Poisson()
    m.update_state(counts, rate)
    assert_close(m.result(), per.mean(), call="metrics.Poisson()", tolerance=TOL32)
    cy = np.eye(4, dtype=np.float32)[[0, 3, 1]]
    cp = _f32(3, 4, seed=5, lo=0.05, hi=1)
    for s, alpha, gamma in budget([(0.3, 0.25, 2.0), (0.1, 0.5, 1.0), (0.0, 0.25, 2.0)]):
        y = cy * (1 - s) + s / 4
        p = np.clip(cp / cp.sum(-1, keepdims=True), 1e-7, 1 - 1e-7).astype(np.float64)
        want = np.sum(alpha * (1 - p) ** gamma * -y * np.log(p), axis=-1)
        got = keras.losses.CategoricalFocalCrossentropy(alpha=alpha, gamma=gamma, label_smoothing=s,
                                                        reduction=None)(cy, cp)
        assert_close(got, want, call=f"CategoricalFocalCrossentropy(alpha={alpha}, gamma={gamma}, label_smoothing={s})",
                     tolerance=TOL32)


@clause("keras.metric.precision-recall", ref="tf221")
def test_blind15_precision_and_recall_filter_the_top_k_before_taking_the_class(keras, budget):
    """Precision/Recall(top_k=k, class_id=c): each row keeps only its k largest predictions (the rest
    count as below every threshold), then column c alone is scored at the threshold (0.5 by default,
    below every kept value when top_k is given without thresholds)."""
    yt = (_f32(6, 4, seed=6, lo=0, hi=1) > 0.4).astype(np.float32)
    yp = _f32(6, 4, seed=7, lo=0, hi=1)
    for k, c, thr in budget([(1, 2, None), (2, 0, None), (1, 1, 0.3), (3, 3, 0.6), (None, 2, None)]):
        keep = np.ones_like(yp, bool) if k is None else yp >= -np.sort(-yp, axis=1)[:, k - 1:k]
        th = ((0.5 if k is None else -1e10) if thr is None else thr)   # (top_k alone: Keras's NEG_INF threshold)
        pred = keep[:, c] & (yp[:, c] > th)
        true = yt[:, c] > 0
        tp, fp, fn = np.sum(pred & true), np.sum(pred & ~true), np.sum(~pred & true)
        for cls, want in (("Precision", tp / (tp + fp) if tp + fp else 0.0),
                          ("Recall", tp / (tp + fn) if tp + fn else 0.0)):
            m = getattr(keras.metrics, cls)(thresholds=thr, top_k=k, class_id=c)
            m.update_state(yt, yp)
            assert_close(m.result(), want, call=f"{cls}(thresholds={thr}, top_k={k}, class_id={c})", tolerance=TOL32)


@clause("keras.metric.f-score", ref="tf221")
def test_blind15_f_scores_average_the_per_class_scores(keras, budget):
    """FBetaScore(average='macro') is the mean of the per-class F-beta scores, 'weighted' their mean
    weighted by each class's number of true labels, 'micro' the F-beta of the pooled counts, None
    the per-class scores."""
    yt = (_f32(8, 3, seed=8, lo=0, hi=1) > 0.5).astype(np.float32)
    yp = _f32(8, 3, seed=9, lo=0, hi=1)
    eps = 1e-7
    for average, beta, thr in budget([("macro", 2.0, 0.5), ("weighted", 0.5, 0.4), ("micro", 1.0, 0.5),
                                      (None, 1.5, 0.6)]):
        pred = (yp > thr).astype(np.float64)
        axis = None if average == "micro" else 0
        tp, fp, fn = (np.sum(a, axis=axis) for a in (pred * yt, pred * (1 - yt), (1 - pred) * yt))
        p, r = tp / (tp + fp + eps), tp / (tp + fn + eps)
        f = (1 + beta ** 2) * p * r / (beta ** 2 * p + r + eps)
        if average == "macro":
            f = f.mean()
        elif average == "weighted":
            w = yt.sum(0)
            f = np.sum(f * w / (w.sum() + eps))
        m = keras.metrics.FBetaScore(average=average, beta=beta, threshold=thr)
        m.update_state(yt, yp)
        assert_close(m.result(), f, call=f"FBetaScore(average={average!r}, beta={beta}, threshold={thr})",
                     tolerance=TOL32)


# -- gradients of the elementwise functions inside normalisation and logits losses --------------------------------
@clause("autodiff.op-gradients", ref="tf221")
def test_blind15_log1p_and_rsqrt_gradients_and_the_losses_built_on_them(tf, keras, budget):
    """d log1p(x) = 1 / (1 + x), d rsqrt(x) = -x^(-3/2) / 2, d sqrt(x) = 1 / (2 sqrt(x)); through them,
    the gradient of binary crossentropy from logits is sigmoid(z) - y (over the batch) and
    LayerNormalization's input gradient is that of (x - mean) / sqrt(var + eps)."""
    x = np.array([0.25, 0.5, 2.0, 7.5], np.float32)
    fns = [("log1p", tf.math.log1p, lambda v: 1 / (1 + v)), ("rsqrt", tf.math.rsqrt, lambda v: -0.5 * v ** -1.5),
           ("sqrt", tf.sqrt, lambda v: 0.5 / np.sqrt(v))]
    for name, fn, d in budget(fns):
        xv = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(xv)
            y = fn(xv)
        assert_close(tape.gradient(y, xv), d(x.astype(np.float64)), call=f"gradient of tf.math.{name}(x)",
                     tolerance=TOL32)
    z, yb = _f32(6, 3, seed=11, lo=-3, hi=3), (_f32(6, 3, seed=12, lo=0, hi=1) > 0.5).astype(np.float32)
    zv = tf.constant(z)
    with tf.GradientTape() as tape:
        tape.watch(zv)
        loss = keras.losses.BinaryCrossentropy(from_logits=True)(yb, zv)
    want = (1 / (1 + np.exp(-z.astype(np.float64))) - yb) / z.size
    assert_close(tape.gradient(loss, zv), want, call="gradient of BinaryCrossentropy(from_logits=True)",
                 tolerance=TOL32)
    xs = _f32(3, 5, seed=13)
    w = _f32(3, 5, seed=14)
    ln = keras.layers.LayerNormalization(epsilon=1e-3, center=False, scale=False)
    xv = tf.constant(xs)
    with tf.GradientTape() as tape:
        tape.watch(xv)
        out = tf.reduce_sum(ln(xv) * w)
    x64, w64 = xs.astype(np.float64), w.astype(np.float64)
    mu, var = x64.mean(-1, keepdims=True), x64.var(-1, keepdims=True)
    inv = 1 / np.sqrt(var + 1e-3)
    xhat = (x64 - mu) * inv
    n = x64.shape[-1]
    want = inv / n * (n * w64 - w64.sum(-1, keepdims=True) - xhat * (w64 * xhat).sum(-1, keepdims=True))
    assert_close(tape.gradient(out, xv), want, call="gradient of sum(LayerNormalization(center=False, scale=False)(x) * w)",
                 tolerance=Tolerance(rtol=1e-4, atol=1e-5))


# -- optimizers and schedules: each update in the order Keras computes it ---------------------------------------
@clause("optim.update-rules", ref="tf221")
def test_blind15_adadelta_and_polynomial_decay_follow_keras(keras, tf, budget):
    """Adadelta: acc_g = rho acc_g + (1 - rho) g^2 first, then delta = -sqrt(acc_d + eps) g / sqrt(acc_g + eps)
    with the updated acc_g, acc_d = rho acc_d + (1 - rho) delta^2, var += lr delta. PolynomialDecay:
    (lr0 - end) (1 - min(step, T) / T)^power + end."""
    g_seq = [np.array([0.3, -0.1, 0.2]), np.array([-0.6, 0.4, 0.1]), np.array([0.2, 0.2, -0.5])]
    for lr, rho, eps in budget([(1.0, 0.95, 1e-7), (0.5, 0.5, 1e-3)]):
        v = tf.Variable([1.0, -2.0, 0.5])
        opt = keras.optimizers.Adadelta(lr, rho=rho, epsilon=eps)
        var, ag, ad = np.array([1.0, -2.0, 0.5]), np.zeros(3), np.zeros(3)
        for g in g_seq:
            opt.apply_gradients([(tf.constant(g.astype(np.float32)), v)])
            ag = rho * ag + (1 - rho) * g * g
            delta = -np.sqrt(ad + eps) * g / np.sqrt(ag + eps)
            ad = rho * ad + (1 - rho) * delta * delta
            var = var + lr * delta
        assert_close(v, var, call=f"Adadelta({lr}, rho={rho}, epsilon={eps}) after 3 steps", tolerance=TOL32)
    for power, end, cycle in budget([(2.0, 0.1, False), (0.5, 0.0, False), (3.0, 0.2, True)]):
        s = keras.optimizers.schedules.PolynomialDecay(1.0, 10, end_learning_rate=end, power=power, cycle=cycle)
        steps = [0, 3, 7, 10, 14]
        want = []
        for k in steps:
            T = 10 * max(1, int(np.ceil(k / 10))) if cycle else 10
            want.append((1.0 - end) * (1 - min(k, T) / T) ** power + end)
        assert_close([float(s(k)) for k in steps], want,
                     call=f"PolynomialDecay(1.0, 10, end_learning_rate={end}, power={power}, cycle={cycle})",
                     what=f"rates at steps {steps}", tolerance=TOL32)


# -- the training loss: added losses and reductions under a strategy -----------------------------------------------
@clause("keras.loss.distribution-scaling", ref="tf221")
def test_blind15_added_losses_sum_and_sum_reductions_are_not_scaled_by_replicas(backend, keras, tf, budget):
    """A non-scalar loss given to add_loss is summed into the training loss; a compiled loss with
    reduction='sum' is the batch's sum on each replica, not divided by the number of replicas, so
    fit under MirroredStrategy(2) takes the same SGD step as the sum over the global batch."""
    class AddSum(keras.layers.Layer):
        def call(self, x):
            self.add_loss(keras.ops.sum(x, axis=1) * 0.5)
            return x

    x = _f32(6, 2, seed=15, lo=0, hi=1)
    model = keras.Sequential([keras.Input((2,)), AddSum()])
    model.compile(optimizer="sgd", loss=None)
    assert_close(model.evaluate(x, verbose=0, batch_size=6), 0.5 * float(x.astype(np.float64).sum()),
                 call="evaluate of a model whose layer adds add_loss(0.5 * sum(x, axis=1)) (a vector)",
                 tolerance=TOL32)
    xs, ys = _f32(8, 3, seed=16), _f32(8, 1, seed=17)
    w, b = _f32(3, 1, seed=18), np.array([0.1], np.float32)
    for kind, replicas in budget([("mirrored", 2), ("default", 1)]):
        strategy = backend.make_strategy(kind, replicas)
        with strategy.scope():
            model = _dense_model(keras, w, b, loss=keras.losses.MeanSquaredError(reduction="sum"))
        model.fit(xs, ys, batch_size=8, epochs=1, shuffle=False, verbose=0)
        x64, y64 = xs.astype(np.float64), ys.astype(np.float64)
        err = x64 @ w + 0.1 - y64
        gw, gb = 2 * x64.T @ err, 2 * err.sum(0)
        got_w, got_b = model.layers[-1].get_weights()
        call = f"{kind}({replicas}): fit(8 rows, batch_size=8) of Dense(1) with MeanSquaredError(reduction='sum'), SGD(0.1)"
        assert_close(got_w, w - 0.1 * gw, call=call, what="kernel after one step", tolerance=Tolerance(rtol=1e-4, atol=1e-5))
        assert_close(got_b, b - 0.1 * gb, call=call, what="bias after one step", tolerance=Tolerance(rtol=1e-4, atol=1e-5))


@clause("keras.layer.conv-family.symbolic", ref="tf221")
def test_blind15_dilated_valid_convolutions_shrink_by_the_dilated_window(keras, budget):
    """A 'valid' convolution's output length is floor((n - d (k - 1) - 1) / s) + 1 (dilation d,
    kernel k, stride s), symbolically (a functional model's output shape) and when called."""
    cases = [("Conv1D", lambda: keras.layers.Conv1D(2, 3, dilation_rate=2), (12, 1)),
             ("Conv2D", lambda: keras.layers.Conv2D(2, (3, 2), dilation_rate=(2, 3)), (10, 11, 1)),
             ("Conv2D", lambda: keras.layers.Conv2D(2, 3, strides=2, dilation_rate=1), (9, 9, 1)),
             ("DepthwiseConv2D", lambda: keras.layers.DepthwiseConv2D(3, dilation_rate=2), (9, 8, 2))]
    for name, make, shape in budget(cases):
        layer = make()
        k = layer.kernel_size
        d = layer.dilation_rate
        s = layer.strides
        want = tuple((n - dd * (kk - 1) - 1) // ss + 1 for n, kk, dd, ss in zip(shape[:-1], k, d, s))
        inp = keras.Input(shape)
        out = layer(inp)
        call = f"{name}(kernel={k}, dilation_rate={d}, strides={s}) on Input({shape})"
        assert_equal(tuple(out.shape[1:-1]), want, call=call, what="symbolic output spatial shape")
        got = layer(np.zeros((1,) + shape, np.float32))
        assert_equal(tuple(got.shape[1:-1]), want, call=call, what="eager output spatial shape")
