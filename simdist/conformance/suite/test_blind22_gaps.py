"""Gaps the twenty-second blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): behaviours of the core of the training layer (the tape, tf.nn, Keras metrics, fit's
class weights, random ops in tf.function) that no earlier suite test looked at closely enough for a wrong
implementation to fail (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy
or the Python standard library (a transcription of TF's or Keras 3.15's rule), or is a relation between two
calls of the backend that TF's rule implies (the same draw under another spelling of its shape), never the
backend's own implementation of the same rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises
from simdist.conformance.repro import Program
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


# -- a tape that keeps recording while it computes gradients inside its context ---------------------------------------
@clause("autodiff.higher-order", ref="tf221")
def test_blind22_gradient_inside_a_persistent_tape_keeps_recording(tf, budget):
    """A persistent tape whose `gradient` is called inside its own context records the gradient's ops and
    keeps recording afterwards: the gradient of that gradient is the second derivative (x^3 at 2: 3x^2 = 12,
    then 6x = 12), an op after the call is recorded (z = y * g: dz/dx = g y' + y g'' = 144 + 96 = 240), and a
    third derivative through the same tape is 6. An inner (non-persistent) tape's gradient inside an outer
    tape's context is recorded by the outer one (d/dx of d/dx sin(x) x = 2 cos x - x sin x). A non-persistent
    tape's `gradient` inside its context ends the tape: a second call is RuntimeError."""
    for case in budget(["persistent-second-order", "nested-tapes", "non-persistent-consumed"]):
        if case == "persistent-second-order":
            x = tf.constant(2.0)
            with tf.GradientTape(persistent=True) as t:
                t.watch(x)
                y = x * x * x
                g = t.gradient(y, x)
                z = y * g
                h = t.gradient(g, x)
            call = "GradientTape(persistent=True): gradient(x**3, x) inside the context, then again"
            assert_close(_np(g), np.float32(12.0), tolerance=TOL32, call=call + ": first derivative")
            assert_true(h is not None, "the gradient of the in-context gradient is None, but should be 6x = 12",
                        call=call)
            assert_close(_np(h), np.float32(12.0), tolerance=TOL32, call=call + ": second derivative")
            assert_close(_np(t.gradient(z, x)), np.float32(240.0), tolerance=TOL32,
                         call=call + ": d(y * g)/dx of an op after the in-context call")
            assert_close(_np(t.gradient(h, x)), np.float32(6.0), tolerance=TOL32, call=call + ": third derivative")
        elif case == "nested-tapes":
            xs = np.array([0.5, -1.25, 2.0], np.float32)
            x = tf.constant(xs)
            with tf.GradientTape() as outer:
                outer.watch(x)
                with tf.GradientTape() as inner:
                    inner.watch(x)
                    y = tf.sin(x) * x
                g = inner.gradient(y, x)
            got = _np(outer.gradient(g, x))
            want = (2.0 * np.cos(xs.astype(np.float64)) - xs * np.sin(xs.astype(np.float64))).astype(np.float32)
            assert_close(got, want, tolerance=Tolerance(rtol=1e-5, atol=1e-5),
                         call="outer.gradient(inner.gradient(sin(x) * x, x), x)")
        else:
            x = tf.constant(3.0)
            with tf.GradientTape() as t:
                t.watch(x)
                y = x * x
                g = t.gradient(y, x)
            assert_close(_np(g), np.float32(6.0), tolerance=TOL32, call="non-persistent gradient inside its context")
            with raises(RuntimeError, match="persistent", call="a second gradient of a non-persistent tape"):
                t.gradient(y, x)


# -- tf.nn.dropout's noise_shape: a None entry is x's size ------------------------------------------------------------
@clause("nn.dropout-seeding", ref="tf221")
def test_blind22_nn_dropout_noise_shape_none_takes_the_input_size(tf, budget):
    """tf.nn.dropout fills a None entry of a same-rank noise_shape with x's size there (nn_ops
    _get_noise_shape) before it draws, so under the same global and op seed `noise_shape=[None, 1]` draws and
    drops exactly as `noise_shape=[n, 1]`, and `[None, k]` as `[n, k]`: the keep decisions are shared only
    along the axes whose entry is 1 (each row of a [n, 1] mask all kept or all dropped), and kept entries are
    x / (1 - rate)."""
    x = np.arange(1, 3 * 4 * 2 + 1, dtype=np.float32).reshape(3, 4, 2)
    cases = [([None, 1, None], [3, 1, 2]), ([None, 4, 2], [3, 4, 2]), ([None, 1, 1], [3, 1, 1]),
             ([3, None, 1], [3, 4, 1])]
    for spelled, explicit in budget(cases):
        tf.random.set_seed(11)
        got = _np(tf.nn.dropout(tf.constant(x), 0.5, noise_shape=spelled, seed=4))
        tf.random.set_seed(11)
        want = _np(tf.nn.dropout(tf.constant(x), 0.5, noise_shape=explicit, seed=4))
        call = f"tf.nn.dropout(x (3, 4, 2), 0.5, noise_shape={spelled}, seed=4) under set_seed(11)"
        assert_close(got, want, tolerance=TOL32, call=call + f": the same as noise_shape={explicit}")
        kept = got != 0
        assert_close(got[kept], x[kept] * 2.0, tolerance=TOL32, call=call + ": kept entries are x / (1 - rate)")
        for ax, n in enumerate(explicit):
            if n == 1:
                same = (kept == np.take(kept, [0], axis=ax)).all()
                assert_true(bool(same), f"keep mask {kept.astype(int).tolist()} varies along axis {ax}, whose "
                            "noise_shape entry is 1", call=call)


# -- top-k categorical accuracy of sequence labels: the labels' shape ------------------------------------------------
def _top_k_hits(labels: np.ndarray, probs: np.ndarray, k: int) -> np.ndarray:
    """1.0 where labels' class is among the k largest of probs' last axis (no ties in the data)."""
    order = np.argsort(-probs, axis=-1)[..., :k]
    return (order == labels[..., None]).any(axis=-1).astype(np.float32)


@clause("keras.metric.top-k", ref="tf221")
def test_blind22_top_k_accuracies_keep_the_labels_shape(tf, keras, budget):
    """top_k_categorical_accuracy(y_true, y_pred, k) and sparse_top_k_categorical_accuracy flatten rank > 2
    inputs to (N, classes), run in_top_k, and reshape the matches back to the labels' shape (one-hot labels
    without their class axis; sparse labels as given): a (2, 3, 4) prediction gives (2, 3) matches. The
    metric classes average those matches (sample weights of the labels' shape weigh them one by one)."""
    rng = np.random.default_rng(22)
    probs = rng.permutation(24).reshape(2, 3, 4).astype(np.float32) / 24.0
    labels = np.array([[0, 3, 1], [2, 2, 0]])
    onehot = np.eye(4, dtype=np.float32)[labels]
    weights = np.array([[1.0, 0.0, 2.0], [0.5, 1.0, 3.0]], np.float32)
    for case, k in budget([("one-hot", 2), ("sparse", 2), ("one-hot", 1), ("sparse", 3)]):
        want = _top_k_hits(labels, probs, k)
        if case == "one-hot":
            got = _np(keras.metrics.top_k_categorical_accuracy(onehot, probs, k=k))
            metric = keras.metrics.TopKCategoricalAccuracy(k=k)
            metric.update_state(onehot, probs, sample_weight=weights)
            call = f"top_k_categorical_accuracy(one-hot (2, 3, 4), probs (2, 3, 4), k={k})"
        else:
            got = _np(keras.metrics.sparse_top_k_categorical_accuracy(labels, probs, k=k))
            metric = keras.metrics.SparseTopKCategoricalAccuracy(k=k)
            metric.update_state(labels, probs, sample_weight=weights)
            call = f"sparse_top_k_categorical_accuracy(labels (2, 3), probs (2, 3, 4), k={k})"
        assert_equal(tuple(got.shape), (2, 3), what="matches shape", call=call)
        assert_close(got, want, tolerance=TOL32, call=call)
        assert_close(_np(metric.result()), np.float32((want * weights).sum() / weights.sum()), tolerance=TOL32,
                     call=call.split("(")[0] + " metric with (2, 3) sample weights")


# -- class_weight of float labels: rounded to their class ------------------------------------------------------------
@clause("keras.fit.data", ref="tf221")
def test_blind22_class_weight_rounds_float_labels_to_their_class(tf, keras, budget):
    """fit(class_weight=...) maps each sample to a class before it looks the weight up: one-hot (last axis >
    1) labels by argmax, (n, 1) or (n,) labels by rounding (np.round / tf.round: 0.7 is class 1, 0.2 class 0,
    1.6 class 2), for arrays and for a tf.data.Dataset alike, and train_on_batch as fit. With mse, a zero
    kernel, x = 1 and SGD(lr), one step on one batch of all n samples sets the kernel to
    lr * 2 * mean(w_i * y_i)."""
    cw = {0: 1.0, 1: 3.0, 2: 0.5}
    cases = [("arrays (n, 1)", np.array([[0.2], [0.7], [0.9], [0.1], [1.6], [1.4]], np.float32)),
             ("arrays (n,)", np.array([0.3, 0.6, 1.2, 0.8, 1.7, 0.05], np.float32)),
             ("dataset (n, 1)", np.array([[0.2], [0.7], [0.9], [0.1], [1.6], [1.4]], np.float32)),
             ("train_on_batch (n,)", np.array([0.3, 0.6, 1.2, 0.8, 1.7, 0.05], np.float32))]
    lr = 0.1
    for how, y in budget(cases):
        x = np.ones((6, 1), np.float32)
        model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, kernel_initializer="zeros",
                                                                        use_bias=False)])
        model.compile(keras.optimizers.SGD(lr), "mse")
        if how.startswith("dataset"):
            model.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(6), class_weight=cw, epochs=1, verbose=0)
        elif how.startswith("train_on_batch"):
            model.train_on_batch(x, y, class_weight=cw)
        else:
            model.fit(x, y, class_weight=cw, batch_size=6, epochs=1, shuffle=False, verbose=0)
        yf = y.reshape(-1).astype(np.float64)
        w = np.array([cw[int(c)] for c in np.round(yf)])
        want = np.float32(lr * 2.0 * np.mean(w * yf))
        assert_close(_np(model.layers[0].kernel).reshape(()), want, tolerance=TOL32,
                     call=f"{how}: one SGD({lr}) step with class_weight={cw}, labels {yf.tolist()}")


