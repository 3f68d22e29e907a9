"""tf.summary's simdist-side rules (clause summary.event-files): deterministic names and bytes,
simulated wall_time and flush clock, one Python run per tf.function trace, and what TF 2.21 does
that the differential module cannot compare in one process (graph() of TF's own GraphDef, a
writer dropped after its function traced)."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

pytest.importorskip("tensorboard")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _events(path: str) -> list[Any]:
    from tensorboard.backend.event_processing.event_file_loader import RawEventFileLoader
    from tensorboard.compat.proto import event_pb2
    return [event_pb2.Event.FromString(r) for r in RawEventFileLoader(path).Load()]


def _only_file(d: str) -> str:
    files = sorted(os.listdir(d))
    assert len(files) == 1, f"{d} holds {files}, but should hold one event file"
    return os.path.join(d, files[0])


def _mirrored_program(log_dir: str) -> float:
    """Summaries between steps of a MirroredStrategy(2) (which charges simulated time)."""
    import simdist
    from simdist import tf
    simdist.reset()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with strategy.scope():
        v = tf.Variable(np.ones((64, 64), np.float32) / 64)
    w = tf.summary.create_file_writer(log_dir)

    @tf.function
    def step(x: Any) -> Any:
        def replica(x: Any) -> Any:
            y = tf.matmul(x, v)
            v.assign(y)
            return tf.reduce_sum(y)
        return strategy.reduce("SUM", strategy.run(replica, args=(x,)), axis=None)

    with w.as_default():
        for i in range(3):
            loss = step(tf.ones((64, 64)))
            tf.summary.scalar("loss", loss, step=i)
            tf.summary.histogram("v", v, step=i)
    w.close()
    return simdist.now()


@pytest.mark.clause("summary.event-files")
def test_same_names_and_bytes_every_run(tmp_path: Any) -> None:
    _mirrored_program(str(tmp_path / "a"))
    _mirrored_program(str(tmp_path / "b"))
    a, b = _only_file(str(tmp_path / "a")), _only_file(str(tmp_path / "b"))
    assert os.path.basename(a) == os.path.basename(b), f"event files named {a} and {b}, but should be named alike"
    with open(a, "rb") as fa, open(b, "rb") as fb:
        assert fa.read() == fb.read(), "two identical runs wrote different event file bytes"


@pytest.mark.clause("summary.event-files")
def test_wall_time_and_file_stamp_are_simulated_time(tmp_path: Any) -> None:
    end = _mirrored_program(str(tmp_path))
    path = _only_file(str(tmp_path))
    stamp = os.path.basename(path).split(".")[3]
    assert stamp == "0000000000", f"file stamp {stamp}, but should be the simulated seconds at creation (0)"
    times = [e.wall_time for e in _events(path)]
    assert times[0] == 0.0 and times == sorted(times) and 0 < times[-1] <= end, \
        f"wall_time {times}, but should be simulated seconds from 0 rising to at most {end}"


@pytest.mark.clause("summary.event-files")
def test_flush_millis_counts_simulated_time(tmp_path: Any) -> None:
    """A queued event is written at the first write after flush_millis of simulated time (TF: wall clock)."""
    import simdist
    from simdist import tf
    simdist.reset()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    w = tf.summary.create_file_writer(str(tmp_path), max_queue=100, flush_millis=1)
    path = _only_file(str(tmp_path))
    with w.as_default(step=0):
        tf.summary.scalar("a", 1.0)
        queued = len(_events(path))
        t0 = simdist.now()
        while simdist.now() - t0 <= 0.001:
            strategy.run(lambda: tf.matmul(tf.ones((256, 256)), tf.ones((256, 256))))
        tf.summary.scalar("b", 2.0)
        written = len(_events(path))
    assert (queued, written) == (1, 3), \
        f"records on disk {queued} then {written}, but should be 1 (queued) then 3 (flushed after 1 ms simulated)"


@pytest.mark.clause("summary.event-files")
def test_function_python_runs_once_and_writes_every_call(tmp_path: Any) -> None:
    from simdist import tf
    from simdist.runtime import graph
    calls: list[int] = []
    w = tf.summary.create_file_writer(str(tmp_path))
    step = tf.Variable(0, dtype=tf.int64)

    @tf.function
    def f(x: Any) -> Any:
        calls.append(1)
        with w.as_default(step=step):
            with tf.summary.record_if(lambda: step % 2 == 0):
                ok = tf.summary.scalar("x", x)
        step.assign_add(1)
        return ok

    oks = [bool(f(tf.constant(float(i)))) for i in range(5)]
    w.close()
    steps = [e.step for e in _events(_only_file(str(tmp_path)))[1:]]
    assert len(calls) == 1, f"the Python body ran {len(calls)} times, but should run once [{graph.explain(f)}]"
    assert oks == [True, False, True, False, True] and steps == [0, 2, 4], \
        f"returned {oks} writing steps {steps}, but should return True at even steps and write steps [0, 2, 4]"


@pytest.mark.clause("summary.event-files")
def test_writer_dropped_after_its_trace(tmp_path: Any) -> None:
    """A writer made inside a tf.function and not kept: TF deletes it when the trace ends (every
    call NotFoundError); simdist's first call runs the Python and writes, later calls raise."""
    from simdist import tf

    @tf.function
    def f(x: Any) -> Any:
        wf = tf.summary.create_file_writer(str(tmp_path))
        with wf.as_default():
            return tf.summary.scalar("own", x, step=1)

    got = []
    for i in range(3):
        try:
            got.append(bool(f(tf.constant(float(i)))))
        except Exception as e:  # noqa: BLE001 - the error is the result
            got.append(type(e).__name__)
    assert got == [True, "NotFoundError", "NotFoundError"], \
        f"calls gave {got}, but should give [True, NotFoundError, NotFoundError] (the documented difference)"


