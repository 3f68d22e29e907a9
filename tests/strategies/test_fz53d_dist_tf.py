"""The disagreement classes of fz53d (tests/fuzz51d/fz51d_gen.py run by the fifty-third session: seeds 52202-52207
and 53201.. of the old draws, and the checkpoint-across-strategies programs `b_ckpt` from seed 53208 on), each fixed
at its root and checked here against TF 2.21:

- next_in_function (clause dataset.api-surface): `next(iterator)` of an exhausted iterator (a tf.data one, a
  distributed one of experimental_distribute_dataset / distribute_datasets_from_function, OneDevice's) inside a
  tf.function is IteratorGetNext's OutOfRangeError, where eager `next` is StopIteration; a `for` loop over the
  iterator in the function still ends quietly (AutoGraph's for_stmt uses get_next_as_optional). simdist
  raised StopIteration (dist52's open item, /work/wt/dist52_logs/repro_next_in_function.py).
- slices_mean_int (clause optim.sparse-all-reduce): an all-reduce (and strategy.reduce) MEAN of integer
  IndexedSlices over several replicas divides with truediv (cross_device_utils.divide_by_n_tensors_or_indexed_slices
  `values / n`): int32 / int64 values become float64. simdist kept the integer dtype, flooring (seed 52203 #4).
- aggregated_update (clause run.per-replica): a replica-context update of a variable with an aggregation returns what
  the merge's `extended.update` gives: CentralStorage's AggregatingVariable one UnreadVariable for every replica, so
  strategy.run returns it unwrapped (a tensor in a tf.function), not a PerReplica (seed 52203 #0); a MirroredVariable
  on several devices each replica's copy's value (update_regroup's tf.identity: a later write does not show).
- mirrored_argument (clause run.per-replica): a `Mirrored` value (extended.update's group=True result, a
  MirroredVariable's cross-replica assign result) passed to a tf.function is a tensor there (the Mirrored conversion:
  the primary's value); simdist passed the Mirrored object, so `x + 1.0` was TypeError (dist52's open item, probed).

- deferred_restore (clause pch.deferred-restore): a trackable attached to a Checkpoint after `restore`
  (`ckpt.v = variable`, made under any strategy or none) takes the checkpoint's value at once and counts as consumed
  by the status; simdist restored only what was attached at `restore` (seed 53208 #8).
- sharded_listing (clause pss.checkpoint-partitions): a ShardedVariable is one checkpoint key of its full shape
  (`list_variables`, `load_variable`); simdist's reader left it out (seed 53208 #2).

- counter_status (clause checkpoint.restore-status): `restore` makes the Checkpoint's save_counter; a checkpoint
  `write` wrote has no counter, so the counter is an existing object bound to nothing:
  assert_existing_objects_matched and assert_consumed fail (AssertionError). simdist passed them (seed 53210 #10).

Each case is a list of [label, outcome]; an outcome is a value's [class, dtype, shape, values] or [error class].
"""

from __future__ import annotations

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
    if type(x).__name__ == "IndexedSlices":
        return ["slices", _val(x.values), _val(x.indices)]
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


def _next_in_function(tf: Any, out: list, workdir: str) -> None:
    t = lambda label, fn: _try(out, label, fn)   # noqa: E731
    it = iter(tf.data.Dataset.range(1))
    nxt = tf.function(lambda i: next(i))
    t("first", lambda: nxt(it))
    t("exhausted in a function", lambda: nxt(it))
    it = iter(tf.data.Dataset.range(1))
    next(it)
    t("exhausted eagerly", lambda: next(it))
    t("get_next eagerly", lambda: it.get_next())

    @tf.function
    def loop(i: Any) -> Any:
        s = tf.constant(0, tf.int64)
        for x in i:
            s += x
        return s
    it = iter(tf.data.Dataset.range(3))
    t("for loop", lambda: loop(it))
    t("for loop exhausted", lambda: loop(it))
    # (left out: `next(it, default)` of an exhausted iterator in a function, OutOfRangeError on TF 2.21, the default
    # on simdist: docs/spec.md dataset.api-surface)
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    dd = s.experimental_distribute_dataset(tf.data.Dataset.range(4).batch(4))
    it = iter(dd)
    next(it)
    t("distributed, eager", lambda: next(it))
    it = iter(dd)
    t("distributed, function", lambda: [s.experimental_local_results(nxt(it)), nxt(it)])
    it = iter(dd)
    t("distributed, into run", lambda: [tf.function(lambda i: s.run(lambda x: x * 2, args=(next(i),)))(it)
                                        for _ in range(2)])

    @tf.function
    def dloop(i: Any) -> Any:
        total = tf.constant(0, tf.int64)
        for x in i:
            total += s.reduce("SUM", x, axis=0)
        return total
    t("distributed for loop", lambda: dloop(iter(s.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4)))))
    dfn = s.distribute_datasets_from_function(lambda ctx: tf.data.Dataset.range(2).batch(1))
    it = iter(dfn)
    next(it)
    t("from function, function", lambda: nxt(it))
    one = tf.distribute.OneDeviceStrategy("/cpu:0")
    it = iter(one.experimental_distribute_dataset(tf.data.Dataset.range(2).batch(2)))
    next(it)
    t("one device, function", lambda: nxt(it))
    t("one device, eager", lambda: next(it))


