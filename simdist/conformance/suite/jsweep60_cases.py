"""The distribution sweep with three and four replicas (sixtieth session, jsweep60; test_jsweep60.py): the suite's
distributed programs ran two replicas, where x * (1/2) is x / 2 exactly and a sum of two terms has one order. Here
every program runs once under a MirroredStrategy of three replicas (REF3, j3- programs) and once of four (REF4, j4-),
with CentralStorageStrategy over the same three or four CPUs and a one-replica MirroredStrategy for contrast (REF3).

Crossed by rule: strategy.reduce SUM/MEAN × axis None/0/1 × PerReplica, Mirrored, nested dicts/tuples and
IndexedSlices × int32/int64/float16/bfloat16/float32/float64, values whose order of addition matters (1e8, 1, -1e8 per
element in every arrangement over the replicas; plain values whose mean by division differs from a product by the
reciprocal); ReplicaContext.all_reduce over 7, 64 and 300 elements (the ring's chunks: clause reduce.ring-order) and
all_gather along 0 and 1 of nests and IndexedSlices; extended.reduce_to and batch_reduce_to with destinations;
experimental_distribute_dataset and distribute_datasets_from_function with global batches not divisible by the
replicas, drop_remainder, InputOptions; each replica's device, worker_devices, a variable's devices; a tf.function
step replayed three times while each replica writes its own value (SyncOnRead SUM/MEAN/ONLY_FIRST_REPLICA, mirrored
assign_add of each aggregation, strategy.reduce inside the function).

Host-independent: every float value is a sum, a mean or a copy of replicas' values whose order TF's collectives and
AddN decide (not the CPU's vector width: cross-replica sums are element-wise over whole tensors), inputs from
rng(name) arithmetic. Recorded by `python -m simdist.conformance.suite.test_jsweep60 --record` (each REF in its own
process: TF 2.21 allows one collective group per context). OPEN lists disagreements left out of the comparison."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite import replica_programs
from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits, error,
                                                         reference_cpu, rng)

HERE = os.path.dirname(__file__)
REF3 = RecordedPrograms(os.path.join(HERE, "jsweep60_r3_reference.json.gz"), recording_host=avx512_with_onednn,
                        recording_cpu=reference_cpu, replicas=3)
REF4 = RecordedPrograms(os.path.join(HERE, "jsweep60_r4_reference.json.gz"), recording_host=avx512_with_onednn,
                        recording_cpu=reference_cpu, replicas=4)

#: simdist's disagreements with TF 2.21 this sweep found and did not fix: program -> case keys left out.
OPEN: dict[str, tuple[str, ...]] = {}

DTYPES = ("int32", "int64", "float16", "bfloat16", "float32", "float64")
FLOATS = ("float16", "bfloat16", "float32", "float64")


def program(name: str, fn: Callable[[Any, Any, int], dict[str, Any]]) -> None:
    replica_programs.register({3: REF3, 4: REF4}, "j", OPEN, name, fn)


def B(t: Any) -> Any:
    return t if isinstance(t, str) else bits(t)


def strategies(tf: Any, mk: Any, n: int) -> list[tuple[str, Any]]:
    """The mirrored strategy of the REF, CentralStorage over the same CPUs, and (REF3) a one-replica mirrored."""
    out = [("mirrored", mk()),
           ("central", tf.distribute.experimental.CentralStorageStrategy(
               compute_devices=[f"/cpu:{i}" for i in range(n)]))]
    if n == 3:
        out.append(("mirrored1", tf.distribute.MirroredStrategy(["/cpu:0"])))
    return out


def order_values(n: int, size: int, seed: str) -> np.ndarray:
    """(n, size) float values: per element an arrangement of 1e8, 1, -1e8 (and 3) over the replicas, or plain values
    whose mean differs by division and by the reciprocal's product."""
    r = rng(seed)
    pool = np.array([1e8, 1.0, -1e8, 3.0, 0.5, -2.25])
    v = pool[r.randint(0, len(pool), (n, size))]
    plain = (r.randint(-4000, 4000, (n, size)) / 64.0)
    mix = r.randint(0, 3, size)
    return np.where(mix == 0, plain, v)


