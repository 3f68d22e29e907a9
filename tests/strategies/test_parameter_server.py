"""ParameterServerStrategy: construction, placement, partitioning, ShardedVariable (clauses pss.*,
reference scenarios of TF 2.21 §7)."""

from __future__ import annotations

import numpy as np
import pytest

from helpers import assert_value
from ps_helpers import cluster_spec, coordinator, pss
from simdist import tf

P = tf.distribute.experimental.partitioners


def ps(task: int) -> str:
    return f"/job:ps/replica:0/task:{task}/device:CPU:0"


@pytest.mark.clause("pss.round-robin")
@pytest.mark.clause("scope.outside-not-distributed")
def test_reference_placement_v2_to_v5_on_three_ps():
    s = pss(workers=2, ps=3)
    v1 = tf.Variable(initial_value=0.0)
    with s.scope():
        v2 = tf.Variable(initial_value=1.0)
        v3 = tf.Variable(initial_value=2.0)
        v4 = tf.Variable(initial_value=3.0)
        v5 = tf.Variable(initial_value=4.0)
    assert v1.device == "/job:chief/replica:0/task:0/device:CPU:0", v1.device
    got = [v.device for v in (v2, v3, v4, v5)]
    assert got == [ps(0), ps(1), ps(2), ps(0)], f"placement={got}, but should be tasks 0,1,2,0"


@pytest.mark.clause("pss.partitioner-div")
@pytest.mark.clause("pss.sharded-variable")
def test_reference_13_rows_over_5_shards():
    s = pss(workers=2, ps=5, partitioner=P.FixedShardsPartitioner(5))
    with s.scope():
        w = tf.Variable(tf.range(13), name="w")
    rows = [part.numpy().tolist() for part in w.variables]
    assert rows == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10], [11, 12]], rows
    assert [v.name for v in w.variables] == [f"w/part_{i}:0" for i in range(5)]
    assert [v.device for v in w.variables] == [ps(i) for i in range(5)]


def test_observed_tf221_fixed_shards_placement_sequence():
    """[2.21] 3 ps, FixedShards(4): w(13,2) -> parts [4,3,3,3] on ps 0,1,2,0; s on ps1; z[3] on 2,0,1."""
    s = pss(workers=2, ps=3, partitioner=P.FixedShardsPartitioner(4))
    with s.scope():
        w = tf.Variable(tf.zeros([13, 2]), name="w")
        scalar = tf.Variable(1.0, name="s")
        z = tf.Variable(tf.zeros([3]), name="z")
    assert [v.shape.as_list()[0] for v in w.variables] == [4, 3, 3, 3]
    assert [v.device for v in w.variables] == [ps(0), ps(1), ps(2), ps(0)]
    assert scalar.device == ps(1)
    assert [v.device for v in z.variables] == [ps(2), ps(0), ps(1)]
    assert w.shape.as_list() == [13, 2]


@pytest.mark.clause("pss.min-size-partitioner")
def test_reference_min_size_on_a_large_embedding():
    s = pss(workers=2, ps=4, partitioner=P.MinSizePartitioner(min_shard_bytes=256 << 10, max_shards=4))
    with s.scope():
        emb = tf.Variable(tf.zeros([100_000, 64]), name="emb")     # 25.6 MB: capped at max_shards
        small = tf.Variable(tf.zeros([1000, 64]), name="small")   # 256,000 B < 256 KiB: one shard
        mid = tf.Variable(tf.zeros([2048, 64]), name="mid")       # 512 KiB: two shards
    assert len(emb.variables) == 4 and [v.shape[0] for v in emb.variables] == [25000] * 4
    assert not hasattr(small, "variables") or not isinstance(small.variables, list), "1 shard must be a plain var"
    assert [v.shape[0] for v in mid.variables] == [1024, 1024]


@pytest.mark.clause("pss.partitioner-one")
def test_one_partition_or_no_partitioner_is_a_normal_variable():
    s = pss(workers=1, ps=2, partitioner=P.FixedShardsPartitioner(1))
    with s.scope():
        v = tf.Variable(tf.zeros([10, 2]))
    assert isinstance(v, tf.Variable) and v.device == ps(0)
    s2 = pss(workers=1, ps=2)
    with s2.scope():
        u = tf.Variable(tf.zeros([10, 2]))
    assert isinstance(u, tf.Variable)


@pytest.mark.clause("pss.partitioner-first-axis")
def test_partitioner_must_only_split_the_first_axis():
    s = pss(workers=1, ps=2, partitioner=lambda shape, dtype: [2, 2])
    with s.scope():
        with pytest.raises(ValueError, match=r"elements are 1 besides the first element \(non-zero\), got: \[2, 2\]"):
            tf.Variable(tf.zeros([4, 4]))
    s = pss(workers=1, ps=2, partitioner=P.FixedShardsPartitioner(0))
    with s.scope():
        with pytest.raises(ValueError, match=r"got: \[0\]"):
            tf.Variable(tf.zeros([3]))
        scalar = tf.Variable(3.0)  # rank 0 is never partitioned
    assert scalar.device.startswith("/job:ps/")


