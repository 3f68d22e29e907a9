"""Scopes and contexts — clauses scope.* (Strategy.scope docs; semantics §10)."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import (assert_equal, assert_true, assert_type_name, raises,
                                            to_numpy)
from simdist.conformance.repro import Program

clause = pytest.mark.clause

KINDS = [("mirrored", 2), ("central_storage", 2), ("one_device", 1), ("mirrored", 1)]
IDS = [f"{k}-{n}" for k, n in KINDS]


@clause("scope.current")
@pytest.mark.parametrize("kind,n", KINDS, ids=IDS)
def test_get_strategy_inside_and_outside(backend, tf, kind, n):
    strategy = backend.make_strategy(kind, n)
    call = f"{kind}({n}).scope()"
    assert_true(tf.distribute.get_strategy() is not strategy, "get_strategy() outside the scope is the strategy",
                call=call)
    assert_equal(tf.distribute.has_strategy(), False, what="has_strategy() outside", call=call)
    with strategy.scope():
        assert_true(tf.distribute.get_strategy() is strategy,
                    f"get_strategy() inside the scope is {tf.distribute.get_strategy()!r}, not the strategy", call=call)
        assert_equal(tf.distribute.has_strategy(), True, what="has_strategy() inside", call=call)
    assert_true(tf.distribute.get_strategy() is not strategy, "get_strategy() after the scope is still the strategy",
                call=call)


@clause("scope.current")
def test_outside_is_the_default_strategy(backend, tf):
    default = tf.distribute.get_strategy()
    assert_true(default is tf.distribute.get_strategy(), "get_strategy() outside any scope is not one object",
                call="tf.distribute.get_strategy()")
    assert_equal(default.num_replicas_in_sync, 1, what="default strategy num_replicas_in_sync")


@clause("scope.current", ref="tf221")
def test_same_scope_nests(backend, tf):
    strategy = backend.make_strategy("mirrored", 2)
    with strategy.scope():
        with strategy.scope():
            assert_true(tf.distribute.get_strategy() is strategy, "nested scope of the same strategy",
                        call="with s.scope(): with s.scope()")
        assert_true(tf.distribute.get_strategy() is strategy, "outer scope lost after inner exit",
                    call="with s.scope(): with s.scope()")


@clause("scope.cross-replica")
@pytest.mark.parametrize("kind,n", KINDS, ids=IDS)
def test_scope_is_cross_replica_context(backend, tf, kind, n):
    strategy = backend.make_strategy(kind, n)
    call = f"{kind}({n}).scope()"
    assert_equal(tf.distribute.in_cross_replica_context(), False, what="in_cross_replica_context() outside", call=call)
    with strategy.scope():
        assert_equal(tf.distribute.in_cross_replica_context(), True, what="in_cross_replica_context() inside", call=call)
        assert_true(tf.distribute.get_replica_context() is None,
                    "get_replica_context() inside the scope should be None (cross-replica context)", call=call)
    inside_run = strategy.run(lambda: tf.distribute.in_cross_replica_context())
    for v in strategy.experimental_local_results(inside_run):
        assert_equal(bool(to_numpy(v)), False, what="in_cross_replica_context() inside run", call=f"{kind}({n}).run")


@clause("scope.cross-replica", ref="tf221")
def test_default_replica_context_outside(backend, tf):
    ctx = tf.distribute.get_replica_context()
    assert_true(ctx is not None, "get_replica_context() outside any scope is None", call="get_replica_context()")
    assert_equal(ctx.replica_id_in_sync_group, 0, what="default replica_id_in_sync_group")
    assert_equal(ctx.num_replicas_in_sync, 1, what="default num_replicas_in_sync")


@clause("scope.auto-enter")
@pytest.mark.parametrize("kind,n", KINDS, ids=IDS)
def test_run_enters_the_scope(backend, tf, kind, n):
    strategy = backend.make_strategy(kind, n)
    out = strategy.run(lambda: tf.constant(1) if tf.distribute.get_strategy() is strategy else tf.constant(0))
    for v in strategy.experimental_local_results(out):
        assert_equal(v, np.int32(1), what="get_strategy() is strategy, inside run", call=f"{kind}({n}).run (no scope)")


@clause("scope.auto-enter")
@pytest.mark.parametrize("kind,n", [("mirrored", 2), ("central_storage", 2)])
def test_reduce_without_scope(backend, tf, kind, n):
    strategy = backend.make_strategy(kind, n)
    values = strategy.run(lambda: tf.constant(2.0))
    assert_equal(strategy.reduce("SUM", values, axis=None), np.float32(2.0 * n),
                 call=f"{kind}({n}).reduce outside any scope")


@clause("scope.auto-enter")
def test_variables_created_in_run_are_distributed(backend, tf):
    strategy = backend.make_strategy("mirrored", 2)
    v = strategy.run(lambda: tf.Variable(1.0))
    assert_equal(len(strategy.experimental_local_results(v)), 2, what="components of a variable created in run",
                 call="mirrored(2).run(lambda: tf.Variable(1.0))")


@clause("scope.mixing", ref="tf221")
def test_entering_another_strategy_scope_raises(backend, tf):
    outer = backend.make_strategy("mirrored", 2)
    inner = backend.make_strategy("central_storage", 2)
    with outer.scope():
        with raises(RuntimeError, match="Mixing different tf.distribute.Strategy objects",
                    call="with mirrored.scope(): with central_storage.scope()"):
            with inner.scope():
                pass
    assert_true(tf.distribute.get_strategy() is not outer, "the failed nesting left the outer scope entered",
                call="after the mixing error")


@clause("scope.mixing", ref="tf221")
def test_reduce_inside_another_scope_raises(backend, tf):
    a = backend.make_strategy("mirrored", 2)
    b = backend.make_strategy("central_storage", 2)
    values = a.run(lambda: tf.constant(1.0))
    with b.scope():
        with raises(RuntimeError, match="Mixing different tf.distribute.Strategy objects",
                    call="with central_storage.scope(): mirrored.reduce(...)"):
            a.reduce("SUM", values, axis=None)


@clause("scope.variables-captured")
@pytest.mark.parametrize("kind,n", KINDS, ids=IDS)
def test_variable_usable_outside_scope(backend, tf, kind, n):
    prog = Program(backend, """