def per_replica(tf: Any, s: Any, arr: np.ndarray, dt: str) -> Any:
    """A PerReplica of arr[i] on replica i (values from a function), or the error class."""
    d = getattr(tf, dt)
    return s.experimental_distribute_values_from_function(
        lambda ctx: tf.cast(tf.constant(arr[ctx.replica_id_in_sync_group]), d))


def locals_(s: Any, v: Any) -> list[Any]:
    return [B(c) for c in s.experimental_local_results(v)]


# -- strategy.reduce ---------------------------------------------------------------------------------------------------
def _reduce_dense(tf: Any, mk: Any, n: int) -> dict[str, Any]:
    """strategy.reduce SUM/MEAN × axis None, 0, 1 of PerReplica values (rank 1 and 2) in six dtypes, order-sensitive
    values, under mirrored, central storage and one replica; a Mirrored value (run's all_reduce result) reduced."""
    out: dict[str, Any] = {}
    for sn, s in strategies(tf, mk, n):
        m = s.num_replicas_in_sync
        for dt in DTYPES:
            a1 = order_values(m, 7, f"rd1{dt}")
            a2 = order_values(m, 6, f"rd2{dt}").reshape(m, 2, 3)
            if dt.startswith("int"):
                a1 = np.round(a1 * 4).astype(np.int64)
                a2 = np.round(a2 * 4).astype(np.int64)
            for rank, a in ((1, a1), (2, a2)):
                per = error(lambda: per_replica(tf, s, a, dt))
                if isinstance(per, str):
                    out[f"{sn} {dt} rank{rank}"] = per
                    continue
                for op in ("SUM", "MEAN"):
                    for axis in (None, 0, 1):
                        if axis == 1 and rank == 1:
                            continue
                        out[f"{sn} {dt} rank{rank} {op} {axis}"] = error(lambda: B(s.reduce(op, per, axis=axis)))
        # a Mirrored value: all_reduce's result in each replica, reduced again
        a = order_values(m, 5, "rdm")
        per = per_replica(tf, s, a, "float32")
        mir = error(lambda: s.run(lambda x: tf.distribute.get_replica_context().all_reduce("SUM", x), args=(per,)))
        if isinstance(mir, str):
            out[f"{sn} mirrored value"] = mir
        else:
            out[f"{sn} mirrored value type"] = "tensor" if tf.is_tensor(mir) else type(mir).__name__
            for op in ("SUM", "MEAN"):
                for axis in (None, 0):
                    out[f"{sn} mirrored {op} {axis}"] = error(lambda: B(s.reduce(op, mir, axis=axis)))
        # a plain tensor reduced (not per replica)
        out[f"{sn} plain"] = [error(lambda: B(s.reduce(op, tf.constant([1.5, -2.0, 7.0]), axis=ax)))
                              for op in ("SUM", "MEAN") for ax in (None, 0)]
    return out


program("reduce-dense", _reduce_dense)


