"""Differential tests of ON_READ variables (TF 2.21's SyncOnReadVariable) vs real TF 2.21.

Each case creates `tf.Variable(..., synchronization=ON_READ, aggregation=A)` in a strategy's
scope and records, as normalised values or error classes and messages: the variable's kind,
trainable flag, component names and devices; updates made in `strategy.run` (each replica its
own copy) and what the replicas read back; cross-replica reads (read_value, numpy, conversion,
operators, strategy.reduce, experimental_local_results); cross-replica assign / assign_add /
assign_sub and what each copy then holds; scatter errors; a checkpoint save and restore.
"""

from __future__ import annotations

import os
import re
import tempfile
from typing import Any, Callable

import numpy as np
import pytest

import tf_workers
from diff_helpers import assert_same, normalise

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

AGGREGATIONS = ("SUM", "MEAN", "ONLY_FIRST_REPLICA", "NONE")


def _try(out: dict, key: str, fn: Callable[[], Any]) -> None:
    try:
        out[key] = normalise(fn())
    except Exception as e:  # noqa: BLE001 - the error is part of the observation
        msg = re.sub(r"^\{\{function_node [^}]*\}\} ", "", str(e).split("\n")[0])   # TF's eager-op decoration
        out[key] = ("error", type(e).__name__, re.sub(r" name: $", "", msg)[:200])


def _copies(v: Any) -> list[float]:
    return [np.asarray(c.numpy()).tolist() for c in v.values] if hasattr(v, "values") else [v.numpy().tolist()]


def observe(tf: Any, kind: str, n: int, agg: str, shape: tuple = ()) -> dict[str, Any]:
    """The program, the same on both backends."""
    devices = [f"/cpu:{i}" for i in range(n)]
    strategy = {"mirrored": lambda: tf.distribute.MirroredStrategy(devices),
                "central_storage": lambda: tf.distribute.experimental.CentralStorageStrategy(devices),
                "one_device": lambda: tf.distribute.OneDeviceStrategy("/cpu:0"),
                "default": lambda: tf.distribute.get_strategy()}[kind]()
    aggregation = getattr(tf.VariableAggregation, agg)
    out: dict[str, Any] = {}
    with strategy.scope():
        v = tf.Variable(np.ones(shape, np.float32), synchronization=tf.VariableSynchronization.ON_READ,
                        aggregation=aggregation, name="v")
    out["type"] = type(v).__name__
    out["trainable"] = v.trainable
    out["synchronization"] = v.synchronization.name
    out["aggregation"] = v.aggregation.name
    comps = v.values if hasattr(v, "values") else [v]
    out["names"] = [c.name for c in comps]
    out["devices"] = [c.device for c in comps]

    def step() -> Any:
        rid = tf.distribute.get_replica_context().replica_id_in_sync_group
        v.assign_add(tf.cast(rid, tf.float32) + 1.0 + tf.zeros(shape))
        return v.read_value(), tf.convert_to_tensor(v), v * 2.0

    _try(out, "run", lambda: strategy.run(step))
    _try(out, "copies after run", lambda: _copies(v))
    _try(out, "read_value", lambda: v.read_value())
    _try(out, "numpy", lambda: v.numpy())
    _try(out, "convert", lambda: tf.convert_to_tensor(v))
    _try(out, "operator", lambda: v + 1.0)
    _try(out, "local results", lambda: [c.numpy() for c in strategy.experimental_local_results(v)])
    _try(out, "reduce SUM", lambda: strategy.reduce("SUM", v, axis=None))
    _try(out, "reduce MEAN", lambda: strategy.reduce("MEAN", v, axis=None))
    _try(out, "assign float", lambda: v.assign(10.0 + np.zeros(shape, np.float32)))
    _try(out, "copies after assign", lambda: _copies(v))
    if not shape:
        _try(out, "assign 0.1 python", lambda: v.assign(0.1))
        _try(out, "copies after assign 0.1", lambda: _copies(v))
    _try(out, "assign tensor", lambda: v.assign(tf.constant(np.full(shape, 7.0, np.float32))))
    _try(out, "copies after assign tensor", lambda: _copies(v))
    _try(out, "assign_add", lambda: v.assign_add(1.0 + np.zeros(shape, np.float32)))
    _try(out, "assign_sub", lambda: v.assign_sub(2.0 + np.zeros(shape, np.float32)))
    _try(out, "copies after add/sub", lambda: _copies(v))
    _try(out, "assign read_value=False", lambda: v.assign(3.0 + np.zeros(shape, np.float32), read_value=False))
    _try(out, "copies after unread assign", lambda: _copies(v))
    _try(out, "scatter_add", lambda: v.scatter_add(tf.IndexedSlices(tf.constant([1.0]), tf.constant([0]))))
    def assign_in_replica() -> None:
        v.assign(5.0 + tf.zeros(shape))

    _try(out, "run assign", lambda: strategy.run(assign_in_replica))
    _try(out, "copies after run assign", lambda: _copies(v))
    if agg != "NONE":
        def save_restore() -> Any:
            strategy.run(lambda: v.assign_add(
                tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32) + tf.zeros(shape)))
            with tempfile.TemporaryDirectory() as d:
                ck = tf.train.Checkpoint(v=v)
                path = ck.save(os.path.join(d, "ck"))
                saved = v.numpy()
                v.assign(100.0 + np.zeros(shape, np.float32))
                ck.restore(path)
                return saved, _copies(v)
        _try(out, "checkpoint", save_restore)
    return out


