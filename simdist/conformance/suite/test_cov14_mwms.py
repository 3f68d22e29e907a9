"""MultiWorkerMirroredStrategy paths the suite never ran before the fifteenth session's coverage
pass (cov14b): experimental_distribute_values_from_function's global replica ids, reduce of a
MirroredVariable, argument and context errors, PER_REPLICA input refused, CommunicationOptions
with packing (clauses mwms.reduce, mwms.all-reduce, mwms.variables, dataset.api-surface).

One program, run once by both workers of a 2-worker cluster (one process per task on real
TensorFlow); expected values are computed here from each worker's index.
"""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true

clause = pytest.mark.clause
pytestmark = pytest.mark.requires("multi_client")

PROGRAM = """
import os, json
pos = json.loads(os.environ["TF_CONFIG"])["task"]["index"]
out = {}

def attempt(name, fn):
    try:
        fn()
        out[name] = ["returned", ""]
    except Exception as e:
        out[name] = [type(e).__name__, str(e)]

vals = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.constant([float(ctx.replica_id_in_sync_group), float(ctx.num_replicas_in_sync)]))
out["values_fn"] = [[float(x) for x in backend.to_numpy(t)] for t in strategy.experimental_local_results(vals)]
out["values_fn_sum"] = [float(x) for x in backend.to_numpy(strategy.reduce("SUM", vals, axis=None))]
with strategy.scope():
    v = tf.Variable([1.0, 2.0])
out["mean_of_var"] = [float(x) for x in backend.to_numpy(strategy.reduce("MEAN", v, axis=None))]
attempt("SUM of a mirrored variable", lambda: strategy.reduce("SUM", v, axis=None))
attempt("run with a tensor as args", lambda: strategy.run(lambda x: x, args=tf.constant(1.0)))
attempt("gather in a replica context", lambda: strategy.run(lambda: strategy.gather(tf.constant([1.0]), axis=0)))
attempt("PER_REPLICA in experimental_distribute_dataset", lambda: strategy.experimental_distribute_dataset(
    tf.data.Dataset.range(4).batch(2), tf.distribute.InputOptions(
        experimental_replication_mode=tf.distribute.InputReplicationMode.PER_REPLICA,
        experimental_fetch_to_device=False)))
with strategy.scope():
    attempt("synchronization NONE", lambda: tf.Variable(1.0, synchronization=tf.VariableSynchronization.NONE,
                                                        name="nosync"))
options = tf.distribute.experimental.CommunicationOptions(bytes_per_pack=4, timeout_seconds=120.0)

def fn():
    ctx = tf.distribute.get_replica_context()
    return ctx.all_reduce("SUM", [tf.constant([float(pos + 1)] * 3), tf.constant(float(10 * (pos + 1)))],
                          options=options)

a, b = strategy.run(fn)
out["packed"] = [[float(x) for x in backend.to_numpy(a)], float(backend.to_numpy(b))]
result = out
"""

_RUNS: dict[int, list[Any]] = {}


def _results(backend: Any) -> list[Any]:
    """The program's results on each worker, run once per backend for the module."""
    if id(backend) not in _RUNS:
        _RUNS[id(backend)] = backend.run_multi_worker(PROGRAM, 2)
    return _RUNS[id(backend)]


@clause("mwms.reduce", ref="tf221")
def test_mwms_values_from_function_and_reduce_of_a_variable(backend):
    for i, out in enumerate(_results(backend)):
        call = f"MWMS(2 workers), worker {i}"
        assert_close(out["values_fn"], [[float(i), 2.0]], call=call,
                     what="experimental_distribute_values_from_function: [replica_id_in_sync_group, num_replicas]")
        assert_close(out["values_fn_sum"], [0.0 + 1.0, 4.0], call=call, what="reduce('SUM') of those values")
        assert_close(out["mean_of_var"], [1.0, 2.0], call=call, what="reduce('MEAN', mirrored variable)")
        assert_equal(out["SUM of a mirrored variable"][0], "AssertionError", call=call,
                     what="reduce('SUM', mirrored variable)")


@clause("mwms.all-reduce", ref="tf221")
def test_mwms_packed_all_reduce_and_context_errors(backend):
    expected = {
        "run with a tensor as args": ("ValueError", "positional args must be a list or tuple"),
        "gather in a replica context": ("RuntimeError", "tf.distribute.Strategy.gather method requires "
                                                        "cross-replica context, use get_replica_context().all_gather()"),
        "PER_REPLICA in experimental_distribute_dataset":
            ("NotImplementedError", "InputReplicationMode.PER_REPLICA is only supported in "
                                    "`distribute_datasets_from_function`"),
        "synchronization NONE": ("ValueError", "`NONE` variable synchronization mode is not supported with "
                                               "tf.distribute strategy. Please change the `synchronization` for "
                                               "variable: nosync"),
    }
    for i, out in enumerate(_results(backend)):
        call = f"MWMS(2 workers), worker {i}"
        assert_close(out["packed"][0], [3.0, 3.0, 3.0], call=call + ", CommunicationOptions(bytes_per_pack=4)",
                     what="all_reduce('SUM') of [pos + 1] * 3")
        assert_close(out["packed"][1], 30.0, call=call + ", CommunicationOptions(bytes_per_pack=4)",
                     what="all_reduce('SUM') of 10 * (pos + 1)")
        for name, (cls, text) in expected.items():
            got = out[name]
            assert_true(got[0] == cls and text in got[1], f"outcome={got!r}, but should be {cls} containing {text!r}",
                        call=f"{call}: {name}")