def _reduce_nested(tf: Any, mk: Any, n: int) -> dict[str, Any]:
    """strategy.reduce of dicts and tuples of PerReplica and Mirrored leaves (one leaf the same object twice), SUM and
    MEAN, axis None and 0; and of IndexedSlices per replica (different indices and rows), SUM and MEAN."""
    out: dict[str, Any] = {}
    for sn, s in strategies(tf, mk, n):
        m = s.num_replicas_in_sync
        a = order_values(m, 4, "rn-a")
        b = order_values(m, 6, "rn-b").reshape(m, 3, 2)

        def fn() -> Any:
            ctx = tf.distribute.get_replica_context()
            i = ctx.replica_id_in_sync_group
            x = tf.gather(tf.constant(a, tf.float32), i)
            y = tf.gather(tf.constant(b, tf.float64), i)
            z = ctx.all_reduce("SUM", x)
            return {"x": x, "pair": (y, z), "k": tf.cast(i, tf.int64) + 5}
        res = error(lambda: s.run(fn))
        if isinstance(res, str):
            out[sn] = res
            continue
        for op in ("SUM", "MEAN"):
            for axis in (None, 0):
                r_ = error(lambda: s.reduce(op, res, axis=axis))
                out[f"{sn} nest {op} {axis}"] = r_ if isinstance(r_, str) else {
                    "x": B(r_["x"]), "y": B(r_["pair"][0]), "z": B(r_["pair"][1]), "k": B(r_["k"]),
                    "types": [type(r_).__name__, type(r_["pair"]).__name__]}
            r_ = error(lambda: s.reduce(op, (res["x"], res["x"], [res["k"]]), axis=None))
            out[f"{sn} tuple same leaf {op}"] = r_ if isinstance(r_, str) else [
                B(r_[0]), B(r_[1]), B(r_[2][0]), type(r_).__name__, type(r_[2]).__name__]

        # Mirrored leaves in a nest: a batch_reduce_to result and a mirrored variable beside a PerReplica
        px = per_replica(tf, s, a, "float32")
        with s.scope():
            mv = tf.Variable([0.5, -1.0, 2.0, 4.0], name=f"jrn_v_{sn}")
        mr = error(lambda: s.extended.batch_reduce_to("SUM", [(px, px)])[0])
        for op in ("SUM", "MEAN"):
            def mleaves(op: str = op) -> Any:
                r_ = s.reduce(op, {"m": mr, "p": px, "v": mv}, axis=None)
                return {k: B(v) for k, v in r_.items()}
            out[f"{sn} mirrored leaves {op}"] = error(mleaves) if not isinstance(mr, str) else mr

        def slices() -> Any:
            ctx = tf.distribute.get_replica_context()
            i = ctx.replica_id_in_sync_group
            vals = tf.gather(tf.constant(b, tf.float32), i)
            idx = tf.gather(tf.constant([[0, 2, 4], [1, 2, 3], [4, 0, 1], [3, 3, 0]][:m], tf.int64), i)
            return tf.IndexedSlices(vals, idx, tf.constant([5, 2], tf.int64))
        sl = error(lambda: s.run(slices))
        if isinstance(sl, str):
            out[f"{sn} slices"] = sl
            continue
        for op in ("SUM", "MEAN"):
            def red(op: str = op) -> Any:
                r_ = s.reduce(op, sl, axis=None)
                return [type(r_).__name__, B(tf.convert_to_tensor(r_)),
                        B(r_.indices) if hasattr(r_, "indices") else None]
            out[f"{sn} slices {op}"] = error(red)
    return out


program("reduce-nested", _reduce_nested)


# -- ReplicaContext.all_reduce / all_gather ---------------------------------------------------------------------------
def _all_reduce(tf: Any, mk: Any, n: int) -> dict[str, Any]:
    """ReplicaContext.all_reduce SUM/MEAN of 7, 64 and 300 elements (the ring's chunks) in six dtypes with
    order-sensitive values, each replica's result; a nest (dict of a tuple); MAX of int64."""
    out: dict[str, Any] = {}
    for sn, s in strategies(tf, mk, n):
        m = s.num_replicas_in_sync
        for dt in DTYPES:
            sizes = (7, 64, 300) if dt in ("float32", "int32") else (7, 300)
            for size in sizes:
                a = order_values(m, size, f"ar{size}")
                if dt.startswith("int"):
                    a = np.round(a * 4).astype(np.int64)
                d = getattr(tf, dt)
                for op in ("SUM", "MEAN"):
                    def fn(a: Any = a, op: str = op, d: Any = d) -> Any:
                        ctx = tf.distribute.get_replica_context()
                        return ctx.all_reduce(op, tf.cast(tf.gather(tf.constant(a), ctx.replica_id_in_sync_group), d))
                    res = error(lambda: s.run(fn))
                    key = f"{sn} {dt} {size} {op}"
                    if isinstance(res, str):
                        out[key] = res
                        continue
                    loc = locals_(s, res)
                    # all replicas' results: the first in full, the others as "same" or in full
                    out[key] = [loc[0]] + ["same" if x == loc[0] else x for x in loc[1:]]

        def nest() -> Any:
            ctx = tf.distribute.get_replica_context()
            i = tf.cast(ctx.replica_id_in_sync_group, tf.float32)
            return ctx.all_reduce("MEAN", {"a": (i * 0.1, tf.stack([i, 1e8 - i])), "b": tf.cast(i, tf.float64) / 3})
        res = error(lambda: s.run(nest))
        out[f"{sn} nest"] = res if isinstance(res, str) else [
            locals_(s, res["a"][0]), locals_(s, res["a"][1]), locals_(s, res["b"])]
    return out


