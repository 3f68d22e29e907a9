"""Where code runs eagerly: `tf.config.run_functions_eagerly` (TF 2.21's process-wide switch that
makes every `tf.function` call run its Python as plain eager code) and `tf.executing_eagerly()`
(False while a tf.function's or a tf.data function's Python is being traced, True eagerly and
under `tf.init_scope`). Observed on TF 2.21 (eager_function_run.py, polymorphic_function.py
`Function.__call__`); every expected value below is a rule of those files or of a run.
"""

from __future__ import annotations

import contextlib
import warnings
from typing import Any, Iterator

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true

clause = pytest.mark.clause


@contextlib.contextmanager
def _functions_eagerly(tf: Any) -> Iterator[None]:
    """The switch on for the block, and off again whatever happens (it is process-wide)."""
    tf.config.run_functions_eagerly(True)
    try:
        yield
    finally:
        tf.config.run_functions_eagerly(False)


@clause("function.run-eagerly", ref="tf221")
def test_the_switch_reads_back_and_has_deprecated_aliases(tf):
    assert_equal(tf.config.functions_run_eagerly(), False, call="tf.config.functions_run_eagerly()",
                 what="the switch at start")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tf.config.experimental_run_functions_eagerly(1)
        try:
            assert_equal(tf.config.functions_run_eagerly(), True,
                         call="experimental_run_functions_eagerly(1); functions_run_eagerly()", what="the switch")
            assert_equal(tf.config.experimental_functions_run_eagerly(), True,
                         call="experimental_functions_run_eagerly()", what="the switch")
        finally:
            tf.config.run_functions_eagerly(False)
    assert_equal(tf.config.functions_run_eagerly(), False, call="run_functions_eagerly(False)", what="the switch")


@clause("function.run-eagerly", ref="tf221")
def test_a_function_runs_its_python_as_given_while_the_switch_is_on(tf):
    """With the switch on, each call runs the Python: side effects every time, arguments as given
    (a NumPy value stays NumPy), no trace counted, `.numpy()` and `int()` of a tensor work, and an
    input_signature is not checked. Off again, the function traces and replays as before."""
    seen: list[Any] = []

    @tf.function
    def f(x):
        seen.append((type(x).__module__.split(".")[0], bool(tf.executing_eagerly())))
        return x * 2

    with _functions_eagerly(tf):
        r = f(np.float32(3.0))
        f(np.float32(4.0))
        f(np.float32(4.0))
    call = "@tf.function f(np.float32) x3 under run_functions_eagerly(True)"
    assert_equal([s[0] for s in seen], ["numpy"] * 3, call=call, what="the argument's type's module per call")
    assert_equal([s[1] for s in seen], [True] * 3, call=call, what="tf.executing_eagerly() inside per call")
    assert_close(np.asarray(r), 6.0, call=call, what="result")
    assert_equal(f.experimental_get_tracing_count(), 0, call=call, what="experimental_get_tracing_count()")
    seen.clear()
    f(tf.constant(1.0))
    f(tf.constant(2.0))
    call = "the same f(tf.constant) x2 with the switch off again"
    assert_equal([s[1] for s in seen], [False], call=call, what="Python runs (traced once, replayed after)")
    assert_equal(f.experimental_get_tracing_count(), 1, call=call, what="experimental_get_tracing_count()")

    @tf.function(input_signature=[tf.TensorSpec([3], tf.float32)])
    def g(x):
        return float(np.sum(x.numpy())) + int(x[0])

    with _functions_eagerly(tf):
        out = g(tf.constant([1.0, 2.0]))
    assert_close(out, 4.0, call="g(2 elements) with input_signature [3] under the switch",
                 what="the Python's result (.numpy(), int(); the signature is not checked)")
    with pytest.raises((TypeError, ValueError)):
        g(tf.constant([1.0, 2.0]))   # off: the signature binds first


@clause("function.run-eagerly", ref="tf221")
def test_a_replica_function_runs_eagerly_under_strategy_run(backend, tf):
    strategy = backend.make_strategy("mirrored", 2)

    @tf.function
    def step(x):
        return x + int(x.numpy())   # needs the value: eager only

    with _functions_eagerly(tf):
        out = strategy.run(step, args=(tf.constant(3),))
    vals = [int(np.asarray(v)) for v in strategy.experimental_local_results(out)]
    assert_equal(vals, [6, 6], call="strategy.run(tf.function using x.numpy()) under the switch",
                 what="per-replica results")


