"""ParameterServerStrategy — clauses pss.* (PSS r2.4 docs; semantics §7).

Partitioner *objects* are pure functions and are tested without a cluster; placement and
ShardedVariable tests need a cluster (capability ``multi_worker``).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simdist.conformance import hyp
from simdist.conformance.assertions import (assert_equal, assert_true, assert_type_name, device_matches,
                                            raises, to_numpy)
from simdist.conformance.repro import Program

clause = pytest.mark.clause
needs_cluster = pytest.mark.requires("multi_worker")


def _ps_task(device: str) -> int | None:
    for k in range(64):
        if device_matches(device, f"/job:ps/replica:0/task:{k}/device:CPU:0"):
            return k
    return None


def _is_sharded(v) -> bool:
    return "ShardedVariable" in [c.__name__ for c in type(v).__mro__]


def div_split(rows: int, shards: int) -> list[list[int]]:
    """The documented div partition: contiguous ids, the first (rows mod k) shards one longer."""
    k = min(shards, rows)
    base, extra = divmod(rows, k)
    out, start = [], 0
    for i in range(k):
        size = base + (1 if i < extra else 0)
        out.append(list(range(start, start + size)))
        start += size
    return out


# -- pss.round-robin ---------------------------------------------------------------------------------
@clause("pss.round-robin")
@needs_cluster
def test_doc_round_robin_three_ps(backend, tf):
    prog = Program(backend, """
cluster = backend.make_ps_cluster(workers=2, ps=3)
strategy = cluster.strategy
coordinator = cluster.coordinator
v1 = tf.Variable(initial_value=0.0)
with strategy.scope():
    v2 = tf.Variable(initial_value=1.0)
    v3 = tf.Variable(initial_value=2.0)
    v4 = tf.Variable(initial_value=3.0)
    v5 = tf.Variable(initial_value=4.0)
""")
    ns = prog.run()
    for name, task in (("v2", 0), ("v3", 1), ("v4", 2), ("v5", 0)):
        assert_equal(ns[name].device, f"/job:ps/replica:0/task:{task}/device:CPU:0", what=f"{name}.device",
                     call="PSS with 3 ps: v2..v5 created in scope")


@clause("pss.round-robin")
@needs_cluster
@pytest.mark.parametrize("ps", [1, 2, 3])
@given(data=st.data())
def test_round_robin_cycles(backend, tf, ps, data):
    count = data.draw(st.integers(1, 8))
    cluster = backend.make_ps_cluster(workers=1, ps=ps)
    with cluster.strategy.scope():
        vs = [tf.Variable(float(i)) for i in range(count)]
    got = [_ps_task(v.device) for v in vs]
    assert_equal(got, [i % ps for i in range(count)], what="ps task of each variable",
                 call=f"PSS with {ps} ps: {count} variables in scope")


@clause("scope.outside-not-distributed")
@needs_cluster
def test_variable_outside_scope_not_on_a_ps(backend, tf):
    cluster = backend.make_ps_cluster(workers=1, ps=2)
    v1 = tf.Variable(initial_value=0.0)
    assert_true(_ps_task(v1.device) is None, f"v1.device={v1.device!r}: a variable created outside the scope "
                                             "should stay on the coordinator, not a ps", call="PSS, v1 outside scope")
    del cluster


@clause("scope.outside-not-distributed", ref="tf221")
@needs_cluster
def test_variable_outside_scope_on_chief(backend, tf):
    backend.make_ps_cluster(workers=1, ps=2)
    v1 = tf.Variable(initial_value=0.0)
    assert_equal(v1.device, "/job:chief/replica:0/task:0/device:CPU:0", what="v1.device", call="PSS, v1 outside scope")


@clause("num-replicas")
@needs_cluster
def test_pss_replicas_per_worker(backend):
    cluster = backend.make_ps_cluster(workers=2, ps=1)
    assert_equal(cluster.strategy.num_replicas_in_sync, 1, what="num_replicas_in_sync", call="PSS, CPU workers")


# -- pss.partitioner-div / first-axis / one / sharded-variable / sharded-convert --------------------------
PARTITIONED = """
cluster = backend.make_ps_cluster(workers=1, ps=ps,
    variable_partitioner=tf.distribute.experimental.partitioners.FixedShardsPartitioner(num_shards=shards))
