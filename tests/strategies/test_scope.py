"""Scopes and contexts: clauses scope.* (TF 2.21 rules of shared/reference §10)."""

from __future__ import annotations

import pytest

from simdist import tf
from strategies_helpers import cpus, mirrored


@pytest.mark.clause("scope.current")
def test_get_strategy_inside_and_outside():
    s = mirrored(2)
    default = tf.distribute.get_strategy()
    assert not tf.distribute.has_strategy()
    with s.scope():
        assert tf.distribute.get_strategy() is s
        assert tf.distribute.has_strategy()
    assert tf.distribute.get_strategy() is default


@pytest.mark.clause("scope.cross-replica")
def test_scope_is_cross_replica_and_run_is_replica():
    s = mirrored(2)
    assert not tf.distribute.in_cross_replica_context()
    assert tf.distribute.get_replica_context() is not None
    assert tf.distribute.get_replica_context().replica_id_in_sync_group == 0
    with s.scope():
        assert tf.distribute.in_cross_replica_context()
        assert tf.distribute.get_replica_context() is None

    def fn():
        assert not tf.distribute.in_cross_replica_context()
        ctx = tf.distribute.get_replica_context()
        return (ctx.num_replicas_in_sync, tf.distribute.get_strategy() is s)
    out = s.run(fn)
    assert out == (2, True), out


@pytest.mark.clause("scope.auto-enter")
def test_run_and_reduce_enter_scope():
    s = mirrored(2)
    seen = s.run(lambda: tf.distribute.get_strategy())
    assert seen is s
    assert tf.distribute.get_strategy() is not s


@pytest.mark.clause("scope.mixing")
def test_mixing_strategies():
    cpus(2)
    a = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    b = tf.distribute.OneDeviceStrategy("/cpu:0")
    with a.scope():
        with pytest.raises(RuntimeError, match="Mixing different tf.distribute.Strategy objects: .* is not .*"):
            with b.scope():
                pass
        with pytest.raises(RuntimeError, match="Mixing different tf.distribute.Strategy objects"):
            b.reduce("SUM", tf.constant(1.), None)
        with pytest.raises(RuntimeError, match="Must not nest tf.distribute.Strategy scopes."):
            with _default_scope():
                pass


def _default_scope():
    from simdist.strategies.base import default_strategy
    return default_strategy().scope()


def test_same_strategy_nests_and_own_scope_in_run_fails():
    s = mirrored(2)
    with s.scope():
        with s.scope():
            assert tf.distribute.get_strategy() is s
        assert tf.distribute.get_strategy() is s

    def enter():
        with s.scope():
            pass
    with pytest.raises(RuntimeError, match="Method requires being in cross-replica context"):
        s.run(enter)


def test_exiting_out_of_order():
    s = mirrored(2)
    outer, inner = s.scope(), s.scope()
    outer.__enter__()
    inner.__enter__()
    with pytest.raises(RuntimeError, match="Variable creator scope nesting error"):
        outer.__exit__(None, None, None)
    inner.__exit__(None, None, None)
    outer.__exit__(None, None, None)


@pytest.mark.clause("scope.variables-captured")
def test_variable_captures_strategy_and_works_outside():
    s = mirrored(2)
    with s.scope():
        v = tf.Variable(1.0)
    assert s.extended.variable_created_in_scope(v)
    v.assign(3.0)
    assert float(v.numpy()) == 3.0
    assert [float(c.numpy()) for c in s.experimental_local_results(v)] == [3.0, 3.0]


@pytest.mark.clause("scope.outside-not-distributed")
def test_variable_outside_scope_is_plain():
    mirrored(2)
    v = tf.Variable(1.0)
    assert repr(v) == "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>", repr(v)
    assert v.device == "/job:localhost/replica:0/task:0/device:CPU:0", v.device


def test_experimental_set_strategy():
    s = mirrored(2)
    tf.distribute.experimental_set_strategy(s)
    assert tf.distribute.get_strategy() is s
    tf.distribute.experimental_set_strategy(None)
    assert not tf.distribute.has_strategy()
    with s.scope():
        with pytest.raises(RuntimeError, match="Must not be called inside a `tf.distribute.Strategy` scope."):
            tf.distribute.experimental_set_strategy(s)


def test_context_used_before_strategies_are_imported_still_has_the_default_strategy():
    """The context stack can be touched (e.g. by dataset code) before simdist.strategies is
    imported; afterwards the bottom of the stack must be the default strategy, not None."""
    import subprocess
    import sys
    code = ("from simdist.runtime import context\n"
            "context.current()\n"                           # creates the bottom frame
            "import simdist.strategies.base\n"
            "print(context.has_strategy(), context.get_strategy() is not None)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["False", "True"], (
        f"has_strategy(), get_strategy() is not None = {out.stdout.split()}, but should be ['False', 'True']; "
        f"stderr: {out.stderr[-500:]}")
