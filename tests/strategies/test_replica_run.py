"""strategy.run's replica threads: a collective that fails, or replicas that diverge, raise at once
on the caller's thread and leave no replica thread behind (they used to wait 5 s each and live on)."""

from __future__ import annotations

import threading

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
    # the strategy still works afterwards
    out = s.run(lambda: tf.distribute.get_replica_context().all_reduce("sum", tf.constant(1.0)))
    assert [float(v) for v in s.experimental_local_results(out)] == [4.0] * 4
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
