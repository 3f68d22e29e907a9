"""AUTO/FILE auto-sharding of a reader source on one input worker (clause dataset.autoshard): TF's
ShardByFile inserts shard(1, 0) after the file list, which keeps every file, and rewrites no
RebatchV2 (auto_shard.cc); several workers' FILE sharding is not simulated."""

from __future__ import annotations

import os

import pytest

from simdist import tf
from simdist.semantics import autoshard

pytestmark = pytest.mark.clause("dataset.autoshard")


def test_reader_source_on_one_worker_is_file_sharded_unchanged() -> None:
    plan = autoshard.plan_autoshard(autoshard.AutoShardPolicy.AUTO, 1, 0, None)
    assert (plan.policy_applied, plan.insert_shard, plan.rewrite_rebatch_v2) == (autoshard.AutoShardPolicy.FILE,
                                                                               False, False), \
        f"plan={plan}, but should be FILE with nothing inserted or rewritten [AUTO, 1 worker, a reader source]"
    with pytest.raises(NotImplementedError, match="several workers"):
        autoshard.plan_autoshard(autoshard.AutoShardPolicy.AUTO, 2, 0, None)


def test_mirrored_strategy_reads_every_record_of_a_tfrecord_file(tmp_path) -> None:
    path = os.path.join(tmp_path, "r.tfr")
    with tf.io.TFRecordWriter(path) as w:
        for i in range(8):
            w.write(tf.io.serialize_tensor(tf.constant(float(i))).numpy())
    ds = tf.data.TFRecordDataset(path).map(lambda r: tf.io.parse_tensor(r, tf.float32)).batch(4)
    strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
    got = [float(v) for batch in strategy.experimental_distribute_dataset(ds) for v in batch.numpy()]
    assert got == [float(i) for i in range(8)], f"records={got}, but should be 0..7 in order [TFRecordDataset, AUTO]"
