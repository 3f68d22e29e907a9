"""Cross-device reductions and distributed-variable updates by rule (sixty-third session, dsweep63; test_dsweep63.py).
Every program runs under a MirroredStrategy of two (REF2, d2- programs), three (REF3, d3-) and four (REF4, d4-) CPU
replicas, each recorded in its own process (TF 2.21 allows one collective group per context).

Crossed by rule (rsweep61 crossed the ring's chunk sizes with three and four replicas and each CrossDeviceOps at one
dtype; esweep63 crossed per-replica Python values; the survivors of the catalogue's distribution mutants against it
were update, colocation, kwargs, ring and hierarchical all-reduce and IndexedSlices):
- cdo-<dtype>: the cross-device ops (MirroredStrategy's own, ReductionToOneDevice() and with reduce_to_device the
  last CPU, HierarchicalCopyAllReduce(num_packs 0, 1, 2)) × replica_ctx.all_reduce / strategy.reduce /
  extended.reduce_to (onto the values, '/cpu:0', the last CPU) / extended.batch_reduce_to of two values × SUM and MEAN
  × float16/bfloat16/float32/float64/int32/int64 × order-sensitive values (big, 1, -big arranged per replica), with
  2, 3 and 4 replicas (HierarchicalCopyAllReduce's two groups of devices, the odd one left out);
- slices: IndexedSlices — a gather's gradient in each replica (the same indices, different ones, duplicates, none)
  through all_reduce SUM/MEAN, returned and reduced by strategy.reduce, reduce_to and batch_reduce_to with each
  cross-device op, and a plain IndexedSlices given to a CrossDeviceOps: values, indices, dense shape, kind;
- vars-mirrored: a MirroredVariable per aggregation (NONE/SUM/MEAN/ONLY_FIRST_REPLICA) and dtype assigned,
  assign_add'ed and assign_sub'ed in replica context with each replica's own value and in cross-replica context: each
  copy's value, the update's result, refusals by class;
- vars-update: extended.update(var, fn, args, kwargs, group=True/False) in cross-replica and replica context,
  update_non_slot, strategy.run with distributed kwargs, merge_call's args/kwargs, colocate_vars_with (devices of
  the variables made under it, another strategy's variable refused);
- vars-sync: a SyncOnRead variable (SUM/MEAN/ONLY_FIRST_REPLICA, float32/float64/int64) written in each replica,
  read in cross-replica context (read_value, value, tf.identity), assigned/assign_add'ed/assign_sub'ed there.

Host-independent: every float value is a sum, a mean or a copy of replicas' values in an order TF's collectives and
add_n decide, inputs from rng(name) arithmetic. `python -m simdist.conformance.suite.test_dsweep63 --record`
rewrites dsweep63_r2/r3/r4_reference.json.gz (each in its own process). OPEN lists disagreements left out."""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite import replica_programs
from simdist.conformance.suite.replica_programs import BIG, dev, order_values  # noqa: F401
from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits, error,
                                                         reference_cpu, rng)

HERE = os.path.dirname(__file__)
# (each file named in full: the TF record's stamps find a module's data files by their names)
REFS = {n: RecordedPrograms(os.path.join(HERE, f), recording_host=avx512_with_onednn, recording_cpu=reference_cpu,
                            replicas=n)
        for n, f in ((2, "dsweep63_r2_reference.json.gz"), (3, "dsweep63_r3_reference.json.gz"),
                     (4, "dsweep63_r4_reference.json.gz"))}

#: simdist's disagreements with TF 2.21 this sweep found and did not fix: program -> case keys left out.
OPEN: dict[str, tuple[str, ...]] = {
}

DTYPES = ("float16", "bfloat16", "float32", "float64", "int32", "int64")


def program(name: str, fn: Callable[[Any, Any, int], dict[str, Any]]) -> None:
    replica_programs.register(REFS, "d", OPEN, name, fn)


def S(t: Any) -> Any:
    """A value as JSON: IndexedSlices by kind, values, indices, dense shape; tensors by bits; nests element-wise."""
    if isinstance(t, str) or t is None:
        return t
    if isinstance(t, (list, tuple)):
        return [S(x) for x in t]
    if type(t).__name__ == "IndexedSlices":
        ds = t.dense_shape
        return ["slices", t.values.dtype.name, bits(t.values), bits(t.indices),
                None if ds is None else bits(ds)]
    if hasattr(t, "dtype"):
        return [t.dtype.name, bits(t)]
    return [type(t).__name__, repr(t)]   # (Python values)