strategy = cluster.strategy
with strategy.scope():
    w = tf.Variable(tf.reshape(tf.range(rows * cols), (rows, cols)), name="w")
"""


@clause("pss.partitioner-div")
@needs_cluster
def test_doc_thirteen_rows_over_five_shards(backend):
    prog = Program(backend, PARTITIONED, ps=3, shards=5, rows=13, cols=1)
    ns = prog.run()
    got = [to_numpy(v).ravel().tolist() for v in ns["w"].variables]
    assert_equal(got, [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10], [11, 12]], what="shard ids",
                 call="13 rows over 5 shards")


def _draw_partitioned(backend, data, ps=3):
    rows, shards = data.draw(hyp.partition_cases(max_rows=30, max_shards=7))
    cols = data.draw(st.integers(1, 3))
    prog = Program(backend, PARTITIONED + "parts = [backend.to_numpy(v) for v in (w.variables if hasattr(w, 'variables') else [w])]\n",
                   ps=ps, shards=shards, rows=rows, cols=cols)
    ns = prog.run()
    return prog, ns, rows, shards, cols, ps, f"FixedShardsPartitioner({shards}) on a ({rows}, {cols}) variable, {ps} ps"


@clause("pss.partitioner-div")
@needs_cluster
@given(data=st.data())
def test_div_partition_sizes(backend, data):
    """Shard sizes differ by at most one, sum to N, larger first; ids are contiguous."""
    prog, ns, rows, shards, cols, ps, call = _draw_partitioned(backend, data)
    sizes = [p.shape[0] for p in ns["parts"]]
    expected = div_split(rows, shards)
    prog.expect("[p.shape[0] for p in parts]", [len(e) for e in expected])
    assert_equal(sizes, [len(e) for e in expected], what="shard sizes", call=call)
    assert_true(max(sizes) - min(sizes) <= 1 and sizes == sorted(sizes, reverse=True) and sum(sizes) == rows,
                f"shard sizes {sizes} should differ by at most one, larger first, summing to {rows}", call=call)
    full = np.arange(rows * cols).reshape(rows, cols)
    for i, (p, ids) in enumerate(zip(ns["parts"], expected)):
        assert_equal(p, full[ids], what=f"shard {i}", call=call)


@clause("pss.partitioner-first-axis")
@needs_cluster
@given(data=st.data())
def test_only_the_first_axis_is_split(backend, data):
    prog, ns, rows, shards, cols, ps, call = _draw_partitioned(backend, data)
    parts = ns["parts"]
    assert_equal([tuple(p.shape[1:]) for p in parts], [(cols,)] * len(parts), what="shard shapes after axis 0",
                 call=call)
    assert_equal(np.concatenate(parts, axis=0), np.arange(rows * cols).reshape(rows, cols),
                 what="shards concatenated along axis 0", call=call)


@clause("pss.sharded-variable")
@needs_cluster
@pytest.mark.parametrize("ps", [1, 2, 3])
@given(data=st.data())
def test_sharded_variable_names_and_placement(backend, ps, data):
    prog, ns, rows, shards, cols, ps, call = _draw_partitioned(backend, data, ps)
    w = ns["w"]
    k = min(rows, shards)
    if k == 1:
        assert_true(not _is_sharded(w), f"one shard gave a {type(w).__name__}", call=call)
        return
    assert_type_name(w, "ShardedVariable", what="w", call=call)
    names = [v.name.split(":")[0] for v in w.variables]
    assert_equal(names, [f"w/part_{i}" for i in range(k)], what="shard names", call=call)
    tasks = [_ps_task(v.device) for v in w.variables]
    assert_equal(tasks, [i % ps for i in range(k)], what="shard ps tasks", call=call)
    assert_equal(tuple(w.shape.as_list()), (rows, cols), what="w.shape", call=call)


@clause("pss.partitioner-first-axis")
@needs_cluster
def test_partitioner_asking_for_other_axes_is_rejected(backend, tf):
    cluster = backend.make_ps_cluster(workers=1, ps=2, variable_partitioner=lambda shape, dtype: [2, 2])
    with cluster.strategy.scope():
        with raises(ValueError, call="variable_partitioner returning [2, 2]"):
            tf.Variable(tf.zeros((4, 4)))


@clause("pss.partitioner-first-axis", ref="tf221")
@needs_cluster
def test_partitioner_error_message(backend, tf):
    cluster = backend.make_ps_cluster(workers=1, ps=2, variable_partitioner=lambda shape, dtype: [2, 2])
    with cluster.strategy.scope():
        with raises(ValueError, match=r"variable_partitioner must return a list/tuple whose elements are 1 besides "
                                      r"the first element \(non-zero\), got: \[2, 2\]", call="partitioner -> [2, 2]"):
            tf.Variable(tf.zeros((4, 4)))


@clause("pss.partitioner-one")
@needs_cluster
@pytest.mark.parametrize("case", ["one-shard", "no-partitioner", "single-row"])
def test_one_partition_is_a_normal_variable(backend, tf, case):
    parts = tf.distribute.experimental.partitioners
    partitioner = {"one-shard": parts.FixedShardsPartitioner(1), "no-partitioner": None,
                   "single-row": parts.FixedShardsPartitioner(3)}[case]
    shape = (1, 4) if case == "single-row" else (40, 4)
    cluster = backend.make_ps_cluster(workers=1, ps=2, variable_partitioner=partitioner)
    with cluster.strategy.scope():
        v = tf.Variable(tf.ones(shape))
    call = f"{case}: variable of shape {shape}"
    assert_true(not _is_sharded(v), f"got a {type(v).__name__}, but a one-partition variable is a normal variable",
                call=call)
    assert_true(_ps_task(v.device) is not None, f"v.device={v.device!r} is not a ps", call=call)
    assert_equal(to_numpy(v), np.ones(shape, np.float32), what="value", call=call)


@clause("pss.sharded-variable", ref="doc")
@needs_cluster
def test_doc_dense_module_example(backend, tf):
    """The PSS docs' tf.Module example (with its `variable_partitioiner` typo fixed)."""
    prog = Program(backend, """
class Dense(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.w = tf.Variable(tf.random.normal([100, 10]), name='w')
    def __call__(self, x):
        return x * self.w
variable_partitioner = (
    tf.distribute.experimental.partitioners.FixedShardsPartitioner(
        num_shards = 2))
cluster = backend.make_ps_cluster(workers=1, ps=2, variable_partitioner=variable_partitioner)
strategy = cluster.strategy
with strategy.scope():
    dense = Dense()
""")
    ns = prog.run()
    dense, tf_ = ns["dense"], ns["tf"]
    assert_equal(len(dense.variables), 2, what="len(dense.variables)", call="Dense() with 2 shards")
    assert_true(isinstance(dense.variables[0], tf_.Variable) and isinstance(dense.variables[1], tf_.Variable),
                "dense.variables are not tf.Variable instances", call="Dense() with 2 shards")
    assert_equal(dense.variables[0].name, "w/part_0", what="dense.variables[0].name", call="Dense() with 2 shards")
    assert_equal(dense.variables[1].name, "w/part_1", what="dense.variables[1].name", call="Dense() with 2 shards")


