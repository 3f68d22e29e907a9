"""The disagreement classes of fz52d (tests/fuzz51d/fz51d_gen.py run by the fifty-second session: the tf.distribute
API generator, with ParameterServerStrategy + ClusterCoordinator programs from seed 52208 on), each fixed at its
root and checked here against TF 2.21:

- unread_variable (clause run.per-replica): `v.assign(...)`, `assign_add`, `assign_sub`, the `scatter_*` methods and
  a slice's `assign` (read_value=True) return a new `_UnreadVariable` each call (resource_variable_ops.py
  `_lazy_read`): named "UnreadVariable", its own `ref()`, reading the variable when used (a later write shows),
  its updates writing the variable; strategy.run regroups the replicas' ones into a PerReplica (a plain variable's
  too), a one-replica MirroredStrategy's is the component's, a MirroredVariable's cross-replica update result is a
  `Mirrored` of them, CentralStorage's AggregatingVariable gives its variable's. simdist returned the variable
  itself (fz51d seeds 51201 #7, 51203 #12, 51205 #16).
- mwms_reduce_axis (clause run.per-replica): MultiWorkerMirroredStrategy.reduce with an axis runs its per-replica
  reduce_sum / mean helper in a tf.function, so a dict value is the graph conversion's TypeError, a tuple of
  mismatched shapes the Pack's trace-time ValueError, a tuple of mixed dtypes TypeError. simdist converted the
  structure eagerly (ValueError, InvalidArgumentError).
- ps_variables (clause pss.round-robin): every variable ParameterServerStrategy creates (one replica per worker; each
  shard of a partitioned one too) is a `CachingVariable` (ps_values.py), its updates' results `_UnreadVariable`s;
  `schedule` returns a `RemoteValueImpl` (a RemoteValue), `create_per_worker_dataset(fn)` a
  `PerWorkerDatasetFromDatasetFunction` whose iterator is a `PerWorkerDistributedIterator`, `Checkpoint.restore` /
  `read` a `CheckpointLoadStatus`. simdist made ResourceVariables, RemoteValue, PerWorkerDataset / PerWorkerIterator
  and `_Status` (fz52d seed 52208 #0, #1, #3, #9, #11).
- sharded_api (clause pss.sharded-update): TF 2.21's ShardedVariable has no `read_value`, `value` or `trainable`
  (AttributeError), has an `is_sharded_variable` property, and its `scatter_*` methods decompose the IndexedSlices
  by shard and return the ShardedVariable (indices must be 1-D: ValueError). simdist had read_value / value /
  trainable and no scatter methods (fz52d seed 52209 #4, #6).
- ps_exhausted (clause coord.per-worker-dataset): `next()` of an exhausted per-worker iterator in a scheduled
  function is OutOfRangeError (IteratorGetNext), re-raised at join; simdist let StopIteration out (seed 52212 #12).

Each case is a list of [label, outcome]; an outcome is a value's [class, dtype, shape, values] or [error class,
first line of the message].
"""

from __future__ import annotations

import os
from typing import Any, Callable

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _val(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _val(x[k]) for k in sorted(x)}
    if isinstance(x, (list, tuple)):
        return [type(x).__name__, [_val(v) for v in x]]
    if hasattr(x, "numpy") and hasattr(x, "dtype"):
        a = x.numpy()
        return ["tensor", x.dtype.name, list(getattr(a, "shape", ())), a.tolist()]
    if x is None or isinstance(x, (bool, int, float, str)):
        return [type(x).__name__, x]
    return [type(x).__name__, str(x)]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, _val(fn())])
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        out.append([label, [type(e).__name__]])


def _kind(x: Any) -> str:
    """A value's class name, a tensor's as "tensor" (TF's EagerTensor, simdist's Tensor)."""
    n = type(x).__name__
    return "tensor" if n in ("EagerTensor", "Tensor") else n