def _cases() -> list[tuple[str, str, int, str, tuple]]:
    out = [(f"mirrored{n}-{agg}", "mirrored", n, agg, ()) for n in (2, 3) for agg in AGGREGATIONS]
    out += [("mirrored1-SUM", "mirrored", 1, "SUM", ()), ("mirrored2-SUM-vector", "mirrored", 2, "SUM", (3,)),
            ("mirrored4-MEAN-matrix", "mirrored", 4, "MEAN", (2, 2))]
    out += [(f"{k}-{agg}", k, 2, agg, ()) for k in ("central_storage", "one_device", "default")
            for agg in ("SUM", "MEAN")]
    return out


CASES = _cases()


def _creation_errors(tf: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kind, make in (("mirrored", lambda: tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])),
                       ("central_storage", lambda: tf.distribute.experimental.CentralStorageStrategy(
                           ["/cpu:0", "/cpu:1"])),
                       ("one_device", lambda: tf.distribute.OneDeviceStrategy("/cpu:0"))):
        s = make()
        with s.scope():
            _try(out, f"{kind} NONE", lambda: type(tf.Variable(1.0, synchronization=tf.VariableSynchronization.NONE,
                                                                name="w")).__name__)
            _try(out, f"{kind} ON_WRITE", lambda: tf.Variable(
                1.0, synchronization=tf.VariableSynchronization.ON_WRITE).synchronization.name)
            _try(out, f"{kind} AUTO", lambda: tf.Variable(1.0).synchronization.name)
            _try(out, f"{kind} ON_READ trainable", lambda: tf.Variable(
                1.0, synchronization=tf.VariableSynchronization.ON_READ, trainable=True).trainable)
    return out


def _setup(tf: Any) -> None:
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    _setup(tf)
    out = {i: observe(tf, *CASES[i][1:]) for i in indices if i < len(CASES)}
    if len(CASES) in indices:
        out[len(CASES)] = _creation_errors(tf)
    return out


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES) + 1)))


def _simdist() -> Any:
    import simdist
    from simdist import tf
    simdist.reset()
    _setup(tf)
    return tf


def _compare(got: dict, want: dict, where: str) -> None:
    assert list(got) == list(want), f"{where}: observed {list(got)}, TF 2.21 {list(want)}"
    for k in want:
        assert_same(got[k], want[k], f"{where}: {k}")


@pytest.mark.clause("mirrored.sync-on-read")
@pytest.mark.parametrize("index", range(len(CASES)), ids=[c[0] for c in CASES])
def test_on_read_variables_as_tf(index: int, tf_results: dict[int, Any]) -> None:
    tf = _simdist()
    _compare(observe(tf, *CASES[index][1:]), tf_results[index], CASES[index][0])


@pytest.mark.clause("mirrored.sync-on-read")
def test_synchronization_at_creation_as_tf(tf_results: dict[int, Any]) -> None:
    tf = _simdist()
    _compare(_creation_errors(tf), tf_results[len(CASES)], "creation")


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    # (TF's teardown after MirroredStrategy runs can take half a minute on a busy machine; the
    # results are written and flushed, so skip it)
    os._exit(0)
