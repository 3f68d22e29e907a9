"""Input distribution — clauses dataset.* and dataset-fn.* (experimental_distribute_dataset,
distribute_datasets_from_function, InputContext; semantics §3–§4)."""

from __future__ import annotations

import math
import time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from simdist.conformance import hyp
from simdist.conformance.assertions import assert_equal, assert_true, assert_type_name, fail, raises, to_numpy
from simdist.conformance.repro import Program

clause = pytest.mark.clause

STEPS = """
strategy = backend.make_strategy(kind, n)
dataset = tf.data.Dataset.range(size).batch(global_batch, drop_remainder=drop_remainder)
if policy is not None:
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = getattr(tf.data.experimental.AutoShardPolicy, policy)
    dataset = dataset.with_options(options)
dist = strategy.experimental_distribute_dataset(dataset)
steps = [[backend.to_numpy(v).tolist() for v in strategy.experimental_local_results(x)] for x in dist]
"""


def _steps_program(backend, kind, n, size, global_batch, policy=None, drop_remainder=False):
    return Program(backend, STEPS, kind=kind, n=n, size=size, global_batch=global_batch, policy=policy,
                   drop_remainder=drop_remainder)


# -- the suite's own model of TF 2.21's batch splitting (semantics §3), plain Python -----------------
def _input_batches(size, global_batch, drop_remainder):
    xs = list(range(size))
    out = [xs[i:i + global_batch] for i in range(0, size, global_batch)]
    if drop_remainder and out and len(out[-1]) < global_batch:
        out.pop()
    return out


def legacy_streams(batches, r):
    """Legacy rebatch: each input batch of b rows splits into r slices of ceil(b/r) (some empty)."""
    streams = [[] for _ in range(r)]
    for b in batches:
        m = math.ceil(len(b) / r)
        for k in range(r):
            streams[k].append(b[min(k * m, len(b)):min((k + 1) * m, len(b))])
    return streams


def v2_streams(batches, global_batch, r):
    """New-style rebatch: the rows, re-cut into chunks whose sizes cycle through
    [f+1]*c + [f]*(r-c) (f = G // r, c = G % r), dealt round-robin to the replicas. A size-0
    chunk is emitted (an empty batch) without reading input; the stream ends when a chunk of
    size > 0 finds no rows left."""
    f, c = divmod(global_batch, r)
    sizes = [f + 1] * c + [f] * (r - c)
    rows = [x for b in batches for x in b]
    streams = [[] for _ in range(r)]
    i = k = 0
    while True:
        n = sizes[k % r]
        if n > 0 and i >= len(rows):
            break
        streams[k % r].append(rows[i:i + n])
        i += n
        k += 1
    return streams


def steps_from_streams(streams, pad_missing: bool):
    """Steps of per-replica batches. pad_missing: a replica without data gets [] while any
    replica has data (MirroredStrategy); otherwise an incomplete step is dropped."""
    longest = max(len(s) for s in streams)
    shortest = min(len(s) for s in streams)
    last = longest if pad_missing else shortest
    return [[s[i] if i < len(s) else [] for s in streams] for i in range(last)]


def expected_steps(kind, r, size, global_batch, policy, drop_remainder):
    batches = _input_batches(size, global_batch, drop_remainder)
    if r == 1:
        return [[b] for b in batches]
    legacy = policy in (None, "AUTO", "DATA")
    streams = legacy_streams(batches, r) if legacy else v2_streams(batches, global_batch, r)
    return steps_from_streams(streams, pad_missing=(kind == "mirrored"))


# -- dataset.rebatch -------------------------------------------------------------------------------
@clause("dataset.rebatch")
def test_doc_example_rebatch(backend):
    prog = Program(backend, """
global_batch_size = 2
strategy = backend.make_strategy("mirrored", 2)
dataset = tf.data.Dataset.range(4).batch(global_batch_size)
dist_dataset = strategy.experimental_distribute_dataset(dataset)
@tf.function
def replica_fn(input):
    return input*2
result = []
for x in dist_dataset:
    result.append(strategy.run(replica_fn, args=(x,)))
""")
    ns = prog.run()
    got = [[to_numpy(v).tolist() for v in ns["strategy"].experimental_local_results(r)] for r in ns["result"]]
    assert_equal(got, [[[0], [2]], [[4], [6]]], what="steps", call="range(4).batch(2) on 2 replicas, x*2")
    for r in ns["result"]:
        assert_type_name(r, "PerReplica", what="step result", call="strategy.run(replica_fn)")
    dtypes = {str(to_numpy(v).dtype) for r in ns["result"] for v in ns["strategy"].experimental_local_results(r)}
    assert_equal(sorted(dtypes), ["int64"], what="dtypes", call="range(4).batch(2) on 2 replicas")