@clause("function.run-eagerly", ref="tf221")
@pytest.mark.parametrize("switch", [False, True])
def test_keras_fit_steps_run_eagerly_under_the_switch(backend, keras, tf, switch):
    """Keras wraps its step in tf.function unless compile(run_eagerly=True); the switch makes that
    function run eagerly, so fit takes the eager branch where the two differ: an empty replica
    batch's loss is divide_no_nan(0, 0) = 0 inside the traced step, and the mean of no values
    (NaN) eagerly (clause keras.fit.traced-shapes)."""
    W0 = np.array([[0.5], [-1.0], [2.0]], dtype=np.float32)
    X = np.array([[1.0, 2.0, 0.5], [0.0, -1.0, 1.0], [2.0, 1.0, -1.0], [-0.5, 0.5, 1.5], [1.0, 0.0, 2.0]],
                 dtype=np.float32)
    Y = np.array([[1.0], [0.0], [2.0], [-1.0], [0.5]], dtype=np.float32)
    strategy = backend.make_strategy("mirrored", 2)
    with strategy.scope():
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, use_bias=False)])
        model.set_weights([W0])
        model.compile(optimizer=keras.optimizers.SGD(0.0), loss="mse")
    ctx = _functions_eagerly(tf) if switch else contextlib.nullcontext()
    with ctx:
        loss = model.fit(X, Y, batch_size=4, epochs=1, verbose=0, shuffle=False).history["loss"][0]
    call = f"fit(5 examples, batch 4) on Mirrored(2), compile(run_eagerly=False), run_functions_eagerly({switch})"
    if switch:
        assert_true(bool(np.isnan(loss)), f"the epoch loss should be NaN (eager step), got {loss}", call=call)
    else:
        per_example = ((X.astype(np.float64) @ W0 - Y) ** 2).ravel()
        assert_close(loss, per_example.mean(), call=call, what="History loss (traced step)")


@clause("function.executing-eagerly", ref="tf221")
def test_executing_eagerly_is_false_while_a_graph_is_traced(backend, tf):
    strategy = backend.make_strategy("mirrored", 2)
    seen: list[tuple[str, bool]] = [("top level", bool(tf.executing_eagerly()))]

    @tf.function
    def f(x):
        seen.append(("tf.function", bool(tf.executing_eagerly())))
        with tf.init_scope():
            seen.append(("tf.init_scope in tf.function", bool(tf.executing_eagerly())))
        return x

    f(tf.constant(1.0))

    def eager_replica(x):
        seen.append(("strategy.run replica, eager", bool(tf.executing_eagerly())))
        return x

    strategy.run(eager_replica, args=(tf.constant(1.0),))

    @tf.function
    def g(x):
        def replica(y):
            seen.append(("strategy.run replica in tf.function", bool(tf.executing_eagerly())))
            return y
        return strategy.run(replica, args=(x,))

    g(tf.constant(1.0))
    flags = []

    def mapped(x):
        flags.append(bool(tf.executing_eagerly()))
        return x

    list(tf.data.Dataset.range(2).map(mapped))
    seen.append(("tf.data map function", flags[0]))
    want = {"top level": True, "tf.function": False, "tf.init_scope in tf.function": True,
            "strategy.run replica, eager": True, "strategy.run replica in tf.function": False,
            "tf.data map function": False}
    for where, got in seen:
        assert_equal(got, want[where], call=f"tf.executing_eagerly() in {where}", what="result")
    assert_true(all(f is False for f in flags), f"every call of the map function should see False, got {flags}",
                call="tf.data.Dataset.range(2).map(fn)")


@clause("function.run-eagerly", ref="tf221")
def test_tf_data_functions_stay_traced_under_the_switch(tf):
    """The switch does not reach tf.data functions: building one warns (UserWarning naming
    `tf.data.experimental.enable_debug_mode()`) and its Python still runs as a trace."""
    flags: list[bool] = []

    def mapped(x):
        flags.append(bool(tf.executing_eagerly()))
        return x * 2

    with _functions_eagerly(tf):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ds = tf.data.Dataset.range(3).map(mapped)
        out = [int(np.asarray(v)) for v in ds]
    texts = [str(w.message) for w in caught if issubclass(w.category, UserWarning)]
    call = "Dataset.range(3).map(fn) under run_functions_eagerly(True)"
    assert_true(any("does not apply to tf.data functions" in t for t in texts),
                f"building the map should warn that the switch does not apply to tf.data functions; warnings: {texts}",
                call=call)
    assert_equal(out, [0, 2, 4], call=call, what="elements")
    assert_true(flags and not any(flags), f"the map function should see executing_eagerly() False, got {flags}",
                call=call)
