"""Keras's training loop under the strategies — clauses keras.compile.*, keras.fit.* and the
strategy rules fit relies on (scope.colocate-requires-scope, reduce.nested), TF 2.21 + Keras 3.15.

The seeds state that a `tf.keras.Model` created inside `strategy.scope()` captures the strategy,
and that `model.compile` / `model.fit` enter that scope themselves, so both "can be called inside
or outside the scope". Expected values come from NumPy references written here (the gradient of
a linear model's mean squared error, the replicas' split of a batch), never from the backend.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, assert_type_name, raises

clause = pytest.mark.clause
needs_cluster = pytest.mark.requires("multi_worker")

W0 = np.array([[0.5], [-1.0], [2.0]], dtype=np.float32)
X = np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 1.0], [2.0, 1.0, -1.0], [-0.5, 0.5, 1.5], [1.0, 0.0, 2.0]],
             dtype=np.float32)
Y = np.array([[1.0], [0.0], [2.0], [-1.0], [0.5]], dtype=np.float32)
LR = 0.1


def _linear(keras, w0=W0):
    """y = x @ w (Dense(1) without bias), weights set to w0."""
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, use_bias=False)])
    model.set_weights([w0])
    return model


def _mse_grad(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """d/dw of mean((x w - y)^2) over the examples (Keras's MSE: mean over the last axis, then
    sum_over_batch_size), in float64."""
    x, y, w = x.astype(np.float64), y.astype(np.float64), w.astype(np.float64)
    return 2.0 * x.T @ (x @ w - y) / len(x)


def _replica_parts(n: int, replicas: int) -> list[range]:
    """How tf.distribute splits a global batch of n examples (batch dim known per step): the
    first n % r replicas get ceil(n / r), the rest floor (clause input.partial-batch's rule for a
    final partial batch: ceil-sized parts first, possibly empty ones last)."""
    per = -(-n // replicas)
    out, start = [], 0
    for _ in range(replicas):
        size = max(0, min(per, n - start))
        out.append(range(start, start + size))
        start += size
    return out


# -- the seeds' statements ------------------------------------------------------------------------------
@clause("keras.fit.enters-scope")
def test_fit_outside_the_scope_trains_under_the_captured_strategy(backend, keras):
    strategy = backend.make_strategy("mirrored", 2)
    with strategy.scope():
        model = _linear(keras)
        opt = keras.optimizers.SGD(LR, momentum=0.5)
    model.compile(optimizer=opt, loss="mse", metrics=["mae"])      # outside the scope
    model.fit(X[:4], Y[:4], batch_size=4, epochs=1, verbose=0, shuffle=False)   # outside the scope
    call = "model and SGD(momentum) made in MirroredStrategy(2).scope(), compile and fit outside it"
    assert_type_name(model.weights[0].value, "MirroredVariable", call=call, what="the kernel's tf.Variable")
    slots = [v for v in opt.variables if "momentum" in v.name]
    assert_true(len(slots) == 1, f"expected one momentum slot, got {[v.name for v in opt.variables]}", call=call)
    assert_type_name(slots[0].value, "MirroredVariable", call=call, what="the momentum slot fit built")
    compiled = [m for m in model.metrics if m.name == "compile_metrics"][0].metrics
    assert_type_name(compiled[0].variables[0].value, "SyncOnReadVariable", call=call,
                     what="the compiled metric's variable fit built")
    expected = W0 - LR * _mse_grad(W0, X[:4], Y[:4])       # first momentum step: w - lr * g
    assert_close(model.get_weights()[0], expected, call=call, what="kernel after one step")


@clause("keras.fit.enters-scope")
@pytest.mark.parametrize("kind", ["one_device", "central_storage"])
def test_fit_outside_the_scope_other_strategies(backend, keras, kind):
    strategy = backend.make_strategy(kind, 1 if kind == "one_device" else 2)
    with strategy.scope():
        model = _linear(keras)
        opt = keras.optimizers.SGD(LR)
    model.compile(optimizer=opt, loss="mse")
    model.fit(X[:4], Y[:4], batch_size=4, epochs=1, verbose=0, shuffle=False)
    call = f"model made in {kind} scope, compile and fit outside it"
    assert_true(model.distribute_strategy is strategy, "model.distribute_strategy is not its scope's strategy",
                call=call)
    assert_close(model.get_weights()[0], W0 - LR * _mse_grad(W0, X[:4], Y[:4]), call=call,
                 what="kernel after one step")


@clause("keras.compile.scope", ref="doc")
def test_documented_compile_outside_the_scope_with_a_new_optimizer(backend, keras):
    """The seeds: compile may be called outside the scope. TF 2.21 + Keras 3: compile("adam")
    outside the scope makes the optimizer under the default strategy, and fit then fails to build
    its slots in the model's scope (a known deviation of TF from its documents)."""
    strategy = backend.make_strategy("mirrored", 2)
    with strategy.scope():
        model = _linear(keras)
    model.compile(optimizer="adam", loss="mse")
    model.fit(X[:4], Y[:4], batch_size=4, epochs=1, verbose=0)