def local(s: Any, r: Any) -> Any:
    """Every local result of r with its device (a plain value: its kind and value)."""
    loc = s.experimental_local_results(r)
    kind = type(r).__name__
    return ["Tensor" if kind in ("EagerTensor", "_EagerTensorBase") else kind] + [[S(c), dev(c)] for c in loc]


def per_replica(tf: Any, s: Any, arr: np.ndarray, dt: str) -> Any:
    d = getattr(tf, dt)
    return s.experimental_distribute_values_from_function(
        lambda ctx: tf.cast(tf.constant(arr[ctx.replica_id_in_sync_group]), d))


def cdos(tf: Any, n: int) -> list[tuple[str, Callable[[], Any]]]:
    return [("ring", lambda: None),
            ("r1d", lambda: tf.distribute.ReductionToOneDevice()),
            ("r1d-last", lambda: tf.distribute.ReductionToOneDevice(reduce_to_device=f"/cpu:{n - 1}")),
            ("hc0", lambda: tf.distribute.HierarchicalCopyAllReduce(num_packs=0)),
            ("hc1", lambda: tf.distribute.HierarchicalCopyAllReduce()),
            ("hc2", lambda: tf.distribute.HierarchicalCopyAllReduce(num_packs=2))]


def strategy(tf: Any, mk: Any, n: int, make: Callable[[], Any]) -> Any:
    s = mk()
    c = make()
    if c is None:
        return s
    return tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(n)], cross_device_ops=c)


# -- the cross-device ops by dtype ---------------------------------------------------------------------------------------
def _cdo(dt: str) -> Callable[[Any, Any, int], dict[str, Any]]:
    def go(tf: Any, mk: Any, n: int) -> dict[str, Any]:
        """Each cross-device op × all_reduce/reduce/reduce_to/batch_reduce_to × SUM/MEAN of `dt` at 1 and 5 elements."""
        out: dict[str, Any] = {}
        last = f"/cpu:{n - 1}"
        d = getattr(tf, dt)
        for cn, make in cdos(tf, n):
            if cn == "ring" and dt == "int32":
                continue   # (TF's CPU collectives: int32 all-reduce refused, and an error may abort the executor)
            s = strategy(tf, mk, n, make)
            for size in (1, 5):
                a = order_values(n, size, dt, f"cdo{dt}{size}")
                b = order_values(n, size, dt, f"cdo{dt}{size}b")
                per = per_replica(tf, s, a, dt)
                per2 = per_replica(tf, s, b, dt)
                for op in ("SUM", "MEAN"):
                    if dt.startswith("int") and op == "MEAN":
                        continue
                    k = f"{cn} {size} {op}"

                    def rep(op: str = op) -> Any:
                        ctx = tf.distribute.get_replica_context()
                        x = tf.cast(tf.gather(tf.constant(a), ctx.replica_id_in_sync_group), d)
                        return ctx.all_reduce(op, x)
                    out[f"{k} all_reduce"] = error(lambda: local(s, s.run(rep)))
                    out[f"{k} reduce"] = error(lambda: [S(r_ := s.reduce(op, per, axis=None)), dev(r_)])
                    for dn, dest in (("self", per), ("cpu0", "/cpu:0"), ("last", last)):
                        out[f"{k} reduce_to {dn}"] = error(lambda: local(s, s.extended.reduce_to(op, per, dest)))
                    out[f"{k} batch_reduce_to"] = error(lambda: [local(s, r_) for r_ in s.extended.batch_reduce_to(
                        op, [(per, per), (per2, last)])])
        return out
    return go


for _dt in DTYPES:
    program(f"cdo-{_dt}", _cdo(_dt))


# -- IndexedSlices -------------------------------------------------------------------------------------------------------
INDICES = {"same": lambda i: [1, 4, 2], "different": lambda i: [i % 6, (2 * i + 3) % 6],
           "duplicates": lambda i: [3, 3, i % 6, 3], "empty-one": lambda i: [] if i == 1 else [5, 0]}


