"""Strategy.gather and ReplicaContext.all_gather: clauses gather.*."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import assert_value
from simdist import tf
from strategies_helpers import mirrored, per_replica


@pytest.mark.clause("gather.concat")
def test_documented_two_replicas():
    s = mirrored(2)
    v = per_replica(s, [[[1], [2]], [[1], [2]]])
    out = s.gather(v, axis=0)
    assert_value(out, [[1], [2], [1], [2]], "gather(axis=0)")


@pytest.mark.clause("gather.concat")
@pytest.mark.parametrize("axis,shape", [(0, (4, 2, 3)), (1, (1, 8, 3)), (2, (1, 2, 12))])
def test_documented_four_replicas(axis, shape):
    s = mirrored(4)
    base = np.arange(6, dtype=np.int32).reshape(1, 2, 3)
    v = s.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(base + 6 * ctx.replica_id_in_sync_group))
    out = s.gather(v, axis=axis)
    expected = np.concatenate([base + 6 * i for i in range(4)], axis=axis)
    assert tuple(out.shape) == shape, f"out.shape={tuple(out.shape)}, but should be {shape} [gather(axis={axis})]"
    assert_value(out, expected, f"gather(axis={axis})")


@pytest.mark.clause("gather.shape-rule")
def test_shape_rule_dims_may_differ_only_at_axis():
    s = mirrored(2)
    v = per_replica(s, [np.zeros((1, 2, 3), np.float32), np.ones((1, 3, 3), np.float32)])
    assert tuple(s.gather(v, axis=1).shape) == (1, 5, 3)
    for axis in (0, 2):
        with pytest.raises(tf.errors.InvalidArgumentError, match="Dimension 1 in both shapes must be equal"):
            s.gather(v, axis=axis)


@pytest.mark.clause("gather.nonzero-rank")
def test_rank_zero_rejected():
    mirrored(2)
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"], cross_device_ops=tf.distribute.ReductionToOneDevice())
    v = per_replica(s, [1., 2.])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Can't concatenate scalars"):
        s.gather(v, axis=0)


def _rank0_case(kind, dtype, path):
    if kind == "central_storage":
        s = tf.distribute.experimental.CentralStorageStrategy(["CPU:0", "CPU:1"])
    else:
        ops = tf.distribute.ReductionToOneDevice() if kind == "mirrored-r1d" else None
        s = tf.distribute.MirroredStrategy(["CPU:0", "CPU:1"], cross_device_ops=ops)
    value = "a" if dtype == "string" else True if dtype == "bool" else 1
    v = s.experimental_distribute_values_from_function(lambda ctx: tf.cast(tf.constant(value), getattr(tf, dtype))
                                                       if dtype not in ("string", "bool") else tf.constant(value))

    def call():
        if path.startswith("all_gather"):
            return s.run(lambda x: tf.distribute.get_replica_context().all_gather(x, axis=0), args=(v,))
        return s.gather(v, axis=0)

    return tf.function(call)() if path.endswith("-fn") else call()


@pytest.mark.clause("gather.rank0-error-class")
@pytest.mark.parametrize("path", ["gather", "all_gather", "gather-fn", "all_gather-fn"])
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int32", "int64", "bool", "string"])
@pytest.mark.parametrize("kind", ["mirrored", "mirrored-r1d", "central_storage"])
def test_rank_zero_error_class_per_dtype_and_path(kind, dtype, path):
    """The table observed on TF 2.21 (2 logical CPUs): ValueError on MirroredStrategy's collective
    path (every dtype but int32) and inside any tf.function; InvalidArgumentError eagerly on the
    concatenation path (ReductionToOneDevice, CentralStorageStrategy, int32 on MirroredStrategy)."""
    import simdist
    simdist.configure(cpus=2)
    collective = kind == "mirrored" and dtype != "int32"
    want = ValueError if (collective or path.endswith("-fn")) else tf.errors.InvalidArgumentError
    with pytest.raises(Exception) as info:
        _rank0_case(kind, dtype, path)
    assert type(info.value) is want, \
        f"{kind} {path} of rank-0 {dtype}: raised {type(info.value).__name__}, TF 2.21 raises {want.__name__}"


@pytest.mark.clause("gather.axis-range")
def test_axis_out_of_range():
    """The concatenation path (int32 on MirroredStrategy, CentralStorageStrategy): an axis >= rank
    is ConcatOp's error and a negative axis counts from the end; the collective path (MirroredStrategy's
    other dtypes) refuses both with the all-gather's Range error (TF 2.21, observed)."""
    s = mirrored(2)
    v = per_replica(s, [[[1]], [[2]]])   # int32
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"range \[-2, 2\), but got 2"):
        s.gather(v, axis=2)
    assert_value(s.gather(v, axis=-1), [[1, 2]], "gather(int32, axis=-1)")
    c = tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])
    vc = c.experimental_distribute_values_from_function(lambda ctx: tf.constant([[float(ctx.replica_id_in_sync_group)]]))
    assert_value(c.gather(vc, axis=-1), [[0., 1.]], "central_storage.gather(float32, axis=-1)")
    f = per_replica(s, [[[1.]], [[2.]]])   # float32
    with pytest.raises(ValueError, match=r"delta > 0: 3/2 for '\{\{node allgather/range_1\}\}"):
        s.gather(f, axis=2)
    with pytest.raises(ValueError, match=r"delta > 0: 0/-1 for '\{\{node allgather/range\}\}"):
        s.gather(f, axis=-1)


