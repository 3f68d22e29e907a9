"""MultiWorkerMirroredStrategy against TF 2.21 with two worker processes (clauses mwms.*), and
the launcher's own rules: peer failure, launch-required, timing at cross-worker collectives.

`mw_program.run(tf)` prints every observed rule as a line; TF_2_21 below is what two real TF
2.21 workers printed (tensorflow-cpu, TF_CONFIG on localhost ports: `test_tf_prints_the_expected`
runs them again, marker tf, slow). simdist runs the same program under `simdist.launch`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import socket

import pytest

import mw_program
from simdist import tf
from simdist.faults import FaultPlan, Straggler
from simdist.launch import launch
from simdist.runtime import errors
from simdist.strategies.collective_options import CommunicationOptions
from simdist.strategies.multi_worker import group_by_size

HERE = os.path.dirname(os.path.abspath(__file__))

# What two TF 2.21 workers printed (observed: test_tf_prints_the_expected reproduces it). The Keras
# model's weights are set per worker (set_weights assigns locally, on TF too), so the kernels
# differ while the all-reduced gradients and losses agree.
TF_2_21 = {
    0: [
        "worker_devices: ('/job:worker/replica:0/task:0/device:CPU:0',)",
        'num_replicas_in_sync: 2',
        'should_checkpoint/save_summary/experimental_should_init: (True, True, True)',
        "task: ('worker', 0, 'worker', 0)",
        'between_graph: True',
        "variable: ('MirroredVariable', 10.0, '/job:worker/replica:0/task:0/device:CPU:0')",
        'run all_reduce: 13.0',
        'run all_gather: [1.0, 12.0]',
        'replica_id_in_sync_group: 0',
        'reduce SUM: 13.0',
        'reduce MEAN: 6.5',
        'reduce SUM of a plain value: 3.0',
        'gather: [0.0, 0.0, 1.0, 1.0]',
        'experimental_distribute_dataset: [[0, 1], [4, 5], [8, 9]]',
        'distribute_datasets_from_function: [[0, 2], [4, 6], [8]]',
        'InputContext: [(2, 0, 2, 4)]',
        'custom loop losses: [0.0596, 0.187761]',
        'custom loop kernel: [[0.3024030029773712, -0.26422199606895447], [0.32301899790763855, -0.2674500048160553], [0.3436349928379059, -0.27067700028419495]]',
        'metric over workers: 0.06184',
        'predict shape: (8, 2)',
        'fit: ValueError',
        'train_on_batch: ValueError',
    ],
    1: [
        "worker_devices: ('/job:worker/replica:0/task:1/device:CPU:0',)",
        'num_replicas_in_sync: 2',
        'should_checkpoint/save_summary/experimental_should_init: (False, False, True)',
        "task: ('worker', 1, 'worker', 1)",
        'between_graph: True',
        "variable: ('MirroredVariable', 10.0, '/job:worker/replica:0/task:1/device:CPU:0')",
        'run all_reduce: 13.0',
        'run all_gather: [1.0, 12.0]',
        'replica_id_in_sync_group: 1',
        'reduce SUM: 13.0',
        'reduce MEAN: 6.5',
        'reduce SUM of a plain value: 3.0',
        'gather: [0.0, 0.0, 1.0, 1.0]',
        'experimental_distribute_dataset: [[2, 3], [6, 7], [10, 11]]',
        'distribute_datasets_from_function: [[1, 3], [5, 7], [9]]',
        'InputContext: [(2, 1, 2, 4)]',
        'custom loop losses: [0.0596, 0.187761]',
        'custom loop kernel: [[0.40240299701690674, -0.16422200202941895], [0.4230189919471741, -0.16744999587535858], [0.4436349868774414, -0.17067700624465942]]',
        'metric over workers: 0.06184',
        'predict shape: (8, 2)',
        'fit: ValueError',
        'train_on_batch: ValueError',
    ],
}


def _diff(got: list[str], want: list[str], who: str) -> None:
    assert len(got) == len(want), f"{who}: {len(got)} lines, but TF 2.21 printed {len(want)}:\n{got}"
    for g, w in zip(got, want):
        assert g == w, f"{who}: printed {g!r}, but TF 2.21 printed {w!r}"


@pytest.mark.clause("mwms.roles")
@pytest.mark.clause("mwms.all-reduce")
@pytest.mark.clause("mwms.variables")
@pytest.mark.clause("mwms.reduce")
@pytest.mark.clause("mwms.autoshard")
@pytest.mark.clause("mwms.keras")
def test_simdist_prints_what_tf_printed():
    r = launch(lambda: mw_program.run(tf), workers=2)
    assert not r.errors, f"the launch failed: {r.errors}"
    for i in (0, 1):
        _diff(r.results[("worker", i)], TF_2_21[i], f"simdist worker {i}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


@pytest.mark.tf
@pytest.mark.slow
def test_tf_prints_the_expected():
    """Two real TF 2.21 worker processes run mw_program.py and print TF_2_21."""
    ports = [_free_port(), _free_port()]
    cluster = {"worker": [f"localhost:{p}" for p in ports]}
    procs = []
    for i in (0, 1):
        env = dict(os.environ, CUDA_VISIBLE_DEVICES="", TF_CPP_MIN_LOG_LEVEL="3",
                   TF_CONFIG=json.dumps({"cluster": cluster, "task": {"type": "worker", "index": i}}))
        procs.append(subprocess.Popen([sys.executable, os.path.join(HERE, "mw_program.py")], env=env,
                                      stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    for i, p in enumerate(procs):
        out, err = p.communicate(timeout=600)
        res = [ln for ln in out.splitlines() if ln.startswith("RESULT ")]
        assert p.returncode == 0 and res, f"TF worker {i} failed (exit {p.returncode}): {err[-2000:]}"
        _diff(json.loads(res[-1][len("RESULT "):]), TF_2_21[i], f"TF 2.21 worker {i}")


# --- communication options --------------------------------------------------------------------------
@pytest.mark.clause("mwms.communication-options")
def test_communication_options_rules():
    """TF 2.21 (collective_util.Options, observed): bytes_per_pack < 0 is a ValueError; a string
    implementation is looked up upper-cased; timeout_seconds is kept as given (-1 too)."""
    with pytest.raises(ValueError, match=r"Argument `bytes_per_pack` must be >=0, Received -1\."):
        CommunicationOptions(bytes_per_pack=-1)
    o = tf.distribute.experimental.CommunicationOptions(implementation="ring", timeout_seconds=-1)
    assert o.implementation is tf.distribute.experimental.CommunicationImplementation.RING, \
        f"implementation={o.implementation}, but should be RING ['ring' given]"
    assert o.timeout_seconds == -1, f"timeout_seconds={o.timeout_seconds}, but should be -1 (kept as given)"
    with pytest.raises(ValueError, match="communication_options must be an instance"):
        tf.distribute.MultiWorkerMirroredStrategy(communication_options={"bytes_per_pack": 1})


@pytest.mark.tf
@pytest.mark.clause("mwms.communication-options")
def test_group_by_size_is_tfs():
    """simdist's packing equals TF 2.21's cross_device_utils.group_by_size on the same sizes."""
    from tensorflow.python.distribute import cross_device_utils
    import tensorflow as real_tf
    for sizes, per_pack in [([4, 4, 4, 4], 0), ([4, 4, 4, 4], 4), ([40, 4, 4, 400, 4], 8), ([8] * 7, 20), ([4], 1)]:
        tensors = [real_tf.zeros([s // 4], real_tf.float32) for s in sizes]
        want = [[int(t.shape[0]) * 4 for t in pack] for pack in cross_device_utils.group_by_size(tensors, per_pack)]
        got = [[sizes[i] for i in pack] for pack in group_by_size(sizes, per_pack)]
        assert got == want, f"group_by_size({sizes}, {per_pack}) = {got}, but TF 2.21 gives {want}"


# --- the launcher's rules -----------------------------------------------------------------------------
@pytest.mark.clause("mwms.all-reduce")
def test_a_failed_worker_fails_its_peers_pending_collective():
    def main():
        s = tf.distribute.MultiWorkerMirroredStrategy()
        if s.cluster_resolver.task_id == 1:
            raise RuntimeError("worker 1 lost")
        return s.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", tf.constant(1.0)))

    r = launch(main, workers=3)
    assert isinstance(r.errors.get(("worker", 1)), RuntimeError), f"worker 1's error: {r.errors}"
    for i in (0, 2):
        e = r.errors.get(("worker", i))
        assert isinstance(e, errors.UnavailableError), f"worker {i} got {e!r}, but should get UnavailableError"
        assert "task:1" in str(e), f"worker {i}'s error should name the lost task: {e}"


@pytest.mark.clause("mwms.bad-tf-config")
def test_multi_worker_tf_config_outside_a_launch(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": {"worker": ["a:1", "b:1"]},
                                                "task": {"type": "worker", "index": 0}}))
    with pytest.raises(ValueError, match="simdist launch --workers N"):
        tf.distribute.MultiWorkerMirroredStrategy()


@pytest.mark.clause("mwms.bad-tf-config")
def test_tf_config_naming_a_missing_task():
    def main():
        cfg = json.loads(os.environ["TF_CONFIG"])
        cfg["task"]["index"] = 5
        os.environ["TF_CONFIG"] = json.dumps(cfg)
        tf.distribute.MultiWorkerMirroredStrategy()

    r = launch(main, workers=2)
    for i in (0, 1):
        e = r.errors.get(("worker", i))
        assert isinstance(e, ValueError) and "exceeds the maximum id of worker" in str(e), \
            f"worker {i}: {e!r}, but should be TF's ValueError for a task_id beyond the cluster"


def test_each_worker_sees_its_own_environment_and_output():
    def main():
        cfg = json.loads(os.environ["TF_CONFIG"])
        os.environ["MINE"] = str(cfg["task"]["index"])
        print("task", cfg["task"], "cluster", cfg["cluster"]["worker"][cfg["task"]["index"]])
        return os.environ.get("MINE"), os.getenv("TF_CONFIG") == json.dumps(cfg)

    r = launch(main, workers=2, chief=True)
    assert r.results == {("chief", 0): ("0", True), ("worker", 0): ("0", True), ("worker", 1): ("1", True)}, \
        f"results={r.results}"
    assert "MINE" not in os.environ, "a worker's os.environ write leaked out of the launch"
    want = ("[chief 0] task {'type': 'chief', 'index': 0} cluster worker-0.simdist:2222\n"
            "[worker 0] task {'type': 'worker', 'index': 0} cluster worker-0.simdist:2222\n"
            "[worker 1] task {'type': 'worker', 'index': 1} cluster worker-1.simdist:2222\n")
    assert r.stdout == want, f"stdout={r.stdout!r}, but should be {want!r}"


def test_chief_is_id_0_and_should_checkpoint():
    def main():
        s = tf.distribute.MultiWorkerMirroredStrategy()
        rid = s.run(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group)
        return s.extended.should_checkpoint, int(rid), s.num_replicas_in_sync

    r = launch(main, workers=2, chief=True)
    assert r.results == {("chief", 0): (True, 0, 3), ("worker", 0): (False, 1, 3), ("worker", 1): (False, 2, 3)}, \
        f"results={r.results}"


@pytest.mark.clause("mwms.variables")
def test_initial_value_broadcast_is_an_op_the_interpreters_see():
    """Each worker's variable starts from the group leader's value (the chief's), and the
    broadcast reaches the worker's interpreters as TF's ops: the leader's CollectiveBcastSend
    of its own value, every other worker's CollectiveBcastRecv (no input)."""
    from simdist.runtime import execution

    class Seen(execution.Interpreter):
        def __init__(self):
            self.ops = []

        def op(self, opdef, tensors, outs, attrs):
            self.ops.append((opdef.name, len(tensors), outs[0].numpy().tolist(), attrs["group_size"]))
            return outs

    def main():
        cfg = json.loads(os.environ["TF_CONFIG"])
        mine = 10.0 * (cfg["task"]["index"] + 1) + (5.0 if cfg["task"]["type"] == "chief" else 0.0)
        s = tf.distribute.MultiWorkerMirroredStrategy()
        seen = Seen()
        ctx = execution.current()
        ctx.push_tape(seen)
        try:
            with s.scope():
                v = tf.Variable([mine, 1.0])
        finally:
            ctx.pop_tape(seen)
        return [x for x in seen.ops if x[0].startswith("CollectiveBcast")], v.numpy().tolist()

    r = launch(main, workers=2, chief=True)
    assert r.ok, f"errors={r.errors}"
    want = {("chief", 0): ([("CollectiveBcastSend", 1, [15.0, 1.0], 3)], [15.0, 1.0]),
            ("worker", 0): ([("CollectiveBcastRecv", 0, [15.0, 1.0], 3)], [15.0, 1.0]),
            ("worker", 1): ([("CollectiveBcastRecv", 0, [15.0, 1.0], 3)], [15.0, 1.0])}
    assert r.results == want, f"results={r.results}, but should be {want}"


def test_bad_launch_arguments():
    from simdist.usage import UsageError
    for kw, what in [(dict(workers=0), "workers=0"), (dict(workers=2, gpus_per_worker=-1), "gpus_per_worker"),
                     (dict(workers=2, args="x"), "args")]:
        with pytest.raises(UsageError, match=what):
            launch(lambda: None, **kw)
    with pytest.raises(UsageError, match="does not exist"):
        launch("/nonexistent/script.py", workers=1)


# --- simulated time ---------------------------------------------------------------------------------
def _train(steps: int = 3, width: int = 256, options=None):
    def main():
        s = tf.distribute.MultiWorkerMirroredStrategy(communication_options=options)
        with s.scope():
            ws = [tf.Variable(tf.ones([width, width]) * 0.01) for _ in range(4)]

        def step():
            ctx = tf.distribute.get_replica_context()
            with tf.GradientTape() as tape:
                h = tf.ones([32, width])
                for w in ws:
                    h = tf.matmul(h, w)
                loss = tf.reduce_sum(h)
            grads = ctx.all_reduce("SUM", tape.gradient(loss, ws))
            for w, g in zip(ws, grads):
                w.assign_sub(1e-6 * g)
            return loss
        return [float(s.reduce("SUM", s.run(step), axis=None)) for _ in range(steps)]
    return main


@pytest.mark.clause("mwms.communication-options")
def test_a_straggler_slows_every_worker_at_the_next_collective():
    """Worker 2 computes 4x slower: every step's all-reduce waits for it, so the job takes at least
    3x worker 2's forward-pass time longer (its compute is on every worker's critical path)."""
    import simdist
    from simdist.sim import presets
    steps, width = 2, 1024
    cl = presets.cpu_cluster(jobs={"worker": 3})
    cpu_flops = cl.hosts[0].cpus[0].flops
    base = launch(_train(steps, width), workers=3)
    simdist.configure(cluster=cl, faults=FaultPlan(stragglers=[Straggler(worker=2, slowdown=4.0)]))
    try:
        slow = launch(_train(steps, width), workers=3)
    finally:
        simdist.configure()
    assert slow.results == base.results, "a straggler changed values"
    forward = steps * 4 * 2 * 32 * width * width / cpu_flops     # (4 matmuls of 32 x width x width a step)
    assert slow.sim_time - base.sim_time > 3 * forward, \
        f"with worker 2 four times slower the job took {slow.sim_time}s, against {base.sim_time}s without: " \
        f"it should take at least 3 x its forward passes ({forward}s) longer"


@pytest.mark.clause("mwms.communication-options")
def test_launch_is_deterministic_and_packs_cost_latency():
    a = launch(_train(), workers=2, gpus_per_worker=2)
    b = launch(_train(), workers=2, gpus_per_worker=2)
    assert (a.sim_time, a.results) == (b.sim_time, b.results), "two identical launches differ"
    packed = launch(_train(options=CommunicationOptions(bytes_per_pack=1)), workers=2, gpus_per_worker=2)
    assert packed.results == a.results, "bytes_per_pack changed values"
    assert packed.sim_time > a.sim_time, \
        f"4 packs took {packed.sim_time}s, one pack {a.sim_time}s: each pack's latency should add"
    ring = launch(_train(options=CommunicationOptions(implementation="RING")), workers=2, gpus_per_worker=2)
    assert ring.results == a.results and ring.sim_time != a.sim_time, \
        f"RING and AUTO (NCCL on GPUs) should time differently: {ring.sim_time} vs {a.sim_time}"


def test_sixteen_hosts_of_eight_gpus():
    """A 16 x 8 launch (128 replicas) runs a training step with its cross-host all-reduce."""
    r = launch(_train(steps=2, width=32), workers=16, gpus_per_worker=8)
    assert not r.errors, f"errors: {list(r.errors.items())[:2]}"
    vals = {tuple(v) for v in r.results.values()}
    assert len(vals) == 1, f"workers disagree on the losses: {sorted(vals)[:2]}"
    assert r.sim_time > 0


@pytest.mark.clause("mwms.bad-tf-config")
def test_a_tf_config_whose_cluster_is_not_the_launchs():
    def main():
        cfg = json.loads(os.environ["TF_CONFIG"])
        cfg["cluster"]["worker"].append("worker-2.simdist:2222")   # 3 workers in a 2-worker launch
        os.environ["TF_CONFIG"] = json.dumps(cfg)
        tf.distribute.MultiWorkerMirroredStrategy()

    r = launch(main, workers=2)
    for i in (0, 1):
        e = r.errors.get(("worker", i))
        assert isinstance(e, ValueError) and "the launch runs tasks" in str(e), \
            f"worker {i}: {e!r}, but should be a ValueError naming the launch's tasks"


@pytest.mark.clause("mwms.all-reduce")
def test_two_workers_of_two_gpus_compute_what_one_mirrored_host_of_four_does():
    """Global replica order (worker, then local GPU) makes 2 x 2 replicas compute what MirroredStrategy
    on 4 GPUs of one host computes: all_gather order, all_reduce, reduce. (Distributed datasets
    differ on purpose: each worker takes every other rebatched piece, clause mwms.autoshard.)"""
    def program(strategy):
        def fn():
            ctx = tf.distribute.get_replica_context()
            x = tf.cast(ctx.replica_id_in_sync_group, tf.float32) * 10.0 + 1.0
            return ctx.all_gather(tf.reshape(x, [1]), 0), ctx.all_reduce("MEAN", x * x), x
        gathered, mean, x = strategy.run(fn)
        return (strategy.experimental_local_results(gathered)[0].numpy().tolist(),
                float(strategy.experimental_local_results(mean)[0]),
                float(strategy.reduce("SUM", x, axis=None)), strategy.gather(gathered, axis=0).numpy().tolist())

    r = launch(lambda: program(tf.distribute.MultiWorkerMirroredStrategy()), workers=2, gpus_per_worker=2)
    import simdist
    simdist.configure(gpus=4)
    try:
        want = program(tf.distribute.MirroredStrategy())
    finally:
        simdist.configure()
    for task, got in r.results.items():
        assert got == want, f"{task} computed {got}, but MirroredStrategy on 4 GPUs computes {want}"


@pytest.mark.clause("config.runtime-initialization")
def test_each_worker_program_sets_its_own_runtime_before_its_first_tensor():
    """Each worker of a launch is its own TF process: its runtime initialises at its own first
    tensor, so every worker's start-up settings (threads, memory growth of its GPUs, op determinism)
    are accepted though another worker made tensors before, and each reads back its own."""
    def main():
        tid = json.loads(os.environ["TF_CONFIG"])["task"]["index"]
        tf.config.threading.set_intra_op_parallelism_threads(2 + tid)
        for g in tf.config.list_physical_devices("GPU"):
            tf.config.experimental.set_memory_growth(g, True)
        tf.config.experimental.enable_op_determinism()
        s = tf.distribute.MultiWorkerMirroredStrategy()
        out = s.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", tf.random.normal([2], seed=3)))
        try:
            tf.config.threading.set_intra_op_parallelism_threads(9)
            late = "accepted"
        except RuntimeError:
            late = "RuntimeError"
        return [tf.config.threading.get_intra_op_parallelism_threads(), late,
                [tf.config.experimental.get_memory_growth(g) for g in tf.config.list_physical_devices("GPU")],
                s.experimental_local_results(out)[0].shape.as_list()]

    r = launch(main, workers=2, gpus_per_worker=2)
    assert r.ok, f"the workers failed: {r.errors}"
    for i in (0, 1):
        got = r.results[("worker", i)]
        assert got == [2 + i, "RuntimeError", [True, True], [2]], \
            f"worker {i} gave {got}, but should read back [{2 + i}, 'RuntimeError', [True, True], [2]]"