@clause("pss.sharded-variable", ref="tf221")
@needs_cluster
def test_shard_names_carry_output_index(backend, tf):
    cluster = backend.make_ps_cluster(
        workers=1, ps=2, variable_partitioner=tf.distribute.experimental.partitioners.FixedShardsPartitioner(2))
    with cluster.strategy.scope():
        w = tf.Variable(tf.zeros((4, 2)), name="w")
    assert_equal([v.name for v in w.variables], ["w/part_0:0", "w/part_1:0"], what="shard names", call="2 shards of w")


@clause("pss.sharded-variable")
@needs_cluster
def test_shards_continue_the_round_robin(backend, tf):
    cluster = backend.make_ps_cluster(
        workers=1, ps=3, variable_partitioner=tf.distribute.experimental.partitioners.FixedShardsPartitioner(4))
    with cluster.strategy.scope():
        w = tf.Variable(tf.zeros((13, 2)), name="w")
        s = tf.Variable(1.0, name="s")
        z = tf.Variable(tf.zeros((3,)), name="z")
    got = {"w": [_ps_task(v.device) for v in w.variables], "s": _ps_task(s.device),
           "z": [_ps_task(v.device) for v in z.variables]}
    assert_equal(got, {"w": [0, 1, 2, 0], "s": 1, "z": [2, 0, 1]}, what="ps tasks",
                 call="3 ps, FixedShards(4): w(13,2), s, z[3]")


