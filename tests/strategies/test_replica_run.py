"""strategy.run's replica threads: a collective that fails, or replicas that diverge, raise at once
on the caller's thread and leave no replica thread behind (they used to wait 5 s each and live on)."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from simdist import tf
from strategies_helpers import mirrored


def _replica_threads() -> list[str]:
    return sorted(t.name for t in threading.enumerate() if t.name.startswith("simdist-replica"))


def test_a_merge_that_raises_fails_fast_and_ends_every_replica_thread():
    s = mirrored(4)

    def fn():
        ctx = tf.distribute.get_replica_context()
        x = tf.ones([ctx.replica_id_in_sync_group + 1, 2])     # dim 0 differs: the concat fails
        return ctx.all_gather(x, axis=1)

    with pytest.raises(tf.errors.InvalidArgumentError, match="Dimension 0 in both shapes must be equal"):
        s.run(fn)
    assert _replica_threads() == [], f"replica threads still alive after the error: {_replica_threads()}"
    # the strategy still runs afterwards; its collectives do not: TF 2.21's collective executor aborted with the
    # failed all-gather (observed, dist54: "Collective ops is aborted by: ..."), its reduce (no collective) works
    with pytest.raises(tf.errors.InvalidArgumentError, match="Collective ops is aborted by: .*Dimension 0"):
        s.run(lambda: tf.distribute.get_replica_context().all_reduce("sum", tf.constant(1.0)))
    assert _replica_threads() == []
    out = s.run(lambda: tf.constant(1.0))
    assert float(s.reduce("SUM", out, axis=None)) == 4.0
    assert _replica_threads() == []


def test_diverging_replicas_raise_and_end_every_thread():
    s = mirrored(3)

    def fn():
        ctx = tf.distribute.get_replica_context()
        if ctx.replica_id_in_sync_group == 0:
            return tf.constant(0.0)                             # replica 0 skips the collective
        return ctx.all_reduce("sum", tf.constant(1.0))

    with pytest.raises(RuntimeError, match="every replica must make the same collective calls"):
        s.run(fn)
    assert _replica_threads() == [], f"replica threads still alive after the error: {_replica_threads()}"


def test_an_error_in_one_replica_unwinds_the_others_parked_at_a_collective():
    s = mirrored(4)

    def fn():
        ctx = tf.distribute.get_replica_context()
        if ctx.replica_id_in_sync_group == 2:
            raise KeyError("replica 2 failed")
        return ctx.all_reduce("sum", tf.constant(1.0))

    with pytest.raises(KeyError, match="replica 2 failed"):
        s.run(fn)
    assert _replica_threads() == []


@pytest.mark.parametrize("replicas", [1, 2])
def test_a_merge_inside_an_untaken_cond_branch_ends_no_phase(replicas: int):
    """A tf.function traces a tf.cond's untaken branch without effect (its FLOPs restored after it);
    a merge_call there must not end a phase of the run, or the next phase counts from a tally
    mark above the restored tally (grid program 052: compute(...).flops of -130, a ValueError)."""
    s = mirrored(replicas)
    w = tf.constant([[1.0, 2.0], [3.0, 4.0]])

    def fn(x):
        heavy = lambda: tf.distribute.get_replica_context().merge_call(  # noqa: E731
            lambda _, y: y, args=(tf.matmul(tf.matmul(w, w), x),))
        out = tf.cond(tf.reduce_sum(x) > 1e9, heavy, lambda: x + 1.0)
        return tf.matmul(w, out)   # (work after the branch: counted from a mark the untaken merge must not move)

    step = tf.function(lambda x: s.run(fn, args=(x,)))
    want = (w.numpy() @ (np.ones([2, 1], np.float32) + 1.0)).tolist()
    for _ in range(2):
        out = s.experimental_local_results(step(tf.ones([2, 1])))
        assert [o.numpy().tolist() for o in out] == [want] * replicas, (
            f"out={[o.numpy().tolist() for o in out]}, but should be w @ (x + 1) = {want} per replica")


def test_untaken_branches_are_traced_in_every_replica_of_a_multi_replica_run():
    """Inside a tf.function each replica of MirroredStrategy(2) traces both branches of a tf.cond (TF's cond_v2
    builds both graphs per replica): the untaken branch's Python runs, its variable write is dropped, and a capture
    only it differentiates gets a zero gradient, so replica 0 (which stop_gradient's its all_reduce input) still
    joins the gradient's all-reduce. Observed on TF 2.21 (lead60; the same program with two logical CPUs):
    gradients [[0, 0], [7, -7]]; simdist raised RuntimeError (replica 0 skipped the all-reduce) until lead60."""
    s = mirrored(2)
    with s.scope():
        w = tf.Variable(np.array([1.5, -2.0], np.float32))
        v_side = tf.Variable(0.0)
    log: list[str] = []

    def step():
        ctx = tf.distribute.get_replica_context()
        with tf.GradientTape() as t:
            r = ctx.replica_id_in_sync_group

            def stopped():
                log.append("stopped")
                return tf.stop_gradient(w)

            def live():
                log.append("live")
                v_side.assign_add(1.0)
                return w * 1.0
            v = tf.cond(tf.equal(r, 0), stopped, live)
            y = ctx.all_reduce("SUM", v * v) + v
            loss = tf.reduce_sum(y)
        return t.gradient(loss, w)

    out = s.run(tf.function(step))
    got = [o.numpy().tolist() for o in s.experimental_local_results(out)]
    assert got == [[0.0, 0.0], [7.0, -7.0]], f"gradients per replica {got}, but should be [[0, 0], [7, -7]] (TF 2.21)"
    assert log.count("live") == 2 and len(log) == 4, (
        f"branch Python ran {log}, but should run both branches once per replica")
    assert v_side.values[1].numpy() == 1.0 and v_side.values[0].numpy() == 0.0, (
        f"v_side={[x.numpy() for x in v_side.values]}, but only replica 1's taken branch should write (0 and 1)")