def _unread(tf: Any, out: list, workdir: str) -> None:
    t = lambda label, fn: _try(out, label, fn)   # noqa: E731
    v = tf.Variable(1.0, name="vv")
    a = v.assign(5.0)
    t("type", lambda: (_kind(a), isinstance(a, tf.Variable), a is v))
    t("repr", lambda: repr(a))
    t("name", lambda: a.name)
    t("attrs", lambda: (a.trainable, str(a.dtype), a.shape.as_list(), a.handle is v.handle))
    v.assign(7.0)
    t("later write", lambda: (a.numpy(), a.read_value(), tf.convert_to_tensor(a), a + 1.0, a.value()))
    t("chain", lambda: (_kind(v.assign(1.0).assign_add(2.0)), v.numpy()))
    b = v.assign_add(1.0)
    t("unread assign", lambda: (_kind(b.assign(10.0)), v.numpy(), b.numpy(), _kind(b.assign_sub(1.0))))
    t("ref", lambda: (a.ref() == v.ref(), a.ref() == b.ref(), a.ref() == a.ref(), a in [v]))
    t("read_value=False", lambda: v.assign(1.0, read_value=False))
    w = tf.Variable([1.0, 2.0, 3.0])
    t("scatter", lambda: (_kind(w.scatter_add(tf.IndexedSlices(tf.constant([1.0]), tf.constant([0])))), w.numpy()))
    t("scatter of unread", lambda: _kind(w.assign([3.0, 4.0, 5.0]).scatter_sub(
        tf.IndexedSlices(tf.constant([1.0]), tf.constant([2])))))
    t("slice assign", lambda: (_kind(w[0].assign(9.0)), w.numpy()))
    t("sparse_read", lambda: w.assign([3.0, 4.0, 5.0]).sparse_read([1, 2]))
    g = tf.Variable(2.0)
    with tf.GradientTape() as tape:
        u = g.assign(3.0)
        y = u * u
    t("gradient", lambda: tape.gradient(y, g))

    @tf.function
    def f() -> Any:
        r = v.assign(2.0)
        v.assign_add(1.0)
        return r + 0.0, r.read_value(), r.name, v.assign(1.0).assign_add(4.0)
    t("tf.function", lambda: f())
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with s.scope():
        m = tf.Variable(3.0)
        on = tf.Variable(3.0, synchronization=tf.VariableSynchronization.ON_READ,
                         aggregation=tf.VariableAggregation.SUM)
    for label, fn in [("plain", lambda: v.assign_add(1.0)), ("mirrored", lambda: m.assign_add(1.0)),
                      ("on_read", lambda: on.assign_add(1.0))]:
        def one(fn: Any = fn) -> Any:
            r = s.run(fn)
            loc = s.experimental_local_results(r)
            return _kind(r), [_kind(x) for x in loc], [x.numpy() for x in loc]
        t(f"mirrored2 run {label}", one)
    t("mirrored2 run reduce", lambda: s.reduce("SUM", s.run(lambda: v.assign_add(1.0)), axis=None))
    t("mirrored2 cross assign", lambda: (_kind(m.assign(4.0)), [_kind(x) for x in s.experimental_local_results(
        m.assign(5.0))]))
    t("mirrored2 cross assign chain", lambda: m.assign(4.0).assign_add(1.0))

    def updated(r: Any, grouped: bool) -> Any:
        loc = s.experimental_local_results(r) if grouped else r
        return _kind(r), [_kind(x) for x in loc], [x.numpy() for x in loc]
    # (extended.update/update_non_slot run fn in the update context of each copy: TF returns that copy's
    # UnreadVariable; group=True makes each a tf.identity, so a Mirrored of tensors)
    devs = s.extended.non_slot_devices([m])
    t("mirrored2 update_non_slot grouped", lambda: updated(s.extended.update_non_slot(
        devs, lambda: m.assign_add(1.0)), True))
    t("mirrored2 update_non_slot ungrouped", lambda: updated(s.extended.update_non_slot(
        devs, lambda: m.assign_add(1.0), group=False), False))
    t("mirrored2 extended.update grouped", lambda: updated(s.extended.update(m, lambda c: c.assign_add(1.0)), True))
    s1 = tf.distribute.MirroredStrategy(["/cpu:0"])
    with s1.scope():
        m1 = tf.Variable(3.0)
    t("mirrored1 run", lambda: (_kind(s1.run(lambda: m1.assign_add(1.0))), repr(s1.run(lambda: m1.assign_add(1.0)))))
    od = tf.distribute.OneDeviceStrategy("/cpu:0")
    with od.scope():
        o1 = tf.Variable(3.0)
    t("one device", lambda: (_kind(o1.assign(1.0)), _kind(od.run(lambda: o1.assign_add(1.0)))))
    cs = tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])
    with cs.scope():
        c1 = tf.Variable(3.0)
    t("central cross assign", lambda: (_kind(c1), _kind(c1.assign(1.0)), c1.assign_add(2.0)))


