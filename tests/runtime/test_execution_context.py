"""The execution context (simdist/runtime/execution.py): one object per thread of control,
switched whole; what a TF program shares across its threads and replicas is its Client."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np
import pytest


def _tf() -> Any:
    import simdist
    from simdist import tf
    simdist.reset()
    return tf


def test_a_replica_switch_swaps_one_context_and_restores_the_callers() -> None:
    """Each replica of strategy.run runs in its own context (own stack, no tapes of the
    caller's) under the caller's client, and the caller's context is current again after."""
    tf = _tf()
    from simdist.runtime import execution
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    caller = execution.current()
    seen: list[tuple] = []

    def replica(x: Any) -> Any:
        c = execution.current()
        seen.append((c, c.client, list(c.tapes), c.runner is not None))
        return tf.distribute.get_replica_context().all_reduce("SUM", x)

    with tf.GradientTape():
        strategy.run(replica, args=(tf.constant(1.0),))
        assert execution.current() is caller, "the caller's context is current again after run"
    ctxs = [s[0] for s in seen]
    assert len(ctxs) == 2 and ctxs[0] is not ctxs[1] and caller not in ctxs, \
        f"each replica should run in a context of its own, got {ctxs} (caller {caller})"
    assert all(s[1] is caller.client for s in seen), "replicas share the caller's client"
    assert all(s[2] == [] for s in seen), "a replica starts with no tapes (the caller's tape is not its)"
    assert all(s[3] for s in seen), "a replica's context knows its runner"


def test_threads_share_the_process_client() -> None:
    """A new thread gets a root context of its own (no strategy scope, no tapes of the caller)
    but the same client: tf.random's global stream advances across threads as in one."""
    tf = _tf()
    from simdist.runtime import execution
    tf.random.set_seed(5)
    first = tf.random.uniform([2]).numpy()
    out: dict[str, Any] = {}

    def other() -> None:
        c = execution.current()
        out["ctx"], out["client"], out["draw"] = c, c.client, tf.random.uniform([2]).numpy()

    with tf.GradientTape():
        t = threading.Thread(target=other)
        t.start()
        t.join()
    assert out["ctx"] is not execution.current() and out["ctx"].tapes == [], \
        "another thread runs in a root context of its own, without the caller's tapes"
    assert out["client"] is execution.current().client, "threads of one program share its client"
    tf.random.set_seed(5)
    a, b = tf.random.uniform([2]).numpy(), tf.random.uniform([2]).numpy()
    assert np.array_equal(a, first) and np.array_equal(b, out["draw"]), \
        f"the other thread's draw should be the stream's second: {out['draw']} vs {b}"


def test_contexts_of_two_clients_keep_their_own_random_streams_and_transactions() -> None:
    """The seam for multi-worker clients: a root context of another Client, switched in, has
    its own tf.random state and open transactions, and switching back restores the first's."""
    tf = _tf()
    from simdist.runtime import execution, variables
    tf.random.set_seed(1)
    mine = execution.current()
    other = execution.ExecutionContext(execution.Client())
    prev = execution.switch(other)
    try:
        assert prev is mine
        tf.random.set_seed(1)
        theirs = tf.random.uniform([3]).numpy()
        with variables.transaction():
            assert len(variables.transactions()) == 1
            execution.switch(mine)
            assert variables.transactions() == [], "a transaction of one client is not another's"
            ours = tf.random.uniform([3]).numpy()
            execution.switch(other)
    finally:
        execution.switch(mine)
    assert np.array_equal(theirs, ours), \
        f"each client's seed-1 stream starts the same way, untouched by the other: {theirs} vs {ours}"


@pytest.mark.clause("function.run-eagerly")
def test_run_functions_eagerly_is_one_clients_setting() -> None:
    """tf.config.run_functions_eagerly is TF's module global: one per client process. Another
    client's root context sees its own setting, and a thread of the same client the same one."""
    tf = _tf()
    from simdist.runtime import execution
    mine = execution.current()
    other = execution.ExecutionContext(execution.Client())
    tf.config.run_functions_eagerly(True)
    try:
        prev = execution.switch(other)
        try:
            got_other = tf.config.functions_run_eagerly()
        finally:
            execution.switch(prev)
        seen = {}
        t = threading.Thread(target=lambda: seen.setdefault("thread", tf.config.functions_run_eagerly()))
        t.start()
        t.join()
    finally:
        tf.config.run_functions_eagerly(False)
    assert mine.client.functions_eagerly is False, "run_functions_eagerly(False) should turn it off again"
    assert got_other is False, f"another client's setting is {got_other}, but should be False (its own)"
    assert seen["thread"] is True, f"a thread of the same client sees {seen['thread']}, but should see True"


@pytest.mark.clause("function.run-eagerly")
def test_scheduled_closures_run_their_trace_whatever_the_switch() -> None:
    """ClusterCoordinator.schedule traces the tf.function (Closure takes its concrete function), so
    with run_functions_eagerly(True) a closure's Python still runs once, not once per closure,
    while direct calls run it every time. (Closures with arguments run their Python per closure in
    simdist with or without the switch: tf/_function.py's module docstring.)"""
    tf = _tf()
    import ps_helpers
    strategy = ps_helpers.pss(workers=2, ps=1)
    coord = ps_helpers.coordinator(strategy)
    with strategy.scope():
        v = tf.Variable(0.0)
    runs: list[int] = []

    @tf.function
    def step():
        runs.append(1)
        v.assign_add(1.0)
        return v.read_value()

    tf.config.run_functions_eagerly(True)
    try:
        for _ in range(3):
            coord.schedule(step)
        coord.join()
        scheduled = len(runs)
        step()
        step()
    finally:
        tf.config.run_functions_eagerly(False)
    assert scheduled == 1, f"the closure's Python ran {scheduled} times for 3 closures, but should run once (traced)"
    assert len(runs) == 3, f"two direct calls under the switch should each run the Python: {len(runs)} - 1 runs"
    assert float(v.numpy()) == 5.0, f"v = {float(v.numpy())}, but should be 5.0 (3 closures + 2 calls of +1)"
