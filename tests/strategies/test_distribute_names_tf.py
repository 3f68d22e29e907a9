"""tf.distribute's remaining public names against TF 2.21 (the fortieth session): RunOptions,
CrossDeviceOps and its three kinds used directly, the
interface types DistributedDataset / DistributedIterator (and the default strategy's
`experimental_distribute_dataset`, the dataset itself), CommunicationOptions / CollectiveHints
(factories of one Options class), PreemptionWatcher off TPUs, PerWorkerValue(s) and
`coordinator.experimental_get_current_worker_index` on a ParameterServerStrategy cluster (TF: in-process
gRPC servers, tests/keras/tf_cases.pss_strategy; simdist: a simulated cluster of 2 workers and 1 ps).

Each case is one program, the same on both backends, returning plain Python values (a raised error
is its class and message); TF runs it in a worker process (tf_programs.spawn, one process per
strategy kind; live or from the golden). Which worker of TF's cluster runs a scheduled closure is
up to TF's scheduler, so the PS programs compare what holds for every schedule: each closure's
element came from the shard of the worker index it read.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def attempt(f: Callable[[], Any]) -> Any:
    try:
        return ["ok", f()]
    except Exception as e:  # noqa: BLE001 - the class and message are the observable
        return ["error", type(e).__name__, str(e)]


def run_options(tf: Any) -> Any:
    D = tf.distribute
    return {"default": attempt(lambda: repr(D.RunOptions())),
            "fields": list(D.RunOptions._fields),
            "positional": attempt(lambda: tuple(D.RunOptions(False, True, 3))),
            "unknown keyword": attempt(lambda: D.RunOptions(foo=1)),
            "a tuple": isinstance(D.RunOptions(), tuple)}


def default_dataset(tf: Any) -> Any:
    s = tf.distribute.get_strategy()
    ds = tf.data.Dataset.range(6).batch(4)
    d = s.experimental_distribute_dataset(ds)
    it = iter(d)
    return {"is the dataset": d is ds, "a tf.data.Dataset": isinstance(d, tf.data.Dataset),
            "a DistributedDataset": isinstance(d, tf.distribute.DistributedDataset),
            "iterator a DistributedIterator": isinstance(it, tf.distribute.DistributedIterator),
            "values": [b.numpy().tolist() for b in it],
            "a list given": attempt(lambda: s.experimental_distribute_dataset([1, 2], options="any")),
            "from function": isinstance(s.distribute_datasets_from_function(lambda ctx: ds),
                                        tf.distribute.DistributedDataset)}


def one_device_dataset(tf: Any) -> Any:
    s = tf.distribute.OneDeviceStrategy("/cpu:0")
    d = s.experimental_distribute_dataset(tf.data.Dataset.range(6).batch(4))
    f = s.distribute_datasets_from_function(lambda ctx: tf.data.Dataset.range(4).batch(2))
    return {"dataset": isinstance(d, tf.distribute.DistributedDataset),
            "iterator": isinstance(iter(d), tf.distribute.DistributedIterator),
            "from function": isinstance(f, tf.distribute.DistributedDataset),
            "its iterator": isinstance(iter(f), tf.distribute.DistributedIterator),
            "not a tf.data.Dataset": not isinstance(d, tf.data.Dataset)}


def mirrored_dataset(tf: Any) -> Any:
    D = tf.distribute
    s = D.MirroredStrategy(["/cpu:0", "/cpu:1"])
    d = s.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4))
    f = s.distribute_datasets_from_function(lambda ctx: tf.data.Dataset.range(4).batch(2))

    def local(options: Any) -> Any:
        return [t.numpy().tolist() for t in s.experimental_local_results(s.run(lambda: tf.constant(1.5), options=options))]
    return {"dataset": isinstance(d, D.DistributedDataset), "iterator": isinstance(iter(d), D.DistributedIterator),
            "from function": isinstance(f, D.DistributedDataset), "its iterator": isinstance(iter(f), D.DistributedIterator),
            "run with RunOptions": attempt(lambda: local(D.RunOptions(experimental_enable_dynamic_batch_size=False))),
            "run with a string": attempt(lambda: local("not options"))}


def interfaces(tf: Any) -> Any:
    D = tf.distribute
    dd, di = D.DistributedDataset(), D.DistributedIterator()
    return {"dataset members": sorted(n for n in dir(D.DistributedDataset) if not n.startswith("_")),
            "iterator members": sorted(n for n in dir(D.DistributedIterator) if not n.startswith("_")),
            "iter": attempt(lambda: iter(dd)), "dataset spec": attempt(lambda: dd.element_spec),
            "reduce": attempt(lambda: dd.reduce(0, lambda a, b: a)),
            "get_next": attempt(di.get_next), "iterator spec": attempt(lambda: di.element_spec),
            "optional": attempt(di.get_next_as_optional), "next": attempt(lambda: di.__next__()),
            "a tf.data.Dataset": isinstance(dd, tf.data.Dataset)}


def options_and_hints(tf: Any) -> Any:
    E = tf.distribute.experimental
    co, hints = E.CommunicationOptions(bytes_per_pack=8, timeout_seconds=2.0, implementation="ring"), E.CollectiveHints(16)
    return {"options": [type(co).__name__, str(co)], "hints": [type(hints).__name__, str(hints)],
            "options an instance of its name": isinstance(co, E.CommunicationOptions),
            "hints an instance of its name": isinstance(hints, E.CollectiveHints),
            "one class": type(co) is type(hints),
            "hints fields": [hints.bytes_per_pack, hints.timeout_seconds, str(hints.implementation)],
            "negative pack": attempt(lambda: E.CollectiveHints(bytes_per_pack=-1)),
            "experimental mwms given options": attempt(lambda: E.MultiWorkerMirroredStrategy(communication_options=co)),
            "experimental mwms": attempt(lambda: _mwms_facts(tf, E.MultiWorkerMirroredStrategy("ring")))}


def _mwms_facts(tf: Any, s: Any) -> Any:
    return [str(s.extended._communication_options.implementation),
            isinstance(s, tf.distribute.MultiWorkerMirroredStrategy),
            isinstance(tf.distribute.MultiWorkerMirroredStrategy(), tf.distribute.experimental.MultiWorkerMirroredStrategy)]


def preemption_watcher(tf: Any) -> Any:
    w = tf.distribute.experimental.PreemptionWatcher()
    return {"message": w.preemption_message, "block": attempt(w.block_until_worker_exit),
            "public": sorted(n for n in dir(w) if not n.startswith("_"))}


def worker_index_off_the_cluster(tf: Any) -> Any:
    C = tf.distribute.coordinator

    @tf.function
    def in_function() -> Any:
        return C.experimental_get_current_worker_index()
    return {"index eagerly": attempt(C.experimental_get_current_worker_index),
            "index in a function off the cluster": attempt(in_function),
            "per-worker value of numbers": attempt(lambda: C.PerWorkerValue([1, 2])),
            "empty per-worker value": attempt(lambda: type(C.PerWorkerValue([])).__name__),
            "one class": C.PerWorkerValue is tf.distribute.experimental.coordinator.PerWorkerValues}


def _describe(r: Any) -> Any:
    if isinstance(r, (list, tuple)):
        return [_describe(x) for x in r]
    if type(r).__name__ in ("Mirrored", "PerReplica"):
        return [type(r).__name__, [_describe(v) for v in r.values]]
    return ["T", r.numpy().tolist(), r.device.split("/")[-1]]


def cross_device_ops(tf: Any, replicas: int) -> Any:
    """Each kind's reduce, batch_reduce and broadcast onto a device and onto a mirrored variable;
    with three replicas, sums that round differently in any order but left to right."""
    D = tf.distribute
    devices = [f"/cpu:{i}" for i in range(replicas)]
    s = D.MirroredStrategy(devices)
    rows = [[1.0, 1e8, -1e8, 3.0], [1e8, 1.0, 1.0, 1e-8], [-1e8, -1e8, 1e8, 7.0]][:replicas]
    pr = s.run(lambda: tf.gather(tf.constant(rows), D.get_replica_context().replica_id_in_sync_group))
    with s.scope():
        mv = tf.Variable([0.0] * 4)
    out = {}
    for name, make in (("base", D.CrossDeviceOps), ("one", D.ReductionToOneDevice),
                       ("one onto the last", lambda: D.ReductionToOneDevice(devices[-1])),
                       ("nccl", D.NcclAllReduce), ("hierarchical", D.HierarchicalCopyAllReduce)):
        ops = make()
        for what, call in (("sum to cpu0", lambda: ops.reduce(D.ReduceOp.SUM, pr, "/cpu:0")),
                           ("mean to the variable", lambda: ops.reduce(D.ReduceOp.MEAN, pr, mv)),
                           ("a tensor to its device", lambda: ops.reduce(D.ReduceOp.SUM, tf.constant(3.0), "/cpu:0")),
                           ("a tensor to another", lambda: ops.reduce(D.ReduceOp.SUM, tf.constant(3.0), devices[-1])),
                           ("a string op", lambda: ops.reduce("SUM", pr, "/cpu:0")),
                           ("batch", lambda: ops.batch_reduce(D.ReduceOp.SUM, [(pr, "/cpu:0"), (pr, mv)])),
                           ("broadcast to the variable", lambda: ops.broadcast(tf.constant(5.0), mv)),
                           ("broadcast to one device", lambda: ops.broadcast(tf.constant(5.0), devices[-1])),
                           ("empty destinations", lambda: ops.reduce(D.ReduceOp.SUM, pr, [])),
                           ("empty batch", lambda: ops.batch_reduce(D.ReduceOp.SUM, [])),
                           ("strategy reduce with it", lambda: D.MirroredStrategy(devices, cross_device_ops=ops).reduce(
                               "SUM", pr, axis=None))):
            out[f"{name}: {what}"] = attempt(lambda: _describe(call()))
    out["subclasses"] = [issubclass(c, D.CrossDeviceOps) for c in (D.ReductionToOneDevice, D.NcclAllReduce,
                                                                   D.HierarchicalCopyAllReduce)]
    out["members"] = sorted(n for n in dir(D.CrossDeviceOps) if not n.startswith("_"))
    return out


def _pss_coordinator(tf: Any) -> Any:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "keras"))   # (tests/keras/tf_cases.py)
    import tf_cases
    s = tf_cases.pss_strategy(tf)
    return s, tf.distribute.coordinator.ClusterCoordinator(s)


def pss_worker_index(tf: Any, traced_dataset_fn: bool) -> Any:
    C = tf.distribute.coordinator
    s, c = _pss_coordinator(tf)

    def dataset_fn() -> Any:
        i = C.experimental_get_current_worker_index()
        return tf.data.Dataset.range(20).shard(2, i).map(lambda x: x * 10 + tf.cast(i, tf.int64))
    per_worker = c.create_per_worker_dataset(tf.function(dataset_fn) if traced_dataset_fn else dataset_fn)
    it = iter(per_worker)

    @tf.function
    def step(iterator: Any) -> Any:
        return next(iterator), C.experimental_get_current_worker_index()
    rvs = [c.schedule(step, args=(it,)) for _ in range(8)]
    c.join()
    pairs = [[int(v) for v in rv.fetch()] for rv in rvs]

    @tf.function
    def index() -> Any:
        return C.experimental_get_current_worker_index()
    got = c.schedule(index).fetch()
    return {"iterator a PerWorkerValue": isinstance(it, C.PerWorkerValue),
            "every element from its worker's shard": all(a % 10 == i and (a // 10) % 2 == i for a, i in pairs),
            "indices seen within the workers": sorted({i for _, i in pairs}) in ([0], [1], [0, 1]),
            "fetched index": [type(got).__name__, str(getattr(got, "dtype", "")), list(getattr(got, "shape", ()))],
            "on the coordinator": attempt(index),
            "pss dataset a DistributedDataset": isinstance(s.experimental_distribute_dataset(
                tf.data.Dataset.range(4).batch(2)), tf.distribute.DistributedDataset)}


#: name -> (clause, strategy kind, program)
PROGRAMS: dict[str, tuple[str, str, Callable[[Any], Any]]] = {
    "run-options": ("strategy.run-options", "default", run_options),
    "mirrored-dataset-and-run-options": ("strategy.run-options", "mirrored2", mirrored_dataset),
    "default-strategy-dataset": ("input.interface-types", "default", default_dataset),
    "one-device-dataset": ("input.interface-types", "one_device", one_device_dataset),
    "interfaces": ("input.interface-types", "default", interfaces),
    "communication-options-and-hints": ("mwms.communication-options", "default", options_and_hints),
    "cross-device-ops-2": ("extended.cross-device-ops", "mirrored2", lambda tf: cross_device_ops(tf, 2)),
    "cross-device-ops-3": ("extended.cross-device-ops", "mirrored3", lambda tf: cross_device_ops(tf, 3)),
    "preemption-watcher": ("pch.watcher", "default", preemption_watcher),
    "worker-index-off-the-cluster": ("coord.worker-index", "default", worker_index_off_the_cluster),
    "pss-worker-index": ("coord.worker-index", "pss", lambda tf: pss_worker_index(tf, False)),
    "pss-worker-index-traced-dataset-fn": ("coord.worker-index", "pss", lambda tf: pss_worker_index(tf, True)),
}
CASES: dict[str, dict] = {name: {"strategy": kind} for name, (_, kind, _) in PROGRAMS.items()}


def program(tf: Any, case: dict, workdir: str) -> Any:
    return PROGRAMS[case["name"]][2](tf)


for _name, _case in CASES.items():
    _case["name"] = _name


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


def _of(clause: str) -> Any:
    ks = [k for k, (c, _, _) in enumerate(PROGRAMS.values()) if c == clause]
    return pytest.mark.parametrize("index", ks, ids=[list(PROGRAMS)[k] for k in ks])


def _check(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = list(CASES)[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    for key in want:
        assert got.get(key) == want[key], f"{name}: {key}: simdist gives {got.get(key)!r}, but TF 2.21 gives {want[key]!r}"
    assert sorted(got) == sorted(want), f"{name}: simdist's keys {sorted(got)}, TF 2.21's {sorted(want)}"


@pytest.mark.clause("strategy.run-options")
@_of("strategy.run-options")
def test_run_options(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("input.interface-types")
@_of("input.interface-types")
def test_distributed_input_interface_types(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("mwms.communication-options")
@_of("mwms.communication-options")
def test_communication_options_factories(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("extended.cross-device-ops")
@_of("extended.cross-device-ops")
def test_cross_device_ops(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("pch.watcher")
@_of("pch.watcher")
def test_preemption_watcher_off_tpus(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("coord.worker-index")
@_of("coord.worker-index")
def test_current_worker_index(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
    os._exit(0)   # (PS servers and coordinator threads never shut down cleanly in-process)
