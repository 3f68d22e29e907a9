"""The programs of test_dvsweep66b: distributed variables written and read by every method in both contexts
(Mirrored and CentralStorage on two CPUs), merge_call, and ParameterServerStrategy's variables (round-robin
placement, ShardedVariable) — each a function of (tf, ...) returning JSON-able observations, errors by class."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.raw_bits import raw_bits as _raw
from simdist.conformance.suite.temp_dirs import TempDir

SYNC = ("ON_WRITE", "ON_READ")
AGG = ("NONE", "SUM", "MEAN", "ONLY_FIRST_REPLICA")
DTYPES = ("float32", "float64", "int32", "int64", "bool")
REPLICA_METHODS = ("assign", "assign_add", "assign_sub", "scatter_update", "scatter_add", "scatter_sub")
CROSS_METHODS = ("assign", "assign list", "assign numpy", "assign_add", "assign_sub", "scatter_update",
                 "scatter_add", "slice assign")


def _try(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except Exception as e:   # noqa: BLE001 -- the refusal's class is the observation
        return ["error", type(e).__name__]


def _kind(x: Any) -> str:
    """A result's class name; TF's EagerTensor written as Tensor (simdist's eager tensors are of its one Tensor
    class: a facade-wide naming, not a variable rule; as tests/strategies/test_fuzz8_run_tf.py compares)."""
    name = type(x).__name__
    return "Tensor" if name == "EagerTensor" else name


def _init(tf: Any, dt: str) -> Any:
    return tf.constant([True, False, True]) if dt == "bool" else tf.constant([1, 2, 3], dt)


def _make(tf: Any, s: Any, dt: str, sy: str, ag: str) -> Any:
    with s.scope():
        return tf.Variable(_init(tf, dt), synchronization=getattr(tf.VariableSynchronization, sy),
                           aggregation=getattr(tf.VariableAggregation, ag))


def _locals(s: Any, v: Any) -> Any:
    return [_raw(x) for x in s.experimental_local_results(v)]


def _replica_write(tf: Any, v: Any, method: str, dt: str) -> Any:
    """One replica's write of a per-replica value (uneven across replicas: MEAN's halves show)."""
    rid = tf.distribute.get_replica_context().replica_id_in_sync_group
    if dt == "bool":
        val = tf.equal(tf.constant([0, 1, 1]) * rid, tf.constant([0, 0, 1]))
    else:
        val = tf.cast(tf.stack([rid * 3 + 1, rid + 2, 5 - rid]), dt)
    if method.startswith("scatter_"):
        sl = tf.IndexedSlices(val[:2], tf.constant([2, 0]))
        return getattr(v, method)(sl)
    return getattr(v, method)(val)


def replica_writes(tf: Any, s: Any) -> dict[str, Any]:
    """Each dtype × synchronization × aggregation × write method in replica context (a tf.function run by
    strategy.run): the replicas' reads after the write, the copies, and the cross-replica read."""
    out: dict[str, Any] = {}
    for dt in DTYPES:
        methods = ("assign", "scatter_update") if dt == "bool" else REPLICA_METHODS
        for sy in SYNC:
            for ag in AGG:
                for method in methods:
                    key = f"{dt} {sy} {ag} {method}"
                    v = _try(lambda: _make(tf, s, dt, sy, ag))
                    if isinstance(v, list):
                        out[key] = ["create", v]
                        continue

                    @tf.function
                    def step() -> Any:
                        def fn() -> Any:
                            _replica_write(tf, v, method, dt)
                            return v.read_value()
                        return s.run(fn)
                    row = [_try(lambda: [_raw(x) for x in s.experimental_local_results(step())])]
                    row.append(_try(lambda: _locals(s, v)))
                    row.append(_try(lambda: _raw(v.read_value())))
                    out[key] = row
    return out


def _cross_write(tf: Any, v: Any, method: str, dt: str) -> Any:
    vals = [True, True, False] if dt == "bool" else [4, 6, 8]
    if method == "assign":
        return v.assign(tf.constant(vals, dt))
    if method == "assign list":
        return v.assign(vals)
    if method == "assign numpy":
        return v.assign(np.array(vals, dtype=dt))
    if method == "slice assign":
        return v[1:].assign(tf.constant(vals[:2], dt))
    if method.startswith("scatter_"):
        return getattr(v, method)(tf.IndexedSlices(tf.constant(vals[:2], dt), tf.constant([2, 0])))
    return getattr(v, method)(tf.constant(vals, dt))