@clause("keras.compile.scope", ref="tf221")
def test_compile_enters_no_scope(backend, tf, keras):
    strategy = backend.make_strategy("mirrored", 2)
    with strategy.scope():
        model = _linear(keras)
    model.compile(optimizer="adam", loss="mse")
    call = "model made in MirroredStrategy(2).scope(), compile(optimizer='adam') outside it"
    loss_tracker = [m for m in model.metrics if m.name == "loss"][0]
    assert_type_name(loss_tracker.variables[0].value, "ResourceVariable", call=call,
                     what="the loss tracker's variable (made by compile in the caller's scope)")
    assert_type_name(model.optimizer.iterations.value, "ResourceVariable", call=call,
                     what="the optimizer's iterations variable")
    with raises(RuntimeError, match="Mixing different tf.distribute.Strategy objects", call="model.fit(...)"):
        model.fit(X[:4], Y[:4], batch_size=4, epochs=1, verbose=0)


@clause("keras.compile.scope", ref="tf221")
def test_compile_inside_the_scope_makes_distributed_trackers(backend, keras):
    strategy = backend.make_strategy("mirrored", 2)
    with strategy.scope():
        model = _linear(keras)
        model.compile(optimizer="adam", loss="mse")
    call = "model made and compiled in MirroredStrategy(2).scope()"
    loss_tracker = [m for m in model.metrics if m.name == "loss"][0]
    assert_type_name(loss_tracker.variables[0].value, "SyncOnReadVariable", call=call,
                     what="the loss tracker's variable")
    model.fit(X[:4], Y[:4], batch_size=4, epochs=1, verbose=0, shuffle=False)
    assert_type_name(model.optimizer.variables[-1].value, "MirroredVariable", call=call + ", fit",
                     what="Adam's last slot")


@clause("keras.fit.pss-refused")
@needs_cluster
@pytest.mark.parametrize("method", ["fit", "evaluate", "predict"])
def test_pss_refuses_the_keras_loop(backend, keras, method):
    cluster = backend.make_ps_cluster(workers=1, ps=1)
    with cluster.strategy.scope():
        model = _linear(keras)
        model.compile(optimizer=keras.optimizers.SGD(LR), loss="mse")
    args = (X,) if method == "predict" else (X, Y)
    with raises(ValueError, match="To use this dataset, you need to pass this dataset to "
                                  "ClusterCoordinator.create_per_worker_dataset", call=f"model.{method} under PSS"):
        getattr(model, method)(*args, batch_size=4, verbose=0)


@clause("keras.fit.pss-refused", ref="tf221")
@needs_cluster
@pytest.mark.parametrize("method", ["fit", "evaluate", "predict"])
def test_pss_refuses_its_distributed_datasets(backend, keras, method):
    """TF 2.21: a PSS distributed dataset is never built on the coordinator; Keras's dataset
    adapter asks for its cardinality and fails."""
    tf = backend.tf
    cluster = backend.make_ps_cluster(workers=1, ps=1)
    with cluster.strategy.scope():
        model = _linear(keras)
        model.compile(optimizer=keras.optimizers.SGD(LR), loss="mse")
    dataset = tf.data.Dataset.from_tensor_slices((X, Y)).batch(4)
    distributed = cluster.strategy.distribute_datasets_from_function(lambda ctx: dataset)
    with raises(ValueError, match="Cannot get the cardinality of a dataset that is not built",
                call=f"model.{method}(strategy.distribute_datasets_from_function(...)) under PSS"):
        # (shuffle=False: fit's default shuffle=True only makes Keras warn that a dataset is not shuffled)
        getattr(model, method)(distributed, verbose=0, **({"shuffle": False} if method == "fit" else {}))


