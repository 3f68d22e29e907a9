"""One client of a MultiWorkerMirroredStrategy cluster, for the tensorflow backend's
``run_multi_worker``.

Usage: python -m simdist.conformance.backends._tf_mwms CLUSTER_JSON TASK_TYPE INDEX PROGRAM_FILE MAKE_STRATEGY
Sets ``TF_CONFIG`` for task TASK_TYPE:INDEX of the cluster, runs the program with ``tf``, ``np``,
``backend`` and ``strategy`` bound (``strategy`` is ``MultiWorkerMirroredStrategy()`` when
MAKE_STRATEGY is 1, else None: the program makes its own) and prints ``RESULT <json>`` with the
program's ``result``.
"""

import json
import os
import sys


class _Shim:
    """The little of the backend protocol a multi-client program may use."""

    name = "tensorflow"

    def __init__(self, tf):
        self.tf = tf

    @staticmethod
    def to_numpy(value):
        import numpy as np  # noqa: PLC0415

        return np.asarray(value.numpy() if hasattr(value, "numpy") else value)


def main() -> None:
    cluster, task_type, index, path = json.loads(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4]
    make_strategy = sys.argv[5] == "1" if len(sys.argv) > 5 else True
    os.environ["TF_CONFIG"] = json.dumps({"cluster": cluster, "task": {"type": task_type, "index": index}})
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import numpy as np  # noqa: PLC0415
    import tensorflow as tf  # noqa: PLC0415

    tf.get_logger().setLevel("ERROR")
    strategy = tf.distribute.MultiWorkerMirroredStrategy() if make_strategy else None
    ns = {"tf": tf, "np": np, "backend": _Shim(tf), "strategy": strategy}
    with open(path, encoding="utf-8") as f:
        exec(compile(f.read(), path, "exec"), ns)  # noqa: S102 - the suite's own program
    print("RESULT " + json.dumps(ns.get("result")), flush=True)


if __name__ == "__main__":
    main()
