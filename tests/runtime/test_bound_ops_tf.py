"""Collectives and custom gradients as ops bound through dispatch (runtime/ops/collective.py,
runtime/ops/custom.py), differentially against TF 2.21: a custom-gradient op and the replica
collectives (all_reduce, all_gather) under nested tapes, inside a tf.function under a tape
(first call and replays) and inside strategy.run, values and gradients. Needs the `tf` extra
(or its golden, tests/goldens/).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import tf_workers
from diff_helpers import assert_same, make_strategy, normalise
from simdist import tf as sim_tf

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

# (name, clause, (strategy kind or None, replicas, program(tf, strategy)))
PROGRAMS: list[tuple[str, str, tuple[str | None, int, Callable[[Any, Any], Any]]]] = []


def program(name: str, clause: str, strategy: str | None = None, n: int = 1) -> Callable[[Any], Any]:
    def deco(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
        PROGRAMS.append((name, clause, (strategy, n, fn)))
        return fn
    return deco


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


def _outer_tape(collective: str) -> Callable[[Any, Any], Any]:
    """A tape around a tf.function whose strategy.run squares x (and all-reduces it)."""
    def prog(tf, s):
        @tf.function
        def fn(x):
            def rep(x):
                y = x * x
                if collective:
                    y = tf.distribute.get_replica_context().all_reduce("SUM", y)
                return y
            return s.run(rep, args=(x,))
        x = tf.constant([1.0, 2.0])
        with tf.GradientTape() as t:
            t.watch(x)
            z = tf.reduce_sum(s.experimental_local_results(fn(x))[0])
        return [z, t.gradient(z, x)]
    return prog


# (not yet as TF: see test_outer_tape_around_a_traced_run)
program("outer-tape-around-traced-run", "outer-tape", "mirrored", 2)(_outer_tape(""))
program("outer-tape-around-traced-run-all-reduce", "outer-tape", "mirrored", 2)(_outer_tape("all_reduce"))


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
_TF_STRATEGIES: dict[tuple[str, int], Any] = {}


def _strategy(tf: Any, kind: str, n: int) -> Any:
    """simdist: a fresh machine and strategy per program. TF: one strategy per (kind, replicas) in
    the worker process (a second MirroredStrategy's all_gather after the first's collectives
    fails there with InternalError: its collective keys collide)."""
    if tf is sim_tf:
        return make_strategy(tf, kind, n)
    if (kind, n) not in _TF_STRATEGIES:
        _TF_STRATEGIES[kind, n] = make_strategy(tf, kind, n)
    return _TF_STRATEGIES[kind, n]


def run(tf: Any, k: int) -> Any:
    _name, _clause, (kind, n, fn) = PROGRAMS[k]
    try:
        s = _strategy(tf, kind, n) if kind is not None else None
        if s is None and tf is sim_tf:
            import simdist
            simdist.reset()
        return normalise(fn(tf, s))
    except Exception as e:  # noqa: BLE001 - the exception class is part of the result
        return ("error", type(e).__name__, str(e)[:200])


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as real_tf
    cpu = real_tf.config.list_physical_devices("CPU")[0]
    real_tf.config.set_logical_device_configuration(cpu, [real_tf.config.LogicalDeviceConfiguration()] * 4)
    return {i: run(real_tf, i) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(PROGRAMS))))


def _check(k: int, tf_results: dict[int, Any]) -> None:
    want = tf_results[k]
    assert not (isinstance(want, tuple) and want and want[0] == "error"), f"TF 2.21 raised {want!r} [{PROGRAMS[k][0]}]"
    got = run(sim_tf, k)
    assert_same(got, want, PROGRAMS[k][0], rtol=1e-6)


def _of(clause: str) -> Any:
    ks = [k for k, p in enumerate(PROGRAMS) if p[1] == clause]
    return pytest.mark.parametrize("k", ks, ids=[PROGRAMS[k][0] for k in ks])


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
@pytest.mark.xfail(strict=True, reason="not done: a tape around a tf.function whose strategy.run computes sees the "
                   "replicas' ops on TF 2.21 (the function graph's gradient: d/dx sum(x*x) = 2x) and raises "
                   "RuntimeError 'Mismatching tf.distribute.Strategy objects' when they all-reduce; simdist's "
                   "replicas keep their own tapes there as eagerly, so the gradient is None (docs/spec.md, "
                   "function.trace-under-tape-and-in-run)")
def test_outer_tape_around_a_traced_run(k: int, tf_results: dict[int, Any]) -> None:
    want, got = tf_results[k], run(sim_tf, k)
    if isinstance(want, tuple) and want and want[0] == "error":
        assert isinstance(got, tuple) and got[:2] == want[:2], f"simdist gave {got!r}, but TF 2.21 raised {want!r}"
        return
    assert_same(got, want, PROGRAMS[k][0], rtol=1e-6)


def test_every_program_is_checked_under_its_clause() -> None:
    tested = {"autodiff.custom-gradient", "function.trace-under-tape-and-in-run", "replica.all-reduce-gradient",
              "replica.all-gather-gradient", "outer-tape"}
    stray = sorted({c for _, c, _ in PROGRAMS} - tested)
    assert not stray, f"programs under clauses {stray} have no test function: add one"


def test_results_are_not_trivial() -> None:
    """The programs' gradients are not all None or zero on simdist (a test that could not fail
    otherwise: a dropped gradient would agree with a dropped gradient)."""
    for k, (name, clause, _) in enumerate(PROGRAMS):
        if clause == "outer-tape":
            continue   # (its gradient is None on simdist: not yet as TF)
        got = run(sim_tf, k)
        arrays = [a for a in _arrays(got)]
        assert arrays and any(np.any(a != 0) for a in arrays), f"{name} gave {got!r}, but should hold gradients"


def _arrays(x: Any) -> Any:
    if isinstance(x, tuple) and x and x[0] == "Tensor":
        yield x[3]
    elif isinstance(x, tuple) and x and x[0] == "error":
        raise AssertionError(f"raised {x!r}")
    elif isinstance(x, tuple):
        for v in x:
            yield from _arrays(v)


if __name__ == "__main__":  # TF worker: python test_bound_ops_tf.py 0,1,2 -> pickled results
    tf_workers.serve(_tf_worker)
