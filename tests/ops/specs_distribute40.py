"""The op table's entry for the op the fortieth session's tf.distribute names added (clause coord.worker-index)."""

import simdist.tf  # noqa: F401 - registers the op below

UNTESTED_OPS: dict[str, str] = {
    "WorkerIndex": ("no inputs: the int64 index of the worker a ClusterCoordinator runs the call on (TF's call-time "
                    "capture behind tf.distribute.coordinator.experimental_get_current_worker_index), not "
                    "differentiable; against TF on an in-process cluster: tests/strategies/test_distribute_names_tf.py "
                    "`test_current_worker_index`"),
}