# -- random ops in one tf.function: each op its own kernel -----------------------------------------------------------
@clause("ops.random-in-function", ref="tf221")
def test_blind22_random_ops_in_a_function_each_own_their_kernel(tf, budget):
    """Every stateful random op a tf.function builds is its own kernel with its own Philox stream: two ops
    with the same op seed (under the same global seed) draw the same values in a call, and at the next call
    each draws its own next values (again equal to each other, unlike the first call's); a function with
    three such ops built in a Python loop gives three equal draws. A seedless op takes the graph's next op
    seed, so two seedless ops differ."""
    for case in budget(["uniform-twice", "normal-loop", "seedless-pair"]):
        tf.random.set_seed(5)
        if case == "uniform-twice":
            @tf.function
            def f():
                return tf.random.uniform([3], seed=7), tf.random.uniform([3], seed=7)
            a1, b1 = (_np(v) for v in f())
            a2, b2 = (_np(v) for v in f())
            call = "tf.function: uniform([3], seed=7) twice, under set_seed(5)"
            assert_close(a1, b1, tolerance=Tolerance(rtol=0, atol=0), call=call + ": first call, the two ops")
            assert_close(a2, b2, tolerance=Tolerance(rtol=0, atol=0), call=call + ": second call, the two ops")
            assert_true(not np.array_equal(a1, a2), f"the second call repeats the first's draw {a1.tolist()}",
                        call=call)
        elif case == "normal-loop":
            @tf.function
            def g():
                return [tf.random.normal([2], seed=3) for _ in range(3)]
            outs = [_np(v) for v in g()]
            for j in (1, 2):
                assert_close(outs[j], outs[0], tolerance=Tolerance(rtol=0, atol=0),
                             call=f"tf.function: normal([2], seed=3) built 3 times in a loop: draw {j} vs draw 0")
        else:
            @tf.function
            def h():
                return tf.random.uniform([3]), tf.random.uniform([3])
            a, b = (_np(v) for v in h())
            assert_true(not np.array_equal(a, b), f"two seedless uniform ops drew the same {a.tolist()}",
                        call="tf.function: uniform([3]) twice without op seeds, under set_seed(5)")


