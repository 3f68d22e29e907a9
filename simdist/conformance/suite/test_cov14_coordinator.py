"""ClusterCoordinator paths the suite never ran before the fifteenth session's coverage pass
(cov14b): structured results of scheduled functions (namedtuples, dicts) through fetch/get and
`coordinator.fetch` of mixed structures, next() on a per-worker iterator, and a failed function's
error through `RemoteValue.get` and the next `schedule` (clauses coord.fetch, coord.errors,
coord.per-worker-dataset). Expected values are computed here from the variable's value.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, assert_type_name
from simdist.conformance.repro import Program

clause = pytest.mark.clause
needs_cluster = pytest.mark.requires("multi_worker")

PROGRAM = """
import collections
cluster = backend.make_ps_cluster(workers=2, ps=1)
strategy, coordinator = cluster.strategy, cluster.coordinator
Pair = collections.namedtuple("Pair", ["a", "b"])
with strategy.scope():
    v = tf.Variable(2.0)

@tf.function
def structured():
    return {"pair": Pair(v * 2.0, tf.constant([1, 2])), "plain": v + 1.0}

@tf.function
def bad():
    tf.debugging.assert_non_positive(v + 1.0, message="planted failure")
    return tf.constant(0.0)

def attempt(fn):
    try:
        return ["returned", fn()]
    except Exception as e:
        return [type(e).__name__, str(e)]

rv = coordinator.schedule(structured)
coordinator.join()
fetched = rv.fetch()
got = rv.get()
mixed = coordinator.fetch({"remote": rv, "number": 3, "list": [rv, "x"]})
per_worker = coordinator.create_per_worker_dataset(lambda: tf.data.Dataset.range(3))
next_outcome = attempt(lambda: next(iter(per_worker)))
failing = coordinator.schedule(bad)
get_outcome = attempt(lambda: failing.get())
schedule_outcome = attempt(lambda: coordinator.schedule(structured))
join_outcome = attempt(lambda: coordinator.join())
after = coordinator.schedule(structured)
coordinator.join()
after_plain = float(after.fetch()["plain"])
"""


@clause("coord.fetch", ref="tf221")
@needs_cluster
def test_structured_results_fetch_get_and_coordinator_fetch(backend):
    ns = Program(backend, PROGRAM).run()
    call = "PS cluster(2 workers, 1 ps): schedule(fn returning {'pair': Pair(v * 2, [1, 2]), 'plain': v + 1}), v = 2"
    fetched, got, mixed = ns["fetched"], ns["got"], ns["mixed"]
    assert_equal(sorted(fetched), ["pair", "plain"], call=call, what="sorted(rv.fetch())")
    assert_equal(type(fetched["pair"]).__name__, "Pair", call=call, what="type(rv.fetch()['pair']) (the namedtuple)")
    assert_close(fetched["pair"].a, 4.0, call=call, what="rv.fetch()['pair'].a")
    assert_equal(fetched["pair"].b, [1, 2], call=call, what="rv.fetch()['pair'].b")
    assert_type_name(fetched["plain"], ("ndarray", "float32", "generic"), call=call, what="rv.fetch()['plain']")
    assert_close(fetched["plain"], 3.0, call=call, what="rv.fetch()['plain']")
    assert_equal(type(got["pair"]).__name__, "Pair", call=call, what="type(rv.get()['pair'])")
    assert_true(hasattr(got["plain"], "numpy"), f"rv.get()['plain']={got['plain']!r}, but should be a tensor",
                call=call)
    assert_close(backend.to_numpy(got["plain"]), 3.0, call=call, what="rv.get()['plain']")
    assert_equal(mixed["number"], 3, call=call, what="coordinator.fetch({...'number': 3})['number']")
    assert_equal(mixed["list"][1], "x", call=call, what="coordinator.fetch({...'list': [rv, 'x']})['list'][1]")
    assert_close(mixed["remote"]["plain"], 3.0, call=call, what="coordinator.fetch(...)['remote']['plain']")
    assert_close(mixed["list"][0]["pair"].a, 4.0, call=call, what="coordinator.fetch(...)['list'][0]['pair'].a")


@clause("coord.errors", ref="tf221")
@needs_cluster
def test_failed_function_error_through_get_and_the_next_schedule(backend):
    ns = Program(backend, PROGRAM).run()
    call = "PS cluster: failing = schedule(bad) (assert_non_positive fails)"
    assert_true(ns["get_outcome"][0] in ("InvalidArgumentError",) and "planted failure" in ns["get_outcome"][1],
                f"failing.get() -> {ns['get_outcome'][:1]!r} {ns['get_outcome'][1][:200]!r}, but should raise "
                "InvalidArgumentError with 'planted failure'", call=call)
    assert_true(ns["schedule_outcome"][0] == "InvalidArgumentError" and "planted failure" in ns["schedule_outcome"][1],
                f"schedule() after the failure -> {ns['schedule_outcome'][:1]!r}, but should raise the pending "
                "InvalidArgumentError", call=call)
    assert_equal(ns["join_outcome"][0], "returned", call=call, what="join() once schedule raised (the error is cleared)")
    assert_close(ns["after_plain"], 3.0, call=call, what="a function scheduled after that")
    call = "PS cluster: next(iter(coordinator.create_per_worker_dataset(fn)))"
    assert_equal(ns["next_outcome"], ["NotImplementedError", "Iterating over an `AsyncDistributedIterator` is not "
                                      "supported right now."], call=call, what="the outcome")