@clause("dataset.rebatch")
@given(data=st.data())
def test_even_batches_split_into_consecutive_slices(backend, data):
    kind, n = data.draw(hyp.multi_replica_setups(backend))
    per_replica = data.draw(st.integers(1, 3))
    steps_n = data.draw(st.integers(1, 3))
    g = per_replica * n
    policy = data.draw(st.sampled_from([None, "OFF", "DATA"]))
    prog = _steps_program(backend, kind, n, g * steps_n, g, policy)
    ns = prog.run()
    expected = [[list(range(s * g + j * per_replica, s * g + (j + 1) * per_replica)) for j in range(n)]
                for s in range(steps_n)]
    prog.expect("steps", expected)
    assert_equal(ns["steps"], expected, what="steps",
                 call=f"{kind}({n}) range({g * steps_n}).batch({g}), policy {policy}")


# -- dataset.partial-batch-split (TF 2.21) -------------------------------------------------------------
SEMANTICS_TABLE = [
    # (size, G, r, AUTO/DATA steps, OFF steps), semantics §3
    (6, 4, 2, [[[0, 1], [2, 3]], [[4], [5]]], [[[0, 1], [2, 3]], [[4, 5], []]]),
    (13, 5, 2, [[[0, 1, 2], [3, 4]], [[5, 6, 7], [8, 9]], [[10, 11], [12]]],
     [[[0, 1, 2], [3, 4]], [[5, 6, 7], [8, 9]], [[10, 11, 12], []]]),
    (8, 4, 3, [[[0, 1], [2, 3], []], [[4, 5], [6, 7], []]], [[[0, 1], [2], [3]], [[4, 5], [6], [7]]]),
    (14, 8, 4, [[[0, 1], [2, 3], [4, 5], [6, 7]], [[8, 9], [10, 11], [12, 13], []]],
     [[[0, 1], [2, 3], [4, 5], [6, 7]], [[8, 9], [10, 11], [12, 13], []]]),
    (5, 4, 4, [[[0], [1], [2], [3]], [[4], [], [], []]], [[[0], [1], [2], [3]], [[4], [], [], []]]),
    (9, 2, 2, [[[0], [1]], [[2], [3]], [[4], [5]], [[6], [7]], [[8], []]],
     [[[0], [1]], [[2], [3]], [[4], [5]], [[6], [7]], [[8], []]]),
]


@clause("dataset.partial-batch-split", ref="tf221")
@pytest.mark.parametrize("size,g,r,auto,off", SEMANTICS_TABLE, ids=lambda v: str(v) if isinstance(v, int) else "")
@pytest.mark.parametrize("policy", ["AUTO", "OFF"])
def test_semantics_table_mirrored(backend, size, g, r, auto, off, policy):
    if r > backend.max_replicas:
        pytest.skip(f"needs {r} replicas")
    prog = _steps_program(backend, "mirrored", r, size, g, policy)
    ns = prog.run()
    expected = auto if policy == "AUTO" else off
    prog.expect("steps", expected)
    assert_equal(ns["steps"], expected, what="steps", call=f"mirrored({r}) range({size}).batch({g}), {policy}")


@clause("dataset.partial-batch-split", ref="tf221")
@given(data=st.data())
def test_partial_batch_split_model(backend, data):
    """Any dataset size, global batch, replica count and policy: the steps follow the legacy
    split (AUTO/DATA on in-memory data) or the new-style split (OFF); MirroredStrategy gives a
    replica without data an empty batch while any replica has data, CentralStorageStrategy
    drops such a step."""
    kind, n = data.draw(hyp.multi_replica_setups(backend))
    size = data.draw(st.integers(1, 20))
    g = data.draw(st.integers(1, 8))
    policy = data.draw(st.sampled_from([None, "AUTO", "DATA", "OFF"]))
    drop = data.draw(st.booleans())
    prog = _steps_program(backend, kind, n, size, g, policy, drop)
    ns = prog.run()
    expected = expected_steps(kind, n, size, g, policy, drop)
    prog.expect("steps", expected)
    assert_equal(ns["steps"], expected, what="steps",
                 call=f"{kind}({n}) range({size}).batch({g}, drop_remainder={drop}), policy {policy}")