@clause("pss.sharded-convert")
@needs_cluster
@given(data=st.data())
def test_convert_and_lookup(backend, tf, data):
    rows, shards = data.draw(hyp.partition_cases(max_rows=20, max_shards=5))
    ids = data.draw(st.lists(st.integers(0, rows - 1), min_size=1, max_size=6))
    prog = Program(backend, PARTITIONED + """
dense = tf.convert_to_tensor(w)
looked_up = tf.nn.embedding_lookup(w, ids)
""", ps=3, shards=shards, rows=rows, cols=2, ids=ids)
    ns = prog.run()
    full = np.arange(rows * 2).reshape(rows, 2)
    call = f"({rows}, 2) variable in {min(rows, shards)} shards"
    prog.expect("dense", full)
    assert_equal(ns["dense"], full.astype(to_numpy(ns["dense"]).dtype), what="convert_to_tensor(w)", call=call)
    assert_equal(ns["looked_up"], full[ids].astype(to_numpy(ns["looked_up"]).dtype),
                 what=f"embedding_lookup(w, {ids})", call=call)


@clause("pss.partitioner-div")
@needs_cluster
def test_more_shards_than_rows(backend, tf):
    """A partitioner asking for more shards than rows gets one shard per row."""
    cluster = backend.make_ps_cluster(workers=1, ps=2, variable_partitioner=lambda shape, dtype: [5, 1])
    with cluster.strategy.scope():
        w = tf.Variable(tf.reshape(tf.range(6.0), (3, 2)), name="w")
    parts = [to_numpy(v).tolist() for v in w.variables] if _is_sharded(w) else [to_numpy(w).tolist()]
    assert_equal(parts, [[[0.0, 1.0]], [[2.0, 3.0]], [[4.0, 5.0]]], what="shards",
                 call="partitioner -> [5, 1] on a (3, 2) variable")


# -- pss.sharded-update ------------------------------------------------------------------------------------
SHARDED_UPDATE = """
cluster = backend.make_ps_cluster(workers=1, ps=2,
    variable_partitioner=tf.distribute.experimental.partitioners.FixedShardsPartitioner(num_shards=shards))
with cluster.strategy.scope():
    w = tf.Variable(tf.zeros((rows, 2)), name="w")
w.assign(tf.reshape(tf.range(rows * 2.0), (rows, 2)))
shards_of = lambda w: w.variables if hasattr(w, "variables") else [w]
after_assign = [backend.to_numpy(v) for v in shards_of(w)]
w.assign_add(tf.ones((rows, 2)))
w.assign_sub(tf.fill((rows, 2), 3.0))
after_updates = [backend.to_numpy(v) for v in shards_of(w)]
looked_up = tf.nn.embedding_lookup(w, ids)
"""


@clause("pss.sharded-update", ref="tf221")
@needs_cluster
@given(data=st.data())
def test_sharded_assign_and_lookup_by_shard_sizes(backend, tf, data):
    """assign/assign_add/assign_sub give shard i the rows [offset_i, offset_i + size_i) of the value;
    embedding_lookup of any rows (shard boundaries included) equals indexing the whole value."""
    rows, shards = data.draw(hyp.partition_cases(max_rows=12, max_shards=5))
    ids = data.draw(st.lists(st.integers(0, rows - 1), min_size=1, max_size=6))
    prog = Program(backend, SHARDED_UPDATE, rows=rows, shards=shards, ids=ids)
    ns = prog.run()
    full = np.arange(rows * 2, dtype=np.float32).reshape(rows, 2)
    split = [full[r] for r in div_split(rows, shards)]
    call = f"({rows}, 2) variable in {min(rows, shards)} shards"
    assert_equal([p.tolist() for p in ns["after_assign"]], [p.tolist() for p in split], what="shards after assign",
                 call=call)
    assert_equal([p.tolist() for p in ns["after_updates"]], [(p - 2).tolist() for p in split],
                 what="shards after assign_add(1), assign_sub(3)", call=call)
    assert_equal(ns["looked_up"], (full - 2)[ids], what=f"embedding_lookup(w, {ids})", call=call)


