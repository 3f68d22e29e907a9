"""ClusterCoordinator: scheduling, join/done/fetch, errors and cancellation, per-worker datasets
(clauses coord.*; TF 2.21 behaviour of reference §8)."""

from __future__ import annotations

import numpy as np
import pytest

import simdist
from helpers import assert_value
from ps_helpers import coordinator, pss
from simdist import tf


def counter_job(workers=2, ps=1, **kw):
    s = pss(workers=workers, ps=ps, **kw)
    with s.scope():
        v = tf.Variable(0.0)

    @tf.function
    def step():
        # (the update depends on the step's compute, a matmul giving 0, so it commits with the
        # closure; a constant one would go out as soon as the closure starts: clause optim.pss-updates)
        v.assign_add(1.0 + tf.reduce_sum(tf.matmul(tf.reshape(v, [1, 1]), tf.zeros([1, 1]))))
        return v.read_value()
    return s, coordinator(s), v, step


@pytest.mark.clause("coord.schedule-async")
def test_schedule_returns_at_once_and_join_runs_everything():
    s, c, v, step = counter_job()
    t0 = simdist.now()
    rvs = [c.schedule(step) for _ in range(6)]
    assert simdist.now() == t0, "schedule must not advance the simulated clock"
    assert repr(rvs[0]).startswith("<RemoteValue NOT_READY")
    c.join()
    assert simdist.now() > t0
    assert_value(v, 6.0, "six assign_add(1.0) closures")
    # Async PS semantics: closures 1 and 2 both read v=0 at t=0 for their adds (1 each). Their writes
    # reach the ps at one instant, worker 1's first (the simulator's event order): the read ordered after
    # each add runs on the ps right after it (clause optim.pss-updates), so closure 2 returns 1 and
    # closure 1 returns 2, every add counted once; worker 1 takes closure 3 between the two commits
    # (it reads v=1), worker 0 closure 4 (v=2), and so on in pairs: the fetches are the commit order.
    assert [float(r.fetch()) for r in rvs] == [2.0, 1.0, 4.0, 3.0, 6.0, 5.0]


@pytest.mark.clause("coord.join")
@pytest.mark.clause("coord.fetch")
def test_fetch_blocks_until_ready_and_maps_nests():
    s, c, v, step = counter_job(workers=1)
    rv = c.schedule(step)
    assert rv.fetch() == np.float32(1.0)
    out = c.fetch({"a": rv, "b": 3})
    assert out == {"a": np.float32(1.0), "b": 3}, out
    assert rv.get().device == "/job:chief/replica:0/task:0/device:CPU:0"
    assert c.done()


def test_schedule_argument_rules_and_singleton():
    s, c, v, step = counter_job()
    with pytest.raises(TypeError, match="only accepts a `tf.function` or a concrete function"):
        c.schedule(lambda: 1)
    rv = c.schedule(step)
    with pytest.raises(ValueError, match="used as an input to scheduled function is not yet supported"):
        c.schedule(step, args=(rv,))
    assert coordinator(s) is c
    mirrored = tf.distribute.MirroredStrategy()
    with pytest.raises(AttributeError):
        coordinator(mirrored)


@pytest.mark.clause("coord.errors")
def test_reference_error_in_one_closure_among_20():
    s, c, v, _ = counter_job(workers=2)

    @tf.function
    def maybe_fail(i):
        if i == 3:
            raise tf.errors.InvalidArgumentError(None, None, "closure 3 failed")
        v.assign_add(1.0)
        return i
    rvs = [c.schedule(maybe_fail, args=(i,)) for i in range(20)]
    with pytest.raises(tf.errors.InvalidArgumentError, match="closure 3 failed"):
        c.join()
    c.join()  # the error is raised once
    with pytest.raises(tf.errors.InvalidArgumentError, match="closure 3 failed"):
        rvs[3].fetch()
    outcomes = {"completed": 0, "cancelled": 0}
    for i, rv in enumerate(rvs):
        if i == 3:
            continue
        try:
            assert rv.fetch() == i
            outcomes["completed"] += 1
        except tf.errors.CancelledError:
            outcomes["cancelled"] += 1
    m = c.metrics()["closures"]
    assert m == {"scheduled": 20, "completed": outcomes["completed"], "failed": 1,
                 "cancelled": outcomes["cancelled"], "pending": 0}, m
    assert outcomes["cancelled"] > 0, "queued closures must be cancelled"
    assert_value(v, float(outcomes["completed"]), "only completed closures' writes are applied")
    again = c.schedule(maybe_fail, args=(7,))
    c.join()
    assert again.fetch() == 7, "scheduling works again after the error"


def test_error_raised_from_schedule_and_done():
    s, c, v, _ = counter_job(workers=1)

    @tf.function
    def bad():
        raise ValueError("bad closure")

    @tf.function
    def good():
        return 1
    c.schedule(bad)
    while True:
        try:
            finished = c.done()
        except ValueError as e:
            assert "bad closure" in str(e)
            break
        assert not finished
    assert c.done()
    c.schedule(bad)
    c.schedule(good)
    with pytest.raises(ValueError, match="bad closure"):
        for _ in range(100):
            c.schedule(good)
            simdist.session.simulator().env.step()