@clause("dataset.partial-batch-split", ref="tf221")
def test_central_storage_drops_incomplete_last_step(backend):
    """TF 2.21: CentralStorageStrategy does not pad a replica without data; the last step
    (here [4,5] | nothing) is dropped, unlike MirroredStrategy's [4,5] | []."""
    prog = _steps_program(backend, "central_storage", 2, 6, 4, "OFF")
    ns = prog.run()
    assert_equal(ns["steps"], [[[0, 1], [2, 3]]], what="steps", call="central_storage(2) range(6).batch(4), OFF")


@clause("reduce.partial-batch", ref="doc")
def test_doc_partial_batch_split_default_policy(backend):
    """The reduce docs: a last batch of 6 over 2 replicas "is divided into [0, 1, 2, 3] and
    [4, 5]" (global batch 8): with the default input pipeline."""
    prog = _steps_program(backend, "mirrored", 2, 14, 8)
    ns = prog.run()
    last = [[x - 8 for x in b] for b in ns["steps"][-1]]
    assert_equal(last, [[0, 1, 2, 3], [4, 5]], what="last step (relative to its first row)",
                 call="mirrored(2) range(14).batch(8), default options")


# -- dataset.prefetch ---------------------------------------------------------------------------------
@clause("dataset.prefetch")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_input_is_read_ahead(backend, tf, kind):
    """A prefetch of num_replicas_in_sync is appended: after the first step has been taken,
    the source is read ahead (at least one more global batch), without the caller asking."""
    n = 2
    strategy = backend.make_strategy(kind, n)
    produced = []

    def gen():
        for i in range(64):
            produced.append(i)
            yield i

    g = 2 * n
    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int64)).batch(g)
    it = iter(strategy.experimental_distribute_dataset(ds))
    first = next(it)
    got = sorted(x for v in strategy.experimental_local_results(first) for x in to_numpy(v).tolist())
    assert_equal(got, list(range(g)), what="first step", call=f"{kind}({n}) from_generator(...).batch({g})")
    deadline = time.monotonic() + 5.0
    while len(produced) < 2 * g and time.monotonic() < deadline:
        time.sleep(0.02)
    assert_true(len(produced) >= 2 * g,
                f"source produced {len(produced)} elements after the first step, but should have been "
                f"read ahead to at least {2 * g} (a prefetch of num_replicas_in_sync={n})",
                call=f"{kind}({n}).experimental_distribute_dataset")


# -- dataset.no-more-transforms ---------------------------------------------------------------------
@clause("dataset.no-more-transforms")
@pytest.mark.parametrize("method", ["map", "batch", "filter", "shuffle", "repeat", "take"])
def test_no_transformations_on_distributed_dataset(backend, tf, method):
    strategy = backend.make_strategy("mirrored", 2)
    dist = strategy.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4))
    fn = getattr(dist, method, None)
    if fn is None:
        return
    args = {"map": (lambda x: x,), "batch": (2,), "filter": (lambda x: True,), "shuffle": (4,),
            "repeat": (), "take": (1,)}[method]
    with raises(Exception, call=f"distributed_dataset.{method}(...)"):
        fn(*args)


@clause("dataset.no-more-transforms")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_iteration_and_element_spec_remain(backend, tf, kind):
    strategy = backend.make_strategy(kind, 2)
    dist = strategy.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4))
    spec = dist.element_spec
    assert_true(spec is not None, "element_spec is None", call=f"{kind}.experimental_distribute_dataset(...).element_spec")
    steps = [[to_numpy(v).tolist() for v in strategy.experimental_local_results(x)] for x in iter(dist)]
    assert_equal(steps, [[[0, 1], [2, 3]], [[4, 5], [6, 7]]], what="steps", call=f"{kind}(2) range(8).batch(4)")


@clause("dataset.no-more-transforms", ref="tf221")
def test_element_spec_is_per_replica_spec(backend, tf):
    strategy = backend.make_strategy("mirrored", 2)
    dist = strategy.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4, drop_remainder=True))
    spec = dist.element_spec
    assert_type_name(spec, "PerReplicaSpec", what="element_spec", call="mirrored(2) range(8).batch(4, drop_remainder=True)")
    specs = list(getattr(spec, "_value_specs", ()))
    assert_equal([tuple(s.shape.as_list()) for s in specs], [(2,), (2,)], what="component shapes",
                 call="element_spec of mirrored(2) range(8).batch(4, drop_remainder=True)")