# -- the distributed step --------------------------------------------------------------------------------
@clause("keras.fit.distributed-step", ref="tf221")
@pytest.mark.parametrize("kind,replicas", [("mirrored", 2), ("mirrored", 4), ("central_storage", 2)])
def test_partial_last_batch_gradient_is_the_sum_of_replica_means(backend, keras, kind, replicas):
    """Each replica's loss is its own examples' mean times 1/num_replicas; the gradients are
    summed. A full batch gives the global mean gradient; a final batch of 1 over R replicas gives
    that example's gradient / R (the other replicas are empty and add 0)."""
    strategy = backend.make_strategy(kind, replicas)
    with strategy.scope():
        model = _linear(keras)
        model.compile(optimizer=keras.optimizers.SGD(LR), loss="mse")
    model.fit(X, Y, batch_size=4, epochs=1, verbose=0, shuffle=False)      # batches of 4, then 1
    w = W0.astype(np.float64)
    for batch in (range(0, 4), range(4, 5)):
        g = np.zeros_like(w)
        for part in _replica_parts(len(batch), replicas):
            idx = [batch[i] for i in part]
            if idx:
                g += _mse_grad(w, X[idx], Y[idx]) / replicas
        w = w - LR * g
    assert_close(model.get_weights()[0], w, call=f"fit 5 examples, batch 4, on {kind}({replicas})",
                 what="kernel after two steps")