program("all-reduce", _all_reduce)


def _all_gather(tf: Any, mk: Any, n: int) -> dict[str, Any]:
    """ReplicaContext.all_gather along 0 and 1 of per-replica values of different lengths along 0, of a nest, in six
    dtypes; all_reduce of IndexedSlices (SUM, MEAN); strategy.gather of the same along 0 and 1."""
    out: dict[str, Any] = {}
    for sn, s in strategies(tf, mk, n):
        m = s.num_replicas_in_sync
        for dt in DTYPES:
            a = np.round(order_values(m, 6, "ag") * 4).reshape(m, 2, 3)
            d = getattr(tf, dt)
            for axis in (0, 1):
                def fn(axis: int = axis, d: Any = d, a: Any = a) -> Any:
                    ctx = tf.distribute.get_replica_context()
                    return ctx.all_gather(tf.cast(tf.gather(tf.constant(a), ctx.replica_id_in_sync_group), d),
                                          axis=axis)
                res = error(lambda: s.run(fn))
                out[f"{sn} {dt} all_gather {axis}"] = res if isinstance(res, str) else locals_(s, res)
                per = per_replica(tf, s, a, dt)
                out[f"{sn} {dt} gather {axis}"] = error(lambda: B(s.gather(per, axis=axis)))

        def ragged() -> Any:
            ctx = tf.distribute.get_replica_context()
            i = ctx.replica_id_in_sync_group
            x = tf.fill(tf.stack([i + 1, 2]), tf.cast(i, tf.float32) + 0.5)
            return ctx.all_gather({"x": x, "t": (tf.reshape(tf.cast(i, tf.int64), [1]),)}, axis=0)
        res = error(lambda: s.run(ragged))
        out[f"{sn} ragged nest"] = res if isinstance(res, str) else [locals_(s, res["x"]), locals_(s, res["t"][0])]
        b = order_values(m, 6, "ags").reshape(m, 3, 2)
        for op in ("SUM", "MEAN"):
            def sl(op: str = op) -> Any:
                ctx = tf.distribute.get_replica_context()
                i = ctx.replica_id_in_sync_group
                x = tf.IndexedSlices(tf.gather(tf.constant(b, tf.float32), i),
                                     tf.gather(tf.constant([[0, 2, 4], [1, 2, 3], [4, 0, 1], [3, 3, 0]][:m],
                                                           tf.int64), i), tf.constant([5, 2], tf.int64))
                return ctx.all_reduce(op, x)
            res = error(lambda: s.run(sl))
            out[f"{sn} slices {op}"] = res if isinstance(res, str) else [
                [type(c).__name__, B(c.values), B(c.indices)] for c in s.experimental_local_results(res)]
    return out


program("all-gather", _all_gather)