# -- dataset.autoshard (single worker) ------------------------------------------------------------------
@clause("dataset.autoshard")
def test_auto_shard_policy_names(backend, tf):
    policy = tf.data.experimental.AutoShardPolicy
    for name in ("AUTO", "FILE", "DATA", "OFF"):
        assert_true(hasattr(policy, name), f"AutoShardPolicy has no {name}", call="tf.data.experimental.AutoShardPolicy")
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = policy.DATA
    assert_equal(str(options.experimental_distribute.auto_shard_policy), str(policy.DATA),
                 what="options.experimental_distribute.auto_shard_policy")


@clause("dataset.autoshard", ref="tf221")
def test_auto_shard_policy_values(backend, tf):
    policy = tf.data.experimental.AutoShardPolicy
    got = {name: int(getattr(policy, name).value) for name in ("OFF", "AUTO", "FILE", "DATA", "HINT")}
    assert_equal(got, {"OFF": -1, "AUTO": 0, "FILE": 1, "DATA": 2, "HINT": 3}, what="AutoShardPolicy values")


@clause("dataset.autoshard")
@given(data=st.data())
def test_single_worker_sees_every_element_once(backend, data):
    """On one worker, sharding never loses or duplicates data, whatever the policy."""
    kind, n = data.draw(hyp.strategy_setups(backend, kinds=("mirrored",)))
    size = data.draw(st.integers(1, 16))
    g = data.draw(st.integers(1, 6))
    policy = data.draw(st.sampled_from(["AUTO", "DATA", "OFF", "FILE"]))
    prog = _steps_program(backend, kind, n, size, g, policy)
    ns = prog.run()
    seen = sorted(x for step in ns["steps"] for b in step for x in b)
    assert_equal(seen, list(range(size)), what="elements seen",
                 call=f"{kind}({n}) range({size}).batch({g}), policy {policy}")


@clause("dataset.autoshard")
@pytest.mark.requires("multi_client")
@pytest.mark.parametrize("policy", ["AUTO", "DATA"])
def test_multi_worker_shards_do_not_overlap(backend, policy):
    """Two workers of a MultiWorkerMirroredStrategy: each gets a non-overlapping subset."""
    out = backend.run_multi_worker(f"""
dataset = tf.data.Dataset.range(16).batch(4)
options = tf.data.Options()
options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.{policy}
dist = strategy.experimental_distribute_dataset(dataset.with_options(options))
result = sorted(int(x) for step in dist for v in strategy.experimental_local_results(step)
                for x in backend.to_numpy(v).ravel())
""", num_workers=2)
    a, b = set(out[0]), set(out[1])
    assert_true(not (a & b), f"workers share elements {sorted(a & b)}", call=f"MWMS(2 workers), {policy}")
    assert_equal(sorted(a | b), list(range(16)), what="union of the workers' elements", call=f"MWMS, {policy}")


# -- dataset.css-example --------------------------------------------------------------------------------
CSS_EXAMPLE = """
strategy = {constructor}
dataset = tf.data.Dataset.range(10).batch(2)
dist_dataset = strategy.experimental_distribute_dataset(dataset)
elements = []
for x in dist_dataset:
    print(x)  # Prints PerReplica values [0, 1], [2, 3],...
    elements.append(x)
"""


@clause("dataset.css-example", ref="doc")
@pytest.mark.requires("gpus", "host_config")
def test_doc_css_example_one_cpu_one_gpu(backend):
    backend.configure_host(cpus=1, gpus=1)
    prog = Program(backend, CSS_EXAMPLE.format(constructor="tf.distribute.experimental.CentralStorageStrategy()"))
    ns = prog.run()
    _check_css_example(ns)


@clause("dataset.css-example", ref="doc")
def test_doc_css_example_one_compute_device(backend):
    """The documented setting (1 CPU + 1 GPU) has a single compute device; the same with one
    CPU compute device: the docs say the loop prints PerReplica values [0, 1], [2, 3], ..."""
    prog = Program(backend, CSS_EXAMPLE.format(constructor='backend.make_strategy("central_storage", 1)'))
    ns = prog.run()
    _check_css_example(ns)


