"""Fact a: what a surviving MWMS worker sees when a peer dies, is slow, or restarts (TF 2.21).

    python docs/tools/mwms_facts/faults.py --mode kill    [--timeout-seconds T]
    python docs/tools/mwms_facts/faults.py --mode slow    --delay D [--timeout-seconds T]
    python docs/tools/mwms_facts/faults.py --mode restart [--restart-after S] [--timeout-seconds T]

Two workers run a tf.function training step (a variable updated by the all-reduced gradient) in
a loop, 0.2 s apart. ``kill``: worker 1 kills itself with SIGKILL before step 4. ``slow``: worker 1
sleeps D seconds before step 4 (a straggler). ``restart``: as ``kill``, and a new worker-1 process
with the same TF_CONFIG (TF already imported) builds its strategy ``--restart-after`` seconds
(default 1) after the death. Each worker prints the error class
and message it gets and how long (wall clock) the failing step took, then tries one more step.
With ``--timeout-seconds`` the strategy gets CommunicationOptions(timeout_seconds=T).
"""

import json
import os
import signal
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def _msg(e: BaseException) -> str:
    lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
    keep = [ln for ln in lines if "Graph execution error" not in ln and not ln.startswith(("File ", "Node:"))]
    return " | ".join(keep)[:600]


def worker(mode: str, timeout_seconds: float | None, delay: float) -> None:
    import tensorflow as tf

    task = json.loads(os.environ["TF_CONFIG"])["task"]
    restarted = os.environ.get("MWMS_FACTS_RESTARTED") == "1"
    go = os.environ.get("MWMS_FACTS_GO_FILE")
    if go:  # a replacement started early (TF imported): wait for the driver's go
        while not os.path.exists(go):
            time.sleep(0.05)
    print(f"START {task} restarted={restarted} t={time.time():.3f}", flush=True)
    opts = tf.distribute.experimental.CommunicationOptions(timeout_seconds=timeout_seconds)
    try:
        strategy = tf.distribute.MultiWorkerMirroredStrategy(communication_options=opts)
    except Exception as e:  # noqa: BLE001 - the observation
        print(f"CONSTRUCT ERROR {type(e).__name__}: {_msg(e)}", flush=True)
        return
    print(f"CONSTRUCTED t={time.time():.3f}", flush=True)
    with strategy.scope():
        w = tf.Variable(1.0)

    @tf.function
    def step():
        def fn():
            with tf.GradientTape() as tape:
                loss = w * w
            g = tape.gradient(loss, w)
            g = tf.distribute.get_replica_context().all_reduce("SUM", g)
            w.assign_sub(0.01 * g)
            return loss
        return strategy.reduce("SUM", strategy.run(fn), axis=None)

    for i in range(1, 40):
        if task["index"] == 1 and i == 4 and not restarted:
            if mode in ("kill", "restart"):
                print(f"DYING at step {i} t={time.time():.3f}", flush=True)
                os.kill(os.getpid(), signal.SIGKILL)
            if mode == "slow":
                print(f"SLEEPING {delay}s before step {i}", flush=True)
                time.sleep(delay)
        t = time.time()
        try:
            loss = step()
            print(f"STEP {i} loss={float(loss):.4f} took={time.time() - t:.1f}s", flush=True)
        except Exception as e:  # noqa: BLE001 - the observation
            print(f"ERROR at step {i}: {type(e).__module__}.{type(e).__name__} after {time.time() - t:.1f}s; "
                  f"message: {_msg(e)}", flush=True)
            t2 = time.time()
            try:
                step()
                print("NEXT STEP OK", flush=True)
            except Exception as e2:  # noqa: BLE001
                print(f"NEXT STEP ERROR {type(e2).__name__} after {time.time() - t2:.1f}s: {_msg(e2)[:200]}",
                      flush=True)
            return
        if i >= 8 and mode != "slow":
            print("DONE 8 steps", flush=True)
            return
        time.sleep(0.2)
    print("DONE", flush=True)


def main() -> None:
    import argparse

    p = argparse.ArgumentParser()
    p.add_argument("--mode", choices=("kill", "slow", "restart"), default="kill")
    p.add_argument("--timeout-seconds", type=float, default=None)
    p.add_argument("--delay", type=float, default=8.0)
    p.add_argument("--wait", type=float, default=150)
    p.add_argument("--restart-after", type=float, default=1.0)
    a = p.parse_args()
    if "TF_CONFIG" in os.environ:
        worker(a.mode, a.timeout_seconds, a.delay)
        return
    sys.path.insert(0, HERE)
    import cluster

    args = ["--mode", a.mode, "--delay", str(a.delay)]
    if a.timeout_seconds is not None:
        args += ["--timeout-seconds", str(a.timeout_seconds)]
    prog = os.path.abspath(__file__)
    spec = cluster.make_cluster(2)
    t0 = time.monotonic()
    tasks = [cluster.start_task(prog, spec, job, i, args, t0=t0) for job, i in cluster.tasks_of(spec)]
    if a.mode == "restart":
        # The replacement process starts now and imports TF (slow on a busy machine), then waits
        # for the go file, which the driver writes `--restart-after` seconds after the death.
        go = os.path.join(tempfile.mkdtemp(), "go")
        tasks.append(cluster.start_task(prog, spec, "worker", 1, args, t0=t0,
                                        env_extra={"MWMS_FACTS_RESTARTED": "1", "MWMS_FACTS_GO_FILE": go}))
        deadline = time.monotonic() + a.wait
        while tasks[1].proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(a.restart_after)
        open(go, "w").close()
        print(f"(replacement worker 1 released {a.restart_after}s after the death)")
    ok = cluster.wait_all(tasks, a.wait)
    if not ok:
        print(f"(timeout after {a.wait}s: remaining tasks killed)")
    cluster.report(tasks, grep=("START", "CONSTRUCT", "STEP", "DYING", "SLEEP", "ERROR", "DONE", "Traceback"))


if __name__ == "__main__":
    main()
