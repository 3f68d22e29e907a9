"""The collectives sweep by rule (sixty-first session, rsweep61; test_rsweep61.py): the suite's all-reduces read few sizes
(jsweep60: 7, 64 and 300 elements; blind79: 1 to 100 float elements over three replicas). Here every program runs
once under a MirroredStrategy of three CPU replicas (REF3, r3- programs) and once of four (REF4, r4-).

Crossed by rule: ReplicaContext.all_reduce SUM/MEAN eagerly in float16/bfloat16/float32/float64 (and int64) at sizes
at, one below and one above every boundary of the ring's chunks (TF's RingReducer cuts the flattened tensor into one
chunk per replica, ceil(n / r) elements rounded up to 64-byte units, an aligned size gaining one more unit:
base_collective_executor.cc AlignedChunkElts; simdist semantics/reduce.py ring_chunk_elements), zero-size, scalars and
rank-2/3 shapes, with per-element arrangements of big, 1 and -big over the replicas so the order of addition shows;
inf, -inf, NaN, -0.0 and subnormals; a tf.function's nest all-reduce packed by CommunicationOptions(bytes_per_pack=...)
below, at and above each pack's bytes (cross_device_utils.group_by_size over the reversed leaves), with each
implementation (AUTO, RING, NCCL) and mixed dtypes; extended.batch_reduce_to of many values with options and
reduce_to's destinations (bits and devices); MirroredStrategy(cross_device_ops=ReductionToOneDevice(...),
HierarchicalCopyAllReduce(num_packs), NcclAllReduce()) on CPUs; all_gather of uneven shapes along 0 (rows of 0 to 17
per replica) eagerly and traced; gradients through all_reduce SUM/MEAN and all_gather in a tape inside strategy.run;
and (REF3) MultiWorkerMirroredStrategy in one process with one worker.

Host-independent: every float value is a sum, a mean or a copy of replicas' values in an order TF's collectives decide
(not the CPU's vector width), inputs from rng(name) arithmetic. Recorded by `python -m
simdist.conformance.suite.test_rsweep61 --record` (each REF in its own process: TF 2.21 allows one collective group
per context). OPEN lists disagreements left out of the comparison."""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite import replica_programs
from simdist.conformance.suite.replica_programs import BIG, dev, order_values  # noqa: F401
from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits, error,
                                                         reference_cpu, rng)

HERE = os.path.dirname(__file__)
REF3 = RecordedPrograms(os.path.join(HERE, "rsweep61_r3_reference.json.gz"), recording_host=avx512_with_onednn,
                        recording_cpu=reference_cpu, replicas=3)
REF4 = RecordedPrograms(os.path.join(HERE, "rsweep61_r4_reference.json.gz"), recording_host=avx512_with_onednn,
                        recording_cpu=reference_cpu, replicas=4)

#: simdist's disagreements with TF 2.21 this sweep found and did not fix: program -> case keys left out.
OPEN: dict[str, tuple[str, ...]] = {
    # (1) fixed (lead61, clause run.lifted-function): strategy.run(tf.function(fn)) whose fn all-reduces MEAN over
    # three replicas runs as TF's lifted clone, one graph, where Grappler makes `sum / 3` a product by 1/3 (the r3-packs
    # "bpp ... MEAN" keys and "bfloat16 bpp 40", formerly left out here, now compared). The traced gradients below
    # still differ after the lift (/work/wt/lead61_logs/rs_open.py).
    # (2) The traced gradient through two all-reduces (a product and a two-leaf nest) inside
    # strategy.run(tf.function(fn)): not the packing of the upstream gradients' all-reduce (simdist packs it as TF:
    # fix61d's variants with one all-reduce, a nest's included, agree on 3 and 4 replicas, SUM and MEAN), but how the
    # function's graph adds x's four gradient terms (4 replicas, SUM and MEAN: one element 64 off at 8e8, TF's sum
    # ((4e8 + g) + 12) + 4e8 rounding the other way) and, on 3 replicas, MEAN's `/ 3` met by a product in the
    # gradient (Grappler's arithmetic rewrites); /work/wt/fix61d_logs/g2.py.
    # The 4-replica keys were closed by lead62 (clause function.grappler-rewrites, "captured tensors are arguments"):
    # the function's constants captured from outside are graph arguments, not folded, and x's terms sum in name order.
    # The 3-replica key was closed by fix62c (clause reduce.ring-order): each replica divides its MEAN by its own
    # RealDiv, and a collective's result is no Const to ConstantPushDown, so `(s * (1 / 3)) * w` runs as
    # s * (w * (1 / 3)), as TF 2.21's optimized graph of the replica function shows.
    # (3) fixed (fix61d, clause reduce.ring-order): extended.batch_reduce_to in a tf.function (cross-replica) packs
    # the values into one ring all-reduce per pack, as a replica's traced nest all_reduce (the "SUM/MEAN none/bpp64
    # traced" keys of r3-/r4-batch-reduce, formerly left out here, now compared).
    # (4) fixed (lead61, clause run.lifted-function): strategy.run(tf.function(fn)) where fn has a NumPy default
    # argument: as TF's lifted clone, fn's Python gets its defaults unbound (the "numpy default traced" keys).
    # (5) re-opened at the sixty-second session's merge and closed again in the sixty-third: fix62c's fix of r3-grads
    # needs the pruning of dead nodes before Grappler's consumer count (graph/rewrite.py `_live`), which broke blind75's
    # recorded "tape reads p" while liveness was computed before common subexpression elimination's merges (a dead
    # tape `p * s` merged with the returned one); computed over the merged graph, both pass.
}