def _check_css_example(ns):
    strategy = ns["strategy"]
    for x in ns["elements"]:
        assert_type_name(x, "PerReplica", what="element", call="for x in dist_dataset (CSS example)")
    got = [[to_numpy(v).tolist() for v in strategy.experimental_local_results(x)] for x in ns["elements"]]
    flat = [sum(step, []) for step in got]
    assert_equal(flat, [[0, 1], [2, 3], [4, 5], [6, 7], [8, 9]], what="batches", call="CSS example")


@clause("dataset.css-example")
def test_css_example_two_compute_devices(backend):
    prog = Program(backend, CSS_EXAMPLE.format(constructor='backend.make_strategy("central_storage", 2)'))
    ns = prog.run()
    strategy = ns["strategy"]
    for x in ns["elements"]:
        assert_type_name(x, "PerReplica", what="element", call="CSS(2) range(10).batch(2)")
    got = [[to_numpy(v).tolist() for v in strategy.experimental_local_results(x)] for x in ns["elements"]]
    assert_equal(got, [[[0], [1]], [[2], [3]], [[4], [5]], [[6], [7]], [[8], [9]]], what="steps",
                 call="CSS(2) range(10).batch(2)")


@clause("dataset.css-example", ref="tf221")
def test_css_one_compute_device_yields_plain_tensors(backend):
    prog = Program(backend, CSS_EXAMPLE.format(constructor='backend.make_strategy("central_storage", 1)'))
    ns = prog.run()
    for x in ns["elements"]:
        assert_type_name(x, ("Tensor", "EagerTensor"), what="element", call="CSS(1 compute device) range(10).batch(2)")
    assert_equal([to_numpy(x).tolist() for x in ns["elements"]], [[0, 1], [2, 3], [4, 5], [6, 7], [8, 9]],
                 what="elements", call="CSS(1 compute device) range(10).batch(2)")


# -- dataset-fn.* ------------------------------------------------------------------------------------
DFN = """
strategy = backend.make_strategy(kind, n)
contexts = []
def dataset_fn(input_context):
    contexts.append((input_context.num_input_pipelines, input_context.input_pipeline_id,
                     input_context.num_replicas_in_sync))
    return tf.data.Dataset.range(size).batch(per_replica_batch)
dist = strategy.distribute_datasets_from_function(dataset_fn)
steps = [[backend.to_numpy(v).tolist() for v in strategy.experimental_local_results(x)] for x in dist]
"""


@clause("dataset-fn.no-batching")
@given(data=st.data())
def test_dataset_fn_batches_are_not_rebatched(backend, data):
    """Each replica dequeues one whole batch of the dataset_fn's dataset per step (round-robin),
    neither rebatched nor sharded."""
    kind, n = data.draw(hyp.strategy_setups(backend, kinds=("mirrored",)))
    per = data.draw(st.integers(1, 4))
    steps_n = data.draw(st.integers(1, 3))
    size = per * n * steps_n
    prog = Program(backend, DFN, kind=kind, n=n, size=size, per_replica_batch=per)
    ns = prog.run()
    batches = [list(range(i, min(i + per, size))) for i in range(0, size, per)]
    expected = [batches[s * n:(s + 1) * n] for s in range(steps_n)]
    prog.expect("steps", expected)
    assert_equal(ns["steps"], expected, what="steps", call=f"{kind}({n}).distribute_datasets_from_function(range({size}).batch({per}))")


@clause("dataset-fn.no-batching", ref="tf221")
def test_dataset_fn_partial_last_step_mirrored(backend):
    prog = Program(backend, DFN, kind="mirrored", n=2, size=5, per_replica_batch=2)
    ns = prog.run()
    assert_equal(ns["steps"], [[[0, 1], [2, 3]], [[4], []]], what="steps",
                 call="mirrored(2).distribute_datasets_from_function(range(5).batch(2))")


@clause("dataset-fn.input-context", "dataset-fn.single-worker-once")
@pytest.mark.parametrize("kind,n", [("mirrored", 2), ("mirrored", 3), ("central_storage", 2), ("one_device", 1)])
def test_input_context_of_single_worker_strategies(backend, kind, n):
    if n > backend.max_replicas:
        pytest.skip(f"needs {n} replicas")
    prog = Program(backend, DFN, kind=kind, n=n, size=4 * n, per_replica_batch=2)
    ns = prog.run()
    assert_equal(ns["contexts"], [(1, 0, n)], what="(num_input_pipelines, input_pipeline_id, num_replicas_in_sync) per call",
                 call=f"{kind}({n}).distribute_datasets_from_function")


