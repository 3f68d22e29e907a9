"""ClusterCoordinator and faults — clauses coord.* (PSS r2.4 docs; semantics §8).

Fault tests (capability ``fault_injection``) run last: on real TensorFlow they kill worker and
ps processes. The worker-preemption tests come before the ps-failure test, which breaks its
cluster for good.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import (assert_close, assert_equal, assert_true, assert_type_name,
                                            raises, to_numpy)
from simdist.conformance.repro import Program
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
needs_cluster = pytest.mark.requires("multi_worker")
needs_faults = pytest.mark.requires("multi_worker", "fault_injection")

BUSY = """
strategy, coordinator = cluster.strategy, cluster.coordinator
with strategy.scope():
    counter = tf.Variable(0, dtype=tf.int32)
steps = cluster.busy_steps
m = tf.constant(np.eye(32, dtype=np.float32) * 0.5)
@tf.function
def work():
    x = tf.ones((32, 32))
    for _ in tf.range(steps):
        x = tf.matmul(x, m) + 1.0
    counter.assign_add(1)
    return tf.reduce_sum(x)
"""


def _busy_value(steps: int) -> float:
    x = np.ones((32, 32))
    for _ in range(steps):
        x = x @ (np.eye(32) * 0.5) + 1.0
    return float(x.sum())


# -- coord.schedule-async / coord.join ---------------------------------------------------------------
@clause("coord.schedule-async")
@needs_cluster
def test_schedule_returns_at_once(backend, tf):
    prog = Program(backend, "cluster = backend.make_ps_cluster(workers=2, ps=1)\n" + BUSY + """
remote = coordinator.schedule(work)
done_right_after = coordinator.done()
coordinator.join()
done_after_join = coordinator.done()
""")
    ns = prog.run()
    assert_type_name(ns["remote"], ("RemoteValue", "RemoteValueImpl"), what="schedule(fn)", call="coordinator.schedule(work)")
    assert_equal(ns["done_right_after"], False, what="coordinator.done() right after schedule",
                 call="schedule(a function busy for many steps)")
    assert_equal(ns["done_after_join"], True, what="coordinator.done() after join")
    assert_close(ns["remote"].fetch(), _busy_value(ns["steps"]), tolerance=Tolerance(1e-4, 1e-3),
                 what="remote.fetch()", call="schedule(work)")


@clause("coord.schedule-async", ref="tf221")
@needs_cluster
def test_schedule_needs_a_tf_function(backend, tf):
    cluster = backend.make_ps_cluster(workers=1, ps=1)
    with raises(TypeError, match="only accepts a `tf.function` or a concrete function", call="schedule(python fn)"):
        cluster.coordinator.schedule(lambda: 1)


@clause("coord.join")
@needs_cluster
@pytest.mark.parametrize("workers,count", [(1, 3), (2, 8)])
def test_join_waits_for_every_function(backend, tf, workers, count):
    prog = Program(backend, """
cluster = backend.make_ps_cluster(workers=workers, ps=1)
strategy, coordinator = cluster.strategy, cluster.coordinator
with strategy.scope():
    v = tf.Variable(0.0)
@tf.function
def step(k):
    v.assign_add(k)
    return k * 2.0