FLOATS = ("float16", "bfloat16", "float32", "float64")
ITEMSIZE = {"float16": 2, "bfloat16": 2, "float32": 4, "float64": 8, "int32": 4, "int64": 8}


def program(name: str, fn: Callable[[Any, Any, int], dict[str, Any]], only: tuple[int, ...] = (3, 4)) -> None:
    replica_programs.register({3: REF3, 4: REF4}, "r", OPEN, name, fn, only)


def B(t: Any) -> Any:
    return t if isinstance(t, str) else bits(t)


def ring_sizes(dt: str, m: int) -> list[int]:
    """Sizes at and around the ring's chunk boundaries for m replicas: the chunk is ceil(n / m) rounded up to 64-byte
    units (u elements), so its boundaries fall at n = m·u·k; an aligned size gains a unit. 0, 1, m - 1, m, m + 1
    too (chunks under one unit, trailing chunks empty)."""
    u = 64 // ITEMSIZE[dt]
    sizes = {0, 1, m - 1, m, m + 1, u - 1, u, u + 1}
    for k in (1, 2, 3):
        for d in (-m, -1, 0, 1, m):
            sizes.add(m * u * k + d)
    sizes.add((m - 1) * 2 * u)   # the last chunk empty when ceil(n / m) is aligned and gains a unit
    return sorted(s for s in sizes if s >= 0)


def per_replica(tf: Any, s: Any, arr: np.ndarray, dt: str) -> Any:
    d = getattr(tf, dt)
    return s.experimental_distribute_values_from_function(
        lambda ctx: tf.cast(tf.constant(arr[ctx.replica_id_in_sync_group]), d))


def results(s: Any, res: Any) -> list[Any]:
    """Every replica's result: the first in full with its device, the others as 'same' or in full."""
    loc = s.experimental_local_results(res)
    first = B(loc[0])
    return [first, [dev(c) for c in loc]] + ["same" if B(c) == first else B(c) for c in loc[1:]]


def replica_all_reduce(tf: Any, s: Any, op: str, arr: np.ndarray, dt: str, options: Any = None,
                       shape: tuple[int, ...] | None = None) -> Any:
    d = getattr(tf, dt)

    def fn() -> Any:
        ctx = tf.distribute.get_replica_context()
        x = tf.cast(tf.gather(tf.constant(arr), ctx.replica_id_in_sync_group), d)
        if shape is not None:
            x = tf.reshape(x, shape)
        return ctx.all_reduce(op, x, options=options)
    return error(lambda: results(s, s.run(fn)))


# -- the ring's chunks ---------------------------------------------------------------------------------------------------
def _ring_eager(dt: str) -> Callable[[Any, Any, int], dict[str, Any]]:
    def go(tf: Any, mk: Any, n: int) -> dict[str, Any]:
        """all_reduce SUM and MEAN of `dt` at every size around the ring's chunk boundaries, eagerly."""
        s = mk()
        out: dict[str, Any] = {}
        for size in ring_sizes(dt, n):
            a = order_values(n, size, dt, f"ring{dt}{size}")
            for op in ("SUM", "MEAN"):
                out[f"{size} {op}"] = replica_all_reduce(tf, s, op, a, dt)
        return out
    return go