def _slices_mean_int(tf: Any, out: list, workdir: str) -> None:
    for name, make in [("mirrored", lambda: tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])),
                       ("central", lambda: tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])),
                       ("hierarchical", lambda: tf.distribute.MirroredStrategy(
                           ["/cpu:0", "/cpu:1"], cross_device_ops=tf.distribute.HierarchicalCopyAllReduce(1))),
                       ("one replica", lambda: tf.distribute.MirroredStrategy(["/cpu:0"]))]:
        s = make()
        for dt in ["int32", "int64", "float16", "float32"]:
            def fn(dt: str = dt) -> Any:
                ctx = tf.distribute.get_replica_context()
                rid = ctx.replica_id_in_sync_group
                return ctx.all_reduce("MEAN", tf.IndexedSlices(tf.ones([1, 2], dt) * tf.cast(rid + 1, dt),
                                                                tf.reshape(rid, [1]), tf.constant([3, 2])))
            _try(out, f"{name} {dt}", lambda: s.experimental_local_results(s.run(fn)))
            _try(out, f"{name} {dt} in a function", lambda: s.experimental_local_results(tf.function(
                lambda: s.run(fn))()))


def _aggregated_update(tf: Any, out: list, workdir: str) -> None:
    for name, make in [("central", lambda: tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])),
                       ("mirrored", lambda: tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])),
                       ("mirrored one", lambda: tf.distribute.MirroredStrategy(["/cpu:0"]))]:
        s = make()
        for agg in ["NONE", "SUM", "MEAN", "ONLY_FIRST_REPLICA"]:
            with s.scope():
                v = tf.Variable(tf.constant(7.0, tf.float64), aggregation=getattr(tf.VariableAggregation, agg))

            def upd() -> Any:
                rid = tf.distribute.get_replica_context().replica_id_in_sync_group
                return v.assign_add(tf.cast(rid + 1, v.dtype))

            def eager() -> Any:
                r = s.run(upd)
                v.assign(100.0)   # (a later write: shows in an UnreadVariable, not in a tensor)
                return (_kind(r), [_kind(x) for x in s.experimental_local_results(r)],
                        [float(x) for x in s.experimental_local_results(r)])
            _try(out, f"{name} {agg}", eager)
            _try(out, f"{name} {agg} in a function",
                 lambda: (lambda r: (_kind(r), s.experimental_local_results(r)))(tf.function(lambda: s.run(upd))()))


def _mirrored_argument(tf: Any, out: list, workdir: str) -> None:
    t = lambda label, fn: _try(out, label, fn)   # noqa: E731
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with s.scope():
        m = tf.Variable(3.0)
    f = tf.function(lambda x: (x + 1.0, tf.identity(x)))
    grouped = s.extended.update(m, lambda var, x: var.assign_add(x), args=(1.0,), group=True)
    t("grouped update result", lambda: (type(grouped).__name__, f(grouped)))
    t("again", lambda: f(grouped))
    assigned = m.assign(10.0)
    t("cross-replica assign result", lambda: (type(assigned).__name__, f(assigned)))
    t("the variable", lambda: f(m))
    t("in a nest", lambda: tf.function(lambda d: d["a"] * 2.0)({"a": s.extended.update(
        m, lambda var, x: var.assign(x), args=(5.0,), group=True)}))


