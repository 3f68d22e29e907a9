"""Fact: how 2 MWMS workers (one CPU replica each) split global batches the replicas do not divide (TF 2.21).

    python docs/tools/mwms_facts/cluster.py docs/tools/mwms_facts/rebatch.py --workers 2 --grep REBATCH

Each worker distributes ``tf.data.Dataset.range(14).batch(7)`` (and ``range(10).batch(5)``) with
``strategy.experimental_distribute_dataset`` under AutoShardPolicy DATA and OFF and prints
``REBATCH source policy -> [per-step local values]``: which elements of each global batch of 7 (or 5)
each worker's replica gets (TF's rebatch splits a global batch into per-replica sizes
[ceil, floor] for worker 0 and rotates that list for worker 1, so every global step takes G elements).
"""

import sys


def main() -> None:
    import tensorflow as tf

    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    for n, g in ((14, 7), (10, 5)):
        for policy in ("DATA", "OFF"):
            options = tf.data.Options()
            options.experimental_distribute.auto_shard_policy = getattr(tf.data.experimental.AutoShardPolicy, policy)
            ds = tf.data.Dataset.range(n).batch(g).with_options(options)
            try:
                dist = strategy.experimental_distribute_dataset(ds)
                steps = [[int(x) for v in strategy.experimental_local_results(b) for x in v.numpy().ravel()]
                         for b in dist]
                print(f"REBATCH range({n}).batch({g}) {policy} -> {steps}", flush=True)
            except Exception as e:  # noqa: BLE001 - the observation
                print(f"REBATCH range({n}).batch({g}) {policy} -> {type(e).__name__}: {str(e)[:300]}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
