"""Placement — clauses css.placement, css.constructor, one-device.placement, mirrored.variables."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from simdist.conformance.assertions import (assert_device, assert_equal, assert_true, assert_type_name,
                                            device_matches, fail, raises, to_numpy)
from simdist.conformance.repro import Program

clause = pytest.mark.clause


def _var_device(v):
    """The device holding a variable's value (the primary for wrapped variables)."""
    return v.device


def _expect_device(got, suffix, what, call):
    if not device_matches(got, suffix):
        fail(f"{what}={got!r}, but should be on …/{suffix}", call)


def _expect_replica_devices(strategy: Any, kind: str, n: int, call: str, fns: dict[str, Any]) -> None:
    """strategy.run(fn) for each labelled fn gives n results, replica i's on device kind:i."""
    for label, fn in fns.items():
        out = strategy.run(fn)
        devices = [x.device for x in strategy.experimental_local_results(out)]
        assert_equal(len(devices), n, what="compute replicas", call=call)
        for i, d in enumerate(devices):
            _expect_device(d, f"device:{kind}:{i}", f"replica {i} device of run(lambda: {label})", call)


# -- css.placement -----------------------------------------------------------------------------------
@clause("css.placement")
def test_variables_on_the_cpu_with_several_compute_devices(backend, tf):
    strategy = backend.make_strategy("central_storage", 2)
    with strategy.scope():
        v = tf.Variable(1.0)
    call = "CentralStorageStrategy(compute_devices=[CPU:0, CPU:1]): tf.Variable in scope"
    _expect_device(_var_device(v), "device:CPU:0", "v.device", call)
    _expect_replica_devices(strategy, "CPU", 2, call, {
        "tf.identity(v.read_value()) + 1.0": lambda: tf.identity(v.read_value()) + 1.0,
        "v.read_value() * 2.0": lambda: v.read_value() * 2.0,
        "v * 2.0": lambda: v * 2.0})


@clause("css.placement")
@pytest.mark.requires("host_config")
def test_variables_on_the_only_compute_device(backend, tf):
    """"Variables are assigned to local CPU or the only GPU": with one compute device, the
    variables live there (here the only compute device is CPU:1)."""
    backend.configure_host(cpus=2)
    strategy = tf.distribute.experimental.CentralStorageStrategy(compute_devices=backend.device_names(2)[1:])
    with strategy.scope():
        v = tf.Variable(1.0)
    _expect_device(_var_device(v), "device:CPU:1", "v.device", "CentralStorageStrategy(compute_devices=[CPU:1])")


@clause("css.placement")
@pytest.mark.requires("gpus", "host_config")
@pytest.mark.parametrize("gpus,var_device", [(1, "device:GPU:0"), (2, "device:CPU:0"), (3, "device:CPU:0")])
def test_gpu_hosts(backend, tf, gpus, var_device):
    backend.configure_host(cpus=1, gpus=gpus)
    strategy = tf.distribute.experimental.CentralStorageStrategy()
    with strategy.scope():
        v = tf.Variable(1.0)
    call = f"CentralStorageStrategy() on a host with 1 CPU and {gpus} GPU(s)"
    _expect_device(_var_device(v), var_device, "v.device", call)
    _expect_replica_devices(strategy, "GPU", gpus, call, {
        "tf.ones(()) * 2.0": lambda: tf.ones(()) * 2.0,
        "v.read_value() * 2.0": lambda: v.read_value() * 2.0})


@clause("css.placement", ref="tf221")
def test_aggregating_variable_with_several_compute_devices(backend, tf):
    strategy = backend.make_strategy("central_storage", 2)
    with strategy.scope():
        v = tf.Variable(1.0)
    assert_type_name(v, "AggregatingVariable", what="variable", call="CentralStorage(2): tf.Variable in scope")


# -- css.constructor -------------------------------------------------------------------------------
@clause("css.constructor")
@pytest.mark.requires("host_config")
def test_defaults_without_gpus(backend, tf):
    backend.configure_host(cpus=2)
    strategy = tf.distribute.experimental.CentralStorageStrategy(compute_devices=None, parameter_device=None)
    call = "CentralStorageStrategy() on a host with 2 CPUs, no GPU"
    assert_equal(strategy.num_replicas_in_sync, 1, what="num_replicas_in_sync", call=call)
    _expect_device(strategy.extended.worker_devices[0], "device:CPU:0", "worker_devices[0]", call)
    with strategy.scope():
        v = tf.Variable(1.0)
    _expect_device(_var_device(v), "device:CPU:0", "v.device", call)