remotes = [coordinator.schedule(step, args=(tf.constant(float(i)),)) for i in range(count)]
coordinator.join()
after_join = v.numpy()
""", workers=workers, count=count)
    ns = prog.run()
    call = f"{count} x schedule(v.assign_add(k)) on {workers} worker(s), then join()"
    assert_equal(ns["after_join"], np.float32(sum(range(count))), what="v after join", call=call)
    assert_equal(ns["coordinator"].done(), True, what="done() after join", call=call)
    assert_equal([float(r.fetch()) for r in ns["remotes"]], [2.0 * i for i in range(count)], what="fetched results",
                 call=call)


# -- coord.fetch ------------------------------------------------------------------------------------
@clause("coord.fetch", ref="tf221")
@needs_cluster
def test_fetch_blocks_and_returns_numpy(backend, tf):
    cluster = backend.make_ps_cluster(workers=1, ps=1)
    coordinator = cluster.coordinator
    with cluster.strategy.scope():
        v = tf.Variable(1.0)

    @tf.function
    def fn():
        return v + 0.0

    remote = coordinator.schedule(fn)
    got = remote.fetch()  # before join: blocks until ready
    assert_true(isinstance(got, (np.ndarray, np.generic)), f"fetch() returned {type(got).__name__}, not NumPy",
                call="RemoteValue.fetch()")
    assert_equal(got, np.float32(1.0), what="fetch()", call="RemoteValue.fetch()")
    nested = coordinator.fetch({"a": coordinator.schedule(fn), "b": 3})
    assert_equal(nested["b"], 3, what="coordinator.fetch({...})['b']")
    assert_equal(nested["a"], np.float32(1.0), what="coordinator.fetch({...})['a']")
    tensor = coordinator.schedule(fn).get()
    assert_equal(to_numpy(tensor), np.float32(1.0), what="RemoteValue.get()")


# -- coord.per-worker-dataset --------------------------------------------------------------------------
@clause("coord.per-worker-dataset")
@needs_cluster
def test_per_worker_dataset_and_iterator_reset(backend, tf):
    prog = Program(backend, """
cluster = backend.make_ps_cluster(workers=1, ps=1)
strategy, coordinator = cluster.strategy, cluster.coordinator
def dataset_fn():
    return tf.data.Dataset.range(100)
per_worker = coordinator.create_per_worker_dataset(dataset_fn)
@tf.function
def take(iterator):
    return next(iterator)
it = iter(per_worker)
first = [coordinator.schedule(take, args=(it,)) for _ in range(3)]
coordinator.join()
it2 = iter(per_worker)   # "Reset iterator state."
second = [coordinator.schedule(take, args=(it2,)) for _ in range(2)]
coordinator.join()
values = [int(r.fetch()) for r in first], [int(r.fetch()) for r in second]
""")
    ns = prog.run()
    assert_equal(ns["values"][0], [0, 1, 2], what="first epoch", call="1 worker, range(100), 3 x next(iterator)")
    assert_equal(ns["values"][1], [0, 1], what="after iter() again", call="iter(per_worker_dataset) resets")


@clause("coord.per-worker-dataset")
@needs_cluster
def test_each_worker_gets_its_own_dataset(backend, tf):
    cluster = backend.make_ps_cluster(workers=2, ps=1)
    coordinator = cluster.coordinator
    per_worker = coordinator.create_per_worker_dataset(lambda: tf.data.Dataset.range(1000))

    @tf.function
    def take(iterator):
        return next(iterator)

    it = iter(per_worker)
    remotes = [coordinator.schedule(take, args=(it,)) for _ in range(6)]
    coordinator.join()
    got = sorted(int(r.fetch()) for r in remotes)
    # Each worker reads its own copy from 0: every value appears at most (number of workers) times.
    assert_true(all(got.count(x) <= 2 for x in got) and got[0] == 0,
                f"values {got}: each worker should read its own dataset from the start",
                call="2 workers, create_per_worker_dataset(range(1000)), 6 x next(iterator)")


@clause("coord.per-worker-dataset", ref="tf221")
@needs_cluster
def test_variables_in_dataset_fn_rejected(backend, tf):
    cluster = backend.make_ps_cluster(workers=1, ps=1)

    def dataset_fn():
        tf.Variable(1.0)
        return tf.data.Dataset.range(3)

    with raises(ValueError, match="Creating variables in `dataset_fn` is not allowed",
                call="create_per_worker_dataset(fn creating a variable)"):
        cluster.coordinator.create_per_worker_dataset(dataset_fn)


@clause("coord.per-worker-distributed-dataset", ref="tf221")
@needs_cluster
def test_per_worker_dataset_fn_returning_a_distributed_dataset(backend, tf):
    """The pattern of ClusterCoordinator's docstring and TF's PS tutorial: the function passed to
    create_per_worker_dataset returns strategy.distribute_datasets_from_function(dataset_fn)."""
    cluster = backend.make_ps_cluster(workers=2, ps=1)
    strategy, coordinator = cluster.strategy, cluster.coordinator
    contexts = []

    def dataset_fn(input_context):
        contexts.append((input_context.num_input_pipelines, input_context.input_pipeline_id,
                         input_context.num_replicas_in_sync))
        return tf.data.Dataset.range(100).batch(input_context.get_per_replica_batch_size(4))

    def per_worker_dataset_fn():
        return strategy.distribute_datasets_from_function(dataset_fn)

    call = "create_per_worker_dataset(lambda: strategy.distribute_datasets_from_function(dataset_fn))"
    per_worker = coordinator.create_per_worker_dataset(per_worker_dataset_fn)
    it = iter(per_worker)

    @tf.function
    def take(iterator):
        return next(iterator)

    remotes = [coordinator.schedule(take, args=(it,)) for _ in range(6)]
    coordinator.join()
    batches = [to_numpy(r.fetch()).tolist() for r in remotes]
    assert_true(all(len(b) == 4 and b == list(range(b[0], b[0] + 4)) and b[0] % 4 == 0 for b in batches),
                f"batches {batches}: each should be 4 consecutive elements of range(100)", call=call)
    starts = sorted(b[0] for b in batches)
    assert_true(starts[0] == 0 and all(starts.count(x) <= 2 for x in starts),
                f"batch starts {starts}: each of the 2 workers reads its own copy from the start", call=call)
    assert_true(contexts and all(c == (1, 0, strategy.num_replicas_in_sync) for c in contexts),
                f"dataset_fn got input contexts {contexts}; expected (1 pipeline, id 0, "
                f"{strategy.num_replicas_in_sync} replicas) on each worker", call=call)


# -- coord.errors ---------------------------------------------------------------------------------------
@clause("coord.errors", ref="tf221")
@needs_cluster
def test_application_error_raised_once_then_cleared(backend, tf):
    prog = Program(backend, """