# -- extended.reduce_to / batch_reduce_to ----------------------------------------------------------------------------
def _reduce_to(tf: Any, mk: Any, n: int) -> dict[str, Any]:
    """extended.reduce_to SUM/MEAN to destinations: a device string, the value itself, a variable; batch_reduce_to of
    two pairs; each result's components' devices and bits."""
    out: dict[str, Any] = {}
    for sn, s in strategies(tf, mk, n):
        m = s.num_replicas_in_sync
        a = order_values(m, 5, "rt")
        per = per_replica(tf, s, a, "float32")
        with s.scope():
            v = tf.Variable(tf.zeros([5]), name=f"jrt_{sn}")
        for op in ("SUM", "MEAN"):
            for dn, dest in (("cpu0", "/cpu:0"), ("last", f"/cpu:{m - 1}"), ("value", per), ("variable", v)):
                def go(op: str = op, dest: Any = dest) -> Any:
                    r_ = s.extended.reduce_to(op, per, destinations=dest)
                    return [[B(c), c.device] for c in s.experimental_local_results(r_)]
                out[f"{sn} reduce_to {op} {dn}"] = error(go)

            def batch(op: str = op) -> Any:
                rs = s.extended.batch_reduce_to(op, [(per, per), (per, "/cpu:0")])
                return [[[B(c), c.device] for c in s.experimental_local_results(r_)] for r_ in rs]
            out[f"{sn} batch_reduce_to {op}"] = error(batch)
    return out


program("reduce-to", _reduce_to)


# -- datasets ----------------------------------------------------------------------------------------------------------
def _datasets(tf: Any, mk: Any, n: int) -> dict[str, Any]:
    """experimental_distribute_dataset over range(11) batched by 2, 5, 7, 8 (not divisible by the replicas),
    drop_remainder both ways, a batch of a batch (rebatching: the inner dimension kept), InputOptions (no fetch);
    distribute_datasets_from_function with get_per_replica_batch_size and a per-replica batch; each replica's values
    and device, for mirrored and central storage."""
    out: dict[str, Any] = {}
    for sn, s in strategies(tf, mk, n):
        m = s.num_replicas_in_sync
        for gb in (2, 5, 7, 8):
            for drop in (False, True):
                for fetch in (True, False):
                    def go(gb: int = gb, drop: bool = drop, fetch: bool = fetch) -> Any:
                        ds = tf.data.Dataset.range(11).map(lambda i: tf.cast(i, tf.float32) * 0.5 + 1.0)
                        ds = ds.batch(gb, drop_remainder=drop)
                        opts = None if fetch else tf.distribute.InputOptions(experimental_fetch_to_device=False)
                        dd = s.experimental_distribute_dataset(ds, opts)
                        res = []
                        for el in dd:
                            res.append([[B(c), list(c.shape), c.device.split("/")[-1]]
                                        for c in s.experimental_local_results(el)])
                        return res
                    if drop or fetch or gb in (5, 7):
                        out[f"{sn} batch {gb} drop {drop} fetch {fetch}"] = error(go)

        for policy in ("OFF", "DATA"):
            for gb in (5, 7, 8):
                def shard(gb: int = gb, policy: str = policy) -> Any:
                    ds = tf.data.Dataset.range(13).map(lambda i: tf.cast(i, tf.float32) * 0.25).batch(gb)
                    o = tf.data.Options()
                    o.experimental_distribute.auto_shard_policy = getattr(tf.data.experimental.AutoShardPolicy,
                                                                          policy)
                    res = []
                    for el in s.experimental_distribute_dataset(ds.with_options(o)):
                        res.append([[B(c), list(c.shape)] for c in s.experimental_local_results(el)])
                    return res
                out[f"{sn} policy {policy} batch {gb}"] = error(shard)

        def nested_batch() -> Any:
            ds = tf.data.Dataset.range(24).map(lambda i: tf.cast(i, tf.int32)).batch(2).batch(5)
            return [[B(c), list(c.shape)] for el in s.experimental_distribute_dataset(ds)
                    for c in s.experimental_local_results(el)]
        out[f"{sn} batch of batch"] = error(nested_batch)

        def from_fn() -> Any:
            seen = []

            def dfn(ctx: Any) -> Any:
                seen.append([ctx.num_input_pipelines, ctx.input_pipeline_id, ctx.num_replicas_in_sync,
                             error(lambda: ctx.get_per_replica_batch_size(3 * m)),
                             error(lambda: ctx.get_per_replica_batch_size(3 * m + 1))])
                return tf.data.Dataset.range(10).map(lambda i: tf.cast(i, tf.float64) / 4).batch(3)
            dd = s.distribute_datasets_from_function(dfn)
            res = [[[B(c), c.device.split("/")[-1]] for c in s.experimental_local_results(el)] for el in dd]
            return [seen, res]
        out[f"{sn} from function"] = error(from_fn)

        def dict_ds() -> Any:
            ds = tf.data.Dataset.from_tensor_slices({"a": np.arange(10, dtype=np.int64),
                                                    "b": (np.arange(20, dtype=np.float32) / 8).reshape(10, 2)})
            res = []
            for el in s.experimental_distribute_dataset(ds.batch(4)):
                res.append([[B(c), list(c.shape)] for k in ("a", "b") for c in s.experimental_local_results(el[k])])
            return res
        out[f"{sn} dict batches"] = error(dict_ds)
    return out