def _mwms_axis(tf: Any, out: list, workdir: str) -> None:
    s = tf.distribute.MultiWorkerMirroredStrategy()
    pr = s.run(lambda: {"a": tf.constant([1.0, 2.0]), "b": tf.constant([[3.0]])})
    values = {"dict": pr, "dict_plain": {"a": tf.constant([1.0, 2.0])},
              "tuple_shapes": (tf.constant([1.0, 2.0]), tf.constant([3.0])),
              "tuple_dtypes": s.run(lambda: (tf.constant([1.0, 2.0]), tf.constant([1, 2]))),
              "tuple_same": (tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])),
              "list": [tf.constant([1.0, 2.0])]}
    for op in ["SUM", "MEAN"]:
        for ax in [0, 1, -1]:
            for k, val in values.items():
                _try(out, f"{op} axis={ax} {k}", lambda: s.reduce(op, val, axis=ax))


_TF_CLUSTER: list[Any] = []


def _pss(tf: Any, partitioner: Any) -> Any:
    """A ParameterServerStrategy on 1 worker and 2 ps: TF's in-process servers (started once per TF process), or a
    simulated cluster."""
    if not tf.__name__.startswith("tensorflow"):
        import ps_helpers
        return ps_helpers.pss(workers=1, ps=2, partitioner=partitioner)
    if not _TF_CLUSTER:
        from simdist.conformance.backends.tf_backend import start_in_process_servers
        spec, servers = start_in_process_servers(tf, 1, 2)
        _TF_CLUSTER.extend([tf.distribute.cluster_resolver.SimpleClusterResolver(
            tf.train.ClusterSpec(spec), rpc_layer="grpc"), servers])
    return tf.distribute.experimental.ParameterServerStrategy(_TF_CLUSTER[0], variable_partitioner=partitioner)


def _ps_variables(tf: Any, out: list, workdir: str) -> None:
    t = lambda label, fn: _try(out, label, fn)   # noqa: E731
    s = _pss(tf, tf.distribute.experimental.partitioners.FixedShardsPartitioner(2))
    with s.scope():
        a = tf.Variable(1.5, name="a")
        w = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], name="w")
    t("plain", lambda: (_kind(a), isinstance(a, tf.Variable), a.name, a.device.split("/")[1]))
    t("sharded", lambda: (_kind(w), [(_kind(x), x.name, x.shape.as_list()) for x in w.variables]))
    t("assign results", lambda: (_kind(a.assign(2.0)), a.assign_add(1.0), _kind(w.variables[0].assign_add(
        tf.ones([2, 2]))), _kind(w.assign_sub(tf.ones([3, 2]))), w.numpy()))
    c = tf.distribute.experimental.coordinator.ClusterCoordinator(s)

    @tf.function
    def step(x: Any) -> Any:
        a.assign_add(x)
        return a.read_value()
    rv = c.schedule(step, args=(tf.constant(1.0),))
    c.join()
    t("after a closure", lambda: (rv.fetch(), a.numpy(), _kind(a), _kind(rv),
                                  isinstance(rv, tf.distribute.experimental.coordinator.RemoteValue)))

    def dataset_fn() -> Any:
        return tf.data.Dataset.range(5).batch(2)
    pwd = c.create_per_worker_dataset(dataset_fn)
    it = iter(pwd)
    nxt = c.schedule(tf.function(lambda i: next(i)), args=(it,))
    t("per-worker dataset", lambda: (_kind(pwd), _kind(it), nxt.fetch()))
    ck = tf.train.Checkpoint(a=a, w=w)
    path = ck.save(os.path.join(workdir, "ck"))
    a.assign(0.0)
    t("checkpoint restore", lambda: (_kind(ck.restore(path)), a.numpy(), _kind(ck.read(path))))