strategy = backend.make_strategy(kind, n)
with strategy.scope():
    v = tf.Variable(1.0)
v.assign(3.0)
v.assign_add(2.0)
value = v.read_value()
components = strategy.experimental_local_results(v)
""", kind=kind, n=n)
    ns = prog.run()
    call = f"{kind}({n}): variable from scope, assign/assign_add outside"
    assert_equal(ns["value"], np.float32(5.0), what="read_value()", call=call)
    for i, c in enumerate(ns["components"]):
        assert_equal(c, np.float32(5.0), what=f"component {i}", call=call)


@clause("scope.outside-not-distributed")
def test_doc_regular_variable(backend, tf):
    prog = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    mirrored_variable = tf.Variable(1.)
regular_variable = tf.Variable(1.)
""")
    ns = prog.run()
    assert_equal(repr(ns["regular_variable"]), "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>",
                 what="repr(regular_variable)", call="tf.Variable(1.) outside any scope")
    assert_equal(len(ns["strategy"].experimental_local_results(ns["regular_variable"])), 1,
                 what="local results of the regular variable")
    for name in ("MirroredVariable", "DistributedVariable", "DistributedValues"):
        if name in [c.__name__ for c in type(ns["regular_variable"]).__mro__]:
            assert_true(False, f"a variable created outside any scope is a {name}", call="tf.Variable(1.)")


@clause("scope.outside-not-distributed", ref="tf221")
def test_regular_variable_class(backend, tf):
    v = tf.Variable(1.0)
    assert_type_name(v, ("ResourceVariable", "BaseResourceVariable"), what="tf.Variable(1.0)")


@clause("scope.default-replica-context", ref="tf221")
def test_default_strategy_scope_keeps_the_default_replica_context(backend, tf):
    default = tf.distribute.get_strategy()
    outside = tf.distribute.get_replica_context()
    with default.scope():
        rc = tf.distribute.get_replica_context()
        cross = tf.distribute.in_cross_replica_context()
        has = tf.distribute.has_strategy()
    call = "with tf.distribute.get_strategy().scope(): tf.distribute.get_replica_context()"
    assert_true(rc is not None, "get_replica_context() is None in the default strategy's scope; TF 2.21 returns the "
                                "default replica context", call=call)
    assert_true(rc is outside, f"the replica context in the default scope ({rc!r}) is not the one outside it "
                               f"({outside!r})", call=call)
    assert_true(rc.strategy is default, "its strategy is not the default strategy", call=call)
    assert_equal(int(to_numpy(rc.replica_id_in_sync_group)), 0, what="replica_id_in_sync_group", call=call)
    assert_equal(rc.num_replicas_in_sync, 1, what="num_replicas_in_sync", call=call)
    assert_equal(cross, False, what="in_cross_replica_context()", call=call)
    assert_equal(has, False, what="has_strategy()", call=call)