cluster = backend.make_ps_cluster(workers=2, ps=1)
strategy, coordinator = cluster.strategy, cluster.coordinator
with strategy.scope():
    v = tf.Variable(0.0)
@tf.function
def good():
    v.assign_add(1.0)
    return v.read_value()
@tf.function
def bad():
    tf.debugging.assert_non_positive(v.read_value() + 1.0, message="planted failure")
    return tf.constant(0.0)
remotes = [coordinator.schedule(good) for _ in range(3)]
failing = coordinator.schedule(bad)
remotes += [coordinator.schedule(good) for _ in range(3)]
""")
    ns = prog.run()
    tf_, coordinator = ns["tf"], ns["coordinator"]
    with raises((tf_.errors.InvalidArgumentError, tf_.errors.OpError), match="planted failure",
                call="join() after a failing function"):
        coordinator.join()
    coordinator.join()  # the error was raised once and is cleared
    with raises((tf_.errors.InvalidArgumentError, tf_.errors.OpError), call="failing_remote.fetch()"):
        ns["failing"].fetch()
    for i, r in enumerate(ns["remotes"]):
        try:
            r.fetch()
        except tf_.errors.CancelledError:
            pass
        except Exception as e:  # noqa: BLE001
            assert_true(False, f"remote {i}: fetch raised {type(e).__name__}, but should return or raise CancelledError",
                        call="fetch() of the other functions")
    again = coordinator.schedule(ns["good"])
    coordinator.join()
    assert_true(float(again.fetch()) >= 1.0, "scheduling after the error does not work", call="schedule after the error")


# -- coord.checkpoint ------------------------------------------------------------------------------------
@clause("coord.checkpoint")
@needs_cluster
@pytest.mark.requires("checkpoint")
def test_coordinator_saves_evaluator_reads(backend, tf, tmp_path):
    prog = Program(backend, """
import os
cluster = backend.make_ps_cluster(workers=2, ps=2)
strategy, coordinator = cluster.strategy, cluster.coordinator
with strategy.scope():
    v = tf.Variable(tf.zeros((4,)))
@tf.function
def step():
    v.assign_add(tf.ones((4,)))
for _ in range(5):
    coordinator.schedule(step)