@clause("keras.fit.logs", ref="tf221")
@pytest.mark.parametrize("compile_in_scope", [False, True])
def test_batch_and_epoch_logs_under_mirrored(backend, keras, compile_in_scope):
    """With a learning rate of 0 the per-example losses stay fixed. The epoch's loss (History) is
    the loss tracker read in cross-replica context: the mean over all examples. A step's log is
    the mean over replicas of each replica's own result: with the tracker made in the scope
    (per-replica copies) the last step's log averages replica 0's running mean and replica 1's
    (which saw one example fewer); made outside the scope, one variable sums every replica's
    updates and the log is the running mean over all examples."""
    strategy = backend.make_strategy("mirrored", 2)
    with strategy.scope():
        model = _linear(keras)

    def compile_() -> None:
        model.compile(optimizer=keras.optimizers.SGD(0.0), loss="mse")

    if compile_in_scope:
        with strategy.scope():
            compile_()
    else:
        compile_()
    records = []

    class Record(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            records.append(dict(logs or {}))

    history = model.fit(X, Y, batch_size=4, epochs=1, verbose=0, shuffle=False, callbacks=[Record()])
    per_example = ((X.astype(np.float64) @ W0 - Y) ** 2).ravel()
    call = f"fit 5 examples, batch 4, Mirrored(2), compile {'inside' if compile_in_scope else 'outside'} the scope"
    assert_close(history.history["loss"], [per_example.mean()], call=call, what="History loss")
    # replica parts: step 1 [0,1] [2,3]; step 2 [4] []
    if compile_in_scope:
        r0, r1 = per_example[[0, 1, 4]].mean(), per_example[[2, 3]].mean()
        last = (r0 + r1) / 2
    else:
        last = per_example.mean()
    assert_close(records[-1]["loss"], last, call=call, what="the last step's logged loss")
    assert_equal(sorted(history.history), ["loss"], call=call, what="History keys")


@clause("keras.fit.first-batch-build", ref="tf221")
def test_first_batch_split_unevenly_raises(backend, tf, keras):
    strategy = backend.make_strategy("mirrored", 2)
    with strategy.scope():
        model = _linear(keras)
        model.compile(optimizer=keras.optimizers.SGD(LR), loss="mse")
    with raises(tf.errors.InvalidArgumentError, match="AddN", call="fit(batch_size=3) on Mirrored(2)"):
        model.fit(X, Y, batch_size=3, epochs=1, verbose=0)


@clause("keras.predict.order", ref="tf221")
@pytest.mark.parametrize("kind,replicas", [("mirrored", 2), ("mirrored", 4), ("central_storage", 2),
                                           ("one_device", 1)])
def test_predict_keeps_the_examples_order(backend, keras, kind, replicas):
    strategy = backend.make_strategy(kind, replicas)
    with strategy.scope():
        model = _linear(keras)
    out = model.predict(X, batch_size=4, verbose=0)
    assert_close(out, X.astype(np.float64) @ W0, call=f"predict(5 examples, batch 4) on {kind}",
                 what="predictions")


@clause("keras.fit.validation", ref="tf221")
def test_history_with_validation(backend, keras):
    strategy = backend.make_strategy("mirrored", 2)
    with strategy.scope():
        model = _linear(keras)
        model.compile(optimizer=keras.optimizers.SGD(0.0), loss="mse", metrics=["mae"])
    history = model.fit(X[:4], Y[:4], batch_size=2, epochs=2, verbose=0, shuffle=False,
                        validation_data=(X[2:], Y[2:]))
    call = "fit(epochs=2, validation_data=...) with learning rate 0"
    assert_equal(sorted(history.history), ["loss", "mae", "val_loss", "val_mae"], call=call, what="History keys")
    assert_equal(list(history.epoch), [0, 1], call=call, what="History.epoch")
    pred = X.astype(np.float64) @ W0
    val = ((pred[2:] - Y[2:]) ** 2).mean()
    assert_close(history.history["val_loss"], [val, val], call=call, what="val_loss per epoch")
    assert_close(history.history["mae"], [np.abs(pred[:4] - Y[:4]).mean()] * 2, call=call,
                 what="mae per epoch")


@clause("keras.fit.traced-shapes", ref="tf221")
@pytest.mark.parametrize("run_eagerly", [False, True])
def test_empty_replica_loss_inside_and_outside_the_traced_step(backend, keras, run_eagerly):
    """A final batch of 1 on 2 replicas leaves replica 1 empty. Inside fit's traced step its loss
    is divide_no_nan(0, 0) = 0; with run_eagerly=True Keras returns the empty values, and the loss
    tracker's mean of them is NaN."""
    strategy = backend.make_strategy("mirrored", 2)
    with strategy.scope():
        model = _linear(keras)
        model.compile(optimizer=keras.optimizers.SGD(0.0), loss="mse", run_eagerly=run_eagerly)
    history = model.fit(X, Y, batch_size=4, epochs=1, verbose=0, shuffle=False)
    call = f"fit(5 examples, batch 4) on Mirrored(2), run_eagerly={run_eagerly}"
    loss = history.history["loss"][0]
    if run_eagerly:
        assert_true(bool(np.isnan(loss)), f"the epoch loss should be NaN, got {loss}", call=call)
    else:
        per_example = ((X.astype(np.float64) @ W0 - Y) ** 2).ravel()
        assert_close(loss, per_example.mean(), call=call, what="History loss")


@clause("keras.fit.data", ref="tf221")
def test_batches_class_weight_and_validation_split(backend, keras):
    strategy = backend.make_strategy("one_device", 1)
    xs = np.concatenate([X] * 8)            # 40 examples
    ys = np.concatenate([Y] * 8)
    labels = (np.arange(40) % 2)
    steps = []

    class Count(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            steps.append(batch)

    with strategy.scope():
        model = _linear(keras)
        model.compile(optimizer=keras.optimizers.SGD(0.0), loss="mse")
    model.fit(xs, ys, epochs=1, verbose=0, callbacks=[Count()])
    assert_equal(steps, [0, 1], call="fit(40 examples) without batch_size", what="steps (batch_size 32: 32 + 8)")
    steps.clear()
    history = model.fit(xs, ys, epochs=1, verbose=0, batch_size=8, validation_split=0.25, shuffle=False,
                        callbacks=[Count()])
    assert_equal(steps, [0, 1, 2, 3], call="fit(40 examples, batch 8, validation_split=0.25)",
                 what="training steps (30 examples)")
    pred = xs.astype(np.float64) @ W0
    assert_close(history.history["val_loss"], [((pred[30:] - ys[30:]) ** 2).mean()],
                 call="validation_split=0.25", what="val_loss (the last 10 examples)")
    # class_weight is a per-example weight: the same step as that sample_weight
    cw = {0: 0.5, 1: 2.0}
    with strategy.scope():
        a = _linear(keras)
        a.compile(optimizer=keras.optimizers.SGD(LR), loss="mse")
        b = _linear(keras)
        b.compile(optimizer=keras.optimizers.SGD(LR), loss="mse")
    ya = np.where(labels[:, None] == 1, 1.0, 0.0).astype(np.float32)
    a.fit(xs, ya, batch_size=40, epochs=1, verbose=0, class_weight=cw)
    b.fit(xs, ya, batch_size=40, epochs=1, verbose=0, sample_weight=np.where(labels == 1, 2.0, 0.5))
    assert_close(a.get_weights()[0], b.get_weights()[0], call="fit(class_weight={0: .5, 1: 2})",
                 what="kernel (vs the same fit with sample_weight)")


@clause("keras.fit.callbacks", ref="tf221")
def test_early_stopping_and_learning_rate_scheduler(backend, keras):
    strategy = backend.make_strategy("mirrored", 2)
    with strategy.scope():
        model = _linear(keras)
        model.compile(optimizer=keras.optimizers.SGD(0.0), loss="mse")
    stop = keras.callbacks.EarlyStopping(monitor="loss", patience=2)
    sched = keras.callbacks.LearningRateScheduler(lambda epoch, lr: 0.5 ** epoch * 0.0)
    history = model.fit(X[:4], Y[:4], batch_size=4, epochs=10, verbose=0, callbacks=[sched, stop])
    call = "fit(epochs=10, EarlyStopping(monitor='loss', patience=2)) with a constant loss"
    assert_equal(list(history.epoch), [0, 1, 2], call=call, what="epochs run (no improvement after the first)")
    assert_equal(stop.stopped_epoch, 2, call=call, what="EarlyStopping.stopped_epoch")
    assert_equal(sorted(history.history), ["learning_rate", "loss"], call=call, what="History keys")


@clause("keras.fit.callbacks", ref="tf221")
def test_model_checkpoint_saves_weights(backend, keras, tmp_path):
    strategy = backend.make_strategy("mirrored", 2)
    with strategy.scope():
        model = _linear(keras)
        model.compile(optimizer=keras.optimizers.SGD(LR), loss="mse")
    path = str(tmp_path / "ckpt-{epoch}.weights.h5")
    model.fit(X[:4], Y[:4], batch_size=4, epochs=2, verbose=0, shuffle=False,
              callbacks=[keras.callbacks.ModelCheckpoint(path, save_weights_only=True, monitor="loss")])
    with strategy.scope():
        restored = _linear(keras, np.zeros_like(W0))
    restored.load_weights(str(tmp_path / "ckpt-2.weights.h5"))
    assert_close(restored.get_weights()[0], model.get_weights()[0], call="ModelCheckpoint(...weights.h5) epoch 2",
                 what="restored kernel")
    with raises(ValueError, match="must end in `.weights.h5`", call="ModelCheckpoint('x.h5', save_weights_only=True)"):
        keras.callbacks.ModelCheckpoint(str(tmp_path / "x.h5"), save_weights_only=True)


@clause("keras.fit.progress-bar", ref="tf221")
def test_progress_output_lines(backend, keras):
    import contextlib
    import io
    import re

    with backend.make_strategy("one_device", 1).scope():
        model = _linear(keras)
        model.compile(optimizer=keras.optimizers.SGD(0.0), loss="mse")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        model.fit(X[:4], Y[:4], batch_size=2, epochs=2, verbose=2)
    lines = [ln for ln in out.getvalue().splitlines() if ln.strip()]
    loss = ((X[:4].astype(np.float64) @ W0 - Y[:4]) ** 2).mean()
    pattern = r"^2/2 - \d+s - \d+(s|ms|us)/step - loss: " + re.escape(f"{loss:.4f}") + "$"
    call = "fit(4 examples, batch 2, epochs=2, verbose=2)"
    assert_equal(lines[0], "Epoch 1/2", call=call, what="first line")
    assert_equal(lines[2], "Epoch 2/2", call=call, what="third line")
    for ln in (lines[1], lines[3]):
        assert_true(re.match(pattern, ln) is not None, f"line {ln!r} does not match {pattern!r}", call=call)


# -- the strategy rules fit relies on --------------------------------------------------------------------
@clause("scope.colocate-requires-scope", ref="tf221")
def test_colocate_vars_with_requires_its_own_scope(backend, tf):
    strategy = backend.make_strategy("mirrored", 2)
    other = backend.make_strategy("one_device", 1)   # (a backend may hand out one strategy per kind)
    with strategy.scope():
        v = tf.Variable(1.0)
    with raises(RuntimeError, match="Need to be inside", call="colocate_vars_with outside any scope"):
        with strategy.extended.colocate_vars_with(v):
            pass
    with other.scope():
        with raises(RuntimeError, match="Mixing different tf.distribute.Strategy objects",
                    call="colocate_vars_with in another strategy's scope"):
            with strategy.extended.colocate_vars_with(v):
                pass
    with strategy.scope():
        with strategy.extended.colocate_vars_with(v):
            w = tf.Variable(2.0)
    assert_type_name(w, "MirroredVariable", call="tf.Variable under colocate_vars_with in its scope")


@clause("reduce.nested", ref="tf221")
def test_mirrored_reduces_a_nested_structure_leaf_by_leaf(backend, tf):
    strategy = backend.make_strategy("mirrored", 2)
    vals = strategy.experimental_distribute_values_from_function(
        lambda ctx: (tf.constant([1.0, 2.0]) * (ctx.replica_id_in_sync_group + 1),
                     {"b": tf.constant(3.0) * (ctx.replica_id_in_sync_group + 1)}))
    out = strategy.reduce("SUM", vals, axis=None)
    call = "MirroredStrategy(2).reduce('SUM', (x, {'b': y}), axis=None)"
    assert_true(isinstance(out, tuple) and isinstance(out[1], dict), f"structure {type(out)}", call=call)
    assert_close(out[0], [3.0, 6.0], call=call, what="out[0]")
    assert_close(out[1]["b"], 9.0, call=call, what="out[1]['b']")


# -- the step fit runs -------------------------------------------------------------------------------------
def _counting_fit(keras, run_eagerly: bool) -> tuple[int, list[float]]:
    """fit of 48 examples in batches of 16 for 3 epochs (9 batches) by a functional-API Model subclass
    whose train_step counts how often its Python runs."""
    calls = [0]

    class Counting(keras.Model):
        def train_step(self, data):
            calls[0] += 1
            return super().train_step(data)

    inputs = keras.Input((3,))
    model = Counting(inputs, keras.layers.Dense(1, use_bias=False)(inputs))
    model.set_weights([W0])
    model.compile(optimizer=keras.optimizers.SGD(LR), loss="mse", run_eagerly=run_eagerly)
    x = np.tile(X, (10, 1))[:48]
    y = np.tile(Y, (10, 1))[:48]
    history = model.fit(x, y, batch_size=16, epochs=3, verbose=0, shuffle=False)
    return calls[0], [float(v) for v in history.history["loss"]]


@clause("keras.fit.step-replay", ref="tf221")
def test_fit_runs_its_step_as_a_function_not_per_batch(backend, keras):
    """Unless compile(run_eagerly=True), fit's step is a tf.function: its Python runs when the
    step is traced, not once per batch; run eagerly it runs per batch. The losses are the same."""
    traced_calls, traced_losses = _counting_fit(keras, run_eagerly=False)
    keras.backend.clear_session()
    eager_calls, eager_losses = _counting_fit(keras, run_eagerly=True)
    call = "fit(48 examples, batch_size=16, epochs=3) of a Model subclass counting train_step's Python calls"
    assert_equal(eager_calls, 9, call=call + ", run_eagerly=True", what="train_step Python calls (one per batch)")
    assert_true(1 <= traced_calls <= 3, f"train_step Python calls: {traced_calls}, but should be a trace or two "
                f"(a tf.function), not one per batch (9)", call=call + ", compiled")
    assert_close(np.float32(traced_losses), np.float32(eager_losses), call=call,
                 what="per-epoch losses, compiled vs run_eagerly=True")
