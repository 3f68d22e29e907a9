"""Fact b: roles and values per task of a healthy MWMS cluster (TF 2.21).

    python docs/tools/mwms_facts/roles.py --workers 2 [--chief]

Each task prints one ``FACTS {json}`` line: task type/id as the resolver and the strategy see
them, num_replicas_in_sync, should_checkpoint, should_save_summary, the chief flag, and the
values of reduce / gather / all_reduce of a per-task value (task position p = 0, 1, ... in
chief-then-worker order; the value is p + 1).
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def worker() -> None:
    import tensorflow as tf

    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    r = strategy.cluster_resolver
    ext = strategy.extended
    p = ext._id_in_cluster  # noqa: SLF001 - the position TF uses, reported as a fact
    v = float(p + 1)

    def fn():
        ctx = tf.distribute.get_replica_context()
        return (ctx.all_reduce("SUM", tf.constant(v)), ctx.all_reduce("MEAN", tf.constant(v)),
                ctx.replica_id_in_sync_group, ctx.num_replicas_in_sync,
                ctx.all_gather(tf.constant([v, 10 * v]), axis=0))

    s, m, rid, n, g = strategy.run(fn)
    per = strategy.run(lambda: tf.constant([v, v]))
    facts = {
        "resolver": [r.task_type, r.task_id], "cluster": r.cluster_spec().as_dict(),
        "num_replicas_in_sync": strategy.num_replicas_in_sync, "id_in_cluster": p,
        "is_chief": ext._is_chief, "should_checkpoint": ext.should_checkpoint,  # noqa: SLF001
        "should_save_summary": ext.should_save_summary, "worker_devices": list(ext.worker_devices),
        "replica_id_in_sync_group": int(rid), "ctx_num_replicas": int(n),
        "all_reduce_sum": float(s), "all_reduce_mean": float(m), "all_gather": g.numpy().tolist(),
        "reduce_sum_axis_none": strategy.reduce("SUM", per, axis=None).numpy().tolist(),
        "reduce_mean_axis0": float(strategy.reduce("MEAN", per, axis=0)),
        "gather_axis0": strategy.gather(per, axis=0).numpy().tolist(),
        "local_results": [x.numpy().tolist() for x in strategy.experimental_local_results(per)],
        "type_of_run_result": type(per).__name__,
    }
    print("FACTS " + json.dumps(facts), flush=True)


def main() -> None:
    import argparse

    p = argparse.ArgumentParser()
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--chief", action="store_true")
    a = p.parse_args()
    if "TF_CONFIG" in os.environ:
        worker()
        return
    sys.path.insert(0, HERE)
    import cluster

    cluster.run(os.path.abspath(__file__), a.workers, a.chief, [], timeout=180,
                grep=("FACTS", "Error", "Traceback"))


if __name__ == "__main__":
    main()
