"""The disagreement classes of fz54d (tests/fuzz51d/fz51d_gen.py run by the fifty-fourth session: the custom
training loop programs `b_ctl` from seed 54208 on, the old draws of seeds 54201..; and dist53's open items), each
fixed at its root and checked here against TF 2.21:

- unread_argument (clause run.per-replica): an `_UnreadVariable` an eager update returned (`v.assign(...)`) is
  unreadable inside a tf.function's graph: read, written, converted or returned while a function traces (a captured
  one, or an argument of a new trace, whose VariableSpec placeholder is the object itself) it is TypeError "Can not
  convert a NoneType into a Tensor or Operation." (its parent_op is None); its shape answers; a call that a trace of
  its variable's spec serves passes the variable. A PerReplica of them passed to a tf.function (also through
  strategy.run's lifted function on MirroredStrategy) holds their values: `x.assign_add` there is AttributeError.
  OneDeviceStrategy's run calls the function itself: the plain rule. simdist read the variable in every case
  (dist53's open item, /work/wt/dist53_logs/p_unread_arg.py).
- collective_abort (clause gather.shape-rule): a MirroredStrategy collective (gather, all_gather, all_reduce on the
  CollectiveAllReduce path) that fails as it runs aborts TF's collective executor: every later collective of the
  process, any strategy's, fails (InvalidArgumentError "Collective ops is aborted by: ..."); reduce (no collective)
  still works. simdist's later collectives worked (dist53's open item, /work/wt/dist53_logs/p_gather_53211.py).
- packed_dtypes (clause extended.cross-device-ops): HierarchicalCopyAllReduce / NcclAllReduce with num_packs > 0
  concatenate a batch all-reduce's dense values: values of two dtypes are ConcatV2's InvalidArgumentError (a
  tf.function's TypeError). simdist reduced them (seed 54208 #3).
- css_input_options (clause input.interface-types): CentralStorageStrategy.experimental_distribute_dataset with any
  InputOptions is AttributeError (TF 2.21 reads `options.experimental_replication_moden`, sic). simdist distributed
  the dataset (seed 54208 #5).
- mean_in_function (clause function.grappler-rewrites): strategy.reduce(MEAN) in a tf.function divides the AddN sum
  by a constant n, which Grappler makes a product by 1/n unless the sum is constant too (the last bit of a training
  loop's reported loss). simdist divided (seed 54208 #2).
- ring_packs (clause reduce.ring-order): a nest's all_reduce in a tf.function on MirroredStrategy's CPU ring
  (Keras's gradient all-reduce) reverses the dense leaves, concatenates each pack (bytes_per_pack) and ring-reduces
  the concatenation: the chunks, so the order of additions, cut across the leaves; MEAN divides afterwards (a
  product by 1/n in the function). simdist reduced leaf by leaf (seed 54208 #2, the weights one ulp off).

Each case is a list of [label, outcome]; an outcome is a value's [class, dtype, shape, values] or [error class].
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import portable_inputs
import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _val(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _val(x[k]) for k in sorted(x)}
    if isinstance(x, (list, tuple)):
        return [type(x).__name__, [_val(v) for v in x]]
    if hasattr(x, "numpy") and hasattr(x, "dtype"):
        a = np.asarray(x.numpy())
        return ["tensor", x.dtype.name, list(a.shape), a.tolist(), a.tobytes().hex()]
    if x is None or isinstance(x, (bool, int, float, str)):
        return [type(x).__name__, x]
    return [type(x).__name__, str(x)]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, _val(fn())])
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        out.append([label, [type(e).__name__]])


def _fresh(tf: Any) -> None:
    """TF: a fresh eager context (its collective executor not aborted, its collective keys new), four CPUs."""
    if tf.__name__.startswith("tensorflow"):
        from tensorflow.python.eager import context
        context._reset_context()
        tf_programs.four_cpus(tf)


def _unread_argument(tf: Any, out: list, workdir: str) -> None:
    t = lambda label, fn: _try(out, label, fn)   # noqa: E731
    f = tf.function(lambda x: x * 2.0)
    shp = tf.function(lambda x: tf.constant(x.shape.as_list()))
    ret = tf.function(lambda x: x)
    v = tf.Variable([1.0, 2.0])
    t("new trace of an unread", lambda: f(v.assign([3.0, 4.0])))
    t("traces", lambda: f.experimental_get_tracing_count())
    t("the variable", lambda: f(v))
    t("an unread the variable's trace serves", lambda: f(v.assign_add([1.0, 1.0])))
    t("traces after", lambda: f.experimental_get_tracing_count())
    t("its shape in a new trace", lambda: shp(v.assign([1.0, 1.0])))
    t("returned by a new trace", lambda: ret(v.assign([1.0, 1.0])))
    t("returned: the variable", lambda: ret(v))
    t("returned: served", lambda: ret(v.assign([2.0, 1.0])))
    w = tf.Variable(1.0, trainable=False)
    t("non-trainable: its own trace", lambda: f(w.assign(3.0)))
    t("in a tuple", lambda: tf.function(lambda p: p[0] * p[1])((w.assign(2.0), 3.0)))
    a = v.assign([5.0, 6.0])
    t("captured read", lambda: tf.function(lambda: a + 1.0)())
    t("captured assign_add", lambda: tf.function(lambda: a.assign_add([1.0, 1.0]))())
    t("captured shape", lambda: tf.function(lambda: tf.constant(a.shape.as_list()))())
    t("made inside", lambda: tf.function(lambda: v.assign([7.0, 8.0]) + 1.0)())
    t("eager read", lambda: a + 1.0)
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with s.scope():
        m = tf.Variable(3.0)
    r = s.run(lambda: m.assign_add(1.0))
    t("run result", lambda: [type(x).__name__ for x in s.experimental_local_results(r)])
    g = tf.function(lambda x: x.assign_add(1.0))
    t("run(fn that writes it)", lambda: s.experimental_local_results(s.run(g, args=(r,))))
    t("run(fn that reads it)", lambda: s.experimental_local_results(s.run(f, args=(r,))))
    t("run(plain fn that writes it)", lambda: s.experimental_local_results(s.run(lambda x: x.assign_add(1.0),
                                                                                  args=(r,))))
    h = tf.function(lambda pr: s.run(lambda x: x.assign_add(1.0), args=(pr,)))
    t("tf.function(PerReplica of them)", lambda: s.experimental_local_results(h(r)))
    t("m", lambda: m.read_value())
    one = tf.distribute.OneDeviceStrategy("/cpu:0")
    with one.scope():
        o = tf.Variable(1.0)
    ro = one.run(lambda: o.assign_add(1.0))
    t("one run result", lambda: type(ro).__name__)
    t("one run(fn that writes it)", lambda: one.run(g, args=(ro,)))
    t("o", lambda: o.read_value())


def _collective_abort(tf: Any, out: list, workdir: str) -> None:
    _fresh(tf)
    t = lambda label, fn: _try(out, label, fn)   # noqa: E731
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    rid = lambda: tf.distribute.get_replica_context().replica_id_in_sync_group   # noqa: E731
    good = s.run(lambda: tf.cast(tf.reshape(tf.range(2 * (rid() + 1)), [rid() + 1, 2]), tf.int64))
    t("gather before", lambda: s.gather(good, axis=0))
    t("a gather that fails in a function", lambda: tf.function(lambda: s.gather(
        s.run(lambda: tf.fill([rid() + 1, 2], tf.cast(rid(), tf.float32))), axis=1))())
    t("gather after", lambda: s.gather(good, axis=0))
    t("gather of int32 after (ReductionToOneDevice)", lambda: s.gather(s.run(lambda: tf.fill([1, 2], rid())), axis=0))
    t("reduce after", lambda: s.reduce("SUM", good, axis=0))
    t("all_reduce after", lambda: s.experimental_local_results(s.run(
        lambda: tf.distribute.get_replica_context().all_reduce("SUM", tf.ones([2])))))
    t("all_gather after", lambda: s.experimental_local_results(s.run(
        lambda: tf.distribute.get_replica_context().all_gather(tf.ones([2]), axis=0))))
    s2 = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    t("another strategy's gather", lambda: s2.gather(s2.run(lambda: tf.ones([1, 2])), axis=0))
    t("another strategy's reduce", lambda: s2.reduce("MEAN", s2.run(lambda: tf.ones([1, 2])), axis=None))
    cs = tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])
    t("CentralStorage gather (no collective)", lambda: cs.gather(cs.run(lambda: tf.ones([1, 2])), axis=0))
    _fresh(tf)


def _collective_abort_eager(tf: Any, out: list, workdir: str) -> None:
    _fresh(tf)
    t = lambda label, fn: _try(out, label, fn)   # noqa: E731
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    rid = lambda: tf.distribute.get_replica_context().replica_id_in_sync_group   # noqa: E731
    t("an all_reduce that fails", lambda: s.run(lambda: tf.distribute.get_replica_context().all_reduce(
        "SUM", tf.fill([rid() + 1, 2], 1.0))))
    t("gather after", lambda: s.gather(s.run(lambda: tf.ones([1, 2])), axis=0))
    t("gather in a function after", lambda: tf.function(lambda: s.gather(s.run(lambda: tf.ones([1, 2])), axis=0))())
    t("reduce after", lambda: s.reduce("SUM", s.run(lambda: tf.ones([1, 2])), axis=None))
    _fresh(tf)


def _packed_dtypes(tf: Any, out: list, workdir: str) -> None:
    t = lambda label, fn: _try(out, label, fn)   # noqa: E731
    for name, ops in [("hierarchical 1", lambda: tf.distribute.HierarchicalCopyAllReduce(num_packs=1)),
                      ("hierarchical 0", lambda: tf.distribute.HierarchicalCopyAllReduce(num_packs=0)),
                      ("nccl 2", lambda: tf.distribute.NcclAllReduce(num_packs=2)),
                      ("one device", lambda: tf.distribute.ReductionToOneDevice())]:
        s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"], cross_device_ops=ops())

        def ar(v: Callable[[], Any], s: Any = s) -> Callable[[], Any]:
            return lambda: s.experimental_local_results(s.run(
                lambda: tf.distribute.get_replica_context().all_reduce("SUM", v())))
        t(f"{name} f16+f32", ar(lambda: (tf.ones([2], tf.float16), tf.constant(1.0))))
        t(f"{name} dict f32+f64", ar(lambda: {"a": tf.ones([2]), "b": tf.constant(1.0, tf.float64)}))
        t(f"{name} f32+f32", ar(lambda: (tf.ones([2]), tf.constant([1.0, 2.0, 3.0]))))
        t(f"{name} f32+int64", ar(lambda: (tf.ones([2]), tf.constant(1, tf.int64))))
        t(f"{name} in a function", lambda: tf.function(ar(lambda: (tf.ones([2], tf.float16), tf.constant(1.0))))())
        t(f"{name} batch_reduce_to", lambda: [s.experimental_local_results(x) for x in s.extended.batch_reduce_to(
            "SUM", [(p, p) for p in [s.run(lambda: tf.ones([2])), s.run(lambda: tf.ones([1], tf.float64))]])])


def _css_input_options(tf: Any, out: list, workdir: str) -> None:
    t = lambda label, fn: _try(out, label, fn)   # noqa: E731
    cs = tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])
    ds = tf.data.Dataset.range(6).batch(4)
    opts = tf.distribute.InputOptions
    t("no options", lambda: [cs.experimental_local_results(x) for x in cs.experimental_distribute_dataset(ds)])
    t("default options", lambda: cs.experimental_distribute_dataset(ds, options=opts()))
    t("fetch_to_device", lambda: cs.experimental_distribute_dataset(ds, options=opts(experimental_fetch_to_device=False)))
    t("from function with options", lambda: [cs.experimental_local_results(x) for x in
                                             cs.distribute_datasets_from_function(lambda ctx: ds, options=opts())])
    ms = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    t("mirrored with options", lambda: [ms.experimental_local_results(x) for x in ms.experimental_distribute_dataset(
        ds, options=opts(experimental_fetch_to_device=False))])


def _mean_in_function(tf: Any, out: list, workdir: str) -> None:
    t = lambda label, fn: _try(out, label, fn)   # noqa: E731
    vals = [np.frombuffer(bytes.fromhex(h), np.float32)[0] for h in ["e43bb93e", "1290a93e", "3d1aee3e"]]
    for name, make in [("mirrored3", lambda: tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1", "/cpu:2"])),
                       ("one device", lambda: tf.distribute.MirroredStrategy(
                           ["/cpu:0", "/cpu:1", "/cpu:2"], cross_device_ops=tf.distribute.ReductionToOneDevice())),
                       ("central storage", lambda: tf.distribute.experimental.CentralStorageStrategy(
                           ["/cpu:0", "/cpu:1", "/cpu:2"]))]:
        s = make()
        pr = s.experimental_distribute_values_from_function(lambda ctx: tf.constant(vals[ctx.replica_id_in_sync_group]))
        t(f"{name} eager", lambda: s.reduce("MEAN", pr, axis=None))
        t(f"{name} captured", lambda: tf.function(lambda: s.reduce("MEAN", pr, axis=None))())
        t(f"{name} argument", lambda: tf.function(lambda p: s.reduce("MEAN", p, axis=None))(pr))
        t(f"{name} constant", lambda: tf.function(lambda: s.reduce("MEAN", s.run(
            lambda: tf.constant(vals)[tf.distribute.get_replica_context().replica_id_in_sync_group]), axis=None))())
        t(f"{name} float64", lambda: tf.function(lambda p: s.reduce("MEAN", p, axis=None))(
            s.run(lambda x: tf.cast(x, tf.float64) * 1.1, args=(pr,))))
        t(f"{name} sum", lambda: tf.function(lambda p: s.reduce("SUM", p, axis=None))(pr))


def _ring_packs(tf: Any, out: list, workdir: str) -> None:
    t = lambda label, fn: _try(out, label, fn)   # noqa: E731
    rng = np.random.RandomState(0)
    sizes = [12, 3, 9, 3]

    def triple() -> np.ndarray:   # (three values whose three ring rotations sum to three different floats)
        while True:
            x = (rng.standard_normal(3) * portable_inputs.log_uniform(rng, -8, 0, 3)).astype(np.float32)
            if len({((x[i] + x[(i + 1) % 3]) + x[(i + 2) % 3]).tobytes() for i in range(3)}) == 3:
                return x
    trip = [np.stack([triple() for _ in range(n)], axis=1) for n in sizes]   # [replica, element] per leaf
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1", "/cpu:2"])

    def step(op: str, nest: bool, bpp: int = 0) -> Callable[[], Any]:
        def fn() -> Any:
            ctx = tf.distribute.get_replica_context()
            vals = [tf.gather(tf.constant(x), ctx.replica_id_in_sync_group) for x in trip]
            opts = tf.distribute.experimental.CommunicationOptions(bytes_per_pack=bpp)
            return ctx.all_reduce(op, vals if nest else vals[0], options=opts)
        return fn
    for op in ["SUM", "MEAN"]:
        t(f"{op} eager list", lambda: s.experimental_local_results(s.run(step(op, True)))[0])
        t(f"{op} list in a function", lambda: s.experimental_local_results(tf.function(lambda: s.run(step(op, True)))())[0])
        t(f"{op} one tensor in a function", lambda: s.experimental_local_results(
            tf.function(lambda: s.run(step(op, False)))())[0])
        t(f"{op} packs of 40 bytes", lambda: s.experimental_local_results(
            tf.function(lambda: s.run(step(op, True, 40)))())[0])


PROGRAMS = {"ring_packs": _ring_packs, "unread_argument": _unread_argument, "collective_abort": _collective_abort,
            "collective_abort_eager": _collective_abort_eager, "packed_dtypes": _packed_dtypes,
            "css_input_options": _css_input_options, "mean_in_function": _mean_in_function}


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    PROGRAMS[case["name"]](tf, out, workdir)
    return out


CASES: dict[str, dict] = {
    "unread_argument": {"strategy": "mirrored2", "name": "unread_argument"},
    "collective_abort": {"strategy": "mirrored_abort", "name": "collective_abort"},
    "collective_abort_eager": {"strategy": "mirrored_abort_eager", "name": "collective_abort_eager"},
    "packed_dtypes": {"strategy": "mirrored2", "name": "packed_dtypes"},
    "css_input_options": {"strategy": "mirrored2", "name": "css_input_options"},
    "mean_in_function": {"strategy": "mirrored3", "name": "mean_in_function"},
    "ring_packs": {"strategy": "mirrored3", "name": "ring_packs"},
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
@pytest.mark.parametrize("index", [NAMES.index("unread_argument")])
def test_unread_variable_in_a_function(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("unread_argument", tf_results, tmp_path)


@pytest.mark.clause("gather.shape-rule")
@pytest.mark.parametrize("index", [NAMES.index("collective_abort")])
def test_a_failed_collective_aborts_the_later_ones(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("collective_abort", tf_results, tmp_path)


@pytest.mark.clause("gather.shape-rule")
@pytest.mark.parametrize("index", [NAMES.index("collective_abort_eager")])
def test_a_failed_eager_all_reduce_aborts_the_later_collectives(index: int, tf_results: dict[int, Any],
                                                                tmp_path: Any) -> None:
    _check("collective_abort_eager", tf_results, tmp_path)


@pytest.mark.clause("extended.cross-device-ops")
@pytest.mark.parametrize("index", [NAMES.index("packed_dtypes")])
def test_packed_all_reduce_refuses_mixed_dtypes(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("packed_dtypes", tf_results, tmp_path)


@pytest.mark.clause("input.interface-types")
@pytest.mark.parametrize("index", [NAMES.index("css_input_options")])
def test_central_storage_refuses_input_options(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("css_input_options", tf_results, tmp_path)


@pytest.mark.clause("function.grappler-rewrites")
@pytest.mark.parametrize("index", [NAMES.index("mean_in_function")])
def test_reduce_mean_in_a_function_multiplies_by_the_reciprocal(index: int, tf_results: dict[int, Any],
                                                                tmp_path: Any) -> None:
    _check("mean_in_function", tf_results, tmp_path)


@pytest.mark.clause("reduce.ring-order")
@pytest.mark.parametrize("index", [NAMES.index("ring_packs")])
def test_a_traced_nest_all_reduce_rings_over_its_packs(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("ring_packs", tf_results, tmp_path)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
