"""GradientTape's semantics, differentially: each program runs on real TF 2.21 and on simdist,
and values, dtypes, structures, None-ness and exception classes must agree.

Covers the rules of docs/spec.md's `autodiff.*` clauses: watching (tensors, variables, accessed
trainable variables, watch_accessed_variables=False), persistent and one-shot tapes,
stop_recording, reset, nested targets and sources, non-scalar and multiple targets,
output_gradients, unconnected_gradients, integer sources and targets, stop_gradient,
custom_gradient (with variables), higher-order tapes, jacobian and batch_jacobian, IndexedSlices
from gather, and tapes inside and around `strategy.run`. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import tf_workers
from diff_helpers import normalise
from program_suite import ProgramSuite

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _normalise_deep(x: Any) -> Any:
    if isinstance(x, str):
        return ("py", "str", x)
    if isinstance(x, (list, tuple)) and x and isinstance(x[0], str) and x[0] in ("raised", "no error"):
        return ("py", "str", repr(tuple(x)))
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, tuple(_normalise_deep(v) for v in x))
    if isinstance(x, dict):
        return ("dict", tuple((k, _normalise_deep(x[k])) for k in sorted(x)))
    return normalise(x)


SUITE = ProgramSuite(__file__, normalise=_normalise_deep)
PROGRAMS = SUITE.programs   # (name, clause, (strategy kind or None, replicas, program(tf, strategy_or_None)))
program = SUITE.program


def _err(fn: Callable[[], Any]) -> Any:
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - the class is the result
        return ("raised", type(e).__name__)
    return ("no error",)


# --- watching ---------------------------------------------------------------------------------------------
@program("watch-tensor", "autodiff.watch")
def _p(tf, s):
    x = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(x * x * x)
    return t.gradient(y, x)


@program("unwatched-tensor-is-none", "autodiff.watch")
def _p(tf, s):
    x = tf.constant(2.0)
    with tf.GradientTape() as t:
        y = x * x
    return [t.gradient(y, x)]


@program("trainable-variable-watched", "autodiff.watch")
def _p(tf, s):
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    w = tf.Variable(3.0, trainable=False)
    with tf.GradientTape() as t:
        y = tf.reduce_sum(v * w)
    return [t.gradient(y, [v, w]), len(t.watched_variables())]


@program("watch-accessed-false", "autodiff.watch")
def _p(tf, s):
    v = tf.Variable(2.0)
    w = tf.Variable(5.0)
    with tf.GradientTape(watch_accessed_variables=False, persistent=True) as t:
        t.watch(v)
        y = v ** 2
        z = w ** 3
    return [t.gradient(y, v), t.gradient(z, w), [x.numpy() for x in t.watched_variables()]]


@program("watch-nested-and-non-tensor", "autodiff.watch")
def _p(tf, s):
    x, y = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as t:
        t.watch({"a": x, "b": [y]})
        z = x * y
    out = t.gradient(z, {"b": [y], "a": x})

    def watch_a_float() -> None:
        with tf.GradientTape() as tape:   # (exited: a tape left open would record every later op)
            tape.watch([1.0])
    return [out, _err(watch_a_float)]


@program("int-watch-and-targets", "autodiff.integer")
def _p(tf, s):
    xi = tf.constant(3)
    with tf.GradientTape(persistent=True) as t:
        t.watch(xi)
        yi = xi * xi
        xf = tf.cast(xi, tf.float32)
        yf = xf * 2.0
    return [t.gradient(yi, xi), t.gradient(yf, xi), t.gradient(xf, xi), t.gradient(xi, xi)]


# --- the tape's life -----------------------------------------------------------------------------------------
@program("one-shot-tape", "autodiff.persistent")
def _p(tf, s):
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
    g = t.gradient(y, x)
    return [g, _err(lambda: t.gradient(y, x))]


@program("persistent-tape", "autodiff.persistent")
def _p(tf, s):
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as g:
        g.watch(x)
        y = x * x
        z = y * y
    return [g.gradient(z, x), g.gradient(y, x)]


@program("gradient-inside-context", "autodiff.persistent")
def _p(tf, s):
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = x * x
        g = t.gradient(y, x)
        z = g * x           # not recorded: a one-shot tape stopped recording at gradient()
    return [g, z]


@program("reenter-raises", "autodiff.persistent")
def _p(tf, s):
    x = tf.constant(1.0)

    def f():
        with tf.GradientTape() as t:
            t.watch(x)
            with t:
                pass
    return [_err(f)]


@program("stop-recording", "autodiff.stop-recording")
def _p(tf, s):
    x = tf.constant(4.0)
    with tf.GradientTape() as t:
        t.watch(x)
        with t.stop_recording():
            y = x ** 2
        z = x * 2.0
    return [t.gradient([y, z], x), _err(lambda: tf.GradientTape().stop_recording().__enter__())]


@program("reset", "autodiff.stop-recording")
def _p(tf, s):
    v = tf.Variable(1.0)
    with tf.GradientTape() as t:
        y = v * 2.0
        t.reset()
        z = v * 3.0 + y
    return t.gradient(z, v)


# --- targets and sources --------------------------------------------------------------------------------------
@program("nonscalar-and-multiple-targets", "autodiff.targets")
def _p(tf, s):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * 3.0
    return [t.gradient(x, x), t.gradient([y, y], x), t.gradient({"a": y, "b": (y * y,)}, x)]


@program("output-gradients", "autodiff.targets")
def _p(tf, s):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * 3.0
        z = x * x
    return [t.gradient(y, x, output_gradients=tf.constant([1.0, 10.0])),
            t.gradient([y, z], x, output_gradients=[tf.constant([1.0, 1.0]), None])]


@program("sources-structure-kept", "autodiff.targets")
def _p(tf, s):
    a, b, c = tf.Variable(1.0), tf.Variable(2.0), tf.Variable(3.0)
    with tf.GradientTape() as t:
        y = a * b + c
    return t.gradient(y, {"first": (a, [b]), "second": c})


@program("unconnected", "autodiff.unconnected")
def _p(tf, s):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * 3.0
    return [t.gradient(y, tf.constant(1.0)),
            t.gradient(y, [x, tf.constant([1.0, 2.0])], unconnected_gradients=tf.UnconnectedGradients.ZERO),
            t.gradient(y, tf.constant([5.0]), unconnected_gradients="zero"),
            _err(lambda: t.gradient(y, x, unconnected_gradients="bogus"))]


@program("none-target", "autodiff.targets")
def _p(tf, s):
    x = tf.constant(1.0)
    with tf.GradientTape() as t:
        t.watch(x)
    return [_err(lambda: t.gradient(None, x))]


@program("variable-target", "autodiff.targets")
def _p(tf, s):
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as t:
        _ = v * 1.0
    return t.gradient(v, v)


@program("cast-to-int-cuts", "autodiff.integer")
def _p(tf, s):
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.cast(tf.cast(x, tf.int32), tf.float32) * x
    return t.gradient(y, x)


# --- stop_gradient, custom_gradient, higher order ----------------------------------------------------------------
@program("stop-gradient", "autodiff.stop-gradient")
def _p(tf, s):
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.stop_gradient(x) * x
    return t.gradient(y, x)


@program("stop-gradient-not-recorded", "autodiff.stop-gradient")
def _p(tf, s):
    """The tape does not record StopGradient, so ops on its output are not recorded: a Unique
    (no gradient registered) after it is never walked (fuzzer, seed 20261201 #1276, seed 20261130 #1891)."""
    x = tf.Variable([1.0, 2.0, 2.0])
    with tf.GradientTape() as t:
        u = tf.unique(tf.stop_gradient(x) * 2.0)[0]
        y = tf.reduce_sum(u) + tf.reduce_sum(x * x)
    return t.gradient(y, x)


@program("identity-then-unique-recorded", "autodiff.stop-gradient")
def _p(tf, s):
    x = tf.Variable([1.0, 2.0, 2.0])
    with tf.GradientTape() as t:
        u = tf.unique(tf.identity(x))[0]
        y = tf.reduce_sum(u) + tf.reduce_sum(x)
    return t.gradient(y, x)


@program("custom-gradient", "autodiff.custom-gradient")
def _p(tf, s):
    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)

        def grad(upstream):
            return upstream * (1 - 1 / (1 + e))
        return tf.math.log(1 + e), grad
    x = tf.constant([0.0, 5.0, 100.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(log1pexp(x))
    return t.gradient(y, x)


@program("custom-gradient-two-inputs", "autodiff.custom-gradient")
def _p(tf, s):
    @tf.custom_gradient
    def bar(x, y):
        def grad(upstream):
            return upstream * y * 2.0, upstream * x
        return x * y, grad
    x, y = tf.constant(2.0), tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch([x, y])
        z = bar(x, y)
    return t.gradient(z, [x, y])


@program("custom-gradient-variables", "autodiff.custom-gradient")
def _p(tf, s):
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def scale(x):
        def grad(upstream, variables=None):
            return upstream * v * 10.0, [upstream * x * 100.0]
        return x * v, grad
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        z = scale(x)
    return t.gradient(z, [x, v])


@program("custom-gradient-needs-variables-kw", "autodiff.custom-gradient")
def _p(tf, s):
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def scale(x):
        return x * v, lambda upstream: upstream
    return [_err(lambda: scale(tf.constant(1.0)))]


@program("second-order", "autodiff.higher-order")
def _p(tf, s):
    x = tf.constant(5.0)
    with tf.GradientTape() as g:
        g.watch(x)
        with tf.GradientTape() as gg:
            gg.watch(x)
            y = x * x * x
        dy = gg.gradient(y, x)
    return [dy, g.gradient(dy, x)]


@program("persistent-self-second-order", "autodiff.higher-order")
def _p(tf, s):
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = tf.exp(x) * x
        dy = t.gradient(y, x)
    return [dy, t.gradient(dy, x)]


# --- jacobians ---------------------------------------------------------------------------------------------------
@program("jacobian", "autodiff.jacobian")
def _p(tf, s):
    x = tf.constant([1.0, 2.0])
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as g:
        g.watch(x)
        y = tf.matmul(tf.reshape(x * x, [1, 2]), v)
    return g.jacobian(y, [x, v])


@program("jacobian-unconnected", "autodiff.jacobian")
def _p(tf, s):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as g:
        g.watch(x)
        y = x * 2.0
    return [g.jacobian(y, tf.constant([3.0])), g.jacobian(y, tf.constant([3.0]), unconnected_gradients="zero")]


@program("batch-jacobian", "autodiff.jacobian")
def _p(tf, s):
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as g:
        g.watch(x)
        y = tf.concat([x * x, x[:, :1] * 3.0], axis=1)
    return g.batch_jacobian(y, x)


# --- IndexedSlices -------------------------------------------------------------------------------------------------
@program("gather-indexed-slices", "autodiff.indexed-slices")
def _p(tf, s):
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    with tf.GradientTape(persistent=True) as t:
        a = tf.reduce_sum(tf.gather(v, [2, 0, 2]) * tf.constant([[1.0], [2.0], [3.0]]))
        b = tf.reduce_sum(tf.nn.embedding_lookup(v, [[1, 1]]))
        c = a + b
        d = a + tf.reduce_sum(v * 1.0)
    return [t.gradient(a, v), t.gradient(b, v), t.gradient(c, v), t.gradient(d, v),
            tf.convert_to_tensor(t.gradient(c, v))]


@program("gather-tensor-axis1", "autodiff.indexed-slices")
def _p(tf, s):
    x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(tf.gather(x, [2, 2, 0], axis=1))
    return t.gradient(y, x)


@program("indexed-slices-source-refused", "autodiff.indexed-slices")
def _p(tf, s):
    v = tf.Variable([[1.0], [2.0]])
    with tf.GradientTape(persistent=True) as t:
        y = tf.reduce_sum(tf.gather(v, [1]))
    g = t.gradient(y, v)
    return [_err(lambda: t.gradient(y, g))]


# --- tapes and strategy.run ------------------------------------------------------------------------------------------
def _replica_grads(tf, s):
    with s.scope():
        v = tf.Variable(2.0)

    def step(x):
        with tf.GradientTape() as t:
            y = v * v * x
        return t.gradient(y, v)
    ctx_vals = s.experimental_distribute_values_from_function(
        lambda c: tf.constant(float(c.replica_id_in_sync_group) + 1.0))
    return s.experimental_local_results(s.run(step, args=(ctx_vals,)))


for _kind, _n in (("mirrored", 1), ("mirrored", 2), ("central_storage", 2), ("one_device", 1), ("default", 1)):
    program(f"tape-in-run-{_kind}-{_n}", "autodiff.strategy-run", _kind, _n)(_replica_grads)


def _outer_tape(tf, s):
    with s.scope():
        v = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        out = s.run(lambda: v * v)
        loss = s.reduce("SUM", out, axis=None)
    return [tape.gradient(loss, v)]


for _kind, _n in (("mirrored", 1), ("mirrored", 2), ("central_storage", 1), ("one_device", 1), ("default", 1)):
    program(f"outer-tape-around-run-{_kind}-{_n}", "autodiff.strategy-run", _kind, _n)(_outer_tape)


def _watched_in_run(tf, s):
    with s.scope():
        v = tf.Variable(2.0)

    def fn():
        with tf.GradientTape() as t:
            y = v * v
        return [type(w).__name__ for w in t.watched_variables()]
    return s.experimental_local_results(s.run(fn))


for _kind, _n in (("mirrored", 2), ("one_device", 1)):
    program(f"watched-in-run-{_kind}-{_n}", "autodiff.strategy-run", _kind, _n)(_watched_in_run)


# --- running ----------------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return SUITE.tf_results()


def _check(k: int, tf_results: dict[int, Any]) -> None:
    SUITE.check(k, tf_results, rtol=1e-5)


_of = SUITE.of


@pytest.mark.clause("autodiff.watch")
@_of("autodiff.watch")
def test_watch_same_as_tf(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


@pytest.mark.clause("autodiff.integer")
@_of("autodiff.integer")
def test_integer_same_as_tf(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


@pytest.mark.clause("autodiff.persistent")
@_of("autodiff.persistent")
def test_persistent_same_as_tf(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


@pytest.mark.clause("autodiff.stop-recording")
@_of("autodiff.stop-recording")
def test_stop_recording_same_as_tf(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


@pytest.mark.clause("autodiff.targets")
@_of("autodiff.targets")
def test_targets_same_as_tf(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


@pytest.mark.clause("autodiff.unconnected")
@_of("autodiff.unconnected")
def test_unconnected_same_as_tf(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


@pytest.mark.clause("autodiff.stop-gradient")
@_of("autodiff.stop-gradient")
def test_stop_gradient_same_as_tf(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


@pytest.mark.clause("autodiff.custom-gradient")
@_of("autodiff.custom-gradient")
def test_custom_gradient_same_as_tf(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


@pytest.mark.clause("autodiff.higher-order")
@_of("autodiff.higher-order")
def test_higher_order_same_as_tf(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


@pytest.mark.clause("autodiff.jacobian")
@_of("autodiff.jacobian")
def test_jacobian_same_as_tf(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


@pytest.mark.clause("autodiff.indexed-slices")
@_of("autodiff.indexed-slices")
def test_indexed_slices_same_as_tf(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


@pytest.mark.clause("autodiff.strategy-run")
@_of("autodiff.strategy-run")
def test_strategy_run_same_as_tf(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


def test_every_program_is_checked_under_its_clause() -> None:
    stray = SUITE.stray_clauses({"autodiff.watch", "autodiff.integer", "autodiff.persistent", "autodiff.stop-recording",
                                 "autodiff.targets", "autodiff.unconnected", "autodiff.stop-gradient",
                                 "autodiff.custom-gradient", "autodiff.higher-order", "autodiff.jacobian",
                                 "autodiff.indexed-slices", "autodiff.strategy-run"})
    assert not stray, f"programs under clauses {stray} have no test function: add one"


if __name__ == "__main__":  # TF worker: python test_autodiff_differential_tf.py 0,1,2 -> pickled results
    SUITE.serve()
