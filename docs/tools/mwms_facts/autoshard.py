"""Fact d: auto-sharding across 2 MWMS workers per AutoShardPolicy and source (TF 2.21).

    python docs/tools/mwms_facts/autoshard.py [--workers 2] [--sources a,b] [--policies P,Q]

The driver writes 4 TFRecord files (file k holds the int64 values 4k..4k+3) into a temporary
directory. Each worker then distributes, with ``strategy.experimental_distribute_dataset`` and
each policy (AUTO, DATA, OFF, then FILE last, as it can fail), these datasets, global batch 4:
  range          tf.data.Dataset.range(16).batch(4)
  slices         tf.data.Dataset.from_tensor_slices(np.arange(16)).batch(4)
  files          tf.data.TFRecordDataset(<4 files>).map(parse).batch(4)
  list_files     Dataset.from_tensor_slices(<4 files>).interleave(TFRecordDataset).map(parse).batch(4)
  one_file       tf.data.TFRecordDataset(<file 0 only>).map(parse).batch(4)
and prints ``SHARD source policy -> [per-step local values]`` or the error. TF's log lines
(auto-shard warnings) are printed as they come. ``--sources`` / ``--policies`` choose (and order)
the cases: a case that fails on one worker only leaves the workers' collectives out of step, so
the results of later cases in the same run are not trustworthy; run such cases last or alone.
"""

import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCES = ("range", "slices", "files", "list_files", "one_file")
POLICIES = ("AUTO", "DATA", "OFF", "FILE")


def _msg(e: BaseException) -> str:
    return " | ".join(ln.strip() for ln in str(e).splitlines() if ln.strip())[:400]


def worker(directory: str, sources: tuple, policies: tuple) -> None:
    import numpy as np
    import tensorflow as tf

    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    files = [os.path.join(directory, f"part-{k}.tfrecord") for k in range(4)]

    def parse(r):
        return tf.io.parse_single_example(r, {"v": tf.io.FixedLenFeature([], tf.int64)})["v"]

    def make(source):
        if source == "range":
            return tf.data.Dataset.range(16).batch(4)
        if source == "slices":
            return tf.data.Dataset.from_tensor_slices(np.arange(16)).batch(4)
        if source == "files":
            return tf.data.TFRecordDataset(files).map(parse).batch(4)
        if source == "list_files":
            return tf.data.Dataset.from_tensor_slices(files).interleave(
                tf.data.TFRecordDataset, cycle_length=1).map(parse).batch(4)
        return tf.data.TFRecordDataset(files[:1]).map(parse).batch(4)

    for policy in policies:
        for source in sources:
            options = tf.data.Options()
            options.experimental_distribute.auto_shard_policy = getattr(tf.data.experimental.AutoShardPolicy, policy)
            try:
                dist = strategy.experimental_distribute_dataset(make(source).with_options(options))
                steps = [[int(x) for v in strategy.experimental_local_results(b) for x in v.numpy().ravel()]
                         for b in dist]
                print(f"SHARD {source} {policy} -> {steps}", flush=True)
            except Exception as e:  # noqa: BLE001 - the observation
                print(f"SHARD {source} {policy} -> {type(e).__name__}: {_msg(e)}", flush=True)


def write_files(directory: str) -> None:
    import tensorflow as tf

    for k in range(4):
        with tf.io.TFRecordWriter(os.path.join(directory, f"part-{k}.tfrecord")) as w:
            for v in range(4 * k, 4 * k + 4):
                ex = tf.train.Example(features=tf.train.Features(feature={
                    "v": tf.train.Feature(int64_list=tf.train.Int64List(value=[v]))}))
                w.write(ex.SerializeToString())


def main() -> None:
    import argparse

    p = argparse.ArgumentParser()
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--sources", default=",".join(SOURCES))
    p.add_argument("--policies", default=",".join(POLICIES))
    p.add_argument("directory", nargs="?")
    a = p.parse_args()
    sources, policies = tuple(a.sources.split(",")), tuple(a.policies.split(","))
    if "TF_CONFIG" in os.environ:
        worker(a.directory, sources, policies)
        return
    sys.path.insert(0, HERE)
    import cluster

    with tempfile.TemporaryDirectory() as d:
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        write_files(d)
        os.environ["TF_CPP_MIN_LOG_LEVEL"] = "0"
        cluster.run(os.path.abspath(__file__), a.workers, False,
                    ["--sources", a.sources, "--policies", a.policies, d], timeout=300,
                    grep=("SHARD", "shard", "Shard", "Traceback"))


if __name__ == "__main__":
    main()
