"""Fact b: MWMS under a TF_CONFIG that does not match the cluster that runs (TF 2.21).

    python docs/tools/mwms_facts/bad_config.py CASE [--wait SECONDS]

CASE is one of:
  index-out-of-range  one process whose task is worker 5 of a 2-worker cluster
  type-not-in-cluster one process whose task is ps 0 of a worker-only cluster
  no-task             one process whose TF_CONFIG has a cluster but no task
  missing-worker      the cluster lists 3 workers, only 2 processes run
  mismatched-clusters worker 0 sees 2 workers, worker 1 sees 3
Each process prints what constructing MultiWorkerMirroredStrategy and one reduce did, and when.
"""

import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def _msg(e: BaseException) -> str:
    return " | ".join(ln.strip() for ln in str(e).splitlines() if ln.strip())[:500]


def worker() -> None:
    import tensorflow as tf

    print(f"TF_CONFIG {os.environ['TF_CONFIG']}", flush=True)
    t = time.time()
    try:
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        print(f"CONSTRUCTED after {time.time() - t:.1f}s num_replicas_in_sync={strategy.num_replicas_in_sync}",
              flush=True)
        out = strategy.reduce("SUM", strategy.run(lambda: tf.constant(1.0)), axis=None)
        print(f"REDUCE {float(out)} after {time.time() - t:.1f}s", flush=True)
    except Exception as e:  # noqa: BLE001 - the observation
        print(f"ERROR after {time.time() - t:.1f}s: {type(e).__module__}.{type(e).__name__}: {_msg(e)}", flush=True)


def main() -> None:
    import argparse

    p = argparse.ArgumentParser()
    p.add_argument("case")
    p.add_argument("--wait", type=float, default=120)
    a = p.parse_args()
    if "TF_CONFIG" in os.environ:
        worker()
        return
    sys.path.insert(0, HERE)
    import cluster

    prog = os.path.abspath(__file__)
    args = [a.case]
    t0 = time.monotonic()
    two = cluster.make_cluster(2)
    start = cluster.start_task
    if a.case == "index-out-of-range":
        tasks = [start(prog, two, "worker", 5, args, t0=t0)]
    elif a.case == "type-not-in-cluster":
        tasks = [start(prog, two, "ps", 0, args, t0=t0)]
    elif a.case == "no-task":
        tasks = [start(prog, two, "worker", 0, args, t0=t0, tf_config={"cluster": two})]
    elif a.case == "missing-worker":
        three = cluster.make_cluster(3)
        tasks = [start(prog, three, "worker", i, args, t0=t0) for i in range(2)]
    elif a.case == "mismatched-clusters":
        three = dict(two, worker=two["worker"] + [f"localhost:{cluster.free_port()}"])
        tasks = [start(prog, two, "worker", 0, args, t0=t0), start(prog, three, "worker", 1, args, t0=t0)]
    else:
        raise SystemExit(f"unknown case {a.case!r}")
    ok = cluster.wait_all(tasks, a.wait)
    if not ok:
        print(f"(still running after {a.wait}s: killed)")
    cluster.report(tasks, grep=("TF_CONFIG", "CONSTRUCTED", "REDUCE", "ERROR", "Traceback"))


if __name__ == "__main__":
    main()