def _slices(tf: Any, mk: Any, n: int) -> dict[str, Any]:
    """A gather's gradient (IndexedSlices) in each replica with INDICES' patterns in float32 and float64: all_reduce
    SUM/MEAN in the replica; returned and reduced by strategy.reduce, reduce_to (onto the values and '/cpu:0'),
    batch_reduce_to, with the ring, ReductionToOneDevice and HierarchicalCopyAllReduce; a plain IndexedSlices given to
    a CrossDeviceOps."""
    out: dict[str, Any] = {}
    for cn, make in [c for c in cdos(tf, n) if c[0] in ("ring", "r1d", "hc1")]:
        s = strategy(tf, mk, n, make)
        for pn, pat in INDICES.items():
            for dt in ("float32", "float64"):
                d = getattr(tf, dt)
                r = rng(f"sl{pn}{dt}")
                params = r.randint(-50, 50, (6, 2)) / 8.0
                w = order_values(n, 8, "float32", f"slw{pn}").reshape(n, 4, 2)

                def grad(ctx: Any) -> Any:
                    i = ctx.replica_id_in_sync_group
                    idx = tf.constant(pat(i), tf.int32)
                    p = tf.constant(params, d)
                    with tf.GradientTape() as t:
                        t.watch(p)
                        g = tf.gather(p, idx)
                        y = tf.reduce_sum(g * tf.cast(tf.constant(w[i][:len(pat(i))]), d))
                    return t.gradient(y, p)

                for op in ("SUM", "MEAN"):
                    def rep(op: str = op) -> Any:
                        ctx = tf.distribute.get_replica_context()
                        return ctx.all_reduce(op, grad(ctx))
                    out[f"{cn} {pn} {dt} all_reduce {op}"] = error(lambda: local(s, s.run(rep)))
                per = error(lambda: s.run(lambda: grad(tf.distribute.get_replica_context())))
                if isinstance(per, str):
                    out[f"{cn} {pn} {dt} run"] = per
                    continue
                out[f"{cn} {pn} {dt} run"] = local(s, per)
                for op in ("SUM", "MEAN"):
                    k = f"{cn} {pn} {dt} {op}"
                    out[f"{k} reduce"] = error(lambda: S(s.reduce(op, per, axis=None)))
                    out[f"{k} reduce_to self"] = error(lambda: local(s, s.extended.reduce_to(op, per, per)))
                    out[f"{k} reduce_to cpu0"] = error(lambda: local(s, s.extended.reduce_to(op, per, "/cpu:0")))
                    out[f"{k} batch_reduce_to"] = error(lambda: [local(s, r_) for r_ in s.extended.batch_reduce_to(
                        op, [(per, per), (per, "/cpu:0")])])
        plain = tf.IndexedSlices(tf.constant([[1.5, -2.0], [0.25, 3.0]]), tf.constant([4, 1]), tf.constant([6, 2]))
        for op in ("SUM", "MEAN"):
            c = make() or tf.distribute.ReductionToOneDevice()
            out[f"{cn} plain {op}"] = error(lambda: local(s, c.reduce(op, plain, destinations="/cpu:0")))
    return out


program("slices", _slices)


# -- MirroredVariable updates ----------------------------------------------------------------------------------------------
AGGS = ("NONE", "SUM", "MEAN", "ONLY_FIRST_REPLICA")


def _vars_mirrored(tf: Any, mk: Any, n: int) -> dict[str, Any]:
    """A MirroredVariable of each aggregation and dtype (float32, float64, int64): assign/assign_add/assign_sub in
    replica context with each replica's value (read_value True/False) and in cross-replica context; every copy after,
    the update's result; refusals by class."""
    s = mk()
    out: dict[str, Any] = {}
    agg = tf.VariableAggregation
    for dt in ("float32", "float64", "int64"):
        d = getattr(tf, dt)
        vals = order_values(n, 3, dt, f"mv{dt}")
        for an in AGGS:
            for meth in ("assign", "assign_add", "assign_sub"):
                k = f"{dt} {an} {meth}"
                with s.scope():
                    v = error(lambda: tf.Variable(tf.constant([2, -1, 3], d), aggregation=getattr(agg, an),
                                                  name=f"mv_{dt}_{an}_{meth}"))
                if isinstance(v, str):
                    out[f"{k} made"] = v
                    continue

                def rep(meth: str = meth, v: Any = v) -> Any:
                    ctx = tf.distribute.get_replica_context()
                    x = tf.cast(tf.gather(tf.constant(vals), ctx.replica_id_in_sync_group), d)
                    return getattr(v, meth)(x)
                out[f"{k} replica"] = error(lambda: local(s, s.run(rep)))
                out[f"{k} replica after"] = local(s, v)

                def rep2(meth: str = meth, v: Any = v) -> Any:
                    ctx = tf.distribute.get_replica_context()
                    x = tf.cast(tf.gather(tf.constant(vals), ctx.replica_id_in_sync_group), d)
                    getattr(v, meth)(x, read_value=False)
                    return v.read_value()
                out[f"{k} replica no read"] = error(lambda: local(s, s.run(rep2)))
                out[f"{k} cross"] = error(lambda: local(s, getattr(v, meth)(tf.constant([5, 7, -4], d))))
                out[f"{k} cross after"] = local(s, v)
    return out