@clause("pss.sharded-update", ref="tf221")
@needs_cluster
def test_lookup_out_of_range(backend, tf):
    prog = Program(backend, SHARDED_UPDATE, rows=5, shards=2, ids=[0])
    ns = prog.run()
    with raises(tf.errors.InvalidArgumentError, call="embedding_lookup of row 5 of a (5, 2) variable in 2 shards"):
        tf.nn.embedding_lookup(ns["w"], [4, 5])


# -- partitioner objects (no cluster) --------------------------------------------------------------------
@clause("pss.fixed-shards-partitioner")
@given(data=st.data())
def test_fixed_shards_partitioner(backend, tf, data):
    k = data.draw(st.integers(1, 10))
    shape = data.draw(hyp.shapes(1, 3, 1, 12))
    p = tf.distribute.experimental.partitioners.FixedShardsPartitioner(num_shards=k)
    got = list(p(tf.TensorShape(list(shape)), tf.float32))
    expected = [min(k, shape[0])] + [1] * (len(shape) - 1)
    assert_equal(got, expected, call=f"FixedShardsPartitioner({k})(shape={list(shape)})")


@clause("pss.fixed-shards-partitioner")
@pytest.mark.parametrize("shape,k,expected", [([10, 3], 2, [2, 1]), ([3, 3], 5, [3, 1])])
def test_fixed_shards_examples(backend, tf, shape, k, expected):
    p = tf.distribute.experimental.partitioners.FixedShardsPartitioner(k)
    assert_equal(list(p(tf.TensorShape(shape), tf.float32)), expected,
                 call=f"FixedShardsPartitioner({k})({shape})")