@pytest.mark.clause("gather.cross-replica-only")
def test_gather_in_replica_context_is_error_and_all_gather_works():
    s = mirrored(2)
    with pytest.raises(RuntimeError, match="requires cross-replica context, use get_replica_context"):
        s.run(lambda: s.gather(tf.constant([1.]), 0))

    def fn():
        ctx = tf.distribute.get_replica_context()
        return ctx.all_gather(tf.expand_dims(tf.cast(ctx.replica_id_in_sync_group, tf.float32), 0), axis=0)
    out = s.run(fn)
    for i, c in enumerate(s.experimental_local_results(out)):
        assert_value(c, [0., 1.], f"all_gather on replica {i}")


@pytest.mark.clause("gather.dense-only")
def test_indexed_slices_rejected_but_per_replica_slices_densified():
    s = mirrored(2)
    with pytest.raises(NotImplementedError, match="gather does not support IndexedSlices"):
        s.gather(tf.IndexedSlices([[1.]], [0]), 0)
    # TF 2.21 (not the docs): a PerReplica of IndexedSlices is densified, then concatenated
    v = s.run(lambda: tf.IndexedSlices(tf.constant([[1., 2.]]), tf.constant([0]), tf.constant([3, 2])))
    assert_value(s.gather(v, 0), [[1., 2.], [0., 0.], [0., 0.]] * 2, "gather(PerReplica of IndexedSlices)")


@pytest.mark.clause("gather.plain-value")
def test_plain_value_returned_unchanged():
    t = tf.constant([1., 2.])
    assert tf.distribute.OneDeviceStrategy("/cpu:0").gather(t, 0) is t
    assert tf.distribute.get_strategy().gather(t, 0) is t


@given(n=st.integers(1, 4), rank=st.integers(1, 3), data=st.data())
def test_property_shape_rule(n, rank, data):
    """Result shape = component shape with the axis dims summed; breaking the rule is an error."""
    s = mirrored(n)
    axis = data.draw(st.integers(0, rank - 1), label="axis")
    base = data.draw(st.lists(st.integers(1, 3), min_size=rank, max_size=rank), label="base")
    at_axis = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n), label="dims at axis")
    shapes = [tuple(base[:axis] + [d] + base[axis + 1:]) for d in at_axis]
    arrays = [np.full(sh, i, np.float32) for i, sh in enumerate(shapes)]
    out = s.gather(per_replica(s, arrays), axis=axis)
    assert_value(out, np.concatenate(arrays, axis=axis), f"gather(axis={axis}) of shapes {shapes}")
    if n > 1 and rank > 1:
        other = (axis + 1) % rank
        bad = list(shapes)
        bad[1] = tuple(d + 1 if k == other else d for k, d in enumerate(bad[1]))
        with pytest.raises(tf.errors.InvalidArgumentError):
            s.gather(per_replica(s, [np.zeros(sh, np.float32) for sh in bad]), axis=axis)