def cross_writes(tf: Any, s: Any, devices: tuple[str, ...]) -> dict[str, Any]:
    """Each dtype × synchronization × aggregation × write method in cross-replica context: the write's result type,
    the copies, the read, device-scoped reads (a conversion, tf.identity, and read_value: TF 2.21 reads a
    MirroredVariable's first copy in the first, the device's in the second), and a cross-replica tf.gather."""
    out: dict[str, Any] = {}
    for dt in ("float32", "int32", "bool"):
        methods = ("assign", "assign list", "scatter_update", "slice assign") if dt == "bool" else CROSS_METHODS
        for sy in SYNC:
            for ag in AGG:
                for method in methods:
                    key = f"{dt} {sy} {ag} {method}"
                    v = _try(lambda: _make(tf, s, dt, sy, ag))
                    if isinstance(v, list):
                        out[key] = ["create", v]
                        continue
                    r = _try(lambda: _cross_write(tf, v, method, dt))
                    row: list[Any] = [r if isinstance(r, list) else _kind(r)]
                    row.append(_try(lambda: _locals(s, v)))
                    row.append(_try(lambda: _raw(v.read_value())))
                    for d in devices:
                        def scoped(d: str = d) -> Any:
                            with tf.device(d):
                                return [_raw(tf.identity(v)), _raw(v.read_value())]
                        row.append(_try(scoped))
                    row.append(_try(lambda: _raw(tf.gather(v, [2, 0]))))
                    out[key] = row
    return out


def merge_calls(tf: Any, s: Any) -> dict[str, Any]:
    """merge_call in replica context: reduce_to + extended.update of per-replica values, batch_reduce_to of a
    variable, read_var of a sync-on-read variable, and update's result types."""
    out: dict[str, Any] = {}
    for dt in ("float32", "int32"):
        with s.scope():
            v = tf.Variable(tf.constant([1, 2], dt))
            m = tf.Variable(tf.constant([1, 2], dt), aggregation=tf.VariableAggregation.SUM)
            r = tf.Variable(tf.constant([1, 2], dt), synchronization=tf.VariableSynchronization.ON_READ,
                            aggregation=tf.VariableAggregation.SUM)

        def merge_fn(dist: Any, val: Any) -> Any:
            red = dist.extended.reduce_to(tf.distribute.ReduceOp.SUM, val, destinations=v)
            up = dist.extended.update(v, lambda var, t: var.assign_add(t), args=(red,), group=False)
            up2 = dist.extended.update(m, lambda var, t: var.assign_sub(t), args=(val,), group=True)
            both = dist.extended.batch_reduce_to(tf.distribute.ReduceOp.SUM, [(m, m), (val, v)])
            return up, up2, both, dist.extended.read_var(r)

        @tf.function
        def step() -> Any:
            def fn() -> Any:
                rid = tf.distribute.get_replica_context().replica_id_in_sync_group
                val = tf.cast(tf.stack([rid + 1, 3 * rid + 2]), dt)
                r.assign(val)
                res = tf.distribute.get_replica_context().merge_call(merge_fn, args=(val,))
                return v.read_value(), m.read_value(), res[3]
            return s.run(fn)
        got = _try(lambda: [[_raw(x) for x in s.experimental_local_results(t)] for t in step()])
        out[dt] = [got, _locals(s, v), _locals(s, m), _try(lambda: _raw(r.read_value()))]
        out[dt + " cross"] = [
            _try(lambda: [_raw(x) for x in s.experimental_local_results(
                s.extended.batch_reduce_to(tf.distribute.ReduceOp.SUM, [(v, v), (r, v)]))]),
            _try(lambda: _raw(s.extended.read_var(r))),
            _try(lambda: _kind(s.extended.update(v, lambda var, t: var.assign(t), args=(tf.constant([7, 8], dt),)))),
            _try(lambda: _kind(s.extended.update(v, lambda var: {"a": var.read_value()}, group=True)["a"])),
        ]
    return out


def _var_row(v: Any) -> list[Any]:
    return [type(v).__name__, v.name, str(v.device), v.shape.as_list(), v.dtype.name]


def ps_plain(tf: Any, cluster: Any) -> dict[str, Any]:
    """A two-ps cluster without a partitioner: round-robin placement by dtype, class names by synchronization ×
    aggregation, and writes of each method through the coordinator (a scheduled tf.function run by strategy.run)."""
    s = cluster.strategy
    out: dict[str, Any] = {}
    with s.scope():
        vs = [tf.Variable(_init(tf, dt), name=f"v_{dt}") for dt in DTYPES]
    out["placement"] = [_var_row(v) for v in vs]
    for sy in ("AUTO", "ON_WRITE", "ON_READ"):
        for ag in AGG:
            def make(sy: str = sy, ag: str = ag) -> Any:
                with s.scope():
                    v = tf.Variable(tf.constant([1.0, 2.0, 3.0]), synchronization=getattr(tf.VariableSynchronization, sy),
                                    aggregation=getattr(tf.VariableAggregation, ag))
                return [type(v).__name__, str(v.device)[-14:], _raw(v.read_value())]
            out[f"create {sy} {ag}"] = _try(make)
    coord = cluster.coordinator
    for dt in ("float32", "int64"):
        for ag in ("NONE", "SUM", "MEAN", "ONLY_FIRST_REPLICA"):
            for method in REPLICA_METHODS:
                key = f"{dt} {ag} {method}"
                try:
                    with s.scope():
                        v = tf.Variable(_init(tf, dt), aggregation=getattr(tf.VariableAggregation, ag))
                except Exception as e:   # noqa: BLE001
                    out[key] = ["create", type(e).__name__]
                    continue

                @tf.function
                def step() -> Any:
                    def fn() -> Any:
                        _replica_write(tf, v, method, dt)
                        return v.read_value()
                    return s.run(fn)
                row = [_try(lambda: _raw(coord.schedule(step).fetch()))]
                row.append(_try(lambda: _raw(v.read_value())))
                row.append(_try(lambda: _kind(_cross_write(tf, v, method, dt))))
                row.append(_try(lambda: _raw(v.read_value())))
                out[key] = row
    return out