@pytest.mark.clause("coord.per-worker-dataset")
def test_per_worker_dataset_iterators():
    s = pss(workers=2, ps=1)
    c = coordinator(s)
    ds = c.create_per_worker_dataset(lambda: tf.data.Dataset.range(100))
    it = iter(ds)

    @tf.function
    def take(iterator):
        return next(iterator)
    rvs = [c.schedule(take, args=(it,)) for _ in range(6)]
    c.join()
    got = sorted(int(r.fetch()) for r in rvs)
    assert got == [0, 0, 1, 1, 2, 2], f"each worker reads its own stream: {got}"
    with pytest.raises(NotImplementedError, match="Iterating over an `AsyncDistributedIterator`"):
        next(it)
    it2 = iter(ds)
    rv = c.schedule(take, args=(it2,))
    c.join()
    assert int(rv.fetch()) == 0, "iter() resets the iterator state"


def test_run_and_reduce_inside_a_scheduled_function():
    s = pss(workers=2, ps=1)
    c = coordinator(s)
    with s.scope():
        v = tf.Variable(2.0)

    @tf.function
    def fn():
        out = s.run(lambda: v * 3.0)
        return s.reduce("SUM", out, axis=None)
    rv = c.schedule(fn)
    assert float(rv.fetch()) == 6.0


@pytest.mark.clause("coord.schedule-async")
def test_closures_read_stale_values_like_async_training():
    """Two workers start at t=0 and both read v=0 for their adds (1 each); both commit: v=2. The read each
    returns runs on the ps after its own add (clause optim.pss-updates), so the one committed second sees
    both: [2, 1] (worker 1's writes are processed first at the tie), not [1, 1]."""
    s, c, v, step = counter_job(workers=2)
    a, b = c.schedule(step), c.schedule(step)
    c.join()
    assert [float(a.fetch()), float(b.fetch())] == [2.0, 1.0]
    assert_value(v, 2.0, "commutative updates both land")


def test_closure_timeline_records_what_each_closure_read_and_when_it_committed():
    """simdist only: a counter closure returns the count its read sees on the ps right after its own add
    (clause optim.pss-updates), which is its place in the commit order; commits are numbered 1..n in time
    order, and staleness ``commit - 1 - commits_before`` counts the others' updates that landed between
    its start (``commits_before``: the commits it had seen) and its commit."""
    s, c, v, step = counter_job(workers=3)
    rvs = [c.schedule(step) for _ in range(9)]
    c.join()
    tl = c.closure_timeline()
    assert [t["state"] for t in tl] == ["completed"] * 9 and sorted(t["commit"] for t in tl) == list(range(1, 10))
    for t, rv in zip(tl, rvs):
        assert t["commit"] == float(rv.fetch()), f"closure {t}: fetched {float(rv.fetch())}, its commit's count"
        stale = t["commit"] - 1 - t["commits_before"]
        inside = [u for u in tl if u is not t and t["start"] < u["end"] < t["end"]]
        at_edges = [u for u in tl if u is not t and t["start"] <= u["end"] <= t["end"]]
        assert len(inside) <= stale <= len(at_edges), (t, stale, inside, at_edges)   # (ties: program order)
        assert 0 <= t["start"] < t["end"] <= simdist.now() and t["worker"] in (0, 1, 2), t
    by_commit = sorted(tl, key=lambda t: t["commit"])
    assert [t["end"] for t in by_commit] == sorted(t["end"] for t in tl), "commit order is time order"
    assert c.commit_count() == 9


def test_closure_timeline_marks_closures_that_never_started():
    """simdist only (seed-4 sweep survivors strategies/closure.py:28 and :30): on one worker, a closure
    that fails cancels the three queued behind it; they never started, so the timeline gives them
    worker -1 and start -1.0 (as documented), state "cancelled", no commit, and the failed one worker 0."""
    s = pss(workers=1, ps=1)
    c = coordinator(s)

    @tf.function
    def bad():
        tf.debugging.assert_equal(1, 2)
        return tf.constant(0)

    @tf.function
    def ok():
        return tf.constant(1)

    c.schedule(bad)
    for _ in range(3):
        c.schedule(ok)
    with pytest.raises(tf.errors.InvalidArgumentError):
        c.join()
    tl = c.closure_timeline()
    assert [(t["state"], t["worker"]) for t in tl] == [("failed", 0)] + [("cancelled", -1)] * 3, tl
    assert [t["start"] for t in tl[1:]] == [-1.0] * 3 and tl[0]["start"] >= 0.0, tl
    assert [t["commit"] for t in tl] == [0] * 4, tl


def test_run_until_pauses_the_simulation_without_raising():
    s, c, v, step = counter_job(workers=2)
    for _ in range(6):
        c.schedule(step)
    assert c.run_until(lambda: c.commit_count() >= 3) is True
    assert 3 <= c.commit_count() < 6, c.commit_count()
    assert_value(v, float(c.commit_count()), "the committed updates at the pause")
    assert c.run_until(lambda: c.commit_count() >= 100) is False, "everything finished before the condition held"
    c.join()
    assert c.commit_count() == 6
