"""The subnormal rules of the op registry (clause ops.subnormals) without TensorFlow: every op
declares one, the marks and the underflow note behave as documented, and a thread or a replica
gets the same flush as the main thread. TF's values: tests/ops/test_subnormals_tf.py."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from simdist import tf
from simdist.runtime import subnormals
from simdist.runtime.ops import registry

clause = pytest.mark.clause
_KINDS_THAT_MOVE = ("shape", "shape-query", "generator", "random", "collective", "custom")


@clause("ops.subnormals")
def test_every_op_declares_a_rule() -> None:
    tf.nn.relu   # (the facade's modules register their ops on import)
    bad = [(op.name, op.subnormals) for op in registry.registered_ops()
           if not (op.subnormals in (subnormals.FLUSH, subnormals.KEEP, subnormals.MAKES, subnormals.CHECK) or callable(op.subnormals))]
    assert not bad, f"ops without a valid subnormals rule: {bad}, but each should have flush/keep/makes/check or a function"
    moving = [op.name for op in registry.registered_ops() if op.kind in _KINDS_THAT_MOVE
              and op.subnormals != subnormals.KEEP and op.name not in subnormals.RULES]
    assert not moving, f"data-movement ops {moving} flush subnormals, but should keep them unless RULES says"


@clause("ops.subnormals")
def test_flushed_keeps_the_sign_and_the_other_values() -> None:
    a = np.array([1e-39, -1e-39, 0.0, -0.0, 1.0, -np.inf, np.nan], np.float32)
    out = subnormals.flushed(a)
    want = np.array([0.0, -0.0, 0.0, -0.0, 1.0, -np.inf, np.nan], np.float32)
    assert np.array_equal(out.view(np.uint32)[:6], want.view(np.uint32)[:6]) and np.isnan(out[6]), \
        f"flushed={out.tolist()}, but should be {want.tolist()}"
    assert a[0] == np.float32(1e-39), "flushed() changed its input, but should return a new array"
    normal = np.array([1.0, 2.0], np.float32)
    assert subnormals.flushed(normal) is normal, "flushed() copied an array without subnormals"


@clause("ops.subnormals")
def test_marks_follow_the_values() -> None:
    x = tf.constant([1e-39, 1.0])
    assert x._sub, "a constant holding a subnormal is not marked"
    assert not tf.constant([1.0, 2.0])._sub, "a constant without subnormals is marked"
    moved = tf.reshape(tf.gather(-x, [0, 1]), [2, 1])
    assert moved._sub and moved.numpy()[0, 0] == np.float32(-1e-39), \
        f"reshape(gather(-x)) = {moved.numpy().ravel().tolist()} (marked {moved._sub}), but should keep -1e-39 marked"
    y = x * 1.0
    assert not y._sub and y.numpy().tolist() == [0.0, 1.0], \
        f"x * 1.0 = {y.numpy().tolist()} (marked {y._sub}), but should be [0.0, 1.0], unmarked"
    v = tf.Variable([1.0, 1.0])
    v.assign(x)
    assert (v * 3.0).numpy().tolist() == [0.0, 3.0], "a variable assigned a subnormal is not read as zero"
    v.assign(tf.constant([2.0, 2.0]))
    assert not v._sub, "a variable assigned values without subnormals keeps its mark"


@clause("ops.subnormals")
def test_a_stale_underflow_note_changes_nothing() -> None:
    a = tf.constant([1.5, -2.25, 3.0])
    want = (a * 2.0).numpy()
    subnormals._fired[0] = True       # as if NumPy code outside simdist had underflowed
    got = (a * 2.0).numpy()
    assert got.tobytes() == want.tobytes(), f"a * 2 = {got.tolist()} after a stale note, but should be {want.tolist()}"
    assert not subnormals.fired(), "the note was not cleared by the op that checked its result"


@clause("ops.subnormals")
def test_a_new_thread_flushes_as_the_main_thread() -> None:
    box: dict[str, list[float]] = {}

    def body() -> None:
        box["v"] = (tf.constant([1e-20, 2.0]) * tf.constant([1e-20, 2.0])).numpy().tolist()

    t = threading.Thread(target=body)
    t.start()
    t.join()
    assert box["v"] == [0.0, 4.0], f"1e-20 * 1e-20 in a new thread = {box['v'][0]}, but should be 0.0 (flushed)"


@clause("ops.subnormals")
def test_replicas_flush_as_eager_code() -> None:
    import simdist
    simdist.configure(cpus=2)   # (two replicas run as greenlets, whose NumPy error state starts afresh)
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    out = strategy.run(lambda: tf.math.reduce_std(tf.constant([0.0, 1e-19])))
    got = [float(v.numpy()) for v in strategy.experimental_local_results(out)]
    assert got == [0.0, 0.0], f"reduce_std of squared deviations below 2**-126 in replicas = {got}, but should be 0.0"


@clause("ops.subnormals")
def test_a_tf_function_holding_subnormals_runs_its_python_once() -> None:
    # (TF traces once and runs its graph, whose kernels read the subnormal as zero; simdist kept such a call eager,
    # running the Python at every call, until fz55: it now replays the recording op by op through dispatch)
    runs = []

    @tf.function
    def f(x):
        runs.append(1)
        return x * 3.0

    x = tf.constant([1e-39, 1.0])
    first, again = f(x).numpy().tolist(), f(x).numpy().tolist()
    assert first == again == [0.0, 3.0], f"f(x) = {first}, then {again}, but should be [0.0, 3.0] both times"
    assert len(runs) == 1, f"the Python ran {len(runs)} times, but should run once (one trace)"
    from simdist.runtime.graph.replay import explain
    assert "replays" in explain(f), f"explain: {explain(f)!r}, but should say the call replays its recording"

    @tf.function
    def g(x):
        runs.append(2)
        return x * 1e-39 + 1e-39   # (constants holding subnormals: every call op by op)

    outs = [g(tf.constant([1.0, 2e38])).numpy().tolist() for _ in range(2)]
    assert outs == [[0.0, 0.0]] * 2 and runs.count(2) == 1, \
        f"g = {outs}, the Python ran {runs.count(2)} times, but should be zeros (the constant read as zero: DAZ), once"
    assert "subnormal" in explain(g), f"explain: {explain(g)!r}, but should say its constants hold subnormals"


@clause("ops.subnormals")
def test_a_recorded_graph_called_with_subnormals_runs_eagerly() -> None:
    @tf.function
    def f(x):
        return x * 3.0 + x

    normal = tf.constant([1.0, 2.0])
    f(normal)
    f(normal)                               # recorded, then replayed
    got = f(tf.constant([1e-39, 2.0])).numpy().tolist()
    assert got == [0.0, 8.0], f"f([1e-39, 2]) after a recording = {got}, but should be [0.0, 8.0] (flushed)"
    assert f(normal).numpy().tolist() == [4.0, 8.0], "the recorded graph no longer replays normal arguments"