def _sharded_api(tf: Any, out: list, workdir: str) -> None:
    t = lambda label, fn: _try(out, label, fn)   # noqa: E731
    s = _pss(tf, tf.distribute.experimental.partitioners.FixedShardsPartitioner(2))
    with s.scope():
        w = tf.Variable(tf.reshape(tf.range(10, dtype=tf.float32), [5, 2]))
    t("attributes", lambda: [hasattr(w, n) for n in ["read_value", "value", "trainable", "is_sharded_variable"]])
    t("is_sharded_variable", lambda: w.is_sharded_variable)
    t("read_value", lambda: w.read_value())
    IS = tf.IndexedSlices

    def scatter(method: str, values: list, indices: Any) -> Any:
        r = getattr(w, method)(IS(tf.constant(values), tf.constant(indices)))
        return _kind(r), r is w, tf.convert_to_tensor(w)
    t("scatter_add", lambda: scatter("scatter_add", [[1.0, 1.0], [2.0, 2.0]], [0, 4]))
    t("scatter_update", lambda: scatter("scatter_update", [[9.0, 9.0]], [3]))
    t("scatter_sub", lambda: scatter("scatter_sub", [[1.0, 1.0]], [2]))
    t("scatter_mul", lambda: scatter("scatter_mul", [[2.0, 2.0]], [1]))
    t("scatter_div", lambda: scatter("scatter_div", [[2.0, 4.0]], [1]))
    t("scatter_max", lambda: scatter("scatter_max", [[100.0, -1.0]], [0]))
    t("scatter_min", lambda: scatter("scatter_min", [[0.0, 100.0], [-5.0, -5.0]], [2, 3]))
    t("scatter 2-D indices", lambda: scatter("scatter_add", [[[1.0, 1.0]]], [[0]]))
    t("scatter out of range", lambda: scatter("scatter_add", [[1.0, 1.0]], [7]))
    t("scatter of a tensor", lambda: w.scatter_add(tf.constant([1.0])))


def _ps_exhausted(tf: Any, out: list, workdir: str) -> None:
    s = _pss(tf, None)
    c = tf.distribute.experimental.coordinator.ClusterCoordinator(s)
    it = iter(c.create_per_worker_dataset(lambda: tf.data.Dataset.range(5).batch(3)))
    step = tf.function(lambda i: next(i))
    rvs = [c.schedule(step, args=(it,)) for _ in range(3)]
    _try(out, "join", lambda: c.join())


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    {"unread_variable": _unread, "mwms_reduce_axis": _mwms_axis, "ps_variables": _ps_variables,
     "sharded_api": _sharded_api, "ps_exhausted": _ps_exhausted}[case["name"]](tf, out, workdir)
    return out


CASES: dict[str, dict] = {
    "unread_variable": {"strategy": "mirrored2", "name": "unread_variable"},
    "mwms_reduce_axis": {"strategy": "other", "name": "mwms_reduce_axis"},
    "ps_variables": {"strategy": "pss", "name": "ps_variables"},
    "sharded_api": {"strategy": "pss", "name": "sharded_api"},
    "ps_exhausted": {"strategy": "pss2", "name": "ps_exhausted"},
}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


def _check(name: str, tf_results: dict[int, Any], tmp_path: Any) -> None:
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[NAMES.index(name)]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    bad = [f"{w[0]}: TF {w[1]!r}, simdist {g[1]!r}" for g, w in zip(got, want) if g[1] != w[1]]
    assert not bad, f"{name}: {len(bad)} of {len(want)} outcomes differ from TF 2.21:\n" + "\n".join(bad[:12])


@pytest.mark.clause("run.per-replica")
@pytest.mark.parametrize("index", [NAMES.index("unread_variable")])
def test_update_results_are_unread_variables(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("unread_variable", tf_results, tmp_path)


@pytest.mark.clause("run.per-replica")
@pytest.mark.parametrize("index", [NAMES.index("mwms_reduce_axis")])
def test_mwms_reduce_with_axis_converts_in_a_function(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("mwms_reduce_axis", tf_results, tmp_path)



@pytest.mark.clause("pss.round-robin")
@pytest.mark.parametrize("index", [NAMES.index("ps_variables")])
def test_ps_variables_are_caching_variables(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("ps_variables", tf_results, tmp_path)



@pytest.mark.clause("pss.sharded-update")
@pytest.mark.parametrize("index", [NAMES.index("sharded_api")])
def test_sharded_variable_api(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("sharded_api", tf_results, tmp_path)



@pytest.mark.clause("coord.per-worker-dataset")
@pytest.mark.parametrize("index", [NAMES.index("ps_exhausted")])
def test_exhausted_per_worker_iterator_is_out_of_range(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("ps_exhausted", tf_results, tmp_path)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