@clause("ops.random-in-function", ref="tf221")
def test_blind22_eager_random_kernels_are_per_dtype(tf, budget):
    """Eagerly, TF caches one stateful random kernel per op type, seeds *and dtype*: a float64 draw with the
    seeds a float32 draw just used is its own kernel's first (the draw it gives right after set_seed), and the
    float32 kernel's next draw is its second (the float64 draw did not advance it); likewise normal."""
    for name in budget(["uniform", "normal"]):
        op = getattr(tf.random, name)
        call = f"eager {name}([4], seed=9) in float32, then float64, then float32, under set_seed(5)"
        tf.random.set_seed(5)
        first64 = _np(op([4], seed=9, dtype=tf.float64))
        tf.random.set_seed(5)
        _np(op([4], seed=9, dtype=tf.float32))
        want32 = _np(op([4], seed=9, dtype=tf.float32))
        tf.random.set_seed(5)
        first32 = _np(op([4], seed=9, dtype=tf.float32))
        after32 = _np(op([4], seed=9, dtype=tf.float64))
        second32 = _np(op([4], seed=9, dtype=tf.float32))
        assert_close(after32, first64, tolerance=Tolerance(rtol=0, atol=0),
                     call=call + ": the float64 draw is its kernel's first")
        assert_close(second32, want32, tolerance=Tolerance(rtol=0, atol=0),
                     call=call + ": the float32 kernel's second draw")
        assert_true(not np.array_equal(second32, first32), f"float32 draw repeated {first32.tolist()}", call=call)


