"""Fact: a MultiWorkerMirroredStrategy made on the evaluator task of a cluster (TF 2.21).

    python docs/tools/mwms_facts/evaluator.py

One process whose TF_CONFIG names it ``evaluator:0`` of a cluster with 2 workers (which are not
started: TF counts the evaluator as its own one-task cluster) makes ``MultiWorkerMirroredStrategy()``
and prints ``EVALUATOR`` lines: num_replicas_in_sync, extended.should_checkpoint,
should_save_summary, the cluster resolver's task, a reduce over its replicas, and an all-reduce.
"""

import json
import os
import socket


def _port() -> int:
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def main() -> None:
    cluster = {"worker": [f"localhost:{_port()}", f"localhost:{_port()}"], "evaluator": [f"localhost:{_port()}"]}
    os.environ["TF_CONFIG"] = json.dumps({"cluster": cluster, "task": {"type": "evaluator", "index": 0}})
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ["CUDA_VISIBLE_DEVICES"] = ""
    import tensorflow as tf

    try:
        s = tf.distribute.MultiWorkerMirroredStrategy()
    except Exception as e:  # noqa: BLE001 - the observation
        print(f"EVALUATOR construct -> {type(e).__name__}: {str(e)[:300]}", flush=True)
        return
    r = s.cluster_resolver
    ext = s.extended
    print(f"EVALUATOR num_replicas_in_sync={s.num_replicas_in_sync} should_checkpoint={ext.should_checkpoint} "
          f"should_save_summary={ext.should_save_summary} task={r.task_type}:{r.task_id}", flush=True)
    per = s.run(lambda: tf.constant([1.0, 2.0]))
    print(f"EVALUATOR reduce SUM -> {s.reduce('SUM', per, axis=None).numpy().tolist()}", flush=True)
    got = s.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", tf.constant(3.0)))
    print(f"EVALUATOR all_reduce SUM -> {float(got)}", flush=True)


if __name__ == "__main__":
    main()
