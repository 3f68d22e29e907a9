"""Facts b (one process): CommunicationOptions that TF 2.21 rejects, and MWMS without TF_CONFIG.

    python docs/tools/mwms_facts/single_process.py

Prints one line per case: the call, then ``-> value`` or ``-> ErrorClass: message``.
"""

import json
import os

os.environ.pop("TF_CONFIG", None)
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ["CUDA_VISIBLE_DEVICES"] = ""


def show(label, fn):
    try:
        v = fn()
        print(f"{label} -> {v}")
    except Exception as e:  # noqa: BLE001 - the observation
        print(f"{label} -> {type(e).__name__}: {str(e).splitlines()[0][:240]}")


def main() -> None:
    import tensorflow as tf

    CO = tf.distribute.experimental.CommunicationOptions
    CI = tf.distribute.experimental.CommunicationImplementation
    print("TF", tf.__version__)
    show("CommunicationOptions()", lambda: str(CO()))
    show("CommunicationImplementation members", lambda: [(m.name, m.value) for m in CI])
    show("CO(bytes_per_pack=-1)", lambda: CO(bytes_per_pack=-1))
    show("CO(bytes_per_pack=1.5)", lambda: str(CO(bytes_per_pack=1.5)))
    show("CO(bytes_per_pack='1024')", lambda: CO(bytes_per_pack="1024"))
    show("CO(bytes_per_pack=None)", lambda: CO(bytes_per_pack=None))
    show("CO(implementation='ring')", lambda: str(CO(implementation="ring")))
    show("CO(implementation='Nccl')", lambda: str(CO(implementation="Nccl")))
    show("CO(implementation='mpi')", lambda: CO(implementation="mpi"))
    show("CO(implementation=1)", lambda: CO(implementation=1))
    show("CO(implementation=None)", lambda: CO(implementation=None))
    show("CO(timeout_seconds=-1)", lambda: str(CO(timeout_seconds=-1)))
    show("CO(timeout_seconds='5')", lambda: str(CO(timeout_seconds="5")))
    show("CO(timeout_seconds=0)", lambda: str(CO(timeout_seconds=0)))
    show("CO(1024, 5.0, 'RING') positional", lambda: str(CO(1024, 5.0, "RING")))
    show("MWMS(communication_options='RING')",
         lambda: tf.distribute.MultiWorkerMirroredStrategy(communication_options="RING"))
    show("MWMS(cluster_resolver='x')", lambda: tf.distribute.MultiWorkerMirroredStrategy(cluster_resolver="x"))

    # No TF_CONFIG: a single-worker (local) MWMS.
    s = tf.distribute.MultiWorkerMirroredStrategy()
    show("no TF_CONFIG: num_replicas_in_sync", lambda: s.num_replicas_in_sync)
    show("no TF_CONFIG: cluster_resolver", lambda: type(s.cluster_resolver).__name__)
    show("no TF_CONFIG: cluster_resolver.cluster_spec().as_dict()", lambda: s.cluster_resolver.cluster_spec().as_dict())
    show("no TF_CONFIG: cluster_resolver.task_type/task_id",
         lambda: (s.cluster_resolver.task_type, s.cluster_resolver.task_id))
    show("no TF_CONFIG: extended._num_workers", lambda: s.extended._num_workers)  # noqa: SLF001
    show("no TF_CONFIG: should_checkpoint/should_save_summary/should_init",
         lambda: (s.extended.should_checkpoint, s.extended.should_save_summary, s.extended.should_init))
    show("no TF_CONFIG: experimental_between_graph/should_init",
         lambda: (s.extended.experimental_between_graph, s.extended.experimental_should_init))
    show("no TF_CONFIG: worker_devices", lambda: s.extended.worker_devices)
    show("no TF_CONFIG: reduce SUM of run(lambda: 2.0)",
         lambda: float(s.reduce("SUM", s.run(lambda: tf.constant(2.0)), axis=None)))
    show("no TF_CONFIG: gather", lambda: s.gather(s.run(lambda: tf.constant([1.0, 2.0])), axis=0).numpy().tolist())
    show("no TF_CONFIG: str(s.extended._communication_options)", lambda: str(s.extended._communication_options))  # noqa: SLF001
    show("SimpleClusterResolver with empty spec: num_replicas",
         lambda: tf.distribute.MultiWorkerMirroredStrategy(
             cluster_resolver=tf.distribute.cluster_resolver.SimpleClusterResolver(
                 tf.train.ClusterSpec({}))).num_replicas_in_sync)
    show("TF_CONFIG cluster without task",
         lambda: _resolver_with({"cluster": {"worker": ["localhost:1", "localhost:2"]}}))
    show("TF_CONFIG task index out of range (worker 5 of 2)",
         lambda: _resolver_with({"cluster": {"worker": ["localhost:1", "localhost:2"]},
                                 "task": {"type": "worker", "index": 5}}))
    show("TF_CONFIG task type not in cluster (ps)",
         lambda: _resolver_with({"cluster": {"worker": ["localhost:1", "localhost:2"]},
                                 "task": {"type": "ps", "index": 0}}))
    show("TF_CONFIG not JSON", lambda: _resolver_raw("{worker"))


def _resolver_with(cfg):
    import tensorflow as tf

    os.environ["TF_CONFIG"] = json.dumps(cfg)
    try:
        r = tf.distribute.cluster_resolver.TFConfigClusterResolver()
        return (r.cluster_spec().as_dict(), r.task_type, r.task_id)
    finally:
        os.environ.pop("TF_CONFIG", None)


def _resolver_raw(text):
    import tensorflow as tf

    os.environ["TF_CONFIG"] = text
    try:
        r = tf.distribute.cluster_resolver.TFConfigClusterResolver()
        return (r.cluster_spec().as_dict(), r.task_type, r.task_id)
    finally:
        os.environ.pop("TF_CONFIG", None)


if __name__ == "__main__":
    main()
