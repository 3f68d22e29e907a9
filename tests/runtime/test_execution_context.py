"""The execution context (simdist/runtime/execution.py): one object per thread of control,
switched whole; what a TF program shares across its threads and replicas is its Client."""

from __future__ import annotations

import threading
from typing import Any

import numpy as np


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