# -- distributed variables: no sparse_read of their own; tf.gather reads their value --------------------------------
@clause("mirrored.sync-on-read", ref="tf221")
def test_blind22_distributed_variables_refuse_sparse_read_and_gather_their_value(backend):
    """TF 2.21's MirroredVariable and SyncOnReadVariable inherit variables.Variable.sparse_read, a bare
    AttributeError, in replica and in cross-replica context; tf.gather catches it and gathers the
    variable's value (array_ops.gather): the replica's own copy inside `run`, the aggregate (SUM: the copies'
    sum) in cross-replica context, the mirrored value for a mirrored variable."""
    ns = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    mirrored = tf.Variable([1.0, 2.0, 3.0])
    on_read = tf.Variable([0.0, 0.0, 0.0], synchronization=tf.VariableSynchronization.ON_READ,
                          aggregation=tf.VariableAggregation.SUM)

def fill():
    rid = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
    on_read.assign((rid + 1.0) * tf.constant([1.0, 2.0, 3.0]))
    return tf.gather(on_read, [2, 0])

inside = [c.numpy().tolist() for c in strategy.experimental_local_results(strategy.run(fill))]
cross = tf.gather(on_read, [2, 0]).numpy().tolist()
mirrored_rows = tf.gather(mirrored, [1]).numpy().tolist()
errors = {}
for name, var in (("mirrored", mirrored), ("on_read", on_read)):
    try:
        var.sparse_read([0])
    except Exception as e:
        errors[name + " cross-replica"] = type(e).__name__

def read_in_replica():
    try:
        on_read.sparse_read([0])
        return tf.constant(0)
    except AttributeError:
        return tf.constant(1)

replica_error = [int(c) for c in strategy.experimental_local_results(strategy.run(read_in_replica))]
""").run()
    call = "MirroredStrategy(2): SUM ON_READ variable, replica r assigns (r + 1) * [1, 2, 3]"
    assert_close(ns["inside"], [[3.0, 1.0], [6.0, 2.0]], call=call, what="tf.gather(v, [2, 0]) inside run")
    assert_close(ns["cross"], [9.0, 3.0], call=call, what="tf.gather(v, [2, 0]) in cross-replica context (the sum)")
    assert_close(ns["mirrored_rows"], [2.0], call="MirroredStrategy(2): tf.gather(mirrored [1, 2, 3], [1])")
    for name in ("mirrored", "on_read"):
        assert_equal(ns["errors"].get(name + " cross-replica"), "AttributeError", call=f"{name}.sparse_read([0])",
                     what="error in cross-replica context")
    assert_equal(ns["replica_error"], [1, 1], call="on_read.sparse_read([0]) inside run",
                 what="AttributeError raised in each replica (1)")