@clause("dataset-fn.input-context", "dataset-fn.single-worker-once")
def test_doc_css20_dataset_fn_example(backend):
    """CSS20's experimental_distribute_datasets_from_function example (global batch 4, 2 replicas)."""
    prog = Program(backend, """
strategy = backend.make_strategy("central_storage", 2)
global_batch_size = 4
calls = []
def dataset_fn(input_context):
    calls.append(input_context)
    batch_size = input_context.get_per_replica_batch_size(global_batch_size)
    d = tf.data.Dataset.from_tensors([[1.]]).repeat().batch(batch_size)
    return d.shard(
        input_context.num_input_pipelines, input_context.input_pipeline_id)
inputs = strategy.experimental_distribute_datasets_from_function(dataset_fn)
iterator = iter(inputs)
batches = [strategy.experimental_local_results(next(iterator)) for _ in range(2)]
""")
    ns = prog.run()
    assert_equal(len(ns["calls"]), 1, what="dataset_fn calls", call="CSS20 example")
    for step in ns["batches"]:
        assert_equal([to_numpy(v).shape for v in step], [(2, 1, 1), (2, 1, 1)], what="per-replica shapes",
                     call="CSS20 example, per-replica batch 4 / 2")
        assert_equal([float(to_numpy(v).sum()) for v in step], [2.0, 2.0], what="per-replica sums", call="CSS20 example")


@clause("dataset-fn.input-context")
@given(data=st.data())
def test_doc_dataset_fn_shards_by_input_pipeline(backend, tf, data):
    """The documents' dataset_fn pattern, `d.shard(num_input_pipelines, input_pipeline_id)`, over
    `range(n).batch(b)`: pipeline i keeps batches i, i + P, i + 2P, ...; the pipelines together
    see every batch exactly once."""
    pipelines = data.draw(st.integers(1, 4))
    per_replica = data.draw(st.integers(1, 3))
    n = data.draw(st.integers(0, 30))
    prog = Program(backend, """
global_batch_size = per_replica * pipelines
def dataset_fn(input_context):
    batch_size = input_context.get_per_replica_batch_size(global_batch_size)
    d = tf.data.Dataset.range(n).batch(batch_size)
    return d.shard(input_context.num_input_pipelines, input_context.input_pipeline_id)
seen = [[backend.to_numpy(x).tolist() for x in dataset_fn(tf.distribute.InputContext(
            num_input_pipelines=pipelines, input_pipeline_id=i, num_replicas_in_sync=pipelines))]
        for i in range(pipelines)]
""", pipelines=pipelines, per_replica=per_replica, n=n)
    ns = prog.run()
    batches = [list(range(n))[j:j + per_replica] for j in range(0, n, per_replica)]
    expected = [[b for j, b in enumerate(batches) if j % pipelines == i] for i in range(pipelines)]
    prog.expect("seen", expected)
    assert_equal(ns["seen"], expected, what="batches per input pipeline",
                 call=f"range({n}).batch({per_replica}).shard({pipelines}, i) for i in range({pipelines})")


def _spec_dims(spec) -> list[list]:
    """[[dims of replica 0's spec], ...] of a per-replica element spec (one TensorSpec per replica)."""
    specs = getattr(spec, "_value_specs", None)
    if specs is None:
        fail(f"element_spec={spec!r}, but should be a per-replica spec of TensorSpecs")
    return [[d if d is None else int(d) for d in s.shape] for s in specs]


@clause("dataset.partial-batch-split", ref="tf221")
@pytest.mark.parametrize("drop", [False, True])
def test_components_of_different_batch_sizes_split_the_legacy_way(backend, tf, drop):
    """A zip of batches of 4 and of 3 has no single batch size: each component is split on its
    own the legacy way (ceil(b/R) rows per replica in turn); with static shapes the per-replica
    spec keeps b/R where it divides (4 -> 2) and is unknown where it does not (3)."""
    prog = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
ds = tf.data.Dataset.zip((tf.data.Dataset.range(8).batch(4, drop_remainder=drop),
                          tf.data.Dataset.range(6).batch(3, drop_remainder=drop)))
dist = strategy.experimental_distribute_dataset(ds)
steps = [[[backend.to_numpy(x).tolist() for x in strategy.experimental_local_results(c)] for c in element]
         for element in dist]