@clause("css.constructor")
@pytest.mark.requires("host_config")
def test_explicit_parameter_device(backend, tf):
    backend.configure_host(cpus=3)
    names = backend.device_names(3)
    strategy = tf.distribute.experimental.CentralStorageStrategy(compute_devices=names[:2], parameter_device=names[2])
    with strategy.scope():
        v = tf.Variable(1.0)
    call = f"CentralStorageStrategy(compute_devices={names[:2]}, parameter_device={names[2]!r})"
    _expect_device(_var_device(v), "device:CPU:2", "v.device", call)
    assert_equal(strategy.num_replicas_in_sync, 2, what="num_replicas_in_sync", call=call)


@clause("css.constructor", ref="tf221")
@pytest.mark.requires("host_config")
def test_parameter_devices_property(backend, tf):
    backend.configure_host(cpus=2)
    names = backend.device_names(2)
    two = tf.distribute.experimental.CentralStorageStrategy(compute_devices=names)
    assert_equal(tuple(two.extended.parameter_devices), ("/device:CPU:0",), what="extended.parameter_devices",
                 call=f"CentralStorageStrategy(compute_devices={names})")
    given = tf.distribute.experimental.CentralStorageStrategy(compute_devices=names, parameter_device="CPU:1")
    assert_equal(tuple(given.extended.parameter_devices), ("CPU:1",), what="extended.parameter_devices",
                 call="CentralStorageStrategy(..., parameter_device='CPU:1')")


@clause("css.constructor")
@pytest.mark.requires("gpus", "host_config")
def test_defaults_with_gpus(backend, tf):
    backend.configure_host(cpus=1, gpus=2)
    strategy = tf.distribute.experimental.CentralStorageStrategy()
    call = "CentralStorageStrategy() on a host with 2 GPUs"
    assert_equal(strategy.num_replicas_in_sync, 2, what="num_replicas_in_sync", call=call)
    for i, d in enumerate(strategy.extended.worker_devices):
        _expect_device(d, f"device:GPU:{i}", f"worker_devices[{i}]", call)


# -- one-device.placement ----------------------------------------------------------------------------
@clause("one-device.placement")
@pytest.mark.requires("host_config")
def test_variables_inputs_and_run_on_the_device(backend, tf):
    backend.configure_host(cpus=2)
    device = backend.device_names(2)[1]
    strategy = tf.distribute.OneDeviceStrategy(device)
    call = f"OneDeviceStrategy({device!r})"
    with strategy.scope():
        v = tf.Variable(1.0)
    assert_device(v.device, "/job:localhost/replica:0/task:0/device:CPU:1", what="v.device", call=call)
    for x in strategy.experimental_distribute_dataset(tf.data.Dataset.range(4).batch(2)):
        _expect_device(x.device, "device:CPU:1", "input device", call)
    out = strategy.run(lambda: tf.constant(1.0) + v)
    _expect_device(out.device, "device:CPU:1", "run result device", call)


@clause("one-device.placement")
@pytest.mark.requires("gpus")
def test_doc_gpu_variable(backend, tf):
    prog = Program(backend, """
backend.configure_host(cpus=1, gpus=1)
strategy = tf.distribute.OneDeviceStrategy(device="/gpu:0")
with strategy.scope():
    v = tf.Variable(1.0)
""")
    ns = prog.run()
    assert_equal(ns["v"].device, "/job:localhost/replica:0/task:0/device:GPU:0", what="v.device",
                 call='OneDeviceStrategy(device="/gpu:0")')


# -- mirrored.variables -------------------------------------------------------------------------------
@clause("mirrored.variables")
def test_doc_mirrored_variable_repr(backend, tf):
    prog = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    mirrored_variable = tf.Variable(1.)
""")
    ns = prog.run()
    assert_equal(repr(ns["mirrored_variable"]),
                 "MirroredVariable:{\n"
                 "  0: <tf.Variable 'Variable:0' shape=() dtype=float32, numpy=1.0>,\n"
                 "  1: <tf.Variable 'Variable/replica_1:0' shape=() dtype=float32, numpy=1.0>\n"
                 "}", what="repr(mirrored_variable)", call="MirroredStrategy(2): tf.Variable(1.) in scope")


@clause("mirrored.variables")
@pytest.mark.parametrize("n", [2, 3])
def test_one_copy_per_replica_in_sync(backend, tf, n):
    if n > backend.max_replicas:
        pytest.skip(f"needs {n} replicas")
    strategy = backend.make_strategy("mirrored", n)
    with strategy.scope():
        v = tf.Variable([1.0, 2.0])
    call = f"MirroredStrategy({n}): tf.Variable in scope"
    local = strategy.experimental_local_results(v)
    assert_equal(len(local), n, what="copies", call=call)
    for i, c in enumerate(local):
        _expect_device(c.device, f"device:CPU:{i}", f"copy {i} device", call)
    v.assign([3.0, 4.0])
    for i, c in enumerate(strategy.experimental_local_results(v)):
        assert_equal(c, np.array([3.0, 4.0], np.float32), what=f"copy {i} after assign", call=call)
    assert_true(all(a.name != b.name for a, b in zip(local, local[1:])) or n == 1, "copies share a name", call=call)


# -- mirrored.aggregation -------------------------------------------------------------------------------
AGGREGATION = """
strategy = backend.make_strategy(kind, n)
with strategy.scope():
    v = tf.Variable(10.0, aggregation=getattr(tf.VariableAggregation, aggregation))