program("datasets", _datasets)


# -- devices -------------------------------------------------------------------------------------------------------------
def _devices(tf: Any, mk: Any, n: int) -> dict[str, Any]:
    """Each replica's device: values[i].device of run's results, extended.worker_devices, parameter_devices,
    ReplicaContext.devices, a variable's .device and its components' devices, an optimizer-like slot made under
    colocate_vars_with; extended.non_slot_devices of a list of variables; a reduce's result device."""
    out: dict[str, Any] = {}
    for sn, s in strategies(tf, mk, n):
        ex = s.extended
        out[f"{sn} worker_devices"] = error(lambda: list(ex.worker_devices))
        out[f"{sn} parameter_devices"] = error(lambda: list(ex.parameter_devices))

        def fn() -> Any:
            ctx = tf.distribute.get_replica_context()
            return tf.identity(tf.cast(ctx.replica_id_in_sync_group, tf.float32))
        res = s.run(fn)
        out[f"{sn} run values"] = [[B(c), c.device] for c in s.experimental_local_results(res)]
        devs: list[Any] = []

        def fn2() -> Any:
            ctx = tf.distribute.get_replica_context()
            devs.append(error(lambda: list(ctx.devices)))
            return tf.constant(0)
        s.run(fn2)
        out[f"{sn} replica ctx devices"] = sorted(json.dumps(d) for d in devs)
        with s.scope():
            v1 = tf.Variable([1.0, 2.0], name=f"jdev_b_{sn}")
            v0 = tf.Variable([3.0], name=f"jdev_a_{sn}")
            with ex.colocate_vars_with(v1):
                slot = tf.Variable([0.0, 0.0], name=f"jdev_slot_{sn}")
        out[f"{sn} variable"] = [[type(x).__name__, x.device, [c.device for c in s.experimental_local_results(x)]]
                                 for x in (v1, v0, slot)]
        out[f"{sn} non_slot_devices"] = error(lambda: list(ex.non_slot_devices([v1, v0])))
        out[f"{sn} reduce device"] = error(lambda: s.reduce("SUM", res, axis=None).device)
    d0 = tf.distribute.get_strategy()
    a = tf.Variable(1.0, name="jdev_z")
    b = tf.Variable(1.0, name="jdev_y")
    out["default non_slot_devices"] = error(lambda: d0.extended.non_slot_devices([a, b]).name)
    return out


program("devices", _devices)