""", drop=drop)
    ns = prog.run()
    expected = [[[[0, 1], [2, 3]], [[0, 1], [2]]], [[[4, 5], [6, 7]], [[3, 4], [5]]]]
    prog.expect("steps", expected)
    call = f"mirrored(2), zip(range(8).batch(4), range(6).batch(3)), drop_remainder={drop}"
    assert_equal(ns["steps"], expected, what="per step, per component, per replica", call=call)
    dims = [_spec_dims(s) for s in ns["dist"].element_spec]
    want = [[[2], [2]], [[None], [None]]] if drop else [[[None], [None]], [[None], [None]]]
    assert_equal(dims, want, what="element_spec dims per component and replica", call=call)


@clause("dataset.partial-batch-split", ref="tf221")
@pytest.mark.parametrize("batch,dim", [(4, 2), (3, None)])
def test_element_spec_after_the_split(backend, tf, batch, dim):
    """batch(b, drop_remainder=True) over 2 replicas: a static per-replica dim b/2 when b divides
    evenly, unknown (None) when it does not."""
    strategy = backend.make_strategy("mirrored", 2)
    spec = strategy.experimental_distribute_dataset(
        tf.data.Dataset.range(12).batch(batch, drop_remainder=True)).element_spec
    assert_equal(_spec_dims(spec), [[dim], [dim]], what="per-replica element_spec shapes",
                 call=f"mirrored(2), range(12).batch({batch}, drop_remainder=True)")


@clause("dataset-fn.input-context")
@pytest.mark.parametrize("n,k", [(10, 3), (9, 3), (2, 4)])
def test_sharded_pipeline_cardinality(backend, tf, n, k):
    """`shard(k, i)` of n elements holds ceil((n - i) / k) of them, and says so in `cardinality()`."""
    got = [int(backend.to_numpy(tf.data.Dataset.range(n).shard(k, i).cardinality())) for i in range(k)]
    expected = [len(range(i, n, k)) for i in range(k)]
    assert_equal(got, expected, what="cardinalities", call=f"[range({n}).shard({k}, i).cardinality() for i in range({k})]")


@clause("dataset-fn.single-worker-once")
def test_css_calls_dataset_fn_once(backend):
    prog = Program(backend, DFN, kind="central_storage", n=2, size=8, per_replica_batch=2)
    ns = prog.run()
    assert_equal(len(ns["contexts"]), 1, what="dataset_fn calls", call="central_storage(2).distribute_datasets_from_function")


@clause("dataset-fn.input-context")
@given(data=st.data())
def test_per_replica_batch_size(backend, tf, data):
    r = data.draw(st.integers(1, 8))
    k = data.draw(st.integers(1, 8))
    pipelines = data.draw(st.integers(1, 3))
    ctx = tf.distribute.InputContext(num_input_pipelines=pipelines, input_pipeline_id=pipelines - 1,
                                     num_replicas_in_sync=r)
    call = f"InputContext({pipelines}, {pipelines - 1}, {r})"
    assert_equal((ctx.num_input_pipelines, ctx.input_pipeline_id, ctx.num_replicas_in_sync),
                 (pipelines, pipelines - 1, r), what="properties", call=call)
    assert_equal(ctx.get_per_replica_batch_size(k * r), k, call=f"{call}.get_per_replica_batch_size({k * r})")


@clause("dataset-fn.input-context", ref="tf221")
@given(data=st.data())
def test_per_replica_batch_size_not_divisible(backend, tf, data):
    r = data.draw(st.integers(2, 8))
    g = data.draw(st.integers(1, 40).filter(lambda v: v % r))
    ctx = tf.distribute.InputContext(num_input_pipelines=1, input_pipeline_id=0, num_replicas_in_sync=r)
    with raises(ValueError, match="is not divisible by", call=f"InputContext(num_replicas_in_sync={r}).get_per_replica_batch_size({g})"):
        ctx.get_per_replica_batch_size(g)


@clause("dataset-fn.input-context", ref="tf221")
def test_input_context_defaults_and_str(backend, tf):
    ctx = tf.distribute.InputContext()
    assert_equal((ctx.num_input_pipelines, ctx.input_pipeline_id, ctx.num_replicas_in_sync), (1, 0, 1),
                 what="InputContext() properties")
    assert_equal(str(tf.distribute.InputContext(3, 1, 4)), "tf.distribute.InputContext(input pipeline id 1, total: 3)",
                 what="str(InputContext(3, 1, 4))")