def fn():
    i = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
    v.assign_add(i + 1.0)
    return tf.constant(0.0)
strategy.run(fn)
copies = [backend.to_numpy(c) for c in strategy.experimental_local_results(v)]
value = backend.to_numpy(tf.convert_to_tensor(v))
"""


@clause("mirrored.aggregation")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
@pytest.mark.parametrize("aggregation", ["SUM", "MEAN", "ONLY_FIRST_REPLICA"])
def test_replica_updates_are_aggregated(backend, kind, aggregation):
    """Replica i adds i + 1 to a variable holding 10: SUM applies the total, MEAN the average,
    ONLY_FIRST_REPLICA replica 0's update; every copy ends equal."""
    n = 3
    prog = Program(backend, AGGREGATION, kind=kind, n=n, aggregation=aggregation)
    ns = prog.run()
    deltas = [float(i + 1) for i in range(n)]
    expected = 10.0 + {"SUM": sum(deltas), "MEAN": sum(deltas) / n, "ONLY_FIRST_REPLICA": deltas[0]}[aggregation]
    prog.expect("value", expected)
    call = f"{kind}({n}): tf.Variable(10.0, aggregation={aggregation}); replica i assign_add(i + 1)"
    assert_equal(ns["value"], np.float32(expected), call=call)
    for i, c in enumerate(ns["copies"]):
        assert_equal(c, np.float32(expected), what=f"copy {i}", call=call)


@clause("mirrored.aggregation", ref="doc")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_no_aggregation_in_replica_context_raises(backend, tf, kind):
    """tf.VariableAggregation.NONE: "giving an error if you use a variable-update operation with
    multiple replicas"."""
    prog = Program(backend, AGGREGATION, kind=kind, n=2, aggregation="NONE")
    prog.expect_error("ValueError: an aggregation method is needed to update in replica context")
    with raises(ValueError, match="aggregation", call=f"{kind}(2): assign_add in replica context, aggregation=NONE"):
        prog.run()


@clause("mirrored.aggregation", ref="tf221")
def test_no_aggregation_mirrored_updates_each_copy(backend, tf):
    """TF 2.21: a MirroredVariable without aggregation is updated by each replica on its own copy
    (the copies drift apart); CentralStorageStrategy's variable raises ValueError."""
    prog = Program(backend, AGGREGATION, kind="mirrored", n=2, aggregation="NONE")
    ns = prog.run()
    prog.expect("copies", [11.0, 12.0])
    assert_equal([float(c) for c in ns["copies"]], [11.0, 12.0], what="copies",
                 call="mirrored(2): tf.Variable(10.0), replica i assign_add(i + 1) without aggregation")
    prog = Program(backend, AGGREGATION, kind="central_storage", n=2, aggregation="NONE")
    with raises(ValueError, match="You must specify an aggregation method",
                call="central_storage(2): assign_add in replica context, aggregation=NONE"):
        prog.run()
# -- mirrored.local-devices-in-cluster ---------------------------------------------------------------
@clause("mirrored.local-devices-in-cluster", ref="tf221")
@pytest.mark.requires("multi_worker", "host_config")
def test_mirrored_on_local_cpus_after_a_ps_cluster_connected(backend, tf):
    backend.configure_host(cpus=2)
    cluster = backend.make_ps_cluster(workers=1, ps=1)
    assert cluster.strategy is not None
    call = 'after ParameterServerStrategy connected: MirroredStrategy(["CPU:0", "CPU:1"])'
    strategy = tf.distribute.MirroredStrategy(["CPU:0", "CPU:1"])
    devices = list(strategy.extended.worker_devices)
    assert_equal(len(devices), 2, what="number of worker_devices", call=call)
    for i, d in enumerate(devices):
        _expect_device(d, f"/job:chief/replica:0/task:0/device:CPU:{i}", f"worker_devices[{i}]", call)
    with strategy.scope():
        v = tf.Variable(1.0)
    comps = strategy.experimental_local_results(v)
    for i, c in enumerate(comps):
        _expect_device(c.device, f"/job:chief/replica:0/task:0/device:CPU:{i}", f"variable component {i}", call)
    out = strategy.experimental_local_results(strategy.run(lambda: tf.constant(2.0) * 3.0))
    assert_equal([float(to_numpy(x)) for x in out], [6.0, 6.0], what="run results", call=call)
    values = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(float(ctx.replica_id_in_sync_group + 1)))
    assert_equal(float(to_numpy(strategy.reduce("SUM", values, axis=None))), 3.0, what="reduce(SUM)", call=call)
    try:
        tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)
        refused = None
    except Exception as e:  # noqa: BLE001 - TF 2.21 raises AttributeError (no _cluster_coordinator)
        refused = e
    assert_true(refused is not None, "ClusterCoordinator accepted a MirroredStrategy", call=call)