program("vars-mirrored", _vars_mirrored)


# -- extended.update, kwargs, merge_call, colocation -------------------------------------------------------------------------
def _vars_update(tf: Any, mk: Any, n: int) -> dict[str, Any]:
    """extended.update(v, fn, args, kwargs, group) in cross-replica context and from a replica (merge_call);
    update_non_slot with kwargs; strategy.run with distributed args and kwargs; merge_call's args/kwargs regrouped;
    colocate_vars_with: the devices of variables made under it, another strategy's variable refused."""
    s = mk()
    out: dict[str, Any] = {}
    vals = order_values(n, 2, "float32", "vu")
    per = per_replica(tf, s, vals, "float32")
    per2 = per_replica(tf, s, vals * 3, "float32")
    with s.scope():
        v = tf.Variable([1.0, 2.0], name="vu_v")
        u = tf.Variable([0.5, -0.5], name="vu_u", aggregation=tf.VariableAggregation.SUM)

    def fn(var: Any, a: Any, b: Any = None, c: float = 0.0) -> Any:
        r = var.assign_add(a + (0.0 if b is None else b * 2.0) + c)
        return r, tf.identity(a)

    for group in (True, False):
        out[f"update args group={group}"] = error(lambda: S([local(s, r_) for r_ in s.extended.update(
            v, fn, args=(per,), group=group)]) if group else S([[local(s, x) for x in r_] for r_ in
                                                                 s.extended.update(v, fn, args=(per,), group=group)]))
        out[f"update kwargs group={group}"] = error(lambda: S(
            [local(s, r_) for r_ in s.extended.update(v, fn, args=(per,), kwargs={"b": per2, "c": 1.5}, group=group)])
            if group else S([[local(s, x) for x in r_] for r_ in s.extended.update(
                v, fn, args=(per,), kwargs={"b": per2, "c": 1.5}, group=group)]))
        out[f"after group={group}"] = local(s, v)
    out["update plain arg"] = error(lambda: [local(s, r_) for r_ in s.extended.update(
        u, fn, args=(tf.constant([1.0, 1.0]),), kwargs={"c": 0.25})])
    out["update_non_slot kwargs"] = error(lambda: S(s.extended.update_non_slot(
        [v], lambda a, b=None: tf.identity(a + b), args=(per,), kwargs={"b": per2}, group=True)))

    def rep_update(group: bool) -> Callable[[], Any]:
        def r() -> Any:
            ctx = tf.distribute.get_replica_context()
            x = tf.gather(tf.constant(vals), ctx.replica_id_in_sync_group)
            return tf.distribute.get_strategy().extended.update(v, lambda var, a, b=0.0: var.assign_sub(a * b),
                                                                args=(x,), kwargs={"b": 2.0}, group=group)
        return r
    for group in (True, False):
        res = error(lambda: s.run(rep_update(group)))
        out[f"replica update group={group}"] = res if isinstance(res, str) else S(
            [local(s, x) for x in (res if isinstance(res, (list, tuple)) else [res])])
        out[f"replica after group={group}"] = local(s, v)

    def kw(a: Any, b: Any = None, c: Any = None) -> Any:
        ctx = tf.distribute.get_replica_context()
        return [a * 10.0 + b, c + tf.cast(ctx.replica_id_in_sync_group, tf.float32)]
    out["run kwargs"] = error(lambda: [local(s, r_) for r_ in s.run(kw, args=(per,), kwargs={"b": per2, "c": 0.5})])
    out["run kwargs only"] = error(lambda: [local(s, r_) for r_ in s.run(kw, kwargs={"a": per2, "b": per, "c": 1.0})])

    def merge(strat: Any, a: Any, b: Any = None) -> Any:
        return [strat.reduce("SUM", a, axis=None), strat.reduce("SUM", b, axis=None),
                tf.constant(len(strat.experimental_local_results(a)))]

    def rm() -> Any:
        ctx = tf.distribute.get_replica_context()
        i = ctx.replica_id_in_sync_group
        x = tf.gather(tf.constant(vals), i)
        return ctx.merge_call(merge, args=(x,), kwargs={"b": x * tf.cast(i + 1, tf.float32)})
    out["merge_call args kwargs"] = error(lambda: [local(s, r_) for r_ in s.run(rm)])

    with s.scope():
        with s.extended.colocate_vars_with(v):
            w = tf.Variable([3.0, 4.0], name="vu_w")
        out["colocated devices"] = [type(w).__name__, [dev(c) for c in s.experimental_local_results(w)]]
        with s.extended.colocate_vars_with(u):
            w2 = tf.Variable(tf.constant([1, 2], tf.int64), name="vu_w2")
        out["colocated devices 2"] = [type(w2).__name__, [dev(c) for c in s.experimental_local_results(w2)]]
    other = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(n)])
    with other.scope():
        o = tf.Variable(1.0, name="vu_o")

    def colo_other() -> Any:
        with s.scope():
            with s.extended.colocate_vars_with(o):
                z = tf.Variable(2.0, name="vu_z")
        return [type(z).__name__, [dev(c) for c in s.experimental_local_results(z)]]
    out["colocate other strategy's"] = error(colo_other)
    return out


