"""Collectives and custom gradients as ops bound through dispatch (runtime/ops/collective.py,
runtime/ops/custom.py), differentially against TF 2.21: a custom-gradient op and the replica
collectives (all_reduce, all_gather) under nested tapes, inside a tf.function under a tape
(first call and replays) and inside strategy.run, values and gradients; and a tape around a
tf.function whose strategy.run computes (the function graph's gradient through the replicas, TF's
RuntimeError where it meets a collective). Needs the `tf` extra (or its golden, tests/goldens/).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import tf_workers
from program_suite import ProgramSuite, is_error
from simdist import tf as sim_tf

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

# (TF: one strategy per (kind, replicas) in the worker process: a second MirroredStrategy's
# all_gather after the first's collectives fails there with InternalError, its keys colliding)
SUITE = ProgramSuite(__file__, share_strategies=True)
PROGRAMS = SUITE.programs
program = SUITE.program


def _clipped_square(tf: Any) -> Any:
    """x*x whose gradient is clipped to [-1, 1] (not the derivative: the user's grad_fn shows)."""
    @tf.custom_gradient
    def clipped_square(x: Any) -> Any:
        def grad(dy: Any) -> Any:
            return tf.clip_by_value(dy * 2.0 * x, -1.0, 1.0)
        return x * x, grad
    return clipped_square


def _locals(s: Any, out: Any) -> list[Any]:
    return list(s.experimental_local_results(out))


# --- a custom-gradient op ----------------------------------------------------------------------------------
@program("custom-nested-tapes", "autodiff.custom-gradient")
def _p(tf, s):
    f = _clipped_square(tf)
    x = tf.constant([0.3, -2.0, 0.1])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(f(x) * tf.constant([1.0, 1.0, 4.0]))
        g = inner.gradient(y, x)
    return [y, g, outer.gradient(g, x)]


@program("custom-in-function-under-tape", "function.trace-under-tape-and-in-run")
def _p(tf, s):
    f = _clipped_square(tf)

    @tf.function
    def fn(x):
        return tf.reduce_sum(f(x * 3.0))
    out = []
    for xs in ([0.1, 0.2], [-1.0, 0.05], [0.1, 0.2], [0.3, -0.01]):   # (two signatures' replays among them)
        x = tf.constant(xs)
        with tf.GradientTape() as t:
            t.watch(x)
            y = fn(x)
        out.append([y, t.gradient(y, x)])
    out.append([fn(tf.constant([0.5, 0.25]))])   # without a tape: the recorded graph
    return out


@program("custom-with-variable-in-run", "autodiff.custom-gradient", "mirrored", 2)
def _p(tf, s):
    with s.scope():
        v = tf.Variable([1.5, -0.5])

    @tf.custom_gradient
    def scaled(x):
        def grad(dy, variables=None):
            return dy * v, [tf.reduce_sum(dy * x) * tf.ones_like(v) * 0.5]
        return x * v, grad

    def rep():
        ctx = tf.distribute.get_replica_context()
        x = (tf.cast(ctx.replica_id_in_sync_group, tf.float32) + 1.0) * tf.constant([0.2, -0.3])
        with tf.GradientTape() as t:
            t.watch(x)
            z = tf.reduce_sum(scaled(x))
        return t.gradient(z, [x, v])
    return [_locals(s, g) for g in s.run(rep)]


# --- collectives ---------------------------------------------------------------------------------------------
@program("custom-and-all-reduce-in-run", "replica.all-reduce-gradient", "mirrored", 2)
def _p(tf, s):
    f = _clipped_square(tf)

    def rep():
        ctx = tf.distribute.get_replica_context()
        x = (tf.cast(ctx.replica_id_in_sync_group, tf.float32) + 1.0) * tf.constant([0.2, -0.3])
        with tf.GradientTape() as t:
            t.watch(x)
            y = ctx.all_reduce("SUM", f(x))
            z = tf.reduce_sum(y * tf.constant([1.0, 2.0]))
        return [y, t.gradient(z, x)]
    return [_locals(s, v) for v in s.run(rep)]


@program("all-reduce-mean-nested-tapes", "replica.all-reduce-gradient", "mirrored", 2)
def _p(tf, s):
    def rep():
        ctx = tf.distribute.get_replica_context()
        x = (tf.cast(ctx.replica_id_in_sync_group, tf.float32) + 1.0) * tf.constant([1.0, 2.0])
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                z = tf.reduce_sum(ctx.all_reduce("MEAN", x * x * x))
            g = inner.gradient(z, x)
        return [g, outer.gradient(g, x)]
    return [_locals(s, v) for v in s.run(rep)]


@program("all-reduce-in-function-replays", "replica.all-reduce-gradient", "mirrored", 2)
def _p(tf, s):
    f = _clipped_square(tf)

    @tf.function
    def step(w):
        def rep(w):
            ctx = tf.distribute.get_replica_context()
            x = (tf.cast(ctx.replica_id_in_sync_group, tf.float32) + 1.0) * w
            with tf.GradientTape() as t:
                t.watch(x)
                y = ctx.all_reduce("MEAN", f(x))
                z = tf.reduce_sum(y * tf.constant([1.0, 2.0]))
            return t.gradient(z, x)
        return s.run(rep, args=(w,))
    return [_locals(s, step(tf.constant(ws))) for ws in ([0.2, -0.3], [0.4, 0.1], [0.2, -0.3], [-0.9, 0.6])]


@program("function-under-tape-in-run", "function.trace-under-tape-and-in-run", "mirrored", 2)
def _p(tf, s):
    f = _clipped_square(tf)

    @tf.function
    def g2(x):
        return tf.reduce_sum(f(x) * 2.0)

    def rep(w):
        ctx = tf.distribute.get_replica_context()
        x = (tf.cast(ctx.replica_id_in_sync_group, tf.float32) + 1.0) * w
        with tf.GradientTape() as t:
            t.watch(x)
            y = g2(x)
        return t.gradient(y, x)
    return [_locals(s, s.run(rep, args=(tf.constant(ws),))) for ws in ([0.2, -0.3], [0.6, 0.05], [0.2, -0.3])]


# --- a tape around a tf.function whose strategy.run computes: TF differentiates the function's graph,
# which holds the replicas' ops (runtime/function_tapes.py) --------------------------------------------------
def _outer_tape(collective: str) -> Callable[[Any, Any], Any]:
    """A tape around a tf.function whose strategy.run squares x (and all-reduces or all-gathers
    it: TF raises building the call's backward function, the collective's gradient running
    outside its replica)."""
    def prog(tf, s):
        @tf.function
        def fn(x):
            def rep(x):
                y = x * x
                ctx = tf.distribute.get_replica_context()
                if collective == "all_reduce":
                    y = ctx.all_reduce("SUM", y)
                elif collective == "all_gather":
                    y = ctx.all_gather(y, axis=0)
                return y
            return s.run(rep, args=(x,))
        x = tf.constant([1.0, 2.0])
        with tf.GradientTape() as t:
            t.watch(x)
            z = tf.reduce_sum(s.experimental_local_results(fn(x))[0])
        return [z, t.gradient(z, x)]
    return prog


program("outer-tape-around-traced-run", "outer-tape", "mirrored", 2)(_outer_tape(""))
program("outer-tape-around-traced-run-all-reduce", "outer-tape", "mirrored", 2)(_outer_tape("all_reduce"))
program("outer-tape-around-traced-run-all-gather", "outer-tape", "mirrored", 2)(_outer_tape("all_gather"))


def _cube_run(tf: Any, s: Any) -> Any:
    @tf.function
    def fn(x):
        return s.run(lambda x: x * x * x, args=(x,))
    return fn


@program("outer-persistent-tape-two-calls", "outer-tape", "mirrored", 2)
def _p(tf, s):
    """Three calls of one signature under one persistent tape (the first records, the others
    run the Python again, the tape seeing into the replicas each time)."""
    fn = _cube_run(tf, s)
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        a = tf.reduce_sum(s.experimental_local_results(fn(x))[0])
        b = tf.reduce_sum(s.experimental_local_results(fn(x * 2.0))[1])
        c = tf.reduce_sum(s.experimental_local_results(fn(x + 1.0))[0]) * a
    return [a, b, c, t.gradient(a, x), t.gradient(b, x), t.gradient(c, x)]


@program("outer-nested-tapes-second-order", "outer-tape", "mirrored", 2)
def _p(tf, s):
    fn = _cube_run(tf, s)
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            z = tf.reduce_sum(s.experimental_local_results(fn(x))[0])
        g = inner.gradient(z, x)
    return [g, outer.gradient(g, x)]


@program("outer-tape-mirrored-variable-read-in-run", "outer-tape", "mirrored", 2)
def _p(tf, s):
    """The function's gradient w.r.t. a MirroredVariable each replica reads (TF: its primary
    copy's, the first replica's reads)."""
    with s.scope():
        v = tf.Variable([0.5, -1.0])

    @tf.function
    def fv(x):
        return s.run(lambda x: v * x * v, args=(x,))
    out = []
    for xs in ([1.0, 2.0], [3.0, 1.0]):
        with tf.GradientTape() as t:
            y = s.experimental_local_results(fv(tf.constant(xs)))
            z = tf.reduce_sum(y[0]) + 2.0 * tf.reduce_sum(y[1])
        out.append([z, t.gradient(z, v)])
    return out


def _all_reduce_run(tf: Any, s: Any, watch: bool) -> Any:
    """A tape (watching x or not) around a tf.function whose strategy.run all-reduces x*x."""
    @tf.function
    def fr(x):
        return s.run(lambda x: tf.distribute.get_replica_context().all_reduce("SUM", x * x), args=(x,))
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as t:
        if watch:
            t.watch(x)
        z = tf.reduce_sum(s.experimental_local_results(fr(x))[0])
    return [z, t.gradient(z, x)]


@program("outer-tape-unwatched-all-reduce", "outer-tape", "mirrored", 2)
def _p(tf, s):
    """A tape that watches nothing the function reads: no backward function, no error."""
    return _all_reduce_run(tf, s, watch=False)


@program("outer-tape-all-reduce-in-scope", "outer-tape", "mirrored", 2)
def _p(tf, s):
    """Called in cross-replica context (the strategy's scope): TF's other require_replica_context error."""
    with s.scope():
        return _all_reduce_run(tf, s, watch=True)


def _run_of_a_function(collective: bool) -> Callable[[Any, Any], Any]:
    """A tape around an eager strategy.run of a tf.function (TF's mirrored_run runs its replicas
    inside one tf.function, so the tape sees into them; a run of a plain function it does not:
    test_autodiff_differential_tf.py's outer-tape-around-run), with an all-reduce inside or not."""
    def prog(tf, s):
        with s.scope():
            v = tf.Variable([0.5, -1.0])
            w = tf.Variable(2.0)

        @tf.function
        def f(x):
            y = x * x * v * w
            return tf.distribute.get_replica_context().all_reduce("SUM", y) if collective else y
        x = tf.constant([1.0, 2.0])
        with tf.GradientTape() as t:
            t.watch(x)
            y = s.experimental_local_results(s.run(f, args=(x,)))
            z = tf.reduce_sum(y[0] + 3.0 * y[1])
        return [z, t.gradient(z, [x, v, w])]
    return prog


program("outer-tape-around-run-of-a-traced-function", "outer-tape", "mirrored", 2)(_run_of_a_function(False))
program("outer-tape-around-run-of-a-traced-function-all-reduce", "outer-tape", "mirrored", 2)(_run_of_a_function(True))


def _all_gather(axis: int) -> Callable[[Any, Any], Any]:
    def prog(tf, s):
        def rep():
            ctx = tf.distribute.get_replica_context()
            r = tf.cast(ctx.replica_id_in_sync_group, tf.float32)
            x = (r + 1.0) * tf.constant([[1.0, 2.0], [3.0, 4.0]])
            n = ctx.num_replicas_in_sync
            shape = [2 * n, 2] if axis == 0 else [2, 2 * n]
            with tf.GradientTape() as t:
                t.watch(x)
                y = ctx.all_gather(x * x, axis=axis)
                z = tf.reduce_sum(y * tf.reshape(tf.range(4 * n, dtype=tf.float32), shape))
            return [y, t.gradient(z, x)]
        return [_locals(s, v) for v in s.run(rep)]
    return prog


for _axis in (0, 1):
    program(f"all-gather-axis{_axis}-in-run", "replica.all-gather-gradient", "mirrored", 2)(_all_gather(_axis))
program("all-gather-one-replica", "replica.all-gather-gradient", "mirrored", 1)(_all_gather(0))


@program("all-gather-list-in-function", "replica.all-gather-gradient", "mirrored", 2)
def _p(tf, s):
    @tf.function
    def step(w):
        def rep(w):
            ctx = tf.distribute.get_replica_context()
            x = (tf.cast(ctx.replica_id_in_sync_group, tf.float32) + 1.0) * w
            with tf.GradientTape() as t:
                t.watch(x)
                a, b = ctx.all_gather([x, x * x], axis=0)
                z = tf.reduce_sum(a * tf.constant([1.0, 2.0, 3.0, 4.0])) + tf.reduce_sum(b)
            return t.gradient(z, x)
        return s.run(rep, args=(w,))
    return [_locals(s, step(tf.constant(ws))) for ws in ([0.5, -1.0], [2.0, 0.25], [0.5, -1.0])]


# --- running ----------------------------------------------------------------------------------------------------------
def run(tf: Any, k: int) -> Any:
    return SUITE.run(tf, k)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return SUITE.tf_results()


def _check(k: int, tf_results: dict[int, Any]) -> None:
    SUITE.check(k, tf_results, rtol=1e-6, message=True)


_of = SUITE.of


@pytest.mark.clause("autodiff.custom-gradient")
@_of("autodiff.custom-gradient")
def test_custom_gradient_op_same_as_tf(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


@pytest.mark.clause("function.trace-under-tape-and-in-run")
@_of("function.trace-under-tape-and-in-run")
def test_bound_ops_in_functions_same_as_tf(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


@pytest.mark.clause("replica.all-reduce-gradient")
@_of("replica.all-reduce-gradient")
def test_all_reduce_op_same_as_tf(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


@pytest.mark.clause("replica.all-gather-gradient")
@_of("replica.all-gather-gradient")
def test_all_gather_op_same_as_tf(k: int, tf_results: dict[int, Any]) -> None:
    _check(k, tf_results)


@pytest.mark.clause("function.trace-under-tape-and-in-run")
@_of("outer-tape")
def test_outer_tape_around_a_traced_run(k: int, tf_results: dict[int, Any]) -> None:
    """A tape around a tf.function whose strategy.run computes: the function graph's gradient,
    through the replicas' ops; TF's RuntimeError where that gradient meets a collective."""
    _check(k, tf_results)


def test_every_program_is_checked_under_its_clause() -> None:
    stray = SUITE.stray_clauses({"autodiff.custom-gradient", "function.trace-under-tape-and-in-run",
                                 "replica.all-reduce-gradient", "replica.all-gather-gradient", "outer-tape"})
    assert not stray, f"programs under clauses {stray} have no test function: add one"


def test_results_are_not_trivial(tf_results: dict[int, Any]) -> None:
    """The programs' gradients are not all None or zero on simdist (a test that could not fail
    otherwise: a dropped gradient would agree with a dropped gradient); a program that raises
    raises on TF 2.21 too."""
    for k, (name, _clause, _) in enumerate(PROGRAMS):
        got = run(sim_tf, k)
        if is_error(got):
            assert is_error(tf_results[k]), f"{name} raised {got!r}, but TF 2.21 gives {tf_results[k]!r}"
            continue
        arrays = [a for a in _arrays(got)]
        assert arrays and any(np.any(a != 0) for a in arrays), f"{name} gave {got!r}, but should hold gradients"


def _arrays(x: Any) -> Any:
    if isinstance(x, tuple) and x and x[0] == "Tensor":
        yield x[3]
    elif isinstance(x, tuple):
        for v in x:
            yield from _arrays(v)


if __name__ == "__main__":  # TF worker: python test_bound_ops_tf.py 0,1,2 -> pickled results
    SUITE.serve()