def test_partitioner_needs_an_initial_value():
    s = pss(workers=1, ps=2, partitioner=P.FixedShardsPartitioner(2))
    with s.scope():
        with pytest.raises(ValueError, match="without specifying `initial_value`"):
            tf.Variable(shape=[4], dtype=tf.float32)


@pytest.mark.clause("pss.colocate-no-partition")
def test_colocated_variables_are_not_partitioned():
    s = pss(workers=1, ps=3, partitioner=P.FixedShardsPartitioner(3))
    with s.scope():
        a = tf.Variable(2.0)
        with s.extended.colocate_vars_with(a):
            b = tf.Variable(tf.zeros([9, 2]))
        c = tf.Variable(1.0)
    assert isinstance(b, tf.Variable) and b.device == a.device
    assert c.device == ps(1), "colocation must not advance the round-robin counter"


@pytest.mark.clause("pss.sharded-convert")
def test_sharded_variable_converts_and_lookups_touch_only_needed_shards():
    s = pss(workers=1, ps=3, partitioner=P.FixedShardsPartitioner(3))
    with s.scope():
        emb = tf.Variable(tf.reshape(tf.range(18, dtype=tf.float32), [9, 2]), name="emb")
    assert_value(tf.convert_to_tensor(emb), np.arange(18, dtype=np.float32).reshape(9, 2), "convert ShardedVariable")
    from simdist.runtime import variables

    class Reads:
        def __init__(self):
            self.names = []

        def read(self, var, nbytes=None):
            self.names.append((var.name, var.nbytes if nbytes is None else nbytes))

        def write(self, var, value):
            pass
    r = Reads()
    variables.observers.append(r)
    try:
        rows = tf.nn.embedding_lookup(emb, tf.constant([7, 8, 6]))
    finally:
        variables.observers.remove(r)
    assert_value(rows, [[14., 15.], [16., 17.], [12., 13.]], "embedding_lookup rows 7,8,6")
    # As TF's "div" lookup, every shard gathers its (possibly empty) share of the ids; only the
    # rows looked up move: 3 distinct rows of 2 float32 from part_2.
    moved = [(name, b) for name, b in r.names if b]
    assert moved == [("emb/part_2:0", 3 * 2 * 4)], f"lookup moved {moved}, but should move 3 rows of emb/part_2:0"
    emb.assign_add(tf.ones([9, 2]))
    assert_value(emb.variables[0], [[1., 2.], [3., 4.], [5., 6.]], "assign_add split over shards")


@pytest.mark.parametrize("spec,message", [
    ({}, "Cluster spec must be non-empty"),
    ({"worker": ["w:1"], "chief": ["c:1"]}, "There must be at least one ps."),
    ({"ps": ["p:1"], "chief": ["c:1"]}, "There must be at least one worker."),
    ({"worker": ["w:1"], "ps": ["p:1"], "coordinator": ["c:1"]}, "Disallowed task type found in cluster spec"),
    ({"worker": ["w:1"], "ps": ["p:1"], "chief": ["c:1", "c2:1"]}, "There must be at most one 'chief' job."),
])
def test_construction_errors(spec, message):
    r = tf.distribute.cluster_resolver.SimpleClusterResolver(tf.train.ClusterSpec(spec))
    with pytest.raises(ValueError, match=message):
        tf.distribute.experimental.ParameterServerStrategy(r)


@pytest.mark.clause("pss.requires-coordinator")
def test_distributed_dataset_needs_the_coordinator():
    s = pss(workers=1, ps=1)
    ds = s.experimental_distribute_dataset(tf.data.Dataset.range(4).batch(2))
    with pytest.raises(ValueError, match="pass this dataset to ClusterCoordinator.create_per_worker_dataset"):
        iter(ds)


@pytest.mark.clause("num-replicas")
def test_pss_replicas_and_devices():
    s = pss(workers=2, ps=2)
    assert s.num_replicas_in_sync == 1
    assert s.extended.worker_devices == ("/device:CPU:0",)
    assert s.extended.parameter_devices == (ps(0), ps(1))
    assert s.cluster_resolver is None, "TF 2.21's ParameterServerStrategy.cluster_resolver is None"


def test_variable_creation_in_dataset_fn_is_rejected():
    s = pss(workers=2, ps=1)
    c = coordinator(s)

    def dataset_fn():
        tf.Variable(1.0)
        return tf.data.Dataset.range(3)
    with pytest.raises(ValueError, match="Creating variables in `dataset_fn` is not allowed."):
        c.create_per_worker_dataset(dataset_fn)


def test_public_name_is_the_experimental_class():
    """TF 2.21 exports tf.distribute.ParameterServerStrategy as the same class as
    tf.distribute.experimental.ParameterServerStrategy (observed: `is` holds there); TF's
    parameter-server tutorial uses the public name."""
    from simdist import tf as sim_tf
    got = sim_tf.distribute.ParameterServerStrategy
    want = sim_tf.distribute.experimental.ParameterServerStrategy
    assert got is want, f"tf.distribute.ParameterServerStrategy={got!r}, but should be {want!r}"