for _dt in FLOATS + ("int64",):
    program(f"ring-{_dt}", _ring_eager(_dt))


def _ring_shapes(tf: Any, mk: Any, n: int) -> dict[str, Any]:
    """all_reduce of float32 scalars and rank-2/3 tensors whose flattened size sits on a chunk boundary (the ring cuts
    the flattened tensor), and zero-size ones, SUM and MEAN."""
    s = mk()
    out: dict[str, Any] = {}
    u = 16
    for shape in ((), (0,), (0, 3), (3, 0, 2), (n * u // 4, 4), (4, n * u // 4), (2, n * u // 2 + 1),
                  (n, u, 2), (1, n * u - 1)):
        size = int(np.prod(shape))
        a = order_values(n, size, "float32", f"shape{shape}")
        for op in ("SUM", "MEAN"):
            out[f"{shape} {op}"] = replica_all_reduce(tf, s, op, a, "float32", shape=shape)
    return out


program("ring-shapes", _ring_shapes)


def _ring_specials(tf: Any, mk: Any, n: int) -> dict[str, Any]:
    """all_reduce SUM/MEAN of inf, -inf, NaN, -0.0, +0.0, subnormals, the largest finite value (overflowing to inf)
    in float16/float32/float64 at a size spanning every chunk (each replica's chunk starts the order elsewhere)."""
    s = mk()
    out: dict[str, Any] = {}
    for dt in ("float16", "float32", "float64"):
        fi = np.finfo(np.float16 if dt == "float16" else np.dtype(dt))
        pool = np.array([np.inf, -np.inf, np.nan, -0.0, 0.0, float(fi.tiny) / 4, -float(fi.tiny) / 2,
                         float(fi.max), -float(fi.max), 1.0, float(fi.tiny)], dtype=np.float64)
        r = rng(f"spec{dt}")
        size = n * (64 // ITEMSIZE[dt]) + 5
        a = pool[r.randint(0, len(pool), (n, size))]
        a[:, 0] = -0.0   # every replica -0.0: the sum stays -0.0
        for op in ("SUM", "MEAN"):
            out[f"{dt} {op}"] = replica_all_reduce(tf, s, op, a.astype(dt), dt)
    return out


program("ring-specials", _ring_specials)


# -- a tf.function's nest all-reduce: packs ------------------------------------------------------------------------------
LEAF_SIZES = (5, 16, 17, 48, 3, 1, 33)


def _packs(tf: Any, mk: Any, n: int) -> dict[str, Any]:
    """A tf.function's all_reduce of seven float32 leaves (5 to 48 elements) with CommunicationOptions(bytes_per_pack=
    b) for b below, at and above the packs' bytes (group_by_size over the reversed leaves), SUM and MEAN; each
    implementation; float16 leaves; dtypes mixed in one pack and in separate packs; eagerly for contrast."""
    s = mk()
    out: dict[str, Any] = {}
    arrs = [order_values(n, k, "float32", f"pack{i}") for i, k in enumerate(LEAF_SIZES)]
    impl = tf.distribute.experimental.CommunicationImplementation

    def step(op: str, options: Any, dts: tuple[str, ...], traced: bool = True) -> Any:
        def fn() -> Any:
            ctx = tf.distribute.get_replica_context()
            i = ctx.replica_id_in_sync_group
            xs = [tf.cast(tf.gather(tf.constant(a), i), getattr(tf, dts[j % len(dts)])) for j, a in enumerate(arrs)]
            return ctx.all_reduce(op, xs, options=options)
        res = s.run(tf.function(fn) if traced else fn)
        return [results(s, r_) for r_ in res]

    rev = list(reversed([k * 4 for k in LEAF_SIZES]))   # the reversed leaves' bytes
    cum = np.cumsum(rev).tolist()
    bpps = sorted({0, 1, 4, rev[0] - 1, rev[0], rev[0] + 1, cum[1] - 1, cum[1], cum[2], 100, 256, 10 ** 6})
    for b in bpps:
        for op in ("SUM", "MEAN"):
            o = tf.distribute.experimental.CommunicationOptions(bytes_per_pack=b)
            out[f"bpp {b} {op}"] = error(lambda: step(op, o, ("float32",)))
    for name in ("AUTO", "RING", "NCCL"):
        o = tf.distribute.experimental.CommunicationOptions(bytes_per_pack=64, implementation=getattr(impl, name))
        out[f"impl {name}"] = error(lambda: step("SUM", o, ("float32",)))
    out["no options"] = error(lambda: step("SUM", None, ("float32",)))
    out["eager bpp 64"] = error(lambda: step(
        "SUM", tf.distribute.experimental.CommunicationOptions(bytes_per_pack=64), ("float32",), traced=False))
    out["float16"] = error(lambda: step("SUM", None, ("float16",)))
    out["bfloat16 bpp 40"] = error(lambda: step(
        "MEAN", tf.distribute.experimental.CommunicationOptions(bytes_per_pack=40), ("bfloat16",)))
    out["mixed one pack"] = error(lambda: step("SUM", None, ("float32", "float64")))
    out["mixed bpp 1"] = error(lambda: step(
        "SUM", tf.distribute.experimental.CommunicationOptions(bytes_per_pack=1), ("float32", "float64")))
    return out


program("packs", _packs)


# -- cross-replica: batch_reduce_to and reduce_to ------------------------------------------------------------------------
def _batch_reduce(tf: Any, mk: Any, n: int) -> dict[str, Any]:
    """extended.batch_reduce_to of seven PerReplica values (5 to 48 elements) to themselves, to '/cpu:0' and to the
    last CPU, SUM and MEAN, with and without CommunicationOptions(bytes_per_pack=64), eagerly and in a tf.function;
    reduce_to of one value at chunk-boundary sizes; each result's bits and devices."""
    s = mk()
    out: dict[str, Any] = {}
    pers = [per_replica(tf, s, order_values(n, k, "float32", f"br{i}"), "float32") for i, k in enumerate(LEAF_SIZES)]
    last = f"/cpu:{n - 1}"
    for op in ("SUM", "MEAN"):
        for on, o in (("none", None), ("bpp64", tf.distribute.experimental.CommunicationOptions(bytes_per_pack=64))):
            for dn in ("self", "cpu0", "last"):
                def go(op: str = op, o: Any = o, dn: str = dn) -> Any:
                    pairs = [(p, p if dn == "self" else "/cpu:0" if dn == "cpu0" else last) for p in pers]
                    rs = s.extended.batch_reduce_to(op, pairs, options=o)
                    return [[B(c) for c in s.experimental_local_results(r_)] +
                            [[dev(c) for c in s.experimental_local_results(r_)]] for r_ in rs]
                out[f"{op} {on} {dn}"] = error(go)

            def traced(op: str = op, o: Any = o) -> Any:
                rs = tf.function(lambda: s.extended.batch_reduce_to(op, [(p, p) for p in pers], options=o))()
                return [[B(c) for c in s.experimental_local_results(r_)] for r_ in rs]
            out[f"{op} {on} traced"] = error(traced)
    for size in (n * 16 - 1, n * 16, n * 16 + 1, n * 32):
        per = per_replica(tf, s, order_values(n, size, "float32", f"rt{size}"), "float32")
        for op in ("SUM", "MEAN"):
            def go1(op: str = op, per: Any = per) -> Any:
                r_ = s.extended.reduce_to(op, per, destinations=per)
                return [B(c) for c in s.experimental_local_results(r_)]
            out[f"reduce_to {size} {op}"] = error(go1)
            out[f"reduce {size} {op}"] = error(lambda: B(s.reduce(op, per, axis=None)))
    return out


program("batch-reduce", _batch_reduce)


# -- all_gather of uneven shapes -----------------------------------------------------------------------------------------
def _all_gather(tf: Any, mk: Any, n: int) -> dict[str, Any]:
    """all_gather along 0 of per-replica values with different row counts (0 to 17 rows, around the 64-byte units)
    in six dtypes, eagerly and in a tf.function; along 1 of values equal along 0 and uneven along 1 (an error or a
    concatenation); a nest of two uneven leaves."""
    s = mk()
    out: dict[str, Any] = {}
    row_sets = ([0, 1, 2, 3][:n], [16, 15, 17, 16][:n], [0, 0, 5, 0][:n], [3] * n)
    for dt in ("float16", "bfloat16", "float32", "float64", "int32", "int64"):
        for rows in row_sets:
            total = sum(rows)
            a = order_values(1, total * 2, dt, f"ag{dt}{rows}").reshape(total, 2)
            starts = np.cumsum([0] + rows).tolist()
            d = getattr(tf, dt)

            def make(a: Any, starts: Any, d: Any) -> Callable[[], Any]:
                def fn() -> Any:   # (no default arguments: a traced run binds them, below)
                    ctx = tf.distribute.get_replica_context()
                    i = ctx.replica_id_in_sync_group
                    lo, hi = tf.gather(tf.constant(starts), i), tf.gather(tf.constant(starts), i + 1)
                    return ctx.all_gather(tf.cast(tf.constant(a), d)[lo:hi], axis=0)
                return fn
            fn = make(a, starts, d)
            out[f"{dt} {rows}"] = error(lambda: results(s, s.run(fn)))
            if dt in ("float32", "int32"):
                out[f"{dt} {rows} traced"] = error(lambda: results(s, s.run(tf.function(fn))))

    def along1() -> Any:
        ctx = tf.distribute.get_replica_context()
        i = ctx.replica_id_in_sync_group
        return ctx.all_gather(tf.fill(tf.stack([2, i + 1]), tf.cast(i, tf.float32) + 0.25), axis=1)
    def numpy_default(a: Any = np.arange(6.0).reshape(3, 2)) -> Any:
        ctx = tf.distribute.get_replica_context()
        return ctx.all_gather(tf.constant(a, tf.float32)[:ctx.replica_id_in_sync_group + 1], axis=0)
    out["numpy default traced"] = error(lambda: results(s, s.run(tf.function(numpy_default))))
    out["axis1 uneven"] = error(lambda: results(s, s.run(along1)))
    out["axis1 uneven traced"] = error(lambda: results(s, s.run(tf.function(along1))))

    def nest() -> Any:
        ctx = tf.distribute.get_replica_context()
        i = ctx.replica_id_in_sync_group
        return ctx.all_gather((tf.fill(tf.stack([i]), 1.5), tf.fill(tf.stack([2 * i + 1, 3]), tf.cast(i, tf.int64))),
                              axis=0)
    res = error(lambda: s.run(nest))
    out["nest"] = res if isinstance(res, str) else [results(s, res[0]), results(s, res[1])]
    return out


program("all-gather", _all_gather)


# -- gradients through the collectives -----------------------------------------------------------------------------------
def _grads(tf: Any, mk: Any, n: int) -> dict[str, Any]:
    """Inside strategy.run, a GradientTape through all_reduce SUM and MEAN (of a product, a nest of two leaves) and
    through all_gather along 0 (uneven rows) and 1: each replica's gradient, eagerly and in a tf.function."""
    s = mk()
    out: dict[str, Any] = {}
    a = order_values(n, 20, "float32", "gr-a")
    c = order_values(n, 20, "float32", "gr-c")

    def reduce_grad(op: str) -> Callable[[], Any]:
        def fn() -> Any:
            ctx = tf.distribute.get_replica_context()
            i = ctx.replica_id_in_sync_group
            x = tf.gather(tf.constant(a, tf.float32), i)
            w = tf.gather(tf.constant(c, tf.float32), i)
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = ctx.all_reduce(op, x * w)
                z = ctx.all_reduce(op, {"p": x[:7], "q": x * x})
                loss = tf.reduce_sum(y * w) + tf.reduce_sum(z["p"] * 3.0) + tf.reduce_sum(z["q"])
            return tape.gradient(loss, x)
        return fn

    def gather_grad(axis: int) -> Callable[[], Any]:
        def fn() -> Any:
            ctx = tf.distribute.get_replica_context()
            i = ctx.replica_id_in_sync_group
            x = tf.reshape(tf.gather(tf.constant(a, tf.float32), i)[:12], [3, 4] if axis == 0 else [4, 3])
            if axis == 0:
                x = x[:tf.minimum(i + 1, 3)]
            with tf.GradientTape() as tape:
                tape.watch(x)
                g = ctx.all_gather(x * x, axis=axis)
                loss = tf.reduce_sum(g * tf.reshape(tf.range(tf.size(g), dtype=tf.float32), tf.shape(g)))
            return tape.gradient(loss, x)
        return fn

    for traced in (False, True):
        tn = " traced" if traced else ""
        for op in ("SUM", "MEAN"):
            f = reduce_grad(op)
            out[f"all_reduce {op}{tn}"] = error(lambda: results(s, s.run(tf.function(f) if traced else f)))
        for axis in (0, 1):
            g = gather_grad(axis)
            out[f"all_gather {axis}{tn}"] = error(lambda: results(s, s.run(tf.function(g) if traced else g)))
    return out


program("grads", _grads)


# -- MirroredStrategy's other cross-device ops -----------------------------------------------------------------------------
def _cross_device_ops(tf: Any, mk: Any, n: int) -> dict[str, Any]:
    """MirroredStrategy over the same CPUs with cross_device_ops ReductionToOneDevice() (and reduce_to_device the last
    CPU, accumulation_fn tf.math.add_n), HierarchicalCopyAllReduce(num_packs 0, 1, 2): all_reduce SUM/MEAN at 7 and
    at a chunk boundary, strategy.reduce, batch_reduce_to of two values, all_gather, int32/int64 and a traced
    float64 all_reduce; bits and devices (HierarchicalCopyAllReduce's two device groups: with three replicas the
    third value is dropped). NcclAllReduce() (refused on CPUs) is the next program's."""
    out: dict[str, Any] = {}
    mk()   # (the backend's CPUs first)
    devices = [f"/cpu:{i}" for i in range(n)]
    cdos = (("r1d", lambda: tf.distribute.ReductionToOneDevice()),
            ("r1d-last", lambda: tf.distribute.ReductionToOneDevice(reduce_to_device=f"/cpu:{n - 1}")),
            ("r1d-addn", lambda: tf.distribute.ReductionToOneDevice(accumulation_fn=tf.math.add_n)),
            ("hc0", lambda: tf.distribute.HierarchicalCopyAllReduce(num_packs=0)),
            ("hc1", lambda: tf.distribute.HierarchicalCopyAllReduce()),
            ("hc2", lambda: tf.distribute.HierarchicalCopyAllReduce(num_packs=2)))
    for cn, make in cdos:
        s = error(lambda: tf.distribute.MirroredStrategy(devices, cross_device_ops=make()))
        if isinstance(s, str):
            out[cn] = s
            continue
        for size in (7, n * 16):
            a = order_values(n, size, "float32", f"cdo{size}")
            for op in ("SUM", "MEAN"):
                out[f"{cn} {size} all_reduce {op}"] = replica_all_reduce(tf, s, op, a, "float32")
                per = per_replica(tf, s, a, "float32")
                out[f"{cn} {size} reduce {op}"] = error(lambda: [B(r_ := s.reduce(op, per, axis=None)), dev(r_)])

                def br(op: str = op, per: Any = per) -> Any:
                    rs = s.extended.batch_reduce_to(op, [(per, per), (per, "/cpu:0")])
                    return [[B(c) for c in s.experimental_local_results(r_)] +
                            [[dev(c) for c in s.experimental_local_results(r_)]] for r_ in rs]
                out[f"{cn} {size} batch_reduce_to {op}"] = error(br)
        b = order_values(n, 6, "float32", "cdo-g").reshape(n, 3, 2)

        def gath(b: Any = b) -> Any:
            ctx = tf.distribute.get_replica_context()
            return ctx.all_gather(tf.gather(tf.constant(b, tf.float32), ctx.replica_id_in_sync_group), axis=0)
        out[f"{cn} all_gather"] = error(lambda: results(s, s.run(gath)))
        ints = order_values(n, 5, "int32", "cdo-i")
        out[f"{cn} int32 SUM"] = replica_all_reduce(tf, s, "SUM", ints, "int32")
        out[f"{cn} int64 SUM"] = replica_all_reduce(tf, s, "SUM", ints, "int64")
        out[f"{cn} int64 MEAN"] = replica_all_reduce(tf, s, "MEAN", ints, "int64")
        a = order_values(n, 9, "float64", "cdo-t")

        def traced(a: Any = a) -> Any:
            ctx = tf.distribute.get_replica_context()
            return ctx.all_reduce("SUM", tf.gather(tf.constant(a), ctx.replica_id_in_sync_group))
        out[f"{cn} float64 traced SUM"] = error(lambda: results(s, tf.function(lambda: s.run(traced))()))
    return out


program("cross-device-ops", _cross_device_ops)


def _mwms(tf: Any, mk: Any, n: int) -> dict[str, Any]:
    """MultiWorkerMirroredStrategy() in one process without TF_CONFIG (one worker, its CollectiveAllReduce over one
    local CPU): replicas, worker devices, all_reduce SUM/MEAN (eager, traced, with options), strategy.reduce,
    batch_reduce_to, all_gather, gather, a variable's devices and a gradient through all_reduce."""
    out: dict[str, Any] = {}
    s = error(lambda: tf.distribute.MultiWorkerMirroredStrategy())
    if isinstance(s, str):
        return {"made": s}
    out["replicas"] = s.num_replicas_in_sync
    out["worker_devices"] = [d.split("/")[-1] for d in s.extended.worker_devices]
    a = order_values(1, 49, "float32", "mw")
    o = tf.distribute.experimental.CommunicationOptions(
        bytes_per_pack=64, implementation=tf.distribute.experimental.CommunicationImplementation.RING)
    for op in ("SUM", "MEAN"):
        out[f"all_reduce {op}"] = replica_all_reduce(tf, s, op, a, "float32")
        out[f"all_reduce {op} options"] = replica_all_reduce(tf, s, op, a, "float32", options=o)

        def traced(op: str = op) -> Any:
            return s.run(tf.function(lambda: tf.distribute.get_replica_context().all_reduce(
                op, [tf.constant(a[0][:20], tf.float32), tf.constant(a[0][20:], tf.float32)], options=o)))
        out[f"traced {op}"] = error(lambda: [[B(c), dev(c)] for c in traced()])
        per = s.run(lambda: tf.constant(a[0], tf.float32))
        out[f"reduce {op}"] = error(lambda: [B(r_ := s.reduce(op, per, axis=None)), dev(r_)])
        out[f"reduce {op} axis0"] = error(lambda: B(s.reduce(op, per, axis=0)))
        out[f"batch_reduce_to {op}"] = error(lambda: [[B(r_), dev(r_)] for r_ in s.extended.batch_reduce_to(
            op, [(per, per), (per, "/cpu:0")], options=o)])
    out["all_gather"] = error(lambda: [B(r_ := s.run(
        lambda: tf.distribute.get_replica_context().all_gather(tf.constant([[1.5, 2.0]]), axis=0))), dev(r_)])
    out["gather"] = error(lambda: B(s.gather(s.run(lambda: tf.constant([[1.0, -2.0]])), axis=0)))
    with s.scope():
        v = tf.Variable([1.0, 2.0], name="rsw_mw_v")
    out["variable"] = [type(v).__name__, [dev(c) for c in s.experimental_local_results(v)]]

    def gstep() -> Any:
        x = tf.constant(a[0][:6], tf.float32)
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(tf.distribute.get_replica_context().all_reduce("MEAN", x * x) * 3.0)
        return tape.gradient(loss, x)
    out["grad"] = error(lambda: B(s.run(gstep)))
    out["comm options"] = error(lambda: [str(s.extended._communication_options.implementation).split(".")[-1],
                                         s.extended._communication_options.bytes_per_pack])
    return out


program("mwms", _mwms, only=(3,))


def _nccl(tf: Any, mk: Any, n: int) -> dict[str, Any]:
    """MirroredStrategy(cross_device_ops=NcclAllReduce()) over CPUs: the replica all_reduce (no NcclAllReduce kernel
    on CPUs: an error), strategy.reduce and reduce_to '/cpu:0' (ReductionToOneDevice's fallback: destinations not the
    value's devices). Last: TF's collectives may stay aborted after the error."""
    out: dict[str, Any] = {}
    mk()   # (the backend's CPUs first)
    devices = [f"/cpu:{i}" for i in range(n)]
    s = error(lambda: tf.distribute.MirroredStrategy(devices, cross_device_ops=tf.distribute.NcclAllReduce()))
    if isinstance(s, str):
        return {"made": s}
    a = order_values(n, 7, "float32", "nccl")
    per = per_replica(tf, s, a, "float32")
    for op in ("SUM", "MEAN"):
        out[f"reduce {op}"] = error(lambda: [B(r_ := s.reduce(op, per, axis=None)), dev(r_)])
        out[f"reduce_to cpu0 {op}"] = error(lambda: [[B(c), dev(c)] for c in s.experimental_local_results(
            s.extended.reduce_to(op, per, destinations="/cpu:0"))])
    out["all_reduce"] = replica_all_reduce(tf, s, "SUM", a, "float32")
    out["reduce_to self"] = error(lambda: [[B(c), dev(c)] for c in s.experimental_local_results(
        s.extended.reduce_to("SUM", per, destinations=per))])
    return out


program("nccl", _nccl)


def _edges(tf: Any, mk: Any, n: int) -> dict[str, Any]:
    """The collectives' argument edges: all_gather and all_reduce of a tensor every replica captures (the same object:
    returned as is), CrossDeviceOps objects used directly (ReductionToOneDevice's reduce of one value onto another
    CPU, HierarchicalCopyAllReduce's batch_reduce onto the values' devices, onto another CPU and a mix), all_reduce of
    nests mixing int64/float32 leaves, then the refusals last (TF's collectives may stay aborted after an error): an
    int32 leaf first beside a float one, all_gather and strategy.gather along the rank of vectors."""
    s = mk()
    out: dict[str, Any] = {}
    a = order_values(n, 6, "float32", "edge")
    cap = tf.constant([1.5, -2.0, 3.25])
    out["all_gather captured"] = error(lambda: results(s, s.run(
        lambda: tf.distribute.get_replica_context().all_gather(cap, axis=0))))
    out["all_reduce captured MEAN"] = error(lambda: results(s, s.run(
        lambda: tf.distribute.get_replica_context().all_reduce("MEAN", cap))))
    per = per_replica(tf, s, a, "float32")
    SUM = tf.distribute.ReduceOp.SUM
    r1d = tf.distribute.ReductionToOneDevice()
    hc = tf.distribute.HierarchicalCopyAllReduce()
    with tf.device("/cpu:0"):
        one = tf.constant([2.5, -1.0])
    out["r1d one value to last"] = error(lambda: [[B(c), dev(c)] for c in s.experimental_local_results(
        r1d.reduce(SUM, one, destinations=f"/cpu:{n - 1}"))])
    out["r1d per to last"] = error(lambda: [[B(c), dev(c)] for c in s.experimental_local_results(
        r1d.reduce(SUM, per, destinations=f"/cpu:{n - 1}"))])
    for dn, pairs in (("self", lambda: [(per, per), (per, per)]), ("last", lambda: [(per, f"/cpu:{n - 1}")]),
                      ("mixed", lambda: [(per, per), (per, f"/cpu:{n - 1}")]),
                      ("one value", lambda: [(one, "/cpu:0"), (one, one)])):
        for cn, ops in (("r1d", r1d), ("hc", hc)):
            out[f"{cn} batch_reduce {dn}"] = error(lambda: [[[B(c), dev(c)] for c in s.experimental_local_results(r_)]
                                                            for r_ in ops.batch_reduce(SUM, pairs())])

    def nest(first: str, second: str) -> Callable[[], Any]:
        def fn() -> Any:
            ctx = tf.distribute.get_replica_context()
            i = ctx.replica_id_in_sync_group
            x = tf.gather(tf.constant(a), i)
            return ctx.all_reduce("SUM", [tf.cast(x, getattr(tf, first)), tf.cast(x * 2, getattr(tf, second))])
        return fn
    for first, second in (("int64", "float32"), ("float32", "int64"), ("float64", "float32")):
        res = error(lambda: s.run(nest(first, second)))
        out[f"nest {first} {second}"] = res if isinstance(res, str) else [results(s, r_) for r_ in res]
    # refusals last
    for first, second in (("float32", "int32"), ("int32", "float32")):
        res = error(lambda: s.run(nest(first, second)))
        out[f"nest {first} {second}"] = res if isinstance(res, str) else [results(s, r_) for r_ in res]
    out["all_gather axis rank"] = error(lambda: results(s, s.run(
        lambda: tf.distribute.get_replica_context().all_gather(tf.constant([1.0, 2.0]), axis=1))))
    out["gather axis rank"] = error(lambda: B(s.gather(per, axis=1)))
    return out


program("edges", _edges)