@clause("pss.min-size-partitioner")
@given(data=st.data())
def test_min_size_partitioner(backend, tf, data):
    """At least min_shard_bytes per shard (unless there is only one), at most max_shards."""
    min_bytes = data.draw(st.sampled_from([4, 10, 64, 1024, 256 << 10]))
    max_shards = data.draw(st.integers(1, 8))
    shape = data.draw(hyp.shapes(1, 2, 1, 600))
    dtype = data.draw(st.sampled_from(["float32", "float64", "int32"]))
    p = tf.distribute.experimental.partitioners.MinSizePartitioner(min_shard_bytes=min_bytes, max_shards=max_shards)
    got = list(p(tf.TensorShape(list(shape)), getattr(tf, dtype)))
    nbytes = int(np.prod(shape)) * np.dtype(dtype).itemsize
    expected0 = max(1, min(shape[0], max_shards, math.ceil(nbytes / min_bytes)))
    call = f"MinSizePartitioner({min_bytes}, {max_shards})(shape={list(shape)}, {dtype})"
    assert_equal(got, [expected0] + [1] * (len(shape) - 1), call=call)
    if got[0] > 1:
        smallest = (shape[0] // got[0]) * nbytes // shape[0]
        assert_true(smallest >= min_bytes or got[0] == 1 or math.ceil(nbytes / min_bytes) >= got[0],
                    f"{got[0]} shards of ~{smallest} bytes are below min_shard_bytes={min_bytes}", call=call)


@clause("pss.min-size-partitioner")
def test_doc_min_size_one_shard_per_ps(backend, tf):
    """MinSizePartitioner(min_shard_bytes=256 << 10, max_shards=num_ps): 256 KiB at least per
    shard, at most one shard per ps."""
    P = tf.distribute.experimental.partitioners.MinSizePartitioner
    call = "MinSizePartitioner(256<<10, max_shards=3)"
    assert_equal(list(P(min_shard_bytes=256 << 10, max_shards=3)(tf.TensorShape([1024, 1024]), tf.float32)),
                 [3, 1], call=call + "([1024,1024] f32 = 4 MiB)")
    assert_equal(list(P(min_shard_bytes=256 << 10, max_shards=3)(tf.TensorShape([512, 256]), tf.float32)),
                 [2, 1], call=call + "([512,256] f32 = 512 KiB)")
    assert_equal(list(P(min_shard_bytes=256 << 10, max_shards=3)(tf.TensorShape([100, 100]), tf.float32)),
                 [1, 1], call=call + "([100,100] f32 = 40 KB)")


@clause("pss.min-size-partitioner", ref="tf221")
def test_min_size_defaults_and_errors(backend, tf):
    P = tf.distribute.experimental.partitioners.MinSizePartitioner
    assert_equal(list(P()(tf.TensorShape([1024, 1024]), tf.float32)), [1, 1],
                 call="MinSizePartitioner() (default max_shards=1)")
    assert_equal(list(P(max_shards=100)(tf.TensorShape([1024, 1024]), tf.float32)), [16, 1],
                 call="MinSizePartitioner(max_shards=100)([1024,1024])")
    for kw in ("min_shard_bytes", "max_shards", "bytes_per_string"):
        with raises(ValueError, match=f"Argument `{kw}` must be positive. Received: 0", call=f"MinSizePartitioner({kw}=0)"):
            P(**{kw: 0})


@clause("pss.min-size-partitioner")
@pytest.mark.parametrize("shape,min_bytes,max_shards,expected", [
    ([6, 1], 4, 2, [2, 1]),     # the docstring's examples
    ([6, 1], 4, 10, [6, 1]),
    ([3, 4], 4, 10, [3, 1]),    # never more shards than rows
])
def test_doc_min_size_examples(backend, tf, shape, min_bytes, max_shards, expected):
    p = tf.distribute.experimental.partitioners.MinSizePartitioner(min_shard_bytes=min_bytes, max_shards=max_shards)
    assert_equal(list(p(tf.TensorShape(shape), tf.float32)), expected,
                 call=f"MinSizePartitioner(min_shard_bytes={min_bytes}, max_shards={max_shards})({shape}, float32)")


# -- pss.max-size-partitioner ---------------------------------------------------------------------------
def max_size_expected(shape: list[int], elem_bytes: int, max_shard_bytes: int, max_shards, axis: int = 0) -> list[int]:
    """TF's variable_axis_size_partitioner, written out: slices per shard = max(1, floor(max bytes /
    bytes of one slice along `axis`)); shards = ceil(shape[axis] / slices per shard), capped by a
    truthy max_shards."""
    slice_bytes = math.prod(shape) / shape[axis] * elem_bytes
    per_shard = max(1, math.floor(max_shard_bytes / slice_bytes))
    k = math.ceil(shape[axis] / per_shard)
    if max_shards:
        k = min(k, max_shards)
    out = [1] * len(shape)
    out[axis] = k
    return out


@clause("pss.max-size-partitioner")
@pytest.mark.parametrize("kwargs,expected", [
    (dict(max_shard_bytes=4), [6, 1]),
    (dict(max_shard_bytes=4, max_shards=2), [2, 1]),
    (dict(max_shard_bytes=1024), [1, 1]),
])
def test_doc_max_size_examples(backend, tf, kwargs, expected):
    """The docstring's examples, on tf.TensorShape([6, 1]) and tf.float32."""
    p = tf.distribute.experimental.partitioners.MaxSizePartitioner(**kwargs)
    assert_equal(list(p(tf.TensorShape([6, 1]), tf.float32)), expected,
                 call=f"MaxSizePartitioner({kwargs})(TensorShape([6, 1]), float32)")


@clause("pss.max-size-partitioner")
@given(data=st.data())
def test_max_size_partitioner(backend, tf, data):
    """Each shard holds at most max_shard_bytes (at least one slice), as few shards as that allows,
    at most max_shards (None or 0: no cap); along the given axis."""
    shape = list(data.draw(hyp.shapes(1, 3, 1, 40)))
    axis = data.draw(st.integers(0, len(shape) - 1))
    dtype = data.draw(st.sampled_from(["float32", "float64", "int8", "int16", "int64", "float16"]))
    max_bytes = data.draw(st.sampled_from([1, 4, 7, 24, 50, 100, 1000, 4096]))
    max_shards = data.draw(st.sampled_from([None, 0, 1, 2, 3, 5, 100]))
    p = tf.distribute.experimental.partitioners.MaxSizePartitioner(max_shard_bytes=max_bytes, max_shards=max_shards)
    got = list(p(tf.TensorShape(shape), getattr(tf, dtype), axis=axis))
    expected = max_size_expected(shape, np.dtype(dtype).itemsize, max_bytes, max_shards, axis)
    assert_equal(got, expected, call=f"MaxSizePartitioner({max_bytes}, max_shards={max_shards})"
                                     f"(TensorShape({shape}), {dtype}, axis={axis})")


@clause("pss.max-size-partitioner")
def test_max_size_strings_use_bytes_per_string(backend, tf):
    P = tf.distribute.experimental.partitioners.MaxSizePartitioner
    assert_equal(list(P(40)(tf.TensorShape([7, 3]), tf.string)), max_size_expected([7, 3], 16, 40, None),
                 call="MaxSizePartitioner(40)(TensorShape([7, 3]), string) with 16 bytes per string")
    assert_equal(list(P(40, bytes_per_string=4)(tf.TensorShape([7, 3]), tf.string)),
                 max_size_expected([7, 3], 4, 40, None),
                 call="MaxSizePartitioner(40, bytes_per_string=4)(TensorShape([7, 3]), string)")


@clause("pss.max-size-partitioner", ref="tf221")
def test_max_size_arguments(backend, tf):
    """Arguments < 1 raise ValueError, except max_shards=0, which (being falsy) means no cap; the
    shape must be a tf.TensorShape."""
    P = tf.distribute.experimental.partitioners.MaxSizePartitioner
    for kwargs, name in ((dict(max_shard_bytes=0), "max_shard_bytes"), (dict(max_shard_bytes=4, max_shards=-1), "max_shards"),
                         (dict(max_shard_bytes=4, bytes_per_string=0), "bytes_per_string")):
        with raises(ValueError, match=f"Argument `{name}` must be positive", call=f"MaxSizePartitioner(**{kwargs})"):
            P(**kwargs)
    assert_equal(list(P(4, max_shards=0)(tf.TensorShape([6, 1]), tf.float32)), [6, 1],
                 call="MaxSizePartitioner(4, max_shards=0)(TensorShape([6, 1]), float32)")
    with raises(ValueError, match="shape is not a TensorShape", call="MaxSizePartitioner(4)([6, 1], float32)"):
        P(4)([6, 1], tf.float32)


# -- pss.colocate-no-partition ----------------------------------------------------------------------------
@clause("pss.colocate-no-partition")
@needs_cluster
def test_colocated_variables_not_partitioned(backend, tf):
    cluster = backend.make_ps_cluster(
        workers=1, ps=3, variable_partitioner=tf.distribute.experimental.partitioners.FixedShardsPartitioner(3))
    strategy = cluster.strategy
    with strategy.scope():
        s = tf.Variable(1.0, name="s")
        with strategy.extended.colocate_vars_with(s):
            c = tf.Variable(tf.zeros((10, 2)), name="c")
        after = tf.Variable(2.0, name="after")
    call = "FixedShards(3), tf.Variable((10,2)) under colocate_vars_with(s)"
    assert_true(not _is_sharded(c), f"got a {type(c).__name__}: a colocated variable must not be partitioned", call=call)
    assert_equal(_ps_task(c.device), _ps_task(s.device), what="ps task of c (of s)", call=call)
    assert_equal(_ps_task(after.device), 1, what="ps task of the next variable (colocation does not advance the round robin)",
                 call=call)


# -- pss.checkpoint-partitions ----------------------------------------------------------------------------
CHECKPOINT = """
def make(shards):
    cluster = backend.make_ps_cluster(workers=1, ps=2,
        variable_partitioner=tf.distribute.experimental.partitioners.FixedShardsPartitioner(shards))
    with cluster.strategy.scope():
        return tf.Variable(tf.zeros((10, 2)), name="cw")
saved = make(save_shards)
saved.assign(tf.reshape(tf.range(20.0), (10, 2)))
path = tf.train.Checkpoint(cw=saved).save(os.path.join(directory, "ckpt"))
restored = make(restore_shards)
tf.train.Checkpoint(cw=restored).restore(path).assert_consumed()
value = tf.convert_to_tensor(restored)
"""


@clause("pss.checkpoint-partitions")
@needs_cluster
@pytest.mark.requires("checkpoint")
def test_checkpoint_round_trip_same_partitions(backend, tmp_path):
    prog = Program(backend, "import os\n" + CHECKPOINT, save_shards=3, restore_shards=3, directory=str(tmp_path))
    ns = prog.run()
    assert_equal(ns["value"], np.arange(20.0, dtype=np.float32).reshape(10, 2), what="restored value",
                 call="save with 3 shards, restore with 3 shards")


@clause("pss.checkpoint-partitions", ref="doc")
@needs_cluster
@pytest.mark.requires("checkpoint")
def test_changing_partitions_is_not_supported(backend, tf, tmp_path):
    """Documented limitation: "Number of partitions must not change across Checkpoint save/load"."""
    prog = Program(backend, "import os\n" + CHECKPOINT, save_shards=5, restore_shards=3, directory=str(tmp_path))
    prog.expect_error("an error: the number of partitions changed (5 saved, 3 restored)")
    with raises(Exception, call="save with 5 shards, restore with 3"):
        prog.run()


@clause("pss.checkpoint-partitions", ref="tf221")
@needs_cluster
@pytest.mark.requires("checkpoint")
def test_changing_partitions_reshards(backend, tmp_path):
    prog = Program(backend, "import os\n" + CHECKPOINT, save_shards=5, restore_shards=3, directory=str(tmp_path))
    ns = prog.run()
    assert_equal(ns["value"], np.arange(20.0, dtype=np.float32).reshape(10, 2), what="restored value",
                 call="save with 5 shards, restore with 3")


# -- pss.requires-coordinator ------------------------------------------------------------------------------
@clause("pss.requires-coordinator")
@needs_cluster
def test_distributed_dataset_needs_the_coordinator(backend, tf):
    cluster = backend.make_ps_cluster(workers=1, ps=1)
    dist = cluster.strategy.experimental_distribute_dataset(tf.data.Dataset.range(4).batch(2))
    with raises(ValueError, match="create_per_worker_dataset", call="iter(PSS.experimental_distribute_dataset(...))"):
        for _ in dist:
            pass


@clause("pss.requires-coordinator")
@needs_cluster
def test_works_with_a_coordinator(backend, tf):
    cluster = backend.make_ps_cluster(workers=2, ps=1)
    strategy, coordinator = cluster.strategy, cluster.coordinator
    assert_true(coordinator.strategy is strategy, "coordinator.strategy is not the strategy", call="ClusterCoordinator(PSS)")
    with strategy.scope():
        v = tf.Variable(1.0)

    @tf.function
    def fn():
        return v + 1.0

    assert_equal(coordinator.fetch(coordinator.schedule(fn)), np.float32(2.0), what="fetched", call="schedule(v + 1)")


@clause("pss.requires-coordinator", ref="tf221")
@needs_cluster
def test_same_coordinator_per_strategy(backend, tf):
    cluster = backend.make_ps_cluster(workers=1, ps=1)
    a = tf.distribute.experimental.coordinator.ClusterCoordinator(cluster.strategy)
    b = tf.distribute.experimental.coordinator.ClusterCoordinator(cluster.strategy)
    assert_true(a is b, "two ClusterCoordinator(strategy) calls gave different objects", call="ClusterCoordinator(s) twice")


@clause("pss.requires-coordinator", ref="tf221")
def test_coordinator_rejects_other_strategies(backend, tf):
    strategy = backend.make_strategy("mirrored", 2)
    with raises((ValueError, AttributeError), call="ClusterCoordinator(MirroredStrategy)"):
        tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)

