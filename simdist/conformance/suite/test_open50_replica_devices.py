"""`ReplicaContext.devices` per strategy (the fiftieth session, helper open50): TF 2.21's base ReplicaContext gives
`(device_util.current(),)` -- '' in the default replica context outside any device scope, the scope's full name
inside one, the strategy's device in OneDeviceStrategy's run -- and a mirrored run's MirroredReplicaContext
(MirroredStrategy, CentralStorageStrategy) a list of the replica's `worker_devices_by_replica` entry, [[device]].
Every expected value was observed on TF 2.21 (/work/wt/open50_logs/p4.py, p4b.py)."""

from __future__ import annotations

import pytest

_CPU = "/job:localhost/replica:0/task:0/device:CPU:"


def _seen_in_run(tf, s):
    seen = []

    def fn():
        ctx = tf.distribute.get_replica_context()
        seen.append((int(tf.get_static_value(ctx.replica_id_in_sync_group)), ctx.devices))
        return tf.constant(0.0)
    s.run(fn)
    return sorted(seen, key=lambda x: x[0])


@pytest.mark.clause("run.replica-context")
def test_open50_default_replica_context_devices(backend, tf):
    backend.make_strategy("mirrored", 3)   # (the backend's devices made)
    got = tf.distribute.get_replica_context().devices
    assert type(got) is tuple and got == ("",), f"default replica context devices: {got!r}, expected ('',)"
    with tf.device("/cpu:1"):
        got = tf.distribute.get_replica_context().devices
    assert got == (_CPU + "1",), f"in tf.device('/cpu:1'): {got!r}, expected ({_CPU + '1'!r},)"
    got = tf.distribute.get_strategy().run(lambda: tf.distribute.get_replica_context().devices)
    assert got == ("",), f"in the default strategy's run: {got!r}, expected ('',)"


@pytest.mark.clause("run.replica-context")
@pytest.mark.parametrize("name", ["onedevice", "mirrored", "central_storage"])
def test_open50_replica_context_devices_in_run(backend, tf, name):
    backend.make_strategy("mirrored", 3)
    s = {"onedevice": lambda: tf.distribute.OneDeviceStrategy("/cpu:1"),
         "mirrored": lambda: tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"]),
         "central_storage": lambda: tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])}[name]()
    want = [(0, (_CPU + "1",))] if name == "onedevice" else [(0, [[_CPU + "0"]]), (1, [[_CPU + "1"]])]
    got = _seen_in_run(tf, s)
    assert [(i, type(d).__name__, d) for i, d in got] == [(i, type(d).__name__, d) for i, d in want], \
        f"{name}: replica contexts' devices {got!r}, expected {want!r}"