def _deferred_restore(tf: Any, out: list, workdir: str) -> None:
    import os
    t = lambda label, fn: _try(out, label, fn)   # noqa: E731
    path = tf.train.Checkpoint(v1=tf.Variable([9.0, -3.0]), v2=tf.Variable(5)).save(os.path.join(workdir, "c"))
    for name, make in [("none", lambda: None), ("one device", lambda: tf.distribute.OneDeviceStrategy("/cpu:0")),
                       ("mirrored", lambda: tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])),
                       ("central", lambda: tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"]))]:
        s = make()
        ck = tf.train.Checkpoint()
        st = ck.restore(path)
        with (s.scope() if s is not None else tf.name_scope("x")):
            r = tf.Variable([0.0, 0.0], aggregation=tf.VariableAggregation.SUM)
        t(f"{name}: before attaching", lambda: r.numpy())
        ck.v1 = r
        t(f"{name}: attached", lambda: [type(r).__name__, r.numpy()])
        t(f"{name}: existing matched", lambda: type(st.assert_existing_objects_matched()).__name__)
        t(f"{name}: consumed (v2 left)", lambda: type(st.assert_consumed()).__name__)
        ck.v2 = tf.Variable(0)
        t(f"{name}: consumed", lambda: [type(st.assert_consumed()).__name__, ck.v2.numpy()])


_TF_CLUSTER: list = []


def _pss(tf: Any, partitioner: Any) -> Any:
    """A ParameterServerStrategy on 1 worker and 2 ps: TF's in-process servers, or a simulated cluster."""
    if not tf.__name__.startswith("tensorflow"):
        import ps_helpers
        return ps_helpers.pss(workers=1, ps=2, partitioner=partitioner)
    if not _TF_CLUSTER:
        from simdist.conformance.backends.tf_backend import start_in_process_servers
        spec, servers = start_in_process_servers(tf, 1, 2)
        _TF_CLUSTER.extend([tf.distribute.cluster_resolver.SimpleClusterResolver(
            tf.train.ClusterSpec(spec), rpc_layer="grpc"), servers])
    return tf.distribute.experimental.ParameterServerStrategy(_TF_CLUSTER[0], variable_partitioner=partitioner)


def _sharded_listing(tf: Any, out: list, workdir: str) -> None:
    import os
    s = _pss(tf, tf.distribute.experimental.partitioners.FixedShardsPartitioner(2))
    with s.scope():
        v = tf.Variable(tf.reshape(tf.range(10.0), [5, 2]), name="w")
        u = tf.Variable([1, 2, 3])
    path = tf.train.Checkpoint(v=v, u=u).save(os.path.join(workdir, "s"))
    _try(out, "shards", lambda: [type(v).__name__, [x.shape.as_list() for x in v.variables]])
    _try(out, "list_variables", lambda: sorted((k, list(sh)) for k, sh in tf.train.list_variables(path)))
    _try(out, "load_variable", lambda: tf.train.load_variable(path, "v/.ATTRIBUTES/VARIABLE_VALUE"))
    _try(out, "load_variable u", lambda: tf.train.load_variable(path, "u/.ATTRIBUTES/VARIABLE_VALUE"))


def _counter_status(tf: Any, out: list, workdir: str) -> None:
    import os
    v = tf.Variable([9.0, -3.0])
    paths = [("write", tf.train.Checkpoint(v=v).write(os.path.join(workdir, "w"))),
             ("save", tf.train.Checkpoint(v=v).save(os.path.join(workdir, "s")))]
    for name, path in paths:
        for how in ["restore", "read"]:
            r = tf.Variable([0.0, 0.0])
            st = getattr(tf.train.Checkpoint(v=r), how)(path)
            for a in ["assert_existing_objects_matched", "assert_consumed", "assert_nontrivial_match"]:
                _try(out, f"{name} {how} {a}", lambda: type(getattr(st, a)()).__name__)
            _try(out, f"{name} {how} value", lambda: r.numpy())


PROGRAMS = {"deferred_restore": _deferred_restore, "counter_status": _counter_status, "sharded_listing": _sharded_listing,
            "next_in_function": _next_in_function, "slices_mean_int": _slices_mean_int,
            "aggregated_update": _aggregated_update, "mirrored_argument": _mirrored_argument}


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    PROGRAMS[case["name"]](tf, out, workdir)
    return out


CASES: dict[str, dict] = {
    "next_in_function": {"strategy": "mirrored2", "name": "next_in_function"},
    "slices_mean_int": {"strategy": "mirrored2", "name": "slices_mean_int"},
    "aggregated_update": {"strategy": "mirrored2", "name": "aggregated_update"},
    "mirrored_argument": {"strategy": "mirrored2", "name": "mirrored_argument"},
    "deferred_restore": {"strategy": "mirrored2", "name": "deferred_restore"},
    "sharded_listing": {"strategy": "pss", "name": "sharded_listing"},
    "counter_status": {"strategy": "other", "name": "counter_status"},
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


@pytest.mark.clause("dataset.api-surface")
@pytest.mark.parametrize("index", [NAMES.index("next_in_function")])
def test_next_of_an_exhausted_iterator_in_a_function(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("next_in_function", tf_results, tmp_path)


@pytest.mark.clause("optim.sparse-all-reduce")
@pytest.mark.parametrize("index", [NAMES.index("slices_mean_int")])
def test_mean_of_integer_slices_is_truediv(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("slices_mean_int", tf_results, tmp_path)


@pytest.mark.clause("run.per-replica")
@pytest.mark.parametrize("index", [NAMES.index("aggregated_update")])
def test_aggregated_update_results(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("aggregated_update", tf_results, tmp_path)


@pytest.mark.clause("run.per-replica")
@pytest.mark.parametrize("index", [NAMES.index("mirrored_argument")])
def test_mirrored_value_is_a_tensor_argument(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("mirrored_argument", tf_results, tmp_path)


@pytest.mark.clause("pch.deferred-restore")
@pytest.mark.parametrize("index", [NAMES.index("deferred_restore")])
def test_attaching_after_restore_restores(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("deferred_restore", tf_results, tmp_path)


@pytest.mark.clause("pss.checkpoint-partitions")
@pytest.mark.parametrize("index", [NAMES.index("sharded_listing")])
def test_sharded_variable_is_one_checkpoint_key(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("sharded_listing", tf_results, tmp_path)


@pytest.mark.clause("checkpoint.restore-status")
@pytest.mark.parametrize("index", [NAMES.index("counter_status")])
def test_restore_of_a_written_checkpoint_leaves_the_counter_unmatched(index: int, tf_results: dict[int, Any],
                                                                       tmp_path: Any) -> None:
    _check("counter_status", tf_results, tmp_path)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