# -- a traced step replayed --------------------------------------------------------------------------------------------
def _replay(tf: Any, mk: Any, n: int) -> dict[str, Any]:
    """A tf.function step run three times in which each replica writes its own value to SyncOnRead variables (SUM,
    MEAN, ONLY_FIRST_REPLICA) and assign_adds to mirrored variables of each aggregation; the variables read back
    (cross-replica and each copy) after each call; strategy.reduce MEAN/SUM of the step's output inside and outside the
    function; all_reduce of a sync-on-read variable read in each replica."""
    out: dict[str, Any] = {}
    for sn, s in strategies(tf, mk, n):
        m = s.num_replicas_in_sync
        a = order_values(m, 3, "rp")
        if sn == "central":
            # (CentralStorage's sums in a tf.function — its reduce, the sync-on-read reads, all_reduce — added the
            # three replicas' 1e8-scale values in an order that varied between two TF 2.21 recordings of the same
            # program: its replicas get exact dyadic values, whose sums no order changes)
            a = rng("rp-central").randint(-64, 64, (m, 3)) / 8.0
        with s.scope():
            on_read = {agg: error(lambda agg=agg: tf.Variable(
                tf.zeros([3]), synchronization=tf.VariableSynchronization.ON_READ,
                aggregation=getattr(tf.VariableAggregation, agg), name=f"jrp_r_{agg}_{sn}"))
                for agg in ("SUM", "MEAN", "ONLY_FIRST_REPLICA")}
            mirrored = {agg: error(lambda agg=agg: tf.Variable(
                tf.zeros([3]), aggregation=getattr(tf.VariableAggregation, agg), name=f"jrp_m_{agg}_{sn}"))
                for agg in ("SUM", "MEAN", "ONLY_FIRST_REPLICA")}
        out[f"{sn} made"] = [v if isinstance(v, str) else type(v).__name__
                             for v in list(on_read.values()) + list(mirrored.values())]
        on_read = {k: v for k, v in on_read.items() if not isinstance(v, str)}
        mirrored = {k: v for k, v in mirrored.items() if not isinstance(v, str)}

        def step(k: Any) -> Any:
            ctx = tf.distribute.get_replica_context()
            i = ctx.replica_id_in_sync_group
            x = tf.gather(tf.constant(a, tf.float32), i) * k
            for v in on_read.values():
                v.assign(x)
            for v in mirrored.values():
                v.assign_add(x)
            got = [ctx.all_reduce("SUM", v) for v in on_read.values()]
            return x, got

        @tf.function
        def traced(k: Any) -> Any:
            x, got = s.run(step, args=(k,))
            xs = s.run(lambda x: [tf.cast(x * 8.0, tf.int32), tf.cast(x, tf.float16), tf.cast(x, tf.float64)],
                       args=(x,))
            more = [s.reduce(op, v, axis=ax) for v in xs for op in ("MEAN", "SUM") for ax in (None, 0)]
            return s.reduce("MEAN", x, axis=None), s.reduce("SUM", x, axis=0), got, more
        for call in range(3):
            k = tf.constant(float(call + 1))
            r_ = error(lambda: traced(k))
            if isinstance(r_, str):
                out[f"{sn} call {call}"] = r_
                break
            mean, total, got, more = r_
            out[f"{sn} call {call}"] = {
                "mean": B(mean), "sum0": B(total), "int/half/double": [B(v) for v in more],
                "all_reduce of on-read": [locals_(s, g) for g in got],
                "on_read": {k_: [B(v.read_value()), locals_(s, v)] for k_, v in on_read.items()},
                "mirrored": {k_: [B(v.read_value()), locals_(s, v)] for k_, v in mirrored.items()}}
        # eager: the same step once more, then cross-replica assigns of the on-read variables
        r_ = error(lambda: s.run(step, args=(tf.constant(0.5),)))
        out[f"{sn} eager step"] = r_ if isinstance(r_, str) else {
            "on_read": {k_: B(v.read_value()) for k_, v in on_read.items()},
            "mirrored": {k_: B(v.read_value()) for k_, v in mirrored.items()}}
        for k_, v in on_read.items():
            out[f"{sn} cross assign {k_}"] = error(lambda v=v: [B(v.assign(tf.constant([3.0, 1e8, 1.0]))),
                                                                 locals_(s, v)])
            out[f"{sn} cross assign_add {k_}"] = error(lambda v=v: [B(v.assign_add(tf.constant([1.0, 1.0, 1.0]))),
                                                                     locals_(s, v)])
    return out


program("replay", _replay)