coordinator.join()
path = tf.train.Checkpoint(v=v).save(os.path.join(directory, "ckpt"))
# An evaluator: reads the checkpoint into its own variable, outside any strategy.
evaluated = tf.Variable(tf.zeros((4,)))
tf.train.Checkpoint(v=evaluated).restore(path).expect_partial()
""", directory=str(tmp_path))
    ns = prog.run()
    assert_equal(ns["evaluated"], np.full((4,), 5.0, np.float32), what="value read by the evaluator",
                 call="5 x assign_add(1) via the coordinator, checkpoint, restore elsewhere")


# -- coord.worker-failure / coord.ps-failure (fault injection, last) -------------------------------------
@clause("coord.worker-failure")
@needs_faults
def test_worker_preempted_mid_function(backend, tf):
    prog = Program(backend, """
from simdist.conformance.protocol import WorkerPreemption
cluster = backend.make_ps_cluster(workers=2, ps=1,
                                  faults=[WorkerPreemption(worker=0, during_closure=1, downtime=1.0)])
""" + BUSY + """
remotes = [coordinator.schedule(work) for _ in range(4)]
coordinator.join()
values = [float(r.fetch()) for r in remotes]
completed = int(counter.numpy())
fired = cluster.faults_fired()
""")
    ns = prog.run()
    call = "2 workers, worker 0 preempted during a function, 4 functions"
    assert_true("preempt worker 0" in ns["fired"], f"the preemption never happened (fired: {ns['fired']}); "
                                                  "the test would pass vacuously", call=call)
    expected = _busy_value(ns["steps"])
    for i, v in enumerate(ns["values"]):
        assert_close(v, expected, tolerance=Tolerance(1e-4, 1e-3), what=f"function {i} result", call=call)
    assert_true(ns["completed"] >= 4, f"counter={ns['completed']}: every function must complete at least once",
                call=call)


@clause("coord.ps-failure")
@needs_faults
def test_ps_failure_surfaces_as_unavailable(backend, tf):
    prog = Program(backend, """
from simdist.conformance.protocol import PSFailure
cluster = backend.make_ps_cluster(workers=2, ps=1, faults=[PSFailure(ps=0, during_closure=1)])
""" + BUSY + """
try:
    for _ in range(6):
        coordinator.schedule(work)
    coordinator.join()
    error = None
except Exception as e:
    error = e
fired = cluster.faults_fired()
""")
    ns = prog.run()
    call = "2 workers, ps 0 fails during the first function, schedule x6 + join"
    assert_true("fail ps 0" in ns["fired"], f"the ps failure never happened (fired: {ns['fired']})", call=call)
    err = ns["error"]
    assert_true(isinstance(err, tf.errors.UnavailableError),
                f"schedule/join raised {type(err).__name__}({str(err)[:200]!r}), but should raise UnavailableError"
                if err is not None else "schedule/join returned normally, but should raise UnavailableError", call=call)
    if err is not None:
        backend.notice_error(err)


@clause("coord.ps-failure-while-down", ref="tf221")
@needs_faults
def test_ps_failing_again_while_down_is_one_failure(backend, tf):
    prog = Program(backend, """
from simdist.conformance.protocol import PSFailure
cluster = backend.make_ps_cluster(workers=2, ps=1, faults=[PSFailure(ps=0, during_closure=1),
                                                          PSFailure(ps=0, during_closure=1)])
""" + BUSY + """
errors = []
for _ in range(2):
    try:
        for _ in range(4):
            coordinator.schedule(work)
        coordinator.join()
    except Exception as e:
        errors.append(e)
fired = cluster.faults_fired()
""")
    ns = prog.run()
    call = "2 workers, ps 0 fails twice during the first function, (schedule x4 + join) x2"
    assert_true("fail ps 0" in ns["fired"], f"the ps failure never happened (fired: {ns['fired']})", call=call)
    errs = ns["errors"]
    assert_true(errs and all(isinstance(e, tf.errors.UnavailableError) for e in errs),
                f"schedule/join raised {[type(e).__name__ for e in errs]}, but should raise UnavailableError "
                "(a second failure of a dead ps changes nothing)", call=call)
    for e in errs:
        backend.notice_error(e)