@clause("placement.soft-placement", ref="tf221")
def test_a_device_the_machine_lacks_is_soft_placed_or_refused(tf):
    """tf.device naming a device the machine does not have: with soft placement (the default) the
    op and a variable run on the task's best device (a GPU when it has one, else CPU:0); without
    it, InvalidArgumentError "Could not satisfy device specification"; a task the machine does not
    have is "unknown device" either way."""
    names = [d.name for d in tf.config.list_logical_devices()]
    gpus = [n for n in names if ":GPU:" in n]
    want = "GPU:0" if gpus else "CPU:0"
    assert_equal(tf.config.get_soft_device_placement(), True, call="tf.config.get_soft_device_placement()",
                 what="soft placement at start")
    for spec in ("/GPU:7", "/CPU:9", "/TPU:0"):
        with tf.device(spec):
            y = tf.constant([1.0]) + 1
            v = tf.Variable(1.0)
        call = f"with tf.device({spec!r}) on a machine with {names}"
        assert_true(y.device.endswith("device:" + want), f"the op ran on {y.device}, but should run on {want}",
                    call=call)
        assert_true(_var_device(v).endswith("device:" + want),
                    f"the variable is on {_var_device(v)}, but should be on {want}", call=call)
    tf.config.set_soft_device_placement(False)
    try:
        assert_equal(tf.config.get_soft_device_placement(), False, call="set_soft_device_placement(False)",
                     what="the switch")
        with pytest.raises(tf.errors.InvalidArgumentError, match="Could not satisfy device specification"):
            with tf.device("/CPU:9"):
                tf.constant([1.0]) + 1
        with tf.device("/CPU:0"):   # (a device the machine has is placed as before)
            ok = tf.constant([1.0]) + 1
        assert_true(ok.device.endswith("device:CPU:0"), f"the op ran on {ok.device}, but should run on CPU:0",
                    call="with tf.device('/CPU:0') without soft placement")
    finally:
        tf.config.set_soft_device_placement(True)
    with pytest.raises(tf.errors.InvalidArgumentError, match="unknown device"):
        with tf.device("/job:nosuchjob/task:0"):
            tf.constant([1.0]) + 1


@clause("placement.visible-devices", ref="tf221")
def test_visible_devices_are_checked_and_fixed_once_initialised(tf):
    """get_visible_devices lists the physical devices the runtime uses (all of them unless hidden
    before start-up); set_visible_devices takes only the machine's PhysicalDevices of the given
    type, accepts a call that changes nothing, and refuses a change once the runtime runs."""
    tf.config.list_logical_devices()   # (the runtime is initialised from here on)
    physical = tf.config.list_physical_devices()
    visible = tf.config.get_visible_devices()
    cpus = tf.config.list_physical_devices("CPU")
    assert_true(bool(cpus) and all(d in physical for d in visible),
                f"visible devices {visible} should be physical devices {physical}, the CPU among them",
                call="tf.config.get_visible_devices()")
    assert_equal(tf.config.get_visible_devices("CPU"), [d for d in visible if d.device_type == "CPU"],
                 call="get_visible_devices('CPU')", what="the visible CPUs")
    tf.config.set_visible_devices(tf.config.get_visible_devices("GPU"), "GPU")   # no change: allowed
    with pytest.raises(ValueError, match="Unrecognized device"):
        tf.config.set_visible_devices(cpus, "GPU")
    with pytest.raises(ValueError, match="Unrecognized device"):
        tf.config.set_visible_devices("CPU:0")
    with pytest.raises(RuntimeError, match="Visible devices cannot be modified after being initialized"):
        tf.config.set_visible_devices([], "CPU")
    assert_equal(tf.config.get_visible_devices(), visible, call="after the refused calls",
                 what="get_visible_devices()")