@pytest.mark.clause("summary.event-files")
def test_graph_writes_tfs_graph_def(tmp_path: Any) -> None:
    """tf.summary.graph of TensorFlow's own GraphDef message: the event's graph_def at step 0 (a
    child process: importing TF's graph_pb2 imports TF)."""
    pytest.importorskip("tensorflow")
    code = f"""
import os
from tensorflow.core.framework import graph_pb2
from simdist import tf
g = graph_pb2.GraphDef(); n = g.node.add(); n.name = "x"; n.op = "Const"
w = tf.summary.create_file_writer({str(tmp_path)!r})
print(bool(tf.summary.graph(g)))
with w.as_default():
    print(bool(tf.summary.graph(g)))
    with tf.summary.record_if(False):
        print(bool(tf.summary.graph(g)))
w.close()
"""
    env = {**os.environ, "PYTHONPATH": ROOT, "TF_CPP_MIN_LOG_LEVEL": "3"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, f"the child failed: {out.stderr[-2000:]}"
    assert out.stdout.split() == ["False", "True", "False"], \
        f"graph() returned {out.stdout.split()}, but should return False (no writer), True, False (record_if(False))"
    from tensorboard.compat.proto import graph_pb2   # (the same message, without importing TF here)
    events = _events(_only_file(str(tmp_path)))
    assert len(events) == 2 and events[1].step == 0 and graph_pb2.GraphDef.FromString(events[1].graph_def).node[0].name == "x", \
        f"events {events}, but should be the version event and the graph_def at step 0"


@pytest.mark.clause("summary.event-files")
def test_without_tensorboard_the_error_names_the_extra(monkeypatch: Any, tmp_path: Any) -> None:
    from simdist import tf
    monkeypatch.setitem(sys.modules, "tensorboard.compat.proto", None)
    with pytest.raises(ImportError, match=r"simdist\[tensorboard\]"):
        tf.summary.create_file_writer(str(tmp_path))