def ps_sharded(tf: Any, cluster: Any) -> dict[str, Any]:
    """A two-ps cluster with FixedShardsPartitioner(2): ShardedVariable's shards (names, shapes, devices), its
    methods (assign*, scatter_*, sparse_read, gather, embedding_lookup), writes through the coordinator, and a
    save/restore through tf.train.Checkpoint."""
    s = cluster.strategy
    out: dict[str, Any] = {}
    with s.scope():
        vs = {(n, dt): tf.Variable(tf.reshape(tf.range(n * 2, dtype=dt), [n, 2]), name=f"w{n}_{dt}")
              for n in (1, 3, 5) for dt in ("float32", "int32")}
        sc = tf.Variable(3.0, name="scalar")
    out["shards"] = {f"{n[0]} {n[1]}": [type(v).__name__, v.name, v.shape.as_list(), v.dtype.name,
                              [_var_row(p) for p in getattr(v, "variables", [v])]]
                     for n, v in ((k, vs[k]) for k in sorted(vs, key=str))}
    out["scalar"] = _var_row(sc)
    for (n, dt), v in sorted(vs.items(), key=lambda kv: str(kv[0])):
        if n == 1:
            continue
        key = f"{n} {dt}"
        row: list[Any] = [_try(lambda: _raw(tf.convert_to_tensor(v)))]
        row.append(_try(lambda: _raw(v.sparse_read([n - 1, 0]))))
        row.append(_try(lambda: _raw(tf.gather(v, [n - 1, 0, 1]))))
        row.append(_try(lambda: _raw(tf.nn.embedding_lookup(v, [1, n - 1]))))
        row.append(_try(lambda: _kind(v.assign_add(tf.ones([n, 2], dt)))))
        row.append(_try(lambda: type(v.scatter_add(tf.IndexedSlices(tf.ones([2, 2], dt) * 5,
                                                                    tf.constant([n - 1, 0])))).__name__))
        row.append(_try(lambda: type(v.scatter_update(tf.IndexedSlices(tf.fill([1, 2], tf.constant(9, dt)),
                                                                       tf.constant([1])))).__name__))
        row.append(_try(lambda: type(v.scatter_sub(tf.IndexedSlices(tf.ones([1, 2], dt),
                                                                    tf.constant([n - 1])))).__name__))
        row.append(_try(lambda: _kind(v.assign_sub(tf.ones([n, 2], dt)))))
        row.append(_try(lambda: [_raw(p) for p in v.variables]))
        row.append(_try(lambda: _kind(v.assign(tf.reshape(tf.range((n + 1) * 2, dtype=dt), [n + 1, 2])))))
        row.append(_try(lambda: _raw(v.read_value())))
        out[key] = row
    coord = cluster.coordinator
    v = vs[(5, "float32")]

    @tf.function
    def step() -> Any:
        def fn() -> Any:
            v.assign_add(tf.ones([5, 2]))
            v.scatter_add(tf.IndexedSlices(tf.constant([[10.0, 20.0]]), tf.constant([4])))
            return tf.gather(v, [4, 0])
        return s.run(fn)
    out["scheduled"] = [_try(lambda: _raw(coord.schedule(step).fetch())), _raw(tf.convert_to_tensor(v))]
    with TempDir("dvsweep66b") as d:
        ck = tf.train.Checkpoint(v=v, w=vs[(3, "int32")])
        path = ck.save(d("ck"))
        before = _raw(tf.convert_to_tensor(v))
        v.assign(tf.fill([5, 2], 7.0))
        vs[(3, "int32")].assign(tf.zeros([3, 2], tf.int32))
        ck.restore(path)
        out["checkpoint"] = [before, _raw(tf.convert_to_tensor(v)), _raw(tf.convert_to_tensor(vs[(3, "int32")])),
                             sorted(n for n, _ in tf.train.list_variables(path) if not n.startswith("_CHECKPOINT")
                                    and "save_counter" not in n)]
    return out