program("vars-update", _vars_update)


# -- SyncOnRead variables ----------------------------------------------------------------------------------------------------
def _vars_sync(tf: Any, mk: Any, n: int) -> dict[str, Any]:
    """A SyncOnRead variable (SUM/MEAN/ONLY_FIRST_REPLICA × float32/float64/int64) written in each replica (assign,
    assign_add, assign_sub), read in cross-replica context (read_value, value(), tf.identity, local copies), then
    assigned/assign_add'ed/assign_sub'ed there; refusals by class."""
    s = mk()
    out: dict[str, Any] = {}
    agg = tf.VariableAggregation
    for dt in ("float32", "float64", "int64"):
        d = getattr(tf, dt)
        vals = order_values(n, 3, dt, f"sr{dt}")
        for an in ("SUM", "MEAN", "ONLY_FIRST_REPLICA"):
            k = f"{dt} {an}"
            with s.scope():
                v = error(lambda: tf.Variable(tf.constant([1, 2, 3], d), synchronization=tf.VariableSynchronization.ON_READ,
                                              aggregation=getattr(agg, an), name=f"sr_{dt}_{an}"))
            if isinstance(v, str):
                out[f"{k} made"] = v
                continue
            for meth in ("assign", "assign_add", "assign_sub"):
                def rep(meth: str = meth) -> Any:
                    ctx = tf.distribute.get_replica_context()
                    x = tf.cast(tf.gather(tf.constant(vals), ctx.replica_id_in_sync_group), d)
                    getattr(v, meth)(x)
                    return v.read_value()
                out[f"{k} replica {meth}"] = error(lambda: local(s, s.run(rep)))
                out[f"{k} {meth} read_value"] = error(lambda: S(v.read_value()))
                out[f"{k} {meth} value"] = error(lambda: S(v.value()))
                out[f"{k} {meth} identity"] = error(lambda: S(tf.identity(v)))
                out[f"{k} {meth} locals"] = local(s, v)
            for meth, c in (("assign", [6, -3, 9]), ("assign_add", [3, 3, -6]), ("assign_sub", [1, 2, 3])):
                out[f"{k} cross {meth}"] = error(lambda: S(getattr(v, meth)(tf.constant(c, d))))
                out[f"{k} cross {meth} locals"] = local(s, v)
                out[f"{k} cross {meth} read"] = error(lambda: S(v.read_value()))
    return out


program("vars-sync", _vars_sync)
